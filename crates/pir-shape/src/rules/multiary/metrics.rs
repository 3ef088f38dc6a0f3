//! Evaluation metrics, sequence labelling and losses over several operands
//! (Paddle's `multiary_infer_sym.cc`): `accuracy`, `auc`, `chunk_eval`,
//! `crf_decoding`, `edit_distance`, `nll_loss`, `hsigmoid_loss`.

use super::super::binary::{dim, equal_dims};
use super::super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.accuracy", accuracy),
    ("pd_op.auc", auc),
    ("pd_op.chunk_eval", chunk_eval),
    ("pd_op.crf_decoding", crf_decoding),
    ("pd_op.edit_distance", edit_distance),
    ("pd_op.nll_loss", nll_loss),
    ("pd_op.hsigmoid_loss", hsigmoid_loss),
];

/// `accuracy`: three scalars; the label is a column of the prediction's
/// rows.
fn accuracy(cx: &mut Cx<'_>) -> Res {
    let out = cx.shape(0)?;
    let label = cx.shape(2)?;
    if label.len() != 2 {
        return Err(Bad(format!(
            "ShapeError: label's dimensions of AccuracyOp must be 2. But received label's dimensions = {}",
            label.len()
        )));
    }
    cx.eq(&label[1], &DimExpr::Int(1));
    let rows = dim(&out, 0, "Input(Out)")?;
    cx.eq(&rows, &label[0]);
    for r in 0..3 {
        cx.set_shape(r, Vec::new());
    }
    Ok(())
}

fn auc(cx: &mut Cx<'_>) -> Res {
    let predict = cx.shape(0)?;
    let label = cx.shape(1)?;
    if predict.len() < 2 {
        return Err(Bad(
            "The Input(Predict) has not been initialized properly. the shape size must be greater_equal 2."
                .into(),
        ));
    }
    let label_rows = dim(&label, 0, "Input(Label)")?;
    cx.eq(&predict[0], &label_rows);
    let thresholds = cx.int_attr("num_thresholds").unwrap_or(8191);
    let steps = cx.int_attr("slide_steps").unwrap_or(1);
    let buckets = thresholds.saturating_add(1);
    if buckets < 1 {
        return Err(Bad("num_thresholds must larger than 1".into()));
    }
    if steps < 0 {
        return Err(Bad("slide_steps must be natural number".into()));
    }
    cx.set_shape(0, Vec::new());
    let stat = if steps != 0 {
        vec![DimExpr::Int(
            (1 + steps).saturating_mul(buckets).saturating_add(1),
        )]
    } else {
        vec![DimExpr::Int(1), DimExpr::Int(buckets)]
    };
    cx.set_shape(1, stat.clone());
    cx.set_shape(2, stat);
    Ok(())
}

fn chunk_eval(cx: &mut Cx<'_>) -> Res {
    let inference = cx.shape(0)?;
    let label = cx.shape(1)?;
    equal_dims(cx, &inference, &label, "Input(Inference) and Input(Label)")?;
    if cx.operand(2).is_some() {
        let seq = cx.shape(2)?;
        if !matches!(inference.len(), 2 | 3) {
            return Err(Bad(
                "when Input(SeqLength) is provided, Input(Inference) should be of dim 3 or dim 2"
                    .into(),
            ));
        }
        if inference.len() == 3 {
            cx.eq(&inference[2], &DimExpr::Int(1));
        }
        if seq.len() > 2 {
            return Err(Bad(format!(
                "Input(SeqLength)'s rank should not be greater than 2, but received {}.",
                seq.len()
            )));
        }
    }
    for r in 0..6 {
        cx.set_shape(r, vec![DimExpr::Int(1)]);
    }
    Ok(())
}

fn crf_decoding(cx: &mut Cx<'_>) -> Res {
    let emission = cx.shape(0)?;
    let transition = cx.shape(1)?;
    let label = match cx.operand(2) {
        Some(_) => cx.shape(2)?,
        None => Vec::new(),
    };
    let has_length = cx.operand(3).is_some();
    let want = if has_length { 3 } else { 2 };
    if emission.len() != want {
        return Err(Bad(format!(
            "The Input(Emission) should be a {want}-D tensor. But received: input rank {}",
            emission.len()
        )));
    }
    if transition.len() != 2 {
        return Err(Bad(format!(
            "The Input(Transition) should be a 2-D tensor. But received: input rank {}",
            transition.len()
        )));
    }
    let rows = cx.sub(&transition[0], &DimExpr::Int(2));
    cx.eq(&rows, &transition[1]);
    cx.eq(&emission[want - 1], &transition[1]);
    if label.is_empty() {
        return Ok(());
    }
    if has_length {
        if label.len() == 3 {
            cx.eq(&label[2], &DimExpr::Int(1));
        } else if label.len() != 2 {
            return Err(Bad(format!(
                "The Input(Label) should be a 3-D tensor with last dimension fixed to 1 or a 2-D tensor in padding mode. But received: input rank {}",
                label.len()
            )));
        }
    } else if label.len() == 2 {
        // Paddle reads dim 2 of this 2-D label: out of its bounds.
        return Err(Bad("crf_decoding label of rank 2 without length".into()));
    } else if label.len() != 1 {
        return Err(Bad(format!(
            "The Input(Label) should be a 2-D tensor with last dimension fixed to 1 or a 1-D tensor. But received: input rank {}",
            label.len()
        )));
    }
    cx.eq(&emission[0], &label[0]);
    let second = if has_length {
        emission[1].clone()
    } else {
        DimExpr::Int(1)
    };
    cx.set_shape(0, vec![emission[0].clone(), second]);
    Ok(())
}

fn edit_distance(cx: &mut Cx<'_>) -> Res {
    let hyps = cx.shape(0)?;
    let refs = cx.shape(1)?;
    for (t, what) in [(&hyps, "Hyps"), (&refs, "Refs")] {
        if t.len() != 2 {
            return Err(Bad(format!(
                "Input({what}) must be a 2-D Tensor, but received rank {}.",
                t.len()
            )));
        }
    }
    cx.eq(&hyps[0], &refs[0]);
    if cx.operand(2).is_some() && cx.operand(3).is_some() {
        let hl = dim(&cx.shape(2)?, 0, "Input(HypsLength)")?;
        let rl = dim(&cx.shape(3)?, 0, "Input(RefsLength)")?;
        cx.eq(&hl, &hyps[0]);
        cx.eq(&rl, &refs[0]);
        cx.eq(&hl, &rl);
    } else {
        cx.eq(&hyps[1], &DimExpr::Int(1));
        cx.eq(&refs[1], &DimExpr::Int(1));
    }
    cx.set_shape(0, refs);
    cx.set_shape(1, vec![DimExpr::Int(1)]);
    Ok(())
}

fn nll_loss(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let label = cx.shape(1)?;
    if !matches!(x.len(), 2 | 4) {
        return Err(Bad("The tensor rank of Input(X) must be 2 or 4.".into()));
    }
    cx.eq(&x[0], &dim(&label, 0, "Input(Label)")?);
    if cx.operand(2).is_some() {
        let w = cx.shape(2)?;
        if w.len() != 1 {
            return Err(Bad("Input(Weight) should be a 1D tensor.".into()));
        }
        cx.eq(&x[1], &w[0]);
    }
    let none = cx.str_attr("reduction").unwrap_or("mean") == "none";
    let out = if x.len() == 2 {
        if none {
            vec![x[0].clone()]
        } else {
            Vec::new()
        }
    } else {
        if label.len() != 3 {
            return Err(Bad(format!(
                "Expected Input(Label) dimensions=3, received {}.",
                label.len()
            )));
        }
        cx.eq(&x[0], &label[0]);
        cx.eq(&x[2], &label[1]);
        cx.eq(&x[3], &label[2]);
        if none {
            vec![x[0].clone(), x[2].clone(), x[3].clone()]
        } else {
            Vec::new()
        }
    };
    cx.set_shape(0, out);
    cx.set_shape(1, Vec::new());
    Ok(())
}

fn hsigmoid_loss(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let label = cx.shape(1)?;
    let rows = dim(&input, 0, "Input(X)")?;
    cx.eq(&rows, &dim(&label, 0, "Input(Label)")?);
    let out = vec![rows, DimExpr::Int(1)];
    for r in 0..3 {
        cx.set_shape(r, out.clone());
    }
    Ok(())
}
