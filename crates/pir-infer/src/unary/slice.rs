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
    if starts.from_tensor || ends.from_tensor {
        flags = vec![-1; axes.len()];
    }
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

/// `ExpandInferMeta` (x, shape): `-1` in the shape keeps x's extent.
pub(crate) fn expand(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let shape = a.int_array(1)?;
    let xr = x.dims.rank();
    let mut sh = shape.values.clone();
    if sh.is_empty() {
        sh = vec![-1; xr];
    }
    let n = sh.len().max(xr);
    let mut xv: Vec<i64> = vec![1; n - xr];
    xv.extend_from_slice(x.dims.as_slice());
    let diff = n - sh.len();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        if i < diff {
            out.push(xv[i]);
            continue;
        }
        let s = sh[i - diff];
        out.push(if s == -1 { xv[i] } else { s });
    }
    set(outs, 0, Meta::laid_out(x.dtype, dd(&out)?, x.layout));
    Ok(())
}
