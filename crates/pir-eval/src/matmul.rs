//! `matmul` with `transpose_x`/`transpose_y`, batch broadcasting and the
//! 1-d rules of Paddle's `MatmulInferMeta`.

use ndarray::{Array2, ArrayD, IxDyn};

use crate::attrs::Ctx;
use crate::binary::broadcast_shape;
use crate::value::{array, Elem};
use crate::{numel, EvalError, EvalTensor};

/// The ops of this module.
pub(crate) const OPS: &[&str] = &["pd_op.matmul"];

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    (c.name == "pd_op.matmul").then(|| matmul(c).map(|t| vec![t]))
}

/// A 1-d `x` becomes `[1, k]` and a 1-d `y` `[k, 1]` (those dims are dropped
/// from the result); the transposes apply after that; batch dims broadcast.
///
/// Float products accumulate in f64 (a blocked GEMM from `matrixmultiply`,
/// through ndarray's `dot`) and round once to `T`; Paddle's CPU kernel calls
/// BLAS in `T`, whose summation order differs, so the tests compare float
/// results with a tolerance. Integers accumulate in `i64`,
/// wrapping like Paddle's naive integer loop.
fn matmul_t<T: Elem>(
    op: &str,
    x: &ArrayD<T>,
    y: &ArrayD<T>,
    tx: bool,
    ty: bool,
) -> Result<ArrayD<T>, EvalError> {
    let (mut xs, mut ys) = (x.shape().to_vec(), y.shape().to_vec());
    if xs.is_empty() || ys.is_empty() {
        return Err(EvalError::shape(op, "matmul operands must have rank >= 1"));
    }
    let x1 = xs.len() == 1;
    let y1 = ys.len() == 1;
    if x1 {
        xs.insert(0, 1);
    }
    if y1 {
        ys.push(1);
    }
    let (xr, yr) = (xs.len(), ys.len());
    let (m, k) = if tx {
        (xs[xr - 1], xs[xr - 2])
    } else {
        (xs[xr - 2], xs[xr - 1])
    };
    let (k2, n) = if ty {
        (ys[yr - 1], ys[yr - 2])
    } else {
        (ys[yr - 2], ys[yr - 1])
    };
    if k != k2 {
        return Err(EvalError::shape(
            op,
            format!(
                "contraction dims differ: {:?} and {:?}",
                x.shape(),
                y.shape()
            ),
        ));
    }
    let batch = broadcast_shape(op, &xs[..xr - 2], &ys[..yr - 2])?;
    let mut xfull = batch.clone();
    xfull.extend_from_slice(&xs[xr - 2..]);
    let mut yfull = batch.clone();
    yfull.extend_from_slice(&ys[yr - 2..]);
    let err = || EvalError::shape(op, "batch broadcast failed");
    let xv = x.to_shape(IxDyn(&xs)).map_err(|_| err())?;
    let yv = y.to_shape(IxDyn(&ys)).map_err(|_| err())?;
    let xb = xv.broadcast(IxDyn(&xfull)).ok_or_else(err)?;
    let yb = yv.broadcast(IxDyn(&yfull)).ok_or_else(err)?;
    let xb = xb.as_standard_layout();
    let yb = yb.as_standard_layout();
    let (xd, yd) = (
        xb.as_slice().ok_or_else(err)?,
        yb.as_slice().ok_or_else(err)?,
    );
    let mut odims = batch.clone();
    odims.extend([m, n]);
    numel(op, &odims)?;
    let nb: usize = batch.iter().product();
    let (xsz, ysz) = (m * k, k * n);
    let mut out = Vec::with_capacity(nb * m * n);
    for b in 0..nb {
        let xm = &xd[b * xsz..(b + 1) * xsz];
        let ym = &yd[b * ysz..(b + 1) * ysz];
        if T::FLOAT {
            // f64 GEMM (matrixmultiply, through ndarray), rounded once.
            let xf = Array2::from_shape_vec(
                if tx { (k, m) } else { (m, k) },
                xm.iter().map(|v| v.to_f64()).collect(),
            )
            .map_err(|_| err())?;
            let yf = Array2::from_shape_vec(
                if ty { (n, k) } else { (k, n) },
                ym.iter().map(|v| v.to_f64()).collect(),
            )
            .map_err(|_| err())?;
            let xv = if tx { xf.t() } else { xf.view() };
            let yv = if ty { yf.t() } else { yf.view() };
            out.extend(xv.dot(&yv).iter().map(|&v| T::from_f64(v)));
            continue;
        }
        for i in 0..m {
            for j in 0..n {
                let xi = |p: usize| if tx { xm[p * m + i] } else { xm[i * k + p] };
                let yj = |p: usize| if ty { ym[j * k + p] } else { ym[p * n + j] };
                out.push(T::from_i64((0..k).fold(0i64, |acc, p| {
                    acc.wrapping_add(xi(p).to_i64().wrapping_mul(yj(p).to_i64()))
                })));
            }
        }
    }
    let mut dims = batch;
    if !x1 {
        dims.push(m);
    }
    if !y1 {
        dims.push(n);
    }
    array(&dims, out)
}

/// `matmul(x, y, transpose_x, transpose_y)` for float32/float64/int32/int64
/// (Paddle 3.3.1 has no CPU float16/bfloat16/bool matmul).
fn matmul(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let (x, y) = (c.x(0)?, c.x(1)?);
    let tx = c.bool_or("transpose_x", false)?;
    let ty = c.bool_or("transpose_y", false)?;
    let op = c.name;
    Ok(match (x, y) {
        (EvalTensor::F32(p), EvalTensor::F32(q)) => EvalTensor::F32(matmul_t(op, p, q, tx, ty)?),
        (EvalTensor::F64(p), EvalTensor::F64(q)) => EvalTensor::F64(matmul_t(op, p, q, tx, ty)?),
        (EvalTensor::I32(p), EvalTensor::I32(q)) => EvalTensor::I32(matmul_t(op, p, q, tx, ty)?),
        (EvalTensor::I64(p), EvalTensor::I64(q)) => EvalTensor::I64(matmul_t(op, p, q, tx, ty)?),
        _ if x.dtype() != y.dtype() => {
            return Err(EvalError::DTypeMismatch {
                op: op.to_string(),
                x: x.dtype(),
                y: y.dtype(),
            })
        }
        _ => return Err(EvalError::dtype(op, x.dtype())),
    })
}
