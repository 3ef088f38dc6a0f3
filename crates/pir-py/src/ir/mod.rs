//! Handles on the IR: `Op`, `Value`, `Block`, `Region`, `Use` and `Type`.
//!
//! A handle is its program plus an id. Programs never reuse or drop ids
//! (erased ops stay as tombstones), so a handle stays valid as long as its
//! program lives; edits check that every handle they take belongs to the same
//! program and that erased ops are not edited, and every index is checked
//! before it reaches the IR (which asserts on bad indices).

use pir_core::builtin::{DenseTensorType, ScalarType, VectorType};
use pir_core::entity::EntityId;
use pir_core::walk::Order;
use pir_core::{BlockId, InsertPoint, OpId, Program, RegionId, Type, ValueDef, ValueId};
use pir_dialects::pd_op::{DenseTensorArrayType, SelectedRowsType};
use pir_dialects::value_tensor::ValueTensorType;
use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::attrs;
use crate::context;
use crate::errors;
use crate::program::PyProgram;

mod block;
mod op;
mod value;

pub use block::{PyBlock, PyRegion};
pub use op::PyOp;
pub use value::{PyUse, PyValue};

// ------------------------------------------------------------------ types

/// A type (`tensor<2x3xf32>`, `vec[...]`...). Types are interned in one
/// context shared by every program of the process, so a type taken from one
/// program can be used to build ops in another.
#[pyclass(name = "Type", module = "pir", frozen, eq, hash, from_py_object)]
#[derive(PartialEq, Eq, Hash, Clone, Copy)]
pub struct PyType {
    pub(crate) ty: Type,
}

/// The element type and dims of a tensor-like type.
fn tensor_parts(ty: Type) -> Option<(Type, Vec<i64>)> {
    let ctx = context();
    if let Some(t) = ctx.type_as::<DenseTensorType>(ty) {
        return Some((t.dtype, t.dims.to_vec()));
    }
    if let Some(t) = ctx.type_as::<SelectedRowsType>(ty) {
        return Some((t.0.dtype, t.0.dims.to_vec()));
    }
    if let Some(t) = ctx.type_as::<ValueTensorType>(ty) {
        return Some((t.0.dtype, t.0.dims.to_vec()));
    }
    if let Some(t) = ctx.type_as::<DenseTensorArrayType>(ty) {
        return Some((t.dtype, t.dims.to_vec()));
    }
    None
}

/// Paddle's name of an element type (`float32`), or its text.
fn element_name(ty: Type) -> String {
    match context().type_as::<ScalarType>(ty) {
        Some(s) => match pir_params::bound::dtype_of(*s) {
            Some(d) => d.paddle_name().to_owned(),
            None => s.text().to_owned(),
        },
        None => context().display_type(ty),
    }
}

#[pymethods]
impl PyType {
    /// The type kind (`builtin.tensor`, `builtin.vec`, `pd_op.tensor_array`...).
    #[getter]
    fn kind(&self) -> &'static str {
        if self.ty.is_null() {
            return "null";
        }
        context().type_data(self.ty).kind_name()
    }

    /// The dims of a tensor type (`-1` unknown), else `None`.
    #[getter]
    fn shape(&self) -> Option<Vec<i64>> {
        tensor_parts(self.ty).map(|(_, dims)| dims)
    }

    /// The element type's name of a tensor type (`float32`), the name of a
    /// scalar type itself, else `None`.
    #[getter]
    fn dtype(&self) -> Option<String> {
        if let Some((el, _)) = tensor_parts(self.ty) {
            return Some(element_name(el));
        }
        context()
            .type_as::<ScalarType>(self.ty)
            .map(|_| element_name(self.ty))
    }

    /// The element types of a `vec[...]` type, else `None`.
    #[getter]
    fn elements(&self) -> Option<Vec<PyType>> {
        context()
            .type_as::<VectorType>(self.ty)
            .map(|v| v.0.iter().map(|&ty| PyType { ty }).collect())
    }

    fn __str__(&self) -> String {
        context().display_type(self.ty)
    }

    fn __repr__(&self) -> String {
        format!("pir.Type({})", context().display_type(self.ty))
    }
}

/// The scalar type named `name` (`float32` or `f32`).
pub(crate) fn scalar_named(name: &str) -> PyResult<ScalarType> {
    if let Some(d) = pir_params::DType::from_paddle_name(name) {
        if let Ok(s) = pir_params::bound::scalar_of(d) {
            return Ok(s);
        }
    }
    ScalarType::from_text(name)
        .ok_or_else(|| PyValueError::new_err(format!("`{name}` is not an element type")))
}

/// `tensor_type(dtype, shape)`: the dense tensor type `tensor<shape x dtype>`.
#[pyfunction]
pub(crate) fn tensor_type(dtype: &str, shape: Vec<i64>) -> PyResult<PyType> {
    if let Some(&d) = shape.iter().find(|&&d| d < -1) {
        return Err(PyValueError::new_err(format!(
            "dim {d}: dims are -1 (unknown) or at least 0"
        )));
    }
    let ctx = context();
    let el = ctx.intern_type(scalar_named(dtype)?);
    Ok(PyType {
        ty: DenseTensorType::get(ctx, el, &shape),
    })
}

/// `vector_type(types)`: the type `vec[...]` of a `builtin.combine`.
#[pyfunction]
pub(crate) fn vector_type(types: Vec<PyType>) -> PyType {
    let types: Vec<Type> = types.into_iter().map(|t| t.ty).collect();
    PyType {
        ty: VectorType::get(context(), &types),
    }
}

// ---------------------------------------------------------------- helpers

fn same_program(a: &Py<PyProgram>, b: &Py<PyProgram>) -> PyResult<()> {
    if a.is(b) {
        Ok(())
    } else {
        Err(errors::edit("the handle belongs to another program"))
    }
}

fn check_live(p: &Program, op: OpId) -> PyResult<()> {
    if p.is_erased(op) {
        return Err(errors::edit(format!(
            "the `{}` op was erased",
            p.op_name_str(op)
        )));
    }
    Ok(())
}

fn handle_hash(program: &Py<PyProgram>, index: usize) -> u64 {
    (program.as_ptr() as usize as u64).rotate_left(17) ^ index as u64
}

/// `int` index (negative from the end) or definition name into `len` items.
fn position(
    p: &Program,
    op: OpId,
    key: &Bound<'_, PyAny>,
    len: usize,
    what: &str,
    by_name: fn(&pir_dialects::op_def::OpDef, &str) -> Option<usize>,
) -> PyResult<usize> {
    if let Ok(name) = key.extract::<String>() {
        let def = pir_dialects::op_def(p.op_name_str(op));
        return def
            .and_then(|d| by_name(d, &name))
            .filter(|&i| i < len)
            .ok_or_else(|| {
                PyKeyError::new_err(format!(
                    "`{}` has no {what} named `{name}`",
                    p.op_name_str(op)
                ))
            });
    }
    let i: isize = key
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("a {what} is chosen by index or name")))?;
    let len_i = len as isize;
    let j = if i < 0 { i + len_i } else { i };
    if j < 0 || j >= len_i {
        return Err(PyIndexError::new_err(format!(
            "{what} index {i} out of range: `{}` has {len}",
            p.op_name_str(op)
        )));
    }
    Ok(j as usize)
}

pub(crate) fn op(program: &Py<PyProgram>, py: Python<'_>, id: OpId) -> PyOp {
    PyOp {
        program: program.clone_ref(py),
        id,
    }
}

pub(crate) fn value(program: &Py<PyProgram>, py: Python<'_>, id: ValueId) -> PyValue {
    PyValue {
        program: program.clone_ref(py),
        id,
    }
}

pub(crate) fn block(program: &Py<PyProgram>, py: Python<'_>, id: BlockId) -> PyBlock {
    PyBlock {
        program: program.clone_ref(py),
        id,
    }
}

fn region(program: &Py<PyProgram>, py: Python<'_>, id: RegionId) -> PyRegion {
    PyRegion {
        program: program.clone_ref(py),
        id,
    }
}

/// How deeply ops built or moved from Python may nest (as the text parser
/// allows), so printing and walking cannot overflow the stack.
const MAX_NESTING: usize = 200;

/// How many ops enclose the ops of `block`.
fn block_depth(p: &Program, block: BlockId) -> usize {
    let mut depth = 0;
    let mut cur = p.block_parent_op(block);
    while let Some(op) = cur {
        depth += 1;
        cur = p.op_parent_op(op);
    }
    depth
}

/// How many levels of regions an op holds (0 without regions).
fn region_height(p: &Program, op: OpId, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    let mut height = 0;
    for r in p.regions(op) {
        for &b in p.region_blocks(r) {
            for o in p.block_ops(b) {
                height = height.max(1 + region_height(p, o, limit - 1));
            }
        }
        height = height.max(1);
    }
    height
}

fn check_nesting(depth: usize) -> PyResult<()> {
    if depth > MAX_NESTING {
        return Err(errors::edit(format!(
            "ops would nest more than {MAX_NESTING} deep"
        )));
    }
    Ok(())
}

/// Whether `op` is `ancestor` or nested in it.
fn inside(p: &Program, op: OpId, ancestor: OpId) -> bool {
    op == ancestor || p.is_proper_ancestor(ancestor, op)
}

/// Whether a block lies inside `op` (so `op` cannot move into it).
fn block_inside(p: &Program, block: BlockId, op: OpId) -> bool {
    p.block_parent_op(block).is_some_and(|o| inside(p, o, op))
}
