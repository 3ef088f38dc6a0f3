//! Ops over large vocabularies (Paddle keeps them in `binary_infer_sym.cc`
//! and `multiary_infer_sym.cc`): hashed and sparse-weight embeddings and
//! noise-contrastive estimation.

use super::binary::dim;
use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::ShapeOrData;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.nce", nce),
    ("pd_op.pyramid_hash", pyramid_hash),
    ("pd_op.sparse_weight_embedding", sparse_weight_embedding),
];

/// `pyramid_hash`: an unknown number of hashed n-gram embeddings of
/// `num_emb` values each; the weight holds `space_len + rand_len` rows of
/// one value, the white and black lists (when their lengths are set) one
/// id per row.
fn pyramid_hash(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let w = cx.shape(1)?;
    if x.len() != 2 || w.len() != 2 {
        return Err(Bad(format!(
            "The rank of Input(X) and Input(W) of PyramidHashOP is invalid. It should be 2, but got {}",
            x.len()
        )));
    }
    let attr = |name: &str| cx.int_attr(name).unwrap_or(0);
    let (embeddings, space, rand) = (attr("num_emb"), attr("space_len"), attr("rand_len"));
    let (white, black) = (attr("white_list_len"), attr("black_list_len"));
    cx.eq(&w[0], &DimExpr::Int(space.saturating_add(rand)));
    cx.eq(&w[1], &DimExpr::Int(1));
    if rand == 0 || embeddings % rand != 0 {
        return Err(Bad(format!(
            "The PyramidHashOP's Attr(num_emb) should mod Attr(rand_len), but num_emb is {embeddings}, rand_len is {rand}"
        )));
    }
    for (i, len, what) in [(2, white, "WhiteList"), (3, black, "BlackList")] {
        if len <= 0 {
            continue;
        }
        let list = match cx.input(i) {
            ShapeOrData::Tensor(t) => t.shape,
            // Paddle names the missing white list; a missing black list
            // fails on its absent shape.
            _ if i == 2 => {
                return Err(Bad(
                    "Input(WhiteList) of PyramidHashOP is not found but white_list_len > 0.".into(),
                ))
            }
            _ => {
                return Err(Bad(
                    "Shape of ShapeOrData is not a vector, check whether the value is a tensor-list or not."
                        .into(),
                ))
            }
        };
        if list.len() != 2 {
            return Err(Bad(format!(
                "The rank of Input({what}) of PyramidHashOP is invalid. It should be 2, but got {}",
                list.len()
            )));
        }
        cx.eq(&list[0], &DimExpr::Int(len));
        cx.eq(&list[1], &DimExpr::Int(1));
    }
    let (rows, kept) = (cx.sym(), cx.sym());
    cx.set_shape(0, vec![rows, DimExpr::Int(embeddings)]);
    cx.set_shape(1, vec![kept, DimExpr::Int(1)]);
    cx.set_shape(2, x);
    Ok(())
}

/// `nce`: one cost per row; when training, the sampled logits and labels
/// hold the true classes and `num_neg_samples` negatives per row. The
/// weight has `num_total_classes` rows, as has the bias.
///
/// Paddle 3.3.1's rule reads `num_total_classes` and `num_neg_samples` as
/// 64-bit attributes while the op declares 32-bit ones, so it refuses the
/// programs Paddle builds; this rule takes either width (the cases check
/// it on a program whose attributes are 64-bit).
fn nce(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let label = cx.shape(1)?;
    let rows = dim(&x, 0, "Input(Input)")?;
    cx.eq(&rows, &dim(&label, 0, "Input(Label)")?);
    let true_classes = if label.len() == 2 {
        label[1].clone()
    } else {
        DimExpr::Int(1)
    };
    let weight = cx.shape(2)?;
    let classes = dim(&weight, 0, "Input(Weight)")?;
    if cx.operand(3).is_some() {
        let bias = cx.shape(3)?;
        cx.eq(&classes, &dim(&bias, 0, "Input(Bias)")?);
    }
    let total = cx.int_attr("num_total_classes").unwrap_or(0);
    cx.eq(&DimExpr::Int(total), &classes);
    cx.set_shape(0, vec![rows.clone(), DimExpr::Int(1)]);
    if !cx.bool_attr("is_test").unwrap_or(false) {
        let negatives = DimExpr::Int(cx.int_attr("num_neg_samples").unwrap_or(10));
        let sampled = vec![rows, cx.add(&true_classes, &negatives)];
        cx.set_shape(1, sampled.clone());
        cx.set_shape(2, sampled);
    }
    Ok(())
}

/// `sparse_weight_embedding`: Paddle 3.3.1 declares the interface but its
/// rule only refuses.
fn sparse_weight_embedding(cx: &mut Cx<'_>) -> Res {
    let name = cx.p.op_name_str(cx.op);
    Err(Bad(format!(
        "{name} 's InferSymbolicShape interface is NOT implemented now."
    )))
}
