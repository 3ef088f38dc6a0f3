//! What decoding cannot check field by field, checked once the whole
//! program is read: that it has a block, and that parent indices and block
//! attributes name existing blocks.

use super::{op_location, AttrValue, ProgramDesc};
use crate::error::{LegacyError, Location, Result};

impl ProgramDesc<'_> {
    /// What decoding cannot check field by field: at least one block, parent
    /// indices and block attributes naming existing blocks.
    pub(super) fn check(&self) -> Result<()> {
        if self.blocks.is_empty() {
            return Err(LegacyError::invalid(
                Location::default(),
                "the program has no blocks",
            ));
        }
        let n = self.blocks.len();
        let exists = |idx: i32| idx >= 0 && (idx as usize) < n;
        for (b, block) in self.blocks.iter().enumerate() {
            if block.parent_idx != -1 && !exists(block.parent_idx) {
                return Err(LegacyError::invalid(
                    Location {
                        block: Some(b),
                        ..Location::default()
                    },
                    format!("parent block {} does not exist", block.parent_idx),
                ));
            }
            for (i, op) in block.ops.iter().enumerate() {
                for a in &op.attrs {
                    let bad = match &a.value {
                        AttrValue::Block(idx) => Some(*idx).filter(|&x| !exists(x)),
                        AttrValue::Blocks(list) => list.iter().copied().find(|&x| !exists(x)),
                        _ => None,
                    };
                    if let Some(idx) = bad {
                        return Err(LegacyError::invalid(
                            op_location(b, i, op.op_type),
                            format!("attribute `{}`: block index {idx} does not exist", a.name),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}
