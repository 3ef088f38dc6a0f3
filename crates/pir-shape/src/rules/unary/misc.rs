//! Single-input ops of Paddle's `unary_infer_sym.cc` with rules of their
//! own: crops, grids, detection helpers, pools of a fixed output size,
//! losses, norms and samplers.

use super::super::{ints, Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::{ShapeOrData, TensorFact};

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.affine_grid", affine_grid),
    ("pd_op.c_concat", c_concat),
    ("pd_op.bipartite_match", bipartite_match),
    ("pd_op.check_numerics", check_numerics),
    ("pd_op.class_center_sample", class_center_sample),
    ("pd_op.crop", crop),
    ("pd_op.decode_jpeg", decode_jpeg),
    ("pd_op.distribute_fpn_proposals", distribute_fpn_proposals),
    ("pd_op.fractional_max_pool2d", fractional_max_pool),
    ("pd_op.fractional_max_pool3d", fractional_max_pool),
    ("pd_op.identity_loss", identity_loss),
    ("pd_op.identity_loss_", identity_loss),
    ("pd_op.multinomial", multinomial),
    ("pd_op.nanmedian", nanmedian),
    ("pd_op.norm", norm),
    ("pd_op.partial_sum", partial_sum),
    ("pd_op.sequence_pool", sequence_pool),
    ("pd_op.shard_index", shard_index),
    ("pd_op.squared_l2_norm", squared_l2_norm),
    ("pd_op.trans_layout", super::transpose),
    ("pd_op.ap_facade", needs_cinn),
    ("pd_op.ap_trivial_fusion_begin", needs_cinn),
    ("pd_op.ap_trivial_fusion_end", needs_cinn),
];

/// `c_concat`: the ranks' slices joined along the last dim.
fn c_concat(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let ranks = DimExpr::Int(cx.int_attr("nranks").unwrap_or(1));
    let Some(last) = x.len().checked_sub(1) else {
        return Err(Bad("c_concat of a 0-d tensor".into()));
    };
    x[last] = cx.mul(&x[last], &ranks);
    cx.set_shape(0, x);
    Ok(())
}

/// Most elements a tensor without known data may stand for (one fresh
/// symbol each).
const MAX_CREATED: i64 = 1 << 10;

/// Paddle's `GetOrCreateExprVecFromData`: the data of a tensor (or of
/// every tensor of a list), a fresh symbol per element where it is unknown.
pub(super) fn data_or_new_syms(cx: &mut Cx<'_>, fact: &ShapeOrData) -> Result<Vec<DimExpr>, Bad> {
    let tensors: Vec<TensorFact> = match fact {
        ShapeOrData::Tensor(t) => vec![t.clone()],
        ShapeOrData::List(l) => l.clone(),
        _ => return Err(Bad("a tensor array or null value has no data".into())),
    };
    let mut out = Vec::new();
    for t in tensors {
        match t.data {
            Some(d) => out.extend(d),
            None => {
                let mut n: i64 = 1;
                for d in &t.shape {
                    let Some(k) = d.as_int() else {
                        return Err(Bad(
                            "The shape of tensor should be known when GetExprVecFromData.".into(),
                        ));
                    };
                    n = n.saturating_mul(k);
                }
                if n > MAX_CREATED {
                    return Err(Bad(format!("{n} elements of unknown data")));
                }
                for _ in 0..n {
                    out.push(cx.sym());
                }
            }
        }
    }
    Ok(out)
}

/// Paddle's `GetIntArrayFromAttrOrOperand`: attribute `name`, else operand
/// `i`'s data.
fn int_array(cx: &mut Cx<'_>, name: &str, i: usize) -> Result<Vec<DimExpr>, Bad> {
    if let Some(v) = cx.ints_attr(name) {
        return Ok(ints(&v));
    }
    if cx.operand(i).is_none() {
        return Err(Bad(format!(
            "The IntArray is not from attribute or operand, please check input {name}"
        )));
    }
    let f = cx.input(i);
    data_or_new_syms(cx, &f)
}

/// `affine_grid`: `[N, H, W, 2]` or `[N, D, H, W, 3]` from the output shape.
fn affine_grid(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let size = match cx.ints_attr("output_shape") {
        Some(v) => ints(&v),
        None if cx.operand(1).is_some() => {
            let f = cx.input(1);
            data_or_new_syms(cx, &f)?
        }
        None => {
            return Err(Bad(
                "The input arguments must have the shape of output, please check!".into(),
            ))
        }
    };
    let n = x
        .first()
        .cloned()
        .ok_or_else(|| Bad("affine_grid of a 0-D theta".into()))?;
    let out = match size.as_slice() {
        [_, _, h, w] => vec![n, h.clone(), w.clone(), DimExpr::Int(2)],
        [_, _, d, h, w, ..] => vec![n, d.clone(), h.clone(), w.clone(), DimExpr::Int(3)],
        _ => return Err(Bad(format!("output shape of {} entries", size.len()))),
    };
    cx.set_shape(0, out);
    Ok(())
}

fn bipartite_match(cx: &mut Cx<'_>) -> Res {
    let x = super::shape_of_rank(
        cx,
        |r| r == 2,
        |_| "The rank of Input(DistMat) must be 2.".into(),
    )?;
    cx.set_shape(0, x.clone());
    cx.set_shape(1, x);
    Ok(())
}

/// `check_numerics`: two statistics of three counts.
fn check_numerics(cx: &mut Cx<'_>) -> Res {
    cx.set_shape(0, vec![DimExpr::Int(3)]);
    cx.set_shape(1, vec![DimExpr::Int(3)]);
    Ok(())
}

/// `class_center_sample`: the remapped labels, and a sampled count known
/// only when run.
fn class_center_sample(cx: &mut Cx<'_>) -> Res {
    let label = super::shape_of_rank(
        cx,
        |r| r == 1,
        |r| format!("Rank of Input(Label) should be equal to 1, but the value given is {r}."),
    )?;
    cx.set_shape(0, label);
    let n = cx.sym();
    cx.set_shape(1, vec![n]);
    Ok(())
}

/// `crop`: the `shape` operand, `-1` meaning the rest after the offset.
fn crop(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let offsets = int_array(cx, "offsets", 2)?;
    let shape = int_array(cx, "shape", 1)?;
    for (v, name) in [(&shape, "shape"), (&offsets, "offsets")] {
        if v.len() != x.len() {
            return Err(Bad(format!(
                "The number of elements ({}) of attribute '{name}' for CropTensor must be \
                 equal to the number of dimensions ({}) of the input.",
                v.len(),
                x.len()
            )));
        }
    }
    let mut out = Vec::with_capacity(x.len());
    for ((s, d), o) in shape.iter().zip(&x).zip(&offsets) {
        out.push(match s.as_int() {
            Some(_) if *d == DimExpr::Int(0) => d.clone(),
            Some(-1) => cx.sub(d, o),
            _ => s.clone(),
        });
    }
    cx.set_shape(0, out);
    Ok(())
}

/// `decode_jpeg`: `[C, H, W]` with `C` fixed by the mode.
fn decode_jpeg(cx: &mut Cx<'_>) -> Res {
    let channels = match cx.str_attr("mode").unwrap_or("unchanged") {
        "unchanged" => cx.sym(),
        "gray" => DimExpr::Int(1),
        "rgb" => DimExpr::Int(3),
        mode => {
            return Err(Bad(format!(
                "The provided mode is not supported for JPEG files on GPU: {mode}"
            )))
        }
    };
    let (h, w) = (cx.sym(), cx.sym());
    cx.set_shape(0, vec![channels, h, w]);
    Ok(())
}

/// `distribute_fpn_proposals`: one `[?, 4]` list entry per level, the
/// per-level counts, and the restoring index.
fn distribute_fpn_proposals(cx: &mut Cx<'_>) -> Res {
    let rois = cx.shape(0)?;
    let min = cx.int_attr("min_level").unwrap_or(0);
    let max = cx.int_attr("max_level").unwrap_or(0);
    let levels = max - min + 1;
    if !(1..=64).contains(&levels) {
        return Err(Bad(format!("{levels} FPN levels")));
    }
    let num_rois = rois
        .first()
        .cloned()
        .ok_or_else(|| Bad("distribute_fpn_proposals of 0-D rois".into()))?;
    let four = DimExpr::Int(4);
    let multi = if levels == 1 {
        vec![TensorFact::shape(vec![num_rois.clone(), four])]
    } else {
        (0..levels)
            .map(|_| TensorFact::shape(vec![cx.sym(), four.clone()]))
            .collect()
    };
    let counts = (0..levels)
        .map(|_| TensorFact::shape(vec![DimExpr::Int(1)]))
        .collect();
    let restore = if cx.operand(1).is_some() {
        vec![cx.sym(), DimExpr::Int(1)]
    } else {
        vec![num_rois, DimExpr::Int(1)]
    };
    cx.set(0, ShapeOrData::List(multi));
    cx.set(1, ShapeOrData::List(counts));
    cx.set_shape(2, restore);
    Ok(())
}

/// `fractional_max_pool2d/3d`: batch and channels, then the output size.
fn fractional_max_pool(cx: &mut Cx<'_>) -> Res {
    let x = super::shape_of_rank(
        cx,
        |r| r == 4 || r == 5,
        |r| format!("Pooling input should be 4-D or 5-D tensor but received {r}D-Tensor"),
    )?;
    let mut out = x[..2].to_vec();
    out.extend(ints(&cx.ints_attr("output_size").unwrap_or_default()));
    cx.set_shape(0, out.clone());
    cx.set_shape(1, out);
    Ok(())
}

/// `identity_loss`: kept with reduction 2 (none), else a scalar.
fn identity_loss(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let out = if cx.int_attr("reduction") == Some(2) {
        x
    } else {
        Vec::new()
    };
    cx.set_shape(0, out);
    Ok(())
}

/// `multinomial`: the samples replace the last dim.
fn multinomial(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    if x.is_empty() || x.len() > 2 {
        return Err(Bad(format!(
            "The number of dimensions of the input probability distribution should be > 0 \
             and <= 2, but got {}.",
            x.len()
        )));
    }
    let mut out = x;
    let last = out.len() - 1;
    if let Some(n) = cx.int_attr("num_samples") {
        out[last] = DimExpr::Int(n);
    } else if cx.operand(1).is_some() {
        let f = cx.input(1);
        let data = data_or_new_syms(cx, &f)?;
        out[last] = data
            .first()
            .cloned()
            .ok_or_else(|| Bad("num_samples has no element".into()))?;
    }
    cx.set_shape(0, out);
    Ok(())
}

/// `nanmedian`: a reduction over `axes` (Paddle reads the attributes
/// `axes` and `keep_dim`); with mode `avg` the medians keep a pair each.
fn nanmedian(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let axes = cx.ints_attr("axes").unwrap_or_default();
    let keep = cx.bool_attr("keep_dim").unwrap_or(false);
    let rank = x.len() as i64;
    let mut out = Vec::new();
    if axes.is_empty() {
        if keep {
            out = vec![DimExpr::Int(1); x.len()];
        }
    } else {
        let mut seen: Vec<i64> = Vec::new();
        for &a in &axes {
            let a = if a < 0 { a + rank } else { a };
            if rank == 0 {
                cx.eq(&DimExpr::Int(a), &DimExpr::Int(0));
            } else if a >= rank {
                return Err(Bad(format!(
                    "each element of the axis should be in the range [ -dimension(X), \
                     dimension(X) ) which dimension = {rank}. But received axis = {a}."
                )));
            }
            if seen.contains(&a) {
                return Err(Bad(format!("Attr(axes) has duplicated elements: {a}.")));
            }
            seen.push(a);
        }
        for (i, d) in x.iter().enumerate() {
            if !seen.contains(&(i as i64)) {
                out.push(d.clone());
            } else if keep {
                out.push(DimExpr::Int(1));
            }
        }
    }
    let mut medians = out.clone();
    if cx.str_attr("mode") == Some("avg") {
        medians.push(DimExpr::Int(2));
    }
    cx.set_shape(0, out);
    cx.set_shape(1, medians);
    Ok(())
}

/// `norm`: the normalized tensor, and in training the norms with `axis`
/// kept as 1.
fn norm(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    cx.set_shape(0, x.clone());
    if !cx.bool_attr("is_test").unwrap_or(false) {
        let axis = cx.axis(cx.int_attr("axis").unwrap_or(0), x.len())?;
        let mut n = x;
        n[axis] = DimExpr::Int(1);
        cx.set_shape(1, n);
    }
    Ok(())
}

/// `partial_sum`: 2-D inputs of equal shape, `length` columns from
/// `start_index` (the rest with length -1).
fn partial_sum(cx: &mut Cx<'_>) -> Res {
    let xs = cx.list(0)?;
    if xs.is_empty() {
        return Err(Bad(
            "ShapeError: Input tensors count should > 0. But received inputs' length is 0.".into(),
        ));
    }
    let (Some(batch), Some(len)) = (
        xs[0].shape.first().cloned(),
        xs.get(1).and_then(|t| t.shape.get(1)).cloned(),
    ) else {
        return Err(Bad("partial_sum needs two 2-D inputs".into()));
    };
    for (i, t) in xs.iter().enumerate() {
        if t.rank() != 2 {
            return Err(Bad("Only support two dimensions input now.".into()));
        }
        if i > 0 {
            cx.eq(&t.shape[0], &batch);
            cx.eq(&t.shape[1], &len);
        }
    }
    let start = cx.int_attr("start_index").unwrap_or(0);
    let length = cx.int_attr("length").unwrap_or(-1);
    let cols = if length == -1 {
        cx.sub(&len, &DimExpr::Int(start))
    } else {
        DimExpr::Int(length)
    };
    cx.set_shape(0, vec![batch, cols]);
    Ok(())
}

/// `sequence_pool`: the shape kept; the max indices too for `MAX`, else
/// their type's shape.
fn sequence_pool(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    cx.set_shape(0, x.clone());
    if cx.str_attr("pooltype") == Some("MAX") {
        cx.set_shape(1, x);
    } else if !cx.result_is_null(1) {
        let r = cx.p.result(cx.op, 1);
        let f = cx.a.static_fact(cx.p.ctx(), cx.p.value_type(r));
        cx.set(1, f);
    }
    Ok(())
}

/// `shard_index`: ids of shape `[..., 1]`, kept.
fn shard_index(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let Some(last) = x.last().filter(|_| x.len() >= 2).cloned() else {
        return Err(Bad(format!(
            "Rank of Input(X) should be at least 2, but the value given is {}.",
            x.len()
        )));
    };
    cx.eq(&last, &DimExpr::Int(1));
    cx.set_shape(0, x);
    Ok(())
}

fn squared_l2_norm(cx: &mut Cx<'_>) -> Res {
    cx.set_shape(0, vec![DimExpr::Int(1)]);
    Ok(())
}

/// The abstract-pass ops (`ap_*`): Paddle infers them only when built with
/// CINN, and the release this crate follows is built without it.
fn needs_cinn(cx: &mut Cx<'_>) -> Res {
    let name = cx.p.op_name_str(cx.op);
    let short = name.strip_prefix("pd_op.").unwrap_or(name);
    Err(Bad(format!(
        "{short} is not implemented when cinn is not enabled."
    )))
}
