//! Fully connected layers: `FCInferMeta` (`fc`, `gemm_epilogue`) and the
//! gradient of `fused_gemm_epilogue`.

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "FCInferMeta" => fc,
        "FusedGemmEpilogueGradInferMeta" => fused_gemm_epilogue_grad,
        _ => return None,
    })
}

/// The product of `d[from..to]` (Paddle's `product` of a slice: negative
/// when an unknown dim is in it).
fn product(d: &DDim, from: usize, to: usize) -> Result<i64, Bad> {
    Ok(d.slice(from, to)?.product())
}

/// Paddle's `FCOutputSize`: `input` flattened to 2-D at `in_num_col_dims`
/// must have as many columns as the weight has rows; the result keeps the
/// leading `in_num_col_dims` dims and ends with the weight's width (the
/// weight is 4 wider each way with `padding_weights`).
pub(crate) fn fc_output_dims(
    input: &DDim,
    w: &DDim,
    in_num_col_dims: usize,
    padding_weights: bool,
) -> Result<DDim, Bad> {
    let pad = if padding_weights { 4 } else { 0 };
    let (w0, w1) = (w.at(0)?.wrapping_sub(pad), w.at(1)?.wrapping_sub(pad));
    let cols = product(input, in_num_col_dims, input.rank())?;
    if cols != w0 {
        return Err(Bad(format!(
            "The input's second dimension and weight's first dimension is expected to be the \
             same. But received input's second dimension is {cols}, input's shape is {input:?}; \
             weight's first dimension is {w0}, weight's shape is [{w0}, {w1}]."
        )));
    }
    let mut out = input.slice(0, in_num_col_dims)?;
    out.push(w1)?;
    Ok(out)
}

/// `FCInferMeta` (input, w, bias, in_num_col_dims, activation_type,
/// padding_weights): a 2-D weight, a bias of rank at most 2 matching the
/// weight's width, only `relu` as activation; dims from `FCOutputSize`,
/// data type and LoD of `input`.
fn fc(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let input = a.tensor(0)?;
    let w = a.tensor(1)?;
    let ncol = a.int(3)?;
    let activation = a.str(4)?;
    let padding = a.bool(5)?;
    if ncol < 1 {
        return Err(Bad(format!(
            "The in_num_col_dims is expected to equal or greater than 1. But received the \
             in_num_col_dims is {ncol}. "
        )));
    }
    if w.dims.rank() != 2 {
        return Err(Bad(format!(
            "The input Weight of fc is expected to be a 2-D tensor. But received the number of \
             Weight's dimensions is {}, Weight's shape is {:?}.",
            w.dims.rank(),
            w.dims
        )));
    }
    let w1 = w.dims.at(1)?.wrapping_sub(if padding { 4 } else { 0 });
    if let Some(bias) = a.opt_tensor(2)? {
        check_fc_bias(&bias.dims, w1, Some(&w.dims))?;
    }
    let ncol = ncol as usize;
    if ncol >= input.dims.rank() {
        return Err(Bad(format!(
            "The attribute in_num_col_dims used to flatten Input to a 2-D tensor, is expected \
             to be less than the number of Input's dimensions. But received in_num_col_dims is \
             {ncol}, the number of Input's dimensions is {}, Input's shape is {:?}.",
            input.dims.rank(),
            input.dims
        )));
    }
    if !activation.is_empty() && activation != "relu" {
        return Err(Bad(format!(
            "The attribute activation_type of fc is expected to be \"relu\", but received \
             {activation}."
        )));
    }
    let dims = fc_output_dims(&input.dims, &w.dims, ncol, padding)?;
    set(outs, 0, with_lod(&input, input.dtype, dims));
    Ok(())
}

/// The fc bias checks: rank at most 2, last dim the weight's width `w1`, a
/// leading 1 when 2-D. Paddle words them two ways: `fc`'s own names the
/// weight's shape (`fc_weight`), the fused layer norm's does not.
pub(super) fn check_fc_bias(b: &DDim, w1: i64, fc_weight: Option<&DDim>) -> Result<(), Bad> {
    if b.rank() > 2 {
        let article = if fc_weight.is_some() { "a" } else { "an" };
        return Err(Bad(format!(
            "The input Bias of fc is expected to be {article} 1-D or 2-D tensor. But received \
             the number of Bias's dimensions is {}, Bias's shape is {b:?}.",
            b.rank()
        )));
    }
    let last = b.rank().checked_sub(1).map(|k| b.at(k)).transpose()?;
    if last != Some(w1) {
        let weight_shape =
            fc_weight.map_or(String::new(), |w| format!(", Weight's shape is {w:?}"));
        return Err(Bad(format!(
            "The last dimension of input Bias is expected be equal to the actual width of input \
             Weight. But received Bias's shape is {b:?}; the actual width of Weight is \
             {w1}{weight_shape}."
        )));
    }
    if b.rank() == 2 && b.at(0)? != 1 {
        return Err(Bad(format!(
            "The first dimension of input Bias is expected to be 1, but received {}, Bias's \
             shape is {b:?}.",
            b.at(0)?
        )));
    }
    Ok(())
}

/// `FusedGemmEpilogueGradInferMeta` (x, y, reserve_space, out_grad,
/// trans_x, trans_y, activation_grad): `out_grad` of `x`'s rank whose last
/// dim is the width of `y`, leading dims agreeing where known; a reserve
/// space unless the activation gradient is `none`. `x_grad`, `y_grad` take
/// dims and data type of `x`, `y`; `bias_grad` is `[N]` of `y`'s type.
fn fused_gemm_epilogue_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let dout = a.tensor(3)?;
    let (trans_x, trans_y) = (a.bool(4)?, a.bool(5)?);
    let activation_grad = a.str(6)?;
    let (xd, yd, dd) = (&x.dims, &y.dims, &dout.dims);
    if dd.rank() < 2 {
        return Err(Bad(format!(
            "The Input tensor DOut's dimension of FusedGemmEpilogueGradOp  should be >= 2, but \
             got {}.",
            dd.rank()
        )));
    }
    if yd.rank() != 2 {
        return Err(Bad(format!(
            "The Input tensor Y's dimension of FusedGemmEpilogueGradOp  should be 2, but got {}.",
            yd.rank()
        )));
    }
    if xd.rank() < 2 {
        return Err(Bad(format!(
            "The Input tensor X's dimension of FusedGemmEpilogueGradOp  should be >= 2, but got \
             {}.",
            xd.rank()
        )));
    }
    let r = xd.rank();
    if dd.rank() != r {
        return Err(Bad(format!(
            "The Input tensor DOut's and X's dimension of FusedGemmEpilogueGradOp  should be the \
             same, but got DOut's dim = {} and X's = {r}.",
            dd.rank()
        )));
    }
    let n = if trans_y { yd.at(0)? } else { yd.at(1)? };
    let dout_cols = product(dd, r - 1, r)?;
    if dout_cols != n {
        return Err(Bad(format!(
            "The last dimension of DOut should be equal with Y's lastdimension. But received \
             DOut[-1] = [{dout_cols}], Y[1] = [{}].",
            yd.at(1)?
        )));
    }
    for i in 0..r - 2 {
        let (di, xi) = (dd.at(i)?, xd.at(i)?);
        if di > 0 && xi > 0 && di != xi {
            return Err(Bad(format!(
                "The i dimension of DOut should be equal with i dimension of X.But received \
                 DOut[{i}] = [{di}], Y[{i}] = [{xi}]."
            )));
        }
    }
    let k_dout = dd.at(r - 2)?;
    let k_x = if trans_x {
        xd.at(r - 1)?
    } else {
        xd.at(r - 2)?
    };
    if k_dout >= 0 && k_x >= 0 && k_dout != k_x {
        return Err(Bad(format!(
            "K from dout and x is not same, k_from_dout is [{k_dout}], k_from_x is[{k_x}]"
        )));
    }
    if activation_grad != "none" && !a.has(2) {
        return Err(Bad(
            "The ReserveSpace should not be empty. when activation == {relu_grad, gelu_grad}."
                .into(),
        ));
    }
    set(outs, 0, Meta::new(x.dtype, x.dims));
    set(outs, 1, Meta::new(y.dtype, y.dims));
    set(outs, 2, Meta::new(y.dtype, DDim::new(&[n])?));
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testing::{infer_last, types};

    #[test]
    fn fc_flattens_at_num_col_dims() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[-1,64],stop_gradient:[true]} : () -> tensor<-1x64xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d2\",place:Place(undefined:0),shape:[64,32],stop_gradient:[true]} : () -> tensor<64x32xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d3\",place:Place(undefined:0),shape:[32],stop_gradient:[true]} : () -> tensor<32xf32>\n\
                 (%3) = \"pd_op.fc\" (%0, %1, %2) {activation_type:\"\",in_num_col_dims:1,padding_weights:false,stop_gradient:[true]} : (tensor<-1x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<-1x32xf32>\n}\n";
        assert_eq!(types(t), ["tensor<-1x32xf32>"]);
    }

    #[test]
    fn fc_keeps_leading_unknown_dims() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d4\",place:Place(undefined:0),shape:[-1,-1,64],stop_gradient:[true]} : () -> tensor<-1x-1x64xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d5\",place:Place(undefined:0),shape:[64,32],stop_gradient:[true]} : () -> tensor<64x32xf64>\n\
                 (%2) = \"pd_op.fc\" (%0, %1, <<NULL VALUE>>) {activation_type:\"relu\",in_num_col_dims:2,padding_weights:false,stop_gradient:[true]} : (tensor<-1x-1x64xf64>, tensor<64x32xf64>, <<NULL TYPE>>) -> tensor<-1x-1x32xf64>\n}\n";
        assert_eq!(types(t), ["tensor<-1x-1x32xf64>"]);
    }

    #[test]
    fn fc_padded_weights() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d6\",place:Place(undefined:0),shape:[2,3,64],stop_gradient:[true]} : () -> tensor<2x3x64xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d7\",place:Place(undefined:0),shape:[68,36],stop_gradient:[true]} : () -> tensor<68x36xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d8\",place:Place(undefined:0),shape:[1,32],stop_gradient:[true]} : () -> tensor<1x32xf32>\n\
                 (%3) = \"pd_op.fc\" (%0, %1, %2) {activation_type:\"\",in_num_col_dims:2,padding_weights:true,stop_gradient:[true]} : (tensor<2x3x64xf32>, tensor<68x36xf32>, tensor<1x32xf32>) -> tensor<2x3x32xf32>\n}\n";
        assert_eq!(types(t), ["tensor<2x3x32xf32>"]);
    }

    #[test]
    fn fc_flattens_trailing_dims() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d9\",place:Place(undefined:0),shape:[-1,3,64],stop_gradient:[true]} : () -> tensor<-1x3x64xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d10\",place:Place(undefined:0),shape:[192,32],stop_gradient:[true]} : () -> tensor<192x32xf32>\n\
                 (%2) = \"pd_op.fc\" (%0, %1, <<NULL VALUE>>) {activation_type:\"\",in_num_col_dims:1,padding_weights:false,stop_gradient:[true]} : (tensor<-1x3x64xf32>, tensor<192x32xf32>, <<NULL TYPE>>) -> tensor<-1x32xf32>\n}\n";
        assert_eq!(types(t), ["tensor<-1x32xf32>"]);
    }

    #[test]
    fn fc_rejects_mismatched_width() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[-1,64],stop_gradient:[true]} : () -> tensor<-1x64xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"w\",place:Place(undefined:0),shape:[63,32],stop_gradient:[true]} : () -> tensor<63x32xf32>\n\
                 (%2) = \"pd_op.fc\" (%0, %1, <<NULL VALUE>>) {activation_type:\"\",in_num_col_dims:1,padding_weights:false,stop_gradient:[true]} : (tensor<-1x64xf32>, tensor<63x32xf32>, <<NULL TYPE>>) -> tensor<-1x32xf32>\n}\n";
        assert!(infer_last(t).is_err_and(|e| !e.starts_with("line ")));
    }

    // From Paddle's source (the op has no CPU kernel, so Paddle 3.3.1 on
    // CPU cannot build it): dims and types of x and y, bias of y's width.
    #[test]
    fn fused_gemm_epilogue_grad_bias_of_width() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float16,name:\"x\",place:Place(undefined:0),shape:[-1,8,64],stop_gradient:[true]} : () -> tensor<-1x8x64xf16>\n\
                 (%1) = \"pd_op.data\" () {dtype:float16,name:\"y\",place:Place(undefined:0),shape:[32,64],stop_gradient:[true]} : () -> tensor<32x64xf16>\n\
                 (%2) = \"pd_op.data\" () {dtype:float16,name:\"g\",place:Place(undefined:0),shape:[-1,8,32],stop_gradient:[true]} : () -> tensor<-1x8x32xf16>\n\
                 (%3, %4, %5) = \"pd_op.fused_gemm_epilogue_grad\" (%0, %1, <<NULL VALUE>>, %2) {activation_grad:\"none\",stop_gradient:[true,true,true],trans_x:false,trans_y:true} : (tensor<-1x8x64xf16>, tensor<32x64xf16>, <<NULL TYPE>>, tensor<-1x8x32xf16>) -> tensor<-1x8x64xf16>, tensor<32x64xf16>, tensor<32xf16>\n}\n";
        assert_eq!(
            types(t),
            ["tensor<-1x8x64xf16>", "tensor<32x64xf16>", "tensor<32xf16>"]
        );
        let relu = t.replace("activation_grad:\"none\"", "activation_grad:\"relu_grad\"");
        assert!(infer_last(&relu).is_err_and(|e| !e.starts_with("line ")));
    }
}
