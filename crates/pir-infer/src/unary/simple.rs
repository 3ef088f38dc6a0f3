//! InferMeta functions of `unary.cc` that copy or lightly reshape the input:
//! complex views, FFTs, quantization, cumulative ops with indices.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::binary::more::to_complex;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::{dd, set, to_real};
use crate::Bad;

/// `DirichletInferMeta` (alpha).
pub(crate) fn dirichlet(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    if x.dims.rank() < 1 {
        return Err(Bad(format!(
            "ShapeError: The number of dimensions of 'Alpha' must be greater than or equal to 1. But received Alpha's dimensions = {},",
            x.dims.rank()
        )));
    }
    set(outs, 0, Meta::new(x.dtype, x.dims));
    Ok(())
}

/// `AsRealInferMeta` (x): a trailing extent 2, the real type.
pub(crate) fn as_real(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let mut d = x.dims;
    d.push(2)?;
    set(outs, 0, with_lod(&x, to_real(x.dtype), d));
    Ok(())
}

/// `AsComplexInferMeta` (x): drops the trailing extent 2.
pub(crate) fn as_complex(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let r = x.dims.rank();
    if r < 1 {
        return Err(Bad(format!(
            "The rank of input(X) is less than 1. Expected the rank of input(X) to be equal to or greater than 1.But received rank of input(X) = {r}"
        )));
    }
    let last = x.dims.at(r - 1)?;
    if last != 2 {
        return Err(Bad(format!(
            "The size of the last dimension of input(X)does not equals 2.Expected the size of last dimension of input(X) to be 2.But received {last}"
        )));
    }
    let d = x.dims.slice(0, r - 1)?;
    set(outs, 0, with_lod(&x, to_complex(x.dtype)?, d));
    Ok(())
}

/// The axis check of the cumulative ops.
fn check_cum_axis(x: &DDim, axis: i64) -> Result<(), Bad> {
    let r = x.rank() as i64;
    if r > 0 {
        if axis < -r || axis >= r {
            return Err(Bad(format!(
                "axis is out of range (expected to be in range of [{}, {r}), but got {axis}).",
                -r
            )));
        }
    } else if !(axis == 0 || axis == -1) {
        return Err(Bad(format!(
            "The axis must be -1 or 0 in 0D Tensor, but the value given is {axis}."
        )));
    }
    Ok(())
}

/// `CumWithIndicesInferMeta` (x, axis, dtype): `cummax`, `cummin`.
pub(crate) fn cum_with_indices(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.int(1)?;
    let dtype = a.dtype(2)?;
    if !matches!(dtype, DataType::Int32 | DataType::Int64) {
        return Err(Bad(
            "dtype of indices must be DataType::INT32 or DataType::INT64".into(),
        ));
    }
    check_cum_axis(&x.dims, axis)?;
    if dtype == DataType::Int32 && x.dims.rank() > 0 {
        let r = x.dims.rank() as i64;
        let ax = if axis < 0 { axis + r } else { axis } as usize;
        if x.dims.at(ax)? >= i64::from(i32::MAX) {
            return Err(Bad(format!(
                "cummax with axis {axis} may be overflow, set dtype int64 to continue"
            )));
        }
    }
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    set(outs, 1, with_lod(&x, dtype, x.dims));
    Ok(())
}

/// The quantizers' `bit_length` lies in 1..=16.
pub(crate) fn check_bit_length(bit_length: i64) -> Result<(), Bad> {
    if !(1..=16).contains(&bit_length) {
        return Err(Bad(format!(
            "'bit_length' should be between 1 and 16, but the received is {bit_length}"
        )));
    }
    Ok(())
}

/// `FakeQuantizeAbsMaxInferMeta` (x, bit_length, round_type): the scale is
/// `[1]`.
pub(crate) fn fake_quantize_abs_max(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    check_bit_length(a.int(1)?)?;
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    // The scale's data type is never set: the fresh `IrTensor`'s float32.
    set(outs, 1, Meta::new(DataType::Float32, dd(&[1])?));
    Ok(())
}

/// `FakeChannelWiseQuantizeAbsMaxInferMeta` and
/// `FakeChannelWiseQuantizeDequantizeAbsMaxInferMeta` (x, bit_length,
/// round_type, quant_axis, ...): one scale per channel of `quant_axis`.
pub(crate) fn fake_channel_wise_quantize(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    check_bit_length(a.int(1)?)?;
    let quant_axis = a.int(3)?;
    if !(quant_axis == 0 || quant_axis == 1) {
        return Err(Bad(format!(
            "'quant_axis' should be 0 or 1, but the received is {quant_axis}"
        )));
    }
    let c = x.dims.at(quant_axis as usize)?;
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    // The scale's data type is never set: the fresh `IrTensor`'s float32.
    set(outs, 1, Meta::new(DataType::Float32, dd(&[c])?));
    Ok(())
}

/// `FFTC2CInferMeta` (x, axes, normalization, forward): `share_meta(x)`.
pub(crate) fn fft_c2c(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, x);
    Ok(())
}

fn last_fft_axis(a: &Args<'_>, x: &Meta) -> Result<usize, Bad> {
    let axes = a.ints(1)?;
    let last = *axes
        .last()
        .ok_or_else(|| Bad("fft axes must not be empty".into()))?;
    if last < 0 || last as usize >= x.dims.rank() {
        return Err(Bad(format!("fft axis {last} out of range")));
    }
    Ok(last as usize)
}

/// `FFTC2RInferMeta` (x, axes, normalization, forward, last_dim_size).
pub(crate) fn fft_c2r(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let ax = last_fft_axis(a, &x)?;
    let last_dim_size = a.int(4)?;
    let dtype = match x.dtype {
        DataType::Complex64 => DataType::Float32,
        DataType::Complex128 => DataType::Float64,
        d => return Err(Bad(format!("fft_c2r of a non-complex type {}", d.text()))),
    };
    let mut d = x.dims;
    let n = d.at(ax)?;
    d.set(
        ax,
        if last_dim_size > 0 {
            last_dim_size
        } else if n == -1 {
            -1
        } else {
            (n - 1) * 2
        },
    )?;
    set(outs, 0, Meta::laid_out(dtype, d, x.layout));
    Ok(())
}

/// `FFTR2CInferMeta` (x, axes, normalization, forward, onesided).
pub(crate) fn fft_r2c(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let onesided = a.bool(4)?;
    let dtype = to_complex(x.dtype)?;
    let mut d = x.dims;
    if onesided {
        let ax = last_fft_axis(a, &x)?;
        // C++ division: an unknown extent -1 gives -1 / 2 + 1 = 1.
        d.set(ax, d.at(ax)? / 2 + 1)?;
    }
    set(outs, 0, Meta::laid_out(dtype, d, x.layout));
    Ok(())
}

/// `BipartiteMatchInferMeta` (dist_mat, match_type, dist_threshold).
pub(crate) fn bipartite_match(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    if x.dims.rank() != 2 {
        return Err(Bad("The rank of Input(DistMat) must be 2.".into()));
    }
    set(outs, 0, Meta::new(DataType::Int32, x.dims));
    set(outs, 1, Meta::new(x.dtype, x.dims));
    Ok(())
}

/// `ClassCenterSampleInferMeta` (label, num_classes, num_samples, ...).
pub(crate) fn class_center_sample(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let label = a.tensor(0)?;
    if label.dims.rank() != 1 {
        return Err(Bad(format!(
            "Rank of Input(Label) should be equal to 1, but the value given is {}.",
            label.dims.rank()
        )));
    }
    set(outs, 0, Meta::new(label.dtype, label.dims));
    set(outs, 1, Meta::new(label.dtype, dd(&[-1])?));
    Ok(())
}

/// `AnchorGeneratorInferMeta` (input, anchor_sizes, aspect_ratios, ...):
/// `[H, W, sizes * ratios, 4]` twice.
pub(crate) fn anchor_generator(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    if x.dims.rank() != 4 {
        return Err(Bad("The layout of input is NCHW.".into()));
    }
    let n = (a.floats(1)?.len() * a.floats(2)?.len()) as i64;
    let d = dd(&[x.dims.at(2)?, x.dims.at(3)?, n, 4])?;
    set(outs, 0, Meta::new(x.dtype, d));
    set(outs, 1, Meta::new(x.dtype, d));
    Ok(())
}
