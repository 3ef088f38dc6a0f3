//! Canonicalization: identity ops removed, redundant op pairs folded,
//! slices moved before transposes and channel-last convolutions of
//! transposes run channel-first, applied by the greedy driver to a fixed
//! point. The identity removals are
//! also a pass of their own (`remove_identity_ops`). What Paddle's own
//! cleanup says of scales by one and same-type casts is not restated: those
//! rules are taken by name from `identity_op_clean`
//! ([`crate::transforms::fusion`]).
//!
//! Every pattern replaces an op by one of its operands only when the result
//! type equals the operand's type, so no consumer sees a different type, and
//! only when [`may_forward`] allows it: no op writes either value's buffer
//! (there the op is a real copy), and the two are not both pinned.

use pir_core::builtin::DenseTensorType;
use pir_core::{InsertPoint, OpId, Program, ValueId};

use crate::alias::{alias_class, may_forward};
use pir_dialects::ops::{AssignOp, Conv2dOp, DepthwiseConv2dOp, SliceOp, TransposeOp};

use crate::registry::{PassInfo, GREEDY_OPTIONS};
use crate::rewrite::{PatternPass, RewritePattern, Rewriter, Root};

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

/// `transpose(transpose(x, p), q)` with `q ∘ p` the identity is `x`, the
/// inner transpose kept for its other readers (the rules of
/// `remove_redundant_transpose` replace a pair only when nothing else reads
/// the inner one).
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
        let p = rw.program();
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
        let sliced_type = rw.program().ctx().intern_type(out_type);
        let new_slice = rw.build(InsertPoint::Before(op), |b| {
            let new_slice = SliceOp::build(
                b,
                x,
                starts,
                ends,
                &plan.axes,
                &flags,
                &plan.decrease,
                &[sliced_type],
            );
            super::copy_bookkeeping(b.program(), op, new_slice.0);
            new_slice
        });
        let mut last = new_slice.0;
        if let Some(rest) = &plan.rest {
            let ty = rw.program().value_type(out);
            let sliced = rw.program().result(new_slice.0, 0);
            let moved = rw.build(InsertPoint::Before(op), |b| {
                let moved = TransposeOp::build(b, sliced, rest, &[ty]);
                super::copy_bookkeeping(b.program(), op, moved.0);
                moved
            });
            last = moved.0;
        }
        let value = rw.program().result(last, 0);
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
        let p = rw.program();
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
        let convolved = rw.program().result(nchw, 0);
        let back = rw.build(InsertPoint::Before(op), |b| {
            let back = TransposeOp::build(b, convolved, &CHANNELS_LAST, &[out_type]);
            super::copy_bookkeeping(b.program(), op, back.0);
            back
        });
        let value = rw.program().result(back.0, 0);
        rw.replace_op(op, &[value])
    }
}

/// The rules of Paddle's identity_op_clean that remove identities (scales
/// by one, same-type casts): canonicalize runs them as they are written
/// there.
const IDENTITY_RULES: [&str; 2] = ["remove_useless_scale", "remove_useless_cast"];

/// The patterns of canonicalize (`all`), or of remove_identity_ops.
fn patterns(all: bool) -> Result<Vec<Box<dyn RewritePattern>>, String> {
    let mut patterns: Vec<Box<dyn RewritePattern>> = vec![Box::new(AssignIsIdentity)];
    patterns.extend(
        super::fusion::library_rules_named("identity_op_clean", &IDENTITY_RULES)?.patterns(),
    );
    if all {
        patterns.push(Box::new(RedundantTranspose));
        patterns.push(Box::new(Fold));
        patterns.push(Box::new(SliceOfTranspose));
        patterns.push(Box::new(ChannelLastConvOfTranspose(Conv2dOp::NAME)));
        patterns.push(Box::new(ChannelLastConvOfTranspose(
            DepthwiseConv2dOp::NAME,
        )));
    }
    Ok(patterns)
}

/// The `canonicalize` pass.
pub const CANONICALIZE: PassInfo = PassInfo {
    argument: "canonicalize",
    description: "remove identity ops, fold redundant pairs, slice before transposing and \
                  convolve channel-first, to a fixed point",
    options: GREEDY_OPTIONS,
    make: |o| {
        Ok(Box::new(PatternPass::new(
            CANONICALIZE.argument,
            patterns(true)?,
            o.take_greedy()?,
        )))
    },
};

/// The `remove_identity_ops` pass.
pub const REMOVE_IDENTITY_OPS: PassInfo = PassInfo {
    argument: "remove_identity_ops",
    description: "replace ops that compute their input by the input",
    options: GREEDY_OPTIONS,
    make: |o| {
        Ok(Box::new(PatternPass::new(
            REMOVE_IDENTITY_OPS.argument,
            patterns(false)?,
            o.take_greedy()?,
        )))
    },
};

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test fails loudly by design
mod tests {
    use super::*;

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
}
