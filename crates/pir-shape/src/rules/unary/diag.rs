//! Diagonals (Paddle's `unary_infer_sym.cc`): `diag` builds a matrix from a
//! vector or takes a matrix's diagonal, `diag_embed` adds two axes,
//! `diagonal` replaces two axes by the diagonal's length.

use super::super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.diag", diag),
    ("pd_op.diag_embed", diag_embed),
    ("pd_op.diagonal", diagonal),
];

/// `diag`: a vector (or scalar) of `n` gives an `n + |offset|` square; a
/// matrix gives its diagonal, whose length is known only for known dims.
fn diag(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let offset = cx.int_attr("offset").unwrap_or(0);
    match x.as_slice() {
        [] | [_] => {
            let n = x.first().cloned().unwrap_or(DimExpr::Int(1));
            let size = cx.add(&n, &DimExpr::Int(offset.saturating_abs()));
            cx.set_shape(0, vec![size.clone(), size]);
        }
        [DimExpr::Int(rows), DimExpr::Int(cols)] => {
            let (rows, cols) = (*rows, *cols);
            let len = if offset >= 0 {
                rows.min(cols.saturating_sub(offset))
            } else {
                rows.saturating_add(offset).min(cols)
            };
            cx.set_shape(0, vec![DimExpr::Int(len.max(0))]);
        }
        [_, _] => {
            let len = cx.sym();
            cx.set_shape(0, vec![len]);
        }
        _ => {
            return Err(Bad(format!(
                "diag only support 1D/2D matrix, but input has {} dims",
                x.len()
            )))
        }
    }
    Ok(())
}

/// Normalizes `axis` against `rank`, refusing what stays out of range.
fn axis_in(axis: i64, rank: usize, extra: i64) -> Result<usize, Bad> {
    let a = if axis < 0 {
        axis + rank as i64 + extra
    } else {
        axis
    };
    usize::try_from(a)
        .ok()
        .filter(|&a| a < rank + extra as usize)
        .ok_or_else(|| Bad(format!("axis {axis} out of range for rank {rank}")))
}

/// `diag_embed`: the last dim becomes two of `n + |offset|` at `dim1` and
/// `dim2`.
fn diag_embed(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let rank = x.len();
    let d1 = axis_in(cx.int_attr("dim1").unwrap_or(-2), rank, 1)?;
    let d2 = axis_in(cx.int_attr("dim2").unwrap_or(-1), rank, 1)?;
    let offset = cx.int_attr("offset").unwrap_or(0).saturating_abs();
    let Some(last) = x.pop() else {
        return Err(Bad("diag_embed of a 0-D tensor".into()));
    };
    let len = cx.add(&DimExpr::Int(offset), &last);
    let (lo, hi) = (d1.min(d2), d1.max(d2));
    x.insert(lo.min(x.len()), len.clone());
    x.insert(hi.min(x.len()), len);
    cx.set_shape(0, x);
    Ok(())
}

/// `diagonal`: `axis1` and `axis2` removed and the diagonal's length
/// appended (a fresh symbol when the offset runs along an unknown dim).
fn diagonal(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let rank = x.len();
    let a1 = axis_in(cx.int_attr("axis1").unwrap_or(0), rank, 0)?;
    let a2 = axis_in(cx.int_attr("axis2").unwrap_or(1), rank, 0)?;
    if a1 == a2 {
        return Err(Bad(format!("diagonal over one axis {a1}")));
    }
    let offset = cx.int_attr("offset").unwrap_or(0);
    let (n1, n2) = (x[a1].clone(), x[a2].clone());
    let mut out = x;
    out.remove(a1.max(a2));
    out.remove(a1.min(a2));
    let off = DimExpr::Int(offset);
    let len = if offset == 0 {
        cx.min(&n1, &n2)
    } else if offset > 0 {
        match n2.as_int() {
            Some(n) if n - offset > 0 => {
                let rest = cx.sub(&n2, &off);
                cx.min(&n1, &rest)
            }
            Some(_) => DimExpr::Int(0),
            None => cx.sym(),
        }
    } else {
        match n1.as_int() {
            Some(n) if n + offset > 0 => {
                let rest = cx.add(&n1, &off);
                cx.min(&rest, &n2)
            }
            Some(_) => DimExpr::Int(0),
            None => cx.sym(),
        }
    };
    out.push(len);
    cx.set_shape(0, out);
    Ok(())
}
