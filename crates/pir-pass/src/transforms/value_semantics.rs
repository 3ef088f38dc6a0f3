//! Value semantics (seed `ir-program-design.md` §2.5.1): tensors become
//! value tensors wherever ops allow it, and back before saving.
//!
//! - `to_vtensor` (Pass 1): every op with value semantics
//!   ([`is_value_semantic_op`]) reads `vt.to_vtensor` copies of its tensor
//!   operands and produces value tensors, copied back by `vt.to_tensor` for
//!   the rest of the program. Nothing changes order: the copies sit right
//!   where the op reads and writes, so the program means what it meant.
//! - `drop_vtensor_copies` (Pass 2): `vt.to_vtensor(vt.to_tensor(a))` is
//!   `a` when nothing writes the tensor in between — its alias class is
//!   never written, so it holds `a`'s data for its whole life. A `to_tensor`
//!   left without uses goes. What remains are the copies at the boundaries:
//!   program inputs (data, parameters), outputs (fetch, shadow_output,
//!   yields) and the operands of in-place, view or control-flow ops.
//! - `lower_vtensor`: back to Paddle's types. Every value tensor becomes a
//!   dense tensor; a copy becomes its operand where the copy cannot be
//!   observed, else a `pd_op.assign` (a copy Paddle runs).
//!
//! The three passes in a row give back a program computing what the input
//! computed; on a program without in-place ops, the very same program.

use rustc_hash::{FxHashMap, FxHashSet};

use pir_core::builtin::{ArrayAttr, DenseTensorType};
use pir_core::walk::Order;
use pir_core::{BlockId, InsertPoint, OpId, Program, ValueId};
use pir_dialects::op_def::OpDefinition;
use pir_dialects::ops::AssignOp;
use pir_dialects::value_tensor::{
    create_to_tensor, create_to_vtensor, is_copy_op, ValueTensorType, TO_TENSOR, TO_VTENSOR,
};

use crate::alias::{alias_class, AliasAnalysis};
use crate::effects::is_pure;
use crate::pass::{Changed, Named, Pass, PassError, PassResult, PassRun};

/// Ops whose results are the weights or the caller's tensors, though pure:
/// they stay the boundary where value tensors start.
const SOURCES: [&str; 1] = ["builtin.constant_tensor"];

fn edit_error(pass: &str) -> impl Fn(pir_core::program::EditError) -> PassError + '_ {
    move |e| PassError {
        pass: pass.into(),
        message: e.to_string(),
    }
}

fn changed(n: u64) -> Changed {
    if n > 0 {
        Changed::Yes
    } else {
        Changed::No
    }
}

/// The ops nested in `root` (not `root` itself), in program order.
fn nested_ops(p: &Program, root: OpId, keep: impl Fn(&Program, OpId) -> bool) -> Vec<OpId> {
    let mut ops = Vec::new();
    p.walk(root, Order::Pre, &mut |op| {
        if op != root && keep(p, op) {
            ops.push(op);
        }
    });
    ops
}

/// Whether `op` has value semantics (the seed's `HasValueSemanticsTrait`):
/// it neither writes nor aliases its operands, has no other effect
/// ([`is_pure`]: registered, no side effect, not in place, no regions, not
/// an interface op), and every operand and result is a dense tensor (absent
/// optional operands and null-typed results aside). Ops reading vectors
/// (`builtin.combine` results) keep their tensors.
pub fn is_value_semantic_op(p: &Program, op: OpId) -> bool {
    if !is_pure(p, op) || is_copy_op(p, op) || SOURCES.contains(&p.op_name_str(op)) {
        return false;
    }
    // No definition of Paddle 3.3.1 maps a view without the in-place trait
    // (which `is_pure` excludes); checked anyway, for hand-made definitions.
    let maps_buffers = p
        .op_info(op)
        .and_then(|i| i.interface::<OpDefinition>())
        .is_some_and(|d| !d.0.inplace.is_empty() || !d.0.view.is_empty());
    if maps_buffers {
        return false;
    }
    let ctx = p.ctx();
    let dense = |v: ValueId| ctx.type_is::<DenseTensorType>(p.value_type(v));
    let mut any = false;
    for v in p.operands(op).flatten() {
        if !dense(v) {
            return false;
        }
        any = true;
    }
    for r in p.results(op) {
        if dense(r) {
            any = true;
        } else if !p.value_type(r).is_null() {
            return false;
        }
    }
    any
}

pass_without_options! {
    /// The `to_vtensor` pass (`TO_VTENSOR` is the op's name).
    TO_VTENSOR_PASS = "to_vtensor",
        "make ops with value semantics read and produce value tensors, through copies";
    /// `to_vtensor`: Pass 1 of the seed (§2.5.1).
    ToVTensor
}

impl Pass for ToVTensor {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        // Whether a buffer is ever written, asked of the input program: the
        // pass only adds plain readers, and each `to_tensor` result stands
        // for the result it replaces (`origin`).
        let aliases = AliasAnalysis::new(program);
        let ops = nested_ops(program, root, is_value_semantic_op);
        let mut origin: FxHashMap<ValueId, ValueId> = FxHashMap::default();
        // One copy per (value, block) serves every later reader in the block
        // when nothing writes the value; otherwise each read gets its own
        // copy, taken just before it.
        let mut copies: FxHashMap<(ValueId, BlockId), ValueId> = FxHashMap::default();
        let (mut to_v, mut to_t) = (0u64, 0u64);
        let err = edit_error(self.argument());
        for &op in &ops {
            let Some(block) = program.op_parent_block(op) else {
                continue;
            };
            for i in 0..program.num_operands(op) {
                let Some(x) = program.operand(op, i) else {
                    continue;
                };
                let written = aliases.is_written(origin.get(&x).copied().unwrap_or(x));
                let reused = if written {
                    None
                } else {
                    copies.get(&(x, block)).copied()
                };
                let copy = match reused {
                    Some(c) => c,
                    None => {
                        let Some(c) = create_to_vtensor(program, x) else {
                            continue;
                        };
                        program.insert_op(c, InsertPoint::Before(op));
                        to_v += 1;
                        let v = program.result(c, 0);
                        if !written {
                            copies.insert((x, block), v);
                        }
                        v
                    }
                };
                program.set_operand(op, i, Some(copy)).map_err(&err)?;
            }
            let mut after = op;
            let ctx = program.ctx_arc().clone();
            for r in program.results(op).collect::<Vec<_>>() {
                let Some(vt) = ValueTensorType::from_dense(&ctx, program.value_type(r)) else {
                    continue;
                };
                program.set_value_type(r, vt);
                if program.use_empty(r) {
                    continue;
                }
                let Some(back) = create_to_tensor(program, r) else {
                    continue;
                };
                program.insert_op(back, InsertPoint::After(after));
                after = back;
                to_t += 1;
                let b = program.result(back, 0);
                program.replace_uses_if(r, b, |program, u| program.operand_owner(u) != back);
                origin.insert(b, r);
            }
        }
        cx.statistics.add("ops converted", ops.len() as u64);
        cx.statistics.add("to_vtensor inserted", to_v);
        cx.statistics.add("to_tensor inserted", to_t);
        Ok(changed(ops.len() as u64))
    }
}

pass_without_options! {
    /// The `drop_vtensor_copies` pass.
    DROP_VTENSOR_COPIES = "drop_vtensor_copies",
        "read a value tensor directly where a tensor copied from it is copied back unchanged";
    /// `drop_vtensor_copies`: Pass 2 of the seed (§2.5.1).
    DropVTensorCopies
}

impl Pass for DropVTensorCopies {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let err = edit_error(self.argument());
        let (mut forwarded, mut erased) = (0u64, 0u64);
        for back in nested_ops(program, root, |program, op| {
            program.op_name_str(op) == TO_TENSOR
        }) {
            if program.is_erased(back) || program.num_results(back) != 1 {
                continue;
            }
            let Some(a) = program.operand(back, 0) else {
                continue;
            };
            let b = program.result(back, 0);
            let readers: Vec<OpId> = program
                .uses(b)
                .map(|u| program.operand_owner(u))
                .filter(|&u| {
                    program.op_name_str(u) == TO_VTENSOR
                        && program.num_results(u) == 1
                        && program.value_type(program.result(u, 0)) == program.value_type(a)
                })
                .collect();
            // `b` is a tensor that, unless some op writes its buffer (or a
            // buffer sharing it), holds `a`'s data for its whole life: then
            // copying it back gives `a`. Queried now: earlier rewrites only
            // replaced plain readers, which adds no writes.
            if !readers.is_empty() && !alias_class(program, b).facts.written {
                for u in readers {
                    program.replace_op(u, &[a]).map_err(&err)?;
                    forwarded += 1;
                }
            }
            if program.use_empty(b) {
                program.erase_op(back).map_err(&err)?;
                erased += 1;
            }
        }
        cx.statistics.add("copies forwarded", forwarded);
        cx.statistics.add("to_tensor erased", erased);
        Ok(changed(forwarded + erased))
    }
}

pass_without_options! {
    /// The `lower_vtensor` pass.
    LOWER_VTENSOR = "lower_vtensor",
        "turn value tensors into dense tensors and copies into their operand or pd_op.assign";
    /// `lower_vtensor`: value tensors back to Paddle's dense tensors.
    LowerVTensor
}

impl Pass for LowerVTensor {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let err = edit_error(self.argument());
        let ctx = program.ctx_arc().clone();
        // Types first: the alias facts do not depend on them, and a copy
        // then has the type of its operand.
        let mut values = Vec::new();
        program.walk(root, Order::Pre, &mut |op| {
            if op != root {
                values.extend(program.results(op));
            }
            for region in program.regions(op) {
                for &block in program.region_blocks(region) {
                    values.extend_from_slice(program.block_args(block));
                    values.extend(program.block_kwargs(block).iter().map(|&(_, v)| v));
                }
            }
        });
        let mut retyped = 0u64;
        for v in values {
            if let Some(dense) = ValueTensorType::to_dense(&ctx, program.value_type(v)) {
                program.set_value_type(v, dense);
                retyped += 1;
            }
        }
        let (mut forwarded, mut assigns) = (0u64, 0u64);
        for op in nested_ops(program, root, is_copy_op) {
            let (Some(x), 1) = (program.operand(op, 0), program.num_results(op)) else {
                return Err(PassError {
                    pass: self.argument().into(),
                    message: format!(
                        "`{}` needs one operand and one result",
                        program.op_name_str(op)
                    ),
                });
            };
            let r = program.result(op, 0);
            if copy_is_unobservable(program, op, x, r) {
                program.replace_op(op, &[x]).map_err(&err)?;
                forwarded += 1;
            } else {
                let assign = create_assign(program, x, r);
                program.insert_op(assign, InsertPoint::Before(op));
                let v = program.result(assign, 0);
                program.replace_op(op, &[v]).map_err(&err)?;
                assigns += 1;
            }
        }
        cx.statistics.add("values retyped", retyped);
        cx.statistics.add("copies forwarded", forwarded);
        cx.statistics.add("assigns inserted", assigns);
        Ok(changed(retyped + forwarded + assigns))
    }
}

/// `pd_op.assign(x)` of `r`'s type, with the `stop_gradient` that `x`'s
/// producer gave it (Paddle's builder sets one per result).
fn create_assign(p: &mut Program, x: ValueId, r: ValueId) -> OpId {
    let ctx = p.ctx_arc().clone();
    let stop_gradient = match p.value_def(x) {
        pir_core::ValueDef::Result { op, index } => p
            .attr(op, "stop_gradient")
            .and_then(|a| ctx.attr_as::<ArrayAttr>(a))
            .and_then(|a| a.0.get(index as usize).copied()),
        _ => None,
    };
    let attrs = match stop_gradient {
        Some(flag) => ctx.dict(&[(ctx.symbol("stop_gradient"), ArrayAttr::get(&ctx, &[flag]))]),
        None => pir_core::AttrDict::EMPTY,
    };
    let ty = p.value_type(r);
    p.create_op(ctx.symbol(AssignOp::NAME), &[Some(x)], &[ty], attrs, 0)
}

/// Whether every read of the copy `r = op(x)` would see the same data if it
/// read `x` instead, and making them one buffer is invisible:
/// - neither buffer is ever written (and they are not both known by
///   identity to the executor), or
/// - the copy is written later but nothing else reads the source: `x` is
///   alias-free, unpinned, read only by the copy (a result handed on to an
///   in-place op) and defined in the copy's block (not re-read by a loop),
///   or
/// - the source is written, but not while the copy is read: every read of
///   `r` follows the copy in its block with no op in between that may write
///   `x`'s buffers, and `r` is alias-free, unwritten and unpinned (a pinned
///   value is read by the executor at the end, not where its op stands).
fn copy_is_unobservable(p: &Program, op: OpId, x: ValueId, r: ValueId) -> bool {
    if p.value_type(x) != p.value_type(r) {
        return false;
    }
    let (cx, cr) = (alias_class(p, x), alias_class(p, r));
    if cr.pinned && cx.facts.pinned {
        return false;
    }
    match (cx.facts.written, cr.facts.written) {
        (false, false) => true,
        // The copy runs once per run of its block: when `x` comes from an
        // enclosing block (a loop body copying a captured value), every
        // iteration needs the original again.
        (false, true) => {
            cx.facts.size == 1
                && !cx.facts.pinned
                && p.use_count(x) == 1
                && p.value_parent_block(x) == p.op_parent_block(op)
        }
        (true, false) => {
            cr.facts.size == 1
                && !cr.facts.pinned
                && reads_precede_writes(p, op, r, &cx.members.into_iter().collect())
        }
        (true, true) => false,
    }
}

/// Whether every user of `r` is in `op`'s block after `op`, and no op from
/// `op` up to the last of them may write a value of `members`. Under the
/// alias model an op writes a buffer only through an operand (in-place
/// pairs, unknown ops, `while`) or an op nested in its regions; a pure op
/// writes nothing.
fn reads_precede_writes(p: &Program, op: OpId, r: ValueId, members: &FxHashSet<ValueId>) -> bool {
    let Some(block) = p.op_parent_block(op) else {
        return false;
    };
    let mut users = FxHashSet::default();
    for u in p.uses(r) {
        let user = p.operand_owner(u);
        if p.op_parent_block(user) != Some(block) {
            return false;
        }
        users.insert(user);
    }
    let mut next = p.next_op(op);
    while !users.is_empty() {
        let Some(o) = next else {
            return false;
        };
        users.remove(&o);
        let may_write = !is_pure(p, o)
            && (p.num_regions(o) > 0 || p.operands(o).flatten().any(|v| members.contains(&v)));
        if may_write {
            return false;
        }
        next = p.next_op(o);
    }
    true
}
