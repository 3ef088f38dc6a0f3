//! `SliceRawInferMeta` and `ExpandInferMeta` (part of `unary.cc`).

use crate::args::Args;
use crate::meta::{Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// `SliceRawInferMeta` (built with `is_runtime = false`): input, axes,
/// starts, ends, infer_flags, decrease_axis.
pub(crate) fn slice(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axes = a.ints(1)?;
    let starts = a.int_array(2)?;
    let ends = a.int_array(3)?;
    let mut flags = a.ints(4)?;
    let decrease = a.ints(5)?;
    if flags.is_empty() {
        flags = vec![1; axes.len()];
    }
    // Starts and ends given by tensors hold `-1` for the entries the builder
    // cannot read; Paddle computes with them all the same unless the entry's
    // infer flag is `-1` (which `paddle.slice` sets for such entries).
    let r = x.dims.rank() as i64;
    let mut d: Vec<i64> = x.dims.as_slice().to_vec();
    for (i, &ax) in axes.iter().enumerate() {
        let ax = if ax < 0 { ax + r } else { ax };
        let slot = d
            .get_mut(ax.max(0) as usize)
            .ok_or_else(|| Bad(format!("slice axis {ax} out of rank {r}")))?;
        if flags.get(i) == Some(&-1) {
            *slot = -1;
            continue;
        }
        let dim = *slot;
        if dim == -1 {
            continue;
        }
        let s = *starts
            .values
            .get(i)
            .ok_or_else(|| Bad("too few starts".into()))?;
        let e = *ends
            .values
            .get(i)
            .ok_or_else(|| Bad("too few ends".into()))?;
        let (s, e) = if dim > 0 {
            let s = (if s < 0 { s + dim } else { s }).max(0).min(dim);
            let e = (if e < 0 { e + dim } else { e }).min(dim).max(0);
            (s, e)
        } else {
            (0, 0)
        };
        *slot = (e - s).max(0);
    }
    let mut out = Vec::with_capacity(d.len());
    for (i, &v) in d.iter().enumerate() {
        let dropped = decrease
            .iter()
            .any(|&ax| (if ax < 0 { ax + r } else { ax }) == i as i64);
        if !dropped {
            out.push(v);
        }
    }
    let mut m = Meta::new(x.dtype, dd(&out)?);
    if axes.first().is_some_and(|&ax| ax != 0) {
        m.lod = x.lod.clone();
    }
    set(outs, 0, m);
    Ok(())
}

/// `ExpandInferMeta` (x, shape), as `ExpandOp::InferMeta` calls it: a
/// shape operand not made by `full_int_array` gives every entry as unknown
/// (`-2`, which becomes `-1`); a `-1` entry takes x's extent when it lines
/// up (from the right) with one of x's dims and stays `-1` otherwise.
pub(crate) fn expand(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let shape = a.int_array(1)?;
    let xr = x.dims.rank();
    let mut sh = if a.int_array_is_literal(1) {
        shape.values
    } else {
        vec![-2; shape.values.len()]
    };
    if sh.is_empty() {
        sh = vec![-1; xr];
    }
    if sh.len() < xr {
        return Err(Bad(format!(
            "The number of elements ({}) of 'shape' for expand_v2 op must be greater than or \
             equal to the rank ({xr}) of the input.",
            sh.len()
        )));
    }
    let lead = sh.len() - xr;
    for (i, s) in sh.iter_mut().enumerate() {
        if *s == -1 && i >= lead {
            *s = x.dims.at(i - lead)?;
        }
        if *s == -2 {
            *s = -1;
        }
    }
    set(outs, 0, Meta::laid_out(x.dtype, dd(&sh)?, x.layout));
    Ok(())
}
