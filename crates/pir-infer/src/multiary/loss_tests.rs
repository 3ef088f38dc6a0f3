//! `SigmoidCrossEntropyWithLogitsInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::{check, infer_last};
use crate::testing::{program, refusal};

/// `SigmoidCrossEntropyWithLogitsInferMeta`: like x; shapes checked only when all extents are known.
#[test]
fn sigmoid_cross_entropy_with_logits() {
    check(
        r#"(%87) = "pd_op.data" () {dtype:float32,name:"v88",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%88) = "pd_op.data" () {dtype:float32,name:"v89",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%155) = "pd_op.sigmoid_cross_entropy_with_logits" (%87, %88, <<NULL VALUE>>) {ignore_index:-100,normalize:false,stop_gradient:[true]} : (tensor<3x4xf32>, tensor<3x4xf32>, <<NULL TYPE>>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
    check(
        r#"(%89) = "pd_op.data" () {dtype:float32,name:"v90",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%90) = "pd_op.data" () {dtype:float32,name:"v91",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%91) = "pd_op.data" () {dtype:float32,name:"v92",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%156) = "pd_op.sigmoid_cross_entropy_with_logits" (%89, %90, %91) {ignore_index:-100,normalize:true,stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%92) = "pd_op.data" () {dtype:float32,name:"v93",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%93) = "pd_op.data" () {dtype:float32,name:"v94",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%157) = "pd_op.sigmoid_cross_entropy_with_logits" (%92, %93, <<NULL VALUE>>) {ignore_index:-100,normalize:true,stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x5xf32>, <<NULL TYPE>>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%94) = "pd_op.data" () {dtype:float64,name:"v95",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf64>
(%95) = "pd_op.data" () {dtype:float64,name:"v96",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf64>
(%96) = "pd_op.data" () {dtype:float64,name:"v97",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf64>
(%158) = "pd_op.sigmoid_cross_entropy_with_logits" (%94, %95, %96) {ignore_index:0,normalize:false,stop_gradient:[true]} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>"#,
        &["tensor<3x4xf64>"],
    );
    check(
        r#"(%99) = "pd_op.data" () {dtype:float32,name:"v100",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf32>
(%100) = "pd_op.data" () {dtype:float32,name:"v101",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf32>
(%161) = "pd_op.sigmoid_cross_entropy_with_logits" (%99, %100, <<NULL VALUE>>) {ignore_index:-100,normalize:false,stop_gradient:[true]} : (tensor<-1x10xf32>, tensor<-1x10xf32>, <<NULL TYPE>>) -> tensor<-1x10xf32>"#,
        &["tensor<-1x10xf32>"],
    );
}

/// `SigmoidCrossEntropyWithLogitsInferMeta` of the in-place op.
#[test]
fn sigmoid_cross_entropy_with_logits_inplace() {
    check(
        r#"(%97) = "pd_op.data" () {dtype:float32,name:"v98",place:Place(undefined:0),shape:[2,5],stop_gradient:[true]} : () -> tensor<2x5xf32>
(%98) = "pd_op.data" () {dtype:float32,name:"v99",place:Place(undefined:0),shape:[2,5],stop_gradient:[true]} : () -> tensor<2x5xf32>
(%159) = "pd_op.sigmoid_cross_entropy_with_logits_" (%97, %98, <<NULL VALUE>>) {ignore_index:-100,normalize:false,stop_gradient:[true]} : (tensor<2x5xf32>, tensor<2x5xf32>, <<NULL TYPE>>) -> tensor<2x5xf32>"#,
        &["tensor<2x5xf32>"],
    );
}

fn sce(x: &[i64], label: &[i64]) -> String {
    let ty = |s: &[i64]| {
        let d: String = s.iter().map(|v| format!("{v}x")).collect();
        format!("tensor<{d}f32>")
    };
    format!(
        "{{\n(%0) = \"pd_op.data\" () {{dtype:float32,name:\"x\",place:Place(undefined:0),shape:{x:?},stop_gradient:[true]}} : () -> {tx}\n\
         (%1) = \"pd_op.data\" () {{dtype:float32,name:\"l\",place:Place(undefined:0),shape:{label:?},stop_gradient:[true]}} : () -> {tl}\n\
         (%2) = \"pd_op.sigmoid_cross_entropy_with_logits\" (%0, %1, <<NULL VALUE>>) {{ignore_index:-100,normalize:false}} : ({tx}, {tl}, <<NULL TYPE>>) -> {tx}\n}}\n",
        tx = ty(x),
        tl = ty(label)
    )
}

/// Paddle's refusals: ranks differ; shapes differ with every extent known.
#[test]
fn sigmoid_cross_entropy_with_logits_refusals() {
    let e = infer_last(&sce(&[3, 4], &[3])).unwrap_err();
    assert!(e.contains("Input(X) and Input(Label) shall have the same rank.But received: the rank of Input(X) is [2], the rank of Input(Label) is [1]."), "{e}");
    let e = infer_last(&sce(&[3, 4], &[3, 5])).unwrap_err();
    assert!(
        e.contains("shall have the same shape except the last dimension"),
        "{e}"
    );
}

/// `HSigmoidLossInferMeta`: `[N, 1]`; `pre_out` and `w_out` left alone.
#[test]
fn hsigmoid_loss() {
    check(
        r#"(%71) = "pd_op.data" () {dtype:float32,name:"v87",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>
(%72) = "pd_op.data" () {dtype:int64,name:"v88",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%73) = "pd_op.data" () {dtype:float32,name:"v89",place:Place(undefined:0),shape:[5,8],stop_gradient:[true]} : () -> tensor<5x8xf32>
(%74) = "pd_op.data" () {dtype:float32,name:"v90",place:Place(undefined:0),shape:[5,1],stop_gradient:[true]} : () -> tensor<5x1xf32>
(%166, %167, %168) = "pd_op.hsigmoid_loss" (%71, %72, %73, %74, <<NULL VALUE>>, <<NULL VALUE>>) {is_sparse:false,num_classes:6,stop_gradient:[true,true,true]} : (tensor<-1x8xf32>, tensor<-1x1xi64>, tensor<5x8xf32>, tensor<5x1xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x1xf32>, tensor<0xf32>, tensor<0xf32>"#,
        &["tensor<-1x1xf32>", "tensor<0xf32>", "tensor<0xf32>"],
    );
    check(
        r#"(%75) = "pd_op.data" () {dtype:float64,name:"v91",place:Place(undefined:0),shape:[4,8],stop_gradient:[true]} : () -> tensor<4x8xf64>
(%76) = "pd_op.data" () {dtype:int64,name:"v92",place:Place(undefined:0),shape:[4,1],stop_gradient:[true]} : () -> tensor<4x1xi64>
(%77) = "pd_op.data" () {dtype:float64,name:"v93",place:Place(undefined:0),shape:[5,8],stop_gradient:[true]} : () -> tensor<5x8xf64>
(%78) = "pd_op.data" () {dtype:int64,name:"v94",place:Place(undefined:0),shape:[4,3],stop_gradient:[true]} : () -> tensor<4x3xi64>
(%79) = "pd_op.data" () {dtype:int64,name:"v95",place:Place(undefined:0),shape:[4,3],stop_gradient:[true]} : () -> tensor<4x3xi64>
(%169, %170, %171) = "pd_op.hsigmoid_loss" (%75, %76, %77, <<NULL VALUE>>, %78, %79) {is_sparse:false,num_classes:6,stop_gradient:[true,true,true]} : (tensor<4x8xf64>, tensor<4x1xi64>, tensor<5x8xf64>, <<NULL TYPE>>, tensor<4x3xi64>, tensor<4x3xi64>) -> tensor<4x1xf64>, tensor<0xf32>, tensor<0xf32>"#,
        &["tensor<4x1xf64>", "tensor<0xf32>", "tensor<0xf32>"],
    );
    check(
        r#"(%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"create_parameter_1.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4x6xf32>
(%80) = "pd_op.data" () {dtype:float32,name:"v96",place:Place(undefined:0),shape:[3,6],stop_gradient:[true]} : () -> tensor<3x6xf32>
(%81) = "pd_op.data" () {dtype:int64,name:"v97",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xi64>
(%172, %173, %174) = "pd_op.hsigmoid_loss" (%80, %81, %0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {is_sparse:false,num_classes:5,stop_gradient:[false,false,false]} : (tensor<3x6xf32>, tensor<3xi64>, tensor<4x6xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<3x1xf32>, tensor<0xf32>, tensor<0xf32>"#,
        &["tensor<3x1xf32>", "tensor<0xf32>", "tensor<0xf32>"],
    );
}

/// Paddle refuses a label with another first extent than x's.
#[test]
fn hsigmoid_loss_refusal() {
    let e = refusal(&program(
        "pd_op.hsigmoid_loss",
        &[
            Some(("float32", "f32", &[3, 8])),
            Some(("int64", "i64", &[4, 1])),
            Some(("float32", "f32", &[5, 8])),
            None,
            None,
            None,
        ],
        "is_sparse:false,num_classes:6",
        3,
    ));
    assert!(e.contains("The first dimension of input and label is expected to be the same. But received input's first dimension is 3; label's first dimension is 4."), "{e}");
}

/// `WarpctcInferMeta`: LoD and padded logits.
#[test]
fn warpctc() {
    check(
        r#"(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%19) = "pd_op.data" () {dtype:int32,name:"v20",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi32>
(%86, %87) = "pd_op.warpctc" (%18, %19, <<NULL VALUE>>, <<NULL VALUE>>) {blank:0,norm_by_times:false,stop_gradient:[true,true]} : (tensor<-1x5xf32>, tensor<-1x1xi32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x1xf32>, tensor<-1x-1x5xf32>"#,
        &["tensor<-1x1xf32>", "tensor<-1x-1x5xf32>"],
    );
    check(
        r#"(%20) = "pd_op.data" () {dtype:float64,name:"v21",place:Place(undefined:0),shape:[20,4,6],stop_gradient:[true]} : () -> tensor<20x4x6xf64>
(%21) = "pd_op.data" () {dtype:int32,name:"v22",place:Place(undefined:0),shape:[4,7],stop_gradient:[true]} : () -> tensor<4x7xi32>
(%22) = "pd_op.data" () {dtype:int64,name:"v23",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi64>
(%23) = "pd_op.data" () {dtype:int64,name:"v24",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi64>
(%88, %89) = "pd_op.warpctc" (%20, %21, %22, %23) {blank:5,norm_by_times:true,stop_gradient:[true,true]} : (tensor<20x4x6xf64>, tensor<4x7xi32>, tensor<4xi64>, tensor<4xi64>) -> tensor<4x1xf64>, tensor<20x4x6xf64>"#,
        &["tensor<4x1xf64>", "tensor<20x4x6xf64>"],
    );
}

/// `WarprnntInferMeta`.
#[test]
fn warprnnt() {
    check(
        r#"(%24) = "pd_op.data" () {dtype:float32,name:"v25",place:Place(undefined:0),shape:[2,10,5,8],stop_gradient:[true]} : () -> tensor<2x10x5x8xf32>
(%25) = "pd_op.data" () {dtype:int32,name:"v26",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xi32>
(%26) = "pd_op.data" () {dtype:int32,name:"v27",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%27) = "pd_op.data" () {dtype:int32,name:"v28",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%90, %91) = "pd_op.warprnnt" (%24, %25, %26, %27) {blank:0,fastemit_lambda:0,stop_gradient:[true,true]} : (tensor<2x10x5x8xf32>, tensor<2x4xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xf32>, tensor<2x10x5x8xf32>"#,
        &["tensor<2xf32>", "tensor<2x10x5x8xf32>"],
    );
}

/// Paddle refuses a `blank` outside the classes (its message prints `blank`
/// as the bound).
#[test]
fn warpctc_refuses_blank_out_of_range() {
    let e = refusal(&program(
        "pd_op.warpctc",
        &[
            Some(("float32", "f32", &[-1, 5])),
            Some(("int32", "i32", &[-1, 1])),
            None,
            None,
        ],
        "blank:5,norm_by_times:false",
        2,
    ));
    assert!(
        e.contains("The value of Attr(blank) should be in interval [0, 5), but received "),
        "{e}"
    );
    let e = refusal(&program(
        "pd_op.warprnnt",
        &[
            Some(("float32", "f32", &[2, 10, 5, 8])),
            Some(("int32", "i32", &[2, 4])),
            Some(("int32", "i32", &[2])),
            Some(("int32", "i32", &[2])),
        ],
        "blank:8,fastemit_lambda:0",
        2,
    ));
    assert!(
        e.contains("should be in interval [0, 8), but received "),
        "{e}"
    );
}
