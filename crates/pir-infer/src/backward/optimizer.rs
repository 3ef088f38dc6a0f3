//! Parameter updates of the optimizer ops (Paddle's `multiary.cc`). An
//! optional `*_out` result exists when its input does; a result the
//! function does not set keeps the fresh `IrTensor`'s meta.

use pir_dialects::pd_op::DataType;

use super::{dims_only, fresh, untouched};
use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::{Bad, InferFn};

/// The functions of this module.
pub(super) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "SgdInferMeta" => sgd,
        "MomentumInferMeta" => momentum,
        "AdadeltaInferMeta" => adadelta,
        "AdagradInferMeta" => adagrad,
        "AdamaxInferMeta" => adamax,
        "AdamwInferMeta" => adamw,
        "LambInferMeta" => lamb,
        "RmspropInferMeta" => rmsprop,
        "RpropInferMeta" => rprop,
        "FtrlInferMeta" => ftrl,
        "NAdamInferMeta" => nadam,
        "RAdamInferMeta" => radam,
        "MergedMomentumInferMeta" => merged_momentum,
        "MergedAdamInferMeta" => merged_adam,
        _ => return None,
    })
}

/// `SgdInferMeta` (param, learning_rate, grad, master_param,
/// multi_precision): a one-element learning rate; `param_out` like `param`;
/// the master copy as [`sgd_master_out`] makes it.
fn sgd(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let lr = a.tensor(1)?;
    let n = lr.dims.product();
    if n != 1 {
        return Err(Bad(format!(
            "Learning rate should have 1 element. But received LearningRate dims [{n}]"
        )));
    }
    set(outs, 0, fresh(param.dims, param.dtype));
    sgd_master_out(a, outs, 3, 4, 1)?;
    Ok(())
}

/// `MomentumInferMeta` (param, grad, velocity, learning_rate, master_param,
/// ...): a one-element learning rate; every result has `param`'s dims;
/// `velocity_out` and the master copy take the multi-precision type of
/// `param` (float32 for float16 and bfloat16), `param_out` only dims.
fn momentum(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let lr = a.tensor(3)?;
    let n = lr.dims.product();
    if n == 0 {
        return Err(Bad(
            "Maybe the Input variable LearningRate has not been initialized. You may need to \
             confirm if you put exe.run(startup_program) after optimizer.minimize function."
                .into(),
        ));
    }
    if n != 1 {
        return Err(Bad(format!(
            "Learning_rate should be a scalar. But Received LearningRate's dim [{n}]"
        )));
    }
    let mp = match param.dtype {
        DataType::Float16 | DataType::BFloat16 => DataType::Float32,
        d => d,
    };
    set(outs, 0, dims_only(param.dims));
    set(outs, 1, fresh(param.dims, mp));
    if a.has(4) {
        set(outs, 2, fresh(param.dims, mp));
    }
    Ok(())
}

/// The multi-precision type of a parameter: float32 for float16 and
/// bfloat16, else its own.
fn mp_type(d: DataType) -> DataType {
    match d {
        DataType::Float16 | DataType::BFloat16 => DataType::Float32,
        d => d,
    }
}

/// The learning rate must hold one element (Paddle's `product` of its
/// dims: an unknown extent makes it negative).
fn check_lr(lr: &Meta, message: &str) -> Result<(), Bad> {
    if lr.dims.product() != 1 {
        return Err(Bad(message.replace("{}", &lr.dims.product().to_string())));
    }
    Ok(())
}

/// Input `what` must have the parameter's dims exactly.
fn check_same(param: &DDim, other: &DDim, message: &str) -> Result<(), Bad> {
    if param != other {
        return Err(Bad(message.to_owned()));
    }
    Ok(())
}

/// The master-parameter result of the Adam family: with `multi_precision`
/// and a master parameter, `param`'s dims in the multi-precision type;
/// with a master parameter only, as built; without one, no result.
fn master_out(
    a: &Args<'_>,
    outs: &mut [Out],
    i: usize,
    param: &Meta,
    master: bool,
) -> Result<(), Bad> {
    if !master {
        return Ok(());
    }
    let m = if a.bool(i)? {
        fresh(param.dims, mp_type(param.dtype))
    } else {
        untouched()
    };
    let r = outs.len().saturating_sub(1);
    set(outs, r, m);
    Ok(())
}

/// `AdadeltaInferMeta` (param, grad, avg_squared_grad, avg_squared_update,
/// learning_rate, master_param, rho, epsilon, multi_precision).
fn adadelta(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let grad = a.tensor(1)?;
    let sq_grad = a.tensor(2)?;
    let sq_update = a.tensor(3)?;
    check_lr(&a.tensor(4)?, "LearningRate should have one element")?;
    let p = &param.dims;
    check_same(
        p,
        &grad.dims,
        "Param and grad input of AdadeltaOp should have same dimension.",
    )?;
    check_same(
        p,
        &sq_grad.dims,
        "Param and AvgSquaredGrad input of AdadeltaOp should have same dimension",
    )?;
    check_same(
        p,
        &sq_update.dims,
        "Param and AvgSquaredUpdate input of AdadeltaOp should have same dimension",
    )?;
    let master = a.opt_tensor(5)?;
    if let Some(m) = &master {
        check_same(
            p,
            &m.dims,
            "Param and MasterParam input of AdadeltaOp should have same dimension",
        )?;
    }
    set(outs, 0, fresh(*p, param.dtype));
    set(outs, 1, fresh(*p, sq_grad.dtype));
    set(outs, 2, fresh(*p, sq_update.dtype));
    master_out(a, outs, 8, &param, master.is_some())?;
    Ok(())
}

/// `AdagradInferMeta` (param, grad, moment, learning_rate, master_param,
/// epsilon, multi_precision).
fn adagrad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let moment = a.tensor(2)?;
    check_lr(&a.tensor(3)?, "LearningRate should have one element")?;
    let p = &param.dims;
    check_same(
        p,
        &moment.dims,
        "Param and Moment input of AdagradOp should have the same dimension.",
    )?;
    let master = a.opt_tensor(4)?;
    if let Some(m) = &master {
        // Paddle's message names Adadelta here.
        check_same(
            p,
            &m.dims,
            "Param and MasterParam input of AdadeltaOp should have same dimension",
        )?;
    }
    set(outs, 0, fresh(*p, param.dtype));
    set(outs, 1, fresh(*p, moment.dtype));
    master_out(a, outs, 6, &param, master.is_some())?;
    Ok(())
}

/// `AdamaxInferMeta` (param, grad, learning_rate, moment, inf_norm,
/// beta1_pow, master_param, beta1, beta2, epsilon, multi_precision).
fn adamax(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let grad = a.tensor(1)?;
    let lr = a.tensor(2)?;
    let moment = a.tensor(3)?;
    let inf_norm = a.tensor(4)?;
    let beta1_pow = a.tensor(5)?;
    if lr.dims.product() == 0 {
        return Err(Bad(
            "Maybe the Input variable LearningRate has not been initialized. You may need to \
             confirm if you put exe.run(startup_program) after optimizer.minimize function."
                .into(),
        ));
    }
    check_lr(&lr, "Learning rate should have 1 dimension")?;
    if beta1_pow.dims.product() != 1 {
        return Err(Bad("Beta1 power accumulator should have 1 dimension".into()));
    }
    let p = &param.dims;
    check_same(
        p,
        &grad.dims,
        "Param and Grad input of AdamaxOp should have same dimension",
    )?;
    check_same(
        p,
        &moment.dims,
        "Param and Moment input of AdamaxOp should have same dimension",
    )?;
    check_same(
        p,
        &inf_norm.dims,
        "Param and InfNorm input of AdamaxOp should have same dimension",
    )?;
    let master = a.opt_tensor(6)?;
    if let Some(m) = &master {
        check_same(
            p,
            &m.dims,
            "Param and MasterParam input of AdamaxOp should have same dimension",
        )?;
    }
    set(outs, 0, fresh(*p, param.dtype));
    set(outs, 1, fresh(*p, moment.dtype));
    set(outs, 2, fresh(*p, inf_norm.dtype));
    master_out(a, outs, 10, &param, master.is_some())?;
    Ok(())
}

/// `AdamwInferMeta` (`AdamInferMeta`'s parameters plus lr_ratio, coeff and
/// with_decay): a one-element learning rate, non-empty beta powers, moments
/// of the parameter's dims; `moment2_max_out` with `amsgrad`.
fn adamw(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let lr = a.tensor(2)?;
    let m1 = a.tensor(3)?;
    let m2 = a.tensor(4)?;
    let b1 = a.tensor(6)?;
    let b2 = a.tensor(7)?;
    let n = lr.dims.product();
    if n != 1 {
        return Err(Bad(format!(
            "The number of LearningRate shall be 1, but received {n}. Maybe the Input variable \
             LearningRate has not been initialized. You may need to confirm if you put \
             exe.run(startup_program) after optimizer.minimize function."
        )));
    }
    for (b, which) in [(&b1, "Beta1"), (&b2, "Beta2")] {
        let k = b.dims.product();
        if k < 1 {
            return Err(Bad(format!(
                "The size of {which} power accumulator should be greater than 0, but received {k}."
            )));
        }
    }
    let p = &param.dims;
    for (m, which) in [(&m1, "Moment1"), (&m2, "Moment2")] {
        if *p != m.dims {
            return Err(Bad(format!(
                "Param and {which} input of AdamOp should have same dimension. But received \
                 Param dims: {p:?}, {which} dims: {:?}.",
                m.dims
            )));
        }
    }
    let master = a.opt_tensor(8)?;
    if let Some(m) = &master {
        if *p != m.dims {
            return Err(Bad(format!(
                "Param and Moment1 input of AdamOp should have same dimension. But received \
                 Param dims: {p:?}, MasterParam dims: {:?}.",
                m.dims
            )));
        }
    }
    set(outs, 0, fresh(*p, param.dtype));
    set(outs, 1, fresh(*p, m1.dtype));
    set(outs, 2, fresh(*p, m2.dtype));
    // The result exists only with its input (Paddle's builder pairs them).
    if a.has(5) {
        let m = if a.bool(20)? {
            fresh(*p, m2.dtype)
        } else {
            untouched()
        };
        set(outs, 3, m);
    }
    set(outs, 4, fresh(b1.dims, b1.dtype));
    set(outs, 5, fresh(b2.dims, b2.dtype));
    master_out(a, outs, 18, &param, master.is_some())?;
    Ok(())
}

/// `LambInferMeta` (param, grad, learning_rate, moment1, moment2, beta1_pow,
/// beta2_pow, master_param, skip_update, ..., multi_precision): checks as
/// Adam's; `param_out` gets the parameter's dims only.
fn lamb(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let lr = a.tensor(2)?;
    let m1 = a.tensor(3)?;
    let m2 = a.tensor(4)?;
    let b1 = a.tensor(5)?;
    let b2 = a.tensor(6)?;
    let n = lr.dims.product();
    if n == 0 {
        return Err(Bad(format!(
            "The number of LearningRate shall not be 0, but received {n}. Maybe the Input \
             variable LearningRate has not been initialized. You may need to confirm if you put \
             exe.run(startup_program) after optimizer.minimize function."
        )));
    }
    if n != 1 {
        return Err(Bad(format!(
            "Learning rate should have 1 dimension, but received {n}."
        )));
    }
    for (b, which) in [(&b1, "Beta1"), (&b2, "Beta2")] {
        let k = b.dims.product();
        if k < 1 {
            return Err(Bad(format!(
                "The size of {which} power accumulator should be greater than 0, but received {k}."
            )));
        }
    }
    let p = &param.dims;
    for (m, which, op) in [(&m1, "Moment1", "LambOp"), (&m2, "Moment2", "AdamOp")] {
        if *p != m.dims {
            return Err(Bad(format!(
                "Param and {which} input of {op} should have same dimension. But received Param \
                 dims: {p:?}, {which} dims: {:?}.",
                m.dims
            )));
        }
    }
    let master = a.opt_tensor(7)?;
    if let Some(m) = &master {
        if *p != m.dims {
            return Err(Bad(format!(
                "Param and MasterParam input of AdamOp should have same dimension. But received \
                 Param dims: {p:?}, MasterParam dims: {:?}.",
                m.dims
            )));
        }
    }
    set(outs, 0, dims_only(*p));
    set(outs, 1, fresh(*p, m1.dtype));
    set(outs, 2, fresh(*p, m2.dtype));
    set(outs, 3, fresh(b1.dims, b1.dtype));
    set(outs, 4, fresh(b2.dims, b2.dtype));
    master_out(a, outs, 14, &param, master.is_some())?;
    Ok(())
}

/// The master copy of `SgdInferMeta` and `RpropInferMeta`: with
/// `multi_precision`, the dims of `master_param` (which must then be given)
/// in its multi-precision type; otherwise as built, or no result without a
/// master parameter.
fn sgd_master_out(
    a: &Args<'_>,
    outs: &mut [Out],
    master: usize,
    multi: usize,
    r: usize,
) -> Result<(), Bad> {
    let m = a.opt_tensor(master)?;
    if a.bool(multi)? {
        let m = m.ok_or_else(|| Bad("The current MetaTensor is not initialized.".into()))?;
        set(outs, r, fresh(m.dims, mp_type(m.dtype)));
    } else if m.is_some() {
        set(outs, r, untouched());
    }
    Ok(())
}

/// `RpropInferMeta` (param, grad, prev, learning_rate, master_param,
/// learning_rate_range, etas, multi_precision): `param_out`, `prev_out` and
/// `learning_rate_out` like their inputs.
fn rprop(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let prev = a.tensor(2)?;
    let lr = a.tensor(3)?;
    set(outs, 0, fresh(param.dims, param.dtype));
    set(outs, 1, fresh(prev.dims, prev.dtype));
    set(outs, 2, fresh(lr.dims, lr.dtype));
    sgd_master_out(a, outs, 4, 7, 3)
}

/// `RmspropInferMeta` (param, mean_square, grad, moment, learning_rate,
/// mean_grad, master_param, epsilon, decay, momentum, centered,
/// multi_precision): moments of the parameter's dims; `mean_grad_out` when
/// centered.
fn rmsprop(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let mean_square = a.tensor(1)?;
    let moment = a.tensor(3)?;
    let lr = a.tensor(4)?;
    let centered = a.bool(10)?;
    let p = &param.dims;
    if *p != moment.dims {
        return Err(Bad(format!(
            "Param and Momentum input of RmspropOp should have the same dimension. But received \
             Param's dim {p:?} and Moment {:?}",
            moment.dims
        )));
    }
    if *p != mean_square.dims {
        return Err(Bad(format!(
            "Param and Momentum input of RmspropOp should have the same dimension. But received \
             Param's dim {p:?} and MeanSquare {:?}",
            mean_square.dims
        )));
    }
    let n = lr.dims.product();
    if n != 1 {
        return Err(Bad(format!(
            "Learning Rate of RmspropOp should be a scalar. But received LearningRate's dim [{n}]"
        )));
    }
    let master = a.opt_tensor(6)?;
    if let Some(m) = &master {
        if *p != m.dims {
            return Err(Bad(format!(
                "Param and MasterParam input of RmspropOp should have same dimension. But \
                 received Param dims: {p:?}, MasterParam dims: {:?}.",
                m.dims
            )));
        }
    }
    set(outs, 0, fresh(*p, param.dtype));
    set(outs, 1, fresh(*p, moment.dtype));
    set(outs, 2, fresh(*p, mean_square.dtype));
    let mean_grad = a.opt_tensor(5)?;
    if centered {
        let g =
            mean_grad.ok_or_else(|| Bad("The current MetaTensor is not initialized.".into()))?;
        set(outs, 3, fresh(*p, g.dtype));
    } else if mean_grad.is_some() {
        set(outs, 3, untouched());
    }
    master_out(a, outs, 11, &param, master.is_some())
}

/// `FtrlInferMeta` (param, squared_accumulator, linear_accumulator, grad,
/// learning_rate, ...): `grad` of the parameter's dims, a one-element
/// learning rate; every result like the parameter.
fn ftrl(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let grad = a.tensor(3)?;
    let lr = a.tensor(4)?;
    if param.dims != grad.dims {
        return Err(Bad(format!(
            "Two input of FTRL Op's dimension must be same, but param_dim is {:?}, Grad is {:?}",
            param.dims, grad.dims
        )));
    }
    let n = lr.dims.product();
    if n == 0 {
        return Err(Bad(
            "Maybe the Input variable LearningRate has not been initialized. You may need to \
             confirm if you put exe.run(startup_program) after optimizer.minimize function."
                .into(),
        ));
    }
    if n != 1 {
        return Err(Bad(format!(
            "Learning Rate should be a scalar, but got {n}"
        )));
    }
    for i in 0..3 {
        set(outs, i, fresh(param.dims, param.dtype));
    }
    Ok(())
}

/// `NAdamInferMeta` and `RAdamInferMeta`: moments of the parameter's dims,
/// a one-element learning rate; the three accumulators (`pows`) keep their
/// dims and types.
fn nadam_like(
    a: &Args<'_>,
    outs: &mut [Out],
    op: &str,
    pows: [usize; 3],
    moments: [usize; 2],
) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let lr = a.tensor(2)?;
    let m1 = a.tensor(moments[0])?;
    let m2 = a.tensor(moments[1])?;
    let p = &param.dims;
    for (m, which) in [(&m1, "Moment1"), (&m2, "Moment2")] {
        if *p != m.dims {
            return Err(Bad(format!(
                "Param and Momentum input of {op} should have the same dimension. But received \
                 Param's dim {p:?} and {which} {:?}",
                m.dims
            )));
        }
    }
    let n = lr.dims.product();
    if n != 1 {
        return Err(Bad(format!(
            "Learning Rate of {op} should be a scalar. But received LearningRate's dim [{n}]"
        )));
    }
    let master = a.opt_tensor(8)?;
    if let Some(m) = &master {
        if *p != m.dims {
            return Err(Bad(format!(
                "Param and MasterParam input of {op} should have same dimension. But received \
                 Param dims: {p:?}, MasterParam dims: {:?}.",
                m.dims
            )));
        }
    }
    set(outs, 0, fresh(*p, param.dtype));
    for (r, i) in pows.into_iter().enumerate() {
        let t = a.tensor(i)?;
        set(outs, r + 1, fresh(t.dims, t.dtype));
    }
    set(outs, 4, fresh(*p, m1.dtype));
    set(outs, 5, fresh(*p, m2.dtype));
    let last = a.len().saturating_sub(1);
    master_out(a, outs, last, &param, master.is_some())
}

/// `NAdamInferMeta` (param, grad, learning_rate, momentum_decay_pow,
/// beta2_pow, mu_product, moment1, moment2, master_param, ...).
fn nadam(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    nadam_like(a, outs, "NAdamOp", [3, 4, 5], [6, 7])
}

/// `RAdamInferMeta` (param, grad, learning_rate, beta1_pow, beta2_pow, rho,
/// moment1, moment2, master_param, ...).
fn radam(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    nadam_like(a, outs, "RAdamOp", [3, 4, 5], [6, 7])
}

/// The merged optimizers' InferMeta functions set nothing: every result
/// list holds one tensor per parameter as built; an optional list exists
/// with its input.
fn merged(a: &Args<'_>, outs: &mut [Out], optional: &[(usize, usize)]) -> Result<(), Bad> {
    let n = a.tensors(0)?.len();
    for (r, o) in outs.iter_mut().enumerate() {
        let present = optional
            .iter()
            .find(|&&(out, _)| out == r)
            .is_none_or(|&(_, input)| a.has(input));
        if present {
            *o = Out::List(vec![untouched(); n]);
        }
    }
    Ok(())
}

/// `MergedMomentumInferMeta`: nothing set (see [`merged`]).
fn merged_momentum(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    merged(a, outs, &[(2, 4)])
}

/// `MergedAdamInferMeta`: nothing set (see [`merged`]).
fn merged_adam(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    merged(a, outs, &[(3, 5), (6, 8)])
}
