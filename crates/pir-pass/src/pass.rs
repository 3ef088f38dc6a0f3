//! The [`Pass`] trait and what a pass reports.
//!
//! A pass transforms a program in place, starting from a root op (the module,
//! or any op with regions). It says whether it changed anything and counts
//! what it did in [`Statistics`]; a failure is an error value, never a panic.

use pir_core::{OpId, Program};

/// Counters a pass fills in (e.g. `ops erased`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Statistics {
    entries: Vec<(&'static str, u64)>,
}

impl Statistics {
    /// Adds `n` to counter `name`.
    pub fn add(&mut self, name: &'static str, n: u64) {
        match self.entries.iter_mut().find(|(k, _)| *k == name) {
            Some((_, v)) => *v += n,
            None => self.entries.push((name, n)),
        }
    }

    /// The value of counter `name` (0 if never added to).
    pub fn get(&self, name: &str) -> u64 {
        self.entries
            .iter()
            .find(|(k, _)| *k == name)
            .map_or(0, |(_, v)| *v)
    }

    /// All counters in the order they were first added to.
    pub fn entries(&self) -> &[(&'static str, u64)] {
        &self.entries
    }
}

/// A pass that failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pass `{pass}` failed: {message}")]
pub struct PassError {
    /// The pass's argument name.
    pub pass: String,
    /// Why.
    pub message: String,
}

/// What a pass run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changed {
    /// The program was modified.
    Yes,
    /// The program is exactly as before.
    No,
}

/// A transformation of a program.
pub trait Pass: Send {
    /// The name used in pipelines (`dce`).
    fn argument(&self) -> &'static str;
    /// What the pass does, in one sentence.
    fn description(&self) -> &'static str;
    /// Runs on the ops nested in `root`.
    fn run(
        &mut self,
        program: &mut Program,
        root: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, PassError>;
}
