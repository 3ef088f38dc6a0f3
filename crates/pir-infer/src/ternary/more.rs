//! More InferMeta functions of `ternary.cc`: `accuracy`, `baddbmm`,
//! `affine_channel`, `box_coder`, `instance_norm`, `linspace`, NMS, losses,
//! RoI pooling, graph messages and quantization scales.

use pir_dialects::pd_op::DataType;

use crate::args::{layout_of_str, Args};
use crate::meta::{dims_only, untouched, with_lod, DDim, Meta, Out};
use crate::unary::{check_bit_length, dd, set};
use crate::Bad;

/// `AccuracyInferMeta` (x, indices, label): three 0-d tensors of `x`'s type.
pub(crate) fn accuracy(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(2)?;
    if label.dims.rank() != 2 {
        return Err(Bad(format!(
            "ShapeError: label's dimensions of AccuracyOp must be 2. But received label's dimensions = {}",
            label.dims.rank()
        )));
    }
    let scalar = Meta::new(x.dtype, DDim::default());
    set(outs, 0, with_lod(&x, x.dtype, DDim::default()));
    set(outs, 1, scalar.clone());
    set(outs, 2, scalar);
    Ok(())
}

/// `BaddbmmInferMeta` (input, x, y, beta, alpha): `[b, n, p]` of `input`'s
/// type.
pub(crate) fn baddbmm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let x = a.tensor(1)?;
    let y = a.tensor(2)?;
    for (m, what) in [(&input, "input"), (&x, "x"), (&y, "y")] {
        if m.dims.product() == 0 {
            return Err(Bad(format!(
                "The Input variable '{what}' has not been initialized."
            )));
        }
    }
    if !(input.dims.rank() == 3 || input.dims.rank() == 2) {
        return Err(Bad(format!(
            "The input tensor input's dimension must be 3 or 2. But received input's dimension = [{}].",
            input.dims.rank()
        )));
    }
    let (xd, yd) = (x.dims.as_slice(), y.dims.as_slice());
    if xd.len() != 3 || yd.len() != 3 {
        return Err(Bad(format!(
            "The input tensor x's and y's dimensions must be 3. But received [{}] and [{}].",
            xd.len(),
            yd.len()
        )));
    }
    if xd[2] != yd[1] {
        return Err(Bad(format!(
            "The second dimension of x must be equal to the first dimension of y. But received x's second dimension = [{}], y's first dimension = [{}].",
            xd[2], yd[1]
        )));
    }
    set(
        outs,
        0,
        with_lod(&input, input.dtype, dd(&[xd[0], xd[1], yd[2]])?),
    );
    Ok(())
}

/// `AffineChannelInferMeta` (x, scale, bias, data_layout).
pub(crate) fn affine_channel(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let scale = a.tensor(1)?;
    let bias = a.tensor(2)?;
    let format = a.str(3)?;
    let layout =
        layout_of_str(format).ok_or_else(|| Bad(format!("Unknown data layout type `{format}`")))?;
    let d = x.dims.as_slice();
    let c = if layout == pir_core::builtin::DataLayout::NCHW {
        x.dims.at(1)?
    } else {
        *d.last()
            .ok_or_else(|| Bad("affine_channel of a 0-d tensor".into()))?
    };
    for (m, what) in [(&scale, "Scale"), (&bias, "Bias")] {
        if m.dims.rank() != 1 {
            return Err(Bad(format!(
                "The dimensions of Input({what}) must be 1,But received the dimensions of Input({what}) is [{}] ",
                m.dims.rank()
            )));
        }
        let n = m.dims.at(0)?;
        if n > 0 && n != c {
            return Err(Bad(format!(
                "The first dimension value of Input({what}) must be [{c}],But received [{n}]."
            )));
        }
    }
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `BoxCoderInferMeta` (prior_box, prior_box_var, target_box, code_type,
/// box_normalized, axis, variance).
pub(crate) fn box_coder(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let prior = a.tensor(0)?;
    let target = a.tensor(2)?;
    let code_type = a.str(3)?;
    let axis = a.int(5)?;
    let td = target.dims.as_slice();
    let (dims, lod_of) = match code_type {
        "encode_center_size" => {
            if td.len() != 2 {
                return Err(Bad(format!(
                    "The rank of Input TargetBox in BoxCoder operator must be 2. But received rank is {}",
                    td.len()
                )));
            }
            if td[1] != 4 {
                return Err(Bad(format!(
                    "The second dimension of TargetBox in BoxCoder operator is 4. But received dimension is {}",
                    td[1]
                )));
            }
            (dd(&[td[0], prior.dims.at(0)?, 4])?, &target)
        }
        "decode_center_size" => {
            if td.len() != 3 {
                return Err(Bad(format!(
                    "The rank of Input TargetBox in BoxCoder operator must be 3. But received rank is {}",
                    td.len()
                )));
            }
            if !(axis == 0 || axis == 1) {
                return Err(Bad(format!(
                    "axis in BoxCoder operator must be 0 or 1.But received axis = {axis}"
                )));
            }
            (target.dims, if axis == 1 { &prior } else { &target })
        }
        _ => return Err(Bad(format!("Not supported code type {code_type}"))),
    };
    set(outs, 0, with_lod(lod_of, target.dtype, dims));
    Ok(())
}

/// float32 for half-precision inputs (the statistics of the norms).
fn param_type(d: DataType) -> DataType {
    match d {
        DataType::BFloat16 | DataType::Float16 => DataType::Float32,
        d => d,
    }
}

/// `InstanceNormInferMeta` (x, scale, bias, epsilon): `y` like `x`, saved
/// statistics `[N * C]`.
pub(crate) fn instance_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let d = x.dims.as_slice();
    if x.dims.product() == 0 {
        return Err(Bad("The Input variable X has not been initialized.".into()));
    }
    if !(2..=5).contains(&d.len()) {
        return Err(Bad(format!(
            "ShapeError: the dimension of input X must be between 2 and 5. But received: the dimension of input X = [{}]",
            d.len()
        )));
    }
    let (n, c) = (d[0], d[1]);
    for (i, what) in [(1, "scale"), (2, "bias")] {
        if let Some(m) = a.opt_tensor(i)? {
            if m.dims.rank() != 1 {
                return Err(Bad(format!(
                    "ShapeError: the dimension of {what} must equal to 1. But received: the dimension of {what} is [{}]",
                    m.dims.rank()
                )));
            }
            // Paddle 3.3.1 compares `scale` with C only when its dim is
            // unknown (so `[4]` passes with C = 3 and `[-1]` fails), and
            // `bias` only when its dim is known.
            let unknown = m.dims.has_unknown();
            let check = if i == 1 { unknown } else { !unknown };
            if check && m.dims.at(0)? != c {
                return Err(Bad(format!(
                    "ShapeError: the shape of {what} must equal to [{c}]But received: the shape of {what} is [{}]",
                    m.dims.at(0)?
                )));
            }
        }
    }
    set(outs, 0, x.with_dims(x.dims));
    let stat = Meta::new(param_type(x.dtype), dd(&[n * c])?);
    set(outs, 1, stat.clone());
    set(outs, 2, stat);
    Ok(())
}

/// `LinspaceInferMeta` (start, stop, number, dtype) and `LogspaceInferMeta`
/// (start, stop, num, base, dtype): `[-1]` of the requested type.
pub(crate) fn linspace(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let n = a.len();
    for i in 0..n - 1 {
        let m = a.tensor(i)?;
        if m.dims.product() != 1 {
            return Err(Bad(format!(
                "The size of Input({i}) should be 1,but got {}.",
                m.dims.product()
            )));
        }
    }
    set(outs, 0, Meta::new(a.dtype(n - 1)?, dd(&[-1])?));
    Ok(())
}

/// `MultiClassNMSInferMeta` (bboxes, scores, rois_num, ...): `[-1, 6]` boxes,
/// `[-1, 1]` int32 indices, `[-1]` int32 counts.
pub(crate) fn multiclass_nms(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let boxes = a.tensor(0)?;
    let w = boxes.dims.at(2)?;
    set(outs, 0, Meta::new(boxes.dtype, dd(&[-1, w + 2])?));
    set(outs, 1, Meta::new(DataType::Int32, dd(&[-1, 1])?));
    set(outs, 2, Meta::new(DataType::Int32, dd(&[-1])?));
    Ok(())
}

/// `MovingAverageAbsMaxScaleInferMeta` (x, in_accum, in_state): dims only.
pub(crate) fn moving_average_abs_max_scale(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, with_lod(&x, DataType::Float32, x.dims));
    set(outs, 1, dims_only(dd(&[1])?));
    if let Some(state) = a.opt_tensor(2)? {
        set(outs, 2, dims_only(state.dims));
    }
    if let Some(accum) = a.opt_tensor(1)? {
        set(outs, 3, dims_only(accum.dims));
    }
    Ok(())
}

/// `FakeQuantizeRangeAbsMaxInferMeta` (x, in_scale, iter, window_size,
/// bit_length, ...): dims only.
pub(crate) fn fake_quantize_range_abs_max(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let window = a.int(3)?;
    check_bit_length(a.int(4)?)?;
    set(outs, 0, with_lod(&x, DataType::Float32, x.dims));
    set(outs, 1, dims_only(dd(&[1])?));
    set(outs, 2, dims_only(dd(&[window])?));
    Ok(())
}

/// `FakeQuantOrWithDequantMovingAverageAbsMaxInferMeta` (x, in_scale,
/// in_accum, in_state, moving_rate, bit_length, ...): dims only.
pub(crate) fn fake_quant_moving_average_abs_max(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    check_bit_length(a.int(5)?)?;
    set(outs, 0, with_lod(&x, DataType::Float32, x.dims));
    set(outs, 1, dims_only(dd(&[1])?));
    set(outs, 2, dims_only(dd(&[1])?));
    set(outs, 3, dims_only(dd(&[1])?));
    Ok(())
}

/// `NllLossRawInferMeta` (input, label, weight, ignore_index, reduction).
pub(crate) fn nll_loss(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    let weight = a.opt_tensor(2)?;
    let reduction = a.str(4)?;
    let (xd, ld) = (x.dims.as_slice(), label.dims.as_slice());
    if !(xd.len() == 2 || xd.len() == 4) {
        return Err(Bad("The tensor rank of Input(X) must be 2 or 4.".into()));
    }
    if !x.dims.has_unknown() && !label.dims.has_unknown() {
        if ld.first() != Some(&xd[0]) {
            return Err(Bad(
                "ShapeError: Expected input batch_size to match label batch_size".into(),
            ));
        }
        if let Some(w) = &weight {
            if w.dims.rank() != 1 {
                return Err(Bad("Input(Weight) should be a 1D tensor.".into()));
            }
            if w.dims.at(0)? != xd[1] {
                return Err(Bad(
                    "Expected input tensor Weight's size should equal to the first dimension of the input tensor X.".into(),
                ));
            }
        }
    }
    let none = reduction == "none";
    let out = if xd.len() == 2 {
        if none {
            vec![xd[0]]
        } else {
            vec![]
        }
    } else {
        if ld.len() != 3 {
            return Err(Bad(format!(
                "Expected Input(Label) dimensions=3, received {}.",
                ld.len()
            )));
        }
        if !(xd[0] == ld[0] && xd[2] == ld[1] && xd[3] == ld[2]) {
            return Err(Bad(
                "Input(X) tensor shape should match to Input(Label) tensor shape.".into(),
            ));
        }
        if none {
            vec![xd[0], xd[2], xd[3]]
        } else {
            vec![]
        }
    };
    set(outs, 0, Meta::new(x.dtype, dd(&out)?));
    set(outs, 1, Meta::new(x.dtype, DDim::default()));
    Ok(())
}

/// The checks of the RoI ops and their `[num_rois, C, ph, pw]` output.
fn roi_dims(a: &Args<'_>, ph: i64, pw: i64, scale: f64) -> Result<(Meta, DDim), Bad> {
    let x = a.tensor(0)?;
    let boxes = a.tensor(1)?;
    if let Some(n) = a.opt_tensor(2)? {
        if n.dims.rank() != 1 {
            return Err(Bad(format!(
                "The size of boxes_num should be 1, but received size = {}",
                n.dims.rank()
            )));
        }
    }
    if x.dims.rank() != 4 {
        return Err(Bad(format!(
            "The format of Input(x) is NCHW. And the rank of input must be 4. But received rank = {}",
            x.dims.rank()
        )));
    }
    if boxes.dims.rank() != 2 {
        return Err(Bad(format!(
            "The rank of Input(boxes) should be 2. But the rank of boxes is {}",
            boxes.dims.rank()
        )));
    }
    if ph <= 0 || pw <= 0 {
        return Err(Bad(
            "The pooled output height and width must be greater than 0".into(),
        ));
    }
    if scale <= 0.0 {
        return Err(Bad(format!(
            "The spatial scale must be greater than 0, but received spatial scale is {scale}"
        )));
    }
    let d = dd(&[boxes.dims.at(0)?, x.dims.at(1)?, ph, pw])?;
    Ok((x, d))
}

/// `RoiAlignInferMeta` (x, boxes, boxes_num, pooled_height, pooled_width,
/// spatial_scale, ...).
pub(crate) fn roi_align(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let (x, d) = roi_dims(a, a.int(3)?, a.int(4)?, a.scalar(5)?.value)?;
    set(outs, 0, Meta::new(x.dtype, d));
    Ok(())
}

/// `RoiPoolInferMeta` (x, boxes, boxes_num, pooled_height, pooled_width,
/// spatial_scale): the output and int64 arg-max.
pub(crate) fn roi_pool(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let boxes = a.tensor(1)?;
    if boxes.dims.rank() == 2 && boxes.dims.at(1)? != 4 {
        return Err(Bad(format!(
            "boxes should be a 2-D LoDTensor with shape (num_boxes, 4). But the second dimension of the received data is {}",
            boxes.dims.at(1)?
        )));
    }
    let (x, d) = roi_dims(a, a.int(3)?, a.int(4)?, a.scalar(5)?.value)?;
    set(outs, 0, Meta::new(x.dtype, d));
    set(outs, 1, Meta::new(DataType::Int64, d));
    Ok(())
}

/// `SequenceConvInferMeta` (x, padding_data, filter, context_length, ...):
/// the filter's width.
pub(crate) fn sequence_conv(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let filter = a.tensor(2)?;
    let context_length = a.int(3)?;
    let stride = a.int(6)?;
    if stride != 1 {
        return Err(Bad(format!(
            "Currently, SequenceConvOp only supports contextStride=1. But received contextStride = {stride}."
        )));
    }
    if x.dims.rank() != 2 || filter.dims.rank() != 2 {
        return Err(Bad("Input(X, Filter) should be 2-D tensor.".into()));
    }
    if filter.dims.at(0)? != context_length * x.dims.at(1)? {
        return Err(Bad(format!(
            "Filter's height should be context_length * input_hidden_size. But received: filter's height = {}, context_length * input_hidden_size = {}.",
            filter.dims.at(0)?,
            context_length * x.dims.at(1)?
        )));
    }
    let mut d = x.dims;
    d.set(1, filter.dims.at(1)?)?;
    set(outs, 0, with_lod(&x, x.dtype, d));
    Ok(())
}

/// `SpectralNormInferMeta` (weight, u, v, dim, power_iters, eps).
pub(crate) fn spectral_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let w = a.tensor(0)?;
    let u = a.tensor(1)?;
    let v = a.tensor(2)?;
    let (dim, iters) = (a.int(3)?, a.int(4)?);
    let d = w.dims.as_slice();
    if !(2..=5).contains(&d.len()) {
        return Err(Bad(format!(
            "The rank of Input(Weights) should be between 2 and 5, but received Weight rank({})",
            d.len()
        )));
    }
    if !(dim == 0 || dim == 1) {
        return Err(Bad(format!(
            "Attr(dim) can only be 0 or 1, but received {dim}"
        )));
    }
    if iters < 0 {
        return Err(Bad(format!(
            "Attr(power_iters) should be greater equal then 0, but received {iters}"
        )));
    }
    let h = d[dim as usize];
    let w_rest: i64 = d
        .iter()
        .enumerate()
        .filter(|&(i, _)| i as i64 != dim)
        .map(|(_, &v)| v)
        .product();
    let u0 = u.dims.at(0)?;
    if u0 > 0 && h > 0 && u0 != h {
        return Err(Bad(format!(
            "Input(U) dimension[0] should be equal to Input(Weight) dimension[Attr(dim)], but received U dimension[0]({u0}) != Weight dimension[{dim}]({h})"
        )));
    }
    let v0 = v.dims.at(0)?;
    if v0 > 0 && w_rest > 0 && v0 != w_rest {
        return Err(Bad(format!(
            "Input(V) dimension[0] should be equal to the product of Input(Weight) dimension except dimension[Attr(dim)], but received V dimension[0]({v0}) != product of Input(Weight) dimension({w_rest})"
        )));
    }
    set(outs, 0, with_lod(&w, w.dtype, w.dims));
    Ok(())
}

/// `ViterbiDecodeInferMeta` (potentials, transition_params, lengths, ...):
/// the scores; the path is left alone.
pub(crate) fn viterbi_decode(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let transition = a.tensor(1)?;
    let length = a.tensor(2)?;
    if input.dims.rank() != 3 {
        return Err(Bad(format!(
            "The rank of Input in ViterbiDecode  must be 3. But received Input's rank is {}.",
            input.dims.rank()
        )));
    }
    if length.dims.rank() != 1 {
        return Err(Bad(format!(
            "The rank of Length in ViterbiDecode must be 1. But received Length's rank is {}.",
            length.dims.rank()
        )));
    }
    if transition.dims.rank() != 2 {
        return Err(Bad(format!(
            "The rank of Transition in ViterbiDecode must be 2. But received Transition's rank is {}.",
            transition.dims.rank()
        )));
    }
    set(outs, 0, Meta::new(length.dtype, length.dims));
    set(outs, 1, untouched());
    Ok(())
}

/// `SendURecvInferMeta` (x, src_index, dst_index, reduce_op, out_size):
/// `[-1, ...]`, and int32 counts `[-1]` for `MEAN`.
pub(crate) fn send_u_recv(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let src = a.tensor(1)?;
    let dst = a.tensor(2)?;
    let reduce = a.str(3)?;
    for (m, what) in [(&src, "Src_index"), (&dst, "Dst_index")] {
        let d = m.dims.as_slice();
        match d.len() {
            2 if d[1] == 1 => {}
            1 => {}
            _ => {
                return Err(Bad(format!(
                    "The {what} should be 1D, or 2D with a last dim 1, but we get {d:?}"
                )))
            }
        }
    }
    if src.dims.at(0)? != dst.dims.at(0)? {
        return Err(Bad(
            "Src_index and Dst_index should have the same shape.".into()
        ));
    }
    let mut d = x.dims;
    d.set(0, -1)?;
    set(outs, 0, Meta::new(x.dtype, d));
    if reduce == "MEAN" {
        set(outs, 1, Meta::new(DataType::Int32, dd(&[-1])?));
    } else {
        set(outs, 1, untouched());
    }
    Ok(())
}

/// `AssignPosInferMeta` (x, cum_count, eff_num_len): only the data type is
/// set (the dims stay the fresh `IrTensor`'s `[0]`).
pub(crate) fn assign_pos(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let cum = a.tensor(1)?;
    if cum.dtype != x.dtype {
        return Err(Bad("The dtype of the cum_count and X should be same".into()));
    }
    if cum.dtype != DataType::Int64 {
        return Err(Bad(
            "The dtype of the cum_count_dtype, eff_num_len and X should be same as int64".into(),
        ));
    }
    set(outs, 0, Meta::new(x.dtype, dd(&[0])?));
    Ok(())
}

/// `TdmSamplerInferMeta` (x, travel, layer, output_positive,
/// neg_samples_num_list, ...), built with `is_runtime = false`:
/// `[-1, samples]` of `x`'s type.
pub(crate) fn tdm_sampler(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let positive = i64::from(a.bool(3)?);
    let n: i64 = a.ints(4)?.iter().map(|&k| k + positive).sum();
    let m = Meta::new(x.dtype, dd(&[-1, n])?);
    set(outs, 0, m.clone());
    set(outs, 1, m.clone());
    set(outs, 2, m);
    Ok(())
}

/// `CSoftmaxWithMultiLabelCrossEntropyInferMeta` (logits, label,
/// smooth_weight, ignore_index, sum_multi_label_loss, ...): dims only
/// (float32).
pub(crate) fn c_softmax_with_multi_label_cross_entropy(
    a: &Args<'_>,
    outs: &mut [Out],
) -> Result<(), Bad> {
    let logits = a.tensor(0)?;
    let label = a.tensor(1)?;
    let smooth = a.tensor(2)?;
    let sum = a.bool(4)?;
    let (ld, bd, sd) = (
        logits.dims.as_slice(),
        label.dims.as_slice(),
        smooth.dims.as_slice(),
    );
    let r = ld.len();
    if r == 0 || bd.len() < r || sd.len() < bd.len() {
        return Err(Bad(
            "c_softmax_with_multi_label_cross_entropy: bad ranks".into()
        ));
    }
    for (&p, &q) in ld.iter().zip(bd).take(r - 1) {
        if p > 0 && q > 0 && p != q {
            return Err(Bad(
                "Input(Logits) and Input(Label) should in same shape in dimensions except axis."
                    .into(),
            ));
        }
    }
    // Paddle compares the dim with `1UL`: an unknown (-1) dim converts to a
    // huge unsigned value and passes; only 0 fails.
    if bd[r - 1] == 0 {
        return Err(Bad(format!(
            "the last dimension of Input(Label) should be greater than or equal to 1.But received: the last dimension of Input(Label) is [{}],the last dimension is [{}]",
            bd[r - 1],
            r - 1
        )));
    }
    for (&p, &q) in bd.iter().zip(sd) {
        if p > 0 && q > 0 && p != q {
            return Err(Bad(
                "Input(Label) and Input(SmoothWeight) should in same shape in dimensions".into(),
            ));
        }
    }
    let mut loss = label.dims;
    if sum {
        loss.set(r - 1, 1)?;
    }
    set(outs, 0, with_lod(&logits, DataType::Float32, logits.dims));
    set(outs, 1, with_lod(&logits, DataType::Float32, loss));
    Ok(())
}
