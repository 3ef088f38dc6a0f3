//! Gradients that share the meta (dims, data type, layout, LoD) of forward
//! inputs: Paddle's `General*GradInferMeta` family and the functions built
//! on `share_meta` alone.

use super::untouched;
use crate::args::Args;
use crate::meta::Out;
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "GeneralUnaryGradInferMeta"
        | "FlashAttnQKVPackedGradInferMeta"
        | "MaxPoolWithIndexGradInferMeta"
        | "StridedUnChangedInferMeta" => unary,
        "GeneralTernaryGradInferMeta" | "LayerNormGradInferMeta" | "FlashAttnGradInferMeta" => {
            ternary_optional
        }
        "GeneralQuaternaryGradInferMeta" => quaternary,
        "GeneralQuinaryGradInferMeta" => quinary,
        "ConvTransposeGradInferMeta" | "Conv2dTransposeGradInferMeta" => binary,
        "Conv2dTransposeDoubleGradInferMeta" => conv2d_transpose_double_grad,
        "FusedDropoutAddGradInferMeta" => fused_dropout_add_grad,
        "IndexPutGradInferMeta" => index_put_grad,
        "IndexAddGradInferMeta" => index_add_grad,
        "GumbelSoftmaxGradInferMeta" => gumbel_softmax_grad,
        "SwiGLUGradInferMeta" => swiglu_grad,
        "DeformableConvGradInferMeta" => deformable_conv_grad,
        _ => return None,
    })
}

/// Shares the meta of required parameter `p` into result `r`.
fn share(a: &Args<'_>, outs: &mut [Out], p: usize, r: usize) -> Result<(), Bad> {
    set(outs, r, a.tensor(p)?);
    Ok(())
}

/// Shares the meta of optional parameter `p` into result `r` when present
/// (`if (dy && y) dy->share_meta(y)`); otherwise the result stays as built.
fn share_if(a: &Args<'_>, outs: &mut [Out], p: usize, r: usize) -> Result<(), Bad> {
    let m = a.opt_tensor(p)?.unwrap_or_else(untouched);
    set(outs, r, m);
    Ok(())
}

/// `GeneralUnaryGradInferMeta`, `StridedUnChangedInferMeta` (whose strides
/// the IR type does not hold): `dx` shares `x`.
fn unary(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    share(a, outs, 0, 0)
}

/// `ConvTransposeGradInferMeta` (via `GeneralBinaryGradInferMeta`): `dx`
/// shares `x`, `dfilter` shares `filter`.
fn binary(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    share(a, outs, 0, 0)?;
    share(a, outs, 1, 1)
}

/// `GeneralTernaryGradInferMeta`, `LayerNormGradInferMeta`,
/// `FlashAttnGradInferMeta`: `dx` shares `x`; `dy` and `dz` share `y` and
/// `z` when those are given.
fn ternary_optional(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    share(a, outs, 0, 0)?;
    share_if(a, outs, 1, 1)?;
    share_if(a, outs, 2, 2)
}

/// `GeneralQuaternaryGradInferMeta`: each gradient shares its input.
fn quaternary(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    for i in 0..4 {
        share(a, outs, i, i)?;
    }
    Ok(())
}

/// `GeneralQuinaryGradInferMeta`: each gradient shares its input.
fn quinary(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    for i in 0..5 {
        share(a, outs, i, i)?;
    }
    Ok(())
}

/// `Conv2dTransposeDoubleGradInferMeta` (x, filter, dout, ...): `dx`,
/// `dfilter` share `x` and `filter`, `ddout` shares `dout`.
fn conv2d_transpose_double_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    share(a, outs, 0, 0)?;
    share(a, outs, 1, 1)?;
    share(a, outs, 2, 2)
}

/// `FusedDropoutAddGradInferMeta` (seed_offset, out_grad): both gradients
/// share `out_grad`.
fn fused_dropout_add_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    share(a, outs, 1, 0)?;
    share(a, outs, 1, 1)
}

/// `IndexPutGradInferMeta` (x, indices, value, out_grad, accumulate).
fn index_put_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    share(a, outs, 0, 0)?;
    share(a, outs, 2, 1)
}

/// `IndexAddGradInferMeta` (index, add_value, out_grad, axis): `x_grad`
/// takes dims, data type, layout and LoD of `out_grad`, `add_value_grad`
/// those of `add_value`.
fn index_add_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    share(a, outs, 2, 0)?;
    share(a, outs, 1, 1)
}

/// `GumbelSoftmaxGradInferMeta` (out, out_grad, axis): the dims must agree;
/// `x_grad` shares `out_grad`.
fn gumbel_softmax_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let out = a.tensor(0)?;
    let dout = a.tensor(1)?;
    if out.dims != dout.dims {
        return Err(Bad(
            "Input(Out) and its gradients should have the same shape.".into(),
        ));
    }
    set(outs, 0, dout);
    Ok(())
}

/// `SwiGLUGradInferMeta` (x, y): `x_grad` shares `x`, `y_grad` shares `y`
/// when given.
fn swiglu_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    share(a, outs, 0, 0)?;
    share_if(a, outs, 1, 1)
}

/// `DeformableConvGradInferMeta` (x, offset, filter, mask, ...): the
/// ternary gradient of x, offset and filter; `mask_grad` shares `mask`
/// when given.
fn deformable_conv_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    share(a, outs, 0, 0)?;
    share(a, outs, 1, 1)?;
    share(a, outs, 2, 2)?;
    share_if(a, outs, 3, 3)
}
