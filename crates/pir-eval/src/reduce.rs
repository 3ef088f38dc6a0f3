//! `sum` and `mean` over an axis operand, with `keepdim`.

use ndarray::ArrayD;

use crate::attrs::Attrs;
use crate::unary::cast;
use crate::value::{array, with_array, Elem};
use crate::{EvalError, EvalTensor};
use pir_params::DType;

/// The sorted, de-duplicated axes to reduce: all of them for an empty list.
fn axes(op: &str, rank: usize, axis: &[i64]) -> Result<Vec<usize>, EvalError> {
    if axis.is_empty() {
        return Ok((0..rank).collect());
    }
    let mut out = Vec::new();
    for &a in axis {
        let r = rank.max(1) as i64;
        let ax = if a < 0 { a + r } else { a };
        if ax < 0 || ax >= r {
            return Err(EvalError::shape(
                op,
                format!("axis {a} out of range for rank {rank}"),
            ));
        }
        out.push(ax as usize);
    }
    out.sort_unstable();
    out.dedup();
    out.retain(|&a| a < rank);
    Ok(out)
}

/// Reduces `a` over `axes` with `f` (values in row-major order of each group).
fn reduce_t<T: Elem>(
    a: &ArrayD<T>,
    axes: &[usize],
    keepdim: bool,
    f: impl Fn(&[T]) -> T,
) -> Result<ArrayD<T>, EvalError> {
    // Move the reduced axes last, then each output element is a contiguous run.
    let rank = a.ndim();
    let kept: Vec<usize> = (0..rank).filter(|d| !axes.contains(d)).collect();
    let mut order = kept.clone();
    order.extend_from_slice(axes);
    let moved = a
        .view()
        .permuted_axes(order)
        .as_standard_layout()
        .into_owned();
    let group: usize = axes.iter().map(|&d| a.shape()[d]).product();
    let data: Vec<T> = moved.iter().copied().collect();
    let outer: usize = kept.iter().map(|&d| a.shape()[d]).product();
    let values: Vec<T> = if group == 0 {
        (0..outer).map(|_| f(&[])).collect()
    } else {
        data.chunks(group).map(&f).collect()
    };
    let dims: Vec<usize> = if keepdim {
        (0..rank)
            .map(|d| if axes.contains(&d) { 1 } else { a.shape()[d] })
            .collect()
    } else {
        kept.iter().map(|&d| a.shape()[d]).collect()
    };
    array(&dims, values)
}

/// `sum(x, axis, dtype, keepdim)` and `mean(x, axis, keepdim)`.
///
/// `sum`'s output dtype is `dtype`, or int64 for bool/int32 inputs when it is
/// undefined (phi's `SumInferMeta`); the input is cast to it first, as phi's
/// `SumRawKernel` does. `mean` keeps the dtype (integers: sum / count,
/// truncated, like Eigen's integer mean) and has no float16/bfloat16 CPU
/// kernel. Float sums accumulate in f64 and round once; Paddle's Eigen
/// reduction sums in `T` in its own order, so the tests use a tolerance.
pub(crate) fn reduce(
    a: &Attrs<'_>,
    x: &EvalTensor,
    axis: &EvalTensor,
) -> Result<EvalTensor, EvalError> {
    if !matches!(axis, EvalTensor::I32(_) | EvalTensor::I64(_)) {
        return Err(EvalError::dtype(a.name, axis.dtype()));
    }
    let keepdim = a.bool_or("keepdim", false)?;
    let axes = axes(a.name, x.shape().len(), &axis.to_i64_vec())?;
    let is_sum = a.name == "pd_op.sum";
    let x = if is_sum {
        let target = match a.dtype("dtype")? {
            Some(d) => d,
            None if matches!(x.dtype(), DType::Bool | DType::Int32) => DType::Int64,
            None => x.dtype(),
        };
        if target == x.dtype() {
            x.clone()
        } else {
            cast(x, target)?
        }
    } else {
        if matches!(x.dtype(), DType::Float16 | DType::BFloat16) {
            return Err(EvalError::dtype(a.name, x.dtype()));
        }
        x.clone()
    };
    fn fold<T: Elem>(v: &[T], mean: bool) -> T {
        let n = v.len();
        if T::FLOAT {
            let s: f64 = v.iter().map(|e| e.to_f64()).sum();
            T::from_f64(if mean { s / n as f64 } else { s })
        } else {
            let s = v.iter().fold(0i64, |acc, e| acc.wrapping_add(e.to_i64()));
            // Eigen's bool mean: any element set gives true.
            if mean && T::DTYPE != DType::Bool {
                T::from_i64(if n == 0 { 0 } else { s / n as i64 })
            } else {
                T::from_i64(s)
            }
        }
    }
    with_array!(&x, arr => Ok(Elem::wrap(reduce_t(arr, &axes, keepdim, |v| fold(v, !is_sum))?)))
}
