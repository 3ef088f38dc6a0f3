//! The path most legacy ops take (Paddle's `OpTranscriber`): the target op
//! is `pd_op.<compat name>` (with `_` when the op writes one of its inputs),
//! and its definition drives everything — each input found under its legacy
//! name (mutable attributes from a tensor input or as a `full` /
//! `full_int_array` made from the legacy attribute, lists through
//! `builtin.combine`), each output typed from its variable, each attribute
//! translated by its declared kind.

use pir_core::{AttrDict, BlockId, IrContext, OpId, Type, ValueId};
use pir_dialects::op_def::{AttrKind, OpDef, ValueKind};

use super::attrs::{self, missing_attr_defaults, AttrMap};
use super::values::{ScopeId, VarInfo};
use super::Translator;
use crate::compat::compat;
use crate::desc::{AttrValue, OpDesc, VarKind};
use crate::error::Result;

const EMPTY_VAR: &str = "@EMPTY@";

/// Where each output variable lands: (variable, result index, index in a vector).
pub type OutputMap = Vec<(String, usize, usize)>;

/// Paddle's `IsInplace`: some variable is both read and written.
pub fn is_inplace(op: &OpDesc) -> bool {
    if matches!(op.op_type.as_str(), "adagrad" | "adam" | "adamax" | "adamw") {
        return true;
    }
    let inputs: std::collections::HashSet<&str> = op.input_arg_names().collect();
    op.output_arg_names().any(|o| inputs.contains(o))
}

/// `pd_op.<name>`, with `_` for in-place use (`LookUpOpInfo`).
pub fn target_name(op: &OpDesc) -> String {
    let mut name = format!("pd_op.{}", compat().op_name(&op.op_type));
    if is_inplace(op) && !name.ends_with('_') {
        name.push('_');
    }
    name
}

/// The arguments of input `name`, looking first at an attribute of that name
/// holding variables (`OpDesc::Input(name, with_attr_var=true)`).
pub fn input_with_attr_var<'o>(op: &'o OpDesc, name: &str) -> Option<&'o [String]> {
    match op.attr(name) {
        Some(AttrValue::Vars(v)) => Some(v.as_slice()),
        Some(AttrValue::Var(v)) => Some(std::slice::from_ref(v)),
        _ => op.input(name),
    }
}

/// Whether the legacy op has attribute `name` as a plain value.
pub fn has_attr(op: &OpDesc, name: &str) -> bool {
    matches!(op.attr(name), Some(v) if !matches!(v, AttrValue::Var(_) | AttrValue::Vars(_)))
}

/// A `pd_op` definition by full name.
pub fn def(name: &str) -> Option<&'static OpDef> {
    pir_dialects::op_def(name)
}

impl Translator<'_> {
    /// Translates `op` the general way; `Unsupported` when no `pd_op` op fits.
    pub fn translate_general(
        &mut self,
        b: usize,
        op: &OpDesc,
        scope: ScopeId,
        dst: BlockId,
    ) -> Result<OpId> {
        let name = target_name(op);
        let def = def(&name).filter(|d| d.has_yaml_info).ok_or_else(|| {
            self.unsupported(&op.op_type, format!("no op `{name}` in Paddle 3.3.1"))
        })?;
        self.general_with(b, op, scope, dst, def, &Hooks::default())
    }

    /// The general translation into `def`, with per-op variations.
    pub fn general_with(
        &mut self,
        b: usize,
        op: &OpDesc,
        scope: ScopeId,
        dst: BlockId,
        def: &'static OpDef,
        hooks: &Hooks,
    ) -> Result<OpId> {
        self.slice_vector_inputs(op, scope, dst)?;
        let operands = self.general_inputs(b, op, scope, dst, def, hooks)?;
        let (types, outputs) = self.general_outputs(b, op, def)?;
        let attrs = self.general_attrs(op, def, hooks)?;
        let new = self.create_op(dst, false, def.name, &operands, &types, attrs, 0);
        self.record_outputs(scope, new, &outputs);
        Ok(new)
    }

    /// Every input variable bound to an element of a vector gets a
    /// `builtin.slice` first (`InsertSliceOperationForInput`).
    pub fn slice_vector_inputs(&mut self, op: &OpDesc, scope: ScopeId, dst: BlockId) -> Result<()> {
        for name in op.input_arg_names() {
            if let Some(info) = self.scopes.get(scope, name) {
                if info.by_vector {
                    let v = self.build_slice(dst, pir_core::InsertPoint::BlockEnd(dst), info)?;
                    self.scopes.push(scope, name, VarInfo::plain(v));
                }
            }
        }
        Ok(())
    }

    pub fn general_inputs(
        &mut self,
        b: usize,
        op: &OpDesc,
        scope: ScopeId,
        dst: BlockId,
        def: &'static OpDef,
        hooks: &Hooks,
    ) -> Result<Vec<Option<ValueId>>> {
        let c = compat();
        let mut operands = Vec::with_capacity(def.inputs.len());
        for info in def.inputs {
            if let Some(special) = hooks.input {
                if let Some(v) = special(self, b, op, scope, dst, info.name)? {
                    operands.push(v);
                    continue;
                }
            }
            let legacy = c.legacy_arg_name(&op.op_type, info.name);
            let mut vars: Vec<String> = input_with_attr_var(op, &legacy)
                .map(<[String]>::to_vec)
                .unwrap_or_default();
            if vars.is_empty() && info.optional {
                operands.push(None);
                continue;
            }
            if vars.is_empty()
                && info.mutable_attribute
                && c.mutable_candidates(&op.op_type, info.name).is_none()
            {
                // Newer op-compat facts register more mutable attributes than
                // the table knows; a legacy attribute there is the value.
                let legacy_attr = c.legacy_attr_name(&op.op_type, info.name);
                if has_attr(op, &legacy_attr) {
                    let v = self.attribute_as_input(op, def, info.name, dst)?;
                    operands.push(Some(v));
                    continue;
                }
            }
            if vars.is_empty() {
                if let Some(cands) = c.mutable_candidates(&op.op_type, info.name) {
                    let found = cands.iter().find_map(|cand| {
                        op.input(cand)
                            .and_then(|_| input_with_attr_var(op, cand))
                            .filter(|v| !v.is_empty())
                    });
                    match found {
                        Some(v) => vars = v.to_vec(),
                        None => {
                            let v = self.attribute_as_input(op, def, info.name, dst)?;
                            operands.push(Some(v));
                            continue;
                        }
                    }
                }
            }
            let int_array = info.mutable_attribute && c.is_int_array_input(def.name, info.name);
            let mut is_vector = matches!(
                info.kind,
                ValueKind::VectorDenseTensor
                    | ValueKind::VectorSelectedRows
                    | ValueKind::VectorDenseTensorArray
            ) || int_array;
            if vars.len() == 1 {
                let var = self
                    .var(b, &vars[0])
                    .ok_or_else(|| self.var_err(&vars[0], "input variable is not declared"))?;
                if var.kind == VarKind::DenseTensorArray {
                    is_vector = false;
                }
            }
            if !is_vector {
                if vars.len() != 1 {
                    return Err(self.err(format!(
                        "input `{}` ({legacy}) needs one variable, has {}",
                        info.name,
                        vars.len()
                    )));
                }
                operands.push(Some(self.lookup(scope, &vars[0])?.value));
            } else {
                operands.push(Some(self.build_combine_vars(dst, scope, &vars)?));
            }
        }
        Ok(operands)
    }

    /// A mutable attribute given as a legacy attribute becomes a `full`
    /// (Scalar) or `full_int_array` (IntArray) (`GetAttributeAsInput`).
    pub fn attribute_as_input(
        &mut self,
        op: &OpDesc,
        def: &'static OpDef,
        input: &str,
        dst: BlockId,
    ) -> Result<ValueId> {
        let legacy = compat().legacy_attr_name(&op.op_type, input);
        let Some(value) = op.attr(&legacy).filter(|_| has_attr(op, &legacy)) else {
            return Err(self.err(format!("attribute `{legacy}` is missing")));
        };
        if compat().is_int_array_input(def.name, input) {
            let attr = attrs::translate(&self.ctx, AttrKind::IntArray, Some(value));
            self.full_int_array_from_attr(dst, attr)
        } else {
            let attr = attrs::general(&self.ctx, value);
            self.full_from_attr(dst, attr)
        }
    }

    /// Result types from the output variables (`GenerateOperationOutput`).
    pub fn general_outputs(
        &self,
        b: usize,
        op: &OpDesc,
        def: &'static OpDef,
    ) -> Result<(Vec<Type>, OutputMap)> {
        let c = compat();
        let mut types = Vec::with_capacity(def.outputs.len());
        let mut map = OutputMap::new();
        for info in def.outputs {
            let idx = types.len();
            let legacy = c.legacy_arg_name(&op.op_type, info.name);
            let Some(vars) = op.output(&legacy) else {
                if !info.optional {
                    return Err(self.err(format!(
                        "output `{}` ({legacy}) is missing and not optional",
                        info.name
                    )));
                }
                types.push(Type::NULL);
                continue;
            };
            let is_vector = matches!(
                info.kind,
                ValueKind::VectorDenseTensor
                    | ValueKind::VectorSelectedRows
                    | ValueKind::VectorDenseTensorArray
            );
            if vars.len() == 1 {
                let var = self
                    .var(b, &vars[0])
                    .ok_or_else(|| self.var_err(&vars[0], "output variable is not declared"))?;
                if var.kind == VarKind::DenseTensorArray {
                    types.push(self.var_type(b, &vars[0])?);
                    map.push((vars[0].clone(), idx, 0));
                    continue;
                }
            }
            if !is_vector {
                match vars.first() {
                    None => types.push(Type::NULL),
                    Some(v) => {
                        types.push(self.var_type(b, v)?);
                        map.push((v.clone(), idx, 0));
                    }
                }
            } else {
                let mut elems = Vec::with_capacity(vars.len());
                for (i, v) in vars.iter().enumerate() {
                    if v == EMPTY_VAR {
                        elems.push(Type::NULL);
                    } else {
                        elems.push(self.var_type(b, v)?);
                    }
                    map.push((v.clone(), idx, i));
                }
                types.push(super::values::vector_type(&self.ctx, &elems));
            }
        }
        Ok((types, map))
    }

    pub fn general_attrs(
        &self,
        op: &OpDesc,
        def: &'static OpDef,
        hooks: &Hooks,
    ) -> Result<AttrMap> {
        let c = compat();
        let mut map = AttrMap::new();
        let defaults = missing_attr_defaults(&op.op_type);
        for spec in def.attributes {
            if let Some(special) = hooks.attr {
                if let Some(a) = special(self, op, spec.name)? {
                    map.set(spec.name, a);
                    continue;
                }
            }
            let legacy = c.legacy_attr_name(&op.op_type, spec.name);
            if has_attr(op, &legacy) {
                map.set(
                    spec.name,
                    attrs::translate(&self.ctx, spec.kind, op.attr(&legacy)),
                );
                continue;
            }
            match defaults {
                Some(table) => {
                    if let Some((_, d)) = table.iter().find(|(n, _)| *n == spec.name) {
                        map.set(spec.name, d.attr(&self.ctx));
                    }
                }
                None => map.set(spec.name, attrs::translate(&self.ctx, spec.kind, None)),
            }
        }
        Ok(map)
    }

    /// Binds each output variable to its result (`RecordOpResultMapping`).
    pub fn record_outputs(&mut self, scope: ScopeId, op: OpId, outputs: &OutputMap) {
        for (name, idx, vec_idx) in outputs {
            let value = self.program.result(op, *idx);
            let by_vector = super::values::vector_elems(&self.ctx, self.ty(value)).is_some();
            self.scopes.push(
                scope,
                name,
                VarInfo {
                    value,
                    by_vector,
                    index: if by_vector { *vec_idx as i32 } else { -1 },
                },
            );
        }
    }
}

/// A per-op input handler: `Some(operand)` to take over input `name`.
pub type InputHook = fn(
    &mut Translator<'_>,
    usize,
    &OpDesc,
    ScopeId,
    BlockId,
    &str,
) -> Result<Option<Option<ValueId>>>;
/// A per-op attribute handler: `Some(attr)` to take over attribute `name`.
pub type AttrHook = fn(&Translator<'_>, &OpDesc, &str) -> Result<Option<pir_core::Attribute>>;

/// Variations of the general path.
#[derive(Default, Clone, Copy)]
pub struct Hooks {
    /// Input handler.
    pub input: Option<InputHook>,
    /// Attribute handler.
    pub attr: Option<AttrHook>,
}

/// The attribute dictionary Paddle's writer and reader leave an op with:
/// a `pd_op` op with a definition keeps its declared attributes in
/// declaration order (others are dropped); every other op keeps all, in its
/// map's order; `stop_gradient`/`persistable` follow in the map's order.
pub fn final_attrs(ctx: &IrContext, name: &str, map: &AttrMap) -> AttrDict {
    let ordered = map.ordered();
    let is_output = |k: &str| k == "stop_gradient" || k == "persistable";
    let mut entries: Vec<(pir_core::Symbol, pir_core::Attribute)> = Vec::new();
    if name == "builtin.parameter" {
        let flag = |k: &str, default: bool| {
            map.get(k)
                .unwrap_or_else(|| attrs::bool_array(ctx, &[default]))
        };
        let t = |k: &str| ctx.symbol(k);
        entries.push((t("is_distributed"), flag("is_distributed", false)));
        entries.push((t("is_parameter"), flag("is_parameter", true)));
        entries.push((t("need_clip"), flag("need_clip", false)));
        if let Some(n) = map.get("parameter_name") {
            entries.push((t("parameter_name"), n));
        }
        entries.push((t("persistable"), flag("persistable", true)));
        entries.push((t("stop_gradient"), flag("stop_gradient", true)));
        entries.push((t("trainable"), flag("trainable", true)));
        return ctx.dict(&entries);
    }
    match def(name).filter(|d| d.has_yaml_info) {
        Some(d) => {
            for spec in d.attributes {
                if let Some(a) = map.get(spec.name) {
                    entries.push((ctx.symbol(spec.name), a));
                }
            }
            for (k, a) in &ordered {
                if is_output(k) {
                    entries.push((ctx.symbol(k), *a));
                }
            }
        }
        None => {
            for (k, a) in &ordered {
                if *k != "op_callstack" {
                    entries.push((ctx.symbol(k), *a));
                }
            }
        }
    }
    ctx.dict(&entries)
}

/// `stop_gradient: [true, ...]` as Paddle's op builders set it.
pub fn stop_gradient_all(ctx: &IrContext, n: usize) -> pir_core::Attribute {
    attrs::bool_array(ctx, &vec![true; n])
}
