//! The verifier: structure first, then SSA visibility, then each op's own rules.
//!
//! 1. **Structure** (as naga's handle validation): every id in range and alive,
//!    parent links consistent both ways, operand owners right, region and block
//!    counts as registered, terminators last in their block.
//! 2. **SSA**: an operand's value is defined before its user in the same block,
//!    or in an enclosing block (values of enclosing blocks are visible in nested
//!    regions), never below or beside it.
//! 3. **Op rules**: the registered `verify` hook of each op.
//!
//! Only when a phase passes does the next one run, so later checks may trust
//! the structure.
//!
//! ```
//! use std::sync::Arc;
//! use pir_core::{IrContext, Program, Builder, builtin::ScalarType};
//! let ctx = Arc::new(IrContext::new());
//! let mut p = Program::new(ctx.clone());
//! let ty = ctx.intern_type(ScalarType::F32);
//! let top = p.top_block();
//! let mut b = Builder::at_end(&mut p, top);
//! let def = b.op("test.def", &[], &[ty], &[]);
//! let v = b.program().result(def, 0);
//! let user = b.op("test.use", &[v], &[], &[]);
//! p.move_op(user, pir_core::InsertPoint::Before(def)); // use before def
//! let err = p.verify().unwrap_err();
//! assert!(err.to_string().contains("used before it is defined"), "{err}");
//! ```

use std::fmt;

use crate::entity::SecondaryMap;
use crate::op_info::traits;
use crate::program::{BlockId, OpId, Program, ValueDef, ValueId};

/// One verification failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyError {
    /// The offending op, when there is one.
    pub op: Option<OpId>,
    /// Where: the op's name and position, e.g. `op 17 (pd_op.add) in block 0`.
    pub location: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// All failures found in one phase.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct VerifyErrors(pub Vec<VerifyError>);

impl fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

struct Verifier<'p> {
    p: &'p Program,
    errors: Vec<VerifyError>,
    /// Position of each op in its block.
    position: SecondaryMap<OpId, u32>,
    /// Ops in walk order, for the later phases.
    ops: Vec<OpId>,
}

impl Program {
    /// Verifies the program; see the module docs.
    pub fn verify(&self) -> Result<(), VerifyErrors> {
        let mut v = Verifier {
            p: self,
            errors: Vec::new(),
            position: SecondaryMap::with_default(0),
            ops: Vec::new(),
        };
        v.structure_of_op(self.module_op(), None);
        v.finish()?;
        for i in 0..v.ops.len() {
            v.ssa(v.ops[i]);
        }
        v.finish()?;
        for i in 0..v.ops.len() {
            v.op_rules(v.ops[i]);
        }
        v.finish()
    }
}

impl Verifier<'_> {
    fn finish(&mut self) -> Result<(), VerifyErrors> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(VerifyErrors(std::mem::take(&mut self.errors)))
        }
    }

    fn location(&self, op: OpId) -> String {
        let p = self.p;
        let name = p.op_name_str(op);
        match p.op_parent_block(op) {
            Some(b) => format!(
                "op {} (`{name}`, {:?}) in {:?}",
                self.position.get(op),
                op,
                b
            ),
            None => format!("`{name}` ({op:?})"),
        }
    }

    fn error(&mut self, op: OpId, message: String) {
        let location = self.location(op);
        self.errors.push(VerifyError {
            op: Some(op),
            location,
            message,
        });
    }

    fn structure_of_op(&mut self, op: OpId, parent: Option<BlockId>) {
        let p = self.p;
        if !p.ops.contains(op) {
            self.errors.push(VerifyError {
                op: None,
                location: format!("{parent:?}"),
                message: format!("{op:?} is out of range"),
            });
            return;
        }
        self.ops.push(op);
        if p.is_erased(op) {
            self.error(op, "erased op is still linked into a block".into());
            return;
        }
        if p.op_parent_block(op) != parent {
            self.error(
                op,
                format!(
                    "parent link is {:?}, but the op is listed in {:?}",
                    p.op_parent_block(op),
                    parent
                ),
            );
        }
        for (i, operand) in p.operand_ids(op).enumerate() {
            if !p.operands.contains(operand) || p.operand_owner(operand) != op {
                self.error(op, format!("operand {i} does not belong to the op"));
                continue;
            }
            if let Some(v) = p.operand_value(operand) {
                if !p.values.contains(v) || p.value_def(v) == ValueDef::Erased {
                    self.error(
                        op,
                        format!("operand {i} refers to an erased or unknown value {v:?}"),
                    );
                }
            }
        }
        if let Some(info) = p.op_info(op) {
            if let Some(n) = info.num_regions {
                if p.num_regions(op) != n as usize {
                    self.error(
                        op,
                        format!("expects {n} region(s), has {}", p.num_regions(op)),
                    );
                }
            }
            if info.has_trait(traits::IS_TERMINATOR) && p.next_op(op).is_some() {
                self.error(op, "a terminator must be the last op of its block".into());
            }
        }
        for region in p.regions(op) {
            if p.region_parent_op(region) != Some(op) {
                self.error(op, format!("{region:?} does not point back to its op"));
            }
            for &block in p.region_blocks(region) {
                if p.block_parent_region(block) != Some(region) {
                    self.error(op, format!("{block:?} does not point back to {region:?}"));
                }
                self.structure_of_block(block);
            }
        }
    }

    fn structure_of_block(&mut self, block: BlockId) {
        let p = self.p;
        let mut prev: Option<OpId> = None;
        let mut position = 0u32;
        let mut cur = p.block_first_op(block);
        let limit = p.ops.len() + 1;
        while let Some(op) = cur {
            if position as usize > limit {
                self.errors.push(VerifyError {
                    op: None,
                    location: format!("{block:?}"),
                    message: "the op list of the block has a cycle".into(),
                });
                return;
            }
            if p.prev_op(op) != prev {
                self.error(op, "previous-op link is inconsistent".into());
            }
            self.position.set(op, position);
            self.structure_of_op(op, Some(block));
            prev = Some(op);
            position += 1;
            cur = p.next_op(op);
        }
        if p.block_last_op(block) != prev {
            self.errors.push(VerifyError {
                op: prev,
                location: format!("{block:?}"),
                message: "the block's last-op link is inconsistent".into(),
            });
        }
    }

    /// Checks that every operand's value is visible at its user.
    fn ssa(&mut self, op: OpId) {
        let p = self.p;
        for (i, v) in p.operands(op).enumerate() {
            let Some(v) = v else { continue };
            if let Err(why) = self.visible(v, op) {
                let value = self.describe_value(v);
                self.error(op, format!("operand {i}: value {value} {why}"));
            }
        }
    }

    fn visible(&self, v: ValueId, user: OpId) -> Result<(), &'static str> {
        let p = self.p;
        let Some(def_block) = p.value_parent_block(v) else {
            return Err("has no defining block");
        };
        let def_op = p.defining_op(v);
        // Climb from the user to the ancestor that lives in the defining block.
        let mut cur = user;
        loop {
            if p.op_parent_block(cur) == Some(def_block) {
                return match def_op {
                    None => Ok(()),
                    Some(d) if d == cur => Err("is used inside its own defining op"),
                    Some(d) if self.position.get(d) < self.position.get(cur) => Ok(()),
                    Some(_) => Err("is used before it is defined"),
                };
            }
            match p.op_parent_op(cur) {
                Some(parent) => cur = parent,
                None => return Err("is used outside the scope where it is defined"),
            }
        }
    }

    fn describe_value(&self, v: ValueId) -> String {
        match self.p.value_def(v) {
            ValueDef::Result { op, index } => {
                format!("result {index} of {} ({:?})", self.p.op_name_str(op), op)
            }
            ValueDef::BlockArg { block, index } => format!("argument {index} of {block:?}"),
            ValueDef::BlockKwarg { block, index } => {
                format!("keyword argument {index} of {block:?}")
            }
            ValueDef::Erased => format!("{v:?} (erased)"),
        }
    }

    fn op_rules(&mut self, op: OpId) {
        let p = self.p;
        if let Some(verify) = p.op_info(op).and_then(|info| info.verify) {
            if let Err(message) = verify(p, op) {
                self.error(op, message);
            }
        }
    }
}
