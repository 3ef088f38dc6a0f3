//! Building ops without writing their result types: the op is created at a
//! builder's insertion point and its results get the types inference gives,
//! as Paddle's generated `Build` methods call the op's InferMeta function.

use pir_core::builtin::VectorType;
use pir_core::{Attribute, Builder, OpId, Program, Symbol, Type, ValueId};

use crate::{InferError, Inferer};

impl Inferer {
    /// How many results an op named `name` with these operands has: its
    /// definition's outputs (a list output is one `vec` result), the
    /// elements of the list `builtin.split` splits, one for `builtin.combine`
    /// and `builtin.slice`.
    pub fn result_count(
        &self,
        p: &Program,
        name: Symbol,
        operands: &[Option<ValueId>],
    ) -> Result<usize, InferError> {
        let text = p.ctx().symbol_str(name);
        match text {
            "builtin.combine" | "builtin.slice" => return Ok(1),
            "builtin.split" => {
                let list = operands.first().copied().flatten().map(|v| p.value_type(v));
                return match list.and_then(|t| p.ctx().type_as::<VectorType>(t)) {
                    Some(v) => Ok(v.0.len()),
                    None => Err(InferError::Invalid {
                        op: text.to_owned(),
                        func: "manual".to_owned(),
                        message: "operand 0 is not a list (`vec`) value".to_owned(),
                    }),
                };
            }
            _ => {}
        }
        match self.def_of(name) {
            Some(def) if def.num_regions == 0 => Ok(def.outputs.len()),
            Some(_) => Err(InferError::Invalid {
                op: text.to_owned(),
                func: "manual".to_owned(),
                message: "an op with regions is typed from what its regions yield: build it \
                          with result types, fill its regions, then re-infer it"
                    .to_owned(),
            }),
            None => Err(InferError::NoInference {
                op: text.to_owned(),
            }),
        }
    }

    /// Creates the op `name` at the builder's insertion point with its result
    /// types inferred from its operands and attributes (attributes left out
    /// take their declared defaults in inference). On error nothing is left
    /// in the program.
    ///
    /// ```
    /// use pir_core::{Builder, Program};
    /// use pir_dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr};
    /// let ctx = pir_dialects::pd_op_context();
    /// let inferer = pir_infer::Inferer::new(&ctx);
    /// let mut p = Program::new(ctx.clone());
    /// let top = p.top_block();
    /// let mut b = Builder::at_end(&mut p, top);
    /// let full = ctx.symbol("pd_op.full");
    /// let attrs = [
    ///     (ctx.symbol("shape"), IntArrayAttr::get(&ctx, &[2, 3])),
    ///     (ctx.symbol("dtype"), ctx.intern_attr(DataTypeAttr(DataType::Float32))),
    /// ];
    /// let x = inferer.create_op(&mut b, full, &[], &attrs).unwrap();
    /// let x = b.program().result(x, 0);
    /// let relu = inferer.create_op(&mut b, ctx.symbol("pd_op.relu"), &[Some(x)], &[]).unwrap();
    /// let ty = p.value_type(p.result(relu, 0));
    /// assert_eq!(ctx.display_type(ty), "tensor<2x3xf32>");
    /// ```
    pub fn create_op(
        &self,
        b: &mut Builder<'_>,
        name: Symbol,
        operands: &[Option<ValueId>],
        attrs: &[(Symbol, Attribute)],
    ) -> Result<OpId, InferError> {
        let count = self.result_count(b.program(), name, operands)?;
        if count > pir_core::program::MAX_RESULTS {
            return Err(InferError::Invalid {
                op: b.program().ctx().symbol_str(name).to_owned(),
                func: "manual".to_owned(),
                message: format!(
                    "{count} results: an op has at most {}",
                    pir_core::program::MAX_RESULTS
                ),
            });
        }
        let placeholders = vec![Type::NULL; count];
        let op = b.create(name, operands, &placeholders, attrs, 0);
        let p = b.program();
        match self.infer(p, op) {
            Ok(types) => {
                for (i, ty) in types.into_iter().enumerate() {
                    let v = p.result(op, i);
                    p.set_value_type(v, ty);
                }
                Ok(op)
            }
            Err(e) => {
                // The op was just made and nothing uses its results.
                let _ = p.erase_op(op);
                Err(e)
            }
        }
    }

    /// Sets the result types of an existing op to the inferred ones (an op
    /// with regions, once its regions are built). Returns whether any type
    /// changed.
    pub fn retype_op(&self, p: &mut Program, op: OpId) -> Result<bool, InferError> {
        let types = self.infer(p, op)?;
        let mut changed = false;
        for (i, ty) in types.into_iter().enumerate() {
            let v = p.result(op, i);
            if p.value_type(v) != ty {
                p.set_value_type(v, ty);
                changed = true;
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use pir_core::{Builder, Program};
    use pir_dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr};

    use crate::{InferError, Inferer};

    #[test]
    fn refused_op_leaves_nothing_behind() {
        let ctx = pir_dialects::pd_op_context();
        let inferer = Inferer::new(&ctx);
        let mut p = Program::new(ctx.clone());
        let top = p.top_block();
        let mut b = Builder::at_end(&mut p, top);
        let full = |b: &mut Builder<'_>, dims: &[i64]| {
            let attrs = [
                (ctx.symbol("shape"), IntArrayAttr::get(&ctx, dims)),
                (
                    ctx.symbol("dtype"),
                    ctx.intern_attr(DataTypeAttr(DataType::Float32)),
                ),
            ];
            let op = inferer
                .create_op(b, ctx.symbol("pd_op.full"), &[], &attrs)
                .expect("full infers");
            b.program().result(op, 0)
        };
        let x = full(&mut b, &[2, 3]);
        let y = full(&mut b, &[4, 5]);
        let err = inferer
            .create_op(&mut b, ctx.symbol("pd_op.matmul"), &[Some(x), Some(y)], &[])
            .expect_err("3 != 4");
        assert!(matches!(err, InferError::Invalid { .. }), "{err}");
        assert_eq!(p.block_ops(top).count(), 2);
        let err = inferer
            .create_op(
                &mut Builder::at_end(&mut p, top),
                ctx.symbol("pd_op.if"),
                &[],
                &[],
            )
            .expect_err("if is typed from its regions");
        assert!(err.to_string().contains("regions"), "{err}");
        let err = inferer
            .create_op(
                &mut Builder::at_end(&mut p, top),
                ctx.symbol("test.unknown"),
                &[],
                &[],
            )
            .expect_err("unknown op");
        assert_eq!(err.to_string(), "no type inference for `test.unknown`");
    }

    #[test]
    fn a_split_of_more_results_than_an_op_holds_is_an_error() {
        let ctx = pir_dialects::pd_op_context();
        let inferer = Inferer::new(&ctx);
        let mut p = Program::new(ctx.clone());
        let top = p.top_block();
        let f32 = ctx.intern_type(pir_core::builtin::ScalarType::F32);
        let items = vec![f32; pir_core::program::MAX_RESULTS + 1];
        let list = pir_core::builtin::VectorType::get(&ctx, &items);
        let mut b = Builder::at_end(&mut p, top);
        let arg = b.op("test.make", &[], &[list], &[]);
        let v = b.program().result(arg, 0);
        let err = inferer
            .create_op(&mut b, ctx.symbol("builtin.split"), &[Some(v)], &[])
            .expect_err("too many results");
        assert!(err.to_string().contains("at most"), "{err}");
        assert_eq!(p.block_ops(top).count(), 1);
    }
}
