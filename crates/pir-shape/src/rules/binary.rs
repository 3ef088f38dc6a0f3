//! Two-tensor ops (Paddle's `binary_infer_sym.cc`): matmul, gathers,
//! convolutions, embeddings.

use super::{rank_is, Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::ShapeOrData;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.matmul", matmul),
    ("pd_op.embedding", embedding),
    ("pd_op.gather", gather),
    ("pd_op.gather_nd", gather_nd),
    ("pd_op.index_select", index_select),
    ("pd_op.conv2d", conv),
    ("pd_op.conv3d", conv),
    ("pd_op.depthwise_conv2d", conv),
    ("pd_op.conv2d_transpose", conv),
    ("pd_op.depthwise_conv2d_transpose", conv),
    ("pd_op.full_with_tensor", full_with_tensor),
    ("pd_op.expand_as", expand_as),
    ("pd_op.take_along_axis", take_along_axis),
    ("pd_op.bmm", matmul),
    ("pd_op.conv2d_transpose_bias", conv),
    ("pd_op.conv3d_transpose", conv),
    ("pd_op.depthwise_conv2d_bias", conv),
    ("pd_op.depthwise_conv3d_bias", conv),
    ("pd_op.dot", dot),
    ("pd_op.fc", fc),
    ("pd_op.mv", mv),
    ("pd_op.index_sample", like_second),
    ("pd_op.searchsorted", like_second),
    ("pd_op.accuracy_check", like_second),
    ("pd_op.reduce_as", like_second),
    ("pd_op.apply_per_channel_scale", apply_per_channel_scale),
    ("pd_op.bincount", bincount),
    ("pd_op.binomial", same_as_both),
    ("pd_op.gather_tree", same_as_both),
    ("pd_op.box_clip", box_clip),
    ("pd_op.ctc_align", ctc_align),
    ("pd_op.grid_sample", grid_sample),
    ("pd_op.histogram", histogram),
    ("pd_op.index_select_strided", index_select_strided),
    ("pd_op.kldiv_loss", kldiv_loss),
    ("pd_op.margin_cross_entropy", margin_cross_entropy),
    ("pd_op.matrix_nms", matrix_nms),
    ("pd_op.prune_gate_by_capacity", prune_gate_by_capacity),
    ("pd_op.segment_pool", segment_pool),
    ("pd_op.sequence_mask", sequence_mask),
    ("pd_op.shuffle_batch", shuffle_batch),
    ("pd_op.stft", stft),
    ("pd_op.swiglu", swiglu),
    ("pd_op.tdm_child", tdm_child),
    ("pd_op.top_p_sampling", top_p_sampling),
    ("pd_op.unpool", unpool),
    ("pd_op.unpool3d", unpool),
    ("pd_op.weight_dequantize", weight_dequantize),
    ("pd_op.fused_softmax_mask", fused_softmax_mask),
];

fn matmul(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let mut y = cx.shape(1)?;
    let tx = cx.bool_attr("transpose_x").unwrap_or(false);
    let ty = cx.bool_attr("transpose_y").unwrap_or(false);
    if x.is_empty() || y.is_empty() {
        return Err(Bad("matmul of a 0-d tensor".into()));
    }
    let x_bc = x.len() == 1;
    if x_bc {
        x.insert(0, DimExpr::Int(1));
    }
    let y_bc = y.len() == 1;
    if y_bc {
        y.push(DimExpr::Int(1));
    }
    let (nx, ny) = (x.len(), y.len());
    let mut out: Vec<DimExpr> = if nx > ny {
        x[..nx - 2].to_vec()
    } else if nx < ny {
        y[..ny - 2].to_vec()
    } else {
        let mut v = Vec::with_capacity(nx - 2);
        for i in 0..nx - 2 {
            v.push(cx.broadcast(&x[i], &y[i]));
            cx.broadcastable(&x[i].clone(), &y[i].clone());
        }
        v
    };
    let m = if tx { &x[nx - 1] } else { &x[nx - 2] };
    let n = if ty { &y[ny - 2] } else { &y[ny - 1] };
    if !x_bc {
        out.push(m.clone());
    }
    if !y_bc {
        out.push(n.clone());
    }
    cx.set_shape(0, out);
    if nx == ny && nx >= 2 {
        let xk = if tx { &x[nx - 2] } else { &x[nx - 1] };
        let yk = if ty { &y[ny - 1] } else { &y[ny - 2] };
        let (a, b) = (xk.clone(), yk.clone());
        cx.eq(&a, &b);
    }
    Ok(())
}

fn embedding(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let w = cx.shape(1)?;
    let last = w
        .last()
        .cloned()
        .ok_or_else(|| Bad("embedding weight of rank 0".into()))?;
    x.push(last);
    cx.set_shape(0, x);
    Ok(())
}

fn gather(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let index = cx.shape(1)?;
    let axis = match cx.int_list(2, "axis")? {
        Some(v) => v.first().and_then(DimExpr::as_int).unwrap_or(0),
        None => 0,
    };
    let axis = cx.axis(axis, x.len())?;
    let mut out: Vec<DimExpr> = x[..axis].to_vec();
    if !index.is_empty() {
        out.push(index[0].clone());
    }
    out.extend_from_slice(&x[axis + 1..]);
    cx.set_shape(0, out);
    Ok(())
}

fn gather_nd(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let index = cx.shape(1)?;
    let Some(last) = index.last() else {
        cx.set_shape(0, x);
        return Ok(());
    };
    let k = last
        .as_int()
        .ok_or_else(|| Bad("gather_nd index depth unknown".into()))?;
    let k = usize::try_from(k)
        .ok()
        .filter(|&k| k <= x.len())
        .ok_or_else(|| Bad("gather_nd index depth out of range".into()))?;
    let mut out: Vec<DimExpr> = index[..index.len() - 1].to_vec();
    out.extend_from_slice(&x[k..]);
    cx.set_shape(0, out);
    Ok(())
}

fn index_select(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let index = cx.shape(1)?;
    let axis = cx.axis(cx.int_attr("axis").unwrap_or(0), x.len())?;
    if let Some(n) = index.first() {
        x[axis] = n.clone();
    }
    cx.set_shape(0, x);
    Ok(())
}

/// Convolutions: the batch from the input, the channels from the filter
/// (or the type), the spatial extents from the result type.
fn conv(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let dims = cx
        .result_dims(0)
        .ok_or_else(|| Bad("convolution result is not a tensor".into()))?;
    let mut out = Vec::with_capacity(dims.len());
    for (i, &d) in dims.iter().enumerate() {
        if i == 0 {
            out.push(if d >= 0 && x.first().is_some_and(DimExpr::is_int) {
                DimExpr::Int(d)
            } else {
                x.first().cloned().unwrap_or(DimExpr::Int(d))
            });
        } else if d >= 0 {
            out.push(DimExpr::Int(d));
        } else {
            out.push(cx.sym());
        }
    }
    cx.set_shape(0, out);
    Ok(())
}

fn full_with_tensor(cx: &mut Cx<'_>) -> Res {
    let shape = cx
        .tensor(1)?
        .data
        .ok_or_else(|| Bad("full_with_tensor shape unknown".into()))?;
    cx.set_shape(0, shape);
    Ok(())
}

fn expand_as(cx: &mut Cx<'_>) -> Res {
    let y = match cx.operand(1) {
        Some(_) => cx.shape(1)?,
        None => {
            let dims = cx.ints_attr("target_shape").unwrap_or_default();
            super::ints(&dims)
        }
    };
    cx.set_shape(0, y);
    Ok(())
}

fn take_along_axis(cx: &mut Cx<'_>) -> Res {
    let index = cx.shape(1)?;
    cx.set_shape(0, index);
    Ok(())
}

/// `dot`: the batch dims of `x` (its last dim reduced).
fn dot(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    x.pop();
    cx.set_shape(0, x);
    Ok(())
}

fn mv(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let rows = x
        .first()
        .cloned()
        .ok_or_else(|| Bad("mv of a 0-d matrix".into()))?;
    cx.set_shape(0, vec![rows]);
    Ok(())
}

/// `fc`: the leading `in_num_col_dims` dims of the input, then the
/// weight's columns. Paddle's `fc` lacks the interface: printed as Paddle
/// prints it, it gets what Paddle gives such ops.
fn fc(cx: &mut Cx<'_>) -> Res {
    if cx.a.has_op_cache() {
        return super::control_flow::without_interface(cx);
    }
    let x = cx.shape(0)?;
    let w = cx.shape(1)?;
    let k = usize::try_from(cx.int_attr("in_num_col_dims").unwrap_or(1))
        .ok()
        .filter(|&k| k <= x.len())
        .ok_or_else(|| Bad("fc in_num_col_dims out of range".into()))?;
    let n = w
        .get(1)
        .cloned()
        .ok_or_else(|| Bad("fc weight of rank below 2".into()))?;
    let mut out = x[..k].to_vec();
    out.push(n);
    cx.set_shape(0, out);
    Ok(())
}

/// Records that `a` and `b` have the same rank and equal dims (Paddle's
/// rank check followed by one equality per dim).
pub(crate) fn equal_dims(cx: &mut Cx<'_>, a: &[DimExpr], b: &[DimExpr], what: &str) -> Res {
    if a.len() != b.len() {
        return Err(Bad(format!(
            "{what} must have the same dimension size, but got {} vs {}",
            a.len(),
            b.len()
        )));
    }
    for (x, y) in a.iter().zip(b) {
        cx.eq(x, y);
    }
    Ok(())
}

/// `x[i]`, or a refusal naming the operand when the rank is too small.
pub(crate) fn dim(x: &[DimExpr], i: usize, what: &str) -> Result<DimExpr, Bad> {
    x.get(i)
        .cloned()
        .ok_or_else(|| Bad(format!("{what} has rank {} (dim {i} wanted)", x.len())))
}

/// `x[len - k]`: the `k`-th dim from the end.
pub(crate) fn dim_from_end(x: &[DimExpr], k: usize, what: &str) -> Result<DimExpr, Bad> {
    match x.len().checked_sub(k) {
        Some(i) => dim(x, i, what),
        None => Err(Bad(format!("{what} has rank {} (below {k})", x.len()))),
    }
}

/// Paddle's `GetOrCreateExprVecFromData`: a tensor's (or list's) data, or
/// one fresh symbol per element when the data is unknown but the count is.
pub(crate) fn data_or_fresh(cx: &mut Cx<'_>, i: usize) -> Result<Vec<DimExpr>, Bad> {
    let items = match cx.input(i) {
        ShapeOrData::Tensor(t) => vec![t],
        ShapeOrData::List(l) => l,
        _ => return Err(Bad(format!("operand {i} has no data"))),
    };
    let mut out = Vec::new();
    for t in items {
        match t.data {
            Some(d) => out.extend(d),
            None => {
                let mut n: i64 = 1;
                for d in &t.shape {
                    let k = d
                        .as_int()
                        .ok_or_else(|| Bad("The shape of tensor should be known".into()))?;
                    n = n.saturating_mul(k);
                }
                for _ in 0..n.clamp(0, MAX_FRESH) {
                    out.push(cx.sym());
                }
            }
        }
    }
    Ok(out)
}

/// At most this many symbols stand for unknown data of one operand.
const MAX_FRESH: i64 = 64;

/// Result 0 shaped like operand 1 (the index, the values searched for or
/// compared, the target).
fn like_second(cx: &mut Cx<'_>) -> Res {
    let s = cx.shape(1)?;
    cx.set_shape(0, s);
    Ok(())
}

/// `x` and `y` of one shape; the result is `x`'s.
fn same_as_both(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let y = cx.shape(1)?;
    equal_dims(cx, &x, &y, "Input(X) and Input(Y)")?;
    cx.set_shape(0, x);
    Ok(())
}

fn apply_per_channel_scale(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let scales = cx.shape(1)?;
    rank_is(&x, 2, |r| {
        format!("The rank of Input(x) must be 2, but received {r}.")
    })?;
    rank_is(&scales, 1, |r| {
        format!("The rank of Input(scales) must be 1, but received {r}.")
    })?;
    cx.eq(&x[1], &scales[0]);
    cx.set_shape(0, x);
    Ok(())
}

fn bincount(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    rank_is(&x, 1, |_| {
        "The 'shape' of Input(X) must be 1-D tensor".into()
    })?;
    if cx.operand(1).is_some() {
        let w = cx.shape(1)?;
        rank_is(&w, 1, |_| {
            "The 'shape' of Input(Weights) must be 1-D tensor".into()
        })?;
        cx.eq(&w[0], &x[0]);
    }
    let n = cx.sym();
    cx.set_shape(0, vec![n]);
    Ok(())
}

fn box_clip(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let im_info = cx.shape(1)?;
    let last = dim_from_end(&input, 1, "Input(Input)")?;
    cx.eq(&last, &DimExpr::Int(4));
    rank_is(&im_info, 2, |_| {
        "The rank of Input(im_info) in BoxClipOp must be 2".into()
    })?;
    cx.eq(&im_info[1], &DimExpr::Int(3));
    cx.set_shape(0, input);
    Ok(())
}

fn ctc_align(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let rows = dim(&input, 0, "Input(Input)")?;
    cx.set_shape(0, input);
    cx.set_shape(1, vec![rows, DimExpr::Int(1)]);
    Ok(())
}

fn grid_sample(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let grid = cx.shape(1)?;
    if !(4..=5).contains(&x.len()) {
        return Err(Bad("Input(X) of GridSampleOp should be 4-D Tensor".into()));
    }
    if !(4..=5).contains(&grid.len()) {
        return Err(Bad(
            "Input(Grid) of GridSampleOp should be 4-D Tensor".into()
        ));
    }
    let coords = if grid.len() == 4 { 2 } else { 3 };
    cx.eq(&grid[grid.len() - 1], &DimExpr::Int(coords));
    cx.eq(&grid[0], &x[0]);
    let mut out = vec![x[0].clone(), x[1].clone()];
    out.extend_from_slice(&grid[1..grid.len() - 1]);
    cx.set_shape(0, out);
    Ok(())
}

fn histogram(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let bins = cx.int_attr("bins").unwrap_or(100);
    let lo = cx.float_attr("min").unwrap_or(0.0);
    let hi = cx.float_attr("max").unwrap_or(0.0);
    if bins < 1 {
        return Err(Bad(format!(
            "The bins should be greater than or equal to 1.But received nbins is {bins}"
        )));
    }
    if hi < lo {
        return Err(Bad("max must be larger or equal to min.".into()));
    }
    if cx.operand(1).is_some() {
        let w = cx.shape(1)?;
        for (i, d) in input.iter().enumerate() {
            let wd = dim(&w, i, "Input(Weight)")?;
            cx.eq(&wd, d);
        }
    }
    cx.set_shape(0, vec![DimExpr::Int(bins)]);
    Ok(())
}

/// `index_select_strided`: the selected dim is dropped. Paddle 3.3.1 reads
/// the axis from an attribute `dim` the op does not have (its definition
/// names it `axis`), so the rule stands only when `dim` is given.
fn index_select_strided(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let dim = cx
        .int_attr("dim")
        .ok_or_else(|| Bad("index_select_strided has no attribute dim".into()))?;
    let axis = cx.axis(dim, x.len())?;
    x.remove(axis);
    cx.set_shape(0, x);
    Ok(())
}

fn kldiv_loss(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let label = cx.shape(1)?;
    equal_dims(cx, &x, &label, "Input(X) and Input(Target)")?;
    let reduction = cx.str_attr("reduction").unwrap_or("mean");
    let out = match reduction {
        "none" => x,
        "mean" | "sum" | "batchmean" => Vec::new(),
        _ => {
            return Err(Bad(
                "Attr(reduction) can only be 'none'|'batchmean'|'sum'|'mean'.".into(),
            ))
        }
    };
    cx.set_shape(0, out);
    Ok(())
}

fn margin_cross_entropy(cx: &mut Cx<'_>) -> Res {
    let mut logits = cx.shape(0)?;
    let labels = cx.shape(1)?;
    let axis = logits
        .len()
        .checked_sub(1)
        .ok_or_else(|| Bad("logits of rank 0".into()))?;
    for (i, d) in logits[..axis].iter().enumerate() {
        let l = dim(&labels, i, "Input(Label)")?;
        cx.eq(d, &l);
    }
    if labels.len() > 1 {
        let l = dim(&labels, axis, "Input(Label)")?;
        cx.eq(&l, &DimExpr::Int(1));
    }
    cx.set_shape(0, logits.clone());
    logits[axis] = DimExpr::Int(1);
    cx.set_shape(1, logits);
    Ok(())
}

fn matrix_nms(cx: &mut Cx<'_>) -> Res {
    let bboxes = cx.shape(0)?;
    let scores = cx.shape(1)?;
    let coords = dim(&bboxes, 2, "Input(BBoxes)")?;
    cx.eq(&coords, &DimExpr::Int(4));
    let boxes = dim(&bboxes, 1, "Input(BBoxes)")?;
    let scored = dim(&scores, 2, "Input(Scores)")?;
    cx.eq(&boxes, &scored);
    let kept = cx.sym();
    let width = cx.add(&coords, &DimExpr::Int(2));
    cx.set_shape(0, vec![kept.clone(), width]);
    cx.set_shape(1, vec![kept, DimExpr::Int(1)]);
    let batch = dim(&scores, 0, "Input(Scores)")?;
    cx.set_shape(2, vec![batch]);
    Ok(())
}

fn prune_gate_by_capacity(cx: &mut Cx<'_>) -> Res {
    let count = cx.shape(1)?;
    let experts = cx.int_attr("n_expert").unwrap_or(0);
    let workers = cx.int_attr("n_worker").unwrap_or(0);
    let numel = cx.product(&count);
    cx.eq(&numel, &DimExpr::Int(experts.wrapping_mul(workers)));
    let gate = cx.shape(0)?;
    cx.set_shape(0, gate);
    Ok(())
}

fn segment_pool(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let ids = cx.tensor(1)?;
    let first = match ids.data.as_deref() {
        Some(data) => {
            let last = ids
                .rank()
                .checked_sub(1)
                .and_then(|i| data.get(i))
                .ok_or_else(|| Bad("segment ids of rank 0".into()))?
                .clone();
            cx.add(&last, &DimExpr::Int(1))
        }
        None => cx.sym(),
    };
    let mut out = vec![first.clone()];
    out.extend_from_slice(input.get(1..).unwrap_or_default());
    cx.set_shape(0, out);
    if cx.str_attr("pooltype") == Some("MEAN") {
        cx.set_shape(1, vec![first, DimExpr::Int(1)]);
    }
    Ok(())
}

fn sequence_mask(cx: &mut Cx<'_>) -> Res {
    let mut y = cx.shape(0)?;
    if cx.operand(1).is_none() {
        return Err(Bad("Find maxlen or max_len_tensor Failed".into()));
    }
    let len = match cx.input(1).data().and_then(|d| d.first().cloned()) {
        Some(d) => d,
        None => cx.sym(),
    };
    y.push(len);
    cx.set_shape(0, y);
    Ok(())
}

fn shuffle_batch(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    cx.set_shape(0, x.clone());
    cx.set_shape(2, vec![DimExpr::Int(1)]);
    let n = cx.product(&x);
    cx.set_shape(1, vec![n]);
    Ok(())
}

fn stft(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let window = cx.shape(1)?;
    let n_fft = cx.int_attr("n_fft").unwrap_or(0);
    let hop = cx.int_attr("hop_length").unwrap_or(0);
    let onesided = cx.bool_attr("onesided").unwrap_or(false);
    rank_is(&x, 2, |r| {
        format!("Input(X) of StftOp should be a tensor with shape [N, T], but got rank {r}.")
    })?;
    if hop <= 0 {
        return Err(Bad(format!(
            "Attribute(hop_length) should be greater than 0, but got {hop}."
        )));
    }
    let w = dim(&window, 0, "Input(Window)")?;
    cx.eq(&w, &DimExpr::Int(n_fft));
    let seq = x[1].clone();
    let span = cx.sub(&seq, &DimExpr::Int(n_fft));
    let steps = cx.div(&span, &DimExpr::Int(hop));
    let frames = cx.add(&DimExpr::Int(1), &steps);
    if let Some(len) = seq.as_int() {
        if n_fft > len {
            return Err(Bad(format!(
                "Attribute(frame_length) should be less equal than sequence length, but got ({n_fft}) > ({len})."
            )));
        }
    }
    let bins = if onesided { n_fft / 2 + 1 } else { n_fft };
    cx.set_shape(0, vec![x[0].clone(), DimExpr::Int(bins), frames]);
    Ok(())
}

fn swiglu(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    if cx.operand(1).is_some() {
        let y = cx.shape(1)?;
        for (i, d) in x.iter().enumerate() {
            let yd = dim(&y, i, "Input(Y)")?;
            cx.eq(d, &yd);
        }
        cx.share(0, 0);
    } else {
        let mut out = x;
        let last = dim_from_end(&out, 1, "Input(X)")?;
        let half = cx.div(&last, &DimExpr::Int(2));
        let n = out.len();
        out[n - 1] = half;
        cx.set_shape(0, out);
    }
    Ok(())
}

fn tdm_child(cx: &mut Cx<'_>) -> Res {
    let mut out = cx.shape(0)?;
    out.push(DimExpr::Int(cx.int_attr("child_nums").unwrap_or(0)));
    cx.set_shape(0, out.clone());
    cx.set_shape(1, out);
    Ok(())
}

/// Every result is `[rows, 1]`, the rows of `x` (its data when known).
fn top_p_sampling(cx: &mut Cx<'_>) -> Res {
    let x = cx.tensor(0)?;
    let dims = x.data.unwrap_or(x.shape);
    let rows = dim(&dims, 0, "Input(X)")?;
    for r in 0..cx.num_results() {
        cx.set_shape(r, vec![rows.clone(), DimExpr::Int(1)]);
    }
    Ok(())
}

/// `unpool` and `unpool3d`: batch and channels of `x`, then the output
/// size (an attribute, or operand 2's data).
fn unpool(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let indices = cx.shape(1)?;
    for (i, d) in x.iter().enumerate() {
        let id = dim(&indices, i, "Input(Indices)")?;
        cx.eq(d, &id);
    }
    let ksize = cx.ints_attr("ksize").unwrap_or_default();
    let size = match cx.ints_attr("output_size") {
        Some(v) => super::ints(&v),
        None if cx.operand(2).is_some() => data_or_fresh(cx, 2)?,
        None => Vec::new(),
    };
    let mut out = vec![dim(&x, 0, "Input(X)")?, dim(&x, 1, "Input(X)")?];
    for i in 0..ksize.len() {
        out.push(dim(&size, i, "output_size")?);
    }
    cx.set_shape(0, out);
    Ok(())
}

fn weight_dequantize(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let scale = cx.shape(1)?;
    rank_is(&x, 2, |r| {
        format!("The x tensor of dequantize op must be 2D, but got[{r}]")
    })?;
    let group = cx.int_attr("group_size").unwrap_or(-1);
    if !matches!(group, -1 | 64 | 128) {
        return Err(Bad("group_size must be -1, 64 or 128.".into()));
    }
    let channels = match cx.str_attr("algo").unwrap_or("weight_only_int8") {
        "weight_only_int8" => x[0].clone(),
        "weight_only_int4" => cx.mul(&x[0], &DimExpr::Int(2)),
        algo => {
            return Err(Bad(format!(
                "The algo must be in ['weight_only_int8', 'weight_only_int4'], but got[{algo}]"
            )))
        }
    };
    if group == -1 {
        rank_is(&scale, 1, |r| {
            format!(
                "The scale tensor of dequantize op must be 1D in per-channel mode, but got[{r}]"
            )
        })?;
        cx.eq(&scale[0], &channels);
    } else {
        rank_is(&scale, 2, |r| {
            format!("The scale tensor of dequantize op must be 2D in group-wise mode, but got[{r}]")
        })?;
        let padded = cx.add(&x[1], &DimExpr::Int(group - 1));
        let groups = cx.div(&padded, &DimExpr::Int(group));
        cx.eq(&scale[0], &groups);
        cx.eq(&scale[1], &channels);
    }
    cx.set_shape(0, vec![x[1].clone(), channels]);
    Ok(())
}

fn fused_softmax_mask(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let mask = cx.shape(1)?;
    rank_is(&x, 4, |r| {
        format!("Input x must be in 4D dimension but received the dimension of X is {r}")
    })?;
    rank_is(&mask, 4, |r| {
        format!("Input mask must be in 4D dimension but received the dimension of mask is {r}")
    })?;
    cx.set_shape(0, x);
    Ok(())
}
