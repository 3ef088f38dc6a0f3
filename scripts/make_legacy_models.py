#!/usr/bin/env python3
"""Build the legacy (Paddle 2.x `.pdmodel`) models of `tests/corpus/legacy/`.

Users' Paddle 2.x models (PaddleOCR, PaddleDetection, PaddleClas, PaddleNLP...) hold many
more legacy op types than `../shared/legacy-corpus`. This script builds small models that
together cover the common ones, with Paddle **2.6.2** itself, and records Paddle **3.3.1**'s
translation of each, with the conventions of `../shared/legacy-corpus/README.md`:

| file | what it is |
|---|---|
| `NAME.pdmodel`, `NAME.pdiparams` | built with Paddle 2.6.2's static-graph API (`paddle.static`, `paddle.static.nn`, `paddle.nn`, `paddle.nn.functional`; a few legacy ops without a 2.x Python API are appended with `Block.append_op`), saved with `paddle.static.save_inference_model`; random weights after `paddle.seed(2024)` |
| `NAME.inputs.npz` | inputs (`arg<i>_<feed name>`, `numpy.random.default_rng(0)`; batch 2 where a dim is -1) |
| `NAME.ref.npz` | what Paddle 2.6.2's executor computes from those inputs with the saved inference program (`arr_0`, `arr_1`, ... in fetch order) |
| `NAME.legacy.json` | Paddle version, feed names, the legacy op types of the top block, and the LoD of the feeds that have one (`lod`: feed name → offsets per level, as `set_lod` takes them; `NAME.inputs.npz` holds the data only) |
| `NAME.translated.json` | Paddle 3.3.1: `paddle.pir.translate_to_pir(core.ProgramDesc(bytes))`, then `core.serialize_pir_program(prog, path, True, False, True)` |
| `NAME.translated.txt` | Paddle 3.3.1's print of `NAME.translated.json` read back with `core.deserialize_pir_program` |

Two Paddle releases cannot share a Python environment, so the work is split:

    # 1. build, save and run the models with Paddle 2.6.2 (its own venv):
    /work/venv-paddle26/bin/python scripts/make_legacy_models.py build [--out DIR] [--only a,b]
    # 2. translate them with Paddle 3.3.1 (system python3), check that Paddle 3.3.1 runs
    #    each translation to the 2.6.2 reference (rtol 1e-4, atol 1e-5):
    python3 scripts/make_legacy_models.py translate [--out DIR] [--only a,b]
    # or both, the first in a child process (`--paddle26` names its python):
    python3 scripts/make_legacy_models.py all [--paddle26 /work/venv-paddle26/bin/python]

The 2.6.2 venv: `python3 -m venv /work/venv-paddle26 && /work/venv-paddle26/bin/pip install
paddlepaddle==2.6.2 numpy`. A model that Paddle 3.3.1 fails to translate, or whose
translation it fails to run to the reference, is removed from the output (with its files)
and reported; `translate` exits 1 then. Each model is built, translated and run in a child
process of its own, so a crash in Paddle is that model's failure. `translate` also rewrites
`README.md`'s model table from the `NAME.legacy.json` files present. Running the script
again gives the same files (Paddle's writers are deterministic for a fixed seed).
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "tests", "corpus", "legacy")
DEFAULT_PADDLE26 = "/work/venv-paddle26/bin/python"
SEED = 2024
BATCH = 2

# ---------------------------------------------------------------------------------------
# Models (built with Paddle 2.6.2). Each function gets the paddle module and returns
# (description, feeds, fetches); feeds are `paddle.static.data` variables.
# ---------------------------------------------------------------------------------------


def _append(paddle, op_type, inputs, attrs, out_dtype="float32", outputs=("Out",), extra_outs=()):
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
        outs += _append(paddle, op_type, {"X": [x], "Y": [b]}, {"axis": 1})
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
    outs += _append(paddle, "matmul", {"X": [x], "Y": [w]},
                    {"transpose_X": False, "transpose_Y": True, "alpha": 0.5})
    outs += _append(paddle, "matmul", {"X": [x], "Y": [x]},
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
    fbl = _append(paddle, "fill_constant_batch_size_like", {"Input": [x]},
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


def m_rnn(paddle):
    """GRU (bidirectional, two layers) and SimpleRNN: the `rnn` op in GRU and RNN_TANH modes."""
    x = paddle.static.data("x", [-1, 5, 4], "float32")
    gru = paddle.nn.GRU(4, 3, num_layers=2, direction="bidirect")
    srnn = paddle.nn.SimpleRNN(4, 3)
    y, h = gru(x)
    y2, h2 = srnn(x)
    return "GRU (bidirectional, 2 layers) and SimpleRNN through the rnn op", [x], [y, h, y2, h2]


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


def m_detection(paddle):
    """Detection heads: yolo_box, prior_box, box_coder, grid_sample, affine_grid, roi-free ops of PaddleDetection."""
    import paddle.nn.functional as F

    feat = paddle.static.data("feat", [-1, 14, 4, 4], "float32")
    img = paddle.static.data("img", [-1, 3, 16, 16], "float32")
    img_size = paddle.static.data("img_size", [-1, 2], "int32")
    boxes, scores = paddle.vision.ops.yolo_box(feat, img_size, anchors=[10, 13, 16, 30],
                                               class_num=2, conf_thresh=0.01,
                                               downsample_ratio=4)
    pb, pv = paddle.vision.ops.prior_box(img[:, :, :4, :4], img, min_sizes=[4.0],
                                         aspect_ratios=[1.0, 2.0], flip=True, clip=True)
    decoded = paddle.vision.ops.box_coder(paddle.reshape(pb, [-1, 4]),
                                          [0.1, 0.1, 0.2, 0.2],
                                          paddle.unsqueeze(paddle.reshape(pb, [-1, 4]) * 0.5, 0),
                                          code_type="decode_center_size", box_normalized=True)
    theta = paddle.full([2, 2, 3], 0.5, "float32")
    grid = F.affine_grid(theta, [2, 3, 4, 4], align_corners=False)
    gs = F.grid_sample(img[:, :, :4, :4], grid, mode="bilinear", padding_mode="zeros")
    return "yolo_box, prior_box, box_coder, affine_grid, grid_sampler", [feat, img, img_size], [boxes, scores, pb, pv, decoded, gs]


def m_v1_ops(paddle):
    """Ops of Paddle 1.x / 2.0-era models, appended as their old savers wrote them."""
    x = paddle.static.data("x", [-1, 4, 4, 4], "float32")
    ids = paddle.static.data("ids", [-1, 3, 1], "int64")
    a = _append
    outs = []
    outs += a(paddle, "reshape", {"X": [x]}, {"shape": [0, 8, 8]})
    w = paddle.static.create_parameter([10, 3], "float32", name="emb_v1")
    outs += a(paddle, "lookup_table", {"W": [w], "Ids": [ids]}, {"padding_idx": -1})
    outs += a(paddle, "pad", {"X": [x]}, {"paddings": [0, 0, 1, 0, 0, 1, 2, 0], "pad_value": 1.0})
    outs += a(paddle, "sum", {"X": [x, x, x]}, {})
    outs += a(paddle, "brelu", {"X": [x]}, {"t_min": -0.5, "t_max": 0.5})
    outs += a(paddle, "hard_shrink", {"X": [x]}, {"threshold": 0.3})
    outs += a(paddle, "fill_any_like", {"X": [x]}, {"value": 3.0, "dtype": -1})
    outs += a(paddle, "arg_min", {"X": [x]}, {"axis": 1, "keepdims": False, "flatten": False,
                                               "dtype": 3}, out_dtype="int64")
    outs += a(paddle, "size", {"Input": [x]}, {}, out_dtype="int64")
    outs += a(paddle, "crop_tensor", {"X": [x]}, {"shape": [-1, 2, 3, 3], "offsets": [0, 1, 1, 0]})
    outs += a(paddle, "shuffle_channel", {"X": [x]}, {"group": 2})
    outs += a(paddle, "affine_channel", {"X": [x], "Scale": [paddle.full([4], 2.0)],
                                          "Bias": [paddle.full([4], 0.5)]}, {"data_layout": "NCHW"})
    outs += a(paddle, "depthwise_conv2d_transpose",
              {"Input": [x], "Filter": [paddle.static.create_parameter([4, 1, 2, 2], "float32",
                                                                        name="dwt_w")]},
              {"strides": [2, 2], "paddings": [0, 0], "groups": 4, "dilations": [1, 1]},
              outputs=("Output",))
    outs += a(paddle, "lrn", {"X": [x]}, {"n": 3, "k": 1.0, "alpha": 1e-4, "beta": 0.75},
              outputs=("Out", "MidOut"))[:1]
    return "legacy v1 ops: reshape, lookup_table, pad, sum, brelu, hard_shrink, fill_any_like, arg_min, size, crop_tensor, shuffle_channel, affine_channel, lrn", [x, ids], outs


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


def m_nlp(paddle):
    """Transformer encoder layer with a padding mask and the index ops of NLP post-processing."""
    import paddle.nn.functional as F

    ids = paddle.static.data("ids", [-1, 5], "int64")
    emb = paddle.nn.Embedding(12, 8)
    enc = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1, normalize_before=True)
    pad_mask = paddle.unsqueeze(paddle.cast(ids == 0, "float32") * -1e4, [1, 2])
    h = enc(emb(ids), pad_mask)
    logits = paddle.matmul(h, emb.weight, transpose_y=True)
    mask = paddle.cast(F.sequence_mask(paddle.full([2], 3, "int64"), maxlen=5), "bool")
    outs = [
        h, logits,
        paddle.index_sample(paddle.reshape(logits, [-1, 12]), paddle.zeros([10, 2], "int64")),
        paddle.masked_select(h, paddle.unsqueeze(mask, -1).expand([2, 5, 8])),
        paddle.nonzero(ids > 4),
        paddle.unique(ids),
        paddle.einsum("bsd,btd->bst", h, h),
        paddle.cumprod(paddle.cast(ids, "float32") * 0.1 + 1.0, dim=1),
        paddle.bitwise_and(ids, paddle.full_like(ids, 3)),
        paddle.chunk(h, 2, axis=-1)[0],
        paddle.unbind(h, axis=1)[2],
        paddle.kthvalue(h, 2, axis=-1)[0],
    ]
    return "transformer encoder layer (pre-norm, padding mask), index_sample, masked_select, nonzero, unique, einsum, cumprod, bitwise ops, sequence_mask", [ids], outs


def m_vision_misc(paddle):
    """conv3d/pool3d, deformable conv, roi_align, temporal_shift, unfold, pixel_unshuffle, channel_shuffle."""
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 4, 6, 6], "float32")
    v = paddle.static.data("v", [-1, 2, 3, 4, 4], "float32")
    boxes = paddle.static.data("boxes", [-1, 4], "float32")
    boxes_num = paddle.static.data("boxes_num", [-1], "int32")
    conv3d = paddle.nn.Conv3D(2, 2, 3, padding=1)
    dcn = paddle.vision.ops.DeformConv2D(4, 2, 3, padding=1)
    offset = paddle.zeros([2, 18, 6, 6]) + 0.1
    outs = [
        conv3d(v),
        F.max_pool3d(v, 2, 2),
        F.avg_pool3d(v, [1, 2, 2]),
        F.adaptive_avg_pool3d(v, 1),
        dcn(x, offset),
        paddle.vision.ops.roi_align(x, boxes, boxes_num, 2, spatial_scale=1.0),
        F.temporal_shift(x, seg_num=2, shift_ratio=0.25),
        F.unfold(x, [2, 2], strides=2),
        F.pixel_unshuffle(x, 2),
        F.channel_shuffle(x, 2),
        F.adaptive_max_pool1d(paddle.reshape(x, [-1, 4, 36]), 6),
        F.avg_pool1d(paddle.reshape(x, [-1, 4, 36]), 3),
        F.conv1d(paddle.reshape(x, [-1, 4, 36]), paddle.full([2, 4, 3], 0.1)),
    ]
    return "conv3d, pool3d, deformable_conv, roi_align, temporal_shift, unfold, pixel_unshuffle, channel_shuffle, 1-D convs and pools", [x, v, boxes, boxes_num], outs


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


def m_detection_post(paddle):
    """PaddleDetection post-processing: multiclass_nms3, matrix_nms, generate_proposals_v2, roi_pool, anchor_generator."""
    bboxes = paddle.static.data("bboxes", [-1, 6, 4], "float32")
    scores = paddle.static.data("scores", [-1, 3, 6], "float32")
    feat = paddle.static.data("feat", [-1, 2, 4, 4], "float32")
    img = paddle.static.data("img", [-1, 3, 16, 16], "float32")
    boxes = paddle.abs(bboxes) * 4.0
    boxes = paddle.concat([boxes[:, :, :2], boxes[:, :, :2] + boxes[:, :, 2:] + 1.0], axis=-1)
    probs = paddle.nn.functional.sigmoid(scores)
    out, index, nms_num = _append(paddle, "multiclass_nms3", {"BBoxes": [boxes], "Scores": [probs]},
                                  {"score_threshold": 0.3, "nms_top_k": 6, "keep_top_k": 4,
                                   "nms_threshold": 0.5, "normalized": False, "nms_eta": 1.0,
                                   "background_label": 0},
                                  outputs=("Out", "Index", "NmsRoisNum"))
    mout, mindex, mnum = paddle.vision.ops.matrix_nms(boxes, probs, 0.3, 0.1, 6, 4,
                                                      use_gaussian=True, return_index=True,
                                                      return_rois_num=True,
                                                      background_label=0, normalized=False)
    anchors, variances = _append(paddle, "anchor_generator", {"Input": [feat]},
                                 {"anchor_sizes": [4.0, 8.0], "aspect_ratios": [1.0],
                                  "variances": [0.1, 0.1, 0.2, 0.2], "stride": [4.0, 4.0],
                                  "offset": 0.5}, outputs=("Anchors", "Variances"))
    im_shape = paddle.full([2, 2], 16.0)
    rois, roi_probs, rois_num = paddle.vision.ops.generate_proposals(
        feat, paddle.concat([feat, feat, feat, feat], axis=1), im_shape, anchors, variances,
        pre_nms_top_n=10, post_nms_top_n=5, return_rois_num=True)
    roi_in = paddle.full([2, 4], 1.0) + paddle.concat(
        [paddle.zeros([2, 2]), paddle.full([2, 2], 2.0)], axis=1)
    pooled = paddle.vision.ops.roi_pool(img, roi_in, paddle.full([2], 1, "int32"), 2)
    return ("multiclass_nms3, matrix_nms, anchor_generator, generate_proposals_v2, roi_pool",
            [bboxes, scores, feat, img],
            [out, index, nms_num, mout, mindex, mnum, anchors, variances, rois, roi_probs,
             rois_num, pooled])


def m_quant(paddle):
    """Quantized models (PaddleSlim): quantize_linear (per tensor and per channel) and fake_dequantize_max_abs.

    `dequantize_linear` is left out: Paddle 3.3.1 runs its own translation of it to other
    values than Paddle 2.6.2 (it returns the quantized integers unscaled).
    """
    x = paddle.static.data("x", [-1, 4, 3, 3], "float32")
    a = _append
    scale = paddle.full([1], 0.05)
    zero = paddle.full([1], 0.0)
    q = a(paddle, "quantize_linear", {"X": [x], "Scale": [scale], "ZeroPoint": [zero]},
          {"quant_axis": -1, "bit_length": 8, "round_type": 0, "is_test": True,
           "only_observer": False}, outputs=("Y",))[0]
    w = paddle.static.create_parameter([4, 4, 1, 1], "float32", name="quant_w")
    wscale = paddle.full([4], 0.02)
    wzero = paddle.full([4], 0.0)
    qw = a(paddle, "quantize_linear", {"X": [w], "Scale": [wscale], "ZeroPoint": [wzero]},
           {"quant_axis": 0, "bit_length": 8, "round_type": 1, "is_test": True,
            "only_observer": False}, outputs=("Y",))[0]
    fdq = a(paddle, "fake_dequantize_max_abs", {"X": [paddle.floor(x * 10.0)], "Scale": [scale]},
            {"max_range": 127.0})[0]
    return "quantize_linear (per tensor and per channel), fake_dequantize_max_abs", [x], [q, qw, fdq]


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
    import paddle.nn.functional as F

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
    """Losses kept in exported models and the rest of the common inference ops: kldiv, bce, nll, log_loss, hinge, clip_by_norm, renorm, linear/trilinear interp, conv3d_transpose, max_pool3d_with_index, unpool, fold, psroi_pool, box_clip, nms."""
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
        paddle.nn.clip.clip_by_norm(x, 1.0) if hasattr(paddle.nn.clip, "clip_by_norm")
        else paddle.renorm(x, 2.0, 0, 1.0),
        paddle.renorm(x, 2.0, 0, 1.0),
        F.interpolate(paddle.unsqueeze(x, 1), scale_factor=2, mode="linear", data_format="NCW"),
        F.interpolate(vol, scale_factor=2, mode="trilinear", data_format="NCDHW"),
        paddle.static.nn.conv3d_transpose(vol, 2, filter_size=3),
        F.max_pool3d(vol, 2, 2, return_mask=True)[1],
        F.max_unpool2d(pooled, mask, 2, 2),
        F.fold(paddle.reshape(img, [-1, 16, 9]), [4, 4], 2),
        paddle.vision.ops.box_clip(paddle.reshape(boxes, [1, 1, 4]), paddle.full([1, 3], 8.0))
        if hasattr(paddle.vision.ops, "box_clip") else paddle.abs(x),
        paddle.vision.ops.nms(paddle.concat([boxes, boxes + 0.5]), 0.5),
    ]
    return ("kldiv/bce/nll/log_loss, clip_by_norm, renorm, linear and trilinear interp_v2, "
            "conv3d_transpose, max_pool3d_with_index, unpool, fold, box_clip, nms"), [x, label, vol, img], outs


def m_sequence(paddle):
    """Sequence (LoD) ops of Paddle 1.x/2.x text models: sequence_pool of every pool type, sequence_softmax, sequence_conv, sequence_expand, sequence_mask, im2sequence.

    `lod_reset` is left out: Paddle 3.3.1 translates it as pir does, but its kernel fails
    (without `Y`, on an uninitialised meta tensor; with `Y`, on an empty level 0).
    """
    x = paddle.static.data("x", [-1, 8], "float32", lod_level=1)
    n = paddle.static.data("n", [-1], "int64")
    img = paddle.static.data("img", [-1, 2, 4, 4], "float32")
    nn = paddle.static.nn
    pools = [nn.sequence_pool(x, t) for t in ("sum", "average", "sqrt", "max", "last", "first")]
    outs = pools + [
        nn.sequence_softmax(paddle.slice(x, [1], [0], [1])),
        nn.sequence_conv(x, num_filters=4, filter_size=3),
        nn.sequence_expand(pools[0], x),
        paddle.nn.functional.sequence_mask(n, maxlen=6),
        _append(paddle, "im2sequence", {"X": [img]},
                {"kernels": [2, 2], "strides": [1, 1], "paddings": [0, 0, 0, 0],
                 "out_stride": [1, 1]})[0],
    ]
    return ("sequence_pool (sum, average, sqrt, max, last, first), sequence_softmax, sequence_conv, "
            "sequence_expand, sequence_mask, im2sequence on a LoD input",
            [x, n, img], outs, {"lod": {"x": [[0, 2, 5]]}})


def m_beam_search(paddle):
    """One step of beam search as Paddle 1.x/2.x decoders saved it: beam_search on two-level LoD inputs.

    `beam_search_decode` is left out: Paddle 3.3.1 cannot translate it from the tensor
    arrays its Paddle 2.x API takes (`Type validation failed for the 0th input, got
    pd_op.tensor_array<i64>`).
    """
    import numpy as np

    lod = [[0, 1, 4], [0, 1, 2, 3, 4]]
    pre_ids = paddle.static.data("pre_ids", [-1, 1], "int64", lod_level=2)
    pre_scores = paddle.static.data("pre_scores", [-1, 1], "float32", lod_level=2)
    ids = paddle.static.data("ids", [-1, 3], "int64", lod_level=2)
    scores = paddle.static.data("scores", [-1, 3], "float32", lod_level=2)
    from paddle.base.layer_helper import LayerHelper

    helper = LayerHelper("beam_search")
    sel_ids = helper.create_variable_for_type_inference("int64")
    sel_scores = helper.create_variable_for_type_inference("float32")
    parent = helper.create_variable_for_type_inference("int32", stop_gradient=True)
    helper.append_op(
        type="beam_search",
        inputs={"pre_ids": [pre_ids], "pre_scores": [pre_scores], "ids": [ids],
                "scores": [scores]},
        outputs={"selected_ids": [sel_ids], "selected_scores": [sel_scores],
                 "parent_idx": [parent]},
        attrs={"level": 0, "beam_size": 2, "end_id": 0, "is_accumulated": True})
    inputs = {
        "pre_ids": np.array([[1], [2], [3], [4]], "int64"),
        "pre_scores": np.array([[0.1], [0.2], [0.3], [0.4]], "float32"),
        "ids": np.array([[4, 2, 5], [2, 1, 3], [3, 5, 2], [8, 2, 1]], "int64"),
        "scores": np.array([[0.5, 0.3, 0.2], [0.6, 0.3, 0.1], [0.9, 0.5, 0.1],
                            [0.7, 0.5, 0.1]], "float32"),
    }
    return ("beam_search (two-level LoD inputs, accumulated scores, parent indices)",
            [pre_ids, pre_scores, ids, scores], [sel_ids, sel_scores, parent],
            {"lod": {k: lod for k in inputs}, "inputs": inputs})


def m_ops_more(paddle):
    """More ops of inference models: reduce_amax/amin, multiplex, reverse, logspace, lerp, dist, l1_norm, squared_l2_norm, soft_relu, fill_any, fill_diagonal, fill_diagonal_tensor, mean, row_conv, spectral_norm, unpool3d, segment_pool, angle, conj, as_complex, as_real."""
    import paddle.nn.functional as F

    x = paddle.static.data("x", [-1, 4, 6], "float32")
    y = paddle.static.data("y", [-1, 4, 6], "float32")
    sq = paddle.static.data("sq", [4, 4], "float32")
    vol = paddle.static.data("vol", [-1, 2, 4, 4, 4], "float32")
    a = _append
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


def m_decode(paddle):
    """Decoding ops of OCR and NLP models: ctc_align (CTC greedy decoding), gather_tree (beam search back-tracking), viterbi_decode, crf_decoding, edit_distance.

    viterbi_decode's `Scores` is not fetched: Paddle 3.3.1 translates the op but its
    executor fails fetching that output (int64 data asked of a float32 tensor).
    """
    probs = paddle.static.data("probs", [2, 6, 5], "float32")
    emis = paddle.static.data("emis", [2, 4, 3], "float32")
    length = paddle.full([2], 4, "int64")
    best = paddle.cast(paddle.argmax(probs, axis=2), "int32")
    a = _append
    ctc, ctc_len = a(paddle, "ctc_align", {"Input": [best], "InputLength": [
        paddle.full([2, 1], 6, "int32")]}, {"blank": 0, "merge_repeated": True,
                                            "padding_value": -1},
        out_dtype="int32", outputs=("Output", "OutputLength"))
    ids = paddle.cast(paddle.argmax(probs, axis=2), "int64")
    parents = paddle.cast(paddle.argmin(probs, axis=2), "int64") % 2
    tree = paddle.nn.functional.gather_tree(paddle.unsqueeze(paddle.transpose(ids, [1, 0]), 1),
                                            paddle.unsqueeze(paddle.transpose(parents, [1, 0]), 1))
    trans = paddle.static.create_parameter([3, 3], "float32", name="crf_trans")
    _, path = paddle.text.viterbi_decode(emis, trans, length, include_bos_eos_tag=False)
    crf_w = paddle.static.create_parameter([5, 3], "float32", name="crf_w")
    crf = a(paddle, "crf_decoding", {"Emission": [emis], "Transition": [crf_w],
                                     "Length": [length]}, {}, out_dtype="int64",
            outputs=("ViterbiPath",))[0]
    hyp = paddle.cast(paddle.argmax(emis, axis=2), "int64")
    dist, _ = a(paddle, "edit_distance", {
        "Hyps": [hyp], "Refs": [paddle.zeros_like(hyp)],
        "HypsLength": [length], "RefsLength": [paddle.full([2], 3, "int64")]},
        {"normalized": False}, outputs=("Out",), extra_outs=(("SequenceNum", "int64"),))[0], None
    return ("ctc_align (padding mode), gather_tree, viterbi_decode, crf_decoding, "
            "edit_distance"), [probs, emis], [ctc, ctc_len, tree, path, crf, dist]


def m_detection_more(paddle):
    """Two-stage detector ops: generate_proposals_v2, distribute_fpn_proposals, collect_fpn_proposals, deformable_conv, bipartite_match.

    `psroi_pool` and `box_clip` are left out: Paddle 2.6.2's CPU kernels crash (segmentation
    fault) on inputs without a LoD.
    """
    scores = paddle.static.data("scores", [1, 3, 4, 4], "float32")
    deltas = paddle.static.data("deltas", [1, 12, 4, 4], "float32")
    feat = paddle.static.data("feat", [1, 8, 8, 8], "float32")
    dist_m = paddle.static.data("dist_m", [3, 5], "float32")
    a = _append
    grid = paddle.arange(16, dtype="float32")
    cx = paddle.reshape(paddle.tile(paddle.reshape(grid % 4 * 4.0, [4, 4, 1, 1]), [1, 1, 3, 1]),
                        [4, 4, 3, 1])
    cy = paddle.reshape(paddle.tile(paddle.reshape(paddle.floor(grid / 4) * 4.0, [4, 4, 1, 1]),
                                    [1, 1, 3, 1]), [4, 4, 3, 1])
    anchors = paddle.concat([cx, cy, cx + 6.0, cy + 6.0], axis=3)
    variances = paddle.full([4, 4, 3, 4], 1.0)
    rois, probs = paddle.vision.ops.generate_proposals(
        scores, deltas * 0.1, paddle.full([1, 2], 16.0), anchors, variances, pre_nms_top_n=20,
        post_nms_top_n=8, nms_thresh=0.7, min_size=0.1)[:2]
    fpn_boxes = paddle.to_tensor([[0.0, 0.0, 8.0, 8.0], [2.0, 2.0, 34.0, 34.0],
                                  [1.0, 1.0, 3.0, 3.0], [4.0, 4.0, 40.0, 40.0]])
    multi, restore, nums = paddle.vision.ops.distribute_fpn_proposals(
        fpn_boxes, 2, 3, 2, 8, rois_num=paddle.full([1], 4, "int32"))
    collected = a(paddle, "collect_fpn_proposals", {
        "MultiLevelRois": multi,
        "MultiLevelScores": [paddle.sum(r, 1, keepdim=True) for r in multi],
        "MultiLevelRoIsNum": nums}, {"post_nms_topN": 4}, outputs=("FpnRois",),
        extra_outs=(("RoisNum", "int32"),))[0]
    offset = paddle.zeros([1, 18, 8, 8])
    dcn_w = paddle.static.create_parameter([4, 8, 3, 3], "float32", name="dcn_w")
    dcn = paddle.vision.ops.deform_conv2d(feat, offset, dcn_w, padding=1)
    match = a(paddle, "bipartite_match", {"DistMat": [dist_m]},
              {"match_type": "bipartite", "dist_threshold": 0.5}, out_dtype="int32",
              outputs=("ColToRowMatchIndices",), extra_outs=(("ColToRowMatchDist", "float32"),))[0]
    return ("generate_proposals_v2, distribute_fpn_proposals, collect_fpn_proposals, "
            "deformable_conv, bipartite_match"), \
        [scores, deltas, feat, dist_m], [rois, probs, restore, collected, dcn, match]


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
    a = _append
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


def m_quant_fake(paddle):
    """Quantization-aware-training ops of PaddleSlim exports before quantize_linear: fake_quantize(_dequantize)_moving_average_abs_max, fake_quantize_range_abs_max, moving_average_abs_max_scale, fake_channel_wise_dequantize_max_abs, dequantize_abs_max, dequantize_log.

    The abs_max forms (`fake_quantize_abs_max`, `fake_quantize_dequantize_abs_max`, and the
    channel-wise ones) are in `unsupported/`: a 2.6.2 file lacks their `round_type`, which
    Paddle 3.3.1's ops require.
    """
    x = paddle.static.data("x", [-1, 4, 3, 3], "float32")
    a = _append
    bits = {"bit_length": 8, "round_type": 1}
    state = {"moving_rate": 0.9, "is_test": True, **bits}

    def stats(name):
        return [paddle.static.create_parameter([1], "float32", name=name,
                                               default_initializer=paddle.nn.initializer.Constant(1.0))]

    w = paddle.static.create_parameter([4, 4, 1, 1], "float32", name="qat_w")
    scale_out = ("OutScale", "float32")
    outs = [
        a(paddle, "fake_quantize_moving_average_abs_max",
          {"X": [x], "InScale": stats("ma_scale"), "InAccum": stats("ma_accum"),
           "InState": stats("ma_state")}, state,
          extra_outs=(scale_out, ("OutState", "float32"), ("OutAccum", "float32")))[0],
        a(paddle, "fake_quantize_dequantize_moving_average_abs_max",
          {"X": [x], "InScale": stats("mad_scale"), "InAccum": stats("mad_accum"),
           "InState": stats("mad_state")}, state,
          extra_outs=(scale_out, ("OutState", "float32"), ("OutAccum", "float32")))[0],
        a(paddle, "fake_quantize_range_abs_max", {"X": [x], "InScale": stats("range_scale")},
          {"window_size": 100, "is_test": True, **bits}, extra_outs=(scale_out,))[0],
        a(paddle, "moving_average_abs_max_scale",
          {"X": [x], "InAccum": stats("mas_accum"), "InState": stats("mas_state")},
          {"moving_rate": 0.9, "is_test": True},
          extra_outs=(scale_out, ("OutState", "float32"), ("OutAccum", "float32")))[0],
        a(paddle, "fake_channel_wise_dequantize_max_abs",
          {"X": [paddle.floor(w * 10.0)], "Scales": [paddle.full([4], 0.5)]},
          {"quant_bits": [8], "quant_axis": 0})[0],
        a(paddle, "dequantize_abs_max", {"X": [paddle.cast(paddle.floor(x * 10.0), "int8")],
                                         "Scale": [paddle.full([1], 0.5)]}, {"max_range": 127.0})[0],
        a(paddle, "dequantize_log", {"X": [paddle.cast(paddle.floor(x * 10.0), "int8")],
                                     "Dict": [paddle.linspace(0.0, 1.0, 128)]}, {})[0],
    ]
    return ("fake_quantize(_dequantize)_moving_average_abs_max, fake_quantize_range_abs_max, "
            "moving_average_abs_max_scale, fake_channel_wise_dequantize_max_abs, "
            "dequantize_abs_max, dequantize_log"), [x], outs


def m_rnn_v1(paddle):
    """Recurrent ops of Paddle 1.x text models (LAC and the like) on LoD inputs: gru, lstm, gru_unit.

    The legacy `fc` op is left out: Paddle 3.3.1 translates it to `onednn_op.fc`, and then
    cannot read back the file it writes.

    Saved without clipping "extra" outputs and attributes (`clip_extra=False`), as Paddle 1.x
    saved them: Paddle 2.6.2's default drops the intermediate outputs (`BatchGate`, `XX`,
    ...) these ops cannot run without.
    """
    hid = 3
    gates3 = paddle.static.data("gates3", [-1, 3 * hid], "float32", lod_level=1)
    gates4 = paddle.static.data("gates4", [-1, 4 * hid], "float32", lod_level=1)
    step = paddle.static.data("step", [-1, 6], "float32")
    a = _append

    def param(name, shape):
        return [paddle.static.create_parameter(shape, "float32", name=name)]

    outs = []
    outs += a(paddle, "gru", {"Input": [gates3], "Weight": param("gru_w", [hid, 3 * hid]),
                              "Bias": param("gru_b", [1, 3 * hid])},
              {"activation": "tanh", "gate_activation": "sigmoid", "is_reverse": False,
               "origin_mode": False, "is_test": True},
              outputs=("Hidden",), extra_outs=(("BatchGate", "float32"),
                                                ("BatchResetHiddenPrev", "float32"),
                                                ("BatchHidden", "float32")))
    outs += a(paddle, "lstm", {"Input": [gates4], "Weight": param("lstm_w", [hid, 4 * hid]),
                               "Bias": param("lstm_b", [1, 4 * hid])},
              {"use_peepholes": False, "is_reverse": False, "gate_activation": "sigmoid",
               "cell_activation": "tanh", "candidate_activation": "tanh", "is_test": True},
              outputs=("Hidden", "Cell"), extra_outs=(("BatchGate", "float32"),
                                                     ("BatchCellPreAct", "float32")))
    outs += a(paddle, "gru_unit",
              {"Input": [paddle.matmul(step, paddle.ones([6, 3 * hid])) * 0.1],
               "HiddenPrev": [step[:, :hid]], "Weight": param("unit_w", [hid, 3 * hid]),
               "Bias": param("unit_b", [1, 3 * hid])},
              {"activation": 2, "gate_activation": 1, "origin_mode": False},
              outputs=("Hidden",), extra_outs=(("Gate", "float32"),
                                                ("ResetHiddenPrev", "float32")))
    return ("gru and lstm on LoD inputs; gru_unit"), \
        [gates3, gates4, step], outs, \
        {"lod": {"gates3": [[0, 2, 5]], "gates4": [[0, 2, 5]]},
         "clip_extra": False}


def m_fusion_rnn(paddle):
    """fusion_gru and fusion_lstm, the CPU fusions Paddle Inference 2.x wrote into optimised models, on a LoD input."""
    f32 = "float32"
    x = paddle.static.data("x", [-1, 6], f32, lod_level=1)

    def param(name, shape):
        return [paddle.static.create_parameter(shape, f32, name=name)]

    gru = _append(paddle, "fusion_gru", {"X": [x], "WeightX": param("fgru_wx", [6, 9]),
                                         "WeightH": param("fgru_wh", [3, 9]),
                                         "Bias": param("fgru_b", [1, 9])},
                  {"activation": "tanh", "gate_activation": "sigmoid", "is_reverse": False,
                   "use_seq": True, "origin_mode": False}, outputs=("Hidden",),
                  extra_outs=tuple((n, f32) for n in ("ReorderedH0", "XX", "BatchedInput",
                                                      "BatchedOut")))
    lstm = _append(paddle, "fusion_lstm", {"X": [x], "WeightX": param("flstm_wx", [6, 12]),
                                           "WeightH": param("flstm_wh", [3, 12]),
                                           "Bias": param("flstm_b", [1, 12])},
                   {"use_peepholes": False, "is_reverse": False, "use_seq": True,
                    "gate_activation": "sigmoid", "cell_activation": "tanh",
                    "candidate_activation": "tanh"}, outputs=("Hidden", "Cell"),
                   extra_outs=tuple((n, f32) for n in (
                       "XX", "BatchedInput", "BatchedHidden", "BatchedCell", "ReorderedH0",
                       "ReorderedC0", "CheckedCell")))
    return "fusion_gru and fusion_lstm on a LoD input", [x], gru + lstm, \
        {"lod": {"x": [[0, 2, 5]]}, "clip_extra": False}


MODELS = {
    "lg_elementwise": m_elementwise,
    "lg_activations": m_activations,
    "lg_conv_norm": m_conv_norm,
    "lg_pool_interp_pad": m_pool_interp_pad,
    "lg_matmul": m_matmul,
    "lg_shape_ops": m_shape_ops,
    "lg_index_ops": m_index_ops,
    "lg_reduce_sort": m_reduce_sort,
    "lg_creation": m_creation,
    "lg_rnn": m_rnn,
    "lg_cond_nested": m_cond_nested,
    "lg_while_array": m_while_array,
    "lg_detection": m_detection,
    "lg_v1_ops": m_v1_ops,
    "lg_dynamic_attrs": m_dynamic_attrs,
    "lg_nlp": m_nlp,
    "lg_vision_misc": m_vision_misc,
    "lg_control_more": m_control_more,
    "lg_detection_post": m_detection_post,
    "lg_quant": m_quant,
    "lg_layouts_attrs": m_layouts_attrs,
    "lg_misc": m_misc,
    "lg_sequence": m_sequence,
    "lg_beam_search": m_beam_search,
    "lg_math_more": m_math_more,
    "lg_linalg": m_linalg,
    "lg_search_signal": m_search_signal,
    "lg_losses_misc": m_losses_misc,
    "lg_ops_more": m_ops_more,
    "lg_decode": m_decode,
    "lg_detection_more": m_detection_more,
    "lg_linalg_more": m_linalg_more,
    "lg_random": m_random,
    "lg_quant_fake": m_quant_fake,
    "lg_rnn_v1": m_rnn_v1,
    "lg_fusion_rnn": m_fusion_rnn,
}


# ---------------------------------------------------------------------------------------
# Ops Paddle 3.3.1 cannot translate (or translates to a program it rejects): one tiny model
# each in `unsupported/`, named `u_<op type>` (a `_v1` suffix for the 1.x version of an op),
# with Paddle's error in `NAME.paddle_error.txt`. pir must refuse them too, naming the op
# (crates/pir-legacy/tests/legacy_corpus.rs).
# ---------------------------------------------------------------------------------------


def _one_op(op_type, attrs, outputs=("Out",), out_dtype="float32", shape=(-1, 4, 4, 4),
            x_dtype="float32"):
    def make(paddle):
        x = paddle.static.data("x", list(shape), x_dtype)
        out = _append(paddle, op_type, {"X": [x]}, attrs, out_dtype=out_dtype, outputs=outputs)
        return op_type, [x], out[:1]

    return make


def u_round(paddle):
    x = paddle.static.data("x", [-1, 3], "float32")
    return "round (2.x has no `decimals`)", [x], [paddle.round(x)]


def u_thresholded_relu(paddle):
    x = paddle.static.data("x", [-1, 3], "float32")
    return "thresholded_relu (2.x has no `value`)", [x], [paddle.nn.functional.thresholded_relu(x)]


def u_repeat_interleave(paddle):
    x = paddle.static.data("x", [-1, 3], "float32")
    return "repeat_interleave (`output_size` of another kind)", [x], [paddle.repeat_interleave(x, 2, 1)]


def u_beam_search_decode(paddle):
    from paddle.base.layer_helper import LayerHelper

    ids = paddle.static.data("ids", [-1, 1], "int64", lod_level=2)
    scores = paddle.static.data("scores", [-1, 1], "float32", lod_level=2)
    i = paddle.full([1], 0, "int64")
    id_array = paddle.tensor.create_array("int64")
    score_array = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(ids, i, array=id_array)
    paddle.tensor.array_write(scores, i, array=score_array)
    helper = LayerHelper("beam_search_decode")
    sentence_ids = helper.create_variable_for_type_inference("int64")
    sentence_scores = helper.create_variable_for_type_inference("float32")
    helper.append_op(
        type="beam_search_decode", inputs={"Ids": [id_array], "Scores": [score_array]},
        outputs={"SentenceIds": [sentence_ids], "SentenceScores": [sentence_scores]},
        attrs={"beam_size": 2, "end_id": 0})
    return ("beam_search_decode of tensor arrays (3.3.1's op takes dense tensors)", [ids, scores],
            [sentence_ids, sentence_scores])


def u_generate_proposals(paddle):
    scores = paddle.static.data("scores", [1, 3, 4, 4], "float32")
    deltas = paddle.static.data("deltas", [1, 12, 4, 4], "float32")
    anchors = paddle.full([4, 4, 3, 4], 1.0)
    rois, probs = _append(paddle, "generate_proposals", {
        "Scores": [scores], "BboxDeltas": [deltas], "ImInfo": [paddle.full([1, 3], 16.0)],
        "Anchors": [anchors], "Variances": [paddle.full([4, 4, 3, 4], 1.0)]},
        {"pre_nms_topN": 20, "post_nms_topN": 8, "nms_thresh": 0.7, "min_size": 0.1,
         "eta": 1.0}, outputs=("RpnRois", "RpnRoiProbs"))
    return "generate_proposals (v1; 3.3.1 has generate_proposals_v2 only)", [scores, deltas], [rois]


def u_multiclass_nms(paddle):
    boxes = paddle.static.data("boxes", [1, 4, 4], "float32")
    scores = paddle.static.data("scores", [1, 2, 4], "float32")
    out = _append(paddle, "multiclass_nms", {"BBoxes": [boxes], "Scores": [scores]},
                  {"background_label": -1, "score_threshold": 0.0, "nms_top_k": 4,
                   "nms_threshold": 0.5, "nms_eta": 1.0, "keep_top_k": 4,
                   "normalized": True})
    return "multiclass_nms (v1; 3.3.1 has multiclass_nms3 only)", [boxes, scores], out


UNSUPPORTED = {
    "u_transpose_v1": _one_op("transpose", {"axis": [0, 2, 3, 1]}),
    "u_flatten2": _one_op("flatten2", {"axis": 2}, outputs=("Out", "XShape")),
    "u_nearest_interp_v1": _one_op("nearest_interp", {"out_h": 8, "out_w": 6,
                                                      "interp_method": "nearest"}),
    "u_bilinear_interp_v1": _one_op("bilinear_interp", {"scale": 2.0,
                                                        "interp_method": "bilinear"}),
    "u_expand_v1": _one_op("expand", {"expand_times": [1, 1, 2, 1]}),
    "u_top_k_v1": _one_op("top_k", {"k": 2}, outputs=("Out", "Indices")),
    "u_fill_zeros_like": _one_op("fill_zeros_like", {}),
    "u_round": u_round,
    "u_thresholded_relu": u_thresholded_relu,
    "u_repeat_interleave": u_repeat_interleave,
    "u_beam_search_decode": u_beam_search_decode,
    "u_norm": _one_op("norm", {"axis": 1, "epsilon": 1e-10}, outputs=("Out", "Norm")),
    "u_pad2d": _one_op("pad2d", {"paddings": [1, 0, 0, 1], "mode": "constant",
                                 "pad_value": 0.5, "data_format": "NCHW"}),
    "u_crop": _one_op("crop", {"shape": [-1, 2, 3, 3], "offsets": [0, 1, 1, 0]}),
    "u_multiclass_nms": u_multiclass_nms,
    "u_generate_proposals": u_generate_proposals,
    "u_fake_quantize_abs_max": _one_op("fake_quantize_abs_max", {"bit_length": 8},
                                       outputs=("Out", "OutScale")),
}


# ---------------------------------------------------------------------------------------
# build (Paddle 2.6.2)
# ---------------------------------------------------------------------------------------

# Models exported from dygraph layers with `paddle.jit.save` (the file says why).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from legacy_exported_models import EXPORTED  # noqa: E402

BUILD_CHILD = r"""
import os, sys, json, warnings
os.environ["GLOG_minloglevel"] = "2"
warnings.filterwarnings("ignore")
sys.path.insert(0, sys.argv[1])
import make_legacy_models as M
M.build_one(sys.argv[2], sys.argv[3])
"""


def _inputs(feeds, lod=None, fixed=None):
    """Inputs of `feeds`: `fixed` arrays where given, else random ones whose first dim
    is the rows of the feed's LoD (`lod`), else BATCH where the dim is -1."""
    import numpy as np

    rng = np.random.default_rng(0)
    arrays = {}
    for i, var in enumerate(feeds):
        if fixed and var.name in fixed:
            arrays["arg%d_%s" % (i, var.name)] = fixed[var.name]
            continue
        shape = [BATCH if d < 0 else d for d in var.shape]
        if lod and var.name in lod:
            shape[0] = lod[var.name][-1][-1]
        dtype = str(var.dtype).split(".")[-1]
        dtype = {"fp32": "float32", "int64": "int64", "int32": "int32"}.get(dtype, dtype)
        if "int" in dtype:
            if var.name == "boxes_num":
                a = np.full(shape, 1, dtype)
            elif var.name == "img_size":
                a = np.full(shape, 16, dtype)
            elif var.name == "n":
                a = np.full(shape, 3, dtype)
            else:
                a = rng.integers(0, 10, size=shape).astype(dtype)
        elif var.name == "boxes":
            corner = rng.uniform(0.0, 3.0, size=shape[:-1] + [2])
            a = np.concatenate([corner, corner + 2.0], axis=-1).astype(dtype)
        else:
            a = rng.standard_normal(shape).astype(dtype)
        arrays["arg%d_%s" % (i, var.name)] = a
    return arrays


def feed_of(paddle, arrays, lod=None):
    """The feed dict of an `.inputs.npz` (`arg<i>_<name>` keys): the arrays, and a tensor
    with its LoD for each feed `lod` names (Paddle 2.6.2 and 3.3.1 alike)."""
    feed = {}
    for key in (arrays.files if hasattr(arrays, "files") else arrays):
        name = key.split("_", 1)[1]
        feed[name] = arrays[key]
        if lod and name in lod:
            tensor = paddle.base.core.LoDTensor()
            tensor.set(arrays[key], paddle.CPUPlace())
            tensor.set_lod(lod[name])
            feed[name] = tensor
    return feed


def _keep_own_frames():
    """Paddle records the whole Python stack of every op (`op_callstack`); keep only the
    model's own line, with the script's path relative to the repository, so the files
    are small and do not depend on where the repository or the venv is."""
    import traceback

    real_extract_stack = traceback.extract_stack
    here = os.path.abspath(__file__)

    def model_frames(*a, **k):
        frames = [f for f in real_extract_stack(*a, **k) if os.path.abspath(f.filename) == here]
        for f in frames:
            f.filename = os.path.relpath(here, ROOT)
        return frames[-1:]

    traceback.extract_stack = model_frames


def _reference(paddle, prefix, lod=None, fixed=None, shapes=None):
    """Runs the saved inference program at `prefix` with Paddle 2.6.2 on generated inputs;
    writes `NAME.inputs.npz` and `NAME.ref.npz`. Returns the program, feed names and the
    number of outputs."""
    import types

    import numpy as np

    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feed_names, fetch_vars = paddle.static.load_inference_model(prefix, exe)
    feeds = [prog.global_block().var(n) for n in feed_names]
    if shapes:  # dynamic dims of the feeds filled in
        feeds = [types.SimpleNamespace(name=v.name, shape=s, dtype=v.dtype)
                 for v, s in zip(feeds, shapes)]
    arrays = _inputs(feeds, lod, fixed)
    np.savez(prefix + ".inputs.npz", **arrays)
    results = exe.run(prog, feed=feed_of(paddle, arrays, lod), fetch_list=fetch_vars,
                      return_numpy=False)
    np.savez(prefix + ".ref.npz", *[np.asarray(r) for r in results])
    return prog, feed_names, len(results)


def _write_meta(paddle, prefix, name, prog, feed_names, description, lod=None):
    ops = [op.type for op in prog.global_block().ops if op.type not in ("feed", "fetch")]
    sub_ops = sorted({op.type for blk in prog.blocks[1:] for op in blk.ops})
    meta = {"name": name, "paddle_version": paddle.__version__, "feeds": feed_names,
            "ops": ops, "sub_block_ops": sub_ops, "description": description}
    if lod:
        meta["lod"] = lod
    with open(prefix + ".legacy.json", "w") as f:
        json.dump(meta, f, indent=1)
    return ops


def build_exported(name, out):
    """Builds model `name` of legacy_exported_models.py with Paddle 2.6.2: a dygraph layer
    converted by dy2static and saved by `paddle.jit.save`, as published models are."""
    import numpy as np
    import paddle

    paddle.disable_static()
    paddle.seed(SEED)
    np.random.seed(SEED)
    description, layer, specs, shapes = EXPORTED[name](paddle)
    layer.eval()
    prefix = os.path.join(out, name)
    paddle.jit.save(layer, prefix, input_spec=specs)
    info = prefix + ".pdiparams.info"  # dygraph parameter names; not part of the model
    if os.path.exists(info):
        os.remove(info)
    prog, feed_names, n_out = _reference(paddle, prefix, shapes=shapes)
    ops = _write_meta(paddle, prefix, name, prog, feed_names, description)
    print("built %s: %d ops, %d outputs" % (name, len(ops), n_out))


def build_one(name, out):
    """Builds model `name` with Paddle 2.6.2 and writes its files into `out`."""
    import numpy as np
    import paddle

    assert paddle.__version__ == "2.6.2", "build needs Paddle 2.6.2, not " + paddle.__version__
    _keep_own_frames()
    if name in EXPORTED:
        return build_exported(name, out)
    paddle.enable_static()
    paddle.seed(SEED)
    np.random.seed(SEED)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        description, feeds, fetches, *extra = (MODELS.get(name) or UNSUPPORTED[name])(paddle)
    extra = extra[0] if extra else {}
    lod = extra.get("lod", {})
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    prefix = os.path.join(out, name)
    paddle.static.save_inference_model(prefix, feeds, fetches, exe, program=main,
                                       clip_extra=extra.get("clip_extra", True))
    if name in UNSUPPORTED:
        ops = [op.type for op in main.global_block().ops]
        print("built %s (expected to fail in Paddle 3.3.1): %s" % (name, ", ".join(ops)))
        return
    prog, feed_names, n_out = _reference(paddle, prefix, lod, extra.get("inputs"))
    ops = _write_meta(paddle, prefix, name, prog, feed_names, description, lod)
    print("built %s: %d ops, %d outputs" % (name, len(ops), n_out))


def build(args):
    os.makedirs(args.out, exist_ok=True)
    failed = []
    for name in _selected(args):
        out = _dir_of(args.out, name)
        os.makedirs(out, exist_ok=True)
        for suffix in ("pdmodel", "pdiparams"):
            path = os.path.join(out, "%s.%s" % (name, suffix))
            if os.path.exists(path):
                os.remove(path)
        # Paddle 2.6.2 lists some op inputs (a while loop's `X`) from a Python set: a fixed
        # hash seed makes the order, and so the files, the same on every run.
        env = dict(os.environ, PYTHONHASHSEED="0")
        res = subprocess.run([sys.executable, "-c", BUILD_CHILD, os.path.dirname(__file__), name,
                              out], capture_output=True, text=True, env=env)
        if res.returncode != 0:
            failed.append(name)
            print("FAIL build %s: %s" % (name, res.stderr.strip()[-1500:]))
        else:
            print(res.stdout.strip())
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------
# translate (Paddle 3.3.1)
# ---------------------------------------------------------------------------------------

TRANSLATE_CHILD = r"""
import json, os, sys, shutil, tempfile, warnings
os.environ["GLOG_minloglevel"] = "2"
warnings.filterwarnings("ignore")
import numpy as np
import paddle
from paddle.base import core
prefix = sys.argv[1]
with open(prefix + ".pdmodel", "rb") as f:
    desc = core.ProgramDesc(f.read())
prog = paddle.pir.translate_to_pir(desc)
core.serialize_pir_program(prog, prefix + ".translated.json", True, False, True)
loaded = paddle.static.Program()
core.deserialize_pir_program(prefix + ".translated.json", loaded, -1)
if sys.argv[2] == "expect-failure":
    print("Paddle 3.3.1 translated it")
    sys.exit(0)
with open(prefix + ".translated.txt", "w") as f:
    f.write(str(loaded))
paddle.enable_static()
with tempfile.TemporaryDirectory() as work:
    name = os.path.basename(prefix)
    shutil.copy(prefix + ".translated.json", os.path.join(work, name + ".json"))
    if os.path.exists(prefix + ".pdiparams"):
        shutil.copy(prefix + ".pdiparams", os.path.join(work, name + ".pdiparams"))
    exe = paddle.static.Executor(paddle.CPUPlace())
    p, feeds, fetches = paddle.static.load_inference_model(os.path.join(work, name), exe)
    arrays = np.load(prefix + ".inputs.npz")
    with open(prefix + ".legacy.json") as f:
        lod = json.load(f).get("lod")
    sys.path.insert(0, sys.argv[3])
    from make_legacy_models import feed_of
    outs = exe.run(p, feed=feed_of(paddle, arrays, lod), fetch_list=fetches, return_numpy=False)
expected = np.load(prefix + ".ref.npz")
if len(outs) != len(expected.files):
    print("%d outputs, reference has %d" % (len(outs), len(expected.files)))
    sys.exit(1)
for i, out in enumerate(outs):
    want = expected["arr_%d" % i]
    out = np.asarray(out)
    if out.shape != want.shape or not np.allclose(out, want, rtol=1e-4, atol=1e-5, equal_nan=True):
        print("output %d differs (shape %s vs %s)" % (i, out.shape, want.shape))
        sys.exit(1)
print("%d outputs match" % len(outs))
"""

OUR_FILES = ("pdmodel", "pdiparams", "inputs.npz", "ref.npz", "legacy.json", "translated.json",
             "translated.txt")


def translate(args):
    import paddle

    assert paddle.__version__.startswith("3.3"), "translate needs Paddle 3.3.x"
    dropped = []
    for name in _selected(args, present_in=args.out):
        prefix = os.path.join(_dir_of(args.out, name), name)
        expect_failure = name in UNSUPPORTED
        with tempfile.TemporaryDirectory() as work:
            # An expected failure writes nothing beside the model.
            target = os.path.join(work, name) if expect_failure else prefix
            if expect_failure:
                shutil.copy(prefix + ".pdmodel", target + ".pdmodel")
            res = subprocess.run([sys.executable, "-c", TRANSLATE_CHILD, target,
                                  "expect-failure" if expect_failure else "run",
                                  os.path.dirname(os.path.abspath(__file__))],
                                 capture_output=True, text=True, timeout=600)
        lines = (res.stdout.strip() or res.stderr.strip()[-600:]).splitlines()
        message = lines[-1].strip() if lines else "exit %d" % res.returncode
        if expect_failure:
            if res.returncode == 0:
                dropped.append(name)
                print("UNEXPECTED %s: %s" % (name, message))
                os.remove(prefix + ".pdmodel")
            else:
                print("fails as expected %s: %s" % (name, message))
                with open(prefix + ".paddle_error.txt", "w") as f:
                    f.write(message + "\n")
            continue
        if res.returncode == 0:
            print("ok %s: %s" % (name, message))
            continue
        dropped.append(name)
        print("DROPPED %s: Paddle 3.3.1 fails: %s" % (name, message))
        for suffix in OUR_FILES:
            path = "%s.%s" % (prefix, suffix)
            if os.path.exists(path):
                os.remove(path)
    _write_table(args.out)
    return 1 if dropped else 0


def _write_table(out):
    """Rewrites the model table between the markers of `README.md` in `out`."""
    readme = os.path.join(out, "README.md")
    if not os.path.exists(readme):
        return
    rows = ["| model | legacy ops (top block) | what it covers |", "|---|---|---|"]
    for path in sorted(glob.glob(os.path.join(out, "*.legacy.json"))):
        with open(path) as f:
            meta = json.load(f)
        ops = sorted(set(meta["ops"]))
        rows.append("| `%s` | %d: %s | %s |" % (meta["name"], len(ops), ", ".join(ops),
                                                meta.get("description", "")))
    with open(readme) as f:
        text = f.read()
    start, end = "<!-- models -->", "<!-- /models -->"
    if start not in text or end not in text:
        return
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    with open(readme, "w") as f:
        f.write(head + start + "\n" + "\n".join(rows) + "\n" + end + tail)


def _dir_of(out, name):
    """Where model `name` lives: `out`, or `out/unsupported` for an expected failure."""
    return os.path.join(out, "unsupported") if name in UNSUPPORTED else out


def _selected(args, present_in=None):
    names = list(MODELS) + list(EXPORTED) + list(UNSUPPORTED)
    if args.only:
        wanted = set(args.only.split(","))
        names = [n for n in names if n in wanted]
    if present_in is not None:
        names = [n for n in names
                 if os.path.exists(os.path.join(_dir_of(present_in, n), n + ".pdmodel"))]
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=["build", "translate", "all"])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", default="")
    ap.add_argument("--paddle26", default=DEFAULT_PADDLE26,
                    help="python of the Paddle 2.6.2 venv (for `all`)")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    if args.step == "build":
        return build(args)
    if args.step == "translate":
        return translate(args)
    cmd = [args.paddle26, os.path.abspath(__file__), "build", "--out", args.out]
    if args.only:
        cmd += ["--only", args.only]
    code = subprocess.run(cmd).returncode
    return translate(args) or code


if __name__ == "__main__":
    sys.exit(main())
