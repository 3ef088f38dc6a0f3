//! Matrix ops of one operand (Paddle's `unary_infer_sym.cc`): square-matrix
//! ops make the last two dims equal; factorizations take `min(m, n)`.

use super::super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.cholesky", square_same),
    ("pd_op.matrix_power", square_same),
    ("pd_op.inverse", inverse),
    ("pd_op.det", det),
    ("pd_op.matrix_rank", matrix_rank),
    ("pd_op.eig", eig),
    ("pd_op.eigh", eigh),
    ("pd_op.eigvalsh", eigh),
    ("pd_op.eigvals", eigvals),
    ("pd_op.lu", lu),
    ("pd_op.lu_", lu),
    ("pd_op.qr", qr),
    ("pd_op.svd", svd),
    ("pd_op.trace", trace),
];

/// The shape of operand 0, refused below rank 2 with `msg`.
fn matrix(cx: &mut Cx<'_>, msg: impl FnOnce(usize) -> String) -> Result<Vec<DimExpr>, Bad> {
    super::shape_of_rank(cx, |r| r >= 2, msg)
}

fn at_least_2d(rank: usize) -> String {
    format!(
        "The Input(X) should have at least 2 dimensions. But received a {rank} dimension tensor."
    )
}

/// Records that the last two dims are equal.
fn square(cx: &mut Cx<'_>, x: &[DimExpr]) {
    let r = x.len();
    cx.eq(&x[r - 2], &x[r - 1]);
}

/// `cholesky`, `matrix_power`: square matrices, the shape kept.
fn square_same(cx: &mut Cx<'_>) -> Res {
    let x = matrix(cx, at_least_2d)?;
    square(cx, &x);
    cx.set_shape(0, x);
    Ok(())
}

fn inverse(cx: &mut Cx<'_>) -> Res {
    let x = matrix(cx, |r| format!("inverse of a {r}-D tensor"))?;
    square(cx, &x);
    cx.set_shape(0, x);
    Ok(())
}

/// `det`: the batch dims of square matrices.
fn det(cx: &mut Cx<'_>) -> Res {
    let x = matrix(cx, |_| {
        "the input matrix dimension size should greater than or equal to 2.".into()
    })?;
    square(cx, &x);
    cx.set_shape(0, x[..x.len() - 2].to_vec());
    Ok(())
}

/// `matrix_rank`: the batch dims (none for one matrix); Hermitian inputs
/// are square unless empty.
fn matrix_rank(cx: &mut Cx<'_>) -> Res {
    let x = matrix(cx, |_| "The dims of input must be greater than 2.".into())?;
    let numel = cx.product(&x);
    if cx.bool_attr("hermitian").unwrap_or(false) && numel != DimExpr::Int(0) {
        square(cx, &x);
    }
    let batch = if x.len() == 2 {
        Vec::new()
    } else {
        x[..x.len() - 2].to_vec()
    };
    cx.set_shape(0, batch);
    Ok(())
}

/// `eig`: Paddle gives the eigenvalues the batch dims only.
fn eig(cx: &mut Cx<'_>) -> Res {
    let x = matrix(cx, at_least_2d)?;
    square(cx, &x);
    cx.set_shape(0, x[..x.len() - 2].to_vec());
    cx.set_shape(1, x);
    Ok(())
}

/// `eigh`, `eigvalsh`: the eigenvalues drop the last dim; the vectors keep
/// the shape.
fn eigh(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let Some(values) = x.split_last().map(|(_, v)| v.to_vec()) else {
        return Err(Bad("eigh of a 0-D tensor".into()));
    };
    cx.set_shape(0, values);
    cx.set_shape(1, x);
    Ok(())
}

fn eigvals(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let Some((_, values)) = x.split_last() else {
        return Err(Bad("eigvals of a 0-D tensor".into()));
    };
    cx.set_shape(0, values.to_vec());
    Ok(())
}

/// `lu`: the factors keep the shape, the pivots take `min(m, n)`, the infos
/// the batch dims (`[1]` for one matrix).
fn lu(cx: &mut Cx<'_>) -> Res {
    let x = matrix(cx, |_| {
        "The rank of input must be greater than or equal to 2.".into()
    })?;
    let r = x.len();
    cx.set_shape(0, x.clone());
    let min_mn = cx.min(&x[r - 1], &x[r - 2]);
    let infos = if r == 2 {
        vec![DimExpr::Int(1)]
    } else {
        x[..r - 2].to_vec()
    };
    cx.set_shape(2, infos);
    if cx.bool_attr("pivot").unwrap_or(true) {
        let mut pivots = x[..r - 1].to_vec();
        pivots[r - 2] = min_mn;
        cx.set_shape(1, pivots);
    }
    Ok(())
}

fn qr(cx: &mut Cx<'_>) -> Res {
    let x = matrix(cx, |_| "the rank of input must greater than 2".into())?;
    let (compute_q, reduced) = match cx.str_attr("mode").unwrap_or("reduced") {
        "reduced" => (true, true),
        "complete" => (true, false),
        "r" => (false, true),
        mode => {
            return Err(Bad(format!(
                "QR received unrecognized mode '{mode}' but expected one of 'reduced' \
                 (default), 'r', or 'complete'"
            )))
        }
    };
    let r = x.len();
    let (m, n) = (x[r - 2].clone(), x[r - 1].clone());
    let min_mn = cx.min(&m, &n);
    let k = if reduced { min_mn } else { m };
    let q = if compute_q {
        let mut q = x.clone();
        q[r - 1] = k.clone();
        q
    } else {
        vec![DimExpr::Int(0)]
    };
    cx.set_shape(0, q);
    let mut rr = x;
    rr[r - 2] = k;
    rr[r - 1] = n;
    cx.set_shape(1, rr);
    Ok(())
}

/// `svd`: `u`, `s` and `vh` from `k = min(m, n)` (`m` and `n` with full
/// matrices).
fn svd(cx: &mut Cx<'_>) -> Res {
    let x = matrix(cx, |_| {
        "the rank of input must be greater than or equal to 2".into()
    })?;
    let full = cx.bool_attr("full_matrices").unwrap_or(false);
    let r = x.len();
    let (m, n) = (x[r - 2].clone(), x[r - 1].clone());
    let k = cx.min(&m, &n);
    let mut u = x.clone();
    u[r - 1] = if full { m } else { k.clone() };
    let mut vh = x.clone();
    vh[r - 2] = if full { n } else { k.clone() };
    let mut s = x;
    s[r - 2] = k;
    s.pop();
    cx.set_shape(0, u);
    cx.set_shape(1, s);
    cx.set_shape(2, vh);
    Ok(())
}

/// `trace`: the two diagonal axes dropped.
fn trace(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let rank = x.len() as i64;
    let axis1 = cx.int_attr("axis1").unwrap_or(0);
    let axis2 = cx.int_attr("axis2").unwrap_or(1);
    let norm = |a: i64| if a < 0 { rank + a } else { a };
    let (d1, d2) = (norm(axis1), norm(axis2));
    if rank < 2 {
        return Err(Bad(format!(
            "Input(x)'s dim is out of range (expected at least 2, but got {rank})."
        )));
    }
    for (d, a, name) in [(d1, axis1, "axis1"), (d2, axis2, "axis2")] {
        if d < 0 || d >= rank {
            return Err(Bad(format!(
                "{name} is out of range (expected to be in range of [{}, {}], but got {a}).",
                -rank,
                rank - 1
            )));
        }
    }
    if d1 == d2 {
        return Err(Bad(format!(
            "The dimensions should not be identical {axis1} vs {axis2}."
        )));
    }
    let mut out = x;
    if out.len() == 2 {
        out.clear();
    } else {
        out.remove(d1.max(d2) as usize);
        out.remove(d1.min(d2) as usize);
    }
    cx.set_shape(0, out);
    Ok(())
}
