//! PIR → Paddle 2.x `ProgramDesc` (`.pdmodel`): the translator run
//! backwards, writing what Paddle 2.6.2's `save_inference_model` writes.
//!
//! - `pd_op` ops become the legacy op their name came from (the op-compat
//!   facts of [`crate::compat`], among the ops Paddle 2.6.2 registers),
//!   arguments and attributes under their legacy names and in the kinds the
//!   legacy op declares; `full` / `full_int_array` operands that the legacy
//!   op takes as attributes become those attributes, else tensor inputs
//!   (`ops.rs`, with the ops whose legacy form differs in `special.rs`).
//! - `builtin.combine` / `builtin.split` become argument lists, parameters
//!   persistable variables, `data`/`feed` and `fetch` the feed and fetch ops
//!   of an inference program (`vars.rs` names each value).
//! - `pd_op.if` becomes two `conditional_block`s and `select_input`s,
//!   `pd_op.while` a `while` over variables assigned in its body
//!   (`control_flow.rs`).
//! - The version and op-version map are Paddle 2.6.2's; the bytes come
//!   from `encode.rs`.
//!
//! An op with no legacy form is an error naming every such op (type,
//! block, index) — [`WriteError::NoLegacyForm`] — and nothing is written.
//!
//! ```no_run
//! # let program: pir_core::Program = unimplemented!();
//! let bytes = pir_legacy::write::to_bytes(&program)?;
//! # Ok::<(), pir_legacy::write::WriteError>(())
//! ```

mod attrs;
mod control_flow;
pub mod encode;
mod folds;
mod ops;
mod special;
mod vars;

use std::fmt;

use rustc_hash::{FxHashMap, FxHashSet};

use pir_core::{BlockId, IrContext, OpId, Program, ValueId};

use crate::compat::{compat, Compat};
use crate::desc::VarKind;

pub use attrs::proto_dtype;

/// Deepest nesting of `if`/`while` bodies written (as the reader's bound).
pub const MAX_DEPTH: usize = crate::desc::MAX_DEPTH;

/// An op that has no legacy form, and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedOp {
    /// The op's name (`pd_op.foo`).
    pub op_name: String,
    /// Block index in the written program (0: the top block; sub-blocks
    /// are numbered as they are written).
    pub block: usize,
    /// Index of the op in its PIR block.
    pub index: usize,
    /// Why.
    pub reason: String,
}

impl fmt::Display for UnsupportedOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` (block {}, op {}): {}",
            self.op_name, self.block, self.index, self.reason
        )
    }
}

/// Why a program cannot be written as a `ProgramDesc`.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Some ops have no legacy form: every one of them, in program order.
    #[error("{} op(s) have no Paddle 2.6 form: {}", ops.len(), list(ops))]
    NoLegacyForm {
        /// The ops.
        ops: Vec<UnsupportedOp>,
    },
    /// The program is not one the writer can lay out (a value used before
    /// it is defined, nesting past [`MAX_DEPTH`]).
    #[error("cannot write the program: {0}")]
    Invalid(String),
}

fn list(ops: &[UnsupportedOp]) -> String {
    let shown: Vec<String> = ops.iter().take(50).map(ToString::to_string).collect();
    let mut s = shown.join("; ");
    if ops.len() > 50 {
        s.push_str(&format!("; and {} more", ops.len() - 50));
    }
    s
}

/// Writes `program` as a serialized `ProgramDesc`.
pub fn to_bytes(program: &Program) -> Result<Vec<u8>, WriteError> {
    Ok(encode::encode(&to_desc(program)?))
}

/// Builds the `ProgramDesc` of `program` (see the module docs).
pub fn to_desc(program: &Program) -> Result<encode::Program, WriteError> {
    let mut w = Writer::new(program);
    w.find_folds();
    w.name_fetched_values();
    w.write_block(program.top_block(), 0, 0)?;
    if !w.unsupported.is_empty() {
        return Err(WriteError::NoLegacyForm {
            ops: std::mem::take(&mut w.unsupported),
        });
    }
    Ok(w.finish())
}

/// The state of one write.
pub(crate) struct Writer<'p> {
    pub program: &'p Program,
    pub ctx: &'p IrContext,
    pub compat: &'static Compat,
    /// Each value's variable name once it has one.
    pub names: FxHashMap<ValueId, String>,
    /// Names taken (parameters, feeds, fetches, made names).
    pub taken: FxHashSet<String>,
    /// The blocks written so far.
    pub blocks: Vec<encode::Block>,
    /// Variables declared per block (by name).
    pub declared: Vec<FxHashSet<String>>,
    /// Ops with no legacy form.
    pub unsupported: Vec<UnsupportedOp>,
    /// Counter for made names.
    pub counter: usize,
    /// Next feed and fetch columns.
    pub feed_col: i32,
    pub fetch_col: i32,
    /// Constants made as tensors: (value, block) → name.
    pub constants: FxHashMap<(ValueId, usize), String>,
    /// Whether the program has feed and fetch ops (their variables are
    /// declared at the end).
    pub has_feed: bool,
    pub has_fetch: bool,
    /// Variables of list elements no op reads, declared with the op that
    /// writes them.
    pub pending_vars: Vec<(String, pir_core::Type)>,
    /// Ops built by a translation, folded back (see `folds.rs`).
    pub folds: folds::Folds,
}

impl<'p> Writer<'p> {
    fn new(program: &'p Program) -> Self {
        let mut w = Writer {
            program,
            ctx: program.ctx(),
            compat: compat(),
            names: FxHashMap::default(),
            taken: FxHashSet::default(),
            blocks: Vec::new(),
            declared: Vec::new(),
            unsupported: Vec::new(),
            counter: 0,
            feed_col: 0,
            fetch_col: 0,
            constants: FxHashMap::default(),
            has_feed: false,
            has_fetch: false,
            pending_vars: Vec::new(),
            folds: folds::Folds::default(),
        };
        w.reserve_names();
        w
    }

    /// Adds a block whose parent is `parent` (`-1` for the top block) and
    /// returns its index.
    pub fn new_block(&mut self, parent: i32) -> usize {
        let idx = self.blocks.len();
        self.blocks.push(encode::Block {
            idx: idx as i32,
            parent_idx: parent,
            vars: Vec::new(),
            ops: Vec::new(),
        });
        self.declared.push(FxHashSet::default());
        idx
    }

    /// Writes the ops of PIR block `block` into legacy block `dst`
    /// (creating it when it is the next one), at nesting `depth`.
    pub fn write_block(
        &mut self,
        block: BlockId,
        dst: usize,
        depth: usize,
    ) -> Result<(), WriteError> {
        if depth > MAX_DEPTH {
            return Err(WriteError::Invalid(format!(
                "control flow nested more than {MAX_DEPTH} deep"
            )));
        }
        if dst == self.blocks.len() {
            self.new_block(if dst == 0 { -1 } else { 0 });
        }
        let ops: Vec<OpId> = self.program.block_ops(block).collect();
        for (index, op) in ops.into_iter().enumerate() {
            let before = self.blocks[dst].ops.len();
            self.pending_vars.clear();
            if let Err(reason) = self.write_op(op, dst, depth) {
                match reason {
                    OpFailure::Unsupported(reason) => {
                        // Nothing of a failed op stays; its results get
                        // names so that its readers are judged on their own.
                        self.blocks[dst].ops.truncate(before);
                        for i in 0..self.program.num_results(op) {
                            let r = self.program.result(op, i);
                            if !self.names.contains_key(&r) {
                                let name = self.fresh_name("unwritten");
                                self.names.insert(r, name);
                            }
                        }
                        self.unsupported.push(UnsupportedOp {
                            op_name: self.program.op_name_str(op).to_owned(),
                            block: dst,
                            index,
                            reason,
                        });
                    }
                    OpFailure::Fatal(e) => return Err(e),
                }
            }
        }
        Ok(())
    }

    fn finish(mut self) -> encode::Program {
        if self.has_feed {
            self.declare_special("feed", VarKind::FeedMinibatch);
        }
        if self.has_fetch {
            self.declare_special("fetch", VarKind::FetchList);
        }
        for b in &mut self.blocks {
            // Paddle lists a block's variables by name, feed and fetch last
            // (they are added after the program is pruned).
            b.vars.sort_by(|a, b| {
                let special =
                    |v: &encode::Var| matches!(v.kind, VarKind::FeedMinibatch | VarKind::FetchList);
                special(a)
                    .cmp(&special(b))
                    .then_with(|| a.name.cmp(&b.name))
            });
            for op in &mut b.ops {
                op.sort();
            }
        }
        let c = self.compat;
        encode::Program {
            blocks: self.blocks,
            version: c.legacy_version(),
            op_versions: c
                .legacy_op_versions()
                .iter()
                .map(|(n, v)| ((*n).to_owned(), *v))
                .collect(),
        }
    }
}

/// Why one op was not written.
pub(crate) enum OpFailure {
    /// The op has no legacy form (collected; the write goes on to find the
    /// others).
    Unsupported(String),
    /// The program cannot be written at all.
    Fatal(WriteError),
}

impl From<String> for OpFailure {
    fn from(s: String) -> Self {
        OpFailure::Unsupported(s)
    }
}

impl From<&str> for OpFailure {
    fn from(s: &str) -> Self {
        OpFailure::Unsupported(s.to_owned())
    }
}

impl From<WriteError> for OpFailure {
    fn from(e: WriteError) -> Self {
        OpFailure::Fatal(e)
    }
}

/// Result of writing one op.
pub(crate) type OpResult<T = ()> = Result<T, OpFailure>;

#[cfg(test)]
mod tests;
