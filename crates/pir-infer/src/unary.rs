//! InferMeta functions of one tensor (Paddle's `infermeta/unary.cc`).

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{norm_axis, with_lod, DDim, Meta, Out};
use crate::Bad;

/// Stores `meta` as result `i` (results Paddle passes as null stay unset).
pub(crate) fn set(outs: &mut [Out], i: usize, meta: Meta) {
    if let Some(o) = outs.get_mut(i) {
        *o = Out::Tensor(meta);
    }
}

/// Stores `list` as list result `i` (a `VectorType` result).
pub(crate) fn set_list(outs: &mut [Out], i: usize, list: Vec<Meta>) {
    if let Some(o) = outs.get_mut(i) {
        *o = Out::List(list);
    }
}

/// A tensor with `dims` and the data type, layout and LoD of `x`
/// (`set_dims` + `share_meta` minus dims).
pub(crate) fn like(x: &Meta, dims: DDim) -> Meta {
    x.with_dims(dims)
}

/// A tensor with `dims`, the data type of `x`, default layout and no LoD.
pub(crate) fn plain(x: &Meta, dims: DDim) -> Meta {
    Meta::new(x.dtype, dims)
}

pub(crate) fn dd(v: &[i64]) -> Result<DDim, Bad> {
    DDim::new(v)
}

/// `UnchangedInferMeta` and friends: `out->share_meta(x)`.
pub(crate) fn unchanged(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, x);
    Ok(())
}

/// `UnchangedInferMetaCheckAxis`: checks the axis, shares the meta.
pub(crate) fn unchanged_check_axis(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.int(1)?;
    if x.dims.rank() > 0 {
        norm_axis(axis, x.dims.rank())?;
    }
    set(outs, 0, x);
    Ok(())
}

/// `CastInferMeta`.
pub(crate) fn cast(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let dtype = a.dtype(1)?;
    set(outs, 0, Meta { dtype, ..x });
    Ok(())
}

/// `CreateLikeInferMeta` (`full_like`).
pub(crate) fn create_like(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let d = a.dtype(1)?;
    let dtype = if d == DataType::Undefined { x.dtype } else { d };
    set(outs, 0, Meta::laid_out(dtype, x.dims, x.layout));
    Ok(())
}

/// `RealAndImagInferMeta` (`abs`, `real`, `imag`, `angle`).
pub(crate) fn real_and_imag(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let dtype = to_real(x.dtype);
    set(outs, 0, Meta::laid_out(dtype, x.dims, x.layout));
    Ok(())
}

pub(crate) fn to_real(d: DataType) -> DataType {
    match d {
        DataType::Complex64 => DataType::Float32,
        DataType::Complex128 => DataType::Float64,
        d => d,
    }
}

/// `IsfiniteInferMeta`, `LogicalNotInferMeta`: a bool tensor of `x`'s dims.
pub(crate) fn bool_like(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(
        outs,
        0,
        Meta {
            dtype: DataType::Bool,
            dims: x.dims,
            layout: x.layout,
            lod: x.lod,
        },
    );
    Ok(())
}

/// `LogicalNotInferMeta`: `UnaryInferMeta` then bool.
pub(crate) fn logical_not(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(
        outs,
        0,
        Meta {
            dtype: DataType::Bool,
            ..x
        },
    );
    Ok(())
}

/// The dims of a reduction (`ReduceInferDim`).
pub(crate) fn reduce_dim(
    x: &DDim,
    axis: &[i64],
    keep_dim: bool,
    reduce_all: bool,
) -> Result<DDim, Bad> {
    let rank = x.rank() as i64;
    let formatted: Vec<i64> = axis
        .iter()
        .map(|&a| if a < 0 { a + rank } else { a })
        .collect();
    let full_dim = (0..rank).all(|i| formatted.contains(&i));
    let reduce_all = reduce_all || full_dim || axis.is_empty();
    let mut out = DDim::default();
    for i in 0..rank {
        if reduce_all || formatted.contains(&i) {
            if keep_dim {
                out.push(1)?;
            }
        } else {
            out.push(x.at(i as usize)?)?;
        }
    }
    Ok(out)
}

/// `ReduceInferDimForIntArrayAxis`: the axis values are unknown.
fn reduce_dim_unknown_axis(
    x: &DDim,
    n_axis: usize,
    keep_dim: bool,
    reduce_all: bool,
) -> Result<DDim, Bad> {
    let r = x.rank();
    if reduce_all {
        return dd(&if keep_dim { vec![1; r] } else { vec![] });
    }
    if keep_dim {
        return dd(&vec![-1; r]);
    }
    if n_axis > r {
        return dd(&[-1]);
    }
    dd(&vec![-1; r - n_axis])
}

fn reduce_out(x: &Meta, dims: DDim, dtype: DataType) -> Meta {
    Meta::laid_out(dtype, dims, x.layout)
}

/// `ReduceInferMeta` (`all`, `any`, `amax`, `amin`): attribute axes.
pub(crate) fn reduce(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.ints(1)?;
    let keep = a.bool(2)?;
    let dims = reduce_dim(&x.dims, &axis, keep, axis.is_empty())?;
    set(outs, 0, reduce_out(&x, dims, x.dtype));
    Ok(())
}

/// `ReduceIntArrayAxisInferMetaBase` with `reduce_all` (`prod`, `frobenius_norm`);
/// without it (`mean`, `max`, `min`) `reduce_all` is "no axes".
fn reduce_int_array(
    a: &Args<'_>,
    outs: &mut [Out],
    has_reduce_all: bool,
    runtime: bool,
) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.int_array(1)?;
    let keep = a.bool(2)?;
    let reduce_all = if has_reduce_all { a.bool(3)? } else { false } || axis.values.is_empty();
    let dims = if runtime || !axis.from_tensor {
        reduce_dim(&x.dims, &axis.values, keep, reduce_all)?
    } else {
        reduce_dim_unknown_axis(&x.dims, axis.values.len(), keep, reduce_all)?
    };
    set(outs, 0, reduce_out(&x, dims, x.dtype));
    Ok(())
}

/// `ReduceIntArrayAxisInferMeta` (built with `is_runtime = false`).
pub(crate) fn reduce_int_array_axis(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    reduce_int_array(a, outs, false, false)
}

/// `StrictReduceIntArrayAxisInferMeta` (`max`, `min`; built with
/// `is_runtime = false`: axes from a tensor give unknown dims).
pub(crate) fn strict_reduce_int_array_axis(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    reduce_int_array(a, outs, false, false)
}

/// `ReduceIntArrayAxisInferMetaBase`: `prod` is built with
/// `is_runtime = false` (axes from a tensor give unknown dims), while
/// `frobenius_norm`'s builder reduces the `-1` placeholders of such axes as
/// if they were values (checked against Paddle 3.3.1).
pub(crate) fn reduce_int_array_axis_base(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let runtime = a.def.name == "pd_op.frobenius_norm";
    reduce_int_array(a, outs, true, runtime)
}

/// `SumInferMeta` (built with `is_runtime = false`).
pub(crate) fn sum(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.int_array(1)?;
    let dtype = a.dtype(2)?;
    let keep = a.bool(3)?;
    let reduce_all = axis.values.is_empty();
    let dims = if !axis.from_tensor {
        reduce_dim(&x.dims, &axis.values, keep, reduce_all)?
    } else {
        reduce_dim_unknown_axis(&x.dims, axis.values.len(), keep, reduce_all)?
    };
    let out_dtype = if dtype != DataType::Undefined {
        dtype
    } else if matches!(x.dtype, DataType::Bool | DataType::Int32) {
        DataType::Int64
    } else {
        x.dtype
    };
    set(outs, 0, reduce_out(&x, dims, out_dtype));
    Ok(())
}

/// `MeanAllInferMeta`: a 0-d tensor.
pub(crate) fn mean_all(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::laid_out(x.dtype, DDim::default(), x.layout));
    Ok(())
}

/// `ArgMinMaxInferMeta` (default config: runtime).
pub(crate) fn arg_min_max(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.scalar(1)?.value as i64;
    let keep = a.bool(2)?;
    let flatten = a.bool(3)?;
    let dtype = a.dtype(4)?;
    let r = x.dims.rank();
    let mut out = DDim::default();
    if flatten {
        if keep {
            out = dd(&vec![1; r])?;
        }
    } else {
        let ax = if r == 0 { 0 } else { norm_axis(axis, r)? };
        for i in 0..r {
            if i == ax {
                if keep {
                    out.push(1)?;
                }
            } else {
                out.push(x.dims.at(i)?)?;
            }
        }
    }
    let dtype = match dtype {
        DataType::Int32 | DataType::Int64 => dtype,
        _ => DataType::Undefined,
    };
    set(outs, 0, Meta::new(dtype, out));
    Ok(())
}

/// `ArgsortInferMeta`: values like `x`, int64 indices.
pub(crate) fn argsort(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    set(outs, 1, with_lod(&x, DataType::Int64, x.dims));
    Ok(())
}

/// `TransposeInferMeta`.
pub(crate) fn transpose(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let perm = a.ints(1)?;
    let r = x.dims.rank();
    let mut out = DDim::default();
    for &p in &perm {
        out.push(x.dims.at(norm_axis(p, r)?)?)?;
    }
    set(outs, 0, Meta::laid_out(x.dtype, out, x.layout));
    Ok(())
}

/// `ValidateShape` of `ReshapeInferMeta`: `0` copies, one `-1` is inferred.
fn reshape_dims(x: &DDim, shape: &[i64]) -> Result<DDim, Bad> {
    let in_size = x.product();
    // Paddle checks sizes only when every dim of x is known (a product of
    // two unknown dims would look known).
    let all_positive = x.as_slice().iter().all(|&d| d > 0);
    let mut out = DDim::default();
    let mut unk: Option<usize> = None;
    let mut capacity: i64 = 1;
    for (i, &s) in shape.iter().enumerate() {
        if s == -1 {
            if unk.is_some() {
                return Err(Bad("only one dim of the shape may be -1".into()));
            }
            unk = Some(i);
            out.push(-1)?;
        } else if s == 0 {
            let d = x.at(i)?;
            out.push(d)?;
            capacity *= d;
        } else {
            out.push(s)?;
            capacity *= s;
        }
    }
    if let Some(u) = unk {
        if all_positive {
            if capacity == 0 {
                return Err(Bad("cannot infer -1 with a zero-sized shape".into()));
            }
            if in_size % capacity != 0 {
                return Err(Bad(format!(
                    "x's size {in_size} ({:?}) is not divisible by the known capacity {capacity} of the shape {shape:?}",
                    x.as_slice()
                )));
            }
            out.set(u, in_size / capacity)?;
        } else {
            out.set(u, -1)?;
        }
    } else if all_positive && capacity != in_size {
        return Err(Bad(format!(
            "x's size {in_size} ({:?}) differs from the capacity {capacity} of the shape {shape:?}",
            x.as_slice()
        )));
    }
    Ok(out)
}

/// `ReshapeInferMeta`.
pub(crate) fn reshape(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let shape = a.int_array(1)?;
    let dims = if shape.from_tensor {
        // Built with `is_runtime = false`: the values stay as given (a `-1`
        // is not inferred, nothing is checked) except that a 0 copies x's dim.
        let mut d = DDim::default();
        for (i, &s) in shape.values.iter().enumerate() {
            d.push(if s == 0 {
                x.dims.at(i).map_err(|_| {
                    Bad(format!(
                        "The index of 0 in `shape` must be less than the input tensor X's dimensions. But received shape[{i}] = 0, X's dimensions = {}, X's shape = [{}].",
                        x.dims.rank(),
                        x.dims
                            .as_slice()
                            .iter()
                            .map(i64::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?
            } else {
                s
            })?;
        }
        d
    } else {
        reshape_dims(&x.dims, &shape.values)?
    };
    let mut out = x.with_dims(dims);
    if x.dims.as_slice().first() == dims.as_slice().first() {
        out.lod = x.lod.clone();
    }
    set(outs, 0, out);
    Ok(())
}

/// `FlattenInferMeta`.
pub(crate) fn flatten(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let r = x.dims.rank();
    let (mut start, mut stop) = (a.int(1)?, a.int(2)?);
    if r == 0 {
        set(outs, 0, like(&x, dd(&[1])?));
        return Ok(());
    }
    if start < 0 {
        start += r as i64;
    }
    if stop < 0 {
        stop += r as i64;
    }
    let (start, stop) = (start as usize, stop as usize);
    let mut out = DDim::default();
    for i in 0..start {
        out.push(x.dims.at(i)?)?;
    }
    let mut prod = 1i64;
    for i in start..=stop {
        let d = x.dims.at(i)?;
        if d == -1 {
            prod = -1;
            break;
        }
        prod *= d;
    }
    out.push(prod)?;
    for i in stop + 1..r {
        out.push(x.dims.at(i)?)?;
    }
    let mut m = like(&x, out);
    if x.dims.as_slice().first() != out.as_slice().first() {
        m.lod = Box::new([]);
    }
    set(outs, 0, m);
    Ok(())
}

/// `UnsqueezeInferMeta` (`GetUnsqueezeShape`).
pub(crate) fn unsqueeze(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axes = a.int_array(1)?;
    let out = if axes.from_tensor {
        dd(&vec![-1; x.dims.rank() + axes.values.len()])?
    } else {
        unsqueeze_shape(&axes.values, &x.dims)?
    };
    let mut m = like(&x, out);
    if x.dims.as_slice().first() != out.as_slice().first() {
        m.lod = Box::new([]);
    }
    set(outs, 0, m);
    Ok(())
}

pub(crate) fn unsqueeze_shape(axes: &[i64], in_dims: &DDim) -> Result<DDim, Bad> {
    let out_rank = in_dims.rank() + axes.len();
    let mut out = vec![0i64; out_rank];
    for (cur, &axis) in (in_dims.rank()..).zip(axes) {
        let mut c = if axis < 0 {
            axis + cur as i64 + 1
        } else {
            axis
        };
        if c < 0 {
            c = 0;
        }
        let c = (c as usize).min(out_rank.saturating_sub(1));
        for i in (c..cur).rev() {
            if out[i] == 1 {
                out[i + 1] = 1;
                out[i] = 0;
            }
        }
        out[c] = 1;
    }
    let mut j = 0;
    for o in out.iter_mut() {
        if *o == 0 {
            *o = in_dims.at(j)?;
            j += 1;
        }
    }
    dd(&out)
}

/// `ShapeInferMeta` / `Shape64InferMeta`: a 1-d integer tensor of the rank.
fn shape_of(a: &Args<'_>, outs: &mut [Out], dtype: DataType) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::new(dtype, dd(&[x.dims.rank() as i64])?));
    Ok(())
}

pub(crate) fn shape(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    shape_of(a, outs, DataType::Int32)
}

pub(crate) fn shape64(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    shape_of(a, outs, DataType::Int64)
}

/// `NumelInferMeta`: a 0-d int64 tensor.
pub(crate) fn numel(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    a.tensor(0)?;
    set(outs, 0, Meta::new(DataType::Int64, DDim::default()));
    Ok(())
}

/// `SplitWithNumInferMeta` (built with `is_runtime = false`).
pub(crate) fn split_with_num(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let num = a.int(1)?.max(0) as usize;
    let axis = a.scalar(2)?;
    let mut metas = Vec::with_capacity(num);
    if axis.from_tensor {
        for _ in 0..num {
            metas.push(like(&x, dd(&vec![-1; x.dims.rank()])?));
        }
    } else {
        let ax = norm_axis(axis.value as i64, x.dims.rank())?;
        let input = x.dims.at(ax)?;
        for _ in 0..num {
            let mut d = x.dims;
            d.set(ax, if input > 0 { input / num as i64 } else { -1 })?;
            let mut m = like(&x, d);
            if ax == 0 {
                m.lod = Box::new([]);
            }
            metas.push(m);
        }
    }
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(metas);
    }
    Ok(())
}

/// `UnbindInferMeta`: rank-1 slices along `axis`.
pub(crate) fn unbind(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let ax = norm_axis(a.int(1)?, x.dims.rank())?;
    let n = x.dims.at(ax)?.max(0) as usize;
    let mut d = DDim::default();
    for i in 0..x.dims.rank() {
        if i != ax {
            d.push(x.dims.at(i)?)?;
        }
    }
    let metas = (0..n)
        .map(|_| Meta::laid_out(x.dtype, d, x.layout))
        .collect();
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(metas);
    }
    Ok(())
}

/// `TileInferMeta`.
pub(crate) fn tile(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let rep = a.int_array(1)?;
    let mut reps = rep.values.clone();
    let r = x.dims.rank();
    let mut xd: Vec<i64> = x.dims.as_slice().to_vec();
    if reps.is_empty() {
        reps = vec![1; r];
    }
    while xd.len() < reps.len() {
        xd.insert(0, 1);
    }
    while reps.len() < xd.len() {
        reps.insert(0, 1);
    }
    let mut out = DDim::default();
    for (i, &d) in xd.iter().enumerate() {
        out.push(if d == -1 || reps[i] == -1 {
            -1
        } else {
            d * reps[i]
        })?;
    }
    let mut m = Meta::new(x.dtype, out);
    if out.as_slice().first() == x.dims.as_slice().first() {
        m.lod = x.lod.clone();
    }
    set(outs, 0, m);
    Ok(())
}

/// `CumScalarAxisInferMeta` / `CumInferMeta`.
pub(crate) fn cum(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let flatten = a.bool(2)?;
    if flatten {
        set(outs, 0, plain(&x, dd(&[x.dims.product()])?));
    } else {
        set(outs, 0, x);
    }
    Ok(())
}

/// `LrnInferMeta`: `out` and `mid_out` both like `x`.
pub(crate) fn lrn(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 1, Meta::laid_out(x.dtype, x.dims, x.layout));
    set(outs, 0, Meta::laid_out(x.dtype, x.dims, x.layout));
    Ok(())
}

/// `TopKInferMeta`.
pub(crate) fn topk(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let k = a.scalar(1)?;
    let r = x.dims.rank();
    let mut d = x.dims;
    if r > 0 {
        let ax = norm_axis(a.int(2)?, r)?;
        d.set(ax, if k.from_tensor { -1 } else { k.value as i64 })?;
    }
    set(outs, 0, Meta::new(x.dtype, d));
    set(outs, 1, Meta::new(DataType::Int64, d));
    Ok(())
}

mod array;
mod hash;
mod image;
mod moe;
pub(crate) use array::{array_pop, create_array_like, unchanged_array};
pub(crate) use hash::{barrier, hash};
pub(crate) use image::decode_jpeg;
pub(crate) use moe::{build_src_rank_and_local_expert_id, expand_modality_expert_id, int_bincount};
mod axes;
pub(crate) use axes::{split, squeeze};
mod slice;
pub(crate) use slice::{expand, slice};
mod more;
mod pool;
pub(crate) use more::{
    kthvalue, logsumexp, one_hot, p_norm, pad3d, sequence_pool, strided_slice, unstack,
};
pub(crate) use pool::{max_pool_with_index, pool, pool2d};
mod decomp;
mod linalg;
mod misc;
mod shape;
mod simple;
pub(crate) use decomp::{
    det, lu_unpack, matrix_rank, qr, slogdet_v2, svd, svdvals, trace, unique, unique_consecutive,
};
pub(crate) use linalg::{
    diag, diag_embed, diagonal, eig, eigh, eigvals, inverse, lu, matrix_power, norm,
};
pub(crate) use misc::{
    channel_shuffle, check_numerics, l1_norm, pad, pixel_shuffle, pixel_unshuffle,
    repeat_interleave, repeat_interleave_with_tensor_index, rrelu, sequence_softmax, shard_index,
    share_data, squared_l2_norm, std_var, temporal_shift, unfold, uniform_inplace,
    uniform_random_batch_size_like, view_slice, weight_quantize,
};
pub(crate) use shape::{
    crop, fold, fractional_max_pool, frame, full_batch_size_like, gumbel_softmax, identity_loss,
    is_empty, maxout, mode, multinomial, nanmedian, nms, nonzero, overlap_add, sequence_mask,
};
pub(crate) use simple::{
    anchor_generator, as_complex, as_real, bipartite_match, check_bit_length, class_center_sample,
    cum_with_indices, dirichlet, fake_channel_wise_quantize, fake_quantize_abs_max, fft_c2c,
    fft_c2r, fft_r2c,
};
test_modules! {
    mod array_tests;
    mod axes_tests;
    mod decomp_tests;
    mod hash_tests;
    mod image_tests;
    mod linalg_tests;
    mod misc_tests;
    mod moe_tests;
    mod shape_tests;
    mod simple_tests;
}
