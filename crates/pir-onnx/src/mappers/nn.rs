//! Neural-network ops: matrix products, convolutions (NCHW and NHWC),
//! pooling, normalisations, resizing, dropout, embeddings.

use pir_params::DType;

use crate::export::{a_float, a_int, a_ints, a_str, Exporter};
use crate::mappers::shape::norm_axis;
use crate::ExportError;

type R = Result<(), ExportError>;

/// `matmul(x, y, transpose_x, transpose_y)` and `bmm`.
pub(crate) fn matmul(x: &mut Exporter<'_>) -> R {
    let mut names = Vec::new();
    for (i, flag) in [(0, "transpose_x"), (1, "transpose_y")] {
        let n = x.input(i)?;
        let rank = x.in_rank(i)?;
        let t = x.attrs().bool_or(flag, false)?;
        names.push(if t && rank >= 2 {
            let mut perm: Vec<i64> = (0..rank).collect();
            perm.swap(rank as usize - 1, rank as usize - 2);
            x.node1("Transpose", &[&n], vec![a_ints("perm", &perm)])
        } else {
            n
        });
    }
    let out = x.out(0);
    x.node("MatMul", &[&names[0], &names[1]], &[&out], vec![]);
    Ok(())
}

/// The permutation from channels-last to channels-first for rank `rank`.
pub(crate) fn to_channels_first(rank: i64) -> Vec<i64> {
    let mut p = vec![0, rank - 1];
    p.extend(1..rank - 1);
    p
}

/// The permutation from channels-first to channels-last for rank `rank`.
pub(crate) fn to_channels_last(rank: i64) -> Vec<i64> {
    let mut p = vec![0];
    p.extend(2..rank);
    p.push(1);
    p
}

/// Whether a `data_format` is channels-last.
pub(crate) fn channels_last(format: &str) -> bool {
    matches!(format, "NHWC" | "NDHWC" | "NLC")
}

/// `a` (of rank `rank`) with its channels moved first when `last` (a
/// `Transpose`): the layout ONNX's convolutions, poolings, normalizations
/// and `Resize` take.
pub(crate) fn channels_first(x: &mut Exporter<'_>, a: String, rank: i64, last: bool) -> String {
    if !last {
        return a;
    }
    x.node1(
        "Transpose",
        &[&a],
        vec![a_ints("perm", &to_channels_first(rank))],
    )
}

/// `dims` permuted as [`channels_first`] permutes its value.
pub(crate) fn dims_channels_first(dims: Vec<i64>, rank: i64, last: bool) -> Vec<i64> {
    if !last {
        return dims;
    }
    to_channels_first(rank)
        .iter()
        .filter_map(|&p| dims.get(p as usize).copied())
        .collect()
}

/// Writes `r` as result 0 of the op, its channels moved back last when
/// `last` (undoing [`channels_first`]).
pub(crate) fn out_channels(x: &mut Exporter<'_>, r: String, rank: i64, last: bool) {
    let r = if last {
        x.node1(
            "Transpose",
            &[&r],
            vec![a_ints("perm", &to_channels_last(rank))],
        )
    } else {
        r
    };
    x.identity_out(0, &r);
}

/// Paddle's paddings (`[p]*n`, `[b0, e0, b1, e1, ...]` or per axis) as
/// ONNX's `pads` (begins, then ends) for `n` spatial axes.
fn onnx_pads(p: &[i64], n: usize) -> Option<Vec<i64>> {
    if p.len() == n {
        let mut out = p.to_vec();
        out.extend_from_slice(p);
        Some(out)
    } else if p.len() == 2 * n {
        let mut out: Vec<i64> = (0..n).map(|i| p[2 * i]).collect();
        out.extend((0..n).map(|i| p[2 * i + 1]));
        Some(out)
    } else if p.len() == 1 {
        Some(vec![p[0]; 2 * n])
    } else {
        None
    }
}

/// The ONNX `auto_pad` of Paddle's `padding_algorithm`, if not explicit.
fn auto_pad(algorithm: &str) -> Option<&'static str> {
    match algorithm {
        "SAME" => Some("SAME_UPPER"),
        "VALID" => Some("VALID"),
        _ => None,
    }
}

/// Paddle's `SAME` paddings for known spatial sizes (TensorFlow's rule:
/// the smaller half before), or `None` when a size is unknown.
fn same_pads(
    spatial: &[i64],
    kernel: &[i64],
    strides: &[i64],
    dilations: &[i64],
) -> Option<Vec<i64>> {
    let n = spatial.len();
    if spatial.iter().any(|&d| d < 0) || kernel.len() != n || strides.len() != n {
        return None;
    }
    let mut begins = Vec::with_capacity(n);
    let mut ends = Vec::with_capacity(n);
    for i in 0..n {
        let s = strides[i].max(1);
        let d = dilations.get(i).copied().unwrap_or(1);
        let out = (spatial[i] + s - 1) / s;
        let total = ((out - 1) * s + (kernel[i] - 1) * d + 1 - spatial[i]).max(0);
        begins.push(total / 2);
        ends.push(total - total / 2);
    }
    begins.extend(ends);
    Some(begins)
}

/// `conv2d`, `depthwise_conv2d`, `conv3d` and their transposes.
pub(crate) fn conv(x: &mut Exporter<'_>) -> R {
    let transpose = x.op_name().contains("transpose");
    let mut a = x.input(0)?;
    let w = x.input(1)?;
    let rank = x.in_rank(0)?;
    let n = (rank - 2) as usize;
    let w_dims = x.in_dims(1)?;
    let attrs = x.attrs();
    let strides = attrs.ints_or("strides", &vec![1; n])?;
    let algorithm = attrs.str_or("padding_algorithm", "EXPLICIT")?;
    // Paddle computes SAME paddings for the undilated kernel and then
    // convolves without dilation.
    let dilations = if algorithm == "SAME" {
        vec![1; n]
    } else {
        attrs.ints_or("dilations", &vec![1; n])?
    };
    let paddings = attrs.ints_or("paddings", &vec![0; n])?;
    let groups = attrs.i64_or("groups", 1)?;
    let format = attrs.str_or("data_format", "NCHW")?;
    let last = channels_last(&format);
    a = channels_first(x, a, rank, last);
    let mut onnx_attrs = vec![
        a_ints("strides", &strides),
        a_ints("dilations", &dilations),
        a_int("group", groups.max(1)),
        a_ints("kernel_shape", &w_dims[2..]),
    ];
    let in_dims = x.in_dims(0)?;
    let spatial: Vec<i64> = if last {
        in_dims[1..in_dims.len() - 1].to_vec()
    } else {
        in_dims[2..].to_vec()
    };
    let explicit_same = (algorithm == "SAME" && !transpose)
        .then(|| same_pads(&spatial, &w_dims[2..], &strides, &dilations))
        .flatten();
    match (explicit_same, auto_pad(&algorithm)) {
        (Some(p), _) => onnx_attrs.push(a_ints("pads", &p)),
        (None, Some(p)) => onnx_attrs.push(a_str("auto_pad", p)),
        (None, None) => onnx_attrs.push(a_ints(
            "pads",
            &onnx_pads(&paddings, n).ok_or_else(|| x.unsupported("paddings"))?,
        )),
    }
    let result = if transpose {
        let output_padding = attrs.ints_or("output_padding", &[])?;
        if !output_padding.is_empty() {
            onnx_attrs.push(a_ints("output_padding", &output_padding));
        }
        let sizes = x.int_array(2, "output_size")?.unwrap_or_default();
        if !sizes.is_empty() {
            // Paddle computes the paddings for the asked size; ONNX too
            // when given `output_shape` (pads then ignored).
            onnx_attrs.retain(|a| a.name != "pads" && a.name != "auto_pad");
            onnx_attrs.push(a_ints("output_shape", &sizes));
        }
        x.node1("ConvTranspose", &[&a, &w], onnx_attrs)
    } else {
        x.node1("Conv", &[&a, &w], onnx_attrs)
    };
    out_channels(x, result, rank, last);
    Ok(())
}

/// Output index `k` of `in_size` cells cut into `out_size` adaptive bins:
/// `[floor(k * in / out), ceil((k + 1) * in / out))`.
fn adaptive_bins(in_size: i64, out_size: i64) -> Vec<(i64, i64)> {
    (0..out_size)
        .map(|k| {
            let start = (k * in_size) / out_size;
            let end = ((k + 1) * in_size + out_size - 1) / out_size;
            (start, end)
        })
        .collect()
}

/// `pool2d`, `pool3d`, `max_pool2d_with_index`, `max_pool3d_with_index`.
pub(crate) fn pool(x: &mut Exporter<'_>) -> R {
    let with_index = x.op_name().contains("with_index");
    let mut a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let n = (rank - 2) as usize;
    let attrs = x.attrs();
    let kernel = match x.int_array(1, "kernel_size")? {
        Some(k) => k,
        None => attrs.ints("kernel_size")?,
    };
    let kernel = if kernel.len() == 1 {
        vec![kernel[0]; n]
    } else {
        kernel
    };
    let strides = attrs.ints_or("strides", &vec![1; n])?;
    let paddings = attrs.ints_or("paddings", &vec![0; n])?;
    let ceil_mode = attrs.bool_or("ceil_mode", false)?;
    let exclusive = attrs.bool_or("exclusive", true)?;
    let format = attrs.str_or("data_format", "NCHW")?;
    let kind = if with_index {
        "max".to_string()
    } else {
        attrs.str_or("pooling_type", "max")?
    };
    let global = attrs.bool_or("global_pooling", false)?;
    let adaptive = attrs.bool_or("adaptive", false)?;
    let algorithm = attrs.str_or("padding_algorithm", "EXPLICIT")?;
    let last = channels_last(&format);
    a = channels_first(x, a, rank, last);
    let in_dims = dims_channels_first(x.in_dims(0)?, rank, last);
    let is_max = kind == "max";
    let result = if global || (adaptive && kernel.iter().all(|&k| k == 1)) {
        let op = if is_max {
            "GlobalMaxPool"
        } else {
            "GlobalAveragePool"
        };
        x.node1(op, &[&a], vec![])
    } else if adaptive {
        let spatial = &in_dims[2..];
        if spatial.iter().any(|&d| d < 0) {
            return Err(x.unsupported("adaptive pooling of unknown spatial dims"));
        }
        if spatial.iter().zip(&kernel).all(|(&d, &k)| d % k == 0) {
            // Equal bins: a plain pooling with kernel = stride = in / out.
            let k: Vec<i64> = spatial.iter().zip(&kernel).map(|(&d, &k)| d / k).collect();
            let op = if is_max { "MaxPool" } else { "AveragePool" };
            x.node1(
                op,
                &[&a],
                vec![a_ints("kernel_shape", &k), a_ints("strides", &k)],
            )
        } else {
            adaptive_unequal(x, &a, spatial, &kernel, is_max)?
        }
    } else {
        let mut onnx_attrs = vec![
            a_ints("kernel_shape", &kernel),
            a_ints("strides", &strides),
            a_int("ceil_mode", i64::from(ceil_mode)),
        ];
        match auto_pad(&algorithm) {
            Some(p) => onnx_attrs.push(a_str("auto_pad", p)),
            None => onnx_attrs.push(a_ints(
                "pads",
                &onnx_pads(&paddings, n).ok_or_else(|| x.unsupported("paddings"))?,
            )),
        }
        if is_max {
            x.node1("MaxPool", &[&a], onnx_attrs)
        } else {
            onnx_attrs.push(a_int("count_include_pad", i64::from(!exclusive)));
            x.node1("AveragePool", &[&a], onnx_attrs)
        }
    };
    out_channels(x, result, rank, last);
    if with_index && x.p.num_results(x.op) > 1 {
        // The mask (argmax positions) is not computed; readers of it fail.
        x.no_value_info();
    }
    Ok(())
}

/// Adaptive pooling with unequal bins: one reduction per output cell,
/// concatenated (2-D and 3-D spatial sizes known).
fn adaptive_unequal(
    x: &mut Exporter<'_>,
    a: &str,
    spatial: &[i64],
    out_sizes: &[i64],
    is_max: bool,
) -> Result<String, ExportError> {
    let reduce = if is_max { "ReduceMax" } else { "ReduceMean" };
    // Pool one spatial axis at a time: each axis's bins reduce that axis
    // only, which is the same for max and (equal-weight per axis) mean.
    let mut cur = a.to_string();
    for (i, (&size, &out)) in spatial.iter().zip(out_sizes).enumerate() {
        let axis = 2 + i as i64;
        let mut cells = Vec::new();
        for (s, e) in adaptive_bins(size, out) {
            let st = x.const_i64s(&[s]);
            let en = x.const_i64s(&[e]);
            let ax = x.const_i64s(&[axis]);
            let part = x.node1("Slice", &[&cur, &st, &en, &ax], vec![]);
            cells.push(crate::mappers::index::reduce(
                x,
                reduce,
                &part,
                &[axis],
                true,
            ));
        }
        let refs: Vec<&str> = cells.iter().map(String::as_str).collect();
        cur = x.node1("Concat", &refs, vec![a_int("axis", axis)]);
    }
    Ok(cur)
}

/// `batch_norm` / `batch_norm_` (inference statistics).
pub(crate) fn batch_norm(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let mean = x.input(1)?;
    let var = x.input(2)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let eps = attrs.f64_or("epsilon", 1e-5)?;
    let format = attrs.str_or("data_format", "NCHW")?;
    let c = x.in_dims(1)?.first().copied().unwrap_or(-1);
    let d = x.in_dtype(1)?;
    let scale = if x.has_input(3) {
        x.input(3)?
    } else {
        x.const_values(d, &[c], &vec![1.0; c.max(0) as usize])?
    };
    let bias = if x.has_input(4) {
        x.input(4)?
    } else {
        x.const_values(d, &[c], &vec![0.0; c.max(0) as usize])?
    };
    let last = channels_last(&format) && rank > 2;
    a = channels_first(x, a, rank, last);
    let r = x.node1(
        "BatchNormalization",
        &[&a, &scale, &bias, &mean, &var],
        vec![a_float("epsilon", eps)],
    );
    out_channels(x, r, rank, last);
    // The statistics results are the inputs (inference does not update them).
    for i in 1..3.min(x.p.num_results(x.op)) {
        let name = x.input(i)?;
        x.alias_out(i, name);
    }
    Ok(())
}

/// `layer_norm(x, scale, bias, epsilon, begin_norm_axis)`.
pub(crate) fn layer_norm(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dims = x.in_dims(0)?;
    let rank = dims.len() as i64;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let eps = attrs.f64_or("epsilon", 1e-5)?;
    let begin = norm_axis(attrs.i64_or("begin_norm_axis", 1)?, rank);
    let norm_dims = &dims[begin as usize..];
    let known = norm_dims.iter().all(|&v| v >= 0);
    let norm_n: i64 = norm_dims.iter().product();
    // Paddle's scale and bias are flat ([prod of normalized dims]).
    let mut affine = Vec::new();
    for i in [1, 2] {
        if x.has_input(i) {
            let n = x.input(i)?;
            let nd = x.in_dtype(i)?;
            let n = if nd == d { n } else { x.cast(&n, d)? };
            affine.push(if norm_dims.len() > 1 && known {
                x.reshape(&n, norm_dims)
            } else {
                n
            });
        } else if known {
            let v = if i == 1 { 1.0 } else { 0.0 };
            affine.push(x.const_values(d, norm_dims, &vec![v; norm_n as usize])?);
        } else {
            return Err(x.unsupported("no scale/bias and unknown normalized dims"));
        }
    }
    let out = x.out(0);
    if x.opset >= 17 {
        x.node(
            "LayerNormalization",
            &[&a, &affine[0], &affine[1]],
            &[&out],
            vec![a_int("axis", begin), a_float("epsilon", eps)],
        );
        return Ok(());
    }
    // Before opset 17: mean and variance over the normalized axes.
    let axes: Vec<i64> = (begin..rank).collect();
    let mean = crate::mappers::index::reduce(x, "ReduceMean", &a, &axes, true);
    let centered = x.node1("Sub", &[&a, &mean], vec![]);
    let sq = x.node1("Mul", &[&centered, &centered], vec![]);
    let var = crate::mappers::index::reduce(x, "ReduceMean", &sq, &axes, true);
    let e = x.const_scalar(d, eps)?;
    let ve = x.node1("Add", &[&var, &e], vec![]);
    let sd = x.node1("Sqrt", &[&ve], vec![]);
    let n = x.node1("Div", &[&centered, &sd], vec![]);
    let m = x.node1("Mul", &[&n, &affine[0]], vec![]);
    x.node("Add", &[&m, &affine[1]], &[&out], vec![]);
    Ok(())
}

/// `group_norm(x, scale, bias, epsilon, groups, data_format)`, written out
/// (ONNX's GroupNormalization changed meaning between opsets 18 and 21).
pub(crate) fn group_norm(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let rank = x.in_rank(0)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let eps = attrs.f64_or("epsilon", 1e-5)?;
    let groups = attrs.i64_or("groups", 1)?;
    let format = attrs.str_or("data_format", "NCHW")?;
    let last = channels_last(&format);
    a = channels_first(x, a, rank, last);
    let shape = x.node1("Shape", &[&a], vec![]);
    let grouped = x.reshape(&a, &[0, groups, -1]);
    let n = normalize_last(x, &grouped, d, eps)?;
    let n = x.node1("Reshape", &[&n, &shape], vec![]);
    let mut bshape = vec![-1i64];
    bshape.extend(std::iter::repeat_n(1, (rank - 2) as usize));
    let mut r = n;
    if x.has_input(1) {
        let s = x.input(1)?;
        let s = x.reshape(&s, &bshape);
        r = x.node1("Mul", &[&r, &s], vec![]);
    }
    if x.has_input(2) {
        let b = x.input(2)?;
        let b = x.reshape(&b, &bshape);
        r = x.node1("Add", &[&r, &b], vec![]);
    }
    out_channels(x, r, rank, last);
    x.no_value_info();
    Ok(())
}

/// `(v - mean) / sqrt(var + eps)` over the last axis of `v`.
fn normalize_last(
    x: &mut Exporter<'_>,
    v: &str,
    d: DType,
    eps: f64,
) -> Result<String, ExportError> {
    let mean = crate::mappers::index::reduce(x, "ReduceMean", v, &[-1], true);
    let centered = x.node1("Sub", &[v, &mean], vec![]);
    let sq = x.node1("Mul", &[&centered, &centered], vec![]);
    let var = crate::mappers::index::reduce(x, "ReduceMean", &sq, &[-1], true);
    let e = x.const_scalar(d, eps)?;
    let ve = x.node1("Add", &[&var, &e], vec![]);
    let sd = x.node1("Sqrt", &[&ve], vec![]);
    Ok(x.node1("Div", &[&centered, &sd], vec![]))
}

/// `instance_norm(x, scale, bias, epsilon)`.
pub(crate) fn instance_norm(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let eps = x.attrs().f64_or("epsilon", 1e-5)?;
    let c = x.in_dims(0)?.get(1).copied().unwrap_or(-1);
    let scale = if x.has_input(1) {
        x.input(1)?
    } else if c > 0 {
        x.const_values(d, &[c], &vec![1.0; c as usize])?
    } else {
        return Err(x.unsupported("no scale and unknown channels"));
    };
    let bias = if x.has_input(2) {
        x.input(2)?
    } else if c > 0 {
        x.const_values(d, &[c], &vec![0.0; c as usize])?
    } else {
        return Err(x.unsupported("no bias and unknown channels"));
    };
    let out = x.out(0);
    x.node(
        "InstanceNormalization",
        &[&a, &scale, &bias],
        &[&out],
        vec![a_float("epsilon", eps)],
    );
    Ok(())
}

/// `dropout` in inference: identity (`upscale_in_train`) or a scale by
/// `1 - p` (`downgrade_in_infer`).
pub(crate) fn dropout(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let mode = attrs.str_or("mode", "downgrade_in_infer")?;
    let p = match x.known(2).filter(|k| k.values.len() == 1) {
        Some(k) => k.values[0],
        None if x.has_input(2) => return Err(x.unsupported("p must be constant")),
        None => attrs.f64_or("p", 0.5)?,
    };
    let out = x.out(0);
    if mode == "upscale_in_train" || p == 0.0 {
        x.node("Identity", &[&a], &[&out], vec![]);
    } else {
        let k = x.const_scalar(d, 1.0 - p)?;
        x.node("Mul", &[&a, &k], &[&out], vec![]);
    }
    Ok(())
}

/// `embedding(x, weight, padding_idx)`: rows of `padding_idx` are zeros.
pub(crate) fn embedding(x: &mut Exporter<'_>) -> R {
    let ids = x.input(0)?;
    let w = x.input(1)?;
    // The op's `padding_idx` is already made non-negative by Paddle's API;
    // -1 (any negative) means no padding row.
    let pad = x.attrs().i64_or("padding_idx", -1)?;
    if pad >= 0 && !zero_row(x, pad) {
        let g = x.node1("Gather", &[&w, &ids], vec![a_int("axis", 0)]);
        let out = x.out(0);
        let id_d = x.in_dtype(0)?;
        let w_d = x.in_dtype(1)?;
        let p = x.const_scalar(id_d, pad as f64)?;
        let eq = x.node1("Equal", &[&ids, &p], vec![]);
        let eq = x.unsqueeze(&eq, &[-1]);
        let zero = x.const_scalar(w_d, 0.0)?;
        x.node("Where", &[&eq, &zero, &g], &[&out], vec![]);
    } else {
        let out = x.out(0);
        x.node("Gather", &[&w, &ids], &[&out], vec![a_int("axis", 0)]);
    }
    Ok(())
}

/// Whether row `row` of the embedding table (operand 1) is a parameter
/// whose elements are all zero bits: then looking it up gives the zeros
/// Paddle gives for `padding_idx`, and no mask is needed (a mask inside a
/// decoding loop costs three nodes a step).
fn zero_row(x: &Exporter<'_>, row: i64) -> bool {
    let Some(def) = x.operand(1).and_then(|v| x.p.defining_op(v)) else {
        return false;
    };
    if x.p.op_name_str(def) != "builtin.parameter" {
        return false;
    }
    let attrs = crate::attrs::attrs(x.p, def);
    let Ok(name) = attrs.str_or("parameter_name", "") else {
        return false;
    };
    let Some(t) = pir_params::bound::tensor(x.p, &name) else {
        return false;
    };
    let (rows, bytes) = (t.dims().first().copied().unwrap_or(0), t.bytes());
    if rows <= 0 || row >= rows || bytes.len() % rows as usize != 0 {
        return false;
    }
    let width = bytes.len() / rows as usize;
    let start = row as usize * width;
    bytes[start..start + width].iter().all(|&b| b == 0)
}

/// `einsum(x..., equation)`.
pub(crate) fn einsum(x: &mut Exporter<'_>) -> R {
    let parts = x.input_vec(0)?;
    let eq = x.attrs().str_or("equation", "")?;
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let out = x.out(0);
    x.node(
        "Einsum",
        &refs,
        &[&out],
        vec![a_str("equation", &eq.replace(' ', ""))],
    );
    Ok(())
}

/// `add_n(x...)`.
pub(crate) fn add_n(x: &mut Exporter<'_>) -> R {
    let parts = x.input_vec(0)?;
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let out = x.out(0);
    x.node("Sum", &refs, &[&out], vec![]);
    Ok(())
}

/// `pixel_shuffle(x, upscale_factor, data_format)`.
pub(crate) fn pixel_shuffle(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let attrs = x.attrs();
    let f = attrs.i64_or("upscale_factor", 1)?;
    let format = attrs.str_or("data_format", "NCHW")?;
    if channels_last(&format) {
        return Err(x.unsupported("NHWC pixel_shuffle"));
    }
    let out = x.out(0);
    x.node(
        "DepthToSpace",
        &[&a],
        &[&out],
        vec![a_int("blocksize", f), a_str("mode", "CRD")],
    );
    Ok(())
}

/// `lrn(x, n, k, alpha, beta)`.
pub(crate) fn lrn(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let attrs = x.attrs();
    let size = attrs.i64_or("n", 5)?;
    let k = attrs.f64_or("k", 2.0)?;
    let alpha = attrs.f64_or("alpha", 1e-4)?;
    let beta = attrs.f64_or("beta", 0.75)?;
    let out = x.out(0);
    // Paddle's alpha is per element; ONNX divides alpha by size.
    x.node(
        "LRN",
        &[&a],
        &[&out],
        vec![
            a_int("size", size),
            a_float("bias", k),
            a_float("alpha", alpha * size as f64),
            a_float("beta", beta),
        ],
    );
    x.no_value_info();
    Ok(())
}
