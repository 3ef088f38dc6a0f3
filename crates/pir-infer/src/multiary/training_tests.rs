//! `UpdateLossScalingInferMeta` and `CoalesceTensorInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;

/// `UpdateLossScalingInferMeta`.
#[test]
fn update_loss_scaling() {
    check(
        r#"(%4) = "pd_op.data" () {dtype:float32,name:"v5",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%5) = "pd_op.data" () {dtype:float32,name:"v6",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%6) = "pd_op.data" () {dtype:bool,name:"v7",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xb>
(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%8) = "pd_op.data" () {dtype:int32,name:"v9",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%9) = "pd_op.data" () {dtype:int32,name:"v10",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%63) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xb>
(%64) = "builtin.combine" (%4, %5) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<-1xf32>) -> vec[tensor<3x4xf32>,tensor<-1xf32>]
(%65, %66, %67, %68) = "pd_op.update_loss_scaling_" (%64, %6, %7, %8, %9, %63) {decr_every_n_nan_or_inf:2,decr_ratio:0.5,incr_every_n_steps:1000,incr_ratio:2,stop_gradient:[true,true,true,true]} : (vec[tensor<3x4xf32>,tensor<-1xf32>], tensor<1xb>, tensor<1xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xb>) -> vec[tensor<3x4xf32>,tensor<-1xf32>], tensor<1xf32>, tensor<1xi32>, tensor<1xi32>"#,
        &[
            "vec[tensor<3x4xf32>,tensor<-1xf32>]",
            "tensor<1xf32>",
            "tensor<1xi32>",
            "tensor<1xi32>",
        ],
    );
}

/// `CoalesceTensorInferMeta`: the fused output only when aligning.
#[test]
fn coalesce_tensor() {
    check(
        r#"(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%71) = "builtin.combine" (%10, %11) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<5xf32>) -> vec[tensor<3x4xf32>,tensor<5xf32>]
(%72, %73) = "pd_op.coalesce_tensor" (%71) {align_size:-1,concated_ranks:[],concated_shapes:[],constant:0,copy_data:true,dtype:float32,persist_output:false,set_constant:false,size_of_dtype:-1,stop_gradient:[true,true],use_align:false} : (vec[tensor<3x4xf32>,tensor<5xf32>]) -> vec[tensor<3x4xf32>,tensor<5xf32>], tensor<0xf32>"#,
        &["vec[tensor<3x4xf32>,tensor<5xf32>]", "tensor<0xf32>"],
    );
    check(
        r#"(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%13) = "pd_op.data" () {dtype:float32,name:"v14",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%76) = "builtin.combine" (%12, %13) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<5xf32>) -> vec[tensor<3x4xf32>,tensor<5xf32>]
(%77, %78) = "pd_op.coalesce_tensor" (%76) {align_size:256,concated_ranks:[],concated_shapes:[],constant:0,copy_data:true,dtype:float32,persist_output:false,set_constant:false,size_of_dtype:-1,stop_gradient:[true,true],use_align:true} : (vec[tensor<3x4xf32>,tensor<5xf32>]) -> vec[tensor<3x4xf32>,tensor<5xf32>], tensor<128xf32>"#,
        &["vec[tensor<3x4xf32>,tensor<5xf32>]", "tensor<128xf32>"],
    );
}

/// `CoalesceTensorInferMeta` of the in-place op.
#[test]
fn coalesce_tensor_inplace() {
    check(
        r#"(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%81) = "builtin.combine" (%16, %17) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<5xf32>) -> vec[tensor<3x4xf32>,tensor<5xf32>]
(%82, %83) = "pd_op.coalesce_tensor_" (%81) {align_size:256,concated_ranks:[],concated_shapes:[],constant:0,copy_data:true,dtype:float32,persist_output:false,set_constant:false,size_of_dtype:4,stop_gradient:[true,true],use_align:true} : (vec[tensor<3x4xf32>,tensor<5xf32>]) -> vec[tensor<3x4xf32>,tensor<5xf32>], tensor<128xf32>"#,
        &["vec[tensor<3x4xf32>,tensor<5xf32>]", "tensor<128xf32>"],
    );
}
