//! The pass manager: runs a pipeline on a program with instrumentation —
//! verification after each pass, timing, statistics, and IR printing after
//! each pass (or only when it changed something) to stderr or a directory.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use pir_core::Program;

use crate::pass::{Changed, Pass, PassContext, PassError, PassRun, Statistics};
use crate::registry::{parse_pipeline_with, OptionDefaults, PipelineError};

/// What to observe while running.
#[derive(Debug, Clone, Default)]
pub struct Instrumentation {
    /// Verify the program after every pass (a failure stops the pipeline).
    pub verify_each: bool,
    /// Print the IR before every pass.
    pub print_before_all: bool,
    /// Print the IR after every pass.
    pub print_after_all: bool,
    /// Print the IR after passes that changed it.
    pub print_after_change: bool,
    /// Write the printed IR to `NN-pass.txt` files here instead of stderr.
    pub dump_dir: Option<PathBuf>,
}

/// One pass's record in a run.
#[derive(Debug, Clone)]
pub struct PassRecord {
    /// The pass argument.
    pub pass: &'static str,
    /// Wall time.
    pub time: Duration,
    /// Whether it changed the program.
    pub changed: bool,
    /// Its counters.
    pub statistics: Statistics,
}

/// A run that failed: the pass that failed and the records before it.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The pipeline text was invalid.
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
    /// A pass failed.
    #[error(transparent)]
    Pass(#[from] PassError),
    /// The program did not verify after a pass.
    #[error("the program does not verify after `{pass}`:\n{errors}")]
    Verify {
        /// The pass after which verification failed.
        pass: &'static str,
        /// The failures.
        errors: pir_core::verify::VerifyErrors,
    },
    /// A pass panicked (a bug in the pass); the program may be half-edited.
    #[error("pass `{pass}` panicked: {message}")]
    Panic {
        /// The pass.
        pass: &'static str,
        /// The panic message.
        message: String,
    },
    /// Writing an IR dump failed.
    #[error("cannot write IR dump {}: {source}", path.display())]
    Dump {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

/// Runs a pipeline.
///
/// ```
/// let ctx = pir_dialects::pd_op_context();
/// let mut p = pir_dialects::synthetic::mlp(ctx, 2);
/// let mut pm = pir_pass::PassManager::parse("cse,dce").unwrap();
/// pm.instrumentation.verify_each = true;
/// let records = pm.run(&mut p).unwrap();
/// assert_eq!(records.len(), 2);
/// ```
pub struct PassManager {
    passes: Vec<Box<dyn Pass>>,
    pipeline: String,
    /// What to observe.
    pub instrumentation: Instrumentation,
    /// Called when a pass fails, panics or leaves an invalid program, with the
    /// program as it was before the pipeline, the pipeline text and the error —
    /// enough to reproduce the failure (`pir opt --reproducer` writes them to a file).
    pub on_failure: Option<FailureHook>,
}

/// See [`PassManager::on_failure`].
pub type FailureHook = Box<dyn FnMut(&Program, &str, &RunError) + Send>;

impl PassManager {
    /// A manager for the pipeline `text` (`"dce,cse"`).
    pub fn parse(text: &str) -> Result<PassManager, PipelineError> {
        Self::parse_with(text, &OptionDefaults::default())
    }

    /// A manager for the pipeline `text`, with option defaults.
    pub fn parse_with(text: &str, defaults: &OptionDefaults) -> Result<PassManager, PipelineError> {
        Ok(PassManager {
            passes: parse_pipeline_with(text, defaults)?,
            pipeline: text.to_owned(),
            instrumentation: Instrumentation::default(),
            on_failure: None,
        })
    }

    /// A manager for the given passes.
    pub fn new(passes: Vec<Box<dyn Pass>>) -> PassManager {
        let pipeline = passes
            .iter()
            .map(|p| p.argument())
            .collect::<Vec<_>>()
            .join(",");
        PassManager {
            passes,
            pipeline,
            instrumentation: Instrumentation::default(),
            on_failure: None,
        }
    }

    /// The pipeline as text.
    pub fn pipeline(&self) -> &str {
        &self.pipeline
    }

    /// Runs every pass on the module, in order.
    pub fn run(&mut self, program: &mut Program) -> Result<Vec<PassRecord>, RunError> {
        let input = self.on_failure.is_some().then(|| program.clone());
        let result = self.run_passes(program);
        if let (Err(e), Some(hook), Some(input)) = (&result, self.on_failure.as_mut(), input) {
            hook(&input, &self.pipeline, e);
        }
        result
    }

    fn run_passes(&mut self, program: &mut Program) -> Result<Vec<PassRecord>, RunError> {
        let root = program.module_op();
        let mut records = Vec::with_capacity(self.passes.len());
        let mut cx = PassContext::default();
        for (i, pass) in self.passes.iter_mut().enumerate() {
            let start = Instant::now();
            let name = pass.argument();
            let inst = &self.instrumentation;
            if inst.print_before_all {
                emit(
                    inst,
                    program,
                    &format!("{:02}-before-{name}", i + 1),
                    &format!("// IR before `{name}`"),
                )?;
            }
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pass.run(PassRun {
                    program,
                    root,
                    cx: &mut cx,
                })
            }));
            let changed = match run {
                Ok(result) => result?,
                Err(payload) => {
                    let message = payload
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    return Err(RunError::Panic {
                        pass: name,
                        message,
                    });
                }
            };
            let time = start.elapsed();
            let statistics = cx.finish_pass(changed);
            if self.instrumentation.verify_each {
                program
                    .verify()
                    .map_err(|errors| RunError::Verify { pass: name, errors })?;
            }
            let changed = changed == Changed::Yes;
            let inst = &self.instrumentation;
            if inst.print_after_all || (inst.print_after_change && changed) {
                let title = format!(
                    "// IR after `{name}`{}",
                    if changed { "" } else { " (unchanged)" }
                );
                emit(inst, program, &format!("{:02}-{name}", i + 1), &title)?;
            }
            records.push(PassRecord {
                pass: name,
                time,
                changed,
                statistics,
            });
        }
        Ok(records)
    }
}

/// Prints the IR to the dump directory (`NAME.txt`) or to stderr under `title`.
fn emit(
    inst: &Instrumentation,
    program: &Program,
    name: &str,
    title: &str,
) -> Result<(), RunError> {
    let text = program.print_to_vec();
    match &inst.dump_dir {
        Some(dir) => {
            let path = dir.join(format!("{name}.txt"));
            // A dump folder is rewritten on every run; the rename replaces
            // whatever stands at the path (a link included) and never writes
            // through a link into its target.
            pir_core::fs::write_atomic(&path, true, |w| w.write_all(&text)).map_err(|e| {
                let source = match e {
                    pir_core::fs::WriteError::Io { source, .. } => source,
                    other => std::io::Error::other(other.to_string()),
                };
                RunError::Dump { path, source }
            })
        }
        None => {
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "{title}");
            let _ = err.write_all(&text);
            Ok(())
        }
    }
}

/// Formats the timing and statistics of a run as a table.
pub fn report(records: &[PassRecord]) -> String {
    let total: Duration = records.iter().map(|r| r.time).sum();
    let mut out = String::from("  time (ms)  share  pass\n");
    for r in records {
        let share = if total.is_zero() {
            0.0
        } else {
            r.time.as_secs_f64() / total.as_secs_f64() * 100.0
        };
        out.push_str(&format!(
            "{:11.3} {:5.1}%  {}\n",
            r.time.as_secs_f64() * 1e3,
            share,
            r.pass
        ));
        for (k, v) in r.statistics.entries() {
            out.push_str(&format!("{:>20}  {k}\n", v));
        }
    }
    out.push_str(&format!(
        "{:11.3} 100.0%  total\n",
        total.as_secs_f64() * 1e3
    ));
    out
}
