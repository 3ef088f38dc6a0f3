//! Which values share their leading (batch) dim at run time.
//!
//! A type says `-1` for a batch size it does not know, so two `[-1,16,8,8]`
//! tensors may have different batch sizes, and `add` of them may broadcast a
//! batch of 1 to the other's. Most models have one batch size, set by their
//! data input: this analysis follows it. The *origin* of a value with a
//! dynamic leading dim is the `pd_op.data` result whose leading dim it has,
//! when the ops between provably keep it:
//! - an op that keeps its first operand's leading dim in its first result
//!   ([`OpFact::KeepsLeadingDim`], ops with Paddle's `UnaryElementWiseTrait`, and
//!   `matmul` of a weight of rank ≤ 2 without `transpose_x`);
//! - an op with `BinaryElementWiseTrait` (or [`OpFact::Broadcasts`])
//!   whose operands of the result's rank all have the same origin, or a
//!   static leading dim of 1 (broadcast).
//!
//! - a `pd_op.while` body argument, and the matching result, when its initial
//!   value has the origin and the body yields a value of that origin back
//!   (see [`LeadingDims::new`]);
//! - a `pd_op.if` result, when every branch yields a value of that origin.
//!
//! Values whose leading dim comes from anything else (a `reshape`, a
//! `gather`) have no origin: nothing is claimed about them.

use pir_core::op_info::TraitId;
use pir_core::walk::Order;
use pir_core::{OpId, Program, ValueId};
use pir_dialects::op_def::OpDefinition;
use pir_dialects::op_facts::OpFact;
use pir_dialects::ops::{DataOp, IfOp, MatmulOp, WhileOp};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::alias::{while_body, yield_of};
use crate::transforms::dense_dims;

/// Whether `op` broadcasts its tensor operands element-wise: it has
/// Paddle's `BinaryElementWiseTrait` (`binary`) or
/// [`OpFact::Broadcasts`].
pub fn broadcasts(p: &Program, op: OpId, binary: TraitId) -> bool {
    p.op_info(op).is_some_and(|i| i.has_trait(binary)) || OpFact::Broadcasts.holds(p, op)
}

/// The origin of every value with a dynamic leading dim that has one
/// (module docs), computed in one walk in program order.
#[derive(Debug, Default)]
pub struct LeadingDims(FxHashMap<ValueId, ValueId>);

impl LeadingDims {
    /// The origins of the values under `root`.
    ///
    /// A loop-carried value keeps its initial origin only if every iteration
    /// yields a value of that origin, which depends on the origins of the
    /// body's own arguments. The walk first assumes every body argument has
    /// its initial value's origin, then drops the assumptions whose yields
    /// disagree and walks again, until none is dropped. What is left holds
    /// by induction over the iterations: each argument starts with its
    /// origin, and an iteration whose arguments have theirs yields them back.
    /// Each round drops at least one assumption, so there are at most as many
    /// rounds as loop-carried values, plus one.
    pub fn new(p: &Program, root: OpId) -> Self {
        let mut dropped = FxHashSet::default();
        loop {
            let map = walk(p, root, &dropped);
            let before = dropped.len();
            for (arg, yielded) in carried_pairs(p, root) {
                if map.contains_key(&arg) && map.get(&yielded) != map.get(&arg) {
                    dropped.insert(arg);
                }
            }
            if dropped.len() == before {
                return LeadingDims(map);
            }
        }
    }

    /// The origin of `v`'s leading dim, if known.
    pub fn origin(&self, v: ValueId) -> Option<ValueId> {
        self.0.get(&v).copied()
    }

    /// Records that `copy` (a value made after the analysis, computed like
    /// `v`) has `v`'s origin.
    pub fn copy_origin(&mut self, v: ValueId, copy: ValueId) {
        if let Some(origin) = self.origin(v) {
            self.0.insert(copy, origin);
        }
    }
}

/// One walk in program order, with the body arguments of `dropped` given no
/// origin and every other body argument its initial value's.
fn walk(p: &Program, root: OpId, dropped: &FxHashSet<ValueId>) -> FxHashMap<ValueId, ValueId> {
    let mut walk = Walk {
        p,
        dropped,
        unary: p.ctx().trait_id("pir::UnaryElementWiseTrait"),
        binary: p.ctx().trait_id("pir::BinaryElementWiseTrait"),
        map: FxHashMap::default(),
    };
    walk.regions_of(root);
    walk.map
}

/// The state of one walk.
struct Walk<'a> {
    p: &'a Program,
    dropped: &'a FxHashSet<ValueId>,
    unary: TraitId,
    binary: TraitId,
    map: FxHashMap<ValueId, ValueId>,
}

impl Walk<'_> {
    fn regions_of(&mut self, op: OpId) {
        let p = self.p;
        for region in p.regions(op) {
            for &block in p.region_blocks(region) {
                for op in p.block_ops(block) {
                    self.op(op);
                }
            }
        }
    }

    fn op(&mut self, op: OpId) {
        let p = self.p;
        match p.op_name_str(op) {
            WhileOp::NAME => {
                // Before the body: the arguments' origins are assumed here.
                for (i, arg, result) in while_carried(p, op) {
                    let init = p.operand(op, i + 1).and_then(|x| self.origin(x));
                    if let Some(origin) = init.filter(|_| !self.dropped.contains(&arg)) {
                        for v in [arg, result] {
                            if leading_dim(p, v) == Some(-1) {
                                self.map.insert(v, origin);
                            }
                        }
                    }
                }
                self.regions_of(op);
            }
            IfOp::NAME => {
                // After the branches: a result has the origin every branch
                // yields for it.
                self.regions_of(op);
                for (i, result) in p.results(op).enumerate() {
                    if leading_dim(p, result) != Some(-1) {
                        continue;
                    }
                    let mut origins = p.regions(op).map(|region| {
                        let block = p.region_blocks(region).first().copied()?;
                        let yielded = p.operand(yield_of(p, block)?, i)?;
                        self.origin(yielded)
                    });
                    let first = origins.next().flatten();
                    if let Some(origin) = first.filter(|&o| origins.all(|x| x == Some(o))) {
                        self.map.insert(result, origin);
                    }
                }
            }
            _ if p.num_regions(op) > 0 => self.regions_of(op),
            name => {
                let Some(result) = p.results(op).next() else {
                    return;
                };
                if leading_dim(p, result) != Some(-1) {
                    return;
                }
                let info = p.op_info(op);
                let origin = if name == DataOp::NAME {
                    Some(result)
                } else if OpFact::KeepsLeadingDim.holds(p, op)
                    || info.is_some_and(|i| i.has_trait(self.unary))
                    || keeps_leading_matmul(p, op)
                {
                    p.operand(op, 0).and_then(|x| self.origin(x))
                } else if broadcasts(p, op, self.binary) {
                    binary_origin(p, &self.map, op, result)
                } else {
                    None
                };
                if let Some(origin) = origin {
                    self.map.insert(result, origin);
                }
            }
        }
    }

    fn origin(&self, v: ValueId) -> Option<ValueId> {
        self.map.get(&v).copied()
    }
}

/// `(index, body argument, result)` of each loop-carried value of a
/// `pd_op.while` (operand `index + 1`, yielded as operand `index + 1`).
fn while_carried(p: &Program, op: OpId) -> Vec<(usize, ValueId, ValueId)> {
    let Some(body) = while_body(p, op) else {
        return Vec::new();
    };
    p.block_args(body)
        .iter()
        .enumerate()
        .filter(|&(i, _)| i < p.num_results(op))
        .map(|(i, &arg)| (i, arg, p.result(op, i)))
        .collect()
}

/// `(body argument, value yielded for it)` of every `pd_op.while` under `root`.
fn carried_pairs(p: &Program, root: OpId) -> Vec<(ValueId, ValueId)> {
    let mut pairs = Vec::new();
    p.walk(root, Order::Pre, &mut |op| {
        if p.op_name_str(op) != WhileOp::NAME {
            return;
        }
        let Some(terminator) = while_body(p, op).and_then(|b| yield_of(p, b)) else {
            return;
        };
        for (i, arg, _) in while_carried(p, op) {
            if let Some(yielded) = p.operand(terminator, i + 1) {
                pairs.push((arg, yielded));
            }
        }
    });
    pairs
}

/// The leading dim of `v`'s dense tensor type, if it has one.
fn leading_dim(p: &Program, v: ValueId) -> Option<i64> {
    dense_dims(p, v)?.first().copied()
}

/// The rank of `v`'s dense tensor type, if it is one.
fn rank(p: &Program, v: ValueId) -> Option<usize> {
    dense_dims(p, v).map(<[i64]>::len)
}

/// `matmul(x, y)` without `transpose_x`, `y` of rank ≤ 2 and `x` of rank
/// ≥ 2: the result's leading dim is `x`'s (no batch broadcasting).
pub(crate) fn keeps_leading_matmul(p: &Program, op: OpId) -> bool {
    if p.op_name_str(op) != MatmulOp::NAME {
        return false;
    }
    p.attr_bool(op, "transpose_x") == Some(false)
        && p.operand(op, 0)
            .and_then(|x| rank(p, x))
            .is_some_and(|r| r >= 2)
        && p.operand(op, 1)
            .and_then(|y| rank(p, y))
            .is_some_and(|r| r <= 2)
}

/// The origin of an element-wise binary op's result: every operand of the
/// result's rank has that origin or a static leading dim of 1; operands of
/// lower rank do not reach the leading dim.
fn binary_origin(
    p: &Program,
    map: &FxHashMap<ValueId, ValueId>,
    op: OpId,
    result: ValueId,
) -> Option<ValueId> {
    let r = rank(p, result)?;
    let definition = p.op_info(op)?.interface::<OpDefinition>()?.0;
    let mut origin = None;
    for (v, input) in p.operands(op).zip(definition.inputs) {
        let Some(v) = v else { continue };
        if input.mutable_attribute || rank(p, v)? < r {
            continue;
        }
        match leading_dim(p, v)? {
            1 => {}
            -1 => {
                let o = map.get(&v).copied()?;
                if origin.is_some_and(|known| known != o) {
                    return None;
                }
                origin = Some(o);
            }
            _ => return None,
        }
    }
    origin
}
