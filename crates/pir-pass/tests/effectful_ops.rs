//! Passes against ops with effects their definitions do not declare. Random
//! draws: two identical draws are two draws, and a draw is not a constant.
//! Communication and file writes: they run although nobody reads their
//! results. Paddle 3.3.1's definitions give
//! `bernoulli`, `multinomial`, `gumbel_softmax` and others no side effect,
//! and Paddle's own CSE merges them: `paddle.jit.load` runs a saved program
//! with twin `bernoulli(p)` draws to equal values, while Paddle's static
//! executor, which runs no CSE, draws each. Ours must not merge them.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use common::{count, parse, run};

/// Written by Paddle 3.3.1 (`paddle.bernoulli`, `paddle.multinomial`,
/// `F.gumbel_softmax`, each twice on the same input, and the differences
/// of the twins fetched).
const TWIN_DRAWS: &str = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,1000],stop_gradient:[true]} : () -> tensor<4x1000xf32>
    (%1) = "pd_op.sigmoid" (%0) {stop_gradient:[true]} : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%2) = "pd_op.bernoulli" (%1) {stop_gradient:[true]} : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%3) = "pd_op.bernoulli" (%1) {stop_gradient:[true]} : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%4) = "pd_op.softmax" (%0) {axis:-1,stop_gradient:[true]} : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%5) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xi32>
    (%6) = "pd_op.multinomial" (%4, %5) {replacement:true,stop_gradient:[true]} : (tensor<4x1000xf32>, tensor<1xi32>) -> tensor<4x5xi64>
    (%7) = "pd_op.softmax" (%0) {axis:-1,stop_gradient:[true]} : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%8) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xi32>
    (%9) = "pd_op.multinomial" (%7, %8) {replacement:true,stop_gradient:[true]} : (tensor<4x1000xf32>, tensor<1xi32>) -> tensor<4x5xi64>
    (%10) = "pd_op.gumbel_softmax" (%0) {axis:-1,hard:false,stop_gradient:[true],temperature:1} : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%11) = "pd_op.gumbel_softmax" (%0) {axis:-1,hard:false,stop_gradient:[true],temperature:1} : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%12) = "pd_op.subtract" (%2, %3) {stop_gradient:[true]} : (tensor<4x1000xf32>, tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%13) = "pd_op.subtract" (%6, %9) {stop_gradient:[true]} : (tensor<4x5xi64>, tensor<4x5xi64>) -> tensor<4x5xi64>
    (%14) = "pd_op.subtract" (%10, %11) {stop_gradient:[true]} : (tensor<4x1000xf32>, tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%15) = "pd_op.fetch" (%12) {col:0,name:"d0",persistable:[true],stop_gradient:[true]} : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
    (%16) = "pd_op.fetch" (%13) {col:1,name:"d1",persistable:[true],stop_gradient:[true]} : (tensor<4x5xi64>) -> tensor<4x5xi64>
    (%17) = "pd_op.fetch" (%14) {col:2,name:"d2",persistable:[true],stop_gradient:[true]} : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
}"#;

/// CSE merges the deterministic twins (softmax, full) and nothing else.
#[test]
fn cse_keeps_twin_random_draws_apart() {
    let mut p = parse(TWIN_DRAWS);
    run(&mut p, "cse");
    assert_eq!(count(&p, "pd_op.bernoulli"), 2);
    assert_eq!(count(&p, "pd_op.multinomial"), 2);
    assert_eq!(count(&p, "pd_op.gumbel_softmax"), 2);
    assert_eq!(
        count(&p, "pd_op.softmax"),
        1,
        "deterministic twins still merge"
    );
    assert_eq!(count(&p, "pd_op.full"), 1);
}

/// The whole inference pipeline (folding, fusions, CSE, DCE, in-place) keeps
/// every draw.
#[test]
fn the_inference_pipeline_keeps_every_draw() {
    let mut p = parse(TWIN_DRAWS);
    run(&mut p, "inference");
    assert_eq!(count(&p, "pd_op.bernoulli"), 2);
    assert_eq!(count(&p, "pd_op.multinomial"), 2);
    assert_eq!(count(&p, "pd_op.gumbel_softmax"), 2);
}

/// A draw from a constant probability is still a draw: constant folding
/// leaves it, and DCE keeps an unused one as it keeps an unused `uniform`.
#[test]
fn a_draw_from_constants_is_not_folded() {
    let text = r#"{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[8],stop_gradient:[true],value:0.5} : () -> tensor<8xf32>
    (%1) = "pd_op.bernoulli" (%0) {stop_gradient:[true]} : (tensor<8xf32>) -> tensor<8xf32>
    (%2) = "pd_op.bernoulli" (%0) {stop_gradient:[true]} : (tensor<8xf32>) -> tensor<8xf32>
    (%3) = "pd_op.fetch" (%1) {col:0,name:"out",persistable:[true],stop_gradient:[true]} : (tensor<8xf32>) -> tensor<8xf32>
}"#;
    let mut p = parse(text);
    run(&mut p, "constant_folding,dce");
    assert_eq!(count(&p, "pd_op.bernoulli"), 2);
}

/// `rrelu` draws its slope only in training: with `is_test` the twins are
/// one value and merge; without it they stay apart.
#[test]
fn rrelu_twins_merge_only_in_test_mode() {
    let twins = |is_test: bool| {
        format!(
            r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]}} : () -> tensor<2x3xf32>
    (%1, %2) = "pd_op.rrelu" (%0) {{is_test:{is_test},lower:0.125,stop_gradient:[true],upper:0.333333}} : (tensor<2x3xf32>) -> tensor<2x3xf32>, tensor<2x3xf32>
    (%3, %4) = "pd_op.rrelu" (%0) {{is_test:{is_test},lower:0.125,stop_gradient:[true],upper:0.333333}} : (tensor<2x3xf32>) -> tensor<2x3xf32>, tensor<2x3xf32>
    (%5) = "pd_op.subtract" (%1, %3) {{stop_gradient:[true]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%6) = "pd_op.fetch" (%5) {{col:0,name:"out",persistable:[true],stop_gradient:[true]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}}"#
        )
    };
    let mut training = parse(&twins(false));
    run(&mut training, "cse");
    assert_eq!(count(&training, "pd_op.rrelu"), 2);
    let mut inference = parse(&twins(true));
    run(&mut inference, "cse");
    assert_eq!(count(&inference, "pd_op.rrelu"), 1);
}

/// A `barrier` or a `save_combine` whose result nobody reads still runs:
/// DCE keeps both (Paddle's definitions give them no side effect).
#[test]
fn dce_keeps_communication_and_file_writes() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.barrier" (%0) {ring_id:0,stop_gradient:[true]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "builtin.combine" (%0) {} : (tensor<2x3xf32>) -> vec[tensor<2x3xf32>]
    (%3) = "pd_op.save_combine" (%2) {file_path:"/tmp/w.pdiparams",overwrite:true,save_as_fp16:false,save_to_memory:false,stop_gradient:[true]} : (vec[tensor<2x3xf32>]) -> tensor<2x3xf32>
}"#;
    let mut p = parse(text);
    run(&mut p, "dce");
    assert_eq!(count(&p, "pd_op.barrier"), 1);
    assert_eq!(count(&p, "pd_op.save_combine"), 1);
}
