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
//! The layers are re-exported: [`core`] (the IR), [`dialects`] (Paddle's
//! dialects), [`serde`] (the JSON model format), [`params`] (parameter files).
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use pir_core as core;
pub use pir_dialects as dialects;
pub use pir_params as params;
pub use pir_serde as serde;

use pir_core::builtin::{ArrayAttr, BoolAttr, StrAttr};
use pir_core::{IrContext, Program, Type};
use pir_params::{DType, Tensor};

/// Errors of loading and saving models.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The program file could not be read.
    #[error("{}: {source}", path.display())]
    Program {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_serde::ReadError,
    },
    /// A legacy `.pdmodel` could not be read or translated.
    #[error("{}: {source}", path.display())]
    Legacy {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: pir_legacy::LegacyError,
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
    /// A tensor does not fit the program's declaration of it.
    #[error("parameter `{name}`: {message}")]
    Mismatch {
        /// The parameter.
        name: String,
        /// What does not fit.
        message: String,
    },
    /// Writing the program failed.
    #[error("{}: {source}", path.display())]
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

fn with_extension(prefix: &Path, ext: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
}

impl Model {
    /// Loads `prefix.json` (or, when there is none, the legacy
    /// `prefix.pdmodel`) and, if present, `prefix.pdiparams` or `prefix.pdparams`.
    pub fn load(prefix: impl AsRef<Path>) -> Result<Model, Error> {
        Self::load_with(
            pir_dialects::pd_op_context(),
            prefix.as_ref(),
            &Default::default(),
        )
    }

    /// [`Model::load`] with a given context and reader options.
    pub fn load_with(
        ctx: Arc<IrContext>,
        prefix: &Path,
        options: &pir_serde::ReadOptions,
    ) -> Result<Model, Error> {
        let json = with_extension(prefix, ".json");
        let pdmodel = with_extension(prefix, ".pdmodel");
        if !json.exists() && pdmodel.exists() {
            return Self::load_legacy(ctx, &pdmodel, Default::default());
        }
        let loaded = pir_serde::read_file(ctx, &json, options)
            .map_err(|source| Error::Program { path: json, source })?;
        let mut model = Model::from_loaded(loaded);
        let combined = with_extension(prefix, ".pdiparams");
        let pickle = with_extension(prefix, ".pdparams");
        if combined.exists() {
            model.load_pdiparams(&combined)?;
        } else if pickle.exists() {
            model.load_pdparams(&pickle)?;
        }
        Ok(model)
    }

    /// Loads a Paddle 2.x `pdmodel` file, translated as Paddle 3.3.1 does,
    /// and the `.pdiparams` beside it when there is one.
    pub fn load_legacy(
        ctx: Arc<IrContext>,
        pdmodel: &Path,
        options: pir_legacy::Options,
    ) -> Result<Model, Error> {
        let program =
            pir_legacy::load_file(pdmodel, ctx, options).map_err(|source| Error::Legacy {
                path: pdmodel.to_path_buf(),
                source,
            })?;
        let mut model = Model::from_loaded(pir_serde::LoadedProgram::translated(program));
        let combined = pdmodel.with_extension("pdiparams");
        if combined.exists() {
            model.load_pdiparams(&combined)?;
        }
        Ok(model)
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

    /// The tensor bound to parameter `name`.
    pub fn tensor(&self, name: &str) -> Option<&Tensor> {
        pir_params::bound::tensor(&self.program, name)
    }

    /// Reads a combined `.pdiparams` file (memory-mapped) and binds its tensors.
    pub fn load_pdiparams(&mut self, path: &Path) -> Result<(), Error> {
        let vars = persistable_vars(&self.program);
        let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
        let params_err = |source| Error::Params {
            path: path.to_path_buf(),
            source,
        };
        let map = pir_params::map_file(path).map_err(params_err)?;
        let tensors =
            pir_params::combined::read_combined_mapped(&map, &names).map_err(params_err)?;
        self.bind(vars, tensors, path)
    }

    /// Reads a `.pdparams` pickle and binds its tensors (bfloat16 parameters,
    /// stored as uint16 arrays, take their dtype from the program).
    pub fn load_pdparams(&mut self, path: &Path) -> Result<(), Error> {
        let params_err = |source| Error::Params {
            path: path.to_path_buf(),
            source,
        };
        let map = pir_params::map_file(path).map_err(params_err)?;
        let state = pir_params::pickle::load_state_dict_mapped(&map).map_err(params_err)?;
        let vars = persistable_vars(&self.program);
        let mut tensors = Vec::with_capacity(vars.len());
        for (name, ty) in &vars {
            let tensor = state.get(name).cloned().ok_or_else(|| Error::Mismatch {
                name: name.clone(),
                message: format!("not found in {}", path.display()),
            })?;
            let tensor = match (declared(&self.program, *ty), tensor.dtype()) {
                (Some((DType::BFloat16, _)), DType::UInt16) => {
                    tensor.reinterpret(DType::BFloat16).map_err(params_err)?
                }
                _ => tensor,
            };
            tensors.push((name.clone(), tensor));
        }
        self.bind(vars, tensors, path)
    }

    fn bind(
        &mut self,
        vars: Vec<(String, Type)>,
        tensors: Vec<(String, Tensor)>,
        path: &Path,
    ) -> Result<(), Error> {
        for ((name, ty), (_, tensor)) in vars.into_iter().zip(tensors) {
            if let Some((dtype, dims)) = declared(&self.program, ty) {
                let shape_fits = dims.len() == tensor.dims().len()
                    && dims
                        .iter()
                        .zip(tensor.dims())
                        .all(|(&d, &t)| d < 0 || d == t);
                if dtype != tensor.dtype() || !shape_fits {
                    return Err(Error::Mismatch {
                        name,
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
            pir_params::bound::bind_typed(&mut self.program, &name, ty, tensor);
        }
        Ok(())
    }

    /// The tensors of [`Model::parameter_names`], in that (the `.pdiparams`)
    /// order: empty when no parameter has data (a program read without its
    /// parameter file), an error naming the first parameter without data when
    /// only some have it (e.g. one a pass added).
    pub fn persistable_tensors(&self) -> Result<Vec<(String, Tensor)>, Error> {
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

    /// Writes `prefix.json` and `prefix.pdiparams` (when the program has
    /// parameters with data), each atomically.
    pub fn save(&self, prefix: impl AsRef<Path>, overwrite: bool) -> Result<(), Error> {
        let prefix = prefix.as_ref();
        let json = with_extension(prefix, ".json");
        let params = self.persistable_tensors()?;
        let options = pir_serde::WriteOptions {
            trainable: self.trainable,
            readable: self.readable,
            ..Default::default()
        };
        pir_serde::write_file(&self.program, &json, &options, overwrite).map_err(|source| {
            Error::Write {
                path: json.clone(),
                source,
            }
        })?;
        if !params.is_empty() {
            let path = with_extension(prefix, ".pdiparams");
            pir_params::combined::save_combined(&path, &params, overwrite)
                .map_err(|source| Error::Params { path, source })?;
        }
        Ok(())
    }
}

/// The persistable variables of a program with their types, sorted as Python
/// sorts their names — the variables a `.pdiparams` file holds, in its order.
pub fn persistable_vars(program: &Program) -> Vec<(String, Type)> {
    let ctx = program.ctx();
    let mut vars: Vec<(String, Type)> = Vec::new();
    let top = program.top_block();
    for op in program.block_ops(top) {
        // A parameter marked non-persistable (e.g. an RNN's dropout state) is not
        // saved; one without the mark (an inference file has none) is.
        let name_attr = match program.op_name_str(op) {
            "builtin.parameter" if persistable(program, op) != Some(false) => "parameter_name",
            "pd_op.data" if persistable(program, op) == Some(true) => "name",
            _ => continue,
        };
        let Some(name) = program
            .attr(op, name_attr)
            .and_then(|a| ctx.attr_as::<StrAttr>(a))
        else {
            continue;
        };
        if program.num_results(op) == 1 && !vars.iter().any(|(n, _)| **n == *name.0) {
            vars.push((
                name.0.to_string(),
                program.value_type(program.result(op, 0)),
            ));
        }
    }
    let order = pir_params::combined::paddle_sorted(vars.iter().map(|(n, _)| n.as_str()));
    order
        .into_iter()
        .filter_map(|n| vars.iter().find(|(m, _)| *m == n).cloned())
        .collect()
}

/// The op's `persistable` mark (the first element of its `[bool]` array), if it has one.
fn persistable(program: &Program, op: pir_core::OpId) -> Option<bool> {
    let ctx = program.ctx();
    let attr = program.attr(op, "persistable")?;
    let first = ctx
        .attr_as::<ArrayAttr>(attr)
        .and_then(|a| a.0.first().copied());
    first.and_then(|a| ctx.attr_as::<BoolAttr>(a)).map(|b| b.0)
}

pub use pir_params::bound::declared;
