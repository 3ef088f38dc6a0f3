//! Common subexpression elimination: a pure op identical to an earlier one
//! (same name, interned attribute dictionary, operands and result types) in
//! the same block or an enclosing one is replaced by it. Scopes follow the
//! regions, so a value is only reused where it is visible. Ops whose results
//! an in-place op (or an unregistered op, which might be one) writes are left
//! alone.

use rustc_hash::FxHashMap;

use pir_core::{AttrDict, BlockId, OpId, Program, Symbol, Type, ValueId};

use crate::effects::{is_pure, may_be_written};
use crate::pass::{Changed, Pass, PassContext, PassError};

/// What makes two ops interchangeable.
#[derive(Hash, PartialEq, Eq)]
struct Key {
    name: Symbol,
    attrs: AttrDict,
    operands: Box<[Option<ValueId>]>,
    results: Box<[Type]>,
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
        let mut scopes: Vec<FxHashMap<Key, OpId>> = Vec::new();
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
    scopes: &mut Vec<FxHashMap<Key, OpId>>,
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
        let key = Key {
            name: p.op_name(op),
            attrs: p.attrs(op),
            operands: p.operands(op).collect(),
            results: p.results(op).map(|r| p.value_type(r)).collect(),
        };
        let existing = scopes.iter().rev().find_map(|s| s.get(&key).copied());
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
                    scope.insert(key, op);
                }
            }
        }
    }
    scopes.pop();
    Ok(())
}
