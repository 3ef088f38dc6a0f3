//! `StftInferMeta` (Paddle's `binary.cc`): the short-time Fourier
//! transform of `[N, T]` signals.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `phi::dtype::ToComplex`: float32 and float64 to their complex types,
/// any other type unchanged.
fn to_complex(d: DataType) -> DataType {
    match d {
        DataType::Float32 => DataType::Complex64,
        DataType::Float64 => DataType::Complex128,
        d => d,
    }
}

/// `StftInferMeta` (x, window, n_fft, hop_length, normalized, onesided):
/// `[N, n_fft / 2 + 1 (onesided) or n_fft, 1 + (T - n_fft) / hop_length]`,
/// complex of x's data type.
pub(crate) fn stft(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let window = a.tensor(1)?;
    let n_fft = a.int(2)?;
    let hop = a.int(3)?;
    let onesided = a.bool(5)?;
    let d = x.dims.as_slice();
    if d.len() != 2 {
        return Err(Bad(format!(
            "Input(X) of StftOp should be a tensor with shape [N, T], but got rank {}.",
            d.len()
        )));
    }
    if hop <= 0 {
        return Err(Bad(format!(
            "Attribute(hop_length) should be greater than 0, but got {hop}."
        )));
    }
    let window_size = i64::from(window.dims.at(0)? as i32);
    if window_size != n_fft {
        return Err(Bad(format!(
            "Input(Window) of StftOp should be equal with n_fft {n_fft}, but got {window_size}."
        )));
    }
    let seq = i64::from(d[1] as i32);
    let frames = 1 + (seq - n_fft) / hop;
    if n_fft > seq {
        return Err(Bad(format!(
            "Attribute(frame_length) should be less equal than sequence length, but got ({n_fft}) > ({seq})."
        )));
    }
    let bins = if onesided { n_fft / 2 + 1 } else { n_fft };
    set(
        outs,
        0,
        Meta::new(to_complex(x.dtype), DDim::new(&[d[0], bins, frames])?),
    );
    Ok(())
}
