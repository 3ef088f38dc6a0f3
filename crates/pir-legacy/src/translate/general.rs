//! The path most legacy ops take (Paddle's `OpTranscriber`): the target op
//! is `pd_op.<compat name>` (with `_` when the op writes one of its inputs),
//! and its definition drives everything — each input found under its legacy
//! name (mutable attributes from a tensor input or as a `full` /
//! `full_int_array` made from the legacy attribute, lists through
//! `builtin.combine`), each output typed from its variable, each attribute
//! translated by its declared kind.

use pir_core::{Attribute, BlockId, OpId, Symbol, Type, ValueId};
use pir_dialects::op_def::{AttrKind, OpDef, ValueKind};

use super::attrs::{self, missing_attr_defaults, AttrMap};
use super::values::{ScopeId, VarInfo};
use super::{Translator, Writer};
use crate::compat::compat;
use crate::desc::{AttrValue, OpDesc, VarKind};
use crate::error::Result;

const EMPTY_VAR: &str = "@EMPTY@";

/// Where each output variable lands: (variable, result index, index in a vector).
pub type OutputMap<'d> = Vec<(&'d str, usize, usize)>;

/// Whether some name is in both lists (a set only for long lists).
pub fn shares_name<'a>(
    a: impl Iterator<Item = &'a str> + Clone,
    b: impl Iterator<Item = &'a str> + Clone,
) -> bool {
    let (na, nb) = (a.clone().count(), b.clone().count());
    if na.saturating_mul(nb) <= 256 {
        let mut b = b;
        return b.any(|x| a.clone().any(|y| y == x));
    }
    let set: rustc_hash::FxHashSet<&str> = a.collect();
    let mut b = b;
    b.any(|x| set.contains(x))
}

/// Paddle's `IsInplace`: some variable is both read and written.
pub fn is_inplace(op: &OpDesc<'_>) -> bool {
    if matches!(op.op_type, "adagrad" | "adam" | "adamax" | "adamw") {
        return true;
    }
    shares_name(op.input_arg_names(), op.output_arg_names())
}

/// `pd_op.<name>` of a legacy op type, with `_` for in-place use
/// (`LookUpOpInfo`).
pub fn target_name_of(op_type: &str, inplace: bool) -> String {
    let mut name = format!("pd_op.{}", compat().op_name(op_type));
    if inplace && !name.ends_with('_') {
        name.push('_');
    }
    name
}

/// `pd_op.<name>`, with `_` for in-place use (`LookUpOpInfo`).
pub fn target_name(op: &OpDesc<'_>) -> String {
    target_name_of(op.op_type, is_inplace(op))
}

/// The arguments of input `name`, looking first at an attribute of that name
/// holding variables (`OpDesc::Input(name, with_attr_var=true)`).
pub fn input_with_attr_var<'o, 'd>(op: &'o OpDesc<'d>, name: &str) -> Option<&'o [&'d str]> {
    match op.attr(name) {
        Some(AttrValue::Vars(v)) => Some(v.as_slice()),
        Some(AttrValue::Var(v)) => Some(std::slice::from_ref(v)),
        _ => op.input(name),
    }
}

/// Whether the legacy op has attribute `name` as a plain value.
pub fn has_attr(op: &OpDesc<'_>, name: &str) -> bool {
    matches!(op.attr(name), Some(v) if !matches!(v, AttrValue::Var(_) | AttrValue::Vars(_)))
}

/// A `pd_op` definition by full name.
pub fn def(name: &str) -> Option<&'static OpDef> {
    pir_dialects::op_def(name)
}

fn is_vector_kind(kind: ValueKind) -> bool {
    matches!(
        kind,
        ValueKind::VectorDenseTensor | ValueKind::VectorSelectedRows | ValueKind::VectorDenseTensorArray
    )
}

impl<'d> Translator<'d> {
    /// Translates `op` the general way; `Unsupported` when no `pd_op` op fits.
    pub fn translate_general(
        &mut self,
        b: usize,
        op: &OpDesc<'d>,
        scope: ScopeId,
        dst: BlockId,
    ) -> Result<OpId> {
        let Some(def) = self.target(op).filter(|d| d.has_yaml_info) else {
            let name = target_name(op);
            return Err(self.unsupported(op.op_type, format!("no op `{name}` in Paddle 3.3.1")));
        };
        self.general_with(b, op, scope, dst, def, &Hooks::default())
    }

    /// The general translation into `def`, with per-op variations.
    pub fn general_with(
        &mut self,
        b: usize,
        op: &OpDesc<'d>,
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
    pub fn slice_vector_inputs(
        &mut self,
        op: &OpDesc<'d>,
        scope: ScopeId,
        dst: BlockId,
    ) -> Result<()> {
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
        op: &OpDesc<'d>,
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
            let legacy = c.legacy_arg_name(op.op_type, info.name);
            let mut vars: &[&'d str] = input_with_attr_var(op, &legacy).unwrap_or(&[]);
            if vars.is_empty() && info.optional {
                operands.push(None);
                continue;
            }
            if vars.is_empty()
                && info.mutable_attribute
                && c.mutable_candidates(op.op_type, info.name).is_none()
            {
                // Newer op-compat facts register more mutable attributes than
                // the table knows; a legacy attribute there is the value.
                let legacy_attr = c.legacy_attr_name(op.op_type, info.name);
                if has_attr(op, legacy_attr) {
                    let v = self.attribute_as_input(op, def, info.name, dst)?;
                    operands.push(Some(v));
                    continue;
                }
            }
            if vars.is_empty() {
                if let Some(cands) = c.mutable_candidates(op.op_type, info.name) {
                    let found = cands.iter().find_map(|cand| {
                        op.input(cand)
                            .and_then(|_| input_with_attr_var(op, cand))
                            .filter(|v| !v.is_empty())
                    });
                    match found {
                        Some(v) => vars = v,
                        None => {
                            let v = self.attribute_as_input(op, def, info.name, dst)?;
                            operands.push(Some(v));
                            continue;
                        }
                    }
                }
            }
            let int_array = info.mutable_attribute && c.is_int_array_input(def.name, info.name);
            let mut is_vector = is_vector_kind(info.kind) || int_array;
            if let [one] = vars {
                let var = self
                    .var(b, one)
                    .ok_or_else(|| self.var_err(one, "input variable is not declared"))?;
                if var.kind == VarKind::DenseTensorArray {
                    is_vector = false;
                }
            }
            if !is_vector {
                let [one] = vars else {
                    return Err(self.err(format!(
                        "input `{}` ({legacy}) needs one variable, has {}",
                        info.name,
                        vars.len()
                    )));
                };
                operands.push(Some(self.lookup(scope, one)?.value));
            } else {
                operands.push(Some(self.build_combine_vars(dst, scope, vars)?));
            }
        }
        Ok(operands)
    }

    /// A mutable attribute given as a legacy attribute becomes a `full`
    /// (Scalar) or `full_int_array` (IntArray) (`GetAttributeAsInput`).
    pub fn attribute_as_input(
        &mut self,
        op: &OpDesc<'d>,
        def: &'static OpDef,
        input: &str,
        dst: BlockId,
    ) -> Result<ValueId> {
        let legacy = compat().legacy_attr_name(op.op_type, input);
        let Some(value) = op.attr(legacy).filter(|_| has_attr(op, legacy)) else {
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
        op: &OpDesc<'d>,
        def: &'static OpDef,
    ) -> Result<(Vec<Type>, OutputMap<'d>)> {
        let c = compat();
        let mut types = Vec::with_capacity(def.outputs.len());
        let mut map = OutputMap::with_capacity(def.outputs.len());
        for info in def.outputs {
            let idx = types.len();
            let legacy = c.legacy_arg_name(op.op_type, info.name);
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
            if let [one] = vars {
                let var = self
                    .var(b, one)
                    .ok_or_else(|| self.var_err(one, "output variable is not declared"))?;
                if var.kind == VarKind::DenseTensorArray {
                    types.push(self.var_type(b, one)?);
                    map.push((one, idx, 0));
                    continue;
                }
            }
            if !is_vector_kind(info.kind) {
                match vars.first() {
                    None => types.push(Type::NULL),
                    Some(v) => {
                        types.push(self.var_type(b, v)?);
                        map.push((v, idx, 0));
                    }
                }
            } else {
                let mut elems = Vec::with_capacity(vars.len());
                for (i, v) in vars.iter().enumerate() {
                    if *v == EMPTY_VAR {
                        elems.push(Type::NULL);
                    } else {
                        elems.push(self.var_type(b, v)?);
                    }
                    map.push((v, idx, i));
                }
                types.push(super::values::vector_type(&self.ctx, &elems));
            }
        }
        Ok((types, map))
    }

    pub fn general_attrs(
        &self,
        op: &OpDesc<'d>,
        def: &'static OpDef,
        hooks: &Hooks,
    ) -> Result<AttrMap<'d>> {
        let c = compat();
        // The outputs' flags follow.
        let mut map = AttrMap::with_capacity(def.attributes.len() + 2);
        let defaults = missing_attr_defaults(op.op_type);
        for spec in def.attributes {
            if let Some(special) = hooks.attr {
                if let Some(a) = special(self, op, spec.name)? {
                    map.set(spec.name, a);
                    continue;
                }
            }
            let legacy = c.legacy_attr_name(op.op_type, spec.name);
            let value = op.attr(legacy);
            if matches!(value, Some(v) if !matches!(v, AttrValue::Var(_) | AttrValue::Vars(_))) {
                map.set(spec.name, attrs::translate(&self.ctx, spec.kind, value));
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
    pub fn record_outputs(&mut self, scope: ScopeId, op: OpId, outputs: &OutputMap<'d>) {
        for &(name, idx, vec_idx) in outputs {
            let value = self.program.result(op, idx);
            let by_vector = super::values::is_vector(&self.ctx, self.ty(value));
            self.scopes.push(
                scope,
                name,
                VarInfo {
                    value,
                    by_vector,
                    index: if by_vector { vec_idx as i32 } else { -1 },
                },
            );
        }
    }
}

/// A per-op input handler: `Some(operand)` to take over input `name`.
pub type InputHook = for<'t> fn(
    &mut Translator<'t>,
    usize,
    &OpDesc<'t>,
    ScopeId,
    BlockId,
    &str,
) -> Result<Option<Option<ValueId>>>;
/// A per-op attribute handler: `Some(attr)` to take over attribute `name`.
pub type AttrHook =
    for<'t> fn(&Translator<'t>, &OpDesc<'t>, &str) -> Result<Option<pir_core::Attribute>>;

/// Variations of the general path.
#[derive(Default, Clone, Copy)]
pub struct Hooks {
    /// Input handler.
    pub input: Option<InputHook>,
    /// Attribute handler.
    pub attr: Option<AttrHook>,
}

/// The attribute list Paddle's writer and reader leave an op with, into
/// `out`: a `pd_op` op with a definition keeps its declared attributes in
/// declaration order (others are dropped); every other op keeps all, in its
/// map's order; `stop_gradient`/`persistable` follow in the map's order.
pub(super) fn final_attrs<'d>(
    t: &mut Translator<'d>,
    writer: Writer,
    map: &AttrMap<'d>,
    out: &mut Vec<(Symbol, Attribute)>,
) {
    let is_output = |k: &str| k == "stop_gradient" || k == "persistable";
    let ctx = t.ctx.clone();
    match writer {
        Writer::Parameter => {
            let k = &t.k;
            let flag = |name: &str, default: bool| {
                map.get(name)
                    .unwrap_or(if default { k.true1 } else { k.false1 })
            };
            let s = |name: &str| k.symbol(&ctx, name);
            out.push((s("is_distributed"), flag("is_distributed", false)));
            out.push((s("is_parameter"), flag("is_parameter", true)));
            out.push((s("need_clip"), flag("need_clip", false)));
            if let Some(n) = map.get("parameter_name") {
                out.push((s("parameter_name"), n));
            }
            out.push((s("persistable"), flag("persistable", true)));
            out.push((s("stop_gradient"), flag("stop_gradient", true)));
            out.push((s("trainable"), flag("trainable", true)));
        }
        Writer::Declared(d) => {
            for spec in d.attributes {
                if let Some(a) = map.get(spec.name) {
                    out.push((t.k.symbol(&ctx, spec.name), a));
                }
            }
            let flags: Vec<(&str, Attribute)> = map
                .entries()
                .iter()
                .copied()
                .filter(|(k, _)| is_output(k))
                .collect();
            match flags.as_slice() {
                [] => {}
                [(k, a)] => out.push((t.k.symbol(&ctx, k), *a)),
                _ => {
                    let keys: Vec<&'d str> = map.keys().collect();
                    let order = t.order_of(&keys).to_vec();
                    for i in order {
                        let (k, a) = map.entries()[i];
                        if is_output(k) {
                            out.push((t.k.symbol(&ctx, k), a));
                        }
                    }
                }
            }
        }
        Writer::Generic => {
            let keys: Vec<&'d str> = map.keys().collect();
            let order = t.order_of(&keys).to_vec();
            for i in order {
                let (k, a) = map.entries()[i];
                if k != "op_callstack" {
                    out.push((t.k.symbol(&ctx, k), a));
                }
            }
        }
    }
}

/// `stop_gradient: [true, ...]` as Paddle's op builders set it.
pub fn stop_gradient_all(ctx: &pir_core::IrContext, n: usize) -> pir_core::Attribute {
    attrs::bool_array(ctx, &vec![true; n])
}
