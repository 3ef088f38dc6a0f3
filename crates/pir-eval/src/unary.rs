//! Unary kernels and `cast`.

use ndarray::ArrayD;

use crate::value::{with_array, Elem};
use crate::{EvalError, EvalTensor};
use pir_params::DType;

/// `cast`: phi's `CastKernel` is `static_cast<OutT>(in)` per element.
/// Integer and bool sources convert through `i64` (exact; wrapping into
/// narrower integers), float sources through `f64` (exact; float → int
/// truncates, saturating where C++ is undefined; → half types via float32 as
/// Paddle's half constructors do).
pub(crate) fn cast(x: &EvalTensor, to: DType) -> Result<EvalTensor, EvalError> {
    let dims = x.shape().to_vec();
    if x.dtype().is_float() {
        EvalTensor::from_f64s(to, &dims, &x.to_f64_vec())
    } else {
        EvalTensor::from_i64s(to, &dims, &x.to_i64_vec())
    }
}

fn map_f<T: Elem>(a: &ArrayD<T>, f: impl Fn(f64) -> f64) -> EvalTensor {
    T::wrap(a.mapv(|v| T::from_f64(f(v.to_f64()))))
}

/// `relu`, `exp`, `tanh`, `sqrt`, `abs`, `sigmoid`.
///
/// Paddle's CPU functors evaluate these with Eigen in `T` (float16 `exp`
/// in float32, then rounded). Here the value is computed in f64 and rounded
/// once to `T`: correctly rounded where Eigen's vectorised `exp`/`tanh` may be
/// off by an ulp or two (the tests allow for that). Dtypes follow Paddle's
/// registrations: `relu` float32/float64; `exp` also float16 and the integers;
/// `tanh`/`sqrt`/`sigmoid` float32/float64; `abs` float32/float64 and the
/// integers. (Paddle's Python API casts integer inputs of `exp`/`tanh`/
/// `sqrt`/`sigmoid` to float32 before the kernel.)
pub(crate) fn unary(op: &str, x: &EvalTensor) -> Result<EvalTensor, EvalError> {
    let unsupported = || Err(EvalError::dtype(op, x.dtype()));
    match (op, x) {
        ("pd_op.relu", EvalTensor::F32(_) | EvalTensor::F64(_)) => {}
        ("pd_op.exp", EvalTensor::F32(_) | EvalTensor::F64(_) | EvalTensor::F16(_)) => {}
        ("pd_op.exp", EvalTensor::I32(a)) => {
            return Ok(EvalTensor::I32(a.mapv(|v| f64::from(v).exp() as i32)))
        }
        ("pd_op.exp", EvalTensor::I64(a)) => {
            return Ok(EvalTensor::I64(a.mapv(|v| (v as f64).exp() as i64)))
        }
        (
            "pd_op.tanh" | "pd_op.sqrt" | "pd_op.sigmoid",
            EvalTensor::F32(_) | EvalTensor::F64(_),
        ) => {}
        ("pd_op.abs", EvalTensor::F32(_) | EvalTensor::F64(_)) => {}
        ("pd_op.abs", EvalTensor::I32(a)) => return Ok(EvalTensor::I32(a.mapv(i32::wrapping_abs))),
        ("pd_op.abs", EvalTensor::I64(a)) => return Ok(EvalTensor::I64(a.mapv(i64::wrapping_abs))),
        _ => return unsupported(),
    }
    let f: fn(f64) -> f64 = match op {
        // ReluCPUFunctor: `x.cwiseMax(0)`; NaN stays NaN, -0 stays -0.
        "pd_op.relu" => |v| if v < 0.0 { 0.0 } else { v },
        "pd_op.exp" => f64::exp,
        "pd_op.tanh" => f64::tanh,
        "pd_op.sqrt" => f64::sqrt,
        "pd_op.abs" => f64::abs,
        // SigmoidFunctor: 1 / (1 + exp(-x)).
        "pd_op.sigmoid" => |v| 1.0 / (1.0 + (-v).exp()),
        _ => return unsupported(),
    };
    Ok(with_array!(x, a => map_f(a, f)))
}
