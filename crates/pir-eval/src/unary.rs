//! Unary kernels: math functions, activations, `cast`, `scale`, `clip`,
//! `pow`, the `is*` tests, `logical_not`, `bitwise_not` and `assign`.
//!
//! Float functions are computed in f64 and rounded once to the result dtype
//! (float16/bfloat16 through float32, as Paddle's half types convert).
//! Paddle computes in the dtype itself, with glibc's functions or Eigen's
//! vectorised approximations, so some results differ by an ulp or a few
//! (the vector test states each tolerance and why).

use ndarray::ArrayD;
use pir_params::DType;

use crate::attrs::{scalar_value, Ctx};
use crate::value::{array, with_array, Elem};
use crate::{EvalError, EvalTensor};

/// The ops of this module that also have integer kernels.
pub(crate) const INT_OPS: &[&str] = &[
    "pd_op.square",
    "pd_op.abs",
    "pd_op.sign",
    "pd_op.floor",
    "pd_op.ceil",
    "pd_op.round",
    "pd_op.trunc",
];

/// The other ops of this module (float, bool and cast kernels).
pub(crate) const OPS: &[&str] = &[
    "pd_op.assign",
    "pd_op.cast",
    "pd_op.scale",
    "pd_op.clip",
    "pd_op.pow",
    "pd_op.relu",
    "pd_op.relu6",
    "pd_op.exp",
    "pd_op.expm1",
    "pd_op.log",
    "pd_op.log2",
    "pd_op.log10",
    "pd_op.log1p",
    "pd_op.sqrt",
    "pd_op.rsqrt",
    "pd_op.sin",
    "pd_op.cos",
    "pd_op.tan",
    "pd_op.tanh",
    "pd_op.sigmoid",
    "pd_op.silu",
    "pd_op.swish",
    "pd_op.gelu",
    "pd_op.hardswish",
    "pd_op.hardsigmoid",
    "pd_op.leaky_relu",
    "pd_op.elu",
    "pd_op.softplus",
    "pd_op.hardtanh",
    "pd_op.softsign",
    "pd_op.selu",
    "pd_op.celu",
    "pd_op.mish",
    "pd_op.hardshrink",
    "pd_op.softshrink",
    "pd_op.thresholded_relu",
    "pd_op.tanh_shrink",
    "pd_op.erf",
    "pd_op.reciprocal",
    "pd_op.isnan",
    "pd_op.isinf",
    "pd_op.isfinite",
    "pd_op.logical_not",
    "pd_op.bitwise_not",
];

use DType::{BFloat16 as BF16, Bool, Float16 as F16, Float32 as F32, Float64 as F64};
use DType::{Int32 as I32, Int64 as I64};

/// An elementwise float function of the value and whether it is in Eigen's
/// vectorised path (see [`packet`]).
type Kernel = Box<dyn Fn(f64, bool) -> f64>;

/// float32/float64 only.
const F: &[DType] = &[F32, F64];
/// float32/float64 and the integers.
const FI: &[DType] = &[F32, F64, I32, I64];

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    if !OPS.contains(&c.name) && !INT_OPS.contains(&c.name) {
        return None;
    }
    Some(run(c).map(|t| vec![t]))
}

fn run(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    let name = c.name;
    match name {
        "pd_op.scale" => {
            c.arity_is(2)?;
            return scale(c, c.x(0)?, c.x(1)?);
        }
        "pd_op.clip" => {
            c.arity_is(3)?;
            return clip(c, c.x(0)?, c.x(1)?, c.x(2)?);
        }
        _ => c.arity_is(1)?,
    }
    let x = c.x(0)?;
    let d = x.dtype();
    let check = |ok: &[DType]| {
        if ok.contains(&d) {
            Ok(())
        } else {
            Err(c.dtype_err(d))
        }
    };
    match name {
        "pd_op.assign" => return Ok(x.clone()),
        "pd_op.cast" => return cast(x, c.dtype_req("dtype")?),
        "pd_op.pow" => {
            check(FI)?;
            return pow(c, x);
        }
        "pd_op.isnan" | "pd_op.isinf" | "pd_op.isfinite" => {
            check(&[F32, F64, F16, BF16, I32, I64])?;
            let f: fn(f64) -> bool = match name {
                "pd_op.isnan" => f64::is_nan,
                "pd_op.isinf" => f64::is_infinite,
                _ => f64::is_finite,
            };
            return Ok(with_array!(x, a => EvalTensor::Bool(a.mapv(|v| f(v.to_f64())))));
        }
        "pd_op.logical_not" => {
            check(&[F32, F64, I32, I64, Bool])?;
            return Ok(with_array!(x, a => EvalTensor::Bool(a.mapv(|v| v.to_f64() == 0.0))));
        }
        "pd_op.bitwise_not" => {
            return match x {
                EvalTensor::I32(a) => Ok(EvalTensor::I32(a.mapv(|v| !v))),
                EvalTensor::I64(a) => Ok(EvalTensor::I64(a.mapv(|v| !v))),
                EvalTensor::Bool(a) => Ok(EvalTensor::Bool(a.mapv(|v| !v))),
                _ => Err(c.dtype_err(d)),
            };
        }
        _ => {}
    }
    // Integer kernels.
    if let EvalTensor::I32(_) | EvalTensor::I64(_) = x {
        if !INT_OPS.contains(&name) {
            return Err(c.dtype_err(d));
        }
        return Ok(match x {
            EvalTensor::I32(a) => EvalTensor::I32(a.mapv(|v| int_unary(name, v.into()) as i32)),
            EvalTensor::I64(a) => EvalTensor::I64(a.mapv(|v| int_unary(name, v))),
            _ => return Err(c.dtype_err(d)),
        });
    }
    // `r` rounds to the dtype Paddle computes in (float32 for the half
    // types), after every step of the functor's formula.
    let r: fn(f64) -> f64 = if d == F64 {
        |v| v
    } else {
        |v| f64::from(v as f32)
    };
    let (ok, f): (&[DType], Kernel) = match name {
        // ReluCPUFunctor: `x.cwiseMax(0)`: NaN and -0 give +0.
        "pd_op.relu" => (F, Box::new(|v, _p| if v > 0.0 { v } else { 0.0 })),
        // Unlike relu, relu6 keeps NaN and -0.
        "pd_op.relu6" => (F, Box::new(|v, _p| v.clamp(0.0, 6.0))),
        "pd_op.exp" => (&[F32, F64, F16], Box::new(move |v, p| exp(d, v, p, r))),
        "pd_op.expm1" => (&[F32, F64, F16], Box::new(move |v, _p| r(v.exp_m1()))),
        "pd_op.erf" => (&[F32, F64, F16], Box::new(move |v, _p| r(erf(v)))),
        "pd_op.log" => (&[F32, F64, F16, BF16], Box::new(move |v, _p| r(v.ln()))),
        "pd_op.log2" => (&[F32, F64, F16, BF16], Box::new(move |v, _p| r(v.log2()))),
        "pd_op.log10" => (&[F32, F64, F16, BF16], Box::new(move |v, _p| r(v.log10()))),
        "pd_op.log1p" => (&[F32, F64, F16, BF16], Box::new(move |v, _p| r(v.ln_1p()))),
        "pd_op.floor" => (&[F32, F64, F16, BF16], Box::new(|v, _p| v.floor())),
        "pd_op.ceil" => (&[F32, F64, F16, BF16], Box::new(|v, _p| v.ceil())),
        "pd_op.sqrt" => (F, Box::new(move |v, p| sqrt(d, v, p))),
        "pd_op.rsqrt" => (F, Box::new(move |v, _p| r(1.0 / v.sqrt()))),
        "pd_op.square" => (F, Box::new(move |v, _p| r(v * v))),
        "pd_op.abs" => (F, Box::new(|v, _p| v.abs())),
        // `(0 < x) - (x < 0)`, NaN stays NaN.
        "pd_op.sign" => (
            F,
            Box::new(|v, _p| {
                if v.is_nan() {
                    v
                } else {
                    f64::from(u8::from(v > 0.0)) - f64::from(u8::from(v < 0.0))
                }
            }),
        ),
        "pd_op.trunc" => (F, Box::new(|v, _p| v.trunc())),
        "pd_op.round" => {
            let decimals = c.i64_or("decimals", 0)?;
            (F, Box::new(move |v, _p| round(v, decimals, r)))
        }
        "pd_op.sin" => (F, Box::new(move |v, _p| r(v.sin()))),
        "pd_op.cos" => (F, Box::new(move |v, _p| r(v.cos()))),
        "pd_op.tan" => (F, Box::new(move |v, _p| r(v.tan()))),
        "pd_op.tanh" => (F, Box::new(move |v, _p| r(v.tanh()))),
        // 1 / (1 + exp(-x)) in `T` (exp overflows to inf for large -x).
        "pd_op.sigmoid" => (F, Box::new(move |v, _p| r(1.0 / r(1.0 + r((-v).exp()))))),
        "pd_op.silu" | "pd_op.swish" => (F, Box::new(move |v, _p| r(v / r(1.0 + r((-v).exp()))))),
        "pd_op.reciprocal" => (F, Box::new(move |v, _p| r(1.0 / v))),
        // x * 0.5 * (1 + erf(x * M_SQRT1_2)), or with
        // tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)), each step in `T`.
        "pd_op.gelu" => {
            if c.bool_or("approximate", false)? {
                let k = r((2.0 / std::f64::consts::PI).sqrt());
                let c3 = r(0.044715);
                (
                    F,
                    Box::new(move |v, _p| {
                        let cube = r(r(v * v) * v);
                        let t = r((r(k * r(v + r(c3 * cube)))).tanh());
                        r(r(v * 0.5) * r(1.0 + t))
                    }),
                )
            } else {
                let s = r(std::f64::consts::FRAC_1_SQRT_2);
                (
                    F,
                    Box::new(move |v, _p| r(r(v * 0.5) * r(1.0 + r(erf(r(v * s)))))),
                )
            }
        }
        // x * min(max(x + 3, 0), 6) / 6.
        "pd_op.hardswish" => (
            F,
            Box::new(move |v, _p| r(r(v * r(v + 3.0).clamp(0.0, 6.0)) / 6.0)),
        ),
        "pd_op.hardsigmoid" => {
            let slope = r(f64::from(c.f32_or("slope", 0.2)?));
            let offset = r(f64::from(c.f32_or("offset", 0.5)?));
            (
                F,
                Box::new(move |v, _p| r(r(v * slope) + offset).clamp(0.0, 1.0)),
            )
        }
        "pd_op.leaky_relu" => {
            let alpha = r(c.f64_or("negative_slope", 0.02)?);
            (
                F,
                Box::new(move |v, _p| if v >= 0.0 { v } else { r(v * alpha) }),
            )
        }
        // alpha * (exp(x) - 1) for x <= 0, in `T` (not expm1).
        "pd_op.elu" => {
            let alpha = r(f64::from(c.f32_or("alpha", 1.0)?));
            (
                F,
                Box::new(move |v, _p| {
                    if v > 0.0 {
                        v
                    } else {
                        r(alpha * r(r(v.exp()) - 1.0))
                    }
                }),
            )
        }
        // x * beta > threshold ? x : log(1 + exp(x * beta)) / beta, in `T`.
        "pd_op.softplus" => {
            let beta = r(c.f64_or("beta", 1.0)?);
            let threshold = r(c.f64_or("threshold", 20.0)?);
            (
                F,
                Box::new(move |v, _p| {
                    let xb = r(v * beta);
                    if xb > threshold {
                        v
                    } else {
                        r(r(r(1.0 + r(xb.exp())).ln()) / beta)
                    }
                }),
            )
        }
        "pd_op.hardtanh" => {
            let lo = r(f64::from(c.f32_or("t_min", 0.0)?));
            let hi = r(f64::from(c.f32_or("t_max", 24.0)?));
            (
                F,
                Box::new(move |v, _p| {
                    if v < lo {
                        lo
                    } else if v > hi {
                        hi
                    } else {
                        v
                    }
                }),
            )
        }
        // x / (1 + |x|).
        "pd_op.softsign" => (F, Box::new(move |v, _p| r(v / r(1.0 + v.abs())))),
        // x > 0 ? scale * x : scale * (alpha * exp(x) - alpha).
        "pd_op.selu" => {
            // The defaults are Paddle's float attribute defaults.
            let scale = r(f64::from(
                c.f32_or("scale", 1.050_700_987_355_480_5_f64 as f32)?,
            ));
            let alpha = r(f64::from(
                c.f32_or("alpha", 1.673_263_242_354_377_2_f64 as f32)?,
            ));
            (
                F,
                Box::new(move |v, _p| {
                    if v > 0.0 {
                        r(scale * v)
                    } else {
                        r(scale * r(r(alpha * r(v.exp())) - alpha))
                    }
                }),
            )
        }
        // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
        "pd_op.celu" => {
            let alpha = r(f64::from(c.f32_or("alpha", 1.0)?));
            (
                F,
                Box::new(move |v, _p| {
                    if v.is_nan() || v >= 0.0 {
                        // Paddle keeps NaN and -0.
                        v
                    } else {
                        r(alpha * r(r(r(v / alpha).exp()) - 1.0))
                    }
                }),
            )
        }
        // x * tanh(log(1 + exp(x))) (x above `lambda`), in `T`.
        "pd_op.mish" => {
            let threshold = r(f64::from(c.f32_or("lambda", 20.0)?));
            (
                F,
                Box::new(move |v, _p| {
                    let sp = if v > threshold {
                        v
                    } else {
                        r(r(1.0 + r(v.exp())).ln())
                    };
                    r(v * r(sp.tanh()))
                }),
            )
        }
        "pd_op.hardshrink" => {
            let t = r(f64::from(c.f32_or("threshold", 0.5)?));
            // x * !(-t < x < t): |x| == t is kept, small negatives give -0.
            (
                F,
                Box::new(move |v, _p| if v > -t && v < t { v * 0.0 } else { v }),
            )
        }
        // (x > t) * (x - t) + (x < -t) * (x + t): infinities give NaN.
        "pd_op.softshrink" => {
            let t = r(f64::from(c.f32_or("threshold", 0.5)?));
            (
                F,
                Box::new(move |v, _p| {
                    let hi = f64::from(u8::from(v > t));
                    let lo = f64::from(u8::from(v < -t));
                    r(hi * r(v - t) + lo * r(v + t))
                }),
            )
        }
        "pd_op.thresholded_relu" => {
            let t = r(f64::from(c.f32_or("threshold", 1.0)?));
            let value = r(f64::from(c.f32_or("value", 0.0)?));
            // (x > t) * x + (x <= t) * value: NaN and -inf give NaN.
            (
                F,
                Box::new(move |v, _p| {
                    let gt = f64::from(u8::from(v > t));
                    let le = f64::from(u8::from(v <= t));
                    r(gt * v + le * value)
                }),
            )
        }
        "pd_op.tanh_shrink" => (F, Box::new(move |v, _p| r(v - r(v.tanh())))),
        _ => return Err(EvalError::UnsupportedOp(name.to_string())),
    };
    check(ok)?;
    fn map_f<T: Elem>(
        a: &ArrayD<T>,
        f: &dyn Fn(f64, bool) -> f64,
    ) -> Result<EvalTensor, EvalError> {
        let n = a.len();
        let data = a
            .iter()
            .enumerate()
            .map(|(i, &v)| T::from_f64(f(v.to_f64(), packet::<T>(i, n))))
            .collect();
        Ok(T::wrap(array(a.shape(), data)?))
    }
    with_array!(x, a => map_f(a, f.as_ref()))
}

/// Whether element `i` of `n` goes through Eigen's vectorised path in
/// Paddle's CPU kernels (AVX2 builds: packets of 8 float32 / 4 float64, the
/// last `n % width` elements are done one by one with the scalar functions).
/// A few functions differ between the two paths on special values.
pub(crate) fn packet<T: Elem>(i: usize, n: usize) -> bool {
    let width = match T::DTYPE {
        F32 => 8,
        F64 => 4,
        _ => return false,
    };
    i < n / width * width
}

/// `sqrt`: float32's vectorised path is Eigen's `psqrt` (a hardware
/// reciprocal square root and one Newton step): within an ulp or two,
/// `sqrt(inf)` is NaN and inputs in `[0, FLT_MIN)` give +0.
fn sqrt(d: DType, v: f64, packet: bool) -> f64 {
    if d == F32 && packet {
        if v == f64::INFINITY {
            return f64::NAN;
        }
        if (0.0..f64::from(f32::MIN_POSITIVE)).contains(&v) {
            return 0.0;
        }
    }
    v.sqrt()
}

/// `exp` in `T`. In Eigen's vectorised path (see [`packet`]) `exp(-inf)` is
/// not 0 but Eigen's value at its clamping bound (the bits below).
fn exp(d: DType, v: f64, packet: bool, r: fn(f64) -> f64) -> f64 {
    if v == f64::NEG_INFINITY && packet {
        return match d {
            F32 => f64::from(f32::from_bits(0x001f_feb0)),
            _ => f64::from_bits(0x0003_feae_cf4d_1116),
        };
    }
    r(v.exp())
}

fn int_unary(op: &str, v: i64) -> i64 {
    match op {
        "pd_op.square" => v.wrapping_mul(v),
        "pd_op.abs" => v.wrapping_abs(),
        "pd_op.sign" => v.signum(),
        // Integer trunc goes through a double: INT64_MAX becomes 2^63,
        // which converts back to INT64_MIN.
        "pd_op.trunc" => i64::from_f64(v as f64),
        _ => v,
    }
}

/// Paddle's `round` with `decimals`: round half to even (`std::rint`) of
/// `x * 10^d` in `T`, divided back by `10^d` in `T`.
fn round(v: f64, decimals: i64, r: fn(f64) -> f64) -> f64 {
    if decimals == 0 {
        return v.round_ties_even();
    }
    let p = r(10f64.powi(decimals.clamp(-400, 400) as i32));
    r(r(v * p).round_ties_even() / p)
}

/// The error function (libm's, correctly rounded in nearly all cases).
pub(crate) fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// `cast`: phi's `CastKernel` is `static_cast<OutT>(in)` per element.
/// Integer and bool sources convert through `i64` (exact; wrapping into
/// narrower integers), float sources through `f64` (exact; float → int
/// truncates, NaN and out-of-range values give the minimum as on x86; → half
/// types via float32 as Paddle's half constructors do).
pub(crate) fn cast(x: &EvalTensor, to: DType) -> Result<EvalTensor, EvalError> {
    let dims = x.shape().to_vec();
    if x.dtype().is_float() {
        EvalTensor::from_f64s(to, &dims, &x.to_f64_vec())
    } else {
        EvalTensor::from_i64s(to, &dims, &x.to_i64_vec())
    }
}

/// `scale(x, scale, bias, bias_after_scale)`.
///
/// phi's CPU `ScaleKernel` evaluates `EigenScale` in `T`: the scale is
/// `Scalar::to<T>()` (a `static_cast` from the operand's value: truncation for
/// integers) and the bias `static_cast<T>(float)`; then `x * s + b` or
/// `(x + b) * s`, each operator rounding to `T` (per-op rounding for half
/// types, wrapping for integers).
fn scale(c: &Ctx<'_>, x: &EvalTensor, s: &EvalTensor) -> Result<EvalTensor, EvalError> {
    let sv = scalar_value(c, s)?;
    let bias = f64::from(c.f32_or("bias", 0.0)?);
    let after = c.bool_or("bias_after_scale", true)?;
    Ok(with_array!(x, arr => {
        let sc = Elem::from_f64(sv);
        let b = Elem::from_f64(bias);
        Elem::wrap(arr.mapv(|v| {
            if after {
                Elem::add(Elem::mul(v, sc), b)
            } else {
                Elem::mul(Elem::add(v, b), sc)
            }
        }))
    }))
}

/// `clip(x, min, max)`: the bounds are `float` scalars converted to `T`
/// (truncated for integers); Paddle rejects `min > max`. NaN stays NaN.
fn clip(
    c: &Ctx<'_>,
    x: &EvalTensor,
    lo: &EvalTensor,
    hi: &EvalTensor,
) -> Result<EvalTensor, EvalError> {
    let (lo, hi) = (
        f64::from(scalar_value(c, lo)? as f32),
        f64::from(scalar_value(c, hi)? as f32),
    );
    if lo > hi {
        return Err(EvalError::value(
            c.name,
            format!("max ({hi}) is less than min ({lo})"),
        ));
    }
    fn go<T: Elem>(a: &ArrayD<T>, lo: f64, hi: f64) -> EvalTensor {
        let (l, h) = (T::from_f64(lo), T::from_f64(hi));
        T::wrap(a.mapv(|v| {
            if v < l {
                l
            } else if v > h {
                h
            } else {
                v
            }
        }))
    }
    match x.dtype() {
        F32 | F64 | I32 | I64 => Ok(with_array!(x, a => go(a, lo, hi))),
        d => Err(c.dtype_err(d)),
    }
}

/// `pow(x, y)` with a float attribute `y`. Floats: `std::pow` in `T`, or in
/// Eigen's vectorised path (see [`packet`]) its `generic_pow`, which differs
/// on signed zeros and infinities: `(-0)^3` is 0 and `(-inf)^3` is inf there.
/// Integers: Paddle truncates `y` to an integer and multiplies by squaring
/// (a negative exponent never terminates there; it is an error here).
fn pow(c: &Ctx<'_>, x: &EvalTensor) -> Result<EvalTensor, EvalError> {
    let y = f64::from(c.f32_or("y", 1.0)?);
    match x {
        EvalTensor::I32(a) => {
            let e = int_exponent(c, y)?;
            Ok(EvalTensor::I32(a.mapv(|v| v.wrapping_pow(e))))
        }
        EvalTensor::I64(a) => {
            let e = int_exponent(c, y)?;
            Ok(EvalTensor::I64(a.mapv(|v| v.wrapping_pow(e))))
        }
        EvalTensor::F32(a) => {
            let n = a.len();
            let data = a
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let p = packet::<f32>(i, n);
                    pow_f32(v, y as f32, p)
                })
                .collect();
            Ok(EvalTensor::F32(array(a.shape(), data)?))
        }
        EvalTensor::F64(a) => {
            let n = a.len();
            let data = a
                .iter()
                .enumerate()
                .map(|(i, &v)| pow_f64(v, y, packet::<f64>(i, n)))
                .collect();
            Ok(EvalTensor::F64(array(a.shape(), data)?))
        }
        _ => Err(c.dtype_err(x.dtype())),
    }
}

fn int_exponent(c: &Ctx<'_>, y: f64) -> Result<u32, EvalError> {
    let e = y.trunc();
    if !(0.0..=f64::from(u32::MAX)).contains(&e) {
        return Err(EvalError::value(
            c.name,
            format!("integer pow with exponent {y}"),
        ));
    }
    Ok(e as u32)
}

/// `std::pow` (scalar path) or Eigen's `generic_pow` (vectorised path).
macro_rules! pow_fn {
    ($name:ident, $t:ty) => {
        fn $name(x: $t, y: $t, packet: bool) -> $t {
            if !packet {
                return x.powf(y);
            }
            let ax = x.abs();
            let y_int = y.floor() == y;
            let y_even = (y * 0.5).round() == y * 0.5;
            if y == 1.0 {
                x
            } else if x == 1.0 || y == 0.0 || (x == -1.0 && y.is_infinite()) {
                1.0
            } else if (x == 0.0 && y > 0.0) || (ax.is_infinite() && y < 0.0) {
                0.0
            } else if (x == 0.0 && y < 0.0) || (ax.is_infinite() && y > 0.0) {
                <$t>::INFINITY
            } else if x < 0.0 && !y_int && !y.is_infinite() {
                <$t>::NAN
            } else if x < 0.0 && !y_even {
                -ax.powf(y)
            } else {
                ax.powf(y)
            }
        }
    };
}
pow_fn!(pow_f32, f32);
pow_fn!(pow_f64, f64);

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::tests::{f32s, i64s, run, A};
    use crate::{EvalError, EvalTensor};
    use pir_params::DType;

    #[test]
    fn clip_rejects_inverted_bounds() {
        let e = run(
            "pd_op.clip",
            &[f32s(&[1], &[0.0]), f32s(&[1], &[2.0]), f32s(&[1], &[1.0])],
            &[],
        );
        assert!(matches!(e, Err(EvalError::InvalidValue { .. })));
        let out = run(
            "pd_op.clip",
            &[
                f32s(&[3], &[f64::NAN, -5.0, 5.0]),
                f32s(&[1], &[-1.0]),
                f32s(&[1], &[1.0]),
            ],
            &[],
        );
        let v = out.unwrap()[0].to_f64_vec();
        assert!(v[0].is_nan() && v[1] == -1.0 && v[2] == 1.0);
    }

    #[test]
    fn integer_pow_with_negative_exponent_is_an_error() {
        let e = run("pd_op.pow", &[i64s(&[1], &[2])], &[("y", A::F32(-1.0))]);
        assert!(matches!(e, Err(EvalError::InvalidValue { .. })));
        let out = run("pd_op.pow", &[i64s(&[2], &[3, -2])], &[("y", A::F32(3.5))]).unwrap();
        assert_eq!(out[0].to_i64_vec(), vec![27, -8]);
    }

    #[test]
    fn relu_and_relu6_treat_nan_differently() {
        let x = f32s(&[2], &[f64::NAN, -0.0]);
        let r = run("pd_op.relu", std::slice::from_ref(&x), &[]).unwrap()[0].to_f64_vec();
        assert!(r[0] == 0.0 && r[1].is_sign_positive());
        let r = run("pd_op.relu6", &[x], &[]).unwrap()[0].to_f64_vec();
        assert!(r[0].is_nan() && r[1].is_sign_negative());
    }

    #[test]
    fn exp_of_minus_infinity_follows_the_vectorised_path() {
        let eight = f32s(&[9], &[f64::NEG_INFINITY; 9]);
        let r = run("pd_op.exp", &[eight], &[]).unwrap()[0].to_f64_vec();
        assert!(r[..8].iter().all(|&v| v > 0.0 && v < 1e-38));
        assert_eq!(r[8], 0.0);
    }

    #[test]
    fn casts_of_nan_to_integers_give_the_minimum() {
        let x = f32s(&[3], &[f64::NAN, 1e20, -2.7]);
        let out = run("pd_op.cast", &[x], &[]);
        // `dtype` is required.
        assert!(matches!(out, Err(EvalError::Attribute { .. })));
        let t = EvalTensor::from_f64s(DType::Int32, &[3], &[f64::NAN, 1e20, -2.7]).unwrap();
        assert_eq!(
            t.to_i64_vec(),
            vec![i64::from(i32::MIN), i64::from(i32::MIN), -2]
        );
    }

    #[test]
    fn empty_and_zero_d_inputs() {
        let out = run("pd_op.exp", &[f32s(&[0, 2], &[])], &[]).unwrap();
        assert_eq!(out[0].dims(), vec![0, 2]);
        let out = run("pd_op.sigmoid", &[f32s(&[], &[0.0])], &[]).unwrap();
        assert_eq!((out[0].dims(), out[0].to_f64_vec()), (vec![], vec![0.5]));
    }
}
