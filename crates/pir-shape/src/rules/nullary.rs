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
    ("pd_op.randperm", randperm),
    ("pd_op.read_file", read_file),
    ("pd_op.recv_v2", recv_v2),
    ("pd_op.tril_indices", tril_indices),
    ("pd_op.triu_indices", triu_indices),
    ("pd_op.truncated_gaussian_random", shape_attr),
    ("pd_op.cudnn_lstm", cudnn_lstm),
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

/// `randperm`: a permutation of `n`.
fn randperm(cx: &mut Cx<'_>) -> Res {
    let n = cx.int_attr("n").unwrap_or(0);
    cx.set_shape(0, vec![DimExpr::Int(n)]);
    Ok(())
}

/// `read_file`: the bytes of a file, `[1, size]` with the size known only
/// when run.
fn read_file(cx: &mut Cx<'_>) -> Res {
    let n = cx.sym();
    cx.set_shape(0, vec![DimExpr::Int(1), n]);
    Ok(())
}

/// `recv_v2`: the `out_shape` attribute, every dim at least 1, unless the
/// shape is sent along (`dynamic_shape`), when the result keeps its type's.
fn recv_v2(cx: &mut Cx<'_>) -> Res {
    let peer = cx.int_attr("peer").unwrap_or(0);
    if peer < 0 {
        return Err(Bad(format!(
            "The peer ({peer}) for recv_v2 op must be non-negative."
        )));
    }
    let ring = cx.int_attr("ring_id").unwrap_or(0);
    if ring < 0 {
        return Err(Bad(format!(
            "The ring_id ({ring}) for recv_v2 op must be non-negative."
        )));
    }
    if cx.bool_attr("dynamic_shape").unwrap_or(false) {
        return Ok(());
    }
    let shape = cx.ints_attr("out_shape").unwrap_or_default();
    if shape.is_empty() {
        return Err(Bad(
            "The size of the output shape must be greater than 0 but the value given is 0.".into(),
        ));
    }
    if let Some((i, d)) = shape.iter().enumerate().find(|(_, &d)| d < 1) {
        return Err(Bad(format!(
            "The shape attribute for recv_v2 must be set explicitly, but the {i}th element \
             is {d} which is less than 1. Or dynamic_shape should be set to True for both \
             send_v2 and recv_v2."
        )));
    }
    cx.set_shape(0, ints(&shape));
    Ok(())
}

/// The elements of a `rows x cols` matrix on or below the diagonal
/// `offset` (Paddle's count for `tril_indices`).
fn lower_triangle_len(rows: i64, cols: i64, offset: i64) -> i128 {
    let (rows, cols, offset) = (i128::from(rows), i128::from(cols), i128::from(offset));
    let first = if offset > 0 {
        cols.min(1 + offset)
    } else {
        i128::from(rows + offset > 0)
    };
    let last = cols.min(rows + offset).max(0);
    let all_rows = rows.min(rows + offset).max(0);
    let trapezoid_rows = last - first + 1;
    let mut n = ((first + last) * trapezoid_rows) >> 1;
    let rest = all_rows - trapezoid_rows;
    if rest > 0 {
        n += rest * cols;
    }
    n
}

fn indices_shape(len: i128) -> Vec<DimExpr> {
    let len = i64::try_from(len).unwrap_or(i64::MAX);
    vec![DimExpr::Int(2), DimExpr::Int(len)]
}

/// `tril_indices`: the `[2, n]` coordinates of the lower triangle.
fn tril_indices(cx: &mut Cx<'_>) -> Res {
    let rows = cx.int_attr("rows").unwrap_or(0);
    let cols = cx.int_attr("cols").unwrap_or(0);
    let offset = cx.int_attr("offset").unwrap_or(0);
    cx.set_shape(0, indices_shape(lower_triangle_len(rows, cols, offset)));
    Ok(())
}

/// `triu_indices`: the complement of the lower triangle below `offset`.
fn triu_indices(cx: &mut Cx<'_>) -> Res {
    let row = cx.int_attr("row").unwrap_or(0);
    let col = cx.int_attr("col").unwrap_or(0);
    let offset = cx.int_attr("offset").unwrap_or(0);
    let lower = lower_triangle_len(row, col, offset - 1);
    let len = i128::from(row) * i128::from(col) - lower;
    cx.set_shape(0, indices_shape(len));
    Ok(())
}

/// Ops shaped by their `shape` attribute alone.
fn shape_attr(cx: &mut Cx<'_>) -> Res {
    let shape = cx.ints_attr("shape").unwrap_or_default();
    cx.set_shape(0, ints(&shape));
    Ok(())
}

/// `cudnn_lstm` (Paddle keeps its rule with the nullary ones): the output
/// has `hidden_size` features (twice when bidirectional); the last states
/// take the initial states' shapes, which must agree with each other and
/// with the batch.
fn cudnn_lstm(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let h = cx.shape(1)?;
    let c = cx.shape(2)?;
    for (shape, name) in [(&x, "Input"), (&h, "InitH")] {
        if shape.len() != 3 {
            return Err(Bad(format!(
                "The rank of {name} in CudnnLSTM  must be 3. But received {name}'s rank is {}.",
                shape.len()
            )));
        }
    }
    if cx.operand(5).is_some() {
        let lengths = cx.shape(5)?;
        if let Some(n) = lengths.first() {
            cx.eq(&x[1], n);
        }
    }
    cx.eq(&x[1], &h[1]);
    for (a, b) in c.iter().zip(&h) {
        cx.eq(a, b);
    }
    let hidden = cx.int_attr("hidden_size").unwrap_or(0);
    let bidirectional = cx.bool_attr("is_bidirec").unwrap_or(false);
    let mut out = x;
    out[2] = DimExpr::Int(if bidirectional {
        hidden.saturating_mul(2)
    } else {
        hidden
    });
    cx.set_shape(0, out);
    cx.set_shape(1, c);
    cx.set_shape(2, h);
    Ok(())
}
