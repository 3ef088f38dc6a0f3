//! Signal ops of one operand (Paddle's `unary_infer_sym.cc`): FFTs and
//! their complex views, framing and overlap-add, sliding blocks (`fold`,
//! `unfold`) and the temporal shift.

use super::super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.as_complex", as_complex),
    ("pd_op.as_real", as_real),
    ("pd_op.fft_c2c", super::same_shape),
    ("pd_op.fft_c2r", fft_c2r),
    ("pd_op.fft_r2c", fft_r2c),
    ("pd_op.frame", frame),
    ("pd_op.overlap_add", overlap_add),
    ("pd_op.fold", fold),
    ("pd_op.unfold", unfold),
    ("pd_op.temporal_shift", temporal_shift),
];

/// `as_complex`: the trailing pair of reals becomes one element.
fn as_complex(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    x.pop();
    cx.set_shape(0, x);
    Ok(())
}

fn as_real(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    x.push(DimExpr::Int(2));
    cx.set_shape(0, x);
    Ok(())
}

/// The last of the `axes` attribute, as an index into a shape of `rank`.
fn last_fft_axis(cx: &Cx<'_>, rank: usize) -> Result<usize, Bad> {
    let axes = cx.ints_attr("axes").unwrap_or_default();
    match axes.last() {
        Some(&a) if a >= 0 && (a as usize) < rank => Ok(a as usize),
        _ => Err(Bad(format!(
            "fft axes {axes:?} out of range for rank {rank}"
        ))),
    }
}

/// `fft_c2r`: the last axis becomes `last_dim_size` when positive, else
/// `2n - 1` (Paddle's formula).
fn fft_c2r(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    let axis = last_fft_axis(cx, x.len())?;
    let last = cx.int_attr("last_dim_size").unwrap_or(0);
    x[axis] = if last > 0 {
        DimExpr::Int(last)
    } else {
        let twice = cx.mul(&x[axis], &DimExpr::Int(2));
        cx.sub(&twice, &DimExpr::Int(1))
    };
    cx.set_shape(0, x);
    Ok(())
}

/// `fft_r2c`: one-sided transforms keep `n / 2 + 1` of the last axis.
fn fft_r2c(cx: &mut Cx<'_>) -> Res {
    let mut x = cx.shape(0)?;
    if cx.bool_attr("onesided").unwrap_or(true) {
        let axis = last_fft_axis(cx, x.len())?;
        let half = cx.div(&x[axis], &DimExpr::Int(2));
        x[axis] = cx.add(&half, &DimExpr::Int(1));
    }
    cx.set_shape(0, x);
    Ok(())
}

/// The `axis` attribute of `frame` and `overlap_add`: 0 or -1.
fn frame_axis(cx: &Cx<'_>, op: &str) -> Result<i64, Bad> {
    let axis = cx.int_attr("axis").unwrap_or(-1);
    if axis != 0 && axis != -1 {
        return Err(Bad(format!(
            "Attribute(axis) of {op} should be 0 or -1, but got {axis}."
        )));
    }
    Ok(axis)
}

fn hop_length(cx: &Cx<'_>, op: &str) -> Result<i64, Bad> {
    let hop = cx.int_attr("hop_length").unwrap_or(0);
    if hop <= 0 {
        return Err(Bad(format!(
            "Attribute(hop_length) of {op} should be greater than 0, but got {hop}."
        )));
    }
    Ok(hop)
}

/// `frame`: `(seq - frame_length) / hop + 1` frames of `frame_length`,
/// in front (axis 0) or at the back (axis -1).
fn frame(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    if x.is_empty() {
        return Err(Bad(
            "Input(X) of FrameOp should be a tensor which contains at least 1 dimension, \
             but got rank 0."
                .into(),
        ));
    }
    let hop = hop_length(cx, "FrameOp")?;
    let frame_length = cx.int_attr("frame_length").unwrap_or(0);
    let axis = frame_axis(cx, "FrameOp")?;
    let r = x.len();
    let (seq, kept) = if axis == 0 {
        (x[0].clone(), &x[1..])
    } else {
        (x[r - 1].clone(), &x[..r - 1])
    };
    if let Some(n) = seq.as_int() {
        if frame_length > n {
            return Err(Bad(format!(
                "Attribute(frame_length) of FrameOp should be less equal than sequence \
                 length, but got ({frame_length}) > ({n})."
            )));
        }
    }
    let rest = cx.sub(&seq, &DimExpr::Int(frame_length));
    let steps = cx.div(&rest, &DimExpr::Int(hop));
    let n_frames = cx.add(&steps, &DimExpr::Int(1));
    let mut out = Vec::with_capacity(r + 1);
    if axis == 0 {
        out.push(n_frames);
        out.push(DimExpr::Int(frame_length));
        out.extend_from_slice(kept);
    } else {
        out.extend_from_slice(kept);
        out.push(DimExpr::Int(frame_length));
        out.push(n_frames);
    }
    cx.set_shape(0, out);
    Ok(())
}

/// `overlap_add`: `(frames - 1) * hop + frame_length` samples. With axis 0
/// Paddle takes the frame length from dim 0, the frame count, as well.
fn overlap_add(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let r = x.len();
    if r < 2 {
        return Err(Bad(format!(
            "Input(X) of OverlapAddOp should be a tensor which contains at least 2 \
             dimensions, but got rank {r}."
        )));
    }
    let hop = hop_length(cx, "OverlapAddOp")?;
    let axis = frame_axis(cx, "OverlapAddOp")?;
    let (n_frames, frame_length, kept) = if axis == 0 {
        (x[0].clone(), x[0].clone(), &x[2..])
    } else {
        (x[r - 1].clone(), x[r - 2].clone(), &x[..r - 2])
    };
    let before = cx.sub(&n_frames, &DimExpr::Int(1));
    let spread = cx.mul(&before, &DimExpr::Int(hop));
    let seq = cx.add(&spread, &frame_length);
    let mut out = Vec::with_capacity(r - 1);
    if axis == 0 {
        out.push(seq);
        out.extend_from_slice(kept);
    } else {
        out.extend_from_slice(kept);
        out.push(seq);
    }
    cx.set_shape(0, out);
    Ok(())
}

/// An int-list attribute of exactly `n` entries.
fn ints_of_len(cx: &Cx<'_>, name: &str, what: &str, n: usize) -> Result<Vec<i64>, Bad> {
    let v = cx.ints_attr(name).unwrap_or_default();
    if v.len() != n {
        return Err(Bad(format!(
            "It is expected {what} equals to {n}, but got size {}",
            v.len()
        )));
    }
    Ok(v)
}

/// The blocks a sliding window takes along one dim:
/// `(size + pads - (dilation * (kernel - 1) + 1)) / stride + 1`.
fn blocks(size: i64, pads: i64, dilation: i64, kernel: i64, stride: i64) -> Option<i64> {
    let span = dilation.checked_mul(kernel - 1)?.checked_add(1)?;
    size.checked_add(pads)?
        .checked_sub(span)?
        .checked_div(stride)?
        .checked_add(1)
}

/// `fold`: columns `[N, C * kh * kw, L]` back to `[N, C, H, W]`.
fn fold(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    if x.len() < 3 {
        return Err(Bad(format!("fold of a {}-D tensor", x.len())));
    }
    let sizes = ints_of_len(cx, "output_sizes", "output_size", 2)?;
    cx.a.add_gt_one(&DimExpr::Int(sizes[0]));
    cx.a.add_gt_one(&DimExpr::Int(sizes[1]));
    let kernel = ints_of_len(cx, "kernel_sizes", "kernel_size", 2)?;
    let dilations = ints_of_len(cx, "dilations", "dilations_size", 2)?;
    let strides = ints_of_len(cx, "strides", "strides_size", 2)?;
    let pads = ints_of_len(cx, "paddings", "paddings_size", 4)?;
    let count = |i: usize| blocks(sizes[i], 2 * pads[i], dilations[i], kernel[i], strides[i]);
    let (Some(h), Some(w)) = (count(0), count(1)) else {
        return Err(Bad("fold: bad window".into()));
    };
    cx.eq(&DimExpr::Int(h.saturating_mul(w)), &x[2]);
    let channels = cx.div(&x[1], &DimExpr::Int(kernel[0].saturating_mul(kernel[1])));
    let out = vec![
        x[0].clone(),
        channels,
        DimExpr::Int(sizes[0]),
        DimExpr::Int(sizes[1]),
    ];
    cx.set_shape(0, out);
    Ok(())
}

/// `unfold`: `[N, C, H, W]` to columns `[N, C * kh * kw, bh * bw]`.
fn unfold(cx: &mut Cx<'_>) -> Res {
    let x = super::shape_of_rank(
        cx,
        |r| r == 4,
        |r| format!("Input should be 4-D tensor of format [N, C, H, W], but get {r}"),
    )?;
    let kernel = ints_of_len(cx, "kernel_sizes", "kernel_sizes", 2)?;
    let strides = ints_of_len(cx, "strides", "strides", 2)?;
    let pads = ints_of_len(cx, "paddings", "paddings", 4)?;
    let dilations = ints_of_len(cx, "dilations", "dilations", 2)?;
    let channels = cx.mul(&x[1], &DimExpr::Int(kernel[0].saturating_mul(kernel[1])));
    let extent = |cx: &mut Cx<'_>, size: &DimExpr, p1: i64, p2: i64, i: usize| {
        let span = dilations[i].saturating_mul(kernel[i] - 1).saturating_add(1);
        let padded = cx.add(size, &DimExpr::Int(p1.saturating_add(p2)));
        let room = cx.sub(&padded, &DimExpr::Int(span));
        let steps = cx.div(&room, &DimExpr::Int(strides[i]));
        cx.add(&steps, &DimExpr::Int(1))
    };
    let h = extent(cx, &x[2], pads[0], pads[2], 0);
    let w = extent(cx, &x[3], pads[1], pads[3], 1);
    let cols = cx.mul(&h, &w);
    cx.set_shape(0, vec![x[0].clone(), channels, cols]);
    Ok(())
}

fn temporal_shift(cx: &mut Cx<'_>) -> Res {
    let x = super::shape_of_rank(
        cx,
        |r| r == 4,
        |r| {
            format!(
                "Input(X) rank should be 4 in shape of [N*T, C, H, W], but received X rank({r})"
            )
        },
    )?;
    let seg_num = cx.int_attr("seg_num").unwrap_or(0);
    if seg_num <= 0 {
        return Err(Bad(format!(
            "Attr(seg_num) should be greater than 0, but received {seg_num}"
        )));
    }
    let ratio = cx.float_attr("shift_ratio").unwrap_or(0.0);
    if !(ratio > 0.0 && ratio < 0.5) {
        return Err(Bad(format!(
            "Attr(shift_ratio) should be in (0, 0.5), but received {ratio}"
        )));
    }
    cx.set_shape(0, x);
    Ok(())
}
