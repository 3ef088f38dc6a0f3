//! Parameters as NumPy arrays without copying, and the parameter files
//! (`.pdiparams`, `.pdparams`/`.pdopt` pickles) read and written safely.
//!
//! The abi3 build for CPython 3.9 cannot export the buffer protocol from a
//! Rust type (the limited API has `Py_buffer` from 3.11 on), so bytes are
//! handed to NumPy by its C API: a [`PyTensorBuffer`] shares the tensor the
//! program holds (the same allocation: a tensor read from a file keeps the
//! file's shared bytes — its memory map, or the one buffer a small file was
//! read into — an assigned one its own bytes, and nothing is copied however many
//! arrays view it), and NumPy makes a read-only array over its bytes that
//! keeps the buffer alive as its `base` ([`numpy_view`]). The buffer also
//! has the array interface, for `numpy.asarray(buffer)`.
//! The array itself exports the buffer protocol (`memoryview(array)`).
//! bfloat16 tensors are viewed as `uint16` and float8 ones as `uint8`, the
//! way Paddle hands them to NumPy.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pir::FileKind;

use pir_core::ParameterData;
use pir_params::pickle::{self, PickleValue};
use pir_params::{DType, Tensor};
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::program::PyProgram;
use crate::{errors, numpy_view};

/// Owns a tensor's bytes for the NumPy array viewing them.
#[pyclass(name = "TensorBuffer", module = "pir", frozen)]
pub struct PyTensorBuffer {
    /// A [`Tensor`] ([`SharedTensor::new`] checks it), shared with the
    /// program that binds it.
    shared: SharedTensor,
}

/// A tensor behind the program's shared pointer to parameter data: taken
/// from the program without cloning the tensor (its dims, or the bytes of
/// an assigned one).
#[derive(Clone)]
pub(crate) struct SharedTensor(Arc<dyn ParameterData>);

impl SharedTensor {
    /// `data` when it is a [`Tensor`] (the only parameter data pir binds).
    pub(crate) fn new(data: Arc<dyn ParameterData>) -> Option<SharedTensor> {
        data.as_any().is::<Tensor>().then_some(SharedTensor(data))
    }

    /// The tensor (checked by [`SharedTensor::new`]).
    fn tensor(&self) -> PyResult<&Tensor> {
        self.0
            .as_any()
            .downcast_ref::<Tensor>()
            .ok_or_else(|| PyTypeError::new_err("parameter data that is not a tensor"))
    }
}

impl From<Tensor> for SharedTensor {
    fn from(tensor: Tensor) -> SharedTensor {
        SharedTensor(Arc::new(tensor))
    }
}

/// The NumPy type string of a dtype as NumPy sees Paddle's tensors.
pub(crate) fn typestr(dtype: DType) -> &'static str {
    dtype.numpy_code().unwrap_or("|u1")
}

#[pymethods]
impl PyTensorBuffer {
    /// NumPy's array interface (version 3): read-only data over the
    /// tensor's bytes.
    #[getter]
    fn __array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = self.shared.tensor()?;
        let d = PyDict::new(py);
        let shape = PyTuple::new(py, t.dims())?;
        d.set_item(intern!(py, "shape"), shape)?;
        d.set_item(intern!(py, "typestr"), typestr(t.dtype()))?;
        // The address is only read by NumPy, which keeps this object alive as
        // the array's base: the bytes (owned, or the file's shared bytes) live as
        // long as the array.
        let ptr = t.bytes().as_ptr() as usize;
        d.set_item(intern!(py, "data"), (ptr, true))?;
        d.set_item(intern!(py, "version"), 3)?;
        Ok(d)
    }

    /// Paddle's name of the tensor's element type (`bfloat16` for a tensor
    /// NumPy sees as `uint16`).
    #[getter]
    fn dtype(&self) -> PyResult<&'static str> {
        Ok(self.shared.tensor()?.dtype().paddle_name())
    }

    /// Whether the bytes are the parameter file's, viewed without a copy of
    /// their own (a memory map, or the one buffer a small file was read into).
    #[getter]
    fn is_mapped(&self) -> PyResult<bool> {
        Ok(self.shared.tensor()?.is_mapped())
    }
}

impl PyTensorBuffer {
    /// The tensor whose bytes the buffer owns.
    pub(crate) fn tensor(&self) -> PyResult<&Tensor> {
        self.shared.tensor()
    }
}

/// A read-only NumPy array over a tensor's bytes (no copy), whose `base` is
/// the [`PyTensorBuffer`] owning them.
pub(crate) fn to_numpy(py: Python<'_>, tensor: impl Into<SharedTensor>) -> PyResult<Py<PyAny>> {
    let buffer = Bound::new(
        py,
        PyTensorBuffer {
            shared: tensor.into(),
        },
    )?;
    Ok(numpy_view::readonly_array(buffer)?.unbind())
}

/// A tensor holding a copy of an array-like's elements, little-endian and
/// C-ordered; `like` gives the dtype when NumPy has none for it (bfloat16
/// from `uint16`, float8 from `uint8`).
pub(crate) fn from_numpy(obj: &Bound<'_, PyAny>, like: Option<DType>) -> PyResult<Tensor> {
    let py = obj.py();
    let numpy = py.import("numpy")?;
    let mut arr = numpy.call_method1("ascontiguousarray", (obj,))?;
    let mut code: String = arr.getattr("dtype")?.getattr("str")?.extract()?;
    if code.starts_with('>') {
        let little = arr.getattr("dtype")?.call_method1("newbyteorder", ("<",))?;
        arr = arr.call_method1("astype", (little,))?;
        code = arr.getattr("dtype")?.getattr("str")?.extract()?;
    }
    let mut dtype = DType::from_numpy_code(&code).ok_or_else(|| {
        PyTypeError::new_err(format!("NumPy dtype `{code}` has no Paddle element type"))
    })?;
    if let Some(l) = like {
        if l != dtype && typestr(l) == typestr(dtype) {
            dtype = l;
        }
    }
    let dims: Vec<i64> = arr.getattr("shape")?.extract()?;
    let bytes = arr.call_method0("tobytes")?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes().to_vec();
    Tensor::new(dtype, dims, bytes).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The parameters of a model: a mutable mapping from name to a read-only
/// NumPy array. Its keys are the persistable variables that have data, in
/// the parameter file's order.
#[pyclass(name = "Params", module = "pir", frozen, mapping)]
pub struct PyParams {
    pub(crate) program: Py<PyProgram>,
}

impl PyParams {
    fn names(&self, py: Python<'_>) -> PyResult<Arc<[String]>> {
        Ok(self.program.try_borrow(py)?.param_names())
    }

    /// The tensor bound to `name`, shared with the program, if any.
    fn shared(&self, py: Python<'_>, name: &str) -> PyResult<Option<SharedTensor>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .parameter(name)
            .and_then(|p| p.data.clone())
            .and_then(SharedTensor::new))
    }

    /// The tensor bound to `name`; a `KeyError` when there is none.
    fn bound(&self, py: Python<'_>, name: &str) -> PyResult<SharedTensor> {
        self.shared(py, name)?
            .ok_or_else(|| PyKeyError::new_err(name.to_owned()))
    }
}

#[pymethods]
impl PyParams {
    fn __getitem__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        to_numpy(py, self.bound(py, name)?)
    }

    /// Binds a copy of `array` to parameter `name`, which the program must
    /// declare, with the declared dtype and a shape that fits the
    /// declaration.
    fn __setitem__(&self, py: Python<'_>, name: &str, array: &Bound<'_, PyAny>) -> PyResult<()> {
        let declared = {
            let prog = self.program.try_borrow(py)?;
            pir::persistable_vars(prog.p())
                .into_iter()
                .find(|(n, _)| n == name)
                .map(|(_, ty)| (ty, pir::declared(prog.p(), ty)))
        };
        let Some((ty, declared)) = declared else {
            return Err(PyKeyError::new_err(format!(
                "the program declares no persistable variable `{name}`"
            )));
        };
        let tensor = from_numpy(array, declared.as_ref().map(|(d, _)| *d))?;
        if let Some((dtype, dims)) = &declared {
            let fits = dims.len() == tensor.dims().len()
                && dims
                    .iter()
                    .zip(tensor.dims())
                    .all(|(&d, &t)| d < 0 || d == t);
            if *dtype != tensor.dtype() || !fits {
                return Err(errors::raise::<errors::ParamsError>(
                    format!(
                        "parameter `{name}`: the program declares {} {dims:?}, the array is {} {:?}",
                        dtype.paddle_name(),
                        tensor.dtype().paddle_name(),
                        tensor.dims()
                    ),
                    errors::Where::default(),
                ));
            }
        }
        let mut prog = self.program.try_borrow_mut(py)?;
        pir_params::bound::bind_typed(prog.p_mut(), name, ty, tensor);
        Ok(())
    }

    /// Drops the data of parameter `name` (the program keeps its op).
    fn __delitem__(&self, py: Python<'_>, name: &str) -> PyResult<()> {
        let mut prog = self.program.try_borrow_mut(py)?;
        if prog.model.tensor(name).is_none() {
            return Err(PyKeyError::new_err(name.to_owned()));
        }
        pir_params::bound::drop(prog.p_mut(), name);
        Ok(())
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.program.try_borrow(py)?.param_count())
    }

    fn __contains__(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(name) = name.extract::<String>() else {
            return Ok(false);
        };
        Ok(self.program.try_borrow(py)?.model.tensor(&name).is_some())
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let names = self.program.try_borrow(py)?.param_list(py)?;
        Ok(names.try_iter()?.into_any().unbind())
    }

    /// The names, in the parameter file's order.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.program.try_borrow(py)?.param_list(py)
    }

    /// The arrays, in the parameter file's order.
    fn values(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.names(py)?
            .iter()
            .map(|n| to_numpy(py, self.bound(py, n)?))
            .collect()
    }

    /// `(name, array)` pairs, in the parameter file's order.
    fn items(&self, py: Python<'_>) -> PyResult<Vec<(String, Py<PyAny>)>> {
        self.names(py)?
            .iter()
            .map(|n| {
                let a = to_numpy(py, self.bound(py, n)?)?;
                Ok((n.clone(), a))
            })
            .collect()
    }

    /// The array of `name`, or `default`.
    #[pyo3(signature = (name, default=None))]
    fn get(&self, py: Python<'_>, name: &str, default: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        match self.shared(py, name)? {
            Some(t) => to_numpy(py, t),
            None => Ok(default.unwrap_or_else(|| py.None())),
        }
    }

    /// Assigns every `name: array` of `other` (a mapping).
    fn update(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let items = other.call_method0("items")?;
        for item in items.try_iter()? {
            let (name, array): (String, Bound<'_, PyAny>) = item?.extract()?;
            self.__setitem__(py, &name, &array)?;
        }
        Ok(())
    }

    /// Paddle's name of the element type of `name` (`bfloat16` where NumPy
    /// sees `uint16`).
    fn dtype(&self, py: Python<'_>, name: &str) -> PyResult<&'static str> {
        Ok(self.bound(py, name)?.tensor()?.dtype().paddle_name())
    }

    /// Whether the data of `name` is still the file's bytes, not a copy of
    /// its own (memory-mapped, or for a file under 256 KiB the one buffer it
    /// was read into whole).
    fn is_mapped(&self, py: Python<'_>, name: &str) -> PyResult<bool> {
        Ok(self.bound(py, name)?.tensor()?.is_mapped())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<pir.Params with {} tensors>", self.__len__(py)?))
    }
}

// ------------------------------------------------------------ pickle files

/// Checks that `path` holds what a parameter reader reads (`accept`), so a
/// model given as parameters gets a `FileKindError` saying what it is; a
/// file that cannot be read stays a `ParamsError`, as the readers raise.
fn check_kind(path: &Path, wanted: &'static str, accept: fn(FileKind) -> bool) -> PyResult<()> {
    match pir::check_kind(path, wanted, accept) {
        Ok(_) => Ok(()),
        Err(pir::Error::Io(io)) => Err(errors::params(&io.path.clone(), io.into())),
        Err(e) => Err(errors::model(e)),
    }
}

/// A pickle value as a Python object (arrays zero-copy where mapped).
fn pickle_to_py(py: Python<'_>, v: &PickleValue<'_>, depth: usize) -> PyResult<Py<PyAny>> {
    if depth > 200 {
        return Err(PyValueError::new_err(
            "pickle values nest more than 200 deep",
        ));
    }
    let any = |b: Bound<'_, PyAny>| Ok(b.unbind());
    match v {
        PickleValue::None => Ok(py.None()),
        PickleValue::Bool(b) => any(PyBool::new(py, *b).to_owned().into_any()),
        PickleValue::Int(i) => any(i.into_pyobject(py)?.into_any()),
        PickleValue::Float(f) => any(PyFloat::new(py, *f).into_any()),
        PickleValue::Str(s) => any(PyString::new(py, s).into_any()),
        PickleValue::Bytes(b) => any(PyBytes::new(py, b).into_any()),
        PickleValue::Tuple(items) => {
            let items: Vec<Py<PyAny>> = items
                .iter()
                .map(|i| pickle_to_py(py, i, depth + 1))
                .collect::<PyResult<_>>()?;
            any(PyTuple::new(py, items)?.into_any())
        }
        PickleValue::List(items) => {
            let list = PyList::empty(py);
            for i in items {
                list.append(pickle_to_py(py, i, depth + 1)?)?;
            }
            any(list.into_any())
        }
        PickleValue::Dict(items) => {
            let dict = PyDict::new(py);
            for (k, v) in items {
                dict.set_item(
                    pickle_to_py(py, k, depth + 1)?,
                    pickle_to_py(py, v, depth + 1)?,
                )?;
            }
            any(dict.into_any())
        }
        PickleValue::Array(a) => {
            let t = a
                .to_tensor()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            to_numpy(py, t)
        }
    }
}

/// Reads a `.pdparams` / `.pdopt` pickle as `paddle.load` returns it — a dict of NumPy arrays (viewing the
/// file's bytes, read-only: memory-mapped, or a small file read whole once) and of the other entries (e.g. `LR_Scheduler`,
/// `StructuredToParameterName@@`) — without executing anything: only the
/// objects such files hold are allowed (numpy arrays, containers, scalars).
#[pyfunction]
pub(crate) fn load_state_dict(py: Python<'_>, path: PathBuf) -> PyResult<Py<PyAny>> {
    errors::guard("loading a state dict", || {
        check_kind(&path, "a parameter pickle (.pdparams, .pdopt)", |k| {
            k == FileKind::PickleParams
        })?;
        let state = pir_params::pickle::load_state_dict_file(&path)
            .map_err(|e| errors::params(&path, e))?;
        let dict = PyDict::new(py);
        for (name, t) in state.tensors {
            dict.set_item(name, to_numpy(py, t)?)?;
        }
        for (name, v) in &state.other {
            dict.set_item(name, pickle_to_py(py, v, 0)?)?;
        }
        if !state.structured_names.is_empty() {
            let table = PyDict::new(py);
            for (s, p) in &state.structured_names {
                table.set_item(s, p)?;
            }
            dict.set_item(pickle::STRUCTURED_KEY, table)?;
        }
        Ok(dict.into_any().unbind())
    })
}

/// A Python object as a pickle value (arrays copied into tensors).
fn py_to_pickle(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<PickleValue<'static>> {
    if depth > 200 {
        return Err(PyValueError::new_err("values nest more than 200 deep"));
    }
    Ok(if obj.is_none() {
        PickleValue::None
    } else if obj.is_instance_of::<PyBool>() {
        PickleValue::Bool(obj.extract()?)
    } else if obj.is_instance_of::<PyInt>() {
        PickleValue::Int(obj.extract()?)
    } else if obj.is_instance_of::<PyFloat>() {
        PickleValue::Float(obj.extract()?)
    } else if obj.is_instance_of::<PyString>() {
        PickleValue::Str(Cow::Owned(obj.extract()?))
    } else if let Ok(b) = obj.cast::<PyBytes>() {
        PickleValue::Bytes(Cow::Owned(b.as_bytes().to_vec()))
    } else if obj.is_instance_of::<PyTuple>() {
        PickleValue::Tuple(
            obj.try_iter()?
                .map(|i| py_to_pickle(&i?, depth + 1))
                .collect::<PyResult<_>>()?,
        )
    } else if obj.is_instance_of::<PyList>() {
        PickleValue::List(
            obj.try_iter()?
                .map(|i| py_to_pickle(&i?, depth + 1))
                .collect::<PyResult<_>>()?,
        )
    } else if let Ok(d) = obj.cast::<PyDict>() {
        PickleValue::Dict(
            d.iter()
                .map(|(k, v)| Ok((py_to_pickle(&k, depth + 1)?, py_to_pickle(&v, depth + 1)?)))
                .collect::<PyResult<_>>()?,
        )
    } else if obj.hasattr("__array_interface__")? || obj.hasattr("__array__")? {
        let t = from_numpy(obj, None)?;
        let a = pickle::NdArray::from_tensor(&t)
            .map_err(|e| PyValueError::new_err(e.to_string()))?
            .into_owned();
        PickleValue::Array(a)
    } else {
        let name = obj.get_type().name()?.to_string();
        return Err(PyTypeError::new_err(format!(
            "a state dict holds arrays, None, bool, int, float, str, bytes, tuples, lists and dicts, not {name}"
        )));
    })
}

/// Writes `state`, a dict of arrays
/// (and plain values) as the protocol-4 pickle `paddle.save` /
/// `paddle.static.save` write, atomically.
#[pyfunction]
#[pyo3(signature = (path, state, overwrite=false))]
pub(crate) fn save_state_dict(
    path: PathBuf,
    state: &Bound<'_, PyDict>,
    overwrite: bool,
) -> PyResult<()> {
    errors::guard("saving a state dict", || {
        let value = py_to_pickle(state.as_any(), 0)?;
        pickle::save_pickle(&path, &value, &Default::default(), overwrite)
            .map_err(|e| errors::params(&path, e))
    })
}

/// Reads a `.pdiparams` file (memory-mapped, or read whole when small).
/// With `names` (in the file's order: sorted as Python sorts them) gives a
/// dict; without, a list of the arrays in file order.
#[pyfunction]
#[pyo3(signature = (path, names=None))]
pub(crate) fn load_params(
    py: Python<'_>,
    path: PathBuf,
    names: Option<Vec<String>>,
) -> PyResult<Py<PyAny>> {
    errors::guard("loading parameters", || {
        // An empty stream holds no tensors (a program without parameters).
        check_kind(&path, "a parameter file (.pdiparams)", |k| {
            matches!(k, FileKind::CombinedParams | FileKind::Empty)
        })?;
        match names {
            Some(names) => {
                let tensors = pir_params::combined::load_combined(&path, &names)
                    .map_err(|e| errors::params(&path, e))?;
                let dict = PyDict::new(py);
                for (name, t) in tensors {
                    dict.set_item(name, to_numpy(py, t)?)?;
                }
                Ok(dict.into_any().unbind())
            }
            None => {
                let tensors = pir_params::combined::load_combined_blind(&path)
                    .map_err(|e| errors::params(&path, e))?;
                let list = PyList::empty(py);
                for t in tensors {
                    list.append(to_numpy(py, t)?)?;
                }
                Ok(list.into_any().unbind())
            }
        }
    })
}

/// Writes a `.pdiparams` file of the `name: array` pairs of `params`, in Paddle's order (names sorted as Python sorts
/// them), atomically. `dtypes` maps names to Paddle element types NumPy lacks
/// (`bfloat16` for a `uint16` array).
#[pyfunction]
#[pyo3(signature = (path, params, overwrite=false, dtypes=None))]
pub(crate) fn save_params(
    path: PathBuf,
    params: &Bound<'_, PyDict>,
    overwrite: bool,
    dtypes: Option<&Bound<'_, PyDict>>,
) -> PyResult<()> {
    errors::guard("saving parameters", || {
        let mut tensors = Vec::with_capacity(params.len());
        for (k, v) in params.iter() {
            let name: String = k.extract()?;
            let like = match dtypes.map(|d| d.get_item(&name)).transpose()?.flatten() {
                Some(d) => {
                    let d: String = d.extract()?;
                    Some(DType::from_paddle_name(&d).ok_or_else(|| {
                        PyValueError::new_err(format!("`{d}` is not a Paddle element type"))
                    })?)
                }
                None => None,
            };
            tensors.push((name, from_numpy(&v, like)?));
        }
        pir_params::combined::sort_params(&mut tensors);
        pir_params::combined::save_combined(&path, &tensors, overwrite)
            .map_err(|e| errors::params(&path, e))
    })
}
