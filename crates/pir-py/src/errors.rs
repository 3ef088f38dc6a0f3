//! The `pir.PirError` hierarchy and the conversion of every Rust error of
//! the library into it.
//!
//! Each exception carries, besides its message, the attributes `file` (the
//! file involved, or `None`), `json_path` (where in a JSON model), `line`,
//! `column` and `offset` (where in a text), each `None` when it does not
//! apply; [`VerifyError`]s also carry `errors`, a list of
//! `(location, message)` pairs.

use std::path::Path;

use pyo3::exceptions::PyException;
use pyo3::prelude::*;

pyo3::create_exception!(
    pir,
    PirError,
    PyException,
    "Base class of every error pir raises; carries `file`, `json_path`, `line`, `column`, `offset`."
);
pyo3::create_exception!(
    pir,
    ReadError,
    PirError,
    "A model file could not be read (JSON path in `json_path`)."
);
pyo3::create_exception!(
    pir,
    ParseError,
    ReadError,
    "Malformed IR text or JSON (position in `line`, `column`, `offset`)."
);
pyo3::create_exception!(
    pir,
    FileKindError,
    ReadError,
    "A file is not of the kind the call reads (a parameter file given as a model, a model given as parameters...); the message says what the file is."
);
pyo3::create_exception!(
    pir,
    LegacyError,
    ReadError,
    "A Paddle 2.x `.pdmodel` could not be read or translated."
);
pyo3::create_exception!(
    pir,
    ParamsError,
    PirError,
    "A parameter file could not be read or written, or a tensor does not fit its declaration."
);
pyo3::create_exception!(pir, WriteError, PirError, "A model could not be written.");
pyo3::create_exception!(
    pir,
    VerifyError,
    PirError,
    "The program does not verify; `errors` lists `(location, message)` pairs."
);
pyo3::create_exception!(
    pir,
    PassError,
    PirError,
    "A pipeline is malformed, or a pass failed (the program is left as it was)."
);
pyo3::create_exception!(
    pir,
    MissingParamsError,
    PassError,
    "A model loaded with `params=True` found no parameter file beside it, so passes would run without its parameters; `file` names the file looked for."
);
pyo3::create_exception!(
    pir,
    EditError,
    PirError,
    "An edit of the IR that would break it (erasing a used op, a handle of another program...)."
);
pyo3::create_exception!(
    pir,
    InferError,
    PirError,
    "Result types could not be inferred: an op without type inference, or operands and attributes its InferMeta refuses (the message names the op)."
);

pyo3::create_exception!(
    pir,
    InternalError,
    PirError,
    "An internal error of pir (a bug; please report it with the input): the call was abandoned, and a program it was changing is left as it was."
);

/// Runs `f` (the body of a call from Python), turning a panic into an
/// [`InternalError`] that names `what` was being done.
///
/// Without it, pyo3 turns a panic into `pyo3_runtime.PanicException`, a
/// `BaseException` that `except Exception` (and `except pir.PirError`)
/// does not catch. This boundary catches unwinding panics only: the
/// release and dev profiles unwind, and an abort (memory exhaustion, a
/// stack overflow) ends the process whatever the boundary; the readers and
/// passes bound their work by their input instead (the pickle copy budget,
/// the text parser's nesting limit, the DRR and legacy translator limits),
/// so that hostile input is an error before it gets there.
pub(crate) fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let detail = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            Err(raise::<InternalError>(
                format!("internal error while {what}: {detail} (this is a bug in pir)"),
                Where::default(),
            ))
        }
    }
}

/// Where an error happened, set as attributes of the exception.
#[derive(Default)]
pub(crate) struct Where {
    pub file: Option<String>,
    pub json_path: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub offset: Option<usize>,
}

impl Where {
    pub fn file(path: &Path) -> Where {
        Where {
            file: Some(path.display().to_string()),
            ..Default::default()
        }
    }
}

/// An exception of class `E` with the message and location attributes.
pub(crate) fn raise<E: pyo3::PyTypeInfo>(message: String, at: Where) -> PyErr {
    let err = PyErr::new::<E, _>(message);
    Python::attach(|py| {
        let value = err.value(py);
        // Setting attributes on a fresh exception object cannot fail short of
        // memory exhaustion; the message alone is still a useful error then.
        let _ = value.setattr("file", at.file);
        let _ = value.setattr("json_path", at.json_path);
        let _ = value.setattr("line", at.line);
        let _ = value.setattr("column", at.column);
        let _ = value.setattr("offset", at.offset);
    });
    err
}

/// A [`EditError`] with a message.
pub(crate) fn edit(message: impl Into<String>) -> PyErr {
    raise::<EditError>(message.into(), Where::default())
}

/// The location a model reader's error names.
fn read_where(file: Option<&Path>, e: &pir_serde::ReadError) -> Where {
    use pir_serde::ReadError as R;
    let mut at = Where {
        file: file.map(|p| p.display().to_string()),
        ..Default::default()
    };
    match e {
        R::Io { path, .. } => at.file = Some(path.display().to_string()),
        R::Json(j) => {
            at.line = Some(j.line);
            at.column = Some(j.column);
            at.offset = Some(j.offset);
        }
        R::Text(t) => {
            at.line = Some(t.line);
            at.column = Some(t.column);
            at.offset = Some(t.offset);
        }
        R::BadMagic { path, .. } | R::Invalid { path, .. } => at.json_path = Some(path.clone()),
        R::PatchApply(a) => at.json_path = Some(a.path.clone()),
        R::Patch(p) => {
            at.file = Some(p.file.clone());
            at.line = (p.line > 0).then_some(p.line);
            at.column = (p.column > 0).then_some(p.column);
        }
        R::Version { .. } | R::Header { .. } | R::NotAModel(_) => {}
    }
    at
}

/// A model reader's error as `ParseError` (text or JSON syntax) or `ReadError`.
pub(crate) fn read(file: Option<&Path>, e: pir_serde::ReadError) -> PyErr {
    let at = read_where(file, &e);
    let message = match file {
        Some(f) if !matches!(e, pir_serde::ReadError::Io { .. }) => {
            format!("{}: {e}", f.display())
        }
        _ => e.to_string(),
    };
    match e {
        pir_serde::ReadError::Json(_) | pir_serde::ReadError::Text(_) => {
            raise::<ParseError>(message, at)
        }
        _ => raise::<ReadError>(message, at),
    }
}

/// A legacy reader's error.
pub(crate) fn legacy(file: &Path, e: pir_legacy::LegacyError) -> PyErr {
    raise::<LegacyError>(format!("{}: {e}", file.display()), Where::file(file))
}

/// A [`WriteError`] for a destination that exists, saying how to replace it.
fn exists(path: &Path) -> PyErr {
    raise::<WriteError>(
        format!(
            "{} already exists (pass overwrite=True to replace it)",
            path.display()
        ),
        Where::file(path),
    )
}

/// A parameter file's error (a refused overwrite is a [`WriteError`]).
pub(crate) fn params(file: &Path, e: pir_params::Error) -> PyErr {
    if let Some(path) = pir::refused_overwrite(&e) {
        return exists(path);
    }
    let mut at = Where::file(file);
    match &e {
        pir_params::Error::Stream { offset, .. } | pir_params::Error::Pickle { offset, .. } => {
            at.offset = usize::try_from(*offset).ok();
        }
        pir_params::Error::Io(io) => at.file = Some(io.path.display().to_string()),
        _ => {}
    }
    let message = match e {
        pir_params::Error::Io(_) => e.to_string(),
        _ => format!("{}: {e}", file.display()),
    };
    raise::<ParamsError>(message, at)
}

/// A writer's error.
pub(crate) fn write(file: &Path, e: pir_serde::WriteError) -> PyErr {
    if let Some(path) = pir::refused_overwrite(&e) {
        return exists(path);
    }
    raise::<WriteError>(format!("{}: {e}", file.display()), Where::file(file))
}

/// A verifier's failures, with `errors` set to `(location, message)` pairs.
pub(crate) fn verify(e: pir_core::verify::VerifyErrors) -> PyErr {
    let err = raise::<VerifyError>(e.to_string(), Where::default());
    Python::attach(|py| {
        let pairs: Vec<(String, String)> =
            e.0.into_iter().map(|v| (v.location, v.message)).collect();
        let _ = err.value(py).setattr("errors", pairs);
    });
    err
}

/// A [`MissingParamsError`]: `model` was loaded expecting the parameter
/// file `file` beside it, which was not there.
pub(crate) fn missing_params(model: &str, file: &Path) -> PyErr {
    raise::<MissingParamsError>(
        format!(
            "{model} declares persistable variables but was loaded without their data: \
             the parameter file {} was not found; passes would run without the \
             parameters (pir.load(path, params=False) optimises the program alone)",
            file.display()
        ),
        Where::file(file),
    )
}

/// Result types that could not be inferred.
pub(crate) fn infer(message: impl Into<String>) -> PyErr {
    raise::<InferError>(message.into(), Where::default())
}

/// A pipeline that is malformed or a pass that failed.
pub(crate) fn pass(message: String) -> PyErr {
    raise::<PassError>(message, Where::default())
}

/// An error of the facade (`pir::Model`).
pub(crate) fn model(e: pir::Error) -> PyErr {
    match e {
        pir::Error::Program { path, source } => read(Some(&path), source),
        pir::Error::Legacy { path, source } => legacy(&path, source),
        pir::Error::Params { path, source } => params(&path, source),
        pir::Error::Write { path, source } => write(&path, source),
        e @ (pir::Error::LegacyWrite { .. } | pir::Error::Onnx { .. }) => {
            raise::<WriteError>(e.to_string(), Where::default())
        }
        e @ pir::Error::Mismatch { .. } => raise::<ParamsError>(e.to_string(), Where::default()),
        pir::Error::WrongKind { ref path, .. } => {
            raise::<FileKindError>(e.to_string(), Where::file(path))
        }
        pir::Error::Io(ref io) => raise::<ReadError>(e.to_string(), Where::file(&io.path)),
    }
}

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PirError", py.get_type::<PirError>())?;
    m.add("ReadError", py.get_type::<ReadError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("FileKindError", py.get_type::<FileKindError>())?;
    m.add("LegacyError", py.get_type::<LegacyError>())?;
    m.add("ParamsError", py.get_type::<ParamsError>())?;
    m.add("WriteError", py.get_type::<WriteError>())?;
    m.add("VerifyError", py.get_type::<VerifyError>())?;
    m.add("PassError", py.get_type::<PassError>())?;
    m.add("MissingParamsError", py.get_type::<MissingParamsError>())?;
    m.add("EditError", py.get_type::<EditError>())?;
    m.add("InferError", py.get_type::<InferError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    Ok(())
}
