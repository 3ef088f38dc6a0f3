//! Gradients of fused attention: `FusedRopeGradInferMeta` (rotary position
//! embedding) and `MemoryEfficientAttentionGradInferMeta`.

use super::fresh;
use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "FusedRopeGradInferMeta" => fused_rope_grad,
        "MemoryEfficientAttentionGradInferMeta" => memory_efficient_attention_grad,
        _ => return None,
    })
}

/// `FusedRopeGradInferMeta` (sin, cos, position_ids, out_q_grad, out_k_grad,
/// out_v_grad, ...): a 4-D `out_q_grad`; each gradient takes dims and data
/// type of its output gradient when that is given.
fn fused_rope_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let dq = a.tensor(3)?;
    if dq.dims.rank() != 4 {
        return Err(Bad(format!(
            "Input should be a 4-D tensor of format [batch_size, seq_len, num_heads, \
             head_dim],but got {}.",
            dq.dims.rank()
        )));
    }
    set(outs, 0, fresh(dq.dims, dq.dtype));
    for (p, r) in [(4, 1), (5, 2)] {
        if let Some(g) = a.opt_tensor(p)? {
            set(outs, r, fresh(g.dims, g.dtype));
        }
    }
    Ok(())
}

/// The `[batch, seq, heads, head_size]` gradient of a 4-D attention input:
/// its dims, LoD, data type and layout.
fn grad_of(t: &Meta) -> Result<Meta, Bad> {
    let d = &t.dims;
    let dims = DDim::new(&[d.at(0)?, d.at(1)?, d.at(2)?, d.at(3)?])?;
    Ok(Meta {
        lod: t.lod.clone(),
        ..Meta::laid_out(t.dtype, dims, t.layout)
    })
}

/// `MemoryEfficientAttentionGradInferMeta` (query, key, value, bias,
/// cu_seqlens_q, cu_seqlens_k, output, logsumexp, seed_and_offset,
/// output_grad, ...): 4-D `output_grad` and `output`; each gradient like
/// its input (the first four dims); without a bias, `bias_grad` gets empty
/// (0-d) dims only.
fn memory_efficient_attention_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let q = a.tensor(0)?;
    let k = a.tensor(1)?;
    let v = a.tensor(2)?;
    let output = a.tensor(6)?;
    let dout = a.tensor(9)?;
    for t in [&dout, &output] {
        if t.dims.rank() != 4 {
            return Err(Bad(format!(
                "Key should be a 4-D tensorBut received Key dimension({})",
                dout.dims.rank()
            )));
        }
    }
    set(outs, 0, grad_of(&q)?);
    set(outs, 1, grad_of(&k)?);
    set(outs, 2, grad_of(&v)?);
    let bias = match a.opt_tensor(3)? {
        Some(b) => grad_of(&b)?,
        None => super::dims_only(DDim::default()),
    };
    set(outs, 3, bias);
    Ok(())
}

// From Paddle's source: the ops have no CPU kernel, so Paddle 3.3.1 on CPU
// cannot build them to compare with.
#[cfg(test)]
mod tests {
    use crate::testing::{infer_last, types};

    #[test]
    fn fused_rope_grad_follows_given_gradients() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float16,name:\"q\",place:Place(undefined:0),shape:[-1,128,8,64],stop_gradient:[true]} : () -> tensor<-1x128x8x64xf16>\n\
                 (%1) = \"pd_op.data\" () {dtype:float16,name:\"k\",place:Place(undefined:0),shape:[-1,128,2,64],stop_gradient:[true]} : () -> tensor<-1x128x2x64xf16>\n\
                 (%2, %3, %4) = \"pd_op.fused_rotary_position_embedding_grad\" (<<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>, %0, %1, <<NULL VALUE>>) {rotary_emb_base:10000,stop_gradient:[true,true,true],time_major:false,use_neox_rotary_style:true} : (<<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<-1x128x8x64xf16>, tensor<-1x128x2x64xf16>, <<NULL TYPE>>) -> tensor<-1x128x8x64xf16>, tensor<-1x128x2x64xf16>, <<NULL TYPE>>\n}\n";
        assert_eq!(
            types(t)[..2],
            ["tensor<-1x128x8x64xf16>", "tensor<-1x128x2x64xf16>"]
        );
        let three_d = t.replace("shape:[-1,128,8,64]", "shape:[-1,128,512]");
        let three_d = three_d.replace("tensor<-1x128x8x64xf16>", "tensor<-1x128x512xf16>");
        assert!(
            infer_last(&three_d).is_err_and(|e| e.contains("4-D")),
            "{:?}",
            infer_last(&three_d)
        );
    }
}
