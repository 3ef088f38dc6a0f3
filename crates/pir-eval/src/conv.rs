//! `conv2d`, `depthwise_conv2d` and `conv2d_transpose` (float32/float64,
//! NCHW or NHWC inputs, OIHW / IOHW filters).
//!
//! `conv2d` is im2col and an f64 GEMM (matrixmultiply through ndarray),
//! rounded once to `T`; Paddle's im2col + GEMM sums in `T` in BLAS's order,
//! so the tests compare with a tolerance. `conv2d_transpose` scatters the
//! products into an f64 buffer.

use ndarray::{Array2, Array4, ArrayD, ArrayView2, Ix4};
use pir_params::DType;

use crate::attrs::{int_values, Ctx};
use crate::value::{with_array, Elem};
use crate::{numel, EvalError, EvalTensor};

/// The ops of this module.
pub(crate) const OPS: &[&str] = &[
    "pd_op.conv2d",
    "pd_op.depthwise_conv2d",
    "pd_op.conv2d_transpose",
];

/// Dispatches the ops of this module.
pub(crate) fn eval(c: &Ctx<'_>) -> Option<Result<Vec<EvalTensor>, EvalError>> {
    let r = match c.name {
        "pd_op.conv2d" | "pd_op.depthwise_conv2d" => conv(c, false),
        "pd_op.conv2d_transpose" => conv(c, true),
        _ => return None,
    };
    Some(r.map(|t| vec![t]))
}

/// Spatial parameters of one conv or pool: per dim (h, w) the padding
/// before/after, stride, dilation.
pub(crate) struct Spatial {
    pub pad: [(usize, usize); 2],
    pub stride: [usize; 2],
    pub dilation: [usize; 2],
}

impl Spatial {
    /// The input index that output `pos` reads at kernel tap `k` along
    /// spatial `axis` (the output index tap `k` of input `pos` writes, for a
    /// transposed convolution), or `None` where it falls in the padding,
    /// i.e. outside `0..limit`.
    fn tap(&self, axis: usize, pos: usize, k: usize, limit: usize) -> Option<usize> {
        let at = (pos * self.stride[axis] + k * self.dilation[axis]) as isize
            - self.pad[axis].0 as isize;
        (0..limit as isize).contains(&at).then_some(at as usize)
    }
}

/// `n` values in `[0, 2^31)` (Paddle's attributes are int32; the bound
/// keeps the index arithmetic from overflowing).
pub(crate) fn positive(
    c: &Ctx<'_>,
    attr: &str,
    v: &[i64],
    n: usize,
) -> Result<Vec<usize>, EvalError> {
    if v.len() != n {
        return Err(c.bad(attr, format!("expected {n} values, got {v:?}")));
    }
    v.iter()
        .map(|&x| {
            u32::try_from(x)
                .ok()
                .filter(|&x| x <= i32::MAX as u32)
                .map(|x| x as usize)
                .ok_or_else(|| c.bad(attr, format!("value out of range in {v:?}")))
        })
        .collect()
}

/// Paddle's `UpdatePaddingAndDilation`: `paddings` is `[h, w]` or
/// `[top, bottom, left, right]`; `SAME` pads to `ceil(in / stride)` outputs
/// (more after than before) and resets dilation to 1; `VALID` pads nothing.
pub(crate) fn spatial(
    c: &Ctx<'_>,
    input: [usize; 2],
    kernel: [usize; 2],
    strides: &[i64],
    dilations: &[i64],
) -> Result<Spatial, EvalError> {
    let stride = positive(c, "strides", strides, 2)?;
    let mut dilation = positive(c, "dilations", dilations, 2)?;
    if stride.contains(&0) || dilation.contains(&0) {
        return Err(c.bad("strides", "strides and dilations must be positive"));
    }
    let algo = c.str_or("padding_algorithm", "EXPLICIT")?;
    let p = c.ints_or("paddings", &[0, 0])?;
    let mut pad = [(0, 0); 2];
    match algo.as_str() {
        "SAME" => {
            for i in 0..2 {
                let out = input[i].div_ceil(stride[i]);
                let need = ((out.max(1) - 1) * stride[i] + kernel[i]).saturating_sub(input[i]);
                pad[i] = (need / 2, need - need / 2);
            }
            dilation = vec![1, 1];
        }
        "VALID" => {}
        "EXPLICIT" => {
            let p = match p.len() {
                2 => vec![p[0], p[0], p[1], p[1]],
                4 => p,
                _ => return Err(c.bad("paddings", format!("{p:?}"))),
            };
            let p = positive(c, "paddings", &p, 4)?;
            pad = [(p[0], p[1]), (p[2], p[3])];
        }
        other => return Err(c.bad("padding_algorithm", other.to_string())),
    }
    Ok(Spatial {
        pad,
        stride: [stride[0], stride[1]],
        dilation: [dilation[0], dilation[1]],
    })
}

/// The input as NCHW (a view permuted from NHWC when `nhwc`).
pub(crate) fn nchw<T: Clone>(
    c: &Ctx<'_>,
    a: &ArrayD<T>,
    nhwc: bool,
) -> Result<Array4<T>, EvalError> {
    let v = a
        .view()
        .into_dimensionality::<Ix4>()
        .map_err(|_| c.shape_err(format!("expected a 4-d input, got {:?}", a.shape())))?;
    let v = if nhwc {
        v.permuted_axes([0, 3, 1, 2])
    } else {
        v
    };
    Ok(v.to_owned())
}

/// An NCHW result back in the op's layout.
pub(crate) fn from_nchw<T: Clone>(out: Array4<T>, nhwc: bool) -> ArrayD<T> {
    let out = if nhwc {
        out.permuted_axes([0, 2, 3, 1])
            .as_standard_layout()
            .into_owned()
    } else {
        out
    };
    out.into_dyn()
}

/// Whether the op's `data_format` is NHWC (NCHW and AnyLayout are NCHW).
pub(crate) fn is_nhwc(c: &Ctx<'_>) -> Result<bool, EvalError> {
    match c.str_or("data_format", "NCHW")?.as_str() {
        "NHWC" => Ok(true),
        "NCHW" | "AnyLayout" => Ok(false),
        other => Err(c.bad("data_format", other.to_string())),
    }
}

fn conv(c: &Ctx<'_>, transpose: bool) -> Result<EvalTensor, EvalError> {
    if transpose {
        c.arity_is(3)?;
    } else {
        c.arity_is(2)?;
    }
    let (x, w) = (c.x(0)?, c.x(1)?);
    if x.dtype() != w.dtype() {
        return Err(EvalError::DTypeMismatch {
            op: c.name.to_string(),
            x: x.dtype(),
            y: w.dtype(),
        });
    }
    if !matches!(x.dtype(), DType::Float32 | DType::Float64) {
        return Err(c.dtype_err(x.dtype()));
    }
    let output_size = if transpose {
        int_values(c, c.x(2)?)?
    } else {
        Vec::new()
    };
    with_array!(x, a => {
        let wa = Elem::view(w).ok_or_else(|| c.dtype_err(w.dtype()))?;
        Ok(Elem::wrap(if transpose {
            conv_transpose_t(c, a, wa, &output_size)?
        } else {
            conv_t(c, a, wa)?
        }))
    })
}

fn filter4<T: Clone>(c: &Ctx<'_>, w: &ArrayD<T>) -> Result<Array4<T>, EvalError> {
    w.view()
        .into_dimensionality::<Ix4>()
        .map(|v| v.to_owned())
        .map_err(|_| c.shape_err(format!("expected a 4-d filter, got {:?}", w.shape())))
}

/// The `groups` attribute, which must be positive and satisfy `fits` (how
/// the input's `ci` channels and the filter's dims split into groups), and
/// the spatial parameters of a convolution over an `input` plane with a
/// `kernel` filter.
fn groups_and_spatial(
    c: &Ctx<'_>,
    ci: usize,
    filter: &[usize],
    input: [usize; 2],
    kernel: [usize; 2],
    fits: impl Fn(usize) -> bool,
) -> Result<(usize, Spatial), EvalError> {
    let groups = usize::try_from(c.i64_or("groups", 1)?).unwrap_or(0);
    if groups == 0 || !fits(groups) {
        return Err(c.shape_err(format!(
            "input channels {ci}, filter {filter:?}, groups {groups}"
        )));
    }
    let sp = spatial(
        c,
        input,
        kernel,
        &c.ints_or("strides", &[1, 1])?,
        &c.ints_or("dilations", &[1, 1])?,
    )?;
    Ok((groups, sp))
}

fn conv_t<T: Elem>(c: &Ctx<'_>, x: &ArrayD<T>, w: &ArrayD<T>) -> Result<ArrayD<T>, EvalError> {
    let nhwc = is_nhwc(c)?;
    let x = nchw(c, x, nhwc)?;
    let w = filter4(c, w)?;
    let (n, ci, h, wd) = x.dim();
    let (co, cig, kh, kw) = w.dim();
    let (groups, sp) = groups_and_spatial(c, ci, w.shape(), [h, wd], [kh, kw], |g| {
        ci == cig * g && co % g == 0
    })?;
    let out_dim = |i: usize, input: usize, k: usize| -> Result<usize, EvalError> {
        if k == 0 {
            return Err(c.shape_err("empty kernel"));
        }
        let span = sp.dilation[i] * (k - 1) + 1;
        let padded = input + sp.pad[i].0 + sp.pad[i].1;
        if padded < span {
            return Err(c.shape_err("the kernel is larger than the padded input"));
        }
        Ok((padded - span) / sp.stride[i] + 1)
    };
    let (oh, ow) = (out_dim(0, h, kh)?, out_dim(1, wd, kw)?);
    numel(c.name, &[n, co, oh, ow])?;
    let cog = co / groups;
    let xv: Vec<f64> = x.iter().map(|v| v.to_f64()).collect();
    let wv: Vec<f64> = w.iter().map(|v| v.to_f64()).collect();
    // im2col: for each image and group, the patches as a
    // [cig * kh * kw, oh * ow] matrix, multiplied by the group's
    // [cog, cig * kh * kw] filter (an f64 GEMM).
    let rows = cig * kh * kw;
    let mut out = vec![T::default(); n * co * oh * ow];
    let mut cols = Array2::<f64>::zeros((rows, oh * ow));
    for b in 0..n {
        for g in 0..groups {
            cols.fill(0.0);
            for cl in 0..cig {
                let ch = g * cig + cl;
                for p in 0..kh {
                    for q in 0..kw {
                        let r = (cl * kh + p) * kw + q;
                        for y in 0..oh {
                            let Some(iy) = sp.tap(0, y, p, h) else {
                                continue;
                            };
                            for z in 0..ow {
                                let Some(ix) = sp.tap(1, z, q, wd) else {
                                    continue;
                                };
                                cols[[r, y * ow + z]] = xv[((b * ci + ch) * h + iy) * wd + ix];
                            }
                        }
                    }
                }
            }
            let wg = ArrayView2::from_shape((cog, rows), &wv[g * cog * rows..(g + 1) * cog * rows])
                .map_err(|e| EvalError::Tensor(e.to_string()))?;
            let prod = wg.dot(&cols);
            let base = (b * co + g * cog) * oh * ow;
            for (o, v) in out[base..base + cog * oh * ow].iter_mut().zip(prod.iter()) {
                *o = T::from_f64(*v);
            }
        }
    }
    let out = Array4::from_shape_vec((n, co, oh, ow), out)
        .map_err(|e| EvalError::Tensor(e.to_string()))?;
    Ok(from_nchw(out, nhwc))
}

/// `conv2d_transpose`: the filter is `[in_c, out_c / groups, kh, kw]`; the
/// output is `(in - 1) * stride - pads + dilation * (k - 1) + 1 +
/// output_padding`, or `output_size` when given (within a stride of that).
fn conv_transpose_t<T: Elem>(
    c: &Ctx<'_>,
    x: &ArrayD<T>,
    w: &ArrayD<T>,
    output_size: &[i64],
) -> Result<ArrayD<T>, EvalError> {
    let nhwc = is_nhwc(c)?;
    let x = nchw(c, x, nhwc)?;
    let w = filter4(c, w)?;
    let (n, ci, h, wd) = x.dim();
    let (wci, cog, kh, kw) = w.dim();
    let (groups, sp) = groups_and_spatial(c, ci, w.shape(), [h, wd], [kh, kw], |g| {
        wci == ci && ci % g == 0
    })?;
    let co = cog * groups;
    let cig = ci / groups;
    let opad = c.ints_or("output_padding", &[])?;
    let mut odims = [0usize; 2];
    for (i, od) in odims.iter_mut().enumerate() {
        let (input, k) = if i == 0 { (h, kh) } else { (wd, kw) };
        let full = (input.max(1) - 1) * sp.stride[i] + sp.dilation[i] * (k.max(1) - 1) + 1;
        let pads = sp.pad[i].0 + sp.pad[i].1;
        let inferred = full
            .checked_sub(pads)
            .ok_or_else(|| c.shape_err("paddings larger than the output"))?;
        *od = if let Some(&s) = output_size.get(i) {
            let s = usize::try_from(s).map_err(|_| c.shape_err("negative output_size"))?;
            if s < inferred || s >= inferred + sp.stride[i] {
                return Err(c.shape_err(format!(
                    "output_size {s} is not within a stride of {inferred}"
                )));
            }
            s
        } else if let Some(&p) = opad.get(i) {
            inferred + usize::try_from(p).map_err(|_| c.bad("output_padding", "negative"))?
        } else {
            inferred
        };
    }
    let (oh, ow) = (odims[0], odims[1]);
    let total = numel(c.name, &[n, co, oh, ow])?;
    let xv: Vec<f64> = x.iter().map(|v| v.to_f64()).collect();
    let wv: Vec<f64> = w.iter().map(|v| v.to_f64()).collect();
    let mut acc = vec![0f64; total];
    for b in 0..n {
        for ch in 0..ci {
            let g = ch / cig;
            for y in 0..h {
                for z in 0..wd {
                    let v = xv[((b * ci + ch) * h + y) * wd + z];
                    for ol in 0..cog {
                        let o = g * cog + ol;
                        for p in 0..kh {
                            let Some(oy) = sp.tap(0, y, p, oh) else {
                                continue;
                            };
                            for q in 0..kw {
                                let Some(ox) = sp.tap(1, z, q, ow) else {
                                    continue;
                                };
                                acc[((b * co + o) * oh + oy) * ow + ox] +=
                                    v * wv[((ch * cog + ol) * kh + p) * kw + q];
                            }
                        }
                    }
                }
            }
        }
    }
    let out = Array4::from_shape_vec((n, co, oh, ow), acc.into_iter().map(T::from_f64).collect())
        .map_err(|e| EvalError::Tensor(e.to_string()))?;
    Ok(from_nchw(out, nhwc))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::tests::{f32s, i64s, run, A};
    use crate::EvalError;

    #[test]
    fn bad_geometry_is_an_error() {
        let x = f32s(&[1, 1, 2, 2], &[1.0; 4]);
        let w = f32s(&[1, 1, 3, 3], &[1.0; 9]);
        let e = run("pd_op.conv2d", &[x.clone(), w.clone()], &[]);
        assert!(matches!(e, Err(EvalError::Shape { .. })));
        let e = run(
            "pd_op.conv2d",
            &[x.clone(), w.clone()],
            &[("strides", A::I32s(vec![0, 1]))],
        );
        assert!(matches!(e, Err(EvalError::Attribute { .. })));
        // Padding 1 all round fits the kernel: one output of the 4 inputs.
        let out = run(
            "pd_op.conv2d",
            &[x.clone(), w],
            &[("paddings", A::I32s(vec![1, 1]))],
        )
        .unwrap();
        assert_eq!(out[0].to_f64_vec(), vec![4.0; 4]);
        let e = run(
            "pd_op.pool2d",
            &[x.clone(), i64s(&[2], &[2, 2])],
            &[("data_format", A::Str("NCDHW"))],
        );
        assert!(matches!(e, Err(EvalError::Attribute { .. })));
        let e = run("pd_op.pool2d", &[x, i64s(&[2], &[0, 2])], &[]);
        assert!(matches!(e, Err(EvalError::Shape { .. })));
    }
}
