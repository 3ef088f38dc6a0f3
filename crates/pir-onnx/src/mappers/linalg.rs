//! Small linear algebra and tensor utilities: `kron`, `multi_dot`,
//! `matrix_power`, `det`, `slogdet`, `trace`, `diagonal`, `logcumsumexp`,
//! `huber_loss`, `index_add`, `broadcast_tensors`, `shard_index`, `renorm`.

use pir_params::DType;

use crate::export::{a_int, a_ints, a_str, Exporter};
use crate::mappers::index::reduce;
use crate::mappers::shape::norm_axis;
use crate::ExportError;

type R = Result<(), ExportError>;

/// `kron(x, y)` of equal-rank inputs with known dims.
pub(crate) fn kron(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let da = x.in_dims(0)?;
    let db = x.in_dims(1)?;
    if da.len() != db.len() || da.iter().chain(&db).any(|&d| d < 0) {
        return Err(x.unsupported("inputs of one rank with known dims"));
    }
    let sa: Vec<i64> = da.iter().flat_map(|&d| [d, 1]).collect();
    let sb: Vec<i64> = db.iter().flat_map(|&d| [1, d]).collect();
    let ra = x.reshape(&a, &sa);
    let rb = x.reshape(&b, &sb);
    let m = x.node1("Mul", &[&ra, &rb], vec![]);
    let out: Vec<i64> = da.iter().zip(&db).map(|(&p, &q)| p * q).collect();
    let r = x.reshape(&m, &out);
    x.finish_with(&r)
}

/// `multi_dot(x...)`: a chain of products.
pub(crate) fn multi_dot(x: &mut Exporter<'_>) -> R {
    let parts = x.input_vec(0)?;
    let mut acc = parts
        .first()
        .cloned()
        .ok_or_else(|| x.unsupported("no matrices"))?;
    for p in &parts[1..] {
        acc = x.node1("MatMul", &[&acc, p], vec![]);
    }
    x.finish_with(&acc)
}

/// `matrix_power(x, n)` for `n >= 1` (repeated squaring).
pub(crate) fn matrix_power(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let n = x.attrs().i64_or("n", 1)?;
    if !(1..=1 << 20).contains(&n) {
        return Err(x.unsupported("only positive powers"));
    }
    let mut result: Option<String> = None;
    let mut base = a;
    let mut k = n;
    while k > 0 {
        if k & 1 == 1 {
            result = Some(match result {
                None => base.clone(),
                Some(r) => x.node1("MatMul", &[&r, &base], vec![]),
            });
        }
        k >>= 1;
        if k > 0 {
            base = x.node1("MatMul", &[&base, &base], vec![]);
        }
    }
    let r = result.ok_or_else(|| x.unsupported("empty power"))?;
    x.finish_with(&r)
}

/// `det(x)`.
pub(crate) fn det(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let r = x.node1("Det", &[&a], vec![]);
    x.finish_with(&r)
}

/// `slogdet(x)`: `[sign, log|det|]` stacked on a new first axis.
pub(crate) fn slogdet(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.node1("Det", &[&a], vec![]);
    let s = x.node1("Sign", &[&d], vec![]);
    let ab = x.node1("Abs", &[&d], vec![]);
    let l = x.node1("Log", &[&ab], vec![]);
    let s = x.unsqueeze(&s, &[0]);
    let l = x.unsqueeze(&l, &[0]);
    let r = x.node1("Concat", &[&s, &l], vec![a_int("axis", 0)]);
    // Paddle types the result as its input (`UnchangedInferMeta`).
    x.shape_unknown();
    x.finish_with(&r)
}

/// The diagonal of a known-size matrix `a` (`[rows, cols]`) at `offset`.
fn diagonal_of(
    x: &mut Exporter<'_>,
    a: &str,
    rows: i64,
    cols: i64,
    offset: i64,
) -> Result<String, ExportError> {
    let mut idx = Vec::new();
    for i in 0..rows {
        let j = i + offset;
        if j >= 0 && j < cols {
            idx.extend_from_slice(&[i as f64, j as f64]);
        }
    }
    let n = idx.len() as i64 / 2;
    let indices = x.const_values(DType::Int64, &[n, 2], &idx)?;
    Ok(x.node1("GatherND", &[a, &indices], vec![]))
}

/// `diagonal(x, offset, 0, 1)` and `trace(x, offset, 0, 1)` of a matrix of
/// known size.
pub(crate) fn diagonal(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let dims = x.in_dims(0)?;
    let attrs = x.attrs();
    let offset = attrs.i64_or("offset", 0)?;
    let a1 = norm_axis(attrs.i64_or("axis1", 0)?, dims.len() as i64);
    let a2 = norm_axis(attrs.i64_or("axis2", 1)?, dims.len() as i64);
    if dims.len() != 2 || dims.iter().any(|&d| d < 0) || (a1, a2) != (0, 1) {
        return Err(x.unsupported("only matrices of known size, axes 0 and 1"));
    }
    let diag = diagonal_of(x, &a, dims[0], dims[1], offset)?;
    let r = if x.op_name() == "pd_op.trace" {
        reduce(x, "ReduceSum", &diag, &[], false)
    } else {
        diag
    };
    x.finish_with(&r)
}

/// `logcumsumexp(x, axis, flatten, exclusive, reverse)`, shifted by the
/// maximum for stability.
pub(crate) fn logcumsumexp(x: &mut Exporter<'_>) -> R {
    let mut a = x.input(0)?;
    let attrs = x.attrs();
    let flatten = attrs.bool_or("flatten", false)?;
    let exclusive = attrs.bool_or("exclusive", false)?;
    let reverse = attrs.bool_or("reverse", false)?;
    let mut axis = attrs.i64_or("axis", -1)?;
    if exclusive {
        return Err(x.unsupported("exclusive"));
    }
    if flatten {
        a = x.reshape(&a, &[-1]);
        axis = 0;
    }
    let m = reduce(x, "ReduceMax", &a, &[], false);
    let shifted = x.node1("Sub", &[&a, &m], vec![]);
    let e = x.node1("Exp", &[&shifted], vec![]);
    let ax = x.const_values(DType::Int64, &[], &[axis as f64])?;
    let c = x.node1(
        "CumSum",
        &[&e, &ax],
        vec![a_int("reverse", i64::from(reverse))],
    );
    let l = x.node1("Log", &[&c], vec![]);
    let r = x.node1("Add", &[&l, &m], vec![]);
    x.finish_with(&r)
}

/// `huber_loss(input, label, delta)`: the loss and the residual.
pub(crate) fn huber_loss(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let l = x.input(1)?;
    let d = x.in_dtype(0)?;
    let delta = x.attrs().f64_or("delta", 1.0)?;
    let r = x.node1("Sub", &[&l, &a], vec![]);
    let ab = x.node1("Abs", &[&r], vec![]);
    let k = x.const_scalar(d, delta)?;
    let half = x.const_scalar(d, 0.5)?;
    let small = x.node1("LessOrEqual", &[&ab, &k], vec![]);
    let sq = x.node1("Mul", &[&r, &r], vec![]);
    let sq = x.node1("Mul", &[&sq, &half], vec![]);
    let hd = x.const_scalar(d, 0.5 * delta)?;
    let lin = x.node1("Sub", &[&ab, &hd], vec![]);
    let lin = x.node1("Mul", &[&lin, &k], vec![]);
    let loss = x.node1("Where", &[&small, &sq, &lin], vec![]);
    x.identity_out(0, &loss);
    x.identity_out(1, &r);
    Ok(())
}

/// `index_add(x, index, add_value, axis)`: an additive scatter of the
/// slices of `add_value` at `index` along `axis`.
pub(crate) fn index_add(x: &mut Exporter<'_>) -> R {
    x.need_opset(16, "an adding ScatterElements")?;
    let a = x.input(0)?;
    let idx = x.input(1)?;
    let v = x.input(2)?;
    let rank = x.in_rank(2)?;
    let axis = norm_axis(x.attrs().i64_or("axis", 0)?, rank);
    let idx = x.cast(&idx, DType::Int64)?;
    let mut shape = vec![1i64; rank as usize];
    shape[axis as usize] = -1;
    let idx = x.reshape(&idx, &shape);
    let vs = x.node1("Shape", &[&v], vec![]);
    let idx = x.node1("Expand", &[&idx, &vs], vec![]);
    let out = x.out(0);
    x.node(
        "ScatterElements",
        &[&a, &idx, &v],
        &[&out],
        vec![a_int("axis", axis), a_str("reduction", "add")],
    );
    Ok(())
}

/// `broadcast_tensors(x...)`: each input expanded to the common shape.
pub(crate) fn broadcast_tensors(x: &mut Exporter<'_>) -> R {
    let parts = x.input_vec(0)?;
    let mut acc = parts
        .first()
        .cloned()
        .ok_or_else(|| x.unsupported("no tensors"))?;
    for p in &parts[1..] {
        let s = x.node1("Shape", &[p], vec![]);
        acc = x.node1("Expand", &[&acc, &s], vec![]);
    }
    let common = x.node1("Shape", &[&acc], vec![]);
    let v = x.result(0).ok_or_else(|| x.unsupported("no result"))?;
    let outs: Vec<String> = parts.iter().map(|_| x.tmp()).collect();
    for (p, o) in parts.iter().zip(&outs) {
        x.node("Expand", &[p, &common], &[o], vec![]);
    }
    x.set_vec(v, outs);
    x.no_value_info();
    Ok(())
}

/// `shard_index(input, index_num, nshards, shard_id, ignore_value)`.
pub(crate) fn shard_index(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let num = attrs.i64_or("index_num", 1)?;
    let shards = attrs.i64_or("nshards", 1)?.max(1);
    let id = attrs.i64_or("shard_id", 0)?;
    let ignore = attrs.i64_or("ignore_value", -1)?;
    let size = (num + shards - 1) / shards;
    let k_size = x.const_scalar(d, size as f64)?;
    let k_id = x.const_scalar(d, id as f64)?;
    let k_ignore = x.const_scalar(d, ignore as f64)?;
    let shard = x.node1("Div", &[&a, &k_size], vec![]);
    let mine = x.node1("Equal", &[&shard, &k_id], vec![]);
    let local = x.node1("Mod", &[&a, &k_size], vec![a_int("fmod", 0)]);
    let r = x.node1("Where", &[&mine, &local, &k_ignore], vec![]);
    x.finish_with(&r)
}

/// `renorm(x, p, axis, max_norm)`: each slice along `axis` scaled down to
/// p-norm `max_norm`.
pub(crate) fn renorm(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let p = attrs.f64_or("p", 2.0)?;
    let axis = norm_axis(attrs.i64_or("axis", 0)?, rank);
    let max_norm = attrs.f64_or("max_norm", 1.0)?;
    let others: Vec<i64> = (0..rank).filter(|&i| i != axis).collect();
    let ab = x.node1("Abs", &[&a], vec![]);
    let pk = x.const_scalar(d, p)?;
    let pw = x.node1("Pow", &[&ab, &pk], vec![]);
    let s = reduce(x, "ReduceSum", &pw, &others, true);
    let inv = x.const_scalar(d, 1.0 / p)?;
    let norm = x.node1("Pow", &[&s, &inv], vec![]);
    let m = x.const_scalar(d, max_norm)?;
    let eps = x.const_scalar(d, 1e-7)?;
    let ne = x.node1("Add", &[&norm, &eps], vec![]);
    let scale = x.node1("Div", &[&m, &ne], vec![]);
    let over = x.node1("Greater", &[&norm, &m], vec![]);
    let one = x.const_scalar(d, 1.0)?;
    let k = x.node1("Where", &[&over, &scale, &one], vec![]);
    let r = x.node1("Mul", &[&a, &k], vec![]);
    x.finish_with(&r)
}
/// `spectral_norm(weight, u, v, dim, power_iters, eps)`: `weight` over
/// its largest singular value, estimated as Paddle does by `power_iters`
/// power iterations from `u` and `v` on the matrix `[h, w]` of `weight`
/// with axis `dim` first (`v = Wᵀu / (|Wᵀu| + eps)`, `u = Wv / (|Wv| +
/// eps)`, then `sigma = u · Wv`).
pub(crate) fn spectral_norm(x: &mut Exporter<'_>) -> R {
    let weight = x.input(0)?;
    let rank = x.in_rank(0)?;
    let dim = norm_axis(x.attrs().i64_or("dim", 0)?, rank);
    let iters = x.attrs().i64_or("power_iters", 1)?;
    let eps = x.attrs().f64_or("eps", 1e-12)?;
    let d = x.in_dtype(0)?;
    if !(0..rank).contains(&dim) || !(0..=64).contains(&iters) {
        return Err(x.unsupported("an axis of the weight and at most 64 iterations"));
    }
    let mut perm = vec![dim];
    perm.extend((0..rank).filter(|&i| i != dim));
    let moved = x.node1("Transpose", &[&weight], vec![a_ints("perm", &perm)]);
    let h = x.in_dims(1)?.first().copied().unwrap_or(-1);
    let w_mat = x.reshape(&moved, &[h, -1]);
    let w_t = x.node1("Transpose", &[&w_mat], vec![a_ints("perm", &[1, 0])]);
    let u0 = x.input(1)?;
    let v0 = x.input(2)?;
    let mut u = x.reshape(&u0, &[-1, 1]);
    let mut v = x.reshape(&v0, &[-1, 1]);
    let eps_c = x.const_scalar(d, eps)?;
    let normalized = |x: &mut Exporter<'_>, a: &str| {
        let sq = x.node1("Mul", &[a, a], vec![]);
        let sum = reduce(x, "ReduceSum", &sq, &[], false);
        let norm = x.node1("Sqrt", &[&sum], vec![]);
        let denom = x.node1("Add", &[&norm, &eps_c], vec![]);
        x.node1("Div", &[a, &denom], vec![])
    };
    for _ in 0..iters {
        let tv = x.node1("MatMul", &[&w_t, &u], vec![]);
        v = normalized(x, &tv);
        let tu = x.node1("MatMul", &[&w_mat, &v], vec![]);
        u = normalized(x, &tu);
    }
    let wv = x.node1("MatMul", &[&w_mat, &v], vec![]);
    let uwv = x.node1("Mul", &[&u, &wv], vec![]);
    let sigma = reduce(x, "ReduceSum", &uwv, &[], false);
    let r = x.node1("Div", &[&weight, &sigma], vec![]);
    x.finish_with(&r)
}
