//! Read-only NumPy arrays over the bytes of a [`PyTensorBuffer`], made with
//! NumPy's C API (through the `numpy` crate).
//!
//! `numpy.asarray(buffer)` over the buffer's `__array_interface__` costs a
//! dict, a tuple and NumPy parsing them back (a dtype from its type string
//! among them) for every array; here NumPy is handed the pointer, the shape
//! and a dtype object made once per element type, and the buffer becomes
//! the array's `base`, which keeps the bytes alive.
//!
//! This is the crate's only `unsafe` code: NumPy cannot know how long the
//! memory it is given lives (and the buffer is taken out of the cycle
//! collector's sight, which only the C API does).

use std::ffi::{c_int, c_void};
use std::ptr;

use numpy::npyffi::{self, npy_intp, NpyTypes, PY_ARRAY_API};
use pir_params::DType;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::params::{typestr, PyTensorBuffer};

/// The most dimensions NumPy 2 arrays have (NumPy 1 allows 32 and says so).
const MAX_DIMS: usize = 64;

/// NumPy's dtype object of each element type, as NumPy sees Paddle's
/// tensors (see [`typestr`]), made once per process.
fn dtype_object(py: Python<'_>, dtype: DType) -> PyResult<&Py<PyAny>> {
    static DTYPES: PyOnceLock<Vec<(DType, Py<PyAny>)>> = PyOnceLock::new();
    let table = DTYPES.get_or_try_init(py, || {
        // Importing NumPy first makes a missing NumPy an `ImportError` here
        // rather than a failure inside the `numpy` crate's C API lookup.
        let new_dtype = py.import("numpy")?.getattr("dtype")?;
        DType::ALL
            .iter()
            .map(|&d| Ok((d, new_dtype.call1((typestr(d),))?.unbind())))
            .collect::<PyResult<_>>()
    })?;
    table
        .iter()
        .find(|(d, _)| *d == dtype)
        .map(|(_, object)| object)
        .ok_or_else(|| PyValueError::new_err(format!("no NumPy dtype for {dtype}")))
}

/// A read-only, C-ordered NumPy array viewing the bytes of `buffer`, whose
/// `base` is `buffer` (no copy).
///
/// The buffer leaves the cycle collector: it holds no Python object, so it
/// is in no reference cycle, and a model's thousands of buffers would
/// otherwise be traversed by every collection their allocations set off.
#[allow(unsafe_code)]
pub(crate) fn readonly_array<'py>(
    buffer: Bound<'py, PyTensorBuffer>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = buffer.py();
    // SAFETY: `buffer` is a live object of a pyclass, which pyo3 makes
    // GC-tracked; untracking a tracked object is always allowed, and pyo3's
    // deallocation untracks only what is still tracked.
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(buffer.as_ptr().cast()) };
    let tensor = buffer.get().tensor()?;
    let dims = tensor.dims();
    if dims.len() > MAX_DIMS {
        return Err(PyValueError::new_err(format!(
            "a tensor of {} dims is more than NumPy's {MAX_DIMS}",
            dims.len()
        )));
    }
    let mut shape = [0 as npy_intp; MAX_DIMS];
    for (to, &from) in shape.iter_mut().zip(dims) {
        *to = npy_intp::try_from(from)
            .map_err(|_| PyValueError::new_err(format!("dim {from} does not fit NumPy")))?;
    }
    let data = tensor.bytes().as_ptr().cast::<c_void>().cast_mut();
    let descr = dtype_object(py, tensor.dtype())?
        .clone_ref(py)
        .into_ptr()
        .cast::<npyffi::PyArray_Descr>();
    // SAFETY: `descr` is a new reference to a NumPy dtype object, which
    // `PyArray_NewFromDescr` takes over (on failure too); `shape` holds
    // `dims.len()` sizes whose product times the element size is the length
    // of `data` (the invariant of `Tensor`), and NULL strides make the array
    // C-ordered over exactly those bytes. Flags 0 make the array read-only:
    // NumPy writes nothing through `data`.
    let array = unsafe {
        let raw = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            npyffi::get_type_object(py, NpyTypes::PyArray_Type),
            descr,
            dims.len() as c_int,
            shape.as_mut_ptr(),
            ptr::null_mut(),
            data,
            0,
            ptr::null_mut(),
        );
        Bound::from_owned_ptr_or_err(py, raw)?
    };
    // SAFETY: `array` is the new ndarray above, without a base yet;
    // `PyArray_SetBaseObject` takes over the new reference to `buffer` (on
    // failure too). The buffer is frozen and shares an immutable tensor:
    // the bytes `data` points to (owned, or a file's read-only shared bytes) stay
    // where they are, unchanged, while the buffer lives, and the array holds
    // the buffer for as long as it lives. The buffer exports no writable
    // buffer, so NumPy refuses to make the array writeable later.
    let set = unsafe {
        PY_ARRAY_API.PyArray_SetBaseObject(
            py,
            array.as_ptr().cast::<npyffi::PyArrayObject>(),
            buffer.into_ptr(),
        )
    };
    if set < 0 {
        return Err(PyErr::fetch(py));
    }
    Ok(array)
}
