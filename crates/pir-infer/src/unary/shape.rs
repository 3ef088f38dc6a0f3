//! InferMeta functions of `unary.cc` that compute a new shape from
//! attributes: windows (`fold`, `frame`, `overlap_add`), crops, reductions to
//! one value per row (`mode`, `nanmedian`), samplers and index lists.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

fn at(v: &[i64], i: usize, what: &str) -> Result<i64, Bad> {
    v.get(i)
        .copied()
        .ok_or_else(|| Bad(format!("`{what}` has too few elements")))
}

/// `CropInferMeta` (x, shape, offsets), built with `is_runtime = false`.
pub(crate) fn crop(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let shape = a.int_array(1)?.values;
    let offsets = a.int_array(2)?.values;
    let r = x.dims.rank();
    if shape.len() != r {
        return Err(Bad(format!(
            "The number of elements ({}) of attribute 'shape' for CropTensor must be equal to the number of dimensions ({r}) of the input.",
            shape.len()
        )));
    }
    if offsets.len() != r {
        return Err(Bad(format!(
            "The number of elements ({}) of attribute 'offsets' for CropTensor must be equal to the number of dimensions ({r}) of the input.",
            offsets.len()
        )));
    }
    let mut out = vec![-1; r];
    for (i, o) in out.iter_mut().enumerate() {
        let xi = x.dims.at(i)?;
        if xi == 0 {
            *o = 0;
        } else if shape[i] >= 0 {
            *o = shape[i];
        }
    }
    set(outs, 0, Meta::new(x.dtype, dd(&out)?));
    Ok(())
}

/// `FoldInferMeta` (x, output_sizes, kernel_sizes, strides, paddings,
/// dilations): `[N, C / (kh * kw), out_h, out_w]`.
pub(crate) fn fold(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (out_sz, k, s, p, d) = (a.ints(1)?, a.ints(2)?, a.ints(3)?, a.ints(4)?, a.ints(5)?);
    for (v, n, what) in [
        (&out_sz, 2, "output_size"),
        (&k, 2, "kernel_size"),
        (&s, 2, "strides_size"),
        (&p, 4, "paddings_size"),
        (&d, 2, "dilations_size"),
    ] {
        if v.len() != n {
            return Err(Bad(format!(
                "It is expected {what} equals to {n}, but got size {}",
                v.len()
            )));
        }
    }
    if k.iter().chain(&s).chain(&out_sz).chain(&d).any(|&v| v <= 0) {
        return Err(Bad(
            "The `kernel_sizes`, `strides`, `output_sizes` and `dilations` should be greater than zero.".into(),
        ));
    }
    let xd = x.dims.as_slice();
    if xd.len() < 3 {
        return Err(Bad(format!("fold input of rank {}", xd.len())));
    }
    let kk = k[0] * k[1];
    let blocks = |i: usize| (out_sz[i] + 2 * p[i] - (d[i] * (k[i] - 1) + 1)) / s[i] + 1;
    let (bh, bw) = (blocks(0), blocks(1));
    if bh <= 0 || bw <= 0 {
        return Err(Bad(
            "The sliding blocks calculated from input spatial size should be a positive integer."
                .into(),
        ));
    }
    if bh * bw != xd[2] {
        return Err(Bad(format!(
            "Given input output_size, which should be expected size of input's dimension 2 to match the calculated number of {bh} * {bw} = {}, but got {}",
            bh * bw,
            xd[2]
        )));
    }
    if xd[1] % kk != 0 {
        return Err(Bad(format!(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)={} and kernel_size=( {}, {}).",
            xd[1], k[0], k[1]
        )));
    }
    let dims = [xd[0], xd[1] / kk, out_sz[0], out_sz[1]];
    set(outs, 0, Meta::new(x.dtype, dd(&dims)?));
    Ok(())
}

/// `FrameInferMeta` (x, frame_length, hop_length, axis).
pub(crate) fn frame(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (frame_length, hop, axis) = (a.int(1)?, a.int(2)?, a.int(3)?);
    let xd = x.dims.as_slice();
    let r = xd.len();
    if r < 1 {
        return Err(Bad(format!(
            "Input(X) of FrameOp should be a tensor which contains at least 1 dimension, but got rank {r}."
        )));
    }
    if hop <= 0 {
        return Err(Bad(format!(
            "Attribute(hop_length) of FrameOp should be greater than 0, but got {hop}."
        )));
    }
    if !(axis == 0 || axis == -1) {
        return Err(Bad(format!(
            "Attribute(axis) of FrameOp should 0 or -1, but got {axis}."
        )));
    }
    let (seq, rest) = if axis == 0 {
        (xd[0], &xd[1..])
    } else {
        (xd[r - 1], &xd[..r - 1])
    };
    if !x.dims.has_unknown() && frame_length > seq {
        return Err(Bad(format!(
            "Attribute(frame_length) of FrameOp should be less equal than sequence length, but got ({frame_length}) > ({seq})."
        )));
    }
    let n = if seq == -1 {
        -1
    } else {
        1 + (seq - frame_length) / hop
    };
    let mut v = Vec::with_capacity(r + 1);
    if axis == 0 {
        v.extend([n, frame_length]);
        v.extend_from_slice(rest);
    } else {
        v.extend_from_slice(rest);
        v.extend([frame_length, n]);
    }
    set(outs, 0, Meta::new(x.dtype, dd(&v)?));
    Ok(())
}

/// `OverlapAddInferMeta` (x, hop_length, axis): the data type is never set
/// (the fresh `IrTensor`'s float32).
pub(crate) fn overlap_add(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (hop, axis) = (a.int(1)?, a.int(2)?);
    let xd = x.dims.as_slice();
    let r = xd.len();
    if r < 2 {
        return Err(Bad(format!(
            "Input(X) of OverlapAddOp should be a tensor which contains at least 2 dimensions, but got rank {r}."
        )));
    }
    if hop <= 0 {
        return Err(Bad(format!(
            "Attribute(hop_length) of OverlapAddOp should be greater than 0, but got {hop}."
        )));
    }
    if !(axis == 0 || axis == -1) {
        return Err(Bad(format!(
            "Attribute(axis) of OverlapAddOp should 0 or -1, but got {axis}."
        )));
    }
    let (n_frames, frame_length, rest) = if axis == 0 {
        (xd[0], xd[1], &xd[2..])
    } else {
        (xd[r - 1], xd[r - 2], &xd[..r - 2])
    };
    if !x.dims.has_unknown() && hop > frame_length {
        return Err(Bad(format!(
            "Attribute(hop_length) of OverlapAddOp should be less or equal than frame_length, but got hop_length({hop}) > frame_length({frame_length})."
        )));
    }
    let seq = if n_frames == -1 {
        -1
    } else {
        (n_frames - 1) * hop + frame_length
    };
    let mut v = Vec::with_capacity(r);
    if axis == 0 {
        v.push(seq);
        v.extend_from_slice(rest);
    } else {
        v.extend_from_slice(rest);
        v.push(seq);
    }
    set(outs, 0, Meta::new(DataType::Float32, dd(&v)?));
    Ok(())
}

/// `BatchSizeLikeInferMeta`: `shape` with the batch extent of `x`.
pub(crate) fn batch_size_like(
    x: &Meta,
    shape: &[i64],
    x_dim: i64,
    out_dim: i64,
) -> Result<DDim, Bad> {
    if shape.is_empty() {
        return Err(Bad(
            "Shape size must be larger than 0, but received: 0.".into()
        ));
    }
    if x_dim < 0 || x_dim as usize >= x.dims.rank() {
        return Err(Bad(format!(
            "Input dimension size must be larger than input dimension index, but received input dimension size: {}, input dimension index: {x_dim}.",
            x.dims.rank()
        )));
    }
    if out_dim < 0 || out_dim as usize >= shape.len() {
        return Err(Bad(format!(
            "Output dimension size must be larger than output dimension index, but received output dimension size: {}, output dimension index: {out_dim}.",
            shape.len()
        )));
    }
    let mut d = dd(shape)?;
    d.set(out_dim as usize, x.dims.at(x_dim as usize)?)?;
    Ok(d)
}

/// `FullBatchSizeLikeInferMeta` (input, shape, value, dtype, input_dim_idx,
/// output_dim_idx).
pub(crate) fn full_batch_size_like(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let shape = a.ints(1)?;
    let dtype = a.dtype(3)?;
    let d = batch_size_like(&x, &shape, a.int(4)?, a.int(5)?)?;
    set(outs, 0, Meta::new(dtype, d));
    Ok(())
}

/// `IdentityLossInferMeta` (x, reduction): `x`'s dims for `none` (2), else
/// a 0-d tensor.
pub(crate) fn identity_loss(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let dims = if a.int(1)? == 2 {
        x.dims
    } else {
        DDim::default()
    };
    set(outs, 0, Meta::new(x.dtype, dims));
    Ok(())
}

/// `IsEmptyInferMeta`: a 0-d bool.
pub(crate) fn is_empty(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    a.tensor(0)?;
    set(outs, 0, Meta::new(DataType::Bool, DDim::default()));
    Ok(())
}

/// `MaxOutInferMeta` (x, groups, axis): the channel axis divided by `groups`.
pub(crate) fn maxout(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (groups, mut axis) = (a.int(1)?, a.int(2)?);
    if groups <= 1 {
        return Err(Bad(format!(
            "Attr(groups) of Op(maxout) should be larger than 1. But received {groups}."
        )));
    }
    if !(axis == 1 || axis == -1 || axis == 3) {
        return Err(Bad(format!(
            "axis only supported 1, -1 or 3, but received axis is: {axis}."
        )));
    }
    if x.dims.rank() != 4 {
        return Err(Bad(format!(
            "x's dims should be 4, but received x's dims is: {}.",
            x.dims.rank()
        )));
    }
    if axis < 0 {
        axis += 4;
    }
    let mut d = x.dims;
    let c = d.at(axis as usize)?;
    if c % groups != 0 {
        return Err(Bad(format!(
            "The number of input channels for Op(maxout) should be divisible by Attr(groups). But received: the input's channels is [{c}], the Attr(groups) is [{groups}]."
        )));
    }
    d.set(axis as usize, c / groups)?;
    set(outs, 0, Meta::new(x.dtype, d));
    Ok(())
}

/// `ModeInferMeta` (x, axis, keepdim): values and int64 indices.
pub(crate) fn mode(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (mut axis, keepdim) = (a.int(1)?, a.bool(2)?);
    let n = x.dims.rank() as i64;
    // Paddle's bound is `axis <= rank` here, not `<`.
    if axis > n || (n > 0 && axis < -n) {
        return Err(Bad(format!(
            "the axis must be [-{n}, {n}), but received {axis} ."
        )));
    }
    if axis < 0 {
        axis += n;
        if n != 0 && axis < 0 {
            return Err(Bad(format!(
                "the axis must be [-{n}, {n}), but received {} .",
                axis - n
            )));
        }
    }
    let xd = x.dims.as_slice();
    let mut v = Vec::with_capacity(xd.len());
    for i in 0..axis.max(0) {
        v.push(at(xd, i as usize, "x")?);
    }
    if keepdim && n > 0 {
        v.push(1);
    }
    for i in (axis + 1).max(0)..n {
        v.push(xd[i as usize]);
    }
    let d = dd(&v)?;
    set(outs, 0, with_lod(&x, x.dtype, d));
    set(outs, 1, with_lod(&x, DataType::Int64, d));
    Ok(())
}

/// `MultinomialInferMeta` (x, num_samples, replacement), built with
/// `is_runtime = false`: a sample count from a tensor is unknown.
pub(crate) fn multinomial(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let n = a.scalar(1)?;
    let r = x.dims.rank();
    if r == 0 || r > 2 {
        return Err(Bad(format!(
            "The number of dimensions of the input probability distribution should be > 0 and <= 2, but got {r}."
        )));
    }
    let mut v = x.dims.as_slice()[..r - 1].to_vec();
    if n.from_tensor {
        v.push(-1);
    } else {
        let k = n.value as i64;
        if k <= 0 {
            return Err(Bad(format!(
                "The number of samples should be > 0, but got {k}."
            )));
        }
        v.push(k);
    }
    set(outs, 0, Meta::new(DataType::Int64, dd(&v)?));
    Ok(())
}

/// `NanmedianInferMeta` (x, axis, keepdim, mode): the medians and their
/// int64 indices (two per value for `avg`).
pub(crate) fn nanmedian(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axes = a.int_array(1)?.values;
    let (keepdim, mode) = (a.bool(2)?, a.str(3)?);
    let xd = x.dims.as_slice();
    let r = xd.len() as i64;
    let mut out = Vec::new();
    if axes.is_empty() {
        if keepdim {
            out = vec![1; xd.len()];
        }
    } else {
        let mut formatted = Vec::with_capacity(axes.len());
        for &ax in &axes {
            if r == 0 {
                if !(ax == 0 || ax == -1) {
                    return Err(Bad(
                        "When input 0D Tensor, each element of the axis can only be -1, 0, None"
                            .into(),
                    ));
                }
            } else if ax >= r || ax < -r {
                return Err(Bad(format!(
                    "each element of the axis should be in the range [ -dimension(X), dimension(X) ) which dimension = {r}. But received axis = {ax}."
                )));
            }
            let ax = if ax < 0 { ax + r } else { ax };
            if formatted.contains(&ax) {
                return Err(Bad(format!("Attr(axes) has duplicated elements: {ax}.")));
            }
            formatted.push(ax);
        }
        for (i, &d) in xd.iter().enumerate() {
            if !formatted.contains(&(i as i64)) {
                out.push(d);
            } else if keepdim {
                out.push(1);
            }
        }
    }
    set(outs, 0, Meta::new(x.dtype, dd(&out)?));
    if mode == "avg" {
        out.push(2);
    }
    set(outs, 1, Meta::new(DataType::Int64, dd(&out)?));
    Ok(())
}

/// `NMSInferMeta` (x, threshold): `[-1]` int64.
pub(crate) fn nms(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    if x.dims.rank() != 2 {
        return Err(Bad(
            "The Input Boxes must be 2-dimension whose shape must be [N, 4]".into(),
        ));
    }
    set(outs, 0, Meta::new(DataType::Int64, dd(&[-1])?));
    Ok(())
}

fn nonzero_rank(x: &Meta) -> Result<i64, Bad> {
    let r = x.dims.rank();
    if r < 1 {
        return Err(Bad(
            "Input(Condition) should have number of dimension at least 1".into(),
        ));
    }
    Ok(r as i64)
}

/// `NonZeroInferMeta` (condition): `[-1, rank]` int64 (`[0, rank]` when
/// empty).
pub(crate) fn nonzero(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let r = nonzero_rank(&x)?;
    let n = if x.dims.product() == 0 { 0 } else { -1 };
    set(outs, 0, Meta::new(DataType::Int64, dd(&[n, r])?));
    Ok(())
}

/// `FractionalMaxPoolInferMeta` (x, output_size, kernel_size, random_u,
/// return_mask): `[N, C, output_size...]` and an int32 mask.
pub(crate) fn fractional_max_pool(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let size = a.ints(1)?;
    let xd = x.dims.as_slice();
    if !(xd.len() == 4 || xd.len() == 5) {
        return Err(Bad(format!(
            "Pooling input should be 4-D or 5-D tensor but received {}D-Tensor",
            xd.len()
        )));
    }
    if xd.len() != size.len() + 2 {
        return Err(Bad(format!(
            "The input size {} minus the output size {} should equal to 2.",
            xd.len(),
            size.len()
        )));
    }
    let mut v = vec![xd[0], xd[1]];
    v.extend_from_slice(&size);
    let d = dd(&v)?;
    set(outs, 0, Meta::new(x.dtype, d));
    set(outs, 1, Meta::new(DataType::Int32, d));
    Ok(())
}

/// `GumbelSoftmaxInferMeta` (x, temperature, hard, axis):
/// `UnchangedInferMetaCheckAxis` on `axis`.
pub(crate) fn gumbel_softmax(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.int(3)?;
    let r = x.dims.rank() as i64;
    if r > 0 && (axis < -r || axis >= r) {
        return Err(Bad(format!(
            "Attr(axis) value should be in range [-R, R-1], R is the rank of Input(X). But received axis: {axis}, R: {r}."
        )));
    }
    set(outs, 0, x);
    Ok(())
}

/// `SequenceMaskScalarInferMeta` (x, max_len, out_dtype): a trailing extent
/// of `max_len` when positive (a length from a tensor is unknown).
pub(crate) fn sequence_mask(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let n = a.scalar(1)?;
    let dtype = a.dtype(2)?;
    let k = n.value as i64;
    let mut d = x.dims;
    d.push(if !n.from_tensor && k > 0 { k } else { -1 })?;
    set(outs, 0, Meta::new(dtype, d));
    Ok(())
}
