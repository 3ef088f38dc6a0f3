//! Gradients whose InferMeta sets dims and data type (sometimes LoD or
//! layout) one by one rather than sharing a whole meta: what is not set
//! keeps the fresh `IrTensor`'s NCHW layout, no LoD, float32.

use pir_dialects::pd_op::DataType;

use super::{dims_only, fresh, untouched};
use crate::args::Args;
use crate::meta::{norm_axis, with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "GradSameWithXInferMeta" => grad_same_with_x,
        "BmmGradInferMeta" | "ComplexGradInferMeta" => like_first_two,
        "FillDiagonalGradInferMeta"
        | "FillDiagonalTensorGradInferMeta"
        | "UniformRandomInplaceGradInferMeta"
        | "LUGradInferMeta"
        | "LUUnpackGradInferMeta"
        | "NanmedianGradInferMeta"
        | "OverlapAddGradInferMeta"
        | "EigvalshGradInferMeta" => like_first,
        "YoloLossGradInferMeta" => yolo_loss_grad,
        "CropGradInferMeta" => like_second,
        "MarginCrossEntropyGradInferMeta" | "RankAttentionGradInferMeta" => like_third,
        "LodResetGradInferMeta" | "UnchangedExceptLayoutInferMeta" => lod_reset_grad,
        "EmbeddingGradInferMeta" => embedding_grad,
        "EmbeddingGradSparseInferMeta" => embedding_grad_sparse,
        "GatherNdGradInferMeta" => gather_nd_grad,
        "ScatterGradInferMeta" | "ScatterNdAddGradInferMeta" => scatter_grad,
        "SpectralNormGradInferMeta" => spectral_norm_grad,
        "SetValueGradInferMeta" => set_value_grad,
        "ShuffleBatchGradInferMeta" => shuffle_batch_grad,
        "InverseGradInferMeta" => inverse_grad,
        "BatchFCGradInferMeta" => batch_fc_grad,
        "BilinearGradInferMeta" => bilinear_grad,
        "ChannelShuffleGradInferMeta" => channel_shuffle_grad,
        "PixelUnshuffleGradInferMeta" => pixel_unshuffle_grad,
        "PixelShuffleGradInferMeta" => pixel_shuffle_grad,
        "PreluGradInferMeta" => prelu_grad,
        "RowConvGradInferMeta" => row_conv_grad,
        "EigGradInferMeta" => eig_grad,
        "CSoftmaxWithCrossEntropyGradInferMeta"
        | "CSoftmaxWithMultiLabelCrossEntropyGradInferMeta" => dims_of_first,
        "AffineGridGradInferMeta" => affine_grid_grad,
        "InstanceNormGradInferMeta" => instance_norm_grad,
        "RealAndImagGradInferMeta" => real_and_imag_grad,
        "CrossEntropyWithSoftmaxGradInferMeta" => cross_entropy_with_softmax_grad,
        "NllLossGradInferMeta" => nll_loss_grad,
        "WeightOnlyLinearGradInferMeta" => weight_only_linear_grad,
        "TransposeGradInferMeta" => transpose_grad,
        "TransLayoutGradInferMeta" => trans_layout_grad,
        "FFTC2RGradInferMeta" => fft_c2r_grad,
        _ => return None,
    })
}

/// Dims and data type of `m`.
fn like(m: &Meta) -> Meta {
    fresh(m.dims, m.dtype)
}

/// `GradSameWithXInferMeta` (x, out_grad): dims and LoD of `x`, data type
/// of `out_grad`.
fn grad_same_with_x(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let out = a.tensor(1)?;
    set(outs, 0, with_lod(&x, out.dtype, x.dims));
    Ok(())
}

/// Result 0 takes dims and data type of parameter 0.
fn like_first(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, like(&a.tensor(0)?));
    Ok(())
}

/// `YoloLossGradInferMeta`: `x_grad` like `x`; the gradients of the boxes,
/// labels and scores stay as built.
fn yolo_loss_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, like(&a.tensor(0)?));
    for i in 1..4 {
        set(outs, i, untouched());
    }
    Ok(())
}

/// Result 0 takes dims and data type of parameter 1 (`CropGradInferMeta`).
fn like_second(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, like(&a.tensor(1)?));
    Ok(())
}

/// Result 0 takes dims and data type of parameter 2 (the softmax of
/// `MarginCrossEntropyGradInferMeta`, the `rank_param` of
/// `RankAttentionGradInferMeta`).
fn like_third(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, like(&a.tensor(2)?));
    Ok(())
}

/// `BmmGradInferMeta`, `ComplexGradInferMeta`: each gradient takes dims and
/// data type of its input.
fn like_first_two(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, like(&a.tensor(0)?));
    set(outs, 1, like(&a.tensor(1)?));
    Ok(())
}

/// `LodResetGradInferMeta` (x, out_grad, ...), `UnchangedExceptLayoutInferMeta`
/// (x): dims, LoD and data type of `x`.
fn lod_reset_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `EmbeddingGradInferMeta` (x, weight): dims and data type of `weight`
/// when given.
fn embedding_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let m = match a.opt_tensor(1)? {
        Some(w) => like(&w),
        None => untouched(),
    };
    set(outs, 0, m);
    Ok(())
}

/// `EmbeddingGradSparseInferMeta` (x, weight): a selected-rows gradient
/// takes dims and data type of the ids `x`, a dense one those of `weight`;
/// nothing without a weight.
fn embedding_grad_sparse(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let m = match a.opt_tensor(1)? {
        Some(w) => {
            let sparse = a
                .def
                .outputs
                .first()
                .is_some_and(|o| o.kind == pir_dialects::op_def::ValueKind::SelectedRows);
            if sparse {
                like(&a.tensor(0)?)
            } else {
                like(&w)
            }
        }
        None => untouched(),
    };
    set(outs, 0, m);
    Ok(())
}

/// `GatherNdGradInferMeta` (x, index, out_grad): dims and LoD of `x`, data
/// type of `out_grad`.
fn gather_nd_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let dout = a.tensor(2)?;
    set(outs, 0, with_lod(&x, dout.dtype, x.dims));
    Ok(())
}

/// `ScatterGradInferMeta`, `ScatterNdAddGradInferMeta` (index, updates,
/// out_grad): `x_grad` of `out_grad`'s dims, `updates_grad` of `updates`'
/// dims, both of `out_grad`'s data type.
fn scatter_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let updates = a.tensor(1)?;
    let dout = a.tensor(2)?;
    set(outs, 1, fresh(updates.dims, dout.dtype));
    set(outs, 0, fresh(dout.dims, dout.dtype));
    Ok(())
}

/// `SpectralNormGradInferMeta` (weight, u, v, out_grad, ...): dims of
/// `weight`, data type of `out_grad`.
fn spectral_norm_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let w = a.tensor(0)?;
    let dout = a.tensor(3)?;
    set(outs, 0, fresh(w.dims, dout.dtype));
    Ok(())
}

/// `SetValueGradInferMeta` (out_grad, values): `x_grad` like `out_grad`,
/// `value_grad` like `values` (dims, data type, LoD).
fn set_value_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let dout = a.tensor(0)?;
    let values = a.tensor(1)?;
    set(outs, 0, with_lod(&dout, dout.dtype, dout.dims));
    set(outs, 1, with_lod(&values, values.dtype, values.dims));
    Ok(())
}

/// `ShuffleBatchGradInferMeta` (shuffle_idx, out_grad, seed): dims, LoD and
/// data type of `out_grad`.
fn shuffle_batch_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let dout = a.tensor(1)?;
    set(outs, 0, with_lod(&dout, dout.dtype, dout.dims));
    Ok(())
}

/// `InverseGradInferMeta` (out, out_grad): dims of `out_grad`, data type of
/// `out`.
fn inverse_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let out = a.tensor(0)?;
    let dout = a.tensor(1)?;
    set(outs, 0, fresh(dout.dims, out.dtype));
    Ok(())
}

/// `BatchFCGradInferMeta` (input, w, bias, out_grad): each gradient like its
/// input.
fn batch_fc_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    for i in 0..3 {
        set(outs, i, like(&a.tensor(i)?));
    }
    Ok(())
}

/// `BilinearGradInferMeta` (x, y, weight, out_grad): `out_grad` is 2-D with
/// the batch of `x` and the width of `weight`'s first dim; `bias_grad` is
/// `[1, out_grad[1]]`.
fn bilinear_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let w = a.tensor(2)?;
    let dout = a.tensor(3)?;
    if dout.dims.rank() != 2 {
        return Err(Bad("The input(Out@GRAD) must be a 2D Tensor.".into()));
    }
    if x.dims.at(0)? != dout.dims.at(0)? {
        return Err(Bad(
            "The first dimension(batch_size) of input(Out@GRAD) must be equal to the \
             first dimension of the Input(X)."
                .into(),
        ));
    }
    if w.dims.at(0)? != dout.dims.at(1)? {
        return Err(Bad(
            "The second dimension of input(Out@GRAD) must be equal to the third \
             dimension of the Input(Weight)."
                .into(),
        ));
    }
    set(outs, 0, like(&x));
    set(outs, 1, like(&y));
    set(outs, 2, like(&w));
    set(
        outs,
        3,
        fresh(DDim::new(&[1, dout.dims.at(1)?])?, dout.dtype),
    );
    Ok(())
}

/// The rank-4 check of the shuffle gradients.
fn check_rank4(d: &DDim) -> Result<(), Bad> {
    if d.rank() != 4 {
        return Err(Bad(format!(
            "Input should be a 4-D tensor of format [N, C, H, W] or [N, H, W, C], but got {}.",
            d.rank()
        )));
    }
    Ok(())
}

/// `ChannelShuffleGradInferMeta` (out_grad, groups, data_format): like the
/// 4-D `out_grad`.
fn channel_shuffle_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let dout = a.tensor(0)?;
    check_rank4(&dout.dims)?;
    set(outs, 0, like(&dout));
    Ok(())
}

/// `PixelUnshuffleGradInferMeta` (out_grad, downscale_factor, data_format):
/// channels divided by the factor squared, spatial dims multiplied by it;
/// an unknown (-1) extent stays unknown (checked against Paddle 3.3.1).
fn pixel_unshuffle_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let dout = a.tensor(0)?;
    let f = a.int(1)?;
    let channel_last = a.str(2)? == "NHWC";
    check_rank4(&dout.dims)?;
    let ff = f.wrapping_mul(f);
    if ff == 0 {
        return Err(Bad("downscale_factor must not be 0".into()));
    }
    let d = dout.dims.as_slice();
    let keep = |v: i64, r: i64| if v == -1 { -1 } else { r };
    let dims = if channel_last {
        [
            d[0],
            keep(d[1], d[1].wrapping_mul(f)),
            keep(d[2], d[2].wrapping_mul(f)),
            keep(d[3], d[3].wrapping_div(ff)),
        ]
    } else {
        [
            d[0],
            keep(d[1], d[1].wrapping_div(ff)),
            keep(d[2], d[2].wrapping_mul(f)),
            keep(d[3], d[3].wrapping_mul(f)),
        ]
    };
    set(outs, 0, fresh(DDim::new(&dims)?, dout.dtype));
    Ok(())
}

/// `PixelShuffleGradInferMeta` (out_grad, upscale_factor, data_format):
/// channels multiplied by the factor squared, spatial dims divided by it;
/// an unknown (-1) extent stays unknown.
fn pixel_shuffle_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let dout = a.tensor(0)?;
    let f = a.int(1)?;
    let channel_last = a.str(2)? == "NHWC";
    check_rank4(&dout.dims)?;
    if f == 0 {
        return Err(Bad("upscale_factor should not be 0.".into()));
    }
    let ff = f.wrapping_mul(f);
    let d = dout.dims.as_slice();
    let keep = |v: i64, r: i64| if v == -1 { -1 } else { r };
    let dims = if channel_last {
        [
            d[0],
            keep(d[1], d[1].wrapping_div(f)),
            keep(d[2], d[2].wrapping_div(f)),
            keep(d[3], d[3].wrapping_mul(ff)),
        ]
    } else {
        [
            d[0],
            keep(d[1], d[1].wrapping_mul(ff)),
            keep(d[2], d[2].wrapping_div(f)),
            keep(d[3], d[3].wrapping_div(f)),
        ]
    };
    set(outs, 0, fresh(DDim::new(&dims)?, dout.dtype));
    Ok(())
}

/// `PreluGradInferMeta` (x, alpha): dims only (`share_dims`).
fn prelu_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, dims_only(a.tensor(0)?.dims));
    set(outs, 1, dims_only(a.tensor(1)?.dims));
    Ok(())
}

/// `RowConvGradInferMeta` (out_grad, filter): dims only.
fn row_conv_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, dims_only(a.tensor(0)?.dims));
    set(outs, 1, dims_only(a.tensor(1)?.dims));
    Ok(())
}

/// `EigGradInferMeta` (out_w, out_v, ...): dims of `out_v` only.
fn eig_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, dims_only(a.tensor(1)?.dims));
    Ok(())
}

/// Dims of parameter 0 only (`CSoftmaxWithCrossEntropyGradInferMeta`).
fn dims_of_first(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, dims_only(a.tensor(0)?.dims));
    Ok(())
}

/// `AffineGridGradInferMeta` (output_grad, output_shape, align_corners):
/// `[N, 2, 3]` for a 4-D grid, `[N, 3, 4]` otherwise; dims only.
fn affine_grid_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let g = a.tensor(0)?;
    let n = g.dims.at(0)?;
    let dims = if g.dims.rank() == 4 {
        [n, 2, 3]
    } else {
        [n, 3, 4]
    };
    set(outs, 0, dims_only(DDim::new(&dims)?));
    Ok(())
}

/// The `x_grad` of the instance-norm gradients: dims, data type and layout
/// of `x`, and the channel count `C = x.dims[1]`.
fn instance_norm_dx(x: &Meta) -> Result<(Meta, i64), Bad> {
    let c = x.dims.at(1)?;
    Ok((Meta::laid_out(x.dtype, x.dims, x.layout), c))
}

/// `InstanceNormGradInferMeta` (x, scale, bias, saved_mean, saved_variance,
/// y_grad, epsilon): `scale_grad` and `bias_grad` get dims `[C]` only.
fn instance_norm_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let (dx, c) = instance_norm_dx(&a.tensor(0)?)?;
    set(outs, 0, dx);
    set(outs, 1, dims_only(DDim::new(&[c])?));
    set(outs, 2, dims_only(DDim::new(&[c])?));
    Ok(())
}

/// Paddle's `dtype::ToComplex`.
fn to_complex(d: DataType) -> DataType {
    match d {
        DataType::Float32 => DataType::Complex64,
        DataType::Float64 => DataType::Complex128,
        d => d,
    }
}

/// `RealAndImagGradInferMeta` (out_grad): dims and layout of `out_grad`,
/// its complex data type.
fn real_and_imag_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let g = a.tensor(0)?;
    set(
        outs,
        0,
        Meta::laid_out(to_complex(g.dtype), g.dims, g.layout),
    );
    Ok(())
}

/// `CrossEntropyWithSoftmaxGradInferMeta` (label, softmax, loss_grad,
/// soft_label, use_softmax, numeric_stable_mode, ignore_index, axis):
/// checks label against softmax where both are known; like `softmax`.
fn cross_entropy_with_softmax_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let label = a.tensor(0)?;
    let softmax = a.tensor(1)?;
    let soft_label = a.bool(3)?;
    let axis = a.int(7)?;
    let r = softmax.dims.rank();
    let ri = r as i64;
    if axis < -ri || axis >= ri {
        return Err(Bad(
            "Attr(axis) value should be in range [-R, R-1], R is the rank of Input(Logits).".into(),
        ));
    }
    let axis = norm_axis(axis, r)?;
    let s = softmax.dims.as_slice();
    let l = label.dims.as_slice();
    for (i, &sd) in s.iter().enumerate() {
        if i != axis {
            // A label of lower rank has no extent there to compare.
            let ld = l.get(i).copied().unwrap_or(0);
            if sd > 0 && ld > 0 && sd != ld {
                return Err(Bad(
                    "Input(Logits) and Input(Label) should in same shape in dimensions except axis."
                        .into(),
                ));
            }
        }
    }
    let la = label.dims.at(axis)?;
    let sa = softmax.dims.at(axis)?;
    if soft_label {
        if sa > 0 && la > 0 && sa != la {
            return Err(Bad(
                "If Attr(soft_label) == true, the axis dimension of Input(X) and Input(Label) \
                 should be equal."
                    .into(),
            ));
        }
    } else if la > 0 && la != 1 {
        return Err(Bad(
            "If Attr(soft_label) == false, the axis dimension of Input(Label) should be 1.".into(),
        ));
    }
    set(outs, 0, like(&softmax));
    Ok(())
}

/// `NllLossGradInferMeta` (x, label, weight, total_weight, out_grad,
/// ignore_index, reduction): checks `out_grad` against the reduction when
/// all dims are known; like `x`.
fn nll_loss_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    let dout = a.tensor(4)?;
    let reduction = a.str(6)?;
    let (xd, dd) = (&x.dims, &dout.dims);
    if !xd.has_unknown() && !dd.has_unknown() {
        let none = reduction == "none";
        let want_rank = match (xd.rank(), none) {
            (2, true) => Some(1),
            (4, true) => Some(3),
            (2 | 4, false) => Some(0),
            _ => None,
        };
        if let Some(w) = want_rank {
            if dd.rank() != w {
                return Err(Bad(format!(
                    "The dimensions of Input(Out@Grad) must be {w}"
                )));
            }
        }
        if none && xd.rank() == 2 && dd.at(0)? != xd.at(0)? {
            return Err(Bad(
                "The unreduced size ofInput(Out@Grad) must be the same as batch_size.".into(),
            ));
        }
        if none && xd.rank() == 4 {
            let l = label.dims.as_slice();
            if l.len() < 3 || dd.as_slice()[..3] != l[..3] {
                return Err(Bad(
                    "The dimensions of Input(Out@Grad) must be match to Input(Label) dimensions."
                        .into(),
                ));
            }
        }
    }
    set(outs, 0, like(&x));
    Ok(())
}

/// `WeightOnlyLinearGradInferMeta`: only arch 80 or 86, per-channel
/// (`group_size == -1`); like `x`.
fn weight_only_linear_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let arch = a.int(6)?;
    let group_size = a.int(7)?;
    if arch != 80 && arch != 86 {
        return Err(Bad(
            "Currently weightonly linear grad only support arch = 80 or 86. ".into(),
        ));
    }
    if group_size != -1 {
        return Err(Bad(
            "Currently weightonly linear grad only support per-channel mode. ".into(),
        ));
    }
    set(outs, 0, like(&x));
    Ok(())
}

/// The inverse of a permutation, as `TransposeGradInferMeta` computes it
/// (negative entries count from the end of `rank`).
fn reverse_perm(axis: &[i64], rank: usize) -> Result<Vec<i64>, Bad> {
    let mut rev = axis.to_vec();
    for (i, &p) in axis.iter().enumerate() {
        let f = if p < 0 { p + rank as i64 } else { p };
        let slot = usize::try_from(f)
            .ok()
            .and_then(|f| rev.get_mut(f))
            .ok_or_else(|| Bad(format!("axis {p} out of range for rank {rank}")))?;
        *slot = i as i64;
    }
    Ok(rev)
}

/// `TransposeInferMeta`'s dims: each axis in range and named once; a
/// permutation shorter than the rank permutes the leading dims.
fn transpose_dims(x: &DDim, perm: &[i64]) -> Result<DDim, Bad> {
    let r = x.rank();
    if perm.len() > r {
        return Err(Bad(format!(
            "The input tensor's dimension should be equal to or greater than the axis's size. \
             But received input tensor's dimension is {r}, axis's size is {}",
            perm.len()
        )));
    }
    let mut seen = [false; crate::meta::MAX_RANK];
    let mut out = *x;
    for (i, &p) in perm.iter().enumerate() {
        let k = norm_axis(p, r)?;
        if std::mem::replace(&mut seen[k], true) {
            return Err(Bad(format!(
                "Each element of axis should be unique. but axis[{i}] is {p} appear not only once"
            )));
        }
        out.set(i, x.at(k)?)?;
    }
    Ok(out)
}

/// `TransposeGradInferMeta` (x, axis): `TransposeInferMeta` (dims and data
/// type) with the inverse permutation.
fn transpose_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let g = a.tensor(0)?;
    let axis = a.ints(1)?;
    let rev = reverse_perm(&axis, g.dims.rank())?;
    let dims = transpose_dims(&g.dims, &rev)?;
    set(outs, 0, fresh(dims, g.dtype));
    Ok(())
}

/// `TransLayoutGradInferMeta` (x, out_grad, axis): the transpose gradient of
/// `out_grad`, in `x`'s layout.
fn trans_layout_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let g = a.tensor(1)?;
    let axis = a.ints(2)?;
    let rev = reverse_perm(&axis, g.dims.rank())?;
    let dims = transpose_dims(&g.dims, &rev)?;
    set(outs, 0, Meta::laid_out(g.dtype, dims, x.layout));
    Ok(())
}

/// `FFTC2RGradInferMeta` (x, axes, normalization, forward, last_dim_size):
/// the complex type of `x` in its layout; the last FFT axis holds
/// `last_dim_size / 2 + 1` (or `x`'s extent halved plus one, `-1` when
/// unknown).
fn fft_c2r_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axes = a.ints(1)?;
    let last_dim_size = a.int(4)?;
    let dtype = match x.dtype {
        DataType::Float32 => DataType::Complex64,
        DataType::Float64 => DataType::Complex128,
        d => {
            return Err(Bad(format!(
                "Unsupported data type {} for a complex counterpart",
                d.text()
            )))
        }
    };
    let axis = *axes
        .last()
        .ok_or_else(|| Bad("fft_c2r_grad needs at least one axis".into()))?;
    // `DDim::at` refuses a negative index as Paddle's does.
    let axis = usize::try_from(axis).map_err(|_| {
        Bad(format!(
            "Invalid DDim index to be accessed. The valid index is between 0 and {}, but \
             received index is {axis}.",
            x.dims.rank()
        ))
    })?;
    let mut dims = x.dims;
    let v = if last_dim_size > 0 {
        (last_dim_size / 2).wrapping_add(1)
    } else {
        match dims.at(axis)? {
            -1 => -1,
            n => n / 2 + 1,
        }
    };
    dims.set(axis, v)?;
    set(outs, 0, Meta::laid_out(dtype, dims, x.layout));
    Ok(())
}
