//! `constant_folding` and `fold_batch_norm` on small programs in Paddle's
//! text with bound parameters, each checked by structure (what was folded,
//! what parameters exist) and by meaning: the program is run before and after
//! by an interpreter built on the CPU evaluator, and the fetched values must
//! agree.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use std::collections::BTreeMap;

use common::{assert_close, count, interpret, parse, run_pipeline, stat};
use pir_core::Program;
use pir_eval::EvalTensor;
use pir_params::{DType, Tensor};

fn f32s(dims: &[i64], values: &[f32]) -> Tensor {
    Tensor::from_slice(DType::Float32, dims.to_vec(), values).unwrap()
}

/// Binds `tensors` to the parameters of the same names.
fn bind(p: &mut Program, tensors: &[(&str, Tensor)]) {
    for (name, t) in tensors {
        pir_params::bound::bind(p, name, t.clone()).unwrap();
    }
}

const WEIGHT_CHAIN: &str = r#"{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3x2xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%2) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>
    (%3) = "pd_op.scale" (%0, %2) {bias:0.5,bias_after_scale:true,stop_gradient:[false]} : (tensor<3x2xf32>, tensor<1xf32>) -> tensor<3x2xf32>
    (%4) = "pd_op.transpose" (%3) {perm:[1,0],stop_gradient:[false]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.matmul" (%1, %4) {stop_gradient:[false],transpose_x:false,transpose_y:true} : (tensor<-1x3xf32>, tensor<2x3xf32>) -> tensor<-1x2xf32>
    (%6) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:1} : () -> tensor<2xf32>
    (%7) = "pd_op.exp" (%6) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%8) = "pd_op.add" (%5, %7) {stop_gradient:[false]} : (tensor<-1x2xf32>, tensor<2xf32>) -> tensor<-1x2xf32>
    (%9) = "pd_op.fetch" (%8) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x2xf32>) -> tensor<-1x2xf32>
}"#;

fn weight_chain() -> Program {
    let mut p = parse(WEIGHT_CHAIN);
    bind(
        &mut p,
        &[("w", f32s(&[3, 2], &[0.5, -1.0, 2.0, 0.25, -3.0, 1.5]))],
    );
    p
}

fn x_feed() -> Vec<(&'static str, EvalTensor)> {
    let x = EvalTensor::from_f64s(DType::Float32, &[2, 3], &[1.0, 2.0, 3.0, -1.0, 0.5, 4.0]);
    vec![("x", x.unwrap())]
}

#[test]
fn folds_a_weight_chain_into_one_parameter() {
    let mut p = weight_chain();
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding");
    // scale and transpose fold into one new parameter; exp of a uniform
    // tensor becomes a `full`.
    assert_eq!(stat(&stats, "ops folded"), 3, "{p}");
    assert_eq!(stat(&stats, "parameters created"), 1);
    assert_eq!(stat(&stats, "parameters dropped"), 1);
    assert_eq!(stat(&stats, "constants created"), 1);
    assert_eq!(count(&p, "pd_op.scale") + count(&p, "pd_op.transpose"), 0);
    assert_eq!(count(&p, "pd_op.exp"), 0);
    assert!(p.parameter("w").is_none(), "the unused weight is dropped");
    let names: Vec<&str> = p.parameters().map(|(n, _)| n).collect();
    assert_eq!(names, ["constant_folding@_0"]);
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
}

#[test]
fn a_parameter_made_for_a_value_of_unknown_dims_gets_its_tensor_s_shape() {
    // Paddle refuses to run a parameter whose type leaves dims unknown.
    let text = WEIGHT_CHAIN
        .replace(
            "(tensor<3x2xf32>, tensor<1xf32>) -> tensor<3x2xf32>",
            "(tensor<3x2xf32>, tensor<1xf32>) -> tensor<-1x2xf32>",
        )
        .replace(
            "(tensor<3x2xf32>) -> tensor<2x3xf32>",
            "(tensor<-1x2xf32>) -> tensor<2x-1xf32>",
        )
        .replace(
            "(tensor<-1x3xf32>, tensor<2x3xf32>)",
            "(tensor<-1x3xf32>, tensor<2x-1xf32>)",
        );
    assert_eq!(text.matches("x-1xf32>").count(), 2, "{text}");
    let mut p = parse(&text);
    bind(
        &mut p,
        &[("w", f32s(&[3, 2], &[0.5, -1.0, 2.0, 0.25, -3.0, 1.5]))],
    );
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "parameters created"), 1, "{p}");
    let printed = p.to_string();
    let line = printed
        .lines()
        .find(|l| l.contains("constant_folding@_0"))
        .unwrap();
    assert!(line.ends_with("() -> tensor<2x3xf32>"), "{line}");
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
}

#[test]
fn keep_params_folds_constants_only() {
    let mut p = weight_chain();
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding{keep-params=true}");
    assert_eq!(stat(&stats, "ops folded"), 1, "only exp(full): {p}");
    assert_eq!(stat(&stats, "parameters created"), 0);
    assert!(p.parameter("w").is_some());
    assert_eq!(count(&p, "pd_op.scale"), 1);
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
}

#[test]
fn without_parameter_data_nothing_is_read_or_created() {
    let mut p = parse(WEIGHT_CHAIN);
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "ops folded"), 1, "{p}");
    assert_eq!(count(&p, "builtin.parameter"), 1);
}

#[test]
fn a_constant_written_in_place_is_not_folded() {
    // `relu_` writes the `full` buffer that `exp` reads afterwards: the value
    // exp sees is relu's, not full's.
    let text = r#"{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:-1} : () -> tensor<2xf32>
    (%1) = "pd_op.relu_" (%0) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%2) = "pd_op.exp" (%0) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"a",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
    (%4) = "pd_op.fetch" (%1) {col:1,name:"b",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
}"#;
    let mut p = parse(text);
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "ops folded"), 0, "{p}");
    assert_eq!(count(&p, "pd_op.exp"), 1);
}

#[test]
fn an_unobserved_in_place_write_folds() {
    // relu_ writes a fresh `full` nothing else reads: it folds like relu.
    let text = r#"{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:-1} : () -> tensor<2xf32>
    (%1) = "pd_op.relu_" (%0) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%2) = "pd_op.fetch" (%1) {col:0,name:"a",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
}"#;
    let mut p = parse(text);
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "ops folded"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.relu_") + count(&p, "pd_op.relu"), 0);
    let expected = BTreeMap::from([("a".to_string(), vec![0.0, 0.0])]);
    assert_close(&expected, &interpret(&p, &[]), 0.0);
}

#[test]
fn short_integer_results_become_int_arrays() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[7,0]} : () -> tensor<2xi64>
    (%2) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
    (%3) = "pd_op.subtract" (%1, %2) {stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>) -> tensor<2xi64>
    (%4) = "pd_op.reshape" (%0, %3) {stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<2xi64>) -> tensor<6x-1xf32>
    (%5) = "pd_op.fetch" (%4) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<6x-1xf32>) -> tensor<6x-1xf32>
}"#;
    let mut p = parse(text);
    let feeds = vec![(
        "x",
        EvalTensor::from_f64s(DType::Float32, &[4, 3], &[1.0; 12]).unwrap(),
    )];
    let before = interpret(&p, &feeds);
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "ops folded"), 1);
    assert_eq!(count(&p, "pd_op.full_int_array"), 1, "{p}");
    assert!(p.to_string().contains("value:[6,-1]"), "{p}");
    assert_close(&before, &interpret(&p, &feeds), 0.0);
}

const MATMUL_BN: &str = r#"{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3x2xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2xf32>
    (%2) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"mean",persistable:[true],stop_gradient:[true],trainable:[false]} : () -> tensor<2xf32>
    (%3) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"var",persistable:[true],stop_gradient:[true],trainable:[false]} : () -> tensor<2xf32>
    (%4) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"gamma",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2xf32>
    (%5) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"beta",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2xf32>
    (%6) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%7) = "pd_op.matmul" (%6, %0) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x3xf32>, tensor<3x2xf32>) -> tensor<-1x2xf32>
    (%8) = "pd_op.add" (%7, %1) {stop_gradient:[false]} : (tensor<-1x2xf32>, tensor<2xf32>) -> tensor<-1x2xf32>
    (%9, %10, %11, %12, %13, %14) = "pd_op.batch_norm_" (%8, %2, %3, %4, %5) {data_format:"NCHW",epsilon:1e-05,is_test:true,momentum:0.9,stop_gradient:[false,false,false,false,false,false],trainable_statistics:false,use_global_stats:true} : (tensor<-1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<-1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<-1xu8>
    (%15) = "pd_op.relu" (%9) {stop_gradient:[false]} : (tensor<-1x2xf32>) -> tensor<-1x2xf32>
    (%16) = "pd_op.fetch" (%15) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x2xf32>) -> tensor<-1x2xf32>
}"#;

fn matmul_bn() -> Program {
    let mut p = parse(MATMUL_BN);
    bind(
        &mut p,
        &[
            ("w", f32s(&[3, 2], &[0.5, -1.0, 2.0, 0.25, -3.0, 1.5])),
            ("b", f32s(&[2], &[0.1, -0.2])),
            ("mean", f32s(&[2], &[0.3, -0.7])),
            ("var", f32s(&[2], &[2.0, 0.5])),
            ("gamma", f32s(&[2], &[1.5, -0.5])),
            ("beta", f32s(&[2], &[0.05, 0.4])),
        ],
    );
    p
}

#[test]
fn folds_batch_norm_into_matmul_and_bias() {
    let mut p = matmul_bn();
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "fold_batch_norm");
    assert_eq!(stat(&stats, "batch norms folded"), 1);
    assert_eq!(count(&p, "pd_op.batch_norm_"), 0, "{p}");
    assert_eq!(count(&p, "pd_op.add"), 1);
    let mut names: Vec<&str> = p.parameters().map(|(n, _)| n).collect();
    names.sort_unstable();
    assert_eq!(names, ["fold_batch_norm@_0", "fold_batch_norm@_1"]);
    assert_close(&before, &interpret(&p, &x_feed()), 1e-6);
}

#[test]
fn a_batch_norm_in_training_mode_stays() {
    let text = MATMUL_BN
        .replace("is_test:true", "is_test:false")
        .replace("use_global_stats:true", "use_global_stats:false");
    let mut p = parse(&text);
    bind(
        &mut p,
        &[
            ("w", f32s(&[3, 2], &[1.0; 6])),
            ("b", f32s(&[2], &[0.0; 2])),
            ("mean", f32s(&[2], &[0.0; 2])),
            ("var", f32s(&[2], &[1.0; 2])),
            ("gamma", f32s(&[2], &[1.0; 2])),
            ("beta", f32s(&[2], &[0.0; 2])),
        ],
    );
    let stats = run_pipeline(&mut p, "fold_batch_norm");
    assert_eq!(stat(&stats, "batch norms folded"), 0);
    assert_eq!(count(&p, "pd_op.batch_norm_"), 1);
}

#[test]
fn a_shared_producer_output_stays() {
    // The matmul's result is also fetched: scaling its weight would change it.
    let text = MATMUL_BN.replace(
        "    (%16) = \"pd_op.fetch\"",
        "    (%17) = \"pd_op.fetch\" (%7) {col:1,name:\"raw\",persistable:[true],stop_gradient:[false]} : (tensor<-1x2xf32>) -> tensor<-1x2xf32>\n    (%16) = \"pd_op.fetch\"",
    );
    let mut p = parse(&text);
    let bound = matmul_bn();
    for (name, param) in bound.parameters() {
        p.set_parameter(name, param.clone());
    }
    let stats = run_pipeline(&mut p, "fold_batch_norm");
    assert_eq!(stat(&stats, "batch norms folded"), 0, "{p}");
}

#[test]
fn constants_as_params_hoists_read_only_makers_and_shares_equal_ones() {
    // Two equal `full_int_array`s (one inside an `if` branch) and a `scale`
    // factor become parameters; the `full` that `relu_` writes before `exp`
    // reads it stays an op.
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
    (%2) = "pd_op.sum" (%0, %1) {dtype:Undefined,keepdim:false,stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<1xi64>) -> tensor<-1xf32>
    (%3) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>
    (%4) = "pd_op.scale" (%2, %3) {bias:0.5,bias_after_scale:true,stop_gradient:[false]} : (tensor<-1xf32>, tensor<1xf32>) -> tensor<-1xf32>
    (%5) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:-1} : () -> tensor<2xf32>
    (%6) = "pd_op.relu_" (%5) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%13) = "pd_op.exp" (%5) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    (%7) = "pd_op.data" () {dtype:bool,name:"c",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<b>
    (%8) = "pd_op.if" (%7) {stop_gradient:[false]} -> tensor<-1xf32> {
        (%9) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
        (%10) = "pd_op.max" (%0, %9) {keepdim:false,stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<1xi64>) -> tensor<-1xf32>
        () = "cf.yield" (%10) {} : (tensor<-1xf32>) -> 
    } else {
        () = "cf.yield" (%4) {} : (tensor<-1xf32>) -> 
    }
    (%11) = "pd_op.fetch" (%8) {col:0,name:"a",persistable:[true],stop_gradient:[false]} : (tensor<-1xf32>) -> tensor<-1xf32>
    (%12) = "pd_op.fetch" (%6) {col:1,name:"b",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
    (%14) = "pd_op.fetch" (%13) {col:2,name:"c",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
}"#;
    let mut p = parse(text);
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    assert_eq!(stat(&stats, "constants hoisted"), 3, "{p}");
    assert_eq!(count(&p, "pd_op.full_int_array"), 0, "{p}");
    assert_eq!(count(&p, "pd_op.full"), 1, "the written full stays: {p}");
    let names: Vec<&str> = p.parameters().map(|(n, _)| n).collect();
    assert_eq!(
        names.len(),
        2,
        "equal constants share a parameter: {names:?}"
    );
    // Parameters come first in the top block, so they dominate every reader.
    let top = p.top_block();
    let first: Vec<&str> = p
        .block_ops(top)
        .take(2)
        .map(|op| p.op_name_str(op))
        .collect();
    assert_eq!(first, ["builtin.parameter", "builtin.parameter"]);
}

/// `x` and a `full` of 3 elements declared `tensor<-1xf32>`, read by
/// `readers`, after `constant_folding{constants-as-params=true}`.
fn hoist_unknown_dims_full(readers: &str) -> (Program, Vec<(&'static str, u64)>) {
    let text = format!(
        r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1],stop_gradient:[false]}} : () -> tensor<-1xf32>
    (%1) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[3],stop_gradient:[true],value:2}} : () -> tensor<-1xf32>
{readers}}}"#
    );
    let mut p = parse(&text);
    bind(&mut p, &[]);
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    (p, stats)
}

#[test]
fn a_hoisted_constant_of_unknown_declared_dims_gets_its_tensor_s_shape() {
    // As for folded values: Paddle refuses a parameter whose type leaves dims unknown.
    let (p, stats) = hoist_unknown_dims_full(
        r#"    (%2) = "pd_op.add" (%0, %1) {stop_gradient:[false]} : (tensor<-1xf32>, tensor<-1xf32>) -> tensor<-1xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1xf32>) -> tensor<-1xf32>
"#,
    );
    assert_eq!(stat(&stats, "constants hoisted"), 1, "{p}");
    let printed = p.to_string();
    let line = printed
        .lines()
        .find(|l| l.contains("\"builtin.parameter\""))
        .unwrap();
    assert!(line.ends_with("() -> tensor<3xf32>"), "{line}");
}

#[test]
fn constants_as_params_needs_parameter_data() {
    // Without the weights' tensors no parameter can be written.
    let mut p = parse(WEIGHT_CHAIN);
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    assert_eq!(stat(&stats, "constants hoisted"), 0, "{p}");
    let mut p = weight_chain();
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    assert_eq!(
        stat(&stats, "constants hoisted"),
        1,
        "the folded exp's full: {p}"
    );
    assert_eq!(count(&p, "pd_op.full"), 0);
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
}

/// A convolution-bias-shaped parameter `b` (`1x3x1x1`) read by `add` (as the
/// second operand) and `multiply` (as the first), with `READER` spliced in
/// as a third reader of `b` when given.
fn bias_program(reader: &str) -> Program {
    let text = format!(
        r#"{{
    (%0) = "builtin.parameter" () {{is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]}} : () -> tensor<1x3x1x1xf32>
    (%1) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3,2,2],stop_gradient:[false]}} : () -> tensor<-1x3x2x2xf32>
    (%2) = "pd_op.add" (%1, %0) {{stop_gradient:[false]}} : (tensor<-1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<-1x3x2x2xf32>
    (%3) = "pd_op.multiply" (%0, %2) {{stop_gradient:[false]}} : (tensor<1x3x1x1xf32>, tensor<-1x3x2x2xf32>) -> tensor<-1x3x2x2xf32>
    (%4) = "pd_op.fetch" (%3) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<-1x3x2x2xf32>) -> tensor<-1x3x2x2xf32>
{reader}}}"#
    );
    let mut p = parse(&text);
    bind(&mut p, &[("b", f32s(&[1, 3, 1, 1], &[0.5, -2.0, 3.0]))]);
    p
}

fn nchw_feed() -> Vec<(&'static str, EvalTensor)> {
    let values: Vec<f64> = (0..24).map(|i| f64::from(i) * 0.25 - 2.0).collect();
    let x = EvalTensor::from_f64s(DType::Float32, &[2, 3, 2, 2], &values);
    vec![("x", x.unwrap())]
}

#[test]
fn a_bias_read_by_element_wise_ops_loses_its_leading_unit_dims() {
    let mut p = bias_program("");
    let before = interpret(&p, &nchw_feed());
    let stats = run_pipeline(&mut p, "trim_broadcast_constants");
    assert_eq!(stat(&stats, "parameters trimmed"), 1, "{p}");
    let printed = p.to_string();
    assert!(
        printed.contains("() -> tensor<3x1x1xf32>")
            && printed
                .contains("(tensor<-1x3x2x2xf32>, tensor<3x1x1xf32>) -> tensor<-1x3x2x2xf32>")
            && printed
                .contains("(tensor<3x1x1xf32>, tensor<-1x3x2x2xf32>) -> tensor<-1x3x2x2xf32>"),
        "{printed}"
    );
    let t = pir_params::bound::tensor(&p, "b").unwrap();
    assert_eq!(t.dims(), [3, 1, 1]);
    assert_eq!(t.to_vec::<f32>().unwrap(), [0.5, -2.0, 3.0]);
    assert_close(&before, &interpret(&p, &nchw_feed()), 0.0);
}

#[test]
fn keep_params_keeps_a_bias_s_dims() {
    let mut p = bias_program("");
    let stats = run_pipeline(&mut p, "trim_broadcast_constants{keep-params=true}");
    assert_eq!(stat(&stats, "parameters trimmed"), 0, "{p}");
    assert_eq!(
        pir_params::bound::tensor(&p, "b").unwrap().dims(),
        [1, 3, 1, 1]
    );
}

#[test]
fn a_bias_with_a_reader_that_is_not_a_broadcast_keeps_its_dims() {
    let other_readers = [
        // Not an element-wise binary op.
        r#"    (%5) = "pd_op.relu" (%0) {stop_gradient:[false]} : (tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
"#,
        // The other operand has a lower rank: the leading 1 is the result's.
        r#"    (%5) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[2,2],stop_gradient:[false]} : () -> tensor<2x2xf32>
    (%6) = "pd_op.add" (%0, %5) {stop_gradient:[false]} : (tensor<1x3x1x1xf32>, tensor<2x2xf32>) -> tensor<1x3x2x2xf32>
"#,
        // The written operand of an in-place op.
        r#"    (%5) = "pd_op.add_" (%0, %0) {stop_gradient:[false]} : (tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
"#,
    ];
    for reader in other_readers {
        let mut p = bias_program(reader);
        let stats = run_pipeline(&mut p, "trim_broadcast_constants");
        assert_eq!(stat(&stats, "parameters trimmed"), 0, "{p}");
        assert_eq!(
            pir_params::bound::tensor(&p, "b").unwrap().dims(),
            [1, 3, 1, 1]
        );
    }
}

#[test]
fn the_inference_pipeline_trims_a_folded_convolution_bias() {
    // Paddle's layer writes `reshape(bias, [1,-1,1,1])`; folding makes it a
    // `1x3x1x1` parameter, which the pipeline then trims.
    let text = r#"{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3,2,2],stop_gradient:[false]} : () -> tensor<-1x3x2x2xf32>
    (%2) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1,-1,1,1]} : () -> tensor<4xi64>
    (%3) = "pd_op.reshape" (%0, %2) {stop_gradient:[false]} : (tensor<3xf32>, tensor<4xi64>) -> tensor<1x3x1x1xf32>
    (%4) = "pd_op.add" (%1, %3) {stop_gradient:[false]} : (tensor<-1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<-1x3x2x2xf32>
    (%5) = "pd_op.fetch" (%4) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x3x2x2xf32>) -> tensor<-1x3x2x2xf32>
}"#;
    let mut p = parse(text);
    bind(&mut p, &[("b", f32s(&[3], &[0.5, -2.0, 3.0]))]);
    let before = interpret(&p, &nchw_feed());
    let stats = run_pipeline(&mut p, "inference");
    assert_eq!(stat(&stats, "parameters trimmed"), 1, "{p}");
    assert!(
        p.to_string()
            .contains("tensor<3x1x1xf32>) -> tensor<-1x3x2x2xf32>"),
        "{p}"
    );
    assert_close(&before, &interpret(&p, &nchw_feed()), 0.0);
}

#[test]
fn an_empty_axes_list_of_full_reductions_becomes_every_axis_as_a_parameter() {
    // Paddle loads an empty parameter without a buffer: `[]` itself cannot
    // be one. Naming every axis reduces the same, one list per input rank.
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%2) = "pd_op.mean" (%0, %1) {keepdim:false,stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<0xi64>) -> tensor<f32>
    (%3) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[-1]} : () -> tensor<1xi64>
    (%4) = "pd_op.reshape" (%0, %3) {stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<1xi64>) -> tensor<-1xf32>
    (%5) = "pd_op.sum" (%4, %1) {dtype:Undefined,keepdim:true,stop_gradient:[false]} : (tensor<-1xf32>, tensor<0xi64>) -> tensor<1xf32>
    (%6) = "pd_op.max" (%0, %1) {keepdim:false,stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<0xi64>) -> tensor<f32>
    (%7) = "pd_op.fetch" (%2) {col:0,name:"mean",persistable:[true],stop_gradient:[false]} : (tensor<f32>) -> tensor<f32>
    (%8) = "pd_op.fetch" (%5) {col:1,name:"sum",persistable:[true],stop_gradient:[false]} : (tensor<1xf32>) -> tensor<1xf32>
    (%9) = "pd_op.fetch" (%6) {col:2,name:"max",persistable:[true],stop_gradient:[false]} : (tensor<f32>) -> tensor<f32>
}"#;
    let mut p = parse(text);
    bind(&mut p, &[]);
    let feed = || {
        let x = EvalTensor::from_f64s(DType::Float32, &[2, 3], &[1.0, -2.0, 3.5, 0.5, 4.0, -1.0]);
        vec![("x", x.unwrap())]
    };
    let before = interpret(&p, &feed());
    let stats = run_pipeline(&mut p, "constant_folding{constants-as-params=true}");
    assert_eq!(stat(&stats, "constants hoisted"), 2, "{p}");
    assert_eq!(count(&p, "pd_op.full_int_array"), 0, "{p}");
    let lists: Vec<Vec<i64>> = p
        .parameters()
        .map(|(n, _)| {
            pir_params::bound::tensor(&p, n)
                .unwrap()
                .to_vec::<i64>()
                .unwrap()
        })
        .collect();
    assert!(
        lists.contains(&vec![0, 1]) && lists.contains(&vec![0]),
        "{lists:?}"
    );
    assert_eq!(
        lists.len(),
        3,
        "[-1], [0, 1] shared by mean and max, [0]: {lists:?}"
    );
    assert_close(&before, &interpret(&p, &feed()), 0.0);
}

/// `w` scaled to a value of unknown dims (`tensor<-1x3xf32>`), read by a
/// `builtin.combine` with the input (then concatenated) and by `reader`.
fn combined_fold(reader: &str) -> Program {
    let text = format!(
        r#"{{
    (%0) = "builtin.parameter" () {{is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]}} : () -> tensor<2x3xf32>
    (%1) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]}} : () -> tensor<-1x3xf32>
    (%2) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2}} : () -> tensor<1xf32>
    (%3) = "pd_op.scale" (%0, %2) {{bias:0.5,bias_after_scale:true,stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<-1x3xf32>
    (%4) = "builtin.combine" (%1, %3) {{}} : (tensor<-1x3xf32>, tensor<-1x3xf32>) -> vec[tensor<-1x3xf32>,tensor<-1x3xf32>]
    (%5) = "pd_op.full" () {{dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0}} : () -> tensor<1xi32>
    (%6) = "pd_op.concat" (%4, %5) {{stop_gradient:[false]}} : (vec[tensor<-1x3xf32>,tensor<-1x3xf32>], tensor<1xi32>) -> tensor<-1x3xf32>
    (%7) = "pd_op.fetch" (%6) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
{reader}}}"#
    );
    let mut p = parse(&text);
    bind(
        &mut p,
        &[("w", f32s(&[2, 3], &[0.5, -1.0, 2.0, 0.25, -3.0, 1.5]))],
    );
    p
}

/// `combined_fold(reader)` after `constant_folding`, checked to compute the
/// same and to keep the scale for the combine; and the parameters created.
fn fold_combined(reader: &str) -> (Program, u64) {
    let mut p = combined_fold(reader);
    let before = interpret(&p, &x_feed());
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_close(&before, &interpret(&p, &x_feed()), 0.0);
    assert_eq!(count(&p, "pd_op.scale"), 1, "{p}");
    (p, stat(&stats, "parameters created"))
}

#[test]
fn a_combine_keeps_reading_a_folded_value_of_unknown_dims() {
    // The parameter made for %3 would be a `tensor<2x3xf32>`, which the
    // combine's declared element type `tensor<-1x3xf32>` cannot take.
    let (p, created) = fold_combined("");
    assert_eq!(created, 0, "{p}");
    // Another reader takes the parameter; the combine keeps the scale.
    let add = r#"    (%8) = "pd_op.add" (%1, %3) {stop_gradient:[false]} : (tensor<-1x3xf32>, tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%9) = "pd_op.fetch" (%8) {col:1,name:"sum",persistable:[true],stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
"#;
    let (p, created) = fold_combined(add);
    assert_eq!(created, 1, "{p}");
    assert!(
        p.to_string()
            .contains(r#"(tensor<-1x3xf32>, tensor<2x3xf32>) -> tensor<-1x3xf32>"#),
        "the add reads the parameter: {p}"
    );
}

#[test]
fn a_constant_of_unknown_dims_read_by_a_combine_is_not_hoisted() {
    let (p, stats) = hoist_unknown_dims_full(
        r#"    (%2) = "builtin.combine" (%0, %1) {} : (tensor<-1xf32>, tensor<-1xf32>) -> vec[tensor<-1xf32>,tensor<-1xf32>]
    (%3) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>
    (%4) = "pd_op.concat" (%2, %3) {stop_gradient:[false]} : (vec[tensor<-1xf32>,tensor<-1xf32>], tensor<1xi32>) -> tensor<-1xf32>
    (%5) = "pd_op.fetch" (%4) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1xf32>) -> tensor<-1xf32>
"#,
    );
    // %3 (the axis) is hoisted, %1 stays a `full`.
    assert_eq!(stat(&stats, "constants hoisted"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.full"), 1, "{p}");
}
