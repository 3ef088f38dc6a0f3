//! Detection ops (Paddle keeps them in `binary_infer_sym.cc` and
//! `multiary_infer_sym.cc`): proposals, non-maximum suppression and
//! their counts, YOLO's loss and box post-processing.

use super::binary::dim;
use super::control_flow::result_from_type;
use super::{rank_is, Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.generate_proposals", generate_proposals),
    ("pd_op.multiclass_nms3", multiclass_nms3),
    ("pd_op.psroi_pool", psroi_pool),
    ("pd_op.yolo_box_post", yolo_box_post),
    ("pd_op.yolo_loss", yolo_loss),
];

/// `generate_proposals`: an unknown number of boxes of 4 with one
/// probability each; the per-image counts follow the scores' batch unless
/// the count result is absent or 0-d (then its type shapes it).
fn generate_proposals(cx: &mut Cx<'_>) -> Res {
    let kept = cx.sym();
    cx.set_shape(0, vec![kept.clone(), DimExpr::Int(4)]);
    cx.set_shape(1, vec![kept, DimExpr::Int(1)]);
    let from_type = cx.result_is_null(2) || cx.result_dims(2).is_some_and(|d| d.is_empty());
    if from_type {
        result_from_type(cx, 2);
    } else {
        let scores = cx.shape(0)?;
        cx.set_shape(2, vec![dim(&scores, 0, "Input(Scores)")?]);
    }
    Ok(())
}

/// `multiclass_nms3`: an unknown number of kept boxes (coordinates plus
/// label and score) and an unknown count per image.
fn multiclass_nms3(cx: &mut Cx<'_>) -> Res {
    let boxes = cx.shape(0)?;
    let scores = cx.shape(1)?;
    let coords = dim(&boxes, 2, "Input(BBoxes)")?;
    let per_image = dim(&boxes, 1, "Input(BBoxes)")?;
    if scores.len() == 3 {
        cx.eq(&per_image, &scores[2]);
    } else {
        cx.eq(&coords, &DimExpr::Int(4));
        cx.eq(&per_image, &dim(&scores, 1, "Input(Scores)")?);
    }
    let kept = cx.sym();
    let width = cx.add(&coords, &DimExpr::Int(2));
    let counts = cx.sym();
    cx.set_shape(0, vec![kept.clone(), width]);
    cx.set_shape(1, vec![kept, DimExpr::Int(1)]);
    cx.set_shape(2, vec![counts]);
    Ok(())
}

fn psroi_pool(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let rois = cx.shape(1)?;
    rank_is(&x, 4, |_| "The format of input tensor is NCHW".into())?;
    rank_is(&rois, 2, |_| {
        "ROIs should be a 2-D DenseTensor of shape (num_rois, 4) given as [(x1, y1, x2, y2), ...]"
            .into()
    })?;
    cx.eq(&rois[1], &DimExpr::Int(4));
    if cx.operand(2).is_some() {
        let n = cx.shape(2)?;
        rank_is(&n, 1, |r| {
            format!("The second dimension of RoisNum should be 1, but received dimension is {r}")
        })?;
    }
    let h = cx.int_attr("pooled_height").unwrap_or(1);
    let w = cx.int_attr("pooled_width").unwrap_or(1);
    let c = cx.int_attr("output_channels").unwrap_or(1);
    cx.eq(&x[1], &DimExpr::Int(c.saturating_mul(h).saturating_mul(w)));
    if h <= 0 || w <= 0 {
        return Err(Bad(
            "The pooled output height and width must be greater than 0".into(),
        ));
    }
    if c <= 1 {
        return Err(Bad("The pooled output channels must greater than 1".into()));
    }
    cx.set_shape(
        0,
        vec![
            rois[0].clone(),
            DimExpr::Int(c),
            DimExpr::Int(h),
            DimExpr::Int(w),
        ],
    );
    Ok(())
}

/// `yolo_loss`: one loss per image, an objectness mask per anchor of the
/// mask and grid cell, a match flag per ground-truth box. The grid is
/// square and holds `(5 + classes)` values per masked anchor.
fn yolo_loss(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let boxes = cx.shape(1)?;
    let labels = cx.shape(2)?;
    let masked = cx.ints_attr("anchor_mask").map_or(0, |m| m.len() as i64);
    let classes = cx.int_attr("class_num").unwrap_or(1);
    rank_is(&x, 4, |r| {
        format!("Input(X) should be a 4-D tensor. But received X dimension size({r})")
    })?;
    rank_is(&boxes, 3, |r| {
        format!("Input(GTBox) should be a 3-D tensor, but received gtbox dimension size({r})")
    })?;
    rank_is(&labels, 2, |r| {
        format!("Input(GTLabel) should be a 2-D tensor,But received Input(GTLabel) dimension size({r}) != 2.")
    })?;
    cx.eq(&boxes[2], &DimExpr::Int(4));
    cx.eq(&x[2], &x[3]);
    let channels = masked.saturating_mul(classes.saturating_add(5));
    cx.eq(&x[1], &DimExpr::Int(channels));
    cx.eq(&labels[0], &boxes[0]);
    cx.eq(&labels[1], &boxes[1]);
    if cx.operand(3).is_some() {
        let scores = cx.shape(3)?;
        // Paddle's message names the boxes' rank here.
        let boxes_rank = boxes.len();
        rank_is(&scores, 2, |_| {
            format!(
                "Input(GTScore) should be a 2-D tensorBut received GTScore dimension({boxes_rank})"
            )
        })?;
        cx.eq(&scores[0], &boxes[0]);
        cx.eq(&scores[1], &boxes[1]);
    }
    cx.set_shape(0, vec![x[0].clone()]);
    cx.set_shape(
        1,
        vec![
            x[0].clone(),
            DimExpr::Int(masked),
            x[2].clone(),
            x[3].clone(),
        ],
    );
    cx.set_shape(2, vec![boxes[0].clone(), boxes[1].clone()]);
    Ok(())
}

/// `yolo_box_post`: Paddle gives the kept boxes the fixed shape `[1, 6]`
/// and one count per image.
fn yolo_box_post(cx: &mut Cx<'_>) -> Res {
    let image_shape = cx.shape(3)?;
    cx.set_shape(0, vec![DimExpr::Int(1), DimExpr::Int(6)]);
    cx.set_shape(1, vec![dim(&image_shape, 0, "Input(ImageShape)")?]);
    Ok(())
}
