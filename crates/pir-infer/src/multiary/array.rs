//! `AddNTensorArrayInferMeta` (Paddle's `multiary.cc`; op
//! `pd_op.add_n_array`): the element-wise sum of tensor arrays.

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `AddNTensorArrayInferMeta` (x): the first array's data type and layout;
/// dims are left alone. (Paddle falls back to `AddNInferMeta` when no
/// input is an array, which this op's list of arrays never is.)
pub(crate) fn add_n_array(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let x = xs
        .first()
        .ok_or_else(|| Bad("add_n_array of no arrays".into()))?;
    set(outs, 0, Meta::laid_out(x.dtype, DDim::default(), x.layout));
    Ok(())
}
