//! `group_norm`, `instance_norm` and
//! `c_softmax_with_multi_label_cross_entropy` checked against Paddle 3.3.1:
//! programs Paddle built (its printed IR) and the result types it printed.

use crate::testing::check;

/// `GroupNormInferMeta`: with an unknown channel dim nothing is checked (even `groups` -1) and the channel dim comes from `scale.dims[0]`, else `bias.dims[0]`, when positive.
#[test]
fn group_norm_with_an_unknown_channel_dim() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,-1],stop_gradient:[true]} : () -> tensor<2x-1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%3, %4, %5) = "pd_op.group_norm" (%0, %1, %2) {data_format:"NCHW",epsilon:1e-05,groups:-1,stop_gradient:[true,true,true]} : (tensor<2x-1xf32>, tensor<-1xf32>, tensor<-1xf32>) -> tensor<2x-1xf32>, tensor<2x-1xf32>, tensor<2x-1xf32>"#,
        &["tensor<2x-1xf32>", "tensor<2x-1xf32>", "tensor<2x-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,-1,-1],stop_gradient:[true]} : () -> tensor<3x-1x-1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[3,-1,-1],stop_gradient:[true]} : () -> tensor<3x-1x-1xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[3,-1,-1],stop_gradient:[true]} : () -> tensor<3x-1x-1xf32>
(%3, %4, %5) = "pd_op.group_norm" (%0, %1, %2) {data_format:"NCHW",epsilon:0.5,groups:1,stop_gradient:[true,true,true]} : (tensor<3x-1x-1xf32>, tensor<3x-1x-1xf32>, tensor<3x-1x-1xf32>) -> tensor<3x3x-1xf32>, tensor<3x1xf32>, tensor<3x1xf32>"#,
        &["tensor<3x3x-1xf32>", "tensor<3x1xf32>", "tensor<3x1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,-1,4],stop_gradient:[true]} : () -> tensor<2x-1x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[6],stop_gradient:[true]} : () -> tensor<6xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[8],stop_gradient:[true]} : () -> tensor<8xf32>
(%3, %4, %5) = "pd_op.group_norm" (%0, %1, %2) {data_format:"NCHW",epsilon:1e-05,groups:2,stop_gradient:[true,true,true]} : (tensor<2x-1x4xf32>, tensor<6xf32>, tensor<8xf32>) -> tensor<2x6x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>"#,
        &["tensor<2x6x4xf32>", "tensor<2x2xf32>", "tensor<2x2xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,-1,4],stop_gradient:[true]} : () -> tensor<2x-1x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[8],stop_gradient:[true]} : () -> tensor<8xf32>
(%3, %4, %5) = "pd_op.group_norm" (%0, %1, %2) {data_format:"NCHW",epsilon:1e-05,groups:2,stop_gradient:[true,true,true]} : (tensor<2x-1x4xf32>, tensor<-1xf32>, tensor<8xf32>) -> tensor<2x-1x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>"#,
        &["tensor<2x-1x4xf32>", "tensor<2x2xf32>", "tensor<2x2xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,-1,4],stop_gradient:[true]} : () -> tensor<2x-1x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[8,3],stop_gradient:[true]} : () -> tensor<8x3xf32>
(%2, %3, %4) = "pd_op.group_norm" (%0, <<NULL VALUE>>, %1) {data_format:"NCHW",epsilon:1e-05,groups:0,stop_gradient:[true,true,true]} : (tensor<2x-1x4xf32>, <<NULL TYPE>>, tensor<8x3xf32>) -> tensor<2x8x4xf32>, tensor<2x0xf32>, tensor<2x0xf32>"#,
        &["tensor<2x8x4xf32>", "tensor<2x0xf32>", "tensor<2x0xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,2,-1],stop_gradient:[true]} : () -> tensor<2x3x2x-1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%2, %3, %4) = "pd_op.group_norm" (%0, %1, <<NULL VALUE>>) {data_format:"NHWC",epsilon:2,groups:-1,stop_gradient:[true,true,true]} : (tensor<2x3x2x-1xf32>, tensor<-1xf32>, <<NULL TYPE>>) -> tensor<2x3x2x-1xf32>, tensor<2x-1xf32>, tensor<2x-1xf32>"#,
        &[
            "tensor<2x3x2x-1xf32>",
            "tensor<2x-1xf32>",
            "tensor<2x-1xf32>",
        ],
    );
}

/// `InstanceNormInferMeta`: `scale` is compared with C only when its dim is unknown, `bias` only when known.
#[test]
fn instance_norm_checks_scale_only_when_unknown() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,4,4],stop_gradient:[true]} : () -> tensor<2x3x4x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%2, %3, %4) = "pd_op.instance_norm" (%0, %1, <<NULL VALUE>>) {epsilon:1e-05,stop_gradient:[true,true,true]} : (tensor<2x3x4x4xf32>, tensor<4xf32>, <<NULL TYPE>>) -> tensor<2x3x4x4xf32>, tensor<6xf32>, tensor<6xf32>"#,
        &["tensor<2x3x4x4xf32>", "tensor<6xf32>", "tensor<6xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,4,4],stop_gradient:[true]} : () -> tensor<2x3x4x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%2, %3, %4) = "pd_op.instance_norm" (%0, <<NULL VALUE>>, %1) {epsilon:1e-05,stop_gradient:[true,true,true]} : (tensor<2x3x4x4xf32>, <<NULL TYPE>>, tensor<-1xf32>) -> tensor<2x3x4x4xf32>, tensor<6xf32>, tensor<6xf32>"#,
        &["tensor<2x3x4x4xf32>", "tensor<6xf32>", "tensor<6xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,-1,4,4],stop_gradient:[true]} : () -> tensor<2x-1x4x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%2, %3, %4) = "pd_op.instance_norm" (%0, %1, <<NULL VALUE>>) {epsilon:1e-05,stop_gradient:[true,true,true]} : (tensor<2x-1x4x4xf32>, tensor<-1xf32>, <<NULL TYPE>>) -> tensor<2x-1x4x4xf32>, tensor<-2xf32>, tensor<-2xf32>"#,
        &["tensor<2x-1x4x4xf32>", "tensor<-2xf32>", "tensor<-2xf32>"],
    );
}

/// `CSoftmaxWithMultiLabelCrossEntropyInferMeta` accepts an unknown last label dim (Paddle compares it with `1UL`).
#[test]
fn c_softmax_with_multi_label_cross_entropy_unknown_label_dim() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float64,name:"l",place:Place(undefined:0),shape:[6,-1,-1],stop_gradient:[true]} : () -> tensor<6x-1x-1xf64>
(%1) = "pd_op.data" () {dtype:int64,name:"b",place:Place(undefined:0),shape:[6,-1,-1],stop_gradient:[true]} : () -> tensor<6x-1x-1xi64>
(%2) = "pd_op.data" () {dtype:float64,name:"w",place:Place(undefined:0),shape:[6,-1,-1],stop_gradient:[true]} : () -> tensor<6x-1x-1xf64>
(%3, %4) = "pd_op.c_softmax_with_multi_label_cross_entropy" (%0, %1, %2) {ignore_index:-100,nranks:0,rank:-1,ring_id:0,stop_gradient:[true,true],sum_multi_label_loss:true} : (tensor<6x-1x-1xf64>, tensor<6x-1x-1xi64>, tensor<6x-1x-1xf64>) -> tensor<6x-1x-1xf32>, tensor<6x-1x1xf32>"#,
        &["tensor<6x-1x-1xf32>", "tensor<6x-1x1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"l",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"b",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%2) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%3, %4) = "pd_op.c_softmax_with_multi_label_cross_entropy" (%0, %1, %2) {ignore_index:1,nranks:0,rank:0,ring_id:-1,stop_gradient:[true,true],sum_multi_label_loss:true} : (tensor<-1xf32>, tensor<-1xi32>, tensor<-1xf32>) -> tensor<-1xf32>, tensor<1xf32>"#,
        &["tensor<-1xf32>", "tensor<1xf32>"],
    );
}
