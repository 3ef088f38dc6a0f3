//! Reading models and checking output paths: the one place the commands
//! learn what a file is.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use pir_serde::{LoadedProgram, ReadOptions};

use crate::CliError;

static LENIENT: AtomicBool = AtomicBool::new(false);

/// Sets `--lenient` for every model this process reads.
pub(crate) fn set_lenient(lenient: bool) {
    LENIENT.store(lenient, Ordering::Relaxed);
}

/// How legacy models are translated (`--lenient`).
pub(crate) fn legacy_options() -> pir_legacy::Options {
    pir_legacy::Options {
        lenient: LENIENT.load(Ordering::Relaxed),
    }
}

/// The load options for `read` and `--lenient`.
pub(crate) fn load_options(read: &ReadOptions) -> pir::LoadOptions {
    pir::LoadOptions {
        read: read.clone(),
        legacy: legacy_options(),
    }
}

/// Reads a model of any kind (told by its content).
pub(crate) fn load(path: &Path) -> Result<LoadedProgram, CliError> {
    load_with(path, &ReadOptions::default())
}

/// [`load`] with reader options.
pub(crate) fn load_with(path: &Path, options: &ReadOptions) -> Result<LoadedProgram, CliError> {
    let ctx = pir_dialects::pd_op_context();
    let _progress = crate::progress::spinner(&format!("reading {}", path.display()));
    Ok(pir::read_program(ctx, path, &load_options(options))?)
}

/// The extensions a model may be written with.
const MODEL_OUTPUTS: [&str; 3] = ["json", "pir", "txt"];

/// Refuses an output path whose extension says no model format.
pub(crate) fn check_model_output(path: &Path) -> Result<(), CliError> {
    check_extension(path, &MODEL_OUTPUTS, "a model")
}

/// Refuses `path` unless its extension is one of `allowed`.
pub(crate) fn check_extension(path: &Path, allowed: &[&str], what: &str) -> Result<(), CliError> {
    let ext = path.extension().and_then(|e| e.to_str());
    if ext.is_some_and(|e| allowed.contains(&e)) {
        return Ok(());
    }
    let list: Vec<String> = allowed.iter().map(|e| format!(".{e}")).collect();
    Err(CliError::Usage(format!(
        "{}: cannot tell how to write {what} from {}; use {}",
        path.display(),
        match ext {
            Some(e) => format!("the extension .{e}"),
            None => "a path without an extension".into(),
        },
        list.join(", ")
    )))
}

/// Writes a model as JSON, or as IR text for a `.pir` (typed) or `.txt`
/// (Paddle's print) path.
pub(crate) fn save(
    program: &pir_core::Program,
    path: &Path,
    options: &pir_serde::WriteOptions,
    force: bool,
) -> Result<(), CliError> {
    check_model_output(path)?;
    let _progress = crate::progress::spinner(&format!("writing {}", path.display()));
    pir_serde::write_any_file(program, path, options, force).map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}
