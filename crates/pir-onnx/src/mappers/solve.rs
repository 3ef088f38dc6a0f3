//! Dense solvers for small matrices of known size, unrolled: `solve` and
//! `inverse` (Gauss-Jordan elimination with partial pivoting, as LAPACK's
//! LU pivots), `cholesky`, `triangular_solve` (substitution row by row),
//! and `diag_embed`. ONNX has no solver; the unrolled graph grows with the
//! matrix size, so it is limited to `MAX_N`. Results agree with Paddle's
//! LAPACK ones to rounding for well-conditioned matrices.

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The largest matrix order unrolled.
pub(crate) const MAX_N: i64 = 16;

/// The order `n` of the square matrices of operand `i` (`[.., n, n]`).
pub(crate) fn order(x: &Exporter<'_>, i: usize) -> Result<i64, ExportError> {
    let d = x.in_dims(i)?;
    let r = d.len();
    if r < 2 || d[r - 1] != d[r - 2] || d[r - 1] < 1 {
        return Err(x.unsupported(format!("operand {i}: square matrices of known size")));
    }
    if d[r - 1] > MAX_N {
        return Err(x.unsupported(format!(
            "matrices of order {} (unrolled up to {MAX_N})",
            d[r - 1]
        )));
    }
    Ok(d[r - 1])
}

/// `m[.., from:to, ..]` along `axis` (negative, from the end).
pub(crate) fn cut(x: &mut Exporter<'_>, m: &str, axis: i64, from: i64, to: i64) -> String {
    let (s, e, a) = (
        x.const_i64s(&[from]),
        x.const_i64s(&[to]),
        x.const_i64s(&[axis]),
    );
    x.node1("Slice", &[m, &s, &e, &a], vec![])
}

/// A constant one-hot column (`[n, 1]`, or row `[1, n]` when `row`).
pub(crate) fn unit(
    x: &mut Exporter<'_>,
    d: DType,
    n: i64,
    at: i64,
    row: bool,
) -> Result<String, ExportError> {
    let v: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == at))).collect();
    let dims = if row { [1, n] } else { [n, 1] };
    x.const_values(d, &dims, &v)
}

/// Gauss-Jordan on the augmented `[.., n, n + k]` matrix `m`: each step
/// swaps the row with the largest pivot candidate up, scales it, and
/// clears its column elsewhere. Returns the last `k` columns, `A^-1 B`.
fn gauss_jordan(x: &mut Exporter<'_>, m: &str, n: i64, d: DType) -> Result<String, ExportError> {
    let mut m = m.to_string();
    let rows: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let row_index = x.const_values(DType::Int64, &[n, 1], &rows)?;
    for j in 0..n {
        // Pivot: the largest |m[i, j]| for i >= j (rows above masked).
        let col = cut(x, &m, -1, j, j + 1);
        let mag = x.node1("Abs", &[&col], vec![]);
        let below: Vec<f64> = (0..n).map(|i| if i >= j { 1.0 } else { -1.0 }).collect();
        let below = x.const_values(d, &[n, 1], &below)?;
        let mag = x.node1("Mul", &[&mag, &below], vec![]);
        let pivot = x.node1(
            "ArgMax",
            &[&mag],
            vec![a_int("axis", -2), a_int("keepdims", 1)],
        );
        m = swap_rows(x, &m, &row_index, j, &pivot)?;
        // Scale the pivot row, clear the column elsewhere.
        let col = cut(x, &m, -1, j, j + 1);
        let row = cut(x, &m, -2, j, j + 1);
        let p = cut(x, &row, -1, j, j + 1);
        let row = x.node1("Div", &[&row, &p], vec![]);
        let e = unit(x, d, n, j, false)?;
        let off = x.node1("Sub", &[&col, &e], vec![]);
        let clear = x.node1("Mul", &[&off, &row], vec![]);
        m = x.node1("Sub", &[&m, &clear], vec![]);
    }
    Ok(m)
}

/// `m` (`[.., r, c]`) with rows `j` and `pivot` (`[.., 1, 1]` int64, per
/// matrix) swapped; `row_index` is the constant `[r, 1]` column `0..r`.
pub(crate) fn swap_rows(
    x: &mut Exporter<'_>,
    m: &str,
    row_index: &str,
    j: i64,
    pivot: &str,
) -> Result<String, ExportError> {
    // index[i] = pivot if i == j, j if i == pivot, else i.
    let j_const = x.const_scalar(DType::Int64, j as f64)?;
    let is_j = x.node1("Equal", &[row_index, &j_const], vec![]);
    let is_p = x.node1("Equal", &[row_index, pivot], vec![]);
    let index = x.node1("Where", &[&is_p, &j_const, row_index], vec![]);
    let index = x.node1("Where", &[&is_j, pivot, &index], vec![]);
    let shape = x.node1("Shape", &[m], vec![]);
    let index = x.node1("Expand", &[&index, &shape], vec![]);
    Ok(x.node1("GatherElements", &[m, &index], vec![a_int("axis", -2)]))
}

/// `solve(x, y)`: `x^-1 y` (`y` a matrix `[.., n, k]` or a vector `[n]`).
pub(crate) fn solve(x: &mut Exporter<'_>) -> R {
    let n = order(x, 0)?;
    let d = x.in_dtype(0)?;
    let a = x.input(0)?;
    let b = x.input(1)?;
    let vector = x.in_rank(1)? == 1;
    let b = if vector { x.unsqueeze(&b, &[-1]) } else { b };
    let k = x.in_dims(1)?.last().copied().unwrap_or(-1);
    let k = if vector { 1 } else { k };
    if k < 1 {
        return Err(x.unsupported("a right-hand side of known width"));
    }
    // Broadcast the batch dims of both sides, then augment.
    let sa = x.node1("Shape", &[&a], vec![]);
    let sb = x.node1("Shape", &[&b], vec![]);
    let sa = cut(x, &sa, -1, 0, -2);
    let sb = cut(x, &sb, -1, 0, -2);
    let batch = x.node1("Max", &[&sa, &sb], vec![]);
    let na = x.const_i64s(&[n, n]);
    let nb = x.const_i64s(&[n, k]);
    let full_a = x.node1("Concat", &[&batch, &na], vec![a_int("axis", 0)]);
    let full_b = x.node1("Concat", &[&batch, &nb], vec![a_int("axis", 0)]);
    let a = x.node1("Expand", &[&a, &full_a], vec![]);
    let b = x.node1("Expand", &[&b, &full_b], vec![]);
    let m = x.node1("Concat", &[&a, &b], vec![a_int("axis", -1)]);
    let m = gauss_jordan(x, &m, n, d)?;
    let r = cut(x, &m, -1, n, n + k);
    let r = if vector { x.squeeze(&r, &[-1]) } else { r };
    x.finish_with(&r)
}

/// `inverse(x)`: `x^-1`, Gauss-Jordan on `[x | I]`.
pub(crate) fn inverse(x: &mut Exporter<'_>) -> R {
    let n = order(x, 0)?;
    let d = x.in_dtype(0)?;
    let a = x.input(0)?;
    let eye: Vec<f64> = (0..n * n)
        .map(|i| f64::from(u8::from(i / n == i % n)))
        .collect();
    let eye = x.const_values(d, &[n, n], &eye)?;
    let shape = x.node1("Shape", &[&a], vec![]);
    let eye = x.node1("Expand", &[&eye, &shape], vec![]);
    let m = x.node1("Concat", &[&a, &eye], vec![a_int("axis", -1)]);
    let m = gauss_jordan(x, &m, n, d)?;
    let r = cut(x, &m, -1, n, 2 * n);
    x.finish_with(&r)
}

/// `cholesky(x, upper)`: column `j` of `L` is `(A[:, j] - L L[j, :]^T) /
/// sqrt(that at j)` below the diagonal (the columns not made yet are 0).
pub(crate) fn cholesky(x: &mut Exporter<'_>) -> R {
    let n = order(x, 0)?;
    let d = x.in_dtype(0)?;
    let upper = x.attrs().bool_or("upper", false)?;
    let a = x.input(0)?;
    let zero = x.const_scalar(d, 0.0)?;
    let mut l = x.node1("Mul", &[&a, &zero], vec![]);
    for j in 0..n {
        let col = cut(x, &a, -1, j, j + 1);
        let row_j = cut(x, &l, -2, j, j + 1);
        let row_t = transpose_last(x, &row_j)?;
        let known = x.node1("MatMul", &[&l, &row_t], vec![]);
        let v = x.node1("Sub", &[&col, &known], vec![]);
        let diag = cut(x, &v, -2, j, j + 1);
        let root = x.node1("Sqrt", &[&diag], vec![]);
        let c = x.node1("Div", &[&v, &root], vec![]);
        let mask: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i >= j))).collect();
        let mask = x.const_values(d, &[n, 1], &mask)?;
        let c = x.node1("Mul", &[&c, &mask], vec![]);
        let e = unit(x, d, n, j, true)?;
        let placed = x.node1("Mul", &[&c, &e], vec![]);
        l = x.node1("Add", &[&l, &placed], vec![]);
    }
    let r = if upper { transpose_last(x, &l)? } else { l };
    x.finish_with(&r)
}

/// `m` (of operand 0's rank) with its last two axes swapped.
fn transpose_last(x: &mut Exporter<'_>, m: &str) -> Result<String, ExportError> {
    let rank = x.in_rank(0)?;
    Ok(swap_last(x, m, rank))
}

/// `m` (of rank `rank`, at least 2) with its last two axes swapped.
pub(crate) fn swap_last(x: &mut Exporter<'_>, m: &str, rank: i64) -> String {
    let mut perm: Vec<i64> = (0..rank.max(2)).collect();
    let r = perm.len();
    perm.swap(r - 1, r - 2);
    x.node1(
        "Transpose",
        &[m],
        vec![crate::export::a_ints("perm", &perm)],
    )
}

/// `triangular_solve(x, y, upper, transpose, unitriangular)`: `X` with
/// `op(A) X = B`, `A`'s other triangle ignored, row by row from the
/// triangle's corner.
pub(crate) fn triangular_solve(x: &mut Exporter<'_>) -> R {
    let n = order(x, 0)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let mut upper = attrs.bool_or("upper", true)?;
    let transpose = attrs.bool_or("transpose", false)?;
    let unit_diag = attrs.bool_or("unitriangular", false)?;
    let a = x.input(0)?;
    let b = x.input(1)?;
    if x.in_rank(1)? != x.in_rank(0)? {
        return Err(x.unsupported("both operands of the same rank"));
    }
    let a = x.node1("Trilu", &[&a], vec![a_int("upper", i64::from(upper))]);
    let a = if transpose {
        upper = !upper;
        transpose_last(x, &a)?
    } else {
        a
    };
    let sol = substitute(x, &a, &b, n, upper, unit_diag, d)?;
    x.finish_with(&sol)
}

/// `X` with `A X = B` for the triangular `A` (`[.., n, n]`, its other
/// triangle zero; `upper` says which), solved row by row from the
/// triangle's corner. `unit_diag`: `A`'s diagonal is taken as ones.
pub(crate) fn substitute(
    x: &mut Exporter<'_>,
    a: &str,
    b: &str,
    n: i64,
    upper: bool,
    unit_diag: bool,
    d: DType,
) -> Result<String, ExportError> {
    let zero = x.const_scalar(d, 0.0)?;
    let mut sol = x.node1("Mul", &[b, &zero], vec![]);
    let rows: Vec<i64> = if upper {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    };
    for i in rows {
        let a_row = cut(x, a, -2, i, i + 1);
        let b_row = cut(x, b, -2, i, i + 1);
        // The unsolved rows of `sol` are still 0; the diagonal term is
        // left out by zeroing it.
        let off: Vec<f64> = (0..n).map(|k| f64::from(u8::from(k != i))).collect();
        let off = x.const_values(d, &[1, n], &off)?;
        let a_off = x.node1("Mul", &[&a_row, &off], vec![]);
        let known = x.node1("MatMul", &[&a_off, &sol], vec![]);
        let mut r = x.node1("Sub", &[&b_row, &known], vec![]);
        if !unit_diag {
            let p = cut(x, &a_row, -1, i, i + 1);
            r = x.node1("Div", &[&r, &p], vec![]);
        }
        let e = unit(x, d, n, i, false)?;
        let placed = x.node1("Mul", &[&e, &r], vec![]);
        sol = x.node1("Add", &[&sol, &placed], vec![]);
    }
    Ok(sol)
}

/// `diag_embed(x, offset, dim1, dim2)` with the matrices in the last two
/// axes: element `i` of the last axis at `[i, i + offset]` (or `[i -
/// offset, i]`), zeros elsewhere.
pub(crate) fn diag_embed(x: &mut Exporter<'_>) -> R {
    let attrs = x.attrs();
    let offset = attrs.i64_or("offset", 0)?;
    let rank = x.in_rank(0)? + 1;
    let dim1 = attrs.i64_or("dim1", -2)?;
    let dim2 = attrs.i64_or("dim2", -1)?;
    let (dim1, dim2) = (dim1.rem_euclid(rank), dim2.rem_euclid(rank));
    if (dim1, dim2) != (rank - 2, rank - 1) {
        return Err(x.unsupported("dim1/dim2 other than the last two axes"));
    }
    let n = x.in_dims(0)?.last().copied().unwrap_or(-1);
    if n < 1 || n + offset.abs() > 1 << 12 {
        return Err(x.unsupported("a last axis of known, moderate size"));
    }
    let m = n + offset.abs();
    let mut pick = vec![0.0; (m * m) as usize];
    let mut on = vec![0.0; (m * m) as usize];
    for i in 0..n {
        let (r, c) = if offset >= 0 {
            (i, i + offset)
        } else {
            (i - offset, i)
        };
        pick[(r * m + c) as usize] = i as f64;
        on[(r * m + c) as usize] = 1.0;
    }
    let pick = x.const_values(DType::Int64, &[m, m], &pick)?;
    let on = x.const_values(DType::Bool, &[m, m], &on)?;
    let a = x.input(0)?;
    let spread = x.node1("Gather", &[&a, &pick], vec![a_int("axis", -1)]);
    let zero = x.const_scalar(x.in_dtype(0)?, 0.0)?;
    let r = x.node1("Where", &[&on, &spread, &zero], vec![]);
    x.finish_with(&r)
}
