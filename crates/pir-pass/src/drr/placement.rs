//! Where a rule's result ops go, and what the ops they are placed among
//! may write.

use pir_core::{InsertPoint, OpId, Program, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// What the ops between the first matched op and the anchor (the matched
/// ones left out) may write, gathered once per match.
pub(super) struct SpanWrites {
    /// An op whose writes are not known op by op (regions, unregistered
    /// ops) stands there: it may write anything.
    pub(super) opaque: bool,
    /// The operands that in-place ops there write.
    pub(super) written: FxHashSet<ValueId>,
}

impl SpanWrites {
    pub(super) fn new(p: &Program, span: &[OpId], matched: &FxHashSet<OpId>) -> SpanWrites {
        let mut writes = SpanWrites {
            opaque: false,
            written: FxHashSet::default(),
        };
        for &o in span.iter().filter(|o| !matched.contains(o)) {
            if p.num_regions(o) > 0 {
                writes.opaque = true;
                continue;
            }
            let Some(def) = pir_dialects::op_def(p.op_name_str(o)) else {
                if p.op_info(o)
                    .is_none_or(|i| i.has_trait(pir_core::op_info::traits::INPLACE))
                {
                    writes.opaque = true;
                }
                continue;
            };
            for &(_, input) in def.inplace {
                if let Some(v) = def
                    .input_index(input.as_str())
                    .and_then(|i| p.operand(o, i))
                {
                    writes.written.insert(v);
                }
            }
        }
        writes
    }
}

/// Where result ops go, as in Paddle's DRR: before the first matched op,
/// unless an input is defined after it — then right after the last such
/// definition. Only the ops from the first matched op to the anchor can be
/// such definitions (inputs of the pattern precede the ops reading them), so
/// only that stretch of the block is indexed.
pub(super) struct Placement {
    /// The ops from the first matched op to the anchor, in order.
    pub(super) span: Vec<OpId>,
    /// The first matched op: ops placed before it come before every op
    /// that may define an input.
    first: OpId,
    /// Order keys of the ops from the first matched op on, those placed
    /// after one of them included: increasing in block order, with gaps so
    /// that a placed op takes a key without renumbering the others (a
    /// search of the span for every result op would be quadratic).
    keys: FxHashMap<OpId, u64>,
}

impl Placement {
    pub(super) fn new(p: &Program, matched: &FxHashSet<OpId>, anchor: OpId) -> Option<Placement> {
        let mut span = vec![anchor];
        let mut missing = matched.iter().filter(|&&o| o != anchor).count();
        let mut cursor = anchor;
        while missing > 0 {
            cursor = p.prev_op(cursor)?;
            if matched.contains(&cursor) {
                missing -= 1;
            }
            span.push(cursor);
        }
        span.reverse();
        let mut placement = Placement {
            first: span[0],
            keys: FxHashMap::default(),
            span,
        };
        placement.number(placement.span.clone());
        Some(placement)
    }

    /// Gives `ops` (in block order) evenly spread keys.
    pub(super) fn number(&mut self, ops: Vec<OpId>) {
        let gap = u64::MAX / (ops.len() as u64 + 1);
        self.keys.clear();
        self.keys
            .extend(ops.into_iter().zip(1u64..).map(|(o, i)| (o, i * gap)));
    }

    pub(super) fn point(&self, p: &Program, operands: &[Option<ValueId>]) -> InsertPoint {
        let last_input = operands
            .iter()
            .flatten()
            .filter_map(|&v| p.defining_op(v))
            .filter_map(|d| self.keys.get(&d).map(|&k| (k, d)))
            .max();
        match last_input {
            Some((_, d)) => InsertPoint::After(d),
            None => InsertPoint::Before(self.first),
        }
    }

    /// Records `op`, just placed at `point` in `p`.
    pub(super) fn inserted(&mut self, p: &Program, point: InsertPoint, op: OpId) {
        // Ops placed before the first matched op never decide where a
        // later op goes: they need no key.
        let InsertPoint::After(prev) = point else {
            return;
        };
        let Some(&low) = self.keys.get(&prev) else {
            return;
        };
        let high = p
            .next_op(op)
            .and_then(|n| self.keys.get(&n).copied())
            .unwrap_or(u64::MAX);
        if high - low >= 2 {
            self.keys.insert(op, low + (high - low) / 2);
            return;
        }
        // No key left between the neighbours: number the keyed ops again
        // (they are contiguous in the block, from the first matched op).
        // Halving a gap of 2^64 / n runs out only after about 64 - log2(n)
        // ops placed at one spot, so this is rare.
        self.keys.insert(op, low);
        let mut ops = Vec::with_capacity(self.keys.len());
        let mut cursor = Some(self.first);
        while let Some(o) = cursor.filter(|o| self.keys.contains_key(o)) {
            ops.push(o);
            cursor = p.next_op(o);
        }
        self.number(ops);
    }
}
