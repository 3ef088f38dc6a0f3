//! `constant_folding`: computes, with the CPU evaluator ([`pir_eval`]), every
//! op whose inputs are all constants, and replaces its results by constants.
//!
//! **Constants** are the results of the constant makers (`pd_op.full`,
//! `pd_op.full_int_array`, `pd_op.assign_value`), of `builtin.parameter` ops
//! whose tensors are loaded (unless `keep-params` is set), of `builtin.combine`
//! over constants and `builtin.split` of a constant vector, and of every op
//! folded before.
//!
//! An op is **folded** when the evaluator has a kernel for it, it is pure
//! ([`crate::effects::is_pure`]: no side effect, no region, not an interface
//! op), every operand is a constant, and each computed result has exactly the
//! dtype and dims its type declares (a mismatch means the evaluator and the
//! program disagree, and the op is left alone). One in-place case is folded
//! too: an in-place op (e.g. `assign_value_`) whose written inputs are fresh
//! constants read by nothing else is first made out-of-place — no one can see
//! the write — and then folded.
//!
//! A `shape`/`shape64` of a value whose dims are all known (after
//! `set_input_shapes`) folds without reading anything. So does an integer
//! tensor whose data the symbolic shape analysis ([`ShapeAnalysis`]) knows
//! as integers although its inputs are not constants: `shape(x)[1]` of an
//! `x: [-1, 8]`, or `shape(x)[0]` where an op's checks equate the batch
//! with a static dim. The analysis runs only when the program has a
//! `shape`/`shape64` op of a value with unknown dims, once per run.
//!
//! A folded result still read by an op that is not folded becomes, in order
//! of preference:
//! - `pd_op.full` when every element is the same finite value (exactly
//!   representable as the attribute's double);
//! - `pd_op.full_int_array` when it is a short 1-D `int32`/`int64` tensor
//!   (shapes, axes, indices — what later passes can read back);
//! - otherwise a new `builtin.parameter` named `constant_folding@_N`, whose
//!   tensor is bound to the program and written with the model. This needs the
//!   program's parameters to be loaded (or absent) and `keep-params` unset;
//!   otherwise the op stays. When the value's type leaves dims unknown, the
//!   parameter has its tensor's dims, which a `builtin.combine` cannot read
//!   in its place (its vector type names each element's type): a combine
//!   keeps reading the op, which then stays.
//!
//! Folded ops, constant makers and parameters left without users are erased
//! (a parameter's tensor is dropped with its last op). The pass counts
//! `ops folded`, `constants created`, `parameters created` and `parameters
//! dropped`, and `evaluation errors` for ops the evaluator refused.
//!
//! With `constants-as-params` (for inference) the constant makers left at the
//! end become parameters too: a `full`/`full_int_array`/`assign_value` op is a
//! kernel that Paddle's executor runs on every run (and on every iteration
//! inside a `while` body), while a parameter is loaded once. Only makers whose
//! result's alias class is never written and has no member bound to a named
//! variable (a loop-carried one, an output; [`AliasAnalysis::facts`]), and
//! has between 1 and
//! `MAX_HOISTED_ELEMENTS` elements (and, for a type of unknown dims, no
//! `builtin.combine` reader) are replaced (Paddle loads an empty
//! tensor without a buffer, and `paddle.jit.load` then fails on it); an
//! empty axes list read only by full reductions (`mean(x, [])`) is replaced
//! by the list of every axis of each reader's input, which reduces the same
//! in Paddle's kernels. Equal constants (same type, same bytes) share one
//! parameter. Counted as `constants hoisted`. Paddle's
//! own `constant_folding_pass` does the same on the program it runs (into
//! `builtin.constant`/`builtin.parameter`), but also for makers an in-place op
//! writes, which then keep their value across runs; here those stay ops.

use crate::registry::PassInfo;
use std::sync::Arc;

use pir_core::builtin::op_names;
use pir_core::builtin::{ArrayAttr, BoolAttr, F64Attr, I64Attr};
use pir_core::{
    Attribute, Builder, InsertPoint, OpId, OperandId, Program, Type, ValueDef, ValueId,
};
use pir_dialects::op_def::OpDefinition;
use pir_dialects::op_facts::OpFact;
use pir_dialects::ops::{FullIntArrayOp, FullOp, Shape64Op, ShapeOp};
use pir_dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};
use pir_eval::EvalTensor;
use pir_params::DType;
use pir_shape::{Assume, ShapeAnalysis};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::alias::AliasAnalysis;
use crate::effects::is_pure;
use crate::params;
use crate::pass::{Changed, Pass, PassContext, PassError, PassResult, PassRun, Registered};

mod hoist;
use hoist::hoist_makers;

/// The `constant_folding` pass.
pub const INFO: PassInfo = PassInfo {
    argument: "constant_folding",
    description:
        "compute ops whose inputs are constants and replace them by constants or new parameters",
    options: &["keep-params", "constants-as-params"],
    make: |o| {
        Ok(Box::new(ConstantFolding {
            keep_params: o.take_bool("keep-params", false)?,
            constants_as_params: o.take_bool("constants-as-params", false)?,
        }))
    },
};

/// The `constant_folding` pass. See the module docs.
#[derive(Debug, Clone, Default)]
pub struct ConstantFolding {
    /// Leave parameters alone: never read them as constants, never create or
    /// drop any (the parameter file stays as it is).
    pub keep_params: bool,
    /// Replace the constant makers left at the end by parameters, where no
    /// one can tell (see the module docs); ignored with `keep_params`.
    pub constants_as_params: bool,
}

/// A 1-D integer result up to this length becomes `full_int_array`.
const MAX_INT_ARRAY: usize = 256;

/// Results above this many elements are not folded into a parameter: the
/// evaluator would have to hold them, and the file would grow.
const MAX_PARAMETER_ELEMENTS: usize = 1 << 27;

/// Constant makers above this many elements stay ops under
/// `constants-as-params`: filling them costs little next to their readers,
/// and the parameter file would grow.
const MAX_HOISTED_ELEMENTS: usize = 1 << 16;

/// How far back symbolic folding checks that nothing writes the values a
/// shape is computed from.
const MAX_CONE_DEPTH: usize = 64;

/// The prefix of the parameters the pass creates.
const PARAMETER_PREFIX: &str = "constant_folding@_";

/// What is known of a constant value.
#[derive(Clone)]
enum Known {
    Tensor(Arc<EvalTensor>),
    Vector(Vec<Arc<EvalTensor>>),
}

struct Folder<'a> {
    keep_params: bool,
    aliases: AliasAnalysis,
    known: FxHashMap<ValueId, Known>,
    /// Values found not to be constants (so they are not asked again).
    unknown: FxHashSet<ValueId>,
    /// Ops whose results are in `known`, in the order they became known.
    touched: Vec<OpId>,
    folded: FxHashSet<OpId>,
    eval_errors: u64,
    /// The symbolic shapes, computed when first needed (a `shape` op of a
    /// value with unknown dims); `None` inside until then.
    shapes: Option<ShapeAnalysis>,
    /// Ops folded from their symbolic data.
    symbolic: u64,
    /// Values whose computation no op writes ([`Folder::unwritten_cone`]).
    unwritten: FxHashMap<ValueId, bool>,
    cx: &'a mut PassContext,
}

impl Registered for ConstantFolding {
    const INFO: PassInfo = INFO;
}

impl Pass for ConstantFolding {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        // In-place ops that nobody can observe writing become out-of-place
        // first, so that the alias analysis sees their results as fresh.
        let mut changed = false;
        let mut dying_makers = Vec::new();
        for op in super::ops_under(program, root) {
            if program.is_erased(op) {
                continue;
            }
            if let Some(twin) = out_of_place_twin(program, op) {
                // The makers whose results the twin no longer reads die.
                for v in program.operands(op).flatten() {
                    if let ValueDef::Result { op: maker, .. } = program.value_def(v) {
                        dying_makers.push(maker);
                    }
                }
                super::replace_op(program, op, twin.name, &twin.operands, "constant_folding")?;
                changed = true;
            }
        }
        let mut f = Folder {
            keep_params: self.keep_params,
            aliases: AliasAnalysis::new(program),
            known: FxHashMap::default(),
            unknown: FxHashSet::default(),
            touched: dying_makers,
            folded: FxHashSet::default(),
            eval_errors: 0,
            shapes: None,
            symbolic: 0,
            unwritten: FxHashMap::default(),
            cx,
        };
        for op in super::ops_under(program, root) {
            f.visit(program, op);
        }
        let can_add_params = !self.keep_params && params::parameters_loaded(program);
        changed |= f.materialize(program, can_add_params)?;
        changed |= f.erase_dead(program);
        f.cx.statistics.add("evaluation errors", f.eval_errors);
        f.cx.statistics
            .add("shapes folded symbolically", f.symbolic);
        if self.constants_as_params && can_add_params {
            let (hoisted, errors) = hoist_makers(program, root)?;
            cx.statistics.add("constants hoisted", hoisted);
            cx.statistics.add("evaluation errors", errors);
            changed |= hoisted > 0;
        }
        Ok(Changed::from(changed))
    }
}

fn pass_error(message: impl Into<String>) -> PassError {
    PassError {
        pass: INFO.argument.into(),
        message: message.into(),
    }
}

impl Folder<'_> {
    /// Records what `op` computes if it is foldable.
    fn visit(&mut self, p: &Program, op: OpId) {
        match p.op_name_str(op) {
            "builtin.combine" => {
                let mut items = Vec::new();
                for v in p.operands(op) {
                    match v.and_then(|v| self.tensor(p, v)) {
                        Some(t) => items.push(t),
                        None => return,
                    }
                }
                self.learn(op, vec![(p.result(op, 0), Known::Vector(items))]);
            }
            "builtin.split" => {
                let Some(Some(Known::Vector(items))) = p.operand(op, 0).map(|v| self.get(p, v))
                else {
                    return;
                };
                if items.len() == p.num_results(op) {
                    let facts = p.results(op).zip(items).map(|(r, t)| (r, Known::Tensor(t)));
                    self.learn(op, facts.collect());
                }
            }
            ShapeOp::NAME | Shape64Op::NAME => {
                if !self.static_shape(p, op) {
                    // Only the checks of ops that always run may equate a
                    // dim with a constant: one in a branch may not run.
                    self.shapes.get_or_insert_with(|| {
                        ShapeAnalysis::run_assuming(p, Assume::TopLevelExcept(Default::default()))
                    });
                    self.symbolic_data(p, op);
                }
            }
            op_names::PARAMETER => {}
            _ if OpFact::ConstantMaker.holds(p, op) => {}
            _ => {
                if !self.fold(p, op) {
                    self.symbolic_data(p, op);
                }
            }
        }
    }

    /// Whether no op writes `v` or any value it is computed from (up to a
    /// depth; deeper counts as written): the symbolic data of a value read
    /// from a loop counter that an op increments in place is its first
    /// value only.
    fn unwritten_cone(&mut self, p: &Program, v: ValueId, depth: usize) -> bool {
        if let Some(&known) = self.unwritten.get(&v) {
            return known;
        }
        let clean = depth < MAX_CONE_DEPTH
            && !self.aliases.is_written(v)
            && match p.value_def(v) {
                ValueDef::Result { op, .. } => {
                    let operands: Vec<ValueId> = p.operands(op).flatten().collect();
                    operands
                        .into_iter()
                        .all(|x| self.unwritten_cone(p, x, depth + 1))
                }
                _ => true,
            };
        self.unwritten.insert(v, clean);
        clean
    }

    /// An op whose every result is an integer tensor of known dims whose
    /// data the symbolic shapes know as integers (a shape, a slice of one,
    /// arithmetic on them) is a constant. Nothing may write its operands or
    /// results: a buffer written in place may hold other dims or data than
    /// the value's fact says.
    fn symbolic_data(&mut self, p: &Program, op: OpId) {
        // An op without operands (a `data` input) is never a constant,
        // whatever the analysis equates its data with.
        if self.shapes.is_none()
            || p.num_results(op) == 0
            || p.num_operands(op) == 0
            || !is_pure(p, op)
            || !p
                .operands(op)
                .flatten()
                .all(|v| self.unwritten_cone(p, v, 0))
        {
            return;
        }
        let Some(shapes) = &self.shapes else {
            return;
        };
        let mut facts = Vec::with_capacity(p.num_results(op));
        for r in p.results(op) {
            let Some((dtype, dims)) = pir_params::bound::declared(p, p.value_type(r)) else {
                return;
            };
            if !matches!(dtype, DType::Int32 | DType::Int64) || self.aliases.is_written(r) {
                return;
            }
            let (Some(data), Ok(dims)) = (
                shapes.known_ints(r),
                dims.iter()
                    .map(|&d| usize::try_from(d))
                    .collect::<Result<Vec<usize>, _>>(),
            ) else {
                return;
            };
            if dims.iter().product::<usize>() != data.len() {
                return;
            }
            let Ok(t) = EvalTensor::from_i64s(dtype, &dims, &data) else {
                return;
            };
            facts.push((r, Known::Tensor(Arc::new(t))));
        }
        self.folded.insert(op);
        self.symbolic += 1;
        self.learn(op, facts);
    }

    /// A `shape` of a value whose dims are all known (fixed input shapes
    /// followed through the program, say) is a constant: the data is never
    /// read, so the shape arithmetic after it folds too.
    ///
    /// Returns whether it folded.
    fn static_shape(&mut self, p: &Program, op: OpId) -> bool {
        let (Some(x), 1) = (p.operand(op, 0), p.num_results(op)) else {
            return false;
        };
        let Some((_, dims)) = pir_params::bound::declared(p, p.value_type(x)) else {
            return false;
        };
        let r = p.result(op, 0);
        let Some((dtype, _)) = pir_params::bound::declared(p, p.value_type(r)) else {
            return false;
        };
        if dims.iter().any(|&d| d < 0) || self.aliases.is_written(r) {
            return false;
        }
        let Ok(t) = EvalTensor::from_i64s(dtype, &[dims.len()], &dims) else {
            return false;
        };
        if !fits(p, p.value_type(r), &t) {
            return false;
        }
        self.folded.insert(op);
        self.learn(op, vec![(r, Known::Tensor(Arc::new(t)))]);
        true
    }

    fn learn(&mut self, op: OpId, facts: Vec<(ValueId, Known)>) {
        self.known.extend(facts);
        self.touched.push(op);
    }

    /// What is known of `v`, computing constant makers and reading
    /// parameters on first use.
    fn get(&mut self, p: &Program, v: ValueId) -> Option<Known> {
        if let Some(k) = self.known.get(&v) {
            return Some(k.clone());
        }
        if self.unknown.contains(&v) {
            return None;
        }
        let found = if self.aliases.is_written(v) {
            None
        } else {
            self.source(p, v)
        };
        match &found {
            Some(k) => {
                self.known.insert(v, k.clone());
                if let ValueDef::Result { op, .. } = p.value_def(v) {
                    self.touched.push(op);
                }
            }
            None => {
                self.unknown.insert(v);
            }
        }
        found
    }

    fn tensor(&mut self, p: &Program, v: ValueId) -> Option<Arc<EvalTensor>> {
        match self.get(p, v)? {
            Known::Tensor(t) => Some(t),
            Known::Vector(_) => None,
        }
    }

    /// The value of a constant maker's or a parameter's result.
    fn source(&mut self, p: &Program, v: ValueId) -> Option<Known> {
        let ValueDef::Result { op, .. } = p.value_def(v) else {
            return None;
        };
        let name = p.op_name_str(op);
        let tensor = if OpFact::ConstantMaker.holds(p, op) {
            match maker_value(p, op) {
                Ok(t) => t?,
                Err(_) => {
                    self.eval_errors += 1;
                    return None;
                }
            }
        } else if name == "builtin.parameter" && !self.keep_params {
            EvalTensor::from_tensor(params::parameter_tensor(p, op)?).ok()?
        } else {
            return None;
        };
        fits(p, p.value_type(v), &tensor).then(|| Known::Tensor(Arc::new(tensor)))
    }

    /// Evaluates `op` when it is foldable and records its results; returns
    /// whether it did.
    fn fold(&mut self, p: &Program, op: OpId) -> bool {
        let name = p.op_name_str(op);
        if !pir_eval::is_supported(name) || !is_pure(p, op) || p.num_operands(op) == 0 {
            return false;
        }
        // The evaluator takes a list operand (a `builtin.combine`) as its
        // items in a row.
        let mut inputs = Vec::with_capacity(p.num_operands(op));
        for v in p.operands(op).collect::<Vec<_>>() {
            match v.and_then(|v| self.get(p, v)) {
                Some(Known::Tensor(t)) => inputs.push((*t).clone()),
                Some(Known::Vector(items)) => inputs.extend(items.iter().map(|t| (**t).clone())),
                None => return false,
            }
        }
        let outputs = match pir_eval::evaluate(p, op, &inputs) {
            Ok(out) => out,
            Err(_) => {
                self.eval_errors += 1;
                return false;
            }
        };
        if outputs.len() != p.num_results(op) {
            return false;
        }
        let mut facts = Vec::with_capacity(outputs.len());
        for (r, t) in p.results(op).zip(outputs) {
            if self.aliases.is_written(r) || !fits(p, p.value_type(r), &t) {
                return false;
            }
            facts.push((r, Known::Tensor(Arc::new(t))));
        }
        self.folded.insert(op);
        self.learn(op, facts);
        true
    }

    /// Replaces the results of folded ops that unfolded ops still read.
    fn materialize(&mut self, p: &mut Program, can_add_params: bool) -> Result<bool, PassError> {
        let mut changed = false;
        let mut counter = 0usize;
        let folded: Vec<OpId> = self
            .touched
            .iter()
            .copied()
            .filter(|op| self.folded.contains(op))
            .collect();
        for op in folded {
            for r in p.results(op).collect::<Vec<_>>() {
                let outside: Vec<OperandId> = p
                    .uses(r)
                    .filter(|&u| !self.folded.contains(&p.operand_owner(u)))
                    .collect();
                if outside.is_empty() {
                    continue;
                }
                let Some(Known::Tensor(t)) = self.known.get(&r).cloned() else {
                    continue;
                };
                let ty = p.value_type(r);
                let new = if let Some(attrs) = full_attrs(p, &t) {
                    self.cx.statistics.add("constants created", 1);
                    constant_op(p, op, FullOp::NAME, ty, attrs)
                } else if let Some(attrs) = int_array_attrs(p, &t) {
                    self.cx.statistics.add("constants created", 1);
                    constant_op(p, op, FullIntArrayOp::NAME, ty, attrs)
                } else if can_add_params
                    && t.numel() <= MAX_PARAMETER_ELEMENTS
                    && (fully_known(p, ty) || outside.iter().any(|&u| !needs_exact_type(p, u)))
                {
                    let tensor = t.to_tensor().map_err(|e| pass_error(e.to_string()))?;
                    let name = params::fresh_name(p, PARAMETER_PREFIX, &mut counter);
                    let at = InsertPoint::Before(params::top_level_ancestor(p, op));
                    let v = params::insert_parameter(p, at, &name, tensor)
                        .map_err(|e| pass_error(e.to_string()))?;
                    declare_parameter_type(p, v, ty);
                    self.cx.statistics.add("parameters created", 1);
                    v
                } else {
                    continue;
                };
                replace_uses(p, r, new);
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Erases, consumers first, the ops the pass touched that are now unused.
    fn erase_dead(&mut self, p: &mut Program) -> bool {
        let mut seen = FxHashSet::default();
        let mut parameters = Vec::new();
        let mut erased_folded = 0u64;
        let mut erased = false;
        let touched = std::mem::take(&mut self.touched);
        for &op in touched.iter().rev() {
            if !seen.insert(op) || p.is_erased(op) {
                continue;
            }
            if p.op_name_str(op) == "builtin.parameter" {
                parameters.push(op);
                continue;
            }
            if p.results(op).all(|r| p.use_empty(r)) && p.erase_op(op).is_ok() {
                erased = true;
                if self.folded.contains(&op) {
                    erased_folded += 1;
                }
            }
        }
        let dropped = params::erase_unused(p, &parameters);
        self.cx.statistics.add("ops folded", erased_folded);
        self.cx.statistics.add("parameters dropped", dropped as u64);
        erased || dropped > 0
    }
}

/// The value a constant maker computes (`Ok(None)` for another op).
pub(crate) fn maker_value(
    p: &Program,
    op: OpId,
) -> Result<Option<EvalTensor>, pir_eval::EvalError> {
    if !OpFact::ConstantMaker.holds(p, op) {
        return Ok(None);
    }
    let mut out = pir_eval::evaluate(p, op, &[])?;
    Ok(if out.len() == 1 { out.pop() } else { None })
}

/// Whether `t` has the dtype and (static) dims `ty` declares.
fn fits(p: &Program, ty: Type, t: &EvalTensor) -> bool {
    let Some((dtype, dims)) = pir_params::bound::declared(p, ty) else {
        return false;
    };
    let actual = t.dims();
    dtype == t.dtype()
        && dims.len() == actual.len()
        && dims.iter().zip(&actual).all(|(&d, &a)| d == a || d < 0)
}

/// Whether `ty` is a tensor type whose dims are all known.
fn fully_known(p: &Program, ty: Type) -> bool {
    pir_params::bound::declared(p, ty).is_some_and(|(_, dims)| dims.iter().all(|&d| d >= 0))
}

/// Gives the new parameter `v` the type `ty` of the value it replaces, which
/// the readers were built against — unless `ty` leaves dims unknown: Paddle
/// refuses to run a parameter whose type is not its tensor's own shape, so it
/// keeps the shape `insert_parameter` gave it.
fn declare_parameter_type(p: &mut Program, v: ValueId, ty: Type) {
    if fully_known(p, ty) {
        p.set_value_type(v, ty);
    }
}

/// Whether the reader of `u` needs the exact type of the value it reads:
/// `builtin.combine` declares its elements' types in its result's vector type
/// (the verifier checks them, as Paddle's does), so a value of other dims
/// cannot take an element's place.
fn needs_exact_type(p: &Program, u: OperandId) -> bool {
    p.op_name_str(p.operand_owner(u)) == "builtin.combine"
}

/// Makes the readers of `old` read `new` instead, but those that need the
/// exact type when `new`'s differs ([`needs_exact_type`]): they keep `old`,
/// whose op then stays.
fn replace_uses(p: &mut Program, old: ValueId, new: ValueId) {
    if p.value_type(old) == p.value_type(new) {
        p.replace_all_uses_with(old, new);
        return;
    }
    let uses: Vec<OperandId> = p.uses(old).filter(|&u| !needs_exact_type(p, u)).collect();
    for u in uses {
        p.set_operand_value(u, Some(new));
    }
}

/// Creates a constant maker named `name` before `op`.
fn constant_op(
    p: &mut Program,
    op: OpId,
    name: &str,
    ty: Type,
    attrs: Vec<(&'static str, Attribute)>,
) -> ValueId {
    let new = Builder::new(p, InsertPoint::Before(op)).op(name, &[], &[ty], &attrs);
    p.result(new, 0)
}

fn dtype_attr(p: &Program, dtype: DType) -> Option<Attribute> {
    let d = DataType::parse(dtype.paddle_name())?;
    Some(DataTypeAttr::get(p.ctx(), d))
}

/// `[true]`: the `stop_gradient` of a constant.
pub(crate) fn stop_gradient(p: &Program) -> Attribute {
    let ctx = p.ctx();
    ArrayAttr::get(ctx, &[ctx.intern_attr(BoolAttr(true))])
}

/// `pd_op.full`'s attributes when every element of `t` is one finite value
/// the `value` double holds exactly.
fn full_attrs(p: &Program, t: &EvalTensor) -> Option<Vec<(&'static str, Attribute)>> {
    let value = match t.dtype() {
        DType::Int32 | DType::Int64 => {
            let v = t.to_i64_vec();
            let first = *v.first()?;
            if v.iter().any(|&x| x != first) || first.unsigned_abs() > (1u64 << 53) {
                return None;
            }
            first as f64
        }
        DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16 | DType::Bool => {
            let v = t.to_f64_vec();
            let first = *v.first()?;
            if !first.is_finite() || v.iter().any(|x| x.to_bits() != first.to_bits()) {
                return None;
            }
            first
        }
        _ => return None,
    };
    let ctx = p.ctx();
    Some(vec![
        ("shape", IntArrayAttr::get(ctx, &t.dims())),
        ("value", F64Attr::get(ctx, value)),
        ("dtype", dtype_attr(p, t.dtype())?),
        ("place", PlaceAttr::get(ctx, Place::undefined())),
        ("stop_gradient", stop_gradient(p)),
    ])
}

/// `pd_op.full_int_array`'s attributes for a short 1-D integer tensor.
fn int_array_attrs(p: &Program, t: &EvalTensor) -> Option<Vec<(&'static str, Attribute)>> {
    if !matches!(t.dtype(), DType::Int32 | DType::Int64)
        || t.shape().len() != 1
        || t.numel() > MAX_INT_ARRAY
    {
        return None;
    }
    let ctx = p.ctx();
    let items: Vec<Attribute> = t
        .to_i64_vec()
        .into_iter()
        .map(|v| ctx.intern_attr(I64Attr(v)))
        .collect();
    Some(vec![
        ("value", ArrayAttr::get(ctx, &items)),
        ("dtype", dtype_attr(p, t.dtype())?),
        ("place", PlaceAttr::get(ctx, Place::cpu())),
        ("stop_gradient", stop_gradient(p)),
    ])
}

/// The out-of-place twin of an in-place `op` when nothing can observe its
/// writes: every written input is the result of a constant maker read by
/// this op only, and the op has no view pairs.
fn out_of_place_twin(p: &Program, op: OpId) -> Option<Twin> {
    let def = p.op_info(op)?.interface::<OpDefinition>()?.0;
    if def.inplace.is_empty() || !def.view.is_empty() || p.num_regions(op) != 0 {
        return None;
    }
    let base = p.op_name_str(op).strip_suffix('_')?;
    if !pir_eval::is_supported(base) {
        return None;
    }
    for &(_, input) in def.inplace {
        let v = p.operand(op, def.input_index(input.as_str())?)?;
        let ValueDef::Result { op: maker, .. } = p.value_def(v) else {
            return None;
        };
        if !OpFact::ConstantMaker.holds(p, maker) || p.use_count(v) != 1 {
            return None;
        }
    }
    let ctx = p.ctx();
    let name = ctx.symbol(base);
    let twin_def = ctx.op_info(name)?.interface::<OpDefinition>()?.0;
    // The twin reads the inputs it shares by name; an input only the
    // in-place op has (`assign_value_`'s `output`) is what it overwrites.
    let operands = twin_def
        .inputs
        .iter()
        .map(|i| Some(p.operand(op, def.input_index(i.name.as_str())?)))
        .collect::<Option<Vec<_>>>()?;
    Some(Twin { name, operands })
}

/// The out-of-place op standing for an in-place one.
struct Twin {
    name: pir_core::Symbol,
    operands: Vec<Option<ValueId>>,
}
