//! `full`, `full_int_array`, `reshape`, `transpose`.

use ndarray::IxDyn;

use crate::attrs::Attrs;
use crate::value::{array, with_array, Elem};
use crate::{EvalError, EvalTensor};

fn dims_of(op: &str, dims: &[i64]) -> Result<Vec<usize>, EvalError> {
    dims.iter()
        .map(|&d| {
            usize::try_from(d).map_err(|_| EvalError::shape(op, format!("bad dims {dims:?}")))
        })
        .collect()
}

/// `full(shape, value, dtype)`: `value` is a double converted with
/// `Scalar::to<T>()` (a `static_cast`; half types through float32).
pub(crate) fn full(a: &Attrs<'_>) -> Result<EvalTensor, EvalError> {
    let dims = dims_of(a.name, &a.ints("shape")?)?;
    let value = a.f64("value")?;
    let dtype = a
        .dtype("dtype")?
        .ok_or_else(|| a.bad("dtype", "undefined"))?;
    let n = dims.iter().product::<usize>();
    EvalTensor::from_f64s(dtype, &dims, &vec![value; n])
}

/// `full_int_array(value, dtype)`: a 1-d tensor of the values.
pub(crate) fn full_int_array(a: &Attrs<'_>) -> Result<EvalTensor, EvalError> {
    let values = a.ints("value")?;
    let dtype = a
        .dtype("dtype")?
        .ok_or_else(|| a.bad("dtype", "undefined"))?;
    EvalTensor::from_i64s(dtype, &[values.len()], &values)
}

/// The output dims of a reshape, with Paddle's rules: `0` copies the input
/// dim at the same index, one `-1` is inferred from the element count.
pub(crate) fn reshape_dims(
    op: &str,
    input: &[usize],
    shape: &[i64],
) -> Result<Vec<usize>, EvalError> {
    let numel: usize = input.iter().product();
    let mut out = Vec::with_capacity(shape.len());
    let mut infer = None;
    for (i, &s) in shape.iter().enumerate() {
        match s {
            -1 if infer.is_none() => {
                infer = Some(i);
                out.push(1);
            }
            -1 => return Err(EvalError::shape(op, "only one dimension can be -1")),
            0 => out.push(*input.get(i).ok_or_else(|| {
                EvalError::shape(
                    op,
                    format!("0 at index {i} is beyond the input's rank {}", input.len()),
                )
            })?),
            s if s > 0 => out.push(s as usize),
            s => return Err(EvalError::shape(op, format!("invalid dimension {s}"))),
        }
    }
    let known: usize = out.iter().product();
    if let Some(i) = infer {
        if known == 0 || !numel.is_multiple_of(known) {
            return Err(EvalError::shape(
                op,
                format!("cannot reshape {input:?} to {shape:?}"),
            ));
        }
        out[i] = numel / known;
    } else if known != numel {
        return Err(EvalError::shape(
            op,
            format!("cannot reshape {input:?} to {shape:?}"),
        ));
    }
    Ok(out)
}

/// `reshape(x, shape)`: the shape is an int32/int64 tensor.
pub(crate) fn reshape(
    op: &str,
    x: &EvalTensor,
    shape: &EvalTensor,
) -> Result<EvalTensor, EvalError> {
    if !matches!(shape, EvalTensor::I32(_) | EvalTensor::I64(_)) {
        return Err(EvalError::dtype(op, shape.dtype()));
    }
    let dims = reshape_dims(op, x.shape(), &shape.to_i64_vec())?;
    with_array!(x, a => Ok(Elem::wrap(array(&dims, a.iter().copied().collect())?)))
}

/// `transpose(x, perm)`; negative axes count from the end.
pub(crate) fn transpose(a: &Attrs<'_>, x: &EvalTensor) -> Result<EvalTensor, EvalError> {
    let perm = a.ints("perm")?;
    let rank = x.shape().len();
    if perm.len() != rank {
        return Err(EvalError::shape(
            a.name,
            format!("perm {perm:?} for rank {rank}"),
        ));
    }
    let mut seen = vec![false; rank];
    let mut axes = Vec::with_capacity(rank);
    for &p in &perm {
        let ax = if p < 0 { p + rank as i64 } else { p };
        let ax = usize::try_from(ax)
            .ok()
            .filter(|&ax| ax < rank && !seen[ax])
            .ok_or_else(|| {
                EvalError::shape(a.name, format!("perm {perm:?} is not a permutation"))
            })?;
        seen[ax] = true;
        axes.push(ax);
    }
    with_array!(x, arr => Ok(Elem::wrap(
        arr.view().permuted_axes(IxDyn(&axes)).as_standard_layout().into_owned()
    )))
}
