//! `MaskedFillInferMeta` and `ReduceAsInferMeta` (Paddle's `binary.cc`):
//! a fill broadcast over a mask, and a sum down to a target's shape.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `MaskedFillInferMeta` (x, mask, value): x's data type over the broadcast
/// of x and mask; the value's shape is not checked.
pub(crate) fn masked_fill(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let mask = a.tensor(1)?;
    let dims = crate::binary::broadcast(&x.dims, &mask.dims, -1)?;
    set(outs, 0, Meta::new(x.dtype, dims));
    Ok(())
}

/// `ReduceAsInferMeta` (x, target): the target's dims; x's data type (bool
/// and int32 summed as int64, as `sum` does) and layout.
pub(crate) fn reduce_as(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let target = a.tensor(1)?;
    let dtype = match x.dtype {
        DataType::Bool | DataType::Int32 => DataType::Int64,
        d => d,
    };
    set(outs, 0, Meta::laid_out(dtype, target.dims, x.layout));
    Ok(())
}
