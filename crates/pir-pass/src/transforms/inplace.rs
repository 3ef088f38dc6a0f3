//! `de_inplace` and `inplace`: turning in-place ops into their out-of-place
//! twins and back (the design seed's §2.5.2, and the effect of Paddle's
//! `inplace_pass` at the `pd_op` level).
//!
//! Paddle defines most ops twice: `pd_op.relu` returns a fresh tensor,
//! `pd_op.relu_` writes its result into the buffer of its input (the
//! definition's `inplace` map pairs output `out` with input `x`). The twins
//! have the same input, attribute and output names, so one can stand for the
//! other with the same operands, attribute dictionary and result types; what
//! changes is which buffers are shared, and both passes only act where no op
//! can observe that.
//!
//! **`de_inplace`** rewrites `b = X_(a, …)` as `b' = X(a, …)` and makes every
//! use of `b`, and every use of `a` after the op in program order (nested
//! uses in later ops included), read `b'`; reads of `a` before the op keep
//! reading `a`. For each in-place pair (the `inplace` map, plus the `view`
//! map: Paddle 3.3.1 declares `batch_norm_`'s running statistics as views
//! although its kernel updates them) with operand `a` present:
//! - `a` is the result of an op of the op's own block (a block argument or a
//!   value of an enclosing block may be re-read by a loop, and its buffer is
//!   not ours to replace);
//! - `a` is not pinned (data, parameters, constant tensors are the caller's
//!   or the weights' buffers: their in-place update is the point, e.g.
//!   `adam_` on parameters or `batch_norm_` on running statistics);
//! - every use of `a` lies in that block, directly or nested in one of its
//!   ops;
//! - no member of `a`'s alias class other than `a` and the op's results is
//!   defined before the op (a view of `a` taken earlier would see the write
//!   and no longer does); later members are fine, their uses of `a` are
//!   rewired;
//! - when `a` is read after the op, its type equals the paired result's type
//!   (`reshape_` changes it: rewiring would change what later ops read).
//!
//! An op with several pairs is rewritten only if every pair is legal. Ops are
//! visited in program order and classes are computed on demand, so chains
//! (`relu_(a)` then `exp_(b)`) convert in one run.
//!
//! **`inplace`** rewrites an op without regions `b = X(a, …)` as
//! `b = X_(a, …)` when the twin has an `inplace` map, `X` is pure or its
//! only effect is a random draw (`dropout`: where its result goes does not
//! change what it draws), `X` is not one Paddle
//! keeps out-of-place (`transpose`: in place only for strided dygraph
//! tensors; `add_grad`/`subtract_grad`: their CPU kernels cannot), and for
//! every pair (result `k`, operand `j`), with `a` = operand `j`:
//! - `a` is present and every operand and result of the op is a dense tensor;
//! - for a view pair (the twin's `view` map: `reshape_`, `squeeze_`,
//!   `unsqueeze_`, `flatten_`, which keep the element count by definition),
//!   `a` and result `k` agree in dtype, layout, LoD and offset, whatever
//!   their dims; for any other pair
//!   the type of `a` equals the type of result `k`; a dynamic dim (`-1`) is
//!   accepted only when the op has a single tensor input (operands that are
//!   mutable attributes do not count: broadcasting two dynamic inputs may
//!   give a larger result than either; with one, the twin writes its result
//!   into that input, so it has the input's shape whatever the dims), or
//!   when every other tensor input is 1 or equal and static in every dim of
//!   `a` (`add(x, bias)`), or equal to `a`'s dim by the symbolic shape
//!   analysis ([`pir_shape::ShapeAnalysis`]: a residual `add(x, shortcut)`
//!   of one batch, through embeddings, reshapes, transposes, loop bodies and
//!   branches that agree). Paddle's
//!   `inplace_pass` accepts `-1` only as the leading dim of a tensor of rank
//!   ≥ 2, not knowing which ops keep shapes;
//! - `a` is the result of an op of the same block (a value captured from an
//!   enclosing block is re-read by every iteration of a loop), and that op
//!   is not a constant maker (`full`, `full_int_array`, `assign_value`:
//!   Paddle's constant folding makes their results persistable tensors,
//!   loaded once and kept across runs); `full_with_tensor`, whose shape
//!   Paddle never folds, fills a fresh buffer on every run;
//! - no member of `a`'s alias class is an input, weight or output of the
//!   program, or a `while` condition, and either the class is `{a}` and
//!   not written, or every other member is done with before the op writes:
//!   the result of an earlier, non-constant op of the block, of an op
//!   nested in one, or an argument of a block of one (what a finished `if`
//!   or `while` yielded or carried), that only earlier ops of the block read
//!   (a chain: `b = relu_(a0)` before `add(b, y)`; a loop's result after the
//!   loop, as Paddle's `inplace_pass` takes it). The elements a
//!   `builtin.split` takes out of a vector that one op made and nothing else
//!   reads are buffers of their own: the walk does not pass from one to its
//!   siblings through the vector;
//! - the op is the last use of `a`: it reads `a` only at position `j`, and
//!   every other use is an earlier op of the block (reads nested in an
//!   earlier `if` or `while` included: the op runs after them), and none is
//!   a `pd_op.fetch` (which may hand out the buffer itself);
//! - neither `a` nor result `k` is marked `persistable` by its op (Paddle
//!   keeps persistable values out of buffer reuse). Reads of result `k`
//!   nested in later ops are fine: they read the buffer after the op wrote
//!   it, under either name (Paddle's executor gives the in-place result its
//!   input's variable).
//!
//! Ops are visited in reverse program order: converting `exp(b)` first
//! leaves `b` alone in its class, so `relu(a)` before it still converts and
//! a chain comes back whole.

use rustc_hash::FxHashMap;

use pir_core::builtin::{op_names, ArrayAttr, BoolAttr, DenseTensorType, VectorType};
use pir_core::{BlockId, OpId, OperandId, Program, Symbol, ValueDef, ValueId};
use pir_dialects::op_def::{OpDef, OpDefinition, Text};
use pir_dialects::op_facts::OpFact;
use pir_dialects::ops::FetchOp;

use crate::alias::{alias_class, alias_class_through, has_fresh_results};
use crate::effects::{draws_random_numbers, is_pure};
use crate::pass::{Changed, Pass, PassContext, PassError, PassResult, PassRun};
use crate::transforms::{order_in_block, Positions};
use pir_shape::{Assume, ShapeAnalysis};

/// Whether `op` makes a constant from its attributes, which Paddle's
/// constant folding turns into a persistable tensor kept across runs.
fn constant_like(p: &Program, op: OpId) -> bool {
    OpFact::ConstantMaker.holds(p, op)
}

/// The definition registered for `name`, if any.
fn definition(p: &Program, name: Symbol) -> Option<&'static OpDef> {
    p.ctx()
        .op_info(name)?
        .interface::<OpDefinition>()
        .map(|d| d.0)
}

/// Whether two definitions name their inputs, attributes and outputs alike
/// (then an op of one is a well-formed op of the other).
fn same_signature(a: &OpDef, b: &OpDef) -> bool {
    a.inputs.len() == b.inputs.len()
        && a.attributes.len() == b.attributes.len()
        && a.outputs.len() == b.outputs.len()
        && a.inputs.iter().zip(b.inputs).all(|(x, y)| x.name == y.name)
        && a.attributes
            .iter()
            .zip(b.attributes)
            .all(|(x, y)| x.name == y.name)
        && a.outputs
            .iter()
            .zip(b.outputs)
            .all(|(x, y)| x.name == y.name)
}

/// `(result index, operand index)` of each named pair, or `None` if a name
/// is not in the definition.
fn index_pairs(def: &OpDef, pairs: &[(Text, Text)]) -> Option<Vec<(usize, usize)>> {
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(pairs.len());
    for &(o, i) in pairs {
        let pair = (def.output_index(&o)?, def.input_index(&i)?);
        if !out.contains(&pair) {
            out.push(pair);
        }
    }
    Some(out)
}

/// The op an op of one name becomes, and the buffers the in-place one of the
/// two shares.
#[derive(Debug, Clone)]
struct Twin {
    /// The other op's name.
    name: Symbol,
    /// The op's own definition (its operand and result counts are checked
    /// before indexing).
    def: &'static OpDef,
    /// `(result, operand)` pairs of the in-place op.
    pairs: Vec<(usize, usize)>,
    /// The pairs among them whose result is a view of the operand
    /// (`reshape_`, `squeeze_`...): same elements, other dims.
    views: Vec<(usize, usize)>,
}

/// Which way a pass converts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// `X_` → `X`.
    OutOfPlace,
    /// `X` → `X_`.
    InPlace,
}

fn find_twin(p: &Program, name: Symbol, direction: Direction) -> Option<Twin> {
    let def = definition(p, name)?;
    let text = p.ctx().symbol_str(name);
    let (twin_name, twin_text) = match direction {
        Direction::OutOfPlace => {
            let base = text.strip_suffix('_')?;
            (p.ctx().lookup_symbol(base)?, base.to_owned())
        }
        Direction::InPlace => {
            let inplace = format!("{text}_");
            (p.ctx().lookup_symbol(&inplace)?, inplace)
        }
    };
    let twin = definition(p, twin_name)?;
    if twin.name != twin_text || !same_signature(def, twin) {
        return None;
    }
    let (pairs, views) = match direction {
        Direction::OutOfPlace => {
            if !twin.inplace.is_empty() || !twin.view.is_empty() {
                return None;
            }
            let mut named = def.inplace.to_vec();
            named.extend_from_slice(&def.view);
            (index_pairs(def, &named)?, index_pairs(def, &def.view)?)
        }
        Direction::InPlace => {
            if !def.inplace.is_empty() || !def.view.is_empty() || twin.inplace.is_empty() {
                return None;
            }
            (
                index_pairs(twin, &twin.inplace)?,
                index_pairs(twin, &twin.view)?,
            )
        }
    };
    if pairs.is_empty() {
        return None;
    }
    Some(Twin {
        name: twin_name,
        def,
        pairs,
        views,
    })
}

/// Twins by op name: a program has few distinct names, each looked up once.
struct Twins {
    direction: Direction,
    cache: FxHashMap<Symbol, Option<Twin>>,
}

impl Twins {
    fn new(direction: Direction) -> Self {
        Twins {
            direction,
            cache: FxHashMap::default(),
        }
    }

    /// The twin of `op`, if it has one and its operand and result counts
    /// match its definition (so pair indices are in range).
    fn of(&mut self, p: &Program, op: OpId) -> Option<Twin> {
        let direction = self.direction;
        let twin = self
            .cache
            .entry(p.op_name(op))
            .or_insert_with(|| find_twin(p, p.op_name(op), direction))
            .as_ref()?;
        let fits = p.num_operands(op) == twin.def.inputs.len()
            && p.num_results(op) == twin.def.outputs.len()
            && p.num_regions(op) == 0;
        fits.then(|| twin.clone())
    }
}

/// Whether value `m` is defined after `op` of `block` (in a later op of the
/// block or nested in one). Values outside the block count as earlier.
fn defined_after(p: &Program, pos: &Positions, m: ValueId, op: OpId, block: BlockId) -> bool {
    let definer = match p.value_def(m) {
        ValueDef::Result { op: d, .. } => Some(d),
        ValueDef::BlockArg { block: b, .. } => p.block_parent_op(b),
        ValueDef::BlockKwarg { .. } | ValueDef::Erased => None,
    };
    definer.and_then(|d| order_in_block(p, pos, d, op, block)) == Some(std::cmp::Ordering::Greater)
}

/// Whether every member of `a`'s alias class other than `a` is done with
/// before `op` writes: a result of an op of `block` or nested in an earlier
/// one (what an `if` branch or a loop body yields), not a constant nor
/// persistable, or an argument of a block nested in an earlier op (a loop's
/// carried value), whose every use is in an earlier op of `block` or nested
/// in one: the buffer was written or viewed before (`a = relu_(x)`, then
/// `add(a, y)`; a `while` result after the loop), and once `op` runs
/// nothing but `op` itself reads it.
fn earlier_members_done(
    p: &Program,
    pos: &Positions,
    members: &[ValueId],
    a: ValueId,
    op: OpId,
    block: BlockId,
) -> bool {
    let earlier = |x: OpId| order_in_block(p, pos, x, op, block) == Some(std::cmp::Ordering::Less);
    members.iter().filter(|&&m| m != a).all(|&m| {
        let defined_before = match p.value_def(m) {
            ValueDef::Result { op: definer, index } => {
                let here = p.op_parent_block(definer) == Some(block);
                (here || earlier(definer))
                    && !constant_like(p, definer)
                    && !persistable_result(p, definer, index as usize)
            }
            ValueDef::BlockArg { block: b, .. } => p.block_parent_op(b).is_some_and(earlier),
            ValueDef::BlockKwarg { .. } | ValueDef::Erased => false,
        };
        defined_before && p.uses(m).all(|u| earlier(p.operand_owner(u)))
    })
}

/// Whether `v` is a vector one op made (fresh buffers, one per element)
/// that a single `builtin.split` takes apart: then its elements name
/// different buffers, and the vector itself is read no more.
fn split_fresh_vector(p: &Program, v: ValueId) -> bool {
    let ValueDef::Result { op: maker, .. } = p.value_def(v) else {
        return false;
    };
    let mut uses = p.uses(v);
    let (Some(only), None) = (uses.next(), uses.next()) else {
        return false;
    };
    p.ctx().type_is::<VectorType>(p.value_type(v))
        && has_fresh_results(p, maker)
        && p.op_name_str(p.operand_owner(only)) == op_names::SPLIT
}

/// Whether `op`'s effects touch no buffer but its operands' and results':
/// it is pure, or its only effect is a random draw (`dropout` in training,
/// `uniform_inplace`; an in-place twin draws the same numbers).
fn effects_stay_in_its_values(p: &Program, op: OpId) -> bool {
    is_pure(p, op)
        || (p.num_regions(op) == 0
            && (draws_random_numbers(p, op)
                || OpFact::DrawsRandom.holds(p, op)
                || OpFact::DrawIsItsOnlyEffect.holds(p, op)))
}

/// Whether `a` is the result of an op of `block`.
fn defined_in(p: &Program, a: ValueId, block: BlockId) -> Option<OpId> {
    match p.value_def(a) {
        ValueDef::Result { op, .. } if p.op_parent_block(op) == Some(block) => Some(op),
        _ => None,
    }
}

/// Replaces `op` by its `twin` (same operands), keeping its position.
fn replace_by_twin(
    p: &mut Program,
    pos: &mut Positions,
    op: OpId,
    twin: Symbol,
    pass: &str,
) -> Result<OpId, PassError> {
    let operands: Vec<Option<ValueId>> = p.operands(op).collect();
    let at = pos.get(op);
    let new = super::replace_op(p, op, twin, &operands, pass)?;
    pos.set(new, at);
    Ok(new)
}

/// One in-place pair of an op `de_inplace` may rewrite: result `k` takes
/// over the buffer of `a`, whose later `uses` must read the new result.
struct Rewire {
    result: usize,
    uses: Vec<OperandId>,
}

/// The rewiring that makes `op` (an in-place op with `pairs`) out-of-place,
/// or `None` if some reader could tell the difference (module docs).
fn de_inplace_plan(
    p: &Program,
    pos: &Positions,
    op: OpId,
    pairs: &[(usize, usize)],
) -> Option<Vec<Rewire>> {
    let block = p.op_parent_block(op)?;
    let results: Vec<ValueId> = p.results(op).collect();
    let mut sources: Vec<ValueId> = Vec::new();
    let mut plan = Vec::new();
    for &(k, j) in pairs {
        // An absent optional input shares nothing.
        let Some(a) = p.operand(op, j) else {
            continue;
        };
        if sources.contains(&a) {
            return None;
        }
        sources.push(a);
        defined_in(p, a, block)?;
        let class = alias_class(p, a);
        if class.pinned {
            return None;
        }
        let earlier_alias = class
            .members
            .iter()
            .any(|&m| m != a && !results.contains(&m) && !defined_after(p, pos, m, op, block));
        if earlier_alias {
            return None;
        }
        let mut later = Vec::new();
        for u in p.uses(a) {
            let user = p.operand_owner(u);
            if user == op {
                continue;
            }
            if order_in_block(p, pos, user, op, block)? == std::cmp::Ordering::Greater {
                later.push(u);
            }
        }
        if !later.is_empty() && p.value_type(a) != p.value_type(results[k]) {
            return None;
        }
        plan.push(Rewire {
            result: k,
            uses: later,
        });
    }
    Some(plan)
}

pass_without_options! {
    /// The `de_inplace` pass.
    DE_INPLACE = "de_inplace",
        "replace in-place ops by their out-of-place twins where no reader can tell";
    /// The `de_inplace` pass: in-place ops whose write no reader can observe
    /// become their out-of-place twins.
    DeInplace
}

impl Pass for DeInplace {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        // Classes are computed per op, on the program as rewritten so far:
        // an earlier conversion rewires reads this op's checks depend on.
        let plan = |program: &Program, pos: &Positions, op: OpId, twin: &Twin| {
            de_inplace_plan(program, pos, op, &twin.pairs)
        };
        let rewire = |program: &mut Program, new: OpId, plan: Vec<Rewire>| {
            for rewire in plan {
                let fresh = program.result(new, rewire.result);
                for u in rewire.uses {
                    program.set_operand_value(u, Some(fresh));
                }
            }
        };
        convert_to_twins(program, root, cx, Direction::OutOfPlace, plan, rewire)
    }
}

/// Replaces each op under `root` that has a twin in `direction` and for
/// which `plan` finds a plan by its twin, then lets `finish` carry the plan
/// out on the new op; counts `ops converted`. Ops are visited in program
/// order out of place, in reverse in place (module docs).
fn convert_to_twins<P>(
    p: &mut Program,
    root: OpId,
    cx: &mut PassContext,
    direction: Direction,
    plan: impl Fn(&Program, &Positions, OpId, &Twin) -> Option<P>,
    finish: impl Fn(&mut Program, OpId, P),
) -> Result<Changed, PassError> {
    let pass = match direction {
        Direction::OutOfPlace => DE_INPLACE.argument,
        Direction::InPlace => INPLACE.argument,
    };
    let mut pos = Positions::new(p, root);
    let mut twins = Twins::new(direction);
    let mut ops = super::ops_under(p, root);
    if direction == Direction::InPlace {
        ops.reverse();
    }
    let mut converted = 0u64;
    for op in ops {
        if p.is_erased(op) {
            continue;
        }
        let Some(twin) = twins.of(p, op) else {
            continue;
        };
        let Some(planned) = plan(p, &pos, op, &twin) else {
            continue;
        };
        let new = replace_by_twin(p, &mut pos, op, twin.name, pass)?;
        finish(p, new, planned);
        converted += 1;
    }
    cx.statistics.add("ops converted", converted);
    Ok(Changed::from(converted > 0))
}

/// Whether `ty` is a dense tensor type.
fn is_dense_tensor(p: &Program, ty: pir_core::Type) -> bool {
    p.ctx().type_is::<DenseTensorType>(ty)
}

/// How the dims of a dense tensor type allow an in-place op: `Static`,
/// `LeadingDynamic` (only dim 0 is `-1`, rank ≥ 2: a batch size), or
/// `Dynamic` (any other `-1`; Paddle's `inplace_pass` refuses those).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dims {
    Static,
    LeadingDynamic,
    Dynamic,
}

fn dims_kind(p: &Program, ty: pir_core::Type) -> Dims {
    let Some(t) = p.ctx().type_as::<DenseTensorType>(ty) else {
        return Dims::Dynamic;
    };
    match t.dims.iter().position(|&d| d < 0) {
        None => Dims::Static,
        Some(0) if t.dims.len() >= 2 && t.dims[1..].iter().all(|&d| d >= 0) => Dims::LeadingDynamic,
        Some(_) => Dims::Dynamic,
    }
}

/// Whether a view's result may share its input's buffer whatever the dims:
/// the same dtype, layout, LoD and offset. The element count needs no check:
/// the view maps of Paddle 3.3.1 pair a shape-only op's result with its input
/// (`reshape_`, `squeeze_`, `unsqueeze_`, `flatten_`: as many elements by the
/// op's definition) or a state with itself (`batch_norm_`'s statistics).
fn same_storage(p: &Program, a: pir_core::Type, b: pir_core::Type) -> bool {
    let ctx = p.ctx();
    let (Some(x), Some(y)) = (
        ctx.type_as::<DenseTensorType>(a),
        ctx.type_as::<DenseTensorType>(b),
    ) else {
        return false;
    };
    x.dtype == y.dtype && x.layout == y.layout && x.lod == y.lod && x.offset == y.offset
}

/// Whether broadcasting the op's other tensor inputs against operand `j`
/// cannot make the result larger than operand `j` at run time: each is of
/// no higher rank, and each of its dims (aligned from the right) is 1, equal
/// to a static dim of operand `j`, or equal to operand `j`'s by the
/// symbolic shapes (`shapes`, computed once before the pass converts ops:
/// converting keeps every value and type). Then a dynamic batch dim
/// of operand `j` is the result's too (`add(x: [-1,16], bias: [16])`, a
/// residual add of one batch), while two dynamic inputs of unknown origin
/// (`[-1,16] + [-1,16]`, where one batch may be 1) stay out of place.
fn others_cannot_grow(
    p: &Program,
    shapes: &ShapeAnalysis,
    op: OpId,
    twin: &Twin,
    j: usize,
) -> bool {
    let ctx = p.ctx();
    let Some(a_value) = p.operand(op, j) else {
        return false;
    };
    let Some(a) = ctx.type_as::<DenseTensorType>(p.value_type(a_value)) else {
        return false;
    };
    p.operands(op)
        .zip(twin.def.inputs)
        .enumerate()
        .filter(|(i, (v, def))| *i != j && v.is_some() && !def.mutable_attribute)
        .all(|(_, (v, _))| {
            let Some(v) = v else { return false };
            let Some(o) = ctx.type_as::<DenseTensorType>(p.value_type(v)) else {
                return false;
            };
            if o.dims.len() > a.dims.len() {
                return false;
            }
            let shift = a.dims.len() - o.dims.len();
            o.dims
                .iter()
                .zip(&a.dims[shift..])
                .enumerate()
                .all(|(i, (&od, &ad))| {
                    od == 1 || (ad >= 0 && od == ad) || shapes.same_dim(v, i, a_value, i + shift)
                })
        })
}

/// Whether the op's `persistable` attribute marks result `k` (Paddle keeps
/// persistable values out of in-place reuse).
fn persistable_result(p: &Program, op: OpId, k: usize) -> bool {
    let ctx = p.ctx();
    p.attr(op, "persistable")
        .and_then(|a| ctx.attr_as::<ArrayAttr>(a))
        .and_then(|a| a.0.get(k).copied())
        .and_then(|b| ctx.attr_as::<BoolAttr>(b))
        .is_some_and(|b| b.0)
}

/// Whether `op` (with an in-place twin whose pairs are `pairs`) may write
/// its result into its input's buffer (module docs).
fn may_inplace(
    p: &Program,
    pos: &Positions,
    shapes: &ShapeAnalysis,
    op: OpId,
    twin: &Twin,
) -> bool {
    let Some(block) = p.op_parent_block(op) else {
        return false;
    };
    if !effects_stay_in_its_values(p, op) || OpFact::NeverMadeInplace.holds(p, op) {
        return false;
    }
    let dense = p
        .operands(op)
        .flatten()
        .chain(p.results(op))
        .all(|v| is_dense_tensor(p, p.value_type(v)));
    if !dense {
        return false;
    }
    let tensor_inputs = p
        .operands(op)
        .zip(twin.def.inputs)
        .filter(|(v, def)| v.is_some() && !def.mutable_attribute)
        .count();
    let mut sources: Vec<ValueId> = Vec::new();
    for &(k, j) in &twin.pairs {
        let Some(a) = p.operand(op, j) else {
            return false;
        };
        if sources.contains(&a) {
            return false;
        }
        sources.push(a);
        let (ty, result) = (p.value_type(a), p.result(op, k));
        if twin.views.contains(&(k, j)) {
            if !same_storage(p, ty, p.value_type(result)) {
                return false;
            }
        } else {
            if ty != p.value_type(result) {
                return false;
            }
            // One tensor input: the twin writes its result into that input,
            // so the result has the input's shape whatever its dims. More
            // inputs: none may broadcast it larger. Paddle refuses every
            // `-1` but the leading one, not knowing which ops keep shapes.
            match dims_kind(p, ty) {
                Dims::Static => {}
                _ if tensor_inputs == 1 => {}
                _ if others_cannot_grow(p, shapes, op, twin, j) => {}
                Dims::LeadingDynamic | Dims::Dynamic => return false,
            }
        }
        if persistable_result(p, op, k) {
            return false;
        }
        let Some(definer) = defined_in(p, a, block) else {
            return false;
        };
        let a_index = match p.value_def(a) {
            ValueDef::Result { index, .. } => index as usize,
            _ => return false,
        };
        if constant_like(p, definer) || persistable_result(p, definer, a_index) {
            return false;
        }
        let class = alias_class_through(p, a, |m| !split_fresh_vector(p, m));
        if class.facts.external || class.facts.condition {
            return false;
        }
        let alone = class.facts.size == 1 && !class.facts.written;
        if !alone && !earlier_members_done(p, pos, &class.members, a, op, block) {
            return false;
        }
        // A fetch may hand out the buffer itself (Paddle never reuses a
        // fetched value's buffer).
        let last_use = p.uses(a).all(|u| {
            let user = p.operand_owner(u);
            if user == op {
                return p.operand_index(u) == j;
            }
            p.op_name_str(user) != FetchOp::NAME
                && order_in_block(p, pos, user, op, block) == Some(std::cmp::Ordering::Less)
        });
        if !last_use {
            return false;
        }
    }
    true
}

pass_without_options! {
    /// The `inplace` pass.
    INPLACE = "inplace",
        "replace ops by their in-place twins where the input is dead and unshared";
    /// The `inplace` pass: pure ops that are the last reader of an unshared
    /// input become their in-place twins.
    Inplace
}

impl Pass for Inplace {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        // Only the checks of ops that run whenever the program does prove
        // dims equal (one in a branch that did not run proves nothing), and
        // loops by induction.
        let shapes =
            ShapeAnalysis::run_assuming(program, Assume::TopLevelExcept(Default::default()));
        let plan = |program: &Program, pos: &Positions, op: OpId, twin: &Twin| {
            may_inplace(program, pos, &shapes, op, twin).then_some(())
        };
        convert_to_twins(program, root, cx, Direction::InPlace, plan, |_, _, ()| {})
    }
}
