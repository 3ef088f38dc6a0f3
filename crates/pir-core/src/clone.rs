//! Deep cloning of operations and regions with a value/block mapping
//! (Paddle's `IrMapping`, MLIR's `IRMapping`).
//!
//! ```
//! use std::sync::Arc;
//! use pir_core::{IrContext, Program, clone::IrMapping, builtin::ScalarType, AttrDict};
//! let ctx = Arc::new(IrContext::new());
//! let mut p = Program::new(ctx.clone());
//! let ty = ctx.intern_type(ScalarType::F32);
//! let top = p.top_block();
//! let a = p.create_op(ctx.symbol("test.src"), &[], &[ty], AttrDict::EMPTY, 0);
//! p.append_op(top, a);
//! let mut map = IrMapping::default();
//! let b = p.clone_op(a, &mut map);
//! p.append_op(top, b);
//! assert_eq!(map.value(p.result(a, 0)), Some(p.result(b, 0)));
//! ```

use rustc_hash::FxHashMap;

use crate::program::{BlockId, OpId, Program, ValueId};

/// A mapping from original values and blocks to their clones.
#[derive(Default, Debug, Clone)]
pub struct IrMapping {
    values: FxHashMap<ValueId, ValueId>,
    blocks: FxHashMap<BlockId, BlockId>,
}

impl IrMapping {
    /// Maps `from` to `to`.
    pub fn map_value(&mut self, from: ValueId, to: ValueId) {
        self.values.insert(from, to);
    }

    /// The value `from` is mapped to.
    pub fn value(&self, from: ValueId) -> Option<ValueId> {
        self.values.get(&from).copied()
    }

    /// The mapped value, or `from` itself when unmapped.
    pub fn value_or_self(&self, from: ValueId) -> ValueId {
        self.value(from).unwrap_or(from)
    }

    /// Maps block `from` to `to`.
    pub fn map_block(&mut self, from: BlockId, to: BlockId) {
        self.blocks.insert(from, to);
    }

    /// The block `from` is mapped to.
    pub fn block(&self, from: BlockId) -> Option<BlockId> {
        self.blocks.get(&from).copied()
    }
}

impl Program {
    /// Clones `op` with everything in its regions into a new detached op.
    /// Operands are remapped through `map` (unmapped values are used as they
    /// are, e.g. values defined above); results, block arguments and blocks of
    /// the clone are recorded in `map`.
    pub fn clone_op(&mut self, op: OpId, map: &mut IrMapping) -> OpId {
        let operands: Vec<Option<ValueId>> = self
            .operands(op)
            .map(|v| v.map(|v| map.value_or_self(v)))
            .collect();
        let result_types: Vec<_> = self.results(op).map(|r| self.value_type(r)).collect();
        let new_op = self.create_op(
            self.op_name(op),
            &operands,
            &result_types,
            self.attrs(op),
            self.num_regions(op),
        );
        for (old, new) in self
            .results(op)
            .zip(self.results(new_op))
            .collect::<Vec<_>>()
        {
            map.map_value(old, new);
        }
        let regions: Vec<_> = self.regions(op).zip(self.regions(new_op)).collect();
        for (old_region, new_region) in regions {
            let blocks = self.region_blocks(old_region).to_vec();
            // Create all blocks and arguments first: ops may refer to any block's arguments.
            for &old_block in &blocks {
                let new_block = self.add_block(new_region);
                map.map_block(old_block, new_block);
                for a in self.block_args(old_block).to_vec() {
                    let ty = self.value_type(a);
                    let na = self.add_block_arg(new_block, ty);
                    map.map_value(a, na);
                }
                for (name, a) in self.block_kwargs(old_block).to_vec() {
                    let ty = self.value_type(a);
                    let na = self.add_block_kwarg(new_block, name, ty);
                    map.map_value(a, na);
                }
            }
            for &old_block in &blocks {
                let new_block = map.block(old_block).expect("block mapped above");
                let ops: Vec<OpId> = self.block_ops(old_block).collect();
                for inner in ops {
                    let cloned = self.clone_op(inner, map);
                    self.append_op(new_block, cloned);
                }
            }
        }
        new_op
    }
}
