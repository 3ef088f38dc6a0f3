//! `Op`: an operation of a program.

use super::*;

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

    pub(crate) fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
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
