"""Type stubs of the native module `pir._pir` (re-exported by `pir`)."""

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Optional, Union

import numpy as np

_Path = Union[str, "os.PathLike[str]"]

__version__: str
PIR_VERSION: int

class PirError(Exception):
    """Base class of every error pir raises."""

    file: Optional[str]
    json_path: Optional[str]
    line: Optional[int]
    column: Optional[int]
    offset: Optional[int]

class ReadError(PirError):
    """A model file could not be read (`json_path` says where)."""

class ParseError(ReadError):
    """Malformed IR text or JSON (`line`, `column`, `offset` say where)."""

class FileKindError(ReadError):
    """A file is not of the kind the call reads (a parameter file given as a
    model...); the message says what the file is."""

class LegacyError(ReadError):
    """A Paddle 2.x `.pdmodel` could not be read or translated."""

class ParamsError(PirError):
    """A parameter file could not be read or written, or a tensor does not fit."""

class WriteError(PirError):
    """A model could not be written."""

class VerifyError(PirError):
    """The program does not verify."""

    errors: Sequence[tuple[str, str]]

class PassError(PirError):
    """A pipeline is malformed or a pass failed (the program is unchanged)."""

class MissingParamsError(PassError):
    """`Model.opt` of a model loaded without the parameter file its program
    needs (`file` names the file looked for)."""

class EditError(PirError):
    """An edit that would break the IR."""

class InferError(PirError):
    """Result types could not be inferred (the message names the op)."""

class InternalError(PirError):
    """An internal error of pir (a bug; please report it with the input):
    the call was abandoned, and a program it was changing is left as it was."""

def load(
    path: _Path,
    *,
    params: Union[bool, _Path, Sequence[_Path]] = True,
    lenient: bool = False,
) -> Model:
    """Read a model (`.json`, legacy `.pdmodel`, IR text, or a prefix) with
    the parameters beside it, viewed without a copy — memory-mapped, or read
    whole when under 256 KiB — (`params=True`), none
    (`params=False`), or those of the given files."""

def parse(text: str, *, strict: bool = False) -> Program:
    """A program from IR text (either form) or Paddle's JSON."""

def upgrade(
    src: _Path,
    dst: _Path,
    *,
    patches: Sequence[_Path] = (),
    overwrite: bool = False,
    accept_develop_version: bool = False,
    readable: Optional[bool] = None,
    trainable: Optional[bool] = None,
) -> int:
    """Rewrite a model file of any Paddle 3.x release as Paddle 3.3.1 writes
    it; returns the source's PIR version."""

def passes() -> list[tuple[str, str]]:
    """`(name, description)` of every registered pass."""

def op_definition(name: str) -> Optional[dict[str, Any]]:
    """The definition of a `pd_op` op (inputs, attributes, outputs...)."""

def tensor_type(dtype: str, shape: Sequence[int]) -> Type:
    """The dense tensor type of `dtype` (`float32`, `f32`...) and `shape`."""

def vector_type(types: Sequence[Type]) -> Type:
    """The type `vec[...]` of `types`."""

def load_state_dict(path: _Path) -> dict[str, Any]:
    """A `.pdparams`/`.pdopt` pickle as `paddle.load` returns it, read
    without executing anything; arrays are read-only views of the file."""

def save_state_dict(path: _Path, state: Mapping[str, Any], overwrite: bool = False) -> None:
    """Write a state dict as the protocol-4 pickle Paddle writes."""

def load_params(
    path: _Path, names: Optional[Sequence[str]] = None
) -> Union[dict[str, np.ndarray], list[np.ndarray]]:
    """The tensors of a `.pdiparams` file (by name when `names` is given)."""

def save_params(
    path: _Path,
    params: Mapping[str, Any],
    overwrite: bool = False,
    dtypes: Optional[Mapping[str, str]] = None,
) -> None:
    """Write a `.pdiparams` file, names sorted as Paddle sorts them."""

class Model:
    """A program with its parameters."""

    def __init__(self, program: Program) -> None: ...
    @property
    def program(self) -> Program: ...
    @property
    def params(self) -> Params: ...
    @property
    def path(self) -> Optional[str]: ...
    def parameter_names(self) -> list[str]: ...
    def save(
        self, prefix: _Path, overwrite: bool = False, *, version: Optional[str] = None
    ) -> None:
        """Write `prefix.json` (+ `.pdiparams`); `version="3.2"` writes it as
        that Paddle release wrote it."""
    def export_onnx(
        self,
        path: _Path,
        opset: int = 17,
        *,
        input_shapes: Optional[Mapping[str, Sequence[int]]] = None,
        optimize: bool = True,
        overwrite: bool = False,
        external_data: bool = False,
    ) -> None:
        """Write the model as ONNX (`pir.WriteError` listing the ops without
        a mapping; nothing is written then); `external_data=True` puts the
        parameters in `path + ".data"`."""
    def opt(
        self,
        pipeline: Optional[str] = None,
        verify: bool = True,
        keep_params: bool = False,
        *,
        rules: Optional[_Path] = None,
    ) -> list[dict[str, Any]]: ...
    def verify(self) -> None: ...

class Program:
    """A program: the `builtin.module` op, its ops, and the file header."""

    def __init__(self) -> None:
        """An empty program to build (`pir.ops`, `Block.create_op`)."""
    @property
    def inputs(self) -> dict[str, Value]:
        """The values of the top-level data and feed ops, by name."""
    def set_input_shapes(self, shapes: Mapping[str, Sequence[int]]) -> dict[str, int]:
        """Fixed dims for inputs, re-inferred through the program
        (`pir.InferError` naming the op a shape contradicts)."""
    def to_text(self, typed: bool = False, json_ids: bool = False) -> str: ...
    def lower(self, typed: bool = False) -> str:
        """The program Paddle's executor runs, lowered to CPU kernels, as
        Paddle prints it after lowering (`typed=True`: the typed form)."""
    def shapes(self) -> str:
        """The program annotated with its symbolic shapes, as Paddle's
        infer_symbolic_shape_pass prints it."""
    def to_json(
        self, readable: Optional[bool] = None, trainable: Optional[bool] = None
    ) -> str: ...
    def save(self, path: _Path, overwrite: bool = False) -> None: ...
    def verify(self) -> None: ...
    @property
    def module(self) -> Op: ...
    @property
    def block(self) -> Block: ...
    @property
    def ops(self) -> list[Op]: ...
    def walk(self, name: Optional[str] = None) -> list[Op]: ...
    @property
    def num_ops(self) -> int: ...
    trainable: bool
    readable: bool
    @property
    def version(self) -> int: ...
    def clone(self) -> Program: ...

class Op:
    """An operation."""

    @property
    def name(self) -> str: ...
    @property
    def is_registered(self) -> bool: ...
    @property
    def is_erased(self) -> bool: ...
    @property
    def attributes(self) -> dict[str, Any]: ...
    def attr(self, name: str, default: Any = None) -> Any: ...
    def set_attr(self, name: str, value: Any) -> None: ...
    def del_attr(self, name: str) -> bool: ...
    @property
    def operands(self) -> list[Optional[Value]]: ...
    def operand(self, key: Union[int, str]) -> Optional[Value]: ...
    def set_operand(self, key: Union[int, str], value: Optional[Value]) -> None: ...
    @property
    def results(self) -> list[Value]: ...
    def result(self, key: Union[int, str]) -> Value: ...
    @property
    def regions(self) -> list[Region]: ...
    @property
    def parent_block(self) -> Optional[Block]: ...
    @property
    def parent_op(self) -> Optional[Op]: ...
    @property
    def next(self) -> Optional[Op]: ...
    @property
    def prev(self) -> Optional[Op]: ...
    @property
    def definition(self) -> Optional[dict[str, Any]]: ...
    def walk(self) -> list[Op]: ...
    def erase(self) -> None: ...
    def replace_with(self, values: Sequence[Value]) -> None: ...
    def move_before(self, other: Op) -> None: ...
    def move_after(self, other: Op) -> None: ...
    def __hash__(self) -> int: ...

class Value:
    """An op result or a block argument."""

    type: Type
    @property
    def shape(self) -> Optional[list[int]]: ...
    @property
    def dtype(self) -> Optional[str]: ...
    @property
    def defining_op(self) -> Optional[Op]: ...
    @property
    def index(self) -> Optional[int]: ...
    @property
    def is_block_arg(self) -> bool: ...
    @property
    def block(self) -> Optional[Block]: ...
    @property
    def uses(self) -> list[Use]: ...
    @property
    def users(self) -> list[Op]: ...
    @property
    def use_count(self) -> int: ...
    def replace_all_uses_with(self, other: Value) -> None: ...
    def __hash__(self) -> int: ...

class Use:
    """Operand `index` of `owner`."""

    @property
    def owner(self) -> Op: ...
    @property
    def index(self) -> int: ...

class Block:
    """Ops in order, with arguments."""

    @property
    def ops(self) -> list[Op]: ...
    @property
    def args(self) -> list[Value]: ...
    @property
    def kwargs(self) -> dict[str, Value]: ...
    @property
    def parent_op(self) -> Optional[Op]: ...
    def add_arg(self, type: Type) -> Value: ...
    def create_op(
        self,
        name: str,
        operands: Union[Sequence[Optional[Value]], Mapping[str, Optional[Value]], None] = None,
        attributes: Optional[Mapping[str, Any]] = None,
        result_types: Optional[Sequence[Type]] = None,
        *,
        regions: Optional[int] = None,
        before: Optional[Op] = None,
        after: Optional[Op] = None,
    ) -> Op: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Op]: ...
    def __hash__(self) -> int: ...

class Region:
    """Blocks owned by an op."""

    @property
    def blocks(self) -> list[Block]: ...
    @property
    def parent_op(self) -> Optional[Op]: ...
    def add_block(self) -> Block: ...
    def __hash__(self) -> int: ...

class Type:
    """An interned type (`tensor<2x3xf32>`...)."""

    @property
    def kind(self) -> str: ...
    @property
    def shape(self) -> Optional[list[int]]: ...
    @property
    def dtype(self) -> Optional[str]: ...
    @property
    def elements(self) -> Optional[list[Type]]: ...
    def __hash__(self) -> int: ...

class Attribute:
    """An attribute without a natural Python value (a place, a scalar...)."""

    @property
    def kind(self) -> str: ...
    def __hash__(self) -> int: ...

class TensorBuffer:
    """The owner of a parameter's bytes, the `base` of its NumPy array."""

    @property
    def __array_interface__(self) -> dict[str, Any]: ...
    @property
    def dtype(self) -> str: ...
    @property
    def is_mapped(self) -> bool:
        """Whether the bytes are the parameter file's, not a copy of their own
        (memory-mapped, or the one buffer a file under 256 KiB was read into)."""

class Params:
    """Parameter name -> read-only NumPy array (no copy); assigning copies."""

    def __getitem__(self, name: str) -> np.ndarray: ...
    def __setitem__(self, name: str, array: Any) -> None: ...
    def __delitem__(self, name: str) -> None: ...
    def __len__(self) -> int: ...
    def __contains__(self, name: object) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def keys(self) -> list[str]: ...
    def values(self) -> list[np.ndarray]: ...
    def items(self) -> list[tuple[str, np.ndarray]]: ...
    def get(self, name: str, default: Any = None) -> Any: ...
    def update(self, other: Mapping[str, Any]) -> None: ...
    def dtype(self, name: str) -> str: ...
    def is_mapped(self, name: str) -> bool:
        """Whether `name` still views the parameter file's bytes (memory-mapped,
        or the one buffer a file under 256 KiB was read into), not a copy."""
