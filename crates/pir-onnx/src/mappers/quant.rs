//! Fake quantization (the ops quantization-aware training leaves in an
//! inference program) and the legacy dequantize ops, written out with
//! ONNX arithmetic in Paddle's order of operations, so that every value
//! rounds as Paddle's kernels round it: `QuantizeLinear` would round ties
//! to even and saturate to the integer type, while Paddle's `round_type`
//! 1 rounds ties away from zero and its fake-quantized values stay floats.
//!
//! Only inference programs (`is_test: true`) are mapped: the scale is then
//! the op's `InScale` input; in training the op measures the batch and
//! updates moving averages.

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The largest quantized magnitude: `2^(bits - 1) - 1`.
fn bin_count(x: &Exporter<'_>, bits: i64) -> Result<f64, ExportError> {
    if !(2..=32).contains(&bits) {
        return Err(x.unsupported(format!("a bit length of {bits}")));
    }
    Ok(((1i64 << (bits - 1)) - 1) as f64)
}

/// Paddle's `inverse(s)`: `1 / (s + 1e-6)` for `s <= 1e-30`, else `1 / s`.
fn inverse(x: &mut Exporter<'_>, s: &str, d: DType) -> Result<String, ExportError> {
    let one = x.const_scalar(d, 1.0)?;
    let tiny = x.const_scalar(d, 1e-30)?;
    let eps = x.const_scalar(d, 1e-6)?;
    let shifted = x.node1("Add", &[s, &eps], vec![]);
    let guarded = x.node1("Div", &[&one, &shifted], vec![]);
    let plain = x.node1("Div", &[&one, s], vec![]);
    let small = x.node1("LessOrEqual", &[s, &tiny], vec![]);
    Ok(x.node1("Where", &[&small, &guarded, &plain], vec![]))
}

/// `x` rounded half away from zero (C's `round`).
fn round_away(x: &mut Exporter<'_>, v: &str, d: DType) -> Result<String, ExportError> {
    let half = x.const_scalar(d, 0.5)?;
    let a = x.node1("Abs", &[v], vec![]);
    let a = x.node1("Add", &[&a, &half], vec![]);
    let f = x.node1("Floor", &[&a], vec![]);
    let s = x.node1("Sign", &[v], vec![]);
    Ok(x.node1("Mul", &[&s, &f], vec![]))
}

/// The quantized values of input 0 under scale input 1 (Paddle's
/// `ClipAndFakeQuantFunctor`): with `round_type` 0, `bin/s * x` rounded
/// ties to even and clipped to `[-bin - 1, bin]`; with 1, `x` clipped to
/// `[-s, s]`, then `bin/s * x` rounded ties away from zero. Returns the
/// values, the scale and `bin`.
fn quantized(x: &mut Exporter<'_>) -> Result<(String, String, String), ExportError> {
    if !x.attrs().bool_or("is_test", false)? {
        return Err(x.unsupported(
            "only inference programs (is_test): in training the scale is measured on the batch",
        ));
    }
    let d = x.in_dtype(0)?;
    if !matches!(d, DType::Float32 | DType::Float64) {
        return Err(x.unsupported(format!("a {d} input")));
    }
    let bits = x.attrs().i64_or("bit_length", 8)?;
    let bin = bin_count(x, bits)?;
    let round_type = x.attrs().i64_or("round_type", 1)?;
    let input = x.input(0)?;
    let s = x.input(1)?;
    let bin_c = x.const_scalar(d, bin)?;
    let inv = inverse(x, &s, d)?;
    let k = x.node1("Mul", &[&bin_c, &inv], vec![]);
    let q = if round_type == 0 {
        let v = x.node1("Mul", &[&k, &input], vec![]);
        let r = x.node1("Round", &[&v], vec![]);
        let low = x.const_scalar(d, -bin - 1.0)?;
        x.node1("Clip", &[&r, &low, &bin_c], vec![])
    } else {
        let neg = x.node1("Neg", &[&s], vec![]);
        let c = x.node1("Max", &[&input, &neg], vec![]);
        let c = x.node1("Min", &[&c, &s], vec![]);
        let v = x.node1("Mul", &[&k, &c], vec![]);
        round_away(x, &v, d)?
    };
    Ok((q, s, bin_c))
}

/// The state outputs after output 0 (`OutScale`, `OutState`,
/// `OutAccum`, ...) are their inputs unchanged: an inference program does
/// not update them. `pairs` maps output index to input index.
fn pass_states(x: &mut Exporter<'_>, pairs: &[(usize, usize)]) -> R {
    for &(out, input) in pairs {
        if x.result(out).is_some() && x.has_input(input) {
            let v = x.input(input)?;
            x.identity_out(out, &v);
        }
    }
    Ok(())
}

/// `fake_quantize_moving_average_abs_max` and
/// `fake_quantize_range_abs_max` at inference: the quantized values
/// (floats), the scale passed on.
pub(crate) fn fake_quantize(x: &mut Exporter<'_>) -> R {
    let (q, _, _) = quantized(x)?;
    x.identity_out(0, &q);
    // (x, in_scale, in_accum, in_state) -> (out, scale, state, accum);
    // range_abs_max: (x, in_scale, iter) -> (out, scale, scales).
    if x.op_name().ends_with("range_abs_max") {
        pass_states(x, &[(1, 1)])
    } else {
        pass_states(x, &[(1, 1), (2, 3), (3, 2)])
    }
}

/// `fake_quantize_dequantize_moving_average_abs_max` at inference: the
/// quantized values scaled back (`q * s / bin`).
pub(crate) fn fake_quantize_dequantize(x: &mut Exporter<'_>) -> R {
    let (q, s, bin) = quantized(x)?;
    let r = x.node1("Mul", &[&q, &s], vec![]);
    let r = x.node1("Div", &[&r, &bin], vec![]);
    x.identity_out(0, &r);
    pass_states(x, &[(1, 1), (2, 3), (3, 2)])
}

/// `moving_average_abs_max_scale` at inference: `x` passed through, the
/// scale its running average (`accum / state`).
pub(crate) fn moving_average_scale(x: &mut Exporter<'_>) -> R {
    if !x.attrs().bool_or("is_test", false)? {
        return Err(x.unsupported("only inference programs (is_test)"));
    }
    let a = x.input(0)?;
    x.identity_out(0, &a);
    // (x, in_accum, in_state) -> (out, scale, state, accum).
    if x.result(1).is_some() && x.has_input(1) && x.has_input(2) {
        let accum = x.input(1)?;
        let state = x.input(2)?;
        let scale = x.node1("Div", &[&accum, &state], vec![]);
        x.identity_out(1, &scale);
    }
    pass_states(x, &[(2, 2), (3, 1)])
}

/// `fake_channel_wise_dequantize_max_abs(x, scales)`: one scale per
/// channel of `quant_axis` (`x * s[c] / bin`), or with a second, single
/// scale `x * s1[c] * s2 / (bin1 * bin2)`, the channel then on axis
/// `x_num_col_dims` (1 when that is 1).
pub(crate) fn channel_dequantize(x: &mut Exporter<'_>) -> R {
    let d = x.in_dtype(0)?;
    let rank = x.in_rank(0)?;
    let scales = x.input_vec(1)?;
    let bits = x.attrs().ints_or("quant_bits", &[8])?;
    if scales.is_empty() || scales.len() > 2 || bits.len() != scales.len() {
        return Err(x.unsupported("one or two scales, each with its bit count"));
    }
    let mut max_range = 1.0;
    for &b in &bits {
        max_range *= bin_count(x, b)?;
    }
    let axis = if scales.len() == 1 {
        x.attrs().i64_or("quant_axis", 0)?
    } else {
        x.attrs().i64_or("x_num_col_dims", 1)?.max(1)
    };
    if !(0..rank).contains(&axis) {
        return Err(x.unsupported(format!("channel axis {axis} of a rank-{rank} input")));
    }
    // The per-channel scale along `axis`: [C, 1, ..., 1].
    let mut shape = vec![-1];
    shape.extend(std::iter::repeat_n(1, (rank - axis - 1) as usize));
    let input = x.input(0)?;
    let per_channel = x.reshape(&scales[0], &shape);
    let mut r = x.node1("Mul", &[&input, &per_channel], vec![]);
    if let Some(second) = scales.get(1) {
        r = x.node1("Mul", &[&r, second], vec![]);
    }
    let range = x.const_scalar(d, max_range)?;
    let r = x.node1("Div", &[&r, &range], vec![]);
    x.finish_with(&r)
}

/// `dequantize_abs_max(x, scale)`: integers to floats, `scale * x /
/// max_range`.
pub(crate) fn dequantize_abs_max(x: &mut Exporter<'_>) -> R {
    let d = x.out_dtype(0)?;
    let max_range = x.attrs().f64_or("max_range", 127.0)?;
    let input = x.input(0)?;
    let v = x.cast(&input, d)?;
    let s = x.input(1)?;
    let r = x.node1("Mul", &[&s, &v], vec![]);
    let range = x.const_scalar(d, max_range)?;
    let r = x.node1("Div", &[&r, &range], vec![]);
    x.finish_with(&r)
}

/// `dequantize_log(x, dict)`: int8 codes looked up in a 128-entry table,
/// negative codes as the negated entry at `x + 128`.
pub(crate) fn dequantize_log(x: &mut Exporter<'_>) -> R {
    let input = x.input(0)?;
    let table = x.input(1)?;
    let codes = x.cast(&input, DType::Int64)?;
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    let shift = x.const_scalar(DType::Int64, 128.0)?;
    let negative = x.node1("Less", &[&codes, &zero], vec![]);
    let shifted = x.node1("Add", &[&codes, &shift], vec![]);
    let index = x.node1("Where", &[&negative, &shifted, &codes], vec![]);
    let flat = x.reshape(&table, &[-1]);
    let v = x.node1("Gather", &[&flat, &index], vec![a_int("axis", 0)]);
    let neg = x.node1("Neg", &[&v], vec![]);
    let r = x.node1("Where", &[&negative, &neg, &v], vec![]);
    x.finish_with(&r)
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops, op_types};

    const X: &str = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[1],stop_gradient:[false]} : () -> tensor<1xf32>"#;

    fn quant_op(is_test: bool, round_type: i64) -> String {
        format!(
            r#"{X}
    (%2, %3, %4) = "pd_op.fake_quantize_range_abs_max" (%0, %1, <<NULL VALUE>>) {{bit_length:8,is_test:{is_test},round_type:{round_type},stop_gradient:[false,false,false],window_size:100}} : (tensor<-1x4xf32>, tensor<1xf32>, <<NULL TYPE>>) -> tensor<-1x4xf32>, tensor<1xf32>, <<NULL TYPE>>
    (%5) = "pd_op.fetch" (%2) {{col:0,name:"y",persistable:[true],stop_gradient:[false]}} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#
        )
    }

    #[test]
    fn ties_round_as_the_round_type_says() {
        let away = op_types(&export_ops(&quant_op(true, 1))).join(" ");
        assert!(away.contains("Floor") && !away.contains("Round"), "{away}");
        let even = op_types(&export_ops(&quant_op(true, 0))).join(" ");
        assert!(even.contains("Round") && even.contains("Clip"), "{even}");
    }

    #[test]
    fn training_programs_are_refused() {
        let err = export_at(&quant_op(false, 1), 17).expect_err("needs the batch's scale");
        assert!(err.to_string().contains("is_test"), "{err}");
    }
}
