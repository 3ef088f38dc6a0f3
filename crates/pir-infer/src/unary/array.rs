//! Tensor-array functions of Paddle's `unary.cc`: `UnchangedArrayInferMeta`
//! (ops `pd_op.assign_array`, `assign_array_`), `CreateArrayLikeInferMeta`
//! and `ArrayPopInferMeta`.

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `UnchangedArrayInferMeta` (x): the tensor array's meta, shared.
pub(crate) fn unchanged_array(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, x);
    Ok(())
}

/// `CreateArrayLikeInferMeta` (x, val): an array of x's data type and
/// layout; its dims are left alone.
pub(crate) fn create_array_like(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::laid_out(x.dtype, DDim::default(), x.layout));
    Ok(())
}

/// `ArrayPopInferMeta` (array, index): `array_out` of the array's data
/// type and layout, the popped `out` of its data type; dims are left alone
/// (Paddle does not read an element's dims from the array).
pub(crate) fn array_pop(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let array = a.tensor(0)?;
    set(
        outs,
        0,
        Meta::laid_out(array.dtype, DDim::default(), array.layout),
    );
    set(outs, 1, Meta::unset_dims(array.dtype));
    Ok(())
}
