//! Detection InferMeta functions of Paddle's `multiary.cc`:
//! `DeformableConvInferMeta` and `GenerateProposalsV2InferMeta`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// Paddle's `ConvOutputSize` (in `int`): the extent after a convolution,
/// which must be positive.
fn conv_output_size(
    input: i64,
    filter: i64,
    dilation: i64,
    padding: i64,
    stride: i64,
) -> Result<i64, Bad> {
    let (input, filter) = (i64::from(input as i32), i64::from(filter as i32));
    let dkernel = dilation * (filter - 1) + 1;
    let out = (input + 2 * padding - dkernel) / stride + 1;
    if out <= 0 {
        return Err(Bad(format!(
            "The output's size is expected to be greater than 0. But received: output's size is {out}. The output's size is computed by ((input_size + 2 * padding - (dilation * (filter_size - 1) + 1)) / stride + 1), where input_size is {input}, padding is {padding}, filter_size is {filter}, dilation is {dilation}, stride is {stride}."
        )));
    }
    Ok(out)
}

/// `DeformableConvInferMeta` (x, offset, filter, mask, strides, paddings,
/// dilations, deformable_groups, groups, im2col_step): `[N, C_out, H', W']`
/// of x's data type, an unknown spatial extent where x's or the filter's is
/// unknown. The offset and mask checks run only at run time.
pub(crate) fn deformable_conv(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let filter = a.tensor(2)?;
    let strides = a.ints(4)?;
    let paddings = a.ints(5)?;
    let dilations = a.ints(6)?;
    let deformable_groups = a.int(7)?;
    let groups = a.int(8)?;
    let im2col_step = a.int(9)?;
    let (xd, fd) = (x.dims.as_slice(), filter.dims.as_slice());
    if xd.len() != 4 {
        return Err(Bad(format!(
            "Conv input should be 4-D tensor, get {}",
            xd.len()
        )));
    }
    if xd.len() != fd.len() {
        return Err(Bad(format!(
            "Conv input dimension and filter dimension should be the same. The difference is [{}]: [{}]",
            xd.len(),
            fd.len()
        )));
    }
    if xd.len().wrapping_sub(strides.len()) != 2 {
        return Err(Bad(format!(
            "Conv input dimension and strides dimension should be consistent. But received input dimension:[{}], strides dimension:[{}]",
            xd.len(),
            strides.len()
        )));
    }
    if paddings.len() != strides.len() {
        return Err(Bad(format!(
            "Conv paddings dimension and Conv strides dimension should be the same. The difference is [{}]: [{}]",
            paddings.len(),
            strides.len()
        )));
    }
    if xd[1] != fd[1] * groups {
        return Err(Bad(format!(
            "The number of input channels should be equal to filter channels * groups. The difference is [{}]: [{}]",
            xd[1],
            fd[1] * groups
        )));
    }
    if groups == 0 || fd[0] % groups != 0 {
        return Err(Bad(format!(
            "The number of output channels should be divided by groups. But received output channels:[{}], groups:[{groups}]",
            fd[0]
        )));
    }
    if deformable_groups == 0 || fd[0] % deformable_groups != 0 {
        return Err(Bad(format!(
            "The number of output channels should be divided by deformable groups. The difference is [{}]: [0]",
            fd[0] % groups
        )));
    }
    if xd[0] > im2col_step && (im2col_step == 0 || xd[0] % im2col_step != 0) {
        return Err(Bad(format!(
            "Input batchsize must be smaller than or divide im2col_step. But received Input batchsize:[{}], im2col_step:[{im2col_step}]",
            xd[0]
        )));
    }
    // Paddle compares the `int`s with `0U`: a negative one is a huge
    // unsigned number, so only 0 fails.
    if let Some(i) = strides.iter().position(|&s| s == 0) {
        return Err(Bad(format!("stride {i} size incorrect")));
    }
    if let Some(i) = dilations.iter().position(|&d| d == 0) {
        return Err(Bad(format!("dilation {i} size incorrect")));
    }
    let mut out = vec![xd[0], fd[0]];
    for (i, &stride) in strides.iter().enumerate() {
        let (input, f) = (xd[i + 2], fd[i + 2]);
        let dilation = dilations
            .get(i)
            .copied()
            .ok_or_else(|| Bad(format!("dilation {i} missing")))?;
        out.push(if input <= 0 || f <= 0 {
            -1
        } else {
            conv_output_size(input, f, dilation, paddings[i], stride)?
        });
    }
    if out[1] % deformable_groups != 0 {
        return Err(Bad(format!(
            "output num_filter must divide deformable group size. But received output num_filter:[{}], deformable group size:[{deformable_groups}]",
            out[1]
        )));
    }
    set(outs, 0, Meta::new(x.dtype, DDim::new(&out)?));
    Ok(())
}

/// `GenerateProposalsV2InferMeta`: `rpn_rois` `[-1, 4]`, `rpn_roi_probs`
/// `[-1, 1]`, `rpn_rois_num` `[N]` of the scores. Paddle sets no data type:
/// the builder's fresh tensors are float32.
pub(crate) fn generate_proposals(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let scores = a.tensor(0)?;
    set(outs, 0, Meta::new(DataType::Float32, DDim::new(&[-1, 4])?));
    set(outs, 1, Meta::new(DataType::Float32, DDim::new(&[-1, 1])?));
    set(
        outs,
        2,
        Meta::new(DataType::Float32, DDim::new(&[scores.dims.at(0)?])?),
    );
    Ok(())
}
