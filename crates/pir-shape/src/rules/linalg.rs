//! Matrix ops (Paddle keeps them in `binary_infer_sym.cc` and
//! `multiary_infer_sym.cc`): solvers, factorizations, products over
//! flattened or batched matrices.

use super::binary::{dim, dim_from_end};
use super::element_wise::{broadcast_shapes, left_padded};
use super::{rank_is, Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.kron", kron),
    ("pd_op.lstsq", lstsq),
    ("pd_op.lu_unpack", lu_unpack),
    ("pd_op.matrix_rank_tol", matrix_rank_tol),
    ("pd_op.matmul_with_flatten", matmul_with_flatten),
    ("pd_op.triangular_solve", triangular_solve),
    ("pd_op.solve", triangular_solve),
    ("pd_op.cholesky_solve", cholesky_solve),
    ("pd_op.addmm", addmm),
    ("pd_op.addmm_", addmm),
    ("pd_op.baddbmm", baddbmm),
    ("pd_op.baddbmm_", baddbmm),
    ("pd_op.batch_fc", batch_fc),
    ("pd_op.bilinear", bilinear),
    ("pd_op.llm_int8_linear", llm_int8_linear),
    ("pd_op.weight_only_linear", weight_only_linear),
    ("pd_op.linear_v2", linear_v2),
    ("pd_op.multi_dot", multi_dot),
];

/// The rank of a matrix operand, refused below 2.
fn matrix_rank(x: &[DimExpr], what: &str) -> Result<usize, Bad> {
    if x.len() < 2 {
        return Err(Bad(format!(
            "The rank of {what} must be greater than or equal to 2."
        )));
    }
    Ok(x.len())
}

fn kron(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let y = cx.shape(1)?;
    let rank = x.len().max(y.len());
    let mut out = Vec::with_capacity(rank);
    for i in 0..rank {
        let d = cx.mul(&left_padded(&x, rank, i), &left_padded(&y, rank, i));
        out.push(d);
    }
    cx.set_shape(0, out);
    Ok(())
}

fn lstsq(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let y = cx.shape(1)?;
    if !(x.len() >= 2 && y.len() >= 2 && x.len() == y.len()) {
        return Err(Bad(format!(
            "Expects input tensor x and y to have the same dimension, and the rank of input tensor x and y should be greater than or equal to 2, but received the rank of input tensor x is {}, the rank of input tensor y is {}",
            x.len(),
            y.len()
        )));
    }
    let r = x.len();
    let (m, n, nrhs) = (x[r - 2].clone(), x[r - 1].clone(), y[r - 1].clone());
    let mut batch = Vec::with_capacity(r);
    for i in 0..r - 2 {
        cx.eq(&x[i], &y[i]);
        batch.push(x[i].clone());
    }
    cx.eq(&m, &y[r - 2]);
    cx.set_shape(2, batch.clone());
    // Paddle 3.3.1 gives the residuals one fresh extent, whatever `m`
    // and `n` are.
    if !cx.result_is_null(1) {
        let residuals = cx.sym();
        cx.set_shape(1, vec![residuals]);
    }
    let mut singular = batch.clone();
    singular.push(cx.min(&m, &n));
    cx.set_shape(3, singular);
    let mut solution = batch;
    solution.push(n);
    solution.push(nrhs);
    cx.set_shape(0, solution);
    Ok(())
}

fn lu_unpack(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let r = matrix_rank(&x, "input")?;
    let (m, n) = (x[r - 1].clone(), x[r - 2].clone());
    if cx.bool_attr("unpack_pivots").unwrap_or(true) {
        let mut p = x.clone();
        p[r - 1] = n.clone();
        cx.set_shape(0, p);
    }
    if cx.bool_attr("unpack_ludata").unwrap_or(true) {
        let (mut l, mut u) = (x.clone(), x);
        if let (Some(mv), Some(nv)) = (m.as_int(), n.as_int()) {
            if mv >= nv {
                l[r - 1] = n;
            } else {
                u[r - 2] = m;
            }
        }
        cx.set_shape(1, l);
        cx.set_shape(2, u);
    }
    Ok(())
}

fn matrix_rank_tol(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let tol = cx.shape(1)?;
    let r = x.len();
    if r < 2 {
        return Err(Bad("The dims of input must be greater than 2".into()));
    }
    if cx.bool_attr("hermitian").unwrap_or(false) {
        cx.eq(&x[r - 2], &x[r - 1]);
    }
    let out = broadcast_shapes(cx, &x[..r - 2], &tol);
    cx.set_shape(0, out);
    Ok(())
}

fn matmul_with_flatten(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let y = cx.shape(1)?;
    let xk = cx.int_attr("x_num_col_dims").unwrap_or(1);
    let yk = cx.int_attr("y_num_col_dims").unwrap_or(1);
    let fits = |dims: &[DimExpr], k: i64| usize::try_from(k).ok().filter(|&k| dims.len() > k);
    let xk = fits(&x, xk).ok_or_else(|| {
        Bad("The input tensor X's dimensions of MulOp should be larger than x_num_col_dims.".into())
    })?;
    let yk = fits(&y, yk).ok_or_else(|| {
        Bad("The input tensor Y's dimensions of MulOp should be larger than y_num_col_dims.".into())
    })?;
    let (x_mat, y_mat) = (&x[xk..], &y[..yk]);
    if x_mat.len() != y_mat.len() {
        return Err(Bad(
            "The second dimension of input x_mat_dims should be equal to the first dimension of input y_mat_dims.".into(),
        ));
    }
    for (a, b) in x_mat.iter().zip(y_mat) {
        cx.eq(a, b);
    }
    let mut out = x[..xk].to_vec();
    out.extend_from_slice(&y[yk..]);
    cx.set_shape(0, out);
    Ok(())
}

/// Paddle's `MatrixGetBroadcastBatchPortion`: the batch dims of two
/// stacks of matrices broadcast together (nothing when `y` has none).
fn broadcast_batch(cx: &mut Cx<'_>, x: &[DimExpr], y: &[DimExpr]) -> Vec<DimExpr> {
    if y.is_empty() {
        return Vec::new();
    }
    let n = x.len().max(y.len());
    let mut out: Vec<DimExpr> = if x.len() > y.len() {
        x[..n - y.len()].to_vec()
    } else {
        y[..n - x.len()].to_vec()
    };
    let (xs, ys) = (&x[x.len() + out.len() - n..], &y[y.len() + out.len() - n..]);
    for (a, b) in xs.iter().zip(ys) {
        cx.broadcastable(a, b);
        out.push(cx.broadcast(a, b));
    }
    out
}

/// A square system `a` (its last two dims equal) solved for the right
/// sides `b`: the batch dims broadcast, then `b`'s matrix dims.
fn solve_square(cx: &mut Cx<'_>, a: &[DimExpr], b: &[DimExpr]) -> Res {
    let ra = matrix_rank(a, "the matrix")?;
    let rb = matrix_rank(b, "the right-hand side")?;
    cx.eq(&a[ra - 2], &a[ra - 1]);
    let mut out = broadcast_batch(cx, &a[..ra - 2], &b[..rb - 2]);
    out.push(dim_from_end(b, 2, "the right-hand side")?);
    out.push(dim(b, rb - 1, "the right-hand side")?);
    cx.set_shape(0, out);
    Ok(())
}

fn triangular_solve(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let y = cx.shape(1)?;
    solve_square(cx, &x, &y)
}

/// `cholesky_solve`: operand 0 holds the right sides, operand 1 the factor.
fn cholesky_solve(cx: &mut Cx<'_>) -> Res {
    let b = cx.shape(0)?;
    let a = cx.shape(1)?;
    solve_square(cx, &a, &b)
}

fn addmm(cx: &mut Cx<'_>) -> Res {
    scaled_product_plus_input(cx, 2)
}

fn baddbmm(cx: &mut Cx<'_>) -> Res {
    scaled_product_plus_input(cx, 3)
}

/// `addmm` (`rank` 2) and `baddbmm` (`rank` 3): `x @ y` over factors of
/// `rank` (their leading batch dim equal), plus `input`, broadcastable to
/// the product and of its rank or one less (then without the rows dim).
fn scaled_product_plus_input(cx: &mut Cx<'_>, rank: usize) -> Res {
    let input = cx.shape(0)?;
    let x = cx.shape(1)?;
    let y = cx.shape(2)?;
    if input.len() != rank && input.len() + 1 != rank {
        return Err(Bad(format!(
            "The input tensor input's dimension must be {rank} or {}. But received input's dimension = [{}].",
            rank - 1,
            input.len()
        )));
    }
    for (t, what) in [(&x, "x"), (&y, "y")] {
        rank_is(t, rank, |r| {
            format!("The input tensor {what}'s dimension must be {rank}. But received {what}'s dimension = [{r}].")
        })?;
    }
    let rows = rank - 2;
    let mut out = x[..=rows].to_vec();
    out.push(y[rank - 1].clone());
    cx.set_shape(0, out.clone());
    for b in 0..rows {
        cx.eq(&x[b], &y[b]);
    }
    cx.eq(&x[rank - 1], &y[rows]);
    let targets = (0..rank).filter(|&i| input.len() == rank || i != rows);
    for (d, i) in input.iter().zip(targets) {
        cx.broadcastable(d, &out[i]);
    }
    Ok(())
}

fn batch_fc(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let w = cx.shape(1)?;
    let bias = cx.shape(2)?;
    rank_is(&input, 3, |_| "Input of BatchFcOp should have 3D.".into())?;
    rank_is(&w, 3, |_| "W of BatchFcOp should have 3D.".into())?;
    cx.eq(&input[0], &w[0]);
    cx.eq(&input[2], &w[1]);
    let b0 = dim(&bias, 0, "Input(Bias)")?;
    let b1 = dim(&bias, 1, "Input(Bias)")?;
    cx.eq(&b0, &input[0]);
    cx.eq(&b1, &w[2]);
    cx.set_shape(0, vec![input[0].clone(), input[1].clone(), w[2].clone()]);
    Ok(())
}

fn bilinear(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let y = cx.shape(1)?;
    let w = cx.shape(2)?;
    rank_is(&x, 2, |_| "The input(X) must be a 2D Tensor.".into())?;
    rank_is(&y, 2, |_| "The input(Y) must be a 2D Tensor.".into())?;
    rank_is(&w, 3, |r| {
        format!("Expected the input(Weight) is a 3D tensor. But received {r}D tensor.")
    })?;
    cx.eq(&x[0], &y[0]);
    cx.eq(&x[1], &w[1]);
    cx.eq(&y[1], &w[2]);
    if cx.operand(3).is_some() {
        let bias = cx.shape(3)?;
        rank_is(&bias, 2, |_| {
            "The Input(Bias) must be a 2-D tensor with the 2nd dimension fixed to 1 (a row vector)."
                .into()
        })?;
        cx.eq(&bias[0], &DimExpr::Int(1));
        cx.eq(&bias[1], &w[0]);
    }
    cx.set_shape(0, vec![x[0].clone(), w[0].clone()]);
    Ok(())
}

/// `llm_int8_linear`: `x` with its last dim replaced by the weight's rows
/// (a multiple of 16, as are its columns).
fn llm_int8_linear(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let w = cx.shape(1)?;
    let scale = cx.shape(3)?;
    rank_is(&w, 2, |_| "The input(weight) must be a 2D Tensor.".into())?;
    let last = dim_from_end(&x, 1, "Input(X)")?;
    cx.eq(&w[1], &last);
    for (d, which) in [(&w[0], "first"), (&w[1], "second")] {
        if let Some(n) = d.as_int() {
            if n % 16 != 0 {
                return Err(Bad(format!(
                    "The {which} dimension of input must be divisible by 16, but got[{n}]"
                )));
            }
        }
    }
    cx.eq(&dim(&scale, 0, "Input(WeightScale)")?, &w[0]);
    let mut out = x;
    let n = out.len();
    out[n - 1] = w[0].clone();
    cx.set_shape(0, out);
    Ok(())
}

/// `weight_only_linear`: `x` with its last dim replaced by the output
/// channels the scales count.
fn weight_only_linear(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let w = cx.shape(1)?;
    let scale = cx.shape(3)?;
    let dtype = cx.str_attr("weight_dtype").unwrap_or("int8").to_string();
    let group = cx.int_attr("group_size").unwrap_or(-1);
    if !matches!(group, -1 | 64 | 128) {
        return Err(Bad("group_size must be -1, 64 or 128.".into()));
    }
    let n = dim(
        &scale,
        if group == -1 { 0 } else { 1 },
        "Input(WeightScale)",
    )?;
    if dtype != "int8" && dtype != "int4" {
        return Err(Bad("quant_method must be 'int8' or 'int4'.".into()));
    }
    rank_is(&w, 2, |_| "The input(weight) must be a 2D Tensor.".into())?;
    cx.eq(&dim_from_end(&x, 1, "Input(X)")?, &w[1]);
    if cx.operand(2).is_some() && cx.shape(2)?.len() != 1 {
        return Err(Bad(
            "The size of Input(Bias)'s dimension should equal to 1UL.".into(),
        ));
    }
    if group == -1 {
        rank_is(&scale, 1, |_| {
            "The input(weight_scale) must be a 1D Tensor.in per-channel mode.".into()
        })?;
    } else {
        rank_is(&scale, 2, |_| {
            "The input(weight_scale) must be a 2D Tensor in groupwise mode.".into()
        })?;
        let padded = cx.add(&w[1], &DimExpr::Int(group - 1));
        let groups = cx.div(&padded, &DimExpr::Int(group));
        cx.eq(&scale[0], &groups);
    }
    let mut out = x;
    let last = out.len() - 1;
    out[last] = n;
    cx.set_shape(0, out);
    Ok(())
}

/// `linear_v2`: `input @ weight + bias` over the last dim of `input`; the
/// weight is `[in, out]`, or `[out, in]` when transposed.
fn linear_v2(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    if x.len() == 1 {
        // A vector input is one row.
        x.insert(0, DimExpr::Int(1));
    }
    let w = cx.shape(1)?;
    let bias = cx.shape(2)?;
    if w.len() != 2 {
        return Err(Bad(format!(
            "The weight of linear_v2 must be a 2-D tensor, but received {}-D",
            w.len()
        )));
    }
    let (k, n) = if cx.bool_attr("transpose_weight").unwrap_or(false) {
        (&w[1], &w[0])
    } else {
        (&w[0], &w[1])
    };
    let last = dim_from_end(&x, 1, "Input(Input)")?;
    cx.eq(k, &last);
    cx.eq(&dim(&bias, 0, "Input(Bias)")?, n);
    let mut out = x[..x.len() - 1].to_vec();
    out.push(n.clone());
    cx.set_shape(0, out);
    Ok(())
}

/// `multi_dot`: a chain of matrix products; a 1-D first operand is a row
/// and a 1-D last one a column, whose unit dims the result drops.
fn multi_dot(cx: &mut Cx<'_>) -> Res {
    let items = cx.list(0)?;
    let (Some(first), Some(last)) = (items.first(), items.last()) else {
        return Err(Bad(
            "The number of input tensors in multi_dot op should > 1".into(),
        ));
    };
    if items.len() < 2 {
        return Err(Bad(
            "The number of input tensors in multi_dot op should > 1".into(),
        ));
    }
    let first_rank = first.rank();
    if first_rank >= 3 {
        return Err(Bad(format!(
            "multi_dot: the first input tensor must be 1D or 2D but got[{first_rank}]!"
        )));
    }
    if last.rank() >= 3 {
        // Paddle reports the first operand's rank here.
        return Err(Bad(format!(
            "the last input tensor of multi_dot must be 1D or 2D but got[{first_rank}]!"
        )));
    }
    let row = first_rank == 1;
    let (first_rows, mut width) = if row {
        (DimExpr::Int(1), dim(&first.shape, 0, "Input(X[0])")?)
    } else {
        (
            dim(&first.shape, 0, "Input(X[0])")?,
            dim(&first.shape, 1, "Input(X[0])")?,
        )
    };
    let (last_rows, out) = if last.rank() == 1 {
        let out = if row { vec![] } else { vec![first_rows] };
        (dim(&last.shape, 0, "Input(X[-1])")?, out)
    } else {
        let cols = dim(&last.shape, 1, "Input(X[-1])")?;
        let out = if row {
            vec![cols]
        } else {
            vec![first_rows, cols]
        };
        (dim(&last.shape, 0, "Input(X[-1])")?, out)
    };
    for middle in &items[1..items.len() - 1] {
        if middle.rank() != 2 {
            return Err(Bad("the input tensor of multi_dot op must be 2D.".into()));
        }
        cx.eq(&middle.shape[0], &width);
        width = middle.shape[1].clone();
    }
    cx.eq(&last_rows, &width);
    cx.set_shape(0, out);
    Ok(())
}
