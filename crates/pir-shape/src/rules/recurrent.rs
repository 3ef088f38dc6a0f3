//! Recurrent and sequence ops (Paddle's `multiary_infer_sym.cc`): GRU and
//! LSTM layers and cells.

use super::binary::dim;
use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.gru", gru),
    ("pd_op.gru_unit", gru_unit),
    ("pd_op.lstm", lstm),
    ("pd_op.sequence_conv", sequence_conv),
    ("pd_op.viterbi_decode", viterbi_decode),
    ("pd_op.warpctc", warpctc),
    ("pd_op.warprnnt", warprnnt),
];

/// `gru` over a batch of sequences packed along dim 0: the input holds
/// three gates of the frame size the weight's height gives.
///
/// Paddle 3.3.1's rule reads the hidden result's fact before it sets it,
/// so it refuses every program ("Fail to GetShapeOrDataForValue"); this
/// rule follows its formula with that hidden shape taken as what the rule
/// then gives the hidden result, `[rows, frame]`.
fn gru(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let weight = cx.shape(2)?;
    let rows = dim(&input, 0, "Input(Input)")?;
    let frame = dim(&weight, 0, "Input(Weight)")?;
    let gates = cx.mul(&frame, &DimExpr::Int(3));
    cx.eq(&dim(&input, 1, "Input(Input)")?, &gates);
    cx.eq(&dim(&weight, 1, "Input(Weight)")?, &gates);
    if cx.operand(1).is_some() {
        let h0 = cx.shape(1)?;
        cx.eq(&dim(&h0, 1, "Input(H0)")?, &frame);
    }
    if cx.operand(3).is_some() {
        let bias = cx.shape(3)?;
        cx.eq(&dim(&bias, 0, "Input(Bias)")?, &DimExpr::Int(1));
        cx.eq(&dim(&bias, 1, "Input(Bias)")?, &gates);
    }
    let hidden = vec![rows, frame];
    cx.set_shape(0, input);
    cx.set_shape(1, hidden.clone());
    cx.set_shape(2, hidden.clone());
    cx.set_shape(3, hidden);
    Ok(())
}

fn gru_unit(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let prev = cx.shape(1)?;
    let weight = cx.shape(2)?;
    let batch = dim(&input, 0, "Input(Input)")?;
    let frame = dim(&prev, 1, "Input(HiddenPrev)")?;
    let gates = cx.mul(&frame, &DimExpr::Int(3));
    cx.eq(&dim(&input, 1, "Input(Input)")?, &gates);
    cx.eq(&dim(&weight, 0, "Input(Weight)")?, &frame);
    cx.eq(&dim(&weight, 1, "Input(Weight)")?, &gates);
    if cx.operand(3).is_some() {
        let bias = cx.shape(3)?;
        cx.eq(&dim(&bias, 0, "Input(Bias)")?, &DimExpr::Int(1));
        cx.eq(&dim(&bias, 1, "Input(Bias)")?, &gates);
    }
    cx.set_shape(0, vec![batch.clone(), gates]);
    cx.set_shape(1, vec![batch.clone(), frame.clone()]);
    cx.set_shape(2, vec![batch, frame]);
    Ok(())
}

fn lstm(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let weight = cx.shape(3)?;
    let bias = cx.shape(4)?;
    if input.len() != 2 {
        return Err(Bad(format!(
            "Input(X)'s rank must be 2, but received {}.",
            input.len()
        )));
    }
    if cx.operand(1).is_some() {
        let h0 = cx.shape(1)?;
        let c0 = cx.shape(2)?;
        for (i, d) in h0.iter().enumerate() {
            cx.eq(d, &dim(&c0, i, "Input(C0)")?);
        }
    }
    if weight.len() != 2 {
        return Err(Bad(format!(
            "The rank of Input(Weight) should be 2, but received {}.",
            weight.len()
        )));
    }
    let frame = cx.div(&input[1], &DimExpr::Int(4));
    cx.eq(&weight[0], &frame);
    let four = cx.mul(&frame, &DimExpr::Int(4));
    cx.eq(&weight[1], &four);
    if bias.len() != 2 {
        return Err(Bad(format!(
            "The rank of Input(Bias) should be 2, but received {}.",
            bias.len()
        )));
    }
    cx.eq(&bias[0], &DimExpr::Int(1));
    let width = if cx.bool_attr("use_peepholes").unwrap_or(true) {
        cx.mul(&frame, &DimExpr::Int(7))
    } else {
        four
    };
    cx.eq(&bias[1], &width);
    let out = vec![input[0].clone(), frame];
    cx.set_shape(0, out.clone());
    cx.set_shape(1, out.clone());
    cx.set_shape(2, input);
    cx.set_shape(3, out);
    Ok(())
}

fn sequence_conv(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let filter = cx.shape(2)?;
    let length = cx.int_attr("context_length").unwrap_or(0);
    let trainable = cx.bool_attr("padding_trainable").unwrap_or(false);
    let start = cx.int_attr("context_start").unwrap_or(0);
    let stride = cx.int_attr("context_stride").unwrap_or(1);
    if stride != 1 {
        return Err(Bad(format!(
            "Currently, SequenceConvOp only supports contextStride=1. But received contextStride = {stride}."
        )));
    }
    if x.len() != 2 || filter.len() != 2 {
        return Err(Bad("Input(X, Filter) should be 2-D tensor.".into()));
    }
    let rows = cx.mul(&DimExpr::Int(length), &x[1]);
    cx.eq(&filter[0], &rows);
    if trainable {
        let padding = cx.shape(1)?;
        let total = (-start).max(0) + (start + length - 1).max(0);
        if start == 0 && length == 1 {
            return Err(Bad(
                "If context_start is 0 and context_length is 1, paddingTrainable should be false."
                    .into(),
            ));
        }
        if padding.len() != 2 {
            return Err(Bad("Input(PaddingData) should be 2-D tensor.".into()));
        }
        cx.eq(&padding[0], &DimExpr::Int(total));
        cx.eq(&padding[1], &x[1]);
    }
    cx.set_shape(0, vec![x[0].clone(), filter[1].clone()]);
    Ok(())
}

fn viterbi_decode(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    let transition = cx.shape(1)?;
    let length = cx.shape(2)?;
    let batch = dim(&input, 0, "Input(Input)")?;
    cx.eq(&batch, &dim(&length, 0, "Input(Length)")?);
    cx.eq(
        &dim(&input, 2, "Input(Input)")?,
        &dim(&transition, 0, "Input(Transition)")?,
    );
    cx.set_shape(0, length);
    let steps = cx.sym();
    cx.set_shape(1, vec![batch, steps]);
    Ok(())
}

/// `warpctc`: padded logits `[max_len, sequences, width]` when both
/// lengths are given, else unknown lengths over the flattened width.
fn warpctc(cx: &mut Cx<'_>) -> Res {
    let logits = cx.shape(0)?;
    let (max_len, sequences, width) = if cx.operand(2).is_some() && cx.operand(3).is_some() {
        (
            dim(&logits, 0, "Input(Logits)")?,
            dim(&logits, 1, "Input(Logits)")?,
            dim(&logits, 2, "Input(Logits)")?,
        )
    } else {
        let (a, b) = (cx.sym(), cx.sym());
        let width = cx.product(logits.get(1..).unwrap_or_default());
        (a, b, width)
    };
    cx.set_shape(0, vec![sequences.clone(), DimExpr::Int(1)]);
    cx.set_shape(1, vec![max_len, sequences, width]);
    Ok(())
}

fn warprnnt(cx: &mut Cx<'_>) -> Res {
    let input = cx.shape(0)?;
    cx.set_shape(0, vec![dim(&input, 0, "Input(Input)")?]);
    cx.set_shape(1, input);
    Ok(())
}
