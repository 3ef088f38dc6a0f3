//! `batch_size_like`: a shape built at run time only to repeat a tensor's
//! batch size — `stack([shape(y)[0], 5, 16])` — is written so that the
//! kernel copies the batch size itself:
//!
//! - `reshape(x, stack([shape(y)[0], c...]))`, where `x` has `y`'s batch
//!   size, becomes `reshape(x, [0, c...])`: Paddle's reshape copies a `0`
//!   from the input's dim at the same place (`ValidateShape`), and the
//!   constant list is a parameter once constants become parameters;
//! - `full_with_tensor(v, stack([c..., shape(y)[0], c...]))` becomes
//!   `full_batch_size_like(y, [c..., -1, c...], v, 0, i)`, one kernel that
//!   takes the batch size from `y` (how `paddle.nn.LSTM`/`GRU` make their
//!   zero initial states).
//!
//! Why: the `shape64`, `slice` and `stack` ops cost a kernel call each per
//! run (2–3 µs each in Paddle's CPU executor), about as much as a small
//! matmul. A whole program's shape reads go once no reader is left.
//!
//! "Has `y`'s batch size" is the symbolic shape analysis
//! ([`ShapeAnalysis::same_dim`]): both leading dims are the same expression
//! (one data input's batch followed through the ops that keep it, or dims
//! the checks of other ops of the top block make equal). `full_batch_size_like` needs no proof: it
//! reads `y`'s leading dim itself; it is used where that dim is not known
//! (a known one is folded by `constant_folding`). Only the leading dim is rewritten, and only
//! when every other element of the list is a constant (for reshape, none of
//! them `0`, which would copy a dim instead; for `full_batch_size_like`,
//! none negative). The values read (`x`, `y`) must not be written in place:
//! an in-place op can change a buffer's dims after its value was defined.
//!
//! `full_batch_size_like` takes the number of sequences instead of the
//! leading dim when its input carries a LoD; Paddle 3 programs carry none
//! unless an op makes one, so programs with sequence or LoD ops are left
//! alone.

use pir_core::{Builder, InsertPoint, OpId, Program, ValueId};
use pir_dialects::ops::{
    DataOp, FullBatchSizeLikeOp, FullIntArrayOp, FullWithTensorOp, ReshapeOp, Shape64Op, ShapeOp,
    SliceOp, StackOp,
};
use pir_dialects::pd_op::{DataType, Place};

use crate::alias::alias_class;
use crate::pass::{Changed, Pass, PassError, PassResult, PassRun};
use pir_eval::EvalTensor;
use pir_shape::{Assume, ShapeAnalysis};

use crate::transforms::constant_folding::{self, maker_value};
use crate::transforms::{copy_bookkeeping, dense_dims, ops_under};

pass_without_options! {
    /// The `batch_size_like` pass.
    INFO = "batch_size_like",
        "shapes stacked from a tensor's batch size read at run time let the kernel copy \
                  it: reshape with 0, full_batch_size_like";
    /// The `batch_size_like` pass.
    BatchSizeLike
}

impl Pass for BatchSizeLike {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        let ops = ops_under(program, root);
        let candidates: Vec<OpId> = ops
            .iter()
            .copied()
            .filter(|&op| {
                matches!(
                    program.op_name_str(op),
                    ReshapeOp::NAME | FullWithTensorOp::NAME
                )
            })
            .collect();
        if candidates.is_empty() {
            cx.statistics.add("shapes rewritten", 0);
            return Ok(Changed::No);
        }
        let lod_free = !ops.iter().any(|&op| {
            let name = program.op_name_str(op);
            name.contains("sequence") || name.contains("lod")
        });
        // Rewriting keeps every value the analysis saw, so it holds for the
        // whole run. It assumes only the checks of ops that always run and
        // stay: a rewritten reshape no longer checks that `x` has `y`'s
        // batch, so its own check (the element count) proves nothing.
        let rewritten_ops = candidates.iter().copied().collect();
        let shapes = ShapeAnalysis::run_assuming(program, Assume::TopLevelExcept(rewritten_ops));
        let mut rewritten = 0u64;
        for op in candidates {
            let done = if let Some(reshape) = ReshapeOp::from_op(program, op) {
                reshape_copying_batch(program, &shapes, reshape)
            } else if let Some(full) = FullWithTensorOp::from_op(program, op).filter(|_| lod_free) {
                full_batch_size_like(program, &shapes, full)?
            } else {
                false
            };
            rewritten += u64::from(done);
        }
        cx.statistics.add("shapes rewritten", rewritten);
        Ok(Changed::from(rewritten > 0))
    }
}

/// One element of a stacked shape list.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Element {
    /// A constant.
    Const(i64),
    /// `shape(y)[0]`: the leading dim of `y` at run time.
    BatchOf(ValueId),
}

/// The elements of `shape` when it is `stack(combine(e...), axis 0)` of
/// 0-d constants and leading-dim reads.
fn stacked_elements(p: &Program, shape: ValueId) -> Option<Vec<Element>> {
    let stack = StackOp::from_op(p, p.defining_op(shape)?)?;
    if stack.axis(p)? != 0 {
        return None;
    }
    let list = stack.x(p)?;
    let combine = p.defining_op(list)?;
    if p.op_name_str(combine) != "builtin.combine" {
        return None;
    }
    p.operands(combine)
        .map(|e| {
            let e = e?;
            if let Some(y) = p.defining_op(e).and_then(|def| leading_dim_read(p, def)) {
                return Some(Element::BatchOf(y));
            }
            let t = small_constant(p, e, 1).filter(|t| !t.dtype().is_float())?;
            // The type said one element; the maker's own attributes decide.
            match t.to_i64_vec()[..] {
                [c] => Some(Element::Const(c)),
                _ => None,
            }
        })
        .collect()
}

/// The value of `v` when a constant maker makes it and its type says it
/// has `elements` elements (checked before anything is computed, so a large
/// constant costs nothing).
fn small_constant(p: &Program, v: ValueId, elements: i64) -> Option<EvalTensor> {
    if dense_dims(p, v)?.iter().product::<i64>() != elements {
        return None;
    }
    maker_value(p, p.defining_op(v)?).ok()?
}

/// `y` when `op` is `slice(shape(y), [0], [1], axes [0], decrease_axis
/// [0])` and nothing writes `y`.
fn leading_dim_read(p: &Program, op: OpId) -> Option<ValueId> {
    let slice = SliceOp::from_op(p, op)?;
    if slice.axes(p)? != [0] || slice.decrease_axis(p)? != [0] {
        return None;
    }
    let bound = |v: Option<ValueId>| Some(small_constant(p, v?, 1)?.to_i64_vec());
    if bound(slice.starts(p))? != [0] || bound(slice.ends(p))? != [1] {
        return None;
    }
    let shape_op = p.defining_op(slice.input(p)?)?;
    if !matches!(p.op_name_str(shape_op), ShapeOp::NAME | Shape64Op::NAME) {
        return None;
    }
    let y = p.operand(shape_op, 0)?;
    (!alias_class(p, y).facts.written).then_some(y)
}

/// Whether the leading dim of `y` is not a known integer and is the batch
/// of a data input: a value made otherwise (`array_to_tensor`) may carry a
/// LoD, and then `full_batch_size_like` would count its sequences.
fn unknown_leading_dim(p: &Program, shapes: &ShapeAnalysis, y: ValueId) -> bool {
    let Some(d) = shapes.dim(y, 0).filter(|d| !d.is_int()) else {
        return false;
    };
    p.block_ops(p.top_block())
        .filter(|&op| p.op_name_str(op) == DataOp::NAME && p.num_results(op) == 1)
        .any(|op| {
            shapes
                .dim(p.result(op, 0), 0)
                .is_some_and(|b| shapes.dims_equal(b, d))
        })
}

/// `reshape(x, stack([shape(y)[0], c...]))` → `reshape(x, [0, c...])`.
fn reshape_copying_batch(p: &mut Program, shapes: &ShapeAnalysis, reshape: ReshapeOp) -> bool {
    let (Some(x), Some(shape)) = (reshape.x(p), reshape.shape(p)) else {
        return false;
    };
    let Some(elements) = stacked_elements(p, shape) else {
        return false;
    };
    let Some((&Element::BatchOf(y), rest)) = elements.split_first() else {
        return false;
    };
    if !shapes.same_dim(x, 0, y, 0) || alias_class(p, x).facts.written {
        return false;
    }
    let mut list = vec![0];
    for e in rest {
        match *e {
            Element::Const(c) if c != 0 => list.push(c),
            _ => return false,
        }
    }
    let ctx = p.ctx();
    let i64_type = ctx.intern_type(pir_core::builtin::ScalarType::I64);
    let list_type = pir_core::builtin::DenseTensorType::get(ctx, i64_type, &[list.len() as i64]);
    let op = reshape.0;
    let mut b = Builder::new(p, InsertPoint::Before(op));
    let maker = FullIntArrayOp::build(&mut b, &list, DataType::Int64, Place::cpu(), &[list_type]);
    // A constant: no gradient, whatever the reshape's.
    copy_bookkeeping(p, op, maker.0);
    p.set_attr(maker.0, "stop_gradient", constant_folding::stop_gradient(p));
    let made = maker.out(p);
    p.set_operand(op, 1, Some(made)).is_ok()
}

/// `full_with_tensor(v, stack([c..., shape(y)[0], c...]))` →
/// `full_batch_size_like(y, ...)`.
fn full_batch_size_like(
    p: &mut Program,
    shapes: &ShapeAnalysis,
    full: FullWithTensorOp,
) -> Result<bool, PassError> {
    let (Some(value), Some(shape), Some(dtype)) = (full.value(p), full.shape(p), full.dtype(p))
    else {
        return Ok(false);
    };
    // `full_batch_size_like` needs a dtype to pick its kernel.
    if dtype == DataType::Undefined {
        return Ok(false);
    }
    let Some(elements) = stacked_elements(p, shape) else {
        return Ok(false);
    };
    let mut batch = None;
    let mut list = Vec::with_capacity(elements.len());
    for (i, e) in elements.iter().enumerate() {
        match *e {
            Element::BatchOf(y) if batch.is_none() && unknown_leading_dim(p, shapes, y) => {
                batch = Some((i, y));
                list.push(-1);
            }
            Element::Const(c) if c >= 0 => match i32::try_from(c) {
                Ok(c) => list.push(c),
                Err(_) => return Ok(false),
            },
            _ => return Ok(false),
        }
    }
    let Some((index, y)) = batch else {
        return Ok(false);
    };
    let Some(v) = small_constant(p, value, 1).and_then(|t| match t.to_f64_vec()[..] {
        [v] => Some(v),
        _ => None,
    }) else {
        return Ok(false);
    };
    let (Ok(index), op) = (i32::try_from(index), full.0) else {
        return Ok(false);
    };
    let out_type = p.value_type(full.out(p));
    let mut b = Builder::new(p, InsertPoint::Before(op));
    let like = FullBatchSizeLikeOp::build(
        &mut b,
        y,
        &list,
        dtype,
        v,
        0,
        index,
        Place::undefined(),
        &[out_type],
    );
    copy_bookkeeping(p, op, like.0);
    let (old, new) = (full.out(p), like.out(p));
    p.replace_all_uses_with(old, new);
    p.erase_op(op).map_err(|e| PassError {
        pass: INFO.argument.into(),
        message: e.to_string(),
    })?;
    Ok(true)
}
