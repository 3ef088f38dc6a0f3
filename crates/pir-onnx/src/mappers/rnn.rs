//! `rnn` (Paddle's fused LSTM/GRU/simple RNN, all layers and directions in
//! one op) → one ONNX `LSTM`/`GRU`/`RNN` per layer.
//!
//! Paddle's weight list holds, layer by layer and direction by direction,
//! `w_ih [G*H, I]` and `w_hh [G*H, H]`, then the biases `b_ih`, `b_hh` in
//! the same order. Gates are ordered `i, f, g, o` (LSTM) and `r, z, c`
//! (GRU); ONNX wants `i, o, f, c` and `z, r, h`. The final states are
//! `[layers * directions, batch, hidden]`, as Paddle returns them.

use crate::export::{a_int, a_ints, a_str, Exporter};
use crate::ExportError;

type R = Result<(), ExportError>;

/// `w` with its `gates` row blocks put in ONNX's order `order`.
fn reorder_gates(x: &mut Exporter<'_>, w: &str, gates: usize, order: &[usize]) -> String {
    let parts: Vec<String> = (0..gates).map(|_| x.tmp()).collect();
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let mut attrs = vec![a_int("axis", 0)];
    if x.opset >= 18 {
        // Equal parts without a `split` input need their count from 18 on.
        attrs.push(a_int("num_outputs", gates as i64));
    }
    x.node("Split", &[w], &refs, attrs);
    let ordered: Vec<&str> = order.iter().map(|&k| parts[k].as_str()).collect();
    x.node1("Concat", &ordered, vec![a_int("axis", 0)])
}

/// The `pd_op.rnn` mapper.
pub(crate) fn rnn(x: &mut Exporter<'_>) -> R {
    let attrs = x.attrs();
    let mode = attrs.str_or("mode", "RNN_TANH")?;
    let bidirec = attrs.bool_or("is_bidirec", false)?;
    let hidden = attrs.i64_or("hidden_size", 0)?;
    let layers = attrs.i64_or("num_layers", 1)? as usize;
    let dirs = if bidirec { 2 } else { 1 };
    let (op, gates, order, activations): (&str, usize, Vec<usize>, Vec<&str>) = match mode.as_str()
    {
        "LSTM" => ("LSTM", 4, vec![0, 3, 1, 2], vec![]),
        "GRU" => ("GRU", 3, vec![1, 0, 2], vec![]),
        "RNN_TANH" => ("RNN", 1, vec![0], vec!["Tanh"; dirs]),
        "RNN_RELU" => ("RNN", 1, vec![0], vec!["Relu"; dirs]),
        other => return Err(x.unsupported(format!("rnn mode {other}"))),
    };
    let states = x.input_vec(1)?;
    let weights = x.input_vec(2)?;
    let per_layer = 2 * dirs;
    if weights.len() != 2 * layers * per_layer {
        return Err(x.unsupported(format!(
            "{} weights for {layers} layers and {dirs} directions",
            weights.len()
        )));
    }
    let seq_lens = if x.has_input(3) {
        let s = x.input(3)?;
        x.cast(&s, pir_params::DType::Int32)?
    } else {
        String::new()
    };
    let (w_list, b_list) = weights.split_at(layers * per_layer);
    let mut input = x.input(0)?;
    let mut final_h = Vec::new();
    let mut final_c = Vec::new();
    for l in 0..layers {
        let mut ws = Vec::new();
        let mut rs = Vec::new();
        let mut bs = Vec::new();
        for d in 0..dirs {
            let k = l * per_layer + 2 * d;
            let w = reorder_gates(x, &w_list[k], gates, &order);
            let r = reorder_gates(x, &w_list[k + 1], gates, &order);
            let bw = reorder_gates(x, &b_list[k], gates, &order);
            let br = reorder_gates(x, &b_list[k + 1], gates, &order);
            ws.push(x.unsqueeze(&w, &[0]));
            rs.push(x.unsqueeze(&r, &[0]));
            let b = x.node1("Concat", &[&bw, &br], vec![a_int("axis", 0)]);
            bs.push(x.unsqueeze(&b, &[0]));
        }
        let cat = |x: &mut Exporter<'_>, v: &[String]| {
            let refs: Vec<&str> = v.iter().map(String::as_str).collect();
            x.node1("Concat", &refs, vec![a_int("axis", 0)])
        };
        let w = cat(x, &ws);
        let r = cat(x, &rs);
        let b = cat(x, &bs);
        let lo = x.const_i64s(&[(l * dirs) as i64]);
        let hi = x.const_i64s(&[((l + 1) * dirs) as i64]);
        let zero_axis = x.const_i64s(&[0]);
        let h0 = x.node1("Slice", &[&states[0], &lo, &hi, &zero_axis], vec![]);
        let mut inputs = vec![input.clone(), w, r, b, seq_lens.clone(), h0];
        if op == "LSTM" {
            let c0 = x.node1("Slice", &[&states[1], &lo, &hi, &zero_axis], vec![]);
            inputs.push(c0);
        }
        let y = x.tmp();
        let yh = x.tmp();
        let yc = x.tmp();
        let mut outs = vec![y.as_str(), yh.as_str()];
        if op == "LSTM" {
            outs.push(yc.as_str());
        }
        let mut onnx_attrs = vec![
            a_int("hidden_size", hidden),
            a_str(
                "direction",
                if bidirec { "bidirectional" } else { "forward" },
            ),
        ];
        if op == "GRU" {
            onnx_attrs.push(a_int("linear_before_reset", 1));
        }
        if !activations.is_empty() {
            onnx_attrs.push(crate::proto::AttributeProto {
                name: "activations".into(),
                r#type: crate::proto::AttributeType::Strings as i32,
                strings: activations.iter().map(|s| s.as_bytes().to_vec()).collect(),
                ..Default::default()
            });
        }
        let in_refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        x.node(op, &in_refs, &outs, onnx_attrs);
        // [T, D, B, H] → [T, B, D*H].
        let t = x.node1("Transpose", &[&y], vec![a_ints("perm", &[0, 2, 1, 3])]);
        input = x.reshape(&t, &[0, 0, -1]);
        final_h.push(yh);
        final_c.push(yc);
    }
    x.identity_out(0, &input);
    let state = x
        .result(2)
        .ok_or_else(|| x.unsupported("no state result"))?;
    let mut state_names = Vec::new();
    let lists: Vec<Vec<String>> = if op == "LSTM" {
        vec![final_h, final_c]
    } else {
        vec![final_h]
    };
    for list in lists {
        let refs: Vec<&str> = list.iter().map(String::as_str).collect();
        state_names.push(x.node1("Concat", &refs, vec![a_int("axis", 0)]));
    }
    x.set_vec(state, state_names);
    Ok(())
}
