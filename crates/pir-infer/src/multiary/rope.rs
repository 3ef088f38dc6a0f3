//! `FusedRopeInferMeta` (Paddle's `multiary.cc`; op
//! `pd_op.fused_rotary_position_embedding`): rotary position embedding of
//! q, k and v in one op.
//!
//! Paddle's CPU build has no kernel for the op, so its builder refuses it
//! before inferring: this follows Paddle's source, not its output.

use crate::args::Args;
use crate::meta::{Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `FusedRopeInferMeta` (q, k, v, sin, cos, position_ids,
/// use_neox_rotary_style, time_major, rotary_emb_base): each output the
/// dims and data type of its input; without k (or v) that output gets only
/// q's data type. q must be 4-D.
pub(crate) fn fused_rope(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let q = a.tensor(0)?;
    if q.dims.rank() != 4 {
        return Err(Bad(format!(
            "Input should be a 4-D tensor of format [N, C, H, W] or [N, H, W, C], but got {}.",
            q.dims.rank()
        )));
    }
    set(outs, 0, Meta::new(q.dtype, q.dims));
    for (i, o) in [(1, 1), (2, 2)] {
        let m = match a.opt_tensor(i)? {
            Some(t) => Meta::new(t.dtype, t.dims),
            None => Meta::unset_dims(q.dtype),
        };
        set(outs, o, m);
    }
    Ok(())
}
