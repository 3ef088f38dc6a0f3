//! Fused and attention ops (Paddle's `multiary_infer_sym.cc`): flash
//! and memory-efficient attention, the fused multi-head attention block
//! and its gradient, fused GEMM epilogues and feed-forward blocks.

use super::binary::{dim, dim_from_end};
use super::control_flow::result_from_type;
use super::{rank_is, Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::ShapeOrData;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.flash_attn", flash_attn),
    ("pd_op.flash_attn_unpadded", flash_attn_unpadded),
    ("pd_op.flashmask_attention", flashmask_attention),
    ("pd_op.fused_attention", fused_attention),
    ("pd_op.fused_attention_grad", fused_attention_grad),
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
    set_flash_results(cx, &q, &k1, &v)
}

/// The results of `flash_attn` and `flashmask_attention`: `q`'s shape
/// with `v`'s head size, the softmax and its log-sum-exp over the sequence
/// lengths rounded to 128; Paddle gives the seed offset the output's shape.
fn set_flash_results(cx: &mut Cx<'_>, q: &[DimExpr], k_seq: &DimExpr, v: &[DimExpr]) -> Res {
    let mut out = q.to_vec();
    out[3] = dim_from_end(v, 1, "Input(V)")?;
    cx.set_shape(0, out.clone());
    let rq = round_to_128(cx, &q[1]);
    let rk = round_to_128(cx, k_seq);
    cx.set_shape(1, vec![q[0].clone(), q[2].clone(), rq.clone(), rk]);
    cx.set_shape(2, vec![q[0].clone(), q[2].clone(), rq]);
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

/// The shape of operand `i`, refusing as Paddle does when the operand is
/// absent (its fact is null, which has no shape).
fn present_shape(cx: &mut Cx<'_>, i: usize) -> Result<Vec<DimExpr>, Bad> {
    match cx.input(i) {
        ShapeOrData::Tensor(t) => Ok(t.shape),
        _ => Err(Bad(
            "Shape of ShapeOrData is not a vector, check whether the value is a tensor-list or not."
                .into(),
        )),
    }
}

/// `flash_attn_unpadded`: tokens of all sequences packed along dim 0
/// (`[total, heads, head_dim]`); the output keeps `q`'s shape, the
/// softmax and its log-sum-exp run over `q`'s token count rounded to 128.
fn flash_attn_unpadded(cx: &mut Cx<'_>) -> Res {
    let [q, k, v, cu_q, cu_k] = [
        cx.shape(0)?,
        cx.shape(1)?,
        cx.shape(2)?,
        cx.shape(3)?,
        cx.shape(4)?,
    ];
    for (t, rank, what) in [
        (&q, 3, "input with dim [total_q, num_heads, head_dim]"),
        (&k, 3, "k with dim [total_k, num_heads, head_dim]"),
        (&v, 3, "v with dim [total_k, num_heads, head_dim]"),
        (&cu_q, 1, "cu_seqlens_q with dim [batch_size + 1]"),
        (&cu_k, 1, "cu_seqlens_k with dim [batch_size + 1]"),
    ] {
        rank_is(t, rank, |_| format!("flash_attn_unpadded expects {what}"))?;
    }
    cx.eq(&q[2], &k[2]);
    // Paddle reads `k` through a reference the equality just rewrote.
    let k = cx.shape(1)?;
    for i in 0..3 {
        cx.eq(&k[i], &v[i]);
    }
    cx.set_shape(0, q.clone());
    let rounded = round_to_128(cx, &q[0]);
    if !cx.result_is_null(1) {
        cx.set_shape(1, vec![q[1].clone(), rounded.clone(), rounded.clone()]);
    }
    if !cx.result_is_null(2) {
        cx.set_shape(2, vec![q[1].clone(), rounded]);
    }
    if !cx.result_is_null(3) {
        cx.set_shape(3, vec![DimExpr::Int(2)]);
    }
    Ok(())
}

/// `flashmask_attention`: `flash_attn` without a mask operand. Paddle
/// checks the rank of operand 4 (the optional fixed seed offset) where it
/// means the row indices, so a program without a rank-4 seed offset is
/// refused; the seed offset result gets the output's shape.
fn flashmask_attention(cx: &mut Cx<'_>) -> Res {
    let [q, k, v] = [cx.shape(0)?, cx.shape(1)?, cx.shape(2)?];
    rank_is(&q, 4, |_| {
        "flash_attn receive input with dim [batch_size, seq_len, num_heads, head_dim]".into()
    })?;
    let (k0, k1) = (dim(&k, 0, "Input(K)")?, dim(&k, 1, "Input(K)")?);
    cx.eq(&q[0], &k0);
    cx.eq(&q[0], &dim(&v, 0, "Input(V)")?);
    cx.eq(&k1, &dim(&v, 1, "Input(V)")?);
    let rows = present_shape(cx, 4)?;
    rank_is(&rows, 4, |_| {
        "flashmask_attention receive startend_row_indices with dim [batch_size, num_heads,seq_len, mask_bounds]".into()
    })?;
    set_flash_results(cx, &q, &k1, &v)
}

/// The heads, head size and embedding width a `fused_attention` QKV
/// weight gives: `[3, heads, head_dim, width]`, or transposed
/// `[width, 3 * width]` with the heads from the attribute.
fn qkv_weight_dims(cx: &mut Cx<'_>, w: &[DimExpr]) -> Result<[DimExpr; 3], Bad> {
    let ring_id = cx.int_attr("ring_id").unwrap_or(-1);
    if !cx.bool_attr("transpose_qkv_wb").unwrap_or(false) {
        if w.len() != 4 {
            return Err(Bad(format!(
                "The dimensions of qkv_weight must be 4 if not enable transpose_qkv_wb: (3, num_head, dim_head, dim_embed), but received [{}]",
                w.len()
            )));
        }
        cx.eq(&w[0], &DimExpr::Int(3));
        if ring_id == -1 {
            let width = cx.mul(&w[1], &w[2]);
            cx.eq(&width, &w[3]);
        }
        return Ok([w[1].clone(), w[2].clone(), w[3].clone()]);
    }
    if w.len() != 2 {
        return Err(Bad(format!(
            "The dimensions of qkv_weight must be 2 if enable transpose_qkv_wb: (dim_embed, 3 * dim_embed),but received dimensions of Input is [{}]",
            w.len()
        )));
    }
    let heads = cx.int_attr("num_heads").unwrap_or(0);
    if heads <= 0 {
        return Err(Bad(format!(
            "The num_heads must be provided and greater than 0 if enable transpose_qkv_wb, but we got {heads}."
        )));
    }
    let heads = DimExpr::Int(heads);
    let per_head = cx.div(&w[0], &heads);
    let whole = cx.mul(&per_head, &heads);
    cx.eq(&whole, &w[0]);
    let three_widths = cx.mul(&w[0], &DimExpr::Int(3));
    let ranks = if ring_id == -1 {
        cx.eq(&three_widths, &w[1]);
        DimExpr::Int(1)
    } else {
        cx.div(&three_widths, &w[1])
    };
    let split = cx.mul(&heads, &ranks);
    let head_dim = cx.div(&w[0], &split);
    Ok([heads, head_dim, w[0].clone()])
}

/// `fused_attention`: a pre- or post-norm multi-head attention block over
/// `x = [batch, seq, width]`, optionally extending a key/value cache. The
/// results Paddle does not derive take their types' shapes, in its order.
fn fused_attention(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let w = cx.shape(3)?;
    let [heads, head_dim, width] = qkv_weight_dims(cx, &w)?;
    if x.len() != 3 {
        return Err(Bad(format!(
            "The dimensions of x must be 3 (batch_size, seq_len, dim_embed), but received dimensions of Input is [{}]",
            x.len()
        )));
    }
    let (batch, seq) = (x[0].clone(), x[1].clone());
    cx.eq(&x[2], &width);
    let is_test = cx.bool_attr("is_test").unwrap_or(false);
    let rows = vec![cx.mul(&batch, &seq)];
    if cx.bool_attr("pre_layer_norm").unwrap_or(false) {
        cx.set_shape(0, rows.clone());
        cx.set_shape(1, rows);
        cx.set_shape(2, x.clone());
    } else {
        for r in 0..3 {
            result_from_type(cx, r);
        }
        for (r, shape) in [(15, rows.clone()), (16, rows), (17, x.clone())] {
            if !cx.result_is_null(r) {
                cx.set_shape(r, shape);
            }
        }
    }
    let qkv = if cx.bool_attr("transpose_qkv_wb").unwrap_or(false) {
        let all = cx.mul(&DimExpr::Int(3), &heads);
        let all = cx.mul(&all, &head_dim);
        vec![batch.clone(), seq.clone(), all]
    } else {
        let three = DimExpr::Int(3);
        vec![
            batch.clone(),
            seq.clone(),
            three,
            heads.clone(),
            head_dim.clone(),
        ]
    };
    cx.set_shape(3, qkv.clone());
    if cx.operand(4).is_some() {
        cx.set_shape(4, qkv);
    } else {
        result_from_type(cx, 4);
    }
    let transposed = vec![
        DimExpr::Int(3),
        batch.clone(),
        heads.clone(),
        seq.clone(),
        head_dim.clone(),
    ];
    cx.set_shape(5, transposed);
    let mut keys = seq.clone();
    if cx.operand(5).is_some() {
        let cache = cx.shape(5)?;
        if cache.len() != 5 {
            return Err(Bad(format!(
                "The CacheKV must be 5 dims, but got {}",
                cache.len()
            )));
        }
        cx.eq(&cache[0], &DimExpr::Int(2));
        cx.eq(&cache[1], &batch);
        cx.eq(&cache[2], &heads);
        cx.eq(&cache[4], &head_dim);
        keys = cx.add(&keys, &cache[3]);
        if !cx.result_is_null(18) {
            let mut grown = cache.clone();
            grown[3] = keys.clone();
            cx.set_shape(18, grown);
        }
    }
    let scores = vec![batch.clone(), heads.clone(), seq.clone(), keys];
    cx.set_shape(6, scores.clone());
    if cx.operand(6).is_some() {
        cx.set_shape(11, scores.clone());
    } else {
        result_from_type(cx, 11);
    }
    cx.set_shape(10, scores.clone());
    if is_test {
        result_from_type(cx, 9);
    } else {
        cx.set_shape(9, scores.clone());
    }
    cx.set_shape(8, scores);
    let context = vec![batch.clone(), heads.clone(), seq.clone(), head_dim.clone()];
    cx.set_shape(7, context);
    cx.set_shape(12, vec![batch, seq, heads, head_dim]);
    cx.set_shape(13, x.clone());
    if is_test {
        result_from_type(cx, 14);
    } else {
        cx.set_shape(14, x.clone());
    }
    cx.set_shape(19, x);
    Ok(())
}

/// `fused_attention_grad`: each gradient takes the shape of the forward
/// value it belongs to, as Paddle pairs them (`(result, operand)`); the
/// optional ones only when present. Paddle pairs the output-linear bias
/// gradient with the bias but asks for the first layer norm's output.
fn fused_attention_grad(cx: &mut Cx<'_>) -> Res {
    if cx.bool_attr("is_test").unwrap_or(false) {
        return Err(Bad("GradOp is only callable when is_test is false".into()));
    }
    let pre_norm = cx.bool_attr("pre_layer_norm").unwrap_or(false);
    // (result, operand, operand that must be present), in Paddle's order.
    let mut pairs: Vec<(usize, usize, Option<usize>)> = Vec::new();
    if pre_norm {
        if cx.operand(9).is_some() {
            pairs.extend([(4, 9, None), (5, 10, Some(10))]);
        }
    } else {
        pairs.extend([(6, 11, Some(11)), (7, 12, Some(12))]);
    }
    pairs.extend([
        (8, 1, None),
        (3, 8, Some(13)),
        (10, 7, None),
        (9, 2, None),
        (0, 3, None),
    ]);
    pairs.push(if pre_norm {
        (11, 13, Some(13))
    } else {
        (12, 18, Some(18))
    });
    pairs.extend([
        (19, 26, None),
        (14, 22, None),
        (15, 20, None),
        (16, 21, None),
        (17, 23, None),
        (18, 25, None),
        (2, 6, Some(6)),
        (13, 19, None),
        (1, 4, Some(4)),
        (20, 27, None),
    ]);
    for (result, operand, needs) in pairs {
        let always = matches!(result, 8 | 9) || result >= 13;
        if !always && cx.result_is_null(result) {
            continue;
        }
        if needs.is_some_and(|n| cx.operand(n).is_none()) {
            continue;
        }
        let shape = present_shape(cx, operand)?;
        cx.set_shape(result, shape);
    }
    Ok(())
}
