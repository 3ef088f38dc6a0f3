//! InferMeta functions of `binary.cc` for losses, counting and lookups:
//! `huber_loss`, `hinge_loss`, `histogram`, `bincount`, `lookup_table_dequant`,
//! `margin_cross_entropy`, `unpool`, `segment_pool`, `matrix_nms`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::binary::broadcast;
use crate::meta::{with_lod, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// `HuberLossInferMeta` (input, label, delta): the label's dims for both
/// the loss and the residual; shapes are compared only when all known.
pub(crate) fn huber_loss(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    if x.dims.rank() != label.dims.rank() {
        return Err(Bad(format!(
            "Input(input) rank and Input(label) rank should be same, but received input rank({}) != label rank({})",
            x.dims.rank(),
            label.dims.rank()
        )));
    }
    if !x.dims.has_unknown() && !label.dims.has_unknown() && x.dims != label.dims {
        return Err(Bad(format!(
            "The Input(input) and Input(label) should have the same shape, but received input shape {:?} != label shape {:?}",
            x.dims, label.dims
        )));
    }
    set(outs, 0, with_lod(&x, x.dtype, label.dims));
    set(outs, 1, Meta::new(x.dtype, label.dims));
    Ok(())
}

/// `HistogramInferMeta` (input, weight, bins, min, max, density): `[bins]`,
/// float32 with weights or density, else int64.
pub(crate) fn histogram(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let weight = a.opt_tensor(1)?;
    let bins = a.int(2)?;
    let (min, max) = (a.scalar(3)?.value, a.scalar(4)?.value);
    let density = a.bool(5)?;
    if bins < 1 {
        return Err(Bad(format!(
            "The bins should be greater than or equal to 1.But received nbins is {bins}"
        )));
    }
    if max < min {
        return Err(Bad(format!(
            "max must be larger or equal to min.But received max is {max}, min is {min}"
        )));
    }
    if let Some(w) = &weight {
        if w.dims != x.dims {
            return Err(Bad(format!(
                "The shape of weight should be equal to the shape of input.But received weight shape is {:?}, input shape is {:?}",
                w.dims, x.dims
            )));
        }
    }
    let dtype = if density || weight.is_some() {
        DataType::Float32
    } else {
        DataType::Int64
    };
    set(outs, 0, with_lod(&x, dtype, dd(&[bins])?));
    Ok(())
}

/// `BincountInferMeta` (x, weights, minlength): `[-1]`, of the weights'
/// type or int64.
pub(crate) fn bincount(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let weights = a.opt_tensor(1)?;
    if x.dims.rank() != 1 {
        return Err(Bad(format!(
            "The 'shape' of Input(X) must be 1-D tensor.But the dimension of Input(X) is [{}]",
            x.dims.rank()
        )));
    }
    if let Some(w) = &weights {
        if w.dims.rank() != 1 {
            return Err(Bad(format!(
                "The 'shape' of Input(Weights) must be 1-D tensor.But the dimension of Input(Weights) is [{}]",
                w.dims.rank()
            )));
        }
        if w.dims.at(0)? != x.dims.at(0)? {
            return Err(Bad(format!(
                "The 'shape' of Input(Weights) must be equal to the 'shape' of Input(X).But received: the 'shape' of Input(Weights) is {:?},the 'shape' of Input(X) is {:?}",
                w.dims, x.dims
            )));
        }
    }
    let dtype = weights.map_or(DataType::Int64, |w| w.dtype);
    set(outs, 0, with_lod(&x, dtype, dd(&[-1])?));
    Ok(())
}

/// `GatherTreeMeta` (ids, parents): the ids' dims and type.
pub(crate) fn gather_tree(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let ids = a.tensor(0)?;
    let parents = a.tensor(1)?;
    if ids.dims != parents.dims {
        return Err(Bad(
            "The shape of Input(Parents) must be same with the shape of Input(Ids).".into(),
        ));
    }
    set(outs, 0, Meta::new(ids.dtype, ids.dims));
    Ok(())
}

/// `HingeLossInferMeta` (logits, labels): `[N, 1]`.
pub(crate) fn hinge_loss(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    let d = x.dims.as_slice();
    if x.dims.product() > 0 && label.dims.product() > 0 && x.dims != label.dims {
        return Err(Bad(format!(
            "The Input(input) and Input(label) should have the same shape, but received input shape {:?} != label shape {:?}",
            x.dims, label.dims
        )));
    }
    if d.len() != 2 {
        return Err(Bad(format!(
            "Input(input) rank should be 2, but received input rank({}) != 2",
            d.len()
        )));
    }
    if d[1] != 1 {
        return Err(Bad(format!(
            "The second dimension of Input(input) should be 1, as each row of input contains a real value, but received second dimension of input ({}) != 1",
            d[1]
        )));
    }
    set(outs, 0, with_lod(&x, x.dtype, dd(&[d[0], 1])?));
    Ok(())
}

/// `MatrixRankTolInferMeta` (x, atol_tensor, use_default_tol, hermitian):
/// the batch dims broadcast with the tolerance's; float32 (never set).
pub(crate) fn matrix_rank_tol(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let tol = a.tensor(1)?;
    let hermitian = a.bool(3)?;
    let d = x.dims.as_slice();
    let r = d.len();
    if r < 2 {
        return Err(Bad("The dims of input must be greater than 2".into()));
    }
    if hermitian && d[r - 2] != d[r - 1] {
        return Err(Bad("if hermitian == true, matrix should be n*n".into()));
    }
    let batch = dd(&d[..r - 2])?;
    let dims = if batch == tol.dims {
        batch
    } else {
        broadcast(&batch, &tol.dims, -1)?
    };
    set(outs, 0, with_lod(&x, DataType::Float32, dims));
    Ok(())
}

/// The ids' dims without the trailing `1`.
fn ids_rows(table: &Meta, ids: &Meta) -> Result<Vec<i64>, Bad> {
    if table.dims.rank() != 2 {
        return Err(Bad(format!(
            "ShapeError: The dimensions of the 'lookup table' must be 2. But received lookup table's dimensions = {}",
            table.dims.rank()
        )));
    }
    let d = ids.dims.as_slice();
    match d.split_last() {
        Some((&1, rest)) => Ok(rest.to_vec()),
        _ => Err(Bad(format!(
            "ShapeError: The last dimensions of the 'Ids' tensor must be 1. But received Ids's shape = {d:?}."
        ))),
    }
}

/// `LookupTableDequantInferMeta` (w, ids, padding_idx): the width is
/// `(w[1] - 2) * 4`.
pub(crate) fn lookup_table_dequant(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let w = a.tensor(0)?;
    let ids = a.tensor(1)?;
    let mut v = ids_rows(&w, &ids)?;
    let width = w.dims.at(1)?;
    if width < 2 {
        return Err(Bad(format!(
            "the second dim of table_dims should be greater or equal to 2, but the actual shape is {:?}",
            w.dims
        )));
    }
    v.push((width - 2) * 4);
    set(outs, 0, with_lod(&ids, w.dtype, dd(&v)?));
    Ok(())
}

/// `LimitByCapacityInferMeta` (expert_count, capacity, n_worker).
pub(crate) fn limit_by_capacity(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `MarginCrossEntropyInferMeta` (logits, label, return_softmax, ...): the
/// softmax and the loss with a last extent 1.
pub(crate) fn margin_cross_entropy(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let logits = a.tensor(0)?;
    let label = a.tensor(1)?;
    let ld = logits.dims.as_slice();
    let bd = label.dims.as_slice();
    let r = ld.len();
    if r == 0 {
        return Err(Bad("margin_cross_entropy of a 0-d tensor".into()));
    }
    for (i, &p) in ld.iter().enumerate().take(r - 1) {
        let q = bd.get(i).copied().unwrap_or(-1);
        if p > 0 && q > 0 && p != q {
            return Err(Bad(
                "Input(Logits) and Input(Label) should in same shape in dimensions except axis."
                    .into(),
            ));
        }
    }
    if bd.len() > 1 && bd.get(r - 1) != Some(&1) {
        return Err(Bad("the last dimension of Input(Label) should be 1.".into()));
    }
    let mut loss = logits.dims;
    loss.set(r - 1, 1)?;
    set(outs, 0, with_lod(&logits, logits.dtype, logits.dims));
    set(outs, 1, with_lod(&logits, logits.dtype, loss));
    Ok(())
}

/// `MatrixNMSInferMeta` (bboxes, scores, ...): `[-1, 6]` boxes, `[-1, 1]`
/// int32 indices and int32 counts per image.
pub(crate) fn matrix_nms(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let boxes = a.tensor(0)?;
    let scores = a.tensor(1)?;
    let w = boxes.dims.at(2)?;
    set(outs, 0, Meta::new(boxes.dtype, dd(&[-1, w + 2])?));
    set(outs, 1, Meta::new(DataType::Int32, dd(&[-1, 1])?));
    set(
        outs,
        2,
        Meta::new(DataType::Int32, dd(&[scores.dims.at(0)?])?),
    );
    Ok(())
}

/// `UnpoolInferMeta` (x, indices, ksize, strides, padding, output_size,
/// data_format), built with `is_runtime = false`.
pub(crate) fn unpool(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let idx = a.tensor(1)?;
    let ksize = a.ints(2)?;
    let size = a.int_array(5)?;
    unpool_dims(&x, &idx, 4, ksize.len(), |i| {
        if size.from_tensor {
            Ok(-1)
        } else {
            size.values
                .get(i)
                .copied()
                .ok_or_else(|| Bad("output_size has too few elements".into()))
        }
    })
    .map(|m| set(outs, 0, m))
}

/// `Unpool3dInferMeta` (x, indices, ksize, strides, paddings, output_size,
/// data_format).
pub(crate) fn unpool3d(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let idx = a.tensor(1)?;
    let ksize = a.ints(2)?;
    let size = a.ints(5)?;
    unpool_dims(&x, &idx, 5, ksize.len(), |i| {
        size.get(i)
            .copied()
            .ok_or_else(|| Bad("output_size has too few elements".into()))
    })
    .map(|m| set(outs, 0, m))
}

fn unpool_dims(
    x: &Meta,
    idx: &Meta,
    rank: usize,
    n: usize,
    size: impl Fn(usize) -> Result<i64, Bad>,
) -> Result<Meta, Bad> {
    let d = x.dims.as_slice();
    if d.len() != rank {
        return Err(Bad(format!(
            "Unpool Intput(X) must be of {rank}-dimensional, but received Input(X)'s dimensions is {}.",
            d.len()
        )));
    }
    if x.dims != idx.dims {
        return Err(Bad(format!(
            "The dimensions of Input(X) must equal to bethe dimensions of Input(Indices), but receiveddimensions of Input(X) is {:?}, received dimensionsof Input(Indices) is {:?}",
            x.dims, idx.dims
        )));
    }
    let mut v = vec![d[0], d[1]];
    for i in 0..n {
        let xi = d
            .get(i + 2)
            .copied()
            .ok_or_else(|| Bad("ksize longer than the spatial dims".into()))?;
        v.push(if xi <= 0 { -1 } else { size(i)? });
    }
    Ok(Meta::new(x.dtype, dd(&v)?))
}

/// `SegmentPoolInferMeta` (x, segment_ids, pooltype): `[-1, ...]`, and the
/// summed ids `[-1, 1]` for `MEAN`.
pub(crate) fn segment_pool(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let pooltype = a.str(2)?;
    let mut d = x.dims;
    d.set(0, -1)?;
    set(outs, 0, Meta::laid_out(x.dtype, d, x.layout));
    if pooltype == "MEAN" {
        set(outs, 1, Meta::laid_out(x.dtype, dd(&[-1, 1])?, x.layout));
    } else {
        set(outs, 1, crate::meta::untouched());
    }
    Ok(())
}

/// `CEmbeddingInferMeta` (weight, x, start_index): `x`'s dims plus the
/// width.
pub(crate) fn c_embedding(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let w = a.tensor(0)?;
    let x = a.tensor(1)?;
    let start = a.int(2)?;
    if w.dims.rank() != 2 {
        return Err(Bad(format!(
            "ShapeError: The dimensions of the 'c_embedding' must be 2. But received c_embedding's dimensions = {}",
            w.dims.rank()
        )));
    }
    let (h, width) = (w.dims.at(0)?, w.dims.at(1)?);
    let mut d = x.dims;
    d.push(width)?;
    if !(h > 0 && width > 0 && start >= 0) {
        return Err(Bad(format!(
            "height:{h} width:{width} start_index:{start} must not have negative values"
        )));
    }
    set(outs, 0, with_lod(&x, w.dtype, d));
    Ok(())
}

/// `MatrixRankAtolRtolInferMeta` (x, atol, rtol, hermitian): the batch dims
/// for an empty `x`, else `MatrixRankTolInferMeta` with the absolute
/// tolerance.
pub(crate) fn matrix_rank_atol_rtol(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    if x.dims.product() != 0 {
        return matrix_rank_tol(a, outs);
    }
    let d = x.dims.as_slice();
    if d.len() < 2 {
        return Err(Bad("The dims of input must be greater than 2".into()));
    }
    set(
        outs,
        0,
        with_lod(&x, DataType::Float32, dd(&d[..d.len() - 2])?),
    );
    Ok(())
}
