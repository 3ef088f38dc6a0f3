//! `WeightOnlyLinearInferMeta` (Paddle's `multiary.cc`): a linear layer
//! with int8 or int4 weights dequantized per channel or per group.
//!
//! Paddle's CPU build has no kernel for the op, so its builder refuses it
//! before inferring: this follows Paddle's source, not its output.

use crate::args::Args;
use crate::meta::{Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `WeightOnlyLinearInferMeta` (x, weight, bias, weight_scale,
/// weight_dtype, arch, group_size): x's dims with the last extent the
/// output size (the scale's first extent per channel, its second per
/// group); x's data type.
pub(crate) fn weight_only_linear(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let w = a.tensor(1)?;
    let scale = a.tensor(3)?;
    let weight_dtype = a.str(4)?;
    let group = a.int(6)?;
    if !matches!(group, -1 | 64 | 128) {
        return Err(Bad("group_size must be -1, 64 or 128.".into()));
    }
    let n = scale.dims.at(if group == -1 { 0 } else { 1 })?;
    if weight_dtype != "int8" && weight_dtype != "int4" {
        return Err(Bad("quant_method must be 'int8' or 'int4'.".into()));
    }
    let wd = w.dims.as_slice();
    if wd.len() != 2 {
        return Err(Bad("The input(weight) must be a 2D Tensor.".into()));
    }
    if wd[0] % 16 != 0 {
        return Err(Bad(format!(
            "The first dimension of input must be divisible by 16, but got[{}]",
            wd[0]
        )));
    }
    if wd[1] % 16 != 0 {
        return Err(Bad(format!(
            "The second dimension of input must be divisible by 16, but got[{}]",
            wd[1]
        )));
    }
    let r = x.dims.rank();
    let last = x.dims.at(r.wrapping_sub(1))?;
    if last != wd[1] {
        return Err(Bad(format!(
            "Input(X) dim[-1] and Input(Weight) dim[1] should be equal.But received Input(X) dim[-1]({last}) != Input(Weight) dim[1]({})",
            wd[1]
        )));
    }
    if let Some(bias) = a.opt_tensor(2)? {
        if bias.dims.rank() != 1 {
            return Err(Bad(
                "The size of Input(Bias)'s dimension should equal to 1UL.".into(),
            ));
        }
    }
    if group == -1 {
        if scale.dims.rank() != 1 {
            return Err(Bad(
                "The input(weight_scale) must be a 1D Tensor.in per-channel mode.".into(),
            ));
        }
    } else {
        if scale.dims.rank() != 2 {
            return Err(Bad(
                "The input(weight_scale) must be a 2D Tensor in groupwise mode.".into(),
            ));
        }
        let groups = (wd[1] + (group - 1)) / group;
        let s0 = scale.dims.at(0)?;
        if s0 != groups {
            return Err(Bad(format!(
                "The input(weight_scale) dim[0] must be equal to Input(weight) dim[1] / group_sizeBut receive {s0} and {groups}"
            )));
        }
    }
    let mut out = x.dims;
    out.set(r - 1, n)?;
    set(outs, 0, Meta::new(x.dtype, out));
    Ok(())
}
