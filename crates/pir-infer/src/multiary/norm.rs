//! `FusedLayerNormInferMeta` (Paddle's `multiary.cc`; op
//! `pd_op.fused_bias_residual_layernorm`): bias, residual add and layer
//! norm in one op, optionally quantizing the result.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `FusedLayerNormInferMeta` (x, bias, residual, norm_weight, norm_bias,
/// epsilon, residual_alpha, begin_norm_axis, quant_scale, quant_round_type,
/// quant_max_bound, quant_min_bound): `out` and `residual_out` of x's dims
/// and layout; `mean` and `variance` `[rows]` float32, rows the product (in
/// `int32`) of x's extents before `begin_norm_axis` (1 for a negative
/// axis: Paddle's loop runs from 0 up to it).
///
/// `out`'s data type: x's without norm weight and bias, or without
/// quantization (`quant_scale <= 0`); int8 or float8 for a quantization
/// bound of 127 or 448; any other bound sets none, and the builder's fresh
/// tensor is float32.
pub(crate) fn fused_layer_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let has_weight = a.opt_tensor(3)?.is_some();
    let has_bias = a.opt_tensor(4)?.is_some();
    let begin = a.int(7)?;
    let quant_scale = a.scalar(8)?.value as f32;
    let max_bound = a.scalar(10)?.value as f32;
    let mut rows: i32 = 1;
    for i in 0..begin.max(0) as usize {
        rows = rows.wrapping_mul(x.dims.at(i)? as i32);
    }
    let out_dtype = if (!has_weight && !has_bias) || quant_scale <= 0.0 {
        x.dtype
    } else if (max_bound - 127.0).abs() < 0.000_001 {
        DataType::Int8
    } else if (max_bound - 448.0).abs() < 0.000_001 {
        DataType::Float8E4M3FN
    } else {
        DataType::Float32
    };
    set(outs, 0, Meta::laid_out(out_dtype, x.dims, x.layout));
    set(outs, 1, Meta::laid_out(x.dtype, x.dims, x.layout));
    let stats = DDim::new(&[i64::from(rows)])?;
    set(outs, 2, Meta::laid_out(DataType::Float32, stats, x.layout));
    set(outs, 3, Meta::laid_out(DataType::Float32, stats, x.layout));
    Ok(())
}
