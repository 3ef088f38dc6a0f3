//! Collective communication ops (Paddle's `unary.cc`): each result takes the
//! data type of `x` and its dims, scaled along one axis by the rank count
//! where ranks gather or split.

use super::fresh;
use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "AllReduceInferMeta" | "DistBroadcastInferMeta" | "DistReduceInferMeta" => same,
        "AllToAllInferMeta" => all_to_all,
        "AllGatherInferMeta" => all_gather,
        "ReduceScatterInferMeta" => reduce_scatter,
        "CIdentityInferMeta" => c_identity,
        "CConcatInferMeta" => c_concat,
        "CSplitInferMeta" => c_split,
        "CScatterInferMeta" => c_scatter,
        "PartialAllgatherInferMeta" => partial_allgather,
        "PartialSendInferMeta" => partial_send,
        "SendV2InferMeta" => send_v2,
        _ => return None,
    })
}

/// Dim 0 of `d` (Paddle reads it whatever the rank; a 0-d tensor has none).
fn first(d: &DDim) -> Result<i64, Bad> {
    d.at(0)
}

/// The last axis of `d`.
fn last_axis(d: &DDim) -> Result<usize, Bad> {
    d.rank()
        .checked_sub(1)
        .ok_or_else(|| Bad("a 0-d tensor has no last dim".into()))
}

/// `AllReduceInferMeta`, `DistBroadcastInferMeta`, `DistReduceInferMeta`:
/// dims and data type of `x`.
fn same(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, fresh(x.dims, x.dtype));
    Ok(())
}

/// `AllToAllInferMeta`: like `x`, a negative dim 0 written as `-1`.
fn all_to_all(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let mut d = x.dims;
    if first(&d)? < 0 {
        d.set(0, -1)?;
    }
    set(outs, 0, fresh(d, x.dtype));
    Ok(())
}

/// `AllGatherInferMeta` (x, nranks): dim 0 times `nranks` (`-1` when
/// negative).
fn all_gather(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let n = a.int(1)?;
    let mut d = x.dims;
    let v = first(&d)?.wrapping_mul(n);
    d.set(0, if v < 0 { -1 } else { v })?;
    set(outs, 0, fresh(d, x.dtype));
    Ok(())
}

/// `ReduceScatterInferMeta` (x, nranks): a known dim 0 (or one below -1)
/// must divide by `nranks` and is divided.
fn reduce_scatter(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let n = a.int(1)?;
    let mut d = x.dims;
    let d0 = first(&d)?;
    if !(-1..=0).contains(&d0) {
        if n == 0 || d0.wrapping_rem(n) != 0 {
            return Err(Bad(format!(
                "dim[0] ({d0}) is not divisible by nranks({n})"
            )));
        }
        d.set(0, d0.wrapping_div(n))?;
    }
    set(outs, 0, fresh(d, x.dtype));
    Ok(())
}

/// `CIdentityInferMeta` (x, ring_id, ...): `ring_id` non-negative; dims and
/// data type of `x`.
fn c_identity(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let ring_id = a.int(1)?;
    if ring_id < 0 {
        return Err(Bad(format!(
            "The ring_id ({ring_id}) for c_identity must be non-negative."
        )));
    }
    set(outs, 0, fresh(x.dims, x.dtype));
    Ok(())
}

/// `CConcatInferMeta` (x, nranks): the last dim times `nranks` (`-1` when
/// negative), in `x`'s layout.
fn c_concat(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let n = a.int(1)?;
    let mut d = x.dims;
    let k = last_axis(&d)?;
    let v = d.at(k)?.wrapping_mul(n);
    d.set(k, if v < 0 { -1 } else { v })?;
    set(outs, 0, Meta::laid_out(x.dtype, d, x.layout));
    Ok(())
}

/// `CSplitInferMeta` (x, nranks): the last dim divided by `nranks` (C++
/// integer division: an unknown `-1` becomes 0), then a negative dim 0
/// written as `-1`; in `x`'s layout.
fn c_split(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let n = a.int(1)?;
    if n == 0 {
        return Err(Bad("nranks must not be 0".into()));
    }
    let mut d = x.dims;
    let k = last_axis(&d)?;
    d.set(k, d.at(k)?.wrapping_div(n))?;
    if first(&d)? < 0 {
        d.set(0, -1)?;
    }
    set(outs, 0, Meta::laid_out(x.dtype, d, x.layout));
    Ok(())
}

/// `CScatterInferMeta` (x, ring_id, root, nranks): at least two ranks,
/// non-negative root and ring; dim 0 divided by `nranks` (`-1` when
/// negative).
fn c_scatter(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let ring_id = a.int(1)?;
    let root = a.int(2)?;
    let n = a.int(3)?;
    if n < 2 {
        return Err(Bad(format!(
            "The number of ranks ({n}) must be greater than 1 to use collective op (c_scatter op)."
        )));
    }
    if root < 0 {
        return Err(Bad(format!(
            "The root_id ({root}) for c_scatter_op must be non-negative."
        )));
    }
    if ring_id < 0 {
        return Err(Bad(format!(
            "The ring_id ({ring_id}) for c_scatter_op must be non-negative."
        )));
    }
    let mut d = x.dims;
    let v = first(&d)?.wrapping_div(n);
    d.set(0, if v < 0 { -1 } else { v })?;
    set(outs, 0, fresh(d, x.dtype));
    Ok(())
}

/// `PartialAllgatherInferMeta` (x, nranks, rank): at least two ranks, `rank`
/// among them; dims and data type of `x`.
fn partial_allgather(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let nranks = a.int(1)?;
    let rank = a.int(2)?;
    if nranks < 2 {
        return Err(Bad("The value of nranks should be >=2.".into()));
    }
    if !(0..nranks).contains(&rank) {
        return Err(Bad(format!(
            "The rank ({rank}) for partial_allgather op must >=0 and <nranks ({nranks})"
        )));
    }
    set(outs, 0, fresh(x.dims, x.dtype));
    Ok(())
}

/// `PartialSendInferMeta` (x, peer, num, id): no results, only checks.
fn partial_send(a: &Args<'_>, _outs: &mut [Out]) -> Result<(), Bad> {
    let peer = a.int(1)?;
    let num = a.int(2)?;
    let id = a.int(3)?;
    if peer < 0 {
        return Err(Bad(format!(
            "The peer ({peer}) for partial_send op must be non-negative."
        )));
    }
    if num < 1 {
        return Err(Bad(format!("The num ({num}) for partial_send op must >=1")));
    }
    if !(0..num).contains(&id) {
        return Err(Bad(format!(
            "The id ({id}) for partial_send op must >=0 and <num ({num})"
        )));
    }
    Ok(())
}

/// `SendV2InferMeta` (peer, ring_id): no results, only checks.
fn send_v2(a: &Args<'_>, _outs: &mut [Out]) -> Result<(), Bad> {
    let peer = a.int(0)?;
    let ring_id = a.int(1)?;
    if peer < 0 {
        return Err(Bad(format!(
            "The peer ({peer}) for send_v2 op must be non-negative."
        )));
    }
    if ring_id < 0 {
        return Err(Bad(format!(
            "The ring_id ({ring_id}) for send_v2 op must be non-negative."
        )));
    }
    Ok(())
}
