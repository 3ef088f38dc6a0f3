//! One-tensor ops that change the shape (Paddle's `unary_infer_sym.cc`):
//! reductions, reshapes, slices, splits, pools.

pub(super) mod diag;
pub(super) mod linalg;
pub(super) mod misc;
pub(super) mod pool;
pub(super) mod signal;
pub(super) mod unique;

use super::{ints, Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::{ShapeOrData, TensorFact};

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.sum", reduce),
    ("pd_op.mean", reduce),
    ("pd_op.max", reduce),
    ("pd_op.min", reduce),
    ("pd_op.prod", reduce),
    ("pd_op.any", reduce),
    ("pd_op.all", reduce),
    ("pd_op.amax", reduce),
    ("pd_op.amin", reduce),
    ("pd_op.nansum", reduce),
    ("pd_op.logsumexp", reduce),
    ("pd_op.frobenius_norm", reduce),
    ("pd_op.std", reduce),
    ("pd_op.var", reduce),
    ("pd_op.p_norm", p_norm),
    ("pd_op.argmax", arg_min_max),
    ("pd_op.argmin", arg_min_max),
    ("pd_op.max_with_index", min_max_with_index),
    ("pd_op.min_with_index", min_max_with_index),
    ("pd_op.reshape", reshape),
    ("pd_op.reshape_", reshape),
    ("pd_op.view_shape", reshape),
    ("pd_op.transpose", transpose),
    ("pd_op.transpose_", transpose),
    ("pd_op.squeeze", squeeze),
    ("pd_op.squeeze_", squeeze),
    ("pd_op.unsqueeze", unsqueeze),
    ("pd_op.unsqueeze_", unsqueeze),
    ("pd_op.flatten", flatten),
    ("pd_op.flatten_", flatten),
    ("pd_op.shape", shape),
    ("pd_op.shape64", shape),
    ("pd_op.numel", numel),
    ("pd_op.split_with_num", split_with_num),
    ("pd_op.split", split),
    ("pd_op.unbind", unbind),
    ("pd_op.unstack", unbind),
    ("pd_op.tile", tile),
    ("pd_op.expand", expand),
    ("pd_op.topk", topk),
    ("pd_op.cumsum", same_shape),
    ("pd_op.cumsum_", same_shape),
    ("pd_op.logcumsumexp", same_shape),
    ("pd_op.dropout", dropout),
    ("pd_op.nearest_interp", interp),
    ("pd_op.bilinear_interp", interp),
    ("pd_op.bicubic_interp", interp),
    ("pd_op.trilinear_interp", interp),
    ("pd_op.linear_interp", interp),
    ("pd_op.interp_antialias", spatial_like_type),
    ("pd_op.yolo_box", spatial_like_type),
    ("pd_op.slogdet", slogdet),
    ("pd_op.slogdet_v2", batch_of_matrices),
    ("pd_op.kthvalue", kthvalue),
    ("pd_op.mode", kthvalue),
    ("pd_op.prior_box", from_result_types),
    ("pd_op.roi_align", from_result_types),
    ("pd_op.roi_pool", from_result_types),
    ("pd_op.shape_sr", shape),
    ("pd_op.shape64_sr", shape),
    ("pd_op.dropout_", dropout),
    ("pd_op.one_hot", one_hot),
    ("pd_op.nonzero", nonzero),
    ("pd_op.masked_select", fresh_1d),
    ("pd_op.repeat_interleave", repeat_interleave),
    (
        "pd_op.repeat_interleave_with_tensor_index",
        repeat_interleave,
    ),
    ("pd_op.full_batch_size_like", batch_size_like),
    ("pd_op.uniform_random_batch_size_like", batch_size_like),
    ("pd_op.uniform_random_batch_size_like_sr", batch_size_like),
];

/// Operand 0's shape when `ok` accepts its rank, else Paddle's refusal
/// `msg(rank)`.
pub(super) fn shape_of_rank(
    cx: &mut Cx<'_>,
    ok: impl FnOnce(usize) -> bool,
    msg: impl FnOnce(usize) -> String,
) -> Result<Vec<DimExpr>, Bad> {
    let x = cx.shape(0)?;
    if ok(x.len()) {
        Ok(x)
    } else {
        Err(Bad(msg(x.len())))
    }
}

fn same_shape(cx: &mut Cx<'_>) -> Res {
    let s = cx.shape(0)?;
    cx.set_shape(0, s);
    Ok(())
}

/// The axes of a reduction: attribute `axis` (or `dims`) or operand 1's data.
fn reduce_axes(cx: &mut Cx<'_>) -> Result<Vec<i64>, Bad> {
    let list = match cx.int_list(1, "axis")? {
        Some(v) => Some(v),
        None => cx.ints_attr("dims").map(|v| ints(&v)),
    };
    let list = list.unwrap_or_default();
    list.iter()
        .map(|d| d.as_int().ok_or_else(|| Bad("symbolic reduce axis".into())))
        .collect()
}

fn reduce_shape(x: &[DimExpr], axes: &[i64], keepdim: bool, all: bool) -> Vec<DimExpr> {
    let rank = x.len() as i64;
    let norm: Vec<i64> = axes
        .iter()
        .map(|&a| if a < 0 { a + rank } else { a })
        .collect();
    let all = all || axes.is_empty() || norm.len() as i64 == rank;
    let mut out = Vec::new();
    for (i, d) in x.iter().enumerate() {
        if all || norm.contains(&(i as i64)) {
            if keepdim {
                out.push(DimExpr::Int(1));
            }
        } else {
            out.push(d.clone());
        }
    }
    out
}

pub(crate) fn reduce(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let axes = reduce_axes(cx)?;
    let keepdim = cx.bool_attr("keepdim").unwrap_or(false);
    let all = cx.bool_attr("reduce_all").unwrap_or(false);
    let out = reduce_shape(&x, &axes, keepdim, all);
    cx.set_shape(0, out);
    Ok(())
}

fn p_norm(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let keepdim = cx.bool_attr("keepdim").unwrap_or(false);
    let out = if cx.bool_attr("asvector").unwrap_or(false) {
        if keepdim {
            vec![DimExpr::Int(1); x.len()]
        } else {
            Vec::new()
        }
    } else {
        let axis = cx.int_attr("axis").unwrap_or(-1);
        reduce_shape(&x, &[axis], keepdim, false)
    };
    cx.set_shape(0, out);
    Ok(())
}

fn arg_min_max(cx: &mut Cx<'_>) -> Res {
    min_max(cx, false)
}

/// `max_with_index` / `min_with_index`: `argmax`'s rule with the axis an
/// attribute (`dim`), both the values and the indices shaped by it.
fn min_max_with_index(cx: &mut Cx<'_>) -> Res {
    min_max(cx, true)
}

/// Paddle's one rule for the arg- and with-index reductions along one
/// axis (all of them when flattened).
fn min_max(cx: &mut Cx<'_>, with_index: bool) -> Res {
    let x = cx.shape(0)?;
    let flatten = cx.bool_attr("flatten").unwrap_or(false);
    let (keepdims, axis) = if with_index {
        let Some(axis) = cx.int_attr("dim") else {
            return Err(Bad(
                "'dim' Attribute is expected for Min/MaxWithIndexOp. ".into()
            ));
        };
        (cx.bool_attr("keepdim").unwrap_or(false), axis)
    } else {
        let axis = match cx.int_list(1, "axis")? {
            Some(v) => v.first().and_then(DimExpr::as_int).unwrap_or(0),
            None => 0,
        };
        (cx.bool_attr("keepdims").unwrap_or(false), axis)
    };
    let out = if flatten {
        if keepdims {
            vec![DimExpr::Int(1); x.len()]
        } else {
            Vec::new()
        }
    } else {
        reduce_shape(&x, &[axis], keepdims, x.is_empty())
    };
    if with_index {
        cx.set_shape(1, out.clone());
    }
    cx.set_shape(0, out);
    Ok(())
}

/// The target shape's entries: its data, or a fresh symbol per element.
fn target_shape(cx: &mut Cx<'_>, i: usize, attr: &str) -> Result<Vec<DimExpr>, Bad> {
    if let Some(v) = cx.int_list(i, attr)? {
        return Ok(v);
    }
    let t = cx.tensor(i)?;
    let n = match t.shape.as_slice() {
        [DimExpr::Int(n)] if *n >= 0 && *n <= crate::expr::MAX_NODES as i64 => *n,
        [] => 1,
        _ => return Err(Bad("the shape operand's size is unknown".into())),
    };
    Ok((0..n).map(|_| cx.sym()).collect())
}

fn reshape(cx: &mut Cx<'_>) -> Res {
    let x = cx.tensor(0)?;
    let mut target = target_shape(cx, 1, "shape")?;
    for (i, t) in target.iter_mut().enumerate() {
        if *t == DimExpr::Int(0) {
            if let Some(d) = x.shape.get(i) {
                *t = d.clone();
            }
        }
    }
    let minus_one = DimExpr::Int(-1);
    let numel = cx.product(&x.shape);
    let mut known = DimExpr::Int(1);
    for t in &target {
        if *t != minus_one {
            known = cx.mul(&known, t);
        }
    }
    let mut out = Vec::with_capacity(target.len());
    for t in target {
        if t == minus_one {
            out.push(cx.div(&numel, &known));
        } else {
            out.push(t);
        }
    }
    // The element count does not change.
    let out_numel = cx.product(&out);
    cx.eq(&numel, &out_numel);
    match x.data {
        Some(d) if out.len() <= 1 => cx.set_tensor(0, TensorFact::with_data(out, d)),
        _ => cx.set_shape(0, out),
    }
    Ok(())
}

fn transpose(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let perm = cx.ints_attr("perm").unwrap_or_default();
    let mut out = Vec::with_capacity(perm.len());
    for &p in &perm {
        let a = cx.axis(p, x.len())?;
        out.push(x[a].clone());
    }
    cx.set_shape(0, out);
    Ok(())
}

fn squeeze(cx: &mut Cx<'_>) -> Res {
    let x = cx.tensor(0)?;
    let axes = cx.int_list(1, "axis")?.unwrap_or_default();
    let rank = x.rank() as i64;
    let mut drop = vec![false; x.rank()];
    if axes.is_empty() {
        for (i, d) in x.shape.iter().enumerate() {
            drop[i] = *d == DimExpr::Int(1);
        }
    } else {
        for a in &axes {
            let a = a
                .as_int()
                .ok_or_else(|| Bad("symbolic squeeze axis".into()))?;
            let a = if a < 0 { a + rank } else { a };
            if let Some(slot) = usize::try_from(a).ok().and_then(|a| drop.get_mut(a)) {
                *slot = x.shape[a as usize] == DimExpr::Int(1);
            }
        }
    }
    let out: Vec<DimExpr> = x
        .shape
        .iter()
        .zip(&drop)
        .filter(|(_, d)| !**d)
        .map(|(s, _)| s.clone())
        .collect();
    match x.data {
        Some(d) if out.len() <= 1 => cx.set_tensor(0, TensorFact::with_data(out, d)),
        _ => cx.set_shape(0, out),
    }
    Ok(())
}

/// `unsqueeze`, as Paddle places the new axes: each axis (normalized
/// against the rank reached so far) marks a 1, moving the marks at and
/// after it one place on; the input's dims fill the rest in order. An axis
/// known only as a symbol makes every output dim a fresh symbol.
fn unsqueeze(cx: &mut Cx<'_>) -> Res {
    let x = cx.tensor(0)?;
    let axes = match cx.ints_attr("axis") {
        Some(v) => ints(&v),
        None => {
            let f = cx.input(1);
            misc::data_or_new_syms(cx, &f)?
        }
    };
    let rank = x.rank() + axes.len();
    if rank > pir_infer::MAX_RANK + 1 {
        return Err(Bad("rank too large".into()));
    }
    // `true` marks a new axis; `false` a slot for an input dim.
    let mut marks = vec![false; rank + 1];
    let mut symbolic = false;
    for (cur, a) in (x.rank()..).zip(&axes) {
        let Some(a) = a.as_int() else {
            symbolic = true;
            break;
        };
        let at = if a < 0 { a + cur as i64 + 1 } else { a };
        let Some(at) = usize::try_from(at).ok().filter(|&at| at <= cur) else {
            return Err(Bad(format!("unsqueeze axis {a} out of range")));
        };
        for i in (at..=cur).rev() {
            if marks[i] {
                marks[i + 1] = true;
                marks[i] = false;
            }
        }
        marks[at] = true;
    }
    let out: Vec<DimExpr> = if symbolic {
        (0..rank).map(|_| cx.sym()).collect()
    } else {
        let mut dims = x.shape.iter();
        marks[..rank]
            .iter()
            .map(|&m| {
                if m {
                    DimExpr::Int(1)
                } else {
                    dims.next().cloned().unwrap_or(DimExpr::Int(1))
                }
            })
            .collect()
    };
    match x.data {
        Some(d) if x.rank() == 0 && !symbolic => cx.set_tensor(0, TensorFact::with_data(out, d)),
        _ => cx.set_shape(0, out),
    }
    Ok(())
}

fn flatten(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let rank = x.len();
    if rank == 0 {
        cx.set_shape(0, vec![DimExpr::Int(1)]);
        return Ok(());
    }
    let start = cx.axis(cx.int_attr("start_axis").unwrap_or(1), rank)?;
    let stop = cx.axis(cx.int_attr("stop_axis").unwrap_or(-1), rank)?;
    let mut out: Vec<DimExpr> = x[..start].to_vec();
    if start <= stop {
        let p = cx.product(&x[start..=stop]);
        out.push(p);
        out.extend_from_slice(&x[stop + 1..]);
    } else {
        out = x.clone();
    }
    cx.set_shape(0, out);
    Ok(())
}

fn shape(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let t = TensorFact::with_data(vec![DimExpr::Int(x.len() as i64)], x);
    cx.set_tensor(0, t);
    Ok(())
}

fn numel(cx: &mut Cx<'_>) -> Res {
    cx.set_shape(0, Vec::new());
    Ok(())
}

fn split_axis(cx: &mut Cx<'_>, i: usize, rank: usize) -> Result<usize, Bad> {
    let axis = cx
        .int_list(i, "axis")?
        .and_then(|v| v.first().and_then(DimExpr::as_int))
        .ok_or_else(|| Bad("split axis unknown".into()))?;
    cx.axis(axis, rank)
}

fn set_list_or_results(cx: &mut Cx<'_>, parts: Vec<TensorFact>) {
    if cx.num_results() == 1 {
        cx.set(0, ShapeOrData::List(parts));
    } else {
        for (k, p) in parts.into_iter().enumerate() {
            cx.set_tensor(k, p);
        }
    }
}

fn split_with_num(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let axis = split_axis(cx, 1, x.len())?;
    let num = cx.int_attr("num").unwrap_or(1).max(1);
    let part = cx.div(&x[axis], &DimExpr::Int(num));
    let mut parts = Vec::new();
    for _ in 0..num.min(1 << 16) {
        let mut s = x.clone();
        s[axis] = part.clone();
        parts.push(TensorFact::shape(s));
    }
    set_list_or_results(cx, parts);
    Ok(())
}

fn split(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let axis = split_axis(cx, 2, x.len())?;
    let sections = cx
        .int_list(1, "sections")?
        .ok_or_else(|| Bad("split sections unknown".into()))?;
    let minus = sections.iter().filter(|s| **s == DimExpr::Int(-1)).count();
    let mut known = DimExpr::Int(0);
    for s in sections.iter().filter(|s| **s != DimExpr::Int(-1)) {
        known = cx.add(&known, s);
    }
    let mut parts = Vec::new();
    for s in &sections {
        let mut shape = x.clone();
        shape[axis] = if *s == DimExpr::Int(-1) && minus == 1 {
            cx.sub(&x[axis], &known)
        } else {
            s.clone()
        };
        parts.push(TensorFact::shape(shape));
    }
    set_list_or_results(cx, parts);
    Ok(())
}

fn unbind(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let axis = cx.axis(cx.int_attr("axis").unwrap_or(0), x.len())?;
    let n = match x[axis].as_int() {
        Some(n) if n >= 0 => n,
        _ => cx.int_attr("num").unwrap_or(0),
    };
    let mut s = x.clone();
    s.remove(axis);
    let parts = (0..n.min(1 << 16))
        .map(|_| TensorFact::shape(s.clone()))
        .collect();
    set_list_or_results(cx, parts);
    Ok(())
}

fn tile(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let reps = cx
        .int_list(1, "repeat_times")?
        .ok_or_else(|| Bad("tile repeats unknown".into()))?;
    let n = x.len().max(reps.len());
    let one = DimExpr::Int(1);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let xd = if i + x.len() >= n {
            x[i + x.len() - n].clone()
        } else {
            one.clone()
        };
        let rd = if i + reps.len() >= n {
            reps[i + reps.len() - n].clone()
        } else {
            one.clone()
        };
        out.push(cx.mul(&xd, &rd));
    }
    cx.set_shape(0, out);
    Ok(())
}

fn expand(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let target = target_shape(cx, 1, "shape")?;
    let n = target.len().max(x.len());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let t = if i + target.len() >= n {
            Some(&target[i + target.len() - n])
        } else {
            None
        };
        let xd = if i + x.len() >= n {
            Some(&x[i + x.len() - n])
        } else {
            None
        };
        out.push(match (t, xd) {
            (Some(t), Some(xd)) if *t == DimExpr::Int(-1) => xd.clone(),
            (Some(t), _) => t.clone(),
            (None, Some(xd)) => xd.clone(),
            (None, None) => DimExpr::Int(1),
        });
    }
    cx.set_shape(0, out);
    Ok(())
}

fn topk(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let k = cx
        .int_list(1, "k")?
        .and_then(|v| v.first().cloned())
        .unwrap_or(DimExpr::Int(1));
    if !x.is_empty() {
        let axis = cx.axis(cx.int_attr("axis").unwrap_or(-1), x.len())?;
        x[axis] = k;
    }
    cx.set_shape(0, x.clone());
    cx.set_shape(1, x);
    Ok(())
}

fn dropout(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    cx.set_shape(0, x.clone());
    cx.set_shape(1, x);
    Ok(())
}

/// Ops whose extents past the batch follow from attributes the type
/// already shows (pools, pads, shuffles, detection heads): the first dim
/// is the input's, the rest the result type's, fresh symbols where it has
/// `-1`.
fn spatial_like_type(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    for r in 0..cx.num_results() {
        let Some(dims) = cx.result_dims(r) else {
            continue;
        };
        let mut out = Vec::with_capacity(dims.len());
        for (i, &d) in dims.iter().enumerate() {
            if i == 0 && !x.is_empty() {
                out.push(if d >= 0 && x[0].is_int() {
                    DimExpr::Int(d)
                } else {
                    x[0].clone()
                });
            } else if d >= 0 {
                out.push(DimExpr::Int(d));
            } else {
                out.push(cx.sym());
            }
        }
        cx.set_shape(r, out);
    }
    Ok(())
}

/// Interpolations: the batch and channels of the input, the spatial
/// extents from the output size, the scale, or the result type.
fn interp(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    if x.len() == 3 {
        // Paddle gives a 1-D interpolation's width a fresh symbol.
        let w = cx.sym();
        cx.set_shape(0, vec![x[0].clone(), x[1].clone(), w]);
        return Ok(());
    }
    spatial_like_type(cx)
}

fn one_hot(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let depth = match cx.int_list(1, "num_classes")? {
        Some(v) => v.first().cloned(),
        None => cx.int_attr("depth").map(DimExpr::Int),
    };
    let depth = match depth {
        Some(d) => d,
        None => cx.sym(),
    };
    x.push(depth);
    cx.set_shape(0, x);
    Ok(())
}

/// `nonzero`: as many rows as nonzero elements (a fresh symbol), one
/// column per dim.
fn nonzero(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let n = cx.sym();
    cx.set_shape(0, vec![n, DimExpr::Int(x.len() as i64)]);
    Ok(())
}

/// A 1-d result of a length known only when run.
fn fresh_1d(cx: &mut Cx<'_>) -> Res {
    let n = cx.sym();
    cx.set_shape(0, vec![n]);
    Ok(())
}

fn repeat_interleave(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let axis = cx.int_attr("axis").unwrap_or(0);
    if x.is_empty() {
        let n = cx.sym();
        cx.set_shape(0, vec![n]);
        return Ok(());
    }
    let a = cx.axis(axis, x.len())?;
    x[a] = match cx.int_attr("repeats") {
        Some(r) if cx.operand(1).is_none() => cx.mul(&x[a].clone(), &DimExpr::Int(r)),
        _ => cx.sym(),
    };
    cx.set_shape(0, x);
    Ok(())
}

/// `*_batch_size_like`: the `shape` attribute with one dim taken from the
/// input's.
fn batch_size_like(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let mut out = ints(&cx.ints_attr("shape").unwrap_or_default());
    let i = cx.int_attr("input_dim_idx").unwrap_or(0);
    let o = cx.int_attr("output_dim_idx").unwrap_or(0);
    let (Ok(i), Ok(o)) = (usize::try_from(i), usize::try_from(o)) else {
        return Err(Bad("negative batch dim index".into()));
    };
    match (x.get(i), out.get_mut(o)) {
        (Some(d), Some(slot)) => *slot = d.clone(),
        _ => return Err(Bad("batch dim index out of range".into())),
    }
    cx.set_shape(0, out);
    Ok(())
}

/// Ops whose results' types say all Paddle infers: known dims as they are,
/// a fresh symbol for each unknown one.
fn from_result_types(cx: &mut Cx<'_>) -> Res {
    for r in 0..cx.num_results() {
        let Some(dims) = cx.result_dims(r) else {
            continue;
        };
        let out = dims
            .iter()
            .map(|&d| if d >= 0 { DimExpr::Int(d) } else { cx.sym() })
            .collect();
        cx.set_shape(r, out);
    }
    Ok(())
}

/// `slogdet`: the sign and the log of the determinant, stacked: `[2]` and
/// the batch dims.
fn slogdet(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let mut out = vec![DimExpr::Int(2)];
    out.extend_from_slice(&x[..x.len().saturating_sub(2)]);
    cx.set_shape(0, out);
    Ok(())
}

/// `slogdet_v2`: the sign and the log of the determinant of square
/// matrices, each of the batch dims.
fn batch_of_matrices(cx: &mut Cx<'_>) -> Res {
    let x = shape_of_rank(cx, |r| r >= 2, |r| format!("slogdet_v2 of a {r}-D tensor"))?;
    let r = x.len();
    cx.eq(&x[r - 1], &x[r - 2]);
    let batch = x[..r - 2].to_vec();
    cx.set_shape(0, batch.clone());
    cx.set_shape(1, batch);
    Ok(())
}

/// `kthvalue` and `mode`: the values and indices along `axis` (kept as 1
/// with `keepdim`).
fn kthvalue(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let axis = cx.int_attr("axis").unwrap_or(-1);
    let keepdim = cx.bool_attr("keepdim").unwrap_or(false);
    let out = if x.is_empty() {
        x
    } else {
        reduce_shape(&x, &[axis], keepdim, false)
    };
    cx.set_shape(0, out.clone());
    cx.set_shape(1, out);
    Ok(())
}
