//! `batch_norm` / `batch_norm_` in inference mode, `layer_norm`,
//! `instance_norm` (float32/float64).
//!
//! Statistics and normalisation are computed in f64 and rounded once;
//! Paddle's Eigen kernels compute in `T`, so the tests use a tolerance.

use pir_params::DType;

use crate::attrs::Ctx;
use crate::value::{array, Elem};
use crate::{EvalError, EvalTensor};

/// The ops of this module.
pub(crate) const OPS: &[&str] = &[
    "pd_op.batch_norm",
    "pd_op.batch_norm_",
    "pd_op.layer_norm",
    "pd_op.instance_norm",
];

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    Some(match c.name {
        "pd_op.batch_norm" | "pd_op.batch_norm_" => batch_norm(c),
        "pd_op.layer_norm" => layer_norm(c),
        "pd_op.instance_norm" => instance_norm(c),
        _ => return None,
    })
}

fn float_input<'c>(c: &'c Ctx<'_>) -> Result<&'c EvalTensor, EvalError> {
    let x = c.x(0)?;
    if !matches!(x.dtype(), DType::Float32 | DType::Float64) {
        return Err(c.dtype_err(x.dtype()));
    }
    Ok(x)
}

/// A per-channel parameter of `n` values (`default` when the operand is
/// absent).
fn param(c: &Ctx<'_>, i: usize, n: usize, default: f64) -> Result<Vec<f64>, EvalError> {
    match c.opt(i)? {
        None => Ok(vec![default; n]),
        Some(t) if t.numel() == n && t.dtype().is_float() => Ok(t.to_f64_vec()),
        Some(t) => Err(c.shape_err(format!(
            "operand {i} has {} {} elements, expected {n}",
            t.numel(),
            t.dtype()
        ))),
    }
}

fn like<T: Elem>(dims: &[usize], v: Vec<f64>) -> Result<EvalTensor, EvalError> {
    Ok(T::wrap(array(
        dims,
        v.into_iter().map(T::from_f64).collect(),
    )?))
}

/// `batch_norm(x, mean, variance, scale?, bias?)` with `is_test` or
/// `use_global_stats` (training-mode statistics are refused):
/// `y = (x - mean) / sqrt(variance + epsilon) * scale + bias` per channel
/// (axis 1, or the last axis for NHWC). The other results are what Paddle's
/// inference kernel gives: `mean_out`/`variance_out` are the running
/// statistics unchanged, `saved_mean`/`saved_variance` zeros of `[C]`, and
/// `reserve_space` an empty tensor.
fn batch_norm(c: &Ctx<'_>) -> Result<Vec<EvalTensor>, EvalError> {
    c.arity_is(5)?;
    let x = float_input(c)?;
    if !c.bool_or("is_test", false)? && !c.bool_or("use_global_stats", false)? {
        return Err(EvalError::UnsupportedOp(format!(
            "{} in training mode",
            c.name
        )));
    }
    let eps = f64::from(c.f32_or("epsilon", 1e-5)?);
    let nhwc = match c.str_or("data_format", "NCHW")?.as_str() {
        "NHWC" => true,
        "NCHW" | "AnyLayout" => false,
        other => return Err(c.bad("data_format", other.to_string())),
    };
    let s = x.shape();
    if s.len() < 2 {
        return Err(c.shape_err("batch_norm needs rank >= 2"));
    }
    let caxis = if nhwc { s.len() - 1 } else { 1 };
    let ch = s[caxis];
    let (mean_t, var_t) = (c.x(1)?, c.x(2)?);
    let mean = param(c, 1, ch, 0.0)?;
    let var = param(c, 2, ch, 1.0)?;
    let scale = param(c, 3, ch, 1.0)?;
    let bias = param(c, 4, ch, 0.0)?;
    let inner: usize = s[caxis + 1..].iter().product();
    let xv = x.to_f64_vec();
    let y: Vec<f64> = xv
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let k = (i / inner) % ch;
            (v - mean[k]) / (var[k] + eps).sqrt() * scale[k] + bias[k]
        })
        .collect();
    let dims = s.to_vec();
    let pdt = mean_t.dtype();
    let out = like_of(x, &dims, y)?;
    Ok(vec![
        out,
        mean_t.clone(),
        var_t.clone(),
        EvalTensor::from_f64s(pdt, &[ch], &vec![0.0; ch])?,
        EvalTensor::from_f64s(pdt, &[ch], &vec![0.0; ch])?,
        EvalTensor::from_f64s(pdt, &[0], &[])?,
    ])
}

/// A tensor of `x`'s dtype from f64 values.
fn like_of(x: &EvalTensor, dims: &[usize], v: Vec<f64>) -> Result<EvalTensor, EvalError> {
    match x {
        EvalTensor::F64(_) => like::<f64>(dims, v),
        _ => like::<f32>(dims, v),
    }
}

/// Mean and biased variance of each run of `n` values.
fn moments(v: &[f64], n: usize) -> Vec<(f64, f64)> {
    if n == 0 {
        return Vec::new();
    }
    v.chunks(n)
        .map(|g| {
            let m = g.iter().sum::<f64>() / n as f64;
            let var = g.iter().map(|e| (e - m) * (e - m)).sum::<f64>() / n as f64;
            (m, var)
        })
        .collect()
}

/// `layer_norm(x, scale?, bias?, epsilon, begin_norm_axis)`: normalises
/// over the dims from `begin_norm_axis` on; results `out`, `mean` and
/// `variance` (the dims before `begin_norm_axis`; biased variance).
fn layer_norm(c: &Ctx<'_>) -> Result<Vec<EvalTensor>, EvalError> {
    c.arity_is(3)?;
    let x = float_input(c)?;
    let eps = f64::from(c.f32_or("epsilon", 1e-5)?);
    let s = x.shape();
    let axis = c.i64_or("begin_norm_axis", 1)?;
    let axis = usize::try_from(axis)
        .ok()
        .filter(|&a| a >= 1 && a < s.len().max(1))
        .ok_or_else(|| c.bad("begin_norm_axis", format!("{axis} for rank {}", s.len())))?;
    let right: usize = s[axis..].iter().product();
    let scale = param(c, 1, right, 1.0)?;
    let bias = param(c, 2, right, 0.0)?;
    let xv = x.to_f64_vec();
    let m = moments(&xv, right);
    let y: Vec<f64> = xv
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let (mu, var) = m[i / right];
            let k = i % right;
            (v - mu) / (var + eps).sqrt() * scale[k] + bias[k]
        })
        .collect();
    Ok(vec![
        like_of(x, s, y)?,
        like_of(x, &s[..axis], m.iter().map(|p| p.0).collect())?,
        like_of(x, &s[..axis], m.iter().map(|p| p.1).collect())?,
    ])
}

/// `instance_norm(x, scale?, bias?, epsilon)`: normalises each `(n, c)`
/// over the remaining dims; results `y`, `saved_mean` and `saved_variance`
/// (`[N * C]`; the saved variance is `1 / sqrt(var + epsilon)`, as Paddle
/// keeps it).
fn instance_norm(c: &Ctx<'_>) -> Result<Vec<EvalTensor>, EvalError> {
    c.arity_is(3)?;
    let x = float_input(c)?;
    let eps = f64::from(c.f32_or("epsilon", 1e-5)?);
    let s = x.shape();
    if s.len() < 2 {
        return Err(c.shape_err("instance_norm needs rank >= 2"));
    }
    let ch = s[1];
    let inner: usize = s[2..].iter().product();
    let scale = param(c, 1, ch, 1.0)?;
    let bias = param(c, 2, ch, 0.0)?;
    let xv = x.to_f64_vec();
    let m = moments(&xv, inner);
    let y: Vec<f64> = xv
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let g = i / inner.max(1);
            let (mu, var) = m[g];
            (v - mu) / (var + eps).sqrt() * scale[g % ch] + bias[g % ch]
        })
        .collect();
    let nc = s[0] * ch;
    Ok(vec![
        like_of(x, s, y)?,
        like_of(x, &[nc], m.iter().map(|p| p.0).collect())?,
        like_of(
            x,
            &[nc],
            m.iter().map(|p| 1.0 / (p.1 + eps).sqrt()).collect(),
        )?,
    ])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::tests::{f32s, run, A};
    use crate::EvalError;

    #[test]
    fn batch_norm_only_in_inference() {
        let x = f32s(&[1, 2], &[1.0, 2.0]);
        let m = f32s(&[2], &[0.0, 1.0]);
        let v = f32s(&[2], &[1.0, 4.0]);
        let ins = [
            x,
            m.clone(),
            v.clone(),
            f32s(&[2], &[1.0; 2]),
            f32s(&[2], &[0.0; 2]),
        ];
        let e = run("pd_op.batch_norm", &ins, &[]);
        assert!(matches!(e, Err(EvalError::UnsupportedOp(_))));
        let out = run(
            "pd_op.batch_norm",
            &ins,
            &[("is_test", A::Bool(true)), ("epsilon", A::F32(0.0))],
        )
        .unwrap();
        assert_eq!(out.len(), 6);
        assert_eq!(out[0].to_f64_vec(), vec![1.0, 0.5]);
        assert_eq!((&out[1], &out[2]), (&m, &v));
    }

    #[test]
    fn layer_norm_axis_must_leave_a_batch() {
        let x = f32s(&[2, 2], &[1.0, 3.0, 5.0, 7.0]);
        let e = run(
            "pd_op.layer_norm",
            &[x.clone(), f32s(&[2], &[1.0; 2]), f32s(&[2], &[0.0; 2])],
            &[("begin_norm_axis", A::I32(0))],
        );
        assert!(matches!(e, Err(EvalError::Attribute { .. })));
        let out = run(
            "pd_op.layer_norm",
            &[x, f32s(&[2], &[1.0; 2]), f32s(&[2], &[0.0; 2])],
            &[("epsilon", A::F32(0.0))],
        )
        .unwrap();
        assert_eq!(out[0].to_f64_vec(), vec![-1.0, 1.0, -1.0, 1.0]);
        assert_eq!(out[1].to_f64_vec(), vec![2.0, 6.0]);
        assert_eq!(out[2].to_f64_vec(), vec![1.0, 1.0]);
    }
}
