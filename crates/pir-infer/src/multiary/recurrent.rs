//! The recurrent units of Paddle's `multiary.cc`: `GruInferMeta` (a GRU
//! over a LoD sequence), `GruUnitInferMeta` (one step) and `LSTMInferMeta`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// Paddle reads these extents as `int`.
fn int(v: i64) -> i64 {
    i64::from(v as i32)
}

/// The `[1, frame_size * 3]` bias check of both units.
fn check_bias(bias: Option<Meta>, frame: i64) -> Result<(), Bad> {
    let Some(bias) = bias else { return Ok(()) };
    let (h, w) = (int(bias.dims.at(0)?), int(bias.dims.at(1)?));
    if h != 1 || w != frame * 3 {
        return Err(Bad(format!(
            "The shape of Bias must be [1, frame_size * 3], but received [{h}, {w}] (Bias) vs [1, {}] (frame_size * 3).",
            frame * 3
        )));
    }
    Ok(())
}

/// `GruInferMeta` (input, h0, weight, bias, activation, gate_activation,
/// is_reverse, origin_mode, is_test): `hidden` `[T, frame]` sharing the
/// input's LoD; the batch outputs only when training.
pub(crate) fn gru(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let weight = a.tensor(2)?;
    let is_test = a.bool(8)?;
    let frame = int(weight.dims.at(0)?);
    let w1 = weight.dims.at(1)?;
    if w1 != frame * 3 {
        return Err(Bad(format!(
            "The shape of Input(Weight) matrix must be [frame_size, frame_size * 3], but received [{}, {w1}] (Weight) vs [{frame}, {}] (frame_size).",
            weight.dims.at(0)?,
            frame * 3
        )));
    }
    if let Some(h0) = a.opt_tensor(1)? {
        let w = h0.dims.at(1)?;
        if w != frame {
            return Err(Bad(format!(
                "The width of Input(H0) must be equal to frame_size, but received {w} (width of H0) vs {frame} (frame_size)."
            )));
        }
    }
    check_bias(a.opt_tensor(3)?, frame)?;
    let t = input.dims.at(0)?;
    let rows = DDim::new(&[t, frame])?;
    if !is_test {
        set(outs, 0, Meta::new(input.dtype, input.dims));
        set(outs, 1, Meta::new(input.dtype, rows));
        set(outs, 2, Meta::new(input.dtype, rows));
    }
    set(outs, 3, with_lod(&input, input.dtype, rows));
    Ok(())
}

/// `GruUnitInferMeta` (input, hidden_prev, weight, bias, activation,
/// gate_activation, origin_mode): `gate` `[B, 3 * frame]`,
/// `reset_hidden_prev` and `hidden` `[B, frame]`, frame being
/// `hidden_prev`'s width.
pub(crate) fn gru_unit(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let prev = a.tensor(1)?;
    let weight = a.tensor(2)?;
    let batch = int(input.dims.at(0)?);
    let input_size = int(input.dims.at(1)?);
    let frame = int(prev.dims.at(1)?);
    let (wh, ww) = (int(weight.dims.at(0)?), int(weight.dims.at(1)?));
    if input_size >= 0 && input_size != frame * 3 {
        return Err(Bad(format!(
            "The second dimension of Input(Input) must be 3 times of frame_size in GRUUnitOp, but received {input_size} (Input) vs {frame} (frame_size)."
        )));
    }
    if wh != frame || ww != frame * 3 {
        return Err(Bad(format!(
            "The shape of Input(Weight) matrix must be [frame_size, frame_size * 3] in GRUUnitOp, but received [{wh}, {ww}] (Weight) vs [{frame}, {}] (frame_size).",
            frame * 3
        )));
    }
    check_bias(a.opt_tensor(3)?, frame)?;
    set(
        outs,
        0,
        Meta::new(input.dtype, DDim::new(&[batch, frame * 3])?),
    );
    set(outs, 1, Meta::new(input.dtype, DDim::new(&[batch, frame])?));
    set(outs, 2, Meta::new(input.dtype, DDim::new(&[batch, frame])?));
    Ok(())
}

/// `LSTMInferMeta` (input, h0, c0, weight, bias, use_peepholes, is_reverse,
/// is_test, gate_activation, cell_activation, candidate_activation):
/// `hidden` and `cell` `[T, D]` (D a quarter of the input's width) with the
/// input's data type and LoD; when training, `batch_gate` of the input's
/// dims and `batch_cell_pre_act` `[T, D]`, with no data type set (the
/// builder's fresh tensors are float32).
pub(crate) fn lstm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let weight = a.tensor(3)?;
    let bias = a.tensor(4)?;
    let peepholes = a.bool(5)?;
    let is_test = a.bool(7)?;
    let d = input.dims.as_slice();
    if d.len() != 2 {
        return Err(Bad(format!(
            "Input(X)'s rank must be 2, but received {}.",
            d.len()
        )));
    }
    if let Some(h0) = a.opt_tensor(1)? {
        let c0 = a.opt_tensor(2)?.ok_or_else(|| {
            Bad("Input(Cell) and Input(Hidden) of LSTM should not be null at the same time.".into())
        })?;
        if h0.dims != c0.dims {
            return Err(Bad(format!(
                "The dimension of Input(H0) and Input(C0) should be the same, but received {:?} (H0) vs {:?} (C0).",
                h0.dims.as_slice(),
                c0.dims.as_slice()
            )));
        }
    }
    let frame = int(d[1] / 4);
    let w = weight.dims.as_slice();
    if w.len() != 2 {
        return Err(Bad(format!(
            "The rank of Input(Weight) should be 2, but received {}.",
            w.len()
        )));
    }
    if w[0] != frame {
        return Err(Bad(format!(
            "The first dimension of Input(Weight) should be {frame}, but received {}.",
            w[0]
        )));
    }
    if w[1] != 4 * frame {
        return Err(Bad(format!(
            "The second dimension of Input(Weight) should be 4 * {frame}, but received {}.",
            w[1]
        )));
    }
    let b = bias.dims.as_slice();
    if b.len() != 2 {
        return Err(Bad(format!(
            "The rank of Input(Bias) should be 2, but received {}.",
            b.len()
        )));
    }
    if b[0] != 1 {
        return Err(Bad(format!(
            "The first dimension of Input(Bias) should be 1, but received {}.",
            b[0]
        )));
    }
    let (gates, state) = if peepholes {
        (7, "enable")
    } else {
        (4, "disable")
    };
    if b[1] != gates * frame {
        return Err(Bad(format!(
            "The second dimension of Input(Bias) should be {gates} * {frame} if {state} peepholes connection, but received {}.",
            b[1]
        )));
    }
    let rows = DDim::new(&[d[0], frame])?;
    let out = with_lod(&input, input.dtype, rows);
    set(outs, 0, out.clone());
    set(outs, 1, out);
    if !is_test {
        set(outs, 2, Meta::new(DataType::Float32, input.dims));
        set(outs, 3, Meta::new(DataType::Float32, rows));
    }
    Ok(())
}

/// `CudnnLSTMInferMeta` (x, init_h, init_c, w, weight_list,
/// sequence_length, dropout_prob, is_bidirec, hidden_size, num_layers,
/// is_test, seed): `out` is x `[T, N, I]` with the last extent the hidden
/// size (doubled when bidirectional); `last_h` takes init_c's dims and
/// `last_c` init_h's (equal, checked); `reserve` and `state_out` only get
/// the uint8 data type.
pub(crate) fn cudnn_lstm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let h = a.tensor(1)?;
    let c = a.tensor(2)?;
    let bidirec = a.bool(7)?;
    let hidden = a.int(8)?;
    if x.dims.rank() != 3 {
        return Err(Bad(format!(
            "The rank of Input in CudnnLSTM  must be 3. But received Input's rank is {}.",
            x.dims.rank()
        )));
    }
    if h.dims.rank() != 3 {
        return Err(Bad(format!(
            "The rank of InitH in CudnnLSTM  must be 3. But received InitH's rank is {}.",
            h.dims.rank()
        )));
    }
    let batch = x.dims.at(1)?;
    if let Some(len) = a.opt_tensor(5)? {
        let n = len.dims.at(0)?;
        if batch != n {
            return Err(Bad(format!(
                "The size of SequenceLength has to equal the batch_size. But received batch_size is {batch} and the size of SequenceLength is {n}."
            )));
        }
    }
    let hb = h.dims.at(1)?;
    if batch != hb {
        return Err(Bad(format!(
            "The in_dims[1] (Input dims) and init_h_dims[1] (InitH dims) should be equal. But received in_dims[1] is {batch} and init_h_dims[1] is {hb}."
        )));
    }
    if c.dims != h.dims {
        return Err(Bad(format!(
            "The InitC dims and InitH dims should be equal. But received init_c_dims is {:?} and init_h_dims is {:?}.",
            c.dims.as_slice(),
            h.dims.as_slice()
        )));
    }
    let mut out = x.dims;
    out.set(2, if bidirec { hidden * 2 } else { hidden })?;
    set(outs, 0, Meta::new(x.dtype, out));
    set(outs, 1, Meta::new(x.dtype, c.dims));
    set(outs, 2, Meta::new(x.dtype, h.dims));
    set(outs, 3, Meta::unset_dims(DataType::UInt8));
    set(outs, 4, Meta::unset_dims(DataType::UInt8));
    Ok(())
}
