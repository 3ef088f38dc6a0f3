//! Passes over programs that read shapes at run time (`shape64(x)[0]`, the
//! batch size): `batch_size_like`, `constant_folding` of dims the symbolic
//! shapes know, and `cse` of shape reads. Each case is checked by structure
//! and by meaning: the program is interpreted before and after, and the
//! fetched values must agree.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use common::{assert_close, count, interpret, parse, run_pipeline, stat};
use pir_core::Program;
use pir_eval::EvalTensor;
use pir_params::DType;

/// `shape64(x)[0]` stacked with constants, read by `reader` (`%9` is the
/// stacked list, `%1` the data input, `%2` `scale(x)`).
fn batch_shape_program(elements: &str, reader: &str, extra: &str) -> Program {
    let text = format!(
        r#"{{
    (%1) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,6],stop_gradient:[false]}} : () -> tensor<-1x6xf32>
    (%0) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2}} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%1, %0) {{bias:0.5,bias_after_scale:true,stop_gradient:[false]}} : (tensor<-1x6xf32>, tensor<1xf32>) -> tensor<-1x6xf32>
    (%3) = "pd_op.shape64" (%1) {{stop_gradient:[true]}} : (tensor<-1x6xf32>) -> tensor<2xi64>
    (%4) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]}} : () -> tensor<1xi64>
    (%5) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]}} : () -> tensor<1xi64>
    (%6) = "pd_op.slice" (%3, %4, %5) {{axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]}} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%7) = "pd_op.full" () {{dtype:int64,place:Place(cpu),shape:[],stop_gradient:[true],value:2}} : () -> tensor<i64>
    (%8) = "pd_op.full" () {{dtype:int64,place:Place(cpu),shape:[],stop_gradient:[true],value:3}} : () -> tensor<i64>
{extra}    (%20) = "pd_op.full" () {{dtype:int64,place:Place(cpu),shape:[],stop_gradient:[true],value:0}} : () -> tensor<i64>
    (%21) = "builtin.combine" ({elements}) {{stop_gradient:[true]}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> vec[tensor<i64>,tensor<i64>,tensor<i64>]
    (%9) = "pd_op.stack" (%21) {{axis:0,stop_gradient:[true]}} : (vec[tensor<i64>,tensor<i64>,tensor<i64>]) -> tensor<3xi64>
{reader}}}"#
    );
    parse(&text)
}

const RESHAPE_READER: &str = r#"    (%10) = "pd_op.reshape" (%2, %9) {stop_gradient:[false]} : (tensor<-1x6xf32>, tensor<3xi64>) -> tensor<-1x2x3xf32>
    (%11) = "pd_op.fetch" (%10) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x2x3xf32>) -> tensor<-1x2x3xf32>
"#;

const FULL_READER: &str = r#"    (%12) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.25} : () -> tensor<1xf32>
    (%10) = "pd_op.full_with_tensor" (%12, %9) {dtype:float32,stop_gradient:[true]} : (tensor<1xf32>, tensor<3xi64>) -> tensor<2x-1x3xf32>
    (%11) = "pd_op.fetch" (%10) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x-1x3xf32>) -> tensor<2x-1x3xf32>
"#;

fn batch_feed() -> Vec<(&'static str, EvalTensor)> {
    let values: Vec<f64> = (0..18).map(|i| f64::from(i) * 0.5 - 3.0).collect();
    vec![(
        "x",
        EvalTensor::from_f64s(DType::Float32, &[3, 6], &values).unwrap(),
    )]
}

#[test]
fn a_reshape_to_the_batch_size_read_at_run_time_copies_it_instead() {
    let mut p = batch_shape_program("%6, %7, %8", RESHAPE_READER, "");
    let before = interpret(&p, &batch_feed());
    let stats = run_pipeline(&mut p, "batch_size_like,dce");
    assert_eq!(stat(&stats, "shapes rewritten"), 1, "{p}");
    let printed = p.to_string();
    assert!(printed.contains("value:[0,2,3]"), "{printed}");
    for gone in ["pd_op.shape64", "pd_op.slice", "pd_op.stack"] {
        assert_eq!(count(&p, gone), 0, "{gone} left: {printed}");
    }
    assert_close(&before, &interpret(&p, &batch_feed()), 0.0);
}

#[test]
fn a_full_of_the_batch_size_read_at_run_time_becomes_full_batch_size_like() {
    let mut p = batch_shape_program("%7, %6, %8", FULL_READER, "");
    let before = interpret(&p, &batch_feed());
    let stats = run_pipeline(&mut p, "batch_size_like,dce");
    assert_eq!(stat(&stats, "shapes rewritten"), 1, "{p}");
    let printed = p.to_string();
    assert!(
        printed.contains(
            r#""pd_op.full_batch_size_like" (%0) {dtype:float32,input_dim_idx:0,output_dim_idx:1,place:Place(undefined:0),shape:[2,-1,3],stop_gradient:[true],value:0.25}"#
        ),
        "{printed}"
    );
    assert_eq!(count(&p, "pd_op.shape64"), 0, "{printed}");
    assert_close(&before, &interpret(&p, &batch_feed()), 0.0);
}

#[test]
fn shapes_that_do_not_just_repeat_the_batch_size_stay() {
    let second_input = r#"    (%13) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,6],stop_gradient:[false]} : () -> tensor<-1x6xf32>
"#;
    let cases = [
        // Not at the leading place: reshape's 0 copies the dim at its own place.
        ("%7, %6, %8", RESHAPE_READER, String::new()),
        // A constant 0 would copy a dim too.
        ("%6, %20, %8", RESHAPE_READER, String::new()),
        // The batch size of another input.
        (
            "%6, %7, %8",
            RESHAPE_READER,
            format!(
                "{second_input}{}",
                r#"    (%14) = "pd_op.shape64" (%13) {stop_gradient:[true]} : (tensor<-1x6xf32>) -> tensor<2xi64>
    (%15) = "pd_op.slice" (%14, %4, %5) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
"#
            ),
        ),
        // The input's buffer is written in place (its dims may change).
        (
            "%6, %7, %8",
            RESHAPE_READER,
            r#"    (%16) = "pd_op.relu_" (%1) {stop_gradient:[false]} : (tensor<-1x6xf32>) -> tensor<-1x6xf32>
"#
            .to_string(),
        ),
        // A program with LoD ops: full_batch_size_like would count sequences.
        (
            "%7, %6, %8",
            FULL_READER,
            r#"    (%17) = "pd_op.lod_array_length" (%1) {stop_gradient:[true]} : (tensor<-1x6xf32>) -> tensor<1xi64>
"#
            .to_string(),
        ),
    ];
    for (i, (elements, reader, extra)) in cases.iter().enumerate() {
        let elements = if i == 2 { "%15, %7, %8" } else { elements };
        let mut p = batch_shape_program(elements, reader, extra);
        let stats = run_pipeline(&mut p, "batch_size_like");
        assert_eq!(stat(&stats, "shapes rewritten"), 0, "case {i}: {p}");
    }
}

/// `shape64(x)[1]` of an `x: [-1, 6]` is 6 by the symbolic shapes although
/// the shape is not constant: it folds, and the reshape reads a constant.
#[test]
fn a_static_dim_read_from_a_dynamic_shape_folds() {
    let mut p = batch_shape_program(
        "%6, %7, %8",
        RESHAPE_READER,
        r#"    (%30) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2]} : () -> tensor<1xi64>
    (%31) = "pd_op.slice" (%3, %5, %30) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%32) = "pd_op.multiply" (%31, %7) {stop_gradient:[true]} : (tensor<i64>, tensor<i64>) -> tensor<i64>
    (%33) = "pd_op.fetch" (%32) {col:1,name:"twelve",persistable:[true],stop_gradient:[true]} : (tensor<i64>) -> tensor<i64>
"#,
    );
    let before = interpret(&p, &batch_feed());
    let stats = run_pipeline(&mut p, "constant_folding");
    assert_eq!(stat(&stats, "shapes folded symbolically"), 1, "{p}");
    assert_close(&before, &interpret(&p, &batch_feed()), 0.0);
    // The batch size stays read at run time.
    assert_eq!(count(&p, "pd_op.shape64"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.multiply"), 0, "{p}");
}

/// `shape64(x)` and `shape64(scale(x))` read one shape: the second and the
/// arithmetic after it merge into the first.
#[test]
fn shapes_of_equal_shaped_values_merge() {
    let mut p = batch_shape_program(
        "%6, %7, %8",
        RESHAPE_READER,
        r#"    (%30) = "pd_op.shape64" (%2) {stop_gradient:[true]} : (tensor<-1x6xf32>) -> tensor<2xi64>
    (%31) = "pd_op.slice" (%30, %4, %5) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%32) = "pd_op.add" (%6, %31) {stop_gradient:[true]} : (tensor<i64>, tensor<i64>) -> tensor<i64>
    (%33) = "pd_op.fetch" (%32) {col:1,name:"twice",persistable:[true],stop_gradient:[true]} : (tensor<i64>) -> tensor<i64>
"#,
    );
    let before = interpret(&p, &batch_feed());
    let stats = run_pipeline(&mut p, "cse,dce");
    assert_eq!(stat(&stats, "ops merged"), 2, "{p}");
    assert_eq!(count(&p, "pd_op.shape64"), 1, "{p}");
    assert_close(&before, &interpret(&p, &batch_feed()), 0.0);
}

/// `x: [S0, 6]` and `m = matmul(x, w): [S0, 4]` share dim 0 but not their
/// shapes: `shape64(m)[0]` merges into the same read of `shape64(x)`, and
/// `shape64(m)` goes with it.
#[test]
fn reads_of_an_equal_dim_from_different_shapes_merge() {
    let mut p = batch_shape_program(
        "%6, %7, %8",
        RESHAPE_READER,
        r#"    (%30) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[6,4],stop_gradient:[true],value:0.5} : () -> tensor<6x4xf32>
    (%31) = "pd_op.matmul" (%1, %30) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x6xf32>, tensor<6x4xf32>) -> tensor<-1x4xf32>
    (%32) = "pd_op.shape64" (%31) {stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<2xi64>
    (%33) = "pd_op.slice" (%32, %4, %5) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%34) = "pd_op.add" (%6, %33) {stop_gradient:[true]} : (tensor<i64>, tensor<i64>) -> tensor<i64>
    (%35) = "pd_op.fetch" (%34) {col:1,name:"twice",persistable:[true],stop_gradient:[true]} : (tensor<i64>) -> tensor<i64>
"#,
    );
    let before = interpret(&p, &batch_feed());
    let stats = run_pipeline(&mut p, "cse,dce");
    assert_eq!(stat(&stats, "ops merged"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.shape64"), 1, "{p}");
    assert_eq!(count(&p, "pd_op.slice"), 1, "{p}");
    assert_close(&before, &interpret(&p, &batch_feed()), 0.0);
}

/// Reads of dims the symbolic shapes do not prove equal stay apart: the
/// batch sizes of two inputs (`S0`, `S1`), and dim 1 of `[S0, 6]` and of
/// `[S0, 4]`.
#[test]
fn reads_of_dims_not_known_equal_stay() {
    let mut p = batch_shape_program(
        "%6, %7, %8",
        RESHAPE_READER,
        r#"    (%30) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,6],stop_gradient:[false]} : () -> tensor<-1x6xf32>
    (%31) = "pd_op.shape64" (%30) {stop_gradient:[true]} : (tensor<-1x6xf32>) -> tensor<2xi64>
    (%32) = "pd_op.slice" (%31, %4, %5) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%33) = "pd_op.add" (%6, %32) {stop_gradient:[true]} : (tensor<i64>, tensor<i64>) -> tensor<i64>
    (%34) = "pd_op.fetch" (%33) {col:1,name:"two_batches",persistable:[true],stop_gradient:[true]} : (tensor<i64>) -> tensor<i64>
    (%35) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[6,4],stop_gradient:[true],value:0.5} : () -> tensor<6x4xf32>
    (%36) = "pd_op.matmul" (%1, %35) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x6xf32>, tensor<6x4xf32>) -> tensor<-1x4xf32>
    (%37) = "pd_op.shape64" (%36) {stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<2xi64>
    (%38) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2]} : () -> tensor<1xi64>
    (%39) = "pd_op.slice" (%3, %5, %38) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%40) = "pd_op.slice" (%37, %5, %38) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%41) = "pd_op.subtract" (%39, %40) {stop_gradient:[true]} : (tensor<i64>, tensor<i64>) -> tensor<i64>
    (%42) = "pd_op.fetch" (%41) {col:2,name:"two",persistable:[true],stop_gradient:[true]} : (tensor<i64>) -> tensor<i64>
"#,
    );
    let mut feeds = batch_feed();
    let y: Vec<f64> = (0..12).map(f64::from).collect();
    feeds.push((
        "y",
        EvalTensor::from_f64s(DType::Float32, &[2, 6], &y).unwrap(),
    ));
    let before = interpret(&p, &feeds);
    let stats = run_pipeline(&mut p, "cse,dce");
    assert_eq!(stat(&stats, "ops merged"), 0, "{p}");
    assert_eq!(count(&p, "pd_op.shape64"), 3, "{p}");
    assert_eq!(count(&p, "pd_op.slice"), 4, "{p}");
    assert_close(&before, &interpret(&p, &feeds), 0.0);
}
