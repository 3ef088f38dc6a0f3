//! The pooling InferMeta functions of `unary.cc`: `Pool2DInferMeta`,
//! `PoolInferMeta`, `MaxPoolWithIndexInferMeta`, with `funcs::UpdatePadding`
//! and `funcs::PoolOutputSize`.

use crate::args::Args;
use crate::meta::{with_lod, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// `funcs::PoolOutputSize`.
fn pool_output_size(
    input: i64,
    filter: i64,
    pad0: i64,
    pad1: i64,
    stride: i64,
    ceil_mode: bool,
) -> Result<i64, Bad> {
    if stride == 0 {
        return Err(Bad("pool stride is 0".into()));
    }
    let n = input - filter + pad0 + pad1;
    Ok(if ceil_mode {
        (n + stride - 1) / stride + 1
    } else {
        n / stride + 1
    })
}

/// `funcs::UpdatePadding` of pooling: pairs, `SAME`/`VALID`, and no padding
/// for global or adaptive pooling.
fn update_padding(
    paddings: &mut Vec<i64>,
    global: bool,
    adaptive: bool,
    algorithm: &str,
    data: &[i64],
    strides: &[i64],
    ksize: &[i64],
) -> Result<(), Bad> {
    if paddings.len() == data.len() {
        *paddings = paddings.iter().flat_map(|&v| [v, v]).collect();
    } else if paddings.len() != 2 * data.len() {
        return Err(Bad(format!(
            "{} paddings for {} spatial dims",
            paddings.len(),
            data.len()
        )));
    }
    if algorithm == "SAME" {
        for (i, &d) in data.iter().enumerate() {
            let s = *strides
                .get(i)
                .ok_or_else(|| Bad("too few strides".into()))?;
            let k = *ksize
                .get(i)
                .ok_or_else(|| Bad("too few kernel sizes".into()))?;
            if s == 0 {
                return Err(Bad("pool stride is 0".into()));
            }
            let out = (d + s - 1) / s;
            let pad = ((out - 1) * s + k - d).max(0);
            paddings[2 * i] = pad / 2;
            paddings[2 * i + 1] = pad - pad / 2;
        }
    } else if algorithm == "VALID" {
        paddings.iter_mut().for_each(|p| *p = 0);
    }
    if global || adaptive {
        paddings.iter_mut().for_each(|p| *p = 0);
    }
    Ok(())
}

/// The common arguments of the pooling functions.
struct Pool<'s> {
    strides: Vec<i64>,
    paddings: Vec<i64>,
    ceil_mode: bool,
    data_format: &'s str,
    global: bool,
    adaptive: bool,
    algorithm: &'s str,
}

/// `PoolInferMeta` (built with `is_runtime = false`).
fn pool_dims(x: &Meta, kernel: &[i64], p: &Pool<'_>) -> Result<Meta, Bad> {
    let xd = x.dims.as_slice();
    let r = xd.len();
    if r != 4 && r != 5 {
        return Err(Bad(format!("pool input must be 4-D or 5-D, got rank {r}")));
    }
    if r - 2 != kernel.len() {
        return Err(Bad(format!(
            "{} kernel sizes for a rank-{r} input",
            kernel.len()
        )));
    }
    if kernel.len() != p.strides.len() {
        return Err(Bad(format!(
            "{} kernel sizes and {} strides",
            kernel.len(),
            p.strides.len()
        )));
    }
    let channel_last = p.data_format == "NHWC" || p.data_format == "NDHWC";
    let data = if channel_last {
        &xd[1..r - 1]
    } else {
        &xd[2..]
    };
    let mut pads = p.paddings.clone();
    update_padding(
        &mut pads,
        p.global,
        p.adaptive,
        p.algorithm,
        data,
        &p.strides,
        kernel,
    )?;
    let kernel: Vec<i64> = if p.global {
        data.to_vec()
    } else {
        kernel.to_vec()
    };
    let mut out = vec![xd[0]];
    if !channel_last {
        out.push(xd[1]);
    }
    if p.adaptive {
        out.extend_from_slice(&kernel);
    } else {
        for (i, &d) in data.iter().enumerate() {
            out.push(if d < 0 {
                d
            } else {
                pool_output_size(
                    d,
                    kernel[i],
                    pads[2 * i],
                    pads[2 * i + 1],
                    p.strides[i],
                    p.ceil_mode,
                )?
            });
        }
    }
    if channel_last {
        out.push(xd[r - 1]);
    }
    Ok(with_lod(x, x.dtype, dd(&out)?))
}

fn pool_args<'a>(a: &Args<'a>) -> Result<Pool<'a>, Bad> {
    Ok(Pool {
        strides: a.ints(2)?,
        paddings: a.ints(3)?,
        ceil_mode: a.bool(4)?,
        data_format: a.str(6)?,
        global: a.bool(8)?,
        adaptive: a.bool(9)?,
        algorithm: a.str(10)?,
    })
}

/// `Pool2DInferMeta` (x, kernel_size, strides, paddings, ceil_mode,
/// exclusive, data_format, pooling_type, global_pooling, adaptive,
/// padding_algorithm), built with `is_runtime = false`: a kernel size from
/// a tensor leaves the spatial dims unknown.
pub(crate) fn pool2d(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let kernel = a.int_array(1)?;
    let p = pool_args(a)?;
    if kernel.from_tensor {
        let mut d: Vec<i64> = x.dims.as_slice().to_vec();
        let r = d.len();
        if r < 3 {
            return Err(Bad(format!("pool2d input of rank {r}")));
        }
        d[r - 2] = -1;
        let channel_last = p.data_format == "NHWC" || p.data_format == "NDHWC";
        d[if channel_last { r - 3 } else { r - 1 }] = -1;
        let m = with_lod(&x, x.dtype, dd(&d)?);
        set(outs, 0, m);
        return Ok(());
    }
    set(outs, 0, pool_dims(&x, &kernel.values, &p)?);
    Ok(())
}

/// `PoolInferMeta` (`pool3d`): the kernel size is an attribute.
pub(crate) fn pool(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let kernel = a.ints(1)?;
    set(outs, 0, pool_dims(&x, &kernel, &pool_args(a)?)?);
    Ok(())
}

/// `MaxPoolWithIndexInferMeta` (x, kernel_size, strides, paddings,
/// global_pooling, adaptive, ceil_mode), built with `is_runtime = false`:
/// `out` and an int32 `mask` of the same dims.
pub(crate) fn max_pool_with_index(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let mut kernel = a.ints(1)?;
    let strides = a.ints(2)?;
    let mut pads = a.ints(3)?;
    let (global, adaptive, ceil_mode) = (a.bool(4)?, a.bool(5)?, a.bool(6)?);
    let xd = x.dims.as_slice();
    if xd.len() < 2 || xd.len() - 2 != kernel.len() {
        return Err(Bad(format!(
            "{} kernel sizes for a rank-{} input",
            kernel.len(),
            xd.len()
        )));
    }
    if global {
        for (i, k) in kernel.iter_mut().enumerate() {
            if let Some(p) = pads.get_mut(i) {
                *p = 0;
            }
            *k = xd[i + 2];
        }
    }
    let mut out = vec![xd[0], xd[1]];
    if adaptive {
        out.extend_from_slice(&kernel);
    } else {
        for (i, &k) in kernel.iter().enumerate() {
            let d = xd[i + 2];
            out.push(if d < 0 {
                d
            } else {
                let p = *pads.get(i).ok_or_else(|| Bad("too few paddings".into()))?;
                let s = *strides
                    .get(i)
                    .ok_or_else(|| Bad("too few strides".into()))?;
                pool_output_size(d, k, p, p, s, ceil_mode)?
            });
        }
    }
    let dims = dd(&out)?;
    set(outs, 0, Meta::new(x.dtype, dims));
    set(
        outs,
        1,
        Meta::new(pir_dialects::pd_op::DataType::Int32, dims),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testing::{infer_last, types};

    const X: &str = r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,6,28,28],stop_gradient:[false]} : () -> tensor<-1x6x28x28xf32>"#;

    fn pool2d(kernel: &str, attrs: &str) -> String {
        format!(
            "{{\n{X}\n(%1) = \"pd_op.full_int_array\" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:{kernel}}} : () -> tensor<2xi64>\n\
             (%2) = \"pd_op.pool2d\" (%0, %1) {{{attrs},stop_gradient:[false]}} : (tensor<-1x6x28x28xf32>, tensor<2xi64>) -> tensor<-1x6x14x14xf32>\n}}\n"
        )
    }

    #[test]
    fn pool2d_explicit_same_global_adaptive() {
        let base = "data_format:\"NCHW\",exclusive:true,pooling_type:\"max\",strides:[2,2],paddings:[0,0],ceil_mode:false";
        let t = pool2d(
            "[2,2]",
            &format!("{base},global_pooling:false,adaptive:false,padding_algorithm:\"EXPLICIT\""),
        );
        assert_eq!(types(&t), ["tensor<-1x6x14x14xf32>"]);
        let t = pool2d(
            "[3,3]",
            &format!("{base},global_pooling:false,adaptive:false,padding_algorithm:\"SAME\""),
        );
        assert_eq!(types(&t), ["tensor<-1x6x14x14xf32>"]);
        let t = pool2d(
            "[3,3]",
            &format!("{base},global_pooling:true,adaptive:false,padding_algorithm:\"EXPLICIT\""),
        );
        assert_eq!(types(&t), ["tensor<-1x6x1x1xf32>"]);
        let t = pool2d(
            "[7,5]",
            &format!("{base},global_pooling:false,adaptive:true,padding_algorithm:\"EXPLICIT\""),
        );
        assert_eq!(types(&t), ["tensor<-1x6x7x5xf32>"]);
        let t = pool2d("[3,3]", "data_format:\"NCHW\",exclusive:true,pooling_type:\"avg\",strides:[2,2],paddings:[0,0],ceil_mode:true,global_pooling:false,adaptive:false,padding_algorithm:\"EXPLICIT\"");
        assert_eq!(types(&t), ["tensor<-1x6x14x14xf32>"]);
    }

    #[test]
    fn max_pool_with_index_has_int32_mask() {
        let t = format!(
            "{{\n{X}\n(%1, %2) = \"pd_op.max_pool2d_with_index\" (%0) {{kernel_size:[2,2],strides:[2,2],paddings:[0,0],global_pooling:false,adaptive:false,ceil_mode:false,stop_gradient:[false]}} : (tensor<-1x6x28x28xf32>) -> tensor<-1x6x14x14xf32>, tensor<-1x6x14x14xi32>\n}}\n"
        );
        assert_eq!(
            types(&t),
            ["tensor<-1x6x14x14xf32>", "tensor<-1x6x14x14xi32>"]
        );
    }

    #[test]
    fn pool_rejects_rank_3() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[1,2,3],stop_gradient:[false]} : () -> tensor<1x2x3xf32>\n(%1) = \"pd_op.pool3d\" (%0) {kernel_size:[2,2,2],strides:[1,1,1],paddings:[0,0,0],ceil_mode:false,exclusive:true,data_format:\"NCDHW\",pooling_type:\"max\",global_pooling:false,adaptive:false,padding_algorithm:\"EXPLICIT\",stop_gradient:[false]} : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32>\n}\n";
        assert!(infer_last(t).is_err());
    }
}
