//! Ops with effects Paddle 3.3.1's definitions do not declare.
//!
//! The definitions give `SideEffectTrait` to `uniform`, `gaussian`,
//! `randint`, `dropout` and `send_v2`, but not to the ops below, which draw
//! random numbers on every run ([`RANDOM`]), or communicate with other
//! ranks, synchronise streams or write files ([`EXTERNAL`]). Registration
//! gives them the side-effect trait their definitions lack, so no pass
//! merges two draws into one (Paddle's own CSE does: two `bernoulli(p)` of
//! a program come out equal under `paddle.jit.load`), folds a draw into a
//! constant, or erases a `barrier` or `save_combine` nobody reads. Ops that
//! draw only in training (their `is_test` attribute) are the passes' own
//! question (`pir_pass::effects`).

/// Ops that draw random numbers on every run.
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

/// Ops that communicate with other ranks, synchronise streams or write
/// files.
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

/// Whether the op named `name` has an effect its definition does not
/// declare.
pub fn undeclared(name: &str) -> bool {
    RANDOM.contains(&name) || EXTERNAL.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::op_registry::op_def;
    use pir_core::op_info::traits;

    /// Every op named is defined without `SideEffectTrait` (one that gains
    /// it needs no entry) and registered with the side-effect trait.
    #[test]
    fn the_lists_name_defined_ops_and_registration_marks_them() {
        let ctx = crate::pd_op_context();
        for name in RANDOM.iter().chain(&EXTERNAL) {
            let def = op_def(name).unwrap_or_else(|| panic!("{name} is not defined"));
            assert!(!def.traits.contains(&"pir::SideEffectTrait"), "{name}");
            let info = ctx.op_info(ctx.symbol(name)).expect("registered");
            assert!(info.has_trait(traits::SIDE_EFFECT), "{name}");
            assert!(!info.has_trait(traits::NO_SIDE_EFFECT), "{name}");
        }
    }
}
