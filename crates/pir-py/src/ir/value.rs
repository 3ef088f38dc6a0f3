//! `Value` and `Use`: op results and block arguments, and their uses.

use super::*;

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
