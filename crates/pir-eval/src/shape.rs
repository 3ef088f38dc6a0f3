//! Shape ops: `reshape`, `transpose`, `squeeze`, `unsqueeze`, `flatten`,
//! `expand`, `expand_as`, `tile`, `shape`, `shape64`, `concat`, `stack`,
//! `split`, `split_with_num`, `unstack`, `slice`, `strided_slice`.

use ndarray::{Axis, IxDyn, Slice};
use pir_params::DType;

use crate::attrs::{int_values, scalar_int, Ctx};
use crate::reduce::axis;
use crate::value::{array, with_array, Elem};
use crate::{numel, EvalError, EvalTensor};

/// The ops of this module.
pub(crate) const OPS: &[&str] = &[
    "pd_op.reshape",
    "pd_op.transpose",
    "pd_op.squeeze",
    "pd_op.unsqueeze",
    "pd_op.flatten",
    "pd_op.expand",
    "pd_op.expand_as",
    "pd_op.tile",
    "pd_op.shape",
    "pd_op.shape64",
    "pd_op.concat",
    "pd_op.stack",
    "pd_op.split",
    "pd_op.split_with_num",
    "pd_op.unstack",
    "pd_op.slice",
    "pd_op.strided_slice",
    "pd_op.numel",
    "pd_op.flip",
];

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    let one = |r: Result<EvalTensor, EvalError>| Some(r.map(|t| vec![t]));
    match c.name {
        "pd_op.reshape" => one(reshape(c)),
        "pd_op.transpose" => one(transpose(c)),
        "pd_op.squeeze" => one(squeeze(c)),
        "pd_op.unsqueeze" => one(unsqueeze(c)),
        "pd_op.flatten" => one(flatten(c)),
        "pd_op.expand" | "pd_op.expand_as" => one(expand(c)),
        "pd_op.tile" => one(tile(c)),
        "pd_op.shape" | "pd_op.shape64" => one(shape(c)),
        "pd_op.concat" => one(concat(c)),
        "pd_op.stack" => one(stack(c)),
        "pd_op.split" | "pd_op.split_with_num" => Some(split(c)),
        "pd_op.unstack" => Some(unstack(c)),
        "pd_op.slice" => one(slice(c)),
        "pd_op.strided_slice" => one(strided_slice(c)),
        "pd_op.numel" => one(numel_op(c)),
        "pd_op.flip" => one(flip(c)),
        _ => None,
    }
}

/// `x`'s elements in row-major order under new dims.
fn relabel(x: &EvalTensor, dims: &[usize]) -> Result<EvalTensor, EvalError> {
    with_array!(x, a => Ok(Elem::wrap(array(dims, a.iter().copied().collect())?)))
}

/// The output dims of a reshape, with Paddle's rules: `0` copies the input
/// dim at the same index (an empty input's `0` stays 0), one `-1` is
/// inferred from the element count.
pub(crate) fn reshape_dims(
    op: &str,
    input: &[usize],
    shape: &[i64],
) -> Result<Vec<usize>, EvalError> {
    let numel: usize = input.iter().product();
    let mut out = Vec::with_capacity(shape.len());
    let mut infer = None;
    for (i, &s) in shape.iter().enumerate() {
        match s {
            -1 if infer.is_none() => {
                infer = Some(i);
                out.push(1);
            }
            -1 => return Err(EvalError::shape(op, "only one dimension can be -1")),
            // An empty input keeps a literal 0.
            0 if numel == 0 => out.push(0),
            0 => out.push(*input.get(i).ok_or_else(|| {
                EvalError::shape(
                    op,
                    format!("0 at index {i} is beyond the input's rank {}", input.len()),
                )
            })?),
            s if s > 0 => out.push(
                usize::try_from(s)
                    .map_err(|_| EvalError::shape(op, format!("invalid dimension {s}")))?,
            ),
            s => return Err(EvalError::shape(op, format!("invalid dimension {s}"))),
        }
    }
    let known = out
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| EvalError::shape(op, format!("cannot reshape {input:?} to {shape:?}")))?;
    if let Some(i) = infer {
        if known == 0 || !numel.is_multiple_of(known) {
            return Err(EvalError::shape(
                op,
                format!("cannot reshape {input:?} to {shape:?}"),
            ));
        }
        out[i] = numel / known;
    } else if known != numel {
        return Err(EvalError::shape(
            op,
            format!("cannot reshape {input:?} to {shape:?}"),
        ));
    }
    Ok(out)
}

/// `reshape(x, shape)`: the shape is an int32/int64 tensor.
fn reshape(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let x = c.x(0)?;
    let dims = reshape_dims(c.name, x.shape(), &int_values(c, c.x(1)?)?)?;
    relabel(x, &dims)
}

/// `transpose(x, perm)`; negative axes count from the end.
fn transpose(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(1)?;
    let x = c.x(0)?;
    let perm = c.ints("perm")?;
    let rank = x.shape().len();
    if perm.len() != rank {
        return Err(c.shape_err(format!("perm {perm:?} for rank {rank}")));
    }
    let mut seen = vec![false; rank];
    let mut axes = Vec::with_capacity(rank);
    for &p in &perm {
        let ax = if p < 0 { p + rank as i64 } else { p };
        let ax = usize::try_from(ax)
            .ok()
            .filter(|&ax| ax < rank && !seen[ax])
            .ok_or_else(|| c.shape_err(format!("perm {perm:?} is not a permutation")))?;
        seen[ax] = true;
        axes.push(ax);
    }
    with_array!(x, arr => Ok(Elem::wrap(
        arr.view().permuted_axes(IxDyn(&axes)).as_standard_layout().into_owned()
    )))
}

/// `squeeze(x, axis)`: drops the listed dims of size 1 (others listed are
/// kept, as Paddle does), or every dim of size 1 for an empty list.
fn squeeze(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let x = c.x(0)?;
    let list = int_values(c, c.x(1)?)?;
    let s = x.shape();
    let mut drop = vec![false; s.len()];
    if list.is_empty() {
        for (d, &n) in drop.iter_mut().zip(s) {
            *d = n == 1;
        }
    } else {
        for &a in &list {
            let ax = axis(c.name, s.len(), a)?;
            if ax < s.len() && s[ax] == 1 {
                drop[ax] = true;
            }
        }
    }
    let dims: Vec<usize> = s
        .iter()
        .zip(&drop)
        .filter(|(_, &d)| !d)
        .map(|(&n, _)| n)
        .collect();
    relabel(x, &dims)
}

/// `unsqueeze(x, axis)`: inserts dims of size 1 one after the other; a
/// negative axis counts in the rank reached so far, plus one.
fn unsqueeze(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let x = c.x(0)?;
    let mut dims = x.shape().to_vec();
    for a in int_values(c, c.x(1)?)? {
        let r = dims.len() as i64;
        let at = if a < 0 { a + r + 1 } else { a };
        if at < 0 || at > r {
            return Err(c.shape_err(format!("axis {a} out of range for rank {r}")));
        }
        dims.insert(at as usize, 1);
    }
    relabel(x, &dims)
}

/// `flatten(x, start_axis, stop_axis)`; a 0-d tensor becomes `[1]`.
fn flatten(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(1)?;
    let x = c.x(0)?;
    let s = x.shape();
    if s.is_empty() {
        return relabel(x, &[1]);
    }
    let start = axis(c.name, s.len(), c.i64_or("start_axis", 1)?)?;
    let stop = axis(c.name, s.len(), c.i64_or("stop_axis", 1)?)?;
    if start > stop {
        return Err(c.shape_err("start_axis is after stop_axis"));
    }
    let mut dims = s[..start].to_vec();
    dims.push(s[start..=stop].iter().product());
    dims.extend_from_slice(&s[stop + 1..]);
    relabel(x, &dims)
}

/// Broadcasts `x` to `dims` (aligned right, like numpy).
fn broadcast_to(c: &Ctx<'_>, x: &EvalTensor, dims: &[usize]) -> Result<EvalTensor, EvalError> {
    numel(c.name, dims)?;
    with_array!(x, a => {
        let b = a.broadcast(IxDyn(dims)).ok_or_else(|| {
            c.shape_err(format!("cannot expand {:?} to {dims:?}", a.shape()))
        })?;
        Ok(Elem::wrap(b.to_owned()))
    })
}

/// `expand(x, shape)` and `expand_as(x, y?, target_shape)`: `-1` keeps the
/// input dim; new dims go in front. No float16/bfloat16 `expand_as` kernel.
fn expand(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    let x = c.x(0)?;
    let target = if c.name == "pd_op.expand" {
        c.arity_is(2)?;
        int_values(c, c.x(1)?)?
    } else {
        if matches!(x.dtype(), DType::Float16 | DType::BFloat16) {
            return Err(c.dtype_err(x.dtype()));
        }
        let t = c.ints_or("target_shape", &[])?;
        if t.is_empty() {
            c.opt(1)?
                .ok_or_else(|| c.bad("target_shape", "missing"))?
                .dims()
        } else {
            t
        }
    };
    let s = x.shape();
    if target.len() < s.len() {
        return Err(c.shape_err(format!("cannot expand {s:?} to {target:?}")));
    }
    let lead = target.len() - s.len();
    let dims = target
        .iter()
        .enumerate()
        .map(|(i, &t)| match (t, i.checked_sub(lead)) {
            (-1, Some(j)) => Ok(s[j]),
            (t, _) if t >= 0 => Ok(t as usize),
            _ => Err(c.shape_err(format!("bad target dim {t} in {target:?}"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    broadcast_to(c, x, &dims)
}

/// `tile(x, repeat_times)`: shorter repeat lists and shorter inputs are
/// padded with leading 1s. No bfloat16 kernel.
fn tile(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let x = c.x(0)?;
    if x.dtype() == DType::BFloat16 {
        return Err(c.dtype_err(x.dtype()));
    }
    let reps = int_values(c, c.x(1)?)?;
    if reps.iter().any(|&r| r < 0) {
        return Err(c.shape_err(format!("negative repeat times {reps:?}")));
    }
    let rank = reps.len().max(x.shape().len());
    let mut s = vec![1; rank - x.shape().len()];
    s.extend_from_slice(x.shape());
    let mut r = vec![1usize; rank - reps.len()];
    r.extend(reps.iter().map(|&v| v as usize));
    // View as [1, s0, 1, s1, ...], broadcast to [r0, s0, r1, s1, ...].
    let mut inter = Vec::with_capacity(2 * rank);
    let mut big = Vec::with_capacity(2 * rank);
    let mut out = Vec::with_capacity(rank);
    for (&si, &ri) in s.iter().zip(&r) {
        inter.extend([1, si]);
        big.extend([ri, si]);
        out.push(si.checked_mul(ri).ok_or_else(|| EvalError::TooLarge {
            op: c.name.to_string(),
        })?);
    }
    numel(c.name, &out)?;
    let v = relabel(x, &inter)?;
    let b = broadcast_to(c, &v, &big)?;
    relabel(&b, &out)
}

/// `shape` (int32) and `shape64` (int64). Paddle 3.3.1 registers no
/// float16/bfloat16 `shape` kernel on the CPU.
fn shape(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(1)?;
    let x = c.x(0)?;
    let dims = x.dims();
    if c.name == "pd_op.shape" {
        if matches!(x.dtype(), DType::Float16 | DType::BFloat16) {
            return Err(c.dtype_err(x.dtype()));
        }
        EvalTensor::from_i64s(DType::Int32, &[dims.len()], &dims)
    } else {
        EvalTensor::from_i64s(DType::Int64, &[dims.len()], &dims)
    }
}

/// `numel(x)`: the element count as a 0-d int64 tensor.
fn numel_op(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(1)?;
    let n = c.x(0)?.numel();
    EvalTensor::from_i64s(DType::Int64, &[], &[n as i64])
}

/// `flip(x, axis)`: reverses the listed axes (negative count from the end);
/// no float16/bfloat16 kernels.
fn flip(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(1)?;
    let x = c.x(0)?;
    if matches!(x.dtype(), DType::Float16 | DType::BFloat16) {
        return Err(c.dtype_err(x.dtype()));
    }
    let rank = x.shape().len();
    let axes = c
        .ints("axis")?
        .iter()
        .map(|&a| axis(c.name, rank, a))
        .collect::<Result<Vec<_>, _>>()?;
    with_array!(x, a => {
        let mut v = a.view();
        for &ax in &axes {
            if ax < v.ndim() {
                v.invert_axis(Axis(ax));
            }
        }
        Ok(Elem::wrap(v.as_standard_layout().into_owned()))
    })
}

/// Joins `xs` along `ax` (all of one dtype; equal dims elsewhere).
fn join(c: &Ctx<'_>, xs: &[EvalTensor], ax: usize) -> Result<EvalTensor, EvalError> {
    let first = xs.first().ok_or_else(|| c.shape_err("no inputs"))?;
    fn go<T: Elem>(c: &Ctx<'_>, xs: &[EvalTensor], ax: usize) -> Result<EvalTensor, EvalError> {
        let views = xs
            .iter()
            .map(|t| {
                T::view(t)
                    .map(|a| a.view())
                    .ok_or_else(|| c.dtype_err(t.dtype()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let out = ndarray::concatenate(Axis(ax), &views)
            .map_err(|e| c.shape_err(format!("inputs do not join: {e}")))?;
        Ok(T::wrap(out))
    }
    crate::value::dispatch_dtype!(first.dtype(), T => go::<T>(c, xs, ax))
}

/// `concat(x, axis)`.
fn concat(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let xs = c.list(0)?;
    let rank = xs.first().map_or(0, |t| t.shape().len());
    if rank == 0 {
        return Err(c.shape_err("concat needs inputs of rank >= 1"));
    }
    let ax = axis(c.name, rank, scalar_int(c, c.x(1)?)?)?;
    let mut dims = xs[0].shape().to_vec();
    dims[ax] = xs
        .iter()
        .map(|t| t.shape().get(ax).copied().unwrap_or(0))
        .sum();
    numel(c.name, &dims)?;
    join(c, xs, ax)
}

/// `stack(x, axis)`: a new axis (counted in the output's rank).
fn stack(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(1)?;
    let xs = c.list(0)?;
    let first = xs.first().ok_or_else(|| c.shape_err("no inputs"))?;
    let rank = first.shape().len();
    let a = c.i64_or("axis", 0)?;
    let ax = axis(c.name, rank + 1, a)?;
    let mut dims = first.shape().to_vec();
    dims.insert(ax, 1);
    let parts = xs
        .iter()
        .map(|t| {
            if t.shape() != first.shape() {
                return Err(c.shape_err("stack inputs differ in shape"));
            }
            relabel(t, &dims)
        })
        .collect::<Result<Vec<_>, _>>()?;
    join(c, &parts, ax)
}

/// Cuts `x` along `ax` into pieces of the given sizes.
fn cut(x: &EvalTensor, ax: usize, sizes: &[usize]) -> Vec<EvalTensor> {
    let mut out = Vec::with_capacity(sizes.len());
    let mut at = 0isize;
    for &n in sizes {
        let end = at + n as isize;
        out.push(with_array!(x, a => Elem::wrap(
            a.slice_axis(Axis(ax), Slice::from(at..end)).to_owned()
        )));
        at = end;
    }
    out
}

/// `split(x, sections, axis)` (one `-1` section is inferred) and
/// `split_with_num(x, axis, num)` (equal parts). A negative axis is refused:
/// Paddle 3.3.1's `split` kernel cuts the wrong elements with one (splitting
/// `[2, 6]` along -1 returns rows of the flat data) and `split_with_num`
/// rejects it. The pieces are the elements of the vector result.
fn split(c: &Ctx<'_>) -> Result<Vec<EvalTensor>, EvalError> {
    let x = c.x(0)?;
    let rank = x.shape().len();
    let (sizes, ax) = if c.name == "pd_op.split" {
        c.arity_is(3)?;
        let a = scalar_int(c, c.x(2)?)?;
        if a < 0 {
            return Err(
                c.shape_err("split with a negative axis (Paddle 3.3.1 cuts the wrong elements)")
            );
        }
        let ax = axis(c.name, rank, a)?;
        let dim = x.shape().get(ax).copied().unwrap_or(0);
        let secs = int_values(c, c.x(1)?)?;
        let known: i128 = secs
            .iter()
            .filter(|&&s| s != -1)
            .map(|&s| i128::from(s))
            .sum();
        let infer = secs.iter().filter(|&&s| s == -1).count();
        let sizes = secs
            .iter()
            .map(|&s| match s {
                -1 if infer == 1 => usize::try_from(dim as i128 - known).ok(),
                s => usize::try_from(s).ok().filter(|&s| s <= dim),
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| c.shape_err(format!("bad sections {secs:?} for dim {dim}")))?;
        (sizes, ax)
    } else {
        c.arity_is(2)?;
        let a = scalar_int(c, c.x(1)?)?;
        if a < 0 {
            return Err(c.shape_err("split_with_num rejects a negative axis"));
        }
        let ax = axis(c.name, rank, a)?;
        let dim = x.shape().get(ax).copied().unwrap_or(0);
        let num = usize::try_from(c.i64_or("num", 0)?).unwrap_or(0);
        if num == 0 || !dim.is_multiple_of(num) {
            return Err(c.shape_err(format!("cannot split dim {dim} into {num} parts")));
        }
        (vec![dim / num; num], ax)
    };
    let total = sizes.iter().try_fold(0usize, |a, &b| a.checked_add(b));
    if rank == 0 || total != Some(x.shape()[ax]) {
        return Err(c.shape_err(format!(
            "sections {sizes:?} do not add up to {:?}",
            x.shape()
        )));
    }
    Ok(cut(x, ax, &sizes))
}

/// `unstack(x, axis, num)`: the slices along `axis`, that axis dropped. No
/// float16/bfloat16/bool kernels.
fn unstack(c: &Ctx<'_>) -> Result<Vec<EvalTensor>, EvalError> {
    c.arity_is(1)?;
    let x = c.x(0)?;
    if matches!(x.dtype(), DType::Float16 | DType::BFloat16 | DType::Bool) {
        return Err(c.dtype_err(x.dtype()));
    }
    let rank = x.shape().len();
    if rank == 0 {
        return Err(c.shape_err("unstack needs rank >= 1"));
    }
    let ax = axis(c.name, rank, c.i64_or("axis", 0)?)?;
    let n = x.shape()[ax];
    let mut dims = x.shape().to_vec();
    dims.remove(ax);
    cut(x, ax, &vec![1; n])
        .iter()
        .map(|t| relabel(t, &dims))
        .collect()
}

/// `slice(input, starts, ends, axes, infer_flags, decrease_axis)`: starts
/// and ends count from the end when negative and are clamped to the dim; an
/// end before the start gives an empty dim; `decrease_axis` drops dims.
fn slice(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(3)?;
    let x = c.x(0)?;
    let starts = int_values(c, c.x(1)?)?;
    let ends = int_values(c, c.x(2)?)?;
    let axes = c.ints("axes")?;
    let decrease = c.ints_or("decrease_axis", &[])?;
    if starts.len() != axes.len() || ends.len() != axes.len() {
        return Err(c.shape_err("starts, ends and axes differ in length"));
    }
    let rank = x.shape().len();
    let mut steps: Vec<(usize, i64, i64, i64)> = Vec::new();
    for ((&a, &s), &e) in axes.iter().zip(&starts).zip(&ends) {
        let ax = axis(c.name, rank, a)?;
        let dim = x.shape()[ax] as i64;
        let norm = |v: i64| (if v < 0 { v + dim } else { v }).clamp(0, dim);
        let (s, e) = (norm(s), norm(e));
        steps.push((ax, s, e.max(s), 1));
    }
    let out = sliced(c, x, &steps)?;
    let mut dims = out.shape().to_vec();
    let mut drop: Vec<usize> = decrease
        .iter()
        .map(|&a| axis(c.name, rank, a))
        .collect::<Result<_, _>>()?;
    drop.sort_unstable();
    drop.dedup();
    for &d in drop.iter().rev() {
        if dims[d] != 1 {
            return Err(c.shape_err(format!("decrease_axis {d} has size {}", dims[d])));
        }
        dims.remove(d);
    }
    relabel(&out, &dims)
}

/// Applies `(axis, start, end, step)` slices (numpy semantics, `end`
/// exclusive, negative steps walking down from `start`).
fn sliced(
    c: &Ctx<'_>,
    x: &EvalTensor,
    steps: &[(usize, i64, i64, i64)],
) -> Result<EvalTensor, EvalError> {
    with_array!(x, a => {
        let mut v = a.view();
        for &(ax, s, e, st) in steps {
            let n = v.shape().get(ax).map_or(0, |&n| n as i64);
            let slice = if st > 0 {
                let s = s.clamp(0, n);
                Slice::new(s as isize, Some(e.clamp(s, n) as isize), st as isize)
            } else {
                // Elements s, s+st, ... > e: ndarray walks [e+1, s+1)
                // backwards from its last element.
                let (lo, hi) = ((e + 1).max(0), (s + 1).min(n));
                if lo >= hi {
                    Slice::new(0, Some(0), 1)
                } else {
                    Slice::new(lo as isize, Some(hi as isize), st as isize)
                }
            };
            if ax >= v.ndim() {
                return Err(c.shape_err("slice axis out of range"));
            }
            v.slice_axis_inplace(Axis(ax), slice);
        }
        Ok(Elem::wrap(v.to_owned()))
    })
}

/// `strided_slice(x, starts, ends, strides, axes)` with phi's
/// `StridedSliceFunctor` rules: negative starts/ends count from the end
/// (clamped at 0; an end with a negative stride at -1, "through index 0"),
/// except that an end of -1 with a negative stride also means "through index
/// 0"; a start beyond the dim is clamped.
fn strided_slice(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(4)?;
    let x = c.x(0)?;
    let starts = int_values(c, c.x(1)?)?;
    let ends = int_values(c, c.x(2)?)?;
    let strides = int_values(c, c.x(3)?)?;
    let axes = c.ints("axes")?;
    if starts.len() != axes.len() || ends.len() != axes.len() || strides.len() != axes.len() {
        return Err(c.shape_err("starts, ends, strides and axes differ in length"));
    }
    let rank = x.shape().len();
    let mut steps = Vec::new();
    for i in 0..axes.len() {
        let ax = axis(c.name, rank, axes[i])?;
        let n = x.shape()[ax] as i64;
        let (mut s, mut e, st) = (starts[i], ends[i], strides[i]);
        if st == 0 || st.unsigned_abs() > i32::MAX as u64 {
            return Err(c.shape_err(format!("stride {st}")));
        }
        if s < 0 {
            s = (s + n).max(0);
        }
        if e < 0 && !(e == -1 && st < 0) {
            // Clamped to 0, or for a negative stride to "through index 0".
            e = (e + n).max(if st < 0 { -1 } else { 0 });
        }
        if st > 0 {
            let s = s.min(n);
            steps.push((ax, s, e.clamp(s, n), st));
        } else {
            let s = s.min(n - 1);
            steps.push((ax, s.max(-1), e.clamp(-1, n).min(s.max(-1)), st));
        }
    }
    sliced(c, x, &steps)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::tests::{f32s, i64s, run, run_with, A};
    use crate::EvalError;

    #[test]
    fn squeeze_and_unsqueeze_negative_axes() {
        let x = f32s(&[2, 1, 3, 1], &[0.0; 6]);
        let out = run("pd_op.squeeze", &[x, i64s(&[1], &[-1])], &[]).unwrap();
        assert_eq!(out[0].dims(), vec![2, 1, 3]);
        let out = run(
            "pd_op.unsqueeze",
            &[f32s(&[2], &[0.0; 2]), i64s(&[2], &[-1, 0])],
            &[],
        )
        .unwrap();
        assert_eq!(out[0].dims(), vec![1, 2, 1]);
    }

    #[test]
    fn concat_takes_a_vector_operand() {
        let a = f32s(&[1, 2], &[1.0, 2.0]);
        let b = f32s(&[1, 1], &[3.0]);
        let axis = i64s(&[1], &[-1]);
        let out = run_with(
            "pd_op.concat",
            &[a.clone(), b.clone(), axis.clone()],
            Some((0, 2)),
            &[],
        )
        .unwrap();
        assert_eq!(
            (out[0].dims(), out[0].to_f64_vec()),
            (vec![1, 3], vec![1.0, 2.0, 3.0])
        );
        // Without the vector the operands do not line up.
        assert!(run("pd_op.concat", &[a, b, axis], &[]).is_err());
    }

    #[test]
    fn split_refuses_a_negative_axis() {
        let x = f32s(&[2, 4], &[0.0; 8]);
        let e = run(
            "pd_op.split",
            &[x.clone(), i64s(&[2], &[1, 3]), i64s(&[1], &[-1])],
            &[],
        );
        assert!(matches!(e, Err(EvalError::Shape { .. })));
        let out = run(
            "pd_op.split",
            &[x, i64s(&[2], &[1, -1]), i64s(&[1], &[1])],
            &[],
        )
        .unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].dims(), vec![2, 3]);
    }

    #[test]
    fn strided_slice_walks_backwards() {
        let x = f32s(&[5], &[0.0, 1.0, 2.0, 3.0, 4.0]);
        let ins = [x, i64s(&[1], &[-1]), i64s(&[1], &[-1]), i64s(&[1], &[-2])];
        let out = run("pd_op.strided_slice", &ins, &[("axes", A::I32s(vec![0]))]).unwrap();
        assert_eq!(out[0].to_f64_vec(), vec![4.0, 2.0, 0.0]);
        let mut bad = ins.clone();
        bad[3] = i64s(&[1], &[i64::MIN]);
        assert!(run("pd_op.strided_slice", &bad, &[("axes", A::I32s(vec![0]))]).is_err());
    }

    #[test]
    fn reshape_keeps_literal_zeros_of_empty_inputs() {
        let out = run(
            "pd_op.reshape",
            &[f32s(&[0, 3], &[]), i64s(&[2], &[3, 0])],
            &[],
        )
        .unwrap();
        assert_eq!(out[0].dims(), vec![3, 0]);
        let e = run(
            "pd_op.transpose",
            &[f32s(&[2, 3], &[0.0; 6])],
            &[("perm", A::I64s(vec![0, 0]))],
        );
        assert!(matches!(e, Err(EvalError::Shape { .. })));
    }
}
