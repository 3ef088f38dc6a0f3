//! canonicalize moves slices before transposes and convolves a transposed
//! input as is, computing what the program computed (run by the evaluator).
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use std::collections::HashMap;

use pir_core::{Program, ValueId};
use pir_eval::EvalTensor;
use pir_params::DType;
use pir_pass::PassManager;

/// Runs a program of one block op by op with the evaluator; `data` reads
/// `x`. Returns what the fetch reads.
fn run(p: &Program, x: &EvalTensor) -> Vec<f64> {
    let mut env: HashMap<ValueId, EvalTensor> = HashMap::new();
    let mut out = Vec::new();
    for op in p.block_ops(p.top_block()).collect::<Vec<_>>() {
        let inputs: Vec<EvalTensor> = p.operands(op).map(|v| env[&v.unwrap()].clone()).collect();
        let results = match p.op_name_str(op) {
            "pd_op.data" => vec![x.clone()],
            "pd_op.fetch" => {
                out = inputs[0].to_f64_vec();
                vec![inputs[0].clone()]
            }
            _ => pir_eval::evaluate(p, op, &inputs).unwrap(),
        };
        for (r, t) in p.results(op).zip(results) {
            env.insert(r, t);
        }
    }
    out
}

/// Runs `canonicalize,dce` on `text` (verifying after each pass), checks
/// that it computes what it computed on `x` and keeps `transposes`
/// transposes; returns the printed result.
fn canonicalized(text: &str, x: &EvalTensor, transposes: usize) -> String {
    let ctx = pir_dialects::pd_op_context();
    let mut p = Program::parse(&ctx, text).unwrap();
    let before = run(&p, x);
    let mut pm = PassManager::parse("canonicalize,dce").unwrap();
    pm.instrumentation.verify_each = true;
    pm.run(&mut p).unwrap();
    let printed = p.to_string();
    assert_eq!(
        printed.matches("\"pd_op.transpose\"").count(),
        transposes,
        "{printed}"
    );
    assert_eq!(run(&p, x), before, "{printed}");
    printed
}

#[test]
fn slices_move_before_transposes_and_compute_the_same() {
    let x = EvalTensor::from_f64s(
        DType::Float32,
        &[2, 5, 3],
        &(0..30).map(f64::from).collect::<Vec<_>>(),
    )
    .unwrap();
    let cases = [
        // the last step, taken after making the sequence time-major:
        // no transpose left
        ("[1,0,2]", "5x2x3", "[0]", "[4]", "[5]", "[0]", "2x3", 0),
        // a window of the middle axis: a transpose stays, after the slice
        ("[0,2,1]", "2x3x5", "[2]", "[1]", "[3]", "[]", "2x3x2", 1),
    ];
    for (perm, tdims, axes, start, end, decrease, odims, transposes) in cases {
        let n = |s: &str| s.matches(',').count() + usize::from(s != "[]");
        let text = format!(
            r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[2,5,3],stop_gradient:[false]}} : () -> tensor<2x5x3xf32>
    (%1) = "pd_op.transpose" (%0) {{perm:{perm},stop_gradient:[false]}} : (tensor<2x5x3xf32>) -> tensor<{tdims}xf32>
    (%2) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:{start}}} : () -> tensor<{a}xi64>
    (%3) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:{end}}} : () -> tensor<{a}xi64>
    (%4) = "pd_op.slice" (%1, %2, %3) {{axes:{axes},decrease_axis:{decrease},infer_flags:[1],stop_gradient:[false]}} : (tensor<{tdims}xf32>, tensor<{a}xi64>, tensor<{a}xi64>) -> tensor<{odims}xf32>
    (%5) = "pd_op.fetch" (%4) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<{odims}xf32>) -> tensor<{odims}xf32>
}}"#,
            a = n(axes),
        );
        let printed = canonicalized(&text, &x, transposes);
        assert!(printed.contains("(%0, "), "the slice reads x: {printed}");
    }
}

#[test]
fn a_channel_last_convolution_of_a_transpose_convolves_the_input_as_is() {
    let x = EvalTensor::from_f64s(
        DType::Float32,
        &[1, 3, 4, 4],
        &(0..48)
            .map(|i| f64::from(i) * 0.25 - 5.0)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    // A filter whose every weight differs, so a mixed-up layout shows.
    let weights: Vec<String> = (0..54)
        .map(|i| format!("{}", f64::from(i % 7) - 2.5))
        .collect();
    for (op, other_reader, transposes) in [
        ("conv2d", "", 1),
        ("depthwise_conv2d", "", 1),
        // The transposed tensor is read elsewhere too: nothing changes.
        (
            "conv2d",
            r#"    (%5) = "pd_op.relu" (%1) {stop_gradient:[false]} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
"#,
            1,
        ),
    ] {
        let (filter_dims, groups, out_c) = if op == "conv2d" {
            ("2x3x3x3", 1, 2)
        } else {
            ("3x1x3x3", 3, 3)
        };
        let n: usize = filter_dims
            .split('x')
            .map(|d| d.parse::<usize>().unwrap())
            .product();
        let shape = filter_dims.replace('x', ",");
        let values = weights[..n].join(",");
        let text = format!(
            r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[1,3,4,4],stop_gradient:[false]}} : () -> tensor<1x3x4x4xf32>
    (%1) = "pd_op.transpose" (%0) {{perm:[0,2,3,1],stop_gradient:[false]}} : (tensor<1x3x4x4xf32>) -> tensor<1x4x4x3xf32>
    (%2) = "pd_op.assign_value" () {{dtype:float32,place:Place(undefined:0),shape:[{shape}],stop_gradient:[true],values:[{values}]}} : () -> tensor<{filter_dims}xf32>
    (%3) = "pd_op.{op}" (%1, %2) {{data_format:"NHWC",dilations:[1,1],groups:{groups},padding_algorithm:"EXPLICIT",paddings:[1,1],stop_gradient:[false],strides:[2,1]}} : (tensor<1x4x4x3xf32>, tensor<{filter_dims}xf32>) -> tensor<1x2x4x{out_c}xf32>
    (%4) = "pd_op.fetch" (%3) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<1x2x4x{out_c}xf32>) -> tensor<1x2x4x{out_c}xf32>
{other_reader}}}"#
        );
        let printed = canonicalized(&text, &x, transposes);
        let nchw = printed.contains(r#"data_format:"NCHW""#);
        assert_eq!(nchw, other_reader.is_empty(), "{printed}");
        if nchw {
            assert!(
                printed.contains(&format!("\"pd_op.{op}\" (%0, ")),
                "{printed}"
            );
        }
    }
}
