//! `pir`: PaddlePaddle's PIR in Rust — the calls users start with.
//!
//! A model is a program plus its parameters: [`Model::load`] reads
//! `prefix.json` (upgrading files of older Paddle releases) and the parameter
//! file beside it (`prefix.pdiparams`, or the pickle `prefix.pdparams`), and
//! binds each tensor to the program's parameter map by name, checking dtype
//! and shape against the program. [`Model::save`] writes both back
//! atomically, in Paddle's formats.
//!
//! ```no_run
//! let model = pir::Model::load("inference/model")?;
//! println!("{} ops, {} parameters", model.program.num_ops(), model.parameter_names().len());
//! model.save("out/model", false)?;
//! # Ok::<(), pir::Error>(())
//! ```
//!
//! [`Model::load`] takes the path with or without its extension
//! (`inference/model.json` or `inference/model`); [`read_program`] reads any
//! model file (JSON, IR text, Paddle 2.x `.pdmodel`) told by its content, and
//! [`FileKind`] says what a file is, so a file of the wrong kind gets an error
//! saying what it is.
//!
//! The layers are re-exported: [`core`] (the IR), [`dialects`] (Paddle's
//! dialects), [`serde`] (the JSON model format), [`params`] (parameter files),
//! [`pass`] (passes and pipelines), [`legacy`] (Paddle 2.x models),
//! [`kernel`] (the kernel dialect and Paddle's CPU lowering), [`shape`]
//! (symbolic shapes, as Paddle's shape dialect infers them):
//!
//! ```no_run
//! let mut model = pir::Model::load("inference/model.json")?;
//! let mut pm = pir::pass::PassManager::parse("canonicalize,cse,dce").unwrap();
//! pm.run(&mut model.program).unwrap();
//! model.save("out/model", false)?;
//! # Ok::<(), pir::Error>(())
//! ```
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use pir_core as core;
pub use pir_dialects as dialects;
pub use pir_infer as infer;
pub use pir_kernel as kernel;
pub use pir_legacy as legacy;
pub use pir_onnx as onnx;
pub use pir_params as params;
pub use pir_pass as pass;
pub use pir_serde as serde;
pub use pir_shape as shape;

pub mod kind;
mod save;

pub use kind::FileKind;
pub use save::{OnnxOptions, OnnxTimings};

/// `path: message`, unless the message already names the path (as I/O errors
/// of the readers and writers do): a path is said once.
pub fn with_path(path: &Path, message: &dyn std::fmt::Display) -> String {
    let message = message.to_string();
    let shown = path.display().to_string();
    if message.contains(&shown) {
        message
    } else {
        format!("{shown}: {message}")
    }
}

/// The destination an atomic writer refused to overwrite, when that is
/// what `e` is or wraps (the writers of programs and parameters wrap
/// [`pir_core::fs::WriteError`]): the command line and Python each say how
/// to allow it.
pub fn refused_overwrite<'e>(e: &'e (dyn std::error::Error + 'static)) -> Option<&'e Path> {
    let mut source = Some(e);
    while let Some(s) = source {
        let refused = s
            .downcast_ref::<pir_core::fs::WriteError>()
            .or(match s.downcast_ref::<pir_serde::WriteError>() {
                Some(pir_serde::WriteError::File(w)) => Some(w),
                _ => None,
            })
            .or(match s.downcast_ref::<pir_params::Error>() {
                Some(pir_params::Error::Write(w)) => Some(w),
                _ => None,
            });
        if let Some(pir_core::fs::WriteError::Exists(path)) = refused {
            return Some(path);
        }
        source = s.source();
    }
    None
}

use pir_core::builtin::StrAttr;
use pir_core::fs::ReadError;
use pir_core::{IrContext, Program, Type};
use pir_params::Tensor;

/// Errors of loading and saving models.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error(transparent)]
    Io(#[from] pir_core::fs::ReadError),
    /// The file is not of the kind wanted (a parameter file given as a
    /// model, or a file pir does not read).
    #[error("{}", wrong_kind(path, *found, wanted))]
    WrongKind {
        /// The file.
        path: PathBuf,
        /// What it is.
        found: FileKind,
        /// What was wanted ("a model").
        wanted: &'static str,
    },
    /// The program file could not be read.
    #[error("{}", with_path(path, source))]
    Program {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_serde::ReadError,
    },
    /// A legacy `.pdmodel` could not be read or translated.
    #[error("{}", with_path(path, source))]
    Legacy {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_legacy::LegacyError,
    },
    /// A parameter file could not be read or written.
    #[error("{}", with_path(path, source))]
    Params {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_params::Error,
    },
    /// A tensor does not fit the program's declaration of it.
    #[error("parameter `{name}`: {message}")]
    Mismatch {
        /// The parameter.
        name: String,
        /// What does not fit.
        message: String,
    },
    /// The program has no Paddle 2.x form (`.pdmodel` output).
    #[error("{}", with_path(path, source))]
    LegacyWrite {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_legacy::write::WriteError,
    },
    /// The model could not be exported to ONNX.
    #[error("{}", with_path(path, source))]
    Onnx {
        /// The ONNX file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_onnx::ExportError,
    },
    /// Writing the program failed.
    #[error("{}", with_path(path, source))]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_serde::WriteError,
    },
}

/// A program and its parameters.
#[derive(Debug)]
pub struct Model {
    /// The program; its parameter map holds the tensors.
    pub program: Program,
    /// Whether the program file was written `trainable`.
    pub trainable: bool,
    /// The PIR version the file was written with.
    pub version: u64,
    /// Whether the program file was in Paddle's indented form (kept on save).
    pub readable: bool,
}

fn wrong_kind(path: &Path, found: FileKind, wanted: &str) -> String {
    match found {
        FileKind::Unknown => format!(
            "{} is not {wanted}: pir reads Paddle JSON, IR text, .pdmodel, .pdiparams and .pdparams files",
            path.display()
        ),
        _ => format!("{} is {}, not {wanted}", path.display(), found.describe()),
    }
}

/// How to read a model file.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Options of the JSON and text readers.
    pub read: pir_serde::ReadOptions,
    /// Options of the legacy translation.
    pub legacy: pir_legacy::Options,
}

/// Extensions of model files, which [`Model::load`] strips to find the
/// parameter files beside them.
const MODEL_EXTENSIONS: [&str; 4] = ["json", "pdmodel", "pir", "txt"];

/// The prefix of a model path and its model file: `m.json` → (`m`,
/// `m.json`); `m` → (`m`, `m.json`), or `m.pdmodel` when only that exists;
/// any other existing file is the model file itself.
fn model_file(path: &Path) -> (PathBuf, PathBuf) {
    let has_model_ext = has_model_extension(path);
    // Any existing file that is not a folder: a regular file, or a pipe
    // such as `/dev/stdin` or a shell's `<(…)`.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_dir()) {
        let prefix = if has_model_ext {
            path.with_extension("")
        } else {
            path.to_path_buf()
        };
        return (prefix, path.to_path_buf());
    }
    let json = with_extension(path, ".json");
    let pdmodel = with_extension(path, ".pdmodel");
    if !json.exists() && pdmodel.exists() {
        return (path.to_path_buf(), pdmodel);
    }
    (path.to_path_buf(), json)
}

/// Whether `path` ends in the extension of a model file (`.json`,
/// `.pdmodel`, `.pir`, `.txt`), which [`model_paths`] strips from an
/// existing file to find the parameter files beside it.
pub fn has_model_extension(path: &Path) -> bool {
    pir_core::fs::extension(path).is_some_and(|e| MODEL_EXTENSIONS.contains(&e.as_str()))
}

/// Reads a program from a model file of any kind pir reads — Paddle's JSON,
/// IR text or a Paddle 2.x `.pdmodel` (translated) — told by its content. A
/// file of another kind is [`Error::WrongKind`].
pub fn read_program(
    ctx: Arc<IrContext>,
    path: &Path,
    options: &LoadOptions,
) -> Result<pir_serde::LoadedProgram, Error> {
    let io = ReadError::at(path);
    let mut file = std::fs::File::open(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    if !metadata.is_file() || metadata.len() == 0 {
        // A pipe or a device (`/dev/stdin`, a shell's `<(…)`) can be read
        // only once: its kind is told from the bytes read. So is a file
        // whose size says nothing (a kernel's file of size 0 has bytes).
        return read_program_from(ctx, path, file, options);
    }
    if metadata.len() < MAP_MIN_BYTES {
        // Read once, whole: the kind is told from the bytes in hand (a
        // small model costs more in system calls than in reading).
        let len = metadata.len();
        let mut bytes = Vec::with_capacity(len as usize);
        // Through `take` of the length the metadata gave: the standard
        // library then neither asks for the size and position again nor
        // reads once more to find the end, so a small model is one read. A
        // file that grew since is read as it was when its size was taken.
        std::io::Read::read_to_end(&mut std::io::Read::take(&mut file, len), &mut bytes)
            .map_err(io)?;
        let kind = FileKind::of_contents(&bytes, path);
        return read_program_bytes(ctx, path, kind, &bytes, options);
    }
    let kind = FileKind::of_file(path).map_err(io)?;
    if !kind.is_model() {
        return Err(Error::WrongKind {
            path: path.to_path_buf(),
            found: kind,
            wanted: "a model",
        });
    }
    if kind == FileKind::LegacyModel {
        // The legacy reader checks the size before reading.
        let program =
            pir_legacy::load_file(path, ctx, options.legacy).map_err(|source| Error::Legacy {
                path: path.to_path_buf(),
                source,
            })?;
        return Ok(pir_serde::LoadedProgram::translated(program));
    }
    if kind == FileKind::ModelJson {
        return read_mapped_json(ctx, path, options);
    }
    let bytes = std::fs::read(path).map_err(io)?;
    read_program_bytes(ctx, path, kind, &bytes, options)
}

/// The largest model read from a stream (a pipe, standard input), where
/// the bytes must be held in memory: as large as Paddle reads a `.pdmodel`.
pub const MAX_STREAM_BYTES: u64 = pir_legacy::MAX_FILE_BYTES;

/// Reads a model from a stream (standard input, a pipe) once: the kind is
/// told from its first bytes, so a stream of another kind stops there
/// (`/dev/zero` after 4 KiB), and a model is read whole up to
/// [`MAX_STREAM_BYTES`]. `name` names the stream in errors (`<stdin>`) and
/// its extension, if any, breaks ties as for a file.
pub fn read_program_from(
    ctx: Arc<IrContext>,
    name: &Path,
    reader: impl std::io::Read,
    options: &LoadOptions,
) -> Result<pir_serde::LoadedProgram, Error> {
    use std::io::Read as _;
    let io = ReadError::at(name);
    let mut reader = reader;
    let mut bytes = Vec::with_capacity(kind::HEAD);
    (&mut reader)
        .take(kind::HEAD as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let wrong_kind = |found| Error::WrongKind {
        path: name.to_path_buf(),
        found,
        wanted: "a model",
    };
    let head_kind = FileKind::of_named_bytes(&bytes, name);
    // A legacy model is told only once it is whole (its check decodes it).
    if !head_kind.is_model() && bytes.first() != Some(&0x0a) {
        return Err(wrong_kind(head_kind));
    }
    let rest = MAX_STREAM_BYTES - bytes.len() as u64;
    pir_core::fs::read_to_end_limited(&mut reader, rest, &mut bytes).map_err(io)?;
    let kind = FileKind::of_named_bytes(&bytes, name);
    if !kind.is_model() {
        return Err(wrong_kind(kind));
    }
    read_program_bytes(ctx, name, kind, &bytes, options)
}

/// JSON models of at least this many bytes are read from a memory map.
/// Below it a copy costs less than mapping and unmapping, and the reader
/// would not drop many pages (it says what it has gone past a few MiB at
/// a time).
const MAP_MIN_BYTES: u64 = 4 << 20;

/// Reads a JSON model from a memory map of the file, dropping the pages the
/// reader does not expect to read again soon from this process's memory
/// (they stay in the kernel's page cache, and are mapped again if read):
/// the whole once checked to be UTF-8 (from 32 MiB on), then what the
/// reader has gone past.
/// The file is never copied, and resident as a whole only while it is
/// checked, not while its program is built: a 276 MB model of 1M ops peaks
/// at the larger of the two, not at their sum.
fn read_mapped_json(
    ctx: Arc<IrContext>,
    path: &Path,
    options: &LoadOptions,
) -> Result<pir_serde::LoadedProgram, Error> {
    let map = pir_params::map_file(path).map_err(|source| match source {
        pir_params::Error::Io(e) => Error::Io(e),
        source => Error::Params {
            path: path.to_path_buf(),
            source,
        },
    })?;
    let release = |range| pir_params::release_pages(&map, range);
    pir_serde::read_slice_releasing(ctx, &map, &options.read, &release).map_err(|source| {
        Error::Program {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// [`read_program`] of a file's bytes already in memory, whose kind
/// ([`FileKind::of_file`]) is known; `path` names it in errors.
pub fn read_program_bytes(
    ctx: Arc<IrContext>,
    path: &Path,
    kind: FileKind,
    bytes: &[u8],
    options: &LoadOptions,
) -> Result<pir_serde::LoadedProgram, Error> {
    let program_err = |source| Error::Program {
        path: path.to_path_buf(),
        source,
    };
    match kind {
        FileKind::LegacyModel => {
            let program =
                pir_legacy::translate_bytes(bytes, ctx, options.legacy).map_err(|source| {
                    Error::Legacy {
                        path: path.to_path_buf(),
                        source,
                    }
                })?;
            Ok(pir_serde::LoadedProgram::translated(program))
        }
        FileKind::ModelText => {
            pir_serde::read_any_slice(ctx, bytes, &options.read).map_err(program_err)
        }
        FileKind::ModelJson => {
            pir_serde::read_slice(ctx, bytes, &options.read).map_err(program_err)
        }
        found => Err(Error::WrongKind {
            path: path.to_path_buf(),
            found,
            wanted: "a model",
        }),
    }
}

pub(crate) fn with_extension(prefix: &Path, ext: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
}

impl Model {
    /// Loads a model and, if present, the parameter file beside it
    /// (`prefix.pdiparams`, else `prefix.pdparams` with the optimizer state
    /// of `prefix.pdopt`). `path` is the model file (`model.json`,
    /// `model.pdmodel`, IR text) or its prefix (`model`: `model.json`, else
    /// the legacy `model.pdmodel`).
    pub fn load(path: impl AsRef<Path>) -> Result<Model, Error> {
        Self::load_with(
            pir_dialects::pd_op_context(),
            path.as_ref(),
            &Default::default(),
        )
    }

    /// [`Model::load`] with a given context and reader options.
    pub fn load_with(
        ctx: Arc<IrContext>,
        path: &Path,
        options: &pir_serde::ReadOptions,
    ) -> Result<Model, Error> {
        let options = LoadOptions {
            read: options.clone(),
            ..Default::default()
        };
        Self::open(ctx, path, &options)
    }

    /// [`Model::load`] with every option: the program is read by
    /// [`read_program`] (told by content), the parameters beside it bound
    /// and checked.
    pub fn open(ctx: Arc<IrContext>, path: &Path, options: &LoadOptions) -> Result<Model, Error> {
        let (prefix, file) = model_file(path);
        let loaded = read_program(ctx, &file, options)?;
        let mut model = Model::from_loaded(loaded);
        model.load_params_beside(&prefix)?;
        Ok(model)
    }

    /// A model read from a stream (standard input, a pipe) by
    /// [`read_program_from`], without parameters (a stream holds one file).
    pub fn read_from(
        ctx: Arc<IrContext>,
        name: &Path,
        reader: impl std::io::Read,
        options: &LoadOptions,
    ) -> Result<Model, Error> {
        Ok(Model::from_loaded(read_program_from(
            ctx, name, reader, options,
        )?))
    }

    /// Binds the parameter file of `prefix` when there is one:
    /// `prefix.pdiparams`, else `prefix.pdparams` (with the optimizer state
    /// of `prefix.pdopt`, as `paddle.static.save` writes them).
    pub fn load_params_beside(&mut self, prefix: &Path) -> Result<(), Error> {
        let combined = with_extension(prefix, ".pdiparams");
        // The usual case, a `.pdiparams` beside the model, is opened at once
        // rather than looked for first.
        match pir_params::open_file(&combined) {
            Err(pir_params::Error::Io(e)) if e.source.kind() == std::io::ErrorKind::NotFound => {}
            map => return self.bind_pdiparams(&combined, map),
        }
        let pickle = with_extension(prefix, ".pdparams");
        let optimizer = with_extension(prefix, ".pdopt");
        if pickle.exists() && optimizer.exists() {
            self.load_state_dicts(&[&pickle, &optimizer])
        } else if pickle.exists() {
            self.load_pdparams(&pickle)
        } else {
            Ok(())
        }
    }

    /// Loads a Paddle 2.x `pdmodel` file, translated as Paddle 3.3.1 does,
    /// and the `.pdiparams` beside it when there is one.
    pub fn load_legacy(
        ctx: Arc<IrContext>,
        pdmodel: &Path,
        options: pir_legacy::Options,
    ) -> Result<Model, Error> {
        let options = LoadOptions {
            legacy: options,
            ..Default::default()
        };
        Self::open(ctx, pdmodel, &options)
    }

    fn from_loaded(loaded: pir_serde::LoadedProgram) -> Model {
        Model {
            program: loaded.program,
            trainable: loaded.trainable,
            version: loaded.version,
            readable: loaded.readable,
        }
    }

    /// Names of the persistable variables whose values a parameter file holds:
    /// every `builtin.parameter` not marked non-persistable and every
    /// persistable `pd_op.data`, sorted as Python sorts strings (the order of a
    /// `.pdiparams` file).
    pub fn parameter_names(&self) -> Vec<String> {
        persistable_vars(&self.program)
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    /// Whether the program declares persistable variables and none of them
    /// has data: it was read without its parameter file (none was beside
    /// it). Passes that read parameters as constants would see nothing, and
    /// saving would write the program without the tensors it needs.
    pub fn lacks_parameter_data(&self) -> bool {
        self.program.parameters().next().is_none() && !persistable_vars(&self.program).is_empty()
    }

    /// The tensor bound to parameter `name`.
    pub fn tensor(&self, name: &str) -> Option<&Tensor> {
        pir_params::bound::tensor(&self.program, name)
    }

    /// Reads a combined `.pdiparams` file and binds its tensors, which view
    /// the file's bytes ([`pir_params::open_file`]: a small file read whole,
    /// a larger one memory-mapped).
    pub fn load_pdiparams(&mut self, path: &Path) -> Result<(), Error> {
        self.bind_pdiparams(path, pir_params::open_file(path))
    }

    /// Binds the tensors of `map`, the bytes of the `.pdiparams` file `path`.
    fn bind_pdiparams(
        &mut self,
        path: &Path,
        map: pir_params::Result<Arc<pir_params::FileBytes>>,
    ) -> Result<(), Error> {
        // The names borrow from the context (a handle of its own), not from
        // the program the tensors are bound to.
        let ctx = self.program.ctx_arc().clone();
        let vars = persistable_vars_in(&self.program, &ctx);
        let names: Vec<&str> = vars.iter().map(|&(n, _)| n).collect();
        let params_err = |source| Error::Params {
            path: path.to_path_buf(),
            source,
        };
        let map = map.map_err(params_err)?;
        let tensors =
            pir_params::combined::read_combined_tensors_mapped(&map, &names).map_err(params_err)?;
        self.bind(vars, tensors, path)
    }

    /// Reads a `.pdparams` pickle and binds its tensors (bfloat16 parameters,
    /// stored as uint16 arrays, take their dtype from the program).
    pub fn load_pdparams(&mut self, path: &Path) -> Result<(), Error> {
        self.load_state_dicts(&[path])
    }

    /// Reads several `.pdparams`/`.pdopt` pickles (e.g. what
    /// `paddle.static.save` writes: parameters in one, optimizer state in the
    /// other) and binds each persistable variable from the first that holds it.
    pub fn load_state_dicts(&mut self, paths: &[&Path]) -> Result<(), Error> {
        let mut states = Vec::with_capacity(paths.len());
        for &path in paths {
            let params_err = |source| Error::Params {
                path: path.to_path_buf(),
                source,
            };
            let map = pir_params::open_file(path).map_err(params_err)?;
            let state = pir_params::pickle::load_state_dict_mapped(&map).map_err(params_err)?;
            states.push((path, state));
        }
        let Some(&(first, _)) = states.first() else {
            return Ok(());
        };
        let params_err = |source| Error::Params {
            path: first.to_path_buf(),
            source,
        };
        let ctx = self.program.ctx_arc().clone();
        let vars = persistable_vars_in(&self.program, &ctx);
        let mut tensors = Vec::with_capacity(vars.len());
        for &(name, ty) in &vars {
            let found = states.iter().find_map(|(_, s)| s.get(name));
            let tensor = found.cloned().ok_or_else(|| Error::Mismatch {
                name: name.to_owned(),
                message: format!(
                    "not found in {}",
                    paths
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            })?;
            let declared = pir_params::bound::declared_in(&ctx, ty).map(|(d, _)| d);
            let tensor = pir_params::convert::as_declared(tensor, declared).map_err(params_err)?;
            tensors.push(tensor);
        }
        self.bind(vars, tensors, first)
    }

    /// Binds `tensors[i]` to `vars[i]` after checking it against the type
    /// the program declares; `path` names the file in errors.
    fn bind(
        &mut self,
        vars: Vec<(&str, Type)>,
        tensors: Vec<Tensor>,
        path: &Path,
    ) -> Result<(), Error> {
        for ((name, ty), tensor) in vars.into_iter().zip(tensors) {
            let ctx = self.program.ctx();
            if let Some((dtype, dims)) = pir_params::bound::declared_in(ctx, ty) {
                let shape_fits = dims.len() == tensor.dims().len()
                    && dims
                        .iter()
                        .zip(tensor.dims())
                        .all(|(&d, &t)| d < 0 || d == t);
                if dtype != tensor.dtype() || !shape_fits {
                    return Err(Error::Mismatch {
                        name: name.to_owned(),
                        message: format!(
                            "the program declares {} {:?}, {} holds {} {:?}",
                            dtype.paddle_name(),
                            dims,
                            path.display(),
                            tensor.dtype().paddle_name(),
                            tensor.dims()
                        ),
                    });
                }
            }
            pir_params::bound::bind_typed(&mut self.program, name, ty, tensor);
        }
        Ok(())
    }

    /// The tensors of [`Model::parameter_names`], in that (the `.pdiparams`)
    /// order: empty when no parameter has data (a program read without its
    /// parameter file), an error naming the first parameter without data when
    /// only some have it (e.g. one a pass added).
    pub fn persistable_tensors(&self) -> Result<Vec<(String, Tensor)>, Error> {
        if self.program.parameters().next().is_none() {
            // No parameter is bound, so none has data.
            return Ok(Vec::new());
        }
        let names = self.parameter_names();
        let mut params = Vec::with_capacity(names.len());
        let mut missing = None;
        for name in names {
            match self.tensor(&name) {
                Some(t) => params.push((name, t.clone())),
                None => {
                    missing.get_or_insert(name);
                }
            }
        }
        match missing {
            Some(name) if !params.is_empty() => Err(Error::Mismatch {
                name,
                message: "has no data to save".into(),
            }),
            Some(_) => Ok(Vec::new()),
            None => Ok(params),
        }
    }
}

/// The persistable variables of a program with their types, sorted as Python
/// sorts their names — the variables a `.pdiparams` file holds, in its order.
pub fn persistable_vars(program: &Program) -> Vec<(String, Type)> {
    persistable_vars_in(program, program.ctx())
        .into_iter()
        .map(|(name, ty)| (name.to_owned(), ty))
        .collect()
}

/// [`persistable_vars`] with the names borrowed from `ctx`, the program's
/// context (a handle the caller holds, so the program can change while the
/// names are in use).
fn persistable_vars_in<'c>(program: &Program, ctx: &'c IrContext) -> Vec<(&'c str, Type)> {
    // Names compared as symbols, found once per walk rather than per op
    // (a name no symbol has is on no op).
    let parameter = ctx.lookup_symbol("builtin.parameter");
    let data = ctx.lookup_symbol("pd_op.data");
    let persistable = ctx.lookup_symbol("persistable");
    let parameter_name = ctx.lookup_symbol("parameter_name");
    let data_name = ctx.lookup_symbol("name");
    let mark = |op| {
        let attr = ctx.dict_get(program.attrs(op), persistable?)?;
        pir_core::builtin::first_bool(ctx, attr)
    };
    let mut vars: Vec<(&str, Type)> = Vec::new();
    let top = program.top_block();
    for op in program.block_ops(top) {
        let op_name = program.op_name(op);
        // Parameters unless marked non-persistable (as `is_saved` says);
        // data inputs only when marked persistable.
        let name_attr = if Some(op_name) == parameter && pir_params::bound::saved_by_mark(mark(op))
        {
            parameter_name
        } else if Some(op_name) == data && mark(op) == Some(true) {
            data_name
        } else {
            continue;
        };
        let Some(name) = name_attr
            .and_then(|sym| ctx.dict_get(program.attrs(op), sym))
            .and_then(|a| ctx.attr_as::<StrAttr>(a))
        else {
            continue;
        };
        if program.num_results(op) == 1 {
            vars.push((&name.0, program.value_type(program.result(op, 0))));
        }
    }
    sorted_unique(vars)
}

/// `vars` sorted as Python sorts their names, each name once: of the ops
/// sharing a name the first in the block stays first (the sort is stable)
/// and is the one kept.
fn sorted_unique(mut vars: Vec<(&str, Type)>) -> Vec<(&str, Type)> {
    pir_params::combined::sort_params(&mut vars);
    vars.dedup_by(|later, kept| later.0 == kept.0);
    vars
}

pub use pir_params::bound::declared;

/// The prefix of a model path and its model file, as [`Model::load`] finds
/// them: `m.json` → (`m`, `m.json`); `m` → (`m`, `m.json`), or `m.pdmodel`
/// when only that exists; any other existing file is the model file itself.
/// The parameter files of the model are beside the prefix
/// (`m.pdiparams`).
pub fn model_paths(path: &Path) -> (PathBuf, PathBuf) {
    model_file(path)
}

/// The kind of the file at `path` when `accept` takes it, else
/// [`Error::WrongKind`] saying the file is not `wanted` ("a parameter
/// file"): a reader of one kind of file checks its input with this, so a
/// file of another kind gets an error saying what it is rather than the
/// reader's complaint about its bytes.
pub fn check_kind(
    path: &Path,
    wanted: &'static str,
    accept: fn(FileKind) -> bool,
) -> Result<FileKind, Error> {
    let found = FileKind::of_file(path).map_err(ReadError::at(path))?;
    if accept(found) {
        Ok(found)
    } else {
        Err(Error::WrongKind {
            path: path.to_path_buf(),
            found,
            wanted,
        })
    }
}
