//! `pir._pir`: the native module of the `pir` Python package (the
//! distribution `pir-rs`: `pip install ./crates/pir-py`, then `import pir`).
//!
//! Python users read, inspect, edit, optimise and save Paddle models without
//! Paddle: `pir.load` gives a `Model` (program + parameters viewing the
//! parameter file's bytes), `str(model.program)` is Paddle's print, `model.opt(...)`
//! runs any `pir opt` pipeline, `model.params` maps names to read-only NumPy
//! arrays over the parameter file. The thin Python package around this module
//! lives in `python/pir/` with its type stubs.
//!
//! Every program of the process shares one IR context (as Paddle's
//! `IrContext::Instance()`), so types and attributes taken from one program
//! can build ops in another.
#![deny(unsafe_op_in_unsafe_fn)]
// One function opts in: handing NumPy a tensor's bytes (`numpy_view.rs`).
#![deny(unsafe_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use pir_core::IrContext;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// mimalloc, as the `pir` command uses it (`pir-alloc`): a load is many small allocations
/// (op dictionaries, names, the reader's tables), which glibc's malloc
/// serves in about twice the instructions.
#[global_allocator]
static ALLOCATOR: pir_alloc::Allocator = pir_alloc::Allocator;

mod attrs;
mod defs;
mod errors;
mod ir;
mod numpy_view;
mod params;
mod program;

use program::{PyModel, PyProgram};

/// The context every program of the process lives in.
pub(crate) fn context() -> &'static Arc<IrContext> {
    static CTX: OnceLock<Arc<IrContext>> = OnceLock::new();
    CTX.get_or_init(pir_dialects::pd_op_context)
}

/// Type inference for ops of [`context`] (built once, shared).
pub(crate) fn inferer() -> &'static pir::infer::Inferer {
    static INFERER: OnceLock<Arc<pir::infer::Inferer>> = OnceLock::new();
    INFERER.get_or_init(|| pir::infer::Inferer::shared(context()))
}

/// What `load` binds as parameters.
enum ParamSource {
    /// The file beside the program, if any.
    Beside,
    /// None.
    Skip,
    /// These files: one `.pdiparams`, or `.pdparams`/`.pdopt` pickles.
    Files(Vec<PathBuf>),
}

fn param_source(params: &Bound<'_, PyAny>) -> PyResult<ParamSource> {
    if let Ok(flag) = params.extract::<bool>() {
        return Ok(if flag {
            ParamSource::Beside
        } else {
            ParamSource::Skip
        });
    }
    if let Ok(one) = params.extract::<PathBuf>() {
        return Ok(ParamSource::Files(vec![one]));
    }
    Ok(ParamSource::Files(params.extract::<Vec<PathBuf>>()?))
}

/// Binds the tensors of a `.pdiparams` file, or of `.pdparams`/`.pdopt`
/// pickles (each variable from the first pickle holding it). Each file is
/// told by its content: a model given as parameters is a `FileKindError`.
fn bind_files(model: &mut pir::Model, files: &[PathBuf]) -> PyResult<()> {
    let mut kinds = Vec::with_capacity(files.len());
    for f in files {
        kinds.push(
            pir::check_kind(f, "a parameter file", pir::FileKind::is_params)
                .map_err(errors::model)?,
        );
    }
    let bound = match (files, kinds.as_slice()) {
        ([], _) => Ok(()),
        ([one], [pir::FileKind::CombinedParams]) => model.load_pdiparams(one),
        _ if kinds.iter().all(|&k| k == pir::FileKind::PickleParams) => {
            let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
            model.load_state_dicts(&paths)
        }
        _ => {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "params: one .pdiparams file, or .pdparams/.pdopt pickles",
            ))
        }
    };
    bound.map_err(errors::model)
}

/// What [`load`] read: the model, the file of its program, and the
/// parameter file it looked for beside it and did not find while the
/// program declares persistable variables.
pub(crate) struct Loaded {
    pub model: pir::Model,
    pub file: PathBuf,
    pub missing_params: Option<PathBuf>,
    /// Whether every parameter of the program is one the load bound, in
    /// the parameter file's order: the keys of `Params` are then the
    /// parameter map's, known without walking the program again.
    pub bound_in_file_order: bool,
}

/// Reads a model.
///
/// `path` is a file — Paddle's `.json`, a legacy Paddle 2.x `.pdmodel`
/// (translated as Paddle 3.3.1's `translate_to_pir` does; `lenient` keeps
/// untranslatable ops as unregistered ops), or IR text (`.pir`, `.txt`, or
/// told by its content) — or a prefix naming `prefix.json` /
/// `prefix.pdmodel`. Files of Paddle 3.0–3.2 are upgraded as they are read.
/// A file of another kind (a parameter file) is a `pir.FileKindError`.
/// With `params=True` the parameter file beside it (`.pdiparams`, else
/// `.pdparams`) is memory-mapped (read whole when under 256 KiB) and bound
/// by name, checked against the
/// program's declarations (with `.pdparams`, the optimizer state of a
/// `.pdopt` beside it too); `params=False` reads the program alone; a path
/// (or a list of `.pdparams`/`.pdopt` paths) names the parameter files.
#[pyfunction]
#[pyo3(signature = (path, *, params=None, lenient=false), text_signature = "(path, *, params=True, lenient=False)")]
fn load(
    py: Python<'_>,
    path: PathBuf,
    params: Option<&Bound<'_, PyAny>>,
    lenient: bool,
) -> PyResult<PyModel> {
    errors::guard("loading a model", || {
        let source = match params {
            Some(p) => param_source(p)?,
            None => ParamSource::Beside,
        };
        // Reading runs without the GIL: other Python threads go on meanwhile.
        let loaded = py.detach(|| read_model(&path, source, lenient))?;
        let program = if loaded.bound_in_file_order {
            PyProgram::loaded(loaded.model)
        } else {
            PyProgram::of(loaded.model)
        };
        // A UTF-8 path (the usual case) becomes the string as it is.
        let path = loaded
            .file
            .into_os_string()
            .into_string()
            .unwrap_or_else(|path| Path::new(&path).display().to_string());
        Ok(PyModel::loaded(
            Py::new(py, program)?,
            path,
            loaded.missing_params,
        ))
    })
}

/// Reads the model of `path` (a file or a prefix, found as the `pir`
/// command finds it) and binds its parameters from `source`.
fn read_model(path: &Path, source: ParamSource, lenient: bool) -> PyResult<Loaded> {
    let options = pir::LoadOptions {
        legacy: pir_legacy::Options {
            lenient,
            ..Default::default()
        },
        ..Default::default()
    };
    let (prefix, file, loaded) = read_program_at(path, &options)?;
    let mut model = program::from_loaded(loaded).model;
    // A program read from a file has no parameter bound: each bound below
    // is one of its persistable variables, bound in the file's order.
    let unbound = model.program.parameters().next().is_none();
    let mut missing_params = None;
    match source {
        ParamSource::Skip => {}
        ParamSource::Files(files) => bind_files(&mut model, &files)?,
        ParamSource::Beside => {
            model.load_params_beside(&prefix).map_err(errors::model)?;
            if model.lacks_parameter_data() {
                let mut expected = prefix.into_os_string();
                expected.push(".pdiparams");
                missing_params = Some(PathBuf::from(expected));
            }
        }
    }
    Ok(Loaded {
        model,
        file,
        missing_params,
        bound_in_file_order: unbound,
    })
}

/// The prefix, the model file and the program of `path`, a file or a
/// prefix found as the `pir` command finds it ([`pir::model_paths`]).
fn read_program_at(
    path: &Path,
    options: &pir::LoadOptions,
) -> PyResult<(PathBuf, PathBuf, pir_serde::LoadedProgram)> {
    // A path named as a model file (the usual `model.json`) is read at
    // once: its opening tells whether it exists, without asking first.
    if pir::has_model_extension(path) {
        match pir::read_program(context().clone(), path, options) {
            Err(pir::Error::Io(e)) if e.source.kind() == std::io::ErrorKind::NotFound => {}
            read => {
                let loaded = read.map_err(errors::model)?;
                return Ok((path.with_extension(""), path.to_path_buf(), loaded));
            }
        }
    }
    let (prefix, mut file) = pir::model_paths(path);
    // A path that names an existing file is that file (not looked up again).
    if file != path && !file.exists() {
        // Neither the path nor a model file of the prefix exists: the
        // error names the path given.
        file = path.to_path_buf();
    }
    let loaded = pir::read_program(context().clone(), &file, options).map_err(errors::model)?;
    Ok((prefix, file, loaded))
}

/// A program from `text`: IR text (Paddle's print or the typed form) or
/// Paddle's JSON, told by the content. `strict` rejects ops without a
/// registration.
#[pyfunction]
#[pyo3(signature = (text, *, strict=false))]
fn parse(text: &str, strict: bool) -> PyResult<PyProgram> {
    errors::guard("parsing a program", || {
        let options = pir_serde::ReadOptions {
            strict,
            ..Default::default()
        };
        let loaded = pir_serde::read_any_slice(context().clone(), text.as_bytes(), &options)
            .map_err(|e| errors::read(None, e))?;
        Ok(program::from_loaded(loaded))
    })
}

/// Reads the model file `src` of any Paddle 3.x release (applying the
/// version patches, then the patch yaml files `patches`) and writes it to
/// `dst` as Paddle 3.3.1 writes it — JSON, or text for `.pir`/`.txt`.
/// `readable`/`trainable` default to the source's header. Returns the
/// source's PIR version.
#[pyfunction]
#[pyo3(
    signature = (src, dst, *, patches=None, overwrite=false, accept_develop_version=false, readable=None, trainable=None),
    text_signature = "(src, dst, *, patches=(), overwrite=False, accept_develop_version=False, readable=None, trainable=None)"
)]
fn upgrade(
    src: PathBuf,
    dst: PathBuf,
    patches: Option<Vec<PathBuf>>,
    overwrite: bool,
    accept_develop_version: bool,
    readable: Option<bool>,
    trainable: Option<bool>,
) -> PyResult<u64> {
    errors::guard("upgrading a model", || {
        let mut merged: Option<pir_serde::patch::PatchSet> = None;
        for file in patches.iter().flatten() {
            let text = std::fs::read_to_string(file).map_err(|e| {
                errors::raise::<errors::ReadError>(
                    format!("cannot read patch file {}: {e}", file.display()),
                    errors::Where::file(file),
                )
            })?;
            let set = pir_serde::patch::parse_patch_yaml(&file.display().to_string(), &text)
                .map_err(|e| errors::read(Some(file), pir_serde::ReadError::Patch(e)))?;
            merged.get_or_insert_with(Default::default).merge(set);
        }
        let options = pir::LoadOptions {
            read: pir_serde::ReadOptions {
                accept_develop_version,
                patches: merged.map(Arc::new),
                ..Default::default()
            },
            ..Default::default()
        };
        let loaded = pir::read_program(context().clone(), &src, &options).map_err(errors::model)?;
        let write = pir_serde::WriteOptions {
            trainable: trainable.unwrap_or(loaded.trainable),
            readable: readable.unwrap_or(loaded.readable),
            ..Default::default()
        };
        pir_serde::write_any_file(&loaded.program, &dst, &write, overwrite)
            .map_err(|e| errors::write(&dst, e))?;
        Ok(loaded.version)
    })
}

/// `(name, description)` of every registered pass.
#[pyfunction]
fn passes() -> Vec<(&'static str, &'static str)> {
    pir_pass::registry::PASSES
        .iter()
        .map(|p| (p.argument, p.description))
        .collect()
}

/// The definition of op `name` (inputs, attributes with kinds and defaults,
/// outputs, in-place and view pairs, traits), or `None` for an op without
/// one. Kinds are spelled as in `Op.definition`.
#[pyfunction]
fn op_definition<'py>(py: Python<'py>, name: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
    defs::op_definition(py, name)
}

/// The `pd_op` ops `pir.ops` builds: those with type inference and no
/// regions (an op with regions is typed from what they yield, so it is
/// built with `Block.create_op`). Not part of the API.
#[pyfunction]
fn _inferred_ops() -> Vec<&'static str> {
    let ctx = context();
    pir_dialects::op_def::OP_DEFS
        .iter()
        .filter(|d| {
            d.dialect == "pd_op"
                && d.num_regions == 0
                && inferer().has_inference(ctx.symbol(d.name.as_str()))
        })
        .map(|d| d.name.as_str())
        .collect()
}

/// Panics inside [`errors::guard`], the boundary of the calls that run the
/// library's readers, writers and passes: no input is known to make them
/// panic (their checks come first), so the tests call this to see that a
/// panic reaches Python as `pir.InternalError`, not as pyo3's
/// `PanicException` (a `BaseException`). Not part of the API.
#[pyfunction]
fn _check_panic_boundary() -> PyResult<()> {
    errors::guard("checking the panic boundary", || {
        std::panic::panic_any("a deliberate panic".to_owned())
    })
}

/// The native module.
#[pymodule]
fn _pir(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PIR_VERSION", pir_serde::PIR_VERSION)?;
    errors::register(m)?;
    m.add_class::<PyModel>()?;
    m.add_class::<PyProgram>()?;
    m.add_class::<ir::PyOp>()?;
    m.add_class::<ir::PyValue>()?;
    m.add_class::<ir::PyUse>()?;
    m.add_class::<ir::PyBlock>()?;
    m.add_class::<ir::PyRegion>()?;
    m.add_class::<ir::PyType>()?;
    m.add_class::<attrs::PyAttribute>()?;
    m.add_class::<params::PyParams>()?;
    m.add_class::<params::PyTensorBuffer>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(upgrade, m)?)?;
    m.add_function(wrap_pyfunction!(passes, m)?)?;
    m.add_function(wrap_pyfunction!(op_definition, m)?)?;
    m.add_function(wrap_pyfunction!(_check_panic_boundary, m)?)?;
    m.add_function(wrap_pyfunction!(_inferred_ops, m)?)?;
    m.add_function(wrap_pyfunction!(ir::tensor_type, m)?)?;
    m.add_function(wrap_pyfunction!(ir::vector_type, m)?)?;
    m.add_function(wrap_pyfunction!(params::load_state_dict, m)?)?;
    m.add_function(wrap_pyfunction!(params::save_state_dict, m)?)?;
    m.add_function(wrap_pyfunction!(params::load_params, m)?)?;
    m.add_function(wrap_pyfunction!(params::save_params, m)?)?;
    Ok(())
}
