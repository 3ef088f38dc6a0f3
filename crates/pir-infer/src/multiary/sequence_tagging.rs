//! Sequence-tagging functions of Paddle's `multiary.cc`:
//! `ChunkEvalInferMeta` (chunking metrics) and `CrfDecodingInferMeta`
//! (Viterbi decoding of a linear-chain CRF).

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `ChunkEvalInferMeta` (inference, label, seq_length, num_chunk_types,
/// chunk_scheme, excluded_chunk_types): precision, recall and F1 `[1]`
/// float32; the three chunk counts `[1]` int64.
pub(crate) fn chunk_eval(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let inference = a.tensor(0)?;
    let label = a.tensor(1)?;
    let (id, ld) = (inference.dims.as_slice(), label.dims.as_slice());
    if id != ld {
        return Err(Bad(format!(
            "Input(Inference)'s shape must be the same as Input(Label)'s shape, but received {id:?} (Inference) vs {ld:?} (Label)."
        )));
    }
    if let Some(len) = a.opt_tensor(2)? {
        let padded = (id.len() == 3 && id[2] == 1) || id.len() == 2;
        if !padded {
            return Err(Bad(format!(
                "when Input(SeqLength) is provided, Input(Inference) should be of dim 3 (batch_size, bucket, 1) or dim 2 (batch_size, bucket), but received {id:?}."
            )));
        }
        if len.dims.rank() > 2 {
            return Err(Bad(format!(
                "Input(SeqLength)'s rank should not be greater than 2, but received {}.",
                len.dims.rank()
            )));
        }
    }
    let one = DDim::new(&[1])?;
    for i in 0..3 {
        set(outs, i, Meta::new(DataType::Float32, one));
    }
    for i in 3..6 {
        set(outs, i, Meta::new(DataType::Int64, one));
    }
    Ok(())
}

/// `CrfDecodingInferMeta` (emission, transition, label, length): the path
/// `[N, T]` in padding mode (with lengths), else `[N, 1]`; the emission's
/// data type and LoD. Extent checks skip unknown extents.
pub(crate) fn crf_decoding(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let emission = a.tensor(0)?;
    let transition = a.tensor(1)?;
    let label = a.opt_tensor(2)?;
    let has_length = a.opt_tensor(3)?.is_some();
    let e = emission.dims.as_slice();
    let want = if has_length { 3 } else { 2 };
    if e.len() != want {
        return Err(Bad(format!(
            "The Input(Emission) should be a {want}-D tensor. But received: input rank {}, input shape {e:?}.",
            e.len()
        )));
    }
    let t = transition.dims.as_slice();
    if t.len() != 2 {
        return Err(Bad(format!(
            "The Input(Transition) should be a 2-D tensor. But received: input rank {}, input shape {t:?}.",
            t.len()
        )));
    }
    if t[0] - 2 != t[1] {
        return Err(Bad(format!(
            "An invalid dimension for the Input(Transition), which should be a 2-D tensor with shape [(D + 2) x D]. But received: input rank 2, input shape {t:?}."
        )));
    }
    let tags = e[e.len() - 1];
    if tags > 0 && t[1] > 0 && tags != t[1] {
        return Err(Bad(format!(
            "The last dimension of the Input(Emission) and the Input(Transition) should be equal to the tag number. But received Input(Emission): rank {}, shape {e:?}; received Input(Transition): rank 2, shape {t:?}.",
            e.len()
        )));
    }
    if let Some(label) = label {
        let l = label.dims.as_slice();
        let ok = if has_length {
            (l.len() == 3 && l[2] == 1) || l.len() == 2
        } else {
            (l.len() == 2 && l[1] == 1) || l.len() == 1
        };
        if !ok {
            let what = if has_length {
                "a 3-D tensor with last dimension fixed to 1 or a 2-D tensor in padding mode"
            } else {
                "a 2-D tensor with last dimension fixed to 1 or a 1-D tensor"
            };
            return Err(Bad(format!(
                "The Input(Label) should be {what}. But received: input rank {}, input shape {l:?}.",
                l.len()
            )));
        }
        if e[0] > 0 && l[0] > 0 && e[0] != l[0] {
            return Err(Bad(format!(
                "The first dimension of Input(Emission) and Input(Label) should be the same. But received Input(Emission): rank {}, shape {e:?}; received Input(Label): rank {}, shape {l:?}.",
                e.len(),
                l.len()
            )));
        }
    }
    let second = if has_length { e[1] } else { 1 };
    set(
        outs,
        0,
        with_lod(&emission, emission.dtype, DDim::new(&[e[0], second])?),
    );
    Ok(())
}
