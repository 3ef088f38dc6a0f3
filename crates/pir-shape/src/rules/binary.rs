//! Two-tensor ops (Paddle's `binary_infer_sym.cc`): matmul, gathers,
//! convolutions, embeddings.

use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.matmul", matmul),
    ("pd_op.embedding", embedding),
    ("pd_op.gather", gather),
    ("pd_op.gather_nd", gather_nd),
    ("pd_op.index_select", index_select),
    ("pd_op.conv2d", conv),
    ("pd_op.conv3d", conv),
    ("pd_op.depthwise_conv2d", conv),
    ("pd_op.conv2d_transpose", conv),
    ("pd_op.depthwise_conv2d_transpose", conv),
    ("pd_op.full_with_tensor", full_with_tensor),
    ("pd_op.expand_as", expand_as),
    ("pd_op.take_along_axis", take_along_axis),
    ("pd_op.bmm", matmul),
    ("pd_op.conv2d_transpose_bias", conv),
    ("pd_op.conv3d_transpose", conv),
    ("pd_op.depthwise_conv2d_bias", conv),
    ("pd_op.depthwise_conv3d_bias", conv),
    ("pd_op.dot", dot),
    ("pd_op.fc", fc),
    ("pd_op.mv", mv),
    ("pd_op.index_sample", index_like),
    ("pd_op.searchsorted", values_like),
];

fn matmul(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let mut y = cx.shape(1)?;
    let tx = cx.bool_attr("transpose_x").unwrap_or(false);
    let ty = cx.bool_attr("transpose_y").unwrap_or(false);
    if x.is_empty() || y.is_empty() {
        return Err(Bad("matmul of a 0-d tensor".into()));
    }
    let x_bc = x.len() == 1;
    if x_bc {
        x.insert(0, DimExpr::Int(1));
    }
    let y_bc = y.len() == 1;
    if y_bc {
        y.push(DimExpr::Int(1));
    }
    let (nx, ny) = (x.len(), y.len());
    let mut out: Vec<DimExpr> = if nx > ny {
        x[..nx - 2].to_vec()
    } else if nx < ny {
        y[..ny - 2].to_vec()
    } else {
        let mut v = Vec::with_capacity(nx - 2);
        for i in 0..nx - 2 {
            v.push(cx.broadcast(&x[i], &y[i]));
            cx.broadcastable(&x[i].clone(), &y[i].clone());
        }
        v
    };
    let m = if tx { &x[nx - 1] } else { &x[nx - 2] };
    let n = if ty { &y[ny - 2] } else { &y[ny - 1] };
    if !x_bc {
        out.push(m.clone());
    }
    if !y_bc {
        out.push(n.clone());
    }
    cx.set_shape(0, out);
    if nx == ny && nx >= 2 {
        let xk = if tx { &x[nx - 2] } else { &x[nx - 1] };
        let yk = if ty { &y[ny - 1] } else { &y[ny - 2] };
        let (a, b) = (xk.clone(), yk.clone());
        cx.eq(&a, &b);
    }
    Ok(())
}

fn embedding(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let w = cx.shape(1)?;
    let last = w
        .last()
        .cloned()
        .ok_or_else(|| Bad("embedding weight of rank 0".into()))?;
    x.push(last);
    cx.set_shape(0, x);
    Ok(())
}

fn gather(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let index = cx.shape(1)?;
    let axis = match cx.int_list(2, "axis")? {
        Some(v) => v.first().and_then(DimExpr::as_int).unwrap_or(0),
        None => 0,
    };
    let axis = cx.axis(axis, x.len())?;
    let mut out: Vec<DimExpr> = x[..axis].to_vec();
    if !index.is_empty() {
        out.push(index[0].clone());
    }
    out.extend_from_slice(&x[axis + 1..]);
    cx.set_shape(0, out);
    Ok(())
}

fn gather_nd(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let index = cx.shape(1)?;
    let Some(last) = index.last() else {
        cx.set_shape(0, x);
        return Ok(());
    };
    let k = last
        .as_int()
        .ok_or_else(|| Bad("gather_nd index depth unknown".into()))?;
    let k = usize::try_from(k)
        .ok()
        .filter(|&k| k <= x.len())
        .ok_or_else(|| Bad("gather_nd index depth out of range".into()))?;
    let mut out: Vec<DimExpr> = index[..index.len() - 1].to_vec();
    out.extend_from_slice(&x[k..]);
    cx.set_shape(0, out);
    Ok(())
}

fn index_select(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let index = cx.shape(1)?;
    let axis = cx.axis(cx.int_attr("axis").unwrap_or(0), x.len())?;
    if let Some(n) = index.first() {
        x[axis] = n.clone();
    }
    cx.set_shape(0, x);
    Ok(())
}

/// Convolutions: the batch from the input, the channels from the filter
/// (or the type), the spatial extents from the result type.
fn conv(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let dims = cx
        .result_dims(0)
        .ok_or_else(|| Bad("convolution result is not a tensor".into()))?;
    let mut out = Vec::with_capacity(dims.len());
    for (i, &d) in dims.iter().enumerate() {
        if i == 0 {
            out.push(if d >= 0 && x.first().is_some_and(DimExpr::is_int) {
                DimExpr::Int(d)
            } else {
                x.first().cloned().unwrap_or(DimExpr::Int(d))
            });
        } else if d >= 0 {
            out.push(DimExpr::Int(d));
        } else {
            out.push(cx.sym());
        }
    }
    cx.set_shape(0, out);
    Ok(())
}

fn full_with_tensor(cx: &mut Cx<'_>) -> Res {
    let shape = cx
        .tensor(1)?
        .data
        .ok_or_else(|| Bad("full_with_tensor shape unknown".into()))?;
    cx.set_shape(0, shape);
    Ok(())
}

fn expand_as(cx: &mut Cx<'_>) -> Res {
    let y = match cx.operand(1) {
        Some(_) => cx.shape(1)?,
        None => {
            let dims = cx.ints_attr("target_shape").unwrap_or_default();
            super::ints(&dims)
        }
    };
    cx.set_shape(0, y);
    Ok(())
}

fn take_along_axis(cx: &mut Cx<'_>) -> Res {
    let index = cx.shape(1)?;
    cx.set_shape(0, index);
    Ok(())
}

/// `dot`: the batch dims of `x` (its last dim reduced).
fn dot(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    x.pop();
    cx.set_shape(0, x);
    Ok(())
}

fn mv(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let rows = x
        .first()
        .cloned()
        .ok_or_else(|| Bad("mv of a 0-d matrix".into()))?;
    cx.set_shape(0, vec![rows]);
    Ok(())
}

/// The result is shaped like the index (operand 1).
fn index_like(cx: &mut Cx<'_>) -> Res {
    let s = cx.shape(1)?;
    cx.set_shape(0, s);
    Ok(())
}

/// The result is shaped like the values searched for (operand 1).
fn values_like(cx: &mut Cx<'_>) -> Res {
    let s = cx.shape(1)?;
    cx.set_shape(0, s);
    Ok(())
}

/// `fc`: the leading `in_num_col_dims` dims of the input, then the
/// weight's columns.
fn fc(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let w = cx.shape(1)?;
    let k = usize::try_from(cx.int_attr("in_num_col_dims").unwrap_or(1))
        .ok()
        .filter(|&k| k <= x.len())
        .ok_or_else(|| Bad("fc in_num_col_dims out of range".into()))?;
    let n = w
        .get(1)
        .cloned()
        .ok_or_else(|| Bad("fc weight of rank below 2".into()))?;
    let mut out = x[..k].to_vec();
    out.push(n);
    cx.set_shape(0, out);
    Ok(())
}
