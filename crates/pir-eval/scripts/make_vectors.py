#!/usr/bin/env python3
"""Writes the Paddle reference vectors of pir-eval's kernels.

Usage (from anywhere; Paddle 3.3.1 CPU build for python3):

    python3 crates/pir-eval/scripts/make_vectors.py

For every kernel the evaluator implements, this runs the Paddle kernel in
dygraph mode on the CPU (`paddle._C_ops.<op>`, the same phi kernels a PIR
program runs) on small deterministic inputs, once per dtype, and writes
`crates/pir-eval/tests/vectors/<op>.json`:

    {"op": "pd_op.add", "paddle": "3.3.1",
     "cases": [{"name": ..., "inputs": [TENSOR...],
                "attrs": [[name, kind, value]...], "outputs": [TENSOR...]}],
     "unsupported": [dtype...]}

TENSOR is {"dtype": "float32", "dims": [2, 3], "data": [...]}, row-major.
Float data is written with Python's repr of the exact value held (float16,
bfloat16 and float32 values are exactly representable as doubles, so repr
round-trips); non-finite values are the strings "nan", "inf", "-inf".
Attribute kinds: f64, f32, bool, dtype, int_array (pd_op.IntArray),
i64_array / i32_array (builtin arrays). Operands that are attributes in
Paddle's Python API but operands in PIR (scale's scale, reshape's shape,
sum/mean's axis) are written as input tensors, as a PIR program holds them.
"unsupported" lists the dtypes the Paddle CPU kernel rejects; the Rust test
checks that the evaluator rejects them too.

The inputs come from a fixed numpy generator, so re-running the script
reproduces the files byte for byte with the same Paddle build.
"""

import json
import math
import os
import sys
import warnings

warnings.filterwarnings("ignore")
import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle import _C_ops  # noqa: E402

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


def num(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def dump(t):
    """A Paddle tensor as a TENSOR object (bfloat16 via float32: exact)."""
    name = str(t.dtype).replace("paddle.", "")
    if name == "bfloat16":
        arr = t.astype("float32").numpy()
    else:
        arr = t.numpy()
    flat = arr.reshape(-1)
    if name == "bool":
        data = [bool(v) for v in flat]
    elif name in INTS:
        data = [int(v) for v in flat]
    else:
        data = [num(v) for v in flat]
    return {"dtype": name, "dims": list(t.shape), "data": data}


def make(arr, dtype):
    """A Paddle tensor of `dtype` from a float64/int numpy array."""
    if dtype == "bool":
        return paddle.to_tensor(np.asarray(arr) != 0)
    if dtype in INTS:
        return paddle.to_tensor(np.asarray(arr).astype(dtype))
    t = paddle.to_tensor(np.asarray(arr, dtype="float64"))
    return t.astype(DT[dtype])


RNG = np.random.default_rng(20251123)


def data(shape, dtype, lo=-4.0, hi=4.0, positive=False, nonzero=False):
    n = int(np.prod(shape)) if shape else 1
    if dtype in INTS or dtype == "bool":
        v = RNG.integers(-9, 10, size=n)
        if positive:
            v = np.abs(v)
        if nonzero:
            v[v == 0] = 3
        return v.reshape(shape)
    v = RNG.uniform(lo, hi, size=n)
    # A few exactly representable values and ties alongside the random ones.
    special = [0.0, -0.0, 1.0, -1.5, 0.5, 2.0, -3.25]
    for i, s in enumerate(special[: n // 3]):
        v[(i * 5) % n] = s
    if positive:
        v = np.abs(v) + 0.01
    if nonzero:
        v[v == 0] = 0.75
    return v.reshape(shape)


def attr(name, kind, value):
    return [name, kind, value]


class Writer:
    def __init__(self, op):
        self.op = op
        self.cases = []
        self.unsupported = []

    def case(self, name, inputs, attrs, fn):
        try:
            outs = fn()
        except Exception:  # the CPU kernel is not registered for this dtype
            return False
        if not isinstance(outs, (list, tuple)):
            outs = [outs]
        self.cases.append(
            {
                "name": name,
                "inputs": [dump(t) for t in inputs],
                "attrs": attrs,
                "outputs": [dump(o) for o in outs],
            }
        )
        return True

    def save(self):
        path = os.path.join(OUT, self.op + ".json")
        doc = {
            "op": "pd_op." + self.op,
            "paddle": paddle.__version__,
            "cases": self.cases,
            "unsupported": self.unsupported,
        }
        with open(path, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
            f.write("\n")
        print(f"{path}: {len(self.cases)} cases, unsupported {self.unsupported}")


def per_dtype(w, dtypes, build):
    """Runs `build(dtype)` -> list of (name, inputs, attrs, fn) for each dtype."""
    for dt in dtypes:
        ok = True
        for name, inputs, attrs, fn in build(dt):
            ok = w.case(f"{name}/{dt}", inputs, attrs, fn) and ok
        if not ok:
            w.unsupported.append(dt)
            # Drop the cases of a dtype the kernel only partly ran.
            w.cases = [c for c in w.cases if not c["name"].endswith("/" + dt)]


SHAPES = [([2, 3], [2, 3]), ([2, 3], [3]), ([4, 1, 3], [2, 1]), ([], [2, 2]), ([1, 3], [2, 1])]


def binary(op, fn, nonzero=False):
    w = Writer(op)

    def build(dt):
        out = []
        for xs, ys in SHAPES:
            x = make(data(xs, dt), dt)
            y = make(data(ys, dt, nonzero=nonzero), dt)
            out.append((f"{xs}x{ys}", [x, y], [], lambda x=x, y=y: fn(x, y)))
        if dt in FLOATS:
            x = make([float("nan"), 1.0, float("inf"), -float("inf"), 0.0, -2.0], dt)
            y = make([1.0, float("nan"), 2.0, float("inf"), -0.0, float("-inf")], dt)
            out.append(("special", [x, y], [], lambda x=x, y=y: fn(x, y)))
        return out

    per_dtype(w, ALL, build)
    w.save()


def unary(op, fn, dtypes=ALL, lo=-4.0, hi=4.0, positive=False):
    w = Writer(op)

    def build(dt):
        x = make(data([3, 4], dt, lo, hi, positive=positive), dt)
        out = [("3x4", [x], [], lambda: fn(x))]
        if dt in FLOATS:
            s = make([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 20.0, -20.0, 1e-3], dt)
            out.append(("special", [s], [], lambda: fn(s)))
        return out

    per_dtype(w, dtypes, build)
    w.save()


def main():
    os.makedirs(OUT, exist_ok=True)
    if not paddle.__version__.startswith("3.3"):
        print(f"warning: vectors are meant to come from Paddle 3.3.1, not {paddle.__version__}", file=sys.stderr)

    for op in ["add", "subtract", "multiply", "divide", "maximum", "minimum"]:
        binary(op, getattr(_C_ops, op), nonzero=(op == "divide"))
    for op in ["equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal"]:
        binary(op, getattr(_C_ops, op))
    for op in ["relu", "exp", "tanh", "abs", "sigmoid"]:
        unary(op, getattr(_C_ops, op))
    unary("sqrt", _C_ops.sqrt, positive=True)
    unary("assign", _C_ops.assign)

    # cast: every (from, to) pair, values inside every target's range.
    w = Writer("cast")
    for src in ALL:
        x = make(data([2, 3], src, -100.0, 100.0), src)
        for dst in ALL:
            w.case(f"{src}->{dst}", [x], [attr("dtype", "dtype", dst)],
                   lambda x=x, dst=dst: _C_ops.cast(x, DT[dst]))
    w.save()

    # scale: the scale operand is a float32 [1] tensor, as `pd_op.full` makes it.
    w = Writer("scale")

    def build_scale(dt):
        out = []
        x = make(data([2, 3], dt), dt)
        for s, b, after in [(1.5, 0.7, True), (-0.1, 2.25, False), (3.0, -1.3, True)]:
            st = paddle.to_tensor(np.array([s], dtype="float32"))
            out.append((f"s{s}b{b}{after}", [x, st],
                        [attr("bias", "f32", float(np.float32(b))), attr("bias_after_scale", "bool", after)],
                        lambda x=x, st=st, b=b, after=after: _C_ops.scale(x, st, b, after)))
        return out

    per_dtype(w, ALL, build_scale)
    w.save()

    # full / full_int_array
    w = Writer("full")
    for dt in ALL:
        for shape, value in [([2, 3], 1.5), ([], -2.75), ([3], 0.1), ([2, 2], 7.0)]:
            w.case(f"{shape}={value}/{dt}", [],
                   [attr("shape", "int_array", shape), attr("value", "f64", value), attr("dtype", "dtype", dt)],
                   lambda shape=shape, value=value, dt=dt: _C_ops.full(shape, value, DT[dt], paddle.CPUPlace()))
    w.save()
    w = Writer("full_int_array")
    for dt in ["int32", "int64", "float32", "float64"]:
        for value in [[1, -2, 3], [7], []]:
            w.case(f"{value}/{dt}", [], [attr("value", "i64_array", value), attr("dtype", "dtype", dt)],
                   lambda value=value, dt=dt: _C_ops.full_int_array(value, DT[dt], paddle.CPUPlace()))
    w.save()

    # reshape: the shape operand is an int64 tensor (full_int_array's result).
    w = Writer("reshape")

    def build_reshape(dt):
        out = []
        for xs, shape in [([2, 3, 4], [0, -1]), ([2, 3, 4], [4, 0, -1]), ([6], [2, 3]), ([2, 3], [-1]),
                          ([2, 3], [3, 1, 2]), ([1], [])]:
            x = make(data(xs, dt), dt)
            st = paddle.to_tensor(np.array(shape, dtype="int64"))
            out.append((f"{xs}->{shape}", [x, st], [], lambda x=x, shape=shape: _C_ops.reshape(x, shape)))
        return out

    per_dtype(w, ALL, build_reshape)
    w.save()

    w = Writer("transpose")

    def build_transpose(dt):
        out = []
        for xs, perm in [([2, 3], [1, 0]), ([2, 3, 4], [2, 0, 1]), ([2, 1, 3, 2], [3, 1, 0, 2]), ([3], [0])]:
            x = make(data(xs, dt), dt)
            out.append((f"{xs}{perm}", [x], [attr("perm", "i32_array", perm)],
                        lambda x=x, perm=perm: _C_ops.transpose(x, perm)))
        return out

    per_dtype(w, ALL, build_transpose)
    w.save()

    w = Writer("matmul")

    def build_matmul(dt):
        out = []
        for xs, ys, tx, ty in [([2, 3], [3, 4], False, False), ([3, 2], [3, 4], True, False),
                               ([2, 3], [4, 3], False, True), ([3, 2], [4, 3], True, True),
                               ([2, 2, 3], [3, 5], False, False), ([2, 1, 2, 3], [3, 3, 2], False, False),
                               ([3], [3], False, False), ([3], [3, 2], False, False),
                               ([2, 3], [3], False, False), ([4, 2, 3], [3], False, False),
                               ([3], [2, 3, 4], False, False), ([1, 3], [3, 1], False, False),
                               ([4, 16], [16, 5], False, False)]:
            if dt in INTS and len(xs) == 4:
                # Paddle 3.3.1's integer matmul corrupts the heap when both
                # operands broadcast their batch dims (free(): invalid next size).
                continue
            x = make(data(xs, dt), dt)
            y = make(data(ys, dt), dt)
            out.append((f"{xs}{tx}x{ys}{ty}", [x, y],
                        [attr("transpose_x", "bool", tx), attr("transpose_y", "bool", ty)],
                        lambda x=x, y=y, tx=tx, ty=ty: _C_ops.matmul(x, y, tx, ty)))
        return out

    per_dtype(w, ALL, build_matmul)
    w.save()

    for op in ["sum", "mean"]:
        w = Writer(op)

        def build_reduce(dt, op=op):
            out = []
            for xs, axis, keep in [([2, 3, 4], [1], False), ([2, 3, 4], [0, 2], True), ([2, 3, 4], [], False),
                                   ([2, 3, 4], [-1], True), ([5], [0], False), ([3, 40], [1], False)]:
                x = make(data(xs, dt), dt)
                at = paddle.to_tensor(np.array(axis, dtype="int64"))
                if op == "sum":
                    attrs = [attr("dtype", "dtype", "Undefined"), attr("keepdim", "bool", keep)]
                    fn = lambda x=x, axis=axis, keep=keep: _C_ops.sum(x, axis, None, keep)  # noqa: E731
                else:
                    attrs = [attr("keepdim", "bool", keep)]
                    fn = lambda x=x, axis=axis, keep=keep: _C_ops.mean(x, axis, keep)  # noqa: E731
                out.append((f"{xs}{axis}{keep}", [x, at], attrs, fn))
            return out

        per_dtype(w, ALL, build_reduce)
        w.save()


if __name__ == "__main__":
    main()
