//! Common subexpression elimination: a pure op identical to an earlier one
//! (same name, interned attribute dictionary, operands and result types) in
//! the same block or an enclosing one is replaced by it. Scopes follow the
//! regions, so a value is only reused where it is visible. Ops whose results
//! an in-place op (or an unregistered op, which might be one) writes are left
//! alone.

use rustc_hash::FxHashMap;

use pir_core::{BlockId, OpId, Program, ValueId};

use crate::effects::{is_pure, may_be_written};
use crate::pass::{Changed, Pass, PassContext, PassError};

/// A hash of what makes two ops interchangeable: name, interned attribute
/// dictionary, operands and result types. Equal hashes are confirmed with
/// [`same`]; on a (rare) collision between different ops the later one is
/// simply not merged.
fn key(p: &Program, op: OpId) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    p.op_name(op).hash(&mut h);
    p.attrs(op).hash(&mut h);
    for v in p.operands(op) {
        v.hash(&mut h);
    }
    for r in p.results(op) {
        p.value_type(r).hash(&mut h);
    }
    h.finish()
}

fn same(p: &Program, a: OpId, b: OpId) -> bool {
    p.op_name(a) == p.op_name(b)
        && p.attrs(a) == p.attrs(b)
        && p.operands(a).eq(p.operands(b))
        && p.num_results(a) == p.num_results(b)
        && p.results(a)
            .zip(p.results(b))
            .all(|(x, y)| p.value_type(x) == p.value_type(y))
}

/// The `cse` pass.
#[derive(Debug, Default)]
pub struct CommonSubexpressionElimination;

impl Pass for CommonSubexpressionElimination {
    fn argument(&self) -> &'static str {
        "cse"
    }
    fn description(&self) -> &'static str {
        "replace an op by an identical earlier one visible at its place"
    }
    fn run(
        &mut self,
        p: &mut Program,
        root: OpId,
        cx: &mut PassContext,
    ) -> Result<Changed, PassError> {
        let mut scopes: Vec<FxHashMap<u64, OpId>> = Vec::new();
        let mut merged = 0u64;
        let regions: Vec<_> = p.regions(root).collect();
        for region in regions {
            for block in p.region_blocks(region).to_vec() {
                cse_block(p, block, &mut scopes, &mut merged)?;
            }
        }
        cx.statistics.add("ops merged", merged);
        Ok(if merged > 0 {
            Changed::Yes
        } else {
            Changed::No
        })
    }
}

fn has_inplace_user(p: &Program, op: OpId) -> bool {
    p.results(op).any(|r| may_be_written(p, r))
}

fn cse_block(
    p: &mut Program,
    block: BlockId,
    scopes: &mut Vec<FxHashMap<u64, OpId>>,
    merged: &mut u64,
) -> Result<(), PassError> {
    scopes.push(FxHashMap::default());
    let ops: Vec<OpId> = p.block_ops(block).collect();
    for op in ops {
        if p.num_regions(op) > 0 {
            let regions: Vec<_> = p.regions(op).collect();
            for region in regions {
                for inner in p.region_blocks(region).to_vec() {
                    cse_block(p, inner, scopes, merged)?;
                }
            }
            continue;
        }
        // A value an in-place op writes is not a pure value any more: neither
        // reuse it nor replace it.
        if !is_pure(p, op) || has_inplace_user(p, op) {
            continue;
        }
        let key = key(p, op);
        let existing = scopes
            .iter()
            .rev()
            .find_map(|s| s.get(&key).copied())
            .filter(|&e| same(p, e, op));
        match existing {
            Some(earlier) => {
                let replacements: Vec<ValueId> = p.results(earlier).collect();
                p.replace_op(op, &replacements).map_err(|e| PassError {
                    pass: "cse".into(),
                    message: e.to_string(),
                })?;
                *merged += 1;
            }
            None => {
                if let Some(scope) = scopes.last_mut() {
                    scope.entry(key).or_insert(op);
                }
            }
        }
    }
    scopes.pop();
    Ok(())
}
