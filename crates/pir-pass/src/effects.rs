//! Which ops may be removed or merged: the side-effect model the passes share.
//!
//! An op is *pure* when its registration has the `NoSideEffect` trait (the
//! op definitions give it to every op without `SideEffectTrait` or
//! `InplaceTrait`), it has no regions, and it is not one of the ops that make
//! a program's interface: `pd_op.data` (inputs), `builtin.parameter`
//! (weights — removing one would change the parameter file), `pd_op.fetch`,
//! `builtin.shadow_output`, `builtin.set_parameter` (outputs). Unregistered
//! ops are never pure: nothing is known about them.
//!
//! Whether a pure op's *values* may be merged, forwarded or moved is the
//! alias analysis' question ([`crate::alias`]): a pure op reading a buffer
//! that another op writes still depends on where it runs.

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
