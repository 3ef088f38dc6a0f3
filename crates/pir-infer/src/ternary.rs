//! InferMeta functions of three tensors (Paddle's `infermeta/ternary.cc`).

use pir_core::builtin::DataLayout;
use pir_dialects::pd_op::DataType;

use crate::args::{is_nchw_name, Args};
use crate::binary::broadcast;
use crate::meta::{with_lod, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `LayerNormInferMeta`: mean and variance keep the dims before the axis.
pub(crate) fn layer_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.int(4)?;
    let r = x.dims.rank();
    if axis <= 0 || axis as usize >= r {
        return Err(Bad(format!(
            "begin_norm_axis {axis} out of range for rank {r}"
        )));
    }
    let before = x.dims.slice(0, axis as usize)?;
    let param = match x.dtype {
        DataType::BFloat16 | DataType::Float16 => DataType::Float32,
        d => d,
    };
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    set(outs, 1, Meta::new(param, before));
    set(outs, 2, Meta::new(param, before));
    Ok(())
}

/// `WhereInferMeta`: the condition's... broadcast of all three.
pub(crate) fn where_(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let c = a.tensor(0)?;
    let x = a.tensor(1)?;
    let y = a.tensor(2)?;
    let d = broadcast(&broadcast(&c.dims, &x.dims, -1)?, &y.dims, -1)?;
    set(outs, 0, Meta::new(x.dtype, d));
    Ok(())
}

/// `LerpInferMeta`: broadcast of the three.
pub(crate) fn lerp(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let w = a.tensor(2)?;
    let d = broadcast(&broadcast(&x.dims, &y.dims, -1)?, &w.dims, -1)?;
    set(outs, 0, with_lod(&x, x.dtype, d));
    Ok(())
}

/// `AddmmInferMeta`: `[x.dims[0], y.dims[1]]`.
pub(crate) fn addmm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let x = a.tensor(1)?;
    let y = a.tensor(2)?;
    let d = crate::unary::dd(&[x.dims.at(0)?, y.dims.at(1)?])?;
    set(outs, 0, Meta::new(input.dtype, d));
    Ok(())
}

/// `GroupNormInferMeta` (x, scale, bias, epsilon, groups, data_format),
/// built with `is_runtime = false`: `groups`, `scale` and `bias` are
/// checked only when the channel dim is known; an unknown channel dim of
/// `y` comes from `scale.dims[0]` (else `bias.dims[0]`) when positive.
/// `mean` and `variance` are `[N, groups]`, float32 for 16-bit x.
pub(crate) fn group_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let scale = a.opt_tensor(1)?;
    let bias = a.opt_tensor(2)?;
    let groups = a.int(4)?;
    let format = a.str(5)?;
    let d = x.dims.as_slice();
    let r = d.len();
    if r < 2 {
        return Err(Bad(format!(
            "The Input(X)'s dimension of Op(group_norm) must be greater than 1. But received: {r}-D Tensor, which shape is [{d:?}]."
        )));
    }
    let c_axis = if is_nchw_name(format)? { 1 } else { r - 1 };
    let channels = d[c_axis];
    if channels != -1 {
        if groups > channels {
            return Err(Bad(format!(
                "The Attr(groups) of Op(group_norm) must be less than or equal to the number of channels. But received: groups is [{groups}], channels is [{channels}], the Attr(data_layout) is [{format}]. The error may come from wrong data_layout setting."
            )));
        }
        if groups < 1 {
            return Err(Bad(format!(
                "The Attr(groups) of Op(group_norm) must be greater than or equal to 1. But received: groups is [{groups}]."
            )));
        }
        if channels % groups != 0 {
            return Err(Bad(format!(
                "Expected number of channels in input to be divisible by num_groups, but got input channel is {channels} and num_groups is {groups}"
            )));
        }
        for (m, what) in [(&scale, "Scale"), (&bias, "Bias")] {
            let Some(m) = m else { continue };
            if m.dims.rank() != 1 {
                return Err(Bad(format!(
                    "The Input({what}) of Op(group_norm) should be 1-D Tensor. But received: {}-D Tensor, the shape of Input({what}) is [{:?}].",
                    m.dims.rank(),
                    m.dims.as_slice()
                )));
            }
            if m.dims.at(0)? != channels {
                return Err(Bad(format!(
                    "The Input({what})'s first dimension size of Op(group_norm) must be equal to the number of channels. But received: the Input({what})'s first dimension size is [{}], the channels is [{channels}], the Attr(data_layout) is [{format}]. The error may come from wrong data_layout setting.",
                    m.dims.at(0)?
                )));
            }
        }
    }
    let mut y = x.dims;
    if channels < 0 {
        // `scale` wins when given, even with an unknown first dim.
        let from = scale.as_ref().or(bias.as_ref());
        let c = from.and_then(|m| m.dims.as_slice().first().copied());
        if let Some(c) = c.filter(|&c| c > 0) {
            y.set(c_axis, c)?;
        }
    }
    let param = match x.dtype {
        DataType::BFloat16 | DataType::Float16 => DataType::Float32,
        d => d,
    };
    let stats = crate::unary::dd(&[d[0], groups])?;
    set(outs, 1, Meta::new(param, stats));
    set(outs, 2, Meta::new(param, stats));
    set(
        outs,
        0,
        Meta {
            dims: y,
            layout: DataLayout::NCHW,
            ..x
        },
    );
    Ok(())
}

mod attention;
mod collective;
mod detection;
mod recommendation;
pub(crate) use attention::{
    calc_reduced_attn_scores, flash_attn, flash_attn_qkvpacked, flash_attn_v3,
};
pub(crate) use collective::{faster_tokenizer, global_exchange};
pub(crate) use detection::collect_fpn_proposals;
pub(crate) use recommendation::rank_attention;
mod more;
pub(crate) use more::{
    accuracy, affine_channel, assign_pos, baddbmm, box_coder,
    c_softmax_with_multi_label_cross_entropy, fake_quant_moving_average_abs_max,
    fake_quantize_range_abs_max, instance_norm, linspace, moving_average_abs_max_scale,
    multiclass_nms, nll_loss, roi_align, roi_pool, send_u_recv, sequence_conv, spectral_norm,
    tdm_sampler, viterbi_decode,
};

test_modules! {
    mod attention_tests;
    mod collective_tests;
    mod detection_tests;
    mod more_tests;
    mod norm_tests;
    mod recommendation_tests;
}
#[cfg(test)]
mod tests {
    use crate::testing::types;

    #[test]
    fn group_norm_statistics_are_n_by_groups() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float16,name:\"x\",place:Place(undefined:0),shape:[-1,8,4,4],stop_gradient:[false]} : () -> tensor<-1x8x4x4xf16>\n\
                 (%1, %2, %3) = \"pd_op.group_norm\" (%0, <<NULL VALUE>>, <<NULL VALUE>>) {epsilon:1e-05,groups:4,data_format:\"NCHW\",stop_gradient:[false,false,false]} : (tensor<-1x8x4x4xf16>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x8x4x4xf16>, tensor<-1x4xf32>, tensor<-1x4xf32>\n}\n";
        assert_eq!(
            types(t),
            [
                "tensor<-1x8x4x4xf16>",
                "tensor<-1x4xf32>",
                "tensor<-1x4xf32>"
            ]
        );
    }
}
