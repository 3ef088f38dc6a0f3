"""pir: PaddlePaddle's PIR from Python, without Paddle.

The distribution is named ``pir-rs`` and imports as ``pir``:
``pip install ./crates/pir-py`` (from a checkout of pir-rs) installs the
distribution ``pir-rs``, then ``import pir``. (``pir`` on PyPI is another
project.) ``pir.__version__`` is the version of ``pir-rs``.

Read a model Paddle 3.x wrote (``.json``), a legacy Paddle 2.x ``.pdmodel``
or IR text; print it exactly as Paddle prints it; walk and edit its ops;
run passes; read its parameters as NumPy arrays straight from the file's
memory; and save it back for Paddle.

>>> import pir
>>> model = pir.load("inference/model.json")         # + model.pdiparams, mapped
>>> print(model.program)                              # Paddle's print, byte for byte
>>> for op in model.program.walk("pd_op.matmul"):
...     x, y = op.operands
...     print(op.attributes["transpose_y"], x.shape, y.shape)
>>> model.params["linear_0.w_0"]                      # read-only numpy.ndarray, no copy
>>> model.opt("canonicalize,cse,dce")                 # any `pir opt -p` pipeline
>>> model.save("out/model")                           # out/model.json + .pdiparams
>>> model.save("out/model", overwrite=True)           # replacing existing files

Every error is a ``pir.PirError``; each carries ``file``, ``json_path``,
``line``, ``column`` and ``offset`` (``None`` where they do not apply).
A file of the wrong kind (a ``.pdiparams`` given to ``pir.load``) is a
``pir.FileKindError`` saying what the file is.
"""

# `collections.abc` re-exports these classes from `_collections_abc`, which
# the interpreter has imported at startup; importing `collections` for them
# would add its cost to every `import pir`.
import _collections_abc as _abc

from ._pir import (
    PIR_VERSION,
    Attribute,
    Block,
    EditError,
    FileKindError,
    InferError,
    InternalError,
    LegacyError,
    MissingParamsError,
    Model,
    Op,
    Params,
    ParamsError,
    ParseError,
    PassError,
    PirError,
    Program,
    ReadError,
    Region,
    TensorBuffer,
    Type,
    Use,
    Value,
    VerifyError,
    WriteError,
    __version__,
    load,
    load_params,
    load_state_dict,
    op_definition,
    parse,
    passes,
    save_params,
    save_state_dict,
    tensor_type,
    upgrade,
    vector_type,
)

# Where an error happened; set on every instance pir raises.
PirError.file = None
PirError.json_path = None
PirError.line = None
PirError.column = None
PirError.offset = None
VerifyError.errors = ()

_abc.MutableMapping.register(Params)

from . import ops  # noqa: E402  (needs the native module above)
from .ops import InsertionPoint  # noqa: E402

__all__ = [
    "PIR_VERSION",
    "Attribute",
    "Block",
    "EditError",
    "FileKindError",
    "InferError",
    "InsertionPoint",
    "InternalError",
    "LegacyError",
    "MissingParamsError",
    "Model",
    "Op",
    "Params",
    "ParamsError",
    "ParseError",
    "PassError",
    "PirError",
    "Program",
    "ReadError",
    "Region",
    "TensorBuffer",
    "Type",
    "Use",
    "Value",
    "VerifyError",
    "WriteError",
    "__version__",
    "load",
    "load_params",
    "load_state_dict",
    "op_definition",
    "ops",
    "parse",
    "passes",
    "save_params",
    "save_state_dict",
    "tensor_type",
    "upgrade",
    "vector_type",
]
