//! Fused and attention ops (Paddle's `multiary_infer_sym.cc`): flash
//! and memory-efficient attention, fused GEMM epilogues and feed-forward
//! blocks.

use super::binary::{dim, dim_from_end};
use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.flash_attn", flash_attn),
    ("pd_op.flash_attn_qkvpacked", flash_attn_packed),
    ("pd_op.flash_attn_varlen_qkvpacked", flash_attn_packed),
    ("pd_op.fused_gemm_epilogue", fused_gemm_epilogue),
    ("pd_op.fused_feedforward", fused_feedforward),
    (
        "pd_op.memory_efficient_attention",
        memory_efficient_attention,
    ),
    (
        "pd_op.masked_multihead_attention_",
        masked_multihead_attention,
    ),
    ("pd_op.rank_attention", rank_attention),
    ("pd_op.sparse_attention", sparse_attention),
];

/// `x` rounded up to a multiple of 128, as Paddle writes it:
/// `(x + 127) / 128 * 128`.
fn round_to_128(cx: &mut Cx<'_>, x: &DimExpr) -> DimExpr {
    let up = cx.add(x, &DimExpr::Int(127));
    let blocks = cx.div(&up, &DimExpr::Int(128));
    cx.mul(&blocks, &DimExpr::Int(128))
}

/// `flash_attn`: `q`'s shape with `v`'s head size; the softmax and its
/// log-sum-exp over sequence lengths rounded to 128.
fn flash_attn(cx: &mut Cx<'_>) -> Res {
    let q = cx.shape(0)?;
    let k = cx.shape(1)?;
    let v = cx.shape(2)?;
    if q.len() != 4 {
        return Err(Bad(
            "flash_attn receive input with dim [batch_size, seq_len, num_heads, head_dim]".into(),
        ));
    }
    let (k0, k1) = (dim(&k, 0, "Input(K)")?, dim(&k, 1, "Input(K)")?);
    let (v0, v1) = (dim(&v, 0, "Input(V)")?, dim(&v, 1, "Input(V)")?);
    cx.eq(&q[0], &k0);
    cx.eq(&q[0], &v0);
    cx.eq(&k1, &v1);
    if cx.operand(4).is_some() {
        let mask = cx.shape(4)?;
        cx.eq(&dim(&mask, 0, "Input(AttnMask)")?, &q[0]);
        cx.eq(&dim(&mask, 2, "Input(AttnMask)")?, &q[1]);
        cx.eq(&dim(&mask, 3, "Input(AttnMask)")?, &k1);
    }
    let mut out = q.clone();
    out[3] = dim_from_end(&v, 1, "Input(V)")?;
    cx.set_shape(0, out.clone());
    let rq = round_to_128(cx, &q[1]);
    let rk = round_to_128(cx, &k1);
    cx.set_shape(1, vec![q[0].clone(), q[2].clone(), rq.clone(), rk]);
    cx.set_shape(2, vec![q[0].clone(), q[2].clone(), rq]);
    // Paddle gives the seed offset the output's shape.
    cx.set_shape(3, out);
    Ok(())
}

/// Packed `qkv` attention: `[tokens, groups + 2, kv_heads, head_dim]` or
/// with a batch `[batch, seq, groups + 2, kv_heads, head_dim]`.
fn flash_attn_packed(cx: &mut Cx<'_>) -> Res {
    let qkv = cx.shape(0)?;
    let (out, softmax, lse) = match qkv.len() {
        4 => {
            let groups = cx.sub(&qkv[1], &DimExpr::Int(2));
            let heads = cx.mul(&groups, &qkv[2]);
            let out = vec![qkv[0].clone(), heads.clone(), qkv[3].clone()];
            let (a, b) = (cx.sym(), cx.sym());
            let softmax = vec![qkv[0].clone(), heads.clone(), a, b];
            let c = cx.sym();
            (out, softmax, vec![qkv[0].clone(), heads, c])
        }
        5 => {
            let groups = cx.sub(&qkv[2], &DimExpr::Int(2));
            let heads = cx.mul(&groups, &qkv[3]);
            let out = vec![
                qkv[0].clone(),
                qkv[1].clone(),
                heads.clone(),
                qkv[4].clone(),
            ];
            let seq = round_to_128(cx, &qkv[1]);
            let s = cx.sym();
            let softmax = vec![qkv[0].clone(), heads.clone(), seq.clone(), s];
            (out, softmax, vec![qkv[0].clone(), heads, seq])
        }
        _ => return Err(Bad("qkv dims must be 4(unpadded) or 5(padded batch)".into())),
    };
    cx.set_shape(0, out);
    cx.set_shape(1, softmax);
    cx.set_shape(2, lse);
    if !cx.result_is_null(3) {
        cx.set_shape(3, vec![DimExpr::Int(2)]);
    }
    Ok(())
}

/// `fused_gemm_epilogue`: a matmul whose bias length Paddle takes from
/// `y`'s first dim.
fn fused_gemm_epilogue(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let y = cx.shape(1)?;
    let (rx, ry) = (x.len(), y.len());
    if rx < 2 || ry < 2 {
        return Err(Bad("fused_gemm_epilogue operands of rank below 2".into()));
    }
    let tx = cx.bool_attr("trans_x").unwrap_or(false);
    let ty = cx.bool_attr("trans_y").unwrap_or(false);
    let mut out = x[..rx - 2].to_vec();
    let m = if tx { &x[rx - 1] } else { &x[rx - 2] };
    let n = if ty { &y[ry - 2] } else { &y[ry - 1] };
    out.push(m.clone());
    out.push(n.clone());
    let xk = if tx { &x[rx - 2] } else { &x[rx - 1] };
    let yk = if ty { &y[ry - 1] } else { &y[ry - 2] };
    cx.eq(xk, yk);
    cx.eq(n, &y[0]);
    cx.set_shape(0, out.clone());
    if !cx.result_is_null(1) {
        cx.set_shape(1, out);
    }
    Ok(())
}

/// `fused_feedforward`: the output and residual keep `x`'s shape, the
/// first linear's outputs end in its weight's width, layer-norm
/// statistics hold one value per row.
fn fused_feedforward(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let w1 = cx.shape(3)?;
    let matrix = if x.len() > 1 {
        x.clone()
    } else {
        vec![DimExpr::Int(1), dim(&x, 0, "Input(X)")?]
    };
    let height = matrix[matrix.len() - 2].clone();
    let batch = cx.product(&matrix[..matrix.len() - 2]);
    let mut hidden = x.clone();
    let last = hidden.len() - 1;
    hidden[last] = dim_from_end(&w1, 1, "Input(Linear1Weight)")?;
    let is_test = cx.bool_attr("is_test").unwrap_or(false);
    cx.set_shape(0, x.clone());
    if !is_test {
        cx.set_shape(1, hidden.clone());
    }
    cx.set_shape(9, hidden.clone());
    cx.set_shape(7, hidden);
    cx.set_shape(10, x.clone());
    if !is_test {
        cx.set_shape(2, x.clone());
    }
    let rows = vec![cx.mul(&batch, &height)];
    let (stats, normed) = if cx.bool_attr("pre_layer_norm").unwrap_or(false) {
        ([3, 4], Some(8))
    } else {
        ([5, 6], None)
    };
    if let Some(r) = normed {
        if !cx.result_is_null(r) {
            cx.set_shape(r, x.clone());
        }
    }
    for r in stats {
        if !cx.result_is_null(r) {
            cx.set_shape(r, rows.clone());
        }
    }
    Ok(())
}

fn memory_efficient_attention(cx: &mut Cx<'_>) -> Res {
    let q = cx.shape(0)?;
    let k = cx.shape(1)?;
    let v = cx.shape(2)?;
    for (t, what) in [(&q, "Query"), (&k, "Key"), (&v, "Value")] {
        if t.len() != 4 {
            return Err(Bad(format!(
                "{what} should be a 4-D tensorBut received {what} dimension({})",
                t.len()
            )));
        }
    }
    cx.eq(&q[0], &k[0]);
    cx.eq(&k[0], &v[0]);
    cx.eq(&q[2], &k[2]);
    cx.eq(&k[2], &v[2]);
    cx.eq(&q[3], &k[3]);
    cx.eq(&k[1], &v[1]);
    cx.set_shape(
        0,
        vec![q[0].clone(), q[1].clone(), q[2].clone(), v[3].clone()],
    );
    cx.set_shape(1, vec![q[2].clone(), q[0].clone()]);
    cx.set_shape(2, vec![DimExpr::Int(2)]);
    Ok(())
}

/// `masked_multihead_attention_`: one decoding step over a cache of shape
/// `[2, batch, kv_heads, max_seq, head_dim]`.
fn masked_multihead_attention(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let cache = cx.shape(1)?;
    if cache.len() != 5 {
        return Err(Bad("The cache_kv must be 5 dims.".into()));
    }
    cx.eq(&cache[0], &DimExpr::Int(2));
    let (head_dim, kv_heads) = (cache[4].clone(), cache[2].clone());
    let width = dim_from_end(&x, 1, "Input(X)")?;
    let heads = cx.div(&width, &head_dim);
    let heads = cx.sub(&heads, &kv_heads);
    let heads = cx.sub(&heads, &kv_heads);
    let out = cx.mul(&heads, &head_dim);
    cx.set_shape(0, vec![dim(&x, 0, "Input(X)")?, out]);
    cx.set_shape(1, cache);
    if cx.operand(7).is_some() {
        let offsets = cx.shape(7)?;
        cx.set_shape(2, offsets);
    }
    Ok(())
}

fn rank_attention(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let offset = cx.shape(1)?;
    let param = cx.shape(2)?;
    let max_rank = cx.int_attr("max_rank").unwrap_or(3);
    let ranks = cx.sub(&dim(&offset, 1, "Input(RankOffset)")?, &DimExpr::Int(1));
    let ranks = cx.div(&ranks, &DimExpr::Int(2));
    cx.eq(&ranks, &DimExpr::Int(max_rank));
    let rows = dim(&x, 0, "Input(X)")?;
    cx.set_shape(1, vec![rows.clone(), dim(&param, 1, "Input(RankParam)")?]);
    if !cx.result_is_null(0) {
        let help = cx.mul(&dim(&x, 1, "Input(X)")?, &DimExpr::Int(max_rank));
        cx.set_shape(0, vec![rows.clone(), help]);
    }
    if !cx.result_is_null(2) {
        cx.set_shape(2, vec![rows, DimExpr::Int(1)]);
    }
    Ok(())
}

fn sparse_attention(cx: &mut Cx<'_>) -> Res {
    let shapes = [
        cx.shape(0)?,
        cx.shape(1)?,
        cx.shape(2)?,
        cx.shape(3)?,
        cx.shape(4)?,
    ];
    let [q, k, v, offset, columns] = &shapes;
    for (t, n, what) in [
        (q, 4, "query"),
        (k, 4, "key"),
        (v, 4, "value"),
        (offset, 3, "offset"),
        (columns, 3, "columns"),
    ] {
        if t.len() != n {
            return Err(Bad(format!("Dimension in {what}'s shapes should be {n}.")));
        }
    }
    for i in 0..4 {
        cx.eq(&q[i], &k[i]);
    }
    cx.eq(&v[0], &k[0]);
    cx.eq(&v[1], &k[1]);
    cx.eq(&v[3], &k[3]);
    cx.eq(&offset[0], &q[0]);
    cx.eq(&offset[1], &q[1]);
    let rows = cx.add(&q[2], &DimExpr::Int(1));
    cx.eq(&offset[2], &rows);
    cx.eq(&columns[0], &q[0]);
    cx.eq(&columns[1], &q[1]);
    cx.set_shape(0, q.clone());
    let sparse = vec![q[0].clone(), q[1].clone(), columns[2].clone()];
    cx.set_shape(1, sparse.clone());
    cx.set_shape(2, sparse);
    Ok(())
}
