//! Functions of Paddle's `ternary.cc` whose result sizes depend on data
//! known only at run time: `GlobalGatherInferMeta`, `GlobalScatterInferMeta`
//! (expert-parallel exchange) and `FasterTokenizerInferMeta`.
//!
//! None has a Python builder in Paddle 3.3.1: they follow Paddle's source.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `GlobalGatherInferMeta` and `GlobalScatterInferMeta` (x, local_count,
/// global_count): `[-1, -1]` of x's data type, for a 2-D x.
pub(crate) fn global_exchange(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let r = x.dims.rank();
    if r != 2 {
        return Err(Bad(format!(
            "The input tensor's dimension must be 2. But received input's dimension = {r}."
        )));
    }
    set(outs, 0, Meta::new(x.dtype, DDim::new(&[-1, -1])?));
    Ok(())
}

/// `FasterTokenizerInferMeta` (vocab, text, text_pair, ...): token and
/// segment ids `[-1, -1]` int64.
pub(crate) fn faster_tokenizer(_a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let ids = Meta::new(DataType::Int64, DDim::new(&[-1, -1])?);
    set(outs, 0, ids.clone());
    set(outs, 1, ids);
    Ok(())
}
