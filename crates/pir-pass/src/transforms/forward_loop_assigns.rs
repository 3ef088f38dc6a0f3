//! `forward_loop_assigns`: a `while` body that copies a loop variable's next
//! value into the variable's argument (`assign_out_(next, arg)`) and yields
//! the copy yields `next` itself.
//!
//! Paddle's translator writes every loop variable of a legacy `while` that
//! way: the legacy loop updates its variables by name, so the translation
//! assigns the new value into the argument's buffer. In the first iteration
//! that buffer is the loop's *input*, the caller's tensor. So the loop
//! writes its input in place, and Paddle 3.3.1's executor does not order
//! the input's other readers before the loop (the `while` counts as a
//! reader of its inputs only). A reader placed before the loop can run
//! after it and see the loop's last value. Such a legacy model gives a
//! wrong result in some runs, with or without passes. Yielding `next` itself
//! removes the write, and a copy per variable per iteration with it.
//!
//! `a = assign_out_(next, arg)` in body `B` of loop `W`, directly in `B`,
//! where `arg` is `B`'s argument `k`, is rewritten when no op can tell:
//! - `a` is used only by `B`'s `cf.yield`, as the value carried to `arg`
//!   (yield operand `k + 1`, after the condition);
//! - `next` is a result of a regionless op of `B` with its own buffer (no
//!   in-place or view map), has `arg`'s type, and its other readers are in
//!   `B` and only read it: after the rewrite, next iteration's `arg` and the
//!   loop's result are `next`'s buffer, which nothing else may name or
//!   write (the executor gives a body op a new buffer each iteration when
//!   the last one was yielded, as in every loop Paddle writes itself);
//! - every other reader of `arg` comes before the copy in `B` and only reads
//!   it (no in-place, view, vector or control-flow use): no one sees the
//!   argument after the write that no longer happens;
//! - `W`'s input `k` is a result of an op of `W`'s block with its own buffer
//!   (not a weight or a caller's `data` tensor, which outlive the run, and
//!   not a view or an in-place result naming another value's buffer), is no
//!   other operand of `W`, is not read inside the loop other than through
//!   `arg`, and every other reader of it comes before `W` and only reads it:
//!   then the write into the input's buffer was observable only by a reader
//!   the executor misordered.
//!
//! The loop's result `k` holds the same values either way (the copy's). Its
//! buffer becomes `next`'s, which no one else names.
//!
//! The translator copies the next condition into the loop's condition
//! operand the same way (`assign_out_(next_cond, cond)`, yielded as the
//! condition). That copy goes too, on the same terms, with the condition
//! operand as the loop's input: read only by the loop, the copy and readers
//! before the loop. The executor rebinds the condition operand to each
//! yielded condition anyway.

use std::cmp::Ordering;

use pir_core::{BlockId, OpId, Program, ValueDef, ValueId};
use pir_dialects::ops::AssignOutInplaceOp;

use crate::alias::{has_fresh_results, only_reads, while_body, yield_of};
use crate::pass::{Changed, Pass, PassError, PassResult, PassRun};
use crate::transforms::{ancestor_in, order_in_block, run_on_loops, Positions};

pass_without_options! {
    /// The `forward_loop_assigns` pass.
    INFO = "forward_loop_assigns",
        "yield a while body's next values (loop variables and condition) themselves \
                  instead of their assign_out_ copies into the loop's variables (legacy \
                  translations), so the loop no longer writes its inputs in place";
    /// The `forward_loop_assigns` pass.
    ForwardLoopAssigns
}

impl Pass for ForwardLoopAssigns {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        run_on_loops(program, root, |program, loops| {
            // Erasing copies keeps the other ops' order, so one table serves
            // the whole run.
            let pos = Positions::new(program, root);
            let mut forwarded = 0u64;
            for lp in loops {
                let Some(body) = while_body(program, lp) else {
                    continue;
                };
                let copies: Vec<OpId> = program
                    .block_ops(body)
                    .filter(|&op| program.op_name_str(op) == AssignOutInplaceOp::NAME)
                    .collect();
                for copy in copies {
                    if let Some((yield_op, slot, next)) = forwardable(program, &pos, lp, body, copy)
                    {
                        program
                            .set_operand(yield_op, slot, Some(next))
                            .map_err(error)?;
                        program.erase_op(copy).map_err(error)?;
                        forwarded += 1;
                    }
                }
            }
            cx.statistics.add(
                "loop copies forwarded (variables and conditions)",
                forwarded,
            );
            Ok(Changed::from(forwarded > 0))
        })
    }
}

fn error(e: impl std::fmt::Display) -> PassError {
    PassError::new(INFO.argument, e)
}

/// For a copy `a = assign_out_(next, arg)` of `lp`'s body `body` that may be
/// dropped: the body's yield, the yield operand that carries `a`, and `next`.
fn forwardable(
    p: &Program,
    pos: &Positions,
    lp: OpId,
    body: BlockId,
    copy: OpId,
) -> Option<(OpId, usize, ValueId)> {
    if p.num_operands(copy) != 2 || p.num_results(copy) != 1 {
        return None;
    }
    let (next, arg) = (p.operand(copy, 0)?, p.operand(copy, 1)?);
    let a = p.result(copy, 0);
    // The yield slot carrying `arg`: after the condition for a body
    // argument, the condition's own for the loop's condition operand.
    let (slot, is_argument) = match p.value_def(arg) {
        ValueDef::BlockArg { block, index } if block == body => {
            (usize::try_from(index).ok()? + 1, true)
        }
        _ if p.operand(lp, 0) == Some(arg) => (0, false),
        _ => return None,
    };
    // `a` carries the variable to `arg` and goes nowhere else.
    let yield_op = yield_of(p, body)?;
    let mut a_uses = p.uses(a);
    let only = a_uses.next()?;
    if a_uses.next().is_some() || p.operand_owner(only) != yield_op || p.operand_index(only) != slot
    {
        return None;
    }
    // `next`: a buffer of its own, which its other readers in the body only
    // read (so it holds what the copy would have held).
    let maker = p.defining_op(next)?;
    if p.op_parent_block(maker) != Some(body)
        || !has_fresh_results(p, maker)
        || p.value_type(next) != p.value_type(arg)
    {
        return None;
    }
    for operand in p.uses(next) {
        let user = p.operand_owner(operand);
        if user != copy
            && (ancestor_in(p, user, body).is_none()
                || !only_reads(p, user, p.operand_index(operand)))
        {
            return None;
        }
    }
    // Every other reader of an argument only reads it, before the copy.
    if is_argument {
        for operand in p.uses(arg) {
            let user = p.operand_owner(operand);
            if user == copy {
                continue;
            }
            let before = order_in_block(p, pos, user, copy, body) == Some(Ordering::Less);
            if !before || !only_reads(p, user, p.operand_index(operand)) {
                return None;
            }
        }
    }
    // The loop's input (the condition operand itself, for the condition):
    // a buffer of its own whose other readers come before the loop and only
    // read it.
    let input = p.operand(lp, slot)?;
    let outer = p.op_parent_block(lp)?;
    let source = p.defining_op(input)?;
    if p.op_parent_block(source) != Some(outer) || !has_fresh_results(p, source) {
        return None;
    }
    for operand in p.uses(input) {
        let user = p.operand_owner(operand);
        if user == lp {
            if p.operand_index(operand) != slot {
                return None;
            }
            continue;
        }
        if user == copy && !is_argument {
            continue;
        }
        let before = p.op_parent_block(user) == Some(outer) && pos.get(user) < pos.get(lp);
        if !before || !only_reads(p, user, p.operand_index(operand)) {
            return None;
        }
    }
    Some((yield_op, slot, next))
}
