"""Legacy models of domain libraries (detection, OCR, NLP, quantisation, Paddle 1.x
sequence and RNN ops), and the models of ops Paddle 3.3.1 cannot translate (used by
make_legacy_models.py; the conventions of legacy_models_ops.py).
"""

from legacy_models_ops import append_op


def m_rnn(paddle):
    """GRU (bidirectional, two layers) and SimpleRNN: the `rnn` op in GRU and RNN_TANH modes."""
    x = paddle.static.data("x", [-1, 5, 4], "float32")
    gru = paddle.nn.GRU(4, 3, num_layers=2, direction="bidirect")
    srnn = paddle.nn.SimpleRNN(4, 3)
    y, h = gru(x)
    y2, h2 = srnn(x)
    return "GRU (bidirectional, 2 layers) and SimpleRNN through the rnn op", [x], [y, h, y2, h2]


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
    a = append_op
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


def m_detection_post(paddle):
    """PaddleDetection post-processing: multiclass_nms3, matrix_nms, generate_proposals_v2, roi_pool, anchor_generator."""
    bboxes = paddle.static.data("bboxes", [-1, 6, 4], "float32")
    scores = paddle.static.data("scores", [-1, 3, 6], "float32")
    feat = paddle.static.data("feat", [-1, 2, 4, 4], "float32")
    img = paddle.static.data("img", [-1, 3, 16, 16], "float32")
    boxes = paddle.abs(bboxes) * 4.0
    boxes = paddle.concat([boxes[:, :, :2], boxes[:, :, :2] + boxes[:, :, 2:] + 1.0], axis=-1)
    probs = paddle.nn.functional.sigmoid(scores)
    out, index, nms_num = append_op(paddle, "multiclass_nms3", {"BBoxes": [boxes], "Scores": [probs]},
                                  {"score_threshold": 0.3, "nms_top_k": 6, "keep_top_k": 4,
                                   "nms_threshold": 0.5, "normalized": False, "nms_eta": 1.0,
                                   "background_label": 0},
                                  outputs=("Out", "Index", "NmsRoisNum"))
    mout, mindex, mnum = paddle.vision.ops.matrix_nms(boxes, probs, 0.3, 0.1, 6, 4,
                                                      use_gaussian=True, return_index=True,
                                                      return_rois_num=True,
                                                      background_label=0, normalized=False)
    anchors, variances = append_op(paddle, "anchor_generator", {"Input": [feat]},
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
    a = append_op
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
        append_op(paddle, "im2sequence", {"X": [img]},
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


def m_decode(paddle):
    """Decoding ops of OCR and NLP models: ctc_align (CTC greedy decoding), gather_tree (beam search back-tracking), viterbi_decode, crf_decoding, edit_distance.

    viterbi_decode's `Scores` is not fetched: Paddle 3.3.1 translates the op but its
    executor fails fetching that output (int64 data asked of a float32 tensor).
    """
    probs = paddle.static.data("probs", [2, 6, 5], "float32")
    emis = paddle.static.data("emis", [2, 4, 3], "float32")
    length = paddle.full([2], 4, "int64")
    best = paddle.cast(paddle.argmax(probs, axis=2), "int32")
    a = append_op
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
    a = append_op
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


def m_quant_fake(paddle):
    """Quantization-aware-training ops of PaddleSlim exports before quantize_linear: fake_quantize(_dequantize)_moving_average_abs_max, fake_quantize_range_abs_max, moving_average_abs_max_scale, fake_channel_wise_dequantize_max_abs, dequantize_abs_max, dequantize_log.

    The abs_max forms (`fake_quantize_abs_max`, `fake_quantize_dequantize_abs_max`, and the
    channel-wise ones) are in `unsupported/`: a 2.6.2 file lacks their `round_type`, which
    Paddle 3.3.1's ops require.
    """
    x = paddle.static.data("x", [-1, 4, 3, 3], "float32")
    a = append_op
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
    a = append_op

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

    gru = append_op(paddle, "fusion_gru", {"X": [x], "WeightX": param("fgru_wx", [6, 9]),
                                         "WeightH": param("fgru_wh", [3, 9]),
                                         "Bias": param("fgru_b", [1, 9])},
                  {"activation": "tanh", "gate_activation": "sigmoid", "is_reverse": False,
                   "use_seq": True, "origin_mode": False}, outputs=("Hidden",),
                  extra_outs=tuple((n, f32) for n in ("ReorderedH0", "XX", "BatchedInput",
                                                      "BatchedOut")))
    lstm = append_op(paddle, "fusion_lstm", {"X": [x], "WeightX": param("flstm_wx", [6, 12]),
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


# ---------------------------------------------------------------------------------------
# Ops Paddle 3.3.1 cannot translate (or translates to a program it rejects): one tiny model
# each in `unsupported/`, named `u_<op type>` (a `_v1` suffix for the 1.x version of an op),
# with Paddle's error in `NAME.paddle_error.txt`. pir must refuse them too, naming the op
# (crates/pir-legacy/tests/legacy_corpus.rs).
# ---------------------------------------------------------------------------------------


def one_op(op_type, attrs, outputs=("Out",), out_dtype="float32", shape=(-1, 4, 4, 4),
            x_dtype="float32"):
    def make(paddle):
        x = paddle.static.data("x", list(shape), x_dtype)
        out = append_op(paddle, op_type, {"X": [x]}, attrs, out_dtype=out_dtype, outputs=outputs)
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
    rois, probs = append_op(paddle, "generate_proposals", {
        "Scores": [scores], "BboxDeltas": [deltas], "ImInfo": [paddle.full([1, 3], 16.0)],
        "Anchors": [anchors], "Variances": [paddle.full([4, 4, 3, 4], 1.0)]},
        {"pre_nms_topN": 20, "post_nms_topN": 8, "nms_thresh": 0.7, "min_size": 0.1,
         "eta": 1.0}, outputs=("RpnRois", "RpnRoiProbs"))
    return "generate_proposals (v1; 3.3.1 has generate_proposals_v2 only)", [scores, deltas], [rois]


def u_multiclass_nms(paddle):
    boxes = paddle.static.data("boxes", [1, 4, 4], "float32")
    scores = paddle.static.data("scores", [1, 2, 4], "float32")
    out = append_op(paddle, "multiclass_nms", {"BBoxes": [boxes], "Scores": [scores]},
                  {"background_label": -1, "score_threshold": 0.0, "nms_top_k": 4,
                   "nms_threshold": 0.5, "nms_eta": 1.0, "keep_top_k": 4,
                   "normalized": True})
    return "multiclass_nms (v1; 3.3.1 has multiclass_nms3 only)", [boxes, scores], out


UNSUPPORTED = {
    "u_transpose_v1": one_op("transpose", {"axis": [0, 2, 3, 1]}),
    "u_flatten2": one_op("flatten2", {"axis": 2}, outputs=("Out", "XShape")),
    "u_nearest_interp_v1": one_op("nearest_interp", {"out_h": 8, "out_w": 6,
                                                      "interp_method": "nearest"}),
    "u_bilinear_interp_v1": one_op("bilinear_interp", {"scale": 2.0,
                                                        "interp_method": "bilinear"}),
    "u_expand_v1": one_op("expand", {"expand_times": [1, 1, 2, 1]}),
    "u_top_k_v1": one_op("top_k", {"k": 2}, outputs=("Out", "Indices")),
    "u_fill_zeros_like": one_op("fill_zeros_like", {}),
    "u_round": u_round,
    "u_thresholded_relu": u_thresholded_relu,
    "u_repeat_interleave": u_repeat_interleave,
    "u_beam_search_decode": u_beam_search_decode,
    "u_norm": one_op("norm", {"axis": 1, "epsilon": 1e-10}, outputs=("Out", "Norm")),
    "u_pad2d": one_op("pad2d", {"paddings": [1, 0, 0, 1], "mode": "constant",
                                 "pad_value": 0.5, "data_format": "NCHW"}),
    "u_crop": one_op("crop", {"shape": [-1, 2, 3, 3], "offsets": [0, 1, 1, 0]}),
    "u_multiclass_nms": u_multiclass_nms,
    "u_generate_proposals": u_generate_proposals,
    "u_fake_quantize_abs_max": one_op("fake_quantize_abs_max", {"bit_length": 8},
                                       outputs=("Out", "OutScale")),
}
