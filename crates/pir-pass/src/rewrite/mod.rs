//! Pattern rewriting: [`RewritePattern`]s, frozen into a [`FrozenPatternSet`]
//! and applied by a greedy driver until a fixed point, which reports honestly
//! why it stopped.
//!
//! A pattern matches ops of one name, ops with a trait, or any op, and edits
//! through a [`Rewriter`] — replacing, erasing, creating and inserting ops,
//! setting attributes — which records every change so the driver knows
//! whether anything happened and which ops to revisit. A pattern that claims
//! success without changing the IR is caught in debug builds.
//!
//! ```
//! use pir_pass::rewrite::{apply_greedily, FrozenPatternSet, GreedyConfig, RewritePattern, Rewriter, Root, Stop};
//! struct EraseNops;
//! impl RewritePattern for EraseNops {
//!     fn name(&self) -> &str { "erase-nops" }
//!     fn root(&self) -> Root { Root::op("test.nop") }
//!     fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: pir_core::OpId) -> bool {
//!         rw.erase_op(op)
//!     }
//! }
//! let ctx = pir_dialects::pd_op_context();
//! let mut p = pir_core::Program::new(ctx.clone());
//! let top = p.top_block();
//! pir_core::Builder::at_end(&mut p, top).op("test.nop", &[], &[], &[]);
//! let patterns = FrozenPatternSet::new(vec![Box::new(EraseNops)]);
//! let module = p.module_op();
//! let outcome = apply_greedily(&mut p, module, &patterns, &GreedyConfig::default());
//! assert_eq!(outcome.stop, Stop::Converged);
//! assert_eq!(outcome.rewrites, 1);
//! ```

mod driver;
mod pattern_pass;
mod rewriter;

use std::borrow::Cow;

use pir_core::{OpId, Program, ValueId};

pub use driver::{
    apply_greedily, apply_greedily_with, Failure, FrozenPatternSet, GreedyConfig, Outcome, Stop,
    GROWTH_FACTOR, GROWTH_SLACK,
};
pub use pattern_pass::PatternPass;
pub use rewriter::Rewriter;

/// Which ops a pattern is tried on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Root {
    /// Ops of this name.
    Op(Cow<'static, str>),
    /// Ops whose registration has this trait.
    Trait(pir_core::TraitId),
    /// Every op.
    Any,
}

impl Root {
    /// Ops named `name` (`Root::op(ScaleOp::NAME)`).
    pub fn op(name: impl Into<Cow<'static, str>>) -> Root {
        Root::Op(name.into())
    }
}

/// A local rewrite.
pub trait RewritePattern: Send + Sync {
    /// A name for reports.
    fn name(&self) -> &str;
    /// The ops the pattern applies to.
    fn root(&self) -> Root;
    /// Higher benefits are tried first.
    fn benefit(&self) -> u16 {
        1
    }
    /// Rewrites `op` if it matches; returns whether it did.
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool;
}

/// Observes the edits of a greedy rewrite (e.g. to log or count them).
pub trait RewriteListener {
    /// `op` is about to be erased.
    fn on_erase(&mut self, _program: &Program, _op: OpId) {}
    /// The uses of `from` now use `to`.
    fn on_replace(&mut self, _program: &Program, _from: ValueId, _to: ValueId) {}
    /// `op` was modified in place.
    fn on_modify(&mut self, _program: &Program, _op: OpId) {}
    /// `op` was created and inserted.
    fn on_insert(&mut self, _program: &Program, _op: OpId) {}
}
