//! Gradients of the recurrent and sequence ops (`gru`, `gru_unit`,
//! `sequence_conv`, `nce`): each gradient takes dims and data type of its
//! input; a gradient of an absent optional input stays as built.

use super::{fresh, untouched};
use crate::args::Args;
use crate::meta::{with_lod, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "GruGradInferMeta" => gru_grad,
        "GruUnitGradInferMeta" => gru_unit_grad,
        "SequenceConvGradInferMeta" => sequence_conv_grad,
        "NceGradInferMeta" => nce_grad,
        _ => return None,
    })
}

/// Dims and data type of `m`.
fn like(m: &Meta) -> Meta {
    fresh(m.dims, m.dtype)
}

/// The weight of a GRU: `[frame_size, frame_size * 3]`.
fn check_gru_weight(w: &Meta, frame: i64, op: &str) -> Result<(), Bad> {
    let (h, wd) = (w.dims.at(0)?, w.dims.at(1)?);
    if h != frame || wd != frame.wrapping_mul(3) {
        return Err(Bad(format!(
            "The shape of Input(Weight) matrix must be [frame_size, frame_size * 3]{op}, but \
             received [{h}, {wd}] (Weight) vs [{frame}, {}] (frame_size).",
            frame.wrapping_mul(3)
        )));
    }
    Ok(())
}

/// The bias of a GRU, when given: `[1, frame_size * 3]`.
fn check_gru_bias(b: &Meta, frame: i64) -> Result<(), Bad> {
    let (h, w) = (b.dims.at(0)?, b.dims.at(1)?);
    if h != 1 || w != frame.wrapping_mul(3) {
        return Err(Bad(format!(
            "The shape of Bias must be [1, frame_size * 3], but received [{h}, {w}] (Bias) vs \
             [1, {}] (frame_size * 3).",
            frame.wrapping_mul(3)
        )));
    }
    Ok(())
}

/// `GruGradInferMeta` (input, h0, weight, bias): the input width must be
/// three frames (the frame size is the weight's height), even when unknown.
fn gru_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let w = a.tensor(2)?;
    let input_size = input.dims.at(1)?;
    let frame = w.dims.at(0)?;
    if input_size != frame.wrapping_mul(3) {
        return Err(Bad(format!(
            "The second dimension of Input(Input) must be 3 times of frame_size in GRUOp, but \
             received {input_size} (Input) vs {frame} (frame_size)."
        )));
    }
    check_gru_weight(&w, frame, "")?;
    let h0 = match a.opt_tensor(1)? {
        Some(h0) => {
            let width = h0.dims.at(1)?;
            if width != frame {
                return Err(Bad(format!(
                    "The width of Input(H0) must be equal to frame_size, but received {width} \
                     (width of H0) vs {frame} (frame_size)."
                )));
            }
            like(&h0)
        }
        None => untouched(),
    };
    let bias = match a.opt_tensor(3)? {
        Some(b) => {
            check_gru_bias(&b, frame)?;
            like(&b)
        }
        None => untouched(),
    };
    set(outs, 1, h0);
    set(outs, 3, bias);
    set(outs, 0, like(&input));
    set(outs, 2, like(&w));
    Ok(())
}

/// `GruUnitGradInferMeta` (input, hidden_prev, weight, bias): the frame size
/// is the width of `hidden_prev`; a known input width must be three frames.
fn gru_unit_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let prev = a.tensor(1)?;
    let w = a.tensor(2)?;
    let input_size = input.dims.at(1)?;
    let frame = prev.dims.at(1)?;
    if input_size >= 0 && input_size != frame.wrapping_mul(3) {
        return Err(Bad(format!(
            "The second dimension of Input(Input) must be 3 times of frame_size in \
             GRUUnitGradOp, but received {input_size} (Input) vs {frame} (frame_size)."
        )));
    }
    check_gru_weight(&w, frame, " in GRUUnitGradOp")?;
    let bias = match a.opt_tensor(3)? {
        Some(b) => {
            check_gru_bias(&b, frame)?;
            like(&b)
        }
        None => untouched(),
    };
    set(outs, 3, bias);
    set(outs, 0, like(&input));
    set(outs, 1, like(&prev));
    set(outs, 2, like(&w));
    Ok(())
}

/// `SequenceConvGradInferMeta` (x, padding_data, filter, out_grad,
/// context_length, padding_trainable, ...): `x_grad` keeps the LoD of `x`;
/// the padding gradient is set only when the padding is trainable.
fn sequence_conv_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let filter = a.tensor(2)?;
    let pad = if a.bool(5)? {
        like(&a.tensor(1)?)
    } else {
        untouched()
    };
    set(outs, 1, pad);
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    set(outs, 2, like(&filter));
    Ok(())
}

/// `NceGradInferMeta` (input, bias, weight): each gradient like its input;
/// Paddle reads the bias' dims unconditionally, so it must be given.
fn nce_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let w = a.tensor(2)?;
    let bias = a.tensor(1)?;
    set(outs, 0, like(&input));
    set(outs, 2, like(&w));
    set(outs, 1, like(&bias));
    Ok(())
}
