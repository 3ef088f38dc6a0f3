"""Legacy models of the common op set (used by make_legacy_models.py).

Each `m_*` function gets the paddle module (2.6.2, static-graph mode, inside a
`program_guard`) and returns `(description, feeds, fetches[, extra])`: feeds are
`paddle.static.data` variables; `extra` may hold `lod` (feed name -> offsets per level),
`inputs` (fixed input arrays by feed name) and `clip_extra` (for `save_inference_model`).
Legacy ops without a 2.x Python API are appended with [`append_op`].
"""


def append_op(paddle, op_type, inputs, attrs, out_dtype="float32", outputs=("Out",), extra_outs=()):
    """Appends a legacy op that has no Paddle 2.x Python API any more; returns its outputs."""
    from paddle.base.layer_helper import LayerHelper

    helper = LayerHelper(op_type)
    outs = {name: [helper.create_variable_for_type_inference(out_dtype)] for name in outputs}
    for name, dtype in extra_outs:
        outs[name] = [helper.create_variable_for_type_inference(dtype, stop_gradient=True)]
    helper.append_op(type=op_type, inputs=inputs, outputs=outs, attrs=attrs)
    return [outs[name][0] for name in outputs]


def m_elementwise(paddle):
    """elementwise_{sub,mul,div,max,min,pow,mod,floordiv} with and without axis broadcasting, pow, scale, clip, sqrt/exp/log/abs and friends."""
    x = paddle.static.data("x", [-1, 3, 4], "float32")
    y = paddle.static.data("y", [-1, 3, 4], "float32")
    b = paddle.static.data("b", [3], "float32")
    ax = paddle.abs(x) + 0.5
    ay = paddle.abs(y) + 0.5
    outs = [
        paddle.subtract(x, y),
        paddle.multiply(x, y),
        paddle.divide(ax, ay),
        paddle.maximum(x, y),
        paddle.minimum(x, y),
        paddle.pow(ax, ay),
        paddle.pow(ax, 2.5),
        paddle.remainder(ax, ay),
        paddle.floor_divide(paddle.cast(ax * 10.0, "int32"), paddle.full([1], 3, "int32")),
        paddle.sqrt(ax) + paddle.exp(x * 0.1) - paddle.log(ay) + paddle.rsqrt(ax),
        paddle.square(x) + paddle.reciprocal(ax) + paddle.floor(x) + paddle.ceil(y)
        + paddle.sign(y),
        paddle.sin(x) * paddle.cos(y) + paddle.erf(x) + paddle.log1p(ax) + paddle.expm1(x * 0.1),
        paddle.clip(x, -0.5, 0.5),
        paddle.scale(x, scale=2.0, bias=0.5, bias_after_scale=False),
        paddle.scale(x, scale=-1.5, bias=1.0),
    ]
    # Legacy axis broadcasting (elementwise_* with axis=1): [N,3,4] op [3].
    for op_type in ["elementwise_add", "elementwise_mul", "elementwise_sub", "elementwise_div"]:
        outs += append_op(paddle, op_type, {"X": [x], "Y": [b]}, {"axis": 1})
    outs.append(paddle.add_n([x, y, ax]))
    return "element-wise arithmetic, unary math, scale, clip, add_n", [x, y, b], outs


def m_activations(paddle):
    """The activations of PaddleOCR/Det/Clas backbones."""
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 4, 3, 3], "float32")
    prelu = paddle.nn.PReLU(num_parameters=4, init=0.2)
    outs = [
        F.relu(x), F.relu6(x * 4.0), F.hardswish(x * 3.0), F.hardsigmoid(x * 3.0),
        F.sigmoid(x), paddle.tanh(x), F.gelu(x), F.gelu(x, approximate=True), F.swish(x),
        F.silu(x), F.leaky_relu(x, 0.1), prelu(x), F.softmax(x, axis=1),
        F.log_softmax(x, axis=-1), F.elu(x, 0.8), F.softplus(x), F.mish(x),
        F.hardtanh(x, -0.5, 0.5), F.log_sigmoid(x), F.softsign(x), F.selu(x), F.celu(x),
        F.tanhshrink(x), F.hardshrink(x, 0.4),
        F.softshrink(x, 0.2), F.relu(x) + F.maxout(paddle.concat([x, x], 1), groups=2, axis=1),
    ]
    outs.append(paddle.static.nn.prelu(x, mode="all"))
    return "activations (relu6, hard_swish, hard_sigmoid, swish, gelu, prelu, ...)", [x], outs


def m_conv_norm(paddle):
    """Convolutions (plain, depthwise, grouped, dilated, transposed) and every norm."""
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 4, 6, 6], "float32")
    dw = paddle.nn.Conv2D(4, 4, 3, padding=1, groups=4)
    grouped = paddle.nn.Conv2D(4, 4, 3, padding="SAME", groups=2, dilation=2)
    convt = paddle.nn.Conv2DTranspose(4, 2, 3, stride=2, padding=1, output_padding=1)
    convt_dw = paddle.nn.Conv2DTranspose(4, 4, 2, stride=2, groups=4)
    bn = paddle.nn.BatchNorm2D(4)
    inorm = paddle.nn.InstanceNorm2D(4)
    gn = paddle.nn.GroupNorm(2, 4)
    ln = paddle.nn.LayerNorm([6, 6])
    h = dw(x)
    outs = [
        F.relu(bn(h)),
        grouped(x),
        convt(x),
        convt_dw(x),
        inorm(x),
        gn(x),
        ln(x),
        F.normalize(x, axis=1),
        F.local_response_norm(x, size=3),
        F.pixel_shuffle(x, 2),
    ]
    bn_static = paddle.static.nn.batch_norm(x, is_test=True)
    outs.append(bn_static)
    return "depthwise/grouped/transposed conv2d, batch/instance/group/layer norm, normalize, lrn, pixel_shuffle", [x], outs


def m_pool_interp_pad(paddle):
    """pool2d (max, avg, global, adaptive, ceil mode), pad3d, interpolation (v2)."""
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 2, 6, 6], "float32")
    outs = [
        F.max_pool2d(x, 2, 2),
        F.avg_pool2d(x, 3, 2, padding=1, exclusive=False),
        F.avg_pool2d(x, 3, 2, padding=1, ceil_mode=True),
        F.adaptive_avg_pool2d(x, 1),
        F.adaptive_avg_pool2d(x, [3, 2]),
        F.adaptive_max_pool2d(x, 2),
        F.max_pool2d(x, 3, 1, padding="SAME"),
        F.pad(x, [1, 2, 0, 1], mode="constant", value=0.5),
        F.pad(x, [1, 1, 1, 1], mode="reflect"),
        F.pad(x, [1, 1, 1, 1], mode="replicate"),
        F.interpolate(x, scale_factor=2, mode="nearest"),
        F.interpolate(x, size=[5, 7], mode="bilinear", align_corners=False),
        F.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=True),
        F.upsample(x, size=[4, 4], mode="nearest"),
        F.interpolate(x, scale_factor=0.5, mode="bicubic"),
    ]
    return "max/avg/adaptive pool2d, pad3d modes, nearest/bilinear/bicubic interp_v2", [x], outs


def m_matmul(paddle):
    """matmul (v1, with alpha and transposes), matmul_v2 with transposes, mul/fc, bmm."""
    x = paddle.static.data("x", [-1, 3, 4], "float32")
    w = paddle.static.data("w", [-1, 5, 4], "float32")
    outs = [
        paddle.matmul(x, w, transpose_y=True),
        paddle.matmul(w, w, transpose_x=True),
        paddle.matmul(paddle.transpose(x, [0, 2, 1]), w, transpose_x=True, transpose_y=True),
        paddle.bmm(x, paddle.transpose(w, [0, 2, 1])),
        paddle.static.nn.fc(x, 6, num_flatten_dims=2),
        paddle.static.nn.fc(x, 2, activation="relu"),
    ]
    outs += append_op(paddle, "matmul", {"X": [x], "Y": [w]},
                    {"transpose_X": False, "transpose_Y": True, "alpha": 0.5})
    outs += append_op(paddle, "matmul", {"X": [x], "Y": [x]},
                    {"transpose_X": True, "transpose_Y": False, "alpha": 1.0})
    lin = paddle.nn.Linear(4, 3)
    outs.append(lin(x))
    return "matmul v1 (alpha, transposes), matmul_v2 with transposes, mul (fc), bmm, linear", [x, w], outs


def m_shape_ops(paddle):
    """reshape2, transpose2, flatten, squeeze2, unsqueeze2, concat, split, stack, unstack, slice, strided_slice, expand_v2, expand_as_v2, tile, flip, roll."""
    x = paddle.static.data("x", [-1, 2, 3, 4], "float32")
    y = paddle.static.data("y", [-1, 1, 3, 1], "float32")
    r = paddle.reshape(x, [0, 6, -1])
    s1, s2, s3 = paddle.split(x, [1, 1, 2], axis=3)
    e1, e2 = paddle.split(x, 2, axis=1)
    outs = [
        r,
        paddle.transpose(x, [0, 3, 1, 2]),
        paddle.flatten(x, 1),
        paddle.flatten(x, 2, 3),
        paddle.squeeze(y, [1, 3]),
        paddle.squeeze(y),
        paddle.unsqueeze(r, [1, 3]),
        paddle.concat([x, x * 2.0], axis=1),
        paddle.concat([s1, s3], axis=-1),
        s2, e1 - e2,
        paddle.stack([s1, s2], axis=0),
        paddle.unstack(x, axis=1)[1],
        paddle.slice(x, axes=[1, 3], starts=[1, 0], ends=[2, -1]),
        x[:, :, 1:, ::2],
        x[:, 0],
        paddle.strided_slice(x, axes=[2, 3], starts=[0, 3], ends=[3, 0], strides=[2, -1]),
        paddle.expand(y, [-1, 2, 3, 4]),
        paddle.expand_as(y, x),
        paddle.tile(y, [1, 2, 1, 3]),
        paddle.flip(x, [1, 2]),
        paddle.roll(x, shifts=1, axis=3),
        paddle.reshape(x, [-1, 24]),
    ]
    return "reshape/transpose/flatten/squeeze/unsqueeze/concat/split/stack/unstack/slice/strided_slice/expand/tile/flip/roll", [x, y], outs


def m_index_ops(paddle):
    """gather, gather_nd, scatter, index_select, where, masked fill, one_hot_v2, lookup_table_v2, take_along_axis."""
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 5], "float32")
    ids = paddle.static.data("ids", [-1, 3], "int64")
    idx = paddle.full([2], 1, "int64") - paddle.arange(0, 2, dtype="int64")
    emb = paddle.nn.Embedding(10, 4, padding_idx=0)
    emb2 = paddle.static.nn.embedding(ids, size=[10, 3])
    nd_idx = paddle.stack([paddle.zeros([2], "int64"), paddle.arange(1, 3, dtype="int64")], axis=1)
    upd = paddle.full([2, 5], 7.0, "float32")
    outs = [
        paddle.gather(x, idx),
        paddle.gather(x, idx, axis=1),
        paddle.gather_nd(x, nd_idx),
        paddle.scatter(x, idx, upd, overwrite=True),
        paddle.index_select(x, idx, axis=1),
        paddle.where(x > 0, x, paddle.zeros_like(x)),
        paddle.where(x > 0.5, x * 2.0, x),
        F.one_hot(ids, 10),
        emb(ids),
        emb2,
        paddle.take_along_axis(x, paddle.zeros_like(ids), axis=1),
        paddle.masked_fill(x, x < 0, 0.0) if hasattr(paddle, "masked_fill") else x,
    ]
    return "gather/gather_nd/scatter/index_select/where/one_hot_v2/lookup_table_v2/take_along_axis", [x, ids], outs


def m_reduce_sort(paddle):
    """reduce_{sum,mean,max,min,prod}, all/any, arg_max/arg_min, top_k_v2, argsort, cumsum, logsumexp, compare and logical ops."""
    x = paddle.static.data("x", [-1, 4, 5], "float32")
    vals, inds = paddle.topk(x, 2, axis=-1)
    v2, i2 = paddle.topk(x, 1, axis=1, largest=False)
    c = x > 0.0
    outs = [
        paddle.sum(x, axis=1), paddle.sum(x), paddle.mean(x, axis=[1, 2], keepdim=True),
        paddle.max(x, axis=-1), paddle.min(x, axis=1, keepdim=True), paddle.prod(x, axis=2),
        paddle.all(c, axis=1), paddle.any(c),
        paddle.argmax(x, axis=2), paddle.argmin(x, axis=1, keepdim=True),
        paddle.argmax(x, axis=-1, dtype="int32"),
        vals, inds, v2, i2,
        paddle.argsort(x, axis=-1, descending=True),
        paddle.sort(x, axis=1),
        paddle.cumsum(x, axis=1), paddle.cumsum(x),
        paddle.logsumexp(x, axis=-1),
        paddle.logical_and(c, x < 0.5), paddle.logical_or(c, x < -0.5),
        paddle.logical_xor(c, x < 0.5), paddle.logical_not(c),
        paddle.equal(x, x * 2.0), paddle.not_equal(x, paddle.zeros_like(x)), paddle.greater_equal(x, x * 0.5),
        paddle.less_equal(x, x * 0.5), paddle.less_than(x, x * 2.0), paddle.greater_than(x, x + 0.1),
        paddle.isnan(x), paddle.isfinite(x),
        paddle.norm(x, p=2, axis=-1), paddle.std(x, axis=1), paddle.var(x, axis=-1),
    ]
    return "reduce ops, arg_max/arg_min, top_k_v2, argsort, cumsum, logsumexp, compare/logical ops, p_norm", [x], outs


def m_creation(paddle):
    """fill_constant (incl. from a tensor shape), fill_constant_batch_size_like, fill_any_like, range, shape, assign, assign_value, linspace, meshgrid, cast, dropout (inference), tril/triu, eye."""
    x = paddle.static.data("x", [-1, 3], "float32")
    n = paddle.static.data("n", [1], "int64")
    shp = paddle.shape(x)
    batch = paddle.slice(shp, axes=[0], starts=[0], ends=[1])
    full_dyn = paddle.full(paddle.concat([batch, paddle.full([1], 2, "int32")]), 1.5, "float32")
    fbl = append_op(paddle, "fill_constant_batch_size_like", {"Input": [x]},
                  {"shape": [-1, 5], "value": 0.25, "dtype": 5, "input_dim_idx": 0,
                   "output_dim_idx": 0, "force_cpu": False})[0]
    r = paddle.arange(0, 6, 2, dtype="float32")
    r2 = paddle.arange(paddle.full([1], 1, "int64"), n + 3, dtype="int64")
    av = paddle.assign(__import__("numpy").array([[1.0, 2.0, 3.0]], "float32"))
    av_i = paddle.assign(__import__("numpy").array([4, 5, 6], "int64"))
    gx, gy = paddle.meshgrid(paddle.arange(3, dtype="float32"), paddle.arange(2, dtype="float32"))
    outs = [
        paddle.full([2, 3], 3.0), paddle.full([1], 7, "int64"), full_dyn, fbl,
        paddle.ones_like(x), paddle.zeros_like(x, "int32"), paddle.full_like(x, 2.5),
        r, r2, shp, paddle.assign(x) + 1.0, av + x, av_i,
        paddle.linspace(0.0, 1.0, 5), gx + gy,
        paddle.cast(x, "float64"), paddle.cast(x * 3.0, "int32"), paddle.cast(x > 0, "float32"),
        paddle.nn.functional.dropout(x, 0.3, training=False),
        paddle.nn.functional.dropout(x, 0.3, training=False, mode="downscale_in_infer"),
        paddle.tril(paddle.reshape(paddle.concat([x, x, x], 0), [-1, 3])),
        paddle.triu(paddle.ones([3, 3]), 1), paddle.eye(3, 4),
        paddle.numel(x), paddle.diag(paddle.ones([3])),
    ]
    return "fill_constant (attribute and tensor shapes), fill_constant_batch_size_like, fill_any_like, range, shape, assign(_value), linspace, meshgrid, cast, dropout, tril_triu, eye", [x, n], outs


def m_cond_nested(paddle):
    """cond with several results and nested cond (conditional_block + select_input), case/switch_case."""
    x = paddle.static.data("x", [-1, 4], "float32")
    s = paddle.mean(x)
    a, b = paddle.static.nn.cond(s > 0.0, lambda: (x * 2.0, paddle.sum(x)),
                                 lambda: (x - 1.0, paddle.max(x)))

    def inner_true():
        return paddle.static.nn.cond(paddle.max(x) > 1.0, lambda: x + 10.0, lambda: x + 20.0)

    c = paddle.static.nn.cond(s < 0.5, inner_true, lambda: paddle.tanh(x))
    i = paddle.full([1], 1, "int64")
    d = paddle.static.nn.switch_case(i, {0: lambda: x * 0.0, 1: lambda: x * 3.0}, default=lambda: x)
    return "cond with two results, nested cond, switch_case", [x], [a, b, c, d]


def m_while_array(paddle):
    """while_loop with tensor arrays (write_to_array, read_from_array, lod_array_length), increment, less_than."""
    x = paddle.static.data("x", [-1, 3], "float32")
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 4, "int64")
    arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(x, i, array=arr)

    def cond(i, h, arr):
        return i < n

    def body(i, h, arr):
        h = paddle.tanh(h) + 1.0
        j = paddle.increment(i)
        paddle.tensor.array_write(h, j, array=arr)
        return [j, h, arr]

    i_out, h_out, arr_out = paddle.static.nn.while_loop(cond, body, [i, x, arr])
    last = paddle.tensor.array_read(arr_out, paddle.full([1], 2, "int64"))
    length = paddle.tensor.array_length(arr_out)
    return "while_loop carrying a tensor array (array_write/read/length), increment", [x], [h_out, last, length, i_out]


def m_dynamic_attrs(paddle):
    """Mutable attributes from tensors: the `*Tensor` / `*TensorList` inputs of legacy ops."""
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 2, 4, 6], "float32")
    n = paddle.static.data("n", [1], "int64")
    shp = paddle.shape(x)
    b = shp[0]
    k = paddle.full([1], 2, "int32")
    lo = paddle.full([1], -0.2, "float32")
    hi = paddle.full([1], 0.3, "float32")
    start = paddle.full([1], 1, "int64")
    v, i = paddle.topk(x, k)
    y = paddle.static.setitem(x, (slice(None), 0, slice(1, 3)), 5.0)
    z = paddle.static.setitem(x, (slice(None), 1), paddle.full([1], -2.0))
    outs = [
        paddle.reshape(x, [b, 4, -1]),
        paddle.reshape(x, paddle.concat([paddle.cast(shp[:2], "int32"),
                                         paddle.full([1], -1, "int32")])),
        paddle.slice(x, axes=[2, 3], starts=[start, 0], ends=[n + 1, shp[3]]),
        paddle.strided_slice(x, axes=[3], starts=[paddle.cast(start, "int32")], ends=[shp[3]],
                             strides=[k]),
        paddle.expand(paddle.mean(x, axis=1, keepdim=True), [b, 3, 4, 6]),
        paddle.tile(x, paddle.cast(paddle.concat([paddle.full([2], 1, "int64"), n - 1, n - 2]),
                                   "int32")),
        paddle.full([b, 3], 1.5),
        paddle.unsqueeze(x, paddle.full([1], 1, "int32")),
        F.interpolate(x, size=[paddle.full([1], 3, "int32"), 5], mode="bilinear"),
        F.interpolate(x, scale_factor=paddle.full([2], 2.0), mode="nearest"),
        v, i,
        paddle.clip(x, lo, hi),
        paddle.scale(x, scale=paddle.full([1], 3.0), bias=1.0),
        paddle.split(x, [paddle.full([1], 2, "int32"), 4], axis=3)[1],
        paddle.concat([x, x], axis=paddle.full([1], 1, "int32")),
        F.pad(x, paddle.full([4], 1, "int32"), mode="constant"),
        y, z,
        paddle.arange(start, n + 4),
        paddle.linspace(0.0, 1.0, paddle.full([1], 4, "int32")),
        paddle.cumsum(x, axis=-1),
    ]
    return "mutable attributes from tensors (shape/starts/ends/k/min/max/scale/sections/axis/size/paddings), set_value", [x, n], outs


def m_control_more(paddle):
    """cond with one branch only (conditional_block without select_input), while_loop with a cond inside and nested loops."""
    x = paddle.static.data("x", [-1, 3], "float32")
    s = paddle.sum(x)
    out = paddle.assign(x)

    def set_if():
        paddle.assign(x * 10.0, output=out)

    paddle.static.nn.cond(s > 0.0, set_if)
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 3, "int64")

    def cond(i, h):
        return i < n

    def body(i, h):
        h = paddle.static.nn.cond(paddle.mean(h) > 0.5, lambda: h * 0.5, lambda: h + 1.0)
        j = paddle.full([1], 0, "int64")

        def icond(j, g):
            return j < i

        def ibody(j, g):
            return [j + 1, g + 0.25]

        _, h = paddle.static.nn.while_loop(icond, ibody, [j, h])
        return [i + 1, h]

    i_out, h_out = paddle.static.nn.while_loop(cond, body, [i, x])
    return "cond with one branch writing a variable, while_loop with a cond and a nested while_loop inside", [x], [out, h_out, i_out]


def m_layouts_attrs(paddle):
    """NHWC layouts, non-default activation attributes, conv transpose with output_size, global pooling, int/bool constants, scatter_nd_add, put_along_axis."""
    import numpy as np
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 6, 6, 4], "float32")
    i = paddle.static.data("i", [-1, 3], "int64")
    conv = paddle.nn.Conv2D(4, 4, 3, padding=1, data_format="NHWC")
    bn = paddle.nn.BatchNorm2D(4, data_format="NHWC")
    convt = paddle.nn.Conv2DTranspose(4, 2, 3, stride=2, data_format="NHWC")
    h = bn(conv(x))
    xc = paddle.transpose(x, [0, 3, 1, 2])
    outs = [
        h,
        F.max_pool2d(h, 2, 2, data_format="NHWC"),
        F.adaptive_avg_pool2d(h, 1, data_format="NHWC"),
        F.interpolate(x, scale_factor=2, mode="nearest", data_format="NHWC"),
        F.interpolate(x, size=[4, 4], mode="bilinear", align_corners=False, align_mode=0,
                      data_format="NHWC"),
        convt(x, output_size=[13, 13]),
        F.hardsigmoid(x, slope=0.2, offset=0.5),
        F.swish(x) * F.relu6(x) + F.hardswish(x),
        F.leaky_relu(x, 0.02),
        F.avg_pool2d(xc, 6),
        paddle.static.nn.conv2d(xc, 2, 1, padding="VALID", act="relu"),
        i + paddle.full([1], 3, "int64"), i * 2, i // 3, i % 4, paddle.maximum(i, i * 0 + 4),
        paddle.assign(np.array([True, False, True])),
        paddle.full([2], True, "bool"), paddle.full([3], 5, "int32"),
        paddle.scatter_nd_add(paddle.zeros([4, 3]), paddle.full([2, 1], 1, "int64"),
                              paddle.ones([2, 3])),
        paddle.put_along_axis(paddle.zeros([2, 3]), paddle.zeros([2, 1], "int64"),
                              paddle.full([1], 9.0), 1),
        paddle.unsqueeze(i, [paddle.full([1], 0, "int64"), 2]),
    ]
    return "NHWC conv/batch_norm/pool/interp, activation attributes, conv2d_transpose output_size, int/bool constants, scatter_nd_add, put_along_axis", [x, i], outs


def m_misc(paddle):
    """Random ops made deterministic (min == max, std 0), losses kept in exported models, tensor_array_to_tensor.

    Left out because Paddle 3.3.1 fails on its own translation: `paddle.static.nn.case` with
    two conditions (it runs it to other values than 2.6.2), and a while loop with a tensor
    array inside a `cond` branch (it crashes).
    """
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 5], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    shp = paddle.shape(x)
    outs = [
        paddle.uniform([2, 3], min=0.5, max=0.5, seed=7),
        paddle.uniform(shp, min=-1.0, max=-1.0),
        paddle.normal(1.5, 0.0, [3]),
        paddle.randint(0, 1, [2, 2]),
        F.label_smooth(F.one_hot(paddle.squeeze(label, 1), 10), epsilon=0.1),
        F.softmax_with_cross_entropy(x, paddle.clip(label, 0, 4)),
        F.binary_cross_entropy_with_logits(x, paddle.full_like(x, 0.5)),
        F.cross_entropy(x, paddle.clip(label, 0, 4)),
        F.mse_loss(x, paddle.zeros_like(x)),
        F.smooth_l1_loss(x, paddle.zeros_like(x)),
    ]

    def looped():
        i = paddle.full([1], 0, "int64")
        arr = paddle.tensor.create_array("float32")

        def cond(i, h, arr):
            return i < 3

        def body(i, h, arr):
            paddle.tensor.array_write(h, i, array=arr)
            return [i + 1, h * 0.5, arr]

        _, _, arr = paddle.static.nn.while_loop(cond, body, [i, x, arr])
        out, _ = paddle.tensor.manipulation.tensor_array_to_tensor(arr, axis=1, use_stack=False)
        return out

    outs.append(looped())
    return "uniform_random/gaussian_random/randint made deterministic, label_smooth, losses, while with tensor_array_to_tensor", [x, label], outs


def m_math_more(paddle):
    """Elementwise math and logic of scientific and NLP models: trigonometric and hyperbolic functions, log2/log10/logit, trunc, erfinv, lgamma/digamma, bitwise ops, isinf, equal_all, allclose/isclose, fmax/fmin, heaviside, stanh, logcumsumexp."""
    x = paddle.static.data("x", [-1, 6], "float32")
    k = paddle.static.data("k", [-1, 6], "int32")
    u = paddle.clip(x * 0.3, -0.9, 0.9)
    p = paddle.abs(x) + 0.5
    outs = [
        paddle.acos(u), paddle.asin(u), paddle.atan(x), paddle.atan2(x, p), paddle.cosh(u),
        paddle.sinh(u), paddle.tan(u), paddle.acosh(p + 1.0), paddle.asinh(x), paddle.atanh(u),
        paddle.log2(p), paddle.log10(p), paddle.logit(paddle.nn.functional.sigmoid(x), 1e-6),
        paddle.trunc(x * 3.0), paddle.erfinv(u), paddle.lgamma(p), paddle.digamma(p),
        paddle.bitwise_not(k), paddle.bitwise_or(k, k + 3), paddle.bitwise_xor(k, k * 2),
        paddle.isinf(x / (x - x)), paddle.equal_all(x, x), paddle.allclose(x, x + 1e-9),
        paddle.isclose(x, x * 1.0000001), paddle.fmax(x, p), paddle.fmin(x, p),
        paddle.heaviside(x, p), paddle.stanh(x),
        paddle.logcumsumexp(x, axis=1),
    ]
    return ("acos/asin/atan/atan2/cosh/sinh/tan/acosh/asinh/atanh, log2/log10/logit, trunc, "
            "erfinv, lgamma/digamma, bitwise not/or/xor, isinf, equal_all, allclose/isclose, "
            "fmax/fmin, heaviside, stanh, logcumsumexp"), [x, k], outs


def m_linalg(paddle):
    """Linear algebra: dot, mv, kron, addmm, cross, multi_dot, matrix_power, inverse, determinant, slogdet, cholesky, solve, triangular_solve, trace, diagonal, diag_embed, norms.

    `matrix_rank` is left out: Paddle 3.3.1 runs its translation to an int64 result that the
    int32 `scale` of the saved model cannot read.
    """
    x = paddle.static.data("x", [4, 4], "float32")
    v = paddle.static.data("v", [4], "float32")
    spd = paddle.matmul(x, x, transpose_y=True) + paddle.eye(4) * 4.0
    outs = [
        paddle.dot(v, v), paddle.mv(x, v), paddle.kron(x, paddle.ones([2, 2])),
        paddle.addmm(x, x, x, beta=0.5, alpha=2.0), paddle.cross(x[:, :3], x[:, 1:], axis=1),
        paddle.linalg.multi_dot([x, spd, x]), paddle.linalg.matrix_power(spd, 3),
        paddle.linalg.inv(spd), paddle.linalg.det(spd), paddle.linalg.slogdet(spd),
        paddle.linalg.cholesky(spd), paddle.linalg.solve(spd, x),
        paddle.linalg.triangular_solve(paddle.linalg.cholesky(spd), x, upper=False),
        paddle.trace(x), paddle.diagonal(x, offset=1), paddle.diag_embed(paddle.unsqueeze(v, 0)),
        paddle.linalg.norm(x, p="fro"), paddle.linalg.norm(v, p=1),
        paddle.linalg.norm(x, p=2, axis=1),
    ]
    return ("dot, mv, kron, addmm, cross, multi_dot, matrix_power, inverse, determinant, "
            "slogdeterminant, cholesky, solve, triangular_solve, trace, diagonal, diag_embed, "
            "frobenius/p norms"), [x, v], outs


def m_search_signal(paddle):
    """Search, counting and signal ops: fft (c2c, r2c, c2r), searchsorted, bincount, unique_consecutive, mode, index_add, broadcast_tensors, shard_index.

    Left out: `nanmedian` (Paddle 2.6.2 crashes running it from a saved inference model) and
    `histogram` (Paddle 3.3.1 refuses its own translation: `min` is no FloatAttribute).
    """
    x = paddle.static.data("x", [-1, 8], "float32")
    ids = paddle.static.data("ids", [-1, 8], "int64")
    sorted_seq = paddle.sort(x, axis=1)
    spectrum = paddle.fft.fft(paddle.complex(x, x))
    outs = [
        paddle.real(spectrum), paddle.imag(paddle.fft.rfft(x)),
        paddle.fft.irfft(paddle.fft.rfft(x)), paddle.searchsorted(sorted_seq, x),
        paddle.bincount(paddle.flatten(paddle.abs(ids))),
        paddle.unique_consecutive(paddle.flatten(ids)), paddle.mode(x, axis=1)[0],
        paddle.index_add(x, paddle.full([2], 0, "int64"), 1, paddle.ones_like(x[:, :2])),
        paddle.broadcast_tensors([x, paddle.ones([1, 8])])[1],
        paddle.shard_index(paddle.unsqueeze(paddle.abs(ids[:, 0]), 1), 20, 2, 0),
    ]
    return ("fft_c2c/r2c/c2r with real/imag, searchsorted, bincount, "
            "unique_consecutive, mode, index_add, broadcast_tensors, shard_index"), [x, ids], outs


def m_losses_misc(paddle):
    """Losses kept in exported models and the rest of the common inference ops: kldiv, bce, nll, log_loss, clip_by_norm, renorm, linear/trilinear interp, conv3d_transpose, max_pool3d_with_index, unpool, fold, nms."""
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 6], "float32")
    label = paddle.static.data("label", [-1], "int64")
    vol = paddle.static.data("vol", [-1, 2, 4, 4, 4], "float32")
    img = paddle.static.data("img", [-1, 4, 6, 6], "float32")
    prob = F.sigmoid(x)
    pooled, mask = F.max_pool2d(img, 2, 2, return_mask=True)
    boxes = paddle.full([1, 4], 1.0)
    outs = [
        F.kl_div(F.log_softmax(x), F.softmax(x), reduction="none"),
        F.binary_cross_entropy(prob, paddle.full_like(prob, 0.5), reduction="none"),
        F.nll_loss(F.log_softmax(x), paddle.clip(label, 0, 5), reduction="none"),
        F.log_loss(prob[:, :1], paddle.full_like(prob[:, :1], 1.0)),
        paddle.nn.clip.clip_by_norm(x, 1.0),
        paddle.renorm(x, 2.0, 0, 1.0),
        F.interpolate(paddle.unsqueeze(x, 1), scale_factor=2, mode="linear", data_format="NCW"),
        F.interpolate(vol, scale_factor=2, mode="trilinear", data_format="NCDHW"),
        paddle.static.nn.conv3d_transpose(vol, 2, filter_size=3),
        F.max_pool3d(vol, 2, 2, return_mask=True)[1],
        F.max_unpool2d(pooled, mask, 2, 2),
        F.fold(paddle.reshape(img, [-1, 16, 9]), [4, 4], 2),
        paddle.vision.ops.nms(paddle.concat([boxes, boxes + 0.5]), 0.5),
    ]
    return ("kldiv/bce/nll/log_loss, clip_by_norm, renorm, linear and trilinear interp_v2, "
            "conv3d_transpose, max_pool3d_with_index, unpool, fold, nms"), [x, label, vol, img], outs


def m_ops_more(paddle):
    """More ops of inference models: reduce_amax/amin, multiplex, reverse, logspace, lerp, dist, l1_norm, squared_l2_norm, soft_relu, fill_any, fill_diagonal, fill_diagonal_tensor, mean, row_conv, spectral_norm, unpool3d, segment_pool, angle, conj, as_complex, as_real."""
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 4, 6], "float32")
    y = paddle.static.data("y", [-1, 4, 6], "float32")
    sq = paddle.static.data("sq", [4, 4], "float32")
    vol = paddle.static.data("vol", [-1, 2, 4, 4, 4], "float32")
    a = append_op
    flat = paddle.reshape(x, [-1, 6])
    pooled, mask = F.max_pool3d(vol, 2, 2, return_mask=True)
    pairs = paddle.reshape(x, [-1, 4, 3, 2])
    outs = [
        paddle.amax(x, axis=1), paddle.amin(x, axis=[1, 2], keepdim=True),
        paddle.multiplex([sq, paddle.scale(sq, 2.0)], paddle.full([4, 1], 1, "int32")),
        a(paddle, "reverse", {"X": [x]}, {"axis": [1, 2]})[0],
        paddle.logspace(0.0, 2.0, 5, 2.0),
        paddle.lerp(x, y, paddle.full([1], 0.25)),
        paddle.dist(x, y, 3.0),
        a(paddle, "l1_norm", {"X": [x]}, {})[0],
        a(paddle, "squared_l2_norm", {"X": [x]}, {})[0],
        a(paddle, "soft_relu", {"X": [x]}, {"threshold": 2.0})[0],
        a(paddle, "fill_any", {"X": [paddle.scale(x, 1.0)]},
          {"value_float": 1.5, "value_int": 0})[0],
        a(paddle, "fill_diagonal", {"X": [paddle.scale(sq, 1.0)]},
          {"value": 2.0, "offset": 0, "wrap": False})[0],
        paddle.tensor.manipulation.fill_diagonal_tensor(paddle.scale(sq, 1.0), sq[0, :3], 1),
        a(paddle, "mean", {"X": [x]}, {})[0],
        paddle.static.nn.row_conv(x, 2),
        paddle.static.nn.spectral_norm(sq, dim=0, power_iters=2),
        F.max_unpool3d(pooled, mask, 2, 2),
        paddle.incubate.segment_sum(flat[:2], paddle.arange(2, dtype="int32")),
        paddle.as_real(paddle.conj(paddle.as_complex(pairs))),
        paddle.angle(paddle.as_complex(pairs)),
    ]
    return ("reduce_amax/amin, multiplex, reverse, logspace, lerp, dist, l1_norm, "
            "squared_l2_norm, soft_relu, fill_any, fill_diagonal(_tensor), mean, row_conv, "
            "spectral_norm, unpool3d, segment_pool, as_complex/as_real, conj, angle"), [x, y, sq, vol], outs


def m_linalg_more(paddle):
    """Decompositions and solvers, fetched through invariants (reconstructions, sorted values) so that sign and order choices of LAPACK do not matter: eig, eigh, eigvals, eigvalsh, svd, qr, lu, lu_unpack, lstsq, cholesky_solve; and the signal ops stft, frame, overlap_add."""
    m = paddle.static.data("m", [3, 3], "float32")
    sig = paddle.static.data("sig", [2, 32], "float32")
    sym = paddle.matmul(m, m, transpose_y=True) + paddle.eye(3) * 3.0
    la = paddle.linalg
    w, v = la.eigh(sym)
    u, s, vh = la.svd(m)
    q, r = la.qr(m)
    lu, piv = la.lu(m)
    p_, l_, u_ = la.lu_unpack(lu, piv)
    ev = la.eig(sym)[0]
    chol = la.cholesky(sym)
    outs = [
        paddle.matmul(paddle.matmul(v, paddle.diag(w)), v, transpose_y=True),
        la.eigvalsh(sym), paddle.sort(paddle.real(la.eigvals(sym))), paddle.sort(paddle.real(ev)),
        paddle.matmul(paddle.matmul(u, paddle.diag(s)), vh),
        paddle.matmul(q, r),
        paddle.matmul(paddle.matmul(p_, l_), u_),
        la.lstsq(sym, m)[0],
        la.cholesky_solve(m, chol),
        paddle.signal.frame(sig, 8, 4),
        paddle.signal.overlap_add(paddle.signal.frame(sig, 8, 4), 4),
        paddle.abs(paddle.signal.stft(sig, 16, 4, center=False)),
    ]
    return ("eigh/eigvalsh/eigvals/eig, svd, qr, lu/lu_unpack, lstsq, cholesky_solve through "
            "reconstructions; frame, overlap_add, stft"), [m, sig], outs


def m_random(paddle):
    """Random ops, fetched through what does not depend on the generator: randperm sorted, bernoulli of 0 and 1, the row sums of gumbel_softmax and dirichlet, the shapes of multinomial, poisson, exponential_ and uniform_random_batch_size_like."""
    x = paddle.static.data("x", [-1, 4], "float32")
    a = append_op
    probs = paddle.nn.functional.softmax(x)
    ones = paddle.ones_like(x)
    exp = a(paddle, "exponential", {"X": [paddle.scale(x, 1.0)]}, {"lambda": 1.0})[0]
    like = a(paddle, "uniform_random_batch_size_like", {"Input": [x]},
             {"shape": [-1, 3], "min": 0.0, "max": 1.0, "seed": 0, "dtype": 5,
              "input_dim_idx": 0, "output_dim_idx": 0})[0]
    outs = [
        paddle.sort(paddle.cast(paddle.randperm(6), "float32")),
        paddle.bernoulli(paddle.concat([ones, ones * 0.0], 1)),
        paddle.floor(paddle.sum(paddle.nn.functional.gumbel_softmax(x, hard=True), 1) + 0.5),
        paddle.shape(paddle.multinomial(probs, 3, replacement=True)),
        paddle.shape(paddle.poisson(paddle.abs(x))),
        paddle.shape(exp), paddle.shape(like),
        paddle.floor(paddle.sum(paddle.distribution.Dirichlet(ones + 1.0).sample(), -1) + 0.5),
    ]
    return ("randperm, bernoulli, gumbel_softmax, multinomial, poisson, exponential, "
            "uniform_random_batch_size_like, dirichlet through generator-free results"), [x], outs
