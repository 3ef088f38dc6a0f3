//! Pattern rewriting: [`RewritePattern`]s applied by a greedy driver until a
//! fixed point, which reports honestly why it stopped.
//!
//! A pattern matches ops of one name (or any op), and rewrites through a
//! [`Rewriter`], which records every change so the driver knows whether
//! anything happened — a pattern that claims success without changing the IR
//! is caught in debug builds.
//!
//! ```
//! use pir_pass::rewrite::{apply_greedily, GreedyConfig, RewritePattern, Rewriter, Root, Stop};
//! struct EraseNops;
//! impl RewritePattern for EraseNops {
//!     fn name(&self) -> &'static str { "erase-nops" }
//!     fn root(&self) -> Root { Root::Op("test.nop") }
//!     fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: pir_core::OpId) -> bool {
//!         rw.erase_op(op)
//!     }
//! }
//! let ctx = pir_dialects::pd_op_context();
//! let mut p = pir_core::Program::new(ctx.clone());
//! let top = p.top_block();
//! pir_core::Builder::at_end(&mut p, top).op("test.nop", &[], &[], &[]);
//! let patterns: Vec<Box<dyn RewritePattern>> = vec![Box::new(EraseNops)];
//! let module = p.module_op();
//! let outcome = apply_greedily(&mut p, module, &patterns, &GreedyConfig::default());
//! assert_eq!(outcome.stop, Stop::Converged);
//! assert_eq!(outcome.rewrites, 1);
//! ```

use pir_core::walk::Order;
use pir_core::{OpId, Program, ValueId};

/// Which ops a pattern is tried on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    /// Ops of this name.
    Op(&'static str),
    /// Ops whose registration has this trait.
    Trait(pir_core::TraitId),
    /// Every op.
    Any,
}

/// A local rewrite.
pub trait RewritePattern: Send + Sync {
    /// A name for reports.
    fn name(&self) -> &'static str;
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
}

/// Edits a program on behalf of a pattern, recording what changed.
pub struct Rewriter<'p> {
    program: &'p mut Program,
    changes: u64,
    touched: Vec<OpId>,
    listener: Option<&'p mut (dyn RewriteListener + 'p)>,
}

impl<'p> Rewriter<'p> {
    /// A rewriter over `program`.
    pub fn new(program: &'p mut Program) -> Self {
        Rewriter {
            program,
            changes: 0,
            touched: Vec::new(),
            listener: None,
        }
    }

    /// The program (read it freely; edit through the rewriter's methods so
    /// changes are recorded, or call [`Rewriter::notify_modified`]).
    pub fn program(&mut self) -> &mut Program {
        self.program
    }

    /// Number of changes recorded.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// Records an in-place modification of `op` (e.g. an attribute set through [`Rewriter::program`]).
    pub fn notify_modified(&mut self, op: OpId) {
        if let Some(l) = self.listener.as_deref_mut() {
            l.on_modify(self.program, op);
        }
        self.changes += 1;
        self.touched.push(op);
    }

    fn touch_users(&mut self, v: ValueId) {
        let users: Vec<OpId> = self
            .program
            .uses(v)
            .map(|u| self.program.operand_owner(u))
            .collect();
        self.touched.extend(users);
    }

    /// Replaces every use of `from` with `to`.
    pub fn replace_all_uses(&mut self, from: ValueId, to: ValueId) {
        if from == to || self.program.use_empty(from) {
            return;
        }
        self.touch_users(from);
        if let Some(l) = self.listener.as_deref_mut() {
            l.on_replace(self.program, from, to);
        }
        self.program.replace_all_uses_with(from, to);
        self.changes += 1;
    }

    /// Replaces the results of `op` by `values` and erases `op`.
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) -> bool {
        let results: Vec<ValueId> = self.program.results(op).collect();
        if results.len() != values.len() {
            return false;
        }
        for (&r, &v) in results.iter().zip(values) {
            self.replace_all_uses(r, v);
        }
        self.erase_op(op)
    }

    /// Erases `op` (its results must be unused); the defining ops of its
    /// operands are revisited.
    pub fn erase_op(&mut self, op: OpId) -> bool {
        let defs: Vec<OpId> = self
            .program
            .operands(op)
            .flatten()
            .filter_map(|v| self.program.defining_op(v))
            .collect();
        if self.program.results(op).any(|r| !self.program.use_empty(r)) {
            return false;
        }
        if let Some(l) = self.listener.as_deref_mut() {
            l.on_erase(self.program, op);
        }
        if self.program.erase_op(op).is_err() {
            return false;
        }
        self.touched.extend(defs);
        self.changes += 1;
        true
    }
}

/// Limits of the greedy driver.
#[derive(Debug, Clone)]
pub struct GreedyConfig {
    /// Full sweeps over the ops at most.
    pub max_iterations: u32,
    /// Successful rewrites at most (`None`: unlimited).
    pub max_rewrites: Option<u64>,
    /// Visit ops top-down (definitions first) rather than bottom-up.
    pub top_down: bool,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            max_iterations: 10,
            max_rewrites: None,
            top_down: true,
        }
    }
}

/// Why the driver stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A sweep changed nothing: a fixed point.
    Converged,
    /// `max_iterations` sweeps all changed something.
    IterationLimit,
    /// `max_rewrites` was reached.
    RewriteLimit,
}

/// What the driver did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Why it stopped.
    pub stop: Stop,
    /// Sweeps run.
    pub iterations: u32,
    /// Successful rewrites.
    pub rewrites: u64,
}

/// Applies `patterns` to the ops nested in `root` until a sweep changes
/// nothing, or a limit is hit. Within a sweep, ops touched by a rewrite are
/// revisited (a worklist), so most rewrites converge in one sweep.
pub fn apply_greedily(
    program: &mut Program,
    root: OpId,
    patterns: &[Box<dyn RewritePattern>],
    config: &GreedyConfig,
) -> Outcome {
    apply_greedily_with(program, root, patterns, config, None)
}

/// [`apply_greedily`] with a listener told about every edit.
pub fn apply_greedily_with(
    program: &mut Program,
    root: OpId,
    patterns: &[Box<dyn RewritePattern>],
    config: &GreedyConfig,
    mut listener: Option<&mut dyn RewriteListener>,
) -> Outcome {
    // The frozen set: patterns by root op name, the others tried on every op.
    let mut sorted: Vec<&dyn RewritePattern> = patterns.iter().map(|p| &**p).collect();
    sorted.sort_by_key(|p| std::cmp::Reverse(p.benefit()));
    let mut by_name: rustc_hash::FxHashMap<&'static str, Vec<&dyn RewritePattern>> =
        Default::default();
    let mut generic: Vec<&dyn RewritePattern> = Vec::new();
    for &p in &sorted {
        match p.root() {
            Root::Op(name) => by_name.entry(name).or_default().push(p),
            Root::Trait(_) | Root::Any => generic.push(p),
        }
    }
    let mut rewrites = 0u64;
    let mut iterations = 0u32;
    loop {
        if iterations == config.max_iterations {
            return Outcome {
                stop: Stop::IterationLimit,
                iterations,
                rewrites,
            };
        }
        iterations += 1;
        let mut worklist = Vec::new();
        program.walk(
            root,
            if config.top_down {
                Order::Pre
            } else {
                Order::Post
            },
            &mut |op| {
                if op != root {
                    worklist.push(op);
                }
            },
        );
        worklist.reverse(); // popped from the end: first visited first
                            // Revisits are bounded per sweep, so a pattern that keeps touching the
                            // same ops ends the sweep instead of looping inside it.
        let mut budget = worklist.len().saturating_mul(8).max(64);
        let mut changed = false;
        while let Some(op) = worklist.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            if program.is_erased(op) {
                continue;
            }
            let named = by_name
                .get(program.op_name_str(op))
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            let merged: Vec<&dyn RewritePattern>;
            let candidates: &[&dyn RewritePattern] = if generic.is_empty() {
                named
            } else {
                let mut all: Vec<&dyn RewritePattern> =
                    named.iter().chain(&generic).copied().collect();
                all.sort_by_key(|p| std::cmp::Reverse(p.benefit()));
                merged = all;
                &merged
            };
            for &pattern in candidates {
                if let Root::Trait(t) = pattern.root() {
                    if !program.op_info(op).is_some_and(|i| i.has_trait(t)) {
                        continue;
                    }
                }
                let mut rw = Rewriter::new(program);
                rw.listener = match listener {
                    Some(ref mut l) => Some(&mut **l),
                    None => None,
                };
                let applied = pattern.match_and_rewrite(&mut rw, op);
                let (changes, touched) = (rw.changes, std::mem::take(&mut rw.touched));
                debug_assert!(
                    !applied || changes > 0,
                    "pattern `{}` reported success without changing the IR",
                    pattern.name()
                );
                if applied && changes > 0 {
                    rewrites += 1;
                    changed = true;
                    worklist.extend(touched.into_iter().filter(|&o| !program.is_erased(o)));
                    if config.max_rewrites.is_some_and(|m| rewrites >= m) {
                        return Outcome {
                            stop: Stop::RewriteLimit,
                            iterations,
                            rewrites,
                        };
                    }
                    break;
                }
            }
        }
        if !changed {
            return Outcome {
                stop: Stop::Converged,
                iterations,
                rewrites,
            };
        }
    }
}
