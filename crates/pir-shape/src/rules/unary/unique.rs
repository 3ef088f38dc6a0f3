//! `unique` and `unique_consecutive` (Paddle's `unary_infer_sym.cc`): the
//! count of distinct values is known only when run, so it is one fresh
//! symbol shared by the values, indices and counts; consecutive duplicates
//! of known small data are removed at analysis time.

use super::super::{Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::TensorFact;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.unique", unique),
    ("pd_op.unique_consecutive", unique_consecutive),
];

/// The shapes along the unique axis (the flattened input when `axes` is
/// empty): the values, with `n` distinct entries, and the inverse index.
fn unique_shapes(
    cx: &mut Cx<'_>,
    x: &[DimExpr],
    axes: &[i64],
    n: &DimExpr,
) -> Result<(Vec<DimExpr>, Vec<DimExpr>), super::super::Bad> {
    match axes.first() {
        None => {
            let total = cx.product(x);
            Ok((vec![n.clone()], vec![total]))
        }
        Some(&a) => {
            let a = cx.axis(a, x.len())?;
            let mut out = x.to_vec();
            out[a] = n.clone();
            Ok((out, vec![x[a].clone()]))
        }
    }
}

/// `shape` when `wanted`, else the 0-D shape Paddle gives absent outputs.
fn if_wanted(wanted: bool, shape: Vec<DimExpr>) -> Vec<DimExpr> {
    if wanted {
        shape
    } else {
        Vec::new()
    }
}

fn unique(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let axes = cx.ints_attr("axis").unwrap_or_default();
    let n = cx.sym();
    let (out, inverse) = unique_shapes(cx, &x, &axes, &n)?;
    let index = cx.bool_attr("return_index").unwrap_or(false);
    let inv = cx.bool_attr("return_inverse").unwrap_or(false);
    let counts = cx.bool_attr("return_counts").unwrap_or(false);
    cx.set_shape(0, out);
    cx.set_shape(1, if_wanted(index, vec![n.clone()]));
    cx.set_shape(2, if_wanted(inv, inverse));
    cx.set_shape(3, if_wanted(counts, vec![n]));
    Ok(())
}

fn unique_consecutive(cx: &mut Cx<'_>) -> Res {
    let x = cx.tensor(0)?;
    let axes = cx.ints_attr("axis").unwrap_or_default();
    let inv = cx.bool_attr("return_inverse").unwrap_or(false);
    let counts = cx.bool_attr("return_counts").unwrap_or(false);
    if let Some(data) = x.data.as_ref().filter(|_| x.rank() == 1 || axes.is_empty()) {
        if data.iter().all(DimExpr::is_int) {
            let mut kept = data.clone();
            kept.dedup();
            let size = vec![DimExpr::Int(kept.len() as i64)];
            cx.set_tensor(0, TensorFact::with_data(size.clone(), kept));
            cx.set_shape(1, if_wanted(inv, x.shape));
            cx.set_shape(2, if_wanted(counts, size));
            return Ok(());
        }
    }
    let n = cx.sym();
    let (out, inverse) = unique_shapes(cx, &x.shape, &axes, &n)?;
    cx.set_shape(0, out);
    cx.set_shape(1, if_wanted(inv, inverse));
    cx.set_shape(2, if_wanted(counts, vec![n]));
    Ok(())
}
