//! Quantization ops of one operand (Paddle's `unary_infer_sym.cc`): the
//! quantized tensor keeps the shape; the scales are one value, one per
//! channel of `quant_axis`, or per group of rows.

use super::super::quantize::check_bit_length;
use super::super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.fake_quantize_abs_max", abs_max),
    ("pd_op.fake_quantize_dequantize_abs_max", abs_max),
    ("pd_op.fake_channel_wise_quantize_abs_max", channel_wise),
    (
        "pd_op.fake_channel_wise_quantize_dequantize_abs_max",
        channel_wise,
    ),
    ("pd_op.weight_quantize", weight_quantize),
];

/// One scale for the whole tensor.
fn abs_max(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    check_bit_length(cx)?;
    cx.set_shape(0, x);
    cx.set_shape(1, vec![DimExpr::Int(1)]);
    Ok(())
}

/// One scale per index of `quant_axis` (0 or 1).
fn channel_wise(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    check_bit_length(cx)?;
    let axis = cx.int_attr("quant_axis").unwrap_or(0);
    if axis != 0 && axis != 1 {
        return Err(Bad(format!(
            "'quant_axis' should be 0 or 1, but the received is {axis}"
        )));
    }
    let Some(channels) = x.get(axis as usize).cloned() else {
        return Err(Bad(format!("quant_axis {axis} out of range")));
    };
    cx.set_shape(0, x);
    cx.set_shape(1, vec![channels]);
    Ok(())
}

/// `weight_quantize`: a 2-D weight `[k, n]` becomes `[n, k]` (`[n / 2, k]`
/// in int4) with `n` scales, per group of `group_size` rows when grouped.
fn weight_quantize(cx: &mut Cx<'_>) -> Res {
    let x = super::shape_of_rank(
        cx,
        |r| r == 2,
        |r| format!("The x tensor of quant op must be 2D, but got[{r}]"),
    )?;
    if let Some(k) = x[0].as_int().filter(|k| k % 64 != 0) {
        return Err(Bad(format!(
            "The first dimension of input must be divisible by 64, but got[{k}]"
        )));
    }
    if let Some(n) = x[1].as_int().filter(|n| n % 16 != 0) {
        return Err(Bad(format!(
            "The second dimension of input must be divisible by 16, but got[{n}]"
        )));
    }
    let group = cx.int_attr("group_size").unwrap_or(-1);
    if !matches!(group, -1 | 64 | 128) {
        return Err(Bad(
            "Currently, group_size only support -1, 64 or 128.".into()
        ));
    }
    let scale = if group == -1 {
        vec![x[1].clone()]
    } else {
        let padded = cx.add(&x[0], &DimExpr::Int(group - 1));
        vec![cx.div(&padded, &DimExpr::Int(group)), x[1].clone()]
    };
    let out = match cx.str_attr("algo").unwrap_or("") {
        "weight_only_int8" | "llm.int8" => vec![x[1].clone(), x[0].clone()],
        "weight_only_int4" => vec![cx.div(&x[1], &DimExpr::Int(2)), x[0].clone()],
        algo => {
            return Err(Bad(format!(
                "The algo must be in ['weight_only_int8', 'weight_only_int4', 'llm.int8'], \
                 but got[{algo}]"
            )))
        }
    };
    cx.set_shape(0, out);
    cx.set_shape(1, scale);
    Ok(())
}
