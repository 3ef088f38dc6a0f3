//! Fused ops of Paddle's XPU (Kunlun) passes whose InferMeta keeps the
//! input's shape: elementwise, normalization and activation fusions, plus
//! `blha_get_max_len`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::binary::broadcast;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "FastWhereXPUInferMeta" => fast_where_xpu,
        "FastLayernormXPUInferMeta"
        | "AddCMulXPUInferMeta"
        | "LayerNormActXPUInferMeta"
        | "LayerNormalizeReluXPUInferMeta" => like_x_in_layout,
        "GroupNormalizeSiluXPUInferMeta" => crate::unary::unchanged,
        "AddActXPUInferMeta" => add_act_xpu,
        "AddLayernormXPUInferMeta" => add_layernorm_xpu,
        "BlhaGetMaxLenInferMeta" => blha_get_max_len,
        _ => return None,
    })
}

/// `FastWhereXPUInferMeta` (condition, x, y): dims and data type of `x`.
fn fast_where_xpu(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(1)?;
    set(outs, 0, Meta::new(x.dtype, x.dims));
    Ok(())
}

/// Dims, data type and layout of `x` (parameter 0), no LoD.
fn like_x_in_layout(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::laid_out(x.dtype, x.dims, x.layout));
    Ok(())
}

/// The fusion file's `BroadCastInferShape` with axis -1: equal dims stay,
/// others broadcast.
fn broadcast_dims(x: &DDim, y: &DDim) -> Result<DDim, Bad> {
    if x == y {
        Ok(*x)
    } else {
        broadcast(x, y, -1)
    }
}

/// `AddActXPUInferMeta` (x, x_max, y, y_max, act_type): the broadcast of
/// `x` and `y` with `x`'s data type, layout and LoD; `out_max` is `[6]` of
/// `x`'s type and layout.
fn add_act_xpu(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(2)?;
    let dims = broadcast_dims(&x.dims, &y.dims)?;
    set(outs, 0, x.with_dims(dims));
    set(outs, 1, Meta::laid_out(x.dtype, DDim::new(&[6])?, x.layout));
    Ok(())
}

/// `AddLayernormXPUInferMeta` (x, y, scale, bias, ...): the broadcast of
/// `x` and `y` with `x`'s data type, layout and LoD.
fn add_layernorm_xpu(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let dims = broadcast_dims(&x.dims, &y.dims)?;
    set(outs, 0, x.with_dims(dims));
    Ok(())
}

/// `BlhaGetMaxLenInferMeta`: two `[1]` int32 lengths.
fn blha_get_max_len(_a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let one = Meta::new(DataType::Int32, DDim::new(&[1])?);
    set(outs, 0, one.clone());
    set(outs, 1, one);
    Ok(())
}

// From Paddle's source: XPU ops have no CPU kernel to build them with.
#[cfg(test)]
mod tests {
    use crate::testing::types;

    #[test]
    fn add_act_xpu_broadcasts() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[-1,8,16],stop_gradient:[true]} : () -> tensor<-1x8x16xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"y\",place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>\n\
                 (%2, %3) = \"pd_op.add_act_xpu\" (%0, <<NULL VALUE>>, %1, <<NULL VALUE>>) {act_type:0,stop_gradient:[true,true]} : (tensor<-1x8x16xf32>, <<NULL TYPE>>, tensor<16xf32>, <<NULL TYPE>>) -> tensor<-1x8x16xf32>, tensor<6xf32>\n}\n";
        assert_eq!(types(t), ["tensor<-1x8x16xf32>", "tensor<6xf32>"]);
    }
}
