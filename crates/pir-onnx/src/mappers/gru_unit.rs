//! `gru_unit`: one step of Paddle's version-1 GRU on dense `[batch, 3 *
//! size]` projected inputs (the step the LoD `gru` op runs per time step;
//! `gru_unit` itself reads no LoD).
//!
//! ```text
//! g = input + bias
//! u, r = act_gate(g[:, :2D] + h_prev @ Wg)      Wg: the first 2*D*D weights, [D, 2D]
//! c = act(g[:, 2D:] + (r * h_prev) @ Ws)        Ws: the last D*D weights, [D, D]
//! hidden = u * (c - h_prev) + h_prev            (origin_mode: c + u * (h_prev - c))
//! ```
//!
//! The weight `[D, 3D]` is read as Paddle's kernel reads its memory: two
//! row-major blocks, not three column blocks.

use crate::export::{a_int, Exporter};
use crate::mappers::solve::cut;
use crate::ExportError;

type R = Result<(), ExportError>;

/// The largest hidden size whose weight blocks are cut at export.
const MAX_SIZE: i64 = 1 << 16;

/// `x` through Paddle's GRU activation `kind` (0 identity, 1 sigmoid, 2
/// tanh, 3 relu).
fn activate(x: &mut Exporter<'_>, a: &str, kind: i64) -> Result<String, ExportError> {
    Ok(match kind {
        0 => a.to_string(),
        1 => x.node1("Sigmoid", &[a], vec![]),
        2 => x.node1("Tanh", &[a], vec![]),
        3 => x.node1("Relu", &[a], vec![]),
        other => return Err(x.unsupported(format!("activation {other}"))),
    })
}

/// `gru_unit(input, hidden_prev, weight, bias, activation, gate_activation,
/// origin_mode)`: the activated gates `[batch, 3D]`, `r * hidden_prev` and
/// the next hidden state.
pub(crate) fn gru_unit(x: &mut Exporter<'_>) -> R {
    let size = x.in_dims(1)?.get(1).copied().unwrap_or(-1);
    if !(1..=MAX_SIZE).contains(&size) || x.in_rank(0)? != 2 {
        return Err(x.unsupported(format!(
            "a [batch, 3 * size] input and a hidden size known at export (1 to {MAX_SIZE})"
        )));
    }
    let attrs = x.attrs();
    let activation = attrs.i64_or("activation", 2)?;
    let gate_activation = attrs.i64_or("gate_activation", 1)?;
    let origin_mode = attrs.bool_or("origin_mode", false)?;
    let input = x.input(0)?;
    let h_prev = x.input(1)?;
    let weight = x.input(2)?;
    let mut g = input;
    if x.has_input(3) {
        let bias = x.input(3)?;
        let bias = x.reshape(&bias, &[1, 3 * size]);
        g = x.node1("Add", &[&g, &bias], vec![]);
    }
    let flat = x.reshape(&weight, &[-1]);
    let gate_w = cut(x, &flat, 0, 0, 2 * size * size);
    let gate_w = x.reshape(&gate_w, &[size, 2 * size]);
    let state_w = cut(x, &flat, 0, 2 * size * size, 3 * size * size);
    let state_w = x.reshape(&state_w, &[size, size]);
    let from_h = x.node1("MatMul", &[&h_prev, &gate_w], vec![]);
    let gates_in = cut(x, &g, 1, 0, 2 * size);
    let gates = x.node1("Add", &[&gates_in, &from_h], vec![]);
    let gates = activate(x, &gates, gate_activation)?;
    let u = cut(x, &gates, 1, 0, size);
    let r = cut(x, &gates, 1, size, 2 * size);
    let reset = x.node1("Mul", &[&r, &h_prev], vec![]);
    let from_reset = x.node1("MatMul", &[&reset, &state_w], vec![]);
    let c_in = cut(x, &g, 1, 2 * size, 3 * size);
    let c = x.node1("Add", &[&c_in, &from_reset], vec![]);
    let c = activate(x, &c, activation)?;
    let hidden = if origin_mode {
        let diff = x.node1("Sub", &[&h_prev, &c], vec![]);
        let step = x.node1("Mul", &[&u, &diff], vec![]);
        x.node1("Add", &[&c, &step], vec![])
    } else {
        let diff = x.node1("Sub", &[&c, &h_prev], vec![]);
        let step = x.node1("Mul", &[&u, &diff], vec![]);
        x.node1("Add", &[&step, &h_prev], vec![])
    };
    let all_gates = x.node1("Concat", &[&gates, &c], vec![a_int("axis", 1)]);
    x.identity_out(0, &all_gates);
    x.identity_out(1, &reset);
    x.identity_out(2, &hidden);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_ops, op_types};

    #[test]
    fn gru_unit_reads_the_weight_as_two_row_major_blocks() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,9],stop_gradient:[false]} : () -> tensor<-1x9xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"h",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[3,9],stop_gradient:[false]} : () -> tensor<3x9xf32>
    (%3, %4, %5) = "pd_op.gru_unit" (%0, %1, %2, <<NULL VALUE>>) {activation:2,gate_activation:1,origin_mode:false,stop_gradient:[false,false,false]} : (tensor<-1x9xf32>, tensor<-1x3xf32>, tensor<3x9xf32>, <<NULL TYPE>>) -> tensor<-1x9xf32>, tensor<-1x3xf32>, tensor<-1x3xf32>
    (%6) = "pd_op.fetch" (%5) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>"#,
        );
        let types = op_types(&g);
        assert_eq!(types.iter().filter(|t| **t == "MatMul").count(), 2);
        assert!(types.contains(&"Sigmoid") && types.contains(&"Tanh"));
    }
}
