//! `pool2d`: max and average pooling (float32/float64/float16), with
//! explicit/SAME/VALID padding, `ceil_mode`, `exclusive`, adaptive and
//! global pooling, NCHW or NHWC.

use ndarray::{Array4, ArrayD};
use pir_params::DType;

use crate::attrs::{int_values, Ctx};
use crate::conv::{from_nchw, is_nhwc, nchw, spatial};
use crate::value::{with_array, Elem};
use crate::{numel, EvalError, EvalTensor};

/// The ops of this module.
pub(crate) const OPS: &[&str] = &["pd_op.pool2d"];

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    (c.name == "pd_op.pool2d").then(|| pool(c).map(|t| vec![t]))
}

fn pool(c: &Ctx<'_>) -> Result<EvalTensor, EvalError> {
    c.arity_is(2)?;
    let x = c.x(0)?;
    if !matches!(x.dtype(), DType::Float32 | DType::Float64 | DType::Float16) {
        return Err(c.dtype_err(x.dtype()));
    }
    let ksize = int_values(c, c.x(1)?)?;
    with_array!(x, a => Ok(Elem::wrap(pool_t(c, a, &ksize)?)))
}

/// Paddle's CPU `Pool2dFunctor`: a window starts at `o * stride - pad` and
/// ends at `min(start + k, in + pad_after)`; both are then clamped to the
/// input. Max starts from -FLT_MAX and takes `max > v ? max : v`; average sums in
/// order in float32 (float64 for float64) and divides by the clamped window size (`exclusive` or adaptive)
/// or by the padded one. Adaptive windows are `[floor(i * in / out),
/// ceil((i + 1) * in / out))`.
fn pool_t<T: Elem>(c: &Ctx<'_>, x: &ArrayD<T>, ksize: &[i64]) -> Result<ArrayD<T>, EvalError> {
    let nhwc = is_nhwc(c)?;
    let x = nchw(c, x, nhwc)?;
    let (n, ch, h, w) = x.dim();
    let max = match c.str_or("pooling_type", "max")?.as_str() {
        "max" => true,
        "avg" => false,
        other => return Err(c.bad("pooling_type", other.to_string())),
    };
    let global = c.bool_or("global_pooling", false)?;
    let adaptive = c.bool_or("adaptive", false)?;
    let exclusive = c.bool_or("exclusive", true)?;
    let ceil = c.bool_or("ceil_mode", false)?;
    let k: Vec<usize> = if global {
        vec![h, w]
    } else {
        if ksize.len() != 2 {
            return Err(c.shape_err(format!("kernel_size {ksize:?}")));
        }
        let k = crate::conv::positive(c, "kernel_size", ksize, 2)?;
        if k.contains(&0) {
            return Err(c.shape_err(format!("kernel_size {ksize:?}")));
        }
        k
    };
    let strides = c.ints_or("strides", &[1, 1])?;
    let mut sp = spatial(c, [h, w], [k[0], k[1]], &strides, &[1, 1])?;
    if global || adaptive {
        sp.pad = [(0, 0); 2];
    }
    let input = [h, w];
    let mut out_dims = [0usize; 2];
    for i in 0..2 {
        out_dims[i] = if global {
            1
        } else if adaptive {
            k[i]
        } else {
            let padded = input[i] + sp.pad[i].0 + sp.pad[i].1;
            if padded < k[i] {
                return Err(c.shape_err("the kernel is larger than the padded input"));
            }
            let span = padded - k[i];
            if ceil {
                span.div_ceil(sp.stride[i]) + 1
            } else {
                span / sp.stride[i] + 1
            }
        };
    }
    let (oh, ow) = (out_dims[0], out_dims[1]);
    numel(c.name, &[n, ch, oh, ow])?;
    // The window [start, end) and the padded size along dim `i`.
    // Paddle 3.3.1's CPU max pooling ignores `adaptive` when placing its
    // windows (the output still has `kernel_size` dims): plain windows of
    // the kernel size at `o * stride`.
    let adaptive_windows = adaptive && !max;
    let window = |i: usize, o: usize| -> (usize, usize, usize) {
        if adaptive_windows {
            let s = o * input[i] / k[i];
            let e = ((o + 1) * input[i]).div_ceil(k[i]);
            (s, e, e - s)
        } else if global {
            (0, input[i], input[i])
        } else {
            let s = (o * sp.stride[i]) as isize - sp.pad[i].0 as isize;
            let e = (s + k[i] as isize).min((input[i] + sp.pad[i].1) as isize);
            let padded = (e - s).max(0) as usize;
            let (s, e) = (s.max(0) as usize, e.clamp(0, input[i] as isize) as usize);
            (s, e.max(s), padded)
        }
    };
    // Sums run in float32 (float16's compute type) or float64.
    let r: fn(f64) -> f64 = if T::DTYPE == DType::Float64 {
        |v| v
    } else {
        |v| f64::from(v as f32)
    };
    let mut out = Vec::with_capacity(n * ch * oh * ow);
    for b in 0..n {
        for q in 0..ch {
            for y in 0..oh {
                let (hs, he, hp) = window(0, y);
                for z in 0..ow {
                    let (ws, we, wp) = window(1, z);
                    let v = if max {
                        let mut m = T::from_f64(-f64::from(f32::MAX));
                        for i in hs..he {
                            for j in ws..we {
                                // MaxPool::compute: `y = y > x ? y : x`.
                                let e = x[[b, q, i, j]];
                                m = if m > e { m } else { e };
                            }
                        }
                        m
                    } else {
                        let mut s = 0f64;
                        for i in hs..he {
                            for j in ws..we {
                                s = r(s + x[[b, q, i, j]].to_f64());
                            }
                        }
                        let size = if exclusive || adaptive {
                            (he - hs) * (we - ws)
                        } else {
                            hp * wp
                        };
                        T::from_f64(r(s / size as f64))
                    };
                    out.push(v);
                }
            }
        }
    }
    let out = Array4::from_shape_vec((n, ch, oh, ow), out)
        .map_err(|e| EvalError::Tensor(e.to_string()))?;
    Ok(from_nchw(out, nhwc))
}
