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

/// Paddle's `SizeOf`: bytes per element of a data type (also what the
/// symbolic shape rule of `coalesce_tensor` aligns by).
pub fn size_of(d: DataType) -> Result<u64, Bad> {
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

/// `DistributedFusedLambInitInferMeta` (param, grad, beta1, beta2,
/// apply_weight_decay, alignment, rank, nranks): only data types, the dims
/// being known once the parameters are fused at run time: the moments,
/// beta powers and global scale float32, the offsets and parameter info
/// int32, the step int64; `param_out` and `grad_out` of each parameter's
/// and gradient's type, `master_param_out` float32. The four fused buffers
/// (optional) are left alone.
pub(crate) fn distributed_fused_lamb_init(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let params = a.tensors(0)?;
    let grads = a.tensors(1)?;
    let typed = |d: DataType| Meta::unset_dims(d);
    for i in 4..8 {
        set(outs, i, typed(DataType::Float32));
    }
    for i in 8..13 {
        set(outs, i, typed(DataType::Int32));
    }
    let lists = [
        params.iter().map(|p| typed(p.dtype)).collect(),
        params.iter().map(|_| typed(DataType::Float32)).collect(),
        grads.iter().map(|g| typed(g.dtype)).collect(),
    ];
    for (o, list) in outs.iter_mut().skip(13).zip(lists) {
        *o = Out::List(list);
    }
    set(outs, 16, typed(DataType::Float32));
    set(outs, 17, typed(DataType::Int64));
    Ok(())
}

/// `SparseMomentumInferMeta` (param, grad, velocity, index, learning_rate):
/// the outputs take the parameter's dims (no data type is set: the
/// builder's fresh tensors are float32); the learning rate must hold one
/// element and the velocity match the parameter.
pub(crate) fn sparse_momentum(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let velocity = a.tensor(2)?;
    let lr = a.tensor(4)?;
    let n = lr.dims.product();
    if n != 1 {
        return Err(Bad(format!(
            "Learning_rate should be a scalar. But Received LearningRate's dim [{n}]"
        )));
    }
    if param.dims != velocity.dims {
        return Err(Bad(format!(
            "Param and Velocity of SparseMomentumOp should have the same dimension. But received Param's dim [{:?}] and Velocity [{:?}].",
            param.dims.as_slice(),
            velocity.dims.as_slice()
        )));
    }
    for i in 0..3 {
        set(outs, i, Meta::new(DataType::Float32, param.dims));
    }
    Ok(())
}
