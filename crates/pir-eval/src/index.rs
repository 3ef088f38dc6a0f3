//! Indexing ops: `gather`, `gather_nd`, `index_select`, `one_hot`.
//!
//! Negative indices count from the end of the dim (Paddle 3.3.1's CPU kernels
//! wrap them); indices outside `[-dim, dim)` are errors.

use ndarray::{ArrayD, Axis, IxDyn};
use pir_params::DType;

use crate::attrs::{scalar_int, Ctx};
use crate::reduce::axis;
use crate::value::{array, with_array, Elem};
use crate::{numel, EvalError, EvalTensor};

/// The ops of this module.
pub(crate) const OPS: &[&str] = &[
    "pd_op.gather",
    "pd_op.gather_nd",
    "pd_op.index_select",
    "pd_op.one_hot",
];

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    let r = match c.name {
        "pd_op.gather" | "pd_op.index_select" => take(c),
        "pd_op.gather_nd" => gather_nd(c),
        "pd_op.one_hot" => one_hot(c),
        _ => return None,
    };
    Some(r.map(|t| vec![t]))
}

/// The values of an int32/int64 index tensor, wrapped into `[0, dim)`.
fn indices(c: &Ctx<'_>, index: &EvalTensor, dim: usize) -> Result<Vec<usize>, EvalError> {
    if !matches!(index.dtype(), DType::Int32 | DType::Int64) {
        return Err(c.dtype_err(index.dtype()));
    }
    index
        .to_i64_vec()
        .into_iter()
        .map(|i| {
            let j = if i < 0 { i + dim as i64 } else { i };
            usize::try_from(j).ok().filter(|&j| j < dim).ok_or_else(|| {
                EvalError::value(c.name, format!("index {i} out of range for dim {dim}"))
            })
        })
        .collect()
}

/// `gather(x, index, axis)` and `index_select(x, index, axis)`: the index is
/// read as a flat list; no float16 kernels.
fn take(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    let x = c.x(0)?;
    let index = c.x(1)?;
    let a = if c.name == "pd_op.gather" {
        c.arity_is(3)?;
        scalar_int(c, c.x(2)?)?
    } else {
        c.arity_is(2)?;
        c.i64_or("axis", 0)?
    };
    if x.dtype() == DType::Float16 {
        return Err(c.dtype_err(x.dtype()));
    }
    let rank = x.shape().len();
    if rank == 0 {
        return Err(c.shape_err("gather needs rank >= 1"));
    }
    let ax = axis(c.name, rank, a)?;
    let idx = indices(c, index, x.shape()[ax])?;
    let mut dims = x.shape().to_vec();
    dims[ax] = idx.len();
    numel(c.name, &dims)?;
    with_array!(x, arr => Ok(Elem::wrap(arr.select(Axis(ax), &idx))))
}

/// `gather_nd(x, index)`: the last index dim picks leading dims of `x`; no
/// float16/bfloat16 kernels.
fn gather_nd(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let (x, index) = (c.x(0)?, c.x(1)?);
    if matches!(x.dtype(), DType::Float16 | DType::BFloat16) {
        return Err(c.dtype_err(x.dtype()));
    }
    if !matches!(index.dtype(), DType::Int32 | DType::Int64) {
        return Err(c.dtype_err(index.dtype()));
    }
    let is = index.shape();
    let xs = x.shape();
    let k = *is.last().ok_or_else(|| c.shape_err("0-d index"))?;
    if k > xs.len() {
        return Err(c.shape_err(format!("index depth {k} beyond rank {}", xs.len())));
    }
    let rows: usize = is[..is.len() - 1].iter().product();
    let inner: usize = xs[k..].iter().product();
    let mut dims = is[..is.len() - 1].to_vec();
    dims.extend_from_slice(&xs[k..]);
    numel(c.name, &dims)?;
    let raw = index.to_i64_vec();
    let mut offsets = Vec::with_capacity(rows);
    for r in 0..rows {
        let mut off = 0usize;
        for (j, &d) in xs[..k].iter().enumerate() {
            let i = raw[r * k + j];
            let w = if i < 0 { i + d as i64 } else { i };
            let w = usize::try_from(w).ok().filter(|&w| w < d).ok_or_else(|| {
                EvalError::value(c.name, format!("index {i} out of range for dim {d}"))
            })?;
            off = off * d + w;
        }
        offsets.push(off * inner);
    }
    fn go<T: Elem>(
        a: &ArrayD<T>,
        offsets: &[usize],
        inner: usize,
        dims: &[usize],
    ) -> Result<EvalTensor, EvalError> {
        let flat: Vec<T> = a.iter().copied().collect();
        let mut out = Vec::with_capacity(offsets.len() * inner);
        for &o in offsets {
            out.extend_from_slice(&flat[o..o + inner]);
        }
        Ok(T::wrap(array(dims, out)?))
    }
    with_array!(x, a => go(a, &offsets, inner, &dims))
}

/// `one_hot(x, num_classes)`: float32 results; labels must be in
/// `[0, num_classes)`.
fn one_hot(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let x = c.x(0)?;
    if !matches!(x.dtype(), DType::Int32 | DType::Int64) {
        return Err(c.dtype_err(x.dtype()));
    }
    let n = scalar_int(c, c.x(1)?)?;
    let n = usize::try_from(n).map_err(|_| EvalError::value(c.name, format!("num_classes {n}")))?;
    let mut dims = x.shape().to_vec();
    dims.push(n);
    let total = numel(c.name, &dims)?;
    let mut out = vec![0f32; total];
    for (i, &l) in x.to_i64_vec().iter().enumerate() {
        let l = usize::try_from(l).ok().filter(|&l| l < n).ok_or_else(|| {
            EvalError::value(c.name, format!("label {l} out of range for {n} classes"))
        })?;
        out[i * n + l] = 1.0;
    }
    Ok(EvalTensor::F32(
        ArrayD::from_shape_vec(IxDyn(&dims), out).map_err(|e| EvalError::Tensor(e.to_string()))?,
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::tests::{f32s, i64s, run};
    use crate::EvalError;

    #[test]
    fn indices_wrap_once_and_are_checked() {
        let x = f32s(&[3], &[1.0, 2.0, 3.0]);
        let axis = crate::EvalTensor::from_i64s(pir_params::DType::Int32, &[1], &[0]).unwrap();
        let out = run(
            "pd_op.gather",
            &[x.clone(), i64s(&[2], &[-1, 0]), axis.clone()],
            &[],
        )
        .unwrap();
        assert_eq!(out[0].to_f64_vec(), vec![3.0, 1.0]);
        let e = run("pd_op.gather", &[x, i64s(&[1], &[3]), axis], &[]);
        assert!(matches!(e, Err(EvalError::InvalidValue { .. })));
        let e = run("pd_op.one_hot", &[i64s(&[1], &[4]), i64s(&[1], &[4])], &[]);
        assert!(matches!(e, Err(EvalError::InvalidValue { .. })));
    }
}
