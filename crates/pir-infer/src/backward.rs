//! InferMeta functions of gradient ops (Paddle's `infermeta/backward.cc`,
//! plus the gradient functions Paddle declares beside their forward ones),
//! and of the optimizer and collective ops no forward model uses.
//!
//! - [`general`]: gradients that share the meta of the forward inputs.
//! - [`shaped`]: gradients that set dims and data type one by one.
//! - [`lists`]: gradients of list operands and list results.
//! - [`sequence`]: gradients of the recurrent and sequence ops.
//! - [`optimizer`], [`optimizer_more`]: parameter updates (`sgd_`,
//!   `momentum_`, `adamw_`...).
//! - [`comm`]: collective communication ops.
//! - [`attention`]: gradients of fused attention.

mod attention;
mod comm;
mod general;
mod lists;
mod optimizer;
mod optimizer_more;
mod sequence;
mod shaped;

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{dims_only, untouched, DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The gradient InferMeta functions implemented here.
pub(crate) fn function(name: &str) -> Option<InferFn> {
    if name == "MeanGradInferMeta" {
        return Some(grad_like_first);
    }
    general::function(name)
        .or_else(|| shaped::function(name))
        .or_else(|| lists::function(name))
        .or_else(|| sequence::function(name))
        .or_else(|| optimizer::function(name))
        .or_else(|| optimizer_more::function(name))
        .or_else(|| comm::function(name))
        .or_else(|| attention::function(name))
}

/// `UnchangedInferMeta`-style gradients: `x_grad` like `x` (parameter 0).
pub(crate) fn grad_like_first(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, x);
    Ok(())
}

/// An output given dims and data type only (`set_dims` + `set_dtype` on a
/// fresh `IrTensor`): NCHW, no LoD.
fn fresh(dims: DDim, dtype: DataType) -> Meta {
    Meta::new(dtype, dims)
}

/// The number of tensors of the op's list operand `name` (Paddle's builders
/// size a list result by the list operand it is the gradient of).
fn list_len(a: &Args<'_>, name: &str) -> Result<usize, Bad> {
    let k = a
        .def
        .input_index(name)
        .ok_or_else(|| Bad(format!("no operand `{name}`")))?;
    let Some(v) = a.p.operand(a.op, k) else {
        return Ok(0);
    };
    let ty = a.p.value_type(v);
    if ty.is_null() {
        return Ok(0);
    }
    a.p.ctx()
        .type_as::<pir_core::builtin::VectorType>(ty)
        .map(|vec| vec.0.len())
        .ok_or_else(|| Bad(format!("operand `{name}` is not a list")))
}

#[cfg(test)]
mod optimizer_tests;
#[cfg(test)]
mod tests;
