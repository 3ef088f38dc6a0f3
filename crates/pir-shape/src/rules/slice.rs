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

/// The bounds of one sliced axis of extent `dim` as Paddle's slices
/// resolve them: integer bounds clamped to a known extent, a negative end
/// counted from the extent, `INT_MAX` as the extent, and a start of the
/// other sign than the end moved by the extent. A start below `-dim`
/// becomes 0 (`slice`) or `-dim` (`strided_slice`, `negative_floor`).
fn resolve_bounds(
    cx: &mut Cx<'_>,
    dim: &DimExpr,
    start: &DimExpr,
    end: &DimExpr,
    negative_floor: bool,
) -> (DimExpr, DimExpr) {
    let (mut start, mut end) = (start.clone(), end.clone());
    let mut start_i = 0;
    if let Some(s) = start.as_int() {
        if let Some(d) = dim.as_int() {
            if s > d {
                start = dim.clone();
            }
            if start.as_int().is_some_and(|s| s < -d) {
                start = DimExpr::Int(if negative_floor {
                    d.saturating_neg()
                } else {
                    0
                });
            }
        }
        start_i = start.as_int().unwrap_or(0);
    }
    let mut end_i = 0;
    if let Some(e) = end.as_int() {
        if let Some(d) = dim.as_int() {
            end = DimExpr::Int(e.min(d));
        }
        if end.as_int().is_some_and(|e| e < 0) {
            end = cx.add(&end, dim);
        }
        end_i = end.as_int().unwrap_or(0);
    }
    if end == DimExpr::Int(INT_MAX) {
        end = dim.clone();
    }
    let both = (start_i >= 0 && end_i >= 0) || (start_i <= 0 && end_i <= 0);
    if !both {
        start = if start_i <= 0 {
            cx.add(&start, dim)
        } else {
            cx.sub(&start, dim)
        };
    }
    (start, end)
}

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
    for (i, &axis) in axes.iter().enumerate() {
        (starts[i], ends[i]) = resolve_bounds(cx, &in_dims[axis], &starts[i], &ends[i], false);
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
        _ => shape_fact(cx, out_dims),
    };
    let fact = one_element_as_typed(cx, fact);
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

/// Paddle's `StridedSliceRawInferSymbolicShape`: a strided slice of a
/// shape (rank-1 data, integer bounds) slices the data, starting at the
/// first axis' normalized start; otherwise the extents follow
/// [`strided_slice_dims`], and an integer result of one element gets a
/// fresh symbol as its data.
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
        return Err(Bad(
            "The size of axes must equal size of starts, ends, and strides.".into(),
        ));
    }
    let axes = format_axes(&axes_raw, x.rank())?;
    let all_int = starts
        .iter()
        .chain(&ends)
        .chain(&strides)
        .all(DimExpr::is_int);
    let fact = match &x.data {
        Some(data) if all_int => strided_slice_data(data, &x.shape, &starts, &ends, &strides)?,
        _ => {
            let out = strided_slice_dims(cx, &x.shape, &axes, &starts, &ends, &strides);
            shape_fact(cx, out)
        }
    };
    let fact = one_element_as_typed(cx, fact);
    cx.set_tensor(0, fact);
    Ok(())
}

/// The elements of rank-1 `data` (of extent `shape`) a strided slice with
/// integer bounds keeps; an empty result keeps no data.
fn strided_slice_data(
    data: &[DimExpr],
    shape: &[DimExpr],
    starts: &[DimExpr],
    ends: &[DimExpr],
    strides: &[DimExpr],
) -> Result<TensorFact, Bad> {
    let [dim] = shape else {
        return Err(Bad(
            "Currently for strided_slice op, only the rank of shape == 1 is supported.".into(),
        ));
    };
    let first = |v: &[DimExpr]| v.first().and_then(DimExpr::as_int);
    let (Some(dim), Some(start), Some(end), Some(step)) =
        (dim.as_int(), first(starts), first(ends), first(strides))
    else {
        return Err(Bad("strided slice of data with unknown bounds".into()));
    };
    if step == 0 {
        return Err(Bad("strided slice step 0".into()));
    }
    let (start, mut end) = normalize_interval(start, end, step, dim);
    if Some(end) == dim.checked_neg().and_then(|n| n.checked_sub(1)) {
        end = -1;
    }
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < end) || (step < 0 && i > end) {
        let item = usize::try_from(i)
            .ok()
            .and_then(|i| data.get(i))
            .ok_or_else(|| Bad("strided slice past its data".into()))?;
        out.push(item.clone());
        let Some(next) = i.checked_add(step) else {
            break;
        };
        i = next;
    }
    let n = DimExpr::Int(out.len() as i64);
    Ok(if out.is_empty() {
        TensorFact::shape(vec![n])
    } else {
        TensorFact::with_data(vec![n], out)
    })
}

/// Paddle's `GetStridedSliceDims`: an axis whose extent and bounds are all
/// integers gets the exact count; otherwise bounds are resolved as
/// `slice`'s are and the count `Max((end - start ∓ 1 ± step) / step, 0)`
/// (built without simplification, as Paddle prints it) is bounded by what
/// the extent leaves; a symbolic step gives a fresh symbol.
fn strided_slice_dims(
    cx: &mut Cx<'_>,
    in_dims: &[DimExpr],
    axes: &[usize],
    starts: &[DimExpr],
    ends: &[DimExpr],
    strides: &[DimExpr],
) -> Vec<DimExpr> {
    let mut out = in_dims.to_vec();
    for (i, &axis) in axes.iter().enumerate() {
        let dim = in_dims[axis].clone();
        if let (Some(d), Some(s), Some(e), Some(st)) = (
            dim.as_int(),
            starts[i].as_int(),
            ends[i].as_int(),
            strides[i].as_int(),
        ) {
            if st != 0 {
                let (s, e) = normalize_interval(s, e, st, d);
                let e = if Some(e) == d.checked_neg().and_then(|n| n.checked_sub(1)) {
                    -1
                } else {
                    e
                };
                let step = i128::from(st).abs();
                let n = ((i128::from(e) - i128::from(s)).abs() + step - 1) / step;
                out[axis] = DimExpr::Int(i64::try_from(n).unwrap_or(i64::MAX));
                continue;
            }
        }
        let (start, end) = resolve_bounds(cx, &dim, &starts[i], &ends[i], true);
        let Some(step) = strides[i].as_int().filter(|&st| st != 0) else {
            out[axis] = cx.sym();
            continue;
        };
        // `(stop - start - 1 + step) / step` for a forward step,
        // `(stop - start + 1 + step) / step` for a backward one.
        let toward = DimExpr::Int(if step > 0 { -1 } else { 1 });
        let count = |cx: &mut Cx<'_>, stop: &DimExpr| {
            let span = cx.sub(stop, &start);
            let span = cx.add(&span, &toward);
            let span = cx.add(&span, &DimExpr::Int(step));
            cx.div(&span, &DimExpr::Int(step))
        };
        let n = count(cx, &end);
        let raw = DimExpr::Max(Box::new([n, DimExpr::Int(0)]));
        let out_dim = if raw.nodes() <= crate::expr::MAX_NODES {
            raw
        } else {
            cx.sym()
        };
        out[axis] = if !dim.is_int() || !end.is_int() {
            let avail = count(cx, &dim);
            let m = cx.min(&avail, &out_dim);
            cx.max(&m, &DimExpr::Int(0))
        } else {
            out_dim
        };
    }
    out
}

/// The fact of a slice whose data is not followed: its dims, and a fresh
/// symbol as the data of an integer element (a dim read from a shape
/// tensor Paddle cannot follow).
fn shape_fact(cx: &mut Cx<'_>, out: Vec<DimExpr>) -> TensorFact {
    let x_is_int = cx.operand(0).is_some_and(|v| cx.value_is_int(v));
    if x_is_int && (out.is_empty() || out == [DimExpr::Int(1)]) {
        let s = cx.sym();
        TensorFact::with_data(out, vec![s])
    } else {
        TensorFact::shape(out)
    }
}

/// A slice result holding data with no dims whose type has one element of
/// rank 1 takes the shape `[1]`, as Paddle does.
fn one_element_as_typed(cx: &Cx<'_>, fact: TensorFact) -> TensorFact {
    if fact.data.is_some() && fact.shape.is_empty() && cx.result_dims(0) == Some(vec![1]) {
        TensorFact {
            shape: vec![DimExpr::Int(1)],
            data: fact.data,
        }
    } else {
        fact
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Vec<DimExpr> {
        v.iter().copied().map(DimExpr::Int).collect()
    }

    #[test]
    fn strided_data_walks_both_ways() {
        let data = ints(&[10, 11, 12, 13]);
        let shape = ints(&[4]);
        let fwd = strided_slice_data(&data, &shape, &ints(&[0]), &ints(&[4]), &ints(&[2]));
        assert_eq!(fwd.ok().and_then(|f| f.data), Some(ints(&[10, 12])));
        let back = strided_slice_data(&data, &shape, &ints(&[-1]), &ints(&[-5]), &ints(&[-1]));
        assert_eq!(
            back.ok().and_then(|f| f.data),
            Some(ints(&[13, 12, 11, 10]))
        );
        let empty = strided_slice_data(&data, &shape, &ints(&[3]), &ints(&[1]), &ints(&[1]));
        assert_eq!(empty.ok(), Some(TensorFact::shape(ints(&[0]))));
    }

    #[test]
    fn strided_data_refuses_what_it_cannot_hold() {
        let short = ints(&[1, 2]);
        let res = strided_slice_data(&short, &ints(&[4]), &ints(&[0]), &ints(&[4]), &ints(&[1]));
        assert!(res.is_err(), "data shorter than its shape");
        let data = ints(&[1, 2, 3]);
        let shape = ints(&[3]);
        let step0 = strided_slice_data(&data, &shape, &ints(&[0]), &ints(&[3]), &ints(&[0]));
        assert!(step0.is_err());
        let huge = strided_slice_data(&data, &shape, &ints(&[0]), &ints(&[3]), &ints(&[i64::MAX]));
        assert_eq!(huge.ok().and_then(|f| f.data), Some(ints(&[1])));
        let rank2 =
            strided_slice_data(&data, &ints(&[3, 1]), &ints(&[0]), &ints(&[3]), &ints(&[1]));
        assert!(rank2.is_err());
    }
}
