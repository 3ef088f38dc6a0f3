//! Functions of list operands and list results: the gradients of list ops
//! (`stack`, `unstack`, `concat`, `meshgrid`, `multi_dot`, `rnn`...) and the
//! unchanged-list functions.

use super::{dims_only, fresh, list_len};
use crate::args::Args;
use crate::meta::{with_lod, DDim, Out};
use crate::unary::{set, set_list};
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "UnchangedMultiInferMeta" | "UnchangedVectorInferMeta" => unchanged_multi,
        "PartialConcatGradInferMeta" | "PartialSumGradInferMeta" => partial_grad,
        "MultiDotGradInferMeta" => multi_dot_grad,
        "MultiplexGradInferMeta" => multiplex_grad,
        "MeshgridGradInferMeta" => meshgrid_grad,
        "StackGradInferMeta" => stack_grad,
        "UnStackGradInferMeta" => unstack_grad,
        "RnnGradInferMeta" => rnn_grad,
        "CudnnLSTMGradInferMeta" => cudnn_lstm_grad,
        "LSTMGradInferMeta" => lstm_grad,
        _ => return None,
    })
}

/// `UnchangedMultiInferMeta`, `UnchangedVectorInferMeta`: result list `i`
/// shares input `i`.
fn unchanged_multi(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(xs);
    }
    Ok(())
}

/// `PartialConcatGradInferMeta`, `PartialSumGradInferMeta` (xs): each
/// gradient takes dims and data type of its input.
fn partial_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    set_list(outs, 0, xs.iter().map(|x| fresh(x.dims, x.dtype)).collect());
    Ok(())
}

/// `MultiDotGradInferMeta` (x, out_grad): each gradient takes the dims and
/// LoD of its input; the data type is left as built (float32).
fn multi_dot_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    set_list(
        outs,
        0,
        xs.iter()
            .map(|x| with_lod(x, pir_dialects::pd_op::DataType::Float32, x.dims))
            .collect(),
    );
    Ok(())
}

/// `MultiplexGradInferMeta` (index, out_grad): every gradient of the
/// `inputs` list gets the dims of `out_grad` only.
fn multiplex_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let dout = a.tensor(1)?;
    let n = list_len(a, "inputs")?;
    if n == 0 {
        return Err(Bad("Output(X@Grad) should not be null.".into()));
    }
    set_list(outs, 0, vec![dims_only(dout.dims); n]);
    Ok(())
}

/// `MeshgridGradInferMeta` (inputs, outputs_grad): needs more than one
/// output gradient; each input gradient shares its input.
fn meshgrid_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let grads = a.tensors(1)?;
    if grads.len() <= 1 {
        return Err(Bad(format!(
            "Number of Inputs(Out@Grad) should be larger than 1.But received \
             Inputs(Out@Grad)' size = {} .",
            grads.len()
        )));
    }
    set_list(outs, 0, xs);
    Ok(())
}

/// `StackGradInferMeta` (out_grad, axis): as many gradients as `x` has
/// tensors (at most `out_grad`'s extent on the axis), each `out_grad`
/// without the axis.
fn stack_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let dout = a.tensor(0)?;
    let axis = a.int(1)?;
    let rank = dout.dims.rank() as i64;
    if axis < -rank || axis >= rank {
        return Err(Bad(format!(
            "Attr(axis) must be inside [-rank, rank), where rank = {rank}, but received axis \
             is:{axis}."
        )));
    }
    let ax = if axis < 0 { axis + rank } else { axis } as usize;
    let n = list_len(a, "x")?;
    // The count is compared as an unsigned size: an unknown (-1) extent
    // admits any count.
    let extent = dout.dims.at(ax)?;
    if extent >= 0 && n as i64 > extent {
        return Err(Bad(format!(
            "Number of Outputs(X@Grad) should be less than or equal to dy dim at axis, but \
             received outputs size is:{n}, dy dims is:{extent}."
        )));
    }
    let mut d: Vec<i64> = dout.dims.as_slice().to_vec();
    d.remove(ax);
    let dims = DDim::new(&d)?;
    set_list(outs, 0, vec![fresh(dims, dout.dtype); n]);
    Ok(())
}

/// `UnStackGradInferMeta` (out_grad, axis): the output gradients must agree;
/// `x_grad` inserts their count at the axis.
fn unstack_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let gs = a.tensors(0)?;
    let first = gs
        .first()
        .ok_or_else(|| Bad("unstack_grad of no output gradients".into()))?;
    if let Some((i, g)) = gs.iter().enumerate().find(|(_, g)| g.dims != first.dims) {
        return Err(Bad(format!(
            "The dimensions of all Inputs(Y@Grad) must be the same,but received \
             Inputs(Y@Grad)'s {i}-th dimension is {:?}, Inputs(Y@Grad)'s 0-th to {}-th \
             dimension is {:?}.",
            g.dims,
            i - 1,
            first.dims
        )));
    }
    let rank = first.dims.rank() as i64;
    let axis = a.int(1)?;
    if axis < -(rank + 1) || axis > rank {
        return Err(Bad(format!(
            "The attribute axis is out of range, it must be inside [-(rank+1), rank+1), where \
             rank = {rank}"
        )));
    }
    let ax = if axis < 0 { axis + rank + 1 } else { axis } as usize;
    let mut d: Vec<i64> = first.dims.as_slice().to_vec();
    d.insert(ax, gs.len() as i64);
    set(outs, 0, fresh(DDim::new(&d)?, first.dtype));
    Ok(())
}

/// `RnnGradInferMeta` (x, pre_state, weight_list): `x_grad` shares `x`,
/// the state and weight gradients share their inputs.
fn rnn_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let pre_state = a.tensors(1)?;
    let weights = a.tensors(2)?;
    if pre_state.is_empty() {
        return Err(Bad(
            "The input pre_state in RnnGradInferMeta can't be empty.".into(),
        ));
    }
    if weights.is_empty() {
        return Err(Bad(
            "The input weight_grad_list in RnnGradInferMeta can't be empty.".into(),
        ));
    }
    set(outs, 0, x);
    set_list(outs, 1, pre_state);
    set_list(outs, 2, weights);
    Ok(())
}

/// `CudnnLSTMGradInferMeta` (x, init_h, init_c, weight_list): each gradient
/// shares its input; the weight gradients those of the weight list when
/// it is given.
fn cudnn_lstm_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    for i in 0..3 {
        set(outs, i, a.tensor(i)?);
    }
    if a.has(3) {
        set_list(outs, 3, a.tensors(3)?);
    }
    Ok(())
}

/// `LSTMGradInferMeta` (input, h0, c0, weight, bias): each gradient shares
/// its input.
fn lstm_grad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    for i in 0..5 {
        set(outs, i, a.tensor(i)?);
    }
    Ok(())
}
