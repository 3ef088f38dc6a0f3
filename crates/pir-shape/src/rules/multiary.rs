//! Ops over several tensors or lists (Paddle's `multiary_infer_sym.cc`):
//! concatenation, stacking, normalizations, `where`, `einsum`, `rnn`.

use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::{ShapeOrData, TensorFact};

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.concat", concat),
    ("pd_op.stack", stack),
    ("pd_op.add_n", add_n),
    ("pd_op.add_n_", add_n),
    ("pd_op.layer_norm", layer_norm),
    ("pd_op.batch_norm", batch_norm),
    ("pd_op.batch_norm_", batch_norm),
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
];

fn concat(cx: &mut Cx<'_>) -> Res {
    let items = cx.list(0)?;
    let first = items
        .first()
        .cloned()
        .ok_or_else(|| Bad("concat of no tensors".into()))?;
    let axis = cx
        .int_list(1, "axis")?
        .and_then(|v| v.first().and_then(DimExpr::as_int))
        .unwrap_or(0);
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

fn add_n(cx: &mut Cx<'_>) -> Res {
    let items = cx.list(0)?;
    let first = items
        .first()
        .cloned()
        .ok_or_else(|| Bad("add_n of no tensors".into()))?;
    cx.set_shape(0, first.shape);
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

fn batch_norm(cx: &mut Cx<'_>) -> Res {
    let x = cx.shape(0)?;
    let nhwc = matches!(cx.str_attr("data_format"), Some("NHWC" | "NDHWC"));
    let c = if nhwc { x.last() } else { x.get(1) }
        .cloned()
        .unwrap_or(DimExpr::Int(1));
    cx.set_shape(0, x);
    for i in 1..5 {
        cx.set_shape(i, vec![c.clone()]);
    }
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

/// `box_coder`: one box of 4 per target row and prior box.
fn box_coder(cx: &mut Cx<'_>) -> Res {
    let prior = cx.shape(0)?;
    let target = cx.shape(2)?;
    let (Some(t), Some(p)) = (target.first(), prior.first()) else {
        return Err(Bad("box_coder of 0-d boxes".into()));
    };
    cx.set_shape(0, vec![t.clone(), p.clone(), DimExpr::Int(4)]);
    Ok(())
}
