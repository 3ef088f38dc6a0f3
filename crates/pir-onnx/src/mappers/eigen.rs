//! Eigenvalues of small symmetric matrices (`eigh`, `eigvalsh`) and
//! singular values (`svd`) of small matrices of known size, by the Jacobi
//! method unrolled: ONNX has no eigen-solver.
//!
//! Each step rotates `floor(n / 2)` disjoint index pairs at once (the
//! round-robin ordering of a cyclic Jacobi sweep, every pair once per
//! sweep): for a pair `(p, q)` of a symmetric `G`, the rotation `J` with
//! `t = sign(τ) / (|τ| + sqrt(1 + τ²))`, `τ = (g_qq - g_pp) / (2 g_pq)`,
//! `c = 1 / sqrt(1 + t²)`, `s = t c` zeroes `(JᵀGJ)_pq` (no rotation where
//! `g_pq = 0`). `eigh` rotates the matrix itself (`A ← JᵀAJ`, two-sided);
//! `svd` rotates the columns of the matrix (`W ← WJ` with `G = WᵀW`,
//! one-sided, so that small singular values keep their accuracy), and its
//! singular values are the norms of the final columns. The sweep count
//! grows with `log2 n` and reaches rounding at float32 and float64 for
//! orders up to `MAX_N` (checked against LAPACK on random, graded, scaled
//! and clustered matrices).
//!
//! The signs of LAPACK's eigenvectors and singular vectors (`syevd`,
//! `gesdd`), which Paddle returns, follow no rule (not the sign of a fixed
//! entry, of the largest entry or of the sum), so no graph could give
//! Paddle's. So the vectors (`eigh`'s eigenvectors, `svd`'s `U` and `VH`)
//! are exported only where every reader cancels their signs (see
//! `vector_signs`: `V·diag(d)·Vᵀ`, `V·Vᵀ`, `U·diag(S)·VH`, the forms of
//! matrix functions and reconstructions), and refused when read otherwise.

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::mappers::decompose::{batched_eye, householder, matrix_dims};
use crate::mappers::index::reduce;
use crate::mappers::solve::{cut, swap_last};
use crate::mappers::vector_signs::{signs_cancel, signs_read, SignAxis};
use crate::ExportError;

type R = Result<(), ExportError>;

/// The steps of a cyclic Jacobi sweep over `n` indices in round-robin
/// order: each step a set of disjoint pairs `(p, q)`, `p < q`, and every
/// pair in exactly one step (an odd `n` gets a dummy index, left out).
fn round_robin(n: i64) -> Vec<Vec<(i64, i64)>> {
    let mut players: Vec<i64> = (0..n).collect();
    if n % 2 == 1 {
        players.push(n);
    }
    let count = players.len();
    let mut steps = Vec::new();
    for _ in 1..count {
        let pairs: Vec<(i64, i64)> = (0..count / 2)
            .map(|i| (players[i], players[count - 1 - i]))
            .filter(|&(a, b)| a < n && b < n)
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        steps.push(pairs);
        // The first index stays, the others turn one place.
        players[1..].rotate_right(1);
    }
    steps
}

/// See [`Sweep::count`].
fn sweep_count(n: i64, d: DType) -> i64 {
    let log2 = 64 - i64::from((n.max(1) - 1).leading_zeros());
    log2 + if d == DType::Float64 { 3 } else { 2 }
}

/// The batch rank of a matrix operand of rank `rank`, as the leading
/// zeros of a `Reshape` target (ONNX copies those dims).
fn keep_batch(rank: i64, tail: &[i64]) -> Vec<i64> {
    let mut shape = vec![0; (rank - 2).max(0) as usize];
    shape.extend_from_slice(tail);
    shape
}

/// The constants of a Jacobi sweep over `n` indices, made once and read by
/// every sweep: per step, the flat positions of `g_pp`, `g_qq`, `g_pq` and
/// the `[pairs, n*n]` patterns `J` is built from.
struct Sweep {
    n: i64,
    rank: i64,
    d: DType,
    steps: Vec<Step>,
    eye: String,
    zero: String,
    one: String,
    minus_one: String,
    two: String,
}

/// One step of a [`Sweep`]: see [`Sweep::rotation`].
struct Step {
    pp: String,
    qq: String,
    pq: String,
    diag: String,
    off: String,
}

impl Sweep {
    /// The constants for matrices of order `n` and dtype `d`, batch rank
    /// `rank - 2`.
    fn new(x: &mut Exporter<'_>, n: i64, rank: i64, d: DType) -> Result<Self, ExportError> {
        let mut steps = Vec::new();
        for pairs in round_robin(n) {
            let len = pairs.len() as i64;
            let mut at = |f: &dyn Fn(i64, i64) -> i64| {
                let idx: Vec<f64> = pairs.iter().map(|&(p, q)| f(p, q) as f64).collect();
                x.const_values(DType::Int64, &[len], &idx)
            };
            let (pp, qq, pq) = (
                at(&|p, _| p * n + p)?,
                at(&|_, q| q * n + q)?,
                at(&|p, q| p * n + q)?,
            );
            // J = I + sum over pairs of (c - 1)(E_pp + E_qq) + s (E_pq - E_qp).
            let mut diag = vec![0.0; (len * n * n) as usize];
            let mut off = vec![0.0; (len * n * n) as usize];
            for (k, &(p, q)) in pairs.iter().enumerate() {
                let base = k * (n * n) as usize;
                diag[base + (p * n + p) as usize] = 1.0;
                diag[base + (q * n + q) as usize] = 1.0;
                off[base + (p * n + q) as usize] = 1.0;
                off[base + (q * n + p) as usize] = -1.0;
            }
            let diag = x.const_values(d, &[len, n * n], &diag)?;
            let off = x.const_values(d, &[len, n * n], &off)?;
            steps.push(Step {
                pp,
                qq,
                pq,
                diag,
                off,
            });
        }
        let eye: Vec<f64> = (0..n * n)
            .map(|i| f64::from(u8::from(i / n == i % n)))
            .collect();
        Ok(Sweep {
            n,
            rank,
            d,
            steps,
            eye: x.const_values(d, &[n * n], &eye)?,
            zero: x.const_scalar(d, 0.0)?,
            one: x.const_scalar(d, 1.0)?,
            minus_one: x.const_scalar(d, -1.0)?,
            two: x.const_scalar(d, 2.0)?,
        })
    }

    /// The number of sweeps: the off-diagonal mass falls quadratically
    /// once small, so `ceil(log2 n) + 2` sweeps reach float32 rounding for
    /// orders up to `MAX_N` (`+ 3` for float64), one sweep to spare.
    fn count(&self) -> i64 {
        sweep_count(self.n, self.d)
    }

    /// `m` (`[.., n, n]`) as `[.., n*n]`.
    fn flat(&self, x: &mut Exporter<'_>, m: &str) -> String {
        x.reshape(m, &keep_batch(self.rank, &[self.n * self.n]))
    }

    /// The rotation `J` (`[.., n, n]`) of step `step` on the symmetric `g`
    /// (`[.., n, n]`).
    fn rotation(&self, x: &mut Exporter<'_>, g: &str, step: usize) -> String {
        let Step {
            pp,
            qq,
            pq,
            diag,
            off,
        } = &self.steps[step];
        let (zero, one, minus_one, two) = (&self.zero, &self.one, &self.minus_one, &self.two);
        let flat = self.flat(x, g);
        let axis = || vec![a_int("axis", -1)];
        let gpp = x.node1("Gather", &[&flat, pp], axis());
        let gqq = x.node1("Gather", &[&flat, qq], axis());
        let gpq = x.node1("Gather", &[&flat, pq], axis());
        // tau = (g_qq - g_pp) / (2 g_pq), with 1 for the denominator where
        // g_pq = 0 (those pairs get t = 0 below).
        let settled = x.node1("Equal", &[&gpq, zero], vec![]);
        let den = x.node1("Mul", &[&gpq, two], vec![]);
        let den = x.node1("Where", &[&settled, one, &den], vec![]);
        let num = x.node1("Sub", &[&gqq, &gpp], vec![]);
        let tau = x.node1("Div", &[&num, &den], vec![]);
        // t = sign(tau) / (|tau| + sqrt(1 + tau^2)), sign(0) = +1: the
        // smaller root, an angle of at most pi/4. A huge tau gives tau^2 =
        // inf and t = 0, the rotation it needs to rounding.
        let tau2 = x.node1("Mul", &[&tau, &tau], vec![]);
        let root = x.node1("Add", &[&tau2, one], vec![]);
        let root = x.node1("Sqrt", &[&root], vec![]);
        let mag = x.node1("Abs", &[&tau], vec![]);
        let den = x.node1("Add", &[&mag, &root], vec![]);
        let nonneg = x.node1("GreaterOrEqual", &[&tau, zero], vec![]);
        let sign = x.node1("Where", &[&nonneg, one, minus_one], vec![]);
        let t = x.node1("Div", &[&sign, &den], vec![]);
        let t = x.node1("Where", &[&settled, zero, &t], vec![]);
        let t2 = x.node1("Mul", &[&t, &t], vec![]);
        let c = x.node1("Add", &[&t2, one], vec![]);
        let c = x.node1("Sqrt", &[&c], vec![]);
        let c = x.node1("Div", &[one, &c], vec![]);
        let s = x.node1("Mul", &[&t, &c], vec![]);
        // The per-pair [.., pairs] values times the [pairs, n*n] patterns.
        let cm1 = x.node1("Sub", &[&c, one], vec![]);
        let on_diag = x.node1("MatMul", &[&cm1, diag], vec![]);
        let off_diag = x.node1("MatMul", &[&s, off], vec![]);
        let j = x.node1("Add", &[&on_diag, &off_diag], vec![]);
        let j = x.node1("Add", &[&j, &self.eye], vec![]);
        x.reshape(&j, &keep_batch(self.rank, &[self.n, self.n]))
    }
}

/// The symmetric matrix Paddle's kernel reads from `a` (`[.., n, n]`): its
/// lower triangle (`lower`) or upper one, mirrored.
fn symmetric_part(
    x: &mut Exporter<'_>,
    a: &str,
    n: i64,
    rank: i64,
    lower: bool,
    d: DType,
) -> Result<String, ExportError> {
    let triangle = |strict: bool| -> Vec<f64> {
        (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                let inside = if lower { r >= c } else { r <= c };
                f64::from(u8::from(inside && !(strict && r == c)))
            })
            .collect()
    };
    let with_diag = x.const_values(d, &[n, n], &triangle(false))?;
    let strict = x.const_values(d, &[n, n], &triangle(true))?;
    let kept = x.node1("Mul", &[a, &with_diag], vec![]);
    let mirrored = x.node1("Mul", &[a, &strict], vec![]);
    let mirrored = swap_last(x, &mirrored, rank);
    Ok(x.node1("Add", &[&kept, &mirrored], vec![]))
}

/// The order of the square matrices of operand 0, or an error naming why
/// they cannot be unrolled.
fn square_order(x: &Exporter<'_>) -> Result<i64, ExportError> {
    let (m, n) = matrix_dims(x, 0)?;
    if m != n {
        return Err(x.unsupported(format!("{m}x{n} matrices (square ones only)")));
    }
    Ok(n)
}

/// The float dtype of operand 0, or an error (complex inputs have no
/// mapping here).
fn real_dtype(x: &Exporter<'_>) -> Result<DType, ExportError> {
    match x.in_dtype(0)? {
        d @ (DType::Float32 | DType::Float64) => Ok(d),
        d => Err(x.unsupported(format!("{d} matrices (float32 and float64 only)"))),
    }
}

/// The `k` entries of `v` (`[.., k]`) sorted along the last axis,
/// ascending or (`largest`) descending, and their positions in `v`.
fn sorted(x: &mut Exporter<'_>, v: &str, k: i64, largest: bool) -> (String, String) {
    let kk = x.const_i64s(&[k]);
    let values = x.tmp();
    let indices = x.tmp();
    x.node(
        "TopK",
        &[v, &kk],
        &[&values, &indices],
        vec![
            a_int("axis", -1),
            a_int("largest", i64::from(largest)),
            a_int("sorted", 1),
        ],
    );
    (values, indices)
}

/// `eigh(x, UPLO)` and `eigvalsh(x, uplo, is_test)`: the eigenvalues,
/// ascending (as LAPACK's `syevd`), of the symmetric matrix the triangle
/// `UPLO` of `x` states.
pub(crate) fn eigh(x: &mut Exporter<'_>) -> R {
    let uplo_attr = if x.op_name() == "pd_op.eigh" {
        "UPLO"
    } else {
        "uplo"
    };
    let uplo = x.attrs().str_or(uplo_attr, "L")?;
    let lower = match uplo.as_str() {
        "L" => true,
        "U" => false,
        other => return Err(x.unsupported(format!("{uplo_attr} \"{other}\""))),
    };
    let n = square_order(x)?;
    let d = real_dtype(x)?;
    let vectors = match x.result(1) {
        Some(v) if !x.p.use_empty(v) => {
            if !signs_cancel(x, &[(v, SignAxis::Last)]) {
                return Err(signs_read(x, "eigenvectors", "V·diag(d)·Vᵀ, V·Vᵀ"));
            }
            true
        }
        _ => false,
    };
    let rank = x.in_rank(0)?;
    let a = x.input(0)?;
    let mut a = symmetric_part(x, &a, n, rank, lower, d)?;
    let sweep = Sweep::new(x, n, rank, d)?;
    // The product of the rotations: the eigenvectors, as columns.
    let mut v = if vectors {
        Some(batched_eye(x, &a, n, d)?)
    } else {
        None
    };
    for _ in 0..sweep.count() {
        for step in 0..sweep.steps.len() {
            let j = sweep.rotation(x, &a, step);
            let jt = swap_last(x, &j, rank);
            let ja = x.node1("MatMul", &[&jt, &a], vec![]);
            a = x.node1("MatMul", &[&ja, &j], vec![]);
            if let Some(prev) = v {
                v = Some(x.node1("MatMul", &[&prev, &j], vec![]));
            }
        }
    }
    let flat = sweep.flat(x, &a);
    let idx: Vec<f64> = (0..n).map(|i| (i * n + i) as f64).collect();
    let idx = x.const_values(DType::Int64, &[n], &idx)?;
    let diag = x.node1("Gather", &[&flat, &idx], vec![a_int("axis", -1)]);
    let (w, order) = sorted(x, &diag, n, false);
    x.identity_out(0, &w);
    if let Some(v) = v {
        let v = columns_in_order(x, &v, &order);
        x.identity_out(1, &v);
    }
    Ok(())
}

/// The columns of `m` (`[.., r, k]`) in the order `order` (`[.., k]`).
fn columns_in_order(x: &mut Exporter<'_>, m: &str, order: &str) -> String {
    let order = x.unsqueeze(order, &[-2]);
    let shape = x.node1("Shape", &[m], vec![]);
    let order = x.node1("Expand", &[&order, &shape], vec![]);
    x.node1("GatherElements", &[m, &order], vec![a_int("axis", -1)])
}

/// `svd(x, full_matrices)` by one-sided Jacobi on the columns of `x` (of
/// `xᵀ` when it is wide): the singular values `S` (`[.., k]`, `k = min(m,
/// n)`) descending (as LAPACK's `gesdd`), the norms of the rotated columns
/// `W = xJ`. `U` and `VH` only where every reader cancels their signs
/// (see `vector_signs`; flipping singular vector `j` flips column `j` of
/// `U` and row `j` of `VH` together): with the columns of `W` and `J` in
/// the order of `S`, `J` gives the vectors on the side rotated and the
/// Householder QR of `W` (opset 14) those on the other, column `j` of `Q`
/// signed as `W`'s (`R_jj ≥ 0`), so that `W = U S` and `x = U S Jᵀ`;
/// where `W` has a zero column (rank deficiency) or `full_matrices` asks
/// for more columns, `Q` completes the orthonormal basis.
pub(crate) fn svd(x: &mut Exporter<'_>) -> R {
    let (m, n) = matrix_dims(x, 0)?;
    let d = real_dtype(x)?;
    let mut seeds = Vec::new();
    for (i, axis) in [(0, SignAxis::Last), (2, SignAxis::SecondLast)] {
        if let Some(v) = x.result(i).filter(|&v| !x.p.use_empty(v)) {
            seeds.push((v, axis));
        }
    }
    let vectors = !seeds.is_empty();
    if vectors {
        if !signs_cancel(x, &seeds) {
            return Err(signs_read(x, "singular vectors", "U·diag(S)·VH, U·Uᵀ"));
        }
        x.need_opset(14, "svd's singular vectors (Trilu)")?;
    }
    let full = x.attrs().bool_or("full_matrices", false)?;
    let rank = x.in_rank(0)?;
    let a = x.input(0)?;
    // Columns to orthogonalize: the fewer of rows and columns.
    let wide = m < n;
    let (mut w, rows, k) = if wide {
        (swap_last(x, &a, rank), n, m)
    } else {
        (a, m, n)
    };
    let mut rotations = if vectors {
        Some(batched_eye(x, &w, k, d)?)
    } else {
        None
    };
    let sweep = Sweep::new(x, k, rank, d)?;
    for _ in 0..sweep.count() {
        for step in 0..sweep.steps.len() {
            let wt = swap_last(x, &w, rank);
            let g = x.node1("MatMul", &[&wt, &w], vec![]);
            let j = sweep.rotation(x, &g, step);
            w = x.node1("MatMul", &[&w, &j], vec![]);
            if let Some(prev) = rotations {
                rotations = Some(x.node1("MatMul", &[&prev, &j], vec![]));
            }
        }
    }
    let sq = x.node1("Mul", &[&w, &w], vec![]);
    let norms = reduce(x, "ReduceSum", &sq, &[-2], false);
    let norms = x.node1("Sqrt", &[&norms], vec![]);
    let (s, order) = sorted(x, &norms, k, true);
    x.identity_out(1, &s);
    let Some(rotations) = rotations else {
        return Ok(());
    };
    let rotated = columns_in_order(x, &rotations, &order);
    let w = columns_in_order(x, &w, &order);
    let (q, r) = householder(x, &w, rows, k, d)?;
    // The signs of R's diagonal (0 counting as +) make Q's first k
    // columns W's directions.
    let flat = x.reshape(&r, &keep_batch(rank, &[rows * k]));
    let diag: Vec<f64> = (0..k).map(|j| (j * k + j) as f64).collect();
    let diag = x.const_values(DType::Int64, &[k], &diag)?;
    let diag = x.node1("Gather", &[&flat, &diag], vec![a_int("axis", -1)]);
    let negative = x.node1("Less", &[&diag, &sweep.zero], vec![]);
    let sign = x.node1("Where", &[&negative, &sweep.minus_one, &sweep.one], vec![]);
    let sign = x.unsqueeze(&sign, &[-2]);
    let first = cut(x, &q, -1, 0, k);
    let mut other = x.node1("Mul", &[&first, &sign], vec![]);
    if full && rows > k {
        let rest = cut(x, &q, -1, k, rows);
        other = x.node1("Concat", &[&other, &rest], vec![a_int("axis", -1)]);
    }
    // x = U S VH: for a tall x, U from W and VH = Jᵀ; for a wide one
    // (xᵀ = W' S Jᵀ), U = J and VH = W'ᵀ.
    let (u, vh) = if wide {
        let vh = swap_last(x, &other, rank);
        (rotated, vh)
    } else {
        let vh = swap_last(x, &rotated, rank);
        (other, vh)
    };
    x.identity_out(0, &u);
    x.identity_out(2, &vh);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{round_robin, sweep_count};
    use crate::mappers::tests::{export_at, export_ops, op_types};
    use pir_params::DType;

    #[test]
    fn a_sweep_rotates_every_pair_once_in_disjoint_steps() {
        for n in 1..=16 {
            let steps = round_robin(n);
            let mut seen = std::collections::BTreeSet::new();
            for pairs in &steps {
                let mut used = std::collections::BTreeSet::new();
                for &(p, q) in pairs {
                    assert!(p < q && q < n, "{n}: ({p}, {q})");
                    assert!(used.insert(p) && used.insert(q), "{n}: not disjoint");
                    assert!(seen.insert((p, q)), "{n}: ({p}, {q}) twice");
                }
            }
            assert_eq!(seen.len() as i64, n * (n - 1) / 2, "{n}");
        }
        assert_eq!(sweep_count(16, DType::Float32), 6);
        assert_eq!(sweep_count(3, DType::Float32), 4);
        assert_eq!(sweep_count(16, DType::Float64), 7);
    }

    /// `eigh` of a `[-1, n, n]` input (`%1` the values, `%2` the vectors),
    /// then `body`, fetching `fetched` of type `ty`.
    fn eigh_then(n: i64, body: &str, fetched: &str, ty: &str) -> String {
        format!(
            r#"    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,{n},{n}],stop_gradient:[false]}} : () -> tensor<-1x{n}x{n}xf32>
    (%1, %2) = "pd_op.eigh" (%0) {{UPLO:"L",stop_gradient:[false,false]}} : (tensor<-1x{n}x{n}xf32>) -> tensor<-1x{n}xf32>, tensor<-1x{n}x{n}xf32>
{body}
    (%9) = "pd_op.fetch" ({fetched}) {{col:0,name:"y",persistable:[true],stop_gradient:[false]}} : ({ty}) -> {ty}"#
        )
    }

    fn eigh(n: i64, read_vectors: bool) -> String {
        if read_vectors {
            eigh_then(n, "", "%2", &format!("tensor<-1x{n}x{n}xf32>"))
        } else {
            eigh_then(n, "", "%1", &format!("tensor<-1x{n}xf32>"))
        }
    }

    /// `V ⊙ f(w)` (a row per matrix), then `op` of it and `V` (`V·Vᵀ`
    /// with `transpose_y`).
    fn reconstruction(scale_bias: f64, transpose_y: bool) -> String {
        let m = "tensor<-1x3x3xf32>";
        eigh_then(
            3,
            &format!(
                r#"    (%3) = "pd_op.exp" (%1) {{stop_gradient:[false]}} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%4) = "pd_op.unsqueeze" (%3) {{axis:[1],stop_gradient:[false]}} : (tensor<-1x3xf32>) -> tensor<-1x1x3xf32>
    (%5) = "pd_op.multiply" (%2, %4) {{stop_gradient:[false]}} : ({m}, tensor<-1x1x3xf32>) -> {m}
    (%6) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2}} : () -> tensor<1xf32>
    (%7) = "pd_op.scale" (%5, %6) {{bias:{scale_bias},bias_after_scale:true,stop_gradient:[false]}} : ({m}, tensor<1xf32>) -> {m}
    (%8) = "pd_op.matmul" (%7, %2) {{stop_gradient:[false],transpose_x:false,transpose_y:{transpose_y}}} : ({m}, {m}) -> {m}"#
            ),
            "%8",
            m,
        )
    }

    #[test]
    fn eigenvectors_are_exported_where_their_signs_cancel() {
        let g = export_ops(&reconstruction(0.0, true));
        let types = op_types(&g);
        assert_eq!(types.iter().filter(|t| **t == "GatherElements").count(), 1);
        // V (V ⊙ row) summed over the columns of both: the signs cancel;
        // V·V sums over its columns and rows, a bias adds what no sign
        // flips: refused.
        for (bias, transpose_y) in [(0.0, false), (1.0, true)] {
            let err = export_at(&reconstruction(bias, transpose_y), 17).expect_err("signs read");
            assert!(err.to_string().contains("cancel their signs"), "{err}");
        }
    }

    #[test]
    fn eigenvalues_take_two_products_per_step_and_vectors_are_refused() {
        let g = export_ops(&eigh(4, false));
        let types = op_types(&g);
        let steps = 3 * sweep_count(4, DType::Float32) as usize;
        let products = types.iter().filter(|t| **t == "MatMul").count();
        // Two for J from the pair values, two for J^T A J.
        assert_eq!(products, 4 * steps, "{types:?}");
        assert_eq!(types.iter().filter(|t| **t == "TopK").count(), 1);
        let err = export_at(&eigh(4, true), 17).expect_err("eigenvectors are read");
        assert!(err.to_string().contains("eigenvectors"), "{err}");
    }

    /// `svd` of a `[-1, m, n]` input, fetching result `fetched` (0: `U`,
    /// 1: `S`).
    fn svd(m: i64, n: i64, fetched: usize) -> String {
        let k = m.min(n);
        let types = [
            format!("tensor<-1x{m}x{k}xf32>"),
            format!("tensor<-1x{k}xf32>"),
            format!("tensor<-1x{k}x{n}xf32>"),
        ];
        let ty = &types[fetched];
        format!(
            r#"    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,{m},{n}],stop_gradient:[false]}} : () -> tensor<-1x{m}x{n}xf32>
    (%1, %2, %3) = "pd_op.svd" (%0) {{full_matrices:false,stop_gradient:[false,false,false]}} : (tensor<-1x{m}x{n}xf32>) -> {}, {}, {}
    (%9) = "pd_op.fetch" (%{}) {{col:0,name:"y",persistable:[true],stop_gradient:[false]}} : ({ty}) -> {ty}"#,
            types[0],
            types[1],
            types[2],
            fetched + 1
        )
    }

    #[test]
    fn singular_values_rotate_the_fewer_columns_and_vectors_are_refused() {
        // A wide matrix: its 3 rows are the columns rotated (3 steps of one
        // pair a sweep), each step a product for G, two for J, one for W.
        let g = export_ops(&svd(3, 5, 1));
        let types = op_types(&g);
        let products = types.iter().filter(|t| **t == "MatMul").count();
        assert_eq!(products, 4 * 3 * sweep_count(3, DType::Float32) as usize);
        let err = export_at(&svd(3, 5, 0), 17).expect_err("U is read");
        assert!(err.to_string().contains("singular vectors"), "{err}");
    }

    #[test]
    fn the_polar_factor_reads_both_vectors_from_opset_14() {
        let m = "tensor<-1x4x4xf32>";
        let polar = svd(4, 4, 1).replace(
            "    (%9)",
            &format!(
                "    (%4) = \"pd_op.matmul\" (%1, %3) {{stop_gradient:[false],transpose_x:false,transpose_y:false}} : ({m}, {m}) -> {m}\n    (%8) = \"pd_op.fetch\" (%4) {{col:1,name:\"p\",persistable:[true],stop_gradient:[false]}} : ({m}) -> {m}\n    (%9)"
            ),
        );
        let g = export_ops(&polar);
        let types = op_types(&g);
        // Q of the rotated columns: one Householder reflector per column
        // but the last, then a Trilu.
        assert_eq!(types.iter().filter(|t| **t == "Trilu").count(), 1);
        let err = export_at(&polar, 13).expect_err("Trilu is opset 14");
        assert!(err.to_string().contains("opset 14"), "{err}");
    }

    #[test]
    fn large_or_unknown_matrices_are_refused() {
        let err = export_at(&eigh(17, false), 17).expect_err("order 17");
        assert!(err.to_string().contains("unrolled"), "{err}");
        let err = export_at(&eigh(-1, false), 17).expect_err("unknown order");
        assert!(err.to_string().contains("known size"), "{err}");
    }
}
