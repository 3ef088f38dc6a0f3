//! `TopPSamplingInferMeta` (Paddle's `multiary.cc`): nucleus sampling of
//! the next token.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `TopPSamplingInferMeta` (x, ps, threshold, topp_seed, seed, k, mode):
/// `out` `[B, 1]` of x's data type and `ids` `[B, 1]` int64 (B read as an
/// `int`); with `k > 0` also `topk_scores` and `topk_ids` `[B, k]`.
pub(crate) fn top_p_sampling(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let k = a.int(5)?;
    let mode = a.str(6)?;
    let batch = i64::from(x.dims.at(0)? as i32);
    if mode != "truncated" && mode != "non-truncated" {
        return Err(Bad("mode must be 'truncated' or 'non-truncated'.".into()));
    }
    let col = DDim::new(&[batch, 1])?;
    set(outs, 1, Meta::new(DataType::Int64, col));
    set(outs, 0, Meta::new(x.dtype, col));
    if k > 0 {
        let top = DDim::new(&[batch, k])?;
        set(outs, 3, Meta::new(DataType::Int64, top));
        set(outs, 2, Meta::new(x.dtype, top));
    }
    Ok(())
}
