//! ONNX `Scan` built from a closure, for ops that walk a sequence one step
//! at a time (the dynamic programs of sequence decoding): the state carried
//! from step to step, the tensors scanned along their first axis, and the
//! per-step outputs stacked along a new first axis.
//!
//! ```text
//! state_0 = init
//! for t in 0..len (or len-1 down to 0 when reversed):
//!     state_{t+1}, outputs_t = body(state_t, scanned[0][t], scanned[1][t], ...)
//! ```
//!
//! The body is an ONNX subgraph: it may read any value of the enclosing
//! graphs (initializers, the op's operands) by name.

use crate::export::{a_graph, a_int, a_ints, Exporter};
use crate::mappers::random::{any_shape, value_info};
use crate::proto::DataType;
use crate::ExportError;

/// An element type and a rank (dims left unknown).
pub(crate) type Ranked = (DataType, usize);

/// The element types and ranks of the values a [`scan`] carries, reads (one
/// step's slice) and writes (one step's output). Runtimes want the ranks of
/// a scan body's values stated.
pub(crate) struct ScanTypes<'a> {
    /// One per carried value.
    pub state: &'a [Ranked],
    /// One per scanned input: its slice.
    pub scanned: &'a [Ranked],
    /// One per per-step output.
    pub outputs: &'a [Ranked],
}

/// An ONNX tensor type of `elem` and `rank` unknown dims.
fn ranked((elem, rank): Ranked) -> crate::proto::TypeProto {
    let mut ty = any_shape(elem);
    if let Some(crate::proto::type_proto::Value::TensorType(t)) = &mut ty.value {
        t.shape = Some(crate::proto::TensorShapeProto {
            dim: vec![Default::default(); rank],
        });
    }
    ty
}

/// What a scan body returns: the next state, then the step's outputs.
pub(crate) type Step = (Vec<String>, Vec<String>);

/// A `Scan` over `scanned` (each along axis 0; from the last step to the
/// first when `reverse`, the stacked outputs then in the original order)
/// carrying `init`. `body` gets the state and one slice of each scanned
/// input and returns the next state and the step's outputs. Returns the
/// final state and the stacked outputs.
pub(crate) fn scan(
    x: &mut Exporter<'_>,
    init: &[String],
    scanned: &[String],
    types: &ScanTypes<'_>,
    reverse: bool,
    body: impl FnOnce(&mut Exporter<'_>, &[String], &[String]) -> Result<Step, ExportError>,
) -> Result<Step, ExportError> {
    if types.state.len() != init.len() || types.scanned.len() != scanned.len() {
        return Err(x.unsupported("a scan whose types do not match its inputs"));
    }
    let graph = x.subgraph("step", |x| {
        let mut state = Vec::new();
        for ty in types.state {
            let name = x.tmp();
            x.graph_input(value_info(name.clone(), ranked(*ty)));
            state.push(name);
        }
        let mut slices = Vec::new();
        for ty in types.scanned {
            let name = x.tmp();
            x.graph_input(value_info(name.clone(), ranked(*ty)));
            slices.push(name);
        }
        let (next, outputs) = body(x, &state, &slices)?;
        if next.len() != types.state.len() || outputs.len() != types.outputs.len() {
            return Err(x.unsupported("a scan body whose results do not match its types"));
        }
        let all_types = types.state.iter().chain(types.outputs);
        for (value, ty) in next.iter().chain(&outputs).zip(all_types) {
            // Subgraph outputs are made inside the subgraph.
            let out = x.tmp();
            x.node("Identity", &[value], &[&out], vec![]);
            x.graph_output(value_info(out, ranked(*ty)));
        }
        Ok(())
    })?;
    let final_state: Vec<String> = init.iter().map(|_| x.tmp()).collect();
    let stacked: Vec<String> = types.outputs.iter().map(|_| x.tmp()).collect();
    let inputs: Vec<&str> = init.iter().chain(scanned).map(String::as_str).collect();
    let outputs: Vec<&str> = final_state
        .iter()
        .chain(&stacked)
        .map(String::as_str)
        .collect();
    let direction = i64::from(reverse);
    let mut attrs = vec![
        a_graph("body", graph),
        a_int("num_scan_inputs", scanned.len() as i64),
    ];
    if reverse {
        attrs.push(a_ints(
            "scan_input_directions",
            &vec![direction; scanned.len()],
        ));
        attrs.push(a_ints(
            "scan_output_directions",
            &vec![direction; types.outputs.len()],
        ));
    }
    x.node("Scan", &inputs, &outputs, attrs);
    Ok((final_state, stacked))
}

/// `0, 1, ..., n - 1` as int64, `n` an int64 scalar value.
pub(crate) fn iota(x: &mut Exporter<'_>, n: &str) -> Result<String, ExportError> {
    let zero = x.const_scalar(pir_params::DType::Int64, 0.0)?;
    let one = x.const_scalar(pir_params::DType::Int64, 1.0)?;
    Ok(x.node1("Range", &[&zero, n, &one], vec![]))
}

/// Dim `axis` of `a` as an int64 scalar value.
pub(crate) fn dim(x: &mut Exporter<'_>, a: &str, axis: i64) -> String {
    let shape = x.node1("Shape", &[a], vec![]);
    let at = x.const_i64s(&[axis]);
    let d = x.node1("Gather", &[&shape, &at], vec![a_int("axis", 0)]);
    x.reshape(&d, &[])
}
