//! InferMeta functions of gradient ops (Paddle's `infermeta/backward.cc`).

use crate::args::Args;
use crate::meta::Out;
use crate::unary::set;
use crate::Bad;

/// `UnchangedInferMeta`-style gradients: `x_grad` like `x` (parameter 0).
pub(crate) fn grad_like_first(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, x);
    Ok(())
}
