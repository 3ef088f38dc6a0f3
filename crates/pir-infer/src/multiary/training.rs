//! Training-step functions of Paddle's `multiary.cc` over lists of
//! tensors: `UpdateLossScalingInferMeta` (dynamic loss scaling of mixed
//! precision) and `CoalesceTensorInferMeta` (one buffer for many tensors).

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `UpdateLossScalingInferMeta` (x, found_infinite, prev_loss_scaling,
/// in_good_steps, in_bad_steps): each `out` with its x's dims and data
/// type; `loss_scaling` `[1]` with no data type set (the builder's fresh
/// tensor is float32); the step counters `[1]` int32.
pub(crate) fn update_loss_scaling(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(xs.iter().map(|x| Meta::new(x.dtype, x.dims)).collect());
    }
    let one = DDim::new(&[1])?;
    set(outs, 1, Meta::new(DataType::Float32, one));
    set(outs, 2, Meta::new(DataType::Int32, one));
    set(outs, 3, Meta::new(DataType::Int32, one));
    Ok(())
}

/// Paddle's `SizeOf`: bytes per element.
fn size_of(d: DataType) -> Result<u64, Bad> {
    Ok(match d {
        DataType::Bool | DataType::Int8 | DataType::UInt8 => 1,
        DataType::Int16 | DataType::Float16 | DataType::BFloat16 => 2,
        DataType::Int32 | DataType::Float32 => 4,
        DataType::Int64 | DataType::Float64 | DataType::Complex64 => 8,
        DataType::Complex128 => 16,
        d => return Err(Bad(format!("no element size for data type {}", d.text()))),
    })
}

/// `CoalesceTensorInferMeta` (input, dtype, copy_data, set_constant,
/// persist_output, constant, use_align, align_size, size_of_dtype,
/// concated_shapes, concated_ranks): each `output` with its input's dims,
/// data type and layout; `fused_output` `[numel]` of `dtype` only when
/// aligning (`use_align` and a positive `align_size`), numel summing each
/// input's element count rounded up to `align_size` bytes. Paddle computes
/// in `size_t`, so an unknown extent wraps around, as here.
pub(crate) fn coalesce_tensor(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let dtype = a.dtype(1)?;
    let use_align = a.bool(6)?;
    let align = a.int(7)?;
    let mut elem = a.int(8)?;
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(
            xs.iter()
                .map(|x| Meta::laid_out(x.dtype, x.dims, x.layout))
                .collect(),
        );
    }
    if elem == -1 {
        elem = size_of(dtype)? as i64;
    }
    if use_align && align > 0 {
        let (elem, align) = (elem as u64, align as u64);
        if elem == 0 {
            return Err(Bad("size_of_dtype is 0".into()));
        }
        let mut numel: i64 = 0;
        for x in &xs {
            let bytes = (x.dims.product() as u64).wrapping_mul(elem);
            let rem = bytes % align;
            let aligned = if rem == 0 {
                bytes
            } else {
                bytes.wrapping_add(align - rem)
            };
            numel = numel.wrapping_add((aligned / elem) as i64);
        }
        set(outs, 1, Meta::new(dtype, DDim::new(&[numel])?));
    }
    Ok(())
}
