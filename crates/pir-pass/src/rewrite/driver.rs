//! The frozen pattern set and the greedy driver.

use pir_core::walk::Order;
use pir_core::{OpId, Program, Symbol};
use rustc_hash::FxHashMap;

use super::{RewriteListener, RewritePattern, Rewriter, Root};

/// Patterns ready for the driver: for each root op name, the patterns to try
/// on it — those rooted at the name and the generic ones (trait or any op),
/// merged and ordered by benefit (ties keep insertion order) once, when the
/// set is built. Each run resolves the names to the program's symbols, so the
/// driver looks an op's candidates up by its interned name, without strings.
pub struct FrozenPatternSet {
    patterns: Vec<Box<dyn RewritePattern>>,
    /// Each pattern's root, asked once.
    roots: Vec<Root>,
    by_name: Vec<(String, Vec<usize>)>,
    generic: Vec<usize>,
}

impl FrozenPatternSet {
    /// Freezes `patterns`.
    pub fn new(patterns: Vec<Box<dyn RewritePattern>>) -> Self {
        let roots: Vec<Root> = patterns.iter().map(|p| p.root()).collect();
        let mut order: Vec<usize> = (0..patterns.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(patterns[i].benefit()));
        let mut generic = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for &i in &order {
            match &roots[i] {
                Root::Op(name) => {
                    if !names.iter().any(|n| **n == **name) {
                        names.push(name.to_string());
                    }
                }
                Root::Trait(_) | Root::Any => generic.push(i),
            }
        }
        let by_name = names
            .into_iter()
            .map(|name| {
                let list = order
                    .iter()
                    .copied()
                    .filter(|&i| match &roots[i] {
                        Root::Op(n) => **n == *name,
                        Root::Trait(_) | Root::Any => true,
                    })
                    .collect();
                (name, list)
            })
            .collect();
        FrozenPatternSet {
            patterns,
            roots,
            by_name,
            generic,
        }
    }

    /// The patterns, in the order they were given.
    pub fn patterns(&self) -> &[Box<dyn RewritePattern>] {
        &self.patterns
    }

    /// Whether the set has no pattern.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The candidate lists keyed by the symbols of `program`'s context
    /// (names no op of the context carries are left out).
    fn resolve(&self, program: &Program) -> FxHashMap<Symbol, &[usize]> {
        let ctx = program.ctx();
        self.by_name
            .iter()
            .filter_map(|(name, list)| Some((ctx.lookup_symbol(name)?, list.as_slice())))
            .collect()
    }
}

impl From<Vec<Box<dyn RewritePattern>>> for FrozenPatternSet {
    fn from(patterns: Vec<Box<dyn RewritePattern>>) -> Self {
        FrozenPatternSet::new(patterns)
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Why it stopped.
    pub stop: Stop,
    /// Sweeps run.
    pub iterations: u32,
    /// Successful rewrites.
    pub rewrites: u64,
    /// Successful rewrites per pattern, indexed like [`FrozenPatternSet::patterns`].
    pub per_pattern: Vec<u64>,
}

/// Applies `patterns` to the ops nested in `root` until a sweep changes
/// nothing, or a limit is hit. Within a sweep, ops touched by a rewrite are
/// revisited (a worklist), so most rewrites converge in one sweep.
pub fn apply_greedily(
    program: &mut Program,
    root: OpId,
    patterns: &FrozenPatternSet,
    config: &GreedyConfig,
) -> Outcome {
    apply_greedily_with(program, root, patterns, config, None)
}

/// [`apply_greedily`] with a listener told about every edit.
pub fn apply_greedily_with(
    program: &mut Program,
    root: OpId,
    set: &FrozenPatternSet,
    config: &GreedyConfig,
    mut listener: Option<&mut dyn RewriteListener>,
) -> Outcome {
    let by_symbol = set.resolve(program);
    let mut outcome = Outcome {
        stop: Stop::Converged,
        iterations: 0,
        rewrites: 0,
        per_pattern: vec![0; set.patterns.len()],
    };
    loop {
        if outcome.iterations == config.max_iterations {
            outcome.stop = Stop::IterationLimit;
            return outcome;
        }
        outcome.iterations += 1;
        let mut worklist = Vec::new();
        let order = if config.top_down {
            Order::Pre
        } else {
            Order::Post
        };
        program.walk(root, order, &mut |op| {
            if op != root {
                worklist.push(op);
            }
        });
        // Popped from the end: first visited first.
        worklist.reverse();
        // Revisits are bounded per sweep, so a pattern that keeps touching
        // the same ops ends the sweep instead of looping inside it.
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
            let candidates = by_symbol
                .get(&program.op_name(op))
                .copied()
                .unwrap_or(&set.generic);
            for &index in candidates {
                let pattern = &*set.patterns[index];
                if let Root::Trait(t) = set.roots[index] {
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
                    outcome.rewrites += 1;
                    outcome.per_pattern[index] += 1;
                    changed = true;
                    worklist.extend(touched.into_iter().filter(|&o| !program.is_erased(o)));
                    if config.max_rewrites.is_some_and(|m| outcome.rewrites >= m) {
                        outcome.stop = Stop::RewriteLimit;
                        return outcome;
                    }
                    break;
                }
            }
        }
        if !changed {
            outcome.stop = Stop::Converged;
            return outcome;
        }
    }
}
