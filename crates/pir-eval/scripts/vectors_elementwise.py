"""Vectors of the elementwise kernels: binary arithmetic, comparisons,
logical and bitwise ops, unary math and activations, cast, scale, clip."""

import numpy as np
import paddle
from paddle import _C_ops

from vectors_lib import ALL, DT, FLOATS, INF, INTS, NAN, Writer, attr, data, make, per_dtype

SHAPES = [([2, 3], [2, 3]), ([2, 3], [3]), ([4, 1, 3], [2, 1]), ([], [2, 2]), ([0, 3], [3]), ([2, 1], [])]


def binary(op, fn, nonzero=False, ylo=-4.0, yhi=4.0, same_dtype=False):
    w = Writer(op)

    def build(dt):
        out = []
        for xs, ys in SHAPES:
            x = make(data(xs, dt), dt)
            y = make(data(ys, dt, ylo, yhi, nonzero=nonzero), dt)
            out.append((f"{xs}x{ys}", [x, y], [], lambda x=x, y=y: fn(x, y)))
        if dt in FLOATS:
            x = make([NAN, 1.0, INF, -INF, 0.0, -2.0, 5.5, -0.0, INF, -7.25], dt)
            y = make([1.0, NAN, 2.0, INF, -0.0, -INF, 0.0, 3.0, INF, -2.0], dt)
            out.append(("special", [x, y], [], lambda x=x, y=y: fn(x, y)))
        elif dt in INTS:
            big = 2**31 - 1 if dt == "int32" else 2**63 - 1
            x = make([big, -big - 1, 7, -7, 7, -7, 0, 1], dt)
            # INT_MIN / -1 traps (SIGFPE) in Paddle's integer division.
            y = make([2, 2, 3, 3, -3, -3, 5, big], dt) if nonzero else make([1, -1, 3, 3, -3, -3, 0, big], dt)
            out.append(("edges", [x, y], [], lambda x=x, y=y: fn(x, y)))
        return out

    return per_dtype(w, ALL, build, same_dtype=same_dtype)


def unary(op, fn, dtypes=ALL, lo=-4.0, hi=4.0, positive=False, attrs=(), special=None, float_attrs=(),
          same_dtype=True):
    """`attrs`: list of (label, [attr...], fn-extra-args) variants;
    `float_attrs`: more variants run for float dtypes only."""
    variants = list(attrs) or [("", [], ())]
    w = Writer(op)

    def build(dt):
        out = []
        for label, at, extra in variants + (list(float_attrs) if dt in FLOATS else []):
            x = make(data([2, 3], dt, lo, hi, positive=positive), dt)
            out.append((f"2x3{label}", [x], at, lambda x=x, extra=extra: fn(x, *extra)))
        label, at, extra = variants[0]
        z = make(data([], dt, lo, hi, positive=positive), dt)
        out.append((f"0-d{label}", [z], at, lambda z=z, extra=extra: fn(z, *extra)))
        e = make(np.zeros([0, 2]), dt)
        out.append((f"empty{label}", [e], at, lambda e=e, extra=extra: fn(e, *extra)))
        if dt in FLOATS:
            vals = special or [NAN, INF, -INF, 0.0, -0.0, 20.0, -20.0, 1e-3, -1e-3, 0.5, -2.5, 88.5, -100.0]
            s = make(vals, dt)
            for label, at, extra in variants:
                out.append((f"special{label}", [s], at, lambda s=s, extra=extra: fn(s, *extra)))
        if dt in INTS:
            label, at, extra = variants[0]
            big = 2**31 - 1 if dt == "int32" else 2**63 - 1
            s = make([big, -big - 1, 0, -1, 1], dt)
            out.append((f"edges{label}", [s], at, lambda s=s, extra=extra: fn(s, *extra)))
        return out

    return per_dtype(w, dtypes, build, same_dtype=same_dtype)


def f32(v):
    return float(np.float32(v))


def main():
    for op in ["add", "subtract", "multiply", "maximum", "minimum"]:
        binary(op, getattr(_C_ops, op))
    for op in ["divide", "remainder", "floor_divide"]:
        binary(op, getattr(_C_ops, op), nonzero=True, same_dtype=True)
    binary("elementwise_pow", _C_ops.elementwise_pow, ylo=0.0, yhi=3.0)
    for op in ["equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal"]:
        binary(op, getattr(_C_ops, op))
    for op in ["logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"]:
        binary(op, getattr(_C_ops, op))

    pos = dict(positive=True, special=[NAN, INF, -INF, 0.0, -0.0, -1.0, 1e-3, 0.5, 4.0, 1e10])
    for op in ["relu", "relu6", "exp", "expm1", "square", "abs", "sign", "floor", "ceil", "trunc",
               "sin", "cos", "tan", "tanh", "sigmoid", "silu", "swish", "hardswish", "erf",
               "reciprocal", "bitwise_not", "assign"]:
        unary(op, getattr(_C_ops, op))
    for op in ["isnan", "isinf", "isfinite", "logical_not"]:
        unary(op, getattr(_C_ops, op), same_dtype=False)
    for op in ["log", "log2", "log10", "sqrt", "rsqrt"]:
        unary(op, getattr(_C_ops, op), **pos)
    unary("log1p", _C_ops.log1p, lo=-0.9, hi=4.0,
          special=[NAN, INF, -INF, 0.0, -0.0, -1.0, -2.0, 1e-3, 1e-9, 4.0])
    unary("round", _C_ops.round,
          attrs=[("", [attr("decimals", "i32", 0)], (0,)), ("d1", [attr("decimals", "i32", 1)], (1,)),
                 ("d-1", [attr("decimals", "i32", -1)], (-1,))],
          special=[NAN, INF, -INF, 0.5, 1.5, 2.5, -0.5, -2.5, 0.25, 0.35, 14.5, 25.0, -0.0])
    unary("gelu", _C_ops.gelu,
          attrs=[("", [attr("approximate", "bool", False)], (False,)),
                 ("tanh", [attr("approximate", "bool", True)], (True,))])
    unary("hardsigmoid", _C_ops.hardsigmoid,
          attrs=[("", [attr("slope", "f32", f32(0.2)), attr("offset", "f32", 0.5)], (f32(0.2), 0.5)),
                 ("s1o3", [attr("slope", "f32", f32(1 / 6)), attr("offset", "f32", 0.5)], (f32(1 / 6), 0.5))])
    unary("leaky_relu", _C_ops.leaky_relu,
          attrs=[("", [attr("negative_slope", "f64", 0.02)], (0.02,)),
                 ("0.1", [attr("negative_slope", "f64", 0.1)], (0.1,))])
    unary("elu", _C_ops.elu,
          attrs=[("", [attr("alpha", "f32", 1.0)], (1.0,)), ("a0.5", [attr("alpha", "f32", 0.5)], (0.5,))])
    unary("softplus", _C_ops.softplus,
          attrs=[("", [attr("beta", "f64", 1.0), attr("threshold", "f64", 20.0)], (1.0, 20.0)),
                 ("b2t3", [attr("beta", "f64", 2.0), attr("threshold", "f64", 3.0)], (2.0, 3.0))])
    unary("hardtanh", _C_ops.hardtanh,
          attrs=[("", [attr("t_min", "f32", 0.0), attr("t_max", "f32", 24.0)], (0.0, 24.0)),
                 ("-1,1.5", [attr("t_min", "f32", -1.0), attr("t_max", "f32", 1.5)], (-1.0, 1.5))])
    for op in ["softsign", "tanh_shrink"]:
        unary(op, getattr(_C_ops, op))
    unary("selu", _C_ops.selu,
          attrs=[("", [attr("scale", "f32", f32(1.0507009873554805)), attr("alpha", "f32", f32(1.6732632423543772))],
                  (f32(1.0507009873554805), f32(1.6732632423543772))),
                 ("s2a0.5", [attr("scale", "f32", 2.0), attr("alpha", "f32", 0.5)], (2.0, 0.5))])
    unary("celu", _C_ops.celu,
          attrs=[("", [attr("alpha", "f32", 1.0)], (1.0,)), ("a0.5", [attr("alpha", "f32", 0.5)], (0.5,))])
    unary("mish", _C_ops.mish,
          attrs=[("", [attr("lambda", "f32", 20.0)], (20.0,)), ("l1", [attr("lambda", "f32", 1.0)], (1.0,))])
    for op, default in [("hardshrink", 0.5), ("softshrink", 0.5)]:
        unary(op, getattr(_C_ops, op),
              attrs=[("", [attr("threshold", "f32", default)], (default,)),
                     ("t1.25", [attr("threshold", "f32", 1.25)], (1.25,))])
    unary("thresholded_relu", _C_ops.thresholded_relu,
          attrs=[("", [attr("threshold", "f32", 1.0), attr("value", "f32", 0.0)], (1.0, 0.0)),
                 ("t-0.5v2", [attr("threshold", "f32", -0.5), attr("value", "f32", 2.0)], (-0.5, 2.0))])
    unary("pow", _C_ops.pow,
          attrs=[(f"y{y}", [attr("y", "f32", y)], (y,)) for y in [2.0, 0.5, 3.0, 1.75, 0.0]],
          # An integer pow with a negative exponent never returns in Paddle.
          float_attrs=[(f"y{y}", [attr("y", "f32", y)], (y,)) for y in [-1.0, -0.5]],
          special=[NAN, INF, -INF, 0.0, -0.0, -2.0, 0.5, 3.0])

    # cast: every (from, to) pair, values inside every target's range.
    w = Writer("cast")
    for src in ALL:
        x = make(data([2, 3], src, -100.0, 100.0), src)
        for dst in ALL:
            w.case(f"{src}->{dst}", [x], [attr("dtype", "dtype", dst)],
                   lambda x=x, dst=dst: _C_ops.cast(x, DT[dst]))
        if src in FLOATS:
            s = make([NAN, INF, -INF, -0.0, 0.5, -0.5, 1.5, 2.5, 65504.0, 70000.0, 1e-8, 3.3e38], src)
            for dst in ALL:
                w.case(f"{src}special->{dst}", [s], [attr("dtype", "dtype", dst)],
                       lambda s=s, dst=dst: _C_ops.cast(s, DT[dst]))
    w.save()

    # scale: the scale operand is a float32 [1] tensor, as `pd_op.full` makes
    # it, and the bias a float32 attribute: Paddle gets exactly those values.
    def build_scale(dt):
        out = []
        x = make(data([2, 3], dt), dt)
        for s, b, after in [(1.5, 0.7, True), (-0.1, 2.25, False), (3.0, -1.3, True), (2.5, 0.0, False)]:
            st = paddle.to_tensor(np.array([s], dtype="float32"))
            b = f32(b)
            out.append((f"s{s}b{b}{after}", [x, st],
                        [attr("bias", "f32", b), attr("bias_after_scale", "bool", after)],
                        lambda x=x, st=st, b=b, after=after: _C_ops.scale(x, st, b, after)))
        st = paddle.to_tensor(np.array([2.0], dtype="float32"))
        e = make(np.zeros([0]), dt)
        out.append(("empty", [e, st], [attr("bias", "f32", 1.0), attr("bias_after_scale", "bool", True)],
                    lambda: _C_ops.scale(e, st, 1.0, True)))
        return out

    per_dtype(Writer("scale"), ALL, build_scale)

    # clip: min and max are float32 [1] operands (pd_op.full results).
    def build_clip(dt):
        out = []
        for lo, hi, xs in [(-1.25, 2.5, [2, 3]), (0.0, 0.0, [3]), (-3.0, 1.0, []), (2.0, 2.0, [0])]:
            x = make(data(xs, dt), dt)
            a = paddle.to_tensor(np.array([lo], dtype="float32"))
            b = paddle.to_tensor(np.array([hi], dtype="float32"))
            out.append((f"{lo},{hi}{xs}", [x, a, b], [], lambda x=x, lo=lo, hi=hi: _C_ops.clip(x, lo, hi)))
        if dt in FLOATS:
            s = make([NAN, INF, -INF, -0.0, 0.0], dt)
            a = paddle.to_tensor(np.array([-1.0], dtype="float32"))
            b = paddle.to_tensor(np.array([1.0], dtype="float32"))
            out.append(("special", [s, a, b], [], lambda: _C_ops.clip(s, -1.0, 1.0)))
        return out

    per_dtype(Writer("clip"), ALL, build_clip)

    # where(condition, x, y) with broadcasting.
    def build_where(dt):
        out = []
        # The kernel wants equal shapes (the Python API broadcasts first).
        for cs, xs, ys in [([2, 3], [2, 3], [2, 3]), ([], [], []), ([4], [4], [4]), ([0, 2], [0, 2], [0, 2])]:
            c = make(data(cs, "int32", 0, 1), "bool")
            x = make(data(xs, dt), dt)
            y = make(data(ys, dt), dt)
            out.append((f"{cs}{xs}{ys}", [c, x, y], [], lambda c=c, x=x, y=y: _C_ops.where(c, x, y)))
        return out

    per_dtype(Writer("where"), ALL, build_where)


if __name__ == "__main__":
    main()
