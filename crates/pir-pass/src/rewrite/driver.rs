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
        // One pass over the patterns, grouping by name through a map: a
        // rule file may hold tens of thousands of rules.
        let mut generic = Vec::new();
        let mut by_name: Vec<(String, Vec<usize>)> = Vec::new();
        let mut slot: FxHashMap<&str, usize> = FxHashMap::default();
        for &i in &order {
            match &roots[i] {
                Root::Op(name) => {
                    let at = *slot.entry(name).or_insert_with(|| {
                        by_name.push((name.to_string(), Vec::new()));
                        by_name.len() - 1
                    });
                    by_name[at].1.push(i);
                }
                Root::Trait(_) | Root::Any => generic.push(i),
            }
        }
        // Each name's list merges its own patterns with the generic ones,
        // by benefit (ties in the order given, as `order` has them).
        for (_, list) in &mut by_name {
            if !generic.is_empty() {
                list.extend_from_slice(&generic);
                list.sort_by_key(|&i| (std::cmp::Reverse(patterns[i].benefit()), i));
            }
        }
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
    /// Ops the rewrites may create in all (`None`: [`GROWTH_FACTOR`] times
    /// the ops under the root plus [`GROWTH_SLACK`]). Sweeps and rewrites
    /// are bounded per sweep, but a pattern that makes more ops than it
    /// consumes grows each sweep's work with it: without this bound it
    /// exhausts memory before `max_iterations` stops it.
    pub max_created: Option<u64>,
    /// Visit ops top-down (definitions first) rather than bottom-up.
    pub top_down: bool,
}

/// The default bound on created ops is this many times the program's ops...
pub const GROWTH_FACTOR: u64 = 16;
/// ... plus this many (small programs may grow a lot in relative terms).
pub const GROWTH_SLACK: u64 = 4096;

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            max_iterations: 10,
            max_rewrites: None,
            max_created: None,
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
    /// The rewrites created more ops than `max_created` allows: the
    /// patterns grow the program.
    GrowthLimit,
    /// A pattern reported a fault of its own ([`Rewriter::fail`]); see
    /// [`Outcome::failure`].
    Failed,
}

/// A pattern's report that it cannot go on ([`Rewriter::fail`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The pattern, indexed like [`FrozenPatternSet::patterns`].
    pub pattern: usize,
    /// What went wrong.
    pub message: String,
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
    /// Successful rewrites per pattern in the last sweep: the patterns that
    /// kept firing when a limit stopped the driver.
    pub last_sweep: Vec<u64>,
    /// Ops the successful rewrites created.
    pub created: u64,
    /// The bound on `created` that applied.
    pub max_created: u64,
    /// The pattern's report when `stop` is [`Stop::Failed`].
    pub failure: Option<Failure>,
}

impl Outcome {
    /// Why the driver did not converge, for an error message — `None` when
    /// it did. `name` gives a pattern's name for its index (a rule file's
    /// pass adds where each rule stands).
    pub fn describe(&self, name: impl Fn(usize) -> String) -> Option<String> {
        let firing = || {
            let names: Vec<String> = self
                .last_sweep
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n > 0)
                .map(|(i, &n)| format!("{} ({n} rewrites)", name(i)))
                .collect();
            if names.is_empty() {
                String::new()
            } else {
                format!("; still firing: {}", names.join(", "))
            }
        };
        Some(match self.stop {
            Stop::Converged => return None,
            Stop::IterationLimit => format!(
                "did not converge in {} sweeps (max-iterations) after {} rewrites: patterns that undo each other or keep rewriting their own results never stop{}",
                self.iterations,
                self.rewrites,
                firing()
            ),
            Stop::RewriteLimit => format!(
                "stopped at {} rewrites (max-rewrites) before converging{}",
                self.rewrites,
                firing()
            ),
            Stop::GrowthLimit => format!(
                "the rewrites grow the program: they created {} ops, more than the limit of {} (max-created; by default {GROWTH_FACTOR} times the program's ops plus {GROWTH_SLACK}){}",
                self.created,
                self.max_created,
                firing()
            ),
            Stop::Failed => match &self.failure {
                Some(f) => format!("{}: {}", name(f.pattern), f.message),
                None => "a pattern failed".to_owned(),
            },
        })
    }
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
        last_sweep: vec![0; set.patterns.len()],
        created: 0,
        max_created: config.max_created.unwrap_or(u64::MAX),
        failure: None,
    };
    loop {
        if outcome.iterations == config.max_iterations {
            outcome.stop = Stop::IterationLimit;
            return outcome;
        }
        outcome.iterations += 1;
        outcome.last_sweep.iter_mut().for_each(|n| *n = 0);
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
        if outcome.iterations == 1 && config.max_created.is_none() {
            outcome.max_created = (worklist.len() as u64)
                .saturating_mul(GROWTH_FACTOR)
                .saturating_add(GROWTH_SLACK);
        }
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
                let (changes, created) = (rw.changes, rw.created);
                let (touched, failure) = (std::mem::take(&mut rw.touched), rw.failure.take());
                if let Some(message) = failure {
                    outcome.stop = Stop::Failed;
                    outcome.failure = Some(Failure {
                        pattern: index,
                        message,
                    });
                    return outcome;
                }
                debug_assert!(
                    !applied || changes > 0,
                    "pattern `{}` reported success without changing the IR",
                    pattern.name()
                );
                if applied && changes > 0 {
                    outcome.rewrites += 1;
                    outcome.per_pattern[index] += 1;
                    outcome.last_sweep[index] += 1;
                    outcome.created = outcome.created.saturating_add(created);
                    changed = true;
                    worklist.extend(touched.into_iter().filter(|&o| !program.is_erased(o)));
                    if outcome.created > outcome.max_created {
                        outcome.stop = Stop::GrowthLimit;
                        return outcome;
                    }
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
