//! Pools, pads and pixel shuffles (Paddle's `unary_infer_sym.cc`): the
//! spatial extents follow from the window, the strides and the paddings,
//! written with the same operations Paddle uses so the expressions print
//! alike.

use super::super::{ints, Bad, Cx, Res, Rule};
use super::misc::data_or_new_syms;
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.pool2d", pool2d),
    ("pd_op.pool3d", pool_kernel_attr),
    ("pd_op.lp_pool2d", pool_kernel_attr),
    ("pd_op.max_pool2d_with_index", max_pool_with_index),
    ("pd_op.max_pool3d_with_index", max_pool_with_index),
    ("pd_op.pad", pad),
    ("pd_op.pad3d", pad3d),
    ("pd_op.pixel_shuffle", pixel_shuffle),
    ("pd_op.pixel_unshuffle", pixel_unshuffle),
    ("pd_op.maxout", maxout),
];

/// `pool2d`: the window is operand 1's data.
fn pool2d(cx: &mut Cx<'_>) -> Res {
    let kernel = cx.input(1).data().map(<[DimExpr]>::to_vec).ok_or_else(|| {
        Bad(
            "ShapeOrDataDimExprs must have complete data info when calling GetExprVecFromData"
                .into(),
        )
    })?;
    let out = pool_shape(cx, &kernel)?;
    cx.set_shape(0, out);
    Ok(())
}

/// `pool3d`, `lp_pool2d`: the window is the `kernel_size` attribute.
fn pool_kernel_attr(cx: &mut Cx<'_>) -> Res {
    let kernel = ints(&cx.ints_attr("kernel_size").unwrap_or_default());
    let out = pool_shape(cx, &kernel)?;
    cx.set_shape(0, out);
    Ok(())
}

/// `a + b` for a dim and an integer.
fn plus(cx: &mut Cx<'_>, a: &DimExpr, b: i64) -> DimExpr {
    cx.add(a, &DimExpr::Int(b))
}

/// `a - b` for a dim and an integer.
fn minus(cx: &mut Cx<'_>, a: &DimExpr, b: i64) -> DimExpr {
    cx.sub(a, &DimExpr::Int(b))
}

/// Paddle's `GetRealPadding`: the paddings per side of every spatial dim,
/// recomputed for `SAME`, zero for `VALID`, global or adaptive pooling.
fn real_paddings(
    cx: &mut Cx<'_>,
    data_dims: &[DimExpr],
    strides: &[i64],
    kernel: &[DimExpr],
    zero: bool,
) -> Result<Vec<DimExpr>, Bad> {
    let paddings = cx.ints_attr("paddings").unwrap_or_default();
    let mut real: Vec<DimExpr> = if paddings.len() == data_dims.len() {
        paddings
            .iter()
            .flat_map(|&p| [p, p])
            .map(DimExpr::Int)
            .collect()
    } else if paddings.len() == data_dims.len() * 2 {
        ints(&paddings)
    } else {
        return Err(Bad(format!(
            "Paddings size {} should be the same or twice as the pooling size {}.",
            paddings.len(),
            data_dims.len() * 2
        )));
    };
    match cx.str_attr("padding_algorithm") {
        Some("SAME") => {
            for (i, d) in data_dims.iter().enumerate() {
                let s = DimExpr::Int(strides[i]);
                let stretched = cx.add(d, &s);
                let stretched = minus(cx, &stretched, 1);
                let out = cx.div(&stretched, &s);
                let before = minus(cx, &out, 1);
                let covered = cx.mul(&before, &s);
                let reach = cx.add(&covered, &kernel[i]);
                let over = cx.sub(&reach, d);
                let sum = cx.max(&over, &DimExpr::Int(0));
                let first = cx.div(&sum, &DimExpr::Int(2));
                real[2 * i + 1] = cx.sub(&sum, &first);
                real[2 * i] = first;
            }
        }
        Some("VALID") => real.fill(DimExpr::Int(0)),
        _ => {}
    }
    if zero {
        real.fill(DimExpr::Int(0));
    }
    Ok(real)
}

/// Paddle's `Pool2dRawInferSymbolicShape` (for 2-D and 3-D pools).
fn pool_shape(cx: &mut Cx<'_>, kernel: &[DimExpr]) -> Result<Vec<DimExpr>, Bad> {
    let x = cx.shape(0)?;
    if x.len() != 4 && x.len() != 5 {
        return Err(Bad(format!(
            "the input of Op(pool) should be 4-D or 5-D Tensor. But received: {}-D Tensor.",
            x.len()
        )));
    }
    if x.len() != kernel.len() + 2 {
        return Err(Bad(format!(
            "the rank of input minus the size of kernel_size must be equal to 2 in Op(pool). \
             But received: the rank of input is {} and the rank of kernel_size is {}.",
            x.len(),
            kernel.len()
        )));
    }
    let strides = cx.ints_attr("strides").unwrap_or_default();
    if strides.len() != kernel.len() {
        return Err(Bad(format!(
            "the rank of kernel_size and strides in Op(pool) must be equal. But received: \
             the rank of kernel_size is {} and the rank of stride is {}.",
            kernel.len(),
            strides.len()
        )));
    }
    let channel_last = matches!(cx.str_attr("data_format"), Some("NHWC" | "NDHWC"));
    let r = x.len();
    let data_dims = if channel_last {
        x[1..r - 1].to_vec()
    } else {
        x[2..].to_vec()
    };
    let global = cx.bool_attr("global_pooling").unwrap_or(false);
    let adaptive = cx.bool_attr("adaptive").unwrap_or(false);
    let pads = real_paddings(cx, &data_dims, &strides, kernel, global || adaptive)?;
    let window = if global {
        data_dims.clone()
    } else {
        kernel.to_vec()
    };
    let ceil = cx.bool_attr("ceil_mode").unwrap_or(false);
    let mut out = vec![x[0].clone()];
    if !channel_last {
        out.push(x[1].clone());
    }
    if adaptive {
        out.extend(window);
    } else {
        for (i, d) in data_dims.iter().enumerate() {
            let s = DimExpr::Int(strides[i]);
            let inner = cx.sub(d, &window[i]);
            let inner = cx.add(&inner, &pads[2 * i]);
            let mut inner = cx.add(&inner, &pads[2 * i + 1]);
            if ceil {
                inner = cx.add(&inner, &s);
                inner = minus(cx, &inner, 1);
            }
            let steps = cx.div(&inner, &s);
            out.push(plus(cx, &steps, 1));
        }
    }
    if channel_last {
        out.push(x[r - 1].clone());
    }
    Ok(out)
}

/// `max_pool2d/3d_with_index`: the pooled values and their indices, with
/// symmetric paddings.
fn max_pool_with_index(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let is_3d = cx.p.op_name_str(cx.op).contains("3d");
    let (rank, spatial) = if is_3d { (5, 3) } else { (4, 2) };
    if x.len() != rank {
        return Err(Bad(format!(
            "Pooling input should be {rank}-D Tensor, but received {}D-Tensor",
            x.len()
        )));
    }
    let mut paddings = cx.ints_attr("paddings").unwrap_or_default();
    let strides = cx.ints_attr("strides").unwrap_or_default();
    for (v, name) in [(&paddings, "paddings size"), (&strides, "strides_size")] {
        if v.len() != spatial {
            return Err(Bad(format!(
                "It is expected {name} equals to {spatial}, but got size {}",
                v.len()
            )));
        }
    }
    let mut kernel = ints(&cx.ints_attr("kernel_size").unwrap_or_default());
    if cx.bool_attr("global_pooling").unwrap_or(false) {
        kernel = x[2..].to_vec();
        paddings.fill(0);
    }
    if x.len() != kernel.len() + 2 {
        return Err(Bad(format!(
            "The input size {} minus the kernel size {} should equal to 2.",
            x.len(),
            kernel.len()
        )));
    }
    let mut out = x[..2].to_vec();
    if cx.bool_attr("adaptive").unwrap_or(false) {
        out.extend(kernel);
    } else {
        let ceil = cx.bool_attr("ceil_mode").unwrap_or(false);
        for (i, k) in kernel.iter().enumerate() {
            let s = strides[i];
            if s == 0 {
                return Err(Bad(
                    "The stride of MaxPool shall not be 0, but received 0.".into()
                ));
            }
            let inner = cx.sub(&x[i + 2], k);
            let mut inner = plus(cx, &inner, paddings[i].saturating_mul(2));
            if ceil {
                inner = plus(cx, &inner, s);
                inner = minus(cx, &inner, 1);
            }
            let steps = cx.div(&inner, &DimExpr::Int(s));
            out.push(plus(cx, &steps, 1));
        }
    }
    cx.set_shape(0, out.clone());
    cx.set_shape(1, out);
    Ok(())
}

/// `d + before + after` for each dim.
fn padded(cx: &mut Cx<'_>, d: &DimExpr, before: &DimExpr, after: &DimExpr) -> DimExpr {
    let once = cx.add(d, before);
    cx.add(&once, after)
}

/// `pad`: two paddings per dim from the attribute.
fn pad(cx: &mut Cx<'_>) -> Res {
    let x = cx.tensor(0)?;
    if x.data.is_some() {
        return Err(Bad(
            "InferSymbolicShape of PadOp only support input with value now.".into(),
        ));
    }
    let paddings = cx.ints_attr("paddings").unwrap_or_default();
    if paddings.len() != x.rank() * 2 {
        return Err(Bad(format!(
            "The size of paddings should be 2 * input's rank. But got paddings.size() = {}, \
             input's rank = {}.",
            paddings.len(),
            x.rank()
        )));
    }
    let mut out = Vec::with_capacity(x.rank());
    for (i, d) in x.shape.iter().enumerate() {
        let (a, b) = (
            DimExpr::Int(paddings[2 * i]),
            DimExpr::Int(paddings[2 * i + 1]),
        );
        out.push(padded(cx, d, &a, &b));
    }
    cx.set_shape(0, out);
    Ok(())
}

/// `pad3d`: six paddings (width, height, depth pairs) from operand 1.
fn pad3d(cx: &mut Cx<'_>) -> Res {
    let x = super::shape_of_rank(
        cx,
        |r| r == 5,
        |r| format!("The size of Input(X)'s dimension should be equal to 5, but received {r}. "),
    )?;
    let p = match cx.ints_attr("paddings") {
        Some(v) => ints(&v),
        None => {
            let f = cx.input(1);
            data_or_new_syms(cx, &f)?
        }
    };
    if p.len() != 6 {
        return Err(Bad(format!(
            "Shape of Input(Paddings) should be equal to [6], but received [{}].",
            p.len()
        )));
    }
    let mut out = x.clone();
    let first = if cx.str_attr("data_format") == Some("NCDHW") {
        2
    } else {
        1
    };
    for (k, pair) in [4, 2, 0].into_iter().enumerate() {
        out[first + k] = padded(cx, &x[first + k], &p[pair], &p[pair + 1]);
    }
    cx.set_shape(0, out);
    Ok(())
}

/// The 4-D input of a pixel shuffle and whether it is channel-last.
fn shuffle_input(cx: &mut Cx<'_>) -> Result<(Vec<DimExpr>, bool), Bad> {
    let x = super::shape_of_rank(
        cx,
        |r| r == 4,
        |r| {
            format!(
                "Input should be a 4-D tensor of format [N, C, H, W] or [N, H, W, C], but got {r}."
            )
        },
    )?;
    let format = cx.str_attr("data_format").unwrap_or("NCHW");
    if format != "NCHW" && format != "NHWC" {
        return Err(Bad(format!(
            "data_format must be one of NCHW and NHWC. But received data_format: {format}"
        )));
    }
    Ok((x, format == "NHWC"))
}

/// Channels `c` become `c / f^2` and each spatial dim grows `f` times
/// (`spread`), or the reverse.
fn shuffle(cx: &mut Cx<'_>, factor: i64, spread: bool) -> Res {
    let (x, channel_last) = shuffle_input(cx)?;
    let f = DimExpr::Int(factor);
    let area = DimExpr::Int(factor.saturating_mul(factor));
    let (c, spatial) = if channel_last {
        (3, [1, 2])
    } else {
        (1, [2, 3])
    };
    let mut out = x.clone();
    if spread {
        out[c] = cx.div(&x[c], &area);
        for s in spatial {
            out[s] = cx.mul(&x[s], &f);
        }
    } else {
        out[c] = cx.mul(&x[c], &area);
        for s in spatial {
            out[s] = cx.div(&x[s], &f);
        }
    }
    cx.set_shape(0, out);
    Ok(())
}

fn pixel_shuffle(cx: &mut Cx<'_>) -> Res {
    let factor = cx.int_attr("upscale_factor").unwrap_or(1);
    if factor == 0 {
        return Err(Bad("upscale_factor should not be 0.".into()));
    }
    shuffle(cx, factor, true)
}

fn pixel_unshuffle(cx: &mut Cx<'_>) -> Res {
    let factor = cx.int_attr("downscale_factor").unwrap_or(1);
    if factor < 1 {
        return Err(Bad("downscale_factor should be larger than 0.".into()));
    }
    shuffle(cx, factor, false)
}

/// `maxout`: the `axis` dim divided among `groups`.
fn maxout(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let groups = cx.int_attr("groups").unwrap_or(1);
    let axis = cx.axis(cx.int_attr("axis").unwrap_or(1), x.len())?;
    x[axis] = cx.div(&x[axis], &DimExpr::Int(groups));
    cx.set_shape(0, x);
    Ok(())
}
