//! InferMeta functions of three tensors (Paddle's `infermeta/ternary.cc`).

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::binary::broadcast;
use crate::meta::{Meta, Out};
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
    set(
        outs,
        0,
        Meta {
            dtype: x.dtype,
            dims: x.dims,
            layout: pir_core::builtin::DataLayout::NCHW,
            lod: x.lod,
        },
    );
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
    set(
        outs,
        0,
        Meta {
            dtype: x.dtype,
            dims: d,
            layout: pir_core::builtin::DataLayout::NCHW,
            lod: x.lod,
        },
    );
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

/// `GroupNormInferMeta` (x, scale, bias, epsilon, groups, data_format):
/// `y` like x; `mean` and `variance` `[N, groups]`, float32 for 16-bit x.
pub(crate) fn group_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let groups = a.int(4)?;
    if x.dims.rank() < 2 {
        return Err(Bad(format!("group_norm input of rank {}", x.dims.rank())));
    }
    if groups < 1 {
        return Err(Bad(format!("groups {groups} must be >= 1")));
    }
    let param = match x.dtype {
        DataType::BFloat16 | DataType::Float16 => DataType::Float32,
        d => d,
    };
    let stats = crate::unary::dd(&[x.dims.at(0)?, groups])?;
    set(outs, 1, Meta::new(param, stats));
    set(outs, 2, Meta::new(param, stats));
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

mod more;
pub(crate) use more::{
    accuracy, affine_channel, assign_pos, baddbmm, box_coder,
    c_softmax_with_multi_label_cross_entropy, fake_quant_moving_average_abs_max,
    fake_quantize_range_abs_max, instance_norm, linspace, moving_average_abs_max_scale,
    multiclass_nms, nll_loss, roi_align, roi_pool, send_u_recv, sequence_conv, spectral_norm,
    tdm_sampler, viterbi_decode,
};

#[cfg(test)]
mod more_tests;
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
