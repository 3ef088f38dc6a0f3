#!/usr/bin/env python3
"""Regenerates the small programs of crates/pir-shape/tests/paddle_cases and
Paddle 3.3.1's symbolic shapes of them.

Each case is a function below that builds a program with Paddle's static API
(PIR mode, inputs with dynamic dims) and returns the values to fetch. The
program is saved with `paddle.static.save_inference_model`; `pir print` of the
saved JSON becomes NAME.txt and Paddle's annotated text (taken by
scripts/paddle_check_shapes.py --save) becomes NAME.symshape.txt, which the test
`paddle_cases.rs` compares with `pir shapes`. The check script's OK/DIFF line
tells at once whether pir-shape agrees.

Sections:
  * binary, multiary, element-wise and backward ops (solvers, losses,
    detection, quantization, attention): written as Paddle's program text
    (NAME.txt itself, converted with `pir convert`), so inputs may have any
    dynamic dims and optional results may be left out;
  * unary, nullary and same-operand ops (linear algebra, FFT, quantization,
    signal framing, diagonals, uniques, pools and pads over dynamic extents,
    variance-like reductions, index generators, ...);
  * fused attention and its gradient, flash attention over packed
    sequences, batch and RMS norms, linear and chained products, reductions
    with indices, YOLO loss, hashed embeddings and NCE: text cases, some
    carrying what Paddle's rule needs to run (see that section);
  * what a rule learns beyond its result: `box_coder` and `add_n` equalities
    between operands, `concat` over an axis of unknown value, and the data
    of a `strided_slice` of a shape: text cases;
  * tensor arrays, control-flow stacks, coalescing and loss scaling: built
    with Paddle's static API and taken as Paddle prints them in memory (its
    serializer drops `cf.stack_create`, and saving would prune gradients),
    then converted as the text cases are.

Usage:
  PY scripts/make_shape_cases.py [--pir PATH] [--out DIR] [CASE ...]

PY is a Python with paddlepaddle==3.3.1 (/work/venv-paddle/bin/python here);
--pir defaults to target/debug/pir, --out to crates/pir-shape/tests/paddle_cases;
with no CASE every case is made.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def data(name, shape, dtype="float32"):
    import paddle
    return paddle.static.data(name, shape, dtype)


# ------------------------------------------------ unary, nullary, same operands


@case
def linalg_square():
    """Square-matrix ops: the last two dims made equal, batch dims kept."""
    import paddle
    from paddle import _C_ops
    x = data("x", [-1, -1, -1])
    outs = [_C_ops.cholesky(x, False), _C_ops.det(x), _C_ops.inverse(x),
            _C_ops.matrix_power(data("sq", [3, 4, 4]), 3)]
    w, v = _C_ops.eig(x)
    outs += [w, v]
    outs += list(_C_ops.eigh(x, "L"))
    outs += [_C_ops.eigvals(x)]
    outs += list(_C_ops.eigvalsh(x, "L", True))
    y = data("y", [-1, 5, 5])
    outs += [_C_ops.matrix_rank(y, 0.0, False, True)]
    outs += [_C_ops.matrix_rank(data("z", [-1, -1], "float32"), 0.0, True, False)]
    return outs


@case
def linalg_factor():
    """Factorizations: min(m, n) extents, batch dims, modes."""
    from paddle import _C_ops
    x = data("x", [-1, 6, -1])
    outs = list(_C_ops.lu(x, True))
    outs += list(_C_ops.qr(x, "reduced"))
    outs += list(_C_ops.qr(x, "complete"))
    outs += list(_C_ops.qr(x, "r"))
    outs += list(_C_ops.svd(x, False))
    outs += list(_C_ops.svd(x, True))
    m = data("m", [-1, 3])
    outs += list(_C_ops.lu(m, True))
    outs += [_C_ops.trace(x, 0, 1, 2), _C_ops.trace(m, 0, 0, 1)]
    return outs


@case
def fft_complex():
    """FFT extents and complex views."""
    from paddle import _C_ops
    x = data("x", [-1, 8, -1])
    outs = [_C_ops.fft_r2c(x, [1, 2], "backward", True, True),
            _C_ops.fft_r2c(x, [1], "backward", True, False)]
    c = _C_ops.as_complex(data("y", [-1, 5, 2]))
    outs += [c, _C_ops.as_real(c), _C_ops.fft_c2c(c, [1], "backward", True),
             _C_ops.fft_c2r(c, [1], "backward", False, 0),
             _C_ops.fft_c2r(c, [0, 1], "backward", False, 7)]
    return outs


@case
def diagonals():
    """diag, diag_embed and diagonal with offsets, static and dynamic."""
    from paddle import _C_ops
    v = data("v", [-1])
    m = data("m", [4, 6])
    d = data("d", [-1, -1])
    x = data("x", [-1, 3, -1, 5])
    outs = [_C_ops.diag(v, 2, 0.0), _C_ops.diag(m, 1, 0.0), _C_ops.diag(m, -2, 0.0),
            _C_ops.diag(d, 0, 0.0)]
    outs += [_C_ops.diag_embed(d, 1, 0, 2), _C_ops.diag_embed(d, -1, -2, -1)]
    outs += [_C_ops.diagonal(x, 0, 0, 1), _C_ops.diagonal(x, 1, 1, 3),
             _C_ops.diagonal(x, 4, 2, 1), _C_ops.diagonal(x, -1, 1, 3),
             _C_ops.diagonal(x, -1, 0, 2)]
    return outs


@case
def quantize():
    """Fake quantization, dequantization and weight quantization."""
    from paddle import _C_ops
    x = data("x", [-1, 8, -1])
    s = data("s", [1])
    outs = list(_C_ops.fake_quantize_abs_max(x, 8, 1))
    outs += list(_C_ops.fake_quantize_dequantize_abs_max(x, 8, 1))
    outs += list(_C_ops.fake_channel_wise_quantize_abs_max(x, 8, 1, 1, False))
    outs += list(_C_ops.fake_channel_wise_quantize_dequantize_abs_max(x, 8, 1, 0))
    outs += [_C_ops.fake_dequantize_max_abs(x, s, 127.0)]
    q = data("q", [-1, 4], "int8")
    outs += [_C_ops.dequantize_abs_max(q, s, 127.0)]
    outs += [_C_ops.dequantize_log(q, data("dict", [128]))]
    w = data("w", [-1, 32], "float16")
    outs += list(_C_ops.weight_quantize(w, "weight_only_int8", -1, -1))
    outs += list(_C_ops.weight_quantize(w, "weight_only_int4", -1, 64))
    return outs


@case
def signal_frames():
    """frame, overlap_add, fold, unfold, temporal_shift."""
    from paddle import _C_ops
    x = data("x", [-1, 100])
    f = _C_ops.frame(x, 16, 4, -1)
    g = _C_ops.frame(data("y", [64, -1]), 8, 2, 0)
    outs = [f, g, _C_ops.overlap_add(f, 4, -1), _C_ops.overlap_add(g, 2, 0)]
    img = data("img", [-1, 3, -1, 12])
    outs += [_C_ops.unfold(img, [3, 3], [1, 2], [1, 1, 1, 1], [1, 1])]
    col = data("col", [-1, 12, 16])
    outs += [_C_ops.fold(col, [5, 5], [2, 2], [1, 1], [0, 0, 0, 0], [1, 1])]
    outs += [_C_ops.temporal_shift(img, 2, 0.25, "NCHW")]
    return outs


@case
def shape_misc():
    """Assorted single-input rules: crops, grids, norms, uniques, pools."""
    import paddle
    from paddle import _C_ops
    x = data("x", [-1, 6, 8])
    outs = [_C_ops.crop(x, [-1, 4, -1], [0, 1, 2])]
    theta = data("theta", [-1, 2, 3])
    outs += [_C_ops.affine_grid(theta, [2, 3, 5, 7], True)]
    dm = data("dm", [-1, 7])
    outs += list(_C_ops.bipartite_match(dm, "bipartite", 0.5))
    outs += list(_C_ops.check_numerics(x, "op", "var", 0, 0, ""))
    label = data("label", [-1], "int64")
    outs += list(_C_ops.class_center_sample(label, 10, 2, 0, 0, 1, False, 0))
    outs += [_C_ops.identity_loss(x, 1), _C_ops.identity_loss(x, 2)]
    p = data("p", [-1, 10])
    outs += [_C_ops.multinomial(p, 3, False)]
    outs += list(_C_ops.nanmedian(x, [1], True, "avg"))
    outs += list(_C_ops.nanmedian(x, [], False, "min"))
    outs += [_C_ops.squared_l2_norm(x)]
    img = data("img", [-1, 3, -1, -1])
    outs += list(_C_ops.fractional_max_pool2d(img, [4, 5], [2, 2], 0.5, False))
    outs += [_C_ops.shard_index(data("ids", [-1, 1], "int64"), 20, 2, 0, -1)]
    outs += [_C_ops.trans_layout(img, [0, 2, 3, 1])]
    return outs


@case
def uniques_pools():
    """Counts known only when run: uniques, pooled sequences, FPN levels."""
    import paddle
    from paddle import _C_ops
    x = data("x", [-1, 6, 8])
    outs = []
    u = _C_ops.unique(x, True, True, True, [], "int64", True)
    outs += list(u)
    outs += list(_C_ops.unique(x, True, True, True, [1], "int64", True))
    outs += list(_C_ops.unique_consecutive(x, True, True, [], "int64"))
    outs += list(_C_ops.unique_consecutive(x, True, True, [-1], "int64"))
    outs += [_C_ops.sequence_pool(data("seq", [-1, 8]), False, "MAX", 0.0),
             _C_ops.sequence_pool(data("seq2", [-1, 8]), False, "SUM", 0.0)]
    rois = data("rois", [-1, 4])
    outs += [t for r in _C_ops.distribute_fpn_proposals(rois, None, 2, 5, 4, 224, False)
             for t in (r if isinstance(r, list) else [r])]
    outs += [_C_ops.decode_jpeg(data("jpeg", [-1], "uint8"), "rgb", paddle.CPUPlace())]
    return outs


@case
def generators():
    """Ops shaped by attributes only."""
    from paddle import _C_ops
    import paddle
    outs = [_C_ops.tril_indices(4, 5, 1, "int64", paddle.CPUPlace()),
            _C_ops.tril_indices(6, 3, -2, "int64", paddle.CPUPlace()),
            _C_ops.triu_indices(4, 5, 1, "int64", paddle.CPUPlace()),
            _C_ops.randperm(7, "int64", paddle.CPUPlace()),
            _C_ops.truncated_gaussian_random([3, 4], 0.0, 1.0, 0, -2.0, 2.0,
                                             "float32", paddle.CPUPlace())]
    outs += [_C_ops.read_file("image.jpg", "uint8", paddle.CPUPlace())]
    return outs


@case
def pools_pads():
    """Pools, pads and pixel shuffles over dynamic spatial dims."""
    import paddle
    from paddle import _C_ops
    x = data("x", [-1, 8, -1, -1])
    outs = [_C_ops.pool2d(x, [2, 2], [2, 2], [0, 0], False, True, "NCHW", "max", False,
                          False, "EXPLICIT"),
            _C_ops.pool2d(x, [3, 3], [2, 2], [1, 1], True, True, "NCHW", "avg", False,
                          False, "SAME"),
            _C_ops.pool2d(x, [1, 1], [1, 1], [0, 0], False, True, "NCHW", "avg", True,
                          False, "EXPLICIT"),
            _C_ops.pool2d(x, [4, 5], [1, 1], [0, 0], False, True, "NCHW", "avg", False,
                          True, "EXPLICIT")]
    outs += list(_C_ops.max_pool2d_with_index(x, [3, 3], [2, 2], [1, 1], False, False, False))
    v = data("v", [-1, 4, -1, -1, 6])
    outs += [_C_ops.pool3d(v, [2, 2, 2], [2, 2, 2], [0, 0, 0], False, True, "NCDHW", "max",
                           False, False, "EXPLICIT")]
    outs += [_C_ops.pad3d(v, [1, 2, 0, 1, 3, 0], "constant", 0.0, "NCDHW")]
    outs += [_C_ops.pad(data("p", [-1, 3]), [1, 2, 0, 4], 0.0)]
    outs += [_C_ops.pixel_shuffle(x, 2, "NCHW"),
             _C_ops.pixel_unshuffle(data("y", [-1, 8, 4, 6]), 2, "NCHW"),
             _C_ops.maxout(x, 2, 1)]
    ax = data("ax", [1], "int64")
    outs += [_C_ops.unsqueeze(data("u", [-1, 16]), ax),
             _C_ops.unsqueeze(data("w", [-1, 16]), [-1, 0])]
    return outs


@case
def reductions():
    """Variance-like reductions and batched log-determinants."""
    from paddle import _C_ops
    x = data("x", [-1, 6, -1])
    return [_C_ops.std(x, [1], False, True, 1.0), _C_ops.var(x, [1, 2], True, True, 1.0),
            *_C_ops.slogdet_v2(data("m", [-1, -1, -1]))]


# ------------------------------- binary, multiary, element-wise, backward
# These cases are written as Paddle's program text (no InferMeta runs, so
# dynamic dims and optional results can be chosen freely); `pir convert`
# turns each into the JSON Paddle reads.

TEXT_CASES = {}


def text_case(fn):
    TEXT_CASES[fn.__name__] = fn
    return fn


_DEFS = None


def _defs():
    global _DEFS
    if _DEFS is None:
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.join(here, "..", "crates", "pir-dialects", "data", "pd_op_definitions.json")
        with open(path) as f:
            _DEFS = json.load(f)["ops"]
    return _DEFS


def _attr_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v[1:] if v.startswith("=") else json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_attr_text(x) for x in v) + "]"
    return repr(v)


class Text:
    """A program in Paddle's text form: `data` inputs, ops whose missing
    attributes take the definitions' defaults, and a fetch of every result
    of `fetch(...)`."""

    def __init__(self):
        self.lines, self.n, self.fetches = [], 0, []

    def _value(self, ty):
        v = (f"%{self.n}", ty)
        self.n += 1
        return v

    def data(self, name, shape, dtype="f32"):
        ty = "tensor<" + "x".join(str(d) for d in shape) + ("x" if shape else "") + dtype + ">"
        v = self._value(ty)
        pd = {"f32": "float32", "f16": "float16", "i64": "int64", "i32": "int32",
              "bool": "bool", "i8": "int8"}[dtype]
        self.lines.append(
            f'    ({v[0]}) = "pd_op.data" () {{dtype:{pd},name:"{name}",'
            f'place:Place(undefined:0),shape:[{",".join(map(str, shape))}],'
            f'stop_gradient:[true]}} : () -> {ty}')
        return v

    def op(self, name, inputs, outputs, **attrs):
        d = _defs()[name]
        for a in d["attributes"]:
            if a["name"] not in attrs and "default" in a:
                attrs[a["name"]] = a["default"]
        attrs["stop_gradient"] = [True]
        ins = ", ".join(v[0] if v else "<<NULL VALUE>>" for v in inputs)
        in_tys = ", ".join(v[1] if v else "<<NULL TYPE>>" for v in inputs)
        outs = [self._value(t) for t in outputs]
        res = ", ".join(o[0] for o in outs)
        out_tys = ", ".join(o[1] or "<<NULL TYPE>>" for o in outs)
        at = ",".join(f"{k}:{_attr_text(v)}" for k, v in attrs.items())
        self.lines.append(f'    ({res}) = "{name}" ({ins}) {{{at}}} : ({in_tys}) -> {out_tys}')
        return outs if len(outs) != 1 else outs[0]

    def combine(self, items):
        ty = "vec[" + ",".join(v[1] for v in items) + "]"
        v = self._value(ty)
        self.lines.append(f'    ({v[0]}) = "builtin.combine" ({", ".join(i[0] for i in items)}) {{}} : '
                          f'({", ".join(i[1] for i in items)}) -> {ty}')
        return v

    def full_int_array(self, values):
        ty = f"tensor<{len(values)}xi64>"
        v = self._value(ty)
        self.lines.append(f'    ({v[0]}) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),'
                          f'stop_gradient:[true],value:[{",".join(map(str, values))}]}} : () -> {ty}')
        return v

    def text(self):
        return "{\n" + "\n".join(self.lines) + "\n}\n"


def t(*dims, dt="f32"):
    """A dense tensor type `tensor<AxBxdt>`."""
    return "tensor<" + "x".join(map(str, dims)) + ("x" if dims else "") + dt + ">"


@text_case
def binary_pairs():
    p = Text()
    x = p.data("x", [-1, 6]); y = p.data("y", [-1, -1]); v = p.data("v", [-1])
    p.op("pd_op.kron", [x, y], [t(-1, -1)])
    p.op("pd_op.kron", [v, x], [t(-1, -1)])
    p.op("pd_op.binomial", [p.data("cnt", [-1, 6]), p.data("prob", [4, -1])], [t(4, 6, dt="i64")])
    ids = p.data("ids", [-1, 2, 3], "i64")
    p.op("pd_op.gather_tree", [ids, p.data("par", [5, -1, 3], "i64")], [t(-1, 2, 3, dt="i64")])
    p.op("pd_op.apply_per_channel_scale", [p.data("a", [-1, -1], "f16"), p.data("sc", [8], "f16")], [t(-1, -1, dt="f16")])
    p.op("pd_op.bincount", [p.data("bx", [-1], "i64"), p.data("bw", [-1]), p.full_int_array([0])], [t(-1)])
    p.op("pd_op.box_clip", [p.data("box", [-1, -1, -1]), p.data("im", [-1, -1])], [t(-1, -1, -1)])
    p.op("pd_op.ctc_align", [p.data("ctc", [-1, 1], "i64"), None], [t(-1, 1, dt="i64"), None])
    img = p.data("img", [-1, 3, -1, -1])
    p.op("pd_op.grid_sample", [img, p.data("grid", [-1, 7, 9, -1])], [t(-1, 3, 7, 9)])
    p.op("pd_op.histogram", [x, None], [t(30, dt="i64")], bins=30, min=0.0, max=1.0)
    lab = p.data("lab", [-1, -1])
    p.op("pd_op.kldiv_loss", [x, lab], [t(-1, 6)], reduction="none")
    p.op("pd_op.kldiv_loss", [x, lab], [t()], reduction="mean")
    p.op("pd_op.margin_cross_entropy", [p.data("logits", [-1, 10]), p.data("ml", [-1, -1], "i64")], [t(-1, 10), t(-1, 1)])
    p.op("pd_op.accuracy_check", [x, y], [t(-1, -1, dt="b")], fn_name="check")
    p.op("pd_op.reduce_as", [p.data("ra", [-1, 4, 6]), p.data("rt", [-1, 6])], [t(-1, 6)])
    p.op("pd_op.fused_softmax_mask", [p.data("fx", [-1, 4, -1, 16]), p.data("fm", [-1, 1, -1, 16])], [t(-1, 4, -1, 16)])
    return p

@text_case
def binary_lists():
    p = Text()
    p.op("pd_op.matrix_nms", [p.data("bb", [-1, -1, -1]), p.data("sc", [-1, 3, -1])], [t(-1, 6), t(-1, 1, dt="i32"), t(-1, dt="i32")],
         score_threshold=0.1, nms_top_k=10, keep_top_k=5)
    p.op("pd_op.prune_gate_by_capacity", [p.data("gate", [-1], "i64"), p.data("ec", [-1, 2], "i64")], [t(-1, dt="i64")], n_expert=4, n_worker=2)
    seg = p.data("seg", [-1], "i64")
    p.op("pd_op.segment_pool", [p.data("sx", [-1, 5, -1]), seg], [t(-1, 5, -1), t(-1, 1)], pooltype="MEAN")
    p.op("pd_op.segment_pool", [p.data("sy", [-1, 5]), seg], [t(-1, 5), None], pooltype="SUM")
    sid = p.full_int_array([0, 0, 1, 2])
    p.op("pd_op.segment_pool", [p.data("sz", [4, 5]), sid], [t(-1, 5), None], pooltype="MAX")
    ln = p.data("len", [-1, 3], "i64")
    p.op("pd_op.sequence_mask", [ln, p.data("maxlen", [1], "i32")], [t(-1, 3, -1, dt="i64")], out_dtype="=int64")
    p.op("pd_op.sequence_mask", [ln, p.full_int_array([7])], [t(-1, 3, 7, dt="i64")], out_dtype="=int64")
    x = p.data("x", [-1, 6])
    p.op("pd_op.shuffle_batch", [x, p.data("seed", [1], "i64")], [t(-1, 6), t(-1, dt="i64"), t(1, dt="i64")])
    return p

@text_case
def binary_signals():
    p = Text()
    x = p.data("x", [-1, 6])
    p.op("pd_op.stft", [p.data("sig", [-1, 400]), p.data("win", [-1])], [t(-1, 33, 22, dt="c64")], n_fft=64, hop_length=16, normalized=False, onesided=True)
    p.op("pd_op.stft", [p.data("sig2", [-1, -1]), p.data("win2", [32])], [t(-1, 32, -1, dt="c64")], n_fft=32, hop_length=8, normalized=False, onesided=False)
    p.op("pd_op.swiglu", [x, p.data("sy2", [-1, -1])], [t(-1, 6)])
    p.op("pd_op.swiglu", [x, None], [t(-1, 3)])
    p.op("pd_op.swiglu", [p.data("odd", [-1, -1]), None], [t(-1, -1)])
    p.op("pd_op.tdm_child", [p.data("node", [-1, 1], "i64"), p.data("tree", [-1, 5], "i64")], [t(-1, 1, 2, dt="i64"), t(-1, 1, 2, dt="i64")], child_nums=2)
    p.op("pd_op.top_p_sampling", [p.data("probs", [-1, 50]), p.data("ps", [-1, 1]), None, None], [t(-1, 1), t(-1, 1, dt="i64"), None, None])
    u = p.data("u", [-1, 3, -1, -1])
    p.op("pd_op.unpool", [u, p.data("ui", [-1, -1, 4, 4], "i32"), p.full_int_array([8, 8])], [t(-1, 3, 8, 8)], ksize=[2, 2], strides=[2, 2], padding=[0, 0], data_format="NCHW")
    p.op("pd_op.unpool", [u, p.data("ui2", [-1, -1, 4, 4], "i32"), p.data("osz", [2], "i64")], [t(-1, 3, -1, -1)], ksize=[2, 2], strides=[2, 2], padding=[0, 0], data_format="NCHW")
    p.op("pd_op.unpool3d", [p.data("u3", [-1, 3, -1, -1, -1]), p.data("ui3", [-1, -1, 2, 2, 2], "i32")], [t(-1, 3, 4, 4, 4)], ksize=[2, 2, 2], output_size=[4, 4, 4])
    p.op("pd_op.weight_dequantize", [p.data("wq", [-1, 64], "i8"), p.data("wsc", [-1], "f16")], [t(64, -1, dt="f16")])
    p.op("pd_op.weight_dequantize", [p.data("wq4", [-1, -1], "i8"), p.data("wsc4", [-1, -1], "f16")], [t(-1, -1, dt="f16")], algo="weight_only_int4", group_size=64)
    return p

@text_case
def linalg_pairs():
    p = Text()
    a = p.data("a", [-1, -1, 5, 5]); b = p.data("b", [3, -1, 5, -1])
    p.op("pd_op.triangular_solve", [a, b], [t(3, -1, 5, -1)], upper=True, transpose=False, unitriangular=False)
    p.op("pd_op.solve", [a, b], [t(3, -1, 5, -1)])
    p.op("pd_op.cholesky_solve", [b, a], [t(3, -1, 5, -1)])
    p.op("pd_op.triangular_solve", [p.data("c", [-1, -1]), p.data("d", [-1, 2])], [t(-1, 2)], upper=True, transpose=False, unitriangular=False)
    p.op("pd_op.lstsq", [p.data("lx", [-1, 6, 4]), p.data("ly", [-1, -1, 2]), p.full_int_array([0])], [t(-1, 4, 2), t(-1, 2), t(-1, dt="i32"), t(-1, 4)], driver="gelsd")
    p.op("pd_op.lstsq", [p.data("mx", [-1, -1]), p.data("my", [-1, 3]), p.full_int_array([0])], [t(-1, 3), t(-1), t(dt="i32"), t(-1)], driver="gelsd")
    piv = p.data("piv", [-1, 4], "i32")
    p.op("pd_op.lu_unpack", [p.data("lu", [-1, 4, 6]), piv], [t(-1, 4, 4), t(-1, 4, 4), t(-1, 4, 6)])
    p.op("pd_op.lu_unpack", [p.data("lu2", [-1, -1, -1]), piv], [t(-1, -1, -1), t(-1, -1, -1), t(-1, -1, -1)])
    p.op("pd_op.matrix_rank_tol", [p.data("mr", [-1, 3, 4, 4]), p.data("tol", [-1, 1])], [t(-1, 3, dt="i64")], use_default_tol=False, hermitian=True)
    p.op("pd_op.matmul_with_flatten", [p.data("fx", [-1, 12]), p.data("fy", [12, -1])], [t(-1, -1)], x_num_col_dims=1, y_num_col_dims=1)
    p.op("pd_op.matmul_with_flatten", [p.data("gx", [-1, 2, 3, 4]), p.data("gy", [-1, -1, 7])], [t(-1, 2, 7)], x_num_col_dims=2, y_num_col_dims=2)
    return p

@text_case
def multiary_metrics():
    p = Text()
    x = p.data("x", [-1, 5]); idx = p.data("idx", [-1, 5], "i64"); lab = p.data("lab", [-1, -1], "i64")
    p.op("pd_op.accuracy", [x, idx, lab], [t(), t(dt="i32"), t(dt="i32")])
    sp = p.data("sp", [2, 8192], "i64")
    p.op("pd_op.auc", [p.data("pred", [-1, 2]), lab, sp, sp, None], [t(), t(2, 8192, dt="i64"), t(2, 8192, dt="i64")], slide_steps=0)
    p.op("pd_op.auc", [p.data("pred2", [-1, 2]), p.data("lab2", [-1, 1], "i64"), sp, sp, None], [t(), t(-1, dt="i64"), t(-1, dt="i64")], num_thresholds=4095, slide_steps=1)
    p.op("pd_op.assign_pos", [p.data("ap", [-1], "i64"), p.data("cc", [-1], "i64"), p.full_int_array([12])], [t(-1, dt="i64")])
    p.op("pd_op.assign_pos", [p.data("ap2", [-1], "i64"), p.data("cc2", [-1], "i64"), p.data("eff", [1], "i64")], [t(-1, dt="i64")])
    a = p.data("a", [-1, 1, 6]); b = p.data("b", [4, -1]); c = p.data("c", [-1])
    p.op("pd_op.broadcast_tensors", [p.combine([a, b, c])], ["vec[tensor<-1x4x6xf32>,tensor<-1x4x6xf32>,tensor<-1x4x6xf32>]"])
    p.op("pd_op.check_finite_and_unscale_", [p.combine([a, b]), p.data("scale", [1])], ["vec[tensor<-1x1x6xf32>,tensor<4x-1xf32>]", t(1, dt="b")])
    inf = p.data("inf", [-1, -1, 1], "i64")
    p.op("pd_op.chunk_eval", [inf, p.data("clab", [-1, 7, -1], "i64"), p.data("slen", [-1], "i64")], [t(1), t(1), t(1), t(1, dt="i64"), t(1, dt="i64"), t(1, dt="i64")], num_chunk_types=3)
    p.op("pd_op.crf_decoding", [p.data("em", [-1, -1, 6]), p.data("tr", [-1, -1]), p.data("cl", [-1, -1], "i64"), p.data("cln", [-1], "i64")], [t(-1, -1, dt="i64")])
    p.op("pd_op.crf_decoding", [p.data("em2", [-1, 6]), p.data("tr2", [8, 6]), p.data("cl2", [-1], "i64"), None], [t(-1, 1, dt="i64")])
    p.op("pd_op.edit_distance", [p.data("hy", [-1, -1], "i64"), p.data("rf", [-1, -1], "i64"), p.data("hl", [-1], "i64"), p.data("rl", [-1], "i64")], [t(1, dt="i64"), t(-1, 1)])
    p.op("pd_op.edit_distance", [p.data("hy2", [-1, -1], "i64"), p.data("rf2", [-1, -1], "i64"), None, None], [t(1, dt="i64"), t(-1, 1)])
    return p

@text_case
def linalg_affine():
    p = Text()
    p.op("pd_op.addmm", [p.data("in", [-1, -1]), p.data("x", [-1, 4]), p.data("y", [-1, 6])], [t(-1, 6)], beta=1.0, alpha=1.0)
    p.op("pd_op.addmm", [p.data("in1", [-1]), p.data("x1", [-1, 4]), p.data("y1", [4, -1])], [t(-1, -1)], beta=1.0, alpha=1.0)
    p.op("pd_op.baddbmm", [p.data("bin", [-1, -1, -1]), p.data("bx", [-1, 3, 4]), p.data("by", [-1, -1, 5])], [t(-1, 3, 5)], beta=1.0, alpha=1.0)
    p.op("pd_op.baddbmm", [p.data("bin2", [1, -1]), p.data("bx2", [-1, 3, 4]), p.data("by2", [-1, -1, 5])], [t(-1, 3, 5)], beta=1.0, alpha=1.0)
    p.op("pd_op.batch_fc", [p.data("fi", [-1, -1, 4]), p.data("fw", [-1, -1, 8]), p.data("fb", [-1, -1])], [t(-1, -1, 8)])
    p.op("pd_op.bilinear", [p.data("l", [-1, 3]), p.data("r", [-1, -1]), p.data("w", [-1, -1, 5]), p.data("bb", [-1, -1])], [t(-1, -1)])
    p.op("pd_op.deformable_conv", [p.data("dx", [-1, 4, -1, -1]), p.data("doff", [-1, -1, -1, -1]), p.data("df", [8, -1, 3, 3]), p.data("dm", [-1, -1, -1, -1])], [t(-1, 8, -1, -1)],
         strides=[1, 1], paddings=[1, 1], dilations=[1, 1], deformable_groups=1, groups=2, im2col_step=64)
    return p

@text_case
def quant_attention():
    p = Text()
    x = p.data("x", [-1, 6]); s = p.data("s", [1]); it = p.data("it", [1], "i64")
    p.op("pd_op.fake_quantize_range_abs_max", [x, s, it], [t(-1, 6), t(1), t(100)], window_size=100)
    p.op("pd_op.fake_quantize_range_abs_max", [x, s, None], [t(-1, 6), t(1), None], is_test=True)
    st = p.data("st", [1])
    p.op("pd_op.fake_quantize_moving_average_abs_max", [x, s, st, st], [t(-1, 6), t(1), t(1), t(1)])
    p.op("pd_op.fake_quantize_dequantize_moving_average_abs_max", [x, s, None, None], [t(-1, 6), t(1), None, None], is_test=True)
    q = p.data("q", [-1, -1, 8, 64], "f16"); k = p.data("k", [-1, -1, 8, 64], "f16"); v = p.data("v", [-1, -1, 8, 32], "f16")
    p.op("pd_op.flash_attn", [q, k, v, None, None], [t(-1, -1, 8, 32, dt="f16"), t(-1, 8, -1, -1, dt="f16"), t(-1, 8, -1), t(2, dt="i64")])
    p.op("pd_op.flash_attn", [q, k, v, None, p.data("mask", [-1, 1, -1, -1], "f16")], [t(-1, -1, 8, 32, dt="f16"), t(-1, 8, -1, -1, dt="f16"), t(-1, 8, -1), t(2, dt="i64")])
    p.op("pd_op.flash_attn_qkvpacked", [p.data("qkv", [-1, -1, 4, 2, 64], "f16"), None, None], [t(-1, -1, 4, 64, dt="f16"), t(-1, 4, -1, -1, dt="f16"), t(-1, 4, -1), t(2, dt="i64")])
    p.op("pd_op.flash_attn_varlen_qkvpacked", [p.data("vq", [-1, 6, 2, 64], "f16"), p.data("cq", [-1], "i32"), p.data("ck", [-1], "i32"), None, None, p.full_int_array([16]), p.full_int_array([16])],
         [t(-1, 8, 64, dt="f16"), t(-1, 8, -1, -1, dt="f16"), t(-1, 8, -1), t(2, dt="i64")], scale=0.125)
    p.op("pd_op.fused_gemm_epilogue", [p.data("gx", [-1, -1, 16], "f16"), p.data("gy", [-1, 32], "f16"), p.data("gb", [32], "f16")], [t(-1, -1, 32, dt="f16"), None], trans_x=False, trans_y=False, activation="none")
    p.op("pd_op.generate_proposals", [p.data("sc", [-1, 3, -1, -1]), p.data("bd", [-1, 12, -1, -1]), p.data("ims", [-1, 2]), p.data("an", [-1, -1, 3, 4]), p.data("va", [-1, -1, 3, 4])],
         [t(-1, 4), t(-1, 1), t(-1, dt="i32")], pre_nms_top_n=100, post_nms_top_n=10, nms_thresh=0.5, min_size=0.1, eta=1.0)
    return p

@text_case
def multiary_sequences():
    p = Text()
    x = p.data("x", [-1, 5]); lab = p.data("lab", [-1], "i64")
    p.op("pd_op.nll_loss", [x, lab, p.data("w", [-1])], [t(-1), t()], reduction="none")
    img = p.data("img", [-1, 5, -1, -1])
    p.op("pd_op.nll_loss", [img, p.data("l3", [-1, -1, -1], "i64"), None], [t(), t()], reduction="mean")
    p.op("pd_op.nll_loss", [img, p.data("l4", [-1, -1, -1], "i64"), None], [t(-1, -1, -1), t()], reduction="none")
    p.op("pd_op.match_matrix_tensor", [p.data("mx", [-1, 4]), p.data("my", [-1, 6]), p.data("mw", [-1, -1, -1])], [t(-1, 1), t(-1, 1)], dim_t=3)
    p.op("pd_op.gru_unit", [p.data("gi", [-1, -1]), p.data("gh", [-1, 8]), p.data("gw", [-1, -1]), p.data("gb", [-1, -1])], [t(-1, 24), t(-1, 8), t(-1, 8)])
    p.op("pd_op.lstm", [p.data("li", [-1, 32]), None, None, p.data("lw", [-1, -1]), p.data("lb", [-1, -1])], [t(-1, 8), t(-1, 8), t(-1, 32), t(-1, 8)])
    p.op("pd_op.lstm", [p.data("li2", [-1, -1]), p.data("h0", [-1, -1]), p.data("c0", [-1, 4]), p.data("lw2", [-1, -1]), p.data("lb2", [1, -1])], [t(-1, -1), t(-1, -1), t(-1, -1), t(-1, -1)], use_peepholes=False)
    p.op("pd_op.spectral_norm", [p.data("sw", [-1, 3, -1]), p.data("su", [-1]), p.data("sv", [-1])], [t(-1, 3, -1)], dim=1)
    m = p.data("m", [1], "i32")
    p.op("pd_op.select_input", [m, p.data("s1", [-1, 4, 6]), p.data("s2", [-1, 5, 6])], [t(-1, -1, 6)])
    p.op("pd_op.select_input", [m, p.data("s3", [-1, 4]), p.data("s4", [3])], [t(3)])
    p.op("pd_op.logspace", [p.full_int_array([0]), p.full_int_array([3]), p.full_int_array([9]), p.full_int_array([10])], [t(9)], dtype="=float32", place="=Place(cpu)")
    return p

@text_case
def graphs_detection():
    p = Text()
    row = p.data("row", [-1, 1], "i64"); col = p.data("col", [-1], "i64"); nodes = p.data("nodes", [-1], "i64")
    p.op("pd_op.graph_khop_sampler", [row, col, nodes, p.data("eid0", [-1], "i64")], [t(-1, 1, dt="i64"), t(-1, 1, dt="i64"), t(-1, dt="i64"), t(-1, dt="i64"), t(-1, dt="i64")], sample_sizes=[5, 3], return_eids=False)
    p.op("pd_op.graph_khop_sampler", [row, col, nodes, p.data("eids", [-1], "i64")], [t(-1, 1, dt="i64"), t(-1, 1, dt="i64"), t(-1, dt="i64"), t(-1, dt="i64"), t(-1, dt="i64")], sample_sizes=[5], return_eids=True)
    p.op("pd_op.graph_sample_neighbors", [row, col, nodes, p.data("eid1", [-1], "i64"), p.data("perm", [-1], "i64")], [t(-1, dt="i64"), t(-1, dt="i32"), t(-1, dt="i64")], sample_size=4, return_eids=False, flag_perm_buffer=False)
    p.op("pd_op.reindex_graph", [nodes, p.data("nb", [-1], "i64"), p.data("cnt", [-1], "i32"), p.data("hv", [-1], "i32"), p.data("hi", [-1], "i32")], [t(-1, dt="i64"), t(-1, dt="i64"), t(-1, dt="i64")])
    p.op("pd_op.multiclass_nms3", [p.data("bb", [-1, -1, -1]), p.data("sc", [-1, 3, -1]), None], [t(-1, 6), t(-1, 1, dt="i32"), t(-1, dt="i32")], score_threshold=0.1, nms_top_k=10, keep_top_k=5)
    p.op("pd_op.multiclass_nms3", [p.data("bb2", [-1, -1, -1]), p.data("sc2", [-1, -1]), None], [t(-1, 6), t(-1, 1, dt="i32"), t(-1, dt="i32")], score_threshold=0.1, nms_top_k=10, keep_top_k=5)
    q = p.data("q", [-1, -1, 8, 64], "f16"); k = p.data("k", [-1, -1, -1, -1], "f16"); v = p.data("v", [-1, -1, -1, 32], "f16")
    p.op("pd_op.memory_efficient_attention", [q, k, v, None, None, None, None, None, p.full_int_array([0]), p.full_int_array([0])], [t(-1, -1, 8, 32, dt="f16"), t(8, -1), t(2, dt="i64")], causal=False, dropout_p=0.0, scale=0.125, is_test=True)
    cache = p.data("cache", [-1, -1, 4, 128, 64], "f16")
    p.op("pd_op.masked_multihead_attention_", [p.data("mx", [-1, 1536], "f16"), cache, None, None, None, None, None, None, None, None, None], [t(-1, -1, dt="f16"), t(-1, -1, 4, 128, 64, dt="f16"), None], seq_len=1, rotary_emb_dims=0)
    p.op("pd_op.llm_int8_linear", [p.data("ix", [-1, -1, 64], "f16"), p.data("iw", [-1, 64], "i8"), None, p.data("isc", [-1])], [t(-1, -1, -1, dt="f16")])
    return p

@text_case
def sequences_losses():
    p = Text()
    p.op("pd_op.sequence_conv", [p.data("sx", [-1, 8]), None, p.data("sf", [-1, 16])], [t(-1, 16)], context_length=3)
    p.op("pd_op.sequence_conv", [p.data("sx2", [-1, -1]), p.data("pad", [-1, -1]), p.data("sf2", [-1, -1])], [t(-1, -1)], context_length=3, padding_trainable=True, context_start=-1)
    p.op("pd_op.viterbi_decode", [p.data("pot", [-1, -1, 5]), p.data("trn", [-1, -1]), p.data("vl", [-1], "i64")], [t(-1), t(-1, -1, dt="i64")])
    lg = p.data("lg", [-1, -1, 10])
    p.op("pd_op.warpctc", [lg, p.data("wl", [-1, -1], "i32"), p.data("ll", [-1], "i64"), p.data("bl", [-1], "i64")], [t(-1, 1), t(-1, -1, 10)])
    p.op("pd_op.warpctc", [p.data("lg2", [-1, 10]), p.data("wl2", [-1, 1], "i32"), None, None], [t(-1, 1), t(-1, -1, 10)])
    p.op("pd_op.warprnnt", [p.data("rin", [-1, -1, -1, 7]), p.data("rl", [-1, -1], "i32"), p.data("ril", [-1], "i32"), p.data("rll", [-1], "i32")], [t(-1), t(-1, -1, -1, 7)])
    x = p.data("x", [-1, 5]); lab = p.data("lab", [-1, 1], "i64")
    p.op("pd_op.hsigmoid_loss", [x, lab, p.data("hw", [9, 5]), None, None, None], [t(-1, 1), t(-1, 4), t(9, 5)], num_classes=10, is_sparse=False)
    p.op("pd_op.tdm_sampler", [p.data("tx", [-1, 1], "i64"), p.data("trv", [-1, 2], "i64"), p.data("lay", [-1, 1], "i64")], [t(-1, 7, dt="i64"), t(-1, 7, dt="i64"), t(-1, 7, dt="i64")], neg_samples_num_list=[1, 2, 1], layer_offset=[0, 2, 6])
    a = p.data("a", [-1, 4]); b = p.data("b", [6, -1])
    p.op("pd_op.multiplex", [p.combine([a, b]), p.data("mi", [-1, -1], "i32")], [t(-1, 4)])
    p.op("pd_op.random_routing", [p.data("rp", [-1]), p.data("rv", [-1, 2]), p.data("ri", [-1, -1], "i64")], [t(-1, -1, dt="i64")])
    return p

@text_case
def attention_quant_more():
    p = Text()
    x = p.data("x", [-1, 6])
    acc = p.data("acc", [1]); st = p.data("st", [1])
    p.op("pd_op.moving_average_abs_max_scale", [x, acc, st], [t(-1, 6), t(1), t(1), t(1)])
    p.op("pd_op.weight_only_linear", [p.data("wx", [-1, -1, 64], "f16"), p.data("ww", [-1, 64], "i8"), None, p.data("ws", [-1], "f16")], [t(-1, -1, -1, dt="f16")], weight_dtype="int8")
    p.op("pd_op.weight_only_linear", [p.data("gx", [-1, 128], "f16"), p.data("gw", [-1, -1], "i8"), p.data("gb", [-1], "f16"), p.data("gs", [-1, -1], "f16")], [t(-1, -1, dt="f16")], weight_dtype="int4", group_size=64)
    p.op("pd_op.psroi_pool", [p.data("px", [-1, -1, -1, -1]), p.data("pr", [-1, -1]), p.data("pn", [-1], "i32")], [t(-1, 2, 3, 3)], pooled_height=3, pooled_width=3, output_channels=2)
    p.op("pd_op.rank_attention", [p.data("rx", [-1, 4]), p.data("ro", [-1, -1], "i32"), p.data("rp", [-1, 8])], [t(-1, 12), t(-1, 8), t(-1, 1)])
    q = p.data("q", [-1, -1, -1, 16]); k = p.data("k", [-1, 4, -1, -1]); v = p.data("v", [-1, -1, 32, -1])
    p.op("pd_op.sparse_attention", [q, k, v, p.data("off", [-1, -1, -1], "i32"), p.data("col", [-1, -1, -1], "i32"), None, None], [t(-1, 4, -1, 16), t(-1, 4, -1), t(-1, 4, -1)])
    row = p.data("row", [-1], "i64"); colp = p.data("colp", [-1], "i64")
    p.op("pd_op.weighted_sample_neighbors", [row, colp, p.data("ew", [-1]), p.data("nodes", [-1, 1], "i64"), p.data("eids", [-1], "i64")], [t(-1, dt="i64"), t(-1, dt="i32"), t(-1, dt="i64")], sample_size=3, return_eids=False)
    return p


# ------------------- fused attention, norms, products, detection, vocabularies
# Text cases like the ones above. Paddle 3.3.1 cannot run some of these ops'
# rules on a program as it builds them, so the programs carry what the rule
# needs: `data_format` on the fused batch norms (their rule is batch_norm's),
# a rank-4 seed offset on `flashmask_attention` (its rule checks operand 4),
# only the optional gradients `fused_attention_grad` derives, and for `nce`
# the model's class counts are widened to 64-bit (MODEL_PATCHES), the width
# its rule reads.

MODEL_PATCHES = {}


def widen_int_attrs(model, op, names):
    """Makes the 32-bit attributes `names` of every `op` in a model 64-bit."""
    def walk(node):
        if isinstance(node, dict):
            if node.get("#", "").endswith("." + op.split(".", 1)[1]):
                for a in node.get("A", []):
                    if a["N"] in names and a["AT"]["#"] == "0.a_i32":
                        a["AT"]["#"] = "0.a_i64"
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(model)


@text_case
def norms_fused():
    p = Text()
    x = p.data("x", [-1, -1, -1, -1]); c = p.data("c", [-1]); c2 = p.data("c2", [-1])
    stats = [t(-1)] * 5
    p.op("pd_op.fused_batch_norm_act", [x, c, c, c, c2], [t(-1, -1, -1, -1)] + stats,
         momentum=0.9, epsilon=1e-5, act_type="relu", data_format="NCHW")
    x2 = p.data("x2", [-1, -1, -1, -1])
    p.op("pd_op.fused_bn_add_activation", [x2, x2, c, p.data("c3", [-1]), p.data("c4", [-1]), c2],
         [t(-1, -1, -1, -1)] + stats, momentum=0.9, epsilon=1e-5, act_type="relu", data_format="NHWC")
    m, v = p.data("m", [-1]), p.data("v", [-1])
    p.op("pd_op.batch_norm", [p.data("x3", [-1, -1, -1]), m, v, p.data("s", [-1]), p.data("b", [-1])],
         [t(-1, -1, -1)] + stats, is_test=False, momentum=0.9, epsilon=1e-5, data_format="NCHW",
         use_global_stats=False, trainable_statistics=False)
    p.op("pd_op.batch_norm", [p.data("x4", [-1, 3, -1, -1]), m, v, None, None],
         [t(-1, 3, -1, -1), t(-1), t(-1), None, None, None], is_test=True, momentum=0.9, epsilon=1e-5,
         data_format="NCHW", use_global_stats=False, trainable_statistics=False)
    p.op("pd_op.rms_norm", [p.data("r", [-1, -1, -1]), p.data("sc", [-1])], [t(-1, -1, -1), t(-1, -1)],
         normalized_shape=[8], epsilon=1e-5)
    p.op("pd_op.rms_norm", [p.data("r2", [-1, 4, -1]), p.data("sc2", [-1, -1])], [t(-1, 4, 6), t(-1)],
         normalized_shape=[4, 6], epsilon=1e-5)
    p.op("pd_op.rms_norm", [p.data("r3", [-1, -1]), None], [t(-1, -1), t(-1)], normalized_shape=[-1], epsilon=1e-5)
    quant = dict(epsilon=1e-5, quant_scale=1.0, quant_round_type=1, quant_max_bound=127.0, quant_min_bound=-127.0)
    p.op("pd_op.fused_rms_norm_quant", [p.data("y", [-1, -1, -1]), None, None, p.data("nw", [-1]), None],
         [t(-1, -1, -1, dt="i8"), None, None], begin_norm_axis=2, **quant)
    p.op("pd_op.fused_rms_norm_quant", [p.data("y2", [-1, -1, -1]), p.data("bb", [-1]), p.data("res", [-1, -1, -1]),
                                        p.data("nw2", [-1]), p.data("nb2", [-1])],
         [t(-1, -1, -1, dt="i8"), t(-1, -1, -1), t(-1, -1)], begin_norm_axis=1, **quant)
    return p


@text_case
def products_reductions():
    p = Text()
    p.op("pd_op.linear_v2", [p.data("x", [-1, -1, 16]), p.data("w", [-1, -1]), p.data("b", [-1])], [t(-1, -1, -1)])
    p.op("pd_op.linear_v2", [p.data("x2", [-1, 16]), p.data("w2", [-1, -1]), p.data("b2", [-1])], [t(-1, -1)],
         transpose_weight=True)
    p.op("pd_op.linear_v2", [p.data("x3", [-1]), p.data("w3", [-1, 8]), p.data("b3", [-1])], [t(1, 8)])
    a, b, c, d = p.data("a", [-1]), p.data("bm", [-1, -1]), p.data("cm", [-1, 5]), p.data("dm", [-1])
    p.op("pd_op.multi_dot", [p.combine([a, b, c, d])], [t()])
    p.op("pd_op.multi_dot", [p.combine([b, c])], [t(-1, 5)])
    p.op("pd_op.multi_dot", [p.combine([p.data("e", [-1, -1]), p.data("f", [-1, -1]), p.data("g", [-1])])], [t(-1)])
    p.op("pd_op.multi_dot", [p.combine([p.data("h", [-1]), p.data("i", [-1, 7])])], [t(7)])
    p.op("pd_op.c_concat", [p.data("cc", [-1, -1, 8])], [t(-1, -1, 32)], rank=0, nranks=4, ring_id=0,
         use_calc_stream=False, use_model_parallel=True)
    m = p.data("m", [-1, 5, -1])
    p.op("pd_op.max_with_index", [m], [t(-1, -1), t(-1, -1, dt="i64")], dim=1, keepdim=False, flatten=False)
    p.op("pd_op.min_with_index", [m], [t(-1, 1, -1), t(-1, 1, -1, dt="i64")], dim=-2, keepdim=True, flatten=False)
    p.op("pd_op.max_with_index", [m], [t(), t(dt="i64")], dim=0, keepdim=False, flatten=True)
    p.op("pd_op.min_with_index", [m], [t(1, 1, 1), t(1, 1, 1, dt="i64")], dim=0, keepdim=True, flatten=True)
    return p


@text_case
def vocab_detection():
    p = Text()
    x = p.data("x", [-1, 1], "i32")
    p.op("pd_op.pyramid_hash", [x, p.data("w", [-1, -1]), p.data("wl", [-1, -1], "i32"), p.data("bl", [-1, -1], "i32")],
         [t(-1, 16), t(-1, 1, dt="i32"), t(-1, 1, dt="i32")], num_emb=16, space_len=100, rand_len=4,
         white_list_len=5, black_list_len=3)
    p.op("pd_op.pyramid_hash", [x, p.data("w2", [-1, -1]), p.data("wl2", [-1, -1], "i32"), p.data("bl2", [-1, -1], "i32")],
         [t(-1, 16), t(-1, 1, dt="i32"), t(-1, 1, dt="i32")], num_emb=16, space_len=100, rand_len=4)
    f = p.data("f", [-1, 8])
    p.op("pd_op.nce", [f, p.data("lab", [-1, -1], "i64"), p.data("nw", [-1, 8]), p.data("nb", [-1, 1]),
                       None, None, None, None], [t(-1, 1), t(-1, -1), t(-1, -1, dt="i64")],
         num_total_classes=20, num_neg_samples=5)
    p.op("pd_op.nce", [f, p.data("lab2", [-1], "i64"), p.data("nw2", [-1, 8]), None, None, None, None, None],
         [t(-1, 1), None, None], num_total_classes=20, num_neg_samples=5, is_test=True)
    yx = p.data("yx", [-1, -1, -1, -1])
    p.op("pd_op.yolo_loss", [yx, p.data("gb", [-1, -1, -1]), p.data("gl", [-1, -1], "i32"), p.data("gs", [-1, -1])],
         [t(-1), t(-1, 3, -1, -1, dt="i32"), t(-1, -1, dt="i32")], anchors=[10, 13, 16, 30, 33, 23],
         anchor_mask=[0, 1, 2], class_num=80)
    p.op("pd_op.yolo_loss", [p.data("yx2", [-1, 16, -1, 8]), p.data("gb2", [-1, -1, 4]), p.data("gl2", [-1, -1], "i32"), None],
         [t(-1), t(-1, 2, 8, 8, dt="i32"), t(-1, -1, dt="i32")], anchors=[10, 13, 16, 30], anchor_mask=[0, 1], class_num=3)
    p.op("pd_op.yolo_box_post", [p.data("b0", [-1, 255, -1, -1]), p.data("b1", [-1, 255, -1, -1]),
                                 p.data("b2", [-1, 255, -1, -1]), p.data("ims", [-1, 2]), p.data("isc", [-1, 2])],
         [t(-1, 6), t(-1, dt="i32")], anchors0=[116, 90, 156, 198, 373, 326], anchors1=[30, 61, 62, 45, 59, 119],
         anchors2=[10, 13, 16, 30, 33, 23], class_num=80, conf_thresh=0.005, downsample_ratio0=32,
         downsample_ratio1=16, downsample_ratio2=8, clip_bbox=True, scale_x_y=1.0, nms_threshold=0.45)
    return p


MODEL_PATCHES["vocab_detection"] = lambda model: widen_int_attrs(
    model, "pd_op.nce", {"num_total_classes", "num_neg_samples"})


@text_case
def flash_unpadded_mask():
    p = Text()
    q = p.data("q", [-1, 8, 64], "f16"); k = p.data("k", [-1, -1, -1], "f16"); v = p.data("v", [-1, -1, 32], "f16")
    cq, ck = p.data("cq", [-1], "i32"), p.data("ck", [-1], "i32")
    lens = [p.full_int_array([100]), p.full_int_array([200])]
    p.op("pd_op.flash_attn_unpadded", [q, k, v, cq, ck, None, None] + lens,
         [t(-1, 8, 32, dt="f16"), t(-1, 8, -1, -1, dt="f16"), t(-1, 8, -1), t(2, dt="i64")], scale=0.125)
    p.op("pd_op.flash_attn_unpadded", [q, k, v, cq, ck, None, p.data("mask", [-1, -1, -1, -1], "f16")] + lens,
         [t(-1, 8, 32, dt="f16"), t(-1, 8, -1, -1, dt="f16"), None, None], scale=0.125)
    q2, k2, v2 = (p.data(n, [-1, -1, -1], "f16") for n in ("q2", "k2", "v2"))
    p.op("pd_op.flash_attn_unpadded", [q2, k2, v2, cq, ck, None, None] + lens,
         [t(-1, -1, -1, dt="f16"), t(-1, -1, -1, -1, dt="f16"), t(-1, -1, -1), t(2, dt="i64")], scale=0.125)
    mq = p.data("mq", [-1, -1, 8, 64], "f16")
    mk, mv = p.data("mk", [-1, -1, -1, -1], "f16"), p.data("mv", [-1, -1, -1, 32], "f16")
    p.op("pd_op.flashmask_attention", [mq, mk, mv, p.data("se", [-1, 8, -1, 2], "i32"), p.data("fso", [-1, -1, -1, -1], "i64")],
         [t(-1, -1, 8, 32, dt="f16"), t(-1, 8, -1, -1, dt="f16"), t(-1, 8, -1), t(2, dt="i64")])
    return p


def _fused_attention_attrs(**kw):
    attrs = dict(epsilon=1e-5, attn_dropout_rate=0.0, attn_dropout_fix_seed=False, attn_dropout_seed=0,
                 attn_dropout_implementation="upscale_in_train", dropout_rate=0.0, dropout_fix_seed=False,
                 dropout_seed=0, dropout_implementation="upscale_in_train", ln_epsilon=1e-5, add_residual=True,
                 num_heads=8, ring_id=-1)
    attrs.update(kw)
    return attrs


@text_case
def fused_attention():
    p = Text()
    x = p.data("x", [-1, -1, -1])
    scores = t(-1, 8, -1, -1)
    outs = [t(-1), t(-1), t(-1, -1, -1), t(-1, -1, 3, 8, 8), t(-1, -1, 3, 8, 8), t(3, -1, 8, -1, 8), scores,
            t(-1, 8, -1, 8), scores, scores, scores, scores, t(-1, -1, 8, 8), t(-1, -1, -1), t(-1, -1, -1),
            None, None, None, None, t(-1, -1, -1)]
    p.op("pd_op.fused_attention", [x, p.data("lns", [-1]), p.data("lnb", [-1]), p.data("qkvw", [-1, -1, -1, -1]),
                                   p.data("qkvb", [-1, -1, -1]), None, p.data("mask", [-1, 1, -1, -1]),
                                   p.data("olw", [-1, -1]), p.data("olb", [-1]), None, None], outs,
         **_fused_attention_attrs(transpose_qkv_wb=False, pre_layer_norm=True, is_test=False))
    x2 = p.data("x2", [-1, -1, 64])
    wide = t(-1, -1, 64)
    outs2 = [t(-1), t(-1), wide, t(-1, -1, 192), t(-1, -1, 192), t(3, -1, 8, -1, 8), scores, t(-1, 8, -1, 8),
             scores, scores, scores, scores, t(-1, -1, 8, 8), wide, wide, t(-1), t(-1), wide, t(2, -1, 8, -1, 8), wide]
    p.op("pd_op.fused_attention", [x2, None, None, p.data("qkvw2", [-1, -1]), None, p.data("cache", [-1, -1, -1, -1, -1]),
                                   None, p.data("olw2", [64, 64]), None, p.data("ln2s", [64]), p.data("ln2b", [64])],
         outs2, **_fused_attention_attrs(transpose_qkv_wb=True, pre_layer_norm=False, is_test=True))
    p.op("pd_op.fused_attention", [x2, None, None, p.data("qkvw3", [64, -1]), p.data("qkvb3", [-1]), None, None,
                                   p.data("olw3", [64, 64]), None, None, None],
         [t(-1), t(-1), wide, t(-1, -1, 96), t(-1, -1, 96), t(3, -1, 8, -1, 4), scores, t(-1, 8, -1, 4), scores,
          scores, scores, scores, t(-1, -1, 8, 4), wide, wide, None, None, None, None, wide],
         **_fused_attention_attrs(transpose_qkv_wb=True, pre_layer_norm=False, is_test=False, ring_id=0))
    return p


@text_case
def fused_attention_grad():
    p = Text()

    def grad(pre_norm, present, tag):
        d = lambda n, *s: p.data(n + tag, list(s))
        ins = [d("og", -1, -1, 64), d("x", -1, -1, 64), d("qkvw", 3, 8, 8, 64), d("qkvb", 3, 8, 8),
               d("qkvbo", -1, -1, 3, 8, 8), d("sm", -1, 1, -1, -1), d("smo", -1, 8, -1, -1), d("olw", 64, 64),
               d("olb", 64), d("lns", 64), d("lnb", 64), d("ln2s", 64), d("ln2b", 64), d("lno", -1, -1, 64),
               d("lnm", -1), d("lnv", -1), d("ln2m", -1), d("ln2v", -1), d("bdro", -1, -1, 64),
               d("qkvo", -1, -1, 3, 8, 8), d("t2", 3, -1, 8, -1, 8), d("qk", -1, 8, -1, -1), d("qktv", -1, 8, -1, 8),
               d("so", -1, 8, -1, -1), d("adm", -1, 8, -1, -1), d("ado", -1, 8, -1, -1), d("fmha", -1, -1, 8, 8),
               d("olo", -1, -1, 64), d("dmo", -1, -1, 64)]
        outs = [t(3, 8, 8), t(-1, -1, 3, 8, 8), t(-1, 8, -1, -1), t(64), t(64), t(64), t(64), t(64),
                t(-1, -1, 64), t(3, 8, 8, 64), t(64, 64), t(-1, -1, 64), t(-1, -1, 64), t(-1, -1, 3, 8, 8),
                t(-1, 8, -1, 8), t(3, -1, 8, -1, 8), t(-1, 8, -1, -1), t(-1, 8, -1, -1), t(-1, 8, -1, -1),
                t(-1, -1, 8, 8), t(-1, -1, 64)]
        # Paddle fails when an optional gradient its rule leaves is present.
        outs = [o if i in present or i in (8, 9, 10) or i >= 13 else None for i, o in enumerate(outs)]
        p.op("pd_op.fused_attention_grad", ins, outs,
             **_fused_attention_attrs(transpose_qkv_wb=False, pre_layer_norm=pre_norm, is_test=False))

    grad(True, {0, 1, 2, 3, 4, 5, 11}, "")
    grad(False, {6, 7, 12}, "2")
    return p


# --------------- constraints between operands, unknown axes, sliced shapes
# Text cases for what a rule learns beyond its result: `box_coder` and
# `add_n` make their operands' dims equal (later ops print what was learnt),
# `concat` with an axis of unknown value takes its type's shape and learns
# nothing, and `strided_slice` of a shape slices the shape's data.


@text_case
def box_coder_constraints():
    p = Text()
    prior = p.data("prior", [-1, -1]); var = p.data("var", [-1, -1])
    p.op("pd_op.box_coder", [prior, var, p.data("tb", [-1, -1, -1])], [t(-1, -1, 4)],
         code_type="decode_center_size", axis=0)
    p.op("pd_op.box_coder", [p.data("prior1", [-1, -1]), None, p.data("tb1", [-1, -1, -1])], [t(-1, -1, 4)],
         code_type="decode_center_size", axis=1)
    p.op("pd_op.box_coder", [p.data("prior2", [-1, -1]), p.data("var2", [-1, -1]), p.data("tb2", [-1, -1])],
         [t(-1, -1, 4)], code_type="encode_center_size")
    p.op("pd_op.relu", [prior], [t(-1, -1)])
    p.op("pd_op.relu", [var], [t(-1, -1)])
    return p


@text_case
def add_n_constraints():
    p = Text()
    a = p.data("a", [-1, -1]); b = p.data("b", [4, -1]); s = p.data("s", [])
    c = p.data("c", [-1, 5])
    p.op("pd_op.add_n", [p.combine([a, b, s, c])], [t(4, 5)])
    p.op("pd_op.add_n", [p.combine([s, p.data("d", [-1, 3]), p.data("e", [-1, -1])])], [t(-1, 3)])
    p.op("pd_op.relu", [a], [t(-1, -1)])
    return p


@text_case
def concat_unknown_axis():
    p = Text()
    x = p.data("x", [-1, 1, 48]); y = p.data("y", [-1, 16, 48])
    p.op("pd_op.concat", [p.combine([x, y]), p.data("axis", [1], "i32")], [t(-1, 17, 48)])
    p.op("pd_op.relu", [x], [t(-1, 1, 48)])
    p.op("pd_op.concat", [p.combine([x, y]), p.full_int_array([1])], [t(-1, 17, 48)])
    return p


@text_case
def strided_slice_data():
    p = Text()
    x = p.data("x", [-1, 6, -1, 8])
    shape = p.op("pd_op.shape64", [x], [t(4, dt="i64")])
    ss = "pd_op.strided_slice"
    ints = p.full_int_array
    p.op(ss, [shape, ints([0]), ints([4]), ints([2])], [t(2, dt="i64")], axes=[0])
    p.op(ss, [shape, ints([1]), ints([3]), ints([1])], [t(2, dt="i64")], axes=[0])
    p.op(ss, [shape, ints([-1]), ints([-5]), ints([-1])], [t(4, dt="i64")], axes=[0])
    p.op(ss, [shape, ints([3]), ints([0]), ints([-2])], [t(2, dt="i64")], axes=[0])
    p.op(ss, [shape, ints([2]), ints([100]), ints([1])], [t(2, dt="i64")], axes=[0])
    p.op(ss, [shape, ints([2]), ints([3]), ints([1])], [t(1, dt="i64")], axes=[0])
    p.op(ss, [p.data("v", [-1], "i64"), ints([0]), ints([4]), ints([2])], [t(-1, dt="i64")], axes=[0])
    p.op(ss, [x, ints([0, 1]), ints([2, 5]), ints([1, 2])], [t(-1, 2, -1, 8)], axes=[1, 2])
    p.op(ss, [x, ints([-1, 1]), ints([-3, -1]), ints([-1, 1])], [t(-1, 6, -1, 8)], axes=[0, 2])
    p.op(ss, [x, ints([0, 7]), ints([2147483647, -9]), ints([3, -2])], [t(-1, 6, -1, 8)], axes=[0, 2])
    p.op(ss, [x, ints([2]), ints([-2]), ints([1])], [t(-1, 6, -1, 8)], axes=[-2])
    p.op(ss, [p.data("w", [-1], "i32"), ints([0]), ints([1]), ints([1])], [t(1, dt="i32")], axes=[0])
    return p


# ------------------------- arrays, stacks, coalescing, loss scaling
# These programs are built with Paddle's static API and taken as Paddle
# prints them in memory (`str(program)`): Paddle's serializer drops
# `cf.stack_create` and its pushes, and saving an inference model would prune
# the backward ops (`tensor_to_array`) these cases are about. The text is then
# converted with `pir convert` as the text cases are.

PRINTED_CASES = {}


def printed_case(fn):
    PRINTED_CASES[fn.__name__] = fn
    return fn


@printed_case
def arrays():
    """Tensor arrays: slices of an array (an array and a dense tensor), a pop,
    concatenation and stacking of the elements."""
    from paddle import _C_ops
    import paddle
    arr = _C_ops.create_array(paddle.float32)
    _C_ops.array_write_(arr, data("x", [-1, 4, -1]), paddle.full([1], 0, "int64"))
    _C_ops.array_write_(arr, data("y", [-1, 4, 6]), paddle.full([1], 1, "int64"))
    part = _C_ops.slice_array(arr, [0], [2])
    _C_ops.slice_array_dense(arr, [1])
    _C_ops.array_pop(arr, 1)
    _C_ops.array_to_tensor(part, 0, False)
    _C_ops.array_to_tensor(arr, 1, True)


@printed_case
def array_grad():
    """The gradient of `array_to_tensor` (`tensor_to_array`) and of writes."""
    from paddle import _C_ops
    import paddle
    x, y = data("x", [-1, 4, -1]), data("y", [-1, 4, -1])
    x.stop_gradient = y.stop_gradient = False
    arr = _C_ops.create_array(paddle.float32)
    _C_ops.array_write_(arr, x, paddle.full([1], 0, "int64"))
    _C_ops.array_write_(arr, y * 2.0, paddle.full([1], 1, "int64"))
    t, _ = _C_ops.array_to_tensor(arr, 1, False)
    paddle.static.gradients([paddle.mean(t)], [x, y])


@printed_case
def loop_grad():
    """A `while` loop's gradient: the forward body pushes its values on a
    stack (`cf.stack_create`, `cf.tuple_push`) that the backward loop pops."""
    import paddle
    x, w = data("x", [-1, 8]), data("w", [8, 8])
    x.stop_gradient = w.stop_gradient = False
    i, n = paddle.full([1], 0, "int64"), paddle.full([1], 3, "int64")
    _, h = paddle.static.nn.while_loop(
        lambda i, h: i < n, lambda i, h: [i + 1, paddle.matmul(h, w) * 2.0], [i, x])
    paddle.static.gradients([paddle.mean(h)], [x, w])


@printed_case
def coalesce_scaling():
    """coalesce_tensor (aligned sizes), update_loss_scaling_ and channel-wise
    dequantization."""
    from paddle import _C_ops
    import paddle
    a, b, c = data("a", [-1, 3]), data("b", [4, -1, 2]), data("c", [5])
    _C_ops.coalesce_tensor([a, b, c], paddle.float32, True, False, False, 0.0, True, 256, -1,
                           [], [])
    _C_ops.coalesce_tensor([a, c], paddle.float64, True, False, False, 0.0, True, 64, 2, [], [])
    _C_ops.update_loss_scaling_([a, b], data("found", [1], "bool"), data("scale", [1]),
                                data("good", [1], "int32"), data("bad", [1], "int32"),
                                1000, 2, 2.0, 0.5, False)
    q = data("q", [-1, 6, -1])
    _C_ops.fake_channel_wise_dequantize_max_abs(q, [data("s1", [6])], [8], 1, 1)
    _C_ops.fake_channel_wise_dequantize_max_abs(q, [data("s2", [-1]), data("s3", [1])], [8, 8],
                                                0, 2)


def printed_program(name):
    """Paddle's text of case `name`, built in static mode."""
    import paddle
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        PRINTED_CASES[name]()
    return str(main)


def run_printed_case(name, args, here, tmp):
    """Builds case `name` in a fresh Paddle, then as a text case; 1 on failure."""
    code = ("import sys; sys.path.insert(0, %r); import make_shape_cases as m\n"
            "sys.stdout.write(m.printed_program(%r))\n") % (here, name)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if p.returncode or not p.stdout.startswith("{"):
        print(f"FAIL {name}: {p.stderr.strip().splitlines()[-1:]}", flush=True)
        return 1
    return check_text_case(name, p.stdout, args, here, tmp)


def run_text_case(name, args, here, tmp):
    """Writes NAME.txt, converts it and saves Paddle's annotation; 1 on failure."""
    return check_text_case(name, TEXT_CASES[name]().text(), args, here, tmp)


def check_text_case(name, text, args, here, tmp):
    """Writes `text` as NAME.txt, converts it and saves Paddle's annotation;
    1 on failure."""
    txt = os.path.join(args.out, name + ".txt")
    with open(txt, "w") as f:
        f.write(text)
    model = os.path.join(tmp, name + ".json")
    conv = subprocess.run([args.pir, "convert", "--force", txt, model],
                          capture_output=True, text=True)
    if conv.returncode:
        print(f"FAIL {name}: pir convert: {conv.stderr.strip()}", flush=True)
        return 1
    if name in MODEL_PATCHES:
        with open(model) as f:
            patched = json.load(f)
        MODEL_PATCHES[name](patched)
        with open(model, "w") as f:
            json.dump(patched, f)
    check = subprocess.run([sys.executable, os.path.join(here, "paddle_check_shapes.py"),
                            "--pir", args.pir, "--save", args.out, model],
                           capture_output=True, text=True)
    print(check.stdout.strip().splitlines()[0] if check.stdout.strip() else
          f"FAIL {name}: {check.stderr.strip()}", flush=True)
    return int(check.returncode != 0)


def build(name):
    import paddle
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        outs = CASES[name]()
        feeds = [v for v in main.global_block().ops if v.name() == "pd_op.data"]
        feeds = [op.result(0) for op in feeds]
        exe = paddle.static.Executor(paddle.CPUPlace())
        return main, feeds, outs, exe


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pir", default="target/debug/pir")
    ap.add_argument("--out", default="crates/pir-shape/tests/paddle_cases")
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()
    names = args.cases or list(CASES) + list(TEXT_CASES) + list(PRINTED_CASES)
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = tempfile.mkdtemp(prefix="shape_cases")
    failed = 0
    for name in names:
        if name in TEXT_CASES:
            failed += run_text_case(name, args, here, tmp)
            continue
        if name in PRINTED_CASES:
            failed += run_printed_case(name, args, here, tmp)
            continue
        code = (
            "import sys; sys.path.insert(0, %r); import make_shape_cases as m\n"
            "import paddle\n"
            "main, feeds, outs, exe = m.build(%r)\n"
            "paddle.static.save_inference_model(%r, feeds, outs, exe, program=main)\n"
        ) % (here, name, os.path.join(tmp, name))
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        model = os.path.join(tmp, name + ".json")
        if p.returncode or not os.path.exists(model):
            print(f"FAIL {name}: {p.stderr.strip().splitlines()[-1:]}", flush=True)
            failed += 1
            continue
        text = subprocess.run([args.pir, "print", model], capture_output=True, text=True)
        if text.returncode:
            print(f"FAIL {name}: pir print: {text.stderr.strip()}", flush=True)
            failed += 1
            continue
        with open(os.path.join(args.out, name + ".txt"), "w") as f:
            f.write(text.stdout)
        check = subprocess.run([sys.executable, os.path.join(here, "paddle_check_shapes.py"),
                                "--pir", args.pir, "--save", args.out, model],
                               capture_output=True, text=True)
        print(check.stdout.strip().splitlines()[0] if check.stdout.strip() else
              f"FAIL {name}: {check.stderr.strip()}", flush=True)
        failed += check.returncode != 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
