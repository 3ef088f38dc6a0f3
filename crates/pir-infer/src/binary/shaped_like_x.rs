//! Functions of Paddle's `binary.cc` whose result is the first operand's
//! dims, data type and LoD: the dequantizers (`DequantizeAbsMaxInferMeta`,
//! `DequantizeLogInferMeta`, `FakeDequantizeMaxAbsInferMeta`) and
//! `BoxClipInferMeta` (its shape checks run only at run time).

use crate::args::Args;
use crate::meta::{with_lod, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `set_dtype(x)`, `share_dims(x)` and `share_lod(x)` on a fresh result.
pub(crate) fn dims_dtype_lod_of_x(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `ApplyPerChannelScaleInferMeta` (x, scales): x `[M, K]` scaled per
/// column by `scales` `[K]`; x's dims, data type and layout.
pub(crate) fn apply_per_channel_scale(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let scales = a.tensor(1)?;
    if x.dims.rank() != 2 {
        return Err(Bad(format!(
            "The rank of Input(x) must be 2, but received {}.",
            x.dims.rank()
        )));
    }
    if scales.dims.rank() != 1 {
        return Err(Bad(format!(
            "The rank of Input(scales) must be 1, but received {}.",
            scales.dims.rank()
        )));
    }
    let (k, s) = (x.dims.at(1)?, scales.dims.at(0)?);
    if k != s {
        // Paddle's message prints `x_dim[2]` and `scales_dim[1]`, which
        // are out of range; the extents compared are these.
        return Err(Bad(format!(
            "The second dim of Input(x) must be equal to the first dim of scales,but received {k} and {s}."
        )));
    }
    set(outs, 0, Meta::laid_out(x.dtype, x.dims, x.layout));
    Ok(())
}

/// `PruneGateByCapacityInferMeta` (gate_idx, expert_count, n_expert,
/// n_worker): the gate's dims and data type; `expert_count` must hold
/// `n_expert * n_worker` elements.
pub(crate) fn prune_gate_by_capacity(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let gate = a.tensor(0)?;
    let count = a.tensor(1)?;
    let n_expert = a.int(2)?;
    let n_worker = a.int(3)?;
    let n = count.dims.product();
    if n != n_expert * n_worker {
        return Err(Bad(format!(
            "The number of elements for expert_count is ( {n} ) incorrect. Because the number of expert_count must equal the product of n_worker ( {n_worker} ) and n_expert ( {n_expert} ). Please input appropriate expert_count again!"
        )));
    }
    set(outs, 0, Meta::new(gate.dtype, gate.dims));
    Ok(())
}

/// `YoloBoxHeadInferMeta` (x, anchors, class_num): x's dims and data type.
pub(crate) fn yolo_box_head(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::new(x.dtype, x.dims));
    Ok(())
}

/// `SoftmaxMaskFuseInferMeta` (x, mask): x's meta, for 4-D x and mask.
pub(crate) fn softmax_mask_fuse(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let mask = a.tensor(1)?;
    if x.dims.rank() != 4 {
        return Err(Bad(format!(
            "Input x must be in 4D dimension but received the dimension of X is {}",
            x.dims.rank()
        )));
    }
    if mask.dims.rank() != 4 {
        return Err(Bad(format!(
            "Input mask must be in 4D dimension but received the dimension of mask is {}",
            mask.dims.rank()
        )));
    }
    set(outs, 0, x);
    Ok(())
}
