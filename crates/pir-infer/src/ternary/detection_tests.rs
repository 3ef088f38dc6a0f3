//! `CollectFpnProposalsInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;

/// `CollectFpnProposalsInferMeta`: `[post_nms_topn, 4]` and `[-1]` int32.
#[test]
fn collect_fpn_proposals() {
    check(
        r#"(%24) = "pd_op.data" () {dtype:float32,name:"v40",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%25) = "pd_op.data" () {dtype:float32,name:"v41",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%26) = "pd_op.data" () {dtype:float32,name:"v42",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf32>
(%27) = "pd_op.data" () {dtype:float32,name:"v43",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf32>
(%28) = "pd_op.data" () {dtype:int32,name:"v44",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%29) = "pd_op.data" () {dtype:int32,name:"v45",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%117) = "builtin.combine" (%28, %29) {stop_gradient:[true]} : (tensor<2xi32>, tensor<2xi32>) -> vec[tensor<2xi32>,tensor<2xi32>]
(%118) = "builtin.combine" (%24, %25) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> vec[tensor<-1x4xf32>,tensor<-1x4xf32>]
(%119) = "builtin.combine" (%26, %27) {stop_gradient:[true]} : (tensor<-1x1xf32>, tensor<-1x1xf32>) -> vec[tensor<-1x1xf32>,tensor<-1x1xf32>]
(%120, %121) = "pd_op.collect_fpn_proposals" (%118, %119, %117) {post_nms_topn:100,stop_gradient:[true,true]} : (vec[tensor<-1x4xf32>,tensor<-1x4xf32>], vec[tensor<-1x1xf32>,tensor<-1x1xf32>], vec[tensor<2xi32>,tensor<2xi32>]) -> tensor<100x4xf32>, tensor<-1xi32>"#,
        &["tensor<100x4xf32>", "tensor<-1xi32>"],
    );
    check(
        r#"(%30) = "pd_op.data" () {dtype:float64,name:"v46",place:Place(undefined:0),shape:[5,4],stop_gradient:[true]} : () -> tensor<5x4xf64>
(%31) = "pd_op.data" () {dtype:float64,name:"v47",place:Place(undefined:0),shape:[5,1],stop_gradient:[true]} : () -> tensor<5x1xf64>
(%122) = "builtin.combine" (%30) {stop_gradient:[true]} : (tensor<5x4xf64>) -> vec[tensor<5x4xf64>]
(%123) = "builtin.combine" (%31) {stop_gradient:[true]} : (tensor<5x1xf64>) -> vec[tensor<5x1xf64>]
(%124, %125) = "pd_op.collect_fpn_proposals" (%122, %123, <<NULL VALUE>>) {post_nms_topn:7,stop_gradient:[true,true]} : (vec[tensor<5x4xf64>], vec[tensor<5x1xf64>], <<NULL TYPE>>) -> tensor<7x4xf64>, tensor<-1xi32>"#,
        &["tensor<7x4xf64>", "tensor<-1xi32>"],
    );
}
