//! `RankAttentionInferMeta` (Paddle's `ternary.cc`): attention over the
//! ranks of a recommendation model's instances.

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `RankAttentionInferMeta` (x, rank_offset, rank_param, max_rank,
/// max_size): `out` `[N, P]` (P the parameter's width) with x's data type
/// and LoD; `input_help` `[N, max_rank * D]`; `ins_rank` `[N, 1]`.
pub(crate) fn rank_attention(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let offset = a.tensor(1)?;
    let param = a.tensor(2)?;
    let max_rank = a.int(3)?;
    let (n, fea) = (x.dims.at(0)?, x.dims.at(1)?);
    let cols = (offset.dims.at(1)? - 1) / 2;
    if cols != max_rank {
        return Err(Bad(format!(
            "Input(RankOffset) has wrong columns, except columns to be {max_rank}, but got {cols}"
        )));
    }
    set(
        outs,
        1,
        with_lod(&x, x.dtype, DDim::new(&[n, param.dims.at(1)?])?),
    );
    set(
        outs,
        0,
        Meta::new(x.dtype, DDim::new(&[n, max_rank * fea])?),
    );
    set(outs, 2, Meta::new(x.dtype, DDim::new(&[n, 1])?));
    Ok(())
}
