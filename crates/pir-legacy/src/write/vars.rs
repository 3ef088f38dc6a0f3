//! Variables: each PIR value written gets a name (a parameter's, a feed's,
//! a fetch's, else a made `op_N.tmp_K`), and the block it is written in
//! declares it with its kind, element type, dims and LoD level.

use pir_core::builtin::{DenseTensorType, ScalarType, StrAttr};
use pir_core::{OpId, Type, ValueId};
use pir_dialects::pd_op::types::{DenseTensorArrayType, SelectedRowsType};
use pir_dialects::pd_op::DataType;

use super::encode;
use super::{OpFailure, OpResult, WriteError, Writer};
use crate::desc::{DataKind, VarKind};

/// The legacy element type of a PIR element type.
pub fn element_proto(ctx: &pir_core::IrContext, dtype: Type) -> Option<i32> {
    let s = ctx.type_as::<ScalarType>(dtype)?;
    let p = super::attrs::proto_dtype(DataType::of_scalar(*s));
    (p >= 0).then_some(p)
}

impl Writer<'_> {
    /// Takes the names the program gives (parameters, feeds, fetches) so
    /// that made names never collide with them.
    pub(super) fn reserve_names(&mut self) {
        let mut stack = vec![self.program.top_block()];
        while let Some(block) = stack.pop() {
            for op in self.program.block_ops(block) {
                let attr = match self.program.op_name_str(op) {
                    "builtin.parameter" => "parameter_name",
                    "pd_op.data" | "pd_op.feed" | "pd_op.fetch" | "builtin.shadow_output" => "name",
                    _ => "",
                };
                if let Some(name) = self.str_attr(op, attr) {
                    self.taken.insert(name);
                }
                for r in self.program.regions(op) {
                    stack.extend(self.program.region_blocks(r).iter().copied());
                }
            }
        }
    }

    /// Result `index` of `op`, when it has one (a program read from a file
    /// may hold ops of any shape).
    pub fn result_at(&self, op: OpId, index: usize) -> Option<ValueId> {
        (index < self.program.num_results(op)).then(|| self.program.result(op, index))
    }

    /// String attribute `name` of `op`.
    pub fn str_attr(&self, op: OpId, name: &str) -> Option<String> {
        if name.is_empty() {
            return None;
        }
        let a = self.program.attr(op, name)?;
        self.ctx.attr_as::<StrAttr>(a).map(|s| s.0.to_string())
    }

    /// A name no variable has yet, after `hint` (`relu` → `relu_3.tmp_0`).
    pub fn fresh_name(&mut self, hint: &str) -> String {
        loop {
            let name = format!("{hint}_{}.tmp_0", self.counter);
            self.counter += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }

    /// Declares in `block` a new `INT32` dense tensor named after `hint`,
    /// with the dims of type `like` and its gradient stopped: the
    /// intermediate of a cast or `shape` the writer adds on the way to an op.
    pub fn push_int32_temp(&mut self, block: usize, hint: &str, like: Type) -> String {
        let name = self.fresh_name(hint);
        let dims = self
            .var_desc(hint, like)
            .map(|v| v.dims)
            .unwrap_or_default();
        let var = encode::Var {
            dtype: Some(DataKind::Int32.to_i32()),
            dims,
            stop_gradient: true,
            ..encode::Var::new(name.clone(), VarKind::DenseTensor)
        };
        self.push_var(block, var);
        name
    }

    /// The variable description of a value of type `ty` named `name`
    /// (`None` for types with no legacy variable).
    pub fn var_desc(&self, name: &str, ty: Type) -> Option<encode::Var> {
        let ctx = self.ctx;
        let mut var = encode::Var::new(name, VarKind::DenseTensor);
        if let Some(d) = ctx.type_as::<DenseTensorType>(ty) {
            var.dtype = Some(element_proto(ctx, d.dtype)?);
            var.dims = d.dims.to_vec();
            var.lod_level = i32::try_from(d.lod.len()).ok()?;
        } else if let Some(a) = ctx.type_as::<DenseTensorArrayType>(ty) {
            var.kind = VarKind::DenseTensorArray;
            var.dtype = Some(element_proto(ctx, a.dtype)?);
            var.dims = a.dims.to_vec();
        } else if let Some(s) = ctx.type_as::<SelectedRowsType>(ty) {
            var.kind = VarKind::SelectedRows;
            var.dtype = Some(element_proto(ctx, s.0.dtype)?);
            var.dims = s.0.dims.to_vec();
        } else {
            return None;
        }
        Some(var)
    }

    /// Declares `name` (of type `ty`) in block `block` unless it is already.
    pub fn declare(&mut self, block: usize, name: &str, ty: Type) -> OpResult<()> {
        if self.declared[block].contains(name) {
            return Ok(());
        }
        let var = self.var_desc(name, ty).ok_or_else(|| {
            OpFailure::Unsupported(format!(
                "a value of type `{}` has no legacy variable",
                self.ctx.type_data(ty).kind_name()
            ))
        })?;
        self.push_var(block, var);
        Ok(())
    }

    /// Adds `var` to block `block`.
    pub fn push_var(&mut self, block: usize, var: encode::Var) {
        if self.declared[block].insert(var.name.clone()) {
            self.blocks[block].vars.push(var);
        }
    }

    /// Declares the feed or fetch list variable of the top block.
    pub(super) fn declare_special(&mut self, name: &str, kind: VarKind) {
        let var = encode::Var {
            persistable: true,
            ..encode::Var::new(name, kind)
        };
        self.push_var(0, var);
    }

    /// Names result `v` (a new variable declared in `block`, after `hint`).
    pub fn name_result(&mut self, v: ValueId, block: usize, hint: &str) -> OpResult<String> {
        if let Some(n) = self.names.get(&v).cloned() {
            // Named ahead (a fetched value): declared where it is written.
            self.declare(block, &n, self.program.value_type(v))?;
            return Ok(n);
        }
        let name = self.fresh_name(hint);
        self.declare(block, &name, self.program.value_type(v))?;
        self.names.insert(v, name.clone());
        Ok(name)
    }

    /// The variable holding `v` when read in `block`: its name, or for a
    /// constant (`full`, `full_int_array`, ...) not written yet, the
    /// variable of an op made for it here.
    pub fn name_of(&mut self, v: ValueId, block: usize) -> OpResult<String> {
        if let Some(n) = self.names.get(&v) {
            return Ok(n.clone());
        }
        if let Some(n) = self.constants.get(&(v, block)) {
            return Ok(n.clone());
        }
        if let Some(op) = self.program.defining_op(v) {
            if super::special::is_constant(self.program.op_name_str(op)) {
                let name = self.write_constant(op, v, block)?;
                self.constants.insert((v, block), name.clone());
                return Ok(name);
            }
        }
        Err(OpFailure::Fatal(WriteError::Invalid(format!(
            "a value of `{}` is read before it is written",
            self.program
                .defining_op(v)
                .map_or("a block argument", |op| self.program.op_name_str(op))
        ))))
    }
}
