//! Loop-invariant code motion: a pure op of a `pd_op.while` body that reads
//! only values from outside the loop computes the same value in every
//! iteration, so it moves before the `while` and runs once.
//!
//! An op of the body (directly in it, not nested deeper) moves when:
//! - it is pure ([`is_pure`]);
//! - every operand is defined outside the `while`, or by an op that moved
//!   before it, and no op stores into the operand's buffer
//!   ([`AliasAnalysis::is_stored`]): an outer value updated in place by the
//!   body is not invariant. A value the loop only rebinds (its initial
//!   value, say) keeps its contents: the executor shares buffers and copies
//!   nothing;
//! - no op stores into a result's buffer: one written in place later in the
//!   body must be fresh each time. A result the body yields stays where it
//!   is, for the executor rebinds the loop's variables to it; the op is
//!   copied before the loop for its other readers instead;
//! - it cannot fail where the original would not have run it
//!   (`speculatable`). A loop may run zero times; a moved op then runs
//!   where the original ran nothing. Types fix the static dims, which
//!   Paddle checked when it built the program, so the op moves only when
//!   its operands' shapes cannot disagree at run time: every dim static
//!   except the batch (leading) dim of an op that treats samples apart
//!   (convolutions, norms, element-wise and `matmul` by a weight), and two
//!   dynamic dims of an element-wise op only when the symbolic shape
//!   analysis proves them equal ([`ShapeAnalysis::same_dim`]: one data
//!   input's batch on both sides, say); no integer division, which raises
//!   on a zero divisor.
//!
//! Inner loops go first, so an op leaves every loop it is invariant in.
//! Paddle's passes have no such motion; its executor runs every body op in
//! every iteration.

use pir_core::op_info::TraitId;
use pir_core::{InsertPoint, OpId, Program, ValueId};
use pir_dialects::op_facts::OpFact;
use pir_dialects::ops::MatmulOp;
use rustc_hash::FxHashSet;

use crate::alias::{while_body, yield_of, AliasAnalysis};
use crate::effects::is_pure;
use crate::pass::{Changed, Pass, PassResult, PassRun};
use crate::transforms::{dense_dims, run_on_loops};
use pir_shape::{Assume, ShapeAnalysis};

pass_without_options! {
    /// The `loop_invariant_code_motion` pass.
    INFO = "loop_invariant_code_motion",
        "move pure ops of a while body that read only values from outside the loop \
                  before the loop, when they cannot fail where the loop would not run";
    /// The `loop_invariant_code_motion` pass.
    LoopInvariantCodeMotion
}

impl Pass for LoopInvariantCodeMotion {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        run_on_loops(program, root, |program, loops| {
            // Moving an op changes neither alias edges nor values, so both
            // analyses hold for the whole run.
            let aliases = AliasAnalysis::new(program);
            // Only the checks of ops that run whenever the program does
            // prove dims equal: a check in a body that may not run proves
            // nothing before it.
            let mut shapes =
                ShapeAnalysis::run_assuming(program, Assume::TopLevelExcept(Default::default()));
            let traits = ElementWise::new(program);
            let mut total = Hoisted::default();
            for lp in loops {
                let done = hoist(program, &aliases, &mut shapes, traits, lp);
                total.moved += done.moved;
                total.copied += done.copied;
            }
            cx.statistics.add("ops moved out of loops", total.moved);
            cx.statistics
                .add("yielded ops copied out of loops", total.copied);
            Ok(Changed::from(total.moved + total.copied > 0))
        })
    }
}

/// What one loop gave up: ops moved before it, and ops copied before it
/// for their readers in the body while the body keeps computing the value it
/// yields.
#[derive(Debug, Default, Clone, Copy)]
struct Hoisted {
    moved: u64,
    copied: u64,
}

/// Moves the invariant ops of `lp`'s body before `lp`, in body order.
///
/// A result the body yields stays computed in the body: the executor
/// rebinds the loop's variables to the yielded values every iteration, and
/// a yielded value from outside the loop would bind the loop's variable to
/// that outer buffer. Such an op is copied instead: the copy, before the
/// loop, serves the op's other readers in the body, so they (and what
/// follows from them) can move too.
fn hoist(
    p: &mut Program,
    aliases: &AliasAnalysis,
    shapes: &mut ShapeAnalysis,
    traits: ElementWise,
    lp: OpId,
) -> Hoisted {
    let mut done = Hoisted::default();
    let Some(body) = while_body(p, lp) else {
        return done;
    };
    let terminator = yield_of(p, body);
    // Results of copies: made after the analysis, their readers are those
    // of an unstored value.
    let mut fresh: FxHashSet<ValueId> = FxHashSet::default();
    let ops: Vec<OpId> = p.block_ops(body).collect();
    for op in ops {
        let invariant = is_pure(p, op)
            && p.operands(op)
                .flatten()
                .all(|v| (fresh.contains(&v) || !aliases.is_stored(v)) && !defined_under(p, v, lp))
            && p.results(op).all(|r| !aliases.is_stored(r))
            && speculatable(p, shapes, traits, op);
        if !invariant {
            continue;
        }
        let read_by = |p: &Program, r: ValueId, yielded: bool| {
            p.uses(r)
                .any(|u| (Some(p.operand_owner(u)) == terminator) == yielded)
        };
        let yielded = p.results(op).any(|r| read_by(p, r, true));
        if !yielded {
            p.move_op(op, InsertPoint::Before(lp));
            done.moved += 1;
            continue;
        }
        if !p.results(op).any(|r| read_by(p, r, false)) {
            continue;
        }
        let operands: Vec<Option<ValueId>> = p.operands(op).collect();
        let types: Vec<_> = p.results(op).map(|r| p.value_type(r)).collect();
        let copy = p.create_op(p.op_name(op), &operands, &types, p.attrs(op), 0);
        p.insert_op(copy, InsertPoint::Before(lp));
        let pairs: Vec<(ValueId, ValueId)> = p.results(op).zip(p.results(copy)).collect();
        for (r, c) in pairs {
            p.replace_uses_if(r, c, |p, u| Some(p.operand_owner(u)) != terminator);
            shapes.copy_fact(r, c);
            fresh.insert(c);
        }
        done.copied += 1;
    }
    done
}

/// Whether `v` is defined inside `op` (a result of an op nested in it, or an
/// argument of one of its blocks).
fn defined_under(p: &Program, v: ValueId, op: OpId) -> bool {
    p.value_parent_block(v)
        .and_then(|b| p.block_parent_op(b))
        .is_some_and(|owner| owner == op || p.is_proper_ancestor(op, owner))
}

/// Paddle's element-wise traits, looked up once per run.
#[derive(Debug, Clone, Copy)]
struct ElementWise {
    unary: TraitId,
    binary: TraitId,
}

impl ElementWise {
    fn new(p: &Program) -> Self {
        ElementWise {
            unary: p.ctx().trait_id("pir::UnaryElementWiseTrait"),
            binary: p.ctx().trait_id("pir::BinaryElementWiseTrait"),
        }
    }
}

/// Whether `op` cannot fail at run time on operands of their types (module
/// docs): every operand and result is a dense tensor, and either the op
/// treats samples apart and only its first operand's leading dim is
/// dynamic, or it is element-wise and its operands broadcast by their types.
/// An op without operands (`full`, `full_int_array`) reads nothing that
/// could disagree.
fn speculatable(p: &Program, symbolic: &ShapeAnalysis, traits: ElementWise, op: OpId) -> bool {
    // Absent optional inputs read nothing. An interpolation's optional
    // inputs are its output size or scale, whose values can make it fail.
    let operands: Vec<ValueId> = p.operands(op).flatten().collect();
    if p.op_name_str(op).ends_with("_interp") && operands.len() > 1 {
        return false;
    }
    let Some(shapes) = operands
        .iter()
        .map(|&v| dense_dims(p, v))
        .collect::<Option<Vec<&[i64]>>>()
    else {
        return false;
    };
    if p.results(op).any(|r| dense_dims(p, r).is_none()) {
        return false;
    }
    let Some(info) = p.op_info(op) else {
        return false;
    };
    let per_sample = OpFact::KeepsLeadingDim.holds(p, op)
        || info.has_trait(traits.unary)
        || keeps_leading_matmul(p, op);
    if per_sample {
        return shapes.iter().enumerate().all(|(k, dims)| {
            dims.iter()
                .enumerate()
                .all(|(d, &n)| n >= 0 || (k == 0 && d == 0))
        });
    }
    if info.has_trait(traits.binary) {
        if OpFact::IntegerDivision.holds(p, op) && !float_results(p, op) {
            return false;
        }
        return operands
            .iter()
            .zip(&shapes)
            .enumerate()
            .all(|(i, (&a, da))| {
                operands
                    .iter()
                    .zip(&shapes)
                    .skip(i + 1)
                    .all(|(&b, db)| broadcast(symbolic, (a, da), (b, db)))
            });
    }
    operands.is_empty()
}

/// Whether every result of `op` is a tensor of floating-point (or complex)
/// numbers.
fn float_results(p: &Program, op: OpId) -> bool {
    p.results(op).all(|r| {
        pir_params::bound::declared(p, p.value_type(r)).is_some_and(|(dtype, _)| dtype.is_float())
    })
}

/// Whether two operands broadcast whatever their dynamic dims turn out to
/// be: aligned from the right, each pair of dims is equal and static, or one
/// is a static 1, or both are dynamic and the symbolic shapes prove them
/// equal (the leading dims of one data input, say).
fn broadcast(
    shapes: &ShapeAnalysis,
    (a, da): (ValueId, &[i64]),
    (b, db): (ValueId, &[i64]),
) -> bool {
    let (ra, rb) = (da.len(), db.len());
    da.iter()
        .rev()
        .zip(db.iter().rev())
        .enumerate()
        .all(|(from_right, (&m, &n))| {
            (m == n && m >= 0)
                || m == 1
                || n == 1
                || (m == -1
                    && n == -1
                    && shapes.same_dim(a, ra - 1 - from_right, b, rb - 1 - from_right))
        })
}

/// `matmul(x, y)` without `transpose_x`, `y` of rank ≤ 2 and `x` of rank
/// ≥ 2: the result's leading dim is `x`'s (no batch broadcasting).
fn keeps_leading_matmul(p: &Program, op: OpId) -> bool {
    if p.op_name_str(op) != MatmulOp::NAME {
        return false;
    }
    let rank = |v: Option<ValueId>| v.and_then(|v| dense_dims(p, v)).map(<[i64]>::len);
    p.attr_bool(op, "transpose_x") == Some(false)
        && rank(p.operand(op, 0)).is_some_and(|r| r >= 2)
        && rank(p.operand(op, 1)).is_some_and(|r| r <= 2)
}
