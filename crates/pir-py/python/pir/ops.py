"""Build pd_op ops as Paddle's ``paddle._pir_ops`` does, with no type written.

Every op of Paddle 3.3.1 that pir can type is a function here, named as in
Paddle's Python op API (``pir.ops.matmul`` builds ``pd_op.matmul``), with
its arguments in Paddle's order and Paddle's defaults. The result types
come from type inference (Paddle's InferMeta); an op whose operands or
attributes it refuses raises ``pir.InferError`` naming it. Ops are built at
the current insertion point:

>>> import numpy as np, pir
>>> program = pir.Program()
>>> with pir.InsertionPoint(program.block):
...     x = pir.ops.data("x", [-1, 784], "float32")
...     w = pir.ops.parameter("fc.w", [784, 10], "float32")
...     y = pir.ops.softmax(pir.ops.matmul(x, w), -1)
...     pir.ops.fetch(y, "out", 0)
>>> y.type
tensor<-1x10xf32>
>>> model = pir.Model(program)
>>> model.params["fc.w"] = np.zeros((784, 10), np.float32)
>>> model.save("mlp")                     # mlp.json + mlp.pdiparams, for Paddle

As in Paddle, a list of values given for a list input is joined by a
``builtin.combine``; a Python value given for an attribute Paddle passes as
a tensor (``reshape``'s ``shape``, ``scale``'s ``scale``, ``concat``'s
``axis``) becomes a ``pd_op.full_int_array`` or ``pd_op.full`` on the CPU,
and a value may be given instead; a list result is split
(``builtin.split``) and returned as a list. An op with several results
returns a tuple of them, without the intermediate ones Paddle's API hides
(``layer_norm`` returns ``out`` alone; ``Op.results`` has them all).
"""

import contextvars as _contextvars
import keyword as _keyword

from . import _pir

__all__ = ["InsertionPoint", "parameter", "names"]

_CURRENT = _contextvars.ContextVar("pir_insertion_point", default=None)


class InsertionPoint:
    """Where ``pir.ops`` builds: the end of a block (``InsertionPoint(block)``),
    or before or after an op (``InsertionPoint.before(op)``,
    ``InsertionPoint.after(op)``). Used with ``with``; ops built in a row
    keep their order."""

    def __init__(self, block):
        if not isinstance(block, _pir.Block):
            raise TypeError("InsertionPoint takes a pir.Block (or use .before(op) / .after(op))")
        self.block = block
        self._before = None
        self._after = None
        self._tokens = []

    @classmethod
    def before(cls, op):
        """Build just before ``op``."""
        point = cls(_block_of(op))
        point._before = op
        return point

    @classmethod
    def after(cls, op):
        """Build just after ``op`` (then after each op built)."""
        point = cls(_block_of(op))
        point._after = op
        return point

    @staticmethod
    def current():
        """The insertion point of the innermost ``with``, or ``None``."""
        return _CURRENT.get()

    def create_op(self, name, operands, attributes, result_types=None):
        """Creates an op here (types inferred unless given)."""
        op = self.block.create_op(name, operands, attributes, result_types,
                                  before=self._before, after=self._after)
        if self._after is not None:
            self._after = op
        return op

    def __enter__(self):
        self._tokens.append(_CURRENT.set(self))
        return self

    def __exit__(self, *exc):
        _CURRENT.reset(self._tokens.pop())
        return False

    def __repr__(self):
        where = ("before %r" % self._before if self._before is not None
                 else "after %r" % self._after if self._after is not None
                 else "at the end of %r" % self.block)
        return "<pir.InsertionPoint %s>" % where


def _block_of(op):
    block = op.parent_block
    if block is None:
        raise ValueError("%r is not in a block" % op)
    return block


def _point():
    point = _CURRENT.get()
    if point is None:
        raise RuntimeError("no insertion point: build inside `with pir.InsertionPoint(block):`")
    return point


# The dtype of the `full` Paddle builds for a Scalar given as a Python value,
# by the C++ type of the attribute.
_SCALAR_DTYPES = {"float": "float32", "double": "float64", "int": "int32",
                  "int64_t": "int64", "bool": "bool", "": "float32"}


def _as_operand(point, op_name, spec, given):
    """The value for input ``spec``: a Value as it is, a list joined by a
    combine, a Python value of a mutable attribute as a constant op."""
    if given is None:
        if not spec["optional"]:
            raise TypeError("%s() needs `%s`" % (op_name, spec["name"]))
        return None
    if isinstance(given, _pir.Value):
        return given
    if spec.get("mutable_attribute"):
        kind = spec.get("mutable_type", "")
        many = isinstance(given, (list, tuple))
        if many and given and all(isinstance(v, _pir.Value) for v in given):
            return _combine(point, list(given))
        if kind.startswith("std::vector") or (not kind and many):
            values = [int(v) for v in given] if many else [int(given)]
            op = point.create_op("pd_op.full_int_array", [],
                                 {"value": values, "dtype": "int64", "place": "cpu"})
            return op.results[0]
        op = point.create_op("pd_op.full", [], {"shape": [1], "value": float(given),
                                                "dtype": _SCALAR_DTYPES.get(kind, "float32"),
                                                "place": "cpu"})
        return op.results[0]
    if isinstance(given, (list, tuple)) and spec["kind"].endswith("[]"):
        return _combine(point, list(given))
    raise TypeError("%s(): `%s` takes a pir.Value, not %s" % (op_name, spec["name"], type(given).__name__))


def _combine(point, values):
    for v in values:
        if not isinstance(v, _pir.Value):
            raise TypeError("a list input takes pir.Value items, not %s" % type(v).__name__)
    return point.create_op("builtin.combine", values, {}).results[0]


def _results(point, op, definition):
    out = []
    for value, spec in zip(op.results, definition["outputs"]):
        if spec.get("intermediate"):
            continue
        if spec["kind"].endswith("[]") and value.type is not None:
            split = point.create_op("builtin.split", [value], {})
            out.append(list(split.results))
        else:
            out.append(value)
    return out[0] if len(out) == 1 else tuple(out)


def _builder(name, definition):
    import inspect as _inspect  # only where a function is made: it is slow to import

    inputs = {i["name"]: i for i in definition["inputs"]}
    attributes = {a["name"]: a for a in definition["attributes"]}
    order = list(definition["build_args"]) or list(inputs) + list(attributes)
    # A name Python reserves (`lambda`) is spelt with a trailing `_`.
    py_names = {arg: arg + "_" if _keyword.iskeyword(arg) else arg for arg in order}
    params = []
    for arg in order:
        spec = inputs.get(arg)
        if spec is not None:
            default = None if spec["optional"] else _inspect.Parameter.empty
        else:
            default = attributes[arg]["default"] if arg in attributes else None
            if default is None and arg in attributes:
                # A place left out is Paddle's undefined place, as
                # `paddle.static.data` gives it.
                kind = attributes[arg]["kind"]
                default = "undefined" if kind == "Place" else _inspect.Parameter.empty
        params.append(_inspect.Parameter(py_names[arg], _inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                         default=default))
    # Paddle's order stays positional: a default before a parameter without
    # one is dropped (an optional input in the middle is given as None).
    required = False
    for i in reversed(range(len(params))):
        if params[i].default is _inspect.Parameter.empty:
            required = True
        elif required:
            params[i] = params[i].replace(default=_inspect.Parameter.empty)
    signature = _inspect.Signature(params)

    def build(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        given = {arg: bound.arguments.get(py) for arg, py in py_names.items()}
        point = _point()
        operands = {}
        for spec in definition["inputs"]:
            operands[spec["name"]] = _as_operand(point, name, spec, given.get(spec["name"]))
        attrs = {k: v for k, v in given.items() if k in attributes}
        op = point.create_op(definition["name"], operands, attrs)
        return _results(point, op, definition)

    build.__name__ = build.__qualname__ = name
    build.__signature__ = signature
    build.__doc__ = _describe(definition)
    return build


def _describe(definition):
    lines = ["Builds ``%s`` at the current insertion point; returns its result%s."
             % (definition["name"], "s" if len(definition["outputs"]) > 1 else "")]
    for i in definition["inputs"]:
        lines.append("  %s: %s%s" % (i["name"], i["kind"], " (optional)" if i["optional"] else ""))
    for a in definition["attributes"]:
        lines.append("  %s: %s = %r" % (a["name"], a["kind"], a["default"]))
    lines.append("Results: " + ", ".join("%s: %s" % (o["name"], o["kind"]) for o in definition["outputs"]))
    return "\n".join(lines)


def names():
    """The op functions of this module (Paddle's API names), sorted."""
    return sorted(_names())


def parameter(name, shape, dtype="float32", *, trainable=True):
    """A ``builtin.parameter`` named ``name`` (its data goes in
    ``Model.params[name]``), with the marks ``paddle.jit.save`` gives one."""
    point = _point()
    op = point.create_op(
        "builtin.parameter", [],
        {"parameter_name": name, "is_distributed": [False], "is_parameter": [True],
         "need_clip": [True], "persistable": [True], "stop_gradient": [not trainable],
         "trainable": [trainable]},
        [_pir.tensor_type(dtype, list(shape))])
    return op.results[0]


def _api_names():
    """Paddle's API names of the op functions: every ``pd_op`` op with type
    inference and no regions (those are typed from what their regions
    yield), but for the helpers of this module, which keep their names."""
    return frozenset(n.split(".", 1)[1] for n in _pir._inferred_ops()) - _HELPERS


_HELPERS = frozenset(__all__)

# The op functions are made on first use: making all of them (their
# signatures from the op definitions) would cost every `import pir` far
# more than the few a program builds with.
_NAMES = None
_FUNCTIONS = {}


def _names():
    global _NAMES
    if _NAMES is None:
        _NAMES = _api_names()
    return _NAMES


def _function(api):
    function = _FUNCTIONS.get(api)
    if function is None and api in _names():
        function = _FUNCTIONS[api] = _builder(api, _pir.op_definition("pd_op." + api))
    return function


# The op functions are looked up rather than put among the module's globals:
# several share a name with a builtin this module uses (`all`, `sum`, `abs`).
def __getattr__(name):
    if name == "__all__":
        return _HELPER_NAMES + sorted(_names())
    function = None if name.startswith("__") else _function(name)
    if function is None:
        raise AttributeError("pir.ops has no op `%s`%s" % (name, _suggest(name)))
    return function


_HELPER_NAMES = __all__
del __all__


def __dir__():
    return sorted(set(globals()) | _names())


def _suggest(name):
    if name.startswith("__"):
        # What Python looks for on any module (`__path__`, `__wrapped__`).
        return ""
    import difflib

    close = difflib.get_close_matches(name, _names(), n=1)
    if close:
        return " (did you mean `%s`?)" % close[0]
    definition = _pir.op_definition("pd_op." + name)
    if definition is not None:
        return " (pd_op.%s has no type inference yet: use Block.create_op with result_types)" % name
    return ""
