//! The built-in passes.

/// Declares a pass without options: its registry entry `$info` (argument
/// and description), which makes the unit struct `$pass`, named by it
/// ([`Registered`](crate::pass::Registered)); the pass then writes only
/// its `impl Pass` (`fn run`).
macro_rules! pass_without_options {
    (
        $(#[$info_doc:meta])* $info:ident = $argument:literal, $description:expr;
        $(#[$doc:meta])* $pass:ident
    ) => {
        $(#[$info_doc])*
        pub const $info: $crate::registry::PassInfo = $crate::registry::PassInfo {
            argument: $argument,
            description: $description,
            options: &[],
            make: |_| Ok(Box::new($pass)),
        };

        $(#[$doc])*
        #[derive(Debug, Default)]
        pub struct $pass;

        impl $crate::pass::Registered for $pass {
            const INFO: $crate::registry::PassInfo = $info;
        }
    };
}

pub mod batch_size_like;
pub mod canonicalize;
pub mod cleanup;
pub mod constant_folding;
pub mod cse;
pub mod dce;
pub mod einsum_to_matmul;
pub mod fold_batch_norm;
pub mod forward_loop_assigns;
pub mod fusion;
pub mod horizontal_fuse;
pub mod inplace;
pub mod loop_invariant_code_motion;
pub mod set_input_shapes;
pub mod trim_broadcast_constants;
pub mod value_semantics;

/// Every registered pass, in the order `pir opt --list-passes` shows them.
pub static PASSES: &[crate::registry::PassInfo] = &[
    dce::INFO,
    cse::INFO,
    loop_invariant_code_motion::INFO,
    forward_loop_assigns::INFO,
    canonicalize::CANONICALIZE,
    canonicalize::REMOVE_IDENTITY_OPS,
    cleanup::DELETE_ASSERT,
    cleanup::REPLACE_FETCH_WITH_SHADOW_OUTPUT,
    inplace::DE_INPLACE,
    inplace::INPLACE,
    value_semantics::TO_VTENSOR_PASS,
    value_semantics::DROP_VTENSOR_COPIES,
    set_input_shapes::INFO,
    constant_folding::INFO,
    fold_batch_norm::INFO,
    value_semantics::LOWER_VTENSOR,
    fusion::IDENTITY_OP_CLEAN,
    fusion::DELETE_DROPOUT,
    fusion::MAP_OP_TO_ANOTHER,
    fusion::MATMUL_SCALE_FUSE,
    fusion::MATMUL_TRANSPOSE_FUSE,
    fusion::REMOVE_REDUNDANT_TRANSPOSE,
    fusion::MATMUL_ADD_ACT_FUSE,
    fusion::SILU_FUSE,
    fusion::CONV2D_ADD_FUSE,
    fusion::CONV2D_ADD_ACT_FUSE,
    fusion::ADD_NORM_FUSE,
    horizontal_fuse::INFO,
    einsum_to_matmul::INFO,
    trim_broadcast_constants::INFO,
    batch_size_like::INFO,
    fusion::DRR,
];

use pir_core::walk::Order;
use pir_core::{BlockId, Builder, InsertPoint, OpId, Program, Symbol, ValueId};
use pir_dialects::ops::WhileOp;
use rustc_hash::FxHashMap;

use crate::pass::{Changed, PassError, PassResult};

/// The ancestor of `op` (itself included) that stands directly in `block`,
/// if `op` is nested in it at all.
pub(crate) fn ancestor_in(p: &Program, mut op: OpId, block: BlockId) -> Option<OpId> {
    loop {
        let parent = p.op_parent_block(op)?;
        if parent == block {
            return Some(op);
        }
        op = p.block_parent_op(parent)?;
    }
}

/// Position of each op in its block, for program-order questions. An op
/// that stands for another takes its position ([`Positions::set`]); erasing
/// ops leaves the order of the others as it was, so the table still answers.
pub(crate) struct Positions(FxHashMap<OpId, u32>);

impl Positions {
    /// The positions of every op under `root`.
    pub(crate) fn new(p: &Program, root: OpId) -> Self {
        let mut table = FxHashMap::default();
        let mut next: FxHashMap<BlockId, u32> = FxHashMap::default();
        p.walk(root, Order::Pre, &mut |op| {
            if let Some(block) = p.op_parent_block(op) {
                let n = next.entry(block).or_insert(0);
                table.insert(op, *n);
                *n += 1;
            }
        });
        Positions(table)
    }

    /// The position of `op` (ops outside the walked root sort last).
    pub(crate) fn get(&self, op: OpId) -> u32 {
        self.0.get(&op).copied().unwrap_or(u32::MAX)
    }

    /// Gives `op` the position `position` (an op standing for another).
    pub(crate) fn set(&mut self, op: OpId, position: u32) {
        self.0.insert(op, position);
    }
}

/// Where `x` (an op anywhere) stands relative to `op` of `block`: the
/// ordering of its ancestor in `block`, `None` when it is outside `block`.
pub(crate) fn order_in_block(
    p: &Program,
    pos: &Positions,
    x: OpId,
    op: OpId,
    block: BlockId,
) -> Option<std::cmp::Ordering> {
    let anc = ancestor_in(p, x, block)?;
    Some(pos.get(anc).cmp(&pos.get(op)))
}

/// The dims of `v`'s type when it is a dense tensor.
pub(crate) fn dense_dims(p: &Program, v: ValueId) -> Option<&[i64]> {
    p.ctx()
        .type_as::<pir_core::builtin::DenseTensorType>(p.value_type(v))
        .map(|t| &*t.dims)
}

/// The ops nested in `root`, in program order (`root` itself left out).
pub(crate) fn ops_under(p: &Program, root: OpId) -> Vec<OpId> {
    let mut ops = Vec::new();
    p.walk(root, Order::Pre, &mut |op| {
        if op != root {
            ops.push(op);
        }
    });
    ops
}

/// The `pd_op.while` ops under `root`, inner loops before the loops that
/// hold them (post order).
pub(crate) fn loops_under(p: &Program, root: OpId) -> Vec<OpId> {
    let mut loops = Vec::new();
    p.walk(root, Order::Post, &mut |op| {
        if op != root && p.op_name_str(op) == WhileOp::NAME {
            loops.push(op);
        }
    });
    loops
}

/// Runs a pass over loops: nothing to do (and no change) without a
/// `pd_op.while` under `root`; otherwise `f` on the loops, inner ones first
/// ([`loops_under`]), and whatever analyses it builds for them.
pub(crate) fn run_on_loops(
    p: &mut Program,
    root: OpId,
    f: impl FnOnce(&mut Program, Vec<OpId>) -> PassResult,
) -> PassResult {
    let loops = loops_under(p, root);
    if loops.is_empty() {
        return Ok(Changed::No);
    }
    f(p, loops)
}

/// Creates an op `name` before `op` reading `operands`, with `op`'s
/// attribute dictionary and result types, makes the users of `op`'s results
/// use the new results, and erases `op`. Returns the new op.
pub(crate) fn replace_op(
    p: &mut Program,
    op: OpId,
    name: Symbol,
    operands: &[Option<ValueId>],
    pass: &str,
) -> Result<OpId, PassError> {
    let types: Vec<_> = p.results(op).map(|r| p.value_type(r)).collect();
    let new = p.create_op(name, operands, &types, p.attrs(op), 0);
    Builder::new(p, InsertPoint::Before(op)).insert(new);
    let pairs: Vec<(ValueId, ValueId)> = p.results(op).zip(p.results(new)).collect();
    for (old, fresh) in pairs {
        p.replace_all_uses_with(old, fresh);
    }
    p.erase_op(op).map_err(|e| PassError {
        pass: pass.into(),
        message: e.to_string(),
    })?;
    Ok(new)
}

/// Gives `new`, made to stand for (part of) `old`, `old`'s bookkeeping
/// attributes: `stop_gradient` and `struct_name` (the layer it came from),
/// where `old` has them.
pub(crate) fn copy_bookkeeping(p: &mut Program, old: OpId, new: OpId) {
    for name in ["stop_gradient", "struct_name"] {
        if let Some(a) = p.attr(old, name) {
            p.set_attr(new, name, a);
        }
    }
}
