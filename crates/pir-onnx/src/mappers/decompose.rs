//! Matrix decompositions of small matrices of known size, unrolled like the
//! solvers of `solve`: `qr` (Householder reflections), `lu` (Doolittle with
//! partial pivoting), `lu_unpack`, `lstsq` (through QR) and
//! `cholesky_solve` (two triangular solves).
//!
//! Where a decomposition leaves a choice (the signs of QR's columns, the
//! pivot rows of LU), the graph makes LAPACK's, which is what Paddle
//! returns: a reflector maps its column onto `-sign(a_jj) |x| e_j` and is
//! skipped when the column is already zero below the diagonal; the pivot
//! is the first row of largest magnitude.

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::mappers::index::reduce;
use crate::mappers::solve::{cut, order, substitute, swap_last, swap_rows, unit, MAX_N};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The known sizes `m, n` of the matrices of operand `i` (`[.., m, n]`),
/// at most `MAX_N` each.
pub(crate) fn matrix_dims(x: &Exporter<'_>, i: usize) -> Result<(i64, i64), ExportError> {
    let d = x.in_dims(i)?;
    let r = d.len();
    if r < 2 || d[r - 1] < 1 || d[r - 2] < 1 {
        return Err(x.unsupported(format!("operand {i}: matrices of known size")));
    }
    let (m, n) = (d[r - 2], d[r - 1]);
    if m > MAX_N || n > MAX_N {
        return Err(x.unsupported(format!("{m}x{n} matrices (unrolled up to order {MAX_N})")));
    }
    Ok((m, n))
}

/// Whether result `i` is present and read.
pub(crate) fn used(x: &Exporter<'_>, i: usize) -> bool {
    x.result(i).is_some_and(|v| !x.p.use_empty(v))
}

/// A constant `[len, 1]` column (or `[1, len]` row) of `f(i)`.
fn mask(
    x: &mut Exporter<'_>,
    d: DType,
    len: i64,
    row: bool,
    f: impl Fn(i64) -> bool,
) -> Result<String, ExportError> {
    let v: Vec<f64> = (0..len).map(|i| f64::from(u8::from(f(i)))).collect();
    let dims = if row { [1, len] } else { [len, 1] };
    x.const_values(d, &dims, &v)
}

/// `I` (`[m, m]`) expanded to the batch dims of `like` (`[.., m, _]`).
pub(crate) fn batched_eye(
    x: &mut Exporter<'_>,
    like: &str,
    m: i64,
    d: DType,
) -> Result<String, ExportError> {
    let eye: Vec<f64> = (0..m * m)
        .map(|i| f64::from(u8::from(i / m == i % m)))
        .collect();
    let eye = x.const_values(d, &[m, m], &eye)?;
    let shape = x.node1("Shape", &[like], vec![]);
    let batch = cut(x, &shape, -1, 0, -2);
    let mm = x.const_i64s(&[m, m]);
    let full = x.node1("Concat", &[&batch, &mm], vec![a_int("axis", 0)]);
    Ok(x.node1("Expand", &[&eye, &full], vec![]))
}

/// Householder QR of `a` (`[.., m, n]`): the full `Q` (`[.., m, m]`) and
/// `R` (`[.., m, n]`, upper triangular).
pub(crate) fn householder(
    x: &mut Exporter<'_>,
    a: &str,
    m: i64,
    n: i64,
    d: DType,
) -> Result<(String, String), ExportError> {
    let mut r = a.to_string();
    let mut q = batched_eye(x, a, m, d)?;
    let zero = x.const_scalar(d, 0.0)?;
    let one = x.const_scalar(d, 1.0)?;
    let minus_one = x.const_scalar(d, -1.0)?;
    let two = x.const_scalar(d, 2.0)?;
    let rank = x.in_rank(0)?;
    // A reflector for each column with rows below its diagonal.
    for j in 0..n.min(m - 1) {
        let col = cut(x, &r, -1, j, j + 1);
        let from_j = mask(x, d, m, false, |i| i >= j)?;
        let below_j = mask(x, d, m, false, |i| i > j)?;
        let v = x.node1("Mul", &[&col, &from_j], vec![]);
        let alpha = cut(x, &col, -2, j, j + 1);
        let tail = x.node1("Mul", &[&col, &below_j], vec![]);
        let tail = x.node1("Mul", &[&tail, &tail], vec![]);
        let tail = reduce(x, "ReduceSum", &tail, &[-2], true);
        let alpha2 = x.node1("Mul", &[&alpha, &alpha], vec![]);
        let norm = x.node1("Add", &[&alpha2, &tail], vec![]);
        let norm = x.node1("Sqrt", &[&norm], vec![]);
        // beta = -sign(alpha) |x| (sign(0) = +), or alpha when the column
        // is already zero below the diagonal (no reflection).
        let nonneg = x.node1("GreaterOrEqual", &[&alpha, &zero], vec![]);
        let sign = x.node1("Where", &[&nonneg, &minus_one, &one], vec![]);
        let beta = x.node1("Mul", &[&sign, &norm], vec![]);
        let done = x.node1("Equal", &[&tail, &zero], vec![]);
        let beta = x.node1("Where", &[&done, &alpha, &beta], vec![]);
        let e = unit(x, d, m, j, false)?;
        let shift = x.node1("Mul", &[&beta, &e], vec![]);
        let v = x.node1("Sub", &[&v, &shift], vec![]);
        // H = I - 2 v v^T / (v^T v); v = 0 when skipped.
        let vv = x.node1("Mul", &[&v, &v], vec![]);
        let vtv = reduce(x, "ReduceSum", &vv, &[-2], true);
        let empty = x.node1("Equal", &[&vtv, &zero], vec![]);
        let vtv = x.node1("Where", &[&empty, &one, &vtv], vec![]);
        let scale = x.node1("Div", &[&two, &vtv], vec![]);
        let vt = swap_last(x, &v, rank);
        let vt = x.node1("Mul", &[&vt, &scale], vec![]);
        let proj = x.node1("MatMul", &[&vt, &r], vec![]);
        let upd = x.node1("MatMul", &[&v, &proj], vec![]);
        r = x.node1("Sub", &[&r, &upd], vec![]);
        let qv = x.node1("MatMul", &[&q, &v], vec![]);
        let upd = x.node1("MatMul", &[&qv, &vt], vec![]);
        q = x.node1("Sub", &[&q, &upd], vec![]);
    }
    // Below the diagonal only rounding is left.
    let r = x.node1("Trilu", &[&r], vec![a_int("upper", 1)]);
    Ok((q, r))
}

/// `qr(x, mode)`: `reduced` (`Q [.., m, k]`, `R [.., k, n]`), `complete`
/// (`Q [.., m, m]`, `R [.., m, n]`) or `r` (`R [.., k, n]` only; `Q` is
/// Paddle's empty tensor then), `k = min(m, n)`.
pub(crate) fn qr(x: &mut Exporter<'_>) -> R {
    x.need_opset(14, "qr (Trilu)")?;
    let (m, n) = matrix_dims(x, 0)?;
    let d = x.in_dtype(0)?;
    let mode = x.attrs().str_or("mode", "reduced")?;
    let a = x.input(0)?;
    let (q, r) = householder(x, &a, m, n, d)?;
    let k = m.min(n);
    match mode.as_str() {
        "complete" => {
            x.identity_out(0, &q);
            x.identity_out(1, &r);
        }
        "reduced" | "r" => {
            let r = cut(x, &r, -2, 0, k);
            x.identity_out(1, &r);
            if mode == "reduced" {
                let q = cut(x, &q, -1, 0, k);
                x.identity_out(0, &q);
            } else if used(x, 0) {
                return Err(x.unsupported("Q of mode \"r\" (Paddle leaves it empty)"));
            }
        }
        other => return Err(x.unsupported(format!("mode \"{other}\""))),
    }
    Ok(())
}

/// Doolittle LU of `a` (`[.., m, n]`) with LAPACK's partial pivoting: the
/// packed `LU` and the pivot of each step (`[.., 1, 1]` int64, 0-based).
fn doolittle(
    x: &mut Exporter<'_>,
    a: &str,
    m: i64,
    n: i64,
    d: DType,
) -> Result<(String, Vec<String>), ExportError> {
    let rows: Vec<f64> = (0..m).map(|i| i as f64).collect();
    let row_index = x.const_values(DType::Int64, &[m, 1], &rows)?;
    let zero = x.const_scalar(d, 0.0)?;
    let one = x.const_scalar(d, 1.0)?;
    let minus_one = x.const_scalar(d, -1.0)?;
    let mut lu = a.to_string();
    let mut pivots = Vec::new();
    for j in 0..m.min(n) {
        // The first row at or below j of largest magnitude in column j
        // (rows above j out of the race at -1).
        let col = cut(x, &lu, -1, j, j + 1);
        let mag = x.node1("Abs", &[&col], vec![]);
        let from_j = mask(x, DType::Bool, m, false, |i| i >= j)?;
        let mag = x.node1("Where", &[&from_j, &mag, &minus_one], vec![]);
        let pivot = x.node1(
            "ArgMax",
            &[&mag],
            vec![a_int("axis", -2), a_int("keepdims", 1)],
        );
        lu = swap_rows(x, &lu, &row_index, j, &pivot)?;
        pivots.push(pivot);
        // Multipliers below the pivot (a zero pivot leaves a zero column:
        // nothing to eliminate), then the rank-1 update of the rest.
        let col = cut(x, &lu, -1, j, j + 1);
        let p = cut(x, &col, -2, j, j + 1);
        let singular = x.node1("Equal", &[&p, &zero], vec![]);
        let p = x.node1("Where", &[&singular, &one, &p], vec![]);
        let below = mask(x, d, m, false, |i| i > j)?;
        let col_below = x.node1("Mul", &[&col, &below], vec![]);
        let l = x.node1("Div", &[&col_below, &p], vec![]);
        let row = cut(x, &lu, -2, j, j + 1);
        let right = mask(x, d, n, true, |c| c > j)?;
        let row = x.node1("Mul", &[&row, &right], vec![]);
        let upd = x.node1("MatMul", &[&l, &row], vec![]);
        lu = x.node1("Sub", &[&lu, &upd], vec![]);
        // Column j below the diagonal becomes the multipliers.
        let fix = x.node1("Sub", &[&l, &col_below], vec![]);
        let e = unit(x, d, n, j, true)?;
        let fix = x.node1("Mul", &[&fix, &e], vec![]);
        lu = x.node1("Add", &[&lu, &fix], vec![]);
    }
    Ok((lu, pivots))
}

/// `lu(x, pivot)` → packed `LU` (`[.., m, n]`), `pivots` (`[.., k]` int32,
/// 1-based rows swapped with row `i` at step `i`), `infos` (`[..]` int32:
/// 0, or 1 + the first zero diagonal of `U`).
pub(crate) fn lu(x: &mut Exporter<'_>) -> R {
    if !x.attrs().bool_or("pivot", true)? {
        return Err(x.unsupported("LU without pivoting (pivot=false)"));
    }
    let (m, n) = matrix_dims(x, 0)?;
    let d = x.in_dtype(0)?;
    let a = x.input(0)?;
    let (lu, pivots) = doolittle(x, &a, m, n, d)?;
    x.identity_out(0, &lu);
    let refs: Vec<&str> = pivots.iter().map(String::as_str).collect();
    let piv = x.node1("Concat", &refs, vec![a_int("axis", -1)]);
    let piv = x.squeeze(&piv, &[-2]);
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let piv = x.node1("Add", &[&piv, &one], vec![]);
    x.cast_out(1, &piv)?;
    // infos: scanned from the last diagonal down, the first zero wins.
    let zero = x.const_scalar(d, 0.0)?;
    let mut info = x.const_scalar(DType::Int64, 0.0)?;
    for j in (0..m.min(n)).rev() {
        let row = cut(x, &lu, -2, j, j + 1);
        let diag = cut(x, &row, -1, j, j + 1);
        let is_zero = x.node1("Equal", &[&diag, &zero], vec![]);
        let at = x.const_scalar(DType::Int64, (j + 1) as f64)?;
        info = x.node1("Where", &[&is_zero, &at, &info], vec![]);
    }
    let info = x.squeeze(&info, &[-2, -1]);
    x.cast_out(2, &info)
}

/// `lu_unpack(x, y, unpack_ludata, unpack_pivots)` → `P`, `L`, `U` with
/// `A = P L U`: `L` the unit lower triangle of `x`'s first `k` columns,
/// `U` the upper triangle of its first `k` rows, and `P^T` the identity
/// with the pivot swaps of `y` applied to its rows in order.
pub(crate) fn lu_unpack(x: &mut Exporter<'_>) -> R {
    x.need_opset(14, "lu_unpack (Trilu)")?;
    let (m, n) = matrix_dims(x, 0)?;
    let attrs = x.attrs();
    let unpack_lu = attrs.bool_or("unpack_ludata", true)?;
    let unpack_p = attrs.bool_or("unpack_pivots", true)?;
    if (!unpack_lu && (used(x, 1) || used(x, 2))) || (!unpack_p && used(x, 0)) {
        return Err(x.unsupported("a factor Paddle leaves empty (unpack_* = false) is read"));
    }
    let d = x.in_dtype(0)?;
    let k = m.min(n);
    let a = x.input(0)?;
    if unpack_lu {
        let l = cut(x, &a, -1, 0, k);
        let l = x.node1("Trilu", &[&l], vec![a_int("upper", 0)]);
        let diag: Vec<f64> = (0..m * k)
            .map(|i| f64::from(u8::from(i / k == i % k)))
            .collect();
        let keep = x.const_values(
            d,
            &[m, k],
            &diag.iter().map(|v| 1.0 - v).collect::<Vec<_>>(),
        )?;
        let eye = x.const_values(d, &[m, k], &diag)?;
        let l = x.node1("Mul", &[&l, &keep], vec![]);
        let l = x.node1("Add", &[&l, &eye], vec![]);
        x.identity_out(1, &l);
        let u = cut(x, &a, -2, 0, k);
        let u = x.node1("Trilu", &[&u], vec![a_int("upper", 1)]);
        x.identity_out(2, &u);
    }
    if unpack_p {
        let rows: Vec<f64> = (0..m).map(|i| i as f64).collect();
        let row_index = x.const_values(DType::Int64, &[m, 1], &rows)?;
        let piv = x.input(1)?;
        let piv = x.cast(&piv, DType::Int64)?;
        let one = x.const_scalar(DType::Int64, 1.0)?;
        let piv = x.node1("Sub", &[&piv, &one], vec![]);
        let piv = x.unsqueeze(&piv, &[-2]);
        let mut t = batched_eye(x, &a, m, d)?;
        for j in 0..k {
            let p = cut(x, &piv, -1, j, j + 1);
            t = swap_rows(x, &t, &row_index, j, &p)?;
        }
        let rank = x.in_rank(0)?;
        let p = swap_last(x, &t, rank);
        x.identity_out(0, &p);
    }
    Ok(())
}

/// `m` (`[.., r, c]`) without its batch dims when they hold one matrix in
/// all: Paddle's `lstsq` returns a single solution as `[r, c]`.
fn drop_single_batch(x: &mut Exporter<'_>, m: &str) -> Result<String, ExportError> {
    let shape = x.node1("Shape", &[m], vec![]);
    let batch = cut(x, &shape, -1, 0, -2);
    let matrix = cut(x, &shape, -1, -2, i64::MAX);
    let count = reduce(x, "ReduceProd", &batch, &[], true);
    let one = x.const_i64s(&[1]);
    let several = x.node1("Equal", &[&count, &one], vec![]);
    let several = x.node1("Not", &[&several], vec![]);
    let batch_shape = x.node1("Shape", &[&batch], vec![]);
    let keep = x.node1("Expand", &[&several, &batch_shape], vec![]);
    let batch = x.node1("Compress", &[&batch, &keep], vec![a_int("axis", 0)]);
    let full = x.node1("Concat", &[&batch, &matrix], vec![a_int("axis", 0)]);
    Ok(x.node1("Reshape", &[m, &full], vec![]))
}

/// `lstsq(x, y, rcond, driver)` for `m >= n`: `solution` from `R X = (Q^T
/// B)[:n]` (Householder QR, full column rank assumed), `rank` as the
/// number of `|R_jj|` above `rcond` times the largest (LAPACK's `gelsy`
/// estimates it with column pivoting: the same count for matrices of full
/// rank), `residuals` the squared norms of `(Q^T B)[n:]` (for `gels`,
/// `gelsd` and `gelss` when `m > n`; empty for `gelsy`, as Paddle's).
/// Singular values (`gelsd`, `gelss`) are not computed.
pub(crate) fn lstsq(x: &mut Exporter<'_>) -> R {
    x.need_opset(14, "lstsq (Trilu)")?;
    let (m, n) = matrix_dims(x, 0)?;
    if m < n {
        return Err(x.unsupported("an underdetermined system (fewer rows than columns)"));
    }
    if x.in_rank(1)? != x.in_rank(0)? {
        return Err(x.unsupported("both operands of the same rank"));
    }
    let driver = x.attrs().str_or("driver", "gels")?;
    if used(x, 3) && driver != "gels" && driver != "gelsy" {
        return Err(x.unsupported("singular values (an SVD)"));
    }
    let rcond = match x.known(2).filter(|k| k.values.len() == 1) {
        Some(k) => k.values[0],
        None => return Err(x.unsupported("rcond known at export")),
    };
    // Paddle's declared types are not what its kernel returns: `rank` is
    // int32, `singular_values` empty, a single solution unbatched.
    x.shape_unknown();
    let batch = x.in_dims(0)?;
    let batch = &batch[..batch.len() - 2];
    x.retype_result(2, DType::Int32, batch)?;
    x.retype_result(3, x.in_dtype(0)?, &[0])?;
    let d = x.in_dtype(0)?;
    let a = x.input(0)?;
    let b = x.input(1)?;
    let rank = x.in_rank(0)?;
    let (q, r) = householder(x, &a, m, n, d)?;
    let qt = swap_last(x, &q, rank);
    let qtb = x.node1("MatMul", &[&qt, &b], vec![]);
    let top = cut(x, &qtb, -2, 0, n);
    let r_top = cut(x, &r, -2, 0, n);
    let sol = substitute(x, &r_top, &top, n, true, false, d)?;
    let sol = if rank > 2 {
        drop_single_batch(x, &sol)?
    } else {
        sol
    };
    x.identity_out(0, &sol);
    // Residuals.
    if driver != "gelsy" && m > n && used(x, 1) {
        let rest = cut(x, &qtb, -2, n, m);
        let sq = x.node1("Mul", &[&rest, &rest], vec![]);
        let res = reduce(x, "ReduceSum", &sq, &[-2], false);
        x.identity_out(1, &res);
    } else {
        let empty = x.const_values(d, &[0], &[])?;
        x.identity_out(1, &empty);
    }
    // Rank: how many |R_jj| exceed rcond * max |R_jj|.
    let mut diag = Vec::new();
    for j in 0..n {
        let row = cut(x, &r_top, -2, j, j + 1);
        diag.push(cut(x, &row, -1, j, j + 1));
    }
    let refs: Vec<&str> = diag.iter().map(String::as_str).collect();
    let diag = x.node1("Concat", &refs, vec![a_int("axis", -1)]);
    let diag = x.node1("Abs", &[&diag], vec![]);
    let largest = reduce(x, "ReduceMax", &diag, &[-1], true);
    let tol = x.const_scalar(d, rcond)?;
    let tol = x.node1("Mul", &[&largest, &tol], vec![]);
    let above = x.node1("Greater", &[&diag, &tol], vec![]);
    let above = x.cast(&above, DType::Int64)?;
    let count = reduce(x, "ReduceSum", &above, &[-1], false);
    let count = x.squeeze(&count, &[-1]);
    let count = x.cast(&count, DType::Int32)?;
    x.identity_out(2, &count);
    let empty = x.const_values(d, &[0], &[])?;
    x.identity_out(3, &empty);
    Ok(())
}

/// `cholesky_solve(x, y, upper)`: `X` with `A X = x` for `A = L L^T`
/// (`y = L`) or `U^T U` (`y = U`, `upper`): two triangular solves.
pub(crate) fn cholesky_solve(x: &mut Exporter<'_>) -> R {
    x.need_opset(14, "cholesky_solve (Trilu)")?;
    let n = order(x, 1)?;
    let d = x.in_dtype(1)?;
    let upper = x.attrs().bool_or("upper", false)?;
    if x.in_rank(0)? != x.in_rank(1)? {
        return Err(x.unsupported("both operands of the same rank"));
    }
    let b = x.input(0)?;
    let f = x.input(1)?;
    let rank = x.in_rank(1)?;
    let f = x.node1("Trilu", &[&f], vec![a_int("upper", i64::from(upper))]);
    let ft = swap_last(x, &f, rank);
    let (first, second) = if upper { (ft, f) } else { (f, ft) };
    let z = substitute(x, &first, &b, n, false, false, d)?;
    let sol = substitute(x, &second, &z, n, true, false, d)?;
    x.finish_with(&sol)
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops, op_types};

    /// `op` on a `[-1, m, n]` float input `x`, its result `%1` (of type
    /// `[-1, m, m]`, or `out` when given) fetched.
    fn program_with(op: &str, m: i64, n: i64, out: Option<&str>) -> String {
        let out = out.map_or(format!("tensor<-1x{m}x{m}xf32>"), str::to_string);
        format!(
            r#"    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,{m},{n}],stop_gradient:[false]}} : () -> tensor<-1x{m}x{n}xf32>
{op}
    (%9) = "pd_op.fetch" (%1) {{col:0,name:"y",persistable:[true],stop_gradient:[false]}} : ({out}) -> {out}"#
        )
    }

    fn program(op: &str, m: i64, n: i64) -> String {
        program_with(op, m, n, None)
    }

    fn qr(m: i64, n: i64, mode: &str) -> String {
        let k = m.min(n);
        program(
            &format!(
                r#"    (%1, %2) = "pd_op.qr" (%0) {{mode:"{mode}",stop_gradient:[false,false]}} : (tensor<-1x{m}x{n}xf32>) -> tensor<-1x{m}x{m}xf32>, tensor<-1x{k}x{n}xf32>"#
            ),
            m,
            n,
        )
    }

    #[test]
    fn qr_makes_one_reflector_per_column_with_rows_below() {
        let g = export_ops(&qr(4, 3, "complete"));
        let types = op_types(&g);
        // Each reflector updates R and Q with two products each.
        let products = types.iter().filter(|t| **t == "MatMul").count();
        assert_eq!(products, 3 * 4, "{types:?}");
        assert_eq!(types.iter().filter(|t| **t == "Trilu").count(), 1);
        // A wide matrix: a reflector per row but the last.
        let g = export_ops(&qr(3, 5, "complete"));
        let products = op_types(&g).iter().filter(|t| **t == "MatMul").count();
        assert_eq!(products, 2 * 4);
    }

    #[test]
    fn q_of_mode_r_is_refused_when_read() {
        let err = export_at(&qr(4, 3, "r"), 17).expect_err("Q is empty in mode r");
        assert!(err.to_string().contains("mode \"r\""), "{err}");
    }

    #[test]
    fn large_or_unknown_matrices_and_old_opsets_are_refused() {
        let err = export_at(&qr(17, 3, "reduced"), 17).expect_err("order 17");
        assert!(err.to_string().contains("unrolled"), "{err}");
        let err = export_at(&qr(4, -1, "reduced"), 17).expect_err("unknown width");
        assert!(err.to_string().contains("known size"), "{err}");
        let err = export_at(&qr(4, 3, "reduced"), 13).expect_err("Trilu is opset 14");
        assert!(err.to_string().contains("opset 14"), "{err}");
    }

    #[test]
    fn lu_without_pivoting_is_refused() {
        let lu = program(
            r#"    (%1, %2, %3) = "pd_op.lu" (%0) {pivot:false,stop_gradient:[false,false,false]} : (tensor<-1x4x4xf32>) -> tensor<-1x4x4xf32>, tensor<-1x4xi32>, tensor<-1xi32>"#,
            4,
            4,
        );
        let err = export_at(&lu, 17).expect_err("pivot=false");
        assert!(err.to_string().contains("pivot"), "{err}");
        let g = export_ops(&lu.replace("pivot:false", "pivot:true"));
        let types = op_types(&g);
        assert_eq!(types.iter().filter(|t| **t == "ArgMax").count(), 4);
    }

    #[test]
    fn an_underdetermined_lstsq_is_refused() {
        let lstsq = format!(
            "{}\n{}",
            r#"    (%5) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[-1,3,2],stop_gradient:[false]} : () -> tensor<-1x3x2xf32>
    (%6) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>"#,
            program_with(
                r#"    (%1, %2, %3, %4) = "pd_op.lstsq" (%0, %5, %6) {driver:"gelsy",stop_gradient:[false,false,false,false]} : (tensor<-1x3x5xf32>, tensor<-1x3x2xf32>, tensor<1xf32>) -> tensor<-1x5x2xf32>, tensor<0xf32>, tensor<-1xf32>, tensor<-1x3xf32>"#,
                3,
                5,
                Some("tensor<-1x5x2xf32>"),
            )
        );
        let err = export_at(&lstsq, 17).expect_err("m < n");
        assert!(err.to_string().contains("underdetermined"), "{err}");
    }
}
