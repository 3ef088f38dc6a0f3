//! Detection and sequence InferMeta functions of `binary.cc` and
//! `unary.cc`: `prior_box`, `yolo_box`, `affine_grid`,
//! `im2sequence`, `swiglu`, `add_position_encoding`, `c_softmax_with_cross_entropy`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{with_lod, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// Paddle's `ExpandAspectRatios`: 1, then each new ratio (and its inverse
/// with `flip`).
fn expand_aspect_ratios(ratios: &[f64], flip: bool) -> Vec<f64> {
    let mut out = vec![1.0f64];
    for &ar in ratios {
        let ar = ar as f32;
        if out.iter().any(|&v| (f64::from(ar) - v).abs() < 1e-6) {
            continue;
        }
        out.push(f64::from(ar));
        if flip {
            out.push(f64::from(1.0f32 / ar));
        }
    }
    out
}

/// `PriorBoxInferMeta` (input, image, min_sizes, max_sizes, aspect_ratios,
/// variances, flip, ...): `[H, W, num_priors, 4]` twice.
pub(crate) fn prior_box(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let image = a.tensor(1)?;
    let (min_sizes, max_sizes) = (a.floats(2)?, a.floats(3)?);
    let ratios = a.floats(4)?;
    let flip = a.bool(6)?;
    if image.dims.rank() != 4 || input.dims.rank() != 4 {
        return Err(Bad(
            "The Input(Image) and Input(Input) of Op(PriorBoxOp) should be 4-D Tensors".into(),
        ));
    }
    let mut n = expand_aspect_ratios(&ratios, flip).len() * min_sizes.len();
    if !max_sizes.is_empty() {
        if max_sizes.len() != min_sizes.len() {
            return Err(Bad(format!(
                "The length of min_size and max_size must be equal. But received: min_size's length is {}, max_size's length is {}.",
                min_sizes.len(),
                max_sizes.len()
            )));
        }
        n += max_sizes.len();
        if let Some(i) = (0..max_sizes.len()).find(|&i| max_sizes[i] <= min_sizes[i]) {
            return Err(Bad(format!(
                "max_size[{i}] must be greater than min_size[{i}]."
            )));
        }
    }
    let d = dd(&[input.dims.at(2)?, input.dims.at(3)?, n as i64, 4])?;
    set(outs, 0, Meta::new(input.dtype, d));
    set(outs, 1, Meta::new(input.dtype, d));
    Ok(())
}

/// `YoloBoxInferMeta` (x, img_size, anchors, class_num, ...): boxes
/// `[N, boxes, 4]` and scores `[N, boxes, class_num]` (dims only).
pub(crate) fn yolo_box(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let img = a.tensor(1)?;
    let anchors = a.ints(2)?;
    let class_num = a.int(3)?;
    let iou_aware = a.bool(8)?;
    let iou_factor = a.scalar(9)?.value;
    let d = x.dims.as_slice();
    let anchor_num = (anchors.len() / 2) as i64;
    if d.len() != 4 {
        return Err(Bad(format!(
            "Input(X) should be a 4-D tensor.But received X dimension({})",
            d.len()
        )));
    }
    let per = if iou_aware { 6 } else { 5 };
    if d[1] != anchor_num * (per + class_num) {
        return Err(Bad(format!(
            "Input(X) dim[1] should be equal to (anchor_mask_number * ({per} + class_num)).But received dim[1]({}) != (anchor_mask_number * ({per}+class_num)({}).",
            d[1],
            anchor_num * (per + class_num)
        )));
    }
    if iou_aware && !(0.0..=1.0).contains(&iou_factor) {
        return Err(Bad(
            "Attr(iou_aware_factor) should be between 0 and 1.".into()
        ));
    }
    let id = img.dims.as_slice();
    if id.len() != 2 {
        return Err(Bad(format!(
            "Input(ImgSize) should be a 2-D tensor.But received Imgsize size({})",
            id.len()
        )));
    }
    if id[0] > 0 && d[0] > 0 && id[0] != d[0] {
        return Err(Bad(
            "Input(ImgSize) dim[0] and Input(X) dim[0] should be same.".into(),
        ));
    }
    if id[1] != 2 {
        return Err(Bad(format!(
            "Input(ImgSize) dim[1] should be 2.But received imgsize dim[1]({}).",
            id[1]
        )));
    }
    if anchors.is_empty() || anchors.len() % 2 != 0 {
        return Err(Bad(
            "Attr(anchors) length should be a positive even integer.".into(),
        ));
    }
    if class_num <= 0 {
        return Err(Bad(format!(
            "Attr(class_num) should be an integer greater than 0.But received class_num ({class_num})"
        )));
    }
    let boxes = if d[2] > 0 && d[3] > 0 {
        d[2] * d[3] * anchor_num
    } else {
        -1
    };
    set(outs, 0, Meta::new(x.dtype, dd(&[d[0], boxes, 4])?));
    set(
        outs,
        1,
        Meta::new(DataType::Float32, dd(&[d[0], boxes, class_num])?),
    );
    Ok(())
}

/// `AffineGridInferMeta` (input, output_shape, align_corners): `[N, H, W, 2]`
/// for a known 4-element shape, else `[N, D, H, W, 3]`, all unknown but `N`.
pub(crate) fn affine_grid(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let theta = a.tensor(0)?;
    let shape = a.int_array(1)?;
    let t = theta.dims.as_slice();
    if !shape.from_tensor {
        if t.len() != 3 {
            return Err(Bad(format!(
                "The input Theta's dimensions size should be 3. But received Theta's dimensions size=[{}],  Theta's dimensions={t:?}.",
                t.len()
            )));
        }
        if !(4..=5).contains(&shape.values.len()) {
            return Err(Bad(format!(
                "The size of attribute 'output_shape' in AffineGridOp should be 4 or 5. But received output_shape's size=[{}].",
                shape.values.len()
            )));
        }
    }
    if t.len() < 3 {
        return Err(Bad(format!("affine_grid theta of rank {}", t.len())));
    }
    if !(2..=3).contains(&t[1]) {
        return Err(Bad(format!(
            "The second dimension of input 'theta' in AffineGridOp should be in [2, 3]. But received second dimension=[{}], dimensions={t:?}",
            t[1]
        )));
    }
    if !(3..=4).contains(&t[2]) {
        return Err(Bad(format!(
            "The third dimension of input 'theta' in AffineGridOp should be in [3, 4]. But received third dimension=[{}], dimensions={t:?}",
            t[2]
        )));
    }
    let d = if shape.values.len() == 4 && !shape.from_tensor {
        vec![t[0], -1, -1, 2]
    } else {
        vec![t[0], -1, -1, -1, 3]
    };
    set(outs, 0, with_lod(&theta, theta.dtype, dd(&d)?));
    Ok(())
}

/// `Im2sequenceInferMeta` (x, y, kernels, ...): `[N, C * kh * kw]`.
pub(crate) fn im2sequence(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let k = a.ints(2)?;
    let d = x.dims.as_slice();
    if d.len() != 4 {
        return Err(Bad(format!(
            "The dimensions size of input 'X' in Im2SequenceOp should be 4. But received dimensions size=[{}], dimensions={d:?}.",
            d.len()
        )));
    }
    if k.len() < 2 {
        return Err(Bad("im2sequence needs two kernel sizes".into()));
    }
    set(
        outs,
        0,
        Meta::new(x.dtype, dd(&[d[0], d[1] * k[0] * k[1]])?),
    );
    Ok(())
}

/// `SwiGLUInferMeta` (x, y): `x`'s meta with `y`, else half the last extent.
pub(crate) fn swiglu(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    if let Some(y) = a.opt_tensor(1)? {
        if x.dims != y.dims {
            return Err(Bad(
                "The shape of Input(X) should be equal of the shape of Input(Y).".into(),
            ));
        }
        set(outs, 0, x);
        return Ok(());
    }
    let mut d = x.dims;
    let last = d
        .rank()
        .checked_sub(1)
        .ok_or_else(|| Bad("swiglu of a 0-d tensor".into()))?;
    let n = d.at(last)?;
    if n % 2 != 0 {
        return Err(Bad(
            "The last dim of Input(X) should be exactly divided by 2.".into(),
        ));
    }
    d.set(last, n / 2)?;
    set(outs, 0, x.with_dims(d));
    Ok(())
}

/// `AddPositionEncodingInferMeta` (x, alpha, beta).
pub(crate) fn add_position_encoding(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `CSoftmaxWithCrossEntropyInferMeta` (logits, label, ignore_index, rank,
/// nranks): dims only (float32), the loss with a last extent 1.
pub(crate) fn c_softmax_with_cross_entropy(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let logits = a.tensor(0)?;
    let label = a.tensor(1)?;
    let (ld, bd) = (logits.dims.as_slice(), label.dims.as_slice());
    let r = ld.len();
    if r == 0 || bd.len() < r {
        return Err(Bad("c_softmax_with_cross_entropy: bad ranks".into()));
    }
    for (&p, &q) in ld.iter().zip(bd).take(r - 1) {
        if p > 0 && q > 0 && p != q {
            return Err(Bad(
                "Input(Logits) and Input(Label) should in same shape in dimensions except axis."
                    .into(),
            ));
        }
    }
    if bd[r - 1] != 1 {
        return Err(Bad(format!(
            "the last dimension of Input(Label) should be 1.But received: the last dimension of Input(Label) is [{}],the last dimension is [{}]",
            bd[r - 1],
            r - 1
        )));
    }
    let mut loss = logits.dims;
    loss.set(r - 1, 1)?;
    set(outs, 0, with_lod(&logits, DataType::Float32, logits.dims));
    set(outs, 1, with_lod(&logits, DataType::Float32, loss));
    Ok(())
}

/// `FakeChannelWiseDequantizeMaxAbsInferMeta` (x, scales, quant_bits,
/// quant_axis, x_num_col_dims).
pub(crate) fn fake_channel_wise_dequantize_max_abs(
    a: &Args<'_>,
    outs: &mut [Out],
) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (axis, col) = (a.int(3)?, a.int(4)?);
    if !(axis == 0 || axis == 1) {
        return Err(Bad(format!(
            "'quant_axis' should be 0 or 1, but the received is {axis}"
        )));
    }
    if col == 0 {
        return Err(Bad(format!(
            "'x_num_col_dims' should be larger than 0, but the received is {col}"
        )));
    }
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `SetInferMeta` (x, dims, stride): the given dims, `x`'s type.
pub(crate) fn set_meta(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let dims = a.ints(1)?;
    set(outs, 0, Meta::new(x.dtype, dd(&dims)?));
    Ok(())
}
