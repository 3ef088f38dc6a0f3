//! Complex tensors and Fourier transforms. ONNX runtimes compute nothing
//! on complex element types, so a complex tensor of shape `[..]` is
//! carried as a float tensor `[.., 2]` of (real, imaginary) pairs — the
//! layout of ONNX's `DFT` — from the op that makes it (`complex`,
//! `as_complex`, `fft_*`) to the ops that read it back as reals (`real`,
//! `imag`, `as_real`, `angle`, `fft_c2r`). The exporter refuses complex
//! feeds and fetches and any other op reading a complex value
//! ([`READS_PAIRS`], and the arithmetic of `complex_arith`), so the layout never meets an op that does not
//! expect it (`misplaced`, checked with the unmapped ops before anything
//! is built). The results of these ops get no `value_info`: their Paddle
//! type (complex, without the pair axis) is not the ONNX value's.

use pir_core::builtin::DenseTensorType;
use pir_core::{OpId, Program, ValueId};
use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The ops that read complex values in the pair layout.
pub(crate) const READS_PAIRS: [&str; 7] = [
    "pd_op.real",
    "pd_op.imag",
    "pd_op.conj",
    "pd_op.angle",
    "pd_op.as_real",
    "pd_op.fft_c2c",
    "pd_op.fft_c2r",
];

/// Whether `d` is a complex dtype.
pub(crate) fn is_complex(d: DType) -> bool {
    matches!(d, DType::Complex64 | DType::Complex128)
}

/// Whether `v` is a complex tensor.
fn complex_value(program: &Program, v: ValueId) -> bool {
    let ty = program.value_type(v);
    program
        .ctx()
        .type_as::<DenseTensorType>(ty)
        .and_then(|t| {
            let scalar = program
                .ctx()
                .type_as::<pir_core::builtin::ScalarType>(t.dtype)?;
            pir_params::bound::dtype_of(*scalar)
        })
        .is_some_and(is_complex)
}

/// Whether `op` meets a complex tensor where the pair layout would be
/// wrong: an operand of an op outside [`READS_PAIRS`] (a fetch included),
/// or a complex feed (its values would not be pairs).
pub(crate) fn misplaced(program: &Program, op: OpId) -> bool {
    let name = program.op_name_str(op);
    if READS_PAIRS.contains(&name)
        || super::complex_arith::BINARY.contains(&name)
        || matches!(name, "pd_op.abs" | "pd_op.cast")
    {
        return false;
    }
    if matches!(name, "pd_op.data" | "pd_op.feed") {
        return program.results(op).any(|v| complex_value(program, v));
    }
    program
        .operands(op)
        .any(|v| v.is_some_and(|v| complex_value(program, v)))
}

/// The float dtype of each half of a complex `d` (`d` itself otherwise).
pub(crate) fn part_dtype(d: DType) -> DType {
    match d {
        DType::Complex64 => DType::Float32,
        DType::Complex128 => DType::Float64,
        other => other,
    }
}

/// Element `index` (0: real, 1: imaginary) of each pair of `z`.
pub(crate) fn part(x: &mut Exporter<'_>, z: &str, index: i64) -> Result<String, ExportError> {
    let i = x.const_scalar(DType::Int64, index as f64)?;
    Ok(x.node1("Gather", &[z, &i], vec![a_int("axis", -1)]))
}

/// Result 0 is the pairs `z` (no `value_info`: see the module's doc).
pub(crate) fn pairs_out(x: &mut Exporter<'_>, z: &str) -> R {
    x.no_value_info();
    x.finish_with(z)
}

/// `complex(re, im)`: the pairs.
pub(crate) fn complex(x: &mut Exporter<'_>) -> R {
    let re = x.input(0)?;
    let im = x.input(1)?;
    let re = x.unsqueeze(&re, &[-1]);
    let im = x.unsqueeze(&im, &[-1]);
    // Inputs of different shapes broadcast against each other (`Expand`
    // broadcasts both ways).
    let im_shape = x.node1("Shape", &[&im], vec![]);
    let re = x.node1("Expand", &[&re, &im_shape], vec![]);
    let re_shape = x.node1("Shape", &[&re], vec![]);
    let im = x.node1("Expand", &[&im, &re_shape], vec![]);
    let z = x.node1("Concat", &[&re, &im], vec![a_int("axis", -1)]);
    pairs_out(x, &z)
}

/// `as_complex(x)`: a float `[.., 2]` is already the pair layout.
pub(crate) fn as_complex(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    pairs_out(x, &a)
}

/// `as_real(z)`: the pairs themselves, now a float tensor.
pub(crate) fn as_real(x: &mut Exporter<'_>) -> R {
    let z = x.input(0)?;
    x.finish_with(&z)
}

/// `real(z)` and `imag(z)`.
pub(crate) fn real_imag(x: &mut Exporter<'_>) -> R {
    let z = x.input(0)?;
    let index = i64::from(x.op_name() == "pd_op.imag");
    let r = part(x, &z, index)?;
    x.finish_with(&r)
}

/// `conj(z)`: the imaginary halves negated (a real input unchanged).
pub(crate) fn conj(x: &mut Exporter<'_>) -> R {
    let z = x.input(0)?;
    let d = x.in_dtype(0)?;
    if !is_complex(d) {
        x.identity_out(0, &z);
        return Ok(());
    }
    let flip = x.const_values(part_dtype(d), &[2], &[1.0, -1.0])?;
    let r = x.node1("Mul", &[&z, &flip], vec![]);
    pairs_out(x, &r)
}

/// `angle(z)`: `atan2(imag, real)`; of a real input, 0 or pi by its sign.
pub(crate) fn angle(x: &mut Exporter<'_>) -> R {
    let z = x.input(0)?;
    let d = x.in_dtype(0)?;
    let f = part_dtype(d);
    let (re, im) = if is_complex(d) {
        (part(x, &z, 0)?, part(x, &z, 1)?)
    } else {
        let zero = x.node1("Sub", &[&z, &z], vec![]);
        (z, zero)
    };
    let r = atan2(x, &im, &re, f)?;
    x.finish_with(&r)
}

/// `atan2(y, x)` from `Atan(y / x)` and the quadrant.
fn atan2(x: &mut Exporter<'_>, y: &str, xv: &str, d: DType) -> Result<String, ExportError> {
    let pi = std::f64::consts::PI;
    let zero = x.const_scalar(d, 0.0)?;
    let c_pi = x.const_scalar(d, pi)?;
    let c_half = x.const_scalar(d, pi / 2.0)?;
    let c_nhalf = x.const_scalar(d, -pi / 2.0)?;
    let q = x.node1("Div", &[y, xv], vec![]);
    let a = x.node1("Atan", &[&q], vec![]);
    let up = x.node1("Add", &[&a, &c_pi], vec![]);
    let down = x.node1("Sub", &[&a, &c_pi], vec![]);
    let y_nonneg = x.node1("GreaterOrEqual", &[y, &zero], vec![]);
    let left = x.node1("Where", &[&y_nonneg, &up, &down], vec![]);
    let x_neg = x.node1("Less", &[xv, &zero], vec![]);
    let r = x.node1("Where", &[&x_neg, &left, &a], vec![]);
    // On the imaginary axis: pi/2, -pi/2 or 0.
    let y_pos = x.node1("Greater", &[y, &zero], vec![]);
    let y_neg = x.node1("Less", &[y, &zero], vec![]);
    let below = x.node1("Where", &[&y_neg, &c_nhalf, &zero], vec![]);
    let axis = x.node1("Where", &[&y_pos, &c_half, &below], vec![]);
    let x_zero = x.node1("Equal", &[xv, &zero], vec![]);
    Ok(x.node1("Where", &[&x_zero, &axis, &r], vec![]))
}

/// One ONNX `DFT` of the pairs `z` along `axis`.
fn dft(
    x: &mut Exporter<'_>,
    z: &str,
    axis: i64,
    inverse: bool,
    onesided: bool,
) -> Result<String, ExportError> {
    x.need_opset(17, "a Fourier transform (DFT)")?;
    let mut attrs = vec![
        a_int("inverse", i64::from(inverse)),
        a_int("onesided", i64::from(onesided)),
    ];
    if x.opset >= 20 {
        let ax = x.const_scalar(DType::Int64, axis as f64)?;
        Ok(x.node1("DFT", &[z, "", &ax], attrs))
    } else {
        attrs.push(a_int("axis", axis));
        Ok(x.node1("DFT", &[z], attrs))
    }
}

/// The factor that turns ONNX's scaling (none forward, `1/n` inverse)
/// into Paddle's `normalization` for a transform of `n` points.
fn rescale(x: &Exporter<'_>, norm: &str, forward: bool, n: f64) -> Result<f64, ExportError> {
    let paddle = match (norm, forward) {
        ("backward", true) | ("forward", false) => 1.0,
        ("backward", false) | ("forward", true) => 1.0 / n,
        ("ortho", _) => 1.0 / n.sqrt(),
        _ => return Err(x.unsupported(format!("normalization {norm:?}"))),
    };
    let onnx = if forward { 1.0 } else { 1.0 / n };
    Ok(paddle / onnx)
}

/// The transformed axes (normalised on `rank`) and their known lengths in
/// `dims`.
fn fft_axes(x: &Exporter<'_>, dims: &[i64]) -> Result<Vec<(i64, i64)>, ExportError> {
    let rank = dims.len() as i64;
    let axes = x.attrs().ints_or("axes", &[])?;
    if axes.is_empty() {
        return Err(x.unsupported("no axes"));
    }
    axes.iter()
        .map(|&a| {
            let a = if a < 0 { a + rank } else { a };
            match usize::try_from(a).ok().and_then(|i| dims.get(i)) {
                Some(&n) if n > 0 => Ok((a, n)),
                _ => Err(x.unsupported("transformed axes of known length")),
            }
        })
        .collect()
}

/// `z` scaled from ONNX's normalization to Paddle's `norm` for a
/// transform of `n` points (unchanged when they agree).
fn normalized(
    x: &mut Exporter<'_>,
    z: &str,
    d: DType,
    norm: &str,
    forward: bool,
    n: f64,
) -> Result<String, ExportError> {
    let factor = rescale(x, norm, forward, n)?;
    if factor == 1.0 {
        return Ok(z.to_string());
    }
    let c = x.const_scalar(d, factor)?;
    Ok(x.node1("Mul", &[z, &c], vec![]))
}

/// `fft_c2c(z, axes, normalization, forward)`.
pub(crate) fn fft_c2c(x: &mut Exporter<'_>) -> R {
    let mut z = x.input(0)?;
    let d = part_dtype(x.in_dtype(0)?);
    let dims = x.in_dims(0)?;
    let forward = x.attrs().bool_or("forward", true)?;
    let norm = x.attrs().str_or("normalization", "backward")?;
    let axes = fft_axes(x, &dims)?;
    for &(a, _) in &axes {
        z = dft(x, &z, a, !forward, false)?;
    }
    let n: f64 = axes.iter().map(|&(_, n)| n as f64).product();
    let r = normalized(x, &z, d, &norm, forward, n)?;
    pairs_out(x, &r)
}

/// `fft_r2c(x, axes, normalization, forward, onesided)`: the last axis
/// first (onesided: its first `n/2 + 1` points), then the others.
pub(crate) fn fft_r2c(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let dims = x.in_dims(0)?;
    let forward = x.attrs().bool_or("forward", true)?;
    let onesided = x.attrs().bool_or("onesided", true)?;
    let norm = x.attrs().str_or("normalization", "backward")?;
    let axes = fft_axes(x, &dims)?;
    if !forward {
        return Err(x.unsupported("an inverse real-to-complex transform"));
    }
    let mut z = x.unsqueeze(&a, &[-1]);
    let (&(last, _), rest) = axes.split_last().ok_or_else(|| x.unsupported("no axes"))?;
    z = dft(x, &z, last, false, onesided)?;
    for &(ax, _) in rest {
        z = dft(x, &z, ax, false, false)?;
    }
    let n: f64 = axes.iter().map(|&(_, n)| n as f64).product();
    let r = normalized(x, &z, d, &norm, true, n)?;
    pairs_out(x, &r)
}

/// `fft_c2r(z, axes, normalization, forward, last_dim_size)`: inverse
/// transforms of the other axes, then the last axis's full spectrum
/// rebuilt from its first half (entry `k > n/2` is the conjugate of entry
/// `n - k`), transformed back, and its real part.
pub(crate) fn fft_c2r(x: &mut Exporter<'_>) -> R {
    let mut z = x.input(0)?;
    let d = part_dtype(x.in_dtype(0)?);
    let dims = x.in_dims(0)?;
    let forward = x.attrs().bool_or("forward", false)?;
    let norm = x.attrs().str_or("normalization", "backward")?;
    let axes = fft_axes(x, &dims)?;
    let (&(last, half_len), rest) = axes.split_last().ok_or_else(|| x.unsupported("no axes"))?;
    let n_out = match x.attrs().i64_or("last_dim_size", 0)? {
        n if n > 0 => n,
        _ => 2 * (half_len - 1),
    };
    if n_out < 1 || half_len < n_out / 2 + 1 || n_out > 1 << 24 {
        return Err(x.unsupported(format!(
            "an output of {n_out} points from {half_len} frequencies"
        )));
    }
    for &(ax, _) in rest {
        z = dft(x, &z, ax, !forward, false)?;
    }
    let h = n_out / 2;
    let index: Vec<i64> = (0..n_out)
        .map(|k| if k <= h { k } else { n_out - k })
        .collect();
    let idx = x.const_i64s(&index);
    let full = x.node1("Gather", &[&z, &idx], vec![a_int("axis", last)]);
    // Conjugate the mirrored entries: [n, 1, .., 1, 2] of (1, ±1).
    let rank = dims.len() as i64;
    let mut mask_dims = vec![n_out];
    mask_dims.extend(std::iter::repeat_n(1, (rank - last - 1) as usize));
    mask_dims.push(2);
    let mask: Vec<f64> = (0..n_out)
        .flat_map(|k| [1.0, if k <= h { 1.0 } else { -1.0 }])
        .collect();
    let mask = x.const_values(d, &mask_dims, &mask)?;
    let full = x.node1("Mul", &[&full, &mask], vec![]);
    let back = dft(x, &full, last, !forward, false)?;
    let re = part(x, &back, 0)?;
    let n: f64 = rest.iter().map(|&(_, n)| n as f64).product::<f64>() * n_out as f64;
    let r = normalized(x, &re, d, &norm, forward, n)?;
    x.finish_with(&r)
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops, op_types};

    #[test]
    fn a_real_fft_and_its_inverse_go_through_dft() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>
    (%1) = "pd_op.fft_r2c" (%0) {axes:[1],forward:true,normalization:"backward",onesided:true,stop_gradient:[false]} : (tensor<-1x8xf32>) -> tensor<-1x5xc64>
    (%2) = "pd_op.fft_c2r" (%1) {axes:[1],forward:false,last_dim_size:0,normalization:"backward",stop_gradient:[false]} : (tensor<-1x5xc64>) -> tensor<-1x8xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>"#,
        );
        let dfts = op_types(&g).iter().filter(|t| **t == "DFT").count();
        assert_eq!(dfts, 2);
    }

    #[test]
    fn complex_values_do_not_reach_other_ops() {
        let err = export_at(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>
    (%1) = "pd_op.complex" (%0, %0) {stop_gradient:[false]} : (tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xc64>
    (%2) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<-1x8xc64>) -> tensor<-1x8xc64>
    (%3) = "pd_op.real" (%2) {stop_gradient:[false]} : (tensor<-1x8xc64>) -> tensor<-1x8xf32>
    (%4) = "pd_op.fetch" (%3) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>"#,
            17,
        )
        .expect_err("exp of a complex value has no mapping");
        assert!(err.to_string().contains("complex"), "{err}");
    }
}
