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
//! ([`pir_dialects::undeclared_effects`]). What registration cannot know is
//! left here: the ops of [`RANDOM_UNLESS_TEST`] drop out or draw a slope at
//! random only in training (`is_test` false or absent), and are never pure
//! then. Merging two such ops would make two independent draws one, and
//! folding one would freeze a single draw into the model.
//!
//! Whether a pure op's *values* may be merged, forwarded or moved is the
//! alias analysis' question ([`crate::alias`]): a pure op reading a buffer
//! that another op writes still depends on where it runs.

use pir_core::op_info::traits;
use pir_core::{OpId, Program};

/// Ops that draw random numbers (dropout, a random slope) unless their
/// `is_test` attribute is true, and have no `SideEffectTrait`.
pub const RANDOM_UNLESS_TEST: [&str; 16] = [
    "pd_op.rrelu",
    "pd_op.rnn",
    "pd_op.cudnn_lstm",
    "pd_op.fused_dropout_add",
    "pd_op.fused_bias_dropout_residual_layer_norm",
    "pd_op.fused_attention",
    "pd_op.fused_feedforward",
    "pd_op.flash_attn",
    "pd_op.flash_attn_qkvpacked",
    "pd_op.flash_attn_unpadded",
    "pd_op.flash_attn_varlen_qkvpacked",
    "pd_op.flashmask_attention",
    "pd_op.memory_efficient_attention",
    "pd_op.fused_multi_transformer_int8",
    "pd_op.fused_multi_transformer_int8_xpu",
    "pd_op.fused_multi_transformer_xpu",
];

/// Whether `op` is one of [`RANDOM_UNLESS_TEST`] in training mode.
pub fn draws_random_numbers(program: &Program, op: OpId) -> bool {
    RANDOM_UNLESS_TEST.contains(&program.op_name_str(op))
        && program.attr_bool(op, "is_test") != Some(true)
}

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
        && !draws_random_numbers(program, op)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every op of the list is registered and declares no side effect
    /// itself; one that gained `SideEffectTrait` would need no entry.
    #[test]
    fn the_list_names_registered_ops_without_side_effect_traits() {
        let ctx = pir_dialects::pd_op_context();
        for name in RANDOM_UNLESS_TEST {
            let info = ctx.op_info(ctx.symbol(name));
            let info = info.unwrap_or_else(|| panic!("{name} is not registered"));
            assert!(
                !info.has_trait(traits::SIDE_EFFECT),
                "{name} has SideEffectTrait"
            );
            assert!(info.has_trait(traits::NO_SIDE_EFFECT), "{name}");
        }
    }
}
