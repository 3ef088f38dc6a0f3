//! Common subexpression elimination: a pure op identical to an earlier one
//! (same name, interned attribute dictionary, operands — in either order for
//! commutative ops — and result types) in the same block or an enclosing one
//! is replaced by it. Scopes follow the regions, so a value is only reused
//! where it is visible.
//!
//! Only ops with value semantics take part ([`mergeable`]): no operand may
//! share a buffer that some op stores into (an in-place or view user, an
//! unknown op) or be a `while`'s condition (the loop rebinds its variable),
//! no result may share a buffer some op writes or be pinned (yielded,
//! carried by a `while`, an output of the program), and every result is a
//! dense tensor. A `while` rebinding its other variables copies no data, so
//! ops reading a loop's initial value still merge. These are Paddle's own
//! CSE rules, made exact by the alias analysis.
//!
//! A `shape`/`shape64` op stands for another of the same kind whose input
//! has the same symbolic shape ([`ShapeAnalysis`]: the same expression per
//! dim, equalities substituted), although the inputs differ: `shape(x)`
//! and `shape(relu(x))` read one batch size, so the shape arithmetic after
//! them merges too. A read of some dims from a shape (`slice` or
//! `strided_slice` of a `shape`/`shape64` result, with bounds the analysis
//! knows) stands for another that reads the same dim expressions, although
//! the shapes differ as a whole: `shape(x)[0]` and `shape(y)[0]` of
//! `x: [S0, 16]` and `y: [S0, 32]` are one batch size. The analysis assumes
//! only the checks of ops that always run, and runs only when the program
//! has a shape op.

use rustc_hash::FxHashMap;

use pir_core::{BlockId, OpId, Program, Symbol, ValueId};

use pir_dialects::op_facts::OpFact;
use pir_dialects::ops::{Shape64Op, ShapeOp, SliceOp, StridedSliceOp};
use pir_shape::{Assume, DimExpr, ShapeAnalysis};

use crate::alias::{is_dense, AliasAnalysis};
use crate::effects::is_pure;
use crate::pass::{Changed, Pass, PassError, PassResult, PassRun};

/// Whether `op` may be merged with an identical op, or stand for one: it is
/// pure, computes dense tensors, no result shares a buffer that some op
/// writes or the executor knows by name (pinned), and what its operands read
/// is what they were computed as wherever they are read
/// ([`AliasAnalysis::is_stable`]: a loop's initial value is, though the loop
/// rebinds its variables).
///
/// A result may not be a loop's initial value even though that value stays
/// what it was: Paddle 3.3.1's executor fails ("Tensor holds no memory")
/// when a value a `while` carries in is read after the loop, which merging an
/// identical op after the loop into it would do.
pub fn mergeable(p: &Program, aliases: &AliasAnalysis, op: OpId) -> bool {
    // Cheap table lookups first; the type check last.
    is_pure(p, op)
        && p.results(op)
            .all(|r| !aliases.is_pinned(r) && !aliases.is_written(r))
        && p.operands(op).flatten().all(|v| aliases.is_stable(v))
        && p.results(op).all(|r| is_dense(p, p.value_type(r)))
}

/// Whether `op` reads a tensor's shape (`shape`, `shape64`).
fn is_shape_op(p: &Program, op: OpId) -> bool {
    matches!(p.op_name_str(op), ShapeOp::NAME | Shape64Op::NAME)
}

/// The state of one run: the analysis, the commutative ops' symbols and the
/// scopes of visible ops by hash.
struct Cse<'a> {
    aliases: &'a AliasAnalysis,
    /// The symbolic shapes, when the program reads shapes.
    shapes: Option<ShapeAnalysis>,
    commutative: Vec<Symbol>,
    scopes: Vec<FxHashMap<u64, OpId>>,
    merged: u64,
}

impl Cse<'_> {
    /// Whether the two operands of a commutative `op` are out of canonical
    /// (ascending) order.
    fn swapped(&self, p: &Program, op: OpId) -> bool {
        p.num_operands(op) == 2
            && p.operand(op, 0) > p.operand(op, 1)
            && self.commutative.contains(&p.op_name(op))
    }

    /// A hash of what makes two ops interchangeable: name, interned
    /// attribute dictionary, operands in canonical order and result types.
    /// Equal hashes are confirmed with [`Cse::same`]; on a (rare) collision
    /// between different ops the later one is simply not merged.
    fn key(&self, p: &Program, op: OpId) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        p.op_name(op).hash(&mut h);
        p.attrs(op).hash(&mut h);
        if let Some(dims) = self.shape_read(p, op) {
            dims.hash(&mut h);
        } else if self.swapped(p, op) {
            p.operand(op, 1).hash(&mut h);
            p.operand(op, 0).hash(&mut h);
        } else {
            for v in p.operands(op) {
                v.hash(&mut h);
            }
        }
        for r in p.results(op) {
            p.value_type(r).hash(&mut h);
        }
        h.finish()
    }

    /// The symbolic dims a shape read computes, when known: those of a
    /// `shape`/`shape64` op's input, or those a `slice`/`strided_slice` of
    /// such an op's result takes (its result's data, where the analysis
    /// computes it: for `slice` with known bounds; its `strided_slice` rule
    /// gives only the shape). Two reads of one kind computing the same dims
    /// are one value.
    fn shape_read(&self, p: &Program, op: OpId) -> Option<&[DimExpr]> {
        let shapes = self.shapes.as_ref()?;
        match p.op_name_str(op) {
            ShapeOp::NAME | Shape64Op::NAME => shapes.shape(p.operand(op, 0)?),
            SliceOp::NAME | StridedSliceOp::NAME => {
                let source = p.defining_op(p.operand(op, 0)?)?;
                if !is_shape_op(p, source) {
                    return None;
                }
                shapes.fact(p.result(op, 0))?.data()
            }
            _ => None,
        }
    }

    fn same(&self, p: &Program, a: OpId, b: OpId) -> bool {
        let same_shape_read = match (self.shape_read(p, a), self.shape_read(p, b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        };
        let operands_equal = same_shape_read
            || match (self.swapped(p, a), self.swapped(p, b)) {
                (false, false) => p.operands(a).eq(p.operands(b)),
                (swap_a, swap_b) => {
                    let order = |op: OpId, swap: bool| {
                        let (x, y) = (p.operand(op, 0), p.operand(op, 1));
                        if swap {
                            (y, x)
                        } else {
                            (x, y)
                        }
                    };
                    p.num_operands(a) == 2
                        && p.num_operands(b) == 2
                        && order(a, swap_a) == order(b, swap_b)
                }
            };
        p.op_name(a) == p.op_name(b)
            && p.attrs(a) == p.attrs(b)
            && operands_equal
            && p.num_results(a) == p.num_results(b)
            && p.results(a)
                .zip(p.results(b))
                .all(|(x, y)| p.value_type(x) == p.value_type(y))
    }

    fn block(&mut self, p: &mut Program, block: BlockId) -> Result<(), PassError> {
        let ops: Vec<OpId> = p.block_ops(block).collect();
        self.scopes.push(FxHashMap::default());
        for op in ops {
            if p.num_regions(op) > 0 {
                let regions: Vec<_> = p.regions(op).collect();
                for region in regions {
                    for inner in p.region_blocks(region).to_vec() {
                        self.block(p, inner)?;
                    }
                }
                continue;
            }
            // Merging only replaces uses of pure values by equal pure values,
            // so the analysis stays true for the rest of the pass.
            if !mergeable(p, self.aliases, op) {
                continue;
            }
            let key = self.key(p, op);
            let existing = self
                .scopes
                .iter()
                .rev()
                .find_map(|s| s.get(&key).copied())
                .filter(|&e| self.same(p, e, op));
            match existing {
                Some(earlier) => {
                    let replacements: Vec<ValueId> = p.results(earlier).collect();
                    p.replace_op(op, &replacements).map_err(|e| PassError {
                        pass: INFO.argument.into(),
                        message: e.to_string(),
                    })?;
                    self.merged += 1;
                }
                None => {
                    if let Some(scope) = self.scopes.last_mut() {
                        scope.entry(key).or_insert(op);
                    }
                }
            }
        }
        self.scopes.pop();
        Ok(())
    }
}

pass_without_options! {
    /// The `cse` pass.
    INFO = "cse", "replace an op by an identical earlier one visible at its place";
    /// The `cse` pass.
    CommonSubexpressionElimination
}

impl Pass for CommonSubexpressionElimination {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let aliases = AliasAnalysis::new(program);
        let ctx = program.ctx();
        let reads_shapes = super::ops_under(program, root)
            .into_iter()
            .any(|op| is_shape_op(program, op));
        // Merging keeps every value's fact (a replaced value equals its
        // replacement), so the analysis holds for the whole run.
        let shapes = reads_shapes.then(|| {
            ShapeAnalysis::run_assuming(program, Assume::TopLevelExcept(Default::default()))
        });
        let mut cse = Cse {
            aliases: &aliases,
            shapes,
            commutative: OpFact::Commutative
                .ops()
                .iter()
                .filter_map(|name| ctx.lookup_symbol(name))
                .collect(),
            scopes: Vec::new(),
            merged: 0,
        };
        let regions: Vec<_> = program.regions(root).collect();
        for region in regions {
            for block in program.region_blocks(region).to_vec() {
                cse.block(program, block)?;
            }
        }
        let merged = cse.merged;
        cx.statistics.add("ops merged", merged);
        Ok(Changed::from(merged > 0))
    }
}
