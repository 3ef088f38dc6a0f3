//! Ops over several tensors or lists (Paddle's `multiary_infer_sym.cc`):
//! concatenation, stacking, layer and group norms, `where`, `einsum`, `rnn`.

pub(super) mod metrics;

use super::binary::{dim, equal_dims};
use super::{rank_is, Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::{ShapeOrData, TensorFact};

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.concat", concat),
    ("pd_op.stack", stack),
    ("pd_op.add_n", add_n),
    ("pd_op.add_n_", add_n),
    ("pd_op.layer_norm", layer_norm),
    ("pd_op.group_norm", group_norm),
    ("pd_op.instance_norm", instance_norm),
    ("pd_op.box_coder", box_coder),
    ("pd_op.where", where_),
    ("pd_op.where_", where_),
    ("pd_op.einsum", einsum),
    ("pd_op.meshgrid", meshgrid),
    (
        "pd_op.cross_entropy_with_softmax",
        cross_entropy_with_softmax,
    ),
    (
        "pd_op.cross_entropy_with_softmax_",
        cross_entropy_with_softmax,
    ),
    ("pd_op.rnn", rnn),
    ("pd_op.adam_", optimizer),
    ("pd_op.adamw_", optimizer),
    ("pd_op.sgd_", optimizer),
    ("pd_op.momentum_", optimizer),
    ("pd_op.set_value", set_value),
    ("pd_op.set_value_", set_value),
    ("pd_op.set_value_with_tensor", set_value),
    ("pd_op.set_value_with_tensor_", set_value),
    ("pd_op.linspace", linspace),
    ("pd_op.assign_pos", assign_pos),
    ("pd_op.broadcast_tensors", broadcast_tensors),
    ("pd_op.check_finite_and_unscale_", check_finite_and_unscale),
    ("pd_op.deformable_conv", deformable_conv),
    ("pd_op.match_matrix_tensor", match_matrix_tensor),
    ("pd_op.spectral_norm", spectral_norm),
    ("pd_op.logspace", linspace),
    ("pd_op.random_routing", random_routing),
    ("pd_op.random_routing_", random_routing),
    ("pd_op.tdm_sampler", tdm_sampler),
    ("pd_op.multiplex", multiplex),
    ("pd_op.rnn_", rnn),
];

fn concat(cx: &mut Cx<'_>) -> Res {
    let items = cx.list(0)?;
    let first = items
        .first()
        .cloned()
        .ok_or_else(|| Bad("concat of no tensors".into()))?;
    // An axis whose value is unknown (a parameter, a computed tensor)
    // leaves the result its type's shape, as Paddle does: no dims are
    // added and no equalities recorded.
    let Some(axis) = cx
        .int_list(1, "axis")?
        .and_then(|v| v.first().and_then(DimExpr::as_int))
    else {
        super::control_flow::result_from_type(cx, 0);
        return Ok(());
    };
    let all_data = items.iter().all(|t| t.data.is_some() && t.rank() <= 1);
    if all_data {
        let data: Vec<DimExpr> = items
            .iter()
            .flat_map(|t| t.data.clone().unwrap_or_default())
            .collect();
        let n = DimExpr::Int(data.len() as i64);
        cx.set_tensor(0, TensorFact::with_data(vec![n], data));
        return Ok(());
    }
    let rank = first.rank();
    let axis = cx.axis(axis, rank)?;
    let mut out = first.shape.clone();
    for t in &items[1..] {
        if t.rank() != rank {
            return Err(Bad("concat of different ranks".into()));
        }
        out[axis] = cx.add(&out[axis].clone(), &t.shape[axis]);
    }
    for t in &items[1..] {
        for i in (0..rank).filter(|&i| i != axis) {
            cx.eq(&first.shape[i], &t.shape[i]);
        }
    }
    cx.set_shape(0, out);
    Ok(())
}

fn stack(cx: &mut Cx<'_>) -> Res {
    let items = cx.list(0)?;
    let first = items
        .first()
        .cloned()
        .ok_or_else(|| Bad("stack of no tensors".into()))?;
    let n = DimExpr::Int(items.len() as i64);
    let axis = cx.int_attr("axis").unwrap_or(0);
    if first.rank() == 0 && items.iter().all(|t| t.data.is_some()) {
        let data = items
            .iter()
            .flat_map(|t| t.data.clone().unwrap_or_default())
            .collect();
        cx.set_tensor(0, TensorFact::with_data(vec![n], data));
        return Ok(());
    }
    let rank = first.rank() + 1;
    let a = cx.axis(axis, rank)?;
    let mut out = first.shape.clone();
    out.insert(a, n);
    for t in &items[1..] {
        if t.rank() == first.rank() {
            for i in 0..t.rank() {
                cx.eq(&first.shape[i], &t.shape[i]);
            }
        }
    }
    cx.set_shape(0, out);
    Ok(())
}

/// `add_n`: the first operand that is not 0-d gives the result (shape
/// and data); every later one that is not 0-d equals it dim by dim.
fn add_n(cx: &mut Cx<'_>) -> Res {
    let mut items = cx.list(0)?.into_iter();
    let mut out = items.next().ok_or_else(|| {
        Bad("The input tensor X's dimensions of AddNOp should be larger than 0. But received X's dimensions 0.".into())
    })?;
    for t in items {
        if t.rank() == 0 {
            continue;
        }
        if out.rank() == 0 {
            out = t;
            continue;
        }
        if t.rank() < out.rank() {
            return Err(Bad("add_n of tensors of different ranks".into()));
        }
        for (a, b) in out.shape.iter().zip(&t.shape) {
            cx.eq(a, b);
        }
    }
    cx.set_tensor(0, out);
    Ok(())
}

fn layer_norm(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let begin = cx.axis(cx.int_attr("begin_norm_axis").unwrap_or(1), x.len())?;
    let lead = x[..begin].to_vec();
    cx.set_shape(0, x);
    cx.set_shape(1, lead.clone());
    cx.set_shape(2, lead);
    Ok(())
}

fn group_norm(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let groups = cx.int_attr("groups").map(DimExpr::Int);
    let n = x.first().cloned().unwrap_or(DimExpr::Int(1));
    cx.set_shape(0, x.clone());
    let g = match groups {
        Some(g) => g,
        None => x.get(1).cloned().unwrap_or(DimExpr::Int(1)),
    };
    cx.set_shape(1, vec![n.clone(), g.clone()]);
    cx.set_shape(2, vec![n, g]);
    Ok(())
}

/// `where`: the condition's fact; the condition's dims equal `x`'s.
fn where_(cx: &mut Cx<'_>) -> Res {
    let cond = cx.input(0);
    cx.set(0, cond.clone());
    let c = cond.dims().to_vec();
    for i in 0..c.len() {
        let x = cx.shape(1)?;
        let c = cx.input(0).dims().to_vec();
        if let (Some(a), Some(b)) = (c.get(i), x.get(i)) {
            cx.eq(&a.clone(), &b.clone());
        }
    }
    Ok(())
}

/// `einsum`: Paddle shapes every result from its type (a fresh symbol for
/// each unknown dim), whatever the operands' dims.
fn einsum(cx: &mut Cx<'_>) -> Res {
    for r in 0..cx.num_results() {
        let v = cx.p.result(cx.op, r);
        let f = cx.a.static_fact(cx.p.ctx(), cx.p.value_type(v));
        cx.set(r, f);
    }
    Ok(())
}

fn meshgrid(cx: &mut Cx<'_>) -> Res {
    let items = cx.list(0)?;
    let dims: Vec<DimExpr> = items
        .iter()
        .map(|t| t.shape.first().cloned().unwrap_or(DimExpr::Int(1)))
        .collect();
    let parts = items
        .iter()
        .map(|_| TensorFact::shape(dims.clone()))
        .collect();
    cx.set(0, ShapeOrData::List(parts));
    Ok(())
}

fn cross_entropy_with_softmax(cx: &mut Cx<'_>) -> Res {
    let logits = cx.shape(0)?;
    let label = cx.shape(1)?;
    let axis = cx.axis(cx.int_attr("axis").unwrap_or(-1), logits.len())?;
    // The results follow the label's dims but the class axis.
    let base = if label.len() == logits.len() {
        label
    } else {
        logits.clone()
    };
    let mut softmax = base.clone();
    softmax[axis] = logits[axis].clone();
    let mut loss = base;
    loss[axis] = DimExpr::Int(1);
    cx.set_shape(0, softmax);
    cx.set_shape(1, loss);
    Ok(())
}

/// `rnn`: the output's last dim is the hidden size (doubled when
/// bidirectional); the states are the initial states'.
fn rnn(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let states = cx.list(1)?;
    let hidden = cx.int_attr("hidden_size").unwrap_or(0);
    let bidi = cx.bool_attr("is_bidirec").unwrap_or(false);
    // LSTM keeps two states (hidden and cell) per step in its reserve.
    let states_per_step = if cx.str_attr("mode") == Some("LSTM") {
        2
    } else {
        1
    };
    let directions = if bidi { 2 } else { 1 };
    let mut out = x.clone();
    if let Some(last) = out.last_mut() {
        *last = DimExpr::Int(hidden.saturating_mul(directions));
    }
    cx.set_shape(0, out);
    let state = cx.sym();
    cx.set_shape(1, vec![state]);
    cx.set(2, ShapeOrData::List(states));
    // The reserve space, as Paddle 3.3.1 shapes it: `hidden` rows of
    // `seq * batch * hidden` per state kept.
    if x.len() == 3 {
        let per = DimExpr::Int(hidden.saturating_mul(states_per_step));
        let seq_batch = cx.mul(&x[0], &x[1]);
        let block = cx.mul(&seq_batch, &per);
        cx.set_shape(3, vec![DimExpr::Int(hidden), block]);
    }
    Ok(())
}

/// Optimizers write their parameters and moments in place: each result
/// takes the shape of the operand it updates (the definition's in-place map).
fn optimizer(cx: &mut Cx<'_>) -> Res {
    let Some(def) = pir_dialects::op_def(cx.p.op_name_str(cx.op)) else {
        return Err(Bad("no definition".into()));
    };
    for (k, out) in def.outputs.iter().enumerate() {
        let input = def
            .inplace
            .iter()
            .find(|(o, _)| *o == out.name)
            .and_then(|(_, i)| def.input_index(i));
        if let Some(i) = input {
            if cx.operand(i).is_some() && !cx.result_is_null(k) {
                let t = cx.shape(i)?;
                cx.set_shape(k, t);
            }
        }
    }
    Ok(())
}

fn set_value(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    cx.set_shape(0, x);
    Ok(())
}

fn linspace(cx: &mut Cx<'_>) -> Res {
    let n = cx.input(2).data().and_then(|d| d.first().cloned());
    let n = match n {
        Some(n) => n,
        None => cx.sym(),
    };
    cx.set_shape(0, vec![n]);
    Ok(())
}

/// `instance_norm`: the saved mean and variance hold one value per sample
/// and channel.
fn instance_norm(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let nc = cx.product(&x[..x.len().min(2)]);
    cx.set_shape(0, x);
    cx.set_shape(1, vec![nc.clone()]);
    cx.set_shape(2, vec![nc]);
    Ok(())
}

/// `box_coder`: prior boxes `[M, 4]` (their variances shaped alike);
/// encoding gives one box of 4 per target row and prior box, decoding
/// keeps the targets' shape `[N, M, 4]` (`axis` 0) or `[M, N, 4]` (1).
fn box_coder(cx: &mut Cx<'_>) -> Res {
    let prior = cx.shape(0)?;
    let target = cx.shape(2)?;
    rank_is(&prior, 2, |r| {
        format!(
            "The rank of Input PriorBox in BoxCoder operator must be 2. But received rank = {r}"
        )
    })?;
    cx.eq(&prior[1], &DimExpr::Int(4));
    // Paddle reads the boxes' dims through references to the stored
    // facts: later constraints see what this one learnt.
    let prior = cx.shape(0)?;
    if cx.operand(1).is_some() {
        let var = cx.shape(1)?;
        rank_is(&var, 2, |r| {
            format!("The rank of Input(PriorBoxVar) in BoxCoder operator should be 2. But received rank = {r}")
        })?;
        for (p, v) in prior.iter().zip(&var) {
            cx.eq(p, v);
        }
    }
    let target_rank = |n: usize| {
        move |r: usize| {
            format!("The rank of Input TargetBox in BoxCoder operator must be {n}. But received rank is {r}")
        }
    };
    match cx.str_attr("code_type") {
        Some("encode_center_size") => {
            rank_is(&target, 2, target_rank(2))?;
            let prior = cx.shape(0)?;
            let target = cx.shape(2)?;
            cx.eq(&target[1], &DimExpr::Int(4));
            let out = vec![target[0].clone(), prior[0].clone(), DimExpr::Int(4)];
            cx.set_shape(0, out);
        }
        Some("decode_center_size") => {
            rank_is(&target, 3, target_rank(3))?;
            let prior = cx.shape(0)?;
            let target = cx.shape(2)?;
            let axis = cx.int_attr("axis").unwrap_or(0);
            match axis {
                0 => cx.eq(&target[1], &prior[0]),
                1 => cx.eq(&target[0], &prior[0]),
                _ => {
                    return Err(Bad(format!(
                        "axis in BoxCoder operator must be 0 or 1. But received axis = {axis}"
                    )))
                }
            }
            cx.eq(&target[2], &prior[1]);
            cx.set_shape(0, target);
        }
        _ => {}
    }
    Ok(())
}

/// `assign_pos`: as many positions as operand 2 says (its data), else a
/// fresh extent.
fn assign_pos(cx: &mut Cx<'_>) -> Res {
    let n = match cx.input(2).data().and_then(|d| d.first().cloned()) {
        Some(n) => n,
        None => cx.sym(),
    };
    cx.set_shape(0, vec![n]);
    Ok(())
}

/// `broadcast_tensors`: every result has the broadcast of all the inputs.
fn broadcast_tensors(cx: &mut Cx<'_>) -> Res {
    let items = cx.list(0)?;
    let rank = items.iter().map(TensorFact::rank).max().unwrap_or(0);
    let mut out = Vec::with_capacity(rank);
    for i in 0..rank {
        let mut acc = DimExpr::Int(1);
        for t in &items {
            if let Some(k) = (i + t.rank()).checked_sub(rank) {
                cx.broadcastable(&t.shape[k], &acc);
                acc = cx.broadcast(&t.shape[k], &acc);
            }
        }
        out.push(acc);
    }
    let parts = items
        .iter()
        .map(|_| TensorFact::shape(out.clone()))
        .collect();
    cx.set(0, ShapeOrData::List(parts));
    Ok(())
}

/// The tensors of list operand 0 unchanged (their shapes), as a list.
fn shapes_of_list(cx: &mut Cx<'_>) -> Result<ShapeOrData, Bad> {
    let items = cx.list(0)?;
    Ok(ShapeOrData::List(
        items
            .into_iter()
            .map(|t| TensorFact::shape(t.shape))
            .collect(),
    ))
}

fn check_finite_and_unscale(cx: &mut Cx<'_>) -> Res {
    let outs = shapes_of_list(cx)?;
    cx.set(0, outs);
    cx.set_shape(1, vec![DimExpr::Int(1)]);
    Ok(())
}

fn deformable_conv(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let offset = cx.shape(1)?;
    let filter = cx.shape(2)?;
    let strides = cx.ints_attr("strides").unwrap_or_default();
    let paddings = cx.ints_attr("paddings").unwrap_or_default();
    let dilations = cx.ints_attr("dilations").unwrap_or_default();
    let groups = cx.int_attr("groups").unwrap_or(1);
    let dgroups = cx.int_attr("deformable_groups").unwrap_or(1);
    let per_group = cx.mul(&dim(&filter, 1, "Input(Filter)")?, &DimExpr::Int(groups));
    cx.eq(&dim(&x, 1, "Input(X)")?, &per_group);
    let mut out = vec![dim(&x, 0, "Input(X)")?, dim(&filter, 0, "Input(Filter)")?];
    for (i, &stride) in strides.iter().enumerate() {
        let pick = |v: &[i64]| {
            v.get(i)
                .copied()
                .ok_or_else(|| Bad("deformable_conv attributes shorter than strides".into()))
        };
        let (pad, dil) = (pick(&paddings)?, pick(&dilations)?);
        let k = cx.sub(&dim(&filter, i + 2, "Input(Filter)")?, &DimExpr::Int(1));
        let k = cx.mul(&DimExpr::Int(dil), &k);
        let k = cx.add(&k, &DimExpr::Int(1));
        let size = cx.add(&dim(&x, i + 2, "Input(X)")?, &DimExpr::Int(2 * pad));
        let size = cx.sub(&size, &k);
        let size = cx.div(&size, &DimExpr::Int(stride));
        out.push(cx.add(&size, &DimExpr::Int(1)));
    }
    let (oh, ow) = (dim(&out, 2, "output")?, dim(&out, 3, "output")?);
    cx.eq(&oh, &dim(&offset, 2, "Input(Offset)")?);
    cx.eq(&ow, &dim(&offset, 3, "Input(Offset)")?);
    let taps = cx.mul(
        &dim(&filter, 2, "Input(Filter)")?,
        &dim(&filter, 3, "Input(Filter)")?,
    );
    let offsets = cx.mul(&DimExpr::Int(2 * dgroups), &taps);
    cx.eq(&dim(&offset, 1, "Input(Offset)")?, &offsets);
    if cx.operand(3).is_some() {
        let mask = cx.shape(3)?;
        cx.eq(&oh, &dim(&mask, 2, "Input(Mask)")?);
        cx.eq(&ow, &dim(&mask, 3, "Input(Mask)")?);
        let masks = cx.mul(&DimExpr::Int(dgroups), &taps);
        cx.eq(&dim(&mask, 1, "Input(Mask)")?, &masks);
    }
    cx.set_shape(0, out);
    Ok(())
}

fn match_matrix_tensor(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let y = cx.shape(1)?;
    let w = cx.shape(2)?;
    for (t, n, what) in [(&x, 2, "X"), (&y, 2, "Y"), (&w, 3, "W")] {
        if t.len() != n {
            return Err(Bad(format!(
                "The dimensions of Input({what}) should be equal to {n}, but received {}.",
                t.len()
            )));
        }
    }
    cx.eq(&w[0], &x[1]);
    cx.eq(&w[1], &DimExpr::Int(cx.int_attr("dim_t").unwrap_or(1)));
    cx.eq(&w[2], &y[1]);
    let out = cx.sym();
    let tmp = cx.sym();
    cx.set_shape(0, vec![out, DimExpr::Int(1)]);
    cx.set_shape(1, vec![tmp, DimExpr::Int(1)]);
    Ok(())
}

fn spectral_norm(cx: &mut Cx<'_>) -> Res {
    let weight = cx.shape(0)?;
    let u = cx.shape(1)?;
    let v = cx.shape(2)?;
    if !(2..=5).contains(&weight.len()) {
        return Err(Bad(format!(
            "The rank of Input(Weights) should be between 2 and 5, but received Weight rank({})",
            weight.len()
        )));
    }
    let axis = cx.int_attr("dim").unwrap_or(0);
    let iters = cx.int_attr("power_iters").unwrap_or(1);
    if !matches!(axis, 0 | 1) {
        return Err(Bad(format!(
            "Attr(dim) can only be 0 or 1, but received {axis}"
        )));
    }
    if iters < 0 {
        return Err(Bad(format!(
            "Attr(power_iters) should be greater equal then 0, but received {iters}"
        )));
    }
    let axis = axis as usize;
    let rest: Vec<DimExpr> = weight
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != axis)
        .map(|(_, d)| d.clone())
        .collect();
    let rest = cx.product(&rest);
    cx.eq(&dim(&u, 0, "Input(U)")?, &weight[axis]);
    cx.eq(&dim(&v, 0, "Input(V)")?, &rest);
    cx.set_shape(0, weight);
    Ok(())
}

fn random_routing(cx: &mut Cx<'_>) -> Res {
    let top_value = cx.shape(1)?;
    let prob = cx.shape(0)?;
    let top_idx = cx.shape(2)?;
    let v0 = dim(&top_value, 0, "Input(TopkValue)")?;
    cx.eq(&dim(&prob, 0, "Input(Prob)")?, &v0);
    cx.eq(&dim(&top_idx, 0, "Input(TopkIdx)")?, &v0);
    cx.eq(
        &dim(&top_idx, 1, "Input(TopkIdx)")?,
        &dim(&top_value, 1, "Input(TopkValue)")?,
    );
    // Paddle 3.3.1 prints the top values' dims for the result.
    cx.set_shape(0, top_value);
    Ok(())
}

fn tdm_sampler(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let positive = i64::from(cx.bool_attr("output_positive").unwrap_or(true));
    let per_layer = cx.ints_attr("neg_samples_num_list").unwrap_or_default();
    let length = per_layer.iter().fold(0i64, |acc, &n| {
        acc.saturating_add(n).saturating_add(positive)
    });
    let out = vec![dim(&x, 0, "Input(X)")?, DimExpr::Int(length)];
    for r in 0..3 {
        cx.set_shape(r, out.clone());
    }
    Ok(())
}

fn multiplex(cx: &mut Cx<'_>) -> Res {
    let items = cx.list(0)?;
    if items.is_empty() {
        return Err(Bad("MultiInput(X) shouldn't be empty.".into()));
    }
    let ids = cx.shape(1)?;
    if ids.len() != 2 {
        return Err(Bad(
            "The index tensor must be a vector with 2 dimensions".into()
        ));
    }
    cx.eq(&ids[1], &DimExpr::Int(1));
    if items.len() < 2 {
        return Err(Bad(
            "multiplex operator should have more than one candidate input tensors.".into(),
        ));
    }
    let mut out = items[0].shape.clone();
    if out.len() < 2 {
        return Err(Bad(
            "The rank of candidate tensors must be not less than 2.".into(),
        ));
    }
    for t in &items[1..] {
        equal_dims(cx, &out, &t.shape, "All the candidate tensors")?;
    }
    if let (Some(rows), Some(batch)) = (out[0].as_int(), ids[0].as_int()) {
        if rows < batch {
            return Err(Bad(
                "The 2nd-dim of input cannot be smaller than batchSize of the index tensor.".into(),
            ));
        }
    }
    out[0] = ids[0].clone();
    cx.set_shape(0, out);
    Ok(())
}
