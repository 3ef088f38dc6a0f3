//! One PIR op to legacy ops: the dispatch, and the general path every
//! `pd_op` op takes unless `special.rs` knows better — the legacy op type
//! by name, inputs, outputs and attributes by the op-compat facts, kinds
//! and defaults by Paddle 2.6.2's registration of the legacy op.

use pir_core::builtin::VectorType;
use pir_core::{OpId, ValueId};
use pir_dialects::op_def::{OpDef, OpDefinition, ValueKind};

use super::attrs::{from_default, plain, same_as_default, to_kind};
use super::encode::Op;
use super::{OpFailure, OpResult, Writer};
use crate::compat::LegacyOp;

/// What the general path made of one PIR op, before it is added.
pub(crate) struct Made {
    /// The legacy op.
    pub op: Op,
    /// Results named by the op (value, name), declared when it is added.
    pub results: Vec<(ValueId, String)>,
}

impl Writer<'_> {
    /// Writes `op` into block `dst`.
    pub(super) fn write_op(&mut self, op: OpId, dst: usize, depth: usize) -> OpResult {
        if self.folds.skipped.contains(&op) {
            return Ok(());
        }
        if let Some(fold) = self.folds.kept.get(&op).cloned() {
            return self.write_folded(op, dst, fold);
        }
        let name = self.program.op_name_str(op);
        if let Some(reason) = super::special::computes_otherwise(name) {
            return Err(reason.into());
        }
        if let Some(def) = self.def_of(op) {
            let fits = self.program.num_results(op) == def.outputs.len()
                && (self.program.num_operands(op) == def.inputs.len()
                    || def.inputs.iter().any(|i| i.variadic));
            if !fits && def.has_yaml_info {
                return Err("the op's operands or results do not match its definition".into());
            }
        }
        match name {
            "builtin.parameter" => self.parameter(op),
            "builtin.combine" | "builtin.split" | "builtin.slice" => Ok(()),
            "pd_op.data" | "pd_op.feed" => self.feed(op, dst),
            "pd_op.fetch" => self.fetch(op, dst),
            "pd_op.if" => self.write_if(op, dst, depth),
            "pd_op.while" => self.write_while(op, dst, depth),
            "cf.yield" => Ok(()),
            n if super::special::is_constant(n) => {
                if self.constant_read_as_tensor(op) {
                    let v = self
                        .result_at(op, 0)
                        .ok_or_else(|| OpFailure::from("a constant without a result"))?;
                    let name = self.write_constant(op, v, dst)?;
                    self.names.insert(v, name);
                }
                Ok(())
            }
            n if n.starts_with("pd_op.") => {
                if self.special(op, dst)? {
                    return Ok(());
                }
                self.general(op, dst)
            }
            _ => Err("no legacy op writes it".into()),
        }
    }

    /// The `pd_op` definition of `op`.
    pub fn def_of(&self, op: OpId) -> Option<&'static OpDef> {
        self.program
            .op_info(op)
            .and_then(|i| i.interface::<OpDefinition>())
            .map(|d| d.0)
    }

    /// The legacy op types `op` may be written as, with their registration.
    pub fn legacy_candidates(&self, op: OpId) -> Vec<&'static LegacyOp> {
        let full = self.program.op_name_str(op);
        let name = full.strip_prefix("pd_op.").unwrap_or(full);
        let mut bases = vec![name];
        if let Some(base) = name.strip_suffix('_') {
            bases.push(base);
        }
        let mut found = Vec::new();
        for base in bases {
            for legacy in self.compat.legacy_types_of(base) {
                if let Some(l) = self.compat.legacy_op(legacy) {
                    if !found.iter().any(|f: &&LegacyOp| f.name == l.name) {
                        found.push(l);
                    }
                }
            }
        }
        found
    }

    /// The general path: the first legacy op type that can say what `op`
    /// says.
    pub(super) fn general(&mut self, op: OpId, dst: usize) -> OpResult {
        let def = self
            .def_of(op)
            .ok_or_else(|| OpFailure::from("the op has no definition"))?;
        let candidates = self.legacy_candidates(op);
        if candidates.is_empty() {
            return Err("Paddle 2.6 has no legacy op of this name".into());
        }
        let mut first_reason = None;
        for legacy in candidates {
            let made = self.general_as(op, dst, def, legacy).and_then(|mut made| {
                self.fixup(op, &mut made, dst)?;
                self.complete(&mut made, legacy, dst, self.program.operand(op, 0))?;
                Ok(made)
            });
            match made {
                Ok(made) => return self.add(dst, made),
                Err(OpFailure::Unsupported(r)) => {
                    first_reason.get_or_insert(format!("as `{}`: {r}", legacy.name));
                }
                Err(fatal) => return Err(fatal),
            }
        }
        Err(OpFailure::Unsupported(first_reason.unwrap_or_default()))
    }

    /// Adds a made op to block `dst`, declaring its results.
    pub fn add(&mut self, dst: usize, made: Made) -> OpResult {
        for (name, ty) in std::mem::take(&mut self.pending_vars) {
            self.declare(dst, &name, ty)?;
        }
        for (v, name) in &made.results {
            let ty = self.program.value_type(*v);
            self.declare(dst, name, ty)?;
            self.names.insert(*v, name.clone());
        }
        self.blocks[dst].ops.push(made.op);
        Ok(())
    }

    /// The legacy argument list of operand `v`: the operands of the
    /// `builtin.combine` that made it, else `v` itself.
    pub fn arg_list(&mut self, v: ValueId, dst: usize) -> OpResult<(Vec<String>, bool)> {
        if let Some(p) = self.program.defining_op(v) {
            if self.program.op_name_str(p) == "builtin.combine" {
                let items: Vec<Option<ValueId>> = self.program.operands(p).collect();
                let mut names = Vec::with_capacity(items.len());
                for item in items {
                    let item = item.ok_or_else(|| OpFailure::from("a list holds a null value"))?;
                    names.push(self.name_of(item, dst)?);
                }
                return Ok((names, true));
            }
        }
        if self.is_vector(v) {
            return Err("a list not made by `builtin.combine` has no legacy form".into());
        }
        Ok((vec![self.name_of(v, dst)?], false))
    }

    /// Whether `v` is a `vec<...>`.
    pub fn is_vector(&self, v: ValueId) -> bool {
        self.ctx
            .type_as::<VectorType>(self.program.value_type(v))
            .is_some()
    }

    /// `op` written as legacy op `legacy` by the general rules.
    pub(super) fn general_as(
        &mut self,
        op: OpId,
        dst: usize,
        def: &'static OpDef,
        legacy: &'static LegacyOp,
    ) -> OpResult<Made> {
        let c = self.compat;
        let lname = legacy.name;
        let mut out = Op::new(lname);
        // Inputs.
        for (i, info) in def.inputs.iter().enumerate() {
            let operand = match self.folds.kept.get(&op) {
                Some(super::folds::Fold::Axis { y, .. }) if i == 1 => Some(*y),
                _ => self.program.operand(op, i),
            };
            let Some(v) = operand else {
                continue;
            };
            if super::special::dropped_input(lname, info.name.as_str()) {
                continue;
            }
            if info.mutable_attribute {
                self.mutable_input(&mut out, legacy, info.name.as_str(), v, dst)?;
                continue;
            }
            let slot = match super::special::input_slot(lname, info.name.as_str()) {
                Some(own) => std::borrow::Cow::Borrowed(own),
                None => c.legacy_arg_name(lname, info.name.as_str()),
            };
            let spec = legacy.input(&slot).ok_or_else(|| {
                OpFailure::Unsupported(format!(
                    "`{lname}` has no input `{slot}` for `{}`",
                    info.name
                ))
            })?;
            let (names, _) = self.arg_list(v, dst)?;
            if names.len() != 1 && !spec.duplicable {
                return Err(format!("input `{slot}` of `{lname}` takes one variable").into());
            }
            out.set_input(spec.name, names);
        }
        // Outputs.
        let mut results = Vec::new();
        // In-place pairs: the definition's, else (ops such as `batch_norm_`
        // whose definition lists none) each `X_out` written into `X`.
        let inplace_of = |out_name: &str| -> Option<&'static str> {
            if let Some((_, i)) = def.inplace.iter().find(|(o, _)| *o == out_name) {
                return Some(i.as_str());
            }
            let base = out_name.strip_suffix("_out")?;
            def.inputs
                .iter()
                .find(|i| i.name == base)
                .map(|i| i.name.as_str())
        };
        let is_inplace_op = self.program.op_name_str(op).ends_with('_');
        for (i, info) in def.outputs.iter().enumerate() {
            let Some(r) = self.result_at(op, i) else {
                continue;
            };
            let ty = self.program.value_type(r);
            if ty.is_null() {
                continue;
            }
            let slot = c.legacy_arg_name(lname, info.name.as_str());
            let Some(spec) = legacy.output(&slot) else {
                if self.program.use_empty(r) {
                    continue;
                }
                return Err(format!("`{lname}` has no output `{slot}` for `{}`", info.name).into());
            };
            if is_inplace_op {
                if let Some(input) = inplace_of(info.name.as_str()) {
                    let idx = def
                        .input_index(input)
                        .ok_or_else(|| OpFailure::from("in-place input not in the definition"))?;
                    if let Some(src) = self.program.operand(op, idx) {
                        let name = self.name_of(src, dst)?;
                        self.names.insert(r, name.clone());
                        out.set_output(spec.name, vec![name]);
                        continue;
                    }
                }
            }
            if matches!(
                info.kind,
                ValueKind::VectorDenseTensor
                    | ValueKind::VectorDenseTensorArray
                    | ValueKind::VectorSelectedRows
            ) || self.is_vector(r)
            {
                let names = self.split_names(r, lname, &mut results)?;
                out.set_output(spec.name, names);
                continue;
            }
            let name = match self.names.get(&r) {
                Some(n) => n.clone(),
                None => self.fresh_name(lname),
            };
            results.push((r, name.clone()));
            out.set_output(spec.name, vec![name]);
        }
        // Attributes.
        for spec in def.attributes {
            let Some(a) = self.program.attr(op, spec.name.as_str()) else {
                continue;
            };
            let Some(p) = plain(self.ctx, a) else {
                continue;
            };
            if super::special::handled_by_fixup(lname, spec.name.as_str()) {
                continue;
            }
            let lattr = c.legacy_attr_name(lname, spec.name.as_str());
            match legacy.attr(lattr) {
                Some(l) => {
                    let v = to_kind(&p, l.kind).ok_or_else(|| {
                        OpFailure::Unsupported(format!(
                            "attribute `{}` ({p:?}) does not fit `{lname}`'s `{lattr}` ({:?})",
                            spec.name, l.kind
                        ))
                    })?;
                    out.set_attr(l.name, v);
                }
                None => {
                    let harmless = matches!(p, Plain::Place(_))
                        || spec
                            .default
                            .as_ref()
                            .is_some_and(|d| same_as_default(&p, d));
                    if !harmless {
                        return Err(format!(
                            "`{lname}` has no attribute `{lattr}` for `{}` = {p:?}",
                            spec.name
                        )
                        .into());
                    }
                }
            }
        }
        Ok(Made { op: out, results })
    }

    /// Fills the attributes `op` lacks from the legacy defaults, and the
    /// legacy outputs the PIR op has no result for (`XShape`).
    pub fn complete(
        &mut self,
        made: &mut Made,
        legacy: &'static LegacyOp,
        dst: usize,
        x: Option<ValueId>,
    ) -> OpResult {
        for a in &legacy.attrs {
            if made.op.has_attr(a.name) {
                continue;
            }
            match a.default.as_ref().and_then(from_default) {
                Some(v) => made.op.set_attr(a.name, v),
                None => {
                    if !matches!(
                        a.kind,
                        crate::compat::LegacyAttrKind::Block
                            | crate::compat::LegacyAttrKind::Blocks
                            | crate::compat::LegacyAttrKind::Var
                            | crate::compat::LegacyAttrKind::Vars
                            | crate::compat::LegacyAttrKind::Scalar
                            | crate::compat::LegacyAttrKind::Scalars
                    ) {
                        return Err(
                            format!("`{}` needs attribute `{}`", legacy.name, a.name).into()
                        );
                    }
                }
            }
        }
        for o in &legacy.outputs {
            if o.dispensable || made.op.outputs.iter().any(|(n, _)| n == o.name) {
                continue;
            }
            if o.name == "XShape" {
                let Some(x) = x else { continue };
                let ty = self.program.value_type(x);
                let name = self.fresh_name(&format!("{}_xshape", legacy.name));
                let mut var = self
                    .var_desc(&name, ty)
                    .ok_or_else(|| OpFailure::from("XShape of a value with no legacy variable"))?;
                var.dims.insert(0, 0);
                self.push_var(dst, var);
                made.op.set_output("XShape", vec![name]);
            }
        }
        Ok(())
    }

    /// Names for the elements of vector result `r`: the results of the
    /// `builtin.split` that takes it apart (fresh names for elements no
    /// split gives).
    fn split_names(
        &mut self,
        r: ValueId,
        hint: &str,
        results: &mut Vec<(ValueId, String)>,
    ) -> OpResult<Vec<String>> {
        let ty = self.program.value_type(r);
        let elems: Vec<pir_core::Type> =
            self.ctx
                .type_as::<VectorType>(ty)
                .map(|v| v.0.to_vec())
                .ok_or_else(|| OpFailure::from("a list result that is not a vector"))?;
        let users: Vec<OpId> = self
            .program
            .uses(r)
            .map(|u| self.program.operand_owner(u))
            .collect();
        let names: Vec<String> = elems.iter().map(|_| self.fresh_name(hint)).collect();
        for u in users {
            match self.program.op_name_str(u) {
                "builtin.split" => {
                    for (i, name) in names.iter().enumerate() {
                        if let Some(r) = self.result_at(u, i) {
                            results.push((r, name.clone()));
                        }
                    }
                }
                "builtin.slice" => {
                    let index = self
                        .program
                        .attr(u, "index")
                        .and_then(|a| plain(self.ctx, a))
                        .and_then(|p| match p {
                            Plain::Int(i) => usize::try_from(i).ok(),
                            _ => None,
                        })
                        .filter(|&i| i < names.len())
                        .ok_or_else(|| {
                            OpFailure::from("a `builtin.slice` without a valid index")
                        })?;
                    if let Some(r) = self.result_at(u, 0) {
                        results.push((r, names[index].clone()));
                    }
                }
                _ => {
                    return Err(
                        "a list result read other than by `builtin.split`/`builtin.slice`".into(),
                    )
                }
            }
        }
        // Elements nobody reads are declared too (the legacy op writes them).
        for (name, ty) in names.iter().zip(&elems) {
            if !results.iter().any(|(_, n)| n == name) {
                self.pending_vars.push((name.clone(), *ty));
            }
        }
        Ok(names)
    }

    /// A mutable attribute operand: the legacy attribute when a constant
    /// made it and the legacy op has the attribute, else a tensor input.
    fn mutable_input(
        &mut self,
        out: &mut Op,
        legacy: &'static LegacyOp,
        name: &str,
        v: ValueId,
        dst: usize,
    ) -> OpResult {
        let c = self.compat;
        let lname = legacy.name;
        let lattr = c.legacy_attr_name(lname, name);
        if let Some(spec) = legacy.attr(lattr) {
            if let Some(p) = self.constant_value(v) {
                if let Some(value) = to_kind(&p, spec.kind) {
                    out.set_attr(spec.name, value);
                    return Ok(());
                }
            }
        }
        let from_combine = self
            .program
            .defining_op(v)
            .is_some_and(|p| self.program.op_name_str(p) == "builtin.combine");
        let own = c.legacy_arg_name(lname, name);
        let mut slots: Vec<&str> = c
            .mutable_candidates(lname, name)
            .map(<[_]>::to_vec)
            .unwrap_or_default();
        slots.push(&own);
        let slot = slots
            .iter()
            .filter_map(|s| legacy.input(s))
            .find(|s| s.duplicable == from_combine)
            .or_else(|| slots.iter().filter_map(|s| legacy.input(s)).next())
            .ok_or_else(|| {
                OpFailure::Unsupported(format!(
                    "`{name}` is a tensor, which `{lname}` cannot take (no input for it)"
                ))
            })?;
        let (names, _) = self.arg_list(v, dst)?;
        if names.len() != 1 && !slot.duplicable {
            return Err(format!("input `{}` of `{lname}` takes one variable", slot.name).into());
        }
        out.set_input(slot.name, names);
        Ok(())
    }

    /// Whether constant `op` is written where it stands: a reader in
    /// another block, or one that takes it as a tensor (not as a mutable
    /// attribute), reads its variable. Else each reader that needs a
    /// tensor gets one made before it.
    fn constant_read_as_tensor(&self, op: OpId) -> bool {
        let Some(v) = self.result_at(op, 0) else {
            return false;
        };
        let block = self.program.op_parent_block(op);
        self.program.uses(v).any(|u| {
            let user = self.program.operand_owner(u);
            if self.program.op_parent_block(user) != block {
                return true;
            }
            self.reads_as_tensor(user, self.program.operand_index(u), 0)
        })
    }

    /// Whether operand `index` of `user` is read as a tensor: not a
    /// mutable attribute (a list is read as its reader reads it; lists of
    /// lists past a few levels count as read, which is always correct).
    fn reads_as_tensor(&self, user: OpId, index: usize, depth: usize) -> bool {
        if depth > 8 {
            return true;
        }
        if self.folds.skipped.contains(&user) {
            // A folded `stack` hands its list to `ShapeTensorList`; a
            // folded `reshape` is not written.
            return self.program.op_name_str(user) == "pd_op.stack";
        }
        if index == 0
            && matches!(
                self.folds.kept.get(&user),
                Some(super::folds::Fold::ShapeList { .. })
            )
        {
            return false;
        }
        match self.def_of(user) {
            Some(d) => d.inputs.get(index).is_some_and(|i| {
                let dropped =
                    d.name == "pd_op.rnn" && super::special::dropped_input("rnn", i.name.as_str());
                !(i.mutable_attribute || dropped)
            }),
            None if self.program.op_name_str(user) == "builtin.combine" => {
                let Some(list) = self.result_at(user, 0) else {
                    return false;
                };
                self.program.uses(list).any(|u| {
                    self.reads_as_tensor(
                        self.program.operand_owner(u),
                        self.program.operand_index(u),
                        depth + 1,
                    )
                })
            }
            None => true,
        }
    }

    /// The value of a constant operand (`full`'s value, `full_int_array`'s
    /// list), when `v` is one.
    pub fn constant_value(&self, v: ValueId) -> Option<Plain> {
        let p = self.program.defining_op(v)?;
        match self.program.op_name_str(p) {
            "pd_op.full" | "pd_op.full_int_array" => {
                plain(self.ctx, self.program.attr(p, "value")?)
            }
            _ => None,
        }
    }
}

use super::attrs::Plain;
