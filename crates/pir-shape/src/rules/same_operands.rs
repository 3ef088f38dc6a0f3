//! Ops whose first result is their first operand's fact, shape and data
//! (Paddle's `same_operands_result.cc`; activations and other elementwise
//! unary ops declared elsewhere with the same rule follow).

use super::{Cx, Res, Rule};

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.abs", same),
    ("pd_op.abs_", same),
    ("pd_op.acos", same),
    ("pd_op.acos_", same),
    ("pd_op.acosh", same),
    ("pd_op.acosh_", same),
    ("pd_op.angle", same),
    ("pd_op.asin", same),
    ("pd_op.asin_", same),
    ("pd_op.asinh", same),
    ("pd_op.asinh_", same),
    ("pd_op.assign", same),
    ("pd_op.assign_", same),
    ("pd_op.atan", same),
    ("pd_op.atan_", same),
    ("pd_op.atanh", same),
    ("pd_op.atanh_", same),
    ("pd_op.bernoulli", same),
    ("pd_op.bitwise_not", same),
    ("pd_op.bitwise_not_", same),
    ("pd_op.cast", same),
    ("pd_op.cast_", same),
    ("pd_op.ceil", same),
    ("pd_op.ceil_", same),
    ("pd_op.clip", same),
    ("pd_op.clip_", same),
    ("pd_op.conj", same),
    ("pd_op.cos", same),
    ("pd_op.cos_", same),
    ("pd_op.cosh", same),
    ("pd_op.cosh_", same),
    ("pd_op.digamma", same),
    ("pd_op.digamma_", same),
    ("pd_op.dirichlet", same),
    ("pd_op.erf", same),
    ("pd_op.erf_", same),
    ("pd_op.erfinv", same),
    ("pd_op.erfinv_", same),
    ("pd_op.exp", same),
    ("pd_op.exp_", same),
    ("pd_op.expm1", same),
    ("pd_op.expm1_", same),
    ("pd_op.exponential_", same),
    ("pd_op.fill", same),
    ("pd_op.fill_", same),
    ("pd_op.flip", same),
    ("pd_op.floor", same),
    ("pd_op.floor_", same),
    ("pd_op.full_like", same),
    ("pd_op.imag", same),
    ("pd_op.isfinite", same),
    ("pd_op.isfinite_sr", same),
    ("pd_op.isinf", same),
    ("pd_op.isinf_sr", same),
    ("pd_op.isnan", same),
    ("pd_op.isnan_sr", same),
    ("pd_op.lgamma", same),
    ("pd_op.lgamma_", same),
    ("pd_op.log1p", same),
    ("pd_op.log1p_", same),
    ("pd_op.log", same),
    ("pd_op.log_", same),
    ("pd_op.logical_not", same),
    ("pd_op.logical_not_", same),
    ("pd_op.logit", same),
    ("pd_op.logit_", same),
    ("pd_op.pow", same),
    ("pd_op.poisson", same),
    ("pd_op.pow_", same),
    ("pd_op.prelu", same),
    ("pd_op.print", same),
    ("pd_op.put_along_axis", same),
    ("pd_op.put_along_axis_", same),
    ("pd_op.real", same),
    ("pd_op.reciprocal", same),
    ("pd_op.reciprocal_", same),
    ("pd_op.relu", same),
    ("pd_op.relu6", same),
    ("pd_op.relu_", same),
    ("pd_op.reverse", same),
    ("pd_op.roll", same),
    ("pd_op.round", same),
    ("pd_op.round_", same),
    ("pd_op.rsqrt", same),
    ("pd_op.rsqrt_", same),
    ("pd_op.scale_sr", same),
    ("pd_op.scale_sr_", same),
    ("pd_op.scale_", same),
    ("pd_op.scatter_nd_add", same),
    ("pd_op.scatter", same),
    ("pd_op.scatter_", same),
    ("pd_op.sign", same),
    ("pd_op.sin", same),
    ("pd_op.sin_", same),
    ("pd_op.sinh", same),
    ("pd_op.sinh_", same),
    ("pd_op.softmax", same),
    ("pd_op.softmax_", same),
    ("pd_op.swish", same),
    ("pd_op.tan", same),
    ("pd_op.tan_", same),
    ("pd_op.tanh", same),
    ("pd_op.tanh_", same),
    ("pd_op.tril", same),
    ("pd_op.tril_", same),
    ("pd_op.triu", same),
    ("pd_op.triu_", same),
    ("pd_op.trunc", same),
    ("pd_op.trunc_", same),
    ("pd_op.sigmoid", same),
    ("pd_op.sigmoid_", same),
    ("pd_op.leaky_relu", same),
    ("pd_op.leaky_relu_", same),
    ("pd_op.thresholded_relu", same),
    ("pd_op.thresholded_relu_", same),
    ("pd_op.square_sr", same),
    ("pd_op.square", same),
    ("pd_op.polygamma", same),
    ("pd_op.polygamma_", same),
    ("pd_op.enable_check_model_nan_inf", same),
    ("pd_op.view_shape", same),
    // Elementwise unary ops whose rules live in other files of Paddle's
    // and keep the operand's shape.
    ("pd_op.celu", same),
    ("pd_op.elu", same),
    ("pd_op.elu_", same),
    ("pd_op.gelu", same),
    ("pd_op.hardshrink", same),
    ("pd_op.hardsigmoid", same),
    ("pd_op.hardswish", same),
    ("pd_op.hardtanh", same),
    ("pd_op.hardtanh_", same),
    ("pd_op.mish", same),
    ("pd_op.selu", same),
    ("pd_op.silu", same),
    ("pd_op.silu_", same),
    ("pd_op.softplus", same),
    ("pd_op.softshrink", same),
    ("pd_op.softsign", same),
    ("pd_op.sqrt", same),
    ("pd_op.sqrt_", same),
    ("pd_op.log2", same),
    ("pd_op.log2_", same),
    ("pd_op.log10", same),
    ("pd_op.log10_", same),
    ("pd_op.stanh", same),
    ("pd_op.tanh_shrink", same),
    ("pd_op.logsigmoid", same),
    ("pd_op.square_", same),
    ("pd_op.rint", same),
    ("pd_op.rint_", same),
    ("pd_op.i0", same),
    ("pd_op.i0_", same),
    ("pd_op.i0e", same),
    ("pd_op.i1", same),
    ("pd_op.i1e", same),
    ("pd_op.gammaln", same),
    ("pd_op.gammaln_", same),
    ("pd_op.soft_relu", same),
    ("pd_op.label_smooth", same),
    ("pd_op.log_softmax", same),
    ("pd_op.memcpy", same),
    ("pd_op.npu_identity", same),
    ("pd_op.shadow_feed", same),
    ("pd_op.c_identity", same),
    ("pd_op.c_identity_", same),
    ("pd_op.depend", same),
    ("pd_op.renorm", same),
    ("pd_op.renorm_", same),
    ("pd_op.cumprod", same),
    ("pd_op.cumprod_", same),
    ("pd_op.gaussian_inplace", same),
    ("pd_op.gaussian_inplace_", same),
    ("pd_op.fused_softmax_mask_upper_triangle", same),
    ("pd_op.disable_check_model_nan_inf", same),
    ("pd_op.share_data_", same),
    // Further ops Paddle shapes like their first operand.
    ("pd_op.copy_to", same),
    ("pd_op.empty_like", same),
    ("pd_op.uniform_inplace", same),
    ("pd_op.uniform_inplace_", same),
    ("pd_op.random", same),
    ("pd_op.random_", same),
    ("pd_op.fill_diagonal", same),
    ("pd_op.fill_diagonal_", same),
    ("pd_op.fill_diagonal_tensor", same),
    ("pd_op.fill_diagonal_tensor_", same),
    ("pd_op.index_add", same),
    ("pd_op.index_add_", same),
    ("pd_op.index_put", same),
    ("pd_op.index_put_", same),
    ("pd_op.index_elementwise_put", same),
    ("pd_op.index_elementwise_put_", same),
    ("pd_op.index_elementwise_put_with_tensor", same),
    ("pd_op.index_elementwise_put_with_tensor_", same),
    ("pd_op.channel_shuffle", same),
    ("pd_op.shuffle_channel", same),
    ("pd_op.gumbel_softmax", same),
    ("pd_op.sigmoid_cross_entropy_with_logits", same),
    ("pd_op.sigmoid_cross_entropy_with_logits_", same),
    ("pd_op.bce_loss", same),
    ("pd_op.bce_loss_", same),
    ("pd_op.log_loss", same),
    ("pd_op.assign_array", same),
    ("pd_op.assign_array_", same),
    ("pd_op.cross", same),
    ("pd_op.cummax", same_two),
    ("pd_op.cummin", same_two),
    ("pd_op.rrelu", same_two),
    ("pd_op.huber_loss", same_two),
    ("pd_op.lrn", same_two),
    ("pd_op.l1_norm", scalar),
    ("pd_op.l1_norm_", scalar),
    ("pd_op.mean_all", scalar),
    ("pd_op.is_empty", scalar),
    ("pd_op.equal_all", scalar),
    ("pd_op.allclose", scalar),
    ("pd_op.dist", scalar),
    ("pd_op.scale", scale),
    ("pd_op.fetch", shape_only),
    ("pd_op.increment", shape_only),
    ("pd_op.increment_", shape_only),
    ("pd_op.dequantize_abs_max", shape_only),
    ("pd_op.dequantize_log", shape_only),
    ("pd_op.fake_dequantize_max_abs", shape_only),
    ("pd_op.number_count", shape_only),
    ("pd_op.yolo_box_head", shape_only),
    ("pd_op.argsort", argsort),
];

/// Result 0 takes operand 0's fact.
pub(crate) fn same(cx: &mut Cx<'_>) -> Res {
    cx.share(0, 0);
    Ok(())
}

/// `scale`: the data, when known, is `x * scale + bias` (the scale from the
/// operand when given, the bias truncated to an integer).
fn scale(cx: &mut Cx<'_>) -> Res {
    let x = cx.input(0);
    let Some(t) = x.tensor().filter(|t| t.data.is_some()).cloned() else {
        cx.set(0, x);
        return Ok(());
    };
    let factor = if cx.num_operands() >= 2 {
        cx.input(1).data().and_then(|d| d.first().cloned())
    } else {
        cx.float_attr("scale")
            .map(|f| crate::expr::DimExpr::Int(f as i64))
    };
    let Some(factor) = factor else {
        cx.set_shape(0, t.shape);
        return Ok(());
    };
    let bias = crate::expr::DimExpr::Int(cx.float_attr("bias").unwrap_or(0.0) as i32 as i64);
    let mut data = Vec::new();
    for v in t.data.iter().flatten() {
        let m = cx.mul(v, &factor);
        data.push(cx.add(&m, &bias));
    }
    cx.set_tensor(0, crate::fact::TensorFact::with_data(t.shape, data));
    Ok(())
}

fn argsort(cx: &mut Cx<'_>) -> Res {
    cx.share(0, 0);
    cx.share(0, 1);
    Ok(())
}

/// Result 0 takes operand 0's shape, without its data.
fn shape_only(cx: &mut Cx<'_>) -> Res {
    let s = cx.shape(0)?;
    cx.set_shape(0, s);
    Ok(())
}

/// Results 0 and 1 take operand 0's shape (a value and its indices, or its
/// auxiliary output).
fn same_two(cx: &mut Cx<'_>) -> Res {
    let s = cx.shape(0)?;
    cx.set_shape(0, s.clone());
    cx.set_shape(1, s);
    Ok(())
}

/// A 0-d result (a norm, a comparison of whole tensors).
fn scalar(cx: &mut Cx<'_>) -> Res {
    cx.set_shape(0, Vec::new());
    Ok(())
}
