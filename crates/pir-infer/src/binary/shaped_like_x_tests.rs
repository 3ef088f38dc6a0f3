//! The dequantizers' and `BoxClipInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;
use crate::testing::{program, refusal};

/// `BoxClipInferMeta`.
#[test]
fn box_clip() {
    check(
        r#"(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[1,3],stop_gradient:[true]} : () -> tensor<1x3xf32>
(%29) = "pd_op.box_clip" (%7, %8) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<1x3xf32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%9) = "pd_op.data" () {dtype:float64,name:"v10",place:Place(undefined:0),shape:[2,5,4],stop_gradient:[true]} : () -> tensor<2x5x4xf64>
(%10) = "pd_op.data" () {dtype:float64,name:"v11",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf64>
(%30) = "pd_op.box_clip" (%9, %10) {stop_gradient:[true]} : (tensor<2x5x4xf64>, tensor<2x3xf64>) -> tensor<2x5x4xf64>"#,
        &["tensor<2x5x4xf64>"],
    );
}

/// `DequantizeAbsMaxInferMeta`.
#[test]
fn dequantize_abs_max() {
    check(
        r#"(%11) = "pd_op.data" () {dtype:int8,name:"v12",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xi8>
(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%31) = "pd_op.dequantize_abs_max" (%11, %12) {max_range:127,stop_gradient:[true]} : (tensor<3x4xi8>, tensor<1xf32>) -> tensor<3x4xi8>"#,
        &["tensor<3x4xi8>"],
    );
    check(
        r#"(%13) = "pd_op.data" () {dtype:int8,name:"v14",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xi8>
(%14) = "pd_op.data" () {dtype:float32,name:"v15",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%32) = "pd_op.dequantize_abs_max" (%13, %14) {max_range:255,stop_gradient:[true]} : (tensor<-1x8xi8>, tensor<1xf32>) -> tensor<-1x8xi8>"#,
        &["tensor<-1x8xi8>"],
    );
}

/// `DequantizeLogInferMeta`.
#[test]
fn dequantize_log() {
    check(
        r#"(%15) = "pd_op.data" () {dtype:int8,name:"v16",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xi8>
(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[128],stop_gradient:[true]} : () -> tensor<128xf32>
(%33) = "pd_op.dequantize_log" (%15, %16) {stop_gradient:[true]} : (tensor<3x4xi8>, tensor<128xf32>) -> tensor<3x4xi8>"#,
        &["tensor<3x4xi8>"],
    );
}

/// `FakeDequantizeMaxAbsInferMeta`.
#[test]
fn fake_dequantize_max_abs() {
    check(
        r#"(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%34) = "pd_op.fake_dequantize_max_abs" (%17, %18) {max_range:127,stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<1xf32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%19) = "pd_op.data" () {dtype:float64,name:"v20",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf64>
(%20) = "pd_op.data" () {dtype:float64,name:"v21",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf64>
(%35) = "pd_op.fake_dequantize_max_abs" (%19, %20) {max_range:255,stop_gradient:[true]} : (tensor<2x3x4xf64>, tensor<1xf64>) -> tensor<2x3x4xf64>"#,
        &["tensor<2x3x4xf64>"],
    );
}

/// `PruneGateByCapacityInferMeta`: like the gate.
#[test]
fn prune_gate_by_capacity() {
    check(
        r#"(%21) = "pd_op.data" () {dtype:int64,name:"v22",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%22) = "pd_op.data" () {dtype:int64,name:"v23",place:Place(undefined:0),shape:[8],stop_gradient:[true]} : () -> tensor<8xi64>
(%74) = "pd_op.prune_gate_by_capacity" (%21, %22) {n_expert:4,n_worker:2,stop_gradient:[true]} : (tensor<-1xi64>, tensor<8xi64>) -> tensor<-1xi64>"#,
        &["tensor<-1xi64>"],
    );
}

/// Paddle refuses an expert count of another size than `n_expert * n_worker`.
#[test]
fn prune_gate_by_capacity_refusal() {
    let e = refusal(&program(
        "pd_op.prune_gate_by_capacity",
        &[Some(("int64", "i64", &[-1])), Some(("int64", "i64", &[7]))],
        "n_expert:4,n_worker:2",
        1,
    ));
    assert!(
        e.contains("The number of elements for expert_count is ( 7 ) incorrect."),
        "{e}"
    );
}

/// `ApplyPerChannelScaleInferMeta` and `YoloBoxHeadInferMeta`, from Paddle's
/// source: Paddle's CPU build has no kernel for them, so its builder
/// refuses their operands before inferring.
#[test]
fn gpu_only_ops_from_source() {
    let t = program(
        "pd_op.apply_per_channel_scale",
        &[
            Some(("float16", "f16", &[-1, 64])),
            Some(("float16", "f16", &[64])),
        ],
        "",
        1,
    );
    assert_eq!(crate::testing::types(&t), ["tensor<-1x64xf16>"]);
    let e = refusal(&program(
        "pd_op.apply_per_channel_scale",
        &[
            Some(("float32", "f32", &[8, 64])),
            Some(("float32", "f32", &[32])),
        ],
        "",
        1,
    ));
    assert!(
        e.contains("The second dim of Input(x) must be equal to the first dim of scales"),
        "{e}"
    );
    let t = program(
        "pd_op.yolo_box_head",
        &[Some(("float32", "f32", &[1, 255, 13, 13]))],
        "anchors:[10,13],class_num:80",
        1,
    );
    assert_eq!(crate::testing::types(&t), ["tensor<1x255x13x13xf32>"]);
}
/// `SoftmaxMaskFuseInferMeta` (from Paddle's prints): x's meta.
#[test]
fn softmax_mask_fuse() {
    // x:float32[3,5,6,2]; mask:bool[3,5,6,2]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,5,6,2],stop_gradient:[true]} : () -> tensor<3x5x6x2xf32>
(%1) = "pd_op.data" () {dtype:bool,name:"mask",place:Place(undefined:0),shape:[3,5,6,2],stop_gradient:[true]} : () -> tensor<3x5x6x2xb>
(%2) = "pd_op.fused_softmax_mask" (%0, %1) {stop_gradient:[true]} : (tensor<3x5x6x2xf32>, tensor<3x5x6x2xb>) -> tensor<3x5x6x2xf32>"#,
        &["tensor<3x5x6x2xf32>"],
    );
    // x:float32[4,6,3,-1]; mask:bool[4,6,3,-1]
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,6,3,-1],stop_gradient:[true]} : () -> tensor<4x6x3x-1xf32>
(%1) = "pd_op.data" () {dtype:bool,name:"mask",place:Place(undefined:0),shape:[4,6,3,-1],stop_gradient:[true]} : () -> tensor<4x6x3x-1xb>
(%2) = "pd_op.fused_softmax_mask" (%0, %1) {stop_gradient:[true]} : (tensor<4x6x3x-1xf32>, tensor<4x6x3x-1xb>) -> tensor<4x6x3x-1xf32>"#,
        &["tensor<4x6x3x-1xf32>"],
    );
}
