//! `fold_batch_norm`: folds an inference-mode batch norm into the
//! convolution or matmul before it.
//!
//! Matched: `P → [add(·, b)] → batch_norm[_]` where `P` is `pd_op.conv2d`,
//! `pd_op.depthwise_conv2d`, `pd_op.conv2d_transpose` or `pd_op.matmul`
//! (rank-2 result), every intermediate result has that one reader, the
//! weight is a loaded parameter, `b` and the batch norm's mean, variance,
//! scale and bias are constants (parameters or constant makers) nothing
//! writes, the batch norm uses its running statistics
//! (`use_global_stats`, or `is_test` without `trainable_statistics`), and its
//! other results are unused.
//!
//! With `s = scale / sqrt(variance + epsilon)` per output channel, the batch
//! norm computes `(y - mean) * s + bias`. Scaling the weight's output channel
//! by `s` scales `P`'s output channel by `s`, so the chain becomes
//! `add(P', b')` with `P'` reading the new weight `w · s` and
//! `b' = (b - mean) · s + bias` (`b = 0` without an add). The new weight and
//! bias are parameters (`fold_batch_norm@_N`); the weights and statistics
//! nothing reads any more are dropped. Arithmetic is done in `f64` and
//! rounded once to the weight's dtype.
//!
//! Counts: `batch norms folded`.

use crate::registry::PassInfo;
use pir_core::walk::Order;
use pir_core::{Builder, InsertPoint, OpId, Program, Type, ValueDef, ValueId};
use pir_dialects::ops::{
    AddOp, BatchNormInplaceOp, BatchNormOp, Conv2dOp, Conv2dTransposeOp, DepthwiseConv2dOp,
    MatmulOp,
};
use pir_eval::EvalTensor;
use pir_params::{DType, Tensor};

use crate::params;
use crate::pass::{Changed, Pass, PassError, PassResult, PassRun, Registered};

/// The `fold_batch_norm` pass.
pub const INFO: PassInfo = PassInfo {
    argument: "fold_batch_norm",
    description: "fold inference batch norms into the convolution or matmul before them",
    options: &["keep-params"],
    make: |o| {
        Ok(Box::new(FoldBatchNorm {
            keep_params: o.take_bool("keep-params", false)?,
        }))
    },
};

/// The `fold_batch_norm` pass. See the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct FoldBatchNorm {
    /// Leave parameters alone: the pass then changes nothing (it works by
    /// creating parameters).
    pub keep_params: bool,
}

/// The prefix of the parameters the pass creates.
const PARAMETER_PREFIX: &str = "fold_batch_norm@_";

impl Registered for FoldBatchNorm {
    const INFO: PassInfo = INFO;
}

impl Pass for FoldBatchNorm {
    fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
        if self.keep_params || !params::parameters_loaded(program) {
            return Ok(Changed::No);
        }
        let mut bns = Vec::new();
        program.walk(root, Order::Pre, &mut |op| {
            if matches!(
                program.op_name_str(op),
                BatchNormOp::NAME | BatchNormInplaceOp::NAME
            ) {
                bns.push(op);
            }
        });
        let mut counter = 0;
        let mut folded = 0u64;
        for bn in bns {
            if let Some(plan) = plan(program, bn) {
                apply(program, plan, &mut counter)?;
                folded += 1;
            }
        }
        cx.statistics.add("batch norms folded", folded);
        Ok(Changed::from(folded > 0))
    }
}

fn pass_error(message: impl Into<String>) -> PassError {
    PassError {
        pass: INFO.argument.into(),
        message: message.into(),
    }
}

/// How the weight's layout maps to output channels.
#[derive(Clone, Copy, Debug, PartialEq)]
enum WeightLayout {
    /// Output channel = index along axis 0 (conv2d, depthwise: `[O, I/g, kh, kw]`).
    OutFirst,
    /// `conv2d_transpose`: `[I, O/g, kh, kw]`, output channel
    /// `(i / (I/g)) * (O/g) + j`.
    Transposed { groups: usize },
    /// Output channel = index along the last axis (`matmul` without transpose_y).
    OutLast,
}

/// A matched chain and the tensors it folds.
struct Plan {
    bn: OpId,
    producer: OpId,
    /// Operand index of the weight in the producer.
    weight_operand: usize,
    weight_op: OpId,
    layout: WeightLayout,
    /// The existing bias add and the bias parameter op, if any.
    add: Option<(OpId, usize, OpId)>,
    /// Per output channel: scale `s` and shift `(b - mean) * s + bias`.
    scale: Vec<f64>,
    shift: Vec<f64>,
    /// The shape of the new bias parameter.
    bias_dims: Vec<i64>,
    /// Parameter ops the batch norm reads (dropped if unused afterwards).
    stats: Vec<OpId>,
}

/// The parameter op defining `v`, if `v` is a loaded parameter nothing
/// writes (a weight updated in place is not a constant).
fn parameter_of(p: &Program, v: ValueId) -> Option<(OpId, &Tensor)> {
    let ValueDef::Result { op, .. } = p.value_def(v) else {
        return None;
    };
    if !crate::alias::is_unwritten(p, v) {
        return None;
    }
    Some((op, params::parameter_tensor(p, op)?))
}

fn values(t: &Tensor) -> Option<Vec<f64>> {
    Some(EvalTensor::from_tensor(t).ok()?.to_f64_vec())
}

/// The tensor of a constant `v`: a loaded parameter nothing writes, or the
/// result of a constant maker (`full`, `full_int_array`, `assign_value`)
/// nothing writes, computed by the evaluator.
fn constant_of(p: &Program, v: ValueId) -> Option<(OpId, Tensor)> {
    if let Some((op, t)) = parameter_of(p, v) {
        return Some((op, t.clone()));
    }
    let ValueDef::Result { op, .. } = p.value_def(v) else {
        return None;
    };
    let t = super::constant_folding::maker_value(p, op).ok()??;
    if !crate::alias::is_unwritten(p, v) {
        return None;
    }
    Some((op, t.to_tensor().ok()?))
}

/// The single reader of `v`, if it has exactly one use.
fn only_user(p: &Program, v: ValueId) -> Option<OpId> {
    let mut uses = p.uses(v);
    let first = uses.next()?;
    uses.next().is_none().then(|| p.operand_owner(first))
}

fn dims_of(p: &Program, v: ValueId) -> Option<Vec<i64>> {
    pir_params::bound::declared(p, p.value_type(v)).map(|(_, d)| d)
}

/// The batch norm's inputs and settings when it runs on running statistics.
struct BatchNorm {
    x: ValueId,
    inputs: [Option<ValueId>; 4],
    epsilon: f64,
    channels_last: bool,
}

fn batch_norm(p: &Program, bn: OpId) -> Option<BatchNorm> {
    macro_rules! read {
        ($v:expr) => {{
            let v = $v;
            let inference =
                v.use_global_stats(p)? || (v.is_test(p)? && !v.trainable_statistics(p)?);
            let extra = [
                v.mean_out(p),
                v.variance_out(p),
                v.saved_mean(p),
                v.saved_variance(p),
                v.reserve_space(p),
            ];
            if !inference || !extra.iter().all(|&r| p.use_empty(r)) {
                return None;
            }
            BatchNorm {
                x: v.x(p)?,
                inputs: [
                    Some(v.mean(p)?),
                    Some(v.variance(p)?),
                    v.scale(p),
                    v.bias(p),
                ],
                epsilon: f64::from(v.epsilon(p)?),
                channels_last: matches!(v.data_format(p)?.as_str(), "NHWC" | "NDHWC"),
            }
        }};
    }
    Some(match p.op_name_str(bn) {
        BatchNormOp::NAME => read!(BatchNormOp(bn)),
        _ => read!(BatchNormInplaceOp(bn)),
    })
}

/// The producer's weight operand and layout, if it is a foldable op whose
/// output channels sit on the batch norm's channel axis.
fn producer_weight(
    p: &Program,
    producer: OpId,
    channels_last: bool,
) -> Option<(usize, WeightLayout)> {
    let nchw = |f: Option<String>| f.as_deref() == Some("NCHW");
    let (operand, layout, conv_nchw) = match p.op_name_str(producer) {
        Conv2dOp::NAME => {
            let op = Conv2dOp(producer);
            (1, WeightLayout::OutFirst, nchw(op.data_format(p)))
        }
        DepthwiseConv2dOp::NAME => {
            let op = DepthwiseConv2dOp(producer);
            (1, WeightLayout::OutFirst, nchw(op.data_format(p)))
        }
        Conv2dTransposeOp::NAME => {
            let op = Conv2dTransposeOp(producer);
            let groups = usize::try_from(op.groups(p)?).ok().filter(|&g| g > 0)?;
            (
                1,
                WeightLayout::Transposed { groups },
                nchw(op.data_format(p)),
            )
        }
        MatmulOp::NAME => {
            let op = MatmulOp(producer);
            let out = dims_of(p, op.out(p))?;
            // A rank-2 result: its channel axis is 1 in either layout.
            if out.len() != 2 || op.transpose_y(p)? || dims_of(p, op.y(p)?)?.len() != 2 {
                return None;
            }
            return Some((1, WeightLayout::OutLast));
        }
        _ => return None,
    };
    (conv_nchw != channels_last).then_some((operand, layout))
}

fn plan(p: &Program, bn: OpId) -> Option<Plan> {
    let norm = batch_norm(p, bn)?;
    let out_dims = dims_of(p, norm.x)?;
    let axis = if norm.channels_last {
        out_dims.len().checked_sub(1)?
    } else {
        1
    };
    let channels = usize::try_from(*out_dims.get(axis)?).ok()?;
    // The value the batch norm reads: the producer's output, or a bias add of it.
    let ValueDef::Result { op: first, .. } = p.value_def(norm.x) else {
        return None;
    };
    if only_user(p, norm.x)? != bn {
        return None;
    }
    let mut conv_bias = vec![0.0; channels];
    let mut bias_dims = None;
    let (producer, add) = if p.op_name_str(first) == AddOp::NAME {
        let add = AddOp(first);
        let (x, y) = (add.x(p)?, add.y(p)?);
        let ValueDef::Result { op: producer, .. } = p.value_def(x) else {
            return None;
        };
        if only_user(p, x)? != first {
            return None;
        }
        let (bias_op, bias) = constant_of(p, y)?;
        let dims = bias.dims();
        // The bias must vary along the channel axis only.
        let offset = out_dims.len().checked_sub(dims.len())?;
        let per_channel = dims.iter().enumerate().all(|(i, &d)| {
            if i + offset == axis {
                d == channels as i64
            } else {
                d == 1
            }
        });
        if !per_channel || dims.is_empty() {
            return None;
        }
        conv_bias = values(&bias)?;
        bias_dims = Some(dims.to_vec());
        (producer, Some((first, 1, bias_op)))
    } else {
        (first, None)
    };
    let (weight_operand, layout) = producer_weight(p, producer, norm.channels_last)?;
    let (weight_op, weight) = parameter_of(p, p.operand(producer, weight_operand)?)?;
    if weight.dtype() != DType::Float32 && weight.dtype() != DType::Float64 {
        return None;
    }
    let mut stats = Vec::new();
    let mut columns: Vec<Vec<f64>> = Vec::new();
    for (i, v) in norm.inputs.iter().enumerate() {
        match v {
            // The running mean and variance are the batch norm's own state
            // (view pairs, so the alias analysis counts them as written); in
            // inference mode it leaves them alone, so reading them is safe
            // when this batch norm is their only reader.
            Some(v) if i < 2 && only_user(p, *v) == Some(bn) => {
                let ValueDef::Result { op, .. } = p.value_def(*v) else {
                    return None;
                };
                let vals = values(params::parameter_tensor(p, op)?)?;
                if vals.len() != channels {
                    return None;
                }
                stats.push(op);
                columns.push(vals);
            }
            Some(v) => {
                let (op, t) = parameter_of(p, *v)?;
                let vals = values(t)?;
                if vals.len() != channels {
                    return None;
                }
                stats.push(op);
                columns.push(vals);
            }
            // No scale means 1, no bias 0.
            None => columns.push(vec![if i == 2 { 1.0 } else { 0.0 }; channels]),
        }
    }
    let [mean, var, gamma, beta] = [&columns[0], &columns[1], &columns[2], &columns[3]];
    let scale: Vec<f64> = (0..channels)
        .map(|c| gamma[c] / (var[c] + norm.epsilon).sqrt())
        .collect();
    let shift: Vec<f64> = (0..channels)
        .map(|c| (conv_bias[c] - mean[c]) * scale[c] + beta[c])
        .collect();
    if scale.iter().chain(&shift).any(|v| !v.is_finite()) {
        return None;
    }
    let bias_dims = match add {
        Some(_) => bias_dims?,
        None if norm.channels_last => vec![channels as i64],
        None => {
            let mut d = vec![1i64; out_dims.len() - 1];
            d[0] = channels as i64;
            d
        }
    };
    // The weight must hold one slice per output channel.
    let wdims = weight.dims();
    let fits = match layout {
        WeightLayout::OutFirst => wdims.first() == Some(&(channels as i64)),
        WeightLayout::OutLast => wdims.last() == Some(&(channels as i64)),
        WeightLayout::Transposed { groups } => {
            wdims.len() >= 2
                && wdims[1] * groups as i64 == channels as i64
                && wdims[0] % groups as i64 == 0
        }
    };
    fits.then_some(Plan {
        bn,
        producer,
        weight_operand,
        weight_op,
        layout,
        add,
        scale,
        shift,
        bias_dims,
        stats,
    })
}

/// Multiplies each weight element by its output channel's factor, in
/// place, with `mul` (which computes in `f64` and rounds once).
fn scale_weight<T>(
    w: &mut [T],
    dims: &[usize],
    layout: WeightLayout,
    scale: &[f64],
    mul: impl Fn(T, f64) -> T,
) where
    T: Copy,
{
    let numel: usize = dims.iter().product();
    match layout {
        WeightLayout::OutFirst => {
            let inner = numel / dims.first().copied().unwrap_or(1).max(1);
            for (chunk, &s) in w.chunks_exact_mut(inner.max(1)).zip(scale) {
                chunk.iter_mut().for_each(|x| *x = mul(*x, s));
            }
        }
        WeightLayout::OutLast => {
            for row in w.chunks_exact_mut(scale.len().max(1)) {
                row.iter_mut()
                    .zip(scale)
                    .for_each(|(x, &s)| *x = mul(*x, s));
            }
        }
        WeightLayout::Transposed { groups } => {
            // [I, O/g, rest...]: row i belongs to group i / (I/g), whose
            // output channels are g·(O/g) + j.
            let (rows, per_group_out) = (dims[0], dims[1]);
            let inner: usize = dims[2..].iter().product();
            let per_group_in = (rows / groups).max(1);
            for (i, row) in w
                .chunks_exact_mut((per_group_out * inner).max(1))
                .enumerate()
            {
                let base = (i / per_group_in) * per_group_out;
                for (j, chunk) in row.chunks_exact_mut(inner.max(1)).enumerate() {
                    let s = scale[base + j];
                    chunk.iter_mut().for_each(|x| *x = mul(*x, s));
                }
            }
        }
    }
}

/// The folded weight: `weight` with every output channel scaled.
fn folded_weight(weight: &Tensor, layout: WeightLayout, scale: &[f64]) -> Result<Tensor, String> {
    let dims: Vec<usize> = weight.dims().iter().map(|&d| d.max(0) as usize).collect();
    let shape = weight.dims().to_vec();
    // One copy of the (usually memory-mapped) bytes, scaled in place.
    let mut bytes = weight.bytes().to_vec();
    match weight.dtype() {
        DType::Float32 => {
            let (w, []) = bytes.as_chunks_mut::<4>() else {
                return Err("a float32 weight of a partial element".into());
            };
            scale_weight(w, &dims, layout, scale, |x, s| {
                ((f64::from(f32::from_le_bytes(x)) * s) as f32).to_le_bytes()
            });
            Tensor::new(DType::Float32, shape, bytes).map_err(|e| e.to_string())
        }
        DType::Float64 => {
            let (w, []) = bytes.as_chunks_mut::<8>() else {
                return Err("a float64 weight of a partial element".into());
            };
            scale_weight(w, &dims, layout, scale, |x, s| {
                (f64::from_le_bytes(x) * s).to_le_bytes()
            });
            Tensor::new(DType::Float64, shape, bytes).map_err(|e| e.to_string())
        }
        other => Err(format!("{other} weights are not folded")),
    }
}

fn apply(p: &mut Program, plan: Plan, counter: &mut usize) -> Result<(), PassError> {
    let err = |e: &dyn std::fmt::Display| pass_error(e.to_string());
    let weight = params::parameter_tensor(p, plan.weight_op)
        .ok_or_else(|| pass_error("the weight lost its tensor"))?;
    let dtype = weight.dtype();
    let new_w = folded_weight(weight, plan.layout, &plan.scale).map_err(pass_error)?;
    let new_b = EvalTensor::from_f64s(
        dtype,
        &plan
            .bias_dims
            .iter()
            .map(|&d| d.max(0) as usize)
            .collect::<Vec<_>>(),
        &plan.shift,
    )
    .and_then(|t| t.to_tensor())
    .map_err(|e| err(&e))?;

    let at = InsertPoint::Before(params::top_level_ancestor(p, plan.producer));
    let w_name = params::fresh_name(p, PARAMETER_PREFIX, counter);
    let w_value = params::insert_parameter(p, at, &w_name, new_w).map_err(|e| err(&e))?;
    let b_name = params::fresh_name(p, PARAMETER_PREFIX, counter);
    let b_value = params::insert_parameter(p, at, &b_name, new_b).map_err(|e| err(&e))?;
    p.set_operand(plan.producer, plan.weight_operand, Some(w_value))
        .map_err(|e| err(&e))?;

    let bn_out = p.result(plan.bn, 0);
    let mut dead_params = vec![plan.weight_op];
    dead_params.extend(&plan.stats);
    let sum = match plan.add {
        Some((add, index, bias_op)) => {
            p.set_operand(add, index, Some(b_value))
                .map_err(|e| err(&e))?;
            dead_params.push(bias_op);
            p.result(add, 0)
        }
        None => {
            let produced = p.result(plan.producer, 0);
            let ty: Type = p.value_type(bn_out);
            let mut b = Builder::new(p, InsertPoint::After(plan.producer));
            AddOp::build(&mut b, produced, b_value, &[ty]).out(b.program())
        }
    };
    p.replace_all_uses_with(bn_out, sum);
    p.erase_op(plan.bn).map_err(|e| err(&e))?;
    params::erase_unused(p, &dead_params);
    Ok(())
}
