//! Gradient ops (Paddle's `backward_infer_sym.cc`): each `X_grad` result
//! has the shape of the forward input `X`.

use super::{Bad, Cx, Res, Rule};

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.add_grad", grad_like_inputs),
    ("pd_op.subtract_grad", grad_like_inputs),
    ("pd_op.multiply_grad", grad_like_inputs),
    ("pd_op.divide_grad", grad_like_inputs),
    ("pd_op.matmul_grad", grad_like_inputs),
    ("pd_op.mean_grad", grad_like_inputs),
    ("pd_op.sum_grad", grad_like_inputs),
    ("pd_op.relu_grad", grad_like_inputs),
    ("pd_op.relu_grad_", grad_like_inputs),
    ("pd_op.tanh_grad", grad_like_inputs),
    ("pd_op.sigmoid_grad", grad_like_inputs),
    ("pd_op.gelu_grad", grad_like_inputs),
    ("pd_op.softmax_grad", grad_like_inputs),
    ("pd_op.layer_norm_grad", grad_like_inputs),
    ("pd_op.reshape_grad", grad_like_inputs),
    ("pd_op.transpose_grad", grad_like_inputs),
    ("pd_op.scale_grad", grad_like_inputs),
    ("pd_op.cross_entropy_with_softmax_grad", cross_entropy_grad),
];

/// Result `k` named `<name>_grad` takes the shape of input `<name>`; for
/// unary activations (`out_grad` in, `x_grad` out) the shape of `out`.
pub(crate) fn grad_like_inputs(cx: &mut Cx<'_>) -> Res {
    let def =
        pir_dialects::op_def(cx.p.op_name_str(cx.op)).ok_or_else(|| Bad("no definition".into()))?;
    for (k, out) in def.outputs.iter().enumerate() {
        let Some(base) = out.name.strip_suffix("_grad") else {
            continue;
        };
        if cx.result_is_null(k) {
            continue;
        }
        let source = def
            .input_index(base)
            .or_else(|| def.input_index("out"))
            .or_else(|| def.input_index(&format!("{base}_grad")));
        let Some(i) = source else { continue };
        if cx.operand(i).is_none() {
            continue;
        }
        let s = cx.shape(i)?;
        cx.set_shape(k, s);
    }
    Ok(())
}

/// The logits' gradient has the forward logits' shape (Paddle caches it
/// when it infers the forward op): found through the softmax operand.
fn cross_entropy_grad(cx: &mut Cx<'_>) -> Res {
    let forward_logits = cx
        .operand(1)
        .and_then(|v| cx.p.defining_op(v))
        .filter(|&op| {
            cx.p.op_name_str(op)
                .starts_with("pd_op.cross_entropy_with_softmax")
        })
        .and_then(|op| cx.p.operand(op, 0));
    let s = match forward_logits {
        Some(v) => cx.a.get(cx.p, v).dims().to_vec(),
        None => cx.shape(1)?,
    };
    cx.set_shape(0, s);
    Ok(())
}
