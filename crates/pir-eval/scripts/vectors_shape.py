"""Vectors of the reductions, softmax, shape and indexing ops and the
creation ops.

Operands that are mutable attributes in PIR are written as the tensors a
program holds: `float` scalars as float32 [1], `double` as float64 [1],
`int` as int32 [1], `int64_t` as int64 [1], int arrays as int64 [n].
"""

import numpy as np
import paddle
from paddle import _C_ops

from vectors_lib import ALL, DT, FLOATS, INF, INTS, NAN, Writer, attr, data, ints, make, per_dtype


def scalar(v, dtype):
    return paddle.to_tensor(np.array([v], dtype=dtype))


def reductions():
    for op in ["sum", "mean", "max", "min", "prod"]:
        def build(dt, op=op):
            out = []
            for xs, axis, keep in [([2, 3, 4], [1], False), ([2, 3, 4], [0, 2], True), ([2, 3, 4], [], False),
                                   ([2, 3, 4], [-1], True), ([5], [0], False), ([3, 40], [1], False),
                                   ([], [], False), ([2, 0], [1], False), ([2, 3], [-2, -1], False)]:
                if op in ("max", "min") and 0 in xs:
                    continue  # Paddle rejects empty max/min reductions.
                lo, hi = (-1.5, 1.5) if op == "prod" else (-4.0, 4.0)
                x = make(data(xs, dt, lo, hi), dt)
                at = ints(axis)
                if op == "sum":
                    attrs = [attr("dtype", "dtype", "Undefined"), attr("keepdim", "bool", keep)]
                    fn = lambda x=x, axis=axis, keep=keep: _C_ops.sum(x, axis, None, keep)  # noqa: E731
                elif op == "prod":
                    attrs = [attr("keepdim", "bool", keep), attr("reduce_all", "bool", axis == [])]
                    fn = lambda x=x, axis=axis, keep=keep: _C_ops.prod(x, axis, keep, axis == [])  # noqa: E731
                else:
                    attrs = [attr("keepdim", "bool", keep)]
                    fn = lambda x=x, axis=axis, keep=keep: getattr(_C_ops, op)(x, axis, keep)  # noqa: E731
                out.append((f"{xs}{axis}{keep}", [x, at], attrs, fn))
            if dt in FLOATS:
                x = make([[1.0, NAN, -INF], [INF, 2.0, -0.0]], dt)
                at = ints([1])
                if op == "sum":
                    attrs = [attr("dtype", "dtype", "Undefined"), attr("keepdim", "bool", False)]
                    fn = lambda x=x: _C_ops.sum(x, [1], None, False)  # noqa: E731
                elif op == "prod":
                    attrs = [attr("keepdim", "bool", False), attr("reduce_all", "bool", False)]
                    fn = lambda x=x: _C_ops.prod(x, [1], False, False)  # noqa: E731
                else:
                    attrs = [attr("keepdim", "bool", False)]
                    fn = lambda x=x: getattr(_C_ops, op)(x, [1], False)  # noqa: E731
                out.append(("special", [x, at], attrs, fn))
            if op == "sum" and dt in ("int32", "bool", "float32"):
                for to in ["int64", "float64", "int32"]:
                    x = make(data([2, 3], dt), dt)
                    out.append((f"to{to}", [x, ints([0])],
                                [attr("dtype", "dtype", to), attr("keepdim", "bool", False)],
                                lambda x=x, to=to: _C_ops.sum(x, [0], DT[to], False)))
            return out

        per_dtype(Writer(op), ALL, build)

    for op in ["all", "any"]:
        def build_bool(dt, op=op):
            out = []
            for xs, axis, keep in [([2, 3], [1], False), ([2, 3, 2], [0, 2], True), ([2, 3], [], False),
                                   ([2, 3], [-1], True), ([], [], False), ([2, 0], [1], False)]:
                x = make(data(xs, dt, -1, 1) * (RNG_ZERO[: int(np.prod(xs))].reshape(xs) if xs else 1), dt)
                out.append((f"{xs}{axis}{keep}", [x], [attr("axis", "i64_array", axis), attr("keepdim", "bool", keep)],
                            lambda x=x, axis=axis, keep=keep: getattr(_C_ops, op)(x, axis, keep)))
            return out

        per_dtype(Writer(op), ALL, build_bool)

    for op in ["argmax", "argmin"]:
        def build_arg(dt, op=op):
            out = []
            for xs, axis, keep, flat, odt in [([2, 3, 4], 1, False, False, "int64"), ([2, 3, 4], -1, True, False, "int32"),
                                              ([2, 3], 0, False, True, "int64"), ([5], 0, False, False, "int64"),
                                              ([2, 3], 0, True, True, "int64"), ([], 0, False, False, "int64")]:
                x = make(data(xs, dt, -3, 3), dt)
                out.append((f"{xs}{axis}{keep}{flat}{odt}", [x, scalar(axis, "int64")],
                            [attr("keepdims", "bool", keep), attr("flatten", "bool", flat), attr("dtype", "dtype", odt)],
                            # The sunk Python API flattens when axis is None (axis 0).
                            lambda x=x, axis=axis, keep=keep, flat=flat, odt=odt:
                            getattr(paddle, op)(x, None if flat else axis, keep, odt)))
            if dt in FLOATS:
                x = make([[1.0, NAN, 3.0], [2.0, 2.0, -INF]], dt)
                out.append(("special", [x, scalar(1, "int64")],
                            [attr("keepdims", "bool", False), attr("flatten", "bool", False), attr("dtype", "dtype", "int64")],
                            lambda x=x: getattr(paddle, op)(x, 1, False, "int64")))
            return out

        per_dtype(Writer(op), ALL, build_arg)

    def build_cumsum(dt):
        out = []
        for xs, axis, flat, excl, rev in [([2, 3], 1, False, False, False), ([2, 3], 0, False, True, False),
                                          ([2, 3], -1, False, False, True), ([2, 3], -1, True, True, True),
                                          ([3, 2, 2], 1, False, False, False), ([], 0, False, False, False)]:
            x = make(data(xs, dt), dt)
            out.append((f"{xs}{axis}{flat}{excl}{rev}", [x, scalar(axis, "int32")],
                        [attr("flatten", "bool", flat), attr("exclusive", "bool", excl), attr("reverse", "bool", rev)],
                        lambda x=x, axis=axis, flat=flat, excl=excl, rev=rev: _C_ops.cumsum(x, axis, flat, excl, rev)))
        if dt in FLOATS:
            x = make([1.0, NAN, 2.0, INF, -INF, 3.0], dt)
            out.append(("special", [x, scalar(0, "int32")],
                        [attr("flatten", "bool", False), attr("exclusive", "bool", False), attr("reverse", "bool", False)],
                        lambda x=x: _C_ops.cumsum(x, 0, False, False, False)))
        return out

    per_dtype(Writer("cumsum"), ALL, build_cumsum)

    for op in ["softmax", "log_softmax"]:
        def build_softmax(dt, op=op):
            out = []
            for xs, axis in [([2, 3, 4], -1), ([2, 3, 4], 1), ([2, 3], 0), ([5], 0), ([], -1), ([0, 3], 1)]:
                x = make(data(xs, dt), dt)
                out.append((f"{xs}{axis}", [x], [attr("axis", "i32", axis)],
                            lambda x=x, axis=axis: getattr(_C_ops, op)(x, axis)))
            if dt in FLOATS:
                x = make([[1.0, INF, 2.0], [NAN, 0.0, 1.0], [-INF, -INF, 0.0], [100.0, 100.0, -100.0]], dt)
                out.append(("special", [x], [attr("axis", "i32", -1)], lambda x=x: getattr(_C_ops, op)(x, -1)))
            return out

        per_dtype(Writer(op), ALL, build_softmax)


RNG_ZERO = np.array([1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])


def shape_ops():
    def simple(op, cases, fn, attrs_of, operands_of=None, dtypes=ALL, **kw):
        def build(dt):
            out = []
            for c in cases:
                xs = c[0]
                x = make(data(xs, dt), dt)
                ins = [x] + (operands_of(c) if operands_of else [])
                out.append((f"{c}", ins, attrs_of(c), lambda x=x, c=c: fn(x, c), kw))
            return out

        per_dtype(Writer(op), dtypes, build)

    simple("squeeze", [([2, 1, 3, 1], [1]), ([2, 1, 3, 1], []), ([2, 1, 3, 1], [-1, 1]), ([1], [0]), ([2, 3], [0])],
           lambda x, c: _C_ops.squeeze(x, c[1]), lambda c: [], lambda c: [ints(c[1])])
    simple("unsqueeze", [([2, 3], [0]), ([2, 3], [-1]), ([2, 3], [0, 3]), ([], [0]), ([2], [1, -1])],
           lambda x, c: _C_ops.unsqueeze(x, c[1]), lambda c: [], lambda c: [ints(c[1])])
    simple("flatten", [([2, 3, 4], 1, 2), ([2, 3, 4], 0, -1), ([2, 3, 4], -2, -1), ([], 0, -1), ([2, 3], 1, 1)],
           lambda x, c: _C_ops.flatten(x, c[1], c[2]),
           lambda c: [attr("start_axis", "i32", c[1]), attr("stop_axis", "i32", c[2])])
    simple("expand", [([3], [2, 3]), ([2, 1], [2, 4]), ([2, 1], [-1, 3]), ([], [3]), ([1, 3], [2, 2, 3])],
           lambda x, c: _C_ops.expand(x, c[1]), lambda c: [], lambda c: [ints(c[1])])
    simple("tile", [([3], [2]), ([2, 1], [2, 3]), ([2, 3], [2]), ([], [3]), ([2], [2, 1, 2])],
           lambda x, c: _C_ops.tile(x, c[1]), lambda c: [], lambda c: [ints(c[1])])
    simple("shape", [([2, 3],), ([],), ([0, 4, 1],)], lambda x, c: _C_ops.shape(x), lambda c: [])
    simple("numel", [([2, 3],), ([],), ([0, 4, 1],)], lambda x, c: _C_ops.numel(x), lambda c: [])
    simple("flip", [([2, 3], [0]), ([2, 3], [-1]), ([2, 3, 2], [0, 2]), ([4], [0]), ([], [])],
           lambda x, c: _C_ops.flip(x, c[1]), lambda c: [attr("axis", "i32_array", c[1])])
    simple("shape64", [([2, 3],), ([],), ([0, 4, 1],)], lambda x, c: _C_ops.shape64(x), lambda c: [])
    simple("expand_as", [([3], [2, 3]), ([2, 1], [2, 4]), ([], [2, 2])],
           lambda x, c: _C_ops.expand_as(x, None, c[1]), lambda c: [attr("target_shape", "i64_array", c[1])],
           operands=[1, 0])
    simple("slice", [([4, 5], [0], [1], [3], [], []), ([4, 5], [1], [-3], [100], [], []),
                     ([4, 5], [0, 1], [1, 0], [2, 2], [], [0]), ([4, 5], [0], [3], [1], [], []),
                     ([6], [0], [-1], [6], [], [0]), ([4, 5], [1], [-100], [-2], [], [])],
           lambda x, c: _C_ops.slice(x, c[1], c[2], c[3], [1] * len(c[1]), c[5]),
           lambda c: [attr("axes", "i64_array", c[1]), attr("infer_flags", "i64_array", [1] * len(c[1])),
                      attr("decrease_axis", "i64_array", c[5])],
           lambda c: [ints(c[2]), ints(c[3])])
    simple("strided_slice", [([6], [0], [1], [5], [2]), ([6], [0], [5], [0], [-2]), ([4, 5], [0, 1], [0, -1], [4, 0], [2, -1]),
                             ([6], [0], [-1], [-100], [-1]), ([4, 5], [1], [10], [0], [1])],
           lambda x, c: _C_ops.strided_slice(x, c[1], c[2], c[3], c[4]),
           lambda c: [attr("axes", "i32_array", c[1])], lambda c: [ints(c[2]), ints(c[3]), ints(c[4])])

    def build_split(dt):
        out = []
        # A negative axis makes Paddle 3.3.1 cut the wrong elements.
        for xs, sections, axis in [([4, 3], [1, 3], 0), ([2, 6], [2, -1, 1], 1), ([2, 3], [3], 1)]:
            x = make(data(xs, dt), dt)
            out.append((f"{xs}{sections}{axis}", [x, ints(sections), scalar(axis, "int32")], [],
                        lambda x=x, s=sections, a=axis: _C_ops.split(x, s, a), dict(vector_out=True)))
        return out

    per_dtype(Writer("split"), ALL, build_split)

    def build_split_num(dt):
        out = []
        # A negative axis is rejected by Paddle's split_with_num.
        for xs, num, axis in [([4, 3], 2, 0), ([2, 6], 3, 1), ([2, 3], 1, 1)]:
            x = make(data(xs, dt), dt)
            out.append((f"{xs}{num}{axis}", [x, scalar(axis, "int32")], [attr("num", "i32", num)],
                        lambda x=x, n=num, a=axis: _C_ops.split_with_num(x, n, a), dict(vector_out=True)))
        return out

    per_dtype(Writer("split_with_num"), ALL, build_split_num)

    def build_unstack(dt):
        out = []
        for xs, axis in [([2, 3], 0), ([2, 3, 2], -1), ([3], 0)]:
            x = make(data(xs, dt), dt)
            n = xs[axis]
            out.append((f"{xs}{axis}", [x], [attr("axis", "i32", axis), attr("num", "i32", n)],
                        lambda x=x, a=axis, n=n: _C_ops.unstack(x, a, n), dict(vector_out=True)))
        return out

    per_dtype(Writer("unstack"), ALL, build_unstack)

    for op in ["concat", "stack"]:
        def build_join(dt, op=op):
            out = []
            for shapes, axis in [([[2, 3], [2, 3]], 0), ([[2, 1], [2, 3], [2, 2]], -1), ([[3], [3], [3]], 0),
                                 ([[2, 3], [2, 3]], 1)] + ([([[2, 0], [2, 2]], 1)] if op == "concat" else
                                                          [([[], []], 0), ([[2, 3], [2, 3]], -1)]):
                if op == "stack" and len({tuple(s) for s in shapes}) > 1:
                    continue
                xs = [make(data(s, dt), dt) for s in shapes]
                if op == "concat":
                    ins, at = xs + [scalar(axis, "int32")], []
                    fn = lambda xs=xs, a=axis: _C_ops.concat(xs, a)  # noqa: E731
                    ops = [[len(xs)], 1]
                else:
                    ins, at = xs, [attr("axis", "i32", axis)]
                    fn = lambda xs=xs, a=axis: _C_ops.stack(xs, a)  # noqa: E731
                    ops = [[len(xs)]]
                out.append((f"{shapes}{axis}", ins, at, fn, dict(operands=ops)))
            return out

        per_dtype(Writer(op), ALL, build_join)

    def build_gather(dt):
        out = []
        for xs, idx, axis in [([4, 3], [2, 0, 2], 0), ([4, 3], [1, 2], 1), ([3], [0], 0), ([4, 3], [[1], [3]], 0),
                              ([4, 3], [-1, 0], 0)]:
            x = make(data(xs, dt), dt)
            for idt in ["int64", "int32"]:
                ix = ints(idx, idt)
                out.append((f"{xs}{idx}{axis}{idt}", [x, ix, scalar(axis, "int32")], [],
                            lambda x=x, ix=ix, a=axis: _C_ops.gather(x, ix, a)))
        return out

    per_dtype(Writer("gather"), ALL, build_gather)

    def build_index_select(dt):
        out = []
        for xs, idx, axis in [([4, 3], [2, 0, 2], 0), ([4, 3], [1, 2], 1), ([4, 3], [2], -1), ([4, 3], [-1], 0)]:
            x = make(data(xs, dt), dt)
            ix = ints(idx)
            out.append((f"{xs}{idx}{axis}", [x, ix], [attr("axis", "i32", axis)],
                        lambda x=x, ix=ix, a=axis: _C_ops.index_select(x, ix, a)))
        return out

    per_dtype(Writer("index_select"), ALL, build_index_select)

    def build_gather_nd(dt):
        out = []
        for xs, idx in [([3, 4], [[1, 2], [0, 0]]), ([3, 4], [[2], [0]]), ([2, 3, 2], [[[1, 0]], [[0, 2]]]),
                        ([3, 4], [[-1, 1]]), ([3, 4], np.zeros([2, 0], dtype="int64").tolist())]:
            x = make(data(xs, dt), dt)
            ix = ints(np.array(idx, dtype="int64").reshape(np.array(idx).shape if idx else [2, 0]))
            out.append((f"{xs}{idx}", [x, ix], [], lambda x=x, ix=ix: _C_ops.gather_nd(x, ix)))
        return out

    per_dtype(Writer("gather_nd"), ALL, build_gather_nd)


def creation_ops():
    def build_full(dt):
        return [(f"{shape}={value}", [],
                 [attr("shape", "int_array", shape), attr("value", "f64", value), attr("dtype", "dtype", dt)],
                 lambda shape=shape, value=value: _C_ops.full(shape, value, DT[dt], paddle.CPUPlace()))
                for shape, value in [([2, 3], 1.5), ([], -2.75), ([3], 0.1), ([2, 2], 7.0), ([0], 1.0)]]

    per_dtype(Writer("full"), ALL, build_full)

    def build_full_int_array(dt):
        return [(f"{value}", [], [attr("value", "i64_array", value), attr("dtype", "dtype", dt)],
                 lambda value=value: _C_ops.full_int_array(value, DT[dt], paddle.CPUPlace()))
                for value in [[1, -2, 3], [7], []]]

    per_dtype(Writer("full_int_array"), ALL, build_full_int_array)

    def build_full_like(dt):
        out = []
        for xs, v, odt in [([2, 3], 1.5, "Undefined"), ([], -2.0, "Undefined"), ([2], 0.1, "float64"),
                           ([2, 2], 3.0, "int32"), ([3], 1.0, "bool"), ([2], -2.7, "int64"),
                           ([2], NAN, "int32"), ([2], -INF, "float16"), ([2], NAN, "bfloat16")]:
            x = make(data(xs, dt), dt)
            if dt == "bool" and odt == "Undefined":
                v = 1.0  # Paddle rejects values outside [0, 1] for bool.
            v32 = float(np.float32(v))
            out.append((f"{xs}{v}{odt}", [x, scalar(v32, "float32")], [attr("dtype", "dtype", odt)],
                        lambda x=x, v=v32, odt=odt: _C_ops.full_like(x, v, DT.get(odt, paddle.base.core.DataType.UNDEFINED),
                                                                     paddle.CPUPlace())))
        return out

    per_dtype(Writer("full_like"), ALL, build_full_like)

    def build_full_with_tensor(dt):
        out = []
        for shape, v in [([2, 3], 1.5), ([3], -2.0), ([], 4.0)]:
            vt = make(np.array([v]), dt)
            out.append((f"{shape}{v}", [vt, ints(shape)], [attr("dtype", "dtype", dt)],
                        lambda vt=vt, s=shape, dt=dt: _C_ops.full_with_tensor(vt, s, DT[dt])))
        return out

    per_dtype(Writer("full_with_tensor"), ALL, build_full_with_tensor)

    def build_full_batch_size_like(dt):
        out = []
        # (input dims, shape, value, input_dim_idx, output_dim_idx)
        for xs, shape, v, i, o in [([5, 2], [2, -1, 3], 1.5, 0, 1), ([3], [-1], -2.0, 0, 0),
                                   ([2, 4], [-1, 2], 0.0, 1, 0), ([1, 3], [2, 7], 3.0, 0, 1)]:
            if dt == "bool":
                v = 1.0
            x = make(data(xs, "float32"), "float32")
            attrs = [attr("shape", "i32_array", shape), attr("dtype", "dtype", dt), attr("value", "f64", v),
                     attr("input_dim_idx", "i32", i), attr("output_dim_idx", "i32", o)]
            out.append((f"{xs}{shape}{v},{i},{o}", [x], attrs,
                        lambda x=x, s=shape, v=v, i=i, o=o, dt=dt: _C_ops.full_batch_size_like(
                            x, s, DT[dt], v, i, o, paddle.CPUPlace())))
        return out

    per_dtype(Writer("full_batch_size_like"), ALL, build_full_batch_size_like)

    def build_arange(dt):
        out = []
        for s, e, st in [(0, 5, 1), (1.5, 4, 0.5), (10, 2, -3), (0, 1, 0.3), (2, 2, 1)]:
            if dt in INTS and any(float(v) != int(v) for v in (s, e, st)):
                continue
            ins = [scalar(v, "float64") for v in (s, e, st)]
            out.append((f"{s},{e},{st}", ins, [attr("dtype", "dtype", dt)],
                        lambda ins=ins, dt=dt: _C_ops.arange(*ins, DT[dt], paddle.CPUPlace())))
        return out

    per_dtype(Writer("arange"), ALL, build_arange)

    def build_linspace(dt):
        out = []
        for s, e, n in [(0, 1, 5), (2, -3, 4), (1, 5, 1), (-1.5, 10, 7)]:
            if dt in INTS and (float(s) != int(s) or float(e) != int(e)):
                continue
            ins = [scalar(s, "float32"), scalar(e, "float32"), scalar(n, "int32")]
            out.append((f"{s},{e},{n}", ins, [attr("dtype", "dtype", dt)],
                        lambda ins=ins, dt=dt: _C_ops.linspace(*ins, DT[dt], paddle.CPUPlace())))
        return out

    per_dtype(Writer("linspace"), ALL, build_linspace)

    def build_assign_value(dt):
        out = []
        for shape, values in [([2, 2], [1.0, -2.5, 3.0, 0.1]), ([3], [7, 0, -1]), ([], [2.0])]:
            vals = [bool(v) for v in values] if dt == "bool" else [int(v) for v in values] if dt in INTS else values
            out.append((f"{shape}{values}", [], [attr("shape", "i32_array", shape), attr("dtype", "dtype", dt),
                                                 attr("values", "f64_array", [float(v) for v in vals])],
                        lambda s=shape, v=vals, dt=dt: _C_ops.assign_value_(paddle.zeros(s, DT[dt]), s, DT[dt], v,
                                                                                paddle.CPUPlace())))
        return out

    per_dtype(Writer("assign_value"), ALL, build_assign_value)

    # assign_value_ overwrites its operand with the values.
    def build_assign_value_(dt):
        out = []
        for name, _, at, fn in build_assign_value(dt):
            shape = at[0][2]
            out.append((name, [paddle.zeros(shape, DT[dt])], at, fn))
        return out

    per_dtype(Writer("assign_value_"), ALL, build_assign_value_)

    def build_one_hot(dt):
        out = []
        for idx, n in [([0, 2, 1], 3), ([[1, 0], [3, 3]], 4), ([], 2)]:
            x = make(np.array(idx), dt) if idx else make(np.array(1), dt)
            out.append((f"{idx}{n}", [x, scalar(n, "int32")], [], lambda x=x, n=n: _C_ops.one_hot(x, n)))
        return out

    per_dtype(Writer("one_hot"), ALL, build_one_hot)


def main():
    reductions()
    shape_ops()
    creation_ops()


if __name__ == "__main__":
    main()
