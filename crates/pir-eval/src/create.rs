//! Creation ops: `full`, `full_int_array`, `full_like`, `full_with_tensor`,
//! `full_batch_size_like`, `assign_value`, `arange`, `linspace`.

use pir_params::DType;

use crate::attrs::{int_values, scalar_int, scalar_value, Ctx};
use crate::{numel, EvalError, EvalTensor};

/// The ops of this module.
pub(crate) const OPS: &[&str] = &[
    "pd_op.full",
    "pd_op.full_int_array",
    "pd_op.full_like",
    "pd_op.full_with_tensor",
    "pd_op.full_batch_size_like",
    "pd_op.assign_value",
    "pd_op.assign_value_",
    "pd_op.arange",
    "pd_op.linspace",
];

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    let r = match c.name {
        "pd_op.full" => full(c),
        "pd_op.full_int_array" => full_int_array(c),
        "pd_op.full_like" => full_like(c),
        "pd_op.full_with_tensor" => full_with_tensor(c),
        "pd_op.full_batch_size_like" => full_batch_size_like(c),
        "pd_op.assign_value" | "pd_op.assign_value_" => assign_value(c),
        "pd_op.arange" => arange(c),
        "pd_op.linspace" => linspace(c),
        _ => return None,
    };
    Some(r.map(|t| vec![t]))
}

fn dims_of(c: &Ctx<'_>, dims: &[i64]) -> Result<Vec<usize>, EvalError> {
    let d = dims
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| c.shape_err(format!("bad dims {dims:?}"))))
        .collect::<Result<Vec<_>, _>>()?;
    numel(c.name, &d)?;
    Ok(d)
}

/// `dims` filled with `value` converted to `dtype` (`Scalar::to<T>()`: a
/// `static_cast`, half types through float32).
fn filled(c: &Ctx<'_>, dtype: DType, dims: &[usize], value: f64) -> Result<EvalTensor, EvalError> {
    let n = numel(c.name, dims)?;
    EvalTensor::from_f64s(dtype, dims, &vec![value; n])
}

/// `full(shape, value, dtype)`.
fn full(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(0)?;
    let dims = dims_of(c, &c.ints("shape")?)?;
    filled(c, c.dtype_req("dtype")?, &dims, c.f64("value")?)
}

/// `full_int_array(value, dtype)`: a 1-d tensor of the values (int32 and
/// int64 kernels only).
fn full_int_array(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(0)?;
    let values = c.ints("value")?;
    let dtype = c.dtype_req("dtype")?;
    if !matches!(dtype, DType::Int32 | DType::Int64) {
        return Err(c.dtype_err(dtype));
    }
    EvalTensor::from_i64s(dtype, &[values.len()], &values)
}

/// `full_like(x, value, dtype)`: `x`'s dims, `dtype` or `x`'s dtype. Paddle
/// refuses a finite value outside the target's range (NaN passes; NaN into
/// an integer gives the minimum).
fn full_like(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let x = c.x(0)?;
    let value = f64::from(scalar_value(c, c.x(1)?)? as f32);
    let dtype = c.dtype("dtype")?.unwrap_or(x.dtype());
    let range = match dtype {
        DType::Bool => Some((0.0, 1.0)),
        DType::Int32 => Some((f64::from(i32::MIN), f64::from(i32::MAX))),
        DType::Int64 => Some((i64::MIN as f64, i64::MAX as f64)),
        DType::Float16 => Some((-65504.0, 65504.0)),
        DType::BFloat16 => {
            let max = f64::from(half::bf16::MAX.to_f32());
            Some((-max, max))
        }
        _ => None,
    };
    if let Some((lo, hi)) = range {
        // NaN and infinities pass Paddle's check (an infinity only for the
        // float types: it is out of any integer range).
        let inf_ok = value.is_infinite() && dtype.is_float();
        if !inf_ok && (value < lo || value > hi) {
            return Err(EvalError::value(
                c.name,
                format!("value {value} out of range for {dtype}"),
            ));
        }
    }
    filled(c, dtype, x.shape(), value)
}

/// `full_with_tensor(value, shape, dtype)`.
fn full_with_tensor(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let v = c.x(0)?;
    let dims = dims_of(c, &int_values(c, c.x(1)?)?)?;
    let dtype = c.dtype("dtype")?.unwrap_or(v.dtype());
    let n = numel(c.name, &dims)?;
    if v.numel() != 1 {
        return Err(c.shape_err("the value operand must hold one element"));
    }
    if v.dtype().is_float() {
        EvalTensor::from_f64s(dtype, &dims, &vec![v.to_f64_vec()[0]; n])
    } else {
        EvalTensor::from_i64s(dtype, &dims, &vec![v.to_i64_vec()[0]; n])
    }
}

/// `full_batch_size_like(input, shape, dtype, value, input_dim_idx,
/// output_dim_idx)`: `shape` with dim `output_dim_idx` set to the input's
/// dim `input_dim_idx`, filled with `value` (for a tensor without LoD: with
/// one, Paddle takes the number of sequences).
fn full_batch_size_like(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(1)?;
    let x = c.x(0)?;
    let mut shape = c.ints("shape")?;
    let index = |name: &str, len: usize| -> Result<usize, EvalError> {
        let i = c.i64(name)?;
        usize::try_from(i)
            .ok()
            .filter(|&i| i < len)
            .ok_or_else(|| c.shape_err(format!("{name} {i} out of range for rank {len}")))
    };
    let from = index("input_dim_idx", x.shape().len())?;
    let to = index("output_dim_idx", shape.len())?;
    shape[to] = i64::try_from(x.shape()[from]).map_err(|_| c.shape_err("dim too large"))?;
    let dims = dims_of(c, &shape)?;
    // CPU kernels: float32/64, int32/64, bool.
    let dtype = c.dtype_req("dtype")?;
    if matches!(dtype, DType::Float16 | DType::BFloat16) {
        return Err(c.dtype_err(dtype));
    }
    filled(c, dtype, &dims, c.f64("value")?)
}

/// `assign_value(shape, dtype, values)`: the values in row-major order.
fn assign_value(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    let dims = dims_of(c, &c.ints("shape")?)?;
    let dtype = c.dtype_req("dtype")?;
    let values = c.f64s("values")?;
    if values.len() != dims.iter().product::<usize>() {
        return Err(c.shape_err(format!("{} values for dims {dims:?}", values.len())));
    }
    EvalTensor::from_f64s(dtype, &dims, &values)
}

/// `arange(start, end, step, dtype)`: the scalars are converted to `T`
/// first; the length is `ceil(|end - start| / |step|)` and element `i` is
/// `start + i * step` in `T`. No float16/bfloat16/bool kernels.
fn arange(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(3)?;
    let dtype = c.dtype("dtype")?.unwrap_or(DType::Float64);
    let (s, e, st) = (
        scalar_value(c, c.x(0)?)?,
        scalar_value(c, c.x(1)?)?,
        scalar_value(c, c.x(2)?)?,
    );
    match dtype {
        DType::Int32 | DType::Int64 => {
            let conv = |v: f64| EvalTensor::from_f64s(dtype, &[], &[v]).map(|t| t.to_i64_vec()[0]);
            let (s, e, st) = (conv(s)?, conv(e)?, conv(st)?);
            if st == 0 {
                return Err(EvalError::value(c.name, "step is 0"));
            }
            let n = ((e as i128 - s as i128).abs() + (st as i128).abs() - 1) / (st as i128).abs();
            let n = if (e - s).signum() != st.signum() {
                0
            } else {
                n
            };
            let n = usize::try_from(n).map_err(|_| EvalError::TooLarge {
                op: c.name.to_string(),
            })?;
            numel(c.name, &[n])?;
            let v: Vec<i64> = (0..n as i64)
                .map(|i| s.wrapping_add(i.wrapping_mul(st)))
                .collect();
            EvalTensor::from_i64s(dtype, &[n], &v)
        }
        DType::Float32 => {
            let (s, e, st) = (s as f32, e as f32, st as f32);
            let n = float_len(c, f64::from(s), f64::from(e), f64::from(st))?;
            let v: Vec<f64> = (0..n).map(|i| f64::from(s + i as f32 * st)).collect();
            EvalTensor::from_f64s(dtype, &[n], &v)
        }
        DType::Float64 => {
            let n = float_len(c, s, e, st)?;
            let v: Vec<f64> = (0..n).map(|i| s + i as f64 * st).collect();
            EvalTensor::from_f64s(dtype, &[n], &v)
        }
        d => Err(c.dtype_err(d)),
    }
}

fn float_len(c: &Ctx<'_>, s: f64, e: f64, st: f64) -> Result<usize, EvalError> {
    if st == 0.0 || !st.is_finite() || !s.is_finite() || !e.is_finite() {
        return Err(EvalError::value(
            c.name,
            format!("bad range {s}, {e}, {st}"),
        ));
    }
    let n = ((e - s) / st).ceil().max(0.0);
    if n > crate::MAX_ELEMENTS as f64 {
        return Err(EvalError::TooLarge {
            op: c.name.to_string(),
        });
    }
    Ok(n as usize)
}

/// `linspace(start, stop, number, dtype)`: start and stop converted to `T`;
/// `step = (stop - start) / (n - 1)` (in float32 for float32, else in
/// double); the first half counts up from
/// `start`, the second half down from `stop` (phi's CPU kernel). No
/// float16/bfloat16/bool kernels.
fn linspace(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(3)?;
    let dtype = c.dtype_req("dtype")?;
    if !matches!(
        dtype,
        DType::Float32 | DType::Float64 | DType::Int32 | DType::Int64
    ) {
        return Err(c.dtype_err(dtype));
    }
    let as_t = |v: f64| EvalTensor::from_f64s(dtype, &[], &[v]).map(|t| t.to_f64_vec()[0]);
    // Float32 computes the step and each value in float32.
    let r: fn(f64) -> f64 = if dtype == DType::Float32 {
        |v| f64::from(v as f32)
    } else {
        |v| v
    };
    let s = as_t(scalar_value(c, c.x(0)?)?)?;
    let e = as_t(scalar_value(c, c.x(1)?)?)?;
    let n = scalar_int(c, c.x(2)?)?;
    let n = usize::try_from(n)
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| EvalError::value(c.name, format!("number {n} must be positive")))?;
    numel(c.name, &[n])?;
    let v: Vec<f64> = if n == 1 {
        vec![s]
    } else {
        let step = r(r(e - s) / (n - 1) as f64);
        let half = n / 2;
        (0..n)
            .map(|i| {
                if i < half {
                    r(s + r(step * i as f64))
                } else {
                    r(e - r(step * (n - i - 1) as f64))
                }
            })
            .collect()
    };
    EvalTensor::from_f64s(dtype, &[n], &v)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::tests::{f32s, run};
    use crate::{EvalError, EvalTensor};
    use pir_params::DType;

    fn f64s(v: f64) -> EvalTensor {
        EvalTensor::from_f64s(DType::Float64, &[1], &[v]).unwrap()
    }

    #[test]
    fn full_like_checks_the_target_range() {
        let x = EvalTensor::from_f64s(DType::Float16, &[2], &[0.0; 2]).unwrap();
        let e = run("pd_op.full_like", &[x.clone(), f32s(&[1], &[70000.0])], &[]);
        assert!(matches!(e, Err(EvalError::InvalidValue { .. })));
        for v in [f64::INFINITY, f64::NAN, 65504.0] {
            assert!(run("pd_op.full_like", &[x.clone(), f32s(&[1], &[v])], &[]).is_ok());
        }
        let i = EvalTensor::from_i64s(DType::Int32, &[1], &[0]).unwrap();
        let out = run(
            "pd_op.full_like",
            &[i.clone(), f32s(&[1], &[f64::NAN])],
            &[],
        )
        .unwrap();
        assert_eq!(out[0].to_i64_vec(), vec![i64::from(i32::MIN)]);
        let e = run("pd_op.full_like", &[i, f32s(&[1], &[3e9])], &[]);
        assert!(matches!(e, Err(EvalError::InvalidValue { .. })));
    }

    #[test]
    fn ranges() {
        let e = run("pd_op.arange", &[f64s(0.0), f64s(1.0), f64s(0.0)], &[]);
        assert!(matches!(e, Err(EvalError::InvalidValue { .. })));
        let out = run("pd_op.arange", &[f64s(3.0), f64s(0.0), f64s(-1.0)], &[]).unwrap();
        assert_eq!(out[0].to_f64_vec(), vec![3.0, 2.0, 1.0]);
        let n = EvalTensor::from_i64s(DType::Int32, &[1], &[0]).unwrap();
        let e = run(
            "pd_op.linspace",
            &[f32s(&[1], &[0.0]), f32s(&[1], &[1.0]), n],
            &[],
        );
        assert!(e.is_err());
    }
}
