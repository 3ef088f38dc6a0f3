//! Writing a model: its program (JSON, IR text, a legacy `.pdmodel`, or
//! an older release's JSON) and its parameters, put in place together; and
//! exporting it to ONNX.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::{with_extension, Error, Model};

/// How [`Model::export_onnx`] exports.
#[derive(Clone, Debug, Default)]
pub struct OnnxOptions {
    /// The ONNX options (opset, what may be trusted of declared shapes).
    pub export: pir_onnx::ExportOptions,
    /// Fixed dims for inputs, by name, followed through the program first.
    pub input_shapes: Vec<(String, Vec<i64>)>,
    /// Skip the preparing passes ([`pir_onnx::PREPARE_PIPELINE`]).
    pub no_opt: bool,
    /// Replace an existing file.
    pub overwrite: bool,
}

/// What [`Model::export_onnx`] took, phase by phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct OnnxTimings {
    /// Fixing input dims and the preparing passes.
    pub prepare: Duration,
    /// Building the ONNX model (its parameters still where they were
    /// loaded).
    pub export: Duration,
    /// Writing the file and, with external data, its side file (each
    /// synced, then both put in place).
    pub write: Duration,
}

impl Model {
    /// Writes `prefix.json` and `prefix.pdiparams` (when the program has
    /// parameters with data), as [`save_as`](Self::save_as) does; a prefix
    /// ending in `.pdmodel` writes that legacy file (and `.pdiparams`
    /// beside it).
    pub fn save(&self, prefix: impl AsRef<Path>, overwrite: bool) -> Result<(), Error> {
        self.save_version(prefix, overwrite, pir_serde::PIR_VERSION)
    }

    /// [`Model::save`] for PIR `version` (see [`Model::save_as_version`]).
    pub fn save_version(
        &self,
        prefix: impl AsRef<Path>,
        overwrite: bool,
        version: u64,
    ) -> Result<(), Error> {
        let prefix = prefix.as_ref();
        // `m.pdmodel` names the legacy file itself (`m.pdiparams` beside it).
        if pir_legacy::is_pdmodel_path(prefix) {
            return self.save_as_version(prefix, overwrite, version);
        }
        self.save_as_version(&with_extension(prefix, ".json"), overwrite, version)
    }

    /// Writes the program to `path` (JSON, or IR text for `.pir`/`.txt`, see
    /// [`pir_serde::is_text_path`], or Paddle 2.x's `ProgramDesc` for
    /// `.pdmodel`, see [`pir_legacy::write`]) and, when it has parameters with data, the
    /// persistable tensors it uses to `path` with the extension `.pdiparams`.
    ///
    /// Both files are written and synced under temporary names at once (on
    /// two threads: syncing is most of the time), then put in place together
    /// ([`pir_core::fs::commit_all`]): if either cannot be written or put in
    /// place, both destinations are left as they were.
    pub fn save_as(&self, path: &Path, overwrite: bool) -> Result<(), Error> {
        self.save_as_version(path, overwrite, pir_serde::PIR_VERSION)
    }

    /// [`Model::save_as`] for PIR `version`: below the current one the
    /// program is written as that Paddle release wrote it (see
    /// [`pir_serde::WriteOptions::version`]; what it cannot hold is an
    /// error, and nothing is written).
    pub fn save_as_version(&self, path: &Path, overwrite: bool, version: u64) -> Result<(), Error> {
        let params = self.persistable_tensors()?;
        let options = pir_serde::WriteOptions {
            trainable: self.trainable,
            readable: self.readable,
            version,
        };
        let write_error = |source| Error::Write {
            path: path.to_path_buf(),
            source,
        };
        let params_path = path.with_extension("pdiparams");
        let params_error = |source| Error::Params {
            path: params_path.clone(),
            source,
        };
        // A `.pdmodel` is Paddle 2.x's `ProgramDesc` (`pir_legacy::write`);
        // its bytes are made first, so a program with no legacy form
        // writes nothing.
        let legacy = if pir_legacy::is_pdmodel_path(path) {
            Some(
                pir_legacy::write::to_bytes(&self.program).map_err(|source| {
                    Error::LegacyWrite {
                        path: path.to_path_buf(),
                        source,
                    }
                })?,
            )
        } else {
            None
        };
        let prepare_program = || match &legacy {
            Some(bytes) => pir_core::fs::prepare_atomic(path, overwrite, |w| {
                std::io::Write::write_all(w, bytes)
            })
            .map_err(pir_serde::WriteError::from),
            None => pir_serde::prepare_any_file(&self.program, path, &options, overwrite),
        };
        if !params.is_empty() && params_path == path {
            return Err(write_error(pir_serde::WriteError::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the program would overwrite its own parameter file",
            ))));
        }
        if params.is_empty() {
            return prepare_program()
                .and_then(|p| Ok(p.commit()?))
                .map_err(write_error);
        }
        let (program, params) = std::thread::scope(|s| {
            // A parameter file that exists is prepared anyway: when it already
            // holds these bytes (`-o m.txt`, then `-o m.pir` of one model) it is
            // shared, not a conflict.
            let params =
                s.spawn(|| pir_params::combined::prepare_combined(&params_path, &params, true));
            let program = prepare_program();
            let params = params
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (program, params)
        });
        // Prepared files not committed are removed when dropped.
        let params = params.map_err(params_error)?;
        let program = program.map_err(write_error)?;
        let params_exist = std::fs::symlink_metadata(&params_path).is_ok();
        let mut files = vec![program];
        if !params_exist || !params.matches_destination() {
            if params_exist && !overwrite {
                return Err(params_error(pir_params::Error::from(
                    pir_core::fs::WriteError::Exists(params_path.clone()),
                )));
            }
            files.insert(0, params);
        }
        pir_core::fs::commit_all(files).map_err(|e| match &e {
            pir_core::fs::WriteError::Exists(p) | pir_core::fs::WriteError::Io { path: p, .. }
                if *p == params_path =>
            {
                params_error(pir_params::Error::from(e))
            }
            _ => write_error(pir_serde::WriteError::from(e)),
        })
    }

    /// Exports the model to ONNX at `path`: its inputs given the fixed dims
    /// asked for, prepared by the passes (unless `no_opt`; on this model,
    /// which they change), then written atomically. An op without an ONNX
    /// mapping is an error listing every such op, and nothing is written.
    pub fn export_onnx(
        &mut self,
        path: &Path,
        options: &OnnxOptions,
    ) -> Result<OnnxTimings, Error> {
        let onnx_error = |source| Error::Onnx {
            path: path.to_path_buf(),
            source,
        };
        let opset = options.export.opset;
        if !(pir_onnx::MIN_OPSET..=pir_onnx::MAX_OPSET).contains(&opset) {
            return Err(onnx_error(pir_onnx::ExportError::Opset(opset)));
        }
        if !options.overwrite && std::fs::symlink_metadata(path).is_ok() {
            return Err(onnx_error(pir_onnx::ExportError::from(
                pir_core::fs::WriteError::Exists(path.to_path_buf()),
            )));
        }
        let mut timings = OnnxTimings::default();
        let started = Instant::now();
        pir_onnx::prepare(&mut self.program, &options.input_shapes, !options.no_opt)
            .map_err(onnx_error)?;
        if !options.export.trust_shapes {
            pir_onnx::reinfer_types(&mut self.program);
        }
        timings.prepare = started.elapsed();
        let started = Instant::now();
        let model = pir_onnx::export_model(&self.program, &options.export).map_err(onnx_error)?;
        timings.export = started.elapsed();
        let started = Instant::now();
        pir_onnx::write_model(
            &model,
            path,
            options.overwrite,
            options.export.external_data,
        )
        .map_err(onnx_error)?;
        timings.write = started.elapsed();
        Ok(timings)
    }
}
