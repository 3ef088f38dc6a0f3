//! More InferMeta functions of `multiary.cc`: `auc`, `bilinear`,
//! `multi_dot`, `multiplex`, `psroi_pool`, `beam_search`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{dims_only, untouched, with_lod, DDim, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// `AucInferMeta` (x, label, stat_pos, stat_neg, ins_tag_weight, curve,
/// num_thresholds, slide_steps): a 0-d int64 AUC and int64 statistics.
pub(crate) fn auc(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    let (thresholds, slide) = (a.int(6)?, a.int(7)?);
    if x.dims.rank() < 2 {
        return Err(Bad(format!(
            "The Input(Predict) has not been initialized properly. The shape of Input(Predict) = {:?}, the shape size must be greater_equal 2.",
            x.dims
        )));
    }
    if x.dims.product() == 0 || label.dims.product() == 0 {
        return Err(Bad(
            "The Input(Predict) and Input(Label) have not been initialized properly.".into(),
        ));
    }
    let buckets = thresholds + 1;
    if buckets < 1 {
        return Err(Bad("num_thresholds must larger than 1".into()));
    }
    if slide < 0 {
        return Err(Bad("slide_steps must be natural number".into()));
    }
    set(outs, 0, Meta::new(DataType::Int64, DDim::default()));
    let stat = if slide != 0 {
        vec![(1 + slide) * buckets + 1]
    } else {
        vec![1, buckets]
    };
    set(outs, 1, Meta::new(DataType::Int64, dd(&stat)?));
    set(outs, 2, Meta::new(DataType::Int64, dd(&stat)?));
    Ok(())
}

/// `BilinearInferMeta` (x, y, weight, bias): `[N, out_features]`.
pub(crate) fn bilinear(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let w = a.tensor(2)?;
    let (xd, yd, wd) = (x.dims.as_slice(), y.dims.as_slice(), w.dims.as_slice());
    if xd.len() != 2 || yd.len() != 2 {
        return Err(Bad("The input(X) and input(Y) must be 2D Tensors.".into()));
    }
    if wd.len() != 3 {
        return Err(Bad(format!(
            "Expected the input(Weight) is a 3D tensor. But received {}D tensor.",
            wd.len()
        )));
    }
    if xd[0] > 0 && yd[0] > 0 && xd[0] != yd[0] {
        return Err(Bad(
            "The first dimension(batch_size) of input(X) must be equal to the first dimension of the input(Y).".into(),
        ));
    }
    if xd[1] != wd[1] {
        return Err(Bad(
            "The second dimension of input(X) must be equal to the second dimension of the input(Weight).".into(),
        ));
    }
    if yd[1] != wd[2] {
        return Err(Bad(
            "The second dimension of input(Y) must be equal to the third dimension of the input(Weight).".into(),
        ));
    }
    if let Some(b) = a.opt_tensor(3)? {
        let bd = b.dims.as_slice();
        if bd.len() != 2 || bd[0] != 1 || bd[1] != wd[0] {
            return Err(Bad(
                "The Input(Bias) must be a 2-D tensor with the 2nd dimension fixed to 1 (a row vector) and its second dimension equal to the first dimension of the input(Weight).".into(),
            ));
        }
    }
    set(outs, 0, with_lod(&x, x.dtype, dd(&[xd[0], wd[0]])?));
    Ok(())
}

/// `MultiDotInferMeta` (x): the chained product's dims; a 1-d first or last
/// operand is a row or column vector (dropped from the result).
pub(crate) fn multi_dot(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let n = xs.len();
    if n <= 1 {
        return Err(Bad(
            "The number of input tensors in multi_dot op should > 1.".into(),
        ));
    }
    let mut first = xs[0].dims.as_slice().to_vec();
    if first.len() >= 3 {
        return Err(Bad(format!(
            "multi_dot: the first input tensor must be 1D or 2D but got[{}]!",
            first.len()
        )));
    }
    let is_vector = first.len() == 1;
    if is_vector {
        first = vec![1, first[0]];
    }
    let mut last = xs[n - 1].dims.as_slice().to_vec();
    if last.len() >= 3 {
        return Err(Bad(format!(
            "the last input tensor of multi_dot must be 1D or 2D but got[{}]!",
            first.len()
        )));
    }
    let out = if last.len() == 1 {
        last = vec![last[0], 1];
        // Paddle 3.3.1 gives a vector-by-vector chain a 0-d result.
        if is_vector {
            vec![]
        } else {
            vec![first[0]]
        }
    } else if is_vector {
        vec![last[1]]
    } else {
        vec![first[0], last[1]]
    };
    let mut width = first[1];
    for m in &xs[1..n - 1] {
        let d = m.dims.as_slice();
        if d.len() != 2 {
            return Err(Bad("the input tensor of multi_dot op must be 2D.".into()));
        }
        if d[0] != width {
            return Err(Bad(
                "the input matrix does not meet the multiplication requirements.".into(),
            ));
        }
        width = d[1];
    }
    if last[0] != width {
        return Err(Bad(
            "the input matrix does not meet the multiplication requirements.".into(),
        ));
    }
    set(outs, 0, with_lod(&xs[0], xs[0].dtype, dd(&out)?));
    Ok(())
}

/// `MultiplexInferMeta` (inputs, index): the candidates' dims with one row
/// per index.
pub(crate) fn multiplex(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let ins = a.tensors(0)?;
    let ids = a.tensor(1)?;
    let first = ins
        .first()
        .ok_or_else(|| Bad("MultiInput(X) shouldn't be empty.".into()))?;
    let id = ids.dims.as_slice();
    if id.len() != 2 {
        return Err(Bad(
            "The index tensor must be a vector with 2 dimensions".into()
        ));
    }
    if id[1] != 1 {
        return Err(Bad(
            "The index tensor must be a vector with batchSize x 1.".into()
        ));
    }
    if ins.len() <= 1 {
        return Err(Bad(
            "multiplex operator should have more than one candidate input tensors.".into(),
        ));
    }
    if first.dims.rank() < 2 {
        return Err(Bad(
            "The rank of candidate tensors must be not less than 2.".into(),
        ));
    }
    if ins.iter().any(|m| m.dims != first.dims) {
        return Err(Bad(
            "All the candidate tensors must have the same size.".into()
        ));
    }
    // One row per index.
    let mut d = first.dims;
    if d.at(0)? < id[0] {
        return Err(Bad(
            "The 2nd-dim of input cannot be smaller than batchSize of the index tensor.".into(),
        ));
    }
    d.set(0, id[0])?;
    set(outs, 0, Meta::new(first.dtype, d));
    Ok(())
}

/// `PsroiPoolInferMeta` (x, boxes, boxes_num, pooled_height, pooled_width,
/// output_channels, spatial_scale).
pub(crate) fn psroi_pool(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let rois = a.tensor(1)?;
    let (ph, pw, oc) = (a.int(3)?, a.int(4)?, a.int(5)?);
    let scale = a.scalar(6)?.value;
    let (xd, rd) = (x.dims.as_slice(), rois.dims.as_slice());
    if xd.len() != 4 {
        return Err(Bad("The format of input tensor is NCHW".into()));
    }
    if rd.len() != 2 || rd[1] != 4 {
        return Err(Bad(
            "ROIs should be a 2-D LoDTensor of shape (num_rois, 4) given as [(x1, y1, x2, y2), ...]".into(),
        ));
    }
    if let Some(n) = a.opt_tensor(2)? {
        if n.dims.rank() != 1 {
            return Err(Bad(format!(
                "The second dimension of RoisNum should be 1, but received dimension is {}",
                n.dims.rank()
            )));
        }
    }
    if xd[1] != oc * ph * pw {
        return Err(Bad(format!(
            "the channel of X({}) should be equal to the product of output_channels({oc}), pooled_height({ph}) and pooled_width({pw})",
            xd[1]
        )));
    }
    if ph <= 0 || pw <= 0 || oc <= 1 || scale <= 0.0 {
        return Err(Bad(
            "The pooled output height, width and spatial scale must be greater than 0 and the output channels greater than 1".into(),
        ));
    }
    set(outs, 0, Meta::new(x.dtype, dd(&[rd[0], oc, ph, pw])?));
    Ok(())
}

/// `BeamSearchInferMeta` (pre_ids, pre_scores, ids, scores, level,
/// beam_size, end_id, is_accumulated).
pub(crate) fn beam_search(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let pre_ids = a.tensor(0)?;
    let pre_scores = a.tensor(1)?;
    set(outs, 0, Meta::new(pre_ids.dtype, pre_ids.dims));
    set(outs, 1, Meta::new(pre_scores.dtype, pre_scores.dims));
    set(
        outs,
        2,
        Meta::new(pre_ids.dtype, dd(&[pre_ids.dims.at(0)?])?),
    );
    Ok(())
}

/// The index checks of the graph message ops: 1-d (or `[n, 1]`) indices of
/// one length.
fn check_graph_indices(src: &Meta, dst: &Meta) -> Result<i64, Bad> {
    for (m, what) in [(src, "Src_index"), (dst, "Dst_index")] {
        let d = m.dims.as_slice();
        match d.len() {
            1 => {}
            2 if d[1] == 1 => {}
            _ => {
                return Err(Bad(format!(
                    "The {what} should be 1D, or 2D with a last dim 1, but we get {d:?}"
                )))
            }
        }
    }
    let n = src.dims.at(0)?;
    if n != dst.dims.at(0)? {
        return Err(Bad(
            "Src_index and Dst_index should have the same shape.".into()
        ));
    }
    Ok(n)
}

/// `[first] + broadcast(x[1..], y[1..])`, as the graph message ops give.
fn message_dims(x: &Meta, y: &Meta, first: i64) -> Result<DDim, Bad> {
    let xs = x.dims.slice(1, x.dims.rank())?;
    let ys = y.dims.slice(1, y.dims.rank())?;
    let b = crate::binary::broadcast(&xs, &ys, -1)?;
    let mut v = vec![first];
    v.extend_from_slice(b.as_slice());
    dd(&v)
}

/// `SendUERecvInferMeta` (x, y, src_index, dst_index, message_op,
/// reduce_op, out_size): `[-1, broadcast]`, int32 counts for `MEAN`.
pub(crate) fn send_ue_recv(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let n = check_graph_indices(&a.tensor(2)?, &a.tensor(3)?)?;
    let reduce = a.str(5)?;
    if y.dims.rank() == 0 || y.dims.at(0)? != n {
        return Err(Bad(format!(
            "Expect Input Y to have size {n} as Src_index on the first dimension, but we get {:?}",
            y.dims
        )));
    }
    if x.dims.rank() == 0 {
        return Err(Bad("send_ue_recv of a 0-d tensor".into()));
    }
    set(outs, 0, Meta::new(x.dtype, message_dims(&x, &y, -1)?));
    if reduce == "MEAN" {
        set(outs, 1, Meta::new(DataType::Int32, dd(&[-1])?));
    } else {
        set(outs, 1, untouched());
    }
    Ok(())
}

/// `SendUVInferMeta` (x, y, src_index, dst_index, message_op): one row per
/// edge.
pub(crate) fn send_uv(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let n = check_graph_indices(&a.tensor(2)?, &a.tensor(3)?)?;
    if x.dims.rank() == 0 || y.dims.rank() == 0 {
        return Err(Bad("send_uv of a 0-d tensor".into()));
    }
    set(outs, 0, Meta::new(x.dtype, message_dims(&x, &y, n)?));
    Ok(())
}

/// `YoloLossInferMeta` (x, gt_box, gt_label, gt_score, anchors,
/// anchor_mask, class_num, ...): loss `[N]`, objectness mask
/// `[N, masks, H, W]`, match mask `[N, boxes]`, all of `x`'s type.
pub(crate) fn yolo_loss(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let gt_box = a.tensor(1)?;
    let gt_label = a.tensor(2)?;
    let anchors = a.ints(4)?;
    let mask = a.ints(5)?;
    let class_num = a.int(6)?;
    let (d, bd, ld) = (
        x.dims.as_slice(),
        gt_box.dims.as_slice(),
        gt_label.dims.as_slice(),
    );
    let anchor_num = (anchors.len() / 2) as i64;
    let mask_num = mask.len() as i64;
    if d.len() != 4 {
        return Err(Bad(format!(
            "Input(X) should be a 4-D tensor. But received X dimension size({})",
            d.len()
        )));
    }
    if d[2] != d[3] {
        return Err(Bad(format!(
            "Input(X) dim[3] and dim[4] should be euqal.But received dim[3]({}) != dim[4]({})",
            d[2], d[3]
        )));
    }
    if d[1] != mask_num * (5 + class_num) {
        return Err(Bad(format!(
            "Input(X) dim[1] should be equal to (anchor_mask_number * (5 + class_num)).But received dim[1]({}) != (anchor_mask_number * (5+class_num)({}).",
            d[1],
            mask_num * (5 + class_num)
        )));
    }
    if bd.len() != 3 || bd[2] != 4 {
        return Err(Bad(
            "Input(GTBox) should be a 3-D tensor with dim[2] 4".into()
        ));
    }
    if ld.len() != 2 || ld[0] != bd[0] || ld[1] != bd[1] {
        return Err(Bad(
            "Input(GTLabel) should be a 2-D tensor of the dims of Input(GTBox)[0..2]".into(),
        ));
    }
    if anchors.is_empty() || anchors.len() % 2 != 0 {
        return Err(Bad(
            "Attr(anchors) length should be a positive even integer.".into(),
        ));
    }
    if mask.iter().any(|&m| m >= anchor_num) {
        return Err(Bad(
            "Attr(anchor_mask) should not crossover Attr(anchors).".into()
        ));
    }
    if class_num <= 0 {
        return Err(Bad(format!(
            "Attr(class_num) should be an integer greater then 0.But received class_num({class_num}) < 0"
        )));
    }
    if let Some(s) = a.opt_tensor(3)? {
        let sd = s.dims.as_slice();
        if sd.len() != 2 || sd[0] != bd[0] || sd[1] != bd[1] {
            return Err(Bad(
                "Input(GTScore) should be a 2-D tensor of the dims of Input(GTBox)[0..2]".into(),
            ));
        }
    }
    set(outs, 0, Meta::new(x.dtype, dd(&[d[0]])?));
    set(
        outs,
        1,
        Meta::new(x.dtype, dd(&[d[0], mask_num, d[2], d[3]])?),
    );
    set(outs, 2, Meta::new(x.dtype, dd(&[bd[0], bd[1]])?));
    Ok(())
}

/// `DistributeFpnProposalsInferMeta` (fpn_rois, rois_num, min_level,
/// max_level, ...): one `[-1, 4]` list entry (LoD of the rois) and one int32
/// `[-1]` count per level, and the int32 `[-1, 1]` restore index.
pub(crate) fn distribute_fpn_proposals(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let rois = a.tensor(0)?;
    let (min, max) = (a.int(2)?, a.int(3)?);
    if max < min {
        return Err(Bad(format!(
            "max_level must not lower than min_level. But received max_level = {max}, min_level = {min}"
        )));
    }
    let n = (max - min + 1) as usize;
    let level = with_lod(&rois, rois.dtype, dd(&[-1, 4])?);
    let count = Meta::new(DataType::Int32, dd(&[-1])?);
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(vec![level; n]);
    }
    if let Some(o) = outs.get_mut(1) {
        *o = Out::List(vec![count; n]);
    }
    set(outs, 2, Meta::new(DataType::Int32, dd(&[-1, 1])?));
    Ok(())
}

/// `QuantizeLinearInferMeta` (x, scale, zero_point, in_accum, in_state,
/// quant_axis, bit_length, round_type, ...): dims only; the scale has one
/// entry per channel of `quant_axis` (the scale's dims for `-1`).
pub(crate) fn quantize_linear(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (axis, bits, round) = (a.int(5)?, a.int(6)?, a.int(7)?);
    if !(axis == 0 || axis == 1 || axis == -1) {
        return Err(Bad(format!(
            "'quant_axis' should be 0, 1 or -1, but the received is {axis}"
        )));
    }
    if !(1..=16).contains(&bits) {
        return Err(Bad(format!(
            "'bit_length' should be between 1 and 16, but the received is {bits}"
        )));
    }
    if !(round == 0 || round == 1) {
        return Err(Bad(format!(
            "'round_type' should be 0 or 1, 0 rounding to nearest ties to even and 1 is rounding to nearest ties away from zero.but the received is {round}"
        )));
    }
    set(outs, 0, with_lod(&x, DataType::Float32, x.dims));
    // The state and accumulator take the dims of their inputs, which must
    // then be given.
    set(outs, 1, dims_only(a.tensor(4)?.dims));
    set(outs, 2, dims_only(a.tensor(3)?.dims));
    let scale = if axis < 0 {
        a.tensor(1)?.dims
    } else {
        dd(&[x.dims.at(axis as usize)?])?
    };
    set(outs, 3, dims_only(scale));
    Ok(())
}

/// `EditDistanceInferMeta` (hyps, refs, hypslength, refslength,
/// normalized): float32 sequence count `[1]` and distances of the refs'
/// dims.
pub(crate) fn edit_distance(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let hyps = a.tensor(0)?;
    let refs = a.tensor(1)?;
    let (hd, rd) = (hyps.dims.as_slice(), refs.dims.as_slice());
    match (a.opt_tensor(2)?, a.opt_tensor(3)?) {
        (Some(hl), Some(rl)) => {
            if !(hd.len() == 2 && rd.len() == 2 && hd[0] == rd[0]) {
                return Err(Bad(format!(
                    "Input(hyps) and Input(refs) must be 2-D Tensors with identical first dimension. But received Input(Hyps): input shape {hd:?}; received Input(Refs): input shape {rd:?}"
                )));
            }
            let (h0, r0) = (hl.dims.at(0)?, rl.dims.at(0)?);
            if !(h0 == r0 && h0 == hd[0]) {
                return Err(Bad(
                    "Input(hypslength), Input(refslength) and Input(hyps) should have identical first dimension.".into(),
                ));
            }
        }
        _ => {
            if !(hd.len() == 2 && hd[1] == 1) {
                return Err(Bad(format!(
                    "Input(Hyps) must be a 2-D DenseTensor with the 2nd dimension equal to 1. But received: input shape {hd:?}."
                )));
            }
            if !(rd.len() == 2 && rd[1] == 1) {
                return Err(Bad(format!(
                    "Input(Refs) must be a 2-D DenseTensor with the 2nd dimension equal to 1. But received: input shape {rd:?}."
                )));
            }
        }
    }
    set(outs, 0, Meta::new(DataType::Float32, dd(&[1])?));
    set(outs, 1, Meta::new(DataType::Float32, refs.dims));
    Ok(())
}
