"""Vectors of matmul, convolutions, pooling and normalisations."""

import numpy as np
import paddle
from paddle import _C_ops

from vectors_lib import ALL, INTS, Writer, attr, data, ints, make, per_dtype

# Static programs stay alive until the process ends (destroying one while
# Paddle still runs can abort).
PROGRAMS = []


def static_outputs(fn, inputs):
    """Runs `fn` on `inputs` in a static PIR program and returns every result
    of the op that makes its first output (dygraph drops the intermediate
    outputs of layer_norm and instance_norm)."""
    arrays = [None if t is None else t.numpy() for t in inputs]
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        PROGRAMS.append(main)
        with paddle.static.program_guard(main):
            vals = [None if a is None else paddle.static.data(f"in{i}", list(a.shape), str(a.dtype))
                    for i, a in enumerate(arrays)]
            results = fn(*vals).get_defining_op().results()
        exe = paddle.static.Executor(paddle.CPUPlace())
        feed = {f"in{i}": a for i, a in enumerate(arrays) if a is not None}
        out = exe.run(main, feed=feed, fetch_list=list(results))
    finally:
        paddle.disable_static()
    return [paddle.to_tensor(o) for o in out]


def conv_attrs(strides, paddings, algo, dilations, groups, fmt):
    return [attr("strides", "i32_array", strides), attr("paddings", "i32_array", paddings),
            attr("padding_algorithm", "str", algo), attr("dilations", "i32_array", dilations),
            attr("groups", "i32", groups), attr("data_format", "str", fmt)]


def nhwc(shape, fmt):
    n, c, h, w = shape
    return [n, h, w, c] if fmt == "NHWC" else shape


CONV = [
    # input NCHW, filter, strides, paddings, algorithm, dilations, groups, format
    ([1, 2, 5, 5], [3, 2, 3, 3], [1, 1], [0, 0], "EXPLICIT", [1, 1], 1, "NCHW"),
    ([2, 2, 5, 6], [2, 2, 3, 2], [2, 1], [1, 2], "EXPLICIT", [1, 1], 1, "NCHW"),
    ([1, 2, 6, 5], [4, 1, 3, 3], [1, 2], [1, 0, 2, 1], "EXPLICIT", [2, 1], 2, "NCHW"),
    ([1, 3, 5, 5], [2, 3, 2, 2], [2, 2], [0, 0], "SAME", [1, 1], 1, "NCHW"),
    ([1, 2, 5, 4], [2, 2, 3, 3], [1, 1], [3, 3], "VALID", [1, 1], 1, "NCHW"),
    ([1, 2, 4, 5], [3, 2, 2, 3], [1, 2], [1, 1], "EXPLICIT", [1, 1], 1, "NHWC"),
    ([1, 4, 4, 4], [4, 2, 3, 3], [1, 1], [1, 1], "SAME", [1, 1], 2, "NHWC"),
    ([1, 2, 3, 3], [2, 2, 5, 5], [1, 1], [1, 1], "EXPLICIT", [1, 1], 1, "NCHW"),
]


def convs():
    def build_conv(dt):
        out = []
        for xs, fs, st, pad, algo, dil, g, fmt in CONV:
            x = make(data(nhwc(xs, fmt), dt, -2, 2), dt)
            f = make(data(fs, dt, -1, 1), dt)
            out.append((f"{xs}{fs}{st}{pad}{algo}{dil}{g}{fmt}", [x, f], conv_attrs(st, pad, algo, dil, g, fmt),
                        lambda x=x, f=f, a=(st, pad, algo, dil, g, fmt): _C_ops.conv2d(x, f, *a)))
        return out

    per_dtype(Writer("conv2d"), ALL, build_conv)

    def build_depthwise(dt):
        out = []
        for xs, mult, st, pad, algo, dil, fmt in [([1, 3, 5, 5], 1, [1, 1], [1, 1], "EXPLICIT", [1, 1], "NCHW"),
                                                 ([2, 2, 5, 4], 2, [2, 1], [0, 1], "EXPLICIT", [1, 2], "NCHW"),
                                                 ([1, 2, 4, 4], 1, [2, 2], [0, 0], "SAME", [1, 1], "NHWC")]:
            c = xs[1]
            x = make(data(nhwc(xs, fmt), dt, -2, 2), dt)
            f = make(data([c * mult, 1, 3, 3], dt, -1, 1), dt)
            at = [attr("strides", "i32_array", st), attr("paddings", "i32_array", pad),
                  attr("padding_algorithm", "str", algo), attr("groups", "i32", c),
                  attr("dilations", "i32_array", dil), attr("data_format", "str", fmt)]
            out.append((f"{xs}{mult}{st}{pad}{algo}{dil}{fmt}", [x, f], at,
                        lambda x=x, f=f, a=(st, pad, algo, c, dil, fmt): _C_ops.depthwise_conv2d(x, f, *a)))
        return out

    per_dtype(Writer("depthwise_conv2d"), ALL, build_depthwise)

    def build_transpose(dt):
        out = []
        for xs, fs, st, pad, opad, osize, algo, g, dil, fmt in [
            ([1, 2, 3, 3], [2, 3, 3, 3], [1, 1], [0, 0], [], [], "EXPLICIT", 1, [1, 1], "NCHW"),
            ([1, 2, 3, 4], [2, 2, 3, 2], [2, 2], [1, 0], [1, 0], [], "EXPLICIT", 1, [1, 1], "NCHW"),
            ([2, 4, 3, 3], [4, 1, 2, 2], [2, 1], [0, 1], [], [], "EXPLICIT", 2, [1, 2], "NCHW"),
            ([1, 2, 3, 3], [2, 2, 3, 3], [2, 2], [0, 0], [], [8, 8], "EXPLICIT", 1, [1, 1], "NCHW"),
            ([1, 2, 3, 3], [2, 2, 3, 3], [2, 2], [0, 0], [], [], "SAME", 1, [1, 1], "NCHW"),
            ([1, 2, 3, 3], [2, 3, 2, 2], [1, 1], [0, 0], [], [], "VALID", 1, [1, 1], "NHWC"),
        ]:
            x = make(data(nhwc(xs, fmt), dt, -2, 2), dt)
            f = make(data(fs, dt, -1, 1), dt)
            at = [attr("strides", "i32_array", st), attr("paddings", "i32_array", pad),
                  attr("output_padding", "i32_array", opad), attr("padding_algorithm", "str", algo),
                  attr("groups", "i32", g), attr("dilations", "i32_array", dil), attr("data_format", "str", fmt)]
            out.append((f"{xs}{fs}{st}{pad}{opad}{osize}{algo}{g}{dil}{fmt}", [x, f, ints(osize)], at,
                        lambda x=x, f=f, a=(st, pad, opad, osize, algo, g, dil, fmt): _C_ops.conv2d_transpose(x, f, *a)))
        return out

    per_dtype(Writer("conv2d_transpose"), ALL, build_transpose)


def pools():
    def build_pool(dt):
        out = []
        for xs, k, st, pad, ceil, excl, fmt, kind, glob, adapt, algo in [
            ([1, 2, 5, 5], [2, 2], [2, 2], [0, 0], False, True, "NCHW", "max", False, False, "EXPLICIT"),
            ([1, 2, 5, 5], [3, 3], [2, 2], [1, 1], False, True, "NCHW", "avg", False, False, "EXPLICIT"),
            ([1, 2, 5, 5], [3, 3], [2, 2], [1, 1], False, False, "NCHW", "avg", False, False, "EXPLICIT"),
            ([1, 2, 5, 5], [2, 2], [2, 2], [0, 0], True, True, "NCHW", "max", False, False, "EXPLICIT"),
            ([1, 2, 5, 5], [2, 2], [2, 2], [0, 0], True, True, "NCHW", "avg", False, False, "EXPLICIT"),
            ([1, 2, 5, 4], [3, 3], [1, 1], [0, 0], False, True, "NCHW", "max", True, False, "EXPLICIT"),
            ([1, 2, 5, 4], [1, 1], [1, 1], [0, 0], False, True, "NCHW", "avg", True, False, "EXPLICIT"),
            ([1, 2, 5, 7], [2, 3], [1, 1], [0, 0], False, True, "NCHW", "avg", False, True, "EXPLICIT"),
            ([1, 2, 5, 7], [3, 2], [1, 1], [0, 0], False, True, "NCHW", "max", False, True, "EXPLICIT"),
            ([1, 2, 5, 5], [2, 2], [2, 2], [0, 0], False, True, "NCHW", "max", False, False, "SAME"),
            ([1, 2, 5, 5], [2, 2], [2, 2], [1, 1], False, True, "NCHW", "avg", False, False, "VALID"),
            ([1, 5, 5, 2], [3, 3], [2, 2], [1, 1, 0, 1], False, True, "NHWC", "avg", False, False, "EXPLICIT"),
            ([1, 4, 4, 2], [2, 2], [2, 2], [0, 0], False, True, "NHWC", "max", False, False, "EXPLICIT"),
        ]:
            x = make(data(xs, dt), dt)
            at = [attr("strides", "i64_array", st), attr("paddings", "i64_array", pad), attr("ceil_mode", "bool", ceil),
                  attr("exclusive", "bool", excl), attr("data_format", "str", fmt), attr("pooling_type", "str", kind),
                  attr("global_pooling", "bool", glob), attr("adaptive", "bool", adapt),
                  attr("padding_algorithm", "str", algo)]
            out.append((f"{xs}{k}{st}{pad}{ceil}{excl}{fmt}{kind}{glob}{adapt}{algo}", [x, ints(k)], at,
                        lambda x=x, a=(k, st, pad, ceil, excl, fmt, kind, glob, adapt, algo): _C_ops.pool2d(x, *a)))
        return out

    per_dtype(Writer("pool2d"), ALL, build_pool)


def norms():
    for op in ["batch_norm", "batch_norm_"]:
        def build_bn(dt, op=op):
            out = []
            for xs, fmt, test, glob, opt in [([2, 3, 2, 2], "NCHW", True, False, True), ([2, 3], "NCHW", True, False, True),
                                             ([2, 2, 2, 3], "NHWC", True, False, True), ([2, 3, 2], "NCHW", False, True, True),
                                             ([2, 3, 2, 2], "NCHW", True, False, False)]:
                c = xs[-1] if fmt == "NHWC" else xs[1]
                pdt = "float32" if dt in ("float16", "bfloat16") else dt
                x = make(data(xs, dt), dt)
                mean = make(data([c], pdt), pdt)
                var = make(data([c], pdt, positive=True), pdt)
                scale = make(data([c], pdt), pdt) if opt else None
                bias = make(data([c], pdt), pdt) if opt else None
                at = [attr("is_test", "bool", test), attr("momentum", "f32", 0.9), attr("epsilon", "f32", float(np.float32(1e-5))),
                      attr("data_format", "str", fmt), attr("use_global_stats", "bool", glob),
                      attr("trainable_statistics", "bool", False)]
                ins = [x, mean, var] + ([scale, bias] if opt else [])
                operands = [1, 1, 1, 1, 1] if opt else [1, 1, 1, 0, 0]
                # batch_norm_ (the same kernel, updating mean and variance in
                # place) only exists in static graphs: it is recorded through
                # batch_norm, on copies of mean and variance.
                out.append((f"{xs}{fmt}{test}{glob}{opt}", ins, at,
                            lambda x=x, m=mean, v=var, s=scale, b=bias, a=(test, 0.9, float(np.float32(1e-5)), fmt, glob, False):
                            _C_ops.batch_norm(x, m.clone(), v.clone(), s, b, *a),
                            # saved_mean/saved_variance/reserve_space are left
                            # uninitialised by the inference kernel.
                            dict(operands=operands, outputs=[0, 1, 2])))
            return out

        per_dtype(Writer(op), ALL, build_bn)

    def build_ln(dt):
        out = []
        for xs, axis, opt in [([2, 3, 4], 1, True), ([2, 3, 4], 2, True), ([2, 3], 1, False), ([4, 5], 1, True)]:
            n = int(np.prod(xs[axis:]))
            pdt = "float32" if dt in ("float16", "bfloat16") else dt
            x = make(data(xs, dt), dt)
            s = make(data([n], pdt), pdt) if opt else None
            b = make(data([n], pdt), pdt) if opt else None
            eps = float(np.float32(1e-5))
            out.append((f"{xs}{axis}{opt}", [x] + ([s, b] if opt else []),
                        [attr("epsilon", "f32", eps), attr("begin_norm_axis", "i32", axis)],
                        lambda x=x, s=s, b=b, axis=axis: static_outputs(
                            lambda x, s, b: _C_ops.layer_norm(x, s, b, eps, axis), [x, s, b]),
                        dict(operands=[1, 1, 1] if opt else [1, 0, 0])))
        return out

    per_dtype(Writer("layer_norm"), ALL, build_ln)

    def build_in(dt):
        out = []
        for xs, opt in [([2, 3, 2, 2], True), ([1, 2, 3, 3], False), ([2, 2, 5], True)]:
            c = xs[1]
            pdt = "float32" if dt in ("float16", "bfloat16") else dt
            x = make(data(xs, dt), dt)
            s = make(data([c], pdt), pdt) if opt else None
            b = make(data([c], pdt), pdt) if opt else None
            eps = float(np.float32(1e-5))
            out.append((f"{xs}{opt}", [x] + ([s, b] if opt else []), [attr("epsilon", "f32", eps)],
                        lambda x=x, s=s, b=b: static_outputs(
                            lambda x, s, b: _C_ops.instance_norm(x, s, b, eps), [x, s, b]),
                        dict(operands=[1, 1, 1] if opt else [1, 0, 0])))
        return out

    per_dtype(Writer("instance_norm"), ALL, build_in)


def matmul():
    def build_matmul(dt):
        out = []
        for xs, ys, tx, ty in [([2, 3], [3, 4], False, False), ([3, 2], [3, 4], True, False),
                               ([2, 3], [4, 3], False, True), ([3, 2], [4, 3], True, True),
                               ([2, 2, 3], [3, 5], False, False), ([2, 1, 2, 3], [3, 3, 2], False, False),
                               ([3], [3], False, False), ([3], [3, 2], False, False),
                               ([2, 3], [3], False, False), ([4, 2, 3], [3], False, False),
                               ([3], [2, 3, 4], False, False), ([1, 3], [3, 1], False, False),
                               ([4, 16], [16, 5], False, False), ([3], [2, 3], False, True),
                               ([2, 0], [0, 3], False, False), ([3, 2], [3], True, False)]:
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

    per_dtype(Writer("matmul"), ALL, build_matmul)

    def build_transpose(dt):
        out = []
        for xs, perm in [([2, 3], [1, 0]), ([2, 3, 4], [2, 0, 1]), ([2, 1, 3, 2], [3, 1, 0, 2]), ([3], [0]),
                         ([2, 3, 2], [-1, 0, 1]), ([], [])]:
            x = make(data(xs, dt), dt)
            out.append((f"{xs}{perm}", [x], [attr("perm", "i32_array", perm)],
                        lambda x=x, perm=perm: _C_ops.transpose(x, perm)))
        return out

    per_dtype(Writer("transpose"), ALL, build_transpose)

    def build_reshape(dt):
        out = []
        for xs, shape in [([2, 3, 4], [0, -1]), ([2, 3, 4], [4, 0, -1]), ([6], [2, 3]), ([2, 3], [-1]),
                          ([2, 3], [3, 1, 2]), ([1], []), ([0, 3], [3, 0])]:
            x = make(data(xs, dt), dt)
            out.append((f"{xs}->{shape}", [x, ints(shape)], [], lambda x=x, shape=shape: _C_ops.reshape(x, shape)))
        return out

    per_dtype(Writer("reshape"), ALL, build_reshape)


def main():
    matmul()
    convs()
    pools()
    norms()


if __name__ == "__main__":
    main()
