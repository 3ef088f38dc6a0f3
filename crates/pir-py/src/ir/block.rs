//! `Block` and `Region`.

use super::*;

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
                        .map(|o| o.name.as_str())
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
                        .map(|i| i.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        d.inputs
            .iter()
            .map(|i| match by_name.get_item(i.name.as_str())? {
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
                        .map(|i| i.name.as_str())
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
            let expect = attrs::hint(ctx, info, spec.name.as_str());
            let attr = match given.get_item(spec.name.as_str())? {
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
            entries.push((ctx.symbol(spec.name.as_str()), attr));
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
