//! Reading models and checking output paths: the one place the commands
//! learn what a file is.

use std::io::Write as _;
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
        ..Default::default()
    }
}

/// The load options for `read` and `--lenient`.
pub(crate) fn load_options(read: &ReadOptions) -> pir::LoadOptions {
    pir::LoadOptions {
        read: read.clone(),
        legacy: legacy_options(),
    }
}

/// Ends the use of the last model a command reads: its memory is left to
/// the process's exit, which returns all of it at once, rather than freed
/// block by block (a small model's context and ops were 2.7% of the
/// instructions of `pir verify`). A command that reads several models
/// frees all but the last, so that they do not add up.
pub(crate) fn leave_to_exit(last: LoadedProgram) {
    std::mem::forget(last);
}

/// Reads a model of any kind (told by its content).
pub(crate) fn load(path: &Path) -> Result<LoadedProgram, CliError> {
    load_with(path, &ReadOptions::default())
}

/// [`load`] with reader options.
pub(crate) fn load_with(path: &Path, options: &ReadOptions) -> Result<LoadedProgram, CliError> {
    let ctx = pir_dialects::pd_op_context();
    let _progress = crate::progress::spinner(format_args!("reading {}", path.display()));
    let options = load_options(options);
    if is_stdio(path) {
        let stdin = std::io::stdin().lock();
        return Ok(pir::read_program_from(
            ctx,
            Path::new(STDIN_NAME),
            stdin,
            &options,
        )?);
    }
    Ok(pir::read_program(ctx, path, &options)?)
}

/// Reads a model with the parameter file beside it (none for standard
/// input): the program told by its content, the tensors memory-mapped and
/// checked against it.
pub(crate) fn load_model(path: &Path) -> Result<pir::Model, CliError> {
    load_model_with(path, &ReadOptions::default())
}

/// [`load_model`] with reader options.
pub(crate) fn load_model_with(path: &Path, options: &ReadOptions) -> Result<pir::Model, CliError> {
    let ctx = pir_dialects::pd_op_context();
    let options = load_options(options);
    let _progress = crate::progress::spinner(format_args!("reading {}", path.display()));
    if is_stdio(path) {
        let stdin = std::io::stdin().lock();
        return Ok(pir::Model::read_from(
            ctx,
            Path::new(STDIN_NAME),
            stdin,
            &options,
        )?);
    }
    Ok(pir::Model::open(ctx, path, &options)?)
}

/// `-`: standard input where a model is read, standard output where one
/// is written.
pub(crate) fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How standard input is named in messages.
const STDIN_NAME: &str = "<stdin>";

/// The extensions a model may be written with.
const MODEL_OUTPUTS: [&str; 4] = ["json", "pir", "txt", "pdmodel"];

/// Refuses an output path whose extension says no model format (`-`,
/// standard output, takes JSON).
pub(crate) fn check_model_output(path: &Path) -> Result<(), CliError> {
    if is_stdio(path) {
        return Ok(());
    }
    check_extension(path, &MODEL_OUTPUTS, "a model")
}

/// Refuses `path` unless its extension is one of `allowed`.
pub(crate) fn check_extension(path: &Path, allowed: &[&str], what: &str) -> Result<(), CliError> {
    let ext = path.extension().and_then(|e| e.to_str());
    if pir_core::fs::extension(path).is_some_and(|e| allowed.contains(&e.as_str())) {
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
/// (Paddle's print) path; `-` writes JSON to standard output.
pub(crate) fn save(
    program: &pir_core::Program,
    path: &Path,
    options: &pir_serde::WriteOptions,
    force: bool,
) -> Result<(), CliError> {
    check_model_output(path)?;
    if is_stdio(path) {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        pir_serde::write_to(program, options, &mut out).map_err(|source| CliError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        return Ok(out.flush()?);
    }
    let _progress = crate::progress::spinner(format_args!("writing {}", path.display()));
    if pir_legacy::is_pdmodel_path(path) {
        let bytes = pir_legacy::write::to_bytes(program).map_err(|source| {
            CliError::Model(pir::Error::LegacyWrite {
                path: path.to_path_buf(),
                source,
            })
        })?;
        return pir_core::fs::write_atomic(path, force, |w| w.write_all(&bytes)).map_err(|e| {
            CliError::Write {
                path: path.to_path_buf(),
                source: pir_serde::WriteError::from(e),
            }
        });
    }
    pir_serde::write_any_file(program, path, options, force).map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes a model and the parameters its program uses beside it
/// (`OUT.pdiparams`, see [`pir::Model::save_as`]), or, for `-`, the
/// program as JSON to standard output and a note that its parameters are
/// not written.
pub(crate) fn save_model(model: &pir::Model, out: &Path, force: bool) -> Result<(), CliError> {
    save_model_as_version(model, out, force, pir_serde::PIR_VERSION)
}

/// [`save_model`] for PIR `version`: below the current one the program is
/// written as that release wrote it (see [`pir::Model::save_as_version`]).
pub(crate) fn save_model_as_version(
    model: &pir::Model,
    out: &Path,
    force: bool,
    version: u64,
) -> Result<(), CliError> {
    check_model_output(out)?;
    if is_stdio(out) {
        // Any bound tensor: the parameters are not asked for (or copied).
        if model.program.parameters().next().is_some() {
            crate::note(
                "the program goes to standard output; its parameters are not written (name an output file to write OUT.pdiparams beside it)",
            )?;
        }
        let options = pir_serde::WriteOptions {
            trainable: model.trainable,
            readable: model.readable,
            version,
        };
        return save(&model.program, out, &options, force);
    }
    let _progress = crate::progress::spinner(format_args!("writing {}", out.display()));
    model
        .save_as_version(out, force, version)
        .map_err(|e| match e {
            pir::Error::Write { path, source } => CliError::Write { path, source },
            pir::Error::Params { path, source } => CliError::Params { path, source },
            other => CliError::Model(other),
        })
}
