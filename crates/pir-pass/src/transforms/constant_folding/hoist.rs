//! `constants-as-params`: the constant makers left after folding become
//! parameters, loaded once instead of run on every execution (see the
//! module docs of `constant_folding`).

use pir_core::{InsertPoint, OpId, OperandId, Program, Type, ValueDef, ValueId};
use pir_params::{DType, Tensor};
use rustc_hash::FxHashMap;

use pir_dialects::op_facts::OpFact;

use super::{
    declare_parameter_type, fits, fully_known, maker_value, needs_exact_type, pass_error,
    MAX_HOISTED_ELEMENTS, PARAMETER_PREFIX,
};
use crate::alias::AliasAnalysis;
use crate::params;
use crate::pass::PassError;
use crate::transforms::{dense_dims, ops_under};

/// The parameters made for hoisted constants: one per distinct type and
/// content, at the top of the program in order of creation.
#[derive(Default)]
struct Hoisted {
    shared: FxHashMap<(Type, Vec<u8>), ValueId>,
    counter: usize,
    last: Option<OpId>,
}

impl Hoisted {
    /// The parameter holding `tensor` as type `ty`, made on first use.
    fn parameter(
        &mut self,
        p: &mut Program,
        ty: Type,
        tensor: Tensor,
    ) -> Result<ValueId, PassError> {
        let key = (ty, tensor.bytes().to_vec());
        if let Some(&v) = self.shared.get(&key) {
            return Ok(v);
        }
        let name = params::fresh_name(p, PARAMETER_PREFIX, &mut self.counter);
        // At the top of the program, in order: a parameter shared by
        // makers in different places dominates them all.
        let at = match self.last {
            Some(prev) => InsertPoint::After(prev),
            None => InsertPoint::BlockStart(p.top_block()),
        };
        let v = params::insert_parameter(p, at, &name, tensor)
            .map_err(|e| pass_error(e.to_string()))?;
        declare_parameter_type(p, v, ty);
        if let ValueDef::Result { op: param, .. } = p.value_def(v) {
            self.last = Some(param);
        }
        self.shared.insert(key, v);
        Ok(v)
    }
}

/// For an empty axes list `axes` that only full reductions read, the
/// operands reading it and the rank of each reduction's input (at least 1):
/// naming every axis instead reduces the same, and a non-empty list can be
/// a parameter.
fn full_reduction_uses(p: &Program, axes: ValueId) -> Option<Vec<(OperandId, usize)>> {
    p.uses(axes)
        .map(|u| {
            let op = p.operand_owner(u);
            if !OpFact::ReducesAllWhenAxesEmpty.holds(p, op) || p.operand_index(u) != 1 {
                return None;
            }
            let rank = dense_dims(p, p.operand(op, 0)?)?.len();
            (rank > 0).then_some((u, rank))
        })
        .collect()
}

/// The axes `0..rank` as a tensor of `dtype` (an integer type).
fn all_axes(dtype: DType, rank: usize) -> Option<Tensor> {
    let axes: Vec<i64> = (0..rank as i64).collect();
    match dtype {
        DType::Int64 => Tensor::from_slice(dtype, vec![rank as i64], &axes).ok(),
        DType::Int32 => {
            let axes: Vec<i32> = axes.iter().map(|&a| a as i32).collect();
            Tensor::from_slice(dtype, vec![rank as i64], &axes).ok()
        }
        _ => None,
    }
}

/// Replaces the constant makers under `root` whose results no one can tell
/// from a parameter by parameters (one per distinct type and content), and
/// erases them. An empty axes list read only by full reductions becomes the
/// list of every axis of each reader's input first. Returns how many makers
/// were replaced and how many the evaluator refused.
pub(super) fn hoist_makers(p: &mut Program, root: OpId) -> Result<(u64, u64), PassError> {
    let aliases = AliasAnalysis::new(p);
    let makers: Vec<OpId> = ops_under(p, root)
        .into_iter()
        .filter(|&op| OpFact::ConstantMaker.holds(p, op) && p.num_results(op) == 1)
        .collect();
    let mut made = Hoisted::default();
    let (mut hoisted, mut errors) = (0u64, 0u64);
    for op in makers {
        if p.is_erased(op) {
            continue;
        }
        let r = p.result(op, 0);
        // A read-only class may share the parameter's buffer: an element of
        // a `builtin.combine` (the dims of a shape) too.
        let facts = aliases.facts(r);
        if p.use_empty(r) || facts.written || facts.pinned {
            continue;
        }
        let tensor = match maker_value(p, op) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(_) => {
                errors += 1;
                continue;
            }
        };
        let ty = p.value_type(r);
        // An empty tensor (`full_int_array []`, the axes of a full
        // reduction) loads without a buffer, which Paddle's kernels reject.
        if tensor.numel() == 0 {
            let Some(uses) = full_reduction_uses(p, r) else {
                continue;
            };
            let Some(lists) = uses
                .iter()
                .map(|&(_, rank)| all_axes(tensor.dtype(), rank))
                .collect::<Option<Vec<Tensor>>>()
            else {
                continue;
            };
            for ((operand, _), axes) in uses.into_iter().zip(lists) {
                let ty = pir_params::bound::tensor_type(p.ctx(), axes.dtype(), axes.dims())
                    .map_err(|e| pass_error(e.to_string()))?;
                let v = made.parameter(p, ty, axes)?;
                p.set_operand_value(operand, Some(v));
            }
        } else {
            // A parameter for a type of unknown dims has its tensor's own
            // dims, which a reader needing the exact type cannot take.
            let all_take_it = fully_known(p, ty) || p.uses(r).all(|u| !needs_exact_type(p, u));
            if tensor.numel() > MAX_HOISTED_ELEMENTS || !fits(p, ty, &tensor) || !all_take_it {
                continue;
            }
            let Ok(tensor) = tensor.to_tensor() else {
                continue;
            };
            let v = made.parameter(p, ty, tensor)?;
            p.replace_all_uses_with(r, v);
        }
        p.erase_op(op)
            .map_err(|e| pass_error(format!("erasing a hoisted constant: {e}")))?;
        hoisted += 1;
    }
    Ok((hoisted, errors))
}
