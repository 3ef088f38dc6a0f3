//! `trim_broadcast_constants`: a parameter read only as the smaller operand
//! of element-wise binary ops loses its leading unit dims (`1x6x1x1` →
//! `6x1x1`). The result of every reader stays the same, since a missing
//! leading dim broadcasts exactly as a unit one does.
//!
//! Why: Paddle's CPU kernels of these ops (`funcs::ElementwiseCompute`)
//! right-align the smaller operand and take a fast row/column loop when its
//! dims, trailing unit dims trimmed, match a run of the larger operand's
//! dims. A leading unit dim facing a larger dim breaks that match and sends
//! the op to the general broadcast, which computes an index per element.
//! That is the shape of a convolution's bias (`reshape(bias, [1,-1,1,1])`,
//! folded into a constant): measured with Paddle 3.3.1 on one CPU thread,
//! `add` of `2x6x28x28` and `1x6x1x1` takes 66 µs, of `2x6x28x28` and
//! `6x1x1` 7.5 µs. Dropping leading unit dims never leaves the fast loop:
//! where the larger operand's dim is 1 too, both shapes match the same run.
//!
//! Only parameters with loaded tensors change (the tensor keeps its bytes
//! and gets the new dims), and only when every reader qualifies: an
//! element-wise binary op (`broadcasts`; the CPU
//! kernels of the arithmetic, comparison, logical and bitwise ones broadcast
//! through `ElementwiseCompute`, and for the others trimming changes
//! nothing) with two
//! operands whose other operand has at least the parameter's rank (so no
//! reader's result changes), and not as the written operand of an in-place
//! op.

use pir_core::builtin::DenseTensorType;
use pir_core::op_info::TraitId;
use pir_core::{Attribute, OpId, Program, ValueId};
use pir_dialects::op_facts::OpFact;
use rustc_hash::FxHashMap;

use crate::pass::{Changed, Pass, PassResult, PassRun, Registered};
use crate::registry::PassInfo;
use crate::transforms::dense_dims;

/// The `trim_broadcast_constants` pass.
pub const INFO: PassInfo = PassInfo {
    argument: "trim_broadcast_constants",
    description: "drop the leading unit dims of parameters read only by element-wise binary ops, \
                  so Paddle's CPU kernels broadcast them with their fast loop",
    options: &["keep-params"],
    make: |o| {
        Ok(Box::new(TrimBroadcastConstants {
            keep_params: o.take_bool("keep-params", false)?,
        }))
    },
};

/// The `trim_broadcast_constants` pass.
#[derive(Debug, Default)]
pub struct TrimBroadcastConstants {
    /// Leave the parameters as they are (`pir opt --keep-params`).
    pub keep_params: bool,
}

impl Registered for TrimBroadcastConstants {
    const INFO: PassInfo = INFO;
}

impl Pass for TrimBroadcastConstants {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        // Parameters live in the top block of the module.
        if self.keep_params || root != program.module_op() {
            return Ok(Changed::No);
        }
        let params: Vec<OpId> = program
            .block_ops(program.top_block())
            .filter(|&op| program.op_name_str(op) == "builtin.parameter")
            .collect();
        let shaped = |op: OpId| {
            dense_dims(program, program.result(op, 0))
                .is_some_and(|d| without_leading_ones(d).is_some())
        };
        if !params.iter().any(|&op| shaped(op)) {
            cx.statistics.add("parameters trimmed", 0);
            return Ok(Changed::No);
        }
        // Another parameter op reading the same name would keep the old dims.
        // Names are interned attributes: equal names, equal handles.
        let key = program.ctx().lookup_symbol("parameter_name");
        let name_of = |op: OpId| key.and_then(|k| program.ctx().dict_get(program.attrs(op), k));
        let mut ops_per_name: FxHashMap<Attribute, u32> = FxHashMap::default();
        for &op in &params {
            if let Some(name) = name_of(op) {
                *ops_per_name.entry(name).or_default() += 1;
            }
        }
        let single: Vec<OpId> = params
            .iter()
            .copied()
            .filter(|&op| shaped(op) && name_of(op).and_then(|n| ops_per_name.get(&n)) == Some(&1))
            .collect();
        let binary = program.ctx().trait_id("pir::BinaryElementWiseTrait");
        let mut trimmed = 0u64;
        for op in single {
            if trim(program, binary, op) {
                trimmed += 1;
            }
        }
        cx.statistics.add("parameters trimmed", trimmed);
        Ok(Changed::from(trimmed > 0))
    }
}

/// The dims of `dims` without its leading unit dims, when there are some to
/// drop and a dim other than 1 is left (an all-ones operand already takes
/// the fast loop).
fn without_leading_ones(dims: &[i64]) -> Option<&[i64]> {
    let lead = dims.iter().take_while(|&&d| d == 1).count();
    (lead > 0 && lead < dims.len()).then(|| &dims[lead..])
}

/// Whether `op` broadcasts its tensor operands element-wise: it has
/// Paddle's `BinaryElementWiseTrait` (`binary`) or
/// [`OpFact::Broadcasts`].
fn broadcasts(p: &Program, op: OpId, binary: TraitId) -> bool {
    p.op_info(op).is_some_and(|i| i.has_trait(binary)) || OpFact::Broadcasts.holds(p, op)
}

/// Whether `op` reads `v` (of rank `rank`) where `v` may lose leading unit
/// dims without changing `op`'s result (module docs).
fn reader_allows(p: &Program, binary: TraitId, op: OpId, v: ValueId, rank: usize) -> bool {
    if !broadcasts(p, op, binary) || p.num_operands(op) != 2 {
        return false;
    }
    let in_place = p.op_name_str(op).ends_with('_');
    let (x, y) = (p.operand(op, 0), p.operand(op, 1));
    let other = match (x == Some(v), y == Some(v)) {
        (false, true) => x,
        (true, false) if !in_place => y,
        _ => return false,
    };
    other
        .and_then(|o| dense_dims(p, o))
        .is_some_and(|d| d.len() >= rank)
}

/// Trims the parameter of `op` (the only parameter op of its name) when it
/// qualifies; returns whether it did.
fn trim(p: &mut Program, binary: TraitId, op: OpId) -> bool {
    let v = p.result(op, 0);
    let Some(name) = crate::params::parameter_name(p, op).map(str::to_owned) else {
        return false;
    };
    let Some(dims) = dense_dims(p, v) else {
        return false;
    };
    let Some(kept) = without_leading_ones(dims).map(<[i64]>::to_vec) else {
        return false;
    };
    let rank = dims.len();
    let readers: Vec<OpId> = p.uses(v).map(|u| p.operand_owner(u)).collect();
    if readers.is_empty()
        || !readers
            .iter()
            .all(|&r| reader_allows(p, binary, r, v, rank))
    {
        return false;
    }
    let Some(tensor) = crate::params::parameter_tensor(p, op) else {
        return false;
    };
    let Ok(reshaped) = pir_params::Tensor::new(tensor.dtype(), kept.clone(), tensor.data().clone())
    else {
        return false;
    };
    let ty = {
        let ctx = p.ctx();
        let Some(old) = ctx.type_as::<DenseTensorType>(p.value_type(v)) else {
            return false;
        };
        ctx.intern_type(DenseTensorType {
            dtype: old.dtype,
            dims: kept.into(),
            layout: old.layout,
            lod: old.lod.clone(),
            offset: old.offset,
        })
    };
    pir_params::bound::bind_typed(p, &name, ty, reshaped);
    p.set_value_type(v, ty);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_ones_are_dropped_when_another_dim_is_left() {
        assert_eq!(without_leading_ones(&[1, 6, 1, 1]), Some(&[6, 1, 1][..]));
        assert_eq!(without_leading_ones(&[1, 1, 28]), Some(&[28][..]));
        assert_eq!(without_leading_ones(&[6, 1, 1]), None);
        assert_eq!(without_leading_ones(&[1, 1]), None);
        assert_eq!(without_leading_ones(&[]), None);
    }
}
