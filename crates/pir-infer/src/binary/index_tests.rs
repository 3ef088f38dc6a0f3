//! The element-wise indexing ops' cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;

/// `IndexElementwiseGetInferMeta`: the `input_dims` attribute.
#[test]
fn index_elementwise_get() {
    check(
        r#"(%60) = "pd_op.data" () {dtype:float32,name:"v61",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%61) = "pd_op.data" () {dtype:int64,name:"v62",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%135) = "builtin.combine" (%61) {stop_gradient:[true]} : (tensor<2xi64>) -> vec[tensor<2xi64>]
(%136) = "pd_op.index_elementwise_get" (%60, %135) {accumulate:false,index_dims:[2],index_stride:[8],input_dims:[5,6],input_strides:[16,4],is_combined:false,slice_offset:0,stop_gradient:[true]} : (tensor<3x4xf32>, vec[tensor<2xi64>]) -> tensor<5x6xf32>"#,
        &["tensor<5x6xf32>"],
    );
    check(
        r#"(%62) = "pd_op.data" () {dtype:float64,name:"v63",place:Place(undefined:0),shape:[3,4,5],stop_gradient:[true]} : () -> tensor<3x4x5xf64>
(%63) = "pd_op.data" () {dtype:int64,name:"v64",place:Place(undefined:0),shape:[2,7],stop_gradient:[true]} : () -> tensor<2x7xi64>
(%137) = "builtin.combine" (%63) {stop_gradient:[true]} : (tensor<2x7xi64>) -> vec[tensor<2x7xi64>]
(%138) = "pd_op.index_elementwise_get" (%62, %137) {accumulate:false,index_dims:[2,7],index_stride:[8,8],input_dims:[3,4,5],input_strides:[80,20,4],is_combined:true,slice_offset:0,stop_gradient:[true]} : (tensor<3x4x5xf64>, vec[tensor<2x7xi64>]) -> tensor<3x4x5xf64>"#,
        &["tensor<3x4x5xf64>"],
    );
    check(
        r#"(%64) = "pd_op.data" () {dtype:float32,name:"v65",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%65) = "pd_op.data" () {dtype:int64,name:"v66",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%66) = "pd_op.data" () {dtype:int64,name:"v67",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%139) = "builtin.combine" (%65, %66) {stop_gradient:[true]} : (tensor<2xi64>, tensor<2xi64>) -> vec[tensor<2xi64>,tensor<2xi64>]
(%140) = "pd_op.index_elementwise_get" (%64, %139) {accumulate:true,index_dims:[],index_stride:[],input_dims:[],input_strides:[],is_combined:false,slice_offset:0,stop_gradient:[true]} : (tensor<-1x4xf32>, vec[tensor<2xi64>,tensor<2xi64>]) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
}

/// `IndexElementwisePutInferMeta`: like x.
#[test]
fn index_elementwise_put() {
    check(
        r#"(%67) = "pd_op.data" () {dtype:float32,name:"v68",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%68) = "pd_op.data" () {dtype:int64,name:"v69",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%141) = "builtin.combine" (%68) {stop_gradient:[true]} : (tensor<2xi64>) -> vec[tensor<2xi64>]
(%142) = "pd_op.index_elementwise_put" (%67, %141) {index_dims:[2],index_strides:[8],input_dims:[5,6],input_strides:[16,4],slice_offset:0,stop_gradient:[true],value:1} : (tensor<3x4xf32>, vec[tensor<2xi64>]) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
}

/// `IndexElementwisePutInferMeta` of the in-place op.
#[test]
fn index_elementwise_put_inplace() {
    check(
        r#"(%69) = "pd_op.data" () {dtype:int32,name:"v70",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xi32>
(%70) = "pd_op.data" () {dtype:int64,name:"v71",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%143) = "builtin.combine" (%70) {stop_gradient:[true]} : (tensor<2xi64>) -> vec[tensor<2xi64>]
(%144) = "pd_op.index_elementwise_put_" (%69, %143) {index_dims:[2],index_strides:[8],input_dims:[5,6],input_strides:[16,4],slice_offset:0,stop_gradient:[true],value:1} : (tensor<-1x4xi32>, vec[tensor<2xi64>]) -> tensor<-1x4xi32>"#,
        &["tensor<-1x4xi32>"],
    );
}

/// `IndexElementwisePutWithTensorInferMeta`: like x.
#[test]
fn index_elementwise_put_with_tensor() {
    check(
        r#"(%71) = "pd_op.data" () {dtype:float64,name:"v72",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf64>
(%72) = "pd_op.data" () {dtype:int64,name:"v73",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%73) = "pd_op.data" () {dtype:float64,name:"v74",place:Place(undefined:0),shape:[2,4],stop_gradient:[true]} : () -> tensor<2x4xf64>
(%145) = "builtin.combine" (%72) {stop_gradient:[true]} : (tensor<2xi64>) -> vec[tensor<2xi64>]
(%146) = "pd_op.index_elementwise_put_with_tensor" (%71, %145, %73) {index_dims:[2],index_strides:[8],input_dims:[5,6],input_strides:[16,4],slice_offset:0,stop_gradient:[true]} : (tensor<-1x4xf64>, vec[tensor<2xi64>], tensor<2x4xf64>) -> tensor<-1x4xf64>"#,
        &["tensor<-1x4xf64>"],
    );
}

/// `IndexElementwisePutWithTensorInferMeta` of the in-place op.
#[test]
fn index_elementwise_put_with_tensor_inplace() {
    check(
        r#"(%74) = "pd_op.data" () {dtype:float32,name:"v75",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%75) = "pd_op.data" () {dtype:int64,name:"v76",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%76) = "pd_op.data" () {dtype:float32,name:"v77",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%147) = "builtin.combine" (%75) {stop_gradient:[true]} : (tensor<2xi64>) -> vec[tensor<2xi64>]
(%148) = "pd_op.index_elementwise_put_with_tensor_" (%74, %147, %76) {index_dims:[],index_strides:[],input_dims:[],input_strides:[],slice_offset:0,stop_gradient:[true]} : (tensor<3x4xf32>, vec[tensor<2xi64>], tensor<1xf32>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
}
