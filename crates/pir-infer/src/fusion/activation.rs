//! Fused activations: `FusedBiasActInferMeta` (`fused_bias_act`).

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "FusedBiasActInferMeta" => fused_bias_act,
        _ => return None,
    })
}

/// Paddle's check that `m` has the data type `compute_dtype` names
/// (`bf16`, `fp16`, `fp32`; any other name checks nothing).
fn check_compute_dtype(m: &Meta, name: &str, compute_dtype: &str) -> Result<(), Bad> {
    let want = match compute_dtype {
        "bf16" => DataType::BFloat16,
        "fp16" => DataType::Float16,
        "fp32" => DataType::Float32,
        _ => return Ok(()),
    };
    if m.dtype != want {
        return Err(Bad(format!(
            "Input({name}) dtype must be the same with Attr(compute_dtype)"
        )));
    }
    Ok(())
}

/// The quantized type `quant_max_bound` selects (127: int8, 448: float8
/// e4m3fn); `None` leaves the result's type as built.
fn quant_dtype(max_bound: f64) -> Option<DataType> {
    // Paddle compares the float attribute in single precision.
    let b = max_bound as f32;
    if (b - 127.0).abs() < 0.000_001 {
        Some(DataType::Int8)
    } else if (b - 448.0).abs() < 0.000_001 {
        Some(DataType::Float8E4M3FN)
    } else {
        None
    }
}

/// `FusedBiasActInferMeta` (x, bias, dequant_scales, shift, smooth,
/// act_method, compute_dtype, quant_scale, quant_round_type,
/// quant_max_bound, quant_min_bound): the gated activations (`geglu`,
/// `swiglu`) halve an even last dim, `gelu` and `relu` keep it. An int32
/// input computes in `compute_dtype` (int8 when quantized); otherwise the
/// result keeps `x`'s type unless quantized. In `x`'s layout, no LoD.
fn fused_bias_act(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let act = a.str(5)?;
    let compute_dtype = a.str(6)?;
    let quant_scale = a.scalar(7)?.value;
    let max_bound = a.scalar(9)?.value;
    let r = x.dims.rank();
    if r < 2 {
        return Err(Bad(format!(
            "The size of Input(x) must greater than 1: {:?}",
            x.dims
        )));
    }
    let mut dims: DDim = x.dims;
    let dim = dims.at(r - 1)?;
    match act {
        "geglu" | "swiglu" => {
            // C++ `%`: an unknown (-1) extent is odd.
            if dim % 2 != 0 {
                return Err(Bad(format!(
                    "The second dimension of x must be even, but receive {dim}"
                )));
            }
            dims.set(r - 1, dim / 2)?;
        }
        "gelu" | "relu" => {}
        other => {
            return Err(Bad(format!(
                "act_method must be geglu, swiglu or gelu, but get act_method ({other})"
            )))
        }
    }
    let bias = a.opt_tensor(1)?;
    let dtype = if x.dtype == DataType::Int32 {
        if compute_dtype == "default" {
            return Err(Bad(
                "If Input(x) dtype is INT32, Attr(compute_dtype) must be set.".into(),
            ));
        }
        if let Some(b) = &bias {
            check_compute_dtype(b, "bias", compute_dtype)?;
        }
        if quant_scale > 0.0 {
            Some(DataType::Int8)
        } else {
            Some(match compute_dtype {
                "bf16" => DataType::BFloat16,
                "fp16" => DataType::Float16,
                "fp32" => DataType::Float32,
                other => {
                    return Err(Bad(format!(
                        "In the case of quantization enabled with Input(x) INT32, \
                         Attr(compute_dtype) must be set in (bf16, fp16, fp32), but get \
                         compute_dtype ({other})"
                    )))
                }
            })
        }
    } else {
        match &bias {
            Some(b) if compute_dtype != "default" => {
                check_compute_dtype(b, "bias", compute_dtype)?;
                check_compute_dtype(&x, "x", compute_dtype)?;
            }
            Some(b) => {
                if x.dtype != b.dtype {
                    return Err(Bad(
                        "Input(x) and Input(bias) must be the same dtype in this situation".into(),
                    ));
                }
            }
            None => check_compute_dtype(&x, "x", compute_dtype)?,
        }
        if quant_scale > 0.0 {
            quant_dtype(max_bound)
        } else {
            Some(x.dtype)
        }
    };
    // A type the function does not set stays the fresh tensor's float32.
    let dtype = dtype.unwrap_or(DataType::Float32);
    set(outs, 0, Meta::laid_out(dtype, dims, x.layout));
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testing::{infer_last, types};

    fn op(shape: &str, act: &str) -> String {
        let ty = format!("tensor<{}xf16>", shape.replace(',', "x"));
        format!(
            "{{\n(%0) = \"pd_op.data\" () {{dtype:float16,name:\"x\",place:Place(undefined:0),shape:[{shape}],stop_gradient:[true]}} : () -> {ty}\n\
             (%1) = \"pd_op.fused_bias_act\" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {{act_method:\"{act}\",compute_dtype:\"fp16\",quant_max_bound:127,quant_min_bound:-127,quant_round_type:1,quant_scale:-1,stop_gradient:[true]}} : ({ty}, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> {ty}\n}}\n"
        )
    }

    // From Paddle's source (no CPU kernel to build the op with).
    #[test]
    fn gated_activations_halve_the_last_dim() {
        assert_eq!(types(&op("-1,128", "swiglu")), ["tensor<-1x64xf16>"]);
        assert_eq!(types(&op("-1,128", "gelu")), ["tensor<-1x128xf16>"]);
        assert!(infer_last(&op("8,-1", "geglu")).is_err_and(|e| !e.starts_with("line ")));
        assert!(infer_last(&op("-1,128", "tanh")).is_err_and(|e| !e.starts_with("line ")));
    }
}
