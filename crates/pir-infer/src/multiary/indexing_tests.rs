//! `IndexPutInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::{check, infer_last};

/// `IndexPutInferMeta`: like x.
#[test]
fn index_put() {
    check(
        r#"(%77) = "pd_op.data" () {dtype:float32,name:"v78",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%78) = "pd_op.data" () {dtype:int64,name:"v79",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%79) = "pd_op.data" () {dtype:float32,name:"v80",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf32>
(%149) = "builtin.combine" (%78) {stop_gradient:[true]} : (tensor<2xi64>) -> vec[tensor<2xi64>]
(%150) = "pd_op.index_put" (%77, %149, %79) {accumulate:false,stop_gradient:[true]} : (tensor<3x4xf32>, vec[tensor<2xi64>], tensor<2x4xf32>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
    check(
        r#"(%80) = "pd_op.data" () {dtype:float32,name:"v81",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%81) = "pd_op.data" () {dtype:bool,name:"v82",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xb>
(%82) = "pd_op.data" () {dtype:float32,name:"v83",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%151) = "builtin.combine" (%81) {stop_gradient:[true]} : (tensor<3x4xb>) -> vec[tensor<3x4xb>]
(%152) = "pd_op.index_put" (%80, %151, %82) {accumulate:true,stop_gradient:[true]} : (tensor<3x4xf32>, vec[tensor<3x4xb>], tensor<1xf32>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
}

/// `IndexPutInferMeta` of the in-place op.
#[test]
fn index_put_inplace() {
    check(
        r#"(%83) = "pd_op.data" () {dtype:int64,name:"v84",place:Place(undefined:0),shape:[2,2,2,2,2,-1],stop_gradient:[true]} : () -> tensor<2x2x2x2x2x-1xi64>
(%84) = "pd_op.data" () {dtype:int64,name:"v85",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%85) = "pd_op.data" () {dtype:int64,name:"v86",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%86) = "pd_op.data" () {dtype:int64,name:"v87",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%153) = "builtin.combine" (%84, %85) {stop_gradient:[true]} : (tensor<2xi64>, tensor<2xi64>) -> vec[tensor<2xi64>,tensor<2xi64>]
(%154) = "pd_op.index_put_" (%83, %153, %86) {accumulate:true,stop_gradient:[true]} : (tensor<2x2x2x2x2x-1xi64>, vec[tensor<2xi64>,tensor<2xi64>], tensor<1xi64>) -> tensor<2x2x2x2x2x-1xi64>"#,
        &["tensor<2x2x2x2x2x-1xi64>"],
    );
}

/// Paddle refuses an x of rank 7 or more.
#[test]
fn index_put_refuses_rank_7() {
    let t = "{
(%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[2,2,2,2,2,2,2],stop_gradient:[true]} : () -> tensor<2x2x2x2x2x2x2xf32>
(%1) = \"pd_op.data\" () {dtype:int64,name:\"i\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%2) = \"builtin.combine\" (%1) {} : (tensor<2xi64>) -> vec[tensor<2xi64>]
(%3) = \"pd_op.data\" () {dtype:float32,name:\"v\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%4) = \"pd_op.index_put\" (%0, %2, %3) {accumulate:false} : (tensor<2x2x2x2x2x2x2xf32>, vec[tensor<2xi64>], tensor<1xf32>) -> tensor<f32>
}
";
    let e = infer_last(t).unwrap_err();
    assert!(
        e.contains("The rank of input should be less than 7, but received 7."),
        "{e}"
    );
}
