//! The `fusion_*` ops of Paddle's CPU inference passes:
//! `fusion_repeated_fc_relu`, `fusion_squared_mat_sub`,
//! `fusion_seqconv_eltadd_relu` and `fusion_gru`.

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "FusionRepeatedFCReluInferMeta" => fusion_repeated_fc_relu,
        "FusionSquaredMatSubInferMeta" => fusion_squared_mat_sub,
        "FusionSeqConvEltAddReluInferMeta" => fusion_seqconv_eltadd_relu,
        "FusionGRUInferMeta" => fusion_gru,
        _ => return None,
    })
}

/// `FusionRepeatedFCReluInferMeta` (x, w, bias): at least two layers, one
/// bias each; a 2-D input as wide as the first weight is high; each later
/// weight 2-D with a bias of its width. `out` is `[x[0], last width]` with
/// `x`'s type and LoD; the intermediate `relu_out` list (one per layer but
/// the last) stays as built.
fn fusion_repeated_fc_relu(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let w = a.tensors(1)?;
    let bias = a.tensors(2)?;
    let sz = w.len();
    if sz <= 1 {
        return Err(Bad(format!(
            "Inputs(W) of FusionRepeatedFCReluOp should be greater than 1, but received value \
             is {sz}."
        )));
    }
    if bias.len() != sz {
        return Err(Bad(format!(
            "Size of inputs(Bias) of FusionRepeatedFCReluOp should be equal to inputs size \
             {sz}, but received value is {}.",
            bias.len()
        )));
    }
    if x.dims.rank() != 2 {
        return Err(Bad(format!(
            "Input shape size should be 2, but received value is {}.",
            x.dims.rank()
        )));
    }
    let w0 = &w[0].dims;
    if x.dims.at(1)? != w0.at(0)? {
        return Err(Bad(format!(
            "input width should be equal to weight height, but input width is {}, weight height \
             is {}.",
            x.dims.at(1)?,
            w0.at(0)?
        )));
    }
    for (i, (wi, bi)) in w.iter().zip(&bias).enumerate().skip(1) {
        if wi.dims.rank() != 2 {
            return Err(Bad(format!(
                "Every weight shape size should be 2, but received w_dims[{i}].size() = {}.",
                wi.dims.rank()
            )));
        }
        if bi.dims.product() != wi.dims.at(1)? {
            return Err(Bad(format!(
                "The length of Bias must be equal with w_dims[1], but received product(b_dims[{i}]) \
                 = {}, w_dims[{i}][1] = {}.",
                bi.dims.product(),
                wi.dims.at(1)?
            )));
        }
    }
    let last = w[sz - 1].dims.at(1)?;
    // Paddle builds `w.size() - 1` intermediate results and leaves them as
    // built (see `Meta::unset_dims`).
    let untouched = Meta::unset_dims(pir_dialects::pd_op::DataType::Float32);
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(vec![untouched; sz - 1]);
    }
    set(
        outs,
        1,
        with_lod(&x, x.dtype, DDim::new(&[x.dims.at(0)?, last])?),
    );
    Ok(())
}

/// `FusionSquaredMatSubInferMeta` (x, y, scalar): 2-D `x` and `y` with
/// `x[1] == y[0]`; the squares keep their input's dims, the products are
/// `[x[0], y[1]]`; all of `x`'s data type.
fn fusion_squared_mat_sub(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    if x.dims.rank() != y.dims.rank() {
        return Err(Bad(format!(
            "The input tensor X's dims size should be equal to Y's. But received X's dims size = \
             {}, Y's dims size = {}.",
            x.dims.rank(),
            y.dims.rank()
        )));
    }
    if x.dims.rank() != 2 {
        return Err(Bad(format!(
            "The input tensor X's dims size should be 2. But received X's dims size = {}.",
            x.dims.rank()
        )));
    }
    if x.dims.at(1)? != y.dims.at(0)? {
        return Err(Bad(format!(
            "The input tensor X's dims[1] should be equal to Y's dims[0]. But received X's \
             dims[1] = {}, Y's dims[0] = {}.",
            x.dims.at(1)?,
            y.dims.at(0)?
        )));
    }
    let xy = DDim::new(&[x.dims.at(0)?, y.dims.at(1)?])?;
    set(outs, 0, Meta::new(x.dtype, x.dims));
    set(outs, 1, Meta::new(x.dtype, y.dims));
    set(outs, 2, Meta::new(x.dtype, xy));
    set(outs, 3, Meta::new(x.dtype, xy));
    Ok(())
}

/// `FusionSeqConvEltAddReluInferMeta` (x, filter, bias, context_length,
/// context_start, context_stride): a positive context of stride 1 over a
/// 2-D input; the 2-D filter is `context_length * x[1]` high. `out` is
/// `[x[0], filter[1]]` with `x`'s LoD, `col_mat` `[x[0], filter[0]]`.
fn fusion_seqconv_eltadd_relu(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let w = a.tensor(1)?;
    let len = a.int(3)?;
    let start = a.int(4)?;
    let stride = a.int(5)?;
    if len <= 0 {
        return Err(Bad(format!(
            "context_length should be greater than 0, but received context_length is: {len}"
        )));
    }
    if stride != 1 {
        return Err(Bad(format!(
            "Currently, FusionSeqConvEltAddReluOp only supports contextStride=1, but received \
             value is: {stride}."
        )));
    }
    if x.dims.rank() != 2 {
        return Err(Bad(format!(
            "Input(X) should be 2-D tensor, but reveiced value is: {}.",
            x.dims.rank()
        )));
    }
    if w.dims.rank() != 2 {
        return Err(Bad(format!(
            "Filter should be 2-D tensor, but reveiced value is: {}.",
            w.dims.rank()
        )));
    }
    let (x0, x1) = (x.dims.at(0)?, x.dims.at(1)?);
    let (w0, w1) = (w.dims.at(0)?, w.dims.at(1)?);
    if w0 != len.wrapping_mul(x1) {
        return Err(Bad(format!(
            "Filter's height should be equal to context_length * input_hidden_size, but \
             received Filter height is: {w0},context_length is: {len}, input_hidden_size is: \
             {x1}."
        )));
    }
    if len.wrapping_add(start) <= 0 {
        return Err(Bad(format!(
            "contextStart size should be smaller than contextLength, but received \
             context_length is: {len}, contextStart is: {start}."
        )));
    }
    set(outs, 0, with_lod(&x, x.dtype, DDim::new(&[x0, w1])?));
    set(outs, 1, Meta::new(x.dtype, DDim::new(&[x0, w0])?));
    Ok(())
}

/// A result the function gives a data type but no dims (see
/// [`Meta::unset_dims`]).
fn typed_only(dtype: pir_dialects::pd_op::DataType) -> Result<Meta, Bad> {
    Ok(Meta::unset_dims(dtype))
}

/// `FusionGRUInferMeta` (x, h0, weight_x, weight_h, bias, activation,
/// gate_activation, is_reverse, use_seq, origin_mode, force_fp32_output):
/// `x` is 2-D (or 3-D with a unit middle dim, flattened); the frame size is
/// a third of `weight_x`'s width. Results: `reordered_h0` (a type only,
/// with `h0`), `xx`, `batched_input` and `batched_out` (without
/// `use_seq`), `hidden` `[rows, frame]`.
fn fusion_gru(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let wx = a.tensor(2)?;
    let wh = a.tensor(3)?;
    let use_seq = a.bool(8)?;
    let xd = &x.dims;
    let x_mat = if xd.rank() == 3 && xd.at(1)? == 1 {
        DDim::new(&[xd.at(0)?, xd.slice(1, 3)?.product()])?
    } else {
        *xd
    };
    if x_mat.rank() != 2 {
        return Err(Bad(format!(
            "The size of input X dims should be 2, or 3 with second dimension equal to 1, but \
             now Input X dim is:{xd:?} "
        )));
    }
    if wx.dims.rank() != 2 {
        return Err(Bad(format!(
            "The rank of Input(WeightX) should be 2, but received WeightX dim size is:{}, \
             WeightX dim is:{:?} ",
            wx.dims.rank(),
            wx.dims
        )));
    }
    let (rows, width) = (x_mat.at(0)?, x_mat.at(1)?);
    let (wx0, wx1) = (wx.dims.at(0)?, wx.dims.at(1)?);
    if wx0 != width {
        return Err(Bad(format!(
            "The first dimension of flattened WeightXshould equal to last dimension of \
             flattened input X, but received fattened WeightX dimension is:{wx0}, flattened X \
             dimension is:{width}"
        )));
    }
    let frame = wx1 / 3;
    if wh.dims.rank() != 2 {
        return Err(Bad(format!(
            "The rank of Input(WeightH) should be 2, but received WeightH dim size is:{}, \
             WeightH dim is:{:?}",
            wh.dims.rank(),
            wh.dims
        )));
    }
    if wh.dims.at(0)? != frame {
        return Err(Bad(format!(
            "The first dimension of WeightH should equal to frame_size, but received WeightH's \
             first dimension is: {}, frame size is:{frame}",
            wh.dims.at(0)?
        )));
    }
    if wh.dims.at(1)? != frame.wrapping_mul(3) {
        return Err(Bad(format!(
            "The second dimension of Input(WeightH) should equal to 3 * frame_size, but \
             received WeightH is:{}, frame size is:{frame}",
            wh.dims.at(1)?
        )));
    }
    let reordered = match a.opt_tensor(1)? {
        Some(h0) => {
            if h0.dims.at(1)? != frame {
                return Err(Bad(format!(
                    "The width of H0 must be equal to frame_size, but receiced the width of H0 \
                     is:{}, frame size is:{frame}",
                    h0.dims.at(1)?
                )));
            }
            typed_only(x.dtype)?
        }
        None => typed_only(pir_dialects::pd_op::DataType::Float32)?,
    };
    if let Some(b) = a.opt_tensor(4)? {
        let bd = &b.dims;
        if bd.rank() != 2 {
            return Err(Bad(format!(
                "The rank of Input(Bias) should be 2, but received Bias rank is:{}, Bias dim \
                 is:{bd:?}",
                bd.rank()
            )));
        }
        if bd.at(0)? != 1 {
            return Err(Bad(format!(
                "The first dimension of Input(Bias) should be 1, but received Bias first dim \
                 is:{}, Bias dim is:{bd:?}",
                bd.at(0)?
            )));
        }
        if bd.at(1)? != frame.wrapping_mul(3) {
            return Err(Bad(format!(
                "The shape of Bias must be [1, frame_size * 3], but received bias dim \
                 is:{bd:?}, frame size is:{frame}"
            )));
        }
    }
    let hidden = DDim::new(&[rows, frame])?;
    let (xx_width, batched_input, batched_out) = if use_seq {
        let untouched = typed_only(pir_dialects::pd_op::DataType::Float32)?;
        (wx1, untouched.clone(), untouched)
    } else {
        (
            width.min(wx1),
            Meta::new(x.dtype, DDim::new(&[rows, wx1])?),
            Meta::new(x.dtype, hidden),
        )
    };
    set(outs, 0, reordered);
    set(
        outs,
        1,
        with_lod(&x, x.dtype, DDim::new(&[rows, xx_width])?),
    );
    set(outs, 2, batched_input);
    set(outs, 3, batched_out);
    set(outs, 4, with_lod(&x, x.dtype, hidden));
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testing::types;

    #[test]
    fn repeated_fc_relu_leaves_intermediates_as_built() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,-1],stop_gradient:[true]} : () -> tensor<-1x-1xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d2\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d3\",place:Place(undefined:0),shape:[32,8],stop_gradient:[true]} : () -> tensor<32x8xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d4\",place:Place(undefined:0),shape:[8,4],stop_gradient:[true]} : () -> tensor<8x4xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d5\",place:Place(undefined:0),shape:[32],stop_gradient:[true]} : () -> tensor<32xf64>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d6\",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf64>\n\
                 (%6) = \"pd_op.data\" () {dtype:float64,name:\"d7\",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf64>\n\
                 (%7) = \"builtin.combine\" (%1, %2, %3) {stop_gradient:[true]} : (tensor<-1x32xf64>, tensor<32x8xf64>, tensor<8x4xf64>) -> vec[tensor<-1x32xf64>,tensor<32x8xf64>,tensor<8x4xf64>]\n\
                 (%8) = \"builtin.combine\" (%4, %5, %6) {stop_gradient:[true]} : (tensor<32xf64>, tensor<2x4xf64>, tensor<4xf64>) -> vec[tensor<32xf64>,tensor<2x4xf64>,tensor<4xf64>]\n\
                 (%9, %10) = \"pd_op.fusion_repeated_fc_relu\" (%0, %7, %8) {stop_gradient:[true,true]} : (tensor<-1x-1xf64>, vec[tensor<-1x32xf64>,tensor<32x8xf64>,tensor<8x4xf64>], vec[tensor<32xf64>,tensor<2x4xf64>,tensor<4xf64>]) -> vec[tensor<0xf32>,tensor<0xf32>], tensor<-1x4xf64>\n}\n";
        assert_eq!(
            types(t),
            ["vec[tensor<f32>,tensor<f32>]", "tensor<-1x4xf64>"]
        );
    }

    #[test]
    fn squared_mat_sub_products() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d13\",place:Place(undefined:0),shape:[-1,-1],stop_gradient:[true]} : () -> tensor<-1x-1xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d14\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%2, %3, %4, %5) = \"pd_op.fusion_squared_mat_sub\" (%0, %1) {scalar:1,stop_gradient:[true,true,true,true]} : (tensor<-1x-1xf64>, tensor<-1x8xf64>) -> tensor<-1x-1xf64>, tensor<-1x8xf64>, tensor<-1x8xf64>, tensor<-1x8xf64>\n}\n";
        assert_eq!(
            types(t),
            [
                "tensor<-1x-1xf64>",
                "tensor<-1x8xf64>",
                "tensor<-1x8xf64>",
                "tensor<-1x8xf64>"
            ]
        );
    }

    #[test]
    fn seqconv_eltadd_relu_col_mat() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d15\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d16\",place:Place(undefined:0),shape:[48,-1],stop_gradient:[true]} : () -> tensor<48x-1xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d17\",place:Place(undefined:0),shape:[8],stop_gradient:[true]} : () -> tensor<8xf64>\n\
                 (%3, %4) = \"pd_op.fusion_seqconv_eltadd_relu\" (%0, %1, %2) {context_length:3,context_start:-2,context_stride:1,stop_gradient:[true,true]} : (tensor<-1x16xf64>, tensor<48x-1xf64>, tensor<8xf64>) -> tensor<-1x-1xf64>, tensor<-1x48xf64>\n}\n";
        assert_eq!(types(t), ["tensor<-1x-1xf64>", "tensor<-1x48xf64>"]);
    }
    #[test]
    fn fusion_gru_batched_without_use_seq() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d2\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d3\",place:Place(undefined:0),shape:[16,24],stop_gradient:[true]} : () -> tensor<16x24xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d4\",place:Place(undefined:0),shape:[8,24],stop_gradient:[true]} : () -> tensor<8x24xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d5\",place:Place(undefined:0),shape:[1,24],stop_gradient:[true]} : () -> tensor<1x24xf64>\n\
                 (%5, %6, %7, %8, %9) = \"pd_op.fusion_gru\" (%0, %1, %2, %3, %4) {activation:\"tanh\",force_fp32_output:false,gate_activation:\"sigmoid\",is_reverse:false,origin_mode:false,stop_gradient:[true,true,true,true,true],use_seq:false} : (tensor<-1x16xf64>, tensor<-1x8xf64>, tensor<16x24xf64>, tensor<8x24xf64>, tensor<1x24xf64>) -> tensor<0xf64>, tensor<-1x16xf64>, tensor<-1x24xf64>, tensor<-1x8xf64>, tensor<-1x8xf64>\n}\n";
        assert_eq!(
            types(t),
            [
                "tensor<f64>",
                "tensor<-1x16xf64>",
                "tensor<-1x24xf64>",
                "tensor<-1x8xf64>",
                "tensor<-1x8xf64>"
            ]
        );
    }

    #[test]
    fn fusion_gru_flattens_unit_middle_dim() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d6\",place:Place(undefined:0),shape:[3,1,16],stop_gradient:[true]} : () -> tensor<3x1x16xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d7\",place:Place(undefined:0),shape:[16,24],stop_gradient:[true]} : () -> tensor<16x24xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d8\",place:Place(undefined:0),shape:[8,24],stop_gradient:[true]} : () -> tensor<8x24xf64>\n\
                 (%3, %4, %5, %6, %7) = \"pd_op.fusion_gru\" (%0, <<NULL VALUE>>, %1, %2, <<NULL VALUE>>) {activation:\"tanh\",force_fp32_output:false,gate_activation:\"sigmoid\",is_reverse:false,origin_mode:false,stop_gradient:[true,true,true,true,true],use_seq:true} : (tensor<3x1x16xf64>, <<NULL TYPE>>, tensor<16x24xf64>, tensor<8x24xf64>, <<NULL TYPE>>) -> tensor<0xf32>, tensor<3x24xf64>, tensor<0xf32>, tensor<0xf32>, tensor<3x8xf64>\n}\n";
        assert_eq!(
            types(t),
            [
                "tensor<f32>",
                "tensor<3x24xf64>",
                "tensor<f32>",
                "tensor<f32>",
                "tensor<3x8xf64>"
            ]
        );
    }
}
