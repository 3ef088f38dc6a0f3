//! Ops Paddle types by hand in `control_flow_op.cc` and `manual_op.cc`:
//! `if` and `while` (from their regions and operands) and the tensor-array
//! ops (an array's element meta follows what is written into it).

use pir_core::builtin::DenseTensorType;
use pir_core::{OpId, Program, Type};
use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{meta_of, DDim, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

fn yield_types(p: &Program, op: OpId, region: usize) -> Result<Vec<Type>, Bad> {
    if p.num_regions(op) <= region {
        return Err(Bad(format!("no region {region}")));
    }
    let r = p.op_region(op, region);
    let block = *p
        .region_blocks(r)
        .first()
        .ok_or_else(|| Bad("empty region".into()))?;
    let last = p
        .block_last_op(block)
        .ok_or_else(|| Bad("empty block".into()))?;
    Ok(p.operands(last)
        .map(|v| v.map_or(Type::NULL, |v| p.value_type(v)))
        .collect())
}

/// Two branch types unified as Paddle's `IfOp` does when the branches
/// disagree: dims that differ become `-1`.
pub(crate) fn unify(p: &Program, a: Type, b: Type) -> Type {
    if a == b {
        return a;
    }
    let ctx = p.ctx();
    match (
        ctx.type_as::<DenseTensorType>(a),
        ctx.type_as::<DenseTensorType>(b),
    ) {
        (Some(x), Some(y)) if x.dtype == y.dtype => {
            let dims: Box<[i64]> = if x.dims.len() == y.dims.len() {
                x.dims
                    .iter()
                    .zip(y.dims.iter())
                    .map(|(&m, &n)| if m == n { m } else { -1 })
                    .collect()
            } else {
                Box::new([-1])
            };
            ctx.intern_type(DenseTensorType { dims, ..x.clone() })
        }
        _ => a,
    }
}

/// `pd_op.if`: the types the true branch yields, unified with the false branch's.
pub(crate) fn if_op(p: &Program, op: OpId, outs: &mut [Out]) -> Result<(), Bad> {
    let t = yield_types(p, op, 0)?;
    let f = yield_types(p, op, 1).unwrap_or_else(|_| t.clone());
    if t.len() != outs.len() {
        return Err(Bad(format!(
            "true branch yields {} values for {} results",
            t.len(),
            outs.len()
        )));
    }
    for (i, o) in outs.iter_mut().enumerate() {
        let ty = match f.get(i) {
            Some(&b) if !b.is_null() => unify(p, t[i], b),
            _ => t[i],
        };
        *o = Out::Type(ty);
    }
    Ok(())
}

/// `pd_op.while`: the loop-carried operands' types (the condition excluded),
/// unified with what the body yields for them.
pub(crate) fn while_op(p: &Program, op: OpId, outs: &mut [Out]) -> Result<(), Bad> {
    let body = yield_types(p, op, 0).unwrap_or_default();
    for (i, o) in outs.iter_mut().enumerate() {
        let v = p
            .operand(op, i + 1)
            .ok_or_else(|| Bad(format!("no loop operand {i}")))?;
        let init = p.value_type(v);
        let ty = match body.get(i + 1) {
            Some(&b) if !b.is_null() => unify(p, init, b),
            _ => init,
        };
        *o = Out::Type(ty);
    }
    Ok(())
}

/// `pd_op.select_input`: the type of the first candidate (operand 1).
pub(crate) fn select_input(p: &Program, op: OpId, outs: &mut [Out]) -> Result<(), Bad> {
    let a = p
        .operand(op, 1)
        .map(|v| p.value_type(v))
        .ok_or_else(|| Bad("no candidates".into()))?;
    let b = p.operand(op, 2).map(|v| p.value_type(v)).unwrap_or(a);
    if let Some(o) = outs.get_mut(0) {
        *o = Out::Type(unify(p, a, b));
    }
    Ok(())
}

/// `CreateArrayInferMeta`: the data type; Paddle's `array_write_` then sets
/// the array value's element dims to those of the tensor written, so the
/// type seen in a program is that of the first write.
pub(crate) fn create_array(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let dtype = a.dtype(0)?;
    let p = a.p;
    let mut meta = Meta::new(dtype, DDim::default());
    if p.num_results(a.op) > 0 {
        let arr = p.result(a.op, 0);
        for u in p.uses(arr) {
            let user = p.operand_owner(u);
            if p.op_name_str(user) == "pd_op.array_write_" && p.operand_index(u) == 0 {
                if let Some(x) = p.operand(user, 1) {
                    if let Some(m) = meta_of(p.ctx(), p.value_type(x))? {
                        meta.dims = m.dims;
                        meta.layout = m.layout;
                    }
                }
                break;
            }
        }
    }
    set(outs, 0, meta);
    Ok(())
}

/// `ArrayWriteInferMeta`: the array takes the written tensor's meta.
pub(crate) fn array_write(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let arr = a.tensor(0)?;
    let x = a.tensor(1)?;
    set(outs, 0, Meta::laid_out(arr.dtype, x.dims, x.layout));
    Ok(())
}

/// `ArrayReadInferMeta`: a tensor of the element rank, all dims unknown.
pub(crate) fn array_read(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let arr = a.tensor(0)?;
    let dims = dd(&vec![-1; arr.dims.rank()])?;
    set(outs, 0, Meta::laid_out(arr.dtype, dims, arr.layout));
    Ok(())
}

/// `ArrayLengthInferMeta`: `[1]` int64.
pub(crate) fn array_length(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    a.tensor(0)?;
    set(outs, 0, Meta::new(DataType::Int64, dd(&[1])?));
    Ok(())
}

/// `ArrayToTensorInferMeta`: stacked (a new unknown axis) or concatenated
/// (the axis unknown); indices `[-1]` int32.
pub(crate) fn array_to_tensor(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let arr = a.tensor(0)?;
    let axis = a.int(1)?;
    let use_stack = a.bool(2)?;
    let mut v: Vec<i64> = arr.dims.as_slice().to_vec();
    let r = v.len() as i64;
    if use_stack {
        let ax = if axis < 0 { axis + r + 1 } else { axis };
        v.insert((ax.max(0) as usize).min(v.len()), -1);
    } else {
        let ax = if axis < 0 { axis + r } else { axis };
        if let Some(d) = v.get_mut(ax.max(0) as usize) {
            *d = -1;
        }
    }
    set(outs, 0, Meta::laid_out(arr.dtype, dd(&v)?, arr.layout));
    set(outs, 1, Meta::new(DataType::Int32, dd(&[-1])?));
    Ok(())
}
