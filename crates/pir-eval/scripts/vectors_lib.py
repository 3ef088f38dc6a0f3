"""Shared helpers of the vector scripts: tensors to JSON, inputs, the writer.

See `make_vectors.py` for the file format.
"""

import json
import math
import os
import warnings
import zlib

warnings.filterwarnings("ignore")
import numpy as np  # noqa: E402
import paddle  # noqa: E402

paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "vectors")

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int32", "int64"]
ALL = FLOATS + INTS + ["bool"]
DT = {
    "float32": paddle.float32,
    "float64": paddle.float64,
    "float16": paddle.float16,
    "bfloat16": paddle.bfloat16,
    "int32": paddle.int32,
    "int64": paddle.int64,
    "bool": paddle.bool,
}
NAN = float("nan")
INF = float("inf")


def num(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 2**53:
        # Integral values print shorter as integers; -0.0 keeps its sign.
        return int(v) if (v != 0 or math.copysign(1, v) > 0) else -0.0
    return v


def dtype_name(t):
    return str(t.dtype).replace("paddle.", "")


def dump(t):
    """A Paddle tensor as a TENSOR object (bfloat16 via float32: exact)."""
    if t is None:
        return None
    name = dtype_name(t)
    arr = t.astype("float32").numpy() if name == "bfloat16" else t.numpy()
    flat = arr.reshape(-1)
    if name == "bool":
        data = [bool(v) for v in flat]
    elif name in INTS:
        data = [int(v) for v in flat]
    else:
        data = [num(v) for v in flat]
    return {"dtype": name, "dims": list(t.shape), "data": data}


def make(arr, dtype):
    """A Paddle tensor of `dtype` from a float64/int numpy array (or list).

    Floats are built as float64 and cast by Paddle: the recorded input is the
    value the kernel saw, whatever rounding the cast did.
    """
    if dtype == "bool":
        return paddle.to_tensor(np.asarray(arr) != 0)
    if dtype in INTS:
        return paddle.to_tensor(np.asarray(arr).astype(dtype))
    t = paddle.to_tensor(np.asarray(arr, dtype="float64"))
    return t if dtype == "float64" else t.astype(DT[dtype])


def ints(values, dtype="int64"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype))


RNG = np.random.default_rng(20251123)


def data(shape, dtype, lo=-4.0, hi=4.0, positive=False, nonzero=False):
    """Deterministic values: full-precision uniform floats with a few exact
    values (0, -0, 1, ties) mixed in, or small integers."""
    n = int(np.prod(shape)) if shape else 1
    if dtype in INTS or dtype == "bool":
        v = RNG.integers(int(max(lo, -9)), int(min(hi, 9)) + 1, size=n)
        if positive:
            v = np.abs(v)
        if nonzero:
            v[v == 0] = 3
        return v.reshape(shape)
    v = RNG.uniform(lo, hi, size=n)
    special = [0.0, -0.0, 1.0, -1.5, 0.5, 2.0, -3.25]
    for i, s in enumerate(special[: n // 3]):
        if lo <= s <= hi:
            v[(i * 5) % n] = s
    if positive:
        v = np.abs(v) + 0.01
    if nonzero:
        v[v == 0] = 0.75
    return v.reshape(shape)


def attr(name, kind, value):
    """Attribute kinds: f64, f32, i32, i64, bool, str, dtype, int_array
    (pd_op.IntArray), i64_array / i32_array / f64_array (builtin arrays)."""
    return [name, kind, value]


class Writer:
    """Collects the cases of one op and writes `<op>.json`."""

    def __init__(self, op):
        # Each op draws its inputs from its own generator, so adding an op
        # leaves the other files unchanged.
        global RNG
        RNG = np.random.default_rng(zlib.crc32(op.encode()))
        self.op = op
        self.cases = []
        self.unsupported = []
        self.promoted = []
        self.errors = {}

    def case(self, name, inputs, attrs, fn, operands=None, vector_out=False, outputs=None):
        """Runs `fn()`; records the case, or returns False if Paddle raised.

        `inputs` is the flat list of input tensors; `operands` (optional) the
        number of tensors of each operand: 1 for a tensor, 0 for an absent
        optional operand, a list [n] for a vector of n tensors. `outputs`
        (optional) picks the results to record by index.
        """
        try:
            outs = fn()
        except Exception as e:  # the CPU kernel is not registered for this dtype
            self.errors[name] = str(e).strip().split("\n")[0][:300]
            return False
        if not isinstance(outs, (list, tuple)):
            outs = [outs]
        if outputs is not None:
            outs = [outs[i] for i in outputs]
        c = {"name": name, "inputs": [dump(t) for t in inputs], "attrs": attrs,
             "outputs": [dump(o) for o in outs]}
        if operands is not None:
            c["operands"] = operands
        if vector_out:
            c["vector_out"] = True
        self.cases.append(c)
        return True

    def save(self):
        path = os.path.join(OUT, self.op + ".json")
        doc = {"op": "pd_op." + self.op, "paddle": paddle.__version__, "cases": self.cases,
               "unsupported": self.unsupported}
        if self.promoted:
            doc["promoted"] = self.promoted
        with open(path, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
            f.write("\n")
        print(f"{self.op}: {len(self.cases)} cases, unsupported {self.unsupported}")
        for name, e in self.errors.items():
            print(f"  {name}: {e}")


def per_dtype(w, dtypes, build, same_dtype=False):
    """Runs `build(dtype)` -> list of (name, inputs, attrs, fn[, kwargs]) per dtype.

    A dtype for which a case raises (Paddle: "kernel not registered") is
    recorded as unsupported and its other cases are dropped. With
    `same_dtype`, an integer or bool dtype whose result comes back as a float
    went through dygraph's int -> float32 autocast, not through the kernel
    for that dtype: it is listed as "promoted" and its cases are dropped.
    """
    for dt in dtypes:
        ok = True
        for item in build(dt):
            name, inputs, attrs, fn = item[:4]
            kw = item[4] if len(item) > 4 else {}
            ok = w.case(f"{name}/{dt}", inputs, attrs, fn, **kw) and ok
        mine = [c for c in w.cases if c["name"].endswith("/" + dt)]
        if not ok:
            w.unsupported.append(dt)
        elif same_dtype and dt not in FLOATS and any(c["outputs"][0]["dtype"] != dt for c in mine):
            w.promoted.append(dt)
        else:
            continue
        w.cases = [c for c in w.cases if not c["name"].endswith("/" + dt)]
    w.save()
    return w
