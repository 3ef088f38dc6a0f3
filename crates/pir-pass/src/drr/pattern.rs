//! A rule as a [`RewritePattern`]: matching from the anchor through
//! operands, the safety checks, and the rewrite.

use std::sync::Arc;

use pir_core::{Attribute, InsertPoint, IrContext, OpId, Program, Type, ValueId};
use pir_dialects::op_def::{AttrKind, DefaultValue, ElementKind, OpDef};

use super::eval::{self, attr_text, attr_val, equal, Bindings, Val};
use super::{Expr, ResultStmt, Rule, SourceOperand};
use crate::alias::alias_class;
use crate::rewrite::{RewritePattern, Rewriter, Root};

/// A compiled rule.
pub struct DrrPattern {
    rule: Arc<Rule>,
    /// For each source op, which earlier op defines each named operand
    /// (`(op index, result index)`), or `None` for inputs and `_`.
    producers: Vec<Vec<Option<(usize, usize)>>>,
    /// Source tensor names the result defines again (replaced).
    replaced: Vec<String>,
}

/// Compiles a checked rule (from [`super::RuleSet::parse`]).
pub fn compile(rule: Arc<Rule>) -> DrrPattern {
    let producers = rule
        .pattern
        .iter()
        .enumerate()
        .map(|(i, op)| {
            op.operands
                .iter()
                .map(|operand| {
                    let name = operand.name()?;
                    rule.pattern[..i].iter().enumerate().find_map(|(j, def)| {
                        def.results
                            .iter()
                            .position(|r| r.as_deref() == Some(name))
                            .map(|k| (j, k))
                    })
                })
                .collect()
        })
        .collect();
    let source_names: Vec<&str> = rule
        .pattern
        .iter()
        .flat_map(|op| op.results.iter().flatten().map(String::as_str))
        .collect();
    let mut replaced = Vec::new();
    for stmt in &rule.result {
        let names: Vec<&String> = match stmt {
            ResultStmt::Op(op) => op.results.iter().collect(),
            ResultStmt::Alias { name, .. } => vec![name],
        };
        for n in names {
            if source_names.contains(&n.as_str()) && !replaced.contains(n) {
                replaced.push(n.clone());
            }
        }
    }
    DrrPattern {
        rule,
        producers,
        replaced,
    }
}

/// What a match bound (names borrowed from the rule, not the program, so
/// the rewrite can edit the program while reading them).
struct Match<'a> {
    ops: Vec<Option<OpId>>,
    tensors: Vec<(&'a str, ValueId)>,
    vars: Vec<(&'a str, Attribute)>,
    /// Attributes to compare once everything is bound: `(op, name, expr)`.
    deferred: Vec<(OpId, &'a str, &'a Expr)>,
    /// The ops from the first matched op to the anchor, found once by the
    /// checks and used again to place the result ops.
    placement: Option<Placement>,
}

impl<'a> Match<'a> {
    fn tensor(&self, name: &str) -> Option<ValueId> {
        self.tensors
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }

    fn var(&self, name: &str) -> Option<Attribute> {
        self.vars.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
    }

    fn bind_tensor(&mut self, name: &'a str, v: ValueId) -> bool {
        match self.tensor(name) {
            Some(bound) => bound == v,
            None => {
                self.tensors.push((name, v));
                true
            }
        }
    }
}

impl DrrPattern {
    /// The rule.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }

    fn match_op<'a>(
        &'a self,
        p: &Program,
        m: &mut Match<'a>,
        index: usize,
        op: OpId,
        block: Option<pir_core::BlockId>,
    ) -> bool {
        if let Some(bound) = m.ops[index] {
            return bound == op;
        }
        let pat = &self.rule.pattern[index];
        if p.op_name_str(op) != pat.op
            || p.op_parent_block(op) != block
            || p.num_operands(op) != pat.operands.len()
            || (!pat.results.is_empty() && p.num_results(op) != pat.results.len())
            || m.ops.contains(&Some(op))
        {
            return false;
        }
        m.ops[index] = Some(op);
        for (i, name) in pat.results.iter().enumerate() {
            if let Some(name) = name {
                if !m.bind_tensor(name, p.result(op, i)) {
                    return false;
                }
            }
        }
        for (name, expr) in &pat.attrs {
            let Some(attr) = p.attr(op, name) else {
                return false;
            };
            match expr {
                Expr::Var(var) => match m.var(var) {
                    Some(bound) if bound != attr => {
                        if !equal(&attr_val(p.ctx(), bound), &attr_val(p.ctx(), attr)) {
                            return false;
                        }
                    }
                    Some(_) => {}
                    None => m.vars.push((var.as_str(), attr)),
                },
                _ => m.deferred.push((op, name.as_str(), expr)),
            }
        }
        for (i, operand) in pat.operands.iter().enumerate() {
            let name = match operand {
                SourceOperand::Any => continue,
                SourceOperand::Absent if p.operand(op, i).is_none() => continue,
                SourceOperand::Absent => return false,
                SourceOperand::Tensor(name) => name,
            };
            let Some(value) = p.operand(op, i) else {
                return false;
            };
            match self.producers[index][i] {
                Some((def_index, result_index)) => {
                    let Some(def) = p.defining_op(value) else {
                        return false;
                    };
                    if p.result(def, result_index) != value
                        && p.results(def).position(|r| r == value) != Some(result_index)
                    {
                        return false;
                    }
                    if !self.match_op(p, m, def_index, def, block) {
                        return false;
                    }
                }
                None => {
                    if !m.bind_tensor(name, value) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Matches at `anchor` and checks the rule may fire there.
    fn find<'a>(&'a self, p: &Program, anchor: OpId) -> Option<Match<'a>> {
        let n = self.rule.pattern.len();
        let mut m = Match {
            ops: vec![None; n],
            tensors: Vec::new(),
            vars: Vec::new(),
            deferred: Vec::new(),
            placement: None,
        };
        if !self.match_op(p, &mut m, n - 1, anchor, p.op_parent_block(anchor)) {
            return None;
        }
        let ops: Vec<OpId> = m.ops.iter().copied().collect::<Option<_>>()?;
        // In-place ops write their inputs and views share them: moving,
        // dropping or replacing them is unsafe.
        if ops.iter().any(|&o| {
            pir_dialects::op_def(p.op_name_str(o))
                .is_some_and(|d| !d.inplace.is_empty() || !d.view.is_empty())
        }) {
            return None;
        }
        // A source result the rule does not replace dies with its op: it
        // must have no users outside the match.
        let replaced: Vec<ValueId> = self.replaced.iter().filter_map(|n| m.tensor(n)).collect();
        for &o in &ops {
            for r in p.results(o) {
                if replaced.contains(&r) {
                    continue;
                }
                if p.uses(r).any(|u| !ops.contains(&p.operand_owner(u))) {
                    return None;
                }
            }
        }
        // The result ops read the pattern's inputs somewhere between the
        // first matched op and the anchor instead of where the matched ops
        // did: no op in that stretch may write them.
        let inputs = m
            .tensors
            .iter()
            .map(|&(_, v)| v)
            .filter(|&v| p.defining_op(v).is_none_or(|d| !ops.contains(&d)));
        let placement = Placement::new(p, &ops, anchor)?;
        for x in inputs {
            if written_within(p, x, &placement.span, &ops) {
                return None;
            }
        }
        m.placement = Some(placement);
        // `%r = %x` forwards a value: only where no reader could tell.
        for stmt in &self.rule.result {
            if let ResultStmt::Alias { name, value } = stmt {
                if let (Some(r), Some(x)) = (m.tensor(name), m.tensor(value)) {
                    if !crate::transforms::canonicalize::may_forward(p, x, r) {
                        return None;
                    }
                }
            }
        }
        let view = Building {
            source: &m,
            program: p,
            created: &[],
        };
        for &(op, name, expr) in &m.deferred {
            let attr = p.attr(op, name)?;
            let want = eval::eval(expr, &view).ok()?;
            if !equal(&attr_val(p.ctx(), attr), &want) {
                return None;
            }
        }
        for c in &self.rule.constraints {
            if eval::eval(c, &view).ok()? != Val::Bool(true) {
                return None;
            }
        }
        Some(m)
    }
}

/// The attribute `name` of a new `op` holding `v`, of the kind its
/// definition gives.
fn make_attr(
    ctx: &Arc<IrContext>,
    op: &str,
    def: Option<&OpDef>,
    name: &str,
    v: &Val,
) -> Option<Attribute> {
    if let Val::Attr(a) = v {
        return Some(*a);
    }
    let kind = def.and_then(|d| d.attribute(name)).map(|s| s.kind);
    let quote = matches!(
        kind,
        None | Some(AttrKind::Str | AttrKind::Array(Some(ElementKind::Str)))
    );
    let text = attr_text(v, quote)?;
    pir_core::parser::parse_attribute(ctx, op, name, &text).ok()
}

fn default_val(d: &DefaultValue) -> Option<Val> {
    Some(match *d {
        DefaultValue::Bool(b) => Val::Bool(b),
        DefaultValue::Int(i) => Val::Int(i),
        DefaultValue::Float(f) => Val::Float(f),
        DefaultValue::Str(s) => Val::Str(s.to_owned()),
        DefaultValue::IntList(l) => Val::List(l.iter().map(|&i| Val::Int(i)).collect()),
        DefaultValue::FloatList(l) => Val::List(l.iter().map(|&f| Val::Float(f)).collect()),
        DefaultValue::BoolList(l) => Val::List(l.iter().map(|&b| Val::Bool(b)).collect()),
        DefaultValue::StrList(l) => Val::List(l.iter().map(|&s| Val::Str(s.to_owned())).collect()),
        DefaultValue::Place(..) => return None,
    })
}

/// Names bound while the result is built: source tensors, then the result's own.
struct Building<'m, 'a> {
    source: &'m Match<'a>,
    program: &'m Program,
    created: &'m [(String, ValueId)],
}

impl Bindings for Building<'_, '_> {
    fn program(&self) -> &Program {
        self.program
    }
    fn tensor(&self, name: &str) -> Option<ValueId> {
        self.created
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
            .or_else(|| self.source.tensor(name))
    }
    fn var(&self, name: &str) -> Option<Attribute> {
        self.source.var(name)
    }
}

/// One result op, ready to create.
struct Planned {
    name: pir_core::Symbol,
    operands: Vec<Option<ValueId>>,
    types: Vec<Type>,
    attrs: Vec<(pir_core::Symbol, Attribute)>,
}

impl DrrPattern {
    fn plan(&self, p: &Program, b: &Building<'_, '_>, op: &super::ResultOp) -> Option<Planned> {
        let ctx = p.ctx_arc();
        let def = pir_dialects::op_def(&op.op);
        let operands = op
            .operands
            .iter()
            .map(|o| match o {
                Some(n) => b.tensor(n).map(Some),
                None => Some(None),
            })
            .collect::<Option<Vec<_>>>()?;
        let types = if op.types.is_empty() {
            op.results
                .iter()
                .map(|n| b.source.tensor(n).map(|v| p.value_type(v)))
                .collect::<Option<Vec<_>>>()?
        } else {
            op.types
                .iter()
                .map(|t| match eval::eval(t, b) {
                    Ok(Val::Type(ty)) => Some(ty),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?
        };
        let mut attrs = Vec::new();
        let given = |name: &str| op.attrs.iter().find(|(k, _)| k == name).map(|(_, e)| e);
        if let Some(def) = def {
            for spec in def.attributes {
                let value = match given(spec.name) {
                    Some(e) => eval::eval(e, b).ok()?,
                    None => default_val(spec.default.as_ref()?)?,
                };
                attrs.push((
                    ctx.symbol(spec.name),
                    make_attr(ctx, &op.op, Some(def), spec.name, &value)?,
                ));
            }
        }
        // Paddle's rule for a built op: its results stop gradients when
        // every operand does (an op without operands: always).
        if !op.attrs.iter().any(|(k, _)| k == "stop_gradient") {
            let flag = operands
                .iter()
                .flatten()
                .all(|&v| super::value_stop_gradient(p, v));
            attrs.push((
                ctx.symbol("stop_gradient"),
                super::stop_gradient_attr(ctx, &vec![flag; types.len()]),
            ));
        }
        for (name, e) in &op.attrs {
            if def.is_some_and(|d| d.attribute(name).is_some()) {
                continue;
            }
            let value = eval::eval(e, b).ok()?;
            attrs.push((ctx.symbol(name), make_attr(ctx, &op.op, def, name, &value)?));
        }
        Some(Planned {
            name: ctx.symbol(&op.op),
            operands,
            types,
            attrs,
        })
    }
}

impl RewritePattern for DrrPattern {
    fn name(&self) -> &str {
        &self.rule.name
    }

    fn root(&self) -> Root {
        match self.rule.pattern.last() {
            Some(op) => Root::op(op.op.clone()),
            None => Root::Any,
        }
    }

    fn benefit(&self) -> u16 {
        self.rule.benefit
    }

    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, anchor: OpId) -> bool {
        let Some(mut m) = self.find(rw.program_ref(), anchor) else {
            return false;
        };
        // Result statements run in order; one whose value cannot be computed
        // undoes the ops created before it, leaving the program as it was.
        let mut created: Vec<(String, ValueId)> = Vec::new();
        let source_ops: Vec<OpId> = m.ops.iter().flatten().copied().collect();
        let replaced_sources: Vec<(String, ValueId)> = self
            .replaced
            .iter()
            .filter_map(|n| m.tensor(n).map(|v| (n.clone(), v)))
            .collect();
        let mut new_ops = Vec::new();
        let Some(mut placement) = m.placement.take() else {
            return false;
        };
        for stmt in &self.rule.result {
            let p = rw.program_ref();
            let b = Building {
                source: &m,
                program: p,
                created: &created,
            };
            match stmt {
                ResultStmt::Alias { name, value } => {
                    let Some(v) = b.tensor(value) else {
                        return rollback(rw, &new_ops);
                    };
                    created.push((name.clone(), v));
                }
                ResultStmt::Op(op) => {
                    let Some(plan) = self.plan(p, &b, op) else {
                        return rollback(rw, &new_ops);
                    };
                    let point = placement.point(p, &plan.operands);
                    let dict = p.ctx().dict(&plan.attrs);
                    let new = rw.create_op_at(point, plan.name, &plan.operands, &plan.types, dict);
                    placement.inserted(point, new);
                    new_ops.push(new);
                    let results: Vec<ValueId> = rw.program_ref().results(new).collect();
                    for (n, v) in op.results.iter().zip(results) {
                        created.push((n.clone(), v));
                    }
                }
            }
        }
        for (name, old) in &replaced_sources {
            if let Some((_, new)) = created.iter().rev().find(|(n, _)| n == name) {
                rw.replace_all_uses(*old, *new);
            }
        }
        erase_dead(rw, source_ops.iter().rev().copied());
        true
    }
}

/// Whether an op of `span` other than `matched` may write `x`'s buffer: an
/// in-place op whose written operand shares it, or — where the stretch
/// holds an op whose writes are not known op by op (regions, unregistered
/// ops) — any write to it anywhere.
fn written_within(p: &Program, x: ValueId, span: &[OpId], matched: &[OpId]) -> bool {
    let class = alias_class(p, x);
    if !class.facts.written {
        return false;
    }
    span.iter().filter(|o| !matched.contains(o)).any(|&o| {
        if p.num_regions(o) > 0 {
            return true;
        }
        let Some(def) = pir_dialects::op_def(p.op_name_str(o)) else {
            return p
                .op_info(o)
                .is_none_or(|i| i.has_trait(pir_core::op_info::traits::INPLACE));
        };
        def.inplace.iter().any(|&(_, input)| {
            def.input_index(input)
                .and_then(|i| p.operand(o, i))
                .is_some_and(|v| class.members.contains(&v))
        })
    })
}

/// Where result ops go, as in Paddle's DRR: before the first matched op,
/// unless an input is defined after it — then right after the last such
/// definition. Only the ops from the first matched op to the anchor can be
/// such definitions (inputs of the pattern precede the ops reading them), so
/// only that stretch of the block is indexed.
struct Placement {
    /// The ops from the first matched op to the anchor, in order.
    span: Vec<OpId>,
    /// Index of the first matched op in `span`.
    first: usize,
}

impl Placement {
    fn new(p: &Program, matched: &[OpId], anchor: OpId) -> Option<Placement> {
        let mut span = vec![anchor];
        let mut missing = matched.iter().filter(|&&o| o != anchor).count();
        let mut cursor = anchor;
        while missing > 0 {
            cursor = p.prev_op(cursor)?;
            if matched.contains(&cursor) {
                missing -= 1;
            }
            span.push(cursor);
        }
        span.reverse();
        Some(Placement { span, first: 0 })
    }

    fn point(&self, p: &Program, operands: &[Option<ValueId>]) -> InsertPoint {
        let last_input = operands
            .iter()
            .flatten()
            .filter_map(|&v| p.defining_op(v))
            .filter_map(|d| self.span.iter().position(|&o| o == d))
            .max();
        match last_input {
            Some(i) if i >= self.first => InsertPoint::After(self.span[i]),
            _ => InsertPoint::Before(self.span[self.first]),
        }
    }

    fn inserted(&mut self, point: InsertPoint, op: OpId) {
        match point {
            InsertPoint::After(prev) => {
                if let Some(i) = self.span.iter().position(|&o| o == prev) {
                    self.span.insert(i + 1, op);
                }
            }
            _ => {
                self.span.insert(self.first, op);
                self.first += 1;
            }
        }
    }
}

/// Erases `ops` that are left without users, then, transitively, the
/// side-effect-free ops that only fed erased ones.
fn erase_dead(rw: &mut Rewriter<'_>, ops: impl Iterator<Item = OpId>) {
    let mut work: Vec<OpId> = Vec::new();
    let erase = |rw: &mut Rewriter<'_>, op: OpId, work: &mut Vec<OpId>| {
        let p = rw.program_ref();
        if p.is_erased(op) || p.results(op).any(|r| !p.use_empty(r)) {
            return;
        }
        let defs: Vec<OpId> = p
            .operands(op)
            .flatten()
            .filter_map(|v| p.defining_op(v))
            .collect();
        if rw.erase_op(op) {
            work.extend(defs);
        }
    };
    for op in ops {
        erase(rw, op, &mut work);
    }
    while let Some(op) = work.pop() {
        let p = rw.program_ref();
        if !p.is_erased(op) && crate::effects::is_pure(p, op) {
            erase(rw, op, &mut work);
        }
    }
}

/// Undoes the ops a failed rewrite created (they have no users yet).
fn rollback(rw: &mut Rewriter<'_>, created: &[OpId]) -> bool {
    for &op in created.iter().rev() {
        rw.erase_op(op);
    }
    false
}
