//! Binary elementwise kernels with numpy broadcasting: arithmetic, `pow`,
//! `remainder`, `floor_divide`, comparisons, logical and bitwise ops, and
//! `where`.

use ndarray::{ArrayD, IxDyn, Zip};
use pir_dialects::op_facts::OpFact;
use pir_params::DType;

use crate::attrs::Ctx;
use crate::value::{with_array, Elem};
use crate::{numel, EvalError, EvalTensor};

/// The ops of this module: the arithmetic ones
/// ([`OpFact::ArithmeticBinary`]) and these.
const MORE_OPS: &[&str] = &[
    "pd_op.elementwise_pow",
    "pd_op.equal",
    "pd_op.not_equal",
    "pd_op.less_than",
    "pd_op.less_equal",
    "pd_op.greater_than",
    "pd_op.greater_equal",
    "pd_op.logical_and",
    "pd_op.logical_or",
    "pd_op.logical_xor",
    "pd_op.bitwise_and",
    "pd_op.bitwise_or",
    "pd_op.bitwise_xor",
    "pd_op.where",
];

const PARTS: &[&[&str]] = &[OpFact::ArithmeticBinary.ops(), MORE_OPS];

/// The ops of this module.
pub(crate) const OPS: &[&str] = &crate::concat::<{ crate::total(PARTS) }>(PARTS);

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    if !OPS.contains(&c.name) {
        return None;
    }
    Some(run(c).map(|t| vec![t]))
}

fn run(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    let op = c.name;
    if op == "pd_op.where" {
        c.arity_is(3)?;
        return where_(c, c.x(0)?, c.x(1)?, c.x(2)?);
    }
    c.arity_is(2)?;
    let (x, y) = (c.x(0)?, c.x(1)?);
    same_dtype(op, x, y)?;
    match op {
        "pd_op.equal"
        | "pd_op.not_equal"
        | "pd_op.less_than"
        | "pd_op.less_equal"
        | "pd_op.greater_than"
        | "pd_op.greater_equal" => compare(op, x, y),
        "pd_op.logical_and" | "pd_op.logical_or" | "pd_op.logical_xor" => logical(c, x, y),
        "pd_op.bitwise_and" | "pd_op.bitwise_or" | "pd_op.bitwise_xor" => bitwise(c, x, y),
        _ => arith(op, x, y),
    }
}

/// The numpy broadcast of two shapes (dims aligned right; 1 stretches).
pub(crate) fn broadcast_shape(op: &str, x: &[usize], y: &[usize]) -> Result<Vec<usize>, EvalError> {
    let n = x.len().max(y.len());
    let mut out = vec![0; n];
    for (i, o) in out.iter_mut().enumerate() {
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
        *o = match (dx, dy) {
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
    numel(op, &out)?;
    Ok(out)
}

/// `f` over the broadcast of `x` and `y`.
pub(crate) fn zip<T: Copy, U>(
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

/// The dtypes Paddle 3.3.1 registers a CPU kernel for (of ours). `divide`
/// has integer kernels, but dygraph promotes integer division to float32 so
/// the vectors cannot check them: they are refused here (bool division,
/// `x / true`, is checked).
fn arith_supported(op: &str, d: DType) -> bool {
    use DType::*;
    match op {
        "pd_op.add" => matches!(d, Float32 | Float64 | Int32 | Int64 | Bool),
        "pd_op.divide" => matches!(d, Float32 | Float64 | Bool),
        "pd_op.subtract" | "pd_op.maximum" | "pd_op.minimum" | "pd_op.elementwise_pow" => {
            matches!(d, Float32 | Float64 | BFloat16 | Int32 | Int64)
        }
        "pd_op.multiply" => d != Float16,
        "pd_op.remainder" => matches!(d, Float32 | Float64 | Int32 | Int64),
        "pd_op.floor_divide" => d != Bool,
        _ => false,
    }
}

/// numpy's `npy_divmod` floor division and phi's `RemainderFunctor`, in the
/// float type `$t` (Paddle's float floor_divide follows Python: `1 // 0.1`
/// is 9).
macro_rules! float_divmod {
    ($floordiv:ident, $rem:ident, $t:ty) => {
        fn $floordiv(a: $t, b: $t) -> $t {
            if b == 0.0 {
                return a / b;
            }
            let mut m = a % b;
            let mut div = (a - m) / b;
            if m != 0.0 {
                if (b < 0.0) != (m < 0.0) {
                    m += b;
                    div -= 1.0;
                }
            }
            let _ = m;
            if div != 0.0 {
                let mut f = div.floor();
                if div - f > 0.5 {
                    f += 1.0;
                }
                f
            } else {
                (0.0 as $t).copysign(a / b)
            }
        }
        fn $rem(a: $t, b: $t) -> $t {
            let m = a % b;
            if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                m + b
            } else {
                m
            }
        }
    };
}
float_divmod!(floordiv_f32, rem_f32, f32);
float_divmod!(floordiv_f64, rem_f64, f64);

/// Floor division and Python remainder on integers: `None` for a zero
/// divisor (Paddle raises "Integer division by zero").
fn int_floordiv(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let q = a.wrapping_div(b);
    Some(if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
        q.wrapping_sub(1)
    } else {
        q
    })
}

fn int_rem(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let r = a.wrapping_rem(b);
    Some(if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    })
}

fn checked<T: Copy + Default>(op: &str, out: ArrayD<Option<T>>) -> Result<ArrayD<T>, EvalError> {
    if out.iter().any(Option::is_none) {
        return Err(EvalError::DivisionByZero { op: op.to_string() });
    }
    Ok(out.mapv(|v| v.unwrap_or_default()))
}

/// Applies a float function in f32 (f32 and the half types, rounding once
/// at the end) or f64.
fn via_f32<T: Elem>(f: fn(f32, f32) -> f32) -> impl Fn(T, T) -> T {
    move |a: T, b: T| T::from_f64(f64::from(f(a.to_f64() as f32, b.to_f64() as f32)))
}

fn arith_t<T: Elem>(op: &str, x: &ArrayD<T>, y: &ArrayD<T>) -> Result<ArrayD<T>, EvalError> {
    Ok(match op {
        "pd_op.add" => zip(op, x, y, T::add)?,
        "pd_op.subtract" => zip(op, x, y, T::sub)?,
        "pd_op.multiply" => zip(op, x, y, T::mul)?,
        "pd_op.divide" => checked(op, zip(op, x, y, T::div)?)?,
        // phi's MaximumFunctor/MinimumFunctor (3.3) propagate NaN from
        // either side, else `a > b ? a : b` (so max(0, -0) is -0).
        "pd_op.maximum" => zip(op, x, y, |a, b| {
            if a.is_nan() || (!b.is_nan() && a > b) {
                a
            } else {
                b
            }
        })?,
        "pd_op.minimum" => zip(op, x, y, |a, b| {
            if a.is_nan() || (!b.is_nan() && a < b) {
                a
            } else {
                b
            }
        })?,
        // ElementwisePowFunctor: integers go through `std::pow` on doubles
        // and are truncated back; floats use `std::pow` in `T` (half types
        // in float32).
        "pd_op.elementwise_pow" if !T::FLOAT => {
            zip(op, x, y, |a, b| T::from_f64(a.to_f64().powf(b.to_f64())))?
        }
        "pd_op.elementwise_pow" if T::DTYPE == DType::Float64 => {
            zip(op, x, y, |a, b| T::from_f64(a.to_f64().powf(b.to_f64())))?
        }
        "pd_op.elementwise_pow" => zip(op, x, y, via_f32(f32::powf))?,
        "pd_op.remainder" | "pd_op.floor_divide" if !T::FLOAT => {
            let f = if op == "pd_op.remainder" {
                int_rem
            } else {
                int_floordiv
            };
            checked(
                op,
                zip(op, x, y, |a, b| f(a.to_i64(), b.to_i64()).map(T::from_i64))?,
            )?
        }
        "pd_op.remainder" if T::DTYPE == DType::Float64 => zip(op, x, y, |a, b| {
            T::from_f64(rem_f64(a.to_f64(), b.to_f64()))
        })?,
        "pd_op.remainder" => zip(op, x, y, via_f32(rem_f32))?,
        "pd_op.floor_divide" if T::DTYPE == DType::Float64 => zip(op, x, y, |a, b| {
            T::from_f64(floordiv_f64(a.to_f64(), b.to_f64()))
        })?,
        "pd_op.floor_divide" => zip(op, x, y, via_f32(floordiv_f32))?,
        _ => return Err(EvalError::UnsupportedOp(op.to_string())),
    })
}

/// The arithmetic ops.
fn arith(op: &str, x: &EvalTensor, y: &EvalTensor) -> Result<EvalTensor, EvalError> {
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
fn compare(op: &str, x: &EvalTensor, y: &EvalTensor) -> Result<EvalTensor, EvalError> {
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

/// `logical_and/or/xor`: nonzero is true (NaN too); bool results; no
/// float16/bfloat16 kernels.
fn logical(c: &Ctx<'_>, x: &EvalTensor, y: &EvalTensor) -> Result<EvalTensor, EvalError> {
    if matches!(x.dtype(), DType::Float16 | DType::BFloat16) {
        return Err(c.dtype_err(x.dtype()));
    }
    let op = c.name;
    let f: fn(bool, bool) -> bool = match op {
        "pd_op.logical_and" => |a, b| a && b,
        "pd_op.logical_or" => |a, b| a || b,
        _ => |a, b| a != b,
    };
    with_array!(x, a => {
        let b = Elem::view(y).ok_or_else(|| EvalError::dtype(op, y.dtype()))?;
        Ok(EvalTensor::Bool(zip(op, a, b, |p, q| f(p.to_f64() != 0.0, q.to_f64() != 0.0))?))
    })
}

/// `bitwise_and/or/xor` on integers and bools.
fn bitwise(c: &Ctx<'_>, x: &EvalTensor, y: &EvalTensor) -> Result<EvalTensor, EvalError> {
    let op = c.name;
    fn f<
        T: std::ops::BitAnd<Output = T> + std::ops::BitOr<Output = T> + std::ops::BitXor<Output = T>,
    >(
        op: &str,
    ) -> fn(T, T) -> T {
        match op {
            "pd_op.bitwise_and" => |a, b| a & b,
            "pd_op.bitwise_or" => |a, b| a | b,
            _ => |a, b| a ^ b,
        }
    }
    Ok(match (x, y) {
        (EvalTensor::I32(a), EvalTensor::I32(b)) => EvalTensor::I32(zip(op, a, b, f(op))?),
        (EvalTensor::I64(a), EvalTensor::I64(b)) => EvalTensor::I64(zip(op, a, b, f(op))?),
        (EvalTensor::Bool(a), EvalTensor::Bool(b)) => EvalTensor::Bool(zip(op, a, b, f(op))?),
        _ => return Err(c.dtype_err(x.dtype())),
    })
}

/// `where(condition, x, y)`: phi's kernel wants equal shapes (Paddle's
/// Python API broadcasts before); no float16/bfloat16 kernel.
fn where_(
    c: &Ctx<'_>,
    cond: &EvalTensor,
    x: &EvalTensor,
    y: &EvalTensor,
) -> Result<EvalTensor, EvalError> {
    let EvalTensor::Bool(m) = cond else {
        return Err(c.dtype_err(cond.dtype()));
    };
    same_dtype(c.name, x, y)?;
    if matches!(x.dtype(), DType::Float16 | DType::BFloat16) {
        return Err(c.dtype_err(x.dtype()));
    }
    if m.shape() != x.shape() || x.shape() != y.shape() {
        return Err(c.shape_err(format!(
            "condition {:?}, x {:?} and y {:?} differ",
            m.shape(),
            x.shape(),
            y.shape()
        )));
    }
    with_array!(x, a => {
        let b = Elem::view(y).ok_or_else(|| c.dtype_err(y.dtype()))?;
        let out = Zip::from(m).and(a).and(b).map_collect(|&k, &p, &q| if k { p } else { q });
        Ok(Elem::wrap(out))
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::tests::{f32s, i64s, run};
    use crate::EvalError;

    #[test]
    fn broadcasting_edges() {
        let e = run(
            "pd_op.add",
            &[f32s(&[2, 3], &[0.0; 6]), f32s(&[2], &[0.0; 2])],
            &[],
        );
        assert!(matches!(e, Err(EvalError::Shape { .. })));
        let out = run(
            "pd_op.add",
            &[f32s(&[0, 3], &[]), f32s(&[3], &[1.0; 3])],
            &[],
        )
        .unwrap();
        assert_eq!(out[0].dims(), vec![0, 3]);
        let out = run(
            "pd_op.multiply",
            &[f32s(&[], &[2.0]), f32s(&[], &[3.0])],
            &[],
        )
        .unwrap();
        assert_eq!((out[0].dims(), out[0].to_f64_vec()), (vec![], vec![6.0]));
    }

    #[test]
    fn maximum_propagates_nan_and_prefers_y_on_ties() {
        let x = f32s(&[3], &[f64::NAN, 1.0, 0.0]);
        let y = f32s(&[3], &[1.0, f64::NAN, -0.0]);
        let out = run("pd_op.maximum", &[x.clone(), y.clone()], &[]).unwrap()[0].to_f64_vec();
        assert!(out[0].is_nan() && out[1].is_nan());
        assert!(out[2] == 0.0 && out[2].is_sign_negative());
        let out = run("pd_op.minimum", &[x, y], &[]).unwrap()[0].to_f64_vec();
        assert!(out[0].is_nan() && out[1].is_nan() && out[2].is_sign_negative());
    }

    #[test]
    fn integer_division_by_zero_is_an_error() {
        for op in ["pd_op.remainder", "pd_op.floor_divide"] {
            let e = run(op, &[i64s(&[2], &[7, 1]), i64s(&[2], &[2, 0])], &[]);
            assert!(matches!(e, Err(EvalError::DivisionByZero { .. })), "{op}");
        }
        // i64::MIN // -1 wraps instead of trapping.
        let out = run(
            "pd_op.floor_divide",
            &[i64s(&[1], &[i64::MIN]), i64s(&[1], &[-1])],
            &[],
        );
        assert_eq!(out.unwrap()[0].to_i64_vec(), vec![i64::MIN]);
        let out = run(
            "pd_op.remainder",
            &[i64s(&[2], &[-7, 7]), i64s(&[2], &[3, -3])],
            &[],
        );
        assert_eq!(out.unwrap()[0].to_i64_vec(), vec![2, -2]);
    }

    #[test]
    fn where_needs_equal_shapes() {
        let c = crate::EvalTensor::from_i64s(pir_params::DType::Bool, &[2], &[1, 0]).unwrap();
        let e = run(
            "pd_op.where",
            &[c.clone(), f32s(&[1], &[1.0]), f32s(&[2], &[0.0; 2])],
            &[],
        );
        assert!(matches!(e, Err(EvalError::Shape { .. })));
        let out = run(
            "pd_op.where",
            &[c, f32s(&[2], &[1.0, 2.0]), f32s(&[2], &[3.0, 4.0])],
            &[],
        );
        assert_eq!(out.unwrap()[0].to_f64_vec(), vec![1.0, 4.0]);
    }
}
