//! Sequence functions of Paddle's `binary.cc`: `CvmInferMeta` (show/click
//! columns of CTR features) and `CtcAlignInferMeta` (CTC decoding).

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `CvmInferMeta` (x, cvm, use_cvm): `[N, D]`, or `[N, D - 2]` without the
/// two CVM columns; x's data type and LoD.
pub(crate) fn cvm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let use_cvm = a.bool(2)?;
    let d = x.dims.as_slice();
    let [n, w] = d else {
        return Err(Bad(format!(
            "Input(X)'s rank should be 2, but got {}",
            d.len()
        )));
    };
    let w = if use_cvm { *w } else { w - 2 };
    set(outs, 0, with_lod(&x, x.dtype, DDim::new(&[*n, w])?));
    Ok(())
}

/// `CtcAlignInferMeta` (input, input_length, blank, merge_repeated,
/// padding_value): `output` of the input's dims and data type;
/// `output_length` `[N, 1]` when lengths are given (Paddle sets no data
/// type: the builder's fresh tensor is float32).
pub(crate) fn ctc_align(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    set(outs, 0, Meta::new(input.dtype, input.dims));
    if a.opt_tensor(1)?.is_some() {
        set(
            outs,
            1,
            Meta::new(
                pir_dialects::pd_op::DataType::Float32,
                DDim::new(&[input.dims.at(0)?, 1])?,
            ),
        );
    }
    Ok(())
}

/// `SequenceExpandInferMeta` (x, y, ref_level): x's dims with an unknown
/// first extent (the expansion follows y's LoD at run time), x's data type
/// and LoD.
pub(crate) fn sequence_expand(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    if x.dims.rank() < 2 {
        return Err(Bad(format!(
            "Dimension number of Input(X) should be at least 2. But received: input rank {}, input shape {:?}.",
            x.dims.rank(),
            x.dims.as_slice()
        )));
    }
    let mut dims = x.dims;
    dims.set(0, -1)?;
    set(outs, 0, with_lod(&x, x.dtype, dims));
    Ok(())
}

/// `RowConvInferMeta` (x, filter): x's dims, data type and LoD, with a
/// rank-2 filter.
pub(crate) fn row_conv(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let filter = a.tensor(1)?;
    if filter.dims.rank() != 2 {
        return Err(Bad(format!(
            "Input(Filter)'s dimensions should be 2. Received: Input(Filter)'s shape: {:?}.",
            filter.dims.as_slice()
        )));
    }
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `BeamSearchDecodeInferMeta`: Paddle's function is empty; both results
/// keep the builder's fresh tensors.
pub(crate) fn beam_search_decode(_a: &Args<'_>, _outs: &mut [Out]) -> Result<(), Bad> {
    Ok(())
}
