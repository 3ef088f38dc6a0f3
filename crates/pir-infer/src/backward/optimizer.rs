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

/// Paddle's message for a learning rate without elements.
pub(super) const LR_UNINITIALIZED: &str = "Maybe the Input variable LearningRate has not been \
     initialized. You may need to confirm if you put exe.run(startup_program) after \
     optimizer.minimize function.";

/// The learning rate must hold one element (Paddle's `product` of its dims:
/// an unknown extent makes it negative). `if_empty` is the message for none,
/// where Paddle checks that first; `{}` in a message stands for the count.
pub(super) fn check_lr(lr: &Meta, if_empty: Option<&str>, message: &str) -> Result<(), Bad> {
    let n = lr.dims.product();
    let message = match if_empty {
        Some(empty) if n == 0 => empty,
        _ if n != 1 => message,
        _ => return Ok(()),
    };
    Err(Bad(message.replace("{}", &n.to_string())))
}

/// An input of the parameter's dims: `other` must equal `param`. Paddle's
/// `message` may show both, as `{param}` and `{other}`.
pub(super) fn check_param_dims(param: &DDim, other: &DDim, message: &str) -> Result<(), Bad> {
    if param != other {
        return Err(Bad(message
            .replace("{param}", &format!("{param:?}"))
            .replace("{other}", &format!("{other:?}"))));
    }
    Ok(())
}

/// The optional master parameter (input `i`), of the parameter's dims
/// (see [`check_param_dims`] for `message`).
pub(super) fn master_param(
    a: &Args<'_>,
    i: usize,
    param: &DDim,
    message: &str,
) -> Result<Option<Meta>, Bad> {
    let master = a.opt_tensor(i)?;
    if let Some(m) = &master {
        check_param_dims(param, &m.dims, message)?;
    }
    Ok(master)
}

/// The multi-precision type of a parameter: float32 for float16 and
/// bfloat16, else its own.
pub(super) fn mp_type(d: DataType) -> DataType {
    match d {
        DataType::Float16 | DataType::BFloat16 => DataType::Float32,
        d => d,
    }
}

/// The updated inputs as results `0..`, in order: each of the parameter's
/// dims, keeping the data type of its input.
fn set_updates(outs: &mut [Out], param: DDim, dtypes: &[DataType]) {
    for (r, &dtype) in dtypes.iter().enumerate() {
        set(outs, r, fresh(param, dtype));
    }
}

/// Results like their inputs: `(result, input)` pairs, each result with
/// the dims and data type of its input (an accumulator updated in place).
pub(super) fn set_like_inputs(
    a: &Args<'_>,
    outs: &mut [Out],
    pairs: &[(usize, usize)],
) -> Result<(), Bad> {
    for &(r, i) in pairs {
        let t = a.tensor(i)?;
        set(outs, r, fresh(t.dims, t.dtype));
    }
    Ok(())
}

/// Result `r`, an optional one that exists with its input (Paddle's builder
/// pairs them): `made` when `flag` holds, else as built.
fn set_flagged(outs: &mut [Out], r: usize, flag: bool, made: Meta) {
    set(outs, r, if flag { made } else { untouched() });
}

/// The master-parameter result (the last) of the Adam family: with
/// `multi_precision` (attribute `i`) and a master parameter, `param`'s dims
/// in the multi-precision type; with a master parameter only, as built;
/// without one, no result.
fn master_out(
    a: &Args<'_>,
    outs: &mut [Out],
    i: usize,
    param: &Meta,
    master: bool,
) -> Result<(), Bad> {
    if master {
        let made = fresh(param.dims, mp_type(param.dtype));
        set_flagged(outs, outs.len().saturating_sub(1), a.bool(i)?, made);
    }
    Ok(())
}

/// A result `r` that exists with its optional input `input`; when `needed`,
/// the input must be given and the result is `make` of it, else as built.
fn needed_out(
    outs: &mut [Out],
    r: usize,
    input: Option<Meta>,
    needed: bool,
    make: impl FnOnce(&Meta) -> Meta,
) -> Result<(), Bad> {
    if needed {
        let m = input.ok_or_else(|| Bad("The current MetaTensor is not initialized.".into()))?;
        set(outs, r, make(&m));
    } else if input.is_some() {
        set(outs, r, untouched());
    }
    Ok(())
}

/// The master copy of `SgdInferMeta`, `RpropInferMeta` and `ASGDInferMeta`
/// (result `r`): with `multi_precision` (attribute `multi`), the dims of
/// `master_param` (input `master`, which must then be given) in its
/// multi-precision type; otherwise as built, or no result without a master
/// parameter.
pub(super) fn sgd_master_out(
    a: &Args<'_>,
    outs: &mut [Out],
    master: usize,
    multi: usize,
    r: usize,
) -> Result<(), Bad> {
    let m = a.opt_tensor(master)?;
    needed_out(outs, r, m, a.bool(multi)?, |m| {
        fresh(m.dims, mp_type(m.dtype))
    })
}

/// `SgdInferMeta` (param, learning_rate, grad, master_param,
/// multi_precision): a one-element learning rate; `param_out` like `param`;
/// the master copy as [`sgd_master_out`] makes it.
fn sgd(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    check_lr(
        &a.tensor(1)?,
        None,
        "Learning rate should have 1 element. But received LearningRate dims [{}]",
    )?;
    set(outs, 0, fresh(param.dims, param.dtype));
    sgd_master_out(a, outs, 3, 4, 1)
}

/// `MomentumInferMeta` (param, grad, velocity, learning_rate, master_param,
/// ...): a one-element learning rate; every result has `param`'s dims;
/// `velocity_out` and the master copy take the multi-precision type of
/// `param`, `param_out` only dims.
fn momentum(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    check_lr(
        &a.tensor(3)?,
        Some(LR_UNINITIALIZED),
        "Learning_rate should be a scalar. But Received LearningRate's dim [{}]",
    )?;
    let mp = mp_type(param.dtype);
    set(outs, 0, dims_only(param.dims));
    set(outs, 1, fresh(param.dims, mp));
    if a.has(4) {
        set(outs, 2, fresh(param.dims, mp));
    }
    Ok(())
}

/// `AdadeltaInferMeta` (param, grad, avg_squared_grad, avg_squared_update,
/// learning_rate, master_param, rho, epsilon, multi_precision).
fn adadelta(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let grad = a.tensor(1)?;
    let sq_grad = a.tensor(2)?;
    let sq_update = a.tensor(3)?;
    check_lr(&a.tensor(4)?, None, "LearningRate should have one element")?;
    let p = &param.dims;
    for (other, which, end) in [
        (&grad, "grad", "."),
        (&sq_grad, "AvgSquaredGrad", ""),
        (&sq_update, "AvgSquaredUpdate", ""),
    ] {
        check_param_dims(
            p,
            &other.dims,
            &format!("Param and {which} input of AdadeltaOp should have same dimension{end}"),
        )?;
    }
    let master = master_param(a, 5, p, ADADELTA_MASTER)?;
    set_updates(outs, *p, &[param.dtype, sq_grad.dtype, sq_update.dtype]);
    master_out(a, outs, 8, &param, master.is_some())
}

/// Paddle's message for a master parameter of other dims in Adadelta (and,
/// as Paddle words it, Adagrad).
const ADADELTA_MASTER: &str =
    "Param and MasterParam input of AdadeltaOp should have same dimension";

/// `AdagradInferMeta` (param, grad, moment, learning_rate, master_param,
/// epsilon, multi_precision).
fn adagrad(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let moment = a.tensor(2)?;
    check_lr(&a.tensor(3)?, None, "LearningRate should have one element")?;
    let p = &param.dims;
    check_param_dims(
        p,
        &moment.dims,
        "Param and Moment input of AdagradOp should have the same dimension.",
    )?;
    let master = master_param(a, 4, p, ADADELTA_MASTER)?;
    set_updates(outs, *p, &[param.dtype, moment.dtype]);
    master_out(a, outs, 6, &param, master.is_some())
}

/// `AdamaxInferMeta` (param, grad, learning_rate, moment, inf_norm,
/// beta1_pow, master_param, beta1, beta2, epsilon, multi_precision).
fn adamax(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let grad = a.tensor(1)?;
    let moment = a.tensor(3)?;
    let inf_norm = a.tensor(4)?;
    let beta1_pow = a.tensor(5)?;
    check_lr(
        &a.tensor(2)?,
        Some(LR_UNINITIALIZED),
        "Learning rate should have 1 dimension",
    )?;
    if beta1_pow.dims.product() != 1 {
        return Err(Bad("Beta1 power accumulator should have 1 dimension".into()));
    }
    let p = &param.dims;
    for (other, which) in [(&grad, "Grad"), (&moment, "Moment"), (&inf_norm, "InfNorm")] {
        check_param_dims(
            p,
            &other.dims,
            &format!("Param and {which} input of AdamaxOp should have same dimension"),
        )?;
    }
    let master = master_param(
        a,
        6,
        p,
        "Param and MasterParam input of AdamaxOp should have same dimension",
    )?;
    set_updates(outs, *p, &[param.dtype, moment.dtype, inf_norm.dtype]);
    master_out(a, outs, 10, &param, master.is_some())
}

/// The beta power accumulators of the Adam family must not be empty.
fn check_beta_pows(pows: [&Meta; 2]) -> Result<(), Bad> {
    for (b, which) in pows.into_iter().zip(["Beta1", "Beta2"]) {
        let k = b.dims.product();
        if k < 1 {
            return Err(Bad(format!(
                "The size of {which} power accumulator should be greater than 0, but received {k}."
            )));
        }
    }
    Ok(())
}

/// The moments of the Adam family have the parameter's dims; Paddle names
/// the op checking each (`ops`).
fn check_moments(p: &DDim, moments: [&Meta; 2], ops: [&str; 2]) -> Result<(), Bad> {
    for ((m, which), op) in moments.into_iter().zip(["Moment1", "Moment2"]).zip(ops) {
        check_param_dims(
            p,
            &m.dims,
            &format!(
                "Param and {which} input of {op} should have same dimension. But received Param \
                 dims: {{param}}, {which} dims: {{other}}."
            ),
        )?;
    }
    Ok(())
}

/// `AdamwInferMeta` (`AdamInferMeta`'s parameters plus lr_ratio, coeff and
/// with_decay): a one-element learning rate, non-empty beta powers, moments
/// of the parameter's dims; `moment2_max_out` with `amsgrad`.
fn adamw(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let m1 = a.tensor(3)?;
    let m2 = a.tensor(4)?;
    let b1 = a.tensor(6)?;
    let b2 = a.tensor(7)?;
    check_lr(
        &a.tensor(2)?,
        None,
        &format!("The number of LearningRate shall be 1, but received {{}}. {LR_UNINITIALIZED}"),
    )?;
    check_beta_pows([&b1, &b2])?;
    let p = &param.dims;
    check_moments(p, [&m1, &m2], ["AdamOp", "AdamOp"])?;
    let master = master_param(
        a,
        8,
        p,
        "Param and Moment1 input of AdamOp should have same dimension. But received Param \
         dims: {param}, MasterParam dims: {other}.",
    )?;
    set_updates(outs, *p, &[param.dtype, m1.dtype, m2.dtype]);
    if a.has(5) {
        set_flagged(outs, 3, a.bool(20)?, fresh(*p, m2.dtype));
    }
    set(outs, 4, fresh(b1.dims, b1.dtype));
    set(outs, 5, fresh(b2.dims, b2.dtype));
    master_out(a, outs, 18, &param, master.is_some())
}

/// `LambInferMeta` (param, grad, learning_rate, moment1, moment2, beta1_pow,
/// beta2_pow, master_param, skip_update, ..., multi_precision): checks as
/// Adam's; `param_out` gets the parameter's dims only.
fn lamb(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let m1 = a.tensor(3)?;
    let m2 = a.tensor(4)?;
    let b1 = a.tensor(5)?;
    let b2 = a.tensor(6)?;
    check_lr(
        &a.tensor(2)?,
        Some(&format!(
            "The number of LearningRate shall not be 0, but received {{}}. {LR_UNINITIALIZED}"
        )),
        "Learning rate should have 1 dimension, but received {}.",
    )?;
    check_beta_pows([&b1, &b2])?;
    let p = &param.dims;
    check_moments(p, [&m1, &m2], ["LambOp", "AdamOp"])?;
    let master = master_param(
        a,
        7,
        p,
        "Param and MasterParam input of AdamOp should have same dimension. But received \
         Param dims: {param}, MasterParam dims: {other}.",
    )?;
    set(outs, 0, dims_only(*p));
    set(outs, 1, fresh(*p, m1.dtype));
    set(outs, 2, fresh(*p, m2.dtype));
    set(outs, 3, fresh(b1.dims, b1.dtype));
    set(outs, 4, fresh(b2.dims, b2.dtype));
    master_out(a, outs, 14, &param, master.is_some())
}

/// `RpropInferMeta` (param, grad, prev, learning_rate, master_param,
/// learning_rate_range, etas, multi_precision): `param_out`, `prev_out` and
/// `learning_rate_out` like their inputs.
fn rprop(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set_like_inputs(a, outs, &[(0, 0), (1, 2), (2, 3)])?;
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
    let centered = a.bool(10)?;
    let p = &param.dims;
    for (other, which) in [(&moment, "Moment"), (&mean_square, "MeanSquare")] {
        check_param_dims(
            p,
            &other.dims,
            &format!(
                "Param and Momentum input of RmspropOp should have the same dimension. But \
                 received Param's dim {{param}} and {which} {{other}}"
            ),
        )?;
    }
    check_lr(
        &a.tensor(4)?,
        None,
        "Learning Rate of RmspropOp should be a scalar. But received LearningRate's dim [{}]",
    )?;
    let master = master_param(
        a,
        6,
        p,
        "Param and MasterParam input of RmspropOp should have same dimension. But received \
         Param dims: {param}, MasterParam dims: {other}.",
    )?;
    set_updates(outs, *p, &[param.dtype, moment.dtype, mean_square.dtype]);
    needed_out(outs, 3, a.opt_tensor(5)?, centered, |g| fresh(*p, g.dtype))?;
    master_out(a, outs, 11, &param, master.is_some())
}

/// `FtrlInferMeta` (param, squared_accumulator, linear_accumulator, grad,
/// learning_rate, ...): `grad` of the parameter's dims, a one-element
/// learning rate; every result like the parameter.
fn ftrl(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    check_param_dims(
        &param.dims,
        &a.tensor(3)?.dims,
        "Two input of FTRL Op's dimension must be same, but param_dim is {param}, Grad is {other}",
    )?;
    check_lr(
        &a.tensor(4)?,
        Some(LR_UNINITIALIZED),
        "Learning Rate should be a scalar, but got {}",
    )?;
    set_updates(outs, param.dims, &[param.dtype; 3]);
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
    let m1 = a.tensor(moments[0])?;
    let m2 = a.tensor(moments[1])?;
    let p = &param.dims;
    for (m, which) in [(&m1, "Moment1"), (&m2, "Moment2")] {
        check_param_dims(
            p,
            &m.dims,
            &format!(
                "Param and Momentum input of {op} should have the same dimension. But received \
                 Param's dim {{param}} and {which} {{other}}"
            ),
        )?;
    }
    check_lr(
        &a.tensor(2)?,
        None,
        &format!(
            "Learning Rate of {op} should be a scalar. But received LearningRate's dim [{{}}]"
        ),
    )?;
    let master = master_param(
        a,
        8,
        p,
        &format!(
            "Param and MasterParam input of {op} should have same dimension. But received \
             Param dims: {{param}}, MasterParam dims: {{other}}."
        ),
    )?;
    set(outs, 0, fresh(*p, param.dtype));
    let [pow1, pow2, pow3] = pows;
    set_like_inputs(a, outs, &[(1, pow1), (2, pow2), (3, pow3)])?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lr(dims: &[i64]) -> Meta {
        Meta::new(DataType::Float32, DDim::new(dims).unwrap_or_default())
    }

    #[test]
    fn learning_rate_messages_are_paddles() {
        let lamb_empty = format!(
            "The number of LearningRate shall not be 0, but received {{}}. {LR_UNINITIALIZED}"
        );
        let message = "Learning rate should have 1 dimension, but received {}.";
        assert_eq!(
            check_lr(&lr(&[0]), Some(&lamb_empty), message),
            Err(Bad(
                "The number of LearningRate shall not be 0, but received 0. Maybe the Input \
                     variable LearningRate has not been initialized. You may need to confirm if \
                     you put exe.run(startup_program) after optimizer.minimize function."
                    .into()
            ))
        );
        assert_eq!(
            check_lr(&lr(&[2]), Some(&lamb_empty), message),
            Err(Bad(
                "Learning rate should have 1 dimension, but received 2.".into()
            ))
        );
        // Without a message for none, an empty rate fails the count check;
        // an unknown extent makes the count negative.
        assert_eq!(
            check_lr(&lr(&[0]), None, message),
            Err(Bad(
                "Learning rate should have 1 dimension, but received 0.".into()
            ))
        );
        assert!(check_lr(&lr(&[-1]), None, message).is_err());
        assert_eq!(check_lr(&lr(&[1]), Some(&lamb_empty), message), Ok(()));
        assert_eq!(check_lr(&lr(&[]), None, message), Ok(()));
    }

    #[test]
    fn dims_messages_show_both_dims() {
        let (p, m) = (lr(&[2, 3]).dims, lr(&[3]).dims);
        let message = "Param and Moment1 input of AdamOp should have same dimension. But \
                       received Param dims: {param}, Moment1 dims: {other}.";
        assert_eq!(
            check_param_dims(&p, &m, message),
            Err(Bad(
                "Param and Moment1 input of AdamOp should have same dimension. But received \
                     Param dims: [2, 3], Moment1 dims: [3]."
                    .into()
            ))
        );
        assert_eq!(check_param_dims(&p, &p, message), Ok(()));
    }

    #[test]
    fn multi_precision_of_half_types_is_float32() {
        assert_eq!(mp_type(DataType::Float16), DataType::Float32);
        assert_eq!(mp_type(DataType::BFloat16), DataType::Float32);
        assert_eq!(mp_type(DataType::Float64), DataType::Float64);
    }
}
