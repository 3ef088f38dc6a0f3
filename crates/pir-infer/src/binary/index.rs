//! The element-wise indexing ops of advanced indexing (Paddle's `binary.cc`:
//! `IndexElementwiseGetInferMeta`, `IndexElementwisePutInferMeta`,
//! `IndexElementwisePutWithTensorInferMeta`).

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `IndexElementwiseGetInferMeta` (x, index, input_dims, input_strides,
/// index_dims, index_stride, slice_offset, accumulate, is_combined): the
/// result's dims are the `input_dims` attribute (the indexed view's shape the
/// front end computed), of x's data type.
pub(crate) fn index_elementwise_get(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let dims = a.ints(2)?;
    set(outs, 0, Meta::new(x.dtype, DDim::new(&dims)?));
    Ok(())
}

/// `IndexElementwisePutInferMeta` and `IndexElementwisePutWithTensorInferMeta`:
/// the result is x written in place, so it has x's dims and data type.
pub(crate) fn index_elementwise_put(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::new(x.dtype, x.dims));
    Ok(())
}
