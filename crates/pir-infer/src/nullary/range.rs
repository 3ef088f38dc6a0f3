//! `RangeInferMeta` (op `pd_op.range_v2`, `paddle.range`) and
//! `RandomInferMeta` (op `pd_op.random`) of Paddle's `nullary.cc`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// A double cast to an integer type as x86 casts it: a value out of range
/// (or NaN) becomes the type's minimum.
fn to_int(v: f64, min: i64, max: i64) -> i64 {
    if v.is_nan() || v < min as f64 || v >= max as f64 + 1.0 {
        min
    } else {
        v as i64
    }
}

/// `floor(a / b)` of integers (`b != 0`).
fn floor_div(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if a.wrapping_rem(b) != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// The number of values of `range(start, end, step)` with `end` included:
/// `floor((end - start) / step) + 1`, none when the step walks away from
/// `end`, computed in the data type's own arithmetic (bounds cast to it
/// first: `range(0, 0.9, 0.3)` has 3 values in float32, 4 in float64).
fn range_len(start: f64, end: f64, step: f64, dtype: DataType) -> Result<i64, Bad> {
    let n = match dtype {
        DataType::Float64 => ((end - start) / step).floor() as i64,
        DataType::Float32 | DataType::Float16 | DataType::BFloat16 => {
            let (s, e, t) = (start as f32, end as f32, step as f32);
            ((e - s) / t).floor() as i64
        }
        DataType::Int32 | DataType::Int64 => {
            let (min, max) = if dtype == DataType::Int32 {
                (i64::from(i32::MIN), i64::from(i32::MAX))
            } else {
                (i64::MIN, i64::MAX)
            };
            let (s, e, t) = (
                to_int(start, min, max),
                to_int(end, min, max),
                to_int(step, min, max),
            );
            if t == 0 {
                return Err(Bad("The step of range op should not be 0.".into()));
            }
            floor_div(e.wrapping_sub(s), t)
        }
        d => {
            return Err(Bad(format!(
                "Check data type error for op: range, dtype: {}, and expected_dtype: float32, float64, int32, int64",
                d.text()
            )))
        }
    };
    Ok(n.saturating_add(1).max(0))
}

/// `RangeInferMeta` (start, end, step, dtype): `[n]` with `n` from
/// [`range_len`]; `[-1]` when any bound comes from a tensor.
pub(crate) fn range(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let start = a.scalar(0)?;
    let end = a.scalar(1)?;
    let step = a.scalar(2)?;
    let dtype = a.dtype(3)?;
    let n = if start.from_tensor || end.from_tensor || step.from_tensor {
        -1
    } else {
        if step.value == 0.0 {
            return Err(Bad("The step of range op should not be 0.".into()));
        }
        range_len(start.value, end.value, step.value, dtype)?
    };
    set(outs, 0, Meta::new(dtype, DDim::new(&[n])?));
    Ok(())
}

/// `RandomInferMeta` (x): random values in place of x's, so x's dims and
/// data type.
pub(crate) fn random(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::new(x.dtype, x.dims));
    Ok(())
}
