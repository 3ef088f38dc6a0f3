//! A rule as a [`RewritePattern`]: matching from the anchor through
//! operands, the safety checks, and the rewrite.

use std::sync::{Arc, RwLock, Weak};

use pir_core::{Attribute, IrContext, OpId, Program, Symbol, Type, ValueId};
use pir_dialects::op_def::OpDef;
use rustc_hash::{FxHashMap, FxHashSet};

use super::attr;
use super::check::CheckedRule;
use super::eval::{self, attr_val, equal, Bindings, EvalError, Val};
use super::placement::{Placement, SpanWrites};
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
    /// A source op is in-place or a view: the rule never fires (moving,
    /// dropping or replacing such ops is unsafe).
    never_fires: bool,
    /// Each result statement's op definition (`None` for `%r = %a` and ops
    /// without one).
    result_defs: Vec<Option<&'static OpDef>>,
    /// The op names as symbols of the last context matched in.
    symbols: RwLock<Option<ContextSymbols>>,
}

/// A rule's op names interned in one context: compared as symbols when
/// matching, resolved once per context (a program's context is kept by
/// its ops for as long as they are matched).
#[derive(Clone)]
struct ContextSymbols {
    /// The context (held weakly: its address is not reused while held).
    context: Weak<IrContext>,
    /// Each source op's name.
    source: Arc<[Symbol]>,
    /// Each result statement's op name (`None` for `%r = %a`).
    result: Arc<[Option<Symbol>]>,
}

/// Compiles a checked rule (from [`super::RuleSet::parse`], [`Rule::check`]).
pub fn compile(checked: &CheckedRule) -> DrrPattern {
    let rule = checked.shared();
    // Each name's defining source op, filled in file order: a rule defines
    // names before it reads them, so one pass finds every producer (a map,
    // not a search: a rule may have thousands of ops).
    let mut defined: FxHashMap<&str, (usize, usize)> = FxHashMap::default();
    let mut producers = Vec::with_capacity(rule.pattern.len());
    for (i, op) in rule.pattern.iter().enumerate() {
        producers.push(
            op.operands
                .iter()
                .map(|operand| defined.get(operand.name()?).copied())
                .collect(),
        );
        for (k, r) in op.results.iter().enumerate() {
            if let Some(r) = r {
                defined.entry(r.as_str()).or_insert((i, k));
            }
        }
    }
    let mut replaced = Vec::new();
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    for stmt in &rule.result {
        let names: Vec<&String> = match stmt {
            ResultStmt::Op(op) => op.results.iter().collect(),
            ResultStmt::Alias { name, .. } => vec![name],
        };
        for n in names {
            if defined.contains_key(n.as_str()) && seen.insert(n.as_str()) {
                replaced.push(n.clone());
            }
        }
    }
    let never_fires = rule.pattern.iter().any(|op| {
        pir_dialects::op_def(&op.op).is_some_and(|d| !d.inplace.is_empty() || !d.view.is_empty())
    });
    let result_defs = rule
        .result
        .iter()
        .map(|stmt| match stmt {
            ResultStmt::Op(op) => pir_dialects::op_def(&op.op),
            ResultStmt::Alias { .. } => None,
        })
        .collect();
    DrrPattern {
        rule,
        producers,
        replaced,
        never_fires,
        result_defs,
        symbols: RwLock::new(None),
    }
}

/// What a match bound (names borrowed from the rule, not the program, so
/// the rewrite can edit the program while reading them).
struct Match<'a> {
    /// Each source op's name in the program's context.
    names: Arc<[Symbol]>,
    ops: Vec<Option<OpId>>,
    /// The ops of `ops`, for constant-time membership.
    matched: FxHashSet<OpId>,
    tensors: FxHashMap<&'a str, ValueId>,
    vars: FxHashMap<&'a str, Attribute>,
    /// Attributes to compare once everything is bound: `(op, name, expr)`.
    deferred: Vec<(OpId, &'a str, &'a Expr)>,
    /// The ops from the first matched op to the anchor, found once by the
    /// checks and used again to place the result ops.
    placement: Option<Placement>,
}

impl<'a> Match<'a> {
    fn tensor(&self, name: &str) -> Option<ValueId> {
        self.tensors.get(name).copied()
    }

    fn var(&self, name: &str) -> Option<Attribute> {
        self.vars.get(name).copied()
    }

    fn bind_tensor(&mut self, name: &'a str, v: ValueId) -> bool {
        *self.tensors.entry(name).or_insert(v) == v
    }
}

/// An evaluation's value: `Ok(None)` where it has none on this match (the
/// rule does not fire), `Err` where the rule broke a limit of the language.
fn value(r: Result<Val, EvalError>) -> Result<Option<Val>, String> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(EvalError::NoValue) => Ok(None),
        Err(EvalError::Limit(m)) => Err(m),
    }
}

impl DrrPattern {
    /// The rule.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }

    /// Binds source op `index` to `op` (not bound yet) and checks what the
    /// op alone shows: name, block, counts, distinctness, results and
    /// attributes. Its operands are left to [`DrrPattern::match_from`].
    fn bind_op<'a>(
        &'a self,
        p: &Program,
        m: &mut Match<'a>,
        index: usize,
        op: OpId,
        block: Option<pir_core::BlockId>,
    ) -> bool {
        let pat = &self.rule.pattern[index];
        if p.op_name(op) != m.names[index]
            || p.op_parent_block(op) != block
            || p.num_operands(op) != pat.operands.len()
            || (!pat.results.is_empty() && p.num_results(op) != pat.results.len())
            || !m.matched.insert(op)
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
                    None => {
                        m.vars.insert(var.as_str(), attr);
                    }
                },
                _ => m.deferred.push((op, name.as_str(), expr)),
            }
        }
        true
    }

    /// Matches the pattern's last op at `anchor`, then every source op
    /// through operands, depth first. An explicit stack of `(source op, op,
    /// next operand)` stands for the recursion: a pattern may be a chain of
    /// thousands of ops, deeper than any thread's stack would go.
    fn match_from<'a>(&'a self, p: &Program, m: &mut Match<'a>, anchor: OpId) -> bool {
        let block = p.op_parent_block(anchor);
        let last = self.rule.pattern.len() - 1;
        if !self.bind_op(p, m, last, anchor, block) {
            return false;
        }
        let mut stack = vec![(last, anchor, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (index, op, i) = *top;
            let pat = &self.rule.pattern[index];
            let Some(operand) = pat.operands.get(i) else {
                stack.pop();
                continue;
            };
            top.2 += 1;
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
                    if let Some(bound) = m.ops[def_index] {
                        if bound != def {
                            return false;
                        }
                        continue;
                    }
                    if !self.bind_op(p, m, def_index, def, block) {
                        return false;
                    }
                    stack.push((def_index, def, 0));
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

    /// Matches at `anchor` and checks the rule may fire there: `Ok(None)`
    /// where it does not, `Err` where an expression broke a limit.
    fn find<'a>(
        &'a self,
        p: &Program,
        names: Arc<[Symbol]>,
        anchor: OpId,
    ) -> Result<Option<Match<'a>>, String> {
        if self.never_fires {
            return Ok(None);
        }
        let n = self.rule.pattern.len();
        let mut m = Match {
            names,
            ops: vec![None; n],
            matched: FxHashSet::default(),
            tensors: FxHashMap::default(),
            vars: FxHashMap::default(),
            deferred: Vec::new(),
            placement: None,
        };
        if !self.match_from(p, &mut m, anchor) {
            return Ok(None);
        }
        let Some(ops) = m.ops.iter().copied().collect::<Option<Vec<OpId>>>() else {
            return Ok(None);
        };
        // A source result the rule does not replace dies with its op: it
        // must have no users outside the match.
        let replaced: FxHashSet<ValueId> =
            self.replaced.iter().filter_map(|n| m.tensor(n)).collect();
        for &o in &ops {
            for r in p.results(o) {
                if replaced.contains(&r) {
                    continue;
                }
                if p.uses(r).any(|u| !m.matched.contains(&p.operand_owner(u))) {
                    return Ok(None);
                }
            }
        }
        // The result ops read the pattern's inputs somewhere between the
        // first matched op and the anchor instead of where the matched ops
        // did: no op in that stretch may write them.
        let Some(placement) = Placement::new(p, &m.matched, anchor) else {
            return Ok(None);
        };
        let mut writes: Option<SpanWrites> = None;
        for &x in m.tensors.values() {
            if p.defining_op(x).is_some_and(|d| m.matched.contains(&d)) {
                continue;
            }
            let class = alias_class(p, x);
            if !class.facts.written {
                continue;
            }
            let w = writes.get_or_insert_with(|| SpanWrites::new(p, &placement.span, &m.matched));
            if w.opaque || class.members.iter().any(|v| w.written.contains(v)) {
                return Ok(None);
            }
        }
        m.placement = Some(placement);
        // `%r = %x` forwards a value: only where no reader could tell. A
        // name the result defined by `%t = %x` stands for `%x` too (so
        // `%t = %x`, `%r = %t` is checked as `%r = %x`); one a result op
        // defined stands for a new value, which nothing else reads yet.
        let mut forwarded: FxHashMap<&str, Option<ValueId>> = FxHashMap::default();
        for stmt in &self.rule.result {
            match stmt {
                ResultStmt::Alias { name, value } => {
                    let x = match forwarded.get(value.as_str()) {
                        Some(&x) => x,
                        None => m.tensor(value),
                    };
                    if let (Some(r), Some(x)) = (m.tensor(name), x) {
                        if !crate::alias::may_forward(p, x, r) {
                            return Ok(None);
                        }
                    }
                    forwarded.insert(name, x);
                }
                ResultStmt::Op(op) => {
                    for n in &op.results {
                        forwarded.insert(n, None);
                    }
                }
            }
        }
        let created = FxHashMap::default();
        let view = Building {
            source: &m,
            program: p,
            created: &created,
        };
        for &(op, name, expr) in &m.deferred {
            let Some(attr) = p.attr(op, name) else {
                return Ok(None);
            };
            let Some(want) = value(eval::eval(expr, &view))? else {
                return Ok(None);
            };
            if !equal(&attr_val(p.ctx(), attr), &want) {
                return Ok(None);
            }
        }
        for c in &self.rule.constraints {
            if value(eval::eval(c, &view))? != Some(Val::Bool(true)) {
                return Ok(None);
            }
        }
        Ok(Some(m))
    }
}

/// Names bound while the result is built: source tensors, then the result's own.
struct Building<'m, 'a> {
    source: &'m Match<'a>,
    program: &'m Program,
    /// Names the result statements defined so far (a later definition
    /// of a name replaces an earlier one).
    created: &'m FxHashMap<String, ValueId>,
}

impl Bindings for Building<'_, '_> {
    fn program(&self) -> &Program {
        self.program
    }
    fn tensor(&self, name: &str) -> Option<ValueId> {
        self.created
            .get(name)
            .copied()
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
    /// The result types are inferred once the op exists (none written).
    infer: bool,
}

impl DrrPattern {
    /// The op `op` will be: `Ok(None)` where a value is missing (the
    /// rewrite is undone), `Err` where an expression broke a limit.
    fn plan(
        &self,
        p: &Program,
        inferer: &pir_infer::Inferer,
        b: &Building<'_, '_>,
        op: &super::ResultOp,
        def: Option<&'static OpDef>,
        name: Symbol,
    ) -> Result<Option<Planned>, String> {
        /// The value of an `Option`, or `Ok(None)` from `plan`.
        macro_rules! some {
            ($e:expr) => {
                match $e {
                    Some(v) => v,
                    None => return Ok(None),
                }
            };
        }
        let ctx = p.ctx();
        let operands = some!(op
            .operands
            .iter()
            .map(|o| match o {
                Some(n) => b.tensor(n).map(Some),
                None => Some(None),
            })
            .collect::<Option<Vec<_>>>());
        let infer = op.types.is_empty() && inferer.has_inference(name);
        let types = if infer {
            // Typed once created, as Paddle's builders type the ops a
            // rule makes (see `apply`).
            vec![Type::NULL; op.results.len()]
        } else if op.types.is_empty() {
            some!(op
                .results
                .iter()
                .map(|n| b.source.tensor(n).map(|v| p.value_type(v)))
                .collect::<Option<Vec<_>>>())
        } else {
            let mut types = Vec::with_capacity(op.types.len());
            for t in &op.types {
                match some!(value(eval::eval(t, b))?) {
                    Val::Type(ty) => types.push(ty),
                    _ => return Ok(None),
                }
            }
            types
        };
        let mut attrs = Vec::new();
        // Attribute names are distinct (the parser checks): a map finds
        // each definition's value without a search per attribute.
        let given: FxHashMap<&str, &Expr> = op.attrs.iter().map(|(k, e)| (k.as_str(), e)).collect();
        if let Some(def) = def {
            for spec in def.attributes {
                let value = match given.get(spec.name.as_str()) {
                    Some(e) => some!(value(eval::eval(e, b))?),
                    None => some!(attr::default_val(some!(spec.default.as_ref()))),
                };
                attrs.push((
                    ctx.symbol(spec.name.as_str()),
                    some!(attr::build(ctx, spec.kind, &value)),
                ));
            }
        }
        // Paddle's rule for a built op: its results stop gradients when
        // every operand does (an op without operands: always).
        if !given.contains_key("stop_gradient") {
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
            let value = some!(value(eval::eval(e, b))?);
            attrs.push((
                ctx.symbol(name),
                some!(attr::build_undeclared(ctx, name, &value)),
            ));
        }
        Ok(Some(Planned {
            name,
            operands,
            types,
            attrs,
            infer,
        }))
    }
}

impl DrrPattern {
    /// The rule's op names in `ctx`: resolved when a context is first
    /// matched in, then read back.
    fn symbols(&self, ctx: &Arc<IrContext>) -> ContextSymbols {
        let cached = self
            .symbols
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            .filter(|s| std::ptr::eq(s.context.as_ptr(), Arc::as_ptr(ctx)))
            .cloned();
        if let Some(symbols) = cached {
            return symbols;
        }
        let resolved = ContextSymbols {
            context: Arc::downgrade(ctx),
            source: self
                .rule
                .pattern
                .iter()
                .map(|op| ctx.symbol(&op.op))
                .collect(),
            result: self
                .rule
                .result
                .iter()
                .map(|stmt| match stmt {
                    ResultStmt::Op(op) => Some(ctx.symbol(&op.op)),
                    ResultStmt::Alias { .. } => None,
                })
                .collect(),
        };
        *self
            .symbols
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(resolved.clone());
        resolved
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
        let symbols = self.symbols(rw.program().ctx_arc());
        let mut m = match self.find(rw.program(), Arc::clone(&symbols.source), anchor) {
            Ok(Some(m)) => m,
            Ok(None) => return false,
            Err(message) => {
                rw.fail(message);
                return false;
            }
        };
        // Result statements run in order; one whose value cannot be computed
        // undoes the ops created before it, leaving the program as it was.
        let mut created: FxHashMap<String, ValueId> = FxHashMap::default();
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
        // Looked up once per match: result ops are typed and checked by it.
        let inferer = pir_infer::Inferer::shared(rw.program().ctx_arc());
        for (index, stmt) in self.rule.result.iter().enumerate() {
            let p = rw.program();
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
                    created.insert(name.clone(), v);
                }
                ResultStmt::Op(op) => {
                    let (def, Some(name)) = (self.result_defs[index], symbols.result[index]) else {
                        return rollback(rw, &new_ops);
                    };
                    let plan = match self.plan(p, &inferer, &b, op, def, name) {
                        Ok(Some(plan)) => plan,
                        Ok(None) => return rollback(rw, &new_ops),
                        Err(message) => {
                            rollback(rw, &new_ops);
                            rw.fail(message);
                            return false;
                        }
                    };
                    let point = placement.point(p, &plan.operands);
                    let dict = p.ctx().dict(&plan.attrs);
                    let new = rw.create_op_at(point, plan.name, &plan.operands, &plan.types, dict);
                    placement.inserted(rw.program(), point, new);
                    new_ops.push(new);
                    if plan.infer {
                        // Operands the result op's InferMeta refuses: the
                        // rule does not hold here, so nothing changes.
                        if rw.modify_op(new, |p| inferer.retype_op(p, new)).is_err() {
                            return rollback(rw, &new_ops);
                        }
                    } else if let Some(message) = written_types_differ(&inferer, rw.program(), new)
                    {
                        // Types written in the rule that Paddle's builder
                        // would not give: the rule is wrong, not the match.
                        rollback(rw, &new_ops);
                        rw.fail(format!("rule `{}`: {message}", self.rule.name));
                        return false;
                    }
                    let results: Vec<ValueId> = rw.program().results(new).collect();
                    for (n, v) in op.results.iter().zip(results) {
                        created.insert(n.clone(), v);
                    }
                }
            }
        }
        for (name, old) in &replaced_sources {
            if let Some(&new) = created.get(name) {
                rw.replace_all_uses(*old, new);
            }
        }
        erase_dead(rw, source_ops.iter().rev().copied());
        // A result that gives every replaced tensor its own value back
        // changes nothing: that is no rewrite.
        rw.changes() > 0
    }
}

/// Erases `ops` that are left without users, then, transitively, the
/// side-effect-free ops that only fed erased ones.
fn erase_dead(rw: &mut Rewriter<'_>, ops: impl Iterator<Item = OpId>) {
    let mut work: Vec<OpId> = Vec::new();
    let erase = |rw: &mut Rewriter<'_>, op: OpId, work: &mut Vec<OpId>| {
        let p = rw.program();
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
        let p = rw.program();
        if !p.is_erased(op) && crate::effects::is_pure(p, op) {
            erase(rw, op, &mut work);
        }
    }
}

/// Undoes the ops a failed rewrite created (they have no users yet).
/// Where a result op's written types differ from those its InferMeta gives
/// (ops without inference, and refused operands, are not judged here).
fn written_types_differ(inferer: &pir_infer::Inferer, p: &Program, op: OpId) -> Option<String> {
    if !inferer.has_inference(p.op_name(op)) {
        return None;
    }
    let inferred = inferer.infer(p, op).ok()?;
    let ctx = p.ctx();
    let show = |t: pir_core::Type| {
        if t.is_null() {
            "null".to_owned()
        } else {
            ctx.display_type(t)
        }
    };
    p.results(op)
        .zip(inferred)
        .enumerate()
        .find_map(|(i, (v, want))| {
            let written = p.value_type(v);
            (written != want && !written.is_null()).then(|| {
                format!(
                    "`{}` result {i} is written {} where Paddle's builder gives {}",
                    p.op_name_str(op),
                    show(written),
                    show(want)
                )
            })
        })
}

fn rollback(rw: &mut Rewriter<'_>, created: &[OpId]) -> bool {
    for &op in created.iter().rev() {
        rw.erase_op(op);
    }
    false
}
