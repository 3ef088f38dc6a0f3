//! `HashInferMeta` (Paddle's `unary.cc`): `num_hash` hashes of each row of
//! ids; and `BarrierInferMeta`, which sets nothing.

use crate::args::Args;
use crate::meta::{with_lod, DDim, Out};
use crate::unary::set;
use crate::Bad;

/// `HashInferMeta` (x, num_hash, mod_by): x `[N, K]` gives
/// `[N, num_hash, 1]` (Paddle's `HashOutputSize`), x's data type and LoD.
pub(crate) fn hash(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let num_hash = a.int(1)?;
    let d = x.dims.as_slice();
    if d.len() != 2 {
        return Err(Bad("The input of hash_op's dimensions must be 2".into()));
    }
    set(
        outs,
        0,
        with_lod(&x, x.dtype, DDim::new(&[d[0], num_hash, 1])?),
    );
    Ok(())
}

/// `BarrierInferMeta` (x): Paddle's function is empty; the result keeps
/// the builder's fresh tensor.
pub(crate) fn barrier(_a: &Args<'_>, _outs: &mut [Out]) -> Result<(), Bad> {
    Ok(())
}
