//! Which ops may be removed or merged: the side-effect model the passes share.
//!
//! An op is *pure* when its registration has the `NoSideEffect` trait (the
//! op definitions give it to every op without `SideEffectTrait` or
//! `InplaceTrait`), it has no regions, and it is not one of the ops that make
//! a program's interface: `pd_op.data` (inputs), `builtin.parameter`
//! (weights — removing one would change the parameter file), `pd_op.fetch`,
//! `builtin.shadow_output`, `builtin.set_parameter` (outputs). Unregistered
//! ops are never pure: nothing is known about them.

use pir_core::op_info::traits;
use pir_core::{OpId, Program};

const INTERFACE_OPS: [&str; 5] = [
    "pd_op.data",
    "builtin.parameter",
    "pd_op.fetch",
    "builtin.shadow_output",
    "builtin.set_parameter",
];

/// Whether `op` may be removed when its results are unused, or merged with an identical op.
pub fn is_pure(program: &Program, op: OpId) -> bool {
    let Some(info) = program.op_info(op) else {
        return false;
    };
    info.has_trait(traits::NO_SIDE_EFFECT)
        && !info.has_trait(traits::SIDE_EFFECT)
        && !info.has_trait(traits::INPLACE)
        && !info.has_trait(traits::IS_TERMINATOR)
        && program.num_regions(op) == 0
        && !INTERFACE_OPS.contains(&program.op_name_str(op))
}

/// Whether some op may write `value` in place: a user whose definition maps
/// the operand to an in-place or view output, or an unregistered user (nothing
/// is known about it). Such a value is a buffer, not a pure value: it must not
/// be merged with another or forwarded through a copy.
pub fn may_be_written(program: &Program, value: pir_core::ValueId) -> bool {
    program.uses(value).any(|u| {
        let user = program.operand_owner(u);
        let Some(info) = program.op_info(user) else {
            return true;
        };
        let Some(def) = info
            .interface::<pir_dialects::op_def::OpDefinition>()
            .map(|d| d.0)
        else {
            return info.has_trait(traits::INPLACE);
        };
        let index = program.operand_index(u);
        let Some(input) = def.inputs.get(index) else {
            return info.has_trait(traits::INPLACE);
        };
        def.inplace
            .iter()
            .chain(def.view)
            .any(|&(_, i)| i == input.name)
    })
}
