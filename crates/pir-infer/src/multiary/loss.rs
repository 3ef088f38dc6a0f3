//! `SigmoidCrossEntropyWithLogitsInferMeta` (Paddle's `multiary.cc`).

use crate::args::Args;
use crate::meta::{with_lod, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `SigmoidCrossEntropyWithLogitsInferMeta` (x, label, pos_weight,
/// normalize, ignore_index): x's dims, data type and LoD. Label (and
/// pos_weight) must have x's rank and, unless some extent is unknown or
/// zero (the builder does not run at run time), x's shape.
pub(crate) fn sigmoid_cross_entropy_with_logits(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    let (xd, ld) = (x.dims.as_slice(), label.dims.as_slice());
    if xd.len() != ld.len() {
        return Err(Bad(format!(
            "Input(X) and Input(Label) shall have the same rank.But received: the rank of Input(X) is [{}], the rank of Input(Label) is [{}].",
            xd.len(),
            ld.len()
        )));
    }
    // `product(dims) <= 0` turns the checks off at build time.
    let check = x.dims.product() > 0 && label.dims.product() > 0;
    if check {
        if xd != ld {
            return Err(Bad(format!(
                "Input(X) and Input(Label) shall have the same shape except the last dimension. But received: the shape of Input(X) is {xd:?}, the shape of Input(Label) is {ld:?}."
            )));
        }
        if let Some(w) = a.opt_tensor(2)? {
            let r = xd.len().min(w.dims.rank());
            if w.dims.as_slice()[..r] != ld[..r] || w.dims.rank() < xd.len() {
                return Err(Bad(format!(
                    "Input(pos_weight) and Input(Label) shall have the same shape But received: the shape of Input(PosWeight) is {:?}, the shape of Input(Label) is {ld:?}.",
                    w.dims.as_slice()
                )));
            }
        }
    }
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `HSigmoidLossInferMeta` (x, label, w, bias, path, code, num_classes,
/// is_sparse): `out` `[N, 1]` with x's data type and LoD; `pre_out` and
/// `w_out` are left alone.
pub(crate) fn hsigmoid_loss(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    let (n, l) = (x.dims.at(0)?, label.dims.at(0)?);
    if n != l {
        return Err(Bad(format!(
            "The first dimension of input and label is expected to be the same. But received input's first dimension is {n}; label's first dimension is {l}."
        )));
    }
    set(
        outs,
        0,
        with_lod(&x, x.dtype, crate::meta::DDim::new(&[n, 1])?),
    );
    Ok(())
}

/// Paddle's message for a bad `blank`: its format names two values but is
/// given one, so `blank` lands in the interval and nothing after
/// "received".
fn blank_error(blank: i64) -> Bad {
    Bad(format!(
        "The value of Attr(blank) should be in interval [0, {blank}), but received "
    ))
}

/// `WarpctcInferMeta` (logits, label, logits_length, labels_length, blank,
/// norm_by_times): padded logits `[T, N, C]` (with both lengths) give
/// `loss` `[N, 1]` and the gradient `[T, N, C]`; LoD logits `[T, C]` give
/// `[-1, 1]` and `[-1, -1, C]`. `blank` must be a class index.
pub(crate) fn warpctc(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let logits = a.tensor(0)?;
    let blank = a.int(4)?;
    let d = logits.dims.as_slice();
    let int = |v: i64| i64::from(v as i32);
    let (max_len, n, width) = if a.opt_tensor(2)?.is_some() && a.opt_tensor(3)?.is_some() {
        (
            int(logits.dims.at(0)?),
            int(logits.dims.at(1)?),
            int(logits.dims.at(2)?),
        )
    } else {
        let first = logits.dims.at(0)?;
        if first == 0 {
            return Err(Bad("logits have a zero first dim".into()));
        }
        (-1, -1, int(d.iter().product::<i64>() / first))
    };
    if blank < 0 || blank >= width {
        return Err(blank_error(blank));
    }
    set(
        outs,
        0,
        Meta::new(logits.dtype, crate::meta::DDim::new(&[n, 1])?),
    );
    set(
        outs,
        1,
        Meta::new(logits.dtype, crate::meta::DDim::new(&[max_len, n, width])?),
    );
    Ok(())
}

/// `WarprnntInferMeta` (input, label, input_lengths, label_lengths, blank,
/// fastemit_lambda): input `[B, T, U, D]`; `loss` `[B]`, the gradient like
/// the input. `blank` must be below D.
pub(crate) fn warprnnt(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let blank = a.int(4)?;
    let classes = i64::from(input.dims.at(3)? as i32);
    if blank < 0 || blank >= classes {
        return Err(blank_error(blank));
    }
    set(
        outs,
        0,
        Meta::new(input.dtype, crate::meta::DDim::new(&[input.dims.at(0)?])?),
    );
    set(outs, 1, Meta::new(input.dtype, input.dims));
    Ok(())
}
