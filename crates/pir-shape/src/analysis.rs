//! The analysis (Paddle's `InferSymbolicShapeContext` and
//! `InferSymExprForBlock`): a fact per value, the symbol counter, the
//! constraint store and the substitution its equalities imply, filled op
//! by op in program order.

use pir_core::builtin::{DenseTensorType, VectorType};
use pir_core::entity::EntityId;
use pir_core::{Attribute, BlockId, IrContext, OpId, Program, Symbol, Type, ValueId};
use pir_dialects::pd_op::DenseTensorArrayType;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::constraints::{Constraints, Substitution};
use crate::expr::{DimExpr, Sym};
use crate::fact::{ShapeOrData, TensorFact};
use crate::rules::{self, Cx, Rule};
use crate::substitute::{substitute, Pattern};

/// Deepest nesting of regions inferred (an `if` in a `while` in …): the
/// readers bound nesting lower, so this only guards the recursion.
const MAX_NESTING: usize = 256;

/// Most symbols one analysis makes; past it, new unknown dims share the
/// last symbol (a program this large has no meaningful symbols left).
const MAX_SYMBOLS: u32 = 1 << 24;

/// Why an op's facts were not inferred by its rule (its results then get
/// fresh symbols for unknown dims, as Paddle does for ops without the
/// interface when it infers on demand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The op.
    pub op: OpId,
    /// The op's name.
    pub name: String,
    /// Why: no rule, or what the rule refused.
    pub reason: String,
}

/// Which ops' checks the analysis assumes passed: the equalities,
/// broadcasts and lower bounds their rules record (a `matmul`'s contracted
/// dims equal, a `reshape` keeping the element count). Facts of values are
/// true whenever the value is computed either way; what an assumption adds
/// is that dims of *other* values are equal.
#[derive(Clone, Debug, Default)]
pub enum Assume {
    /// Every op's, as Paddle does: true of every run that succeeds.
    #[default]
    Every,
    /// Only those of ops directly in the top block (which run whenever the
    /// program does; an op in a branch or a loop body may not run) and not
    /// in the set: true of every successful run, without relying on the
    /// listed ops (a pass about to rewrite them away). A `while`'s carried
    /// dims are then inferred by induction: each starts as its initial
    /// value's and keeps that expression when the body yields it back
    /// (the others get fresh symbols, and the body is inferred again),
    /// which proves more than Paddle's rule (a residual inside a branch of
    /// a loop body keeps the batch).
    TopLevelExcept(FxHashSet<OpId>),
}

/// Symbolic shapes of a program's values.
///
/// ```
/// let ctx = pir_dialects::pd_op_context();
/// let text = "{\n    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>\n    (%1) = \"pd_op.relu\" (%0) {stop_gradient:[false]} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>\n}\n";
/// let program = pir_core::Program::parse(&ctx, text).unwrap();
/// let shapes = pir_shape::ShapeAnalysis::run(&program);
/// let ops: Vec<_> = program.block_ops(program.top_block()).collect();
/// let (x, y) = (program.result(ops[0], 0), program.result(ops[1], 0));
/// assert!(shapes.same_shape(x, y));
/// assert_eq!(shapes.fact(y).unwrap().to_string(), "shape[S0, 8], data[NULL]");
/// ```
pub struct ShapeAnalysis {
    facts: Vec<Option<ShapeOrData>>,
    next_sym: u32,
    constraints: Constraints,
    pattern: Pattern,
    skipped: Vec<Skipped>,
    rules: FxHashMap<Symbol, Option<Rule>>,
    assume: Assume,
    /// Whether the op being inferred records its checks.
    recording: bool,
    /// Paddle's op cache for ops without the interface: the result facts
    /// of the first op of a name with given operand facts and attributes.
    /// Only an analysis reproducing Paddle's print has one; one serving
    /// passes infers such ops by their real rule.
    op_cache: Option<FxHashMap<OpCacheKey, Vec<ShapeOrData>>>,
}

/// What Paddle's op cache is keyed by: the op's name, its operands' facts
/// and its attributes of the definition (not `stop_gradient`).
pub(crate) type OpCacheKey = (Symbol, Vec<ShapeOrData>, Vec<Attribute>);

impl ShapeAnalysis {
    /// Infers the facts of every value of `program`, as Paddle does.
    pub fn run(program: &Program) -> ShapeAnalysis {
        Self::run_assuming(program, Assume::Every)
    }

    /// Infers the facts of every value of `program`, recording the checks
    /// of the ops `assume` names only.
    pub fn run_assuming(program: &Program, assume: Assume) -> ShapeAnalysis {
        let op_cache = matches!(assume, Assume::Every).then(FxHashMap::default);
        let mut a = ShapeAnalysis {
            facts: vec![None; program.value_slots()],
            next_sym: 0,
            constraints: Constraints::default(),
            pattern: Pattern::default(),
            skipped: Vec::new(),
            rules: FxHashMap::default(),
            assume,
            recording: true,
            op_cache,
        };
        a.infer_block(program, program.top_block(), 0);
        a
    }

    /// The fact of `v`, when the analysis reached it.
    pub fn fact(&self, v: ValueId) -> Option<&ShapeOrData> {
        self.facts.get(v.index()).and_then(Option::as_ref)
    }

    /// The symbolic shape of tensor `v`.
    pub fn shape(&self, v: ValueId) -> Option<&[DimExpr]> {
        self.fact(v)
            .and_then(ShapeOrData::tensor)
            .map(|t| &t.shape[..])
    }

    /// Dim `i` of tensor `v`.
    pub fn dim(&self, v: ValueId, i: usize) -> Option<&DimExpr> {
        self.shape(v).and_then(|s| s.get(i))
    }

    /// The data of `v` when it is known to be integers (a shape's, a
    /// constant's): what a pass folding `shape` ops asks.
    pub fn known_ints(&self, v: ValueId) -> Option<Vec<i64>> {
        self.fact(v)?.data()?.iter().map(DimExpr::as_int).collect()
    }

    /// Whether dims `a` and `b` are known equal (the same expression, or
    /// equal by a recorded constraint).
    pub fn dims_equal(&self, a: &DimExpr, b: &DimExpr) -> bool {
        self.constraints.is_equal(a, b)
    }

    /// Whether dim `i` of tensor `a` and dim `k` of tensor `b` are known
    /// equal at run time (a residual `add`'s batch and its shortcut's).
    pub fn same_dim(&self, a: ValueId, i: usize, b: ValueId, k: usize) -> bool {
        match (self.dim(a, i), self.dim(b, k)) {
            (Some(x), Some(y)) => self.dims_equal(x, y),
            _ => false,
        }
    }

    /// Records that `copy`, a value made after the analysis ran and
    /// computed exactly as `v` is, has `v`'s fact (a pass that copies an op
    /// keeps the analysis true without running it again).
    pub fn copy_fact(&mut self, v: ValueId, copy: ValueId) {
        if let Some(fact) = self.fact(v).cloned() {
            self.store(copy, fact);
        }
    }

    /// Stores `fact` as `v`'s, as it is.
    fn store(&mut self, v: ValueId, fact: ShapeOrData) {
        let i = v.index();
        if i >= self.facts.len() {
            self.facts.resize(i + 1, None);
        }
        self.facts[i] = Some(fact);
    }

    /// Whether `while` bodies are inferred by induction (module docs of
    /// the rules: a carried dim keeps its initial expression when every
    /// iteration yields it back) rather than as Paddle does.
    pub(crate) fn loops_by_induction(&self) -> bool {
        self.serves_passes()
    }

    /// Whether the analysis serves passes rather than reproducing Paddle's
    /// print: then it may also use what Paddle's pass does not know, such
    /// as the data of loaded parameters.
    pub(crate) fn serves_passes(&self) -> bool {
        matches!(self.assume, Assume::TopLevelExcept(_))
    }

    /// Whether tensors `a` and `b` are known to have the same shape.
    pub fn same_shape(&self, a: ValueId, b: ValueId) -> bool {
        match (self.shape(a), self.shape(b)) {
            (Some(x), Some(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| self.dims_equal(p, q))
            }
            _ => false,
        }
    }

    /// Ops whose rule was missing or refused them.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// The constraint store.
    pub fn constraints(&self) -> &Constraints {
        &self.constraints
    }

    /// How many symbols the analysis made.
    pub fn symbol_count(&self) -> u32 {
        self.next_sym
    }

    // ------------------------------------------------------------ inference

    pub(crate) fn infer_block(&mut self, p: &Program, block: BlockId, depth: usize) {
        if depth > MAX_NESTING {
            return;
        }
        for op in p.block_ops(block) {
            self.infer_op(p, op, depth);
        }
    }

    fn infer_op(&mut self, p: &Program, op: OpId, depth: usize) {
        let outer = self.recording;
        self.recording = match &self.assume {
            Assume::Every => true,
            Assume::TopLevelExcept(excluded) => {
                p.op_parent_block(op) == Some(p.top_block()) && !excluded.contains(&op)
            }
        };
        self.infer_op_facts(p, op, depth);
        self.recording = outer;
    }

    fn infer_op_facts(&mut self, p: &Program, op: OpId, depth: usize) {
        let name = p.op_name(op);
        let rule = *self
            .rules
            .entry(name)
            .or_insert_with(|| rules::find(p.op_name_str(op)));
        let outcome = match rule {
            Some(rule) => {
                let mut cx = Cx {
                    p,
                    a: self,
                    op,
                    depth,
                };
                rule(&mut cx).err().map(|e| e.0)
            }
            None => Some("no symbolic shape rule".to_string()),
        };
        if let Some(reason) = outcome {
            self.note_skipped(p, op, reason);
        }
        // Results the rule left without a fact get their types' shapes;
        // results without a type (absent optional outputs) stay without.
        for r in p.results(op) {
            if self.fact(r).is_none() && !p.value_type(r).is_null() {
                let f = self.static_fact(p.ctx(), p.value_type(r));
                self.set(r, f);
            }
        }
    }

    /// Whether the analysis keeps Paddle's op cache (it reproduces
    /// Paddle's print).
    pub(crate) fn has_op_cache(&self) -> bool {
        self.op_cache.is_some()
    }

    /// Lists `op` among the ops whose facts are not (all) their rule's.
    pub(crate) fn note_skipped(&mut self, p: &Program, op: OpId, reason: String) {
        self.skipped.push(Skipped {
            op,
            name: p.op_name_str(op).to_string(),
            reason,
        });
    }

    /// The result facts cached for `key` (Paddle's op cache).
    pub(crate) fn cached(&self, key: &OpCacheKey) -> Option<&[ShapeOrData]> {
        self.op_cache.as_ref()?.get(key).map(Vec::as_slice)
    }

    /// Caches `facts` for `key` unless an earlier op did (Paddle keeps the
    /// first).
    pub(crate) fn cache(&mut self, key: OpCacheKey, facts: Vec<ShapeOrData>) {
        if let Some(cache) = &mut self.op_cache {
            cache.entry(key).or_insert(facts);
        }
    }

    /// A fresh symbol.
    pub(crate) fn new_sym(&mut self) -> DimExpr {
        let s = Sym(self.next_sym);
        if self.next_sym < MAX_SYMBOLS {
            self.next_sym += 1;
        }
        DimExpr::Sym(s)
    }

    /// Paddle's `SetSymbolForValueByStaticShape`: known dims as integers,
    /// unknown ones as fresh symbols.
    pub(crate) fn static_fact(&mut self, ctx: &IrContext, ty: Type) -> ShapeOrData {
        let dims = |this: &mut Self, d: &[i64]| -> Vec<DimExpr> {
            d.iter()
                .map(|&x| {
                    if x >= 0 {
                        DimExpr::Int(x)
                    } else {
                        this.new_sym()
                    }
                })
                .collect()
        };
        if let Some(t) = ctx.type_as::<DenseTensorType>(ty) {
            return ShapeOrData::shape(dims(self, &t.dims));
        }
        if let Some(v) = ctx.type_as::<VectorType>(ty) {
            let mut list = Vec::new();
            for &item in v.0.iter() {
                let d = ctx
                    .type_as::<DenseTensorType>(item)
                    .map(|t| t.dims.to_vec())
                    .unwrap_or_default();
                list.push(TensorFact::shape(dims(self, &d)));
            }
            return ShapeOrData::List(list);
        }
        if let Some(t) = ctx.type_as::<DenseTensorArrayType>(ty) {
            return ShapeOrData::Array(dims(self, &t.dims));
        }
        ShapeOrData::Null
    }

    /// The fact of `v`, made from its type when the analysis has none.
    pub(crate) fn get(&mut self, p: &Program, v: ValueId) -> ShapeOrData {
        if let Some(f) = self.fact(v) {
            return f.clone();
        }
        let f = self.static_fact(p.ctx(), p.value_type(v));
        self.set(v, f.clone());
        self.fact(v).cloned().unwrap_or(f)
    }

    /// Paddle's `SetShapeOrDataForValue`: broadcasts simplified, the
    /// substitution applied, stored.
    pub(crate) fn set(&mut self, v: ValueId, fact: ShapeOrData) {
        let fact = self.simplify_broadcasts(&fact);
        let fact = if self.pattern.is_empty() {
            fact
        } else {
            let pattern = &self.pattern;
            fact.map(&mut |e| substitute(e, pattern))
        };
        self.store(v, fact);
    }

    fn simplify_broadcasts(&mut self, fact: &ShapeOrData) -> ShapeOrData {
        let has_bc = |dims: &[DimExpr]| dims.iter().any(|d| matches!(d, DimExpr::Broadcast(_)));
        let any = match fact {
            ShapeOrData::Tensor(t) => has_bc(&t.shape) || t.data.as_deref().is_some_and(has_bc),
            ShapeOrData::List(l) => l
                .iter()
                .any(|t| has_bc(&t.shape) || t.data.as_deref().is_some_and(has_bc)),
            ShapeOrData::Array(h) => has_bc(h),
            ShapeOrData::Null => false,
        };
        if !any {
            return fact.clone();
        }
        fact.map(&mut |e| match e {
            DimExpr::Broadcast(ops) => self.simplify_broadcast(e, ops),
            other => other.clone(),
        })
    }

    /// Paddle's `SimplifyBroadcast` of the analysis: an operand known
    /// greater than one is the result (the others equal to it); an operand
    /// provably larger makes the other one 1.
    fn simplify_broadcast(&mut self, e: &DimExpr, ops: &[DimExpr]) -> DimExpr {
        let gt: Vec<DimExpr> = ops
            .iter()
            .filter(|o| self.constraints.is_gt_one(o))
            .cloned()
            .collect();
        if let Some(first) = gt.first() {
            for other in &gt[1..] {
                self.add_eq(first, other);
            }
            return first.clone();
        }
        for i in 0..ops.len() {
            for j in i + 1..ops.len() {
                if let (Some(x), Some(y)) = (ops[i].as_int(), ops[j].as_int()) {
                    if x > y {
                        self.add_eq(&ops[j], &DimExpr::Int(1));
                        return ops[i].clone();
                    } else if x < y {
                        self.add_eq(&ops[i], &DimExpr::Int(1));
                        return ops[j].clone();
                    }
                }
            }
        }
        e.clone()
    }

    /// Records `a == b` and applies the substitution it implies.
    pub(crate) fn add_eq(&mut self, a: &DimExpr, b: &DimExpr) {
        if !self.recording {
            return;
        }
        if let Some(s) = self.constraints.add_eq(a, b) {
            self.apply(s);
        }
    }

    /// Records that `a` and `b` broadcast together.
    pub(crate) fn add_broadcastable(&mut self, a: &DimExpr, b: &DimExpr) {
        if !self.recording {
            return;
        }
        if let Some((x, y)) = self.constraints.add_broadcastable(a, b) {
            self.add_eq(&x, &y);
        }
    }

    /// Records `e > 1`.
    pub(crate) fn add_gt_one(&mut self, e: &DimExpr) {
        if !self.recording {
            return;
        }
        for (x, y) in self.constraints.add_gt_one(e) {
            self.add_eq(&x, &y);
        }
    }

    /// Whether `e` is known greater than one.
    pub(crate) fn is_gt_one(&self, e: &DimExpr) -> bool {
        self.constraints.is_gt_one(e)
    }

    /// Paddle's `SubstituteDimExpr` of the analysis: only integers or
    /// symbols replace symbols, and symbols replace broadcasts.
    fn apply(&mut self, s: Substitution) {
        let ok = matches!(
            (&s.origin, &s.replacement),
            (DimExpr::Int(_), _)
                | (_, DimExpr::Int(_))
                | (DimExpr::Sym(_), DimExpr::Sym(_))
                | (DimExpr::Sym(_), DimExpr::Broadcast(_))
                | (DimExpr::Broadcast(_), DimExpr::Sym(_))
        );
        if !ok {
            return;
        }
        for v in self.pattern.values_mut() {
            if *v == s.origin {
                *v = s.replacement.clone();
            }
        }
        self.pattern.insert(s.origin, s.replacement);
        let pattern = &self.pattern;
        for f in self.facts.iter_mut().flatten() {
            *f = f.map(&mut |e| substitute(e, pattern));
        }
    }
}
