//! Binary elementwise kernels with numpy broadcasting, comparisons and scale.

use ndarray::{ArrayD, IxDyn, Zip};

use crate::attrs::Attrs;
use crate::value::{with_array, Elem};
use crate::{EvalError, EvalTensor};
use pir_params::DType;

/// The numpy broadcast of two shapes (dims aligned right; 1 stretches).
pub(crate) fn broadcast_shape(op: &str, x: &[usize], y: &[usize]) -> Result<Vec<usize>, EvalError> {
    let n = x.len().max(y.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let dx = if i + x.len() >= n {
            x[i + x.len() - n]
        } else {
            1
        };
        let dy = if i + y.len() >= n {
            y[i + y.len() - n]
        } else {
            1
        };
        out[i] = match (dx, dy) {
            (a, b) if a == b => a,
            (1, b) => b,
            (a, 1) => a,
            _ => {
                return Err(EvalError::shape(
                    op,
                    format!("shapes {x:?} and {y:?} do not broadcast"),
                ))
            }
        };
    }
    Ok(out)
}

/// `f` over the broadcast of `x` and `y`.
fn zip<T: Elem, U>(
    op: &str,
    x: &ArrayD<T>,
    y: &ArrayD<T>,
    f: impl Fn(T, T) -> U,
) -> Result<ArrayD<U>, EvalError> {
    let shape = broadcast_shape(op, x.shape(), y.shape())?;
    let err = || EvalError::shape(op, "broadcast failed");
    let xb = x.broadcast(IxDyn(&shape)).ok_or_else(err)?;
    let yb = y.broadcast(IxDyn(&shape)).ok_or_else(err)?;
    Ok(Zip::from(&xb).and(&yb).map_collect(|&a, &b| f(a, b)))
}

fn same_dtype(op: &str, x: &EvalTensor, y: &EvalTensor) -> Result<(), EvalError> {
    if x.dtype() != y.dtype() {
        return Err(EvalError::DTypeMismatch {
            op: op.to_string(),
            x: x.dtype(),
            y: y.dtype(),
        });
    }
    Ok(())
}

/// Paddle 3.3.1 registers these CPU kernels for these dtypes (of ours): `add`
/// and `divide` have no float16/bfloat16 kernel, `subtract`/`maximum`/`minimum`
/// no float16 or bool one, `multiply` no float16 one (see the vectors'
/// `unsupported` lists).
fn arith_supported(op: &str, d: DType) -> bool {
    use DType::*;
    match op {
        "pd_op.add" | "pd_op.divide" => matches!(d, Float32 | Float64 | Int32 | Int64 | Bool),
        "pd_op.subtract" | "pd_op.maximum" | "pd_op.minimum" => {
            matches!(d, Float32 | Float64 | BFloat16 | Int32 | Int64)
        }
        "pd_op.multiply" => d != Float16,
        _ => false,
    }
}

fn arith_t<T: Elem>(op: &str, x: &ArrayD<T>, y: &ArrayD<T>) -> Result<ArrayD<T>, EvalError> {
    Ok(match op {
        "pd_op.add" => zip(op, x, y, T::add)?,
        "pd_op.subtract" => zip(op, x, y, T::sub)?,
        "pd_op.multiply" => zip(op, x, y, T::mul)?,
        "pd_op.divide" => {
            let out = zip(op, x, y, T::div)?;
            if out.iter().any(Option::is_none) {
                return Err(EvalError::DivisionByZero { op: op.to_string() });
            }
            out.mapv(|v| v.unwrap_or_default())
        }
        // phi's MaximumFunctor/MinimumFunctor (3.3) propagate NaN from
        // either side, unlike `std::max`.
        "pd_op.maximum" => zip(op, x, y, |a, b| {
            if a.is_nan() {
                a
            } else if b.is_nan() || b > a {
                b
            } else {
                a
            }
        })?,
        "pd_op.minimum" => zip(op, x, y, |a, b| {
            if a.is_nan() {
                a
            } else if b.is_nan() || b < a {
                b
            } else {
                a
            }
        })?,
        _ => return Err(EvalError::UnsupportedOp(op.to_string())),
    })
}

/// `add`, `subtract`, `multiply`, `divide`, `maximum`, `minimum`.
pub(crate) fn arith(op: &str, x: &EvalTensor, y: &EvalTensor) -> Result<EvalTensor, EvalError> {
    same_dtype(op, x, y)?;
    if !arith_supported(op, x.dtype()) {
        return Err(EvalError::dtype(op, x.dtype()));
    }
    with_array!(x, a => {
        let b = Elem::view(y).ok_or_else(|| EvalError::dtype(op, y.dtype()))?;
        Ok(Elem::wrap(arith_t(op, a, b)?))
    })
}

/// The comparisons: `bool` results, every dtype. Paddle 3.3.1's
/// `EqualFunctor` compares floats exactly (`1.0 == 1.0 + 1e-9` is false in
/// the vectors), NaN is unequal to everything.
pub(crate) fn compare(op: &str, x: &EvalTensor, y: &EvalTensor) -> Result<EvalTensor, EvalError> {
    same_dtype(op, x, y)?;
    fn go<T: Elem>(op: &str, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<bool>, EvalError> {
        match op {
            "pd_op.equal" => zip(op, a, b, |p, q| p == q),
            "pd_op.not_equal" => zip(op, a, b, |p, q| p != q),
            "pd_op.less_than" => zip(op, a, b, |p, q| p < q),
            "pd_op.less_equal" => zip(op, a, b, |p, q| p <= q),
            "pd_op.greater_than" => zip(op, a, b, |p, q| p > q),
            "pd_op.greater_equal" => zip(op, a, b, |p, q| p >= q),
            _ => Err(EvalError::UnsupportedOp(op.to_string())),
        }
    }
    with_array!(x, a => {
        let b = Elem::view(y).ok_or_else(|| EvalError::dtype(op, y.dtype()))?;
        Ok(EvalTensor::Bool(go(op, a, b)?))
    })
}

/// `scale(x, scale, bias, bias_after_scale)`.
///
/// phi's CPU `ScaleKernel` evaluates `EigenScale` in `T`: the scale is
/// `Scalar::to<T>()` (a `static_cast` from the operand's value: truncation for
/// integers) and the bias `static_cast<T>(float)`; then `x * s + b` or
/// `(x + b) * s`, each operator rounding to `T` (per-op rounding for half
/// types, wrapping for integers).
pub(crate) fn scale(
    a: &Attrs<'_>,
    x: &EvalTensor,
    s: &EvalTensor,
) -> Result<EvalTensor, EvalError> {
    if s.numel() != 1 {
        return Err(EvalError::shape(
            a.name,
            format!("scale has {} elements, not 1", s.numel()),
        ));
    }
    let sv = s.to_f64_vec()[0];
    let bias = a.f64("bias")?;
    let after = a.bool_or("bias_after_scale", true)?;
    with_array!(x, arr => {
        let sc = Elem::from_f64(sv);
        let b = Elem::from_f64(bias);
        Ok(Elem::wrap(arr.mapv(|v| {
            if after {
                Elem::add(Elem::mul(v, sc), b)
            } else {
                Elem::mul(Elem::add(v, b), sc)
            }
        })))
    })
}
