//! Canonicalization: identity ops removed, redundant op pairs folded,
//! slices moved before transposes and channel-last convolutions of
//! transposes run channel-first, applied by the greedy driver to a fixed
//! point. The identity removals are
//! also a pass of their own (`remove-identity-ops`); Paddle's own cleanups
//! (`identity_op_clean`, `remove_redundant_transpose`) are DRR rules
//! ([`crate::transforms::fusion`]).
//!
//! Every pattern replaces an op by one of its operands only when the result
//! type equals the operand's type, so no consumer sees a different type, and
//! only when [`may_forward`] allows it: no op writes either value's buffer
//! (there the op is a real copy), and the two are not both pinned.

use pir_core::builtin::{DenseTensorType, F32Attr, F64Attr, I32Attr, I64Attr};
use pir_core::{Attribute, Builder, InsertPoint, IrContext, OpId, Program, ValueId};
use pir_dialects::pd_op::DataType;

use crate::alias::alias_class;
use crate::pass::{Changed, Pass, PassContext, PassError};
use pir_dialects::ops::{
    AssignOp, CastOp, Conv2dOp, DepthwiseConv2dOp, FullOp, ScaleOp, SliceOp, TransposeOp,
};

use crate::registry::{PassInfo, GREEDY_OPTIONS};
use crate::rewrite::{
    apply_greedily, FrozenPatternSet, GreedyConfig, RewritePattern, Rewriter, Root,
};

/// Replaces `op` (one result) by operand `index` when the types agree and
/// neither value is written in place (then the op's copy is observable).
fn forward_operand(rw: &mut Rewriter<'_>, op: OpId, index: usize) -> bool {
    let p = rw.program();
    let Some(x) = p.operand(op, index) else {
        return false;
    };
    forward_value(rw, op, x)
}

fn forward_value(rw: &mut Rewriter<'_>, op: OpId, x: ValueId) -> bool {
    let p = rw.program();
    let r = p.result(op, 0);
    if !may_forward(p, x, r) {
        return false;
    }
    rw.replace_op(op, &[x])
}

/// Whether every use of `r` may read `x` instead: same type, neither buffer
/// written by any op (a copy of a written buffer is observable), and not
/// both observed by identity (an output of the program fed by an input, or
/// two variables of the executor made one). Computed on demand: the greedy
/// driver changes the program between queries.
pub fn may_forward(p: &Program, x: ValueId, r: ValueId) -> bool {
    if x == r || p.value_type(x) != p.value_type(r) {
        return false;
    }
    let (cx, cr) = (alias_class(p, x), alias_class(p, r));
    !cx.facts.written && !cr.facts.written && (!cr.pinned || !cx.facts.pinned)
}

/// A number held by a float/int attribute.
fn number(ctx: &IrContext, a: Attribute) -> Option<f64> {
    ctx.attr_as::<F64Attr>(a)
        .map(|a| a.value())
        .or_else(|| ctx.attr_as::<F32Attr>(a).map(|a| f64::from(a.value())))
        .or_else(|| ctx.attr_as::<I64Attr>(a).map(|a| a.0 as f64))
        .or_else(|| ctx.attr_as::<I32Attr>(a).map(|a| f64::from(a.0)))
}

/// `scale(x, full(1)) + 0` is `x`.
struct ScaleByOne;

impl RewritePattern for ScaleByOne {
    fn name(&self) -> &str {
        "scale-by-one"
    }
    fn root(&self) -> Root {
        Root::op(ScaleOp::NAME)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program();
        let scale = ScaleOp(op);
        if p.num_operands(op) != 2 || scale.bias(p).and_then(|b| number(p.ctx(), b)) != Some(0.0) {
            return false;
        }
        let Some(factor) = scale.scale(p) else {
            return false;
        };
        let Some(full) = p.defining_op(factor).and_then(|d| FullOp::from_op(p, d)) else {
            return false;
        };
        // The factor is the `full`'s value only while nothing writes it.
        if full.value(p).and_then(|v| number(p.ctx(), v)) != Some(1.0)
            || alias_class(p, factor).facts.written
        {
            return false;
        }
        forward_operand(rw, op, 0)
    }
}

/// `cast(x)` to the dtype `x` already has is `x`.
struct CastToSameType;

fn tensor_dtype(p: &Program, v: ValueId) -> Option<DataType> {
    use pir_core::builtin::{DenseTensorType, ScalarType};
    let ctx = p.ctx();
    let t = ctx.type_as::<DenseTensorType>(p.value_type(v))?;
    let d = DataType::of_scalar(*ctx.type_as::<ScalarType>(t.dtype)?);
    (d != DataType::Undefined).then_some(d)
}

impl RewritePattern for CastToSameType {
    fn name(&self) -> &str {
        "cast-to-same-type"
    }
    fn root(&self) -> Root {
        Root::op(CastOp::NAME)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program();
        let cast = CastOp(op);
        let Some(x) = cast.x(p) else {
            return false;
        };
        let target = cast.dtype(p);
        if target.is_none() || target != tensor_dtype(p, x) {
            return false;
        }
        forward_operand(rw, op, 0)
    }
}

/// `assign(x)` (a copy) is `x` under value semantics.
struct AssignIsIdentity;

impl RewritePattern for AssignIsIdentity {
    fn name(&self) -> &str {
        "assign-is-identity"
    }
    fn root(&self) -> Root {
        Root::op(AssignOp::NAME)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        forward_operand(rw, op, 0)
    }
}

/// `transpose(transpose(x, p), q)` with `q ∘ p` the identity is `x`.
struct RedundantTranspose;

fn perm(p: &Program, op: OpId) -> Option<Vec<i64>> {
    let perm = TransposeOp(op).perm(p)?;
    Some(perm.into_iter().map(i64::from).collect())
}

impl RewritePattern for RedundantTranspose {
    fn name(&self) -> &str {
        "redundant-transpose"
    }
    fn root(&self) -> Root {
        Root::op(TransposeOp::NAME)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program();
        let Some(inner) = TransposeOp(op)
            .x(p)
            .and_then(|v| p.defining_op(v))
            .and_then(|d| TransposeOp::from_op(p, d))
        else {
            return false;
        };
        let inner = inner.0;
        let (Some(outer_perm), Some(inner_perm)) = (perm(p, op), perm(p, inner)) else {
            return false;
        };
        let n = outer_perm.len();
        let identity = inner_perm.len() == n
            && (0..n).all(|i| {
                usize::try_from(outer_perm[i])
                    .ok()
                    .and_then(|j| inner_perm.get(j))
                    == Some(&(i as i64))
            });
        let Some(x) = p.operand(inner, 0) else {
            return false;
        };
        // The pair reads `x` through the inner result: a write to that
        // result between the two transposes would be lost.
        let inner_result = p.result(inner, 0);
        if !identity || alias_class(p, inner_result).facts.written {
            return false;
        }
        forward_value(rw, op, x)
    }
}

/// `slice(transpose(x, perm))` slices `x` first, on the axes the transpose
/// moved there, and transposes only what is left (or nothing, when the
/// dims the slice drops leave the rest in order): the common
/// `output[:, -1, :]` after a time-major RNN reads its last step without
/// copying the whole sequence. Only when the slice is the transpose's one
/// reader and nothing writes the transposed tensor.
struct SliceOfTranspose;

impl RewritePattern for SliceOfTranspose {
    fn name(&self) -> &str {
        "slice-of-transpose"
    }
    fn root(&self) -> Root {
        Root::op(SliceOp::NAME)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program_ref();
        let slice = SliceOp(op);
        let Some(t) = slice.input(p) else {
            return false;
        };
        let Some(transpose) = p.defining_op(t).and_then(|d| TransposeOp::from_op(p, d)) else {
            return false;
        };
        let (Some(x), Some(perm)) = (transpose.x(p), perm(p, transpose.0)) else {
            return false;
        };
        let (Some(axes), Some(flags), Some(decrease)) =
            (slice.axes(p), slice.infer_flags(p), slice.decrease_axis(p))
        else {
            return false;
        };
        let (Some(starts), Some(ends)) = (slice.starts(p), slice.ends(p)) else {
            return false;
        };
        if p.use_count(t) != 1 || alias_class(p, t).facts.written {
            return false;
        }
        let Some(plan) = pushed_down(&perm, &axes, &decrease, super::dense_dims(p, slice.out(p)))
        else {
            return false;
        };
        let Some(out_type) = p
            .ctx()
            .type_as::<DenseTensorType>(p.value_type(slice.out(p)))
            .map(|t| DenseTensorType {
                dims: plan.sliced_dims.clone().into(),
                ..t.clone()
            })
        else {
            return false;
        };
        let out = slice.out(p);
        let sliced_type = rw.program_ref().ctx().intern_type(out_type);
        let program = rw.program();
        let mut b = Builder::new(program, InsertPoint::Before(op));
        let new_slice = SliceOp::build(
            &mut b,
            x,
            starts,
            ends,
            &plan.axes,
            &flags,
            &plan.decrease,
            &[sliced_type],
        );
        let mut last = new_slice.0;
        super::copy_bookkeeping(program, op, new_slice.0);
        rw.notify_inserted(new_slice.0);
        if let Some(rest) = &plan.rest {
            let ty = rw.program_ref().value_type(out);
            let program = rw.program();
            let sliced = program.result(new_slice.0, 0);
            let mut b = Builder::new(program, InsertPoint::Before(op));
            let moved = TransposeOp::build(&mut b, sliced, rest, &[ty]);
            super::copy_bookkeeping(program, op, moved.0);
            rw.notify_inserted(moved.0);
            last = moved.0;
        }
        let value = rw.program_ref().result(last, 0);
        rw.replace_op(op, &[value])
    }
}

/// A slice moved before a transpose: its axes and dropped axes in the
/// transpose's input, the dims of its result, and the transpose left after
/// it (`None`: none).
#[derive(Debug, PartialEq, Eq)]
struct PushedDown {
    axes: Vec<i64>,
    decrease: Vec<i64>,
    sliced_dims: Vec<i64>,
    rest: Option<Vec<i32>>,
}

/// How `slice(transpose(x, perm), axes, decrease)` with result dims `out`
/// becomes a slice of `x` (and a smaller transpose).
fn pushed_down(
    perm: &[i64],
    axes: &[i64],
    decrease: &[i64],
    out: Option<&[i64]>,
) -> Option<PushedDown> {
    let rank = perm.len();
    let out = out?;
    let position = |a: i64| {
        usize::try_from(if a < 0 { a + rank as i64 } else { a })
            .ok()
            .filter(|&a| a < rank)
    };
    let moved = |a: i64| position(a).map(|a| perm[a]);
    let axes_x: Vec<i64> = axes.iter().map(|&a| moved(a)).collect::<Option<_>>()?;
    let decrease_x: Vec<i64> = decrease.iter().map(|&a| moved(a)).collect::<Option<_>>()?;
    let dropped: Vec<usize> = decrease
        .iter()
        .map(|&a| position(a))
        .collect::<Option<_>>()?;
    // The transposed positions that stay, in order, and the input axis each reads.
    let kept: Vec<usize> = (0..rank).filter(|j| !dropped.contains(j)).collect();
    if kept.len() != out.len()
        || perm
            .iter()
            .any(|&a| usize::try_from(a).map_or(true, |a| a >= rank))
    {
        return None;
    }
    // The slice of `x` keeps the input axes not dropped, in input order.
    let dropped_x: Vec<i64> = dropped.iter().map(|&j| perm[j]).collect();
    let kept_x: Vec<i64> = (0..rank as i64)
        .filter(|a| !dropped_x.contains(a))
        .collect();
    // Its dims: each kept input axis has the size of the result dim it becomes.
    let sliced_dims: Vec<i64> = kept_x
        .iter()
        .map(|&a| kept.iter().position(|&j| perm[j] == a).map(|k| out[k]))
        .collect::<Option<_>>()?;
    // The transpose left: result position k reads the slice's axis of `perm[kept[k]]`.
    let rest: Vec<i32> = kept
        .iter()
        .map(|&j| {
            kept_x
                .iter()
                .position(|&a| a == perm[j])
                .and_then(|i| i32::try_from(i).ok())
        })
        .collect::<Option<_>>()?;
    let identity = rest.iter().enumerate().all(|(i, &r)| r as usize == i);
    Some(PushedDown {
        axes: axes_x,
        decrease: decrease_x,
        sliced_dims,
        rest: (!identity).then_some(rest),
    })
}

/// Applies an op's folding hook ([`pir_core::op_info::FoldInterface`]), which
/// each op registers next to its definition.
struct Fold;

impl RewritePattern for Fold {
    fn name(&self) -> &str {
        "fold"
    }
    fn root(&self) -> Root {
        Root::Any
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program();
        let Some(fold) = p
            .op_info(op)
            .and_then(|i| i.interface::<pir_core::op_info::FoldInterface>())
            .copied()
        else {
            return false;
        };
        let Some(values) = (fold.0)(p, op) else {
            return false;
        };
        let results: Vec<ValueId> = p.results(op).collect();
        let safe = values.len() == results.len()
            && values
                .iter()
                .zip(&results)
                .all(|(&v, &r)| may_forward(p, v, r));
        safe && rw.replace_op(op, &values)
    }
}

/// `conv2d(transpose(x, [0,2,3,1])) {data_format: NHWC}` convolves `x` as
/// NCHW and transposes the result: Paddle's CPU kernel turns an NHWC input
/// back into NCHW itself (`TransToChannelFirst`) and transposes its result
/// to NHWC, so the input transpose and the kernel's undoing of it go. The
/// filter is OIHW in both layouts; strides, paddings and dilations name
/// (height, width) in both. Only when the convolution is the transpose's one
/// reader and nothing writes the transposed tensor.
/// (One pattern per convolution op: `conv2d` and `depthwise_conv2d`.)
struct ChannelLastConvOfTranspose(&'static str);

const CHANNELS_LAST: [i32; 4] = [0, 2, 3, 1];

impl RewritePattern for ChannelLastConvOfTranspose {
    fn name(&self) -> &str {
        "channel-last-conv-of-transpose"
    }
    fn root(&self) -> Root {
        Root::op(self.0)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let p = rw.program_ref();
        // Both ops have the same operands and attributes.
        let conv = Conv2dOp(op);
        if p.num_results(op) != 1 || conv.data_format(p).as_deref() != Some("NHWC") {
            return false;
        }
        let (Some(t), Some(filter)) = (conv.input(p), conv.filter(p)) else {
            return false;
        };
        let Some(transpose) = p.defining_op(t).and_then(|d| TransposeOp::from_op(p, d)) else {
            return false;
        };
        let Some(x) = transpose.x(p) else {
            return false;
        };
        if transpose.perm(p).as_deref() != Some(&CHANNELS_LAST[..])
            || p.use_count(t) != 1
            || alias_class(p, t).facts.written
        {
            return false;
        }
        let out = conv.out(p);
        let Some(nchw_type) = p
            .ctx()
            .type_as::<DenseTensorType>(p.value_type(out))
            .filter(|t| t.dims.len() == 4)
            .map(|t| DenseTensorType {
                dims: [t.dims[0], t.dims[3], t.dims[1], t.dims[2]].into(),
                ..t.clone()
            })
        else {
            return false;
        };
        let ctx = p.ctx();
        let nchw_type = ctx.intern_type(nchw_type);
        let attrs = ctx.dict_with(
            p.attrs(op),
            ctx.symbol("data_format"),
            pir_core::builtin::StrAttr::get(ctx, "NCHW"),
        );
        let (name, out_type) = (p.op_name(op), p.value_type(out));
        let nchw = rw.create_op_before(op, name, &[Some(x), Some(filter)], &[nchw_type], attrs);
        let program = rw.program();
        let convolved = program.result(nchw, 0);
        let mut b = Builder::new(program, InsertPoint::Before(op));
        let back = TransposeOp::build(&mut b, convolved, &CHANNELS_LAST, &[out_type]);
        super::copy_bookkeeping(program, op, back.0);
        rw.notify_inserted(back.0);
        let value = rw.program_ref().result(back.0, 0);
        rw.replace_op(op, &[value])
    }
}

fn patterns(names: &[&str]) -> Vec<Box<dyn RewritePattern>> {
    let all: Vec<Box<dyn RewritePattern>> = vec![
        Box::new(Fold),
        Box::new(ScaleByOne),
        Box::new(CastToSameType),
        Box::new(AssignIsIdentity),
        Box::new(RedundantTranspose),
        Box::new(SliceOfTranspose),
        Box::new(ChannelLastConvOfTranspose(Conv2dOp::NAME)),
        Box::new(ChannelLastConvOfTranspose(DepthwiseConv2dOp::NAME)),
    ];
    all.into_iter()
        .filter(|p| names.is_empty() || names.contains(&p.name()))
        .collect()
}

/// The `canonicalize` pass.
pub const CANONICALIZE: PassInfo = PassInfo {
    argument: "canonicalize",
    description: "remove identity ops, fold redundant pairs, slice before transposing and \
                  convolve channel-first, to a fixed point",
    options: GREEDY_OPTIONS,
    make: |o| {
        Ok(Box::new(PatternPass::new(
            "canonicalize",
            patterns(&[]),
            o.take_greedy()?,
        )))
    },
};

/// The `remove-identity-ops` pass.
pub const REMOVE_IDENTITY_OPS: PassInfo = PassInfo {
    argument: "remove-identity-ops",
    description: "replace ops that compute their input by the input",
    options: GREEDY_OPTIONS,
    make: |o| {
        let set = patterns(&["scale-by-one", "cast-to-same-type", "assign-is-identity"]);
        Ok(Box::new(PatternPass::new(
            "remove-identity-ops",
            set,
            o.take_greedy()?,
        )))
    },
};

/// A pass running a frozen set of patterns greedily; it fails if the driver
/// does not converge.
pub struct PatternPass {
    argument: &'static str,
    patterns: FrozenPatternSet,
    /// Driver limits.
    pub config: GreedyConfig,
    /// Labels of patterns to report when they never fire (`None`: no report).
    report_unmatched: Option<Vec<String>>,
    /// Rewrites per pattern over every run of the pass.
    fired: Vec<u64>,
}

impl PatternPass {
    /// A pass over the given patterns.
    pub fn new(
        argument: &'static str,
        patterns: Vec<Box<dyn RewritePattern>>,
        config: GreedyConfig,
    ) -> Self {
        let fired = vec![0; patterns.len()];
        PatternPass {
            argument,
            patterns: FrozenPatternSet::new(patterns),
            config,
            report_unmatched: None,
            fired,
        }
    }

    /// Reports (as statistics notes) each pattern that has not fired after a
    /// run, by its label (`labels[i]` for pattern `i`).
    pub fn report_unmatched(mut self, labels: Vec<String>) -> Self {
        self.report_unmatched = Some(labels);
        self
    }

    /// The pattern set.
    pub fn patterns(&self) -> &FrozenPatternSet {
        &self.patterns
    }
}

impl Pass for PatternPass {
    fn argument(&self) -> &'static str {
        self.argument
    }
    fn run(
        &mut self,
        p: &mut Program,
        root: OpId,
        cx: &mut PassContext,
    ) -> Result<Changed, PassError> {
        let outcome = apply_greedily(p, root, &self.patterns, &self.config);
        cx.statistics.add("patterns applied", outcome.rewrites);
        for (total, n) in self.fired.iter_mut().zip(&outcome.per_pattern) {
            *total += n;
        }
        if let Some(labels) = &self.report_unmatched {
            for (label, &n) in labels.iter().zip(&self.fired) {
                if n == 0 {
                    cx.statistics.note(format!("{label} never matched"));
                }
            }
        }
        cx.statistics
            .add("iterations", u64::from(outcome.iterations));
        // A stop short of a fixed point (rules that undo each other, that
        // keep growing the program, that fail) is an error naming the
        // patterns still firing: by their labels (a rule file's
        // `rule `NAME` (FILE:LINE)`), else their names.
        let name = |i: usize| match self.report_unmatched.as_ref().and_then(|l| l.get(i)) {
            Some(label) => label.clone(),
            None => self.patterns.patterns().get(i).map_or_else(
                || format!("pattern {}", i + 1),
                |p| format!("`{}`", p.name()),
            ),
        };
        if let Some(why) = outcome.describe(name) {
            return Err(PassError {
                pass: self.argument.into(),
                message: why,
            });
        }
        Ok(Changed::from(outcome.rewrites > 0))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test fails loudly by design
mod tests {
    use super::*;
    use pir_eval::EvalTensor;
    use pir_params::DType;
    use std::collections::HashMap;

    #[test]
    fn a_slice_dropping_a_moved_axis_needs_no_transpose_after_it() {
        // `y = transpose(x: [T, B, H], [1, 0, 2])[:, -1, :]`
        let plan = pushed_down(&[1, 0, 2], &[1], &[1], Some(&[-1, 32])).unwrap();
        assert_eq!(plan.axes, [0]);
        assert_eq!(plan.decrease, [0]);
        assert_eq!(plan.sliced_dims, [-1, 32]);
        assert_eq!(plan.rest, None);
    }

    #[test]
    fn a_slice_keeping_every_axis_keeps_the_transpose_after_it() {
        // `transpose(x: [2, 5, 3], [0, 2, 1])[:, 1:3, :]` is `[2, 2, 5]`.
        let plan = pushed_down(&[0, 2, 1], &[1], &[], Some(&[2, 2, 5])).unwrap();
        assert_eq!(plan.axes, [2]);
        assert_eq!(plan.sliced_dims, [2, 5, 2]);
        assert_eq!(plan.rest, Some(vec![0, 2, 1]));
        // A negative axis counts from the end.
        assert_eq!(
            pushed_down(&[0, 2, 1], &[-2], &[], Some(&[2, 2, 5])),
            Some(plan)
        );
        assert_eq!(pushed_down(&[0, 2, 1], &[3], &[], Some(&[2, 2, 5])), None);
    }

    /// Runs a program of one block op by op with the evaluator; `data` reads
    /// `x`. Returns what the fetch reads.
    fn run(p: &Program, x: &EvalTensor) -> Vec<f64> {
        let mut env: HashMap<ValueId, EvalTensor> = HashMap::new();
        let mut out = Vec::new();
        for op in p.block_ops(p.top_block()).collect::<Vec<_>>() {
            let inputs: Vec<EvalTensor> =
                p.operands(op).map(|v| env[&v.unwrap()].clone()).collect();
            let results = match p.op_name_str(op) {
                "pd_op.data" => vec![x.clone()],
                "pd_op.fetch" => {
                    out = inputs[0].to_f64_vec();
                    vec![inputs[0].clone()]
                }
                _ => pir_eval::evaluate(p, op, &inputs).unwrap(),
            };
            for (r, t) in p.results(op).zip(results) {
                env.insert(r, t);
            }
        }
        out
    }

    #[test]
    fn slices_move_before_transposes_and_compute_the_same() {
        let ctx = pir_dialects::pd_op_context();
        let x = EvalTensor::from_f64s(
            DType::Float32,
            &[2, 5, 3],
            &(0..30).map(f64::from).collect::<Vec<_>>(),
        )
        .unwrap();
        let cases = [
            // the last step, taken after making the sequence time-major:
            // no transpose left
            ("[1,0,2]", "5x2x3", "[0]", "[4]", "[5]", "[0]", "2x3", 0),
            // a window of the middle axis: a transpose stays, after the slice
            ("[0,2,1]", "2x3x5", "[2]", "[1]", "[3]", "[]", "2x3x2", 1),
        ];
        for (perm, tdims, axes, start, end, decrease, odims, transposes) in cases {
            let n = |s: &str| s.matches(',').count() + usize::from(s != "[]");
            let text = format!(
                r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[2,5,3],stop_gradient:[false]}} : () -> tensor<2x5x3xf32>
    (%1) = "pd_op.transpose" (%0) {{perm:{perm},stop_gradient:[false]}} : (tensor<2x5x3xf32>) -> tensor<{tdims}xf32>
    (%2) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:{start}}} : () -> tensor<{a}xi64>
    (%3) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:{end}}} : () -> tensor<{a}xi64>
    (%4) = "pd_op.slice" (%1, %2, %3) {{axes:{axes},decrease_axis:{decrease},infer_flags:[1],stop_gradient:[false]}} : (tensor<{tdims}xf32>, tensor<{a}xi64>, tensor<{a}xi64>) -> tensor<{odims}xf32>
    (%5) = "pd_op.fetch" (%4) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<{odims}xf32>) -> tensor<{odims}xf32>
}}"#,
                a = n(axes),
            );
            let mut p = Program::parse(&ctx, &text).unwrap();
            let before = run(&p, &x);
            let mut pm = crate::PassManager::parse("canonicalize,dce").unwrap();
            pm.instrumentation.verify_each = true;
            pm.run(&mut p).unwrap();
            let printed = p.to_string();
            assert_eq!(
                printed.matches("\"pd_op.transpose\"").count(),
                transposes,
                "{printed}"
            );
            assert!(printed.contains("(%0, "), "the slice reads x: {printed}");
            assert_eq!(run(&p, &x), before, "{printed}");
        }
    }

    #[test]
    fn a_channel_last_convolution_of_a_transpose_convolves_the_input_as_is() {
        let ctx = pir_dialects::pd_op_context();
        let x = EvalTensor::from_f64s(
            DType::Float32,
            &[1, 3, 4, 4],
            &(0..48)
                .map(|i| f64::from(i) * 0.25 - 5.0)
                .collect::<Vec<_>>(),
        )
        .unwrap();
        // A filter whose every weight differs, so a mixed-up layout shows.
        let weights: Vec<String> = (0..54)
            .map(|i| format!("{}", f64::from(i % 7) - 2.5))
            .collect();
        for (op, other_reader, transposes) in [
            ("conv2d", "", 1),
            ("depthwise_conv2d", "", 1),
            // The transposed tensor is read elsewhere too: nothing changes.
            (
                "conv2d",
                r#"    (%5) = "pd_op.relu" (%1) {stop_gradient:[false]} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
"#,
                1,
            ),
        ] {
            let (filter_dims, groups, out_c) = if op == "conv2d" {
                ("2x3x3x3", 1, 2)
            } else {
                ("3x1x3x3", 3, 3)
            };
            let n: usize = filter_dims
                .split('x')
                .map(|d| d.parse::<usize>().unwrap())
                .product();
            let shape = filter_dims.replace('x', ",");
            let values = weights[..n].join(",");
            let text = format!(
                r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[1,3,4,4],stop_gradient:[false]}} : () -> tensor<1x3x4x4xf32>
    (%1) = "pd_op.transpose" (%0) {{perm:[0,2,3,1],stop_gradient:[false]}} : (tensor<1x3x4x4xf32>) -> tensor<1x4x4x3xf32>
    (%2) = "pd_op.assign_value" () {{dtype:float32,place:Place(undefined:0),shape:[{shape}],stop_gradient:[true],values:[{values}]}} : () -> tensor<{filter_dims}xf32>
    (%3) = "pd_op.{op}" (%1, %2) {{data_format:"NHWC",dilations:[1,1],groups:{groups},padding_algorithm:"EXPLICIT",paddings:[1,1],stop_gradient:[false],strides:[2,1]}} : (tensor<1x4x4x3xf32>, tensor<{filter_dims}xf32>) -> tensor<1x2x4x{out_c}xf32>
    (%4) = "pd_op.fetch" (%3) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<1x2x4x{out_c}xf32>) -> tensor<1x2x4x{out_c}xf32>
{other_reader}}}"#
            );
            let mut p = Program::parse(&ctx, &text).unwrap();
            let before = run(&p, &x);
            let mut pm = crate::PassManager::parse("canonicalize,dce").unwrap();
            pm.instrumentation.verify_each = true;
            pm.run(&mut p).unwrap();
            let printed = p.to_string();
            assert_eq!(
                printed.matches("\"pd_op.transpose\"").count(),
                transposes,
                "{printed}"
            );
            let nchw = printed.contains(r#"data_format:"NCHW""#);
            assert_eq!(nchw, other_reader.is_empty(), "{printed}");
            if nchw {
                assert!(
                    printed.contains(&format!("\"pd_op.{op}\" (%0, ")),
                    "{printed}"
                );
            }
            assert_eq!(run(&p, &x), before, "{printed}");
        }
    }
}
