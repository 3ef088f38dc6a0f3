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
//! Ops with effects Paddle's definitions leave undeclared (random draws,
//! communication, file writes) are registered with the side-effect trait
//! ([`pir_dialects::op_facts`]). What registration cannot know is the
//! question of an op's attributes: the ops with
//! [`OpFact::DrawsRandomInTraining`](pir_dialects::op_facts::OpFact) drop out
//! or draw a slope at random only in training (`is_test` false or absent),
//! and are never pure then ([`draws_random_numbers`]). Merging two such ops
//! would make two independent draws one, and folding one would freeze a
//! single draw into the model.
//!
//! Whether a pure op's *values* may be merged, forwarded or moved is the
//! alias analysis' question ([`crate::alias`]): a pure op reading a buffer
//! that another op writes still depends on where it runs.

use pir_core::builtin::op_names;
use pir_core::op_info::traits;
use pir_core::{OpId, Program};
pub use pir_dialects::op_facts::draws_random_numbers;
use pir_dialects::ops::{DataOp, FetchOp};

/// The ops that make a program's interface.
const INTERFACE_OPS: [&str; 5] = [
    DataOp::NAME,
    op_names::PARAMETER,
    FetchOp::NAME,
    op_names::SHADOW_OUTPUT,
    op_names::SET_PARAMETER,
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
        && !draws_random_numbers(program, op)
}
