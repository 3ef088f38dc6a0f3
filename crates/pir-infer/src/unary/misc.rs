//! More InferMeta functions of `unary.cc`: padding, pixel and channel
//! shuffles, repeats, norms, random fills and quantization.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::shape::batch_size_like;
use crate::unary::{dd, reduce_dim, set};
use crate::Bad;

/// `PadInferMeta` (x, paddings, pad_value), built with `is_runtime = false`:
/// an unknown extent stays unknown; LoD passes when the first extent is kept.
pub(crate) fn pad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let p = a.ints(1)?;
    let xd = x.dims.as_slice();
    if p.len() != xd.len() * 2 {
        return Err(Bad(format!(
            "Size of 'paddings' dimension should be equal to 2 * size of Input(X)'s dimension, but received (size of 'paddings' dimension is) {} vs (2 * size of Input(X)'s dimension is) {}.",
            p.len(),
            xd.len() * 2
        )));
    }
    if let Some((i, v)) = p.iter().enumerate().find(|(_, &v)| v < 0) {
        return Err(Bad(format!(
            "The element of 'paddings' should >= 0, but received {v} for index {i}."
        )));
    }
    let out: Vec<i64> = xd
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            if d == -1 {
                -1
            } else {
                d + p[2 * i] + p[2 * i + 1]
            }
        })
        .collect();
    let d = dd(&out)?;
    let keep_lod = out.first() == xd.first();
    let m = if keep_lod {
        with_lod(&x, x.dtype, d)
    } else {
        Meta::new(x.dtype, d)
    };
    set(outs, 0, m);
    Ok(())
}

/// `-1` stays `-1` (`HandleDynamicDim`).
fn dynamic(d: i64, v: i64) -> i64 {
    if d == -1 {
        -1
    } else {
        v
    }
}

fn rank4(x: &Meta) -> Result<[i64; 4], Bad> {
    match *x.dims.as_slice() {
        [n, c, h, w] => Ok([n, c, h, w]),
        _ => Err(Bad(format!(
            "Input should be a 4-D tensor of format [N, C, H, W] or [N, H, W, C], but got {}.",
            x.dims.rank()
        ))),
    }
}

/// `PixelShuffleInferMeta` (x, upscale_factor, data_format).
pub(crate) fn pixel_shuffle(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let f = a.int(1)?;
    let last = a.str(2)? == "NHWC";
    let d = rank4(&x)?;
    if f == 0 {
        return Err(Bad("upscale_factor should not be 0.".into()));
    }
    let c = if last { d[3] } else { d[1] };
    if c % (f * f) != 0 {
        return Err(Bad(format!(
            "The square of upscale_factor[{}] should divide the number of channel[{c}]",
            f * f
        )));
    }
    let o = if last {
        [
            d[0],
            dynamic(d[1], d[1] * f),
            dynamic(d[2], d[2] * f),
            dynamic(d[3], d[3] / (f * f)),
        ]
    } else {
        [
            d[0],
            dynamic(d[1], d[1] / (f * f)),
            dynamic(d[2], d[2] * f),
            dynamic(d[3], d[3] * f),
        ]
    };
    set(outs, 0, Meta::new(x.dtype, dd(&o)?));
    Ok(())
}

/// `PixelUnshuffleInferMeta` (x, downscale_factor, data_format).
pub(crate) fn pixel_unshuffle(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let f = a.int(1)?;
    let format = a.str(2)?;
    let d = rank4(&x)?;
    if f < 1 {
        return Err(Bad("downscale_factor should be larger than 0.".into()));
    }
    if !(format == "NCHW" || format == "NHWC") {
        return Err(Bad(format!(
            "data_format must be one of NCHW and NHWC. But received data_format: {format}"
        )));
    }
    let last = format == "NHWC";
    let (h, w) = if last { (d[1], d[2]) } else { (d[2], d[3]) };
    if h % f != 0 || w % f != 0 {
        return Err(Bad(format!(
            "Downscale factor[{f}] should divide both height[{h}] and width[{w}]"
        )));
    }
    let o = if last {
        [
            d[0],
            dynamic(d[1], d[1] / f),
            dynamic(d[2], d[2] / f),
            dynamic(d[3], d[3] * (f * f)),
        ]
    } else {
        [
            d[0],
            dynamic(d[1], d[1] * (f * f)),
            dynamic(d[2], d[2] / f),
            dynamic(d[3], d[3] / f),
        ]
    };
    set(outs, 0, Meta::new(x.dtype, dd(&o)?));
    Ok(())
}

/// `ChannelShuffleInferMeta` (x, groups, data_format).
pub(crate) fn channel_shuffle(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let groups = a.int(1)?;
    let format = a.str(2)?;
    let d = rank4(&x)?;
    if groups < 1 {
        return Err(Bad("groups should be larger than 0.".into()));
    }
    if !(format == "NCHW" || format == "NHWC") {
        return Err(Bad(format!(
            "data_format must be one of NCHW and NHWC. But received data_format: {format}"
        )));
    }
    let c = if format == "NHWC" { d[3] } else { d[1] };
    if c % groups != 0 {
        return Err(Bad(format!(
            "The number of groups to divide channels in [{groups}] should divide the number of channel [{c}]"
        )));
    }
    set(outs, 0, Meta::new(x.dtype, x.dims));
    Ok(())
}

fn check_dim(x: &Meta, dim: i64) -> Result<usize, Bad> {
    let r = x.dims.rank() as i64;
    if dim >= r || dim < -r {
        return Err(Bad(format!(
            "Attr(dim) is out of range, It's expected to be in range of [{}, {}]. But received Attr(dim) = {dim}.",
            -r,
            r - 1
        )));
    }
    Ok(if dim < 0 { dim + r } else { dim } as usize)
}

/// `RepeatInterleaveInferMeta` (x, repeats, axis, output_size): a positive
/// `output_size` gives the extent.
pub(crate) fn repeat_interleave(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let repeats = a.int(1)?;
    let ax = check_dim(&x, a.int(2)?)?;
    let output_size = a.int(3)?;
    if repeats <= 0 {
        return Err(Bad("repeats should be larger than zero".into()));
    }
    let mut d = x.dims;
    let n = d.at(ax)?;
    if output_size > 0 {
        d.set(ax, output_size)?;
    } else if n != -1 {
        d.set(ax, n * repeats)?;
    }
    set(outs, 0, with_lod(&x, x.dtype, d));
    Ok(())
}

/// `RepeatInterleaveWithTensorIndexInferMeta` (x, repeats, axis,
/// output_size): the extent is `output_size` when positive, else unknown.
pub(crate) fn repeat_interleave_with_tensor_index(
    a: &Args<'_>,
    outs: &mut [Out],
) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let repeats = a.tensor(1)?;
    let ax = check_dim(&x, a.int(2)?)?;
    let output_size = a.int(3)?;
    let rd = repeats.dims.as_slice();
    if !(rd.len() == 1 || (rd.len() == 2 && rd[1] == 1)) {
        return Err(Bad(format!(
            "The 'shape' of Input(RepeatsTensor) must be 1-D tensor. But received: the 'shape' of Input(Index) is {rd:?}, the dimension of Input(Index) is [{}].",
            rd.len()
        )));
    }
    if rd[0] == 0 {
        return Err(Bad("The length of Input(RepeatsTensor) can't be 0.".into()));
    }
    let mut d = x.dims;
    d.set(ax, if output_size > 0 { output_size } else { -1 })?;
    set(outs, 0, with_lod(&x, x.dtype, d));
    Ok(())
}

/// `RReluInferMeta` (x, lower, upper, is_test): the output and the noise.
pub(crate) fn rrelu(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (lower, upper) = (a.scalar(1)?.value, a.scalar(2)?.value);
    if lower < 0.0 {
        return Err(Bad(format!(
            "The lower value should be greater than or equal to 0. But received lower value = {lower}."
        )));
    }
    if upper > 1.0 {
        return Err(Bad(format!(
            "The upper value should be less than or equal to 1. But received upper value = {upper}."
        )));
    }
    if upper < lower {
        return Err(Bad(format!(
            "The upper value should be greater than or equal to lower value But received upper value = {upper}, lower value = {lower}."
        )));
    }
    set(outs, 0, x.with_dims(x.dims));
    set(outs, 1, Meta::laid_out(x.dtype, x.dims, x.layout));
    Ok(())
}

/// `set_dims(x)` and `set_dtype(x)` on a fresh output (`ShareDataInferMeta`,
/// `UniformRandomInplaceInferMeta` after its checks).
pub(crate) fn dims_dtype_of(x: &Meta) -> Meta {
    Meta::new(x.dtype, x.dims)
}

/// `ShareDataInferMeta` (x).
pub(crate) fn share_data(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, dims_dtype_of(&x));
    Ok(())
}

/// `UniformRandomInplaceInferMeta` (x, min, max, seed, diag_num, diag_step,
/// diag_val).
pub(crate) fn uniform_inplace(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (min, max) = (a.scalar(1)?.value, a.scalar(2)?.value);
    let (diag_num, diag_step) = (a.int(4)?, a.int(5)?);
    if min >= max {
        return Err(Bad(format!(
            "The uniform_random's min must less then max. But received min = {min} great than or equal max = {max}."
        )));
    }
    if diag_num < 0 || diag_step < 0 {
        return Err(Bad(
            "The uniform_random's diag_num and diag_step must greater than or equal 0.".into(),
        ));
    }
    set(outs, 0, dims_dtype_of(&x));
    Ok(())
}

/// `UniformRandomBatchSizeLikeInferMeta` (input, shape, input_dim_idx,
/// output_dim_idx, ..., dtype).
pub(crate) fn uniform_random_batch_size_like(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let shape = a.ints(1)?;
    let d = batch_size_like(&x, &shape, a.int(2)?, a.int(3)?)?;
    set(outs, 0, Meta::new(a.dtype(10)?, d));
    Ok(())
}

/// `ShardIndexInferMeta` (input, index_num, nshards, shard_id, ignore_value).
pub(crate) fn shard_index(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let d = x.dims.as_slice();
    if d.len() < 2 {
        return Err(Bad(format!(
            "Rank of Input(X) should be at least 2, but the value given is {}.",
            d.len()
        )));
    }
    let last = d[d.len() - 1];
    if last > 0 && last != 1 {
        return Err(Bad(format!(
            "The last dimension of Input(X) should be 1, but the value given is {last}."
        )));
    }
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `SequenceSoftmaxInferMeta` (x): dims and LoD only (float32).
pub(crate) fn sequence_softmax(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, with_lod(&x, DataType::Float32, x.dims));
    Ok(())
}

/// `L1NormInferMeta` (x): a 0-d tensor.
pub(crate) fn l1_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::new(x.dtype, DDim::default()));
    Ok(())
}

/// `SquaredL2NormInferMeta` (x): `[1]`.
pub(crate) fn squared_l2_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::new(x.dtype, dd(&[1])?));
    Ok(())
}

/// `CheckNumericsInferMeta`: int64 stats `[3]` and float32 values `[3]`.
pub(crate) fn check_numerics(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    a.tensor(0)?;
    set(outs, 0, Meta::new(DataType::Int64, dd(&[3])?));
    set(outs, 1, Meta::new(DataType::Float32, dd(&[3])?));
    Ok(())
}

/// `TemporalShiftInferMeta` (x, seg_num, shift_ratio, data_format):
/// `share_meta(x)` after the checks.
pub(crate) fn temporal_shift(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let seg = a.int(1)?;
    let ratio = a.scalar(2)?.value;
    if x.dims.rank() != 4 {
        return Err(Bad(format!(
            "Input(X) rank should be 4 in shape of [N*T, C, H, W], but received X rank({})",
            x.dims.rank()
        )));
    }
    if seg <= 0 {
        return Err(Bad(format!(
            "Attr(seg_num) should be greater than 0, but received {seg}"
        )));
    }
    if !(ratio > 0.0 && ratio < 0.5) {
        return Err(Bad(format!(
            "Attr(shift_ratio) should be in (0, 0.5), but received {ratio}"
        )));
    }
    set(outs, 0, x);
    Ok(())
}

/// `funcs::CalcOutputSize`, an unknown input extent staying unknown.
fn calc_output_size(input: i64, k: i64, dilation: i64, p1: i64, p2: i64, stride: i64) -> i64 {
    if input == -1 {
        return -1;
    }
    (input + p1 + p2 - (dilation * (k - 1) + 1)) / stride + 1
}

/// `UnfoldInferMeta` (x, kernel_sizes, strides, paddings, dilations), built
/// with `is_runtime = false`: `[N, C * kh * kw, blocks]`.
pub(crate) fn unfold(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (k, s, p, dl) = (a.ints(1)?, a.ints(2)?, a.ints(3)?, a.ints(4)?);
    let d = x.dims.as_slice();
    if d.len() != 4 {
        return Err(Bad(format!(
            "Input should be 4-D tensor of format [N, C, H, W], but get {}",
            d.len()
        )));
    }
    if k.len() != 2 || s.len() != k.len() || p.len() != 2 * s.len() || dl.len() != s.len() {
        return Err(Bad(
            "The dims of kernel_sizes, strides, dilations should be 2 and of paddings 4.".into(),
        ));
    }
    if k.iter().chain(&s).chain(&dl).any(|&v| v <= 0) {
        return Err(Bad(
            "The `kernel_sizes`, `strides` and `dilations` should be greater than zero.".into(),
        ));
    }
    let c = if d[1] < 0 { -1 } else { d[1] * k[0] * k[1] };
    let h = calc_output_size(d[2], k[0], dl[0], p[0], p[2], s[0]);
    let w = calc_output_size(d[3], k[1], dl[1], p[1], p[3], s[1]);
    let l = if h == -1 || w == -1 { -1 } else { h * w };
    set(outs, 0, Meta::new(x.dtype, dd(&[d[0], c, l])?));
    Ok(())
}

/// `WeightQuantizeInferMeta` (x, algo, arch, group_size): int8 weights and
/// scales of `x`'s type.
pub(crate) fn weight_quantize(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let algo = a.str(1)?;
    let group_size = a.int(3)?;
    let d = x.dims.as_slice();
    if d.len() != 2 {
        return Err(Bad(format!(
            "The x tensor of quant op must be 2D, but got[{}]",
            d.len()
        )));
    }
    let div = if algo == "w4a8" { 32 } else { 64 };
    if d[0] % div != 0 {
        return Err(Bad(format!(
            "The first dimension of input must be divisible by {div}, but got[{}]",
            d[0]
        )));
    }
    if d[1] % 16 != 0 {
        return Err(Bad(format!(
            "The second dimension of input must be divisible by 16, but got[{}]",
            d[1]
        )));
    }
    if !(group_size == -1 || group_size == 64 || group_size == 128) {
        return Err(Bad(
            "Currently, group_size only support -1, 64 or 128.".into()
        ));
    }
    let scale = if group_size != -1 {
        vec![(d[0] + (group_size - 1)) / group_size, d[1]]
    } else {
        vec![d[1]]
    };
    let out = match algo {
        "weight_only_int8" | "llm.int8" => vec![d[1], d[0]],
        "weight_only_int4" => vec![d[1] / 2, d[0]],
        "w4a8" => d.to_vec(),
        _ => {
            return Err(Bad(format!(
                "The algo must be in ['weight_only_int8', 'weight_only_int4', 'llm.int8', 'w4a8'], but got[{algo}]"
            )))
        }
    };
    set(outs, 0, Meta::new(DataType::Int8, dd(&out)?));
    set(outs, 1, Meta::new(x.dtype, dd(&scale)?));
    Ok(())
}

/// `ViewSliceInferMeta` (input, begin_idx, end_idx): rows `[begin, end)`.
pub(crate) fn view_slice(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (begin, end) = (a.int(1)?, a.int(2)?);
    let n = x.dims.at(0)?;
    if begin < 0 {
        return Err(Bad("The start row index must be greater than 0.".into()));
    }
    if end > n {
        return Err(Bad("The end row index is out of bound.".into()));
    }
    if begin >= end {
        return Err(Bad(format!(
            "The start row index must be less than the end row index.But received the start index = {begin}, the end index = {end}."
        )));
    }
    let mut d = x.dims;
    d.set(0, end - begin)?;
    set(outs, 0, Meta::new(x.dtype, d));
    Ok(())
}

/// `StdInferMeta`, `VarInferMeta` (x, axis, keepdim, ...): a reduction over
/// `axis` (all axes when empty).
pub(crate) fn std_var(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.ints(1)?;
    let keep = a.bool(2)?;
    let r = x.dims.rank() as i64;
    if let Some(&bad) = axis.iter().find(|&&v| r > 0 && (v >= r || v < -r)) {
        return Err(Bad(format!(
            "The reduce dim index should be in the range [ -dimension(X), dimension(X) ) which dimension = {r}. But received dim index = {bad}."
        )));
    }
    let d = reduce_dim(&x.dims, &axis, keep, axis.is_empty())?;
    set(outs, 0, Meta::laid_out(x.dtype, d, x.layout));
    Ok(())
}
