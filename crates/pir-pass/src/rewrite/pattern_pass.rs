//! A pass that runs a frozen set of patterns greedily.

use super::{apply_greedily, FrozenPatternSet, GreedyConfig, RewritePattern};
use crate::pass::{Changed, Named, Pass, PassError, PassResult, PassRun};

/// A pass running a frozen set of patterns greedily; it fails if the driver
/// does not converge.
pub struct PatternPass {
    argument: &'static str,
    patterns: FrozenPatternSet,
    /// Driver limits.
    pub config: GreedyConfig,
    /// Labels of patterns to report when they never fire (`None`: no report).
    report_unmatched: Option<Vec<String>>,
    /// Rewrites per pattern over every run of the pass.
    fired: Vec<u64>,
}

impl PatternPass {
    /// A pass over the given patterns.
    pub fn new(
        argument: &'static str,
        patterns: Vec<Box<dyn RewritePattern>>,
        config: GreedyConfig,
    ) -> Self {
        let fired = vec![0; patterns.len()];
        PatternPass {
            argument,
            patterns: FrozenPatternSet::new(patterns),
            config,
            report_unmatched: None,
            fired,
        }
    }

    /// Reports (as statistics notes) each pattern that has not fired after a
    /// run, by its label (`labels[i]` for pattern `i`).
    pub fn report_unmatched(mut self, labels: Vec<String>) -> Self {
        self.report_unmatched = Some(labels);
        self
    }

    /// The pattern set.
    pub fn patterns(&self) -> &FrozenPatternSet {
        &self.patterns
    }
}

impl Named for PatternPass {
    fn argument(&self) -> &'static str {
        self.argument
    }
}

impl Pass for PatternPass {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let outcome = apply_greedily(program, root, &self.patterns, &self.config);
        cx.statistics.add("patterns applied", outcome.rewrites);
        for (total, n) in self.fired.iter_mut().zip(&outcome.per_pattern) {
            *total += n;
        }
        if let Some(labels) = &self.report_unmatched {
            for (label, &n) in labels.iter().zip(&self.fired) {
                if n == 0 {
                    cx.statistics.note(format!("{label} never matched"));
                }
            }
        }
        cx.statistics
            .add("iterations", u64::from(outcome.iterations));
        // A stop short of a fixed point (rules that undo each other, that
        // keep growing the program, that fail) is an error naming the
        // patterns still firing: by their labels (a rule file's
        // `rule `NAME` (FILE:LINE)`), else their names.
        let name = |i: usize| match self.report_unmatched.as_ref().and_then(|l| l.get(i)) {
            Some(label) => label.clone(),
            None => self.patterns.patterns().get(i).map_or_else(
                || format!("pattern {}", i + 1),
                |pattern| format!("`{}`", pattern.name()),
            ),
        };
        if let Some(why) = outcome.describe(name) {
            return Err(PassError {
                pass: self.argument.into(),
                message: why,
            });
        }
        Ok(Changed::from(outcome.rewrites > 0))
    }
}
