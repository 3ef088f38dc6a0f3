//! InferMeta functions of two tensors (Paddle's `infermeta/binary.cc`).

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{norm_axis, with_lod, DDim, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// `GetBroadcastDimsArrays`: `y` (the shorter) aligned at `axis`; a `-1`
/// extent broadcast against another `<= 1` stays unknown.
pub(crate) fn broadcast(x: &DDim, y: &DDim, axis: i64) -> Result<DDim, Bad> {
    let (xr, yr) = (x.rank(), y.rank());
    let max = xr.max(yr);
    let axis = if axis == -1 {
        xr.abs_diff(yr)
    } else {
        axis.max(0) as usize
    };
    let mut xa = vec![1i64; max];
    let mut ya = vec![1i64; max];
    if xr > yr {
        xa.copy_from_slice(x.as_slice());
        for (i, &d) in y.as_slice().iter().enumerate() {
            *ya.get_mut(axis + i)
                .ok_or_else(|| Bad("broadcast axis out of range".into()))? = d;
        }
    } else {
        ya.copy_from_slice(y.as_slice());
        for (i, &d) in x.as_slice().iter().enumerate() {
            *xa.get_mut(axis + i)
                .ok_or_else(|| Bad("broadcast axis out of range".into()))? = d;
        }
    }
    let mut out = DDim::default();
    for i in 0..max {
        let (a, b) = (xa[i], ya[i]);
        // A zero extent broadcasts only against itself, 1 or unknown, and
        // stays zero (Paddle 3.3.1: `[0,4] + [-1,4]` is `[0,4]`).
        if !(a == b || (a <= 1 && a != 0) || (b <= 1 && b != 0)) {
            return Err(Bad(format!(
                "Broadcast dimension mismatch. Operands could not be broadcast together with the shape of X = {:?} and the shape of Y = {:?}. Received [{a}] in X is not equal to [{b}] in Y at i:{i}.",
                x.as_slice(),
                y.as_slice()
            )));
        }
        out.push(if a > 1 || b > 1 || (a == 1 && b == 1) {
            a.max(b)
        } else if a == 0 || b == 0 {
            0
        } else {
            -1
        })?;
    }
    Ok(out)
}

fn elementwise_dims(x: &Meta, y: &Meta) -> Result<DDim, Bad> {
    if x.dims == y.dims {
        Ok(x.dims)
    } else {
        broadcast(&x.dims, &y.dims, -1)
    }
}

/// `ElementwiseInferMeta` (`ElementwiseRawInferMeta` with `axis = -1`).
pub(crate) fn elementwise(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let dims = elementwise_dims(&x, &y)?;
    set(outs, 0, x.with_dims(dims));
    Ok(())
}

/// `CompareInferMeta`, `LogicalBinaryInferMeta`: broadcast, bool.
pub(crate) fn compare(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let dims = elementwise_dims(&x, &y)?;
    set(outs, 0, Meta::new(DataType::Bool, dims));
    Ok(())
}

/// `LogicalBinaryInferMeta`: broadcast, bool, LoD of `x`.
pub(crate) fn logical_binary(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let dims = elementwise_dims(&x, &y)?;
    set(outs, 0, with_lod(&x, DataType::Bool, dims));
    Ok(())
}

/// `CompareAllInferMeta` (`equal_all`): a 0-d result with `x`'s LoD. Paddle
/// 3.3.1 sets only the dims, so the data type stays the fresh `IrTensor`'s
/// float32 whatever the inputs are.
pub(crate) fn compare_all(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    a.tensor(1)?;
    set(
        outs,
        0,
        Meta {
            lod: x.lod,
            ..Meta::unset_dims(DataType::Float32)
        },
    );
    Ok(())
}

/// `AllValueCompareInferMeta` (`allclose`): `BinarySameInputDimsCheck`
/// (equal ranks; equal dims where both are known, at build time), then a
/// 0-d bool.
pub(crate) fn all_value_compare(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let (xd, yd) = (x.dims.as_slice(), y.dims.as_slice());
    if xd.len() != yd.len() {
        return Err(Bad(
            "Input(Input) and Input(Other) must have the same dimension size.".into(),
        ));
    }
    for (i, (&p, &q)) in xd.iter().zip(yd).enumerate() {
        if p >= 0 && q >= 0 && p != q {
            return Err(Bad(format!(
                "The value at dim {i} of Input(Input) is not equal to the Input(Other): {p} != {q}."
            )));
        }
    }
    set(outs, 0, Meta::new(DataType::Bool, DDim::default()));
    Ok(())
}

/// `MatmulInferMeta`.
pub(crate) fn matmul(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let (tx, ty) = (a.bool(2)?, a.bool(3)?);
    let mut dx: Vec<i64> = x.dims.as_slice().to_vec();
    let mut dy: Vec<i64> = y.dims.as_slice().to_vec();
    if dx.is_empty() || dy.is_empty() {
        return Err(Bad("matmul of a 0-d tensor".into()));
    }
    let (mut xb, mut yb) = (false, false);
    if dx.len() == 1 {
        dx.insert(0, 1);
        xb = true;
    }
    if dy.len() == 1 {
        dy.push(1);
        yb = true;
    }
    let (nx, ny) = (dx.len(), dy.len());
    let m = if tx { dx[nx - 1] } else { dx[nx - 2] };
    let n = if ty { dy[ny - 2] } else { dy[ny - 1] };
    // Paddle enforces the contracted dims equal when both are known.
    let k_lhs = if tx { dx[nx - 2] } else { dx[nx - 1] };
    let k_rhs = if ty { dy[ny - 1] } else { dy[ny - 2] };
    if k_lhs >= 0 && k_rhs >= 0 && k_lhs != k_rhs {
        return Err(Bad(format!(
            "the contracted dims differ: {k_lhs} (x {:?}) and {k_rhs} (y {:?})",
            x.dims.as_slice(),
            y.dims.as_slice()
        )));
    }
    let mut out: Vec<i64> = if nx > ny {
        dx[..nx - 2].to_vec()
    } else if nx < ny {
        dy[..ny - 2].to_vec()
    } else {
        (0..nx - 2).map(|i| dx[i].max(dy[i])).collect()
    };
    if !xb {
        out.push(m);
    }
    if !yb {
        out.push(n);
    }
    set(outs, 0, Meta::laid_out(x.dtype, dd(&out)?, x.layout));
    Ok(())
}

/// `UpdatePaddingAndDilation`: pairs, then `SAME`/`VALID`.
pub(crate) fn update_padding(
    paddings: &mut Vec<i64>,
    dilations: Option<&mut Vec<i64>>,
    algorithm: &str,
    data: &[i64],
    strides: &[i64],
    ksize: &[i64],
) {
    if paddings.len() == data.len() {
        let p = paddings.clone();
        *paddings = p.iter().flat_map(|&v| [v, v]).collect();
    }
    if algorithm == "SAME" {
        let mut dil = dilations;
        for i in 0..data.len() {
            let s = strides.get(i).copied().unwrap_or(1).max(1);
            let k = ksize.get(i).copied().unwrap_or(1);
            let out = (data[i] + s - 1) / s;
            let pad = ((out - 1) * s + k - data[i]).max(0);
            if paddings.len() > 2 * i + 1 {
                paddings[2 * i] = pad / 2;
                paddings[2 * i + 1] = pad - pad / 2;
            }
            if let Some(d) = dil.as_deref_mut() {
                if let Some(v) = d.get_mut(i) {
                    *v = 1;
                }
            }
        }
    } else if algorithm == "VALID" {
        paddings.iter_mut().for_each(|p| *p = 0);
    }
}

fn get(v: &[i64], i: usize) -> Result<i64, Bad> {
    v.get(i)
        .copied()
        .ok_or_else(|| Bad(format!("attribute list too short (index {i})")))
}

/// The spatial dims of a convolution (`ConvInferMeta`'s loop), `runtime`
/// telling whether unknown extents stay unknown.
#[allow(clippy::too_many_arguments)]
fn conv_out(
    x: &Meta,
    filter: &Meta,
    strides: &[i64],
    paddings: &[i64],
    algorithm: &str,
    dilations: &[i64],
    format: &str,
    runtime: bool,
) -> Result<DDim, Bad> {
    let channel_last = format == "NHWC" || format == "NDHWC";
    let xd = x.dims.as_slice();
    let fd = filter.dims.as_slice();
    if xd.len() < 3 || fd.len() < 3 {
        return Err(Bad("conv input and filter need rank >= 3".into()));
    }
    let data: Vec<i64> = if channel_last {
        xd[1..xd.len() - 1].to_vec()
    } else {
        xd[2..].to_vec()
    };
    let ksize: Vec<i64> = fd[2..].to_vec();
    let mut pads = paddings.to_vec();
    let mut dil = dilations.to_vec();
    update_padding(&mut pads, Some(&mut dil), algorithm, &data, strides, &ksize);
    let mut out = vec![xd[0]];
    if !channel_last {
        out.push(fd[0]);
    }
    // Paddle's builder sees unknown extents as unknown whatever the config.
    let _ = runtime;
    for (i, &di) in data.iter().enumerate() {
        if di <= 0 || get(fd, i + 2)? <= 0 {
            out.push(-1);
        } else {
            let dk = get(&dil, i)? * (get(&ksize, i)? - 1) + 1;
            out.push(
                (di + get(&pads, 2 * i)? + get(&pads, 2 * i + 1)? - dk) / get(strides, i)? + 1,
            );
        }
    }
    if channel_last {
        out.push(fd[0]);
    }
    dd(&out)
}

/// `ConvInferMeta` (`conv2d`): input, filter, strides, paddings, algorithm, dilations, groups, format.
pub(crate) fn conv(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    conv_with_dilations_at(a, outs, 5)
}

/// `DepthwiseConvInferMeta`, `Conv3DInferMeta`: groups before dilations.
pub(crate) fn conv_groups_first(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    conv_with_dilations_at(a, outs, 6)
}

/// The forward convolutions, whose parameters differ only in where the
/// dilations stand (`dilations`, before or after the groups).
fn conv_with_dilations_at(a: &Args<'_>, outs: &mut [Out], dilations: usize) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let f = a.tensor(1)?;
    let dims = conv_out(
        &x,
        &f,
        &a.ints(2)?,
        &a.ints(3)?,
        a.str(4)?,
        &a.ints(dilations)?,
        a.str(7)?,
        true,
    )?;
    set(outs, 0, Meta::new(x.dtype, dims));
    Ok(())
}

/// `ConvTransposeInferMeta` / `Conv2dTransposeInferMeta`: x, filter,
/// strides, paddings, output_padding, output_size, algorithm, groups,
/// dilations, format.
fn conv_transpose_impl(a: &Args<'_>, outs: &mut [Out], runtime: bool) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let f = a.tensor(1)?;
    let strides = a.ints(2)?;
    let mut pads = a.ints(3)?;
    let output_padding = a.ints(4)?;
    let output_size = a.int_array(5)?;
    let algorithm = a.str(6)?;
    let groups = a.int(7)?;
    let mut dil = a.ints(8)?;
    let format = a.str(9)?;
    let channel_last = format == "NHWC" || format == "NDHWC";
    let xd = x.dims.as_slice();
    let fd = f.dims.as_slice();
    if xd.len() < 3 || fd.len() < 3 {
        return Err(Bad("conv transpose input and filter need rank >= 3".into()));
    }
    let data: Vec<i64> = if channel_last {
        xd[1..xd.len() - 1].to_vec()
    } else {
        xd[2..].to_vec()
    };
    let ksize: Vec<i64> = fd[2..].to_vec();
    update_padding(
        &mut pads,
        Some(&mut dil),
        algorithm,
        &data,
        &strides,
        &ksize,
    );
    let mut out = vec![xd[0]];
    if !channel_last {
        out.push(fd[1] * groups);
    }
    for (i, &di) in data.iter().enumerate() {
        let fe = (get(&ksize, i)? - 1) * get(&dil, i)? + 1;
        let infer = if di > 0 {
            (di - 1) * get(&strides, i)? - get(&pads, 2 * i)? - get(&pads, 2 * i + 1)? + fe
        } else {
            -1
        };
        if !output_size.values.is_empty() {
            if output_size.from_tensor && !runtime {
                out.push(-1);
            } else {
                out.push(get(&output_size.values, i)?);
            }
        } else if !output_padding.is_empty() {
            out.push(if infer == -1 {
                -1
            } else {
                infer + get(&output_padding, i)?
            });
        } else {
            out.push(infer);
        }
    }
    if channel_last {
        out.push(fd[1] * groups);
    }
    set(outs, 0, Meta::new(x.dtype, dd(&out)?));
    Ok(())
}

/// `ConvTransposeInferMeta` (default config).
pub(crate) fn conv_transpose(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    conv_transpose_impl(a, outs, true)
}

/// `Conv2dTransposeInferMeta` (built with `is_runtime = false`).
pub(crate) fn conv2d_transpose(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    conv_transpose_impl(a, outs, false)
}

/// `EmbeddingInferMeta`: `x.dims + [weight.dims[1]]`, weight's dtype.
pub(crate) fn embedding(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let w = a.tensor(1)?;
    let mut d = x.dims;
    d.push(w.dims.at(1)?)?;
    set(outs, 0, with_lod(&x, w.dtype, d));
    Ok(())
}

/// `GatherInferMeta`: the gathered axis takes the index length.
pub(crate) fn gather(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let index = a.tensor(1)?;
    let axis = a.scalar(2)?;
    let r = x.dims.rank();
    let n = if index.dims.rank() == 0 {
        None
    } else {
        Some(index.dims.at(0)?)
    };
    let mut d = DDim::default();
    if axis.from_tensor {
        let mut v = vec![-1; r];
        if n.is_none() {
            v.pop();
        }
        d = dd(&v)?;
    } else {
        let ax = norm_axis(axis.value as i64, r)?;
        for i in 0..r {
            if i == ax {
                if let Some(n) = n {
                    d.push(n)?;
                }
            } else {
                d.push(x.dims.at(i)?)?;
            }
        }
    }
    set(outs, 0, Meta::laid_out(x.dtype, d, x.layout));
    Ok(())
}

/// `IndexSelectInferMeta`.
pub(crate) fn index_select(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let index = a.tensor(1)?;
    let ax = norm_axis(a.int(2)?, x.dims.rank())?;
    let mut d = x.dims;
    d.set(ax, index.dims.at(0)?)?;
    set(outs, 0, with_lod(&x, x.dtype, d));
    Ok(())
}

/// `GatherNdInferMeta`.
pub(crate) fn gather_nd(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let index = a.tensor(1)?;
    let ir = index.dims.rank();
    let last = index.dims.at(ir.saturating_sub(1))?;
    let mut d = DDim::default();
    for i in 0..ir.saturating_sub(1) {
        d.push(index.dims.at(i)?)?;
    }
    for i in (last.max(0) as usize)..x.dims.rank() {
        d.push(x.dims.at(i)?)?;
    }
    set(outs, 0, Meta::new(x.dtype, d));
    Ok(())
}

/// `ExpandAsInferMeta`: the target shape attribute.
pub(crate) fn expand_as(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let shape = a.ints(2)?;
    set(outs, 0, Meta::new(x.dtype, dd(&shape)?));
    Ok(())
}

/// `BmmInferMeta`.
pub(crate) fn bmm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    set(
        outs,
        0,
        Meta::new(x.dtype, dd(&[x.dims.at(0)?, x.dims.at(1)?, y.dims.at(2)?])?),
    );
    Ok(())
}

/// `DotInferMeta`: drops the last dim.
pub(crate) fn dot(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let mut d = x.dims;
    d.pop();
    set(outs, 0, Meta::laid_out(x.dtype, d, x.layout));
    Ok(())
}

/// `Atan2InferMeta`: `x`'s meta (no broadcast), float64 when either input
/// is int32 or int64. The ranks must match and `x.dims[0] <= y.dims[0]`
/// (compared as they are, unknown `-1` included).
pub(crate) fn atan2(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let (xr, yr) = (x.dims.rank(), y.dims.rank());
    if xr != yr {
        return Err(Bad(format!(
            "The rank ({xr}) of X shall be same as rank ({yr}) of Y."
        )));
    }
    if xr > 0 {
        let (p, q) = (x.dims.at(0)?, y.dims.at(0)?);
        if p > q {
            return Err(Bad(format!(
                "The count ({p}) of elements of X shall not greater than count ({q}) of elements of Y."
            )));
        }
    }
    let int = |d: DataType| matches!(d, DataType::Int32 | DataType::Int64);
    let dtype = if int(x.dtype) || int(y.dtype) {
        DataType::Float64
    } else {
        x.dtype
    };
    set(outs, 0, Meta { dtype, ..x });
    Ok(())
}

/// `GeneralBinaryGradInferMeta`: gradients shaped like `x` and `y`.
pub(crate) fn general_binary_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    set(outs, 0, x);
    set(outs, 1, y);
    Ok(())
}

/// `DropoutInferMeta` (x, seed_tensor, p, is_test, mode, seed, fix_seed):
/// `out` like x (dims, dtype, LoD); `mask` uint8 of x's dims.
pub(crate) fn dropout(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 1, Meta::new(DataType::UInt8, x.dims));
    set(
        outs,
        0,
        Meta {
            layout: pir_core::builtin::DataLayout::NCHW,
            ..x
        },
    );
    Ok(())
}

/// `CrossEntropyWithSoftmaxInferMeta` (logits, label, soft_label,
/// use_softmax, numeric_stable_mode, ignore_index, axis): `softmax` like the
/// logits, `loss` with extent 1 on the axis; both share the logits' LoD.
pub(crate) fn cross_entropy_with_softmax(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let logits = a.tensor(0)?;
    let label = a.tensor(1)?;
    let soft_label = a.bool(2)?;
    let r = logits.dims.rank();
    let ax = norm_axis(a.int(6)?, r)?;
    if label.dims.rank() != r {
        return Err(Bad(format!(
            "label rank {} differs from logits rank {r}",
            label.dims.rank()
        )));
    }
    if !soft_label {
        let l = label.dims.at(ax)?;
        if l > 0 && l != 1 {
            return Err(Bad(format!("hard label extent on the axis is {l}, not 1")));
        }
    }
    let mut loss = logits.dims;
    loss.set(ax, 1)?;
    let fresh = |dims| with_lod(&logits, logits.dtype, dims);
    set(outs, 0, fresh(logits.dims));
    set(outs, 1, fresh(loss));
    Ok(())
}

mod correlation;
mod detect;
mod index;
mod masked;
mod recommendation;
mod sequence;
mod shaped_like_x;
mod stft;
pub(crate) use correlation::correlation;
pub(crate) use index::{index_elementwise_get, index_elementwise_put};
pub(crate) use masked::{masked_fill, reduce_as};
pub(crate) use recommendation::{shuffle_batch, tdm_child};
pub(crate) use sequence::{beam_search_decode, ctc_align, cvm, row_conv, sequence_expand};
pub(crate) use shaped_like_x::{
    apply_per_channel_scale, dims_dtype_lod_of_x, prune_gate_by_capacity, softmax_mask_fuse,
    yolo_box_head,
};
pub(crate) use stft::stft;
mod loss;
pub(crate) use detect::{
    add_position_encoding, affine_grid, c_softmax_with_cross_entropy,
    fake_channel_wise_dequantize_max_abs, im2sequence, prior_box, set_meta, swiglu, yolo_box,
};
pub(crate) mod more;
pub(crate) use loss::{
    bincount, c_embedding, gather_tree, hinge_loss, histogram, huber_loss, limit_by_capacity,
    lookup_table_dequant, margin_cross_entropy, matrix_nms, matrix_rank_atol_rtol, matrix_rank_tol,
    segment_pool, unpool, unpool3d,
};
pub(crate) use more::{
    bce_loss, binomial, cholesky_solve, complex, cross, dist, grid_sample, index_sample,
    index_select_strided, kldiv, kron, log_loss, lstsq, masked_select, matmul_with_flatten, mv,
    searchsorted, solve, take_along_axis, triangular_solve, value_compare,
};

test_modules! {
    mod compare_tests;
    mod correlation_tests;
    mod detect_tests;
    mod index_tests;
    mod loss_tests;
    mod masked_tests;
    mod more_tests;
    mod recommendation_tests;
    mod refusal_tests;
    mod sequence_tests;
    mod shaped_like_x_tests;
    mod stft_tests;
}
#[cfg(test)]
mod tests {
    use crate::testing::{infer_last, types};

    #[test]
    fn dropout_mask_is_uint8() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>\n\
                 (%1) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>\n\
                 (%2, %3) = \"pd_op.dropout\" (%0, <<NULL VALUE>>, %1) {fix_seed:false,is_test:true,mode:\"upscale_in_train\",seed:0,stop_gradient:[false,false]} : (tensor<-1x4xf32>, <<NULL TYPE>>, tensor<1xf32>) -> tensor<-1x4xf32>, tensor<-1x4xu8>\n}\n";
        assert_eq!(types(t), ["tensor<-1x4xf32>", "tensor<-1x4xu8>"]);
    }

    #[test]
    fn cross_entropy_loss_has_unit_axis() {
        let op = |label: &str, soft: bool| {
            format!(
                "{{\n(%0) = \"pd_op.data\" () {{dtype:float32,name:\"x\",place:Place(undefined:0),shape:[-1,10],stop_gradient:[false]}} : () -> tensor<-1x10xf32>\n\
                 (%1) = \"pd_op.data\" () {{dtype:int64,name:\"y\",place:Place(undefined:0),shape:[{label}],stop_gradient:[true]}} : () -> tensor<{lt}xi64>\n\
                 (%2, %3) = \"pd_op.cross_entropy_with_softmax\" (%0, %1) {{soft_label:{soft},use_softmax:true,numeric_stable_mode:true,ignore_index:-100,axis:-1,stop_gradient:[false,false]}} : (tensor<-1x10xf32>, tensor<{lt}xi64>) -> tensor<-1x10xf32>, tensor<-1x1xf32>\n}}\n",
                lt = label.replace(',', "x")
            )
        };
        assert_eq!(
            types(&op("-1,1", false)),
            ["tensor<-1x10xf32>", "tensor<-1x1xf32>"]
        );
        assert!(infer_last(&op("-1,3", false)).is_err());
    }
}
