//! Fused normalizations of transformer encoders:
//! `FusedEmbeddingEltWiseLayerNormInferMeta` (embedding sums followed by a
//! layer norm) and `FusedFCElementwiseLayerNormInferMeta` (a fully
//! connected layer, a residual add and a layer norm) and
//! `SkipLayerNormInferMeta` (a residual add and a layer norm).

use super::linear::check_fc_bias;
use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "FusedEmbeddingEltWiseLayerNormInferMeta" => fused_embedding_eltwise_layernorm,
        "FusedFCElementwiseLayerNormInferMeta" => fused_fc_elementwise_layernorm,
        "SkipLayerNormInferMeta" => crate::binary::dims_dtype_lod_of_x,
        _ => return None,
    })
}

/// `FusedEmbeddingEltWiseLayerNormInferMeta` (ids, embs, bias, scale,
/// epsilon): as many id tensors as tables, at least two; every table 2-D
/// of the bias' width. `[batch, seq_len, hidden]` from the first ids and
/// table, with the LoD of the first ids and the first table's data type.
fn fused_embedding_eltwise_layernorm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let ids = a.tensors(0)?;
    let embs = a.tensors(1)?;
    let bias = a.tensor(2)?;
    if ids.len() != embs.len() {
        return Err(Bad(format!(
            "Two inputs of EmbeddingEltWiseLayerNormOp shoube be the same size, but received the \
             size of input Ids = {}, the size of input Embs = {}",
            ids.len(),
            embs.len()
        )));
    }
    if embs.len() < 2 {
        return Err(Bad(
            "Input Embs of EmbeddingEltWiseLayerNormOp should have at least 2 tensors".into(),
        ));
    }
    let (ids0, emb0) = match (ids.first(), embs.first()) {
        (Some(i), Some(e)) => (i, e),
        _ => return Err(Bad("no ids or embeddings".into())),
    };
    let batch = ids0.dims.at(0)?;
    let seq_len = ids0.dims.at(1)?;
    let hidden = emb0.dims.at(1)?;
    let bias0 = bias.dims.at(0)?;
    for e in &embs {
        if e.dims.rank() != 2 {
            return Err(Bad(format!(
                "The Emb dim's size shoule be 2, but found {}.",
                e.dims.rank()
            )));
        }
        let w = e.dims.at(1)?;
        if w != bias0 {
            return Err(Bad(format!(
                "The second dims ({w}) of the Embedding should be equal to the Bias's \
                 size({bias0})."
            )));
        }
        if w != hidden {
            return Err(Bad(format!(
                "The second dimension size({w}) of the Embedding should be equal to the \
                 hidden's size({hidden})"
            )));
        }
    }
    set(
        outs,
        0,
        with_lod(ids0, emb0.dtype, DDim::new(&[batch, seq_len, hidden])?),
    );
    Ok(())
}

/// The axis (attribute `attr`) at which input `what` is flattened to 2-D:
/// below its rank, and not negative.
fn flatten_axis(attr: &str, axis: i64, what: &str, dims: &DDim) -> Result<usize, Bad> {
    let r = dims.rank();
    if axis >= r as i64 {
        return Err(Bad(format!(
            "The attribute {attr} used to flatten input {what} to a 2-D tensor, is expected to \
             be less than the number of input {what}'s dimensions. But received {attr} is \
             {axis}, the number of input {what}'s dimensions is {r}, input {what}'s shape is \
             {dims:?}."
        )));
    }
    usize::try_from(axis).map_err(|_| Bad(format!("{attr} {axis} is negative")))
}

/// `FusedFCElementwiseLayerNormInferMeta` (x, w, y, bias0, scale, bias1,
/// x_num_col_dims, activation_type, epsilon, begin_norm_axis): the fc
/// output must have `y`'s dims; `out` gets `y`'s dims, `x`'s data type and
/// LoD; `mean` and `variance` the rows of `y` flattened at
/// `begin_norm_axis`, in `x`'s data type.
fn fused_fc_elementwise_layernorm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let w = a.tensor(1)?;
    let y = a.tensor(2)?;
    let ncol = a.int(6)?;
    let begin = a.int(9)?;
    if w.dims.rank() != 2 {
        return Err(Bad(format!(
            "The input Weight of fc is expected to be a 2-D tensor. But received the number of \
             Weight's dimensions is {}, ",
            w.dims.rank()
        )));
    }
    let (w0, w1) = (w.dims.at(0)?, w.dims.at(1)?);
    if let Some(b) = a.opt_tensor(3)? {
        check_fc_bias(&b.dims, w1, None)?;
    }
    let k = flatten_axis("x_num_col_dims", ncol, "X", &x.dims)?;
    let cols = x.dims.slice(k, x.dims.rank())?.product();
    if cols != w0 {
        return Err(Bad(format!(
            "The input's second dimension and weight's first dimension is expected to be the \
             same. But received input's second dimension is {cols}; weight's first dimension \
             is {w0}."
        )));
    }
    let mut fc_out = x.dims.slice(0, k)?;
    fc_out.push(w1)?;
    if fc_out != y.dims {
        return Err(Bad(format!(
            "The output's shape of fc is expected to be equal to that of input Y. But received \
             output's shape of fc is {fc_out:?}, input Y's shape is {:?}.",
            y.dims
        )));
    }
    let b = flatten_axis("begin_norm_axis", begin, "Y", &y.dims)?;
    let rows = y.dims.slice(0, b)?.product();
    for (i, name) in [(4, "Scale"), (5, "Bias1")] {
        if let Some(t) = a.opt_tensor(i)? {
            if t.dims.rank() != 1 {
                return Err(Bad(format!(
                    "The input {name} is expected to be an 1-D tensor. But received the number \
                     of input {name}'s dimensions is {}, input {name}'s shape is {:?}.",
                    t.dims.rank(),
                    t.dims
                )));
            }
        }
    }
    set(outs, 0, with_lod(&x, x.dtype, y.dims));
    set(outs, 1, Meta::new(x.dtype, DDim::new(&[rows])?));
    set(outs, 2, Meta::new(x.dtype, DDim::new(&[rows])?));
    Ok(())
}

// From Paddle's source: the ops have no CPU kernel, so Paddle 3.3.1 on CPU
// cannot build them to compare with.
#[cfg(test)]
mod tests {
    use crate::testing::{infer_last, types};

    fn data(i: usize, dtype: &str, shape: &[i64]) -> String {
        let s: Vec<String> = shape.iter().map(i64::to_string).collect();
        let short = match dtype {
            "int64" => "i64",
            "float16" => "f16",
            _ => "f32",
        };
        format!(
            "(%{i}) = \"pd_op.data\" () {{dtype:{dtype},name:\"d{i}\",place:Place(undefined:0),shape:[{}],stop_gradient:[true]}} : () -> tensor<{}x{short}>\n",
            s.join(","),
            s.join("x")
        )
    }

    #[test]
    fn embedding_eltwise_layernorm_is_batch_seq_hidden() {
        let t = format!(
            "{{\n{}{}{}{}{}{}\
             (%6) = \"builtin.combine\" (%0, %1) {{}} : (tensor<-1x128xi64>, tensor<-1x128xi64>) -> vec[tensor<-1x128xi64>,tensor<-1x128xi64>]\n\
             (%7) = \"builtin.combine\" (%2, %3) {{}} : (tensor<100x768xf16>, tensor<10x768xf16>) -> vec[tensor<100x768xf16>,tensor<10x768xf16>]\n\
             (%8) = \"pd_op.fused_embedding_eltwise_layernorm\" (%6, %7, %4, %5) {{epsilon:1e-05,stop_gradient:[true]}} : (vec[tensor<-1x128xi64>,tensor<-1x128xi64>], vec[tensor<100x768xf16>,tensor<10x768xf16>], tensor<768xf32>, tensor<768xf32>) -> tensor<-1x128x768xf16>\n}}\n",
            data(0, "int64", &[-1, 128]),
            data(1, "int64", &[-1, 128]),
            data(2, "float16", &[100, 768]),
            data(3, "float16", &[10, 768]),
            data(4, "float32", &[768]),
            data(5, "float32", &[768]),
        );
        assert_eq!(types(&t), ["tensor<-1x128x768xf16>"]);
        let narrow = t.replace(
            "tensor<768xf32>, tensor<768xf32>) ->",
            "tensor<64xf32>, tensor<768xf32>) ->",
        );
        let narrow = narrow
            .replace("shape:[768]", "shape:[64]")
            .replace("-> tensor<768xf32>\n(%5)", "-> tensor<64xf32>\n(%5)");
        assert!(infer_last(&narrow).is_err_and(|e| !e.starts_with("line ")));
    }

    #[test]
    fn fc_elementwise_layernorm_rows() {
        let t = format!(
            "{{\n{}{}{}\
             (%3, %4, %5) = \"pd_op.fused_fc_elementwise_layernorm\" (%0, %1, %2, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {{activation_type:\"\",begin_norm_axis:1,epsilon:1e-05,stop_gradient:[true,true,true],x_num_col_dims:1}} : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<8x32xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>\n}}\n",
            data(0, "float32", &[8, 64]),
            data(1, "float32", &[64, 32]),
            data(2, "float32", &[8, 32]),
        );
        assert_eq!(
            types(&t),
            ["tensor<8x32xf32>", "tensor<8xf32>", "tensor<8xf32>"]
        );
    }
}
