//! Fused attention: `SelfDPAttenInferMeta` (`self_dp_attention`),
//! `MultiheadMatmulInferMeta` (`multihead_matmul`) and
//! `VariableLengthMemoryEfficientAttentionInferMeta`.

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "SelfDPAttenInferMeta" => self_dp_attention,
        "VariableLengthMemoryEfficientAttentionInferMeta" => variable_length_mea,
        "MultiheadMatmulInferMeta" => multihead_matmul,
        _ => return None,
    })
}

/// `SelfDPAttenInferMeta` (x, alpha, head_number): `x` is `[batch, tokens,
/// 3, heads, head_size]`; the result drops the q/k/v axis, with `x`'s data
/// type and LoD.
fn self_dp_attention(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let d = &x.dims;
    if d.rank() != 5 {
        return Err(Bad(format!(
            "The size of input X dims should be 5, [batchsize, tokensize, 3, nhead, headsize] , \
             but now Input X dim is:{d:?} "
        )));
    }
    let dims = DDim::new(&[d.at(0)?, d.at(1)?, d.at(3)?, d.at(4)?])?;
    set(outs, 0, with_lod(&x, x.dtype, dims));
    Ok(())
}

/// `VariableLengthMemoryEfficientAttentionInferMeta` (query, key, value,
/// seq_lens, kv_seq_lens, mask, scale, causal, pre_cache_length): 4-D
/// `[batch, heads, seq, head_size]` inputs agreeing in batch, key and value
/// heads, query and key head size, key and value length; the query's heads
/// a multiple of the key's. `[batch, q heads, q seq, value head size]` in
/// the query's data type and layout.
fn variable_length_mea(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let q = a.tensor(0)?;
    let k = a.tensor(1)?;
    let v = a.tensor(2)?;
    for (t, name) in [(&q, "Query"), (&k, "Key"), (&v, "Value")] {
        if t.dims.rank() != 4 {
            return Err(Bad(format!(
                "{name} should be a 4-D tensorBut received {name} dimension({})",
                t.dims.rank()
            )));
        }
    }
    let dims = |t: &Meta| -> Result<[i64; 4], Bad> {
        Ok([t.dims.at(0)?, t.dims.at(1)?, t.dims.at(2)?, t.dims.at(3)?])
    };
    let ([qb, qh, qs, qd], [kb, kh, ks, kd], [vb, vh, vs, vd]) = (dims(&q)?, dims(&k)?, dims(&v)?);
    if qb != kb || kb != vb {
        return Err(Bad(
            "The batch size of Query, Key, Value should be equal.".into()
        ));
    }
    if kh != vh {
        return Err(Bad("The head number of Key, Value should be equal.".into()));
    }
    // C++ `%` (an unknown -1 key head count divides anything; zero fails).
    if kh == 0 || qh % kh != 0 {
        return Err(Bad(format!(
            "The num_head of query must be divisible by the num_head of key, but recived \
             num_head of query is {qh}, and the num_head of key is {kh}"
        )));
    }
    if qd != kd {
        return Err(Bad("The head size of Query, Key should be equal.".into()));
    }
    if ks != vs {
        return Err(Bad("The seq length of Key, Value should be equal.".into()));
    }
    set(
        outs,
        0,
        Meta::laid_out(q.dtype, DDim::new(&[qb, qh, qs, vd])?, q.layout),
    );
    Ok(())
}

/// `MultiheadMatmulInferMeta` (input, w, bias, bias_qk, transpose_q,
/// transpose_k, transpose_v, alpha, head_number): a weight of rank above 2
/// and a bias of rank above 1; dims, data type and LoD of `input`.
fn multihead_matmul(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let w = a.tensor(1)?;
    let bias = a.tensor(2)?;
    if w.dims.rank() <= 2 {
        return Err(Bad(format!(
            "MultiheadMatmul's w is expected at least a 3-D tensor, but it's {}-D tensor now.",
            w.dims.rank()
        )));
    }
    if bias.dims.rank() <= 1 {
        return Err(Bad(format!(
            "MultiheadMatmul's bias should be at least 2-D tensor, but it's {}-D tensor now.",
            bias.dims.rank()
        )));
    }
    set(outs, 0, with_lod(&input, input.dtype, input.dims));
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testing::types;

    #[test]
    fn self_dp_attention_drops_the_qkv_axis() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"x\",place:Place(undefined:0),shape:[2,-1,3,12,64],stop_gradient:[true]} : () -> tensor<2x-1x3x12x64xf64>\n\
                 (%1) = \"pd_op.self_dp_attention\" (%0) {alpha:0.125,head_number:12,stop_gradient:[true]} : (tensor<2x-1x3x12x64xf64>) -> tensor<2x-1x12x64xf64>\n}\n";
        assert_eq!(types(t), ["tensor<2x-1x12x64xf64>"]);
    }
}
