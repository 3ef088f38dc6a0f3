//! Mixture-of-experts routing functions of Paddle's `unary.cc`:
//! `IntBincountInferMeta`, `BuildSrcRankAndLocalExpertIdInferMeta` and
//! `ExpandModalityExpertIdInferMeta`.
//!
//! Paddle's CPU build has no kernel for these ops, so its builder refuses
//! them before inferring: they follow Paddle's source, not its output.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `IntBincountInferMeta` (x, low, high, dtype): `[high - low]` of x's
/// data type (the `dtype` attribute is not read).
pub(crate) fn int_bincount(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (low, high) = (a.int(1)?, a.int(2)?);
    if high <= low {
        return Err(Bad(format!("Attr high ({high}) must be > low ({low}).")));
    }
    set(outs, 0, Meta::new(x.dtype, DDim::new(&[high - low])?));
    Ok(())
}

/// `BuildSrcRankAndLocalExpertIdInferMeta` (expert_num_global_tensor,
/// expert_num_global, num_local_experts): both results `[tokens]` int32,
/// tokens the sum of `expert_num_global` (accumulated in an `int`, as
/// Paddle's `std::accumulate` from `0` does).
pub(crate) fn build_src_rank_and_local_expert_id(
    a: &Args<'_>,
    outs: &mut [Out],
) -> Result<(), Bad> {
    let counts = a.tensor(0)?;
    let tokens = a
        .ints(1)?
        .iter()
        .fold(0i32, |acc, &v| acc.wrapping_add(v as i32));
    if counts.dtype != DataType::Int64 {
        return Err(Bad(
            "The input expert_num_global_tensor type should be INT64".into(),
        ));
    }
    let m = Meta::new(DataType::Int32, DDim::new(&[i64::from(tokens)])?);
    set(outs, 0, m.clone());
    set(outs, 1, m);
    Ok(())
}

/// `ExpandModalityExpertIdInferMeta` (expert_id, ...): `[seqlen, k]` of the
/// ids' data type, for 2-D int32 or int64 ids.
pub(crate) fn expand_modality_expert_id(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let ids = a.tensor(0)?;
    let d = ids.dims.as_slice();
    if d.len() != 2 {
        return Err(Bad(format!(
            "The input expert_id's dimensions size should be 2. But received expert_id's dimensions size=[{}],  expert_id's dimensions=[{d:?}].",
            d.len()
        )));
    }
    if !matches!(ids.dtype, DataType::Int32 | DataType::Int64) {
        return Err(Bad(format!(
            "The dtype of expert_id should be INT32 or INT64. But receiveddtype={}.",
            ids.dtype.text()
        )));
    }
    set(outs, 0, Meta::new(ids.dtype, DDim::new(d)?));
    Ok(())
}
