//! Queries on values: their types, definitions and uses.

use super::*;

impl Program {
    /// The type of a value.
    #[inline]
    pub fn value_type(&self, v: ValueId) -> Type {
        self.values[v].ty
    }

    /// Changes the type of a value.
    pub fn set_value_type(&mut self, v: ValueId, ty: Type) {
        self.values[v].ty = ty;
    }

    /// Where a value is defined.
    pub fn value_def(&self, v: ValueId) -> ValueDef {
        let d = &self.values[v];
        let index = d.kind_index & ((1 << 30) - 1);
        match d.kind_index >> 30 {
            DEF_RESULT => ValueDef::Result {
                op: OpId::new(d.owner as usize),
                index,
            },
            DEF_ARG => ValueDef::BlockArg {
                block: BlockId::new(d.owner as usize),
                index,
            },
            DEF_KWARG => ValueDef::BlockKwarg {
                block: BlockId::new(d.owner as usize),
                index,
            },
            _ => ValueDef::Erased,
        }
    }

    /// The op defining a value (`None` for block arguments).
    pub fn defining_op(&self, v: ValueId) -> Option<OpId> {
        match self.value_def(v) {
            ValueDef::Result { op, .. } => Some(op),
            _ => None,
        }
    }

    /// The block a value is defined in (for a result: its op's block).
    pub fn value_parent_block(&self, v: ValueId) -> Option<BlockId> {
        match self.value_def(v) {
            ValueDef::Result { op, .. } => self.op_parent_block(op),
            ValueDef::BlockArg { block, .. } | ValueDef::BlockKwarg { block, .. } => Some(block),
            ValueDef::Erased => None,
        }
    }

    /// The uses of a value, most recent first.
    pub fn uses(&self, v: ValueId) -> Uses<'_> {
        Uses {
            program: self,
            next: self.values[v].first_use,
        }
    }

    /// Number of uses (O(uses)).
    pub fn use_count(&self, v: ValueId) -> usize {
        self.uses(v).count()
    }

    /// Whether a value has no uses.
    pub fn use_empty(&self, v: ValueId) -> bool {
        self.values[v].first_use.is_none()
    }

    /// The op owning an operand slot.
    #[inline]
    pub fn operand_owner(&self, operand: OperandId) -> OpId {
        self.operands[operand].owner
    }

    /// The value in an operand slot.
    #[inline]
    pub fn operand_value(&self, operand: OperandId) -> Option<ValueId> {
        self.operands[operand].value
    }

    /// The position of an operand slot among its owner's operands.
    pub fn operand_index(&self, operand: OperandId) -> usize {
        operand.index() - self.ops[self.operands[operand].owner].first_operand as usize
    }
}
