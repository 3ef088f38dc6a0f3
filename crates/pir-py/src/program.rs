//! `Program` (the IR with its file header) and `Model` (a program with its
//! parameters, loaded from and saved to files).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use pir_core::printer::PrintOptions;
use pir_core::walk::Order;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};

use crate::errors;
use crate::ir::{self, PyBlock, PyOp};
use crate::params::PyParams;

/// A program: Paddle's `pir::Program` — a `builtin.module` op whose block
/// holds the ops — with the header of the file it came from (`version`,
/// `trainable`, `readable`) and its parameter map.
#[pyclass(name = "Program", module = "pir")]
pub struct PyProgram {
    pub(crate) model: pir::Model,
    /// The names `Params` maps, found once per state of the program (a
    /// sorted walk of its ops): every edit goes through
    /// [`p_mut`](Self::p_mut), which forgets them.
    param_names: OnceLock<Arc<[String]>>,
    /// Whether the names `Params` maps are the program's parameters in
    /// the order they were bound, each with data: true from a load (which
    /// binds the parameter file's tensors in its order) until the first
    /// edit. The names are then read from the parameter map as they are
    /// asked for, not listed by the load.
    bound_in_file_order: bool,
}

impl PyProgram {
    /// A program object of `model`.
    pub(crate) fn of(model: pir::Model) -> PyProgram {
        PyProgram {
            model,
            param_names: OnceLock::new(),
            bound_in_file_order: false,
        }
    }

    /// [`PyProgram::of`] a model a load has just bound: every parameter
    /// has data and was bound in the parameter file's order.
    pub(crate) fn loaded(model: pir::Model) -> PyProgram {
        PyProgram {
            model,
            param_names: OnceLock::new(),
            bound_in_file_order: true,
        }
    }

    /// The IR.
    pub(crate) fn p(&self) -> &pir_core::Program {
        &self.model.program
    }

    /// The IR, to edit.
    pub(crate) fn p_mut(&mut self) -> &mut pir_core::Program {
        self.param_names = OnceLock::new();
        self.bound_in_file_order = false;
        &mut self.model.program
    }

    /// The names of the persistable variables that have data, in the
    /// parameter file's order: the keys of `Params`.
    pub(crate) fn param_names(&self) -> Arc<[String]> {
        self.param_names
            .get_or_init(|| {
                if self.bound_in_file_order {
                    return self.p().parameters().map(|(n, _)| n.to_owned()).collect();
                }
                self.model
                    .parameter_names()
                    .into_iter()
                    .filter(|n| self.model.tensor(n).is_some())
                    .collect()
            })
            .clone()
    }

    /// How many names [`param_names`](Self::param_names) gives.
    pub(crate) fn param_count(&self) -> usize {
        match self.param_names.get() {
            Some(names) => names.len(),
            None if self.bound_in_file_order => self.p().parameters().count(),
            None => self.param_names().len(),
        }
    }

    /// [`param_names`](Self::param_names) as a Python list (made from the
    /// parameter map without a list of Rust strings when it is in order).
    pub(crate) fn param_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.bound_in_file_order && self.param_names.get().is_none() {
            return PyList::new(py, self.p().parameters().map(|(n, _)| n));
        }
        PyList::new(py, self.param_names().iter())
    }

    /// The JSON writer's options for this program's header.
    pub(crate) fn write_options(&self) -> pir_serde::WriteOptions {
        pir_serde::WriteOptions {
            trainable: self.model.trainable,
            readable: self.model.readable,
            version: self.model.version.max(pir_serde::PIR_VERSION),
        }
    }
}

/// Wraps a loaded program.
pub(crate) fn from_loaded(loaded: pir_serde::LoadedProgram) -> PyProgram {
    PyProgram::of(pir::Model {
        program: loaded.program,
        trainable: loaded.trainable,
        version: loaded.version,
        readable: loaded.readable,
    })
}

#[pymethods]
impl PyProgram {
    /// An empty program (a module with an empty block) to build with
    /// `Block.create_op` or `pir.ops`; saved as `paddle.jit.save` saves
    /// (the newest PIR version, `trainable`).
    #[new]
    fn new() -> PyProgram {
        PyProgram::of(pir::Model {
            program: pir_core::Program::new(crate::context().clone()),
            trainable: true,
            version: pir_serde::PIR_VERSION,
            readable: false,
        })
    }

    /// Paddle's print of the program (`print(program)` in Paddle 3.3),
    /// byte for byte.
    fn __str__(&self) -> PyResult<String> {
        errors::guard("printing a program", || {
            Ok(String::from_utf8_lossy(&self.p().print_to_vec()).into_owned())
        })
    }

    fn __repr__(&self) -> String {
        format!("<pir.Program with {} ops>", self.p().num_ops())
    }

    /// The program as text: Paddle's print, or with `typed=True` the lossless
    /// typed form (with its `#pir-typed` header), which `pir.parse` reads back
    /// to the same program. `json_ids` names values by their JSON ids.
    #[pyo3(signature = (typed=false, json_ids=false))]
    fn to_text(&self, typed: bool, json_ids: bool) -> PyResult<String> {
        errors::guard("printing a program", || {
            let bytes = if typed {
                pir_serde::typed_bytes(self.p(), &self.write_options(), json_ids)
            } else {
                self.p().print_with(
                    PrintOptions {
                        typed: false,
                        json_ids,
                    },
                    &[],
                )
            };
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        })
    }

    /// The program Paddle's executor runs: lowered to the kernel dialect for
    /// the CPU (each op the phi kernel and key Paddle chooses, values
    /// placed), printed as Paddle's `FLAGS_print_ir=1` prints it after
    /// lowering, or with `typed=True` in the typed form. A view: Paddle
    /// saves no lowered program. Raises `pir.PassError` for a program that
    /// cannot be lowered.
    #[pyo3(signature = (typed=false))]
    fn lower(&self, typed: bool) -> PyResult<String> {
        errors::guard("lowering a program", || {
            let lowered = pir::kernel::lower(self.p()).map_err(|e| errors::pass(e.to_string()))?;
            Ok(if typed {
                lowered.to_typed_string()
            } else {
                lowered.to_paddle_string()
            })
        })
    }

    /// The program annotated with its symbolic shapes, as Paddle's
    /// `infer_symbolic_shape_pass` prints them: each op's results get
    /// `(shape[S0, 8], data[NULL])`, symbols for unknown dims and the data
    /// of small integer tensors. Ops without a rule get fresh symbols.
    fn shapes(&self) -> PyResult<String> {
        errors::guard("inferring symbolic shapes", || {
            let analysis = pir::shape::ShapeAnalysis::run(self.p());
            Ok(pir::shape::annotated_text(self.p(), &analysis))
        })
    }

    /// The program as Paddle's JSON (what `paddle.jit.save` writes).
    /// `readable`/`trainable` default to the header's.
    #[pyo3(signature = (readable=None, trainable=None))]
    fn to_json(&self, readable: Option<bool>, trainable: Option<bool>) -> PyResult<String> {
        errors::guard("writing a program as JSON", || {
            let mut options = self.write_options();
            options.readable = readable.unwrap_or(options.readable);
            options.trainable = trainable.unwrap_or(options.trainable);
            let bytes = pir_serde::write_to_vec(self.p(), &options).map_err(|e| {
                errors::raise::<errors::WriteError>(e.to_string(), errors::Where::default())
            })?;
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        })
    }

    /// Writes the program (no parameters) atomically: Paddle's JSON, or text
    /// for a `.pir` (typed) or `.txt` (Paddle's print) path. An existing
    /// file is replaced only with `overwrite=True` (else `pir.WriteError`).
    #[pyo3(signature = (path, overwrite=false))]
    fn save(&self, path: PathBuf, overwrite: bool) -> PyResult<()> {
        errors::guard("saving a program", || {
            pir_serde::write_any_file(self.p(), &path, &self.write_options(), overwrite)
                .map_err(|e| errors::write(&path, e))
        })
    }

    /// Checks structure, SSA dominance and every op against its definition;
    /// raises `pir.VerifyError` listing the failures.
    fn verify(&self) -> PyResult<()> {
        errors::guard("verifying a program", || {
            self.p().verify().map_err(errors::verify)
        })
    }

    /// The program's inputs: the value of each top-level `pd_op.data` and
    /// `pd_op.feed` op, by its `name`, in program order.
    #[getter]
    fn inputs<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let me = slf.clone().unbind();
        let prog = slf.borrow();
        let p = prog.p();
        let out = PyDict::new(slf.py());
        for input in pir::infer::inputs(p) {
            out.set_item(input.name, ir::value(&me, slf.py(), p.result(input.op, 0)))?;
        }
        Ok(out)
    }

    /// Gives inputs fixed dims (`{"image": [1, 3, 224, 224]}`, `-1` keeps a
    /// dim dynamic) and re-infers every op they reach, control flow
    /// included (the `set_input_shapes` pass). A shape the program
    /// contradicts raises `pir.InferError` naming the op, and leaves the
    /// program as it was. Returns counts: `inputs`, `reinferred` ops,
    /// `retyped` values.
    fn set_input_shapes<'py>(
        &mut self,
        py: Python<'py>,
        shapes: &Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut wanted = Vec::with_capacity(shapes.len());
        for (name, dims) in shapes.iter() {
            let name: String = name
                .extract()
                .map_err(|_| pyo3::exceptions::PyTypeError::new_err("input names are str"))?;
            let dims: Vec<i64> = dims.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "the dims of `{name}` are a sequence of int"
                ))
            })?;
            wanted.push((name, dims));
        }
        let before = self.p().clone();
        let done = errors::guard("setting input shapes", || {
            crate::inferer()
                .set_input_shapes(self.p_mut(), &wanted)
                .map_err(|e| errors::infer(e.to_string()))
        });
        let done = match done {
            Ok(done) => done,
            Err(e) => {
                self.model.program = before;
                return Err(e);
            }
        };
        let out = PyDict::new(py);
        out.set_item("inputs", done.inputs)?;
        out.set_item("reinferred", done.reinferred)?;
        out.set_item("retyped", done.retyped)?;
        Ok(out)
    }

    /// The `builtin.module` op.
    #[getter]
    fn module(slf: &Bound<'_, Self>) -> PyOp {
        let id = slf.borrow().p().module_op();
        ir::op(&slf.clone().unbind(), slf.py(), id)
    }

    /// The top-level block.
    #[getter]
    fn block(slf: &Bound<'_, Self>) -> PyBlock {
        let id = slf.borrow().p().top_block();
        ir::block(&slf.clone().unbind(), slf.py(), id)
    }

    /// The ops of the top-level block.
    #[getter]
    fn ops(slf: &Bound<'_, Self>) -> Vec<PyOp> {
        let me = slf.clone().unbind();
        let prog = slf.borrow();
        let p = prog.p();
        p.block_ops(p.top_block())
            .map(|o| ir::op(&me, slf.py(), o))
            .collect()
    }

    /// Every op, nested ones included, in pre-order; only those named
    /// `name` when given.
    #[pyo3(signature = (name=None))]
    fn walk(slf: &Bound<'_, Self>, name: Option<&str>) -> Vec<PyOp> {
        let me = slf.clone().unbind();
        let prog = slf.borrow();
        let p = prog.p();
        let module = p.module_op();
        let mut out = Vec::new();
        p.walk(module, Order::Pre, &mut |o| {
            if o != module && name.is_none_or(|n| p.op_name_str(o) == n) {
                out.push(o);
            }
        });
        out.into_iter().map(|o| ir::op(&me, slf.py(), o)).collect()
    }

    /// Number of ops, nested ones included (the module op excluded).
    #[getter]
    fn num_ops(&self) -> usize {
        self.p().num_ops()
    }

    /// Whether the program is saved as trainable (`base_code.trainable`).
    #[getter]
    fn trainable(&self) -> bool {
        self.model.trainable
    }

    #[setter]
    fn set_trainable(&mut self, value: bool) {
        self.model.trainable = value;
    }

    /// The PIR version of the file the program was read from (files of
    /// older releases are upgraded when read).
    #[getter]
    fn version(&self) -> u64 {
        self.model.version
    }

    /// Whether the file was in Paddle's indented form (kept when saved).
    #[getter]
    fn readable(&self) -> bool {
        self.model.readable
    }

    #[setter]
    fn set_readable(&mut self, value: bool) {
        self.model.readable = value;
    }

    /// A deep copy (parameters are shared until written).
    fn clone(&self) -> PyProgram {
        PyProgram::of(pir::Model {
            program: self.p().clone(),
            trainable: self.model.trainable,
            version: self.model.version,
            readable: self.model.readable,
        })
    }
}

/// The pipeline `Model.opt` runs: the `drr` pass of the rule file first,
/// then the given passes.
fn pipeline_text(pipeline: Option<&str>, rules: Option<&Path>) -> PyResult<String> {
    let rules = match rules {
        Some(file) => {
            let text = file
                .to_str()
                .filter(|t| !t.contains([',', '{', '}', '(', ')']));
            let Some(text) = text else {
                return Err(PyValueError::new_err(format!(
                    "rules={}: a rule file's path must be UTF-8 without `,{{}}()`",
                    file.display()
                )));
            };
            Some(format!("drr{{file={text}}}"))
        }
        None => None,
    };
    match (rules, pipeline) {
        (Some(r), Some(p)) if !p.trim().is_empty() => Ok(format!("{r},{p}")),
        (Some(r), _) => Ok(r),
        (None, Some(p)) => Ok(p.to_owned()),
        (None, None) => Err(PyValueError::new_err(
            "opt needs a pipeline (e.g. \"canonicalize,cse,dce\") or rules=FILE",
        )),
    }
}

/// A model: a program with its parameters bound by name (viewing the file's
/// bytes until written), as `pir.load` reads it and `save` writes it.
#[pyclass(name = "Model", module = "pir", frozen)]
pub struct PyModel {
    pub(crate) program: Py<PyProgram>,
    pub(crate) path: Option<String>,
    /// The parameter file `load` looked for beside the program and did not
    /// find, while the program declares persistable variables.
    pub(crate) missing_params: Option<PathBuf>,
    /// `params`, made on first use: every access gives the same mapping
    /// (`{n: model.params[n] for n in model.params}` reads it per name).
    params: PyOnceLock<Py<PyParams>>,
}

impl PyModel {
    /// The model `pir.load` read from `path`.
    pub(crate) fn loaded(
        program: Py<PyProgram>,
        path: String,
        missing_params: Option<PathBuf>,
    ) -> PyModel {
        PyModel {
            program,
            path: Some(path),
            missing_params,
            params: PyOnceLock::new(),
        }
    }
}

#[pymethods]
impl PyModel {
    /// A model of `program` (its parameter map is the model's parameters).
    #[new]
    fn new(program: Py<PyProgram>) -> PyModel {
        PyModel {
            program,
            path: None,
            missing_params: None,
            params: PyOnceLock::new(),
        }
    }

    /// The program.
    #[getter]
    fn program(&self, py: Python<'_>) -> Py<PyProgram> {
        self.program.clone_ref(py)
    }

    /// The parameters: a mutable mapping from name to a read-only NumPy
    /// array viewing the file's memory (no copy); assigning copies the array.
    #[getter]
    fn params(&self, py: Python<'_>) -> PyResult<Py<PyParams>> {
        let params = self.params.get_or_try_init(py, || {
            Py::new(
                py,
                PyParams {
                    program: self.program.clone_ref(py),
                },
            )
        })?;
        Ok(params.clone_ref(py))
    }

    /// The file the model was loaded from, if any.
    #[getter]
    fn path(&self) -> Option<String> {
        self.path.clone()
    }

    /// Names of the persistable variables the parameter file holds (every
    /// `builtin.parameter` and persistable `pd_op.data`), in the file's order;
    /// with or without data.
    fn parameter_names(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self.program.try_borrow(py)?.model.parameter_names())
    }

    /// Writes `prefix.json` and, when parameters have data,
    /// `prefix.pdiparams` (each atomically, in Paddle's formats; only the
    /// tensors the program still names), making the folders of `prefix`.
    /// A prefix ending in `.pdmodel` writes Paddle 2.x's legacy program
    /// there instead (ops with no Paddle 2.6 form are a `pir.WriteError`
    /// naming each, and nothing is written).
    /// Existing files are replaced only with `overwrite=True` (else
    /// `pir.WriteError`, and neither file changes). `version="3.2"` (or
    /// `"3.0"`, `"3.1"`) writes the program as that Paddle release wrote
    /// it; what the release cannot hold is a `pir.WriteError` naming the op
    /// and attribute, and nothing is written.
    #[pyo3(signature = (prefix, overwrite=false, *, version=None))]
    fn save(
        &self,
        py: Python<'_>,
        prefix: PathBuf,
        overwrite: bool,
        version: Option<&str>,
    ) -> PyResult<()> {
        let version = match version {
            None => pir_serde::PIR_VERSION,
            Some(release) => pir_serde::patch::release_version(release).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "`{release}` is not a Paddle release pir writes (3.0, 3.1, 3.2, 3.3)"
                ))
            })?,
        };
        let prog = self.program.try_borrow(py)?;
        let model = &prog.model;
        errors::guard("saving a model", || {
            py.detach(|| model.save_version(&prefix, overwrite, version))
                .map_err(errors::model)
        })
    }

    /// Exports the model to ONNX at `path` (opset 13 to 21): inputs given
    /// the fixed dims of `input_shapes` (`{"x": [1, 3, 224, 224]}`), the
    /// program folded and cleaned first unless `optimize=False` (on a copy:
    /// the model stays as it is), the file written atomically. An op
    /// without an ONNX mapping raises `pir.WriteError` listing every such
    /// op, and nothing is written; an existing file is replaced only with
    /// `overwrite=True`. With `external_data=True` the parameters go to
    /// `path + ".data"` (ONNX external data), as they do anyway when the
    /// model would pass 2 GB; both files are put in place together.
    #[pyo3(signature = (path, opset=17, *, input_shapes=None, optimize=true, overwrite=false, external_data=false))]
    #[allow(clippy::too_many_arguments)]
    fn export_onnx(
        &self,
        py: Python<'_>,
        path: PathBuf,
        opset: i64,
        input_shapes: Option<std::collections::BTreeMap<String, Vec<i64>>>,
        optimize: bool,
        overwrite: bool,
        external_data: bool,
    ) -> PyResult<()> {
        let prog = self.program.try_borrow(py)?;
        if let Some(file) = &self.missing_params {
            if prog.model.lacks_parameter_data() {
                let model = self.path.as_deref().unwrap_or("the model");
                return Err(errors::missing_params(model, file));
            }
        }
        let mut model = pir::Model {
            program: prog.p().clone(),
            trainable: prog.model.trainable,
            version: prog.model.version,
            readable: prog.model.readable,
        };
        let options = pir::OnnxOptions {
            export: pir::onnx::ExportOptions {
                opset,
                external_data,
                // A translated legacy program keeps the shapes its
                // variables declared, which are sometimes stale (as
                // `pir export` decides).
                trust_shapes: !self
                    .path
                    .as_deref()
                    .is_some_and(|p| pir_core::fs::has_extension(Path::new(p), "pdmodel")),
                ..Default::default()
            },
            input_shapes: input_shapes.unwrap_or_default().into_iter().collect(),
            no_opt: !optimize,
            overwrite,
        };
        errors::guard("exporting a model to ONNX", || {
            py.detach(|| model.export_onnx(&path, &options))
                .map(|_| ())
                .map_err(errors::model)
        })
    }

    /// Runs a pipeline of passes (any `-p` text `pir opt` takes, e.g.
    /// `"canonicalize,cse,dce"` or `"constant_folding,fold_batch_norm,dce"`)
    /// on the program and its parameters; `rules` names a file of
    /// declarative rewrite rules (`.drr`) applied first, as `pir opt --rules`
    /// does. The program is verified after each pass unless `verify=False`;
    /// `keep_params=True` keeps every pass from reading, creating or
    /// dropping parameters. On failure the program is left as it was and
    /// `pir.PassError` is raised. A model `pir.load` read without the
    /// parameter file its program needs (none was beside it) raises
    /// `pir.MissingParamsError` instead of optimising the program as if it
    /// had no parameters; load it with `params=False` to optimise the
    /// program alone. Returns one dict per pass: `pass`, `changed`,
    /// `seconds`.
    #[pyo3(signature = (pipeline=None, verify=true, keep_params=false, *, rules=None))]
    fn opt<'py>(
        &self,
        py: Python<'py>,
        pipeline: Option<&str>,
        verify: bool,
        keep_params: bool,
        rules: Option<PathBuf>,
    ) -> PyResult<Bound<'py, PyList>> {
        let defaults = if keep_params {
            pir_pass::registry::OptionDefaults::keep_params()
        } else {
            Default::default()
        };
        let pipeline = pipeline_text(pipeline, rules.as_deref())?;
        let mut pm = pir_pass::PassManager::parse_with(&pipeline, &defaults)
            .map_err(|e| errors::pass(e.to_string()))?;
        pm.instrumentation.verify_each = verify;
        let mut prog = self.program.try_borrow_mut(py)?;
        if let Some(file) = &self.missing_params {
            // Parameters assigned since loading count as found.
            if prog.model.lacks_parameter_data() {
                let model = self.path.as_deref().unwrap_or("the model");
                return Err(errors::missing_params(model, file));
            }
        }
        let before = prog.p().clone();
        let run = errors::guard("running passes", || {
            pm.run(prog.p_mut())
                .map_err(|e| errors::pass(e.to_string()))
        });
        let records = match run {
            Ok(r) => r,
            Err(e) => {
                // Handles keep their ids: the program before the run has
                // every op a handle can name. A pass that panicked left
                // the program half rewritten: it is restored the same way.
                prog.model.program = before;
                return Err(e);
            }
        };
        let out = PyList::empty(py);
        for r in records {
            let item = PyDict::new(py);
            item.set_item("pass", r.pass)?;
            item.set_item("changed", r.changed)?;
            item.set_item("seconds", r.time.as_secs_f64())?;
            out.append(item)?;
        }
        Ok(out)
    }

    /// Verifies the program (see `Program.verify`).
    fn verify(&self, py: Python<'_>) -> PyResult<()> {
        self.program.try_borrow(py)?.verify()
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.program.try_borrow(py)?.__str__()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let prog = self.program.try_borrow(py)?;
        Ok(format!(
            "<pir.Model {}with {} ops, {} parameters>",
            self.path
                .as_ref()
                .map(|p| format!("{p} "))
                .unwrap_or_default(),
            prog.p().num_ops(),
            prog.model.parameter_names().len()
        ))
    }
}
