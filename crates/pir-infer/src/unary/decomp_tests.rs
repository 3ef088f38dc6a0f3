//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `DetInferMeta`.
#[test]
fn det() {
    check(
        r#"(%29) = "pd_op.data" () {dtype:float32,name:"v30",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf32>
(%79) = "pd_op.det" (%29) {stop_gradient:[true]} : (tensor<-1x3x3xf32>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
}

/// `LUUnpackInferMeta`.
#[test]
fn l_u_unpack() {
    check(
        r#"(%26) = "pd_op.data" () {dtype:float32,name:"v27",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%27) = "pd_op.data" () {dtype:int32,name:"v28",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi32>
(%79, %80, %81) = "pd_op.lu_unpack" (%26, %27) {stop_gradient:[true,true,true],unpack_ludata:true,unpack_pivots:true} : (tensor<-1x3x4xf32>, tensor<-1x3xi32>) -> tensor<-1x3x3xf32>, tensor<-1x3x3xf32>, tensor<-1x3x4xf32>"#,
        &[
            "tensor<-1x3x3xf32>",
            "tensor<-1x3x3xf32>",
            "tensor<-1x3x4xf32>",
        ],
    );
    check(
        r#"(%28) = "pd_op.data" () {dtype:float32,name:"v29",place:Place(undefined:0),shape:[-1,4,3],stop_gradient:[true]} : () -> tensor<-1x4x3xf32>
(%29) = "pd_op.data" () {dtype:int32,name:"v30",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi32>
(%82, %83, %84) = "pd_op.lu_unpack" (%28, %29) {stop_gradient:[true,true,true],unpack_ludata:true,unpack_pivots:false} : (tensor<-1x4x3xf32>, tensor<-1x3xi32>) -> tensor<0xf32>, tensor<-1x4x3xf32>, tensor<-1x3x3xf32>"#,
        &["tensor<0xf32>", "tensor<-1x4x3xf32>", "tensor<-1x3x3xf32>"],
    );
}

/// `MatrixRankInferMeta`.
#[test]
fn matrix_rank() {
    check(
        r#"(%5) = "pd_op.data" () {dtype:float32,name:"v6",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf32>
(%57) = "pd_op.matrix_rank" (%5) {hermitian:false,stop_gradient:[true],tol:1e-05,use_default_tol:true} : (tensor<-1x3x3xf32>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%13) = "pd_op.data" () {dtype:float64,name:"v14",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf64>
(%60) = "pd_op.matrix_rank" (%13) {hermitian:false,stop_gradient:[true],tol:1e-05,use_default_tol:true} : (tensor<-1x3x8xf64>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
}

/// `QrInferMeta`.
#[test]
fn qr() {
    check(
        r#"(%36) = "pd_op.data" () {dtype:float32,name:"v37",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%89, %90) = "pd_op.qr" (%36) {mode:"r",stop_gradient:[true,true]} : (tensor<-1x3x4xf32>) -> tensor<0xf32>, tensor<-1x3x4xf32>"#,
        &["tensor<0xf32>", "tensor<-1x3x4xf32>"],
    );
    check(
        r#"(%11) = "pd_op.data" () {dtype:float64,name:"v12",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf64>
(%55, %56) = "pd_op.qr" (%11) {mode:"complete",stop_gradient:[true,true]} : (tensor<-1x3x4xf64>) -> tensor<-1x3x3xf64>, tensor<-1x3x4xf64>"#,
        &["tensor<-1x3x3xf64>", "tensor<-1x3x4xf64>"],
    );
}

/// `SlogdetV2InferMeta`.
#[test]
fn slogdet_v2() {
    check(
        r#"(%21) = "pd_op.data" () {dtype:float32,name:"v22",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf32>
(%72, %73) = "pd_op.slogdet_v2" (%21) {stop_gradient:[true,true]} : (tensor<-1x3x3xf32>) -> tensor<-1xf32>, tensor<-1xf32>"#,
        &["tensor<-1xf32>", "tensor<-1xf32>"],
    );
    check(
        r#"(%7) = "pd_op.data" () {dtype:float64,name:"v8",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf64>
(%49, %50) = "pd_op.slogdet_v2" (%7) {stop_gradient:[true,true]} : (tensor<-1x3x3xf64>) -> tensor<-1xf64>, tensor<-1xf64>"#,
        &["tensor<-1xf64>", "tensor<-1xf64>"],
    );
    check(
        r#"(%8) = "pd_op.data" () {dtype:complex64,name:"v9",place:Place(undefined:0),shape:[3,3],stop_gradient:[true]} : () -> tensor<3x3xc64>
(%51, %52) = "pd_op.slogdet_v2" (%8) {stop_gradient:[true,true]} : (tensor<3x3xc64>) -> tensor<c64>, tensor<f32>"#,
        &["tensor<c64>", "tensor<f32>"],
    );
}

/// `SvdInferMeta`.
#[test]
fn svd() {
    check(
        r#"(%34) = "pd_op.data" () {dtype:float32,name:"v35",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%85, %86, %87) = "pd_op.svd" (%34) {full_matrices:false,stop_gradient:[true,true,true]} : (tensor<-1x3x4xf32>) -> tensor<-1x3x3xf32>, tensor<-1x3xf32>, tensor<-1x3x4xf32>"#,
        &[
            "tensor<-1x3x3xf32>",
            "tensor<-1x3xf32>",
            "tensor<-1x3x4xf32>",
        ],
    );
    check(
        r#"(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%57, %58, %59) = "pd_op.svd" (%12) {full_matrices:true,stop_gradient:[true,true,true]} : (tensor<-1x3x4xf32>) -> tensor<-1x3x3xf32>, tensor<-1x3xf32>, tensor<-1x4x4xf32>"#,
        &[
            "tensor<-1x3x3xf32>",
            "tensor<-1x3xf32>",
            "tensor<-1x4x4xf32>",
        ],
    );
}

/// `SvdvalsInferMeta`.
#[test]
fn svdvals() {
    check(
        r#"(%35) = "pd_op.data" () {dtype:float32,name:"v36",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%88) = "pd_op.svdvals" (%35) {stop_gradient:[true]} : (tensor<-1x3x4xf32>) -> tensor<-1x3xf32>"#,
        &["tensor<-1x3xf32>"],
    );
}

/// `TraceInferMeta`.
#[test]
fn trace() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%15) = "pd_op.trace" (%0) {axis1:0,axis2:1,offset:0,stop_gradient:[true]} : (tensor<-1x3x4xf32>) -> tensor<4xf32>"#,
        &["tensor<4xf32>"],
    );
    check(
        r#"(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%16) = "pd_op.trace" (%1) {axis1:-1,axis2:0,offset:1,stop_gradient:[true]} : (tensor<2x3x4xf32>) -> tensor<3xf32>"#,
        &["tensor<3xf32>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%17) = "pd_op.trace" (%2) {axis1:0,axis2:1,offset:-1,stop_gradient:[true]} : (tensor<3x4xf32>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
}

/// `UniqueConsecutiveInferMeta`.
#[test]
fn unique_consecutive() {
    check(
        r#"(%3) = "pd_op.data" () {dtype:float32,name:"v4",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%51, %52, %53) = "pd_op.unique_consecutive" (%3) {axis:[],dtype:int64,return_counts:true,return_inverse:true,stop_gradient:[true,true,true]} : (tensor<-1x3xf32>) -> tensor<-1xf32>, tensor<-3xf32>, tensor<-1xf32>"#,
        &["tensor<-1xf32>", "tensor<-3xf32>", "tensor<-1xf32>"],
    );
    check(
        r#"(%4) = "pd_op.data" () {dtype:float32,name:"v5",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%54, %55, %56) = "pd_op.unique_consecutive" (%4) {axis:[0],dtype:int32,return_counts:true,return_inverse:true,stop_gradient:[true,true,true]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>, tensor<-1xf32>, tensor<-1xf32>"#,
        &["tensor<-1x3xf32>", "tensor<-1xf32>", "tensor<-1xf32>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:int64,name:"v3",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi64>
(%43, %44, %45) = "pd_op.unique_consecutive" (%2) {axis:[],dtype:int64,return_counts:true,return_inverse:true,stop_gradient:[true,true,true]} : (tensor<-1x3xi64>) -> tensor<-1xi64>, tensor<-3xf32>, tensor<-1xf32>"#,
        &["tensor<-1xi64>", "tensor<-3xf32>", "tensor<-1xf32>"],
    );
}

/// `UniqueRawInferMeta`.
#[test]
fn unique_raw() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%39, %40, %41, %42) = "pd_op.unique" (%0) {axis:[],dtype:int64,is_sorted:true,return_counts:true,return_index:true,return_inverse:true,stop_gradient:[true,true,true,true]} : (tensor<-1x3xf32>) -> tensor<-1xf32>, tensor<-1xi64>, tensor<-3xf32>, tensor<-1xi64>"#,
        &[
            "tensor<-1xf32>",
            "tensor<-1xi64>",
            "tensor<-3xf32>",
            "tensor<-1xi64>",
        ],
    );
    check(
        r#"(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%43, %44, %45, %46) = "pd_op.unique" (%1) {axis:[1],dtype:int32,is_sorted:true,return_counts:false,return_index:false,return_inverse:true,stop_gradient:[true,true,true,true]} : (tensor<-1x3xf32>) -> tensor<-1x-1xf32>, <<NULL TYPE>>, tensor<3xi32>, <<NULL TYPE>>"#,
        &["tensor<-1x-1xf32>", "null", "tensor<3xi32>", "null"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%47, %48, %49, %50) = "pd_op.unique" (%2) {axis:[],dtype:int32,is_sorted:false,return_counts:false,return_index:false,return_inverse:true,stop_gradient:[true,true,true,true]} : (tensor<-1xf32>) -> tensor<-1xf32>, <<NULL TYPE>>, tensor<-1xf32>, <<NULL TYPE>>"#,
        &["tensor<-1xf32>", "null", "tensor<-1xf32>", "null"],
    );
}

/// `DetInferMeta` accepts a 1-D x and sets only the data type (Paddle's
/// live print shows the unset dims as `0x…`, held here 0-d).
#[test]
fn det_of_a_vector() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float64,name:"x",place:Place(undefined:0),shape:[6],stop_gradient:[true]} : () -> tensor<6xf64>
(%1) = "pd_op.det" (%0) {stop_gradient:[true]} : (tensor<6xf64>) -> tensor<0xf64>"#,
        &["tensor<f64>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%1) = "pd_op.det" (%0) {stop_gradient:[true]} : (tensor<-1xf32>) -> tensor<0xf32>"#,
        &["tensor<0xf32>"],
    );
}
