//! `conditional_block` → `pd_op.if` (the legacy block becomes the true
//! branch; the false branch yields the outer value of each output, or a
//! zero `full` of the true branch's type — `fake_false_branch`), and
//! `while` → `pd_op.while` (each loop variable a block argument, the body
//! yielding the new condition and loop variables).

use pir_core::{BlockId, InsertPoint, Type, ValueId};
use pir_dialects::pd_op::attrs::Place;

use super::attrs::AttrMap;
use super::values::{self, VarInfo};
use super::{OpSite, Translator};
use crate::desc::{AttrValue, OpDesc, VarKind};
use crate::error::Result;

impl<'d> Translator<'d> {
    /// The block a control-flow op runs (`GetBlockAttrId("sub_block")`,
    /// which fails in Paddle when the attribute is missing or not a block).
    /// The decoder checked that block indices exist.
    fn sub_block(&self, op: &OpDesc<'d>) -> Result<usize> {
        match op.attr("sub_block") {
            Some(AttrValue::Block(i)) => usize::try_from(*i)
                .map_err(|_| self.err(format!("attribute `sub_block`: block index {i}"))),
            Some(other) => Err(self.attr_kind_err("sub_block", other, "a block index (BLOCK)")),
            None => Err(self.err(format!("`{}` needs attribute `sub_block`", op.op_type))),
        }
    }

    /// How many variables block `b` declares (none when it does not exist).
    fn declared_in(&self, b: usize) -> usize {
        self.desc.blocks.get(b).map_or(0, |block| block.vars.len())
    }

    pub(super) fn translate_if(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { b, op, scope, dst } = site;
        let cond = *op
            .input_args("Cond")
            .first()
            .ok_or_else(|| self.err("`conditional_block` needs `Cond`"))?;
        for input in op.input_args("Input") {
            self.value_or_create(scope, input)?;
        }
        let outputs: Vec<&'d str> = op
            .output_args("Out")
            .iter()
            .copied()
            .filter(|n| *n != "@EMPTY@")
            .collect();
        let mut out_types: Vec<Type> = Vec::with_capacity(outputs.len());
        for name in &outputs {
            out_types.push(self.var_type(b, name)?);
        }
        let sub = self.sub_block(op)?;
        let cond_v = self.lookup(scope, cond)?.value;
        let if_op = self.create_op(
            InsertPoint::BlockEnd(dst),
            "pd_op.if",
            &[Some(cond_v)],
            &out_types,
            AttrMap::new(),
            2,
        );
        self.note_control_flow(if_op, 2);
        self.mark_static_keys(if_op);
        let at = self.at;
        self.enter_sub_block()?;
        let true_region = self.program.op_region(if_op, 0);
        let true_block = self.program.add_block(true_region);
        let true_scope = self.scopes.inner_with_room(scope, self.declared_in(sub));
        self.translate_block(sub, true_scope, true_block)?;
        self.at = at;
        let mut yields: Vec<ValueId> = Vec::with_capacity(outputs.len());
        for &name in &outputs {
            yields.push(self.lookup(true_scope, name)?.value);
        }
        let ops: Vec<Option<ValueId>> = yields.iter().map(|&v| Some(v)).collect();
        self.create_op(
            InsertPoint::BlockEnd(true_block),
            "cf.yield",
            &ops,
            &[],
            AttrMap::new(),
            0,
        );

        let false_region = self.program.op_region(if_op, 1);
        let false_block = self.program.add_block(false_region);
        let false_scope = self.scopes.inner_with_room(scope, outputs.len());
        let mut false_yields = Vec::with_capacity(outputs.len());
        for (i, &name) in outputs.iter().enumerate() {
            let v = match self.scopes.get(false_scope, name) {
                Some(v) => v.value,
                None => {
                    let v = self.init_value(false_block, self.ty(yields[i]))?;
                    self.scopes.push(false_scope, name, VarInfo::plain(v));
                    v
                }
            };
            false_yields.push(Some(v));
        }
        self.create_op(
            InsertPoint::BlockEnd(false_block),
            "cf.yield",
            &false_yields,
            &[],
            AttrMap::new(),
            0,
        );
        let t = self.k.bool_true;
        if let Some(m) = self.attr_map(if_op) {
            m.set("fake_false_branch", t);
        }
        for (i, &name) in outputs.iter().enumerate() {
            let v = self.program.result(if_op, i);
            self.scopes.push(scope, name, VarInfo::plain(v));
        }
        Ok(())
    }

    /// A zero `full` (dims made non-negative) or an empty `create_array` at
    /// the start of a fake false branch (`InsertInitOpOrCreateArrayToBlock`).
    /// A `full`'s type and attributes are remembered by the branch value's
    /// type in the context memo (a model's branches yield a few types).
    fn init_value(&mut self, block: BlockId, ty: Type) -> Result<ValueId> {
        if let Some((full_ty, attrs)) = self.memo.get_mut().zero_full_of_type(ty) {
            return Ok(self.built_full(block, true, full_ty, attrs));
        }
        if let Some(d) = values::as_dense(&self.ctx, ty) {
            let dims: Vec<i64> = d.dims.iter().map(|x| x.abs()).collect();
            let dtype = self
                .ctx
                .type_as::<pir_core::builtin::ScalarType>(d.dtype)
                .map(|s| pir_dialects::pd_op::DataType::of_scalar(*s))
                .ok_or_else(|| self.err("fake branch value of unknown element type"))?;
            let (full_ty, attrs) = self.full_parts(&dims, 0.0, dtype, Place::cpu())?;
            self.memo
                .get_mut()
                .keep_zero_full_of_type(ty, full_ty, attrs);
            return Ok(self.built_full(block, true, full_ty, attrs));
        }
        if let Some(a) = self
            .ctx
            .type_as::<pir_dialects::pd_op::types::DenseTensorArrayType>(ty)
            .cloned()
        {
            let dtype = self
                .ctx
                .type_as::<pir_core::builtin::ScalarType>(a.dtype)
                .map(|s| pir_dialects::pd_op::DataType::of_scalar(*s))
                .ok_or_else(|| self.err("fake branch array of unknown element type"))?;
            let v = self.build_create_array(block, true, dtype)?;
            self.program.set_value_type(v, ty);
            return Ok(v);
        }
        Err(self.err("a fake false branch can only make tensors and tensor arrays"))
    }

    pub(super) fn translate_while(&mut self, site: OpSite<'_, 'd>) -> Result<()> {
        let OpSite { b, op, scope, dst } = site;
        let sub = self.sub_block(op)?;
        let cond = *op
            .input_args("Condition")
            .first()
            .ok_or_else(|| self.err("`while` needs `Condition`"))?;
        let loop_vars: Vec<&'d str> = op
            .output_args("Out")
            .iter()
            .copied()
            .filter(|v| *v != cond)
            .collect();
        let _ = b;
        let cond_v = self.value_or_create(scope, cond)?.value;
        let mut operands = vec![Some(cond_v)];
        let mut types = Vec::with_capacity(loop_vars.len());
        let mut inits = Vec::with_capacity(loop_vars.len());
        for &name in &loop_vars {
            let v = self.value_or_create(scope, name)?.value;
            operands.push(Some(v));
            types.push(self.ty(v));
            inits.push(v);
        }
        let while_op = self.create_op(
            InsertPoint::BlockEnd(dst),
            "pd_op.while",
            &operands,
            &types,
            AttrMap::new(),
            1,
        );
        self.note_control_flow(while_op, 1);
        self.mark_static_keys(while_op);
        self.enter_sub_block()?;
        let region = self.program.op_region(while_op, 0);
        let body = self.program.add_block(region);
        let body_scope = self
            .scopes
            .inner_with_room(scope, loop_vars.len() + self.declared_in(sub));
        for (&name, &ty) in loop_vars.iter().zip(&types) {
            let arg = self.add_block_arg(body, ty);
            self.scopes.push(body_scope, name, VarInfo::plain(arg));
        }
        let at = self.at;
        self.translate_block(sub, body_scope, body)?;
        self.at = at;
        let mut yields = vec![Some(self.lookup(body_scope, cond)?.value)];
        for &name in &loop_vars {
            yields.push(Some(self.lookup(body_scope, name)?.value));
        }
        self.create_op(
            InsertPoint::BlockEnd(body),
            "cf.yield",
            &yields,
            &[],
            AttrMap::new(),
            0,
        );
        for (i, &name) in loop_vars.iter().enumerate() {
            let v = self.program.result(while_op, i);
            self.scopes.push(scope, name, VarInfo::plain(v));
        }
        let _ = VarKind::DenseTensor;
        Ok(())
    }
}
