//! Quantization ops (Paddle's `unary_infer_sym.cc` and
//! `multiary_infer_sym.cc`): fake quantize and dequantize with their
//! scales — one value for the whole tensor, one per channel of
//! `quant_axis`, or per group of rows — moving averages and states, and
//! weight quantization.

use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.fake_quantize_range_abs_max", range_abs_max),
    ("pd_op.fake_quantize_range_abs_max_", range_abs_max),
    ("pd_op.fake_quantize_moving_average_abs_max", moving_average),
    (
        "pd_op.fake_quantize_moving_average_abs_max_",
        moving_average,
    ),
    (
        "pd_op.fake_quantize_dequantize_moving_average_abs_max",
        moving_average,
    ),
    (
        "pd_op.fake_quantize_dequantize_moving_average_abs_max_",
        moving_average,
    ),
    ("pd_op.moving_average_abs_max_scale", moving_average_scale),
    ("pd_op.moving_average_abs_max_scale_", moving_average_scale),
    ("pd_op.fake_quantize_abs_max", abs_max),
    ("pd_op.fake_quantize_dequantize_abs_max", abs_max),
    ("pd_op.fake_channel_wise_quantize_abs_max", channel_wise),
    (
        "pd_op.fake_channel_wise_quantize_dequantize_abs_max",
        channel_wise,
    ),
    (
        "pd_op.fake_channel_wise_dequantize_max_abs",
        channel_wise_dequantize,
    ),
    ("pd_op.weight_quantize", weight_quantize),
];

/// Refuses a `bit_length` outside 1..=16 (every fake-quantize op).
fn check_bit_length(cx: &Cx<'_>) -> Res {
    let bits = cx.int_attr("bit_length").unwrap_or(8);
    if !(1..=16).contains(&bits) {
        return Err(Bad(format!(
            "'bit_length' should be between 1 and 16, but the received is {bits}"
        )));
    }
    Ok(())
}

/// The input's fact, one scale, and a window of scales when kept.
fn range_abs_max(cx: &mut Cx<'_>) -> Res {
    check_bit_length(cx)?;
    let window = cx.int_attr("window_size").unwrap_or(10000);
    cx.share(0, 0);
    cx.set_shape(1, vec![DimExpr::Int(1)]);
    cx.set_shape(2, vec![DimExpr::Int(window)]);
    Ok(())
}

/// The input's shape, then one element for the scale and every state.
fn moving_average(cx: &mut Cx<'_>) -> Res {
    check_bit_length(cx)?;
    let x = cx.shape(0)?;
    cx.set_shape(0, x);
    for r in 1..cx.num_results() {
        cx.set_shape(r, vec![DimExpr::Int(1)]);
    }
    Ok(())
}

/// The input's shape, one scale, and the state and accumulator as given.
fn moving_average_scale(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let state = cx.shape(2)?;
    let accum = cx.shape(1)?;
    cx.set_shape(0, x);
    cx.set_shape(1, vec![DimExpr::Int(1)]);
    cx.set_shape(2, state);
    cx.set_shape(3, accum);
    Ok(())
}

/// One scale for the whole tensor.
fn abs_max(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    check_bit_length(cx)?;
    cx.set_shape(0, x);
    cx.set_shape(1, vec![DimExpr::Int(1)]);
    Ok(())
}

/// The `quant_axis` attribute, refused unless 0 or 1.
fn quant_axis(cx: &Cx<'_>) -> Result<i64, Bad> {
    let axis = cx.int_attr("quant_axis").unwrap_or(0);
    if axis != 0 && axis != 1 {
        return Err(Bad(format!(
            "'quant_axis' should be 0 or 1, but the received is {axis}"
        )));
    }
    Ok(axis)
}

/// `fake_channel_wise_dequantize_max_abs`: the input's shape.
fn channel_wise_dequantize(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    quant_axis(cx)?;
    let col_dims = cx.int_attr("x_num_col_dims").unwrap_or(1);
    if col_dims == 0 {
        return Err(Bad(format!(
            "'x_num_col_dims' should be larger than 0, but the received is {col_dims}"
        )));
    }
    cx.set_shape(0, x);
    Ok(())
}

/// One scale per index of `quant_axis` (0 or 1).
fn channel_wise(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    check_bit_length(cx)?;
    let axis = quant_axis(cx)?;
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
    let x = super::unary::shape_of_rank(
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
