//! InferMeta functions of `unary.cc` whose shape comes from axes or
//! sections given as an `IntArray`: `split` and `squeeze` (both built with
//! `is_runtime = false`, so an `IntArray` from a tensor has unknown values).

use crate::args::Args;
use crate::meta::{DDim, Out};
use crate::unary::{dd, like, set};
use crate::Bad;

/// Dims as Paddle prints a `DDim` in messages (`2, 3`).
fn shown(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// `GetSplitAxisValue`: the axis in `[0, rank)`, `None` when it comes from
/// a tensor (unknown at build time).
fn split_axis(a: &Args<'_>, i: usize, rank: usize) -> Result<Option<usize>, Bad> {
    let axis = a.scalar(i)?;
    if axis.from_tensor {
        return Ok(None);
    }
    let (v, r) = (axis.value as i64, rank as i64);
    if v < -r || v >= r {
        return Err(Bad(format!(
            "The axis is expected to be in range of [{}, {r}), but got {v}",
            -r
        )));
    }
    Ok(Some(if v < 0 { v + r } else { v } as usize))
}

/// `SplitInferMeta` (x, sections, axis): with sections or the axis from a
/// tensor every output is unknown at x's rank; with x's dim on the axis
/// unknown (or 0) every output has x's dims; else the sections (one `-1`
/// takes the rest), which must add up to that dim. LoD is passed unless
/// splitting along dim 0.
pub(crate) fn split(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let sections = a.int_array(1)?;
    let r = x.dims.rank();
    let axis = split_axis(a, 2, r)?;
    let secs = &sections.values;
    let dims: Vec<DDim> = match axis {
        None => vec![dd(&vec![-1; r])?; secs.len()],
        Some(_) if sections.from_tensor => vec![dd(&vec![-1; r])?; secs.len()],
        Some(ax) if x.dims.at(ax)? <= 0 => vec![x.dims; secs.len()],
        Some(ax) => {
            let input = x.dims.at(ax)?;
            let unknown: Vec<usize> = (0..secs.len()).filter(|&i| secs[i] == -1).collect();
            if unknown.len() > 1 {
                return Err(Bad(format!(
                    "Only one dimension value of Attr(num_or_sections) in SplitOp can be -1. But received Attr(num_or_sections) = [{}].",
                    shown(secs)
                )));
            }
            let sum: i64 = secs.iter().filter(|&&s| s != -1).sum();
            let mut filled = secs.clone();
            if let Some(&u) = unknown.first() {
                if sum >= input {
                    return Err(Bad(format!(
                        "Sum of Attr(num_or_sections) other than unknown section must be less than the input's size along the split dimension. But received Attr(num_or_sections) = [{}], input(X)'s shape = [{}], Attr(dim) = {ax}.",
                        shown(secs),
                        shown(x.dims.as_slice())
                    )));
                }
                filled[u] = input - sum;
            } else if sum != input {
                return Err(Bad(format!(
                    "Sum of Attr(num_or_sections) must be equal to the input's size along the split dimension. But received Attr(num_or_sections) = [{}], input(X)'s shape = [{}], Attr(dim) = {ax}.",
                    shown(secs),
                    shown(x.dims.as_slice())
                )));
            }
            let mut dims = Vec::with_capacity(filled.len());
            for s in filled {
                let mut d = x.dims;
                d.set(ax, s)?;
                dims.push(d);
            }
            dims
        }
    };
    let metas = dims
        .into_iter()
        .map(|d| {
            let mut m = like(&x, d);
            if axis == Some(0) {
                m.lod = Box::new([]);
            }
            m
        })
        .collect();
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(metas);
    }
    Ok(())
}

/// `SqueezeInferMeta` (x, axes): axes from a tensor give `rank - len(axes)`
/// unknown dims; else `GetOutputSqueezeShape` at build time, which drops
/// every named dim that is 1 or unknown (-1), or with no axes every dim of
/// 1. LoD is passed when the first dim is kept.
pub(crate) fn squeeze(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axes = a.int_array(1)?;
    let r = x.dims.rank();
    let d = x.dims.as_slice();
    if axes.from_tensor {
        let n = r.checked_sub(axes.values.len()).ok_or_else(|| {
            Bad(format!(
                "squeeze: {} axes for a tensor of rank {r}",
                axes.values.len()
            ))
        })?;
        let mut m = like(&x, dd(&vec![-1; n])?);
        m.lod = Box::new([]);
        set(outs, 0, m);
        return Ok(());
    }
    let mut drop = vec![false; r];
    if axes.values.is_empty() {
        for (k, &v) in drop.iter_mut().zip(d) {
            *k = v == 1;
        }
    }
    for &ax in &axes.values {
        if r == 0 {
            if !(-1..=0).contains(&ax) {
                return Err(Bad(format!(
                    "For 0D Tensor, Each axis in Attr(axes) should be in the range of [-1, 0]But current axis is:{ax}, input tensor's shape = []."
                )));
            }
            continue;
        }
        let c = if ax < 0 { ax + r as i64 } else { ax };
        if c < 0 || c >= r as i64 {
            return Err(Bad(format!(
                "Each axis in Attr(axes) should be in the range of [{}, {}]But current axis is:{c}, input tensor's shape = [{}].",
                -(r as i64),
                r as i64 - 1,
                shown(d)
            )));
        }
        let c = c as usize;
        if d[c] == 1 || d[c] == -1 {
            drop[c] = true;
        }
    }
    let mut out = DDim::default();
    for (&k, &v) in drop.iter().zip(d) {
        if !k {
            out.push(v)?;
        }
    }
    let mut m = like(&x, out);
    if d.first() != out.as_slice().first() {
        m.lod = Box::new([]);
    }
    set(outs, 0, m);
    Ok(())
}
