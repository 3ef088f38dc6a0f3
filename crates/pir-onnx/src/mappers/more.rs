//! More vision, loss and quantization ops found in published Paddle 2.x
//! models: `crop`, `unique`, `temporal_shift`, `unfold`, `affine_grid`,
//! the KL-divergence, NLL and softmax cross-entropy losses,
//! `clip_by_norm`, `fill`, `isclose`/`allclose`, `cross`, and the
//! quantize/dequantize pairs.

use pir_params::DType;

use crate::export::{a_int, a_ints, a_str, Exporter};
use crate::mappers::index::reduce;
use crate::mappers::shape::norm_axis;
use crate::ExportError;

type R = Result<(), ExportError>;

/// `crop(x, shape, offsets)`: a slice of every axis.
pub(crate) fn crop(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let offsets = x.int_array(2, "offsets")?;
    let shape = x.int_array(1, "shape")?;
    let axes: Vec<i64> = (0..rank).collect();
    let ax = x.const_i64s(&axes);
    let (starts, ends) = match (offsets, shape) {
        (Some(o), Some(s)) => {
            let ends: Vec<i64> = o
                .iter()
                .zip(&s)
                .map(|(&o, &s)| if s < 0 { i64::MAX } else { o + s })
                .collect();
            (x.const_i64s(&o), x.const_i64s(&ends))
        }
        _ => {
            let o = x.int_array_input(2, "offsets")?;
            let s = x.int_array_input(1, "shape")?;
            let e = x.node1("Add", &[&o, &s], vec![]);
            (o, e)
        }
    };
    let r = x.node1("Slice", &[&a, &starts, &ends, &ax], vec![]);
    x.finish_with(&r)
}

/// `unique(x)` of the flattened input: sorted values, first indices,
/// inverse indices, counts.
pub(crate) fn unique(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let axes = x.attrs().ints_or("axis", &[])?;
    if !axes.is_empty() {
        return Err(x.unsupported("unique along an axis"));
    }
    let flat = x.reshape(&a, &[-1]);
    let outs: Vec<String> = (0..4).map(|_| x.tmp()).collect();
    let refs: Vec<&str> = outs.iter().map(String::as_str).collect();
    x.node("Unique", &[&flat], &refs, vec![a_int("sorted", 1)]);
    for (i, o) in outs.iter().enumerate() {
        if i >= x.p.num_results(x.op) {
            break;
        }
        let d = x.out_dtype(i)?;
        let v = if i == 0 || d == DType::Int64 {
            o.clone()
        } else {
            x.cast(o, d)?
        };
        let out = x.out(i);
        x.node("Identity", &[&v], &[&out], vec![]);
    }
    x.no_value_info();
    Ok(())
}

/// `temporal_shift(x, seg_num, shift_ratio)`: the first `C * ratio`
/// channels from the previous frame, the next as many from the next frame.
pub(crate) fn temporal_shift(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dims = x.in_dims(0)?;
    let attrs = x.attrs();
    let t = attrs.i64_or("seg_num", 1)?;
    let ratio = attrs.f64_or("shift_ratio", 0.25)?;
    if attrs.str_or("data_format", "NCHW")? != "NCHW" || dims.len() != 4 {
        return Err(x.unsupported("only NCHW"));
    }
    let (c, h, w) = (dims[1], dims[2], dims[3]);
    if c < 0 || h < 0 || w < 0 {
        return Err(x.unsupported("channels and spatial sizes must be known"));
    }
    let c1 = (c as f64 * ratio) as i64;
    let c2 = (c as f64 * 2.0 * ratio) as i64;
    let v = x.reshape(&a, &[-1, t, c, h, w]);
    let pads = x.const_i64s(&[0, 1, 0, 0, 0, 0, 1, 0, 0, 0]);
    let padded = x.node1("Pad", &[&v, &pads], vec![]);
    let slice = |x: &mut Exporter<'_>, src: &str, t0: i64, t1: i64, ca: i64, cb: i64| {
        let s = x.const_i64s(&[t0, ca]);
        let e = x.const_i64s(&[t1, cb]);
        let ax = x.const_i64s(&[1, 2]);
        x.node1("Slice", &[src, &s, &e, &ax], vec![])
    };
    let prev = slice(x, &padded, 0, t, 0, c1);
    let next = slice(x, &padded, 2, t + 2, c1, c2);
    let keep = slice(x, &v, 0, t, c2, c);
    let cat = x.node1("Concat", &[&prev, &next, &keep], vec![a_int("axis", 2)]);
    let r = x.reshape(&cat, &[-1, c, h, w]);
    x.finish_with(&r)
}

/// The `[c * kh * kw, 1, kh, kw]` kernels of im2col and col2im as grouped
/// convolutions: kernel `ch * kh * kw + pos` is 1 at position `pos` alone.
pub(crate) fn one_hot_kernels(
    x: &mut Exporter<'_>,
    d: DType,
    c: i64,
    k: &[i64],
) -> Result<String, ExportError> {
    let kk = k[0] * k[1];
    if c * kk * kk > 1 << 24 {
        return Err(x.unsupported("too many kernel positions"));
    }
    let mut w = vec![0.0; (c * kk * kk) as usize];
    for ch in 0..c {
        for pos in 0..kk {
            let o = ch * kk + pos;
            w[(o * kk + pos) as usize] = 1.0;
        }
    }
    x.const_values(d, &[c * kk, 1, k[0], k[1]], &w)
}

/// `unfold(x, kernel_sizes, strides, paddings, dilations)` (im2col): a
/// grouped convolution with one-hot kernels, one output channel per
/// (channel, kernel position).
pub(crate) fn unfold(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let c = x.in_dims(0)?.get(1).copied().unwrap_or(-1);
    if c <= 0 {
        return Err(x.unsupported("the channel count must be known"));
    }
    let attrs = x.attrs();
    let k = attrs.ints("kernel_sizes")?;
    let strides = attrs.ints_or("strides", &[1, 1])?;
    let p = attrs.ints_or("paddings", &[0, 0, 0, 0])?;
    let dil = attrs.ints_or("dilations", &[1, 1])?;
    if k.len() != 2 || p.len() != 4 {
        return Err(x.unsupported("2-D kernels and 4 paddings"));
    }
    let kk = k[0] * k[1];
    let weight = one_hot_kernels(x, d, c, &k)?;
    let conv = x.node1(
        "Conv",
        &[&a, &weight],
        vec![
            a_ints("kernel_shape", &k),
            a_ints("strides", &strides),
            a_ints("dilations", &dil),
            a_ints("pads", &[p[0], p[1], p[2], p[3]]),
            a_int("group", c),
        ],
    );
    let r = x.reshape(&conv, &[0, c * kk, -1]);
    x.finish_with(&r)
}

/// `affine_grid(theta, output_shape, align_corners)` for a known output
/// size: the base grid is a constant, the grid `base @ theta^T`.
pub(crate) fn affine_grid(x: &mut Exporter<'_>) -> R {
    let theta = x.input(0)?;
    let d = x.in_dtype(0)?;
    let shape = x
        .int_array(1, "output_shape")?
        .ok_or_else(|| x.unsupported("output_shape must be constant"))?;
    let align = x.attrs().bool_or("align_corners", true)?;
    if shape.len() != 4 {
        return Err(x.unsupported("only 2-D grids"));
    }
    let (h, w) = (shape[2], shape[3]);
    if h <= 0 || w <= 0 || h * w > 1 << 22 {
        return Err(x.unsupported("grid size out of range"));
    }
    let coord = |i: i64, n: i64| -> f64 {
        if align {
            if n == 1 {
                0.0
            } else {
                -1.0 + 2.0 * i as f64 / (n - 1) as f64
            }
        } else {
            (2.0 * i as f64 + 1.0) / n as f64 - 1.0
        }
    };
    let mut base = Vec::with_capacity((h * w * 3) as usize);
    for i in 0..h {
        for j in 0..w {
            base.extend_from_slice(&[coord(j, w), coord(i, h), 1.0]);
        }
    }
    let base = x.const_values(d, &[1, h * w, 3], &base)?;
    let tt = x.node1("Transpose", &[&theta], vec![a_ints("perm", &[0, 2, 1])]);
    let g = x.node1("MatMul", &[&base, &tt], vec![]);
    let r = x.reshape(&g, &[0, h, w, 2]);
    x.finish_with(&r)
}

/// `kldiv_loss(x, label, reduction, log_target)`.
pub(crate) fn kldiv_loss(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let l = x.input(1)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let reduction = attrs.str_or("reduction", "mean")?;
    let log_target = attrs.bool_or("log_target", false)?;
    let zero = x.const_scalar(d, 0.0)?;
    let loss = if log_target {
        let e = x.node1("Exp", &[&l], vec![]);
        let diff = x.node1("Sub", &[&l, &a], vec![]);
        x.node1("Mul", &[&e, &diff], vec![])
    } else {
        let pos = x.node1("Greater", &[&l, &zero], vec![]);
        let one = x.const_scalar(d, 1.0)?;
        let safe = x.node1("Where", &[&pos, &l, &one], vec![]);
        let lg = x.node1("Log", &[&safe], vec![]);
        let diff = x.node1("Sub", &[&lg, &a], vec![]);
        let m = x.node1("Mul", &[&l, &diff], vec![]);
        x.node1("Where", &[&pos, &m, &zero], vec![])
    };
    let r = match reduction.as_str() {
        "none" => loss,
        "sum" => reduce(x, "ReduceSum", &loss, &[], false),
        "mean" => reduce(x, "ReduceMean", &loss, &[], false),
        "batchmean" => {
            let s = reduce(x, "ReduceSum", &loss, &[], false);
            let shape = x.node1("Shape", &[&a], vec![]);
            let z = x.const_i64s(&[0]);
            let o = x.const_i64s(&[1]);
            let n = x.node1("Slice", &[&shape, &z, &o], vec![]);
            let n = x.cast(&n, d)?;
            let n = x.reshape(&n, &[]);
            x.node1("Div", &[&s, &n], vec![])
        }
        other => return Err(x.unsupported(format!("reduction {other}"))),
    };
    let dims = x.out_dims(0)?;
    let r = if reduction != "none" && dims.len() == 1 {
        x.reshape(&r, &[1])
    } else {
        r
    };
    x.finish_with(&r)
}

/// `nll_loss(input, label, weight, ignore_index, reduction)`.
pub(crate) fn nll_loss(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let l = x.input(1)?;
    let l = x.cast(&l, DType::Int64)?;
    let attrs = x.attrs();
    let ignore = attrs.i64_or("ignore_index", -100)?;
    let reduction = attrs.str_or("reduction", "mean")?;
    let mut inputs = vec![a, l];
    if x.has_input(2) {
        inputs.push(x.input(2)?);
    }
    let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let r = x.node1(
        "NegativeLogLikelihoodLoss",
        &refs,
        vec![
            a_int("ignore_index", ignore),
            a_str("reduction", &reduction),
        ],
    );
    let dims = x.out_dims(0)?;
    let r = if reduction != "none" && dims.len() == 1 {
        x.reshape(&r, &[1])
    } else {
        r
    };
    x.finish_with(&r)
}

/// `cross_entropy_with_softmax(input, label, soft_label, use_softmax,
/// ignore_index, axis)`: the softmax and the loss (kept axis).
pub(crate) fn softmax_cross_entropy(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let l = x.input(1)?;
    let d = x.in_dtype(0)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let soft = attrs.bool_or("soft_label", false)?;
    let use_softmax = attrs.bool_or("use_softmax", true)?;
    let ignore = attrs.i64_or("ignore_index", -100)?;
    let axis = norm_axis(attrs.i64_or("axis", -1)?, rank);
    let (sm, ls) = if use_softmax {
        (
            x.node1("Softmax", &[&a], vec![a_int("axis", axis)]),
            x.node1("LogSoftmax", &[&a], vec![a_int("axis", axis)]),
        )
    } else {
        (a.clone(), x.node1("Log", &[&a], vec![]))
    };
    let loss = if soft {
        let m = x.node1("Mul", &[&l, &ls], vec![]);
        let s = reduce(x, "ReduceSum", &m, &[axis], true);
        x.node1("Neg", &[&s], vec![])
    } else {
        let li = x.cast(&l, DType::Int64)?;
        let ig = x.const_scalar(DType::Int64, ignore as f64)?;
        let is_ignored = x.node1("Equal", &[&li, &ig], vec![]);
        let zero_i = x.const_scalar(DType::Int64, 0.0)?;
        let safe = x.node1("Where", &[&is_ignored, &zero_i, &li], vec![]);
        let picked = x.node1("GatherElements", &[&ls, &safe], vec![a_int("axis", axis)]);
        let neg = x.node1("Neg", &[&picked], vec![]);
        let zero = x.const_scalar(d, 0.0)?;
        x.node1("Where", &[&is_ignored, &zero, &neg], vec![])
    };
    x.identity_out(0, &sm);
    x.identity_out(1, &loss);
    Ok(())
}

/// `clip_by_norm(x, max_norm)`: x scaled down to L2 norm `max_norm`.
pub(crate) fn clip_by_norm(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let max_norm = x.attrs().f64_or("max_norm", 1.0)?;
    let n = reduce(x, "ReduceL2", &a, &[], false);
    let m = x.const_scalar(d, max_norm)?;
    let denom = x.node1("Max", &[&n, &m], vec![]);
    let k = x.node1("Div", &[&m, &denom], vec![]);
    let r = x.node1("Mul", &[&a, &k], vec![]);
    x.finish_with(&r)
}

/// `fill(x, value)`: x's shape filled with `value`.
pub(crate) fn fill(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let v = match x.known(1).and_then(|k| k.values.first().copied()) {
        Some(v) => x.const_scalar(d, v)?,
        None => {
            let v = x.input(1)?;
            let v = x.cast(&v, d)?;
            x.reshape(&v, &[])
        }
    };
    let s = x.node1("Shape", &[&a], vec![]);
    let r = x.node1("Expand", &[&v, &s], vec![]);
    x.finish_with(&r)
}

/// A scalar operand (known) or attribute `name`, as a number.
fn number(x: &Exporter<'_>, i: usize, name: &str, default: f64) -> Result<f64, ExportError> {
    match x.known(i).and_then(|k| k.values.first().copied()) {
        Some(v) => Ok(v),
        None if x.has_input(i) => Err(x.unsupported(format!("{name} must be constant"))),
        None => x.attrs().f64_or(name, default),
    }
}

/// `isclose` / `allclose(x, y, rtol, atol, equal_nan)`.
pub(crate) fn isclose(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let d = x.in_dtype(0)?;
    let rtol = number(x, 2, "rtol", 1e-5)?;
    let atol = number(x, 3, "atol", 1e-8)?;
    let equal_nan = x.attrs().bool_or("equal_nan", false)?;
    let diff = x.node1("Sub", &[&a, &b], vec![]);
    let diff = x.node1("Abs", &[&diff], vec![]);
    let bb = x.node1("Abs", &[&b], vec![]);
    let r = x.const_scalar(d, rtol)?;
    let t = x.const_scalar(d, atol)?;
    let tol = x.node1("Mul", &[&bb, &r], vec![]);
    let tol = x.node1("Add", &[&tol, &t], vec![]);
    let mut close = x.node1("LessOrEqual", &[&diff, &tol], vec![]);
    if equal_nan {
        let na = x.node1("IsNaN", &[&a], vec![]);
        let nb = x.node1("IsNaN", &[&b], vec![]);
        let both = x.node1("And", &[&na, &nb], vec![]);
        close = x.node1("Or", &[&close, &both], vec![]);
    }
    let r = if x.op_name() == "pd_op.allclose" {
        let i = x.cast(&close, DType::Int32)?;
        let m = reduce(x, "ReduceMin", &i, &[], false);
        let m = x.cast(&m, DType::Bool)?;
        let dims = x.out_dims(0)?;
        if dims.len() == 1 {
            x.reshape(&m, &[1])
        } else {
            m
        }
    } else {
        close
    };
    x.finish_with(&r)
}

/// `cross(x, y, axis)`: the 3-vector cross product along `axis` (9: the
/// first axis of size 3).
pub(crate) fn cross(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let dims = x.in_dims(0)?;
    let axis = x.attrs().i64_or("axis", 9)?;
    let axis = if axis == 9 {
        dims.iter()
            .position(|&d| d == 3)
            .ok_or_else(|| x.unsupported("no axis of size 3"))? as i64
    } else {
        norm_axis(axis, dims.len() as i64)
    };
    let part = |x: &mut Exporter<'_>, v: &str, i: i64| {
        let s = x.const_i64s(&[i]);
        let e = x.const_i64s(&[i + 1]);
        let ax = x.const_i64s(&[axis]);
        x.node1("Slice", &[v, &s, &e, &ax], vec![])
    };
    let (a0, a1, a2) = (part(x, &a, 0), part(x, &a, 1), part(x, &a, 2));
    let (b0, b1, b2) = (part(x, &b, 0), part(x, &b, 1), part(x, &b, 2));
    let mut comps = Vec::new();
    for (p, q, r, s) in [
        (&a1, &b2, &a2, &b1),
        (&a2, &b0, &a0, &b2),
        (&a0, &b1, &a1, &b0),
    ] {
        let m1 = x.node1("Mul", &[p, q], vec![]);
        let m2 = x.node1("Mul", &[r, s], vec![]);
        comps.push(x.node1("Sub", &[&m1, &m2], vec![]));
    }
    let refs: Vec<&str> = comps.iter().map(String::as_str).collect();
    let r = x.node1("Concat", &refs, vec![a_int("axis", axis)]);
    x.finish_with(&r)
}

/// `fake_dequantize_max_abs(x, scale, max_range)`: `x * scale / max_range`.
pub(crate) fn fake_dequantize(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let s = x.input(1)?;
    let d = x.in_dtype(0)?;
    let range = x.attrs().f64_or("max_range", 1.0)?;
    let k = x.const_scalar(d, 1.0 / range)?;
    let m = x.node1("Mul", &[&a, &s], vec![]);
    let r = x.node1("Mul", &[&m, &k], vec![]);
    x.finish_with(&r)
}

/// `quantize_linear` / `dequantize_linear` in inference: values kept as
/// floats, `round(x / scale * bin)` clipped, or `x * scale / bin`, with a
/// per-channel scale along `quant_axis`.
pub(crate) fn quant_linear(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let bits = attrs.i64_or("bit_length", 8)?;
    let qmin = attrs.f64_or("qmin", -128.0)?;
    let qmax = attrs.f64_or("qmax", 127.0)?;
    let round_type = attrs.i64_or("round_type", 0)?;
    let axis = attrs.i64_or("quant_axis", 0)?;
    let bin = ((1i64 << (bits - 1)) - 1) as f64;
    let s = x.input(1)?;
    let s = x.cast(&s, d)?;
    let channels = x.in_dims(1)?.iter().product::<i64>();
    let s = if channels > 1 && rank > 0 {
        let mut shape = vec![1i64; rank as usize];
        shape[norm_axis(axis, rank) as usize] = -1;
        x.reshape(&s, &shape)
    } else {
        x.reshape(&s, &[])
    };
    let k = x.const_scalar(d, bin)?;
    let r = if x.op_name().starts_with("pd_op.quantize") {
        let q = x.node1("Div", &[&a, &s], vec![]);
        let q = x.node1("Mul", &[&q, &k], vec![]);
        let q = if round_type == 0 {
            x.node1("Round", &[&q], vec![])
        } else {
            let half = x.const_scalar(d, 0.5)?;
            let sg = x.node1("Sign", &[&q], vec![]);
            let ab = x.node1("Abs", &[&q], vec![]);
            let ab = x.node1("Add", &[&ab, &half], vec![]);
            let f = x.node1("Floor", &[&ab], vec![]);
            x.node1("Mul", &[&sg, &f], vec![])
        };
        // Ties to even clip to [qmin, qmax]; the older ties-away rounding
        // to the symmetric [-bin, bin].
        let (lo, hi) = if round_type == 0 {
            (qmin, qmax)
        } else {
            (-bin, bin)
        };
        let lo = x.const_scalar(d, lo)?;
        let hi = x.const_scalar(d, hi)?;
        x.node1("Clip", &[&q, &lo, &hi], vec![])
    } else {
        let m = x.node1("Mul", &[&a, &s], vec![]);
        x.node1("Div", &[&m, &k], vec![])
    };
    x.finish_with(&r)
}
