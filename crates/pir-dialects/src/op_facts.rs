//! Facts about `pd_op` ops that Paddle 3.3.1's definitions do not state,
//! declared once here and registered as traits of the ops.
//!
//! The definitions give ops Paddle's own traits (`UnaryElementWiseTrait`,
//! `SideEffectTrait`, …). What passes and analyses also need to know — which
//! ops keep their input's batch dim, which broadcast like a binary
//! element-wise op without saying so, which draw random numbers — is a fact
//! of the op, not of a pass: each [`OpFact`] names its ops below, and
//! registration gives every such op the fact's trait
//! ([`OpFact::trait_name`]), so a pass asks the op
//! (`info.has_trait(fact.id(ctx))`, [`OpFact::holds`]) instead of keeping a
//! list. Facts that make an op impure ([`OpFact::DrawsRandom`],
//! [`OpFact::ExternalEffect`]) also give it `SideEffectTrait`.

use pir_core::op_info::TraitId;
use pir_core::{IrContext, OpId, Program};

use crate::op_name_hash::first_slot;

/// Declares the facts, their trait names, documentation and ops, once.
macro_rules! facts {
    ($(
        $(#[$doc:meta])*
        $fact:ident = $trait_name:literal: [$($op:literal),* $(,)?];
    )*) => {
        /// A fact about ops, registered as a trait (module docs).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum OpFact {
            $($(#[$doc])* $fact,)*
        }

        impl OpFact {
            /// Every fact.
            pub const ALL: &'static [OpFact] = &[$(OpFact::$fact),*];

            /// The name of the trait that carries the fact.
            pub const fn trait_name(self) -> &'static str {
                match self {
                    $(OpFact::$fact => $trait_name,)*
                }
            }

            /// The ops the fact holds for.
            pub const fn ops(self) -> &'static [&'static str] {
                match self {
                    $(OpFact::$fact => &[$($op),*],)*
                }
            }
        }
    };
}

facts! {
    /// The first result has the leading (batch) dim of the first operand:
    /// batch-first layers (convolutions, pools, norms, interpolations) and
    /// shape-keeping ops without Paddle's element-wise trait.
    KeepsLeadingDim = "pir::KeepsLeadingDimFact": [
        "pd_op.conv2d",
        "pd_op.depthwise_conv2d",
        "pd_op.conv2d_transpose",
        "pd_op.depthwise_conv2d_transpose",
        "pd_op.conv3d",
        "pd_op.conv3d_transpose",
        "pd_op.pool2d",
        "pd_op.pool3d",
        "pd_op.batch_norm",
        "pd_op.batch_norm_",
        "pd_op.layer_norm",
        "pd_op.group_norm",
        "pd_op.instance_norm",
        "pd_op.softmax",
        "pd_op.softmax_",
        "pd_op.log_softmax",
        "pd_op.fc",
        "pd_op.scale",
        "pd_op.scale_",
        "pd_op.cast",
        "pd_op.cast_",
        "pd_op.hardswish",
        "pd_op.hardsigmoid",
        "pd_op.dropout",
        "pd_op.bilinear_interp",
        "pd_op.nearest_interp",
        "pd_op.bicubic_interp",
        "pd_op.linear_interp",
        "pd_op.full_like",
        // Element-wise without Paddle's trait.
        "pd_op.gelu",
        "pd_op.selu",
        "pd_op.clip",
        "pd_op.clip_",
        "pd_op.round",
        "pd_op.round_",
        "pd_op.pow",
        "pd_op.pow_",
        "pd_op.trunc",
        "pd_op.assign",
    ];

    /// Broadcasts its tensor operands like an op with Paddle's
    /// `BinaryElementWiseTrait`, without the trait.
    Broadcasts = "pir::BroadcastsFact": [
        "pd_op.minimum",
        "pd_op.where",
        "pd_op.where_",
        "pd_op.equal",
        "pd_op.equal_",
        "pd_op.not_equal",
        "pd_op.not_equal_",
        "pd_op.less_than",
        "pd_op.less_than_",
        "pd_op.less_equal",
        "pd_op.less_equal_",
        "pd_op.greater_than",
        "pd_op.greater_than_",
        "pd_op.greater_equal",
        "pd_op.greater_equal_",
        "pd_op.logical_and",
        "pd_op.logical_and_",
        "pd_op.logical_or",
        "pd_op.logical_or_",
        "pd_op.logical_xor",
        "pd_op.logical_xor_",
    ];

    /// An arithmetic binary element-wise op that Paddle 2.x spelled
    /// `elementwise_*` with an `axis` (`elementwise_add` … `elementwise_mod`,
    /// `elementwise_floordiv`).
    ArithmeticBinary = "pir::ArithmeticBinaryFact": [
        "pd_op.add",
        "pd_op.subtract",
        "pd_op.multiply",
        "pd_op.divide",
        "pd_op.maximum",
        "pd_op.minimum",
        "pd_op.remainder",
        "pd_op.floor_divide",
    ];

    /// Its first two operands commute (`maximum`/`minimum` do not: Paddle's
    /// kernels return the second operand when the first is NaN).
    Commutative = "pir::CommutativeFact": [
        "pd_op.add",
        "pd_op.multiply",
        "pd_op.logical_and",
        "pd_op.logical_or",
        "pd_op.logical_xor",
        "pd_op.equal",
        "pd_op.not_equal",
        "pd_op.bitwise_and",
        "pd_op.bitwise_or",
        "pd_op.bitwise_xor",
    ];

    /// An element-wise division whose kernels raise on an integer divisor of
    /// zero.
    IntegerDivision = "pir::IntegerDivisionFact": [
        "pd_op.divide",
        "pd_op.floor_divide",
        "pd_op.trunc_divide",
        "pd_op.remainder",
        "pd_op.fused_elementwise_div",
    ];

    /// A reduction over operand 1's axes that reduces over every dim when the
    /// list is empty or names as many axes as the input has dims (phi's
    /// `recompute_reduce_all`).
    ReducesAllWhenAxesEmpty = "pir::ReducesAllWhenAxesEmptyFact": [
        "pd_op.mean",
        "pd_op.sum",
        "pd_op.max",
        "pd_op.min",
        "pd_op.prod",
    ];

    /// Makes a constant from its attributes alone (no operands).
    ConstantMaker = "pir::ConstantMakerFact": [
        "pd_op.full",
        "pd_op.full_int_array",
        "pd_op.assign_value",
    ];

    /// Paddle's `inplace_pass` never makes it in place although an in-place
    /// twin exists: `transpose_` is in place only for strided tensors in
    /// dygraph, and the CPU kernels of `add_grad_`/`subtract_grad_` cannot
    /// run in place (broadcast gradients).
    NeverMadeInplace = "pir::NeverMadeInplaceFact": [
        "pd_op.transpose",
        "pd_op.add_grad",
        "pd_op.subtract_grad",
    ];

    /// Draws random numbers on every run, and its definition does not say
    /// so (the definitions give `SideEffectTrait` to `uniform`, `gaussian`,
    /// `randint` and `dropout` only). Registered with `SideEffectTrait`, so
    /// no pass merges two draws into one (Paddle's own CSE does: two
    /// `bernoulli(p)` of a program come out equal under `paddle.jit.load`)
    /// or folds a draw into a constant.
    DrawsRandom = "pir::DrawsRandomFact": [
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

    /// Its definition gives it `SideEffectTrait`, and the effect is only a
    /// random draw into its own results (no files, no other ranks, no
    /// operand written): the in-place pass may still let a result take
    /// its operand's buffer. The ops of this kind that have operands.
    DrawIsItsOnlyEffect = "pir::DrawIsItsOnlyEffectFact": [
        "pd_op.dropout",
        "pd_op.random",
        "pd_op.uniform_inplace",
    ];

    /// Draws random numbers (drops out, draws a slope) unless its `is_test`
    /// attribute is true; not registered as a side effect, since whether it
    /// draws depends on the attribute ([`draws_random_numbers`]).
    DrawsRandomInTraining = "pir::DrawsRandomInTrainingFact": [
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

    /// Communicates with other ranks, synchronises streams or writes files,
    /// and its definition does not say so. Registered with
    /// `SideEffectTrait`, so no pass erases a `barrier` or `save_combine`
    /// nobody reads.
    ExternalEffect = "pir::ExternalEffectFact": [
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
}

impl OpFact {
    /// The fact's trait in `ctx`.
    pub fn id(self, ctx: &IrContext) -> TraitId {
        ctx.trait_id(self.trait_name())
    }

    /// Whether the fact holds for `op`. The same answer as its
    /// registration's trait (a test checks that every op named has it), by
    /// one table lookup of the name: the context's trait ids sit behind a
    /// lock, and passes ask this of every op.
    pub fn holds(self, p: &Program, op: OpId) -> bool {
        fact_mask(p.op_name_str(op)) & self.bit() != 0
    }

    /// The fact's bit in a set of facts: its place in [`OpFact::ALL`].
    const fn bit(self) -> u16 {
        1 << self as u16
    }

    /// Whether the fact gives its ops `SideEffectTrait`.
    pub const fn is_side_effect(self) -> bool {
        matches!(self, OpFact::DrawsRandom | OpFact::ExternalEffect)
    }
}

/// The facts of the op named `name`, in the order they are declared.
pub fn facts_of(name: &str) -> impl Iterator<Item = OpFact> {
    let mask = fact_mask(name);
    OpFact::ALL
        .iter()
        .copied()
        .filter(move |&fact| mask & fact.bit() != 0)
}

/// The facts of the op named `name`, a bit each ([`OpFact::bit`]).
fn fact_mask(name: &str) -> u16 {
    let mut slot = first_slot(name.as_bytes(), FACT_SLOTS_LEN);
    // The table is at most half full: an empty slot ends every search.
    for _ in 0..FACT_SLOTS_LEN {
        let entry = FACTS_BY_NAME[slot];
        if entry.mask == 0 || entry.name() == name.as_bytes() {
            return entry.mask;
        }
        slot = (slot + 1) & (FACT_SLOTS_LEN - 1);
    }
    0
}

/// How many slots the table of facts has: a power of two, at least twice
/// the number of (op, fact) pairs.
const FACT_SLOTS_LEN: usize = 512;

/// A slot of [`FACTS_BY_NAME`]: the op's name as a range of
/// [`FACT_OP_NAMES`] and its facts. A range rather than a `&str`: a pointer
/// in a static is an address the loader rewrites at every start of the
/// (position-independent) program, and makes the table's pages private
/// copies; this table is plain data.
#[derive(Copy, Clone)]
struct FactSlot {
    /// Where the name starts in [`FACT_OP_NAMES`].
    start: u16,
    /// The name's length in bytes.
    len: u16,
    /// The op's facts ([`OpFact::bit`]); 0 for an empty slot.
    mask: u16,
}

impl FactSlot {
    /// The op's name.
    fn name(self) -> &'static [u8] {
        let start = usize::from(self.start);
        &FACT_OP_NAMES[start..start + usize::from(self.len)]
    }
}

/// The facts of each op named, in a hash table ([`first_slot`], the next
/// free slot when that one is taken) built when the crate is compiled:
/// passes ask for the facts of every op, and nothing is built when a
/// command starts (a hash map built on first use cost a small command a
/// tenth of its time). An empty slot has no facts.
static FACTS_BY_NAME: [FactSlot; FACT_SLOTS_LEN] = fact_slots();

/// The names of every fact's ops, one after another in the order they are
/// declared (an op of several facts is written once per fact).
static FACT_OP_NAMES: [u8; FACT_OP_NAMES_LEN] = fact_op_names();

/// The length of [`FACT_OP_NAMES`].
const FACT_OP_NAMES_LEN: usize = fact_op_names_len();

/// Calls `visit(op, start)` for each op of each fact in declaration order,
/// `start` being where its name sits in [`FACT_OP_NAMES`]; returns the
/// total length. A macro, as constant functions take no closures.
macro_rules! for_each_fact_op {
    (|$fact:ident, $op:ident, $start:ident| $body:block) => {{
        let mut $start = 0usize;
        let mut f = 0;
        while f < OpFact::ALL.len() {
            let $fact = OpFact::ALL[f];
            let mut o = 0;
            while o < $fact.ops().len() {
                let $op: &'static str = $fact.ops()[o];
                $body
                $start += $op.len();
                o += 1;
            }
            f += 1;
        }
        $start
    }};
}

/// [`FACT_OP_NAMES_LEN`].
const fn fact_op_names_len() -> usize {
    for_each_fact_op!(|_fact, _op, _start| {})
}

/// [`FACT_OP_NAMES`].
const fn fact_op_names() -> [u8; FACT_OP_NAMES_LEN] {
    let mut names = [0u8; FACT_OP_NAMES_LEN];
    for_each_fact_op!(|_fact, op, start| {
        let bytes = op.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            names[start + i] = bytes[i];
            i += 1;
        }
    });
    names
}

/// [`FACTS_BY_NAME`].
const fn fact_slots() -> [FactSlot; FACT_SLOTS_LEN] {
    assert!(OpFact::ALL.len() <= 16, "a fact is a bit of a u16");
    assert!(
        FACT_OP_NAMES_LEN <= u16::MAX as usize,
        "names are placed by u16"
    );
    let names = fact_op_names();
    let empty = FactSlot {
        start: 0,
        len: 0,
        mask: 0,
    };
    let mut slots = [empty; FACT_SLOTS_LEN];
    let mut pairs = 0;
    for_each_fact_op!(|fact, op, start| {
        let mut slot = first_slot(op.as_bytes(), FACT_SLOTS_LEN);
        while slots[slot].mask != 0 && !names_eq(&names, slots[slot], op) {
            slot = (slot + 1) & (FACT_SLOTS_LEN - 1);
        }
        if slots[slot].mask == 0 {
            slots[slot] = FactSlot {
                start: start as u16,
                len: op.len() as u16,
                mask: 0,
            };
        }
        slots[slot].mask |= fact.bit();
        pairs += 1;
    });
    assert!(
        pairs * 2 <= FACT_SLOTS_LEN,
        "the table of facts is too small"
    );
    slots
}

/// Whether `slot` names `op`, for constant evaluation.
const fn names_eq(names: &[u8], slot: FactSlot, op: &str) -> bool {
    let op = op.as_bytes();
    if slot.len as usize != op.len() {
        return false;
    }
    let mut i = 0;
    while i < op.len() {
        if names[slot.start as usize + i] != op[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `op` draws random numbers on this run because it is in training
/// mode: it has [`OpFact::DrawsRandomInTraining`] and its `is_test`
/// attribute is not true.
pub fn draws_random_numbers(p: &Program, op: OpId) -> bool {
    OpFact::DrawsRandomInTraining.holds(p, op) && p.attr_bool(op, "is_test") != Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::op_registry::op_def;
    use pir_core::op_info::traits;

    /// Every op named is defined, registered with the fact's trait, and
    /// with the side-effect trait exactly when the fact makes it impure and
    /// its definition does not already say so.
    #[test]
    fn every_fact_names_defined_ops_and_registration_marks_them() {
        let ctx = crate::pd_op_context();
        for &fact in OpFact::ALL {
            for name in fact.ops() {
                let def = op_def(name).unwrap_or_else(|| panic!("{fact:?}: {name} is not defined"));
                let info = ctx.op_info(ctx.symbol(name)).expect("registered");
                assert!(info.has_trait(fact.id(&ctx)), "{fact:?}: {name}");
                if fact.is_side_effect() {
                    assert!(!def.traits.contains("pir::SideEffectTrait"), "{name}");
                    assert!(info.has_trait(traits::SIDE_EFFECT), "{name}");
                    assert!(!info.has_trait(traits::NO_SIDE_EFFECT), "{name}");
                }
                if fact == OpFact::DrawsRandomInTraining {
                    assert!(!def.traits.contains("pir::SideEffectTrait"), "{name}");
                }
            }
        }
    }

    #[test]
    fn an_op_has_each_of_its_facts_once() {
        assert_eq!(
            facts_of("pd_op.equal").collect::<Vec<_>>(),
            [OpFact::Broadcasts, OpFact::Commutative]
        );
        assert_eq!(facts_of("pd_op.relu").count(), 0);
        for (i, &fact) in OpFact::ALL.iter().enumerate() {
            assert_eq!(fact as usize, i, "{fact:?} is not in its place in ALL");
        }
        for &fact in OpFact::ALL {
            let mut names = fact.ops().to_vec();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), fact.ops().len(), "{fact:?} names an op twice");
        }
    }

    /// The table answers for every defined op what the fact lists say, and
    /// nothing for names that are no op or a prefix of one.
    #[test]
    fn the_table_holds_the_facts_of_the_lists() {
        for def in crate::op_def::OP_DEFS {
            let name = def.name.as_str();
            let listed: Vec<OpFact> = OpFact::ALL
                .iter()
                .copied()
                .filter(|fact| fact.ops().contains(&name))
                .collect();
            assert_eq!(facts_of(name).collect::<Vec<_>>(), listed, "{name}");
        }
        for name in ["", "pd_op.", "pd_op.conv2", "pd_op.conv2d_x", "conv2d"] {
            assert_eq!(fact_mask(name), 0, "{name}");
        }
    }

    #[test]
    fn training_mode_draws_and_test_mode_does_not() {
        let ctx = crate::pd_op_context();
        let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[false]} : () -> tensor<4xf32>
    (%1, %2) = "pd_op.rrelu" (%0) {is_test:false,lower:0.1,stop_gradient:[false],upper:0.3} : (tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>
    (%3, %4) = "pd_op.rrelu" (%0) {is_test:true,lower:0.1,stop_gradient:[false],upper:0.3} : (tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>
}"#;
        let p = Program::parse(&ctx, text).expect("parses");
        let ops: Vec<_> = p.block_ops(p.top_block()).collect();
        assert!(draws_random_numbers(&p, ops[1]));
        assert!(!draws_random_numbers(&p, ops[2]));
        assert!(!draws_random_numbers(&p, ops[0]));
    }
}
