//! Walking nested operations: pre- or post-order, read-only or erase-safe.
//!
//! ```
//! use std::sync::Arc;
//! use pir_core::{IrContext, Program, walk::{Order, WalkResult}};
//! let ctx = Arc::new(IrContext::new());
//! let mut p = Program::new(ctx.clone());
//! let top = p.top_block();
//! for _ in 0..3 {
//!     let op = p.create_op(ctx.symbol("test.nop"), &[], &[], pir_core::AttrDict::EMPTY, 0);
//!     p.append_op(top, op);
//! }
//! // Erase every op while walking.
//! let module = p.module_op();
//! p.walk_mut(module, Order::Post, |p, op| {
//!     if op != module { p.erase_op(op).unwrap(); }
//!     WalkResult::Advance
//! });
//! assert_eq!(p.num_ops(), 0);
//! ```

use crate::program::{BlockId, OpId, Program};

/// Visit order for nested ops.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Order {
    /// An op before the ops in its regions.
    Pre,
    /// The ops in an op's regions before the op.
    Post,
}

/// What a mutable walk does after visiting an op.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WalkResult {
    /// Go on (into the op's regions in pre-order).
    Advance,
    /// Do not enter this op's regions (pre-order only).
    Skip,
    /// Stop the whole walk.
    Interrupt,
}

impl Program {
    /// Visits `root` and every op nested in it.
    pub fn walk(&self, root: OpId, order: Order, f: &mut impl FnMut(OpId)) {
        if order == Order::Pre {
            f(root);
        }
        for r in self.regions(root) {
            for &b in self.region_blocks(r) {
                self.walk_block(b, order, f);
            }
        }
        if order == Order::Post {
            f(root);
        }
    }

    /// Visits every op of a block and its nested ops.
    pub fn walk_block(&self, block: BlockId, order: Order, f: &mut impl FnMut(OpId)) {
        for op in self.block_ops(block) {
            self.walk(op, order, f);
        }
    }

    /// Visits every op nested in `root` (and `root`), allowing the callback to
    /// edit the program: erasing or moving the visited op or any other op is
    /// safe; ops erased before their visit are skipped. Each block's op list is
    /// snapshotted when the walk enters it, so ops inserted into a block being
    /// walked are not visited.
    pub fn walk_mut(
        &mut self,
        root: OpId,
        order: Order,
        mut f: impl FnMut(&mut Program, OpId) -> WalkResult,
    ) -> WalkResult {
        self.walk_mut_inner(root, order, &mut f)
    }

    fn walk_mut_inner(
        &mut self,
        op: OpId,
        order: Order,
        f: &mut impl FnMut(&mut Program, OpId) -> WalkResult,
    ) -> WalkResult {
        if order == Order::Pre {
            match f(self, op) {
                WalkResult::Interrupt => return WalkResult::Interrupt,
                WalkResult::Skip => return WalkResult::Advance,
                WalkResult::Advance => {}
            }
            if self.is_erased(op) {
                return WalkResult::Advance;
            }
        }
        let regions: Vec<_> = self.regions(op).collect();
        for r in regions {
            let blocks = self.region_blocks(r).to_vec();
            for b in blocks {
                let ops: Vec<OpId> = self.block_ops(b).collect();
                for inner in ops {
                    if self.is_erased(inner) {
                        continue;
                    }
                    if self.walk_mut_inner(inner, order, f) == WalkResult::Interrupt {
                        return WalkResult::Interrupt;
                    }
                }
            }
        }
        if order == Order::Post {
            return match f(self, op) {
                WalkResult::Interrupt => WalkResult::Interrupt,
                _ => WalkResult::Advance,
            };
        }
        WalkResult::Advance
    }
}
