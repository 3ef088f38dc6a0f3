//! `RecvV2InferMeta` (Paddle's `nullary.cc`): a tensor received from
//! another rank.

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `RecvV2InferMeta` (ring_id, dynamic_shape, peer, out_shape, dtype): the
/// data type always; the dims `out_shape` only for a static shape (every
/// extent at least 1), else left alone.
pub(crate) fn recv_v2(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let ring_id = a.int(0)?;
    let dynamic = a.bool(1)?;
    let peer = a.int(2)?;
    let shape = a.ints(3)?;
    let dtype = a.dtype(4)?;
    if peer < 0 {
        return Err(Bad(format!(
            "The peer ({peer}) for recv_v2 op must be non-negative."
        )));
    }
    if ring_id < 0 {
        return Err(Bad(format!(
            "The ring_id ({ring_id}) for recv_v2 op must be non-negative."
        )));
    }
    // Paddle 3.3.1 accepts an empty `out_shape` with a dynamic shape.
    let dims = if dynamic {
        DDim::default()
    } else {
        if shape.is_empty() {
            return Err(Bad(
                "The size of the output shape must be greater than 0 but the value given is 0."
                    .into(),
            ));
        }
        if let Some((i, v)) = shape.iter().enumerate().find(|(_, &v)| v < 1) {
            return Err(Bad(format!(
                "The shape attribute for recv_v2 must be set explicitly, but the {i}th element is {v} which is less than 1. Or dynamic_shape should be set to True for both send_v2 and recv_v2."
            )));
        }
        DDim::new(&shape)?
    };
    set(outs, 0, Meta::new(dtype, dims));
    Ok(())
}
