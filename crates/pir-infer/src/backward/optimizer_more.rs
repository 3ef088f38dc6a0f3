//! More parameter updates (Paddle's `multiary.cc`): ASGD, decayed Adagrad,
//! LARS and DGC momentum, the model-average accumulators, the AMP
//! `check_finite_and_unscale_` and the DGC encoder (which sets nothing).

use pir_dialects::pd_op::DataType;

use super::optimizer::{
    check_lr, check_param_dims, master_param, mp_type, set_like_inputs, sgd_master_out,
    LR_UNINITIALIZED,
};
use super::{dims_only, fresh, untouched};
use crate::args::Args;
use crate::meta::{DDim, Out};
use crate::unary::{set, set_list};
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "ASGDInferMeta" => asgd,
        "AverageAccumulatesInferMeta" => average_accumulates,
        "CheckFiniteAndUnscaleInferMeta" => check_finite_and_unscale,
        "DecayedAdagradInferMeta" => decayed_adagrad,
        "LarsMomentumInferMeta" => lars_momentum,
        "DGCMomentumInferMeta" => dgc_momentum,
        "DgcInferMeta" => dgc,
        _ => return None,
    })
}

/// `ASGDInferMeta` (param, grad, learning_rate, d, y, n, master_param,
/// multi_precision): `param_out`, `d_out`, `y_out` like their inputs; with
/// `multi_precision` the master copy of `master_param`'s dims in its
/// multi-precision type.
fn asgd(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set_like_inputs(a, outs, &[(0, 0), (1, 3), (2, 4)])?;
    sgd_master_out(a, outs, 6, 7, 3)
}

/// `AverageAccumulatesInferMeta` (param, in_sum_1, in_sum_2, in_sum_3,
/// in_num_accumulates, in_old_num_accumulates, in_num_updates, ...): the
/// sums keep their dims and types, the counters are `[1]` of theirs.
fn average_accumulates(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set_like_inputs(a, outs, &[(0, 1), (1, 2), (2, 3)])?;
    for i in 3..6 {
        let c = a.tensor(i + 1)?;
        set(outs, i, fresh(DDim::new(&[1])?, c.dtype));
    }
    Ok(())
}

/// `CheckFiniteAndUnscaleInferMeta` (x, scale): each output like its input
/// (dims and type); `found_infinite` a `[1]` bool.
fn check_finite_and_unscale(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    set_list(outs, 0, xs.iter().map(|x| fresh(x.dims, x.dtype)).collect());
    set(outs, 1, fresh(DDim::new(&[1])?, DataType::Bool));
    Ok(())
}

/// `DecayedAdagradInferMeta` (param, grad, moment, learning_rate, decay,
/// epsilon): a one-element learning rate, `grad` and `moment` of the
/// parameter's dims; both results like the parameter.
fn decayed_adagrad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let grad = a.tensor(1)?;
    let moment = a.tensor(2)?;
    check_lr(
        &a.tensor(3)?,
        Some(LR_UNINITIALIZED),
        "LearningRate should have one element",
    )?;
    for (other, which) in [(&grad, "Grad"), (&moment, "Moment")] {
        check_param_dims(
            &param.dims,
            &other.dims,
            &format!("Param and {which} input of DecayedAdagradOp should have the same dimension."),
        )?;
    }
    set(outs, 0, fresh(param.dims, param.dtype));
    set(outs, 1, fresh(param.dims, param.dtype));
    Ok(())
}

/// `LarsMomentumInferMeta` (param, velocity, learning_rate, grad,
/// master_param, lars_weight_decay, ...): as many gradients, velocities
/// and decays as parameters, one-element learning rates, matching dims;
/// per parameter the result like it, the velocity (and master copy, with
/// master parameters) in its multi-precision type.
fn lars_momentum(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let params = a.tensors(0)?;
    let velocity = a.tensors(1)?;
    let lrs = a.tensors(2)?;
    let grads = a.tensors(3)?;
    let decay = a.floats(5)?;
    // (what Paddle calls each list, its short name, its length)
    let param = ("Input(Param)", "Param", params.len());
    let grad = ("Input(Grad)", "Grad", grads.len());
    let velocities = ("Input(Velocity)", "Velocity", velocity.len());
    let decays = ("Attr(Lars_weight_decay)", "Lars_weight_decay", decay.len());
    for ((first, short1, n1), (second, short2, n2)) in
        [(param, grad), (param, velocities), (decays, grad)]
    {
        if n1 != n2 {
            return Err(Bad(format!(
                "{first} and {second} of LarsMomentumOp should have same quantity. But number of \
                 {short1} is [{n1}] and {short2} is [{n2}]."
            )));
        }
    }
    for lr in &lrs {
        check_lr(
            lr,
            None,
            "Learning_rate should be a scalar. But Received LearningRate's dim [{}]",
        )?;
    }
    for ((p, g), v) in params.iter().zip(&grads).zip(&velocity) {
        if p.dims != g.dims {
            return Err(Bad(format!(
                "Input(Param) and Input(Grad) input of LarsMomentumOp shall have same dimension. \
                 But Param`s dim is {:?} and Grad's dim is {:?}.",
                p.dims, g.dims
            )));
        }
        if p.dims != v.dims {
            return Err(Bad(format!(
                "Input(Param) and Input(Velocity) of LarsMomentumOp shall have same dimension. \
                 But Param dim {:?} differs with Velocity dim {:?}.",
                p.dims, v.dims
            )));
        }
    }
    let velocity_out = params
        .iter()
        .map(|p| fresh(p.dims, mp_type(p.dtype)))
        .collect::<Vec<_>>();
    set_list(
        outs,
        0,
        params.iter().map(|p| fresh(p.dims, p.dtype)).collect(),
    );
    if a.has(4) {
        set_list(outs, 2, velocity_out.clone());
    }
    set_list(outs, 1, velocity_out);
    Ok(())
}

/// `DGCMomentumInferMeta` (param, grad, velocity, learning_rate,
/// master_param, ...): momentum's checks and results, plus matching dims of
/// `grad` and `velocity`; `grad_out` stays as built.
fn dgc_momentum(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let grad = a.tensor(1)?;
    let velocity = a.tensor(2)?;
    check_lr(
        &a.tensor(3)?,
        Some(LR_UNINITIALIZED),
        "Learning_rate should be a scalar. But Received LearningRate's dim [{}]",
    )?;
    let p = &param.dims;
    check_param_dims(
        p,
        &grad.dims,
        "Param and Grad input of MomentumOp should have the same dimension. But received \
         Param's dim {param} and Grad's dim {other}.",
    )?;
    check_param_dims(
        p,
        &velocity.dims,
        "Param and Velocity of MomentumOp should have the same dimension. But received \
         Param's dim {param} and Velocity {other}.",
    )?;
    let master = master_param(
        a,
        4,
        p,
        "Param and MasterParam of MomentumOp should have the same dimension. But received \
         Param's dim {param} and MasterParam {other}.",
    )?;
    let mp = mp_type(param.dtype);
    set(outs, 0, dims_only(*p));
    set(outs, 1, fresh(*p, mp));
    if master.is_some() {
        let m = if a.bool(11)? {
            fresh(*p, mp)
        } else {
            untouched()
        };
        set(outs, 2, m);
    }
    set(outs, 3, untouched());
    Ok(())
}

/// `DgcInferMeta`: Paddle's function sets nothing; every result stays as
/// built.
fn dgc(_a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    for o in outs.iter_mut() {
        *o = Out::Tensor(untouched());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testing::types;

    #[test]
    fn asgd_master_copy_with_multi_precision() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d7\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d8\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d9\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float16,name:\"d10\",place:Place(undefined:0),shape:[3,8],stop_gradient:[true]} : () -> tensor<3x8xf16>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d11\",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf64>\n\
                 (%5) = \"pd_op.data\" () {dtype:float32,name:\"d12\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%6) = \"pd_op.data\" () {dtype:float16,name:\"d13\",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf16>\n\
                 (%7, %8, %9, %10) = \"pd_op.asgd_\" (%0, %1, %2, %3, %4, %5, %6) {multi_precision:true,stop_gradient:[true,true,true,true]} : (tensor<-1x8xf32>, tensor<-1x8xf32>, tensor<1xf32>, tensor<3x8xf16>, tensor<4xf64>, tensor<1xf32>, tensor<5xf16>) -> tensor<-1x8xf32>, tensor<3x8xf16>, tensor<4xf64>, tensor<5xf32>\n}\n";
        assert_eq!(
            types(t),
            [
                "tensor<-1x8xf32>",
                "tensor<3x8xf16>",
                "tensor<4xf64>",
                "tensor<5xf32>"
            ]
        );
    }

    #[test]
    fn average_accumulates_counters_are_one_element() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d41\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d42\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float16,name:\"d43\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf16>\n\
                 (%3) = \"pd_op.data\" () {dtype:float32,name:\"d44\",place:Place(undefined:0),shape:[4,4],stop_gradient:[true]} : () -> tensor<4x4xf32>\n\
                 (%4) = \"pd_op.data\" () {dtype:int64,name:\"d45\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>\n\
                 (%5) = \"pd_op.data\" () {dtype:int32,name:\"d46\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>\n\
                 (%6) = \"pd_op.data\" () {dtype:int64,name:\"d47\",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>\n\
                 (%7, %8, %9, %10, %11, %12) = \"pd_op.average_accumulates_\" (%0, %1, %2, %3, %4, %5, %6) {average_window:0.1,max_average_window:100,min_average_window:10,stop_gradient:[true,true,true,true,true,true]} : (tensor<-1x8xf32>, tensor<-1x8xf64>, tensor<3xf16>, tensor<4x4xf32>, tensor<1xi64>, tensor<2xi32>, tensor<-1xi64>) -> tensor<-1x8xf64>, tensor<3xf16>, tensor<4x4xf32>, tensor<1xi64>, tensor<1xi32>, tensor<1xi64>\n}\n";
        assert_eq!(
            types(t),
            [
                "tensor<-1x8xf64>",
                "tensor<3xf16>",
                "tensor<4x4xf32>",
                "tensor<1xi64>",
                "tensor<1xi32>",
                "tensor<1xi64>"
            ]
        );
    }

    #[test]
    fn check_finite_and_unscale_flag() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d2\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d3\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%3) = \"builtin.combine\" (%0, %1) {stop_gradient:[true]} : (tensor<-1x8xf32>, tensor<3xf32>) -> vec[tensor<-1x8xf32>,tensor<3xf32>]\n\
                 (%4, %5) = \"pd_op.check_finite_and_unscale_\" (%3, %2) {stop_gradient:[true,true]} : (vec[tensor<-1x8xf32>,tensor<3xf32>], tensor<1xf32>) -> vec[tensor<-1x8xf32>,tensor<3xf32>], tensor<1xb>\n}\n";
        assert_eq!(
            types(t),
            ["vec[tensor<-1x8xf32>,tensor<3xf32>]", "tensor<1xb>"]
        );
    }

    #[test]
    fn lars_momentum_master_copies() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d14\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d15\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d16\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d17\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d18\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d19\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf64>\n\
                 (%6) = \"pd_op.data\" () {dtype:float32,name:\"d20\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%7) = \"pd_op.data\" () {dtype:float64,name:\"d21\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%8) = \"pd_op.data\" () {dtype:float64,name:\"d22\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf64>\n\
                 (%9) = \"builtin.combine\" (%7, %8) {stop_gradient:[true]} : (tensor<-1x8xf64>, tensor<3xf64>) -> vec[tensor<-1x8xf64>,tensor<3xf64>]\n\
                 (%10) = \"builtin.combine\" (%0, %1) {stop_gradient:[true]} : (tensor<-1x8xf64>, tensor<3xf64>) -> vec[tensor<-1x8xf64>,tensor<3xf64>]\n\
                 (%11) = \"builtin.combine\" (%2, %3) {stop_gradient:[true]} : (tensor<-1x8xf64>, tensor<3xf64>) -> vec[tensor<-1x8xf64>,tensor<3xf64>]\n\
                 (%12) = \"builtin.combine\" (%4, %5) {stop_gradient:[true]} : (tensor<-1x8xf64>, tensor<3xf64>) -> vec[tensor<-1x8xf64>,tensor<3xf64>]\n\
                 (%13) = \"builtin.combine\" (%6) {stop_gradient:[true]} : (tensor<1xf32>) -> vec[tensor<1xf32>]\n\
                 (%14, %15, %16) = \"pd_op.lars_momentum_\" (%10, %11, %12, %13, %9) {epsilon:0,lars_coeff:0.001,lars_weight_decay:[0.1,0.1],mu:0.9,multi_precision:true,rescale_grad:0,stop_gradient:[true,true,true]} : (vec[tensor<-1x8xf64>,tensor<3xf64>], vec[tensor<-1x8xf64>,tensor<3xf64>], vec[tensor<-1x8xf64>,tensor<3xf64>], vec[tensor<1xf32>], vec[tensor<-1x8xf64>,tensor<3xf64>]) -> vec[tensor<-1x8xf64>,tensor<3xf64>], vec[tensor<-1x8xf64>,tensor<3xf64>], vec[tensor<-1x8xf64>,tensor<3xf64>]\n}\n";
        assert_eq!(
            types(t),
            [
                "vec[tensor<-1x8xf64>,tensor<3xf64>]",
                "vec[tensor<-1x8xf64>,tensor<3xf64>]",
                "vec[tensor<-1x8xf64>,tensor<3xf64>]"
            ]
        );
    }
}
