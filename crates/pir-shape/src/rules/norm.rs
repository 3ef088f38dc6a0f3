//! Batch and RMS normalizations (Paddle's `multiary_infer_sym.cc`):
//! `batch_norm` and the fused batch-norm activations that reuse its rule,
//! `rms_norm` over trailing dims and the quantizing fused RMS norm.

use super::binary::dim;
use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::ShapeOrData;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.batch_norm", batch_norm),
    ("pd_op.batch_norm_", batch_norm),
    ("pd_op.sync_batch_norm_", batch_norm),
    // Paddle gives the fused forms `batch_norm`'s rule as it is: operands
    // 3 and 4 are checked against the channels whatever they hold, and
    // `data_format`, which these ops do not declare, must be present.
    ("pd_op.fused_batch_norm_act", batch_norm),
    ("pd_op.fused_batch_norm_act_", batch_norm),
    ("pd_op.fused_bn_add_activation", batch_norm),
    ("pd_op.fused_bn_add_activation_", batch_norm),
    ("pd_op.rms_norm", rms_norm),
    ("pd_op.fused_rms_norm_quant", fused_rms_norm_quant),
];

/// `batch_norm`: `x` kept, one statistic per channel (the channel dim is
/// `x[1]`, or the last for channel-last layouts); operands 3 and 4 (scale
/// and bias), when given, are vectors of the channels; the reserve space
/// has a fresh length.
fn batch_norm(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let Some(layout) = cx.str_attr("data_format").map(str::to_owned) else {
        return Err(Bad(
            "Attribute (data_format) is not exist, or the type of attribute is not correct.".into(),
        ));
    };
    if !(2..=5).contains(&x.len()) {
        return Err(Bad(format!(
            "ShapeError: the dimension of input X must be between 2 and 5. But received: the dimension of input X = [{}]",
            x.len()
        )));
    }
    let channels = if matches!(layout.as_str(), "NCHW" | "NCDHW" | "AnyLayout") {
        x[1].clone()
    } else {
        x[x.len() - 1].clone()
    };
    for (i, what) in [(3, "scale"), (4, "bias")] {
        if let ShapeOrData::Tensor(t) = cx.input(i) {
            if t.rank() != 1 {
                return Err(Bad(format!(
                    "ShapeError: the dimension of {what} must equal to 1.But received: the dimension of {what} is [{}]",
                    t.rank()
                )));
            }
            cx.eq(&t.shape[0], &channels);
        }
    }
    cx.set_shape(0, x);
    cx.set_shape(1, vec![channels.clone()]);
    cx.set_shape(2, vec![channels.clone()]);
    for r in [3, 4] {
        if !cx.result_is_null(r) {
            cx.set_shape(r, vec![channels.clone()]);
        }
    }
    if !cx.result_is_null(5) {
        let reserve = cx.sym();
        cx.set_shape(5, vec![reserve]);
    }
    Ok(())
}

/// `rms_norm`: the trailing dims of `x` are `normalized_shape` (and so are
/// the scale's); the output keeps `x`, `invvar` holds one value per
/// leading index.
fn rms_norm(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let normalized = cx.ints_attr("normalized_shape").unwrap_or_default();
    if normalized.len() >= x.len() {
        return Err(Bad("normalized_shape must be less than x_dims".into()));
    }
    let begin = x.len() - normalized.len();
    for (d, &n) in x[begin..].iter().zip(&normalized) {
        cx.eq(d, &DimExpr::Int(n));
    }
    cx.set_shape(0, x.clone());
    cx.set_shape(1, x[..begin].to_vec());
    if let ShapeOrData::Tensor(scale) = cx.input(1) {
        if scale.rank() != normalized.len() {
            return Err(Bad(
                "scale_dims.size() must be equal to normalized_shape_size".into(),
            ));
        }
        for (d, &n) in scale.shape.iter().zip(&normalized) {
            cx.eq(d, &DimExpr::Int(n));
        }
    }
    Ok(())
}

/// `fused_rms_norm_quant`: the norm weight spans the dims from
/// `begin_norm_axis` on; the output and residual keep `x`'s shape, the
/// inverse variance its leading dims. Paddle sets the optional results
/// even when absent.
fn fused_rms_norm_quant(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let begin = cx.int_attr("begin_norm_axis").unwrap_or(1);
    let begin = usize::try_from(begin)
        .ok()
        .filter(|&b| b <= x.len())
        .ok_or_else(|| Bad(format!("begin_norm_axis {begin} out of range")))?;
    let normalized = cx.product(&x[begin..]);
    let weight = cx.shape(3)?;
    cx.eq(&normalized, &dim(&weight, 0, "Input(NormWeight)")?);
    cx.set_shape(0, x.clone());
    cx.set_shape(2, x[..begin].to_vec());
    cx.set_shape(1, x);
    Ok(())
}
