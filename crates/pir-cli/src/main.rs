//! The `pir` command.
//!
//! ```text
//! pir print MODEL.json          print the program as Paddle prints it
//! pir print MODEL --typed       the lossless typed text
//! pir verify MODEL.json         check structure, SSA and op rules
//! pir stats MODEL.json          op counts and memory use
//! pir convert IN.json OUT.json  read and write Paddle's JSON (upgrading old files)
//! pir params FILE               list the tensors of a parameter file
//! ```
//! Errors go to stderr and the exit code is 1.
#![forbid(unsafe_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

mod args;
mod commands;
mod opt;
mod params;

const USAGE: &str = "\
usage: pir <command> [args]

commands:
  print MODEL [--typed] [--json-ids]
                        print the program exactly as Paddle 3.3 prints it, or
                        in the lossless typed form; --json-ids names values by
                        their ids in the JSON file
  verify MODEL.json [--strict]
                        verify structure, SSA and op rules; --strict also
                        rejects ops that are not registered

MODEL may be Paddle's JSON, IR text (Paddle's print or the typed form) or a
legacy Paddle 2.x NAME.pdmodel (translated as Paddle 3.3.1 does; --lenient
keeps untranslatable ops as unregistered ops): .json is JSON, .pir and .txt
are text, .pdmodel is legacy, anything else is told by its content.
  stats MODEL.json      op histogram, counts and memory per op
  convert IN OUT [--inference] [--readable] [--force] [--patch P.yaml]
                        read (upgrading old versions) and write Paddle's JSON;
                        .pir files are typed text, .txt Paddle's print
  upgrade OLD.json NEW.json [--force] [--patch P.yaml]
                        the same, for a model of an older Paddle release
  opt IN.json -p PIPELINE [-o OUT.json] [--print-ir-before-all] [--print-ir-after-all]
        [--print-ir-after-change] [--ir-dump-dir D] [--timing] [--statistics]
        [--no-verify] [--force] [--reproducer FILE] [--keep-vtensor] [--keep-params]
                        run passes; `pir opt --list-passes` lists them; the
                        parameters beside IN are checked and written beside OUT
  params FILE [--program MODEL.json] [--json]
                        list the tensors of a .pdiparams / .pdparams file
  params convert IN OUT [--program MODEL.json] [--force]
                        convert .pdiparams <-> .pdparams (by extension)
  time MODEL.json [--repeat N]
                        medians of load, print and save in this process (JSON)
  synth OPS OUT.json [--force]
                        write a synthetic model of about OPS ops (benchmarks)
  help                  this text
";

/// A failed command: the message for stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Wrong arguments.
    #[error("{0}\n\n{USAGE}")]
    Usage(String),
    /// Reading a model failed.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_serde::ReadError,
    },
    /// Reading or translating a legacy `.pdmodel` failed.
    #[error("{}: {source}", path.display())]
    Legacy {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_legacy::LegacyError,
    },
    /// The program failed verification.
    #[error("{}: verification failed:\n{source}", path.display())]
    Verify {
        /// The file.
        path: PathBuf,
        /// The failures.
        #[source]
        source: pir_core::verify::VerifyErrors,
    },
    /// Writing a model failed.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_serde::WriteError,
    },
    /// A parameter file could not be read or written.
    #[error("{}: {source}", path.display())]
    Params {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_params::Error,
    },
    /// Loading or saving a model with its parameters failed.
    #[error("{0}")]
    Model(#[from] pir::Error),
    /// A pass pipeline failed.
    #[error("{0}")]
    Pass(String),
    /// Writing output failed.
    #[error("cannot write output: {0}")]
    Output(#[from] std::io::Error),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match commands::run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::FAILURE
        }
    }
}
