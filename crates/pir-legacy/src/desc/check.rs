//! What decoding cannot check field by field, checked once the whole
//! program is read: that it has a block, that parent indices and block
//! attributes name existing blocks, and that parent indices form a tree no
//! deeper than [`MAX_DEPTH`] (so a variable look-up walks a bounded chain).

use super::{op_location, AttrValue, ProgramDesc, MAX_DEPTH};
use crate::error::{LegacyError, Location, Result};

/// A block whose depth is not known yet ([`ProgramDesc::check_parents`]).
const UNKNOWN: usize = usize::MAX;
/// A block on the chain being walked: meeting it again is a cycle.
const ON_CHAIN: usize = usize::MAX - 1;

impl ProgramDesc<'_> {
    /// What decoding cannot check field by field: at least one block, parent
    /// indices and block attributes naming existing blocks, a parent tree
    /// ([`ProgramDesc::check_parents`]).
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
            if !block.names_blocks {
                continue;
            }
            for (i, op) in block
                .ops
                .iter()
                .enumerate()
                .filter(|(_, op)| op.names_blocks)
            {
                for a in op.attrs {
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
        self.check_parents()
    }

    /// Every block's parent chain ends at a block without parent (`-1`)
    /// after at most [`MAX_DEPTH`] steps. Paddle's `FindVarRecursive` would
    /// recurse forever round a cycle (block 0 written without `parent_idx`
    /// reads as its own parent); here a look-up walks at most
    /// `MAX_DEPTH + 1` blocks. Each block's depth is found once (a walk
    /// stops at the first block whose depth is known), so the check is
    /// linear in the number of blocks. Parents were checked to exist.
    fn check_parents(&self) -> Result<()> {
        let n = self.blocks.len();
        let at = |b: usize| Location {
            block: Some(b),
            ..Location::default()
        };
        // Ancestors of each block, or UNKNOWN / ON_CHAIN.
        let mut depth = vec![UNKNOWN; n];
        let mut chain = Vec::new();
        for start in 0..n {
            chain.clear();
            let mut b = start;
            // The depth of the first block above the chain that has one
            // (`None`: the chain ends at a root).
            let above = loop {
                match depth[b] {
                    UNKNOWN => {}
                    ON_CHAIN => {
                        return Err(LegacyError::invalid(
                            at(b),
                            format!(
                                "block {b} is its own ancestor (its parent_idx chain \
                                 leads back to it)"
                            ),
                        ))
                    }
                    d => break Some(d),
                }
                depth[b] = ON_CHAIN;
                chain.push(b);
                // -1 is the only parent index that names no block.
                match usize::try_from(self.blocks[b].parent_idx) {
                    Ok(p) if p < n => b = p,
                    _ => break None,
                }
            };
            // From the top of the chain down, one more ancestor each.
            let top = above.map_or(0, |a| a + 1);
            for (d, &c) in (top..).zip(chain.iter().rev()) {
                if d > MAX_DEPTH {
                    return Err(LegacyError::Limit {
                        at: Box::new(at(c)),
                        message: format!(
                            "block {c} has more than {MAX_DEPTH} ancestors (parent blocks)"
                        ),
                    });
                }
                depth[c] = d;
            }
        }
        Ok(())
    }
}
