//! Vision, NLP, loss and small linear-algebra ops written as a few ONNX
//! ops: channel shuffles, `maxout`, `affine_channel`, `roi_align`,
//! `grid_sample`, `sequence_mask`, `masked_select`, `kthvalue`, losses,
//! `atan2`, `dot`, `addmm`, `lerp`.

use pir_params::DType;

use crate::export::{a_float, a_int, a_ints, a_str, Exporter};
use crate::mappers::index::reduce;
use crate::mappers::shape::norm_axis;
use crate::ExportError;

type R = Result<(), ExportError>;

/// The known dims of operand 0 from axis 1 on (the batch may be unknown).
fn dims_after_batch(x: &Exporter<'_>) -> Result<Vec<i64>, ExportError> {
    let d = x.in_dims(0)?;
    if d.len() < 2 || d[1..].iter().any(|&v| v < 0) {
        return Err(x.unsupported("needs known dims after the batch dim"));
    }
    Ok(d[1..].to_vec())
}

/// `shuffle_channel(group)` / `channel_shuffle(groups)`: channels regrouped.
pub(crate) fn channel_shuffle(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let attrs = x.attrs();
    let g = attrs.i64_or("group", attrs.i64_or("groups", 1)?)?;
    let format = attrs.str_or("data_format", "NCHW")?;
    if format == "NHWC" {
        return Err(x.unsupported("NHWC channel shuffle"));
    }
    let d = dims_after_batch(x)?;
    let mut split = vec![0, g, d[0] / g];
    split.extend_from_slice(&d[1..]);
    let r = x.reshape(&a, &split);
    let mut perm = vec![0, 2, 1];
    perm.extend(3..split.len() as i64);
    let t = x.node1("Transpose", &[&r], vec![a_ints("perm", &perm)]);
    let mut back = vec![0];
    back.extend_from_slice(&d);
    let r = x.reshape(&t, &back);
    x.finish_with(&r)
}

/// `pixel_unshuffle(downscale_factor)`: channel `c*b*b + i*b + j`.
pub(crate) fn pixel_unshuffle(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let attrs = x.attrs();
    let b = attrs.i64_or("downscale_factor", 1)?;
    if attrs.str_or("data_format", "NCHW")? != "NCHW" {
        return Err(x.unsupported("NHWC pixel_unshuffle"));
    }
    let d = dims_after_batch(x)?;
    let (c, h, w) = (d[0], d[1], d[2]);
    let r = x.reshape(&a, &[0, c, h / b, b, w / b, b]);
    let t = x.node1(
        "Transpose",
        &[&r],
        vec![a_ints("perm", &[0, 1, 3, 5, 2, 4])],
    );
    let r = x.reshape(&t, &[0, c * b * b, h / b, w / b]);
    x.finish_with(&r)
}

/// `maxout(x, groups, axis)`: the max of each run of `groups` channels.
pub(crate) fn maxout(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let attrs = x.attrs();
    let g = attrs.i64_or("groups", 1)?;
    let rank = x.in_rank(0)?;
    let axis = norm_axis(attrs.i64_or("axis", 1)?, rank);
    let d = dims_after_batch(x)?;
    let mut shape = vec![0i64];
    for (i, &v) in d.iter().enumerate() {
        if i as i64 + 1 == axis {
            shape.push(v / g);
            shape.push(g);
        } else {
            shape.push(v);
        }
    }
    let r = x.reshape(&a, &shape);
    let m = reduce(x, "ReduceMax", &r, &[axis + 1], false);
    x.finish_with(&m)
}

/// `affine_channel(x, scale, bias, data_layout)`.
pub(crate) fn affine_channel(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let layout = x.attrs().str_or("data_layout", "NCHW")?;
    let mut shape = vec![-1i64];
    if layout != "NHWC" {
        shape.extend(std::iter::repeat_n(1, (rank - 2).max(0) as usize));
    }
    let s = x.input(1)?;
    let s = x.reshape(&s, &shape);
    let b = x.input(2)?;
    let b = x.reshape(&b, &shape);
    let m = x.node1("Mul", &[&a, &s], vec![]);
    let r = x.node1("Add", &[&m, &b], vec![]);
    x.finish_with(&r)
}

/// `label_smooth(label, prior_dist, epsilon)`.
pub(crate) fn label_smooth(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let eps = x.attrs().f64_or("epsilon", 0.0)?;
    let k = *x.in_dims(0)?.last().unwrap_or(&-1);
    let keep = x.const_scalar(d, 1.0 - eps)?;
    let scaled = x.node1("Mul", &[&a, &keep], vec![]);
    let add = if x.has_input(1) {
        let p = x.input(1)?;
        let e = x.const_scalar(d, eps)?;
        x.node1("Mul", &[&p, &e], vec![])
    } else if k > 0 {
        x.const_scalar(d, eps / k as f64)?
    } else {
        return Err(x.unsupported("unknown number of classes"));
    };
    let r = x.node1("Add", &[&scaled, &add], vec![]);
    x.finish_with(&r)
}

/// `sigmoid_cross_entropy_with_logits(x, label, pos_weight, normalize,
/// ignore_index)`: `max(x, 0) - x * label + log(1 + exp(-|x|))`.
pub(crate) fn sigmoid_cross_entropy(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let l = x.input(1)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let normalize = attrs.bool_or("normalize", false)?;
    let ignore = attrs.i64_or("ignore_index", -100)?;
    if x.has_input(2) {
        return Err(x.unsupported("pos_weight"));
    }
    let zero = x.const_scalar(d, 0.0)?;
    let relu = x.node1("Max", &[&a, &zero], vec![]);
    let xl = x.node1("Mul", &[&a, &l], vec![]);
    let ab = x.node1("Abs", &[&a], vec![]);
    let neg = x.node1("Neg", &[&ab], vec![]);
    let sp = x.node1("Softplus", &[&neg], vec![]);
    let t = x.node1("Sub", &[&relu, &xl], vec![]);
    let loss = x.node1("Add", &[&t, &sp], vec![]);
    let ig = x.const_scalar(d, ignore as f64)?;
    let is_ignored = x.node1("Equal", &[&l, &ig], vec![]);
    let loss = x.node1("Where", &[&is_ignored, &zero, &loss], vec![]);
    let loss = if normalize {
        let kept = x.node1("Not", &[&is_ignored], vec![]);
        let kept = x.cast(&kept, d)?;
        let n = reduce(x, "ReduceSum", &kept, &[], false);
        let one = x.const_scalar(d, 1e-5)?;
        let n = x.node1("Max", &[&n, &one], vec![]);
        x.node1("Div", &[&loss, &n], vec![])
    } else {
        loss
    };
    x.finish_with(&loss)
}

/// `log(v)` clipped below at -100, as Paddle's BCE loss does.
fn clipped_log(x: &mut Exporter<'_>, v: &str, d: DType) -> Result<String, ExportError> {
    let l = x.node1("Log", &[v], vec![]);
    let floor = x.const_scalar(d, -100.0)?;
    Ok(x.node1("Max", &[&l, &floor], vec![]))
}

/// `bce_loss(input, label)` and `log_loss(input, label, epsilon)`.
pub(crate) fn binary_losses(x: &mut Exporter<'_>) -> R {
    let p = x.input(0)?;
    let l = x.input(1)?;
    let d = x.in_dtype(0)?;
    let one = x.const_scalar(d, 1.0)?;
    let q = x.node1("Sub", &[&one, &p], vec![]);
    let nl = x.node1("Sub", &[&one, &l], vec![]);
    let (lp, lq) = if x.op_name() == "pd_op.log_loss" {
        let eps = x.attrs().f64_or("epsilon", 1e-4)?;
        let e = x.const_scalar(d, eps)?;
        let pe = x.node1("Add", &[&p, &e], vec![]);
        let qe = x.node1("Add", &[&q, &e], vec![]);
        (
            x.node1("Log", &[&pe], vec![]),
            x.node1("Log", &[&qe], vec![]),
        )
    } else {
        (clipped_log(x, &p, d)?, clipped_log(x, &q, d)?)
    };
    let a = x.node1("Mul", &[&l, &lp], vec![]);
    let b = x.node1("Mul", &[&nl, &lq], vec![]);
    let s = x.node1("Add", &[&a, &b], vec![]);
    let r = x.node1("Neg", &[&s], vec![]);
    x.finish_with(&r)
}

/// `atan2(x, y)`: the angle of `(y, x)`, quadrant by quadrant.
pub(crate) fn atan2(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let d = x.out_dtype(0)?;
    let a = if x.in_dtype(0)? == d {
        a
    } else {
        x.cast(&a, d)?
    };
    let b = if x.in_dtype(1)? == d {
        b
    } else {
        x.cast(&b, d)?
    };
    let zero = x.const_scalar(d, 0.0)?;
    let pi = x.const_scalar(d, std::f64::consts::PI)?;
    let half_pi = x.const_scalar(d, std::f64::consts::FRAC_PI_2)?;
    let q = x.node1("Div", &[&a, &b], vec![]);
    let at = x.node1("Atan", &[&q], vec![]);
    let a_neg = x.node1("Less", &[&a, &zero], vec![]);
    let b_neg = x.node1("Less", &[&b, &zero], vec![]);
    let b_zero = x.node1("Equal", &[&b, &zero], vec![]);
    let neg_pi = x.node1("Neg", &[&pi], vec![]);
    let shift = x.node1("Where", &[&a_neg, &neg_pi, &pi], vec![]);
    let shifted = x.node1("Add", &[&at, &shift], vec![]);
    let r = x.node1("Where", &[&b_neg, &shifted, &at], vec![]);
    let sign = x.node1("Sign", &[&a], vec![]);
    let vertical = x.node1("Mul", &[&sign, &half_pi], vec![]);
    let r = x.node1("Where", &[&b_zero, &vertical, &r], vec![]);
    x.finish_with(&r)
}

/// `dot(x, y)`: the sum of products over the last axis.
pub(crate) fn dot(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let m = x.node1("Mul", &[&a, &b], vec![]);
    let out_rank = x.out_dims(0)?.len();
    let in_rank = x.in_rank(0)?;
    let keep = out_rank as i64 == in_rank;
    let r = reduce(x, "ReduceSum", &m, &[in_rank - 1], keep);
    x.finish_with(&r)
}

/// `mv(x, vec)`.
pub(crate) fn mv(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let r = x.node1("MatMul", &[&a, &b], vec![]);
    x.finish_with(&r)
}

/// `addmm(input, x, y, beta, alpha)`: `beta * input + alpha * x @ y`.
pub(crate) fn addmm(x: &mut Exporter<'_>) -> R {
    let i = x.input(0)?;
    let a = x.input(1)?;
    let b = x.input(2)?;
    let d = x.in_dtype(1)?;
    let attrs = x.attrs();
    let beta = attrs.f64_or("beta", 1.0)?;
    let alpha = attrs.f64_or("alpha", 1.0)?;
    let m = x.node1("MatMul", &[&a, &b], vec![]);
    let ka = x.const_scalar(d, alpha)?;
    let kb = x.const_scalar(d, beta)?;
    let m = x.node1("Mul", &[&m, &ka], vec![]);
    let i = x.node1("Mul", &[&i, &kb], vec![]);
    let r = x.node1("Add", &[&i, &m], vec![]);
    x.finish_with(&r)
}

/// `lerp(x, y, weight)`: `x + weight * (y - x)`.
pub(crate) fn lerp(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let w = x.input(2)?;
    let diff = x.node1("Sub", &[&b, &a], vec![]);
    let m = x.node1("Mul", &[&w, &diff], vec![]);
    let r = x.node1("Add", &[&a, &m], vec![]);
    x.finish_with(&r)
}

/// `equal_all(x, y)`: one bool.
pub(crate) fn equal_all(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let e = x.node1("Equal", &[&a, &b], vec![]);
    let i = x.cast(&e, DType::Int32)?;
    let m = reduce(x, "ReduceMin", &i, &[], false);
    let r = x.cast(&m, DType::Bool)?;
    let rank = x.out_dims(0)?.len();
    let r = if rank == 1 { x.reshape(&r, &[1]) } else { r };
    x.finish_with(&r)
}

/// `heaviside(x, y)`: 0 below zero, 1 above, `y` at zero.
pub(crate) fn heaviside(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let d = x.in_dtype(0)?;
    let zero = x.const_scalar(d, 0.0)?;
    let one = x.const_scalar(d, 1.0)?;
    let pos = x.node1("Greater", &[&a, &zero], vec![]);
    let step = x.node1("Where", &[&pos, &one, &zero], vec![]);
    let at_zero = x.node1("Equal", &[&a, &zero], vec![]);
    let r = x.node1("Where", &[&at_zero, &b, &step], vec![]);
    x.finish_with(&r)
}

/// `soft_relu(x, threshold)`: `log(1 + exp(clip(x, -t, t)))`.
pub(crate) fn soft_relu(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let t = x.attrs().f64_or("threshold", 40.0)?;
    let lo = x.const_scalar(d, -t)?;
    let hi = x.const_scalar(d, t)?;
    let c = x.node1("Clip", &[&a, &lo, &hi], vec![]);
    let r = x.node1("Softplus", &[&c], vec![]);
    x.finish_with(&r)
}

/// `l1_norm`, `squared_l2_norm`: a full reduction, shaped as declared.
pub(crate) fn norms(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let v = if x.op_name() == "pd_op.l1_norm" {
        x.node1("Abs", &[&a], vec![])
    } else {
        x.node1("Mul", &[&a, &a], vec![])
    };
    let s = reduce(x, "ReduceSum", &v, &[], false);
    let dims = x.out_dims(0)?;
    let s = if dims.is_empty() {
        s
    } else {
        x.reshape(&s, &dims)
    };
    x.finish_with(&s)
}

/// `dist(x, y, p)`: the p-norm of `x - y`.
pub(crate) fn dist(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let d = x.in_dtype(0)?;
    let p = x.attrs().f64_or("p", 2.0)?;
    let diff = x.node1("Sub", &[&a, &b], vec![]);
    let ab = x.node1("Abs", &[&diff], vec![]);
    let r = if p == 2.0 {
        reduce(x, "ReduceL2", &diff, &[], false)
    } else if p.is_infinite() {
        let op = if p > 0.0 { "ReduceMax" } else { "ReduceMin" };
        reduce(x, op, &ab, &[], false)
    } else if p == 0.0 {
        let zero = x.const_scalar(d, 0.0)?;
        let nz = x.node1("Greater", &[&ab, &zero], vec![]);
        let nz = x.cast(&nz, d)?;
        reduce(x, "ReduceSum", &nz, &[], false)
    } else {
        let pk = x.const_scalar(d, p)?;
        let pw = x.node1("Pow", &[&ab, &pk], vec![]);
        let s = reduce(x, "ReduceSum", &pw, &[], false);
        let inv = x.const_scalar(d, 1.0 / p)?;
        x.node1("Pow", &[&s, &inv], vec![])
    };
    let dims = x.out_dims(0)?;
    let r = if dims.is_empty() {
        r
    } else {
        x.reshape(&r, &dims)
    };
    x.finish_with(&r)
}

/// `sequence_mask(x, max_len, out_dtype)`: `j < x[...]` along a new last axis.
pub(crate) fn sequence_mask(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let ad = x.in_dtype(0)?;
    let a64 = if ad == DType::Int64 {
        a
    } else {
        x.cast(&a, DType::Int64)?
    };
    let known = x.known(1).and_then(|k| k.values.first().copied());
    let maxlen = match known {
        Some(m) if m > 0.0 => x.const_scalar(DType::Int64, m)?,
        Some(_) => reduce(x, "ReduceMax", &a64, &[], false),
        None if x.has_input(1) => {
            let m = x.input(1)?;
            let m = x.cast(&m, DType::Int64)?;
            x.reshape(&m, &[])
        }
        None => {
            let m = x.attrs().i64_or("maxlen", -1)?;
            if m > 0 {
                x.const_scalar(DType::Int64, m as f64)?
            } else {
                reduce(x, "ReduceMax", &a64, &[], false)
            }
        }
    };
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let range = x.node1("Range", &[&zero, &maxlen, &one], vec![]);
    let lens = x.unsqueeze(&a64, &[-1]);
    let mask = x.node1("Less", &[&range, &lens], vec![]);
    let d = x.out_dtype(0)?;
    let r = x.cast(&mask, d)?;
    x.finish_with(&r)
}

/// `masked_select(x, mask)`: the selected elements, flattened.
pub(crate) fn masked_select(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let m = x.input(1)?;
    let sa = x.node1("Shape", &[&a], vec![]);
    let sm = x.node1("Shape", &[&m], vec![]);
    let ones_a = x.node1("Expand", &[&m, &sa], vec![]);
    let full_shape = x.node1("Shape", &[&ones_a], vec![]);
    let _ = sm;
    let a_full = x.node1("Expand", &[&a, &full_shape], vec![]);
    let m_full = x.node1("Expand", &[&m, &full_shape], vec![]);
    let af = x.reshape(&a_full, &[-1]);
    let mf = x.reshape(&m_full, &[-1]);
    let r = x.node1("Compress", &[&af, &mf], vec![a_int("axis", 0)]);
    x.finish_with(&r)
}

/// `kthvalue(x, k, axis, keepdim)`: the k-th smallest and its index.
pub(crate) fn kthvalue(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let k = attrs.i64_or("k", 1)?;
    let axis = norm_axis(attrs.i64_or("axis", -1)?, rank);
    let keep = attrs.bool_or("keepdim", false)?;
    let kk = x.const_i64s(&[k]);
    let vals = x.tmp();
    let idx = x.tmp();
    x.node(
        "TopK",
        &[&a, &kk],
        &[&vals, &idx],
        vec![a_int("axis", axis), a_int("largest", 0), a_int("sorted", 1)],
    );
    let pos = x.const_i64s(&[k - 1]);
    let ax = x.const_i64s(&[axis]);
    let one = x.const_i64s(&[k]);
    let v = x.node1("Slice", &[&vals, &pos, &one, &ax], vec![]);
    let i = x.node1("Slice", &[&idx, &pos, &one, &ax], vec![]);
    let (v, i) = if keep {
        (v, i)
    } else {
        (x.squeeze(&v, &[axis]), x.squeeze(&i, &[axis]))
    };
    x.identity_out(0, &v);
    x.identity_out(1, &i);
    Ok(())
}

/// The `pooled_height`, `pooled_width` and `spatial_scale` of a roi
/// pooling op.
pub(crate) fn roi_grid(x: &Exporter<'_>) -> Result<(i64, i64, f64), ExportError> {
    let attrs = x.attrs();
    Ok((
        attrs.i64_or("pooled_height", 1)?,
        attrs.i64_or("pooled_width", 1)?,
        attrs.f64_or("spatial_scale", 1.0)?,
    ))
}

/// `roi_align(x, boxes, boxes_num, pooled_height, pooled_width,
/// spatial_scale, sampling_ratio, aligned)`.
pub(crate) fn roi_align(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let boxes = x.input(1)?;
    let (ph, pw, scale) = roi_grid(x)?;
    let attrs = x.attrs();
    let ratio = attrs.i64_or("sampling_ratio", -1)?;
    let aligned = attrs.bool_or("aligned", false)?;
    if aligned {
        // Before opset 16 RoiAlign knows only the unaligned mapping.
        x.need_opset(16, "an aligned RoiAlign")?;
    }
    let batch_idx = roi_batch_index(x, &boxes, 2)?;
    let out = x.out(0);
    x.node(
        "RoiAlign",
        &[&a, &boxes, &batch_idx],
        &[&out],
        vec![
            a_int("output_height", ph),
            a_int("output_width", pw),
            a_float("spatial_scale", scale),
            a_int("sampling_ratio", ratio.max(0)),
            a_str("mode", "avg"),
        ]
        .into_iter()
        .chain((x.opset >= 16).then(|| {
            a_str(
                "coordinate_transformation_mode",
                if aligned {
                    "half_pixel"
                } else {
                    "output_half_pixel"
                },
            )
        }))
        .collect(),
    );
    Ok(())
}

/// The image of each of `n_rows` (a `[1]` int64) rows listed image by
/// image, `num` (`[B]`, any integer type) of image `b`: for row `r`, how
/// many cumulative counts are `<= r`. A 1-D int64 tensor.
pub(crate) fn image_of_rows(
    x: &mut Exporter<'_>,
    n_rows: &str,
    num: &str,
) -> Result<String, ExportError> {
    let num = x.cast(num, DType::Int64)?;
    let axis0 = x.const_values(DType::Int64, &[], &[0.0])?;
    let cs = x.node1("CumSum", &[&num, &axis0], vec![]);
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let n = x.reshape(n_rows, &[]);
    let r = x.node1("Range", &[&zero, &n, &one], vec![]);
    let r = x.unsqueeze(&r, &[1]);
    let c = x.unsqueeze(&cs, &[0]);
    let ge = x.node1("GreaterOrEqual", &[&r, &c], vec![]);
    let ge = x.cast(&ge, DType::Int64)?;
    Ok(reduce(x, "ReduceSum", &ge, &[1], false))
}

/// The image each roi of `boxes` (`[R, 4]`) belongs to, as int64 `[R]`:
/// from the per-image roi counts of operand `num_operand` when present
/// (how many cumulative counts are at most the roi's index), else all 0.
pub(crate) fn roi_batch_index(
    x: &mut Exporter<'_>,
    boxes: &str,
    num_operand: usize,
) -> Result<String, ExportError> {
    let rois = x.node1("Shape", &[boxes], vec![]);
    let zero_i = x.const_i64s(&[0]);
    let one_i = x.const_i64s(&[1]);
    let n_rois = x.node1("Slice", &[&rois, &zero_i, &one_i], vec![]);
    if x.has_input(num_operand) {
        let num = x.input(num_operand)?;
        image_of_rows(x, &n_rois, &num)
    } else {
        Ok(x.node1(
            "ConstantOfShape",
            &[&n_rois],
            vec![crate::export::a_tensor(
                "value",
                crate::proto::TensorProto {
                    dims: vec![1],
                    data_type: crate::proto::DataType::Int64 as i32,
                    raw_data: 0i64.to_le_bytes().to_vec(),
                    ..Default::default()
                },
            )],
        ))
    }
}

/// `grid_sample(x, grid, mode, padding_mode, align_corners)` (opset 16+).
pub(crate) fn grid_sample(x: &mut Exporter<'_>) -> R {
    if x.opset < 16 {
        return Err(x.unsupported("GridSample needs opset 16"));
    }
    let a = x.input(0)?;
    let g = x.input(1)?;
    let attrs = x.attrs();
    let mode = attrs.str_or("mode", "bilinear")?;
    let padding = attrs.str_or("padding_mode", "zeros")?;
    let align = attrs.bool_or("align_corners", true)?;
    let mode = match (mode.as_str(), x.opset >= 20) {
        ("bilinear", true) => "linear",
        ("bicubic", true) => "cubic",
        (m, _) => m,
    }
    .to_string();
    let out = x.out(0);
    x.node(
        "GridSample",
        &[&a, &g],
        &[&out],
        vec![
            a_str("mode", &mode),
            a_str("padding_mode", &padding),
            a_int("align_corners", i64::from(align)),
        ],
    );
    Ok(())
}

/// `diag(x, offset, padding_value)` of a vector of known length.
pub(crate) fn diag(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let dims = x.in_dims(0)?;
    let attrs = x.attrs();
    let offset = attrs.i64_or("offset", 0)?;
    let pad = attrs.f64_or("padding_value", 0.0)?;
    if dims.len() != 1 || dims[0] < 0 || offset != 0 {
        return Err(x.unsupported("only a known-length vector on the main diagonal"));
    }
    let n = dims[0];
    let mut eye = vec![0.0; (n * n) as usize];
    for i in 0..n {
        eye[(i * n + i) as usize] = 1.0;
    }
    let e = x.const_values(DType::Bool, &[n, n], &eye)?;
    let row = x.unsqueeze(&a, &[0]);
    let p = x.const_scalar(d, pad)?;
    let r = x.node1("Where", &[&e, &row, &p], vec![]);
    x.finish_with(&r)
}

/// `logspace(start, stop, num, base)` of constant operands.
pub(crate) fn logspace(x: &mut Exporter<'_>) -> R {
    let d = x.out_dtype(0)?;
    let (Some(s), Some(e), Some(n), Some(b)) = (x.known(0), x.known(1), x.known(2), x.known(3))
    else {
        return Err(x.unsupported("start, stop, num and base must be constants"));
    };
    let (s, e, n, b) = (s.values[0], e.values[0], n.values[0] as i64, b.values[0]);
    if !(0..=1 << 20).contains(&n) {
        return Err(x.unsupported("num out of range"));
    }
    let step = if n > 1 { (e - s) / (n - 1) as f64 } else { 0.0 };
    let values: Vec<f64> = (0..n).map(|i| b.powf(s + step * i as f64)).collect();
    let name = x.const_values(d, &[n], &values)?;
    x.finish_with(&name)
}

/// `multiplex(inputs, index)`: row i from input `index[i]`.
pub(crate) fn multiplex(x: &mut Exporter<'_>) -> R {
    let parts = x.input_vec(0)?;
    let idx = x.input(1)?;
    let stacked: Vec<String> = parts.iter().map(|p| x.unsqueeze(p, &[0])).collect();
    let srefs: Vec<&str> = stacked.iter().map(String::as_str).collect();
    let all = x.node1("Concat", &srefs, vec![a_int("axis", 0)]);
    // [k, n, ...] → pick (index[i], i).
    let idx = x.cast(&idx, DType::Int64)?;
    let idx = x.reshape(&idx, &[-1]);
    let shape = x.node1("Shape", &[&idx], vec![]);
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let n = x.reshape(&shape, &[]);
    let rows = x.node1("Range", &[&zero, &n, &one], vec![]);
    let a = x.unsqueeze(&idx, &[1]);
    let b = x.unsqueeze(&rows, &[1]);
    let pairs = x.node1("Concat", &[&a, &b], vec![a_int("axis", 1)]);
    let r = x.node1("GatherND", &[&all, &pairs], vec![]);
    x.finish_with(&r)
}
