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

// --------------------------------------------------------------------- ops

/// An operation of a program.
#[pyclass(name = "Op", module = "pir", frozen)]
pub struct PyOp {
    pub(crate) program: Py<PyProgram>,
    pub(crate) id: OpId,
}

#[pymethods]
impl PyOp {
    /// The op's name (`pd_op.matmul`).
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self
            .program
            .try_borrow(py)?
            .p()
            .op_name_str(self.id)
            .to_owned())
    }

    /// Whether the op's name is registered (a `pd_op`, `cf` or `builtin` op).
    #[getter]
    fn is_registered(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.program.try_borrow(py)?.p().op_info(self.id).is_some())
    }

    /// Whether the op was erased.
    #[getter]
    fn is_erased(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.program.try_borrow(py)?.p().is_erased(self.id))
    }

    /// The attributes as a dict of Python values, in stored order (see
    /// `set_attr` for writing).
    #[getter]
    fn attributes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let prog = self.program.try_borrow(py)?;
        let p = prog.p();
        let ctx = p.ctx();
        let dict = PyDict::new(py);
        for &(name, a) in ctx.dict_entries(p.attrs(self.id)) {
            dict.set_item(ctx.symbol_str(name), attrs::to_py(py, ctx, a)?)?;
        }
        Ok(dict)
    }

    /// The value of attribute `name`, or `default` when the op has none.
    #[pyo3(signature = (name, default=None))]
    fn attr(&self, py: Python<'_>, name: &str, default: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        let prog = self.program.try_borrow(py)?;
        let p = prog.p();
        match p.attr(self.id, name) {
            Some(a) => attrs::to_py(py, p.ctx(), a),
            None => Ok(default.unwrap_or_else(|| py.None())),
        }
    }

    /// Sets attribute `name` (added at the end when new). The kind comes from
    /// the attribute being replaced, else the op's definition, else common
    /// attribute names, else the Python value (`int` → int64, `float` →
    /// double); a `pir.Attribute` is taken as it is. A registered op takes
    /// the attributes its definition declares and those every op may carry
    /// (`stop_gradient`, `struct_name`...); another name is a
    /// `pir.EditError` listing the declared ones. Ops without a
    /// registration take any name.
    fn set_attr(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let ctx = context();
        let expect = {
            let prog = self.program.try_borrow(py)?;
            let p = prog.p();
            check_live(p, self.id)?;
            match p.attr(self.id, name) {
                // An attribute the op already carries (as read from a file)
                // may be replaced whatever its name.
                Some(old) => attrs::expect_of_existing(ctx, old),
                None => {
                    crate::defs::check_attribute_name(p.op_info(self.id), name)?;
                    attrs::hint(ctx, p.op_info(self.id), name)
                }
            }
        };
        // Converting may run Python code (`__index__`): the program is not
        // borrowed meanwhile.
        let attr = attrs::from_py(ctx, value, expect)?;
        let mut prog = self.program.try_borrow_mut(py)?;
        let p = prog.p_mut();
        check_live(p, self.id)?;
        p.set_attr(self.id, name, attr);
        Ok(())
    }

    /// Removes attribute `name`; returns whether it was there.
    fn del_attr(&self, py: Python<'_>, name: &str) -> PyResult<bool> {
        let mut prog = self.program.try_borrow_mut(py)?;
        let p = prog.p_mut();
        check_live(p, self.id)?;
        Ok(p.remove_attr(self.id, name))
    }

    /// The values the op uses (`None` for an absent optional input).
    #[getter]
    fn operands(&self, py: Python<'_>) -> PyResult<Vec<Option<PyValue>>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .operands(self.id)
            .map(|v| v.map(|v| value(&self.program, py, v)))
            .collect())
    }

    /// Operand `key`: an index, or an input name of the op's definition.
    fn operand(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<PyValue>> {
        let prog = self.program.try_borrow(py)?;
        let p = prog.p();
        let n = p.num_operands(self.id);
        let i = position(p, self.id, key, n, "operand", |d, n| d.input_index(n))?;
        Ok(p.operand(self.id, i).map(|v| value(&self.program, py, v)))
    }

    /// Sets operand `key` (index or input name) to `value` (`None`: absent).
    fn set_operand(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        value: Option<PyRef<'_, PyValue>>,
    ) -> PyResult<()> {
        if let Some(v) = &value {
            same_program(&self.program, &v.program)?;
        }
        let mut prog = self.program.try_borrow_mut(py)?;
        let p = prog.p_mut();
        check_live(p, self.id)?;
        let n = p.num_operands(self.id);
        let i = position(p, self.id, key, n, "operand", |d, n| d.input_index(n))?;
        p.set_operand(self.id, i, value.map(|v| v.id))
            .map_err(|e| errors::edit(e.to_string()))
    }

    /// The op's results.
    #[getter]
    fn results(&self, py: Python<'_>) -> PyResult<Vec<PyValue>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .results(self.id)
            .map(|v| value(&self.program, py, v))
            .collect())
    }

    /// Result `key`: an index, or an output name of the op's definition.
    fn result(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<PyValue> {
        let prog = self.program.try_borrow(py)?;
        let p = prog.p();
        let n = p.num_results(self.id);
        let i = position(p, self.id, key, n, "result", |d, n| d.output_index(n))?;
        Ok(value(&self.program, py, p.result(self.id, i)))
    }

    /// The op's regions (control flow: `pd_op.if` has two, `pd_op.while` one).
    #[getter]
    fn regions(&self, py: Python<'_>) -> PyResult<Vec<PyRegion>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .regions(self.id)
            .map(|r| region(&self.program, py, r))
            .collect())
    }

    /// The block holding the op (`None` when detached or erased).
    #[getter]
    fn parent_block(&self, py: Python<'_>) -> PyResult<Option<PyBlock>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .op_parent_block(self.id)
            .map(|b| block(&self.program, py, b)))
    }

    /// The op whose region holds this op (`builtin.module` for top-level ops).
    #[getter]
    fn parent_op(&self, py: Python<'_>) -> PyResult<Option<PyOp>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .op_parent_op(self.id)
            .map(|o| op(&self.program, py, o)))
    }

    /// The next op in the block.
    #[getter]
    fn next(&self, py: Python<'_>) -> PyResult<Option<PyOp>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog.p().next_op(self.id).map(|o| op(&self.program, py, o)))
    }

    /// The previous op in the block.
    #[getter]
    fn prev(&self, py: Python<'_>) -> PyResult<Option<PyOp>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog.p().prev_op(self.id).map(|o| op(&self.program, py, o)))
    }

    /// This op's definition (Paddle 3.3.1's `OpYamlInfo`): a dict with
    /// `inputs` and `outputs` (name, kind, optional), `attributes` (name,
    /// kind, default), `inplace`, `view`, `traits`, `num_regions`; `None`
    /// for ops without one. Kinds are readable names: `DenseTensor`,
    /// `DenseTensor[]` (a vector of them) for values; `bool`, `int32`,
    /// `int64`, `float32`, `float64`, `str`, `int64[]`..., `IntArray`,
    /// `Scalar(float32)`, `DataType`, `Place`, `DataLayout`, `any` for
    /// attributes.
    #[getter]
    fn definition<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let name = self.name(py)?;
        crate::defs::op_definition(py, &name)
    }

    /// Every op nested in this op's regions, in pre-order (this op excluded).
    fn walk(&self, py: Python<'_>) -> PyResult<Vec<PyOp>> {
        let prog = self.program.try_borrow(py)?;
        let p = prog.p();
        let mut out = Vec::new();
        p.walk(self.id, Order::Pre, &mut |o| {
            if o != self.id {
                out.push(o)
            }
        });
        Ok(out.into_iter().map(|o| op(&self.program, py, o)).collect())
    }

    /// Erases the op and everything in its regions; its results must be unused.
    fn erase(&self, py: Python<'_>) -> PyResult<()> {
        let mut prog = self.program.try_borrow_mut(py)?;
        let p = prog.p_mut();
        if self.id == p.module_op() {
            return Err(errors::edit("the module op cannot be erased"));
        }
        check_live(p, self.id)?;
        p.erase_op(self.id).map_err(|e| errors::edit(e.to_string()))
    }

    /// Replaces every use of each result by the matching value of `values`,
    /// then erases the op.
    fn replace_with(&self, py: Python<'_>, values: Vec<PyRef<'_, PyValue>>) -> PyResult<()> {
        for v in &values {
            same_program(&self.program, &v.program)?;
        }
        let mut prog = self.program.try_borrow_mut(py)?;
        let p = prog.p_mut();
        if self.id == p.module_op() {
            return Err(errors::edit("the module op cannot be replaced"));
        }
        check_live(p, self.id)?;
        let ids: Vec<ValueId> = values.iter().map(|v| v.id).collect();
        if ids.len() != p.num_results(self.id) {
            return Err(errors::edit(format!(
                "`{}` has {} results, {} replacements given",
                p.op_name_str(self.id),
                p.num_results(self.id),
                ids.len()
            )));
        }
        if ids.iter().any(|&v| p.defining_op(v) == Some(self.id)) {
            return Err(errors::edit("an op cannot be replaced by its own results"));
        }
        p.replace_op(self.id, &ids)
            .map_err(|e| errors::edit(e.to_string()))
    }

    /// Moves the op just before `other` (in `other`'s block).
    fn move_before(&self, py: Python<'_>, other: PyRef<'_, PyOp>) -> PyResult<()> {
        self.move_to(py, &other, InsertPoint::Before(other.id))
    }

    /// Moves the op just after `other` (in `other`'s block).
    fn move_after(&self, py: Python<'_>, other: PyRef<'_, PyOp>) -> PyResult<()> {
        self.move_to(py, &other, InsertPoint::After(other.id))
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.program.try_borrow(py)?.p().op_to_string(self.id))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<pir.Op {} #{}>", self.name(py)?, self.id.index()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyOp>()
            .is_ok_and(|o| o.get().program.is(&self.program) && o.get().id == self.id)
    }

    fn __hash__(&self) -> u64 {
        handle_hash(&self.program, self.id.index())
    }
}

impl PyOp {
    fn move_to(&self, py: Python<'_>, other: &PyOp, at: InsertPoint) -> PyResult<()> {
        same_program(&self.program, &other.program)?;
        let mut prog = self.program.try_borrow_mut(py)?;
        let p = prog.p_mut();
        check_live(p, self.id)?;
        check_live(p, other.id)?;
        if self.id == p.module_op() {
            return Err(errors::edit("the module op cannot be moved"));
        }
        let Some(target) = p.op_parent_block(other.id) else {
            return Err(errors::edit("the op to move next to is not in a block"));
        };
        if block_inside(p, target, self.id) {
            return Err(errors::edit("an op cannot be moved into its own regions"));
        }
        check_nesting(block_depth(p, target) + 1 + region_height(p, self.id, MAX_NESTING + 1))?;
        p.move_op(self.id, at);
        Ok(())
    }
}

// ------------------------------------------------------------------ values

/// A value: an op result or a block argument.
#[pyclass(name = "Value", module = "pir", frozen)]
pub struct PyValue {
    pub(crate) program: Py<PyProgram>,
    pub(crate) id: ValueId,
}

/// One use of a value: operand `index` of `owner`.
#[pyclass(name = "Use", module = "pir", frozen, get_all)]
pub struct PyUse {
    /// The op using the value.
    owner: Py<PyOp>,
    /// The operand position.
    index: usize,
}

#[pymethods]
impl PyUse {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "<pir.Use operand {} of {}>",
            self.index,
            self.owner.get().__repr__(py)?
        ))
    }
}

#[pymethods]
impl PyValue {
    /// The value's type.
    #[getter]
    fn r#type(&self, py: Python<'_>) -> PyResult<PyType> {
        Ok(PyType {
            ty: self.program.try_borrow(py)?.p().value_type(self.id),
        })
    }

    /// Changes the value's type.
    #[setter]
    fn set_type(&self, py: Python<'_>, ty: PyType) -> PyResult<()> {
        self.program
            .try_borrow_mut(py)?
            .p_mut()
            .set_value_type(self.id, ty.ty);
        Ok(())
    }

    /// The dims of a tensor value (`-1` unknown), else `None`.
    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<Option<Vec<i64>>> {
        Ok(self.r#type(py)?.shape())
    }

    /// The element type of a tensor value (`float32`), else `None`.
    #[getter]
    fn dtype(&self, py: Python<'_>) -> PyResult<Option<String>> {
        Ok(self.r#type(py)?.dtype())
    }

    /// The op defining the value (`None` for a block argument).
    #[getter]
    fn defining_op(&self, py: Python<'_>) -> PyResult<Option<PyOp>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .defining_op(self.id)
            .map(|o| op(&self.program, py, o)))
    }

    /// The result index, or the argument index of a block argument.
    #[getter]
    fn index(&self, py: Python<'_>) -> PyResult<Option<u32>> {
        Ok(match self.program.try_borrow(py)?.p().value_def(self.id) {
            ValueDef::Result { index, .. }
            | ValueDef::BlockArg { index, .. }
            | ValueDef::BlockKwarg { index, .. } => Some(index),
            ValueDef::Erased => None,
        })
    }

    /// Whether the value is a block argument.
    #[getter]
    fn is_block_arg(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(matches!(
            self.program.try_borrow(py)?.p().value_def(self.id),
            ValueDef::BlockArg { .. } | ValueDef::BlockKwarg { .. }
        ))
    }

    /// The block the value is defined in.
    #[getter]
    fn block(&self, py: Python<'_>) -> PyResult<Option<PyBlock>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .value_parent_block(self.id)
            .map(|b| block(&self.program, py, b)))
    }

    /// The uses of the value (`owner`, `index`), most recent first.
    #[getter]
    fn uses(&self, py: Python<'_>) -> PyResult<Vec<PyUse>> {
        let prog = self.program.try_borrow(py)?;
        let p = prog.p();
        p.uses(self.id)
            .map(|u| {
                Ok(PyUse {
                    owner: Py::new(py, op(&self.program, py, p.operand_owner(u)))?,
                    index: p.operand_index(u),
                })
            })
            .collect()
    }

    /// The ops using the value (each once, most recent first).
    #[getter]
    fn users(&self, py: Python<'_>) -> PyResult<Vec<PyOp>> {
        let prog = self.program.try_borrow(py)?;
        let p = prog.p();
        let mut seen = Vec::new();
        for u in p.uses(self.id) {
            let o = p.operand_owner(u);
            if !seen.contains(&o) {
                seen.push(o);
            }
        }
        Ok(seen.into_iter().map(|o| op(&self.program, py, o)).collect())
    }

    /// Number of uses.
    #[getter]
    fn use_count(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.program.try_borrow(py)?.p().use_count(self.id))
    }

    /// Makes every use of this value a use of `other`.
    fn replace_all_uses_with(&self, py: Python<'_>, other: PyRef<'_, PyValue>) -> PyResult<()> {
        same_program(&self.program, &other.program)?;
        self.program
            .try_borrow_mut(py)?
            .p_mut()
            .replace_all_uses_with(self.id, other.id);
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let ty = self.r#type(py)?;
        Ok(format!(
            "<pir.Value #{} : {}>",
            self.id.index(),
            ty.__str__()
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyValue>()
            .is_ok_and(|o| o.get().program.is(&self.program) && o.get().id == self.id)
    }

    fn __hash__(&self) -> u64 {
        handle_hash(&self.program, self.id.index())
    }
}

// ------------------------------------------------------ blocks and regions

/// A block: ops in order, with arguments.
#[pyclass(name = "Block", module = "pir", frozen)]
pub struct PyBlock {
    pub(crate) program: Py<PyProgram>,
    pub(crate) id: BlockId,
}

#[pymethods]
impl PyBlock {
    /// The ops of the block, in order.
    #[getter]
    fn ops(&self, py: Python<'_>) -> PyResult<Vec<PyOp>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .block_ops(self.id)
            .map(|o| op(&self.program, py, o))
            .collect())
    }

    /// The positional arguments.
    #[getter]
    fn args(&self, py: Python<'_>) -> PyResult<Vec<PyValue>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .block_args(self.id)
            .iter()
            .map(|&v| value(&self.program, py, v))
            .collect())
    }

    /// The keyword arguments, by name.
    #[getter]
    fn kwargs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let prog = self.program.try_borrow(py)?;
        let p = prog.p();
        let dict = PyDict::new(py);
        for &(name, v) in p.block_kwargs(self.id) {
            dict.set_item(p.ctx().symbol_str(name), value(&self.program, py, v))?;
        }
        Ok(dict)
    }

    /// The op owning the region that holds this block.
    #[getter]
    fn parent_op(&self, py: Python<'_>) -> PyResult<Option<PyOp>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .block_parent_op(self.id)
            .map(|o| op(&self.program, py, o)))
    }

    /// Appends a positional argument of type `type`.
    fn add_arg(&self, py: Python<'_>, r#type: PyType) -> PyResult<PyValue> {
        let v = self
            .program
            .try_borrow_mut(py)?
            .p_mut()
            .add_block_arg(self.id, r#type.ty);
        Ok(value(&self.program, py, v))
    }

    /// Creates an op in this block: at the end, or just before / after an op
    /// of the block.
    ///
    /// For ops with a definition (every `pd_op` op of Paddle 3.3.1) operands
    /// may be given by input name (a dict), their number is checked, the
    /// attributes are converted to the declared kinds and completed with the
    /// declared defaults, in definition order (Paddle's), and the op gets its
    /// declared number of regions. Without `result_types`, an op with type
    /// inference gets the types Paddle's InferMeta gives (`pir.InferError`
    /// when its operands or attributes are refused); an op without
    /// inference needs them given. The attributes every op may carry
    /// (`stop_gradient`, `struct_name`...) follow the declared ones; a
    /// registered op refuses other names (`pir.EditError`), as `set_attr`
    /// does.
    #[pyo3(signature = (name, operands=None, attributes=None, result_types=None, *, regions=None, before=None, after=None))]
    #[allow(clippy::too_many_arguments)]
    fn create_op(
        &self,
        py: Python<'_>,
        name: &str,
        operands: Option<&Bound<'_, PyAny>>,
        attributes: Option<&Bound<'_, PyDict>>,
        result_types: Option<Vec<PyType>>,
        regions: Option<usize>,
        before: Option<PyRef<'_, PyOp>>,
        after: Option<PyRef<'_, PyOp>>,
    ) -> PyResult<PyOp> {
        let at = match (&before, &after) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err("give `before` or `after`, not both"))
            }
            (Some(o), None) => Some((o.id, true, &o.program)),
            (None, Some(o)) => Some((o.id, false, &o.program)),
            (None, None) => None,
        };
        let def = pir_dialects::op_def(name);
        let operands = collect_operands(&self.program, name, def, operands)?;
        let ctx = context();
        let symbol = ctx.symbol(name);
        let infer = result_types.is_none() && crate::inferer().has_inference(symbol);
        let result_types: Vec<Type> = match result_types {
            Some(types) => types.into_iter().map(|t| t.ty).collect(),
            None if infer => {
                let prog = self.program.try_borrow(py)?;
                let count = crate::inferer()
                    .result_count(prog.p(), symbol, &operands)
                    .map_err(|e| errors::infer(e.to_string()))?;
                vec![Type::NULL; count]
            }
            None => {
                if def.is_some_and(|d| !d.outputs.is_empty()) {
                    return Err(errors::infer(format!(
                        "`{name}` has no type inference: give its result_types"
                    )));
                }
                Vec::new()
            }
        };
        if let Some(d) = def {
            let fixed = !d.outputs.iter().any(|o| o.variadic);
            if fixed && result_types.len() != d.outputs.len() {
                return Err(PyValueError::new_err(format!(
                    "`{name}` has {} results ({}), {} result types given",
                    d.outputs.len(),
                    d.outputs
                        .iter()
                        .map(|o| o.name)
                        .collect::<Vec<_>>()
                        .join(", "),
                    result_types.len()
                )));
            }
        }
        if result_types.len() > usize::from(u16::MAX) {
            return Err(PyValueError::new_err("an op has at most 65535 results"));
        }
        let num_regions = regions.unwrap_or(def.map_or(0, |d| d.num_regions as usize));
        if num_regions > usize::from(u8::MAX) {
            return Err(PyValueError::new_err("an op has at most 255 regions"));
        }
        let entries = collect_attributes(py, name, def, attributes)?;
        let mut prog = self.program.try_borrow_mut(py)?;
        let p = prog.p_mut();
        let point = match at {
            Some((o, is_before, program)) => {
                same_program(&self.program, program)?;
                check_live(p, o)?;
                if p.op_parent_block(o) != Some(self.id) {
                    return Err(errors::edit(
                        "the insertion point is not an op of this block",
                    ));
                }
                if is_before {
                    InsertPoint::Before(o)
                } else {
                    InsertPoint::After(o)
                }
            }
            None => InsertPoint::BlockEnd(self.id),
        };
        check_nesting(block_depth(p, self.id) + 1 + usize::from(num_regions > 0))?;
        let dict = ctx.dict(&entries);
        let id = p.create_op(symbol, &operands, &result_types, dict, num_regions);
        p.insert_op(id, point);
        if infer {
            let typed = errors::guard("inferring result types", || {
                crate::inferer()
                    .retype_op(p, id)
                    .map_err(|e| errors::infer(e.to_string()))
            });
            if let Err(e) = typed {
                // Nothing uses the results of the op just made.
                let _ = p.erase_op(id);
                return Err(e);
            }
        }
        Ok(op(&self.program, py, id))
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.program.try_borrow(py)?.p().block_ops(self.id).count())
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let ops = PyList::new(py, self.ops(py)?)?;
        Ok(ops.try_iter()?.into_any().unbind())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "<pir.Block #{} with {} ops>",
            self.id.index(),
            self.__len__(py)?
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyBlock>()
            .is_ok_and(|o| o.get().program.is(&self.program) && o.get().id == self.id)
    }

    fn __hash__(&self) -> u64 {
        handle_hash(&self.program, self.id.index())
    }
}

/// The operands of a new op: a list (positional) or, for ops with a
/// definition, a dict by input name; each a `Value` of the program or `None`.
fn collect_operands(
    program: &Py<PyProgram>,
    name: &str,
    def: Option<&'static pir_dialects::op_def::OpDef>,
    operands: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Option<ValueId>>> {
    let one = |item: &Bound<'_, PyAny>| -> PyResult<Option<ValueId>> {
        if item.is_none() {
            return Ok(None);
        }
        let v = item
            .cast::<PyValue>()
            .map_err(|_| PyTypeError::new_err("operands are pir.Value or None"))?;
        same_program(program, &v.get().program)?;
        Ok(Some(v.get().id))
    };
    let Some(operands) = operands else {
        return match def {
            Some(d) if d.inputs.iter().any(|i| !i.optional && !i.variadic) => {
                Err(PyValueError::new_err(format!("`{name}` needs operands")))
            }
            Some(d) => Ok(vec![None; d.inputs.len()]),
            None => Ok(Vec::new()),
        };
    };
    let values: Vec<Option<ValueId>> = if let Ok(by_name) = operands.cast::<PyDict>() {
        let Some(d) = def else {
            return Err(PyTypeError::new_err(format!(
                "`{name}` has no definition: give its operands as a list"
            )));
        };
        for key in by_name.keys() {
            let key: String = key.extract()?;
            if d.input_index(&key).is_none() {
                return Err(PyKeyError::new_err(format!(
                    "`{name}` has no input `{key}` (inputs: {})",
                    d.inputs
                        .iter()
                        .map(|i| i.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        d.inputs
            .iter()
            .map(|i| match by_name.get_item(i.name)? {
                Some(item) => one(&item),
                None => Ok(None),
            })
            .collect::<PyResult<_>>()?
    } else {
        if operands.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err("operands are a list or a dict"));
        }
        operands
            .try_iter()?
            .map(|item| one(&item?))
            .collect::<PyResult<_>>()?
    };
    if let Some(d) = def {
        if !d.inputs.iter().any(|i| i.variadic) {
            if values.len() != d.inputs.len() {
                return Err(PyValueError::new_err(format!(
                    "`{name}` takes {} operands ({}), {} given",
                    d.inputs.len(),
                    d.inputs
                        .iter()
                        .map(|i| i.name)
                        .collect::<Vec<_>>()
                        .join(", "),
                    values.len()
                )));
            }
            if let Some(i) = d
                .inputs
                .iter()
                .zip(&values)
                .find(|(i, v)| !i.optional && v.is_none())
            {
                return Err(PyValueError::new_err(format!(
                    "`{name}`: input `{}` is required",
                    i.0.name
                )));
            }
        }
    }
    if values.len() > u32::MAX as usize {
        return Err(PyValueError::new_err("too many operands"));
    }
    Ok(values)
}

/// The attribute entries of a new op: declared ones in definition order
/// (given, else the default), then the others in the given order.
fn collect_attributes(
    py: Python<'_>,
    name: &str,
    def: Option<&'static pir_dialects::op_def::OpDef>,
    attributes: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(pir_core::Symbol, pir_core::Attribute)>> {
    let ctx = context();
    let info = ctx.op_info(ctx.symbol(name));
    let empty = PyDict::new(py);
    let given = attributes.unwrap_or(&empty);
    let mut entries = Vec::new();
    if let Some(d) = def {
        for spec in d.attributes {
            let expect = attrs::hint(ctx, info, spec.name);
            let attr = match given.get_item(spec.name)? {
                Some(v) => attrs::from_py(ctx, &v, expect),
                None => match spec.default {
                    Some(dv) => {
                        let v = attrs::default_to_py(py, dv, spec.kind)?;
                        attrs::from_py(ctx, v.bind(py), expect)
                    }
                    None => {
                        return Err(PyValueError::new_err(format!(
                            "`{name}` needs attribute `{}` (it has no default)",
                            spec.name
                        )))
                    }
                },
            }
            .map_err(|e| {
                PyValueError::new_err(format!("`{name}` attribute `{}`: {e}", spec.name))
            })?;
            entries.push((ctx.symbol(spec.name), attr));
        }
    }
    for (key, v) in given.iter() {
        let key: String = key
            .extract()
            .map_err(|_| PyTypeError::new_err("attribute names are str"))?;
        if def.is_some_and(|d| d.attribute(&key).is_some()) {
            continue;
        }
        crate::defs::check_attribute_name(info, &key)?;
        let attr = attrs::from_py(ctx, &v, attrs::hint(ctx, info, &key))
            .map_err(|e| PyValueError::new_err(format!("`{name}` attribute `{key}`: {e}")))?;
        entries.push((ctx.symbol(&key), attr));
    }
    Ok(entries)
}

/// A region: blocks owned by an op.
#[pyclass(name = "Region", module = "pir", frozen)]
pub struct PyRegion {
    pub(crate) program: Py<PyProgram>,
    pub(crate) id: RegionId,
}

#[pymethods]
impl PyRegion {
    /// The region's blocks.
    #[getter]
    fn blocks(&self, py: Python<'_>) -> PyResult<Vec<PyBlock>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .region_blocks(self.id)
            .iter()
            .map(|&b| block(&self.program, py, b))
            .collect())
    }

    /// The op owning the region.
    #[getter]
    fn parent_op(&self, py: Python<'_>) -> PyResult<Option<PyOp>> {
        let prog = self.program.try_borrow(py)?;
        Ok(prog
            .p()
            .region_parent_op(self.id)
            .map(|o| op(&self.program, py, o)))
    }

    /// Appends a new empty block.
    fn add_block(&self, py: Python<'_>) -> PyResult<PyBlock> {
        let b = self.program.try_borrow_mut(py)?.p_mut().add_block(self.id);
        Ok(block(&self.program, py, b))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "<pir.Region #{} with {} blocks>",
            self.id.index(),
            self.blocks(py)?.len()
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyRegion>()
            .is_ok_and(|o| o.get().program.is(&self.program) && o.get().id == self.id)
    }

    fn __hash__(&self) -> u64 {
        handle_hash(&self.program, self.id.index())
    }
}
