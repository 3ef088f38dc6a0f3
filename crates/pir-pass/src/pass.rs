//! The [`Pass`] trait and what a pass reports.
//!
//! A pass transforms a program in place, starting from a root op (the module,
//! or any op with regions). It says whether it changed anything and counts
//! what it did in [`Statistics`]; a failure is an error value, never a panic.

use pir_core::{OpId, Program};

use crate::registry::PassInfo;

/// Counters a pass fills in (e.g. `ops erased`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Statistics {
    entries: Vec<(&'static str, u64)>,
    notes: Vec<String>,
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

    /// Records something the user should hear about (a rule that never
    /// matched), once.
    pub fn note(&mut self, text: String) {
        if !self.notes.contains(&text) {
            self.notes.push(text);
        }
    }

    /// The notes, in the order they were made.
    pub fn notes(&self) -> &[String] {
        &self.notes
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

impl PassError {
    /// The failure of pass `pass`, saying `why` (an edit error, say).
    pub fn new(pass: &str, why: impl std::fmt::Display) -> Self {
        PassError {
            pass: pass.to_owned(),
            message: why.to_string(),
        }
    }
}

/// What a pass run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changed {
    /// The program was modified.
    Yes,
    /// The program is exactly as before.
    No,
}

impl From<bool> for Changed {
    /// `Yes` for `true`: `(erased > 0).into()`.
    fn from(changed: bool) -> Changed {
        if changed {
            Changed::Yes
        } else {
            Changed::No
        }
    }
}

/// Cached results of analyses of the program, keyed by their Rust type.
///
/// A pass asks for an analysis with [`AnalysisManager::get`]; it is computed
/// once and kept until a pass changes the program without listing the
/// analysis as preserved ([`PassContext::preserve`]).
///
/// ```
/// use pir_pass::pass::{Analysis, AnalysisManager};
/// struct OpCount(usize);
/// impl Analysis for OpCount {
///     fn compute(p: &pir_core::Program) -> Self { OpCount(p.num_ops()) }
/// }
/// let ctx = pir_dialects::pd_op_context();
/// let p = pir_dialects::synthetic::mlp(ctx, 1);
/// let mut am = AnalysisManager::default();
/// assert_eq!(am.get::<OpCount>(&p).0, 10);
/// assert!(am.is_cached::<OpCount>());
/// ```
#[derive(Default)]
pub struct AnalysisManager {
    cache: Vec<(std::any::TypeId, Box<dyn std::any::Any + Send>)>,
}

impl std::fmt::Debug for AnalysisManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AnalysisManager({} cached)", self.cache.len())
    }
}

/// An analysis: a fact about a program computed from it.
pub trait Analysis: Send + 'static {
    /// Computes the analysis.
    fn compute(program: &Program) -> Self;
}

impl AnalysisManager {
    /// The analysis `A` of `program`, computed on first request.
    pub fn get<A: Analysis>(&mut self, program: &Program) -> &A {
        let id = std::any::TypeId::of::<A>();
        let index = match self.cache.iter().position(|(t, _)| *t == id) {
            Some(i) => i,
            None => {
                self.cache.push((id, Box::new(A::compute(program))));
                self.cache.len() - 1
            }
        };
        match self.cache[index].1.downcast_ref::<A>() {
            Some(a) => a,
            None => unreachable!("analyses are stored under their own type id"),
        }
    }

    /// Whether `A` is cached.
    pub fn is_cached<A: Analysis>(&self) -> bool {
        self.cache
            .iter()
            .any(|(t, _)| *t == std::any::TypeId::of::<A>())
    }

    /// Drops every cached analysis except the preserved ones.
    pub fn invalidate_except(&mut self, preserved: &[std::any::TypeId]) {
        self.cache.retain(|(t, _)| preserved.contains(t));
    }
}

/// What a running pass can use: its counters and the analysis cache.
#[derive(Debug, Default)]
pub struct PassContext {
    /// The pass's counters.
    pub statistics: Statistics,
    /// Cached analyses (shared by the passes of a pipeline).
    pub analyses: AnalysisManager,
    preserved: Vec<std::any::TypeId>,
}

impl PassContext {
    /// Declares that analysis `A` stays valid although the pass changed the program.
    pub fn preserve<A: Analysis>(&mut self) {
        self.preserved.push(std::any::TypeId::of::<A>());
    }

    /// Ends a pass: keeps the counters' owner informed and drops analyses the
    /// change made stale. Returns the pass's statistics.
    pub fn finish_pass(&mut self, changed: Changed) -> Statistics {
        self.finish_inner_pass(changed);
        std::mem::take(&mut self.statistics)
    }

    /// Ends a pass run inside another (a nested pipeline): drops the
    /// analyses the change made stale, so the next inner pass never sees
    /// them, and leaves the counters to the enclosing pass.
    pub fn finish_inner_pass(&mut self, changed: Changed) {
        if changed == Changed::Yes {
            let preserved = std::mem::take(&mut self.preserved);
            self.analyses.invalidate_except(&preserved);
        }
        self.preserved.clear();
    }
}

/// What a pass runs on: the program, the op whose regions it transforms,
/// and the context it reports to. A pass takes it apart in its signature:
///
/// ```
/// use pir_pass::pass::{Changed, Named, Pass, PassResult, PassRun};
/// struct CountOps;
/// impl Named for CountOps {
///     fn argument(&self) -> &'static str {
///         "count_ops"
///     }
/// }
/// impl Pass for CountOps {
///     fn run(&mut self, PassRun { program, cx, .. }: PassRun<'_>) -> PassResult {
///         cx.statistics.add("ops", program.num_ops() as u64);
///         Ok(Changed::No)
///     }
/// }
/// let ctx = pir_dialects::pd_op_context();
/// let mut p = pir_dialects::synthetic::mlp(ctx, 1);
/// let records = pir_pass::PassManager::new(vec![Box::new(CountOps)]).run(&mut p).unwrap();
/// assert_eq!(records[0].statistics.get("ops"), 10);
/// ```
#[derive(Debug)]
pub struct PassRun<'a> {
    /// The program, edited in place.
    pub program: &'a mut Program,
    /// The op whose nested ops the pass transforms: the module, or an op of
    /// a nested pipeline (`pd_op.while(cse,dce)` runs on each `while`).
    pub root: OpId,
    /// The pass's counters and the pipeline's cached analyses.
    pub cx: &'a mut PassContext,
}

/// What a pass run returns: whether it changed the program, or why it failed.
pub type PassResult = Result<Changed, PassError>;

/// How a pass is known: its name in pipelines and what it does.
///
/// A pass declared by a registry entry takes both from it ([`Registered`]);
/// another pass (a nested pipeline, a pass of a program's own) names itself.
pub trait Named {
    /// The name used in pipelines (`dce`).
    fn argument(&self) -> &'static str;
    /// What the pass does, in one sentence.
    fn description(&self) -> &'static str {
        crate::registry::description(self.argument()).unwrap_or("")
    }
}

/// A pass declared by a registry entry: the [`PassInfo`] that builds it is
/// the one place its name and description are written.
pub trait Registered {
    /// The registry entry (`dce::INFO`).
    const INFO: PassInfo;
}

impl<T: Registered> Named for T {
    fn argument(&self) -> &'static str {
        T::INFO.argument
    }
    fn description(&self) -> &'static str {
        T::INFO.description
    }
}

/// A transformation of a program: the work a pass does when it runs.
pub trait Pass: Named + Send {
    /// Runs on the ops nested in `run.root`.
    fn run(&mut self, run: PassRun<'_>) -> PassResult;
}
