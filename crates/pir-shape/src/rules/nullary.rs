//! Ops without tensor operands that shape their results (Paddle's
//! `nullary_infer_sym.cc`): inputs, constants, ranges.

use super::{ints, Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::TensorFact;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.data", data),
    ("pd_op.feed", feed),
    ("pd_op.full", full),
    ("pd_op.full_", full),
    ("pd_op.full_int_array", full_int_array),
    ("pd_op.assign_value", assign_value),
    ("pd_op.assign_value_", assign_value),
    ("pd_op.arange", arange),
    ("pd_op.range_v2", arange),
    ("pd_op.seed", seed),
    ("pd_op.empty", shape_from_operand),
    ("pd_op.gaussian", shape_from_operand),
    ("pd_op.uniform", shape_from_operand),
    ("pd_op.randint", shape_from_operand),
    ("pd_op.eye", eye),
];

/// Most elements whose data a constant keeps (Paddle's `DATA_MAX_LENGTH`).
const DATA_MAX_LENGTH: i64 = 128;

/// Paddle's `DDim::kMaxRank`: an input of at most this many integers gets
/// a symbol per element.
const MAX_RANK: i64 = 9;

fn dims_or_syms(cx: &mut Cx<'_>, dims: &[i64]) -> Vec<DimExpr> {
    dims.iter()
        .map(|&d| if d == -1 { cx.sym() } else { DimExpr::Int(d) })
        .collect()
}

fn data(cx: &mut Cx<'_>) -> Res {
    let dims = cx
        .ints_attr("shape")
        .ok_or_else(|| Bad("`shape` attribute missing".into()))?;
    let shape = dims_or_syms(cx, &dims);
    let ty = cx.result_dims(0).unwrap_or_default();
    let small = match ty.as_slice() {
        [] => true,
        [n] => (1..=MAX_RANK).contains(n),
        _ => false,
    };
    if small && cx.result_is_int(0) {
        let n = ty.first().copied().unwrap_or(1);
        let data = (0..n).map(|_| cx.sym()).collect();
        cx.set_tensor(0, TensorFact::with_data(shape, data));
    } else {
        cx.set_shape(0, shape);
    }
    Ok(())
}

fn feed(cx: &mut Cx<'_>) -> Res {
    let dims = cx.result_dims(0).unwrap_or_default();
    let shape = dims_or_syms(cx, &dims);
    cx.set_shape(0, shape);
    Ok(())
}

fn full(cx: &mut Cx<'_>) -> Res {
    let dims = cx
        .ints_attr("shape")
        .ok_or_else(|| Bad("`shape` attribute missing".into()))?;
    let shape = ints(&dims);
    let v = cx.float_attr("value").unwrap_or(0.0);
    // Paddle keeps the value as an int64 when its float32 form is within
    // 1e-6 above the truncation.
    let trunc = v.trunc();
    let as_int = if trunc.is_finite() && trunc.abs() < 9.0e18 {
        trunc as i64
    } else {
        0
    };
    if f64::from(v as f32) - as_int as f64 > 1e-6 {
        cx.set_shape(0, shape);
        return Ok(());
    }
    match dims.as_slice() {
        [] => cx.set_tensor(0, TensorFact::with_data(shape, vec![DimExpr::Int(as_int)])),
        [n] if *n >= 0 && *n <= DATA_MAX_LENGTH => {
            let data = vec![DimExpr::Int(as_int); *n as usize];
            cx.set_tensor(0, TensorFact::with_data(shape, data));
        }
        _ => cx.set_shape(0, shape),
    }
    Ok(())
}

fn full_int_array(cx: &mut Cx<'_>) -> Res {
    let values = cx
        .ints_attr("value")
        .ok_or_else(|| Bad("`value` attribute missing".into()))?;
    let shape = vec![DimExpr::Int(values.len() as i64)];
    cx.set_tensor(0, TensorFact::with_data(shape, ints(&values)));
    Ok(())
}

fn assign_value(cx: &mut Cx<'_>) -> Res {
    let dims = cx
        .ints_attr("shape")
        .ok_or_else(|| Bad("`shape` attribute missing".into()))?;
    let shape = ints(&dims);
    let values = cx.ints_attr("values").unwrap_or_default();
    if !values.is_empty() && shape.len() <= 1 && cx.result_is_int(0) {
        cx.set_tensor(0, TensorFact::with_data(shape, ints(&values)));
    } else {
        cx.set_shape(0, shape);
    }
    Ok(())
}

/// `arange(start, end, step)`: the element count from the three values
/// when their data is known (symbolic with a unit step), else a fresh
/// symbol.
fn arange(cx: &mut Cx<'_>) -> Res {
    let first = |f: &crate::fact::ShapeOrData| f.data().and_then(|d| d.first().cloned());
    let (s, e, st) = (cx.input(0), cx.input(1), cx.input(2));
    let n = match (first(&s), first(&e), first(&st)) {
        (Some(DimExpr::Int(a)), Some(DimExpr::Int(b)), Some(DimExpr::Int(c))) if c != 0 => {
            let (a, b, c) = (i128::from(a), i128::from(b), i128::from(c).abs());
            DimExpr::Int(i64::try_from(((b - a).abs() + c - 1) / c).unwrap_or(i64::MAX))
        }
        (Some(a), Some(b), Some(DimExpr::Int(1))) => cx.sub(&b, &a),
        _ => match cx.result_dims(0).as_deref() {
            Some([n]) if *n >= 0 => DimExpr::Int(*n),
            _ => cx.sym(),
        },
    };
    cx.set_shape(0, vec![n]);
    Ok(())
}

/// Ops whose shape is operand 0's data (`empty`, random fills).
fn shape_from_operand(cx: &mut Cx<'_>) -> Res {
    if let Some(v) = cx.ints_attr("shape") {
        cx.set_shape(0, ints(&v));
        return Ok(());
    }
    let t = cx.tensor(0)?;
    match t.data {
        Some(d) => cx.set_shape(0, d),
        None => return Err(Bad("the shape operand's data is unknown".into())),
    }
    Ok(())
}

fn eye(cx: &mut Cx<'_>) -> Res {
    let rows = cx.input(0).data().and_then(|d| d.first().cloned());
    let cols = cx.input(1).data().and_then(|d| d.first().cloned());
    let rows = match rows {
        Some(r) => r,
        None => cx.sym(),
    };
    let cols = match cols {
        Some(c) if c != DimExpr::Int(-1) => c,
        _ => rows.clone(),
    };
    cx.set_shape(0, vec![rows, cols]);
    Ok(())
}

fn seed(cx: &mut Cx<'_>) -> Res {
    cx.set_shape(0, vec![DimExpr::Int(1)]);
    Ok(())
}
