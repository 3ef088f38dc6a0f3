//! Slices (Paddle's `infer_sym_slice_utils.h`): known bounds clamped,
//! negative ones resolved against the extent, symbolic extents bounded by
//! `Max(Min(…), 0)`; a slice of known data (a shape) slices the data.

use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::TensorFact;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.slice", slice),
    ("pd_op.strided_slice", strided_slice),
];

/// The starts or ends of a slice: operand data (a list's items' data) or
/// the attribute.
fn slice_bounds(cx: &mut Cx<'_>, i: usize, attr: &str) -> Result<Option<Vec<DimExpr>>, Bad> {
    cx.int_list(i, attr)
}

const INT_MAX: i64 = i32::MAX as i64;

/// Paddle's `GetSliceDims`: clamps known bounds, resolves negative ones,
/// and bounds symbolic extents by `Max(Min(…), 0)`.
fn slice_dims(
    cx: &mut Cx<'_>,
    in_dims: &[DimExpr],
    axes: &[usize],
    starts: &[DimExpr],
    ends: &[DimExpr],
) -> Vec<DimExpr> {
    let mut starts = starts.to_vec();
    let mut ends = ends.to_vec();
    for i in 0..axes.len() {
        let axis = axes[i];
        let dim = in_dims[axis].clone();
        let mut start_i = 0;
        if let Some(s) = starts[i].as_int() {
            if let Some(d) = dim.as_int() {
                if s > d {
                    starts[i] = dim.clone();
                }
                if starts[i].as_int().is_some_and(|s| s < -d) {
                    starts[i] = DimExpr::Int(0);
                }
            }
            start_i = starts[i].as_int().unwrap_or(0);
        }
        let mut end_i = 0;
        if let Some(e) = ends[i].as_int() {
            if let Some(d) = dim.as_int() {
                ends[i] = DimExpr::Int(e.min(d));
            }
            if ends[i].as_int().is_some_and(|e| e < 0) {
                ends[i] = cx.add(&ends[i].clone(), &dim);
            }
            if let Some(e) = ends[i].as_int() {
                end_i = e;
            }
        }
        if ends[i] == DimExpr::Int(INT_MAX) {
            ends[i] = dim.clone();
        }
        let both = (start_i >= 0 && end_i >= 0) || (start_i <= 0 && end_i <= 0);
        if both {
            continue;
        } else if start_i <= 0 && end_i >= 0 {
            starts[i] = cx.add(&starts[i].clone(), &dim);
        } else {
            starts[i] = cx.sub(&starts[i].clone(), &dim);
        }
    }
    let mut out = in_dims.to_vec();
    for i in 0..axes.len() {
        let axis = axes[i];
        let dim = in_dims[axis].clone();
        let out_dim = cx.sub(&ends[i], &starts[i]);
        if !out_dim.is_int() && (!dim.is_int() || !ends[i].is_int()) {
            let avail = cx.sub(&dim, &starts[i]);
            let m = cx.min(&avail, &out_dim);
            out[axis] = cx.max(&m, &DimExpr::Int(0));
        } else {
            out[axis] = out_dim.clone();
        }
        if out_dim.is_int() && !dim.is_int() {
            if out_dim == DimExpr::Int(1) {
                continue;
            }
            let m = cx.min(&out_dim, &dim);
            out[axis] = cx.max(&m, &DimExpr::Int(0));
        }
    }
    out
}

fn decrease(dims: Vec<DimExpr>, decrease: &[i64]) -> Vec<DimExpr> {
    if decrease.is_empty() {
        return dims;
    }
    dims.into_iter()
        .enumerate()
        .filter(|(i, _)| !decrease.contains(&(*i as i64)))
        .map(|(_, d)| d)
        .collect()
}

fn format_axes(axes: &[i64], rank: usize) -> Result<Vec<usize>, Bad> {
    axes.iter()
        .map(|&a| {
            let a = if a >= 0 { a } else { (a + rank as i64).max(0) };
            let a = a as usize;
            if a < rank {
                Ok(a)
            } else {
                Err(Bad(format!("slice axis {a} out of range")))
            }
        })
        .collect()
}

/// Elements `start..end` along `axis` of row-major `data` of shape `shape`
/// (`None` when the shape does not hold the data).
fn simple_slice(
    data: &[DimExpr],
    shape: &[i64],
    axis: usize,
    start: i64,
    end: i64,
) -> Option<Vec<DimExpr>> {
    let size = |dims: &[i64]| {
        dims.iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(usize::try_from(d).ok()?))
    };
    if size(shape)? != data.len() {
        return None;
    }
    let stride = size(shape.get(axis + 1..)?)?;
    let len = usize::try_from(*shape.get(axis)?).ok()?;
    let outer = size(&shape[..axis])?;
    let start = usize::try_from(start.max(0)).ok()?.min(len);
    let end = usize::try_from(end.max(0)).ok()?.min(len);
    let mut out = Vec::new();
    for o in 0..outer {
        for i in start..end {
            let base = (o * len + i) * stride;
            out.extend_from_slice(data.get(base..base + stride)?);
        }
    }
    Some(out)
}

fn slice(cx: &mut Cx<'_>) -> Res {
    let x = cx.tensor(0)?;
    let axes_raw = cx.ints_attr("axes").unwrap_or_default();
    let dec = cx.ints_attr("decrease_axis").unwrap_or_default();
    let (Some(starts), Some(ends)) = (slice_bounds(cx, 1, "starts")?, slice_bounds(cx, 2, "ends")?)
    else {
        return slice_of_unknown_bounds(cx, x.shape, &axes_raw, &dec);
    };
    if starts.len() != axes_raw.len() || ends.len() != axes_raw.len() {
        return Err(Bad("slice axes, starts and ends differ in size".into()));
    }
    let axes = format_axes(&axes_raw, x.rank())?;
    let dims = slice_dims(cx, &x.shape, &axes, &starts, &ends);
    let out_dims = decrease(dims, &dec);
    let all_int = starts.iter().chain(&ends).all(DimExpr::is_int);
    let out_is_int = cx.operand(0).is_some_and(|v| cx.value_is_int(v));
    let fact = match (&x.data, all_int && axes_raw.len() == 1) {
        (Some(data), true) => {
            let n = data.len() as i64;
            let s = starts[0].as_int().unwrap_or(0);
            let e = ends[0].as_int().unwrap_or(0);
            let s = if s < 0 { s + n } else { s };
            let e = if e < 0 {
                e + n
            } else if e == INT_MAX {
                n
            } else {
                e
            };
            let in_shape: Option<Vec<i64>> = x.shape.iter().map(DimExpr::as_int).collect();
            let in_shape = in_shape.ok_or_else(|| Bad("data of a symbolic shape".into()))?;
            let d = simple_slice(data, &in_shape, axes[0], s, e)
                .ok_or_else(|| Bad("data does not fill its shape".into()))?;
            TensorFact::with_data(out_dims, d)
        }
        _ => {
            if out_is_int
                && (out_dims.is_empty() || (out_dims.len() == 1 && out_dims[0] == DimExpr::Int(1)))
            {
                let s = cx.sym();
                TensorFact::with_data(out_dims, vec![s])
            } else {
                TensorFact::shape(out_dims)
            }
        }
    };
    let fact = if fact.data.is_some() && fact.shape.is_empty() && cx.result_dims(0) == Some(vec![1])
    {
        TensorFact {
            shape: vec![DimExpr::Int(1)],
            data: fact.data,
        }
    } else {
        fact
    };
    cx.set_tensor(0, fact);
    Ok(())
}

/// Bounds without data (a loaded parameter's): each sliced axis gets a
/// fresh extent, the decreased axes then go, and no data is known, as
/// Paddle prints it.
fn slice_of_unknown_bounds(
    cx: &mut Cx<'_>,
    mut dims: Vec<DimExpr>,
    axes: &[i64],
    dec: &[i64],
) -> Res {
    for axis in format_axes(axes, dims.len())? {
        dims[axis] = cx.sym();
    }
    cx.set_shape(0, decrease(dims, dec));
    Ok(())
}

fn strided_slice(cx: &mut Cx<'_>) -> Res {
    let x = cx.tensor(0)?;
    let axes_raw = cx.ints_attr("axes").unwrap_or_default();
    let starts = cx.int_list(1, "starts")?;
    let ends = cx.int_list(2, "ends")?;
    let strides = cx.int_list(3, "strides")?;
    let (Some(starts), Some(ends), Some(strides)) = (starts, ends, strides) else {
        return Err(Bad("strided slice bounds unknown".into()));
    };
    if [starts.len(), ends.len(), strides.len()] != [axes_raw.len(); 3] {
        return Err(Bad("strided slice lists differ in size".into()));
    }
    let axes = format_axes(&axes_raw, x.rank())?;
    let mut out = x.shape.clone();
    for i in 0..axes.len() {
        let axis = axes[i];
        match (
            out[axis].as_int(),
            starts[i].as_int(),
            ends[i].as_int(),
            strides[i].as_int(),
        ) {
            (Some(d), Some(s), Some(e), Some(st)) if st != 0 => {
                let (s, e) = normalize_interval(s, e, st, d);
                let e = if Some(e) == d.checked_neg().and_then(|n| n.checked_sub(1)) {
                    -1
                } else {
                    e
                };
                let step = i128::from(st).abs();
                let n = ((i128::from(e) - i128::from(s)).abs() + step - 1) / step;
                out[axis] = DimExpr::Int(i64::try_from(n).unwrap_or(i64::MAX));
            }
            _ => out[axis] = cx.sym(),
        }
    }
    cx.set_shape(0, out);
    Ok(())
}

/// Paddle's `normalize_interval` for a strided slice of a known extent.
fn normalize_interval(start: i64, end: i64, step: i64, dim: i64) -> (i64, i64) {
    let (mut s, mut e) = (start, end);
    if step > 0 {
        if s < 0 {
            s = s.saturating_add(dim);
        }
        if e < 0 {
            e = e.saturating_add(dim);
        }
        s = s.clamp(0, dim.max(0));
        e = e.clamp(0, dim.max(0));
        if e < s {
            e = s;
        }
    } else {
        if s < 0 {
            s = s.saturating_add(dim);
        }
        if e < 0 && Some(e) != dim.checked_neg().and_then(|n| n.checked_sub(1)) {
            e = e.saturating_add(dim);
        }
        let top = (dim - 1).max(-1);
        s = s.clamp(-1, top);
        e = e.clamp(-1, top);
        if e > s {
            e = s;
        }
    }
    (s, e)
}
