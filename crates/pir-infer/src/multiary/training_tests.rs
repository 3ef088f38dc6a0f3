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
/// The results Paddle printed for `distributed_fused_lamb_init`: four
/// nulls, four float32 and five int32 tensors, the three `lists` (which
/// vary with the operands), then a float32 and an int64 tensor.
fn lamb_init_results(lists: [&str; 3]) -> Vec<&str> {
    let mut results = vec!["null"; 4];
    results.extend(["tensor<0xf32>"; 4]);
    results.extend(["tensor<i32>"; 5]);
    results.extend(lists);
    results.extend(["tensor<0xf32>", "tensor<i64>"]);
    results
}

/// `DistributedFusedLambInitInferMeta` (Paddle's sampled cases, `tests/vectors/paddle-3.3.1.txt`): data types only; Paddle prints the unset dims of the typed results (`0x`) that this IR holds 0-d.
#[test]
fn distributed_fused_lamb_init() {
    // param[0]:float32[2,2,2,5]; param[1]:float32[2,2,2,5]; grad[0]:float32[2,2,2,5]; grad[1]:float32[2,2,2,5]; beta1=1.0; beta2=1.0; apply_weight_decay=[3, 3]; alignment=1; rank=2; nranks=1
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"param_0",place:Place(undefined:0),shape:[2,2,2,5],stop_gradient:[true]} : () -> tensor<2x2x2x5xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"param_1",place:Place(undefined:0),shape:[2,2,2,5],stop_gradient:[true]} : () -> tensor<2x2x2x5xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"grad_0",place:Place(undefined:0),shape:[2,2,2,5],stop_gradient:[true]} : () -> tensor<2x2x2x5xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"grad_1",place:Place(undefined:0),shape:[2,2,2,5],stop_gradient:[true]} : () -> tensor<2x2x2x5xf32>
(%4) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<2x2x2x5xf32>, tensor<2x2x2x5xf32>) -> vec[tensor<2x2x2x5xf32>,tensor<2x2x2x5xf32>]
(%5) = "builtin.combine" (%2, %3) {stop_gradient:[true]} : (tensor<2x2x2x5xf32>, tensor<2x2x2x5xf32>) -> vec[tensor<2x2x2x5xf32>,tensor<2x2x2x5xf32>]
(%6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23) = "pd_op.distributed_fused_lamb_init" (%4, %5) {alignment:1,apply_weight_decay:[3,3],beta1:1,beta2:1,nranks:1,rank:2,stop_gradient:[true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true]} : (vec[tensor<2x2x2x5xf32>,tensor<2x2x2x5xf32>], vec[tensor<2x2x2x5xf32>,tensor<2x2x2x5xf32>]) -> <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0xi32>, tensor<0xi32>, tensor<0xi32>, tensor<0xi32>, tensor<0xi32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<0xf32>,tensor<0xf32>], tensor<0xf32>, tensor<0xi64>"#,
        &lamb_init_results(["vec[tensor<f32>,tensor<f32>]", "vec[tensor<f32>,tensor<f32>]", "vec[tensor<f32>,tensor<f32>]"]),
    );
    // param[0]:float32[3,4]; param[1]:float32[3,4]; grad[0]:float32[3,4]; grad[1]:float32[3,4]; beta1=1.0; beta2=1.0; apply_weight_decay=[3, 2]; alignment=1; rank=1; nranks=1
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"param_0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"param_1",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"grad_0",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"grad_1",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%4) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<3x4xf32>) -> vec[tensor<3x4xf32>,tensor<3x4xf32>]
(%5) = "builtin.combine" (%2, %3) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<3x4xf32>) -> vec[tensor<3x4xf32>,tensor<3x4xf32>]
(%6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23) = "pd_op.distributed_fused_lamb_init" (%4, %5) {alignment:1,apply_weight_decay:[3,2],beta1:1,beta2:1,nranks:1,rank:1,stop_gradient:[true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true]} : (vec[tensor<3x4xf32>,tensor<3x4xf32>], vec[tensor<3x4xf32>,tensor<3x4xf32>]) -> <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0xi32>, tensor<0xi32>, tensor<0xi32>, tensor<0xi32>, tensor<0xi32>, vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<0xf32>,tensor<0xf32>], vec[tensor<0xf32>,tensor<0xf32>], tensor<0xf32>, tensor<0xi64>"#,
        &lamb_init_results(["vec[tensor<f32>,tensor<f32>]", "vec[tensor<f32>,tensor<f32>]", "vec[tensor<f32>,tensor<f32>]"]),
    );
    // param[0]:float16[5]; grad[0]:float16[5]; grad[1]:float16[]; grad[2]:float16[]; beta1=2.0; beta2=2.0; apply_weight_decay=[3, 3]; alignment=1; rank=2; nranks=1
    check(
        r#"(%0) = "pd_op.data" () {dtype:float16,name:"param_0",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf16>
(%1) = "pd_op.data" () {dtype:float16,name:"grad_0",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf16>
(%2) = "pd_op.data" () {dtype:float16,name:"grad_1",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f16>
(%3) = "pd_op.data" () {dtype:float16,name:"grad_2",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f16>
(%4) = "builtin.combine" (%0) {stop_gradient:[true]} : (tensor<5xf16>) -> vec[tensor<5xf16>]
(%5) = "builtin.combine" (%1, %2, %3) {stop_gradient:[true]} : (tensor<5xf16>, tensor<f16>, tensor<f16>) -> vec[tensor<5xf16>,tensor<f16>,tensor<f16>]
(%6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23) = "pd_op.distributed_fused_lamb_init" (%4, %5) {alignment:1,apply_weight_decay:[3,3],beta1:2,beta2:2,nranks:1,rank:2,stop_gradient:[true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true]} : (vec[tensor<5xf16>], vec[tensor<5xf16>,tensor<f16>,tensor<f16>]) -> <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>, tensor<0xi32>, tensor<0xi32>, tensor<0xi32>, tensor<0xi32>, tensor<0xi32>, vec[tensor<0xf16>], vec[tensor<0xf32>], vec[tensor<0xf16>,tensor<0xf16>,tensor<0xf16>], tensor<0xf32>, tensor<0xi64>"#,
        &lamb_init_results(["vec[tensor<f16>]", "vec[tensor<f32>]", "vec[tensor<f16>,tensor<f16>,tensor<f16>]"]),
    );
}

/// `SparseMomentumInferMeta` (from Paddle's source: Paddle 3.3.1 has no
/// Python builder for the op): the parameter's dims, no data type set.
#[test]
fn sparse_momentum() {
    use crate::testing::{program, refusal};
    let f32 = |d: &'static [i64]| Some(("float32", "f32", d));
    let ops = |lr: &'static [i64]| {
        program(
            "pd_op.sparse_momentum",
            &[
                f32(&[10, 4]),
                f32(&[3, 4]),
                f32(&[10, 4]),
                Some(("int32", "i32", &[3])),
                f32(lr),
                None,
                None,
            ],
            "mu:0.9,use_nesterov:false",
            3,
        )
    };
    assert_eq!(
        crate::testing::types(&ops(&[1])),
        ["tensor<10x4xf32>", "tensor<10x4xf32>", "tensor<10x4xf32>"]
    );
    let e = refusal(&ops(&[2]));
    assert!(e.contains("Learning_rate should be a scalar."), "{e}");
}
