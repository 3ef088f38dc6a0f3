//! The path most legacy ops take (Paddle's `OpTranscriber`): the target op
//! is `pd_op.<compat name>` (with `_` when the op writes one of its inputs),
//! and its definition drives everything — each input found under its legacy
//! name (mutable attributes from a tensor input or as a `full` /
//! `full_int_array` made from the legacy attribute, lists through
//! `builtin.combine`), each output typed from its variable, each attribute
//! translated by its declared kind.

use std::sync::Arc;

use pir_core::{Attribute, BlockId, InsertPoint, OpId, Type, ValueId};
use pir_dialects::op_def::{AttrKind, OpDef, ValueKind};
use pir_dialects::value_kinds;

use super::attrs::{self, AttrMap};
use super::plan::{InputPlan, Plan, SlotHint};
use super::values::{Declared, ScopeId, VarInfo};
use super::{OpSite, Translator};
use crate::compat::compat;
use crate::desc::{name_eq, AttrValue, OpDesc, VarKind};
use crate::error::Result;
use crate::inline::InlineVec;

const EMPTY_VAR: &str = "@EMPTY@";

/// Where each output variable lands.
pub type OutputMap<'d> = InlineVec<Landing<'d>, 2>;

/// Where an output variable lands (as small as the variable, result and
/// element it replaced: op lists of these are moved a few times).
#[derive(Debug, Clone, Copy)]
pub struct Landing<'d> {
    /// The variable.
    pub name: &'d str,
    /// The result.
    result: u32,
    /// The index in the result, when it is a vector.
    elem: u32,
    /// The variable's index among the top block's, when it was found
    /// declared there ([`NOT_TOP`] otherwise or when not looked up).
    top: u32,
    /// Whether the result is a vector, when known from its type's making.
    vector: Option<bool>,
}

/// [`Landing::top`] of a variable not known to be the top block's.
const NOT_TOP: u32 = u32::MAX;

impl<'d> Landing<'d> {
    /// Variable `name` is result `result` (not looked up).
    pub fn result(name: &'d str, result: usize) -> Self {
        Landing::at(name, result, 0, None, None)
    }

    /// Variable `name` is element `elem` of result `result`, found declared
    /// at `declared` and the result a vector or not (`vector`), when known.
    fn at(
        name: &'d str,
        result: usize,
        elem: usize,
        declared: Option<Declared>,
        vector: Option<bool>,
    ) -> Self {
        // Results and elements number at most an op's arguments.
        let small = |n: usize| u32::try_from(n).unwrap_or(NOT_TOP);
        let top = match declared {
            Some((0, i)) => small(i),
            _ => NOT_TOP,
        };
        Landing {
            name,
            result: small(result),
            elem: small(elem),
            top,
            vector,
        }
    }

    /// Where the variable was found declared, when in the top block.
    fn declared(&self) -> Option<Declared> {
        (self.top != NOT_TOP).then_some((0, self.top as usize))
    }
}
/// Operands of an op being made.
pub type Operands = InlineVec<Option<ValueId>, 6>;
/// Result types of an op being made.
pub type Types = InlineVec<Type, 4>;

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
    // Which name lengths the inputs have (modulo 64): an output of a length
    // no input has is read by none, without comparing it to each. Ops read
    // a few names; past `MAX_PAIRWISE` a set of them answers. Loops over
    // the slices, not chained iterators: this runs for every op.
    const MAX_PAIRWISE: usize = 16;
    let mut lengths = 0u64;
    let mut reads = 0usize;
    for slot in op.inputs() {
        let args = slot.args;
        reads += args.len();
        for name in args {
            lengths |= 1 << (name.len() % 64);
        }
    }
    if reads > MAX_PAIRWISE {
        return shares_name(op.input_arg_names(), op.output_arg_names());
    }
    for slot in op.outputs() {
        for o in slot.args {
            if lengths & 1 << (o.len() % 64) == 0 {
                continue;
            }
            for read in op.inputs() {
                if read.args.iter().any(|i| name_eq(i, o)) {
                    return true;
                }
            }
        }
    }
    false
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
    if !op.has_var_attrs {
        return op.input(name);
    }
    match op.attr(name) {
        Some(AttrValue::Vars(v)) => Some(v),
        Some(AttrValue::Var(v)) => Some(std::slice::from_ref(v)),
        _ => op.input(name),
    }
}

/// [`input_with_attr_var`] with the input slot looked for first where
/// `hint` says ops of the type had it.
fn input_with_attr_var_at<'o, 'd>(
    op: &'o OpDesc<'d>,
    name: &str,
    hint: &SlotHint,
) -> Option<&'o [&'d str]> {
    if !op.has_var_attrs {
        return hint.find(op.inputs(), name);
    }
    input_with_attr_var(op, name)
}

/// The arguments of the first of `cands` (legacy inputs that may carry a
/// mutable attribute) that the op has as a non-empty input. Out of line:
/// few ops look for them.
#[inline(never)]
fn candidate_input<'o, 'd>(op: &'o OpDesc<'d>, cands: &[&str]) -> Option<&'o [&'d str]> {
    cands.iter().find_map(|cand| {
        let args = op.input(cand)?;
        // The slot found is the answer unless an attribute may hold
        // variables (rare): no second look for it.
        let args = match op.has_var_attrs {
            false => args,
            true => input_with_attr_var(op, cand)?,
        };
        Some(args).filter(|v| !v.is_empty())
    })
}

/// Whether the legacy op has attribute `name` as a plain value.
pub fn has_attr(op: &OpDesc<'_>, name: &str) -> bool {
    op.attr(name).is_some_and(is_plain)
}

/// Whether a legacy attribute value is a plain value (not variables).
fn is_plain(v: &AttrValue<'_>) -> bool {
    !matches!(v, AttrValue::Var(_) | AttrValue::Vars(_))
}

/// A `pd_op` definition by full name.
pub fn def(name: &str) -> Option<&'static OpDef> {
    super::memo::def(name)
}

fn is_vector_kind(kind: ValueKind) -> bool {
    matches!(
        kind,
        ValueKind::VectorDenseTensor
            | ValueKind::VectorSelectedRows
            | ValueKind::VectorDenseTensorArray
    )
}

impl<'d> Translator<'d> {
    /// The plan of `op`'s type into `def` (see [`Translator::plan_of`]).
    pub fn plan(&self, op: &OpDesc<'d>, def: &'static OpDef) -> Arc<Plan> {
        self.plan_of(op.op_type, def)
    }

    /// Translates `op` the general way; `Unsupported` when no `pd_op` op fits.
    pub fn translate_general(&mut self, site: OpSite<'_, 'd>) -> Result<OpId> {
        let op = site.op;
        let found = self.target_plan(op.op_type, is_inplace(op));
        let Some((_, plan)) = found.filter(|(d, _)| d.has_yaml_info) else {
            let name = target_name(op);
            return Err(self.unsupported(op.op_type, format!("no op `{name}` in Paddle 3.3.1")));
        };
        self.general_with(site, &plan, &Hooks::default())
    }

    /// The general translation into `plan`'s definition, with per-op
    /// variations.
    pub fn general_with(
        &mut self,
        site: OpSite<'_, 'd>,
        plan: &Plan,
        hooks: &Hooks,
    ) -> Result<OpId> {
        let OpSite { op, scope, dst, .. } = site;
        self.slice_vector_inputs(op, scope, dst)?;
        // The lists are filled in place rather than returned: each op of
        // the general path would otherwise copy them on the way.
        let mut operands = Operands::with_capacity(plan.def.inputs.len());
        self.push_general_inputs(site, plan, hooks, &mut operands)?;
        self.check_operand_kinds(op, plan.def, &operands)?;
        let n = plan.def.outputs.len();
        let mut results = (Types::with_capacity(n), OutputMap::with_capacity(n));
        self.push_general_outputs(site, plan, &mut results)?;
        let mut attrs = general_attr_map(plan);
        self.push_general_attrs(op, plan, hooks, &mut attrs)?;
        Ok(self.create_with_outputs(site, plan.name, &operands, &results, attrs))
    }

    /// Creates op `name` at the end of the site's block with `operands` and
    /// `attrs`, its result types and where each output variable lands given
    /// by `results` ([`Translator::general_outputs`]), and binds those
    /// variables to its results. Inlined and given the results by
    /// reference: every op of the general path passes through it, and the
    /// lists would otherwise be copied on the way.
    #[inline]
    pub fn create_with_outputs(
        &mut self,
        site: OpSite<'_, 'd>,
        name: &'static str,
        operands: &[Option<ValueId>],
        results: &(Types, OutputMap<'d>),
        attrs: AttrMap<'d>,
    ) -> OpId {
        let (types, outputs) = results;
        let new = self.create_op(
            InsertPoint::BlockEnd(site.dst),
            name,
            operands,
            types,
            attrs,
            0,
        );
        self.record_outputs(site.scope, new, outputs);
        new
    }

    /// Paddle builds the op with its signature checked (`VerifySig`): an
    /// operand of another kind than the definition declares (a tensor array
    /// where `beam_search_decode` takes a dense tensor) fails there.
    fn check_operand_kinds(
        &self,
        op: &OpDesc<'d>,
        def: &'static OpDef,
        operands: &[Option<ValueId>],
    ) -> Result<()> {
        for (i, (input, v)) in def.inputs.iter().zip(operands).enumerate() {
            let Some(v) = *v else { continue };
            let ty = self.program.value_type(v);
            let fits = self.memo.borrow_mut().fits.fits(
                &self.ctx,
                ty,
                input.kind,
                input.mutable_attribute,
            );
            if !fits {
                return Err(self.unsupported(
                    op.op_type,
                    format!(
                        "`{}` takes {} as operand {i} (`{}`), the legacy op gives {}",
                        def.name,
                        value_kinds::describe(input.kind),
                        input.name,
                        self.ctx.type_data(ty).kind_name()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Every input variable bound to an element of a vector gets a
    /// `builtin.slice` first (`InsertSliceOperationForInput`). Most
    /// programs bind no name to an element: that is checked inline, the
    /// slicing left out of line.
    #[inline]
    pub fn slice_vector_inputs(
        &mut self,
        op: &OpDesc<'d>,
        scope: ScopeId,
        dst: BlockId,
    ) -> Result<()> {
        if !self.scopes.any_by_vector() {
            return Ok(());
        }
        self.slice_bound_elements(op, scope, dst)
    }

    /// [`Translator::slice_vector_inputs`] once some name is bound to an
    /// element of a vector.
    #[inline(never)]
    fn slice_bound_elements(
        &mut self,
        op: &OpDesc<'d>,
        scope: ScopeId,
        dst: BlockId,
    ) -> Result<()> {
        for name in op.input_arg_names() {
            if !self.scopes.may_be_by_vector(name) {
                continue;
            }
            if let Some(info) = self.scopes.get(scope, name) {
                if info.by_vector {
                    let v = self.build_slice(dst, InsertPoint::BlockEnd(dst), info)?;
                    self.scopes.push(scope, name, VarInfo::plain(v));
                }
            }
        }
        Ok(())
    }

    /// The operands of the general translation into `plan`'s definition.
    pub fn general_inputs(
        &mut self,
        site: OpSite<'_, 'd>,
        plan: &Plan,
        hooks: &Hooks,
    ) -> Result<Operands> {
        let mut operands = Operands::with_capacity(plan.def.inputs.len());
        self.push_general_inputs(site, plan, hooks, &mut operands)?;
        Ok(operands)
    }

    /// [`Translator::general_inputs`] appended to `operands`.
    fn push_general_inputs(
        &mut self,
        site: OpSite<'_, 'd>,
        plan: &Plan,
        hooks: &Hooks,
        operands: &mut Operands,
    ) -> Result<()> {
        let OpSite { b, op, scope, dst } = site;
        for (info, p) in plan.def.inputs.iter().zip(&plan.inputs) {
            if let Some((_, special)) = hooks.input.filter(|(n, _)| *n == info.name) {
                if let Some(v) = special(self, site)? {
                    operands.push(v);
                    continue;
                }
            }
            let legacy = &*p.legacy;
            let mut vars: &[&'d str] = input_with_attr_var_at(op, legacy, &p.slot).unwrap_or(&[]);
            if vars.is_empty() && info.optional {
                operands.push(None);
                continue;
            }
            if vars.is_empty() && info.mutable_attribute && p.candidates.is_none() {
                // Newer op-compat facts register more mutable attributes than
                // the table knows; a legacy attribute there is the value.
                if has_attr(op, p.legacy_attr) {
                    let v = self.attribute_as_input(op, p, dst)?;
                    operands.push(Some(v));
                    continue;
                }
            }
            if vars.is_empty() {
                if let Some(cands) = p.candidates {
                    match candidate_input(op, cands) {
                        Some(v) => vars = v,
                        None => {
                            let v = self.attribute_as_input(op, p, dst)?;
                            operands.push(Some(v));
                            continue;
                        }
                    }
                }
            }
            let mut is_vector = is_vector_kind(info.kind) || p.int_array;
            if let [one] = vars {
                let (vb, vi) = self
                    .find_var_pos(b, one)
                    .ok_or_else(|| self.var_err(one, "input variable is not declared"))?;
                if self.desc.blocks[vb].vars[vi].kind == VarKind::DenseTensorArray {
                    is_vector = false;
                }
                if !is_vector {
                    let found = self.lookup_declared(scope, one, Some((vb, vi)))?;
                    operands.push(Some(found.value));
                    continue;
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
        Ok(())
    }

    /// A mutable attribute given as a legacy attribute becomes a `full`
    /// (Scalar) or `full_int_array` (IntArray) (`GetAttributeAsInput`), by
    /// the op-compat facts of input plan `p`.
    fn attribute_as_input(
        &mut self,
        op: &OpDesc<'d>,
        p: &InputPlan,
        dst: BlockId,
    ) -> Result<ValueId> {
        let legacy = p.legacy_attr;
        let Some(value) = op.attr(legacy).filter(|v| is_plain(v)) else {
            return Err(self.err(format!("attribute `{legacy}` is missing")));
        };
        self.value_as_input(dst, legacy, value, p.int_array_input)
    }

    /// Result types from the output variables (`GenerateOperationOutput`).
    pub fn general_outputs(
        &self,
        site: OpSite<'_, 'd>,
        plan: &Plan,
    ) -> Result<(Types, OutputMap<'d>)> {
        let n = plan.def.outputs.len();
        let mut results = (Types::with_capacity(n), OutputMap::with_capacity(n));
        self.push_general_outputs(site, plan, &mut results)?;
        Ok(results)
    }

    /// [`Translator::general_outputs`] appended to `results`.
    fn push_general_outputs(
        &self,
        site: OpSite<'_, 'd>,
        plan: &Plan,
        results: &mut (Types, OutputMap<'d>),
    ) -> Result<()> {
        let OpSite { b, op, .. } = site;
        let (types, map) = results;
        for (info, (legacy, slot)) in plan.def.outputs.iter().zip(&plan.outputs) {
            let idx = types.len();
            let Some(vars) = slot.find(op.outputs(), legacy) else {
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
                let (vb, vi) = self
                    .find_var_pos(b, one)
                    .ok_or_else(|| self.var_err(one, "output variable is not declared"))?;
                let is_array = self.desc.blocks[vb].vars[vi].kind == VarKind::DenseTensorArray;
                if is_array || !is_vector_kind(info.kind) {
                    let ty = self
                        .var_type_at(vb, vi)
                        .map_err(|e| self.var_err(one, e.to_string()))?;
                    types.push(ty);
                    // A variable's type is never a vector.
                    map.push(Landing::at(one, idx, 0, Some((vb, vi)), Some(false)));
                    continue;
                }
            }
            if !is_vector_kind(info.kind) {
                match vars.first() {
                    None => types.push(Type::NULL),
                    Some(v) => {
                        types.push(self.var_type(b, v)?);
                        map.push(Landing::at(v, idx, 0, None, Some(false)));
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
                    map.push(Landing::at(v, idx, i, None, Some(true)));
                }
                types.push(super::values::vector_type(&self.ctx, &elems));
            }
        }
        Ok(())
    }

    /// The attributes of the general translation into `def`.
    pub fn general_attrs(
        &self,
        op: &OpDesc<'d>,
        plan: &Plan,
        hooks: &Hooks,
    ) -> Result<AttrMap<'d>> {
        let mut map = general_attr_map(plan);
        self.push_general_attrs(op, plan, hooks, &mut map)?;
        Ok(map)
    }

    /// [`Translator::general_attrs`] appended to `map`.
    fn push_general_attrs(
        &self,
        op: &OpDesc<'d>,
        plan: &Plan,
        hooks: &Hooks,
        map: &mut AttrMap<'d>,
    ) -> Result<()> {
        let def = plan.def;
        // Made before for equal attribute bytes (a hook may read more than
        // the attributes: those ops are translated each time). Even one
        // declared attribute costs less found by the numbered look-up than
        // translated through the memo of values.
        let bytes = op
            .attr_bytes()
            .filter(|_| hooks.attr.is_none() && !plan.specs.is_empty());
        if let Some(bytes) = bytes {
            let seq = self.lookups.next_attrs();
            let mut memo = self.memo.borrow_mut();
            if let Some(values) = memo.general_attrs(seq, def, op.op_type, bytes) {
                for (&(name, _), &a) in plan.specs.iter().zip(values) {
                    map.push_new(name, a);
                }
                return Ok(());
            }
        }
        let defaults = plan.defaults;
        // Paddle creates the op with its signature checked (`VerifySig`): a
        // declared attribute the legacy op cannot give (a 2.x op without an
        // attribute 3.x added, e.g. `round`'s `decimals`) fails there. Each
        // declared attribute gets one entry at most, so the first without a
        // value is known on the way (the failure is still reported after
        // the other attributes, as before).
        let mut lacking = None;
        for (&(name, kind), &legacy) in plan.specs.iter().zip(&plan.attrs) {
            let attr = 'attr: {
                if let Some((_, special)) = hooks.attr.filter(|(n, _)| *n == name) {
                    if let Some(a) = special(self, op)? {
                        break 'attr Some(a);
                    }
                }
                // Each declared attribute once: no need to look for it first.
                let value = op.attr(legacy);
                if matches!(value, Some(v) if !matches!(v, AttrValue::Var(_) | AttrValue::Vars(_)))
                {
                    break 'attr Some(self.declared_attr(kind, value));
                }
                match defaults {
                    Some(table) => table
                        .iter()
                        .find(|(n, _)| crate::desc::name_eq(n, name))
                        .map(|(_, d)| d.attr(&self.ctx)),
                    None => Some(self.declared_attr(kind, None)),
                }
            };
            match attr {
                Some(a) if !a.is_null() => map.push_new(name, a),
                _ => {
                    lacking.get_or_insert(name);
                }
            }
        }
        if let Some(name) = lacking {
            return Err(self.unsupported(
                op.op_type,
                format!(
                    "`{}` needs attribute `{name}`, which the legacy op lacks",
                    def.name
                ),
            ));
        }
        if let Some(bytes) = bytes {
            let values = map.entries().iter().map(|&(_, a)| a);
            self.memo
                .borrow_mut()
                .keep_general_attrs(def, op.op_type, bytes, values);
        }
        Ok(())
    }

    /// [`attrs::translate`] of a declared attribute, remembered in the
    /// context's memo.
    pub(super) fn declared_attr(&self, kind: AttrKind, value: Option<&AttrValue<'_>>) -> Attribute {
        self.memo
            .borrow_mut()
            .attr(kind, value, || attrs::translate(&self.ctx, kind, value))
    }

    /// Binds each output variable to its result (`RecordOpResultMapping`).
    pub fn record_outputs(&mut self, scope: ScopeId, op: OpId, outputs: &[Landing<'d>]) {
        for out in outputs {
            let value = self.program.result(op, out.result as usize);
            let by_vector = out
                .vector
                .unwrap_or_else(|| super::values::is_vector(&self.ctx, self.ty(value)));
            self.scopes.push_declared(
                scope,
                out.name,
                out.declared(),
                VarInfo {
                    value,
                    by_vector,
                    index: if by_vector { out.elem as i32 } else { -1 },
                },
            );
        }
    }
}

/// An empty map with room for the declared attributes of `plan`'s
/// definition and the result flags (set at the end).
fn general_attr_map<'d>(plan: &Plan) -> AttrMap<'d> {
    AttrMap::with_capacity(plan.def.attributes.len() + super::FLAGS.len())
}

/// A per-op input handler: `Some(operand)` to take over its input.
pub type InputHook =
    for<'t> fn(&mut Translator<'t>, OpSite<'_, 't>) -> Result<Option<Option<ValueId>>>;
/// A per-op attribute handler: `Some(attr)` to take over its attribute.
pub type AttrHook = for<'t> fn(&Translator<'t>, &OpDesc<'t>) -> Result<Option<pir_core::Attribute>>;

/// Variations of the general path: a handler for one input or one
/// attribute of the definition, named.
#[derive(Default, Clone, Copy)]
pub struct Hooks {
    /// Input handler, with the input it handles.
    pub input: Option<(&'static str, InputHook)>,
    /// Attribute handler, with the attribute it handles.
    pub attr: Option<(&'static str, AttrHook)>,
}

impl Hooks {
    /// A handler of input `name`.
    pub fn input(name: &'static str, hook: InputHook) -> Hooks {
        Hooks {
            input: Some((name, hook)),
            attr: None,
        }
    }

    /// A handler of attribute `name`.
    pub fn attr(name: &'static str, hook: AttrHook) -> Hooks {
        Hooks {
            input: None,
            attr: Some((name, hook)),
        }
    }
}

#[cfg(test)]
#[path = "general_tests.rs"]
mod tests;
