//! `UnchangedArrayInferMeta` (ops `pd_op.assign_array`, `assign_array_`).

use crate::args::Args;
use crate::meta::Out;
use crate::unary::set;
use crate::Bad;

/// `UnchangedArrayInferMeta` (x): the tensor array's meta, shared.
pub(crate) fn unchanged_array(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, x);
    Ok(())
}
