//! `IndexPutInferMeta` (Paddle's `multiary.cc`): `x[indices] = value`.

use crate::args::Args;
use crate::meta::Out;
use crate::unary::set;
use crate::Bad;

/// `IndexPutInferMeta` (x, indices, value, accumulate): x's meta, for an x
/// of rank below 7 (the kernels' limit).
pub(crate) fn index_put(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let r = x.dims.rank();
    if r >= 7 {
        return Err(Bad(format!(
            "The rank of input should be less than 7, but received {r}."
        )));
    }
    set(outs, 0, x);
    Ok(())
}
