//! The `pir` command: print, verify, convert, optimise, compare and draw
//! PaddlePaddle PIR models (`pir --help`, `pir COMMAND --help`).
//!
//! Errors go to stderr as one `error: …` line (with the file and where in
//! it; control characters escaped, so a name from a hostile model cannot
//! drive the terminal); the exit code is 0 on success, 1 on an error (and for `pir diff`,
//! when the models differ), 2 on a usage error.
//!
//! On Linux the process starts in `start.rs` rather than in Rust's runtime
//! (which a small command would spend a third of its time in); its unsafe
//! calls are the crate's only ones (the allocator's are `pir-alloc`'s).
#![deny(unsafe_code)]
#![cfg_attr(all(target_os = "linux", not(test)), no_main)]

use std::io::Write;
use std::path::PathBuf;

use clap::Parser;

/// mimalloc (`pir-alloc`): a model is many small allocations (op
/// dictionaries, interned strings), which it serves in about half the time
/// of glibc's malloc.
/// It asks for transparent huge pages where the system gives them on
/// request: a 1M-op program loads about 10% faster with them, for about
/// 45 MB of partly used 2 MB pages at its peak (`MIMALLOC_ALLOW_THP=0`
/// trades them back). The first huge page, cleared by the kernel when first
/// touched, would be about a quarter of a small command's time: on Linux
/// the process turns them off as it starts unless its command line names
/// large files (`start.rs`).
#[global_allocator]
static ALLOCATOR: pir_alloc::Allocator = pir_alloc::Allocator;

mod batch;
mod cli;
mod commands;
mod diff;
mod export;
mod graph;
mod input;
mod lower;
mod opt;
mod params;
mod progress;
mod shapes;
#[cfg(target_os = "linux")]
mod start;

/// A failed command: the message for stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Arguments that do not fit together (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// Reading or writing a model or its parameters failed.
    #[error("{}", describe_model_error(.0))]
    Model(#[from] pir::Error),
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
    #[error("{}", pir::with_path(path, &overwrite_hint(source)))]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_serde::WriteError,
    },
    /// A parameter file could not be read or written.
    #[error("{}", pir::with_path(path, &overwrite_hint(source)))]
    Params {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_params::Error,
    },
    /// A pass pipeline failed.
    #[error("{0}")]
    Pass(String),
    /// `pir opt` on a model whose parameters were not found: the message
    /// says where they were looked for.
    #[error("{0}")]
    MissingParams(String),
    /// Exporting to ONNX failed (nothing was written).
    #[error("{}", overwrite_hint(.0))]
    Export(#[from] pir::onnx::ExportError),
    /// Writing a file failed (a graph).
    #[error("{}", overwrite_hint(.0))]
    Fs(#[from] pir_core::fs::WriteError),
    /// Some other file could not be read (a patch file).
    #[error("{0}")]
    File(String),
    /// Writing output failed.
    #[error("cannot write output: {0}")]
    Output(#[from] std::io::Error),
    /// Some of several models failed (each error was already written).
    #[error("{failed} of {total} models failed")]
    Failed {
        /// How many failed.
        failed: usize,
        /// How many were given.
        total: usize,
    },
    /// Not an error: `pir diff` found differences (exit code 1, nothing
    /// more to say).
    #[error("the models differ")]
    Differ,
}

impl CliError {
    /// The process exit code for this error.
    fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            _ => 1,
        }
    }
}

/// A model error, with what to do about a file of the wrong kind.
fn describe_model_error(e: &pir::Error) -> String {
    match e {
        pir::Error::WrongKind {
            path,
            found: pir::FileKind::CombinedParams | pir::FileKind::PickleParams,
            ..
        } if path.exists() => format!(
            "{e} (list its tensors with `pir params {}`)",
            path.display()
        ),
        _ => overwrite_hint(e),
    }
}

/// The error's message; a refused overwrite also says how to allow it.
fn overwrite_hint(e: &(dyn std::error::Error + 'static)) -> String {
    match pir::refused_overwrite(e) {
        Some(path) => format!(
            "{} already exists (pass --force to overwrite it)",
            path.display()
        ),
        None => e.to_string(),
    }
}

/// Writes `note: MESSAGE` to stderr, control characters escaped
/// ([`escape_controls`]); a stderr that cannot be written (a full disk, a
/// closed pipe) is an error of the command, not a panic.
pub(crate) fn note(message: &str) -> Result<(), CliError> {
    let mut stderr = std::io::stderr().lock();
    writeln!(stderr, "note: {}", escape_controls(message))?;
    Ok(())
}

/// A message with its control characters made visible
/// ([`pir_core::visible::visible`]): messages quote names from the model,
/// which a hostile file can fill with terminal escapes (ESC sequences that
/// retitle the window or rewrite earlier lines) or NUL; every message
/// passes here on its way to the terminal.
pub(crate) fn escape_controls(message: &str) -> std::borrow::Cow<'_, str> {
    pir_core::visible::visible(message, false)
}

/// The entry point where the process starts in Rust's runtime (see `start.rs`).
#[cfg(any(test, not(target_os = "linux")))]
fn main() -> std::process::ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    std::process::ExitCode::from(run(args.iter()))
}

/// Runs the command line's command (`args`, those after the program's
/// name, are looked at for `--version` and a line of model paths alone;
/// clap reads any other itself); gives the exit code.
fn run<A: AsRef<std::ffi::OsStr>>(args: impl Iterator<Item = A> + Clone) -> u8 {
    if let Some(version) = version_request(args.clone()) {
        // A closed stdout (`pir --version | true`) is no error, as for clap.
        let _ = std::io::stdout().write_all(version.as_bytes());
        return 0;
    }
    let cli = cli::Cli::plain_paths(args).unwrap_or_else(cli::Cli::parse);
    // Nearly every command reads a model: the scanning thread starts while
    // the command builds its context and reads the file (if one is large
    // enough to be read on two threads).
    let largest = cli
        .command
        .models()
        .iter()
        .filter_map(|path| std::fs::metadata(path).ok())
        .map(|m| m.len())
        .max();
    pir_serde::prepare_threads(largest.unwrap_or(0));
    match commands::run(cli) {
        Ok(()) => 0,
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(CliError::Differ) => 1,
        Err(e) => {
            let message = e.to_string();
            let _ = writeln!(std::io::stderr(), "error: {}", escape_controls(&message));
            e.exit_code()
        }
    }
}

/// The answer to `pir --version` or `pir -V` given alone (`args` are
/// those after the program's name): clap's text (`pir 0.1.0`), known when
/// the program is built. Building the command line to print it was a sixth
/// of the command's instructions; any other command line, `--version`
/// among other arguments too, goes to clap, which prints the same (a test
/// compares them).
pub(crate) fn version_request<A: AsRef<std::ffi::OsStr>>(
    mut args: impl Iterator<Item = A>,
) -> Option<&'static str> {
    match (args.next(), args.next()) {
        (Some(arg), None) if arg.as_ref() == "--version" || arg.as_ref() == "-V" => {
            Some(concat!("pir ", env!("CARGO_PKG_VERSION"), "\n"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn control_characters_are_escaped() {
        assert!(matches!(
            escape_controls("a\tb\nc"),
            std::borrow::Cow::Borrowed("a\tb\nc")
        ));
        assert_eq!(
            escape_controls("\0\x1b[31m\r\x7f\u{85}é"),
            "\\x00\\x1b[31m\\x0d\\x7f\\u{85}é"
        );
    }
}
