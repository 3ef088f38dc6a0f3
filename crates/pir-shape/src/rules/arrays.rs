//! Tensor arrays and the stacks of control-flow gradients (Paddle's
//! `manual_op.cc` and `cf_op.cc`). An array's fact is the shape hint its
//! elements are expected to have: writes set it, and what comes out of an
//! array (a read, a slice, a pop) gets fresh symbols of the hint's rank.
//! A `while` loop's gradient pushes the forward body's values on a stack
//! (`cf.tuple_push`) that the backward body pops (`cf.tuple_pop`): the
//! popped values have the pushed values' facts.

use pir_core::{OpId, ValueId};

use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::ShapeOrData;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.create_array", create_array),
    ("pd_op.create_array_like", create_array_like),
    ("pd_op.array_write_", array_write),
    ("pd_op.array_read", array_read),
    ("pd_op.array_length", array_length),
    ("pd_op.array_to_tensor", array_to_tensor),
    ("pd_op.tensor_to_array", tensor_to_array),
    ("pd_op.add_n_array", add_n_array),
    ("pd_op.slice_array", slice_array),
    ("pd_op.slice_array_dense", slice_array_dense),
    ("pd_op.array_pop", array_pop),
    ("cf.stack_create", stack_create),
    ("cf.tuple_push", tuple_push),
    ("cf.tuple_pop", tuple_pop),
];

fn create_array(cx: &mut Cx<'_>) -> Res {
    cx.set(0, ShapeOrData::Array(Vec::new()));
    Ok(())
}

fn create_array_like(cx: &mut Cx<'_>) -> Res {
    let f = cx.input(0);
    cx.set(0, ShapeOrData::Array(f.dims().to_vec()));
    Ok(())
}

/// Writing sets the hint of both the result and the array written.
fn array_write(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(1)?;
    cx.set(0, ShapeOrData::Array(x.clone()));
    if let Some(array) = cx.operand(0) {
        cx.a.set(array, ShapeOrData::Array(x));
    }
    Ok(())
}

/// The shape hint of operand `i`, a tensor array.
fn array_hint(cx: &mut Cx<'_>, i: usize) -> Result<Vec<DimExpr>, Bad> {
    match cx.input(i) {
        ShapeOrData::Array(h) => Ok(h),
        _ => Err(Bad(format!("operand {i} is not a tensor array"))),
    }
}

/// `n` fresh symbols.
fn fresh(cx: &mut Cx<'_>, n: usize) -> Vec<DimExpr> {
    (0..n).map(|_| cx.sym()).collect()
}

/// An element read: fresh symbols of the hint's rank.
fn array_read(cx: &mut Cx<'_>) -> Res {
    let rank = array_hint(cx, 0)?.len();
    let out = fresh(cx, rank);
    cx.set_shape(0, out);
    Ok(())
}

/// A slice of an array is an array whose hint has fresh symbols.
fn slice_array(cx: &mut Cx<'_>) -> Res {
    let rank = array_hint(cx, 0)?.len();
    let hint = fresh(cx, rank);
    cx.set(0, ShapeOrData::Array(hint));
    Ok(())
}

/// A slice of an array read as one tensor: fresh symbols of the hint's rank.
fn slice_array_dense(cx: &mut Cx<'_>) -> Res {
    array_read(cx)
}

/// `array_pop`: the popped tensor's symbols first (result 1), then the
/// remaining array's hint (result 0), both fresh, as Paddle makes them.
fn array_pop(cx: &mut Cx<'_>) -> Res {
    let rank = array_hint(cx, 0)?.len();
    let out = fresh(cx, rank);
    let rest = fresh(cx, rank);
    cx.set(0, ShapeOrData::Array(rest));
    cx.set_shape(1, out);
    Ok(())
}

fn array_length(cx: &mut Cx<'_>) -> Res {
    cx.set_shape(0, vec![DimExpr::Int(1)]);
    Ok(())
}

/// The elements concatenated (a fresh extent along `axis`) or stacked (a
/// fresh dim inserted at `axis`), and a fresh count of element sizes.
fn array_to_tensor(cx: &mut Cx<'_>) -> Res {
    let mut hint = array_hint(cx, 0)?;
    let axis = cx.int_attr("axis").unwrap_or(0);
    let use_stack = cx.bool_attr("use_stack").unwrap_or(false);
    let rank = hint.len() + usize::from(use_stack);
    let a = cx.axis(axis, rank.max(1))?;
    if use_stack {
        let s = cx.sym();
        hint.insert(a.min(hint.len()), s);
    } else if let Some(slot) = hint.get_mut(a) {
        *slot = cx.sym();
    }
    cx.set_shape(0, hint);
    let s = cx.sym();
    cx.set_shape(1, vec![s]);
    Ok(())
}

/// The gradient of `array_to_tensor`: the forward array's fact.
fn tensor_to_array(cx: &mut Cx<'_>) -> Res {
    let hint = array_hint(cx, 0)?;
    cx.set(0, ShapeOrData::Array(hint));
    Ok(())
}

/// `add_n_array`: the fact of the first array of the `builtin.combine`
/// that makes its operand.
fn add_n_array(cx: &mut Cx<'_>) -> Res {
    let combine = cx
        .operand(0)
        .and_then(|v| cx.p.defining_op(v))
        .filter(|&op| cx.p.op_name_str(op) == "builtin.combine")
        .ok_or_else(|| Bad("the arrays of add_n_array are not a builtin.combine".into()))?;
    let first = (cx.p.num_operands(combine) > 0)
        .then(|| cx.p.operand(combine, 0))
        .flatten()
        .ok_or_else(|| {
            Bad("At least one operand of CombineOp should have shape or data.".into())
        })?;
    match cx.a.get(cx.p, first) {
        ShapeOrData::Array(hint) => {
            cx.set(0, ShapeOrData::Array(hint));
            Ok(())
        }
        _ => Err(Bad(
            "the operands of add_n_array are not tensor arrays".into()
        )),
    }
}

/// A stack and its two ends share one fact, a fresh one-dim shape: the
/// mark by which a pop finds what was pushed.
fn stack_create(cx: &mut Cx<'_>) -> Res {
    let mark = ShapeOrData::shape(vec![cx.sym()]);
    for r in 0..3 {
        cx.set(r, mark.clone());
    }
    Ok(())
}

/// A push has no results; its pop reads the pushed values' facts.
fn tuple_push(_: &mut Cx<'_>) -> Res {
    Ok(())
}

/// The `cf.tuple_push` of the stack whose outlet `pop` reads.
fn push_of_pop(cx: &Cx<'_>) -> Option<OpId> {
    let stack = cx.p.defining_op(cx.operand(0)?)?;
    if cx.p.op_name_str(stack) != "cf.stack_create" || cx.p.num_results(stack) < 2 {
        return None;
    }
    let inlet = cx.p.result(stack, 1);
    let mut uses = cx.p.uses(inlet);
    let push = cx.p.operand_owner(uses.next()?);
    (uses.next().is_none() && cx.p.op_name_str(push) == "cf.tuple_push").then_some(push)
}

/// `cf.tuple_pop` has no rule of its own in Paddle: results of known dims
/// take their types' shapes; otherwise they take the facts the matching
/// `cf.tuple_push` recorded for them (Paddle's op cache), when the push was
/// inferred.
fn tuple_pop(cx: &mut Cx<'_>) -> Res {
    let all_static =
        (0..cx.num_results()).all(|r| cx.result_dims(r).is_some_and(|d| d.iter().all(|&x| x >= 0)));
    if all_static {
        return Ok(());
    }
    let Some(push) = push_of_pop(cx) else {
        return Ok(());
    };
    let pushed: Vec<ValueId> = (1..cx.p.num_operands(push))
        .filter_map(|i| cx.p.operand(push, i))
        .collect();
    if pushed.len() != cx.num_results() {
        return Err(Bad(
            "The pop elements size must equal to push elements size.".into(),
        ));
    }
    let facts: Option<Vec<ShapeOrData>> = pushed.iter().map(|&v| cx.a.fact(v).cloned()).collect();
    if let Some(facts) = facts {
        for (r, f) in facts.into_iter().enumerate() {
            cx.set(r, f);
        }
    }
    Ok(())
}
