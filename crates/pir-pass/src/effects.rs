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
//! Ops that draw random numbers are never pure, although Paddle 3.3.1's
//! definitions give `SideEffectTrait` only to some of them (`uniform`,
//! `gaussian`, `randint`, `dropout`...): `bernoulli`, `multinomial`,
//! `poisson`, `gumbel_softmax` and the others of [`RANDOM`] have no such
//! trait, and the training forms of the ops in [`RANDOM_UNLESS_TEST`] drop
//! out at random. Merging two of them would make two independent draws one
//! (Paddle's own CSE does: two `bernoulli(p)` come out equal), and folding
//! one would freeze a single draw into the model.
//!
//! Ops that communicate or write files are never pure either: Paddle's
//! definitions give `SideEffectTrait` to `send_v2` but not to `partial_send`,
//! `recv_v2`, `barrier`, the collectives or `save_combine` ([`EXTERNAL`]).
//! DCE would erase a `save_combine` or a `barrier` whose result nobody reads,
//! and a collective dropped or merged in one rank's program but not another's
//! leaves the other ranks waiting.
//!
//! Whether a pure op's *values* may be merged, forwarded or moved is the
//! alias analysis' question ([`crate::alias`]): a pure op reading a buffer
//! that another op writes still depends on where it runs.

use pir_core::op_info::traits;
use pir_core::{OpId, Program};

/// Ops that draw random numbers on every run but have no `SideEffectTrait`
/// in Paddle 3.3.1's definitions.
pub const RANDOM: [&str; 16] = [
    "pd_op.bernoulli",
    "pd_op.binomial",
    "pd_op.dirichlet",
    "pd_op.multinomial",
    "pd_op.poisson",
    "pd_op.standard_gamma",
    "pd_op.gumbel_softmax",
    "pd_op.gaussian_inplace",
    "pd_op.nce",
    "pd_op.tdm_sampler",
    "pd_op.top_p_sampling",
    "pd_op.dpsgd",
    "pd_op.graph_khop_sampler",
    "pd_op.graph_sample_neighbors",
    "pd_op.weighted_sample_neighbors",
    "pd_op.fused_dot_product_attention",
];

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

/// Ops that communicate with other ranks, synchronise streams or write
/// files but have no `SideEffectTrait` in Paddle 3.3.1's definitions.
pub const EXTERNAL: [&str; 24] = [
    "pd_op.all_gather",
    "pd_op.all_reduce",
    "pd_op.all_to_all",
    "pd_op.barrier",
    "pd_op.broadcast",
    "pd_op.reduce",
    "pd_op.reduce_scatter",
    "pd_op.c_allreduce_sum",
    "pd_op.c_concat",
    "pd_op.c_scatter",
    "pd_op.c_softmax_with_cross_entropy",
    "pd_op.c_softmax_with_multi_label_cross_entropy",
    "pd_op.mp_allreduce_sum",
    "pd_op.global_gather",
    "pd_op.global_scatter",
    "pd_op.partial_allgather",
    "pd_op.partial_recv",
    "pd_op.partial_send",
    "pd_op.recv_v2",
    "pd_op.comm_init_all",
    "pd_op.distributed_fused_lamb_init",
    "pd_op.sync_calc_stream",
    "pd_op.sync_comm_stream",
    "pd_op.save_combine",
];

/// Whether `op` draws random numbers although its definition declares no
/// side effect (module docs).
pub fn draws_random_numbers(program: &Program, op: OpId) -> bool {
    let name = program.op_name_str(op);
    if RANDOM.contains(&name) {
        return true;
    }
    if !RANDOM_UNLESS_TEST.contains(&name) {
        return false;
    }
    program.attr_bool(op, "is_test") != Some(true)
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
        && !EXTERNAL.contains(&program.op_name_str(op))
        && !draws_random_numbers(program, op)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every op of the two lists is registered and declares no side effect
    /// itself; one that gained `SideEffectTrait` would need no entry.
    #[test]
    fn the_lists_name_registered_ops_without_side_effect_traits() {
        let ctx = pir_dialects::pd_op_context();
        for name in RANDOM.iter().chain(&RANDOM_UNLESS_TEST).chain(&EXTERNAL) {
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
