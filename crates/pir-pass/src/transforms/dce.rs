//! Dead code elimination: erases pure ops whose results are unused, in every
//! region, until none is left (erasing a user can make its operands dead),
//! and the loop-carried values of a `pd_op.while` that nothing reads: not
//! the body (its argument is unused) and nothing after the loop (its result
//! is unused). Paddle's dy2static makes every variable a loop assigns a
//! carried value, so a loop often carries values only its own iterations
//! wrote; the ops computing them then die too.

use pir_core::builtin::ArrayAttr;
use pir_core::walk::Order;
use pir_core::{Attribute, InsertPoint, OpId, Program, ValueId};

use crate::alias::{while_body, yield_of};
use crate::effects::is_pure;
use crate::pass::{Changed, Pass, PassError, PassResult, PassRun};
use crate::transforms::loops_under;

pass_without_options! {
    /// The `dce` pass.
    INFO = "dce", "erase side-effect-free ops whose results are unused, and loop-carried values \
                  nothing reads";
    /// The `dce` pass.
    DeadCodeElimination
}

impl Pass for DeadCodeElimination {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let mut everything = Vec::new();
        program.walk(root, Order::Post, &mut |op| {
            if op != root {
                everything.push(op);
            }
        });
        let mut erased = erase_dead_ops(program, everything)?;
        let mut dropped = 0u64;
        // Dropping a carried value kills what the body computed for it,
        // which can leave another carried value unread: until neither moves.
        loop {
            let (more, freed) = drop_unread_carried(program, root)?;
            if more == 0 {
                break;
            }
            dropped += more;
            erased += erase_dead_ops(program, freed)?;
        }
        cx.statistics.add("ops erased", erased);
        cx.statistics.add("loop-carried values dropped", dropped);
        Ok(Changed::from(erased + dropped > 0))
    }
}

fn error(e: impl std::fmt::Display) -> PassError {
    PassError::new(INFO.argument, e)
}

/// Erases those of `worklist` (ops in post order) that are pure with unused
/// results, and then the pure ops only they read, until none is left;
/// returns how many.
fn erase_dead_ops(p: &mut Program, mut worklist: Vec<OpId>) -> Result<u64, PassError> {
    // Users come after their operands' definitions: pop from the end first.
    let mut erased = 0u64;
    while let Some(op) = worklist.pop() {
        if p.is_erased(op) || !is_pure(p, op) || p.results(op).any(|r| !p.use_empty(r)) {
            continue;
        }
        let defs: Vec<OpId> = p
            .operands(op)
            .flatten()
            .filter_map(|v| p.defining_op(v))
            .collect();
        p.erase_op(op).map_err(error)?;
        erased += 1;
        worklist.extend(defs);
    }
    Ok(erased)
}

/// Rebuilds every `pd_op.while` under `root` without its unread carried
/// values (module docs); returns how many were dropped, and the ops that
/// defined the dropped inputs and yielded values (now maybe dead).
fn drop_unread_carried(p: &mut Program, root: OpId) -> Result<(u64, Vec<OpId>), PassError> {
    let loops = loops_under(p, root);
    let mut dropped = 0;
    let mut freed = Vec::new();
    for lp in loops {
        let Some(body) = while_body(p, lp) else {
            continue;
        };
        let Some(terminator) = yield_of(p, body) else {
            continue;
        };
        let n = p.num_results(lp);
        // Only the shape Paddle's verifier accepts: cond + n inputs, n
        // arguments, cond + n yielded values, one region.
        if p.num_operands(lp) != n + 1
            || p.block_args(body).len() != n
            || p.num_operands(terminator) != n + 1
            || p.num_regions(lp) != 1
        {
            continue;
        }
        let unread = |i: usize| p.use_empty(p.block_args(body)[i]) && p.use_empty(p.result(lp, i));
        let keep: Vec<usize> = (0..n).filter(|&i| !unread(i)).collect();
        if keep.len() == n {
            continue;
        }
        let pick = |values: Vec<_>| -> Vec<_> {
            std::iter::once(values[0])
                .chain(keep.iter().map(|&i| values[i + 1]))
                .collect()
        };
        let lost = |values: Vec<Option<ValueId>>| -> Vec<OpId> {
            (0..n)
                .filter(|i| !keep.contains(i))
                .filter_map(|i| values[i + 1].and_then(|v| p.defining_op(v)))
                .collect()
        };
        freed.extend(lost(p.operands(lp).collect()));
        freed.extend(lost(p.operands(terminator).collect()));
        let operands = pick(p.operands(lp).collect());
        let yielded = pick(p.operands(terminator).collect());
        let types: Vec<_> = keep
            .iter()
            .map(|&i| p.value_type(p.result(lp, i)))
            .collect();
        let attrs = kept_result_attrs(p, lp, &keep);
        let rebuilt = p.create_op(p.op_name(lp), &operands, &types, attrs, 1);
        p.insert_op(rebuilt, InsertPoint::Before(lp));
        p.move_region_blocks(p.op_region(lp, 0), p.op_region(rebuilt, 0))
            .map_err(error)?;
        p.set_operands(terminator, &yielded);
        for i in (0..n).rev().filter(|i| !keep.contains(i)) {
            p.erase_block_arg(body, i).map_err(error)?;
        }
        for (k, &i) in keep.iter().enumerate() {
            p.replace_all_uses_with(p.result(lp, i), p.result(rebuilt, k));
        }
        p.erase_op(lp).map_err(error)?;
        dropped += (n - keep.len()) as u64;
    }
    Ok((dropped, freed))
}

/// `op`'s attributes with the per-result lists cut to the results `keep`.
fn kept_result_attrs(p: &Program, op: OpId, keep: &[usize]) -> pir_core::AttrDict {
    let ctx = p.ctx();
    let n = p.num_results(op);
    let mut attrs = p.attrs(op);
    for name in pir_core::builtin::PER_RESULT_ATTRS {
        let Some(sym) = ctx.lookup_symbol(name) else {
            continue;
        };
        let Some(list) = ctx
            .dict_get(attrs, sym)
            .and_then(|a| ctx.attr_as::<ArrayAttr>(a))
            .filter(|list| list.0.len() == n)
        else {
            continue;
        };
        let kept: Vec<Attribute> = keep.iter().map(|&i| list.0[i]).collect();
        attrs = ctx.dict_with(attrs, sym, ArrayAttr::get(ctx, &kept));
    }
    attrs
}
