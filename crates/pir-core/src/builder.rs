//! A builder that creates operations at an insertion point.
//!
//! ```
//! use std::sync::Arc;
//! use pir_core::{IrContext, Program, Builder, builtin::{ScalarType, I32Attr}};
//! let ctx = Arc::new(IrContext::new());
//! let mut p = Program::new(ctx.clone());
//! let ty = ctx.intern_type(ScalarType::I32);
//! let top = p.top_block();
//! let mut b = Builder::at_end(&mut p, top);
//! let c = b.op("test.const", &[], &[ty], &[("value", ctx.intern_attr(I32Attr(7)))]);
//! let v = b.program().result(c, 0);
//! b.op("test.print", &[v], &[], &[]);
//! assert_eq!(p.block_ops(top).count(), 2);
//! ```

use crate::attributes::Attribute;
use crate::context::Symbol;
use crate::program::{BlockId, InsertPoint, OpId, Program, ValueId};
use crate::types::Type;

/// Creates operations at an insertion point. Consecutive creations keep their
/// order: after inserting at `After(x)` or `BlockStart(b)` the point moves past
/// the new op.
pub struct Builder<'p> {
    program: &'p mut Program,
    point: InsertPoint,
}

impl<'p> Builder<'p> {
    /// A builder inserting at `point`.
    pub fn new(program: &'p mut Program, point: InsertPoint) -> Self {
        Builder { program, point }
    }

    /// A builder appending to `block`.
    pub fn at_end(program: &'p mut Program, block: BlockId) -> Self {
        Self::new(program, InsertPoint::BlockEnd(block))
    }

    /// The program being built.
    pub fn program(&mut self) -> &mut Program {
        self.program
    }

    /// The current insertion point.
    pub fn insertion_point(&self) -> InsertPoint {
        self.point
    }

    /// Moves the insertion point.
    pub fn set_insertion_point(&mut self, point: InsertPoint) {
        self.point = point;
    }

    /// Inserts a detached op at the insertion point.
    pub fn insert(&mut self, op: OpId) -> OpId {
        self.program.insert_op(op, self.point);
        match self.point {
            InsertPoint::After(_) | InsertPoint::BlockStart(_) => {
                self.point = InsertPoint::After(op)
            }
            InsertPoint::Before(_) | InsertPoint::BlockEnd(_) => {}
        }
        op
    }

    /// Creates and inserts an op with optional (nullable) operands and
    /// `num_regions` empty regions.
    pub fn create(
        &mut self,
        name: Symbol,
        operands: &[Option<ValueId>],
        result_types: &[Type],
        attrs: &[(Symbol, Attribute)],
        num_regions: usize,
    ) -> OpId {
        let dict = self.program.ctx().dict(attrs);
        let op = self
            .program
            .create_op(name, operands, result_types, dict, num_regions);
        self.insert(op)
    }

    /// Creates and inserts an op without regions, naming things by strings.
    pub fn op(
        &mut self,
        name: &str,
        operands: &[ValueId],
        result_types: &[Type],
        attrs: &[(&str, Attribute)],
    ) -> OpId {
        let ctx = self.program.ctx();
        let name = ctx.symbol(name);
        let attrs: Vec<(Symbol, Attribute)> =
            attrs.iter().map(|&(n, a)| (ctx.symbol(n), a)).collect();
        let operands: Vec<Option<ValueId>> = operands.iter().map(|&v| Some(v)).collect();
        self.create(name, &operands, result_types, &attrs, 0)
    }
}
