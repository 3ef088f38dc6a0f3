//! Reductions (`sum`, `mean`, `max`, `min`, `prod`, `all`, `any`,
//! `argmax`, `argmin`), `cumsum`, `softmax` and `log_softmax`.

use ndarray::{ArrayD, Axis};
use pir_params::DType;

use crate::attrs::{int_values, scalar_int, Ctx};
use crate::unary::cast;
use crate::value::{array, with_array, Elem};
use crate::{EvalError, EvalTensor};

/// The ops of this module.
pub(crate) const OPS: &[&str] = &[
    "pd_op.sum",
    "pd_op.mean",
    "pd_op.max",
    "pd_op.min",
    "pd_op.prod",
    "pd_op.all",
    "pd_op.any",
    "pd_op.argmax",
    "pd_op.argmin",
    "pd_op.cumsum",
    "pd_op.softmax",
    "pd_op.log_softmax",
];

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    let r = match c.name {
        "pd_op.sum" | "pd_op.mean" | "pd_op.max" | "pd_op.min" | "pd_op.prod" => reduce(c),
        "pd_op.all" | "pd_op.any" => all_any(c),
        "pd_op.argmax" | "pd_op.argmin" => arg(c),
        "pd_op.cumsum" => cumsum(c),
        "pd_op.softmax" | "pd_op.log_softmax" => softmax(c),
        _ => return None,
    };
    Some(r.map(|t| vec![t]))
}

/// Normalises one axis (negative counts from the end; a 0-d tensor takes 0
/// and -1).
pub(crate) fn axis(op: &str, rank: usize, a: i64) -> Result<usize, EvalError> {
    let r = rank.max(1) as i64;
    let ax = if a < 0 { a + r } else { a };
    if ax < 0 || ax >= r {
        return Err(EvalError::shape(
            op,
            format!("axis {a} out of range for rank {rank}"),
        ));
    }
    Ok(ax as usize)
}

/// The sorted, de-duplicated axes to reduce: all of them for an empty list.
fn axes(op: &str, rank: usize, list: &[i64]) -> Result<Vec<usize>, EvalError> {
    if list.is_empty() {
        return Ok((0..rank).collect());
    }
    let mut out = list
        .iter()
        .map(|&a| axis(op, rank, a))
        .collect::<Result<Vec<_>, _>>()?;
    out.sort_unstable();
    out.dedup();
    out.retain(|&a| a < rank);
    Ok(out)
}

/// Reduces `a` over `axes` with `f` (values in row-major order of each group).
fn reduce_t<T: Copy, U>(
    a: &ArrayD<T>,
    axes: &[usize],
    keepdim: bool,
    f: impl Fn(&[T]) -> U,
) -> Result<ArrayD<U>, EvalError> {
    // Move the reduced axes last, then each output element is a contiguous run.
    let rank = a.ndim();
    let kept: Vec<usize> = (0..rank).filter(|d| !axes.contains(d)).collect();
    let mut order = kept.clone();
    order.extend_from_slice(axes);
    let moved = a.view().permuted_axes(order);
    let data: Vec<T> = moved.iter().copied().collect();
    let group: usize = axes.iter().map(|&d| a.shape()[d]).product();
    let outer: usize = kept.iter().map(|&d| a.shape()[d]).product();
    let values: Vec<U> = if group == 0 {
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

/// `sum(x, axis, dtype, keepdim)`, `mean(x, axis, keepdim)`,
/// `max`/`min(x, axis, keepdim)` and `prod(x, axis, keepdim, reduce_all)`.
///
/// `sum`'s output dtype is `dtype`, or int64 for bool/int32 inputs when it is
/// undefined (phi's `SumInferMeta`); the input is cast to it first, as phi's
/// `SumRawKernel` does. `mean` keeps the dtype (integers and bool: sum /
/// count as a double, converted back). Float sums accumulate in f64 and
/// round once; Paddle's Eigen reduction sums in `T` in its own order, so the
/// tests use a tolerance. `max`/`min` propagate NaN; Paddle refuses them on
/// empty inputs.
fn reduce(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let (x, axis_t) = (c.x(0)?, c.x(1)?);
    let keepdim = c.bool_or("keepdim", false)?;
    let mut list = int_values(c, axis_t)?;
    if c.name == "pd_op.prod" && c.bool_or("reduce_all", false)? {
        list.clear();
    }
    let axes = axes(c.name, x.shape().len(), &list)?;
    let d = x.dtype();
    let x = match c.name {
        "pd_op.sum" => {
            let target = match c.dtype("dtype")? {
                Some(t) => t,
                None if matches!(d, DType::Bool | DType::Int32) => DType::Int64,
                None => d,
            };
            if target == d {
                x.clone()
            } else {
                cast(x, target)?
            }
        }
        "pd_op.mean" if !matches!(d, DType::Float16 | DType::BFloat16) => x.clone(),
        "pd_op.max" | "pd_op.min" | "pd_op.prod"
            if matches!(
                d,
                DType::Float32 | DType::Float64 | DType::Int32 | DType::Int64
            ) =>
        {
            x.clone()
        }
        _ => return Err(c.dtype_err(d)),
    };
    let op = c.name;
    if matches!(op, "pd_op.max" | "pd_op.min") && axes.iter().any(|&a| x.shape()[a] == 0) {
        return Err(c.shape_err("max/min of an empty tensor"));
    }
    fn fold<T: Elem>(op: &str, v: &[T]) -> T {
        let n = v.len();
        match op {
            "pd_op.max" | "pd_op.min" => {
                let max = op == "pd_op.max";
                v.iter().copied().fold(v[0], |acc, e| {
                    if acc.is_nan() {
                        acc
                    } else if e.is_nan() || (max && e > acc) || (!max && e < acc) {
                        e
                    } else {
                        acc
                    }
                })
            }
            "pd_op.prod" if T::FLOAT => T::from_f64(v.iter().map(|e| e.to_f64()).product()),
            "pd_op.prod" => T::from_i64(v.iter().fold(1i64, |a, e| a.wrapping_mul(e.to_i64()))),
            _ if T::FLOAT => {
                let s: f64 = v.iter().map(|e| e.to_f64()).sum();
                T::from_f64(if op == "pd_op.mean" { s / n as f64 } else { s })
            }
            _ => {
                let s = v.iter().fold(0i64, |acc, e| acc.wrapping_add(e.to_i64()));
                // The integer/bool mean divides as a double and converts
                // back: an empty mean is NaN → the minimum (true for bool).
                if op == "pd_op.mean" {
                    T::from_f64(s as f64 / n as f64)
                } else {
                    T::from_i64(s)
                }
            }
        }
    }
    with_array!(&x, arr => Ok(Elem::wrap(reduce_t(arr, &axes, keepdim, |v| fold(op, v))?)))
}

/// `all(x, axis, keepdim)` / `any`: bool results (nonzero is true); no
/// float16/bfloat16 kernels.
fn all_any(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(1)?;
    let x = c.x(0)?;
    if matches!(x.dtype(), DType::Float16 | DType::BFloat16) {
        return Err(c.dtype_err(x.dtype()));
    }
    let keepdim = c.bool_or("keepdim", false)?;
    let list = c.ints_or("axis", &[])?;
    let axes = axes(c.name, x.shape().len(), &list)?;
    let all = c.name == "pd_op.all";
    with_array!(x, a => Ok(EvalTensor::Bool(reduce_t(a, &axes, keepdim, |v| {
        if all {
            v.iter().all(|e| e.to_f64() != 0.0)
        } else {
            v.iter().any(|e| e.to_f64() != 0.0)
        }
    })?)))
}

/// The input of an op taking `(x, axis)` over float32/64 or int32/64 `x`
/// (`argmax`, `argmin`, `cumsum`).
fn x_and_axis<'c>(c: &'c Ctx<'_>) -> Result<&'c EvalTensor, EvalError> {
    c.arity_is(2)?;
    let x = c.x(0)?;
    if !matches!(
        x.dtype(),
        DType::Float32 | DType::Float64 | DType::Int32 | DType::Int64
    ) {
        return Err(c.dtype_err(x.dtype()));
    }
    Ok(x)
}

/// `argmax`/`argmin(x, axis, keepdims, flatten, dtype)`: the first index of
/// the extreme value under `>` / `<` (NaNs are passed over).
fn arg(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    let x = x_and_axis(c)?;
    let keep = c.bool_or("keepdims", false)?;
    let flatten = c.bool_or("flatten", false)?;
    let out_dtype = c.dtype("dtype")?.unwrap_or(DType::Int64);
    if !matches!(out_dtype, DType::Int32 | DType::Int64) {
        return Err(c.bad("dtype", "argmax/argmin return int32 or int64"));
    }
    let rank = x.shape().len();
    let max = c.name == "pd_op.argmax";
    let (flat, ax) = if flatten || rank == 0 {
        (true, 0)
    } else {
        (false, axis(c.name, rank, scalar_int(c, c.x(1)?)?)?)
    };
    if x.numel() == 0 {
        return Err(c.shape_err("argmax/argmin of an empty tensor"));
    }
    // `e > best` / `e < best`: a NaN never wins (unless it comes first).
    fn pick<T: Elem>(v: &[T], max: bool) -> i64 {
        let mut best = 0;
        for (i, &e) in v.iter().enumerate() {
            let b = v[best];
            if (max && e > b) || (!max && e < b) {
                best = i;
            }
        }
        best as i64
    }
    let idx: ArrayD<i64> = with_array!(x, a => {
        if flat {
            let v: Vec<_> = a.iter().copied().collect();
            let dims = if keep { vec![1; rank] } else { vec![] };
            array(&dims, vec![pick(&v, max)])?
        } else {
            reduce_t(a, &[ax], keep, |v| pick(v, max))?
        }
    });
    let dims = idx.shape().to_vec();
    EvalTensor::from_i64s(out_dtype, &dims, &idx.iter().copied().collect::<Vec<_>>())
}

/// `cumsum(x, axis, flatten, exclusive, reverse)`: a sequential running sum
/// in `T` along the axis (float32 accumulates in float32, as Paddle's scan).
fn cumsum(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    let x = x_and_axis(c)?;
    let flatten = c.bool_or("flatten", false)?;
    let exclusive = c.bool_or("exclusive", false)?;
    let reverse = c.bool_or("reverse", false)?;
    let rank = x.shape().len();
    let ax_req = scalar_int(c, c.x(1)?)?;
    fn go<T: Elem>(a: &ArrayD<T>, ax: usize, exclusive: bool, reverse: bool) -> ArrayD<T> {
        let mut out = a.clone();
        for mut lane in out.lanes_mut(Axis(ax)) {
            let n = lane.len();
            let mut acc = T::default();
            for k in 0..n {
                let i = if reverse { n - 1 - k } else { k };
                let v = lane[i];
                if exclusive {
                    lane[i] = acc;
                    acc = acc.add(v);
                } else {
                    acc = acc.add(v);
                    lane[i] = acc;
                }
            }
        }
        out
    }
    with_array!(x, a => {
        if rank == 0 {
            Ok(Elem::wrap(a.clone()))
        } else if flatten {
            let n = a.len();
            let flat = array(&[n], a.iter().copied().collect())?;
            Ok(Elem::wrap(go(&flat, 0, exclusive, reverse)))
        } else {
            let ax = axis(c.name, rank, ax_req)?;
            Ok(Elem::wrap(go(a, ax, exclusive, reverse)))
        }
    })
}

/// `softmax(x, axis)` and `log_softmax(x, axis)` for float32/float64:
/// `exp(x - max) / sum`, computed in f64 and rounded once; like phi's
/// functors, `x - max` is clipped at -64 (so a -inf input gets e^-64, not 0).
fn softmax(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(1)?;
    let x = c.x(0)?;
    if !matches!(x.dtype(), DType::Float32 | DType::Float64) {
        return Err(c.dtype_err(x.dtype()));
    }
    let rank = x.shape().len();
    let ax = axis(c.name, rank, c.i64_or("axis", -1)?)?;
    let log = c.name == "pd_op.log_softmax";
    fn go<T: Elem>(a: &ArrayD<T>, ax: Option<usize>, log: bool) -> ArrayD<T> {
        let mut out = a.clone();
        let lanes: Vec<_> = match ax {
            Some(ax) => out.lanes_mut(Axis(ax)).into_iter().collect(),
            None => out.lanes_mut(Axis(0)).into_iter().collect(),
        };
        for mut lane in lanes {
            let v: Vec<f64> = lane.iter().map(|e| e.to_f64()).collect();
            let m = v.iter().copied().fold(f64::NEG_INFINITY, |m, e| {
                if m.is_nan() || e.is_nan() {
                    f64::NAN
                } else {
                    m.max(e)
                }
            });
            // phi's ValueClip: shifted values below -64 count as -64.
            let shifted: Vec<f64> = v
                .iter()
                .map(|&e| if e - m < -64.0 { -64.0 } else { e - m })
                .collect();
            let s: f64 = shifted.iter().map(|&e| e.exp()).sum();
            for (o, &e) in lane.iter_mut().zip(&shifted) {
                *o = T::from_f64(if log { e - s.ln() } else { e.exp() / s });
            }
        }
        out
    }
    fn zero_d<T: Elem>(a: &ArrayD<T>, log: bool) -> EvalTensor {
        T::wrap(a.mapv(|_| T::from_f64(if log { 0.0 } else { 1.0 })))
    }
    Ok(with_array!(x, a => {
        if rank == 0 {
            // A 0-d softmax is 1 (log: 0), as Paddle's kernel fills it.
            zero_d(a, log)
        } else {
            Elem::wrap(go(a, Some(ax), log))
        }
    }))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::tests::{f32s, i64s, run, A};
    use crate::EvalError;

    #[test]
    fn max_propagates_nan_and_refuses_empty() {
        let x = f32s(&[2, 2], &[1.0, f64::NAN, 3.0, 2.0]);
        let out = run("pd_op.max", &[x, i64s(&[1], &[-1])], &[]).unwrap()[0].to_f64_vec();
        assert!(out[0].is_nan() && out[1] == 3.0);
        let e = run("pd_op.min", &[f32s(&[2, 0], &[]), i64s(&[1], &[1])], &[]);
        assert!(matches!(e, Err(EvalError::Shape { .. })));
    }

    #[test]
    fn negative_axes_and_keepdim() {
        let x = f32s(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let out = run(
            "pd_op.sum",
            &[x.clone(), i64s(&[1], &[-1])],
            &[("keepdim", A::Bool(true))],
        )
        .unwrap();
        assert_eq!(
            (out[0].dims(), out[0].to_f64_vec()),
            (vec![2, 1], vec![6.0, 15.0])
        );
        let e = run("pd_op.sum", &[x, i64s(&[1], &[2])], &[]);
        assert!(matches!(e, Err(EvalError::Shape { .. })));
    }

    #[test]
    fn argmax_skips_nan_and_takes_the_first_tie() {
        let x = f32s(&[4], &[1.0, f64::NAN, 3.0, 3.0]);
        let out = run("pd_op.argmax", &[x, i64s(&[1], &[0])], &[]).unwrap();
        assert_eq!(out[0].to_i64_vec(), vec![2]);
    }

    #[test]
    fn softmax_clips_shifted_values() {
        let x = f32s(&[2], &[0.0, f64::NEG_INFINITY]);
        let out = run("pd_op.log_softmax", &[x], &[("axis", A::I32(-1))]).unwrap();
        assert_eq!(out[0].to_f64_vec()[1], -64.0);
    }
}
