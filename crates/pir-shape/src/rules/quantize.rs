//! Quantization ops (Paddle's `multiary_infer_sym.cc`): fake quantize and
//! dequantize with their scales, moving averages and states.

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
];

/// Refuses a `bit_length` outside 1..=16 (every fake-quantize op).
pub(super) fn check_bit_length(cx: &Cx<'_>) -> Res {
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
