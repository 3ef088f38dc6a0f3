//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `DiagEmbedInferMeta`.
#[test]
fn diag_embed() {
    check(
        r#"(%46) = "pd_op.data" () {dtype:float32,name:"v47",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%106) = "pd_op.diag_embed" (%46) {dim1:-2,dim2:-1,offset:0,stop_gradient:[true]} : (tensor<2x3xf32>) -> tensor<2x3x3xf32>"#,
        &["tensor<2x3x3xf32>"],
    );
    check(
        r#"(%47) = "pd_op.data" () {dtype:float32,name:"v48",place:Place(undefined:0),shape:[2,-1],stop_gradient:[true]} : () -> tensor<2x-1xf32>
(%107) = "pd_op.diag_embed" (%47) {dim1:0,dim2:2,offset:1,stop_gradient:[true]} : (tensor<2x-1xf32>) -> tensor<-1x2x-1xf32>"#,
        &["tensor<-1x2x-1xf32>"],
    );
    check(
        r#"(%48) = "pd_op.data" () {dtype:float32,name:"v49",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%108) = "pd_op.diag_embed" (%48) {dim1:2,dim2:0,offset:-2,stop_gradient:[true]} : (tensor<2x3xf32>) -> tensor<5x2x5xf32>"#,
        &["tensor<5x2x5xf32>"],
    );
}

/// `DiagInferMeta`.
#[test]
fn diag() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%6) = "pd_op.diag" (%0) {offset:1,padding_value:0,stop_gradient:[true]} : (tensor<-1x5xf32>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%7) = "pd_op.diag" (%1) {offset:-1,padding_value:0,stop_gradient:[true]} : (tensor<-1x5xf32>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[5,-1],stop_gradient:[true]} : () -> tensor<5x-1xf32>
(%8) = "pd_op.diag" (%2) {offset:1,padding_value:0,stop_gradient:[true]} : (tensor<5x-1xf32>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
}

/// `DiagonalInferMeta`.
#[test]
fn diagonal() {
    check(
        r#"(%42) = "pd_op.data" () {dtype:float32,name:"v43",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%102) = "pd_op.diagonal" (%42) {axis1:0,axis2:1,offset:0,stop_gradient:[true]} : (tensor<2x3x4xf32>) -> tensor<4x2xf32>"#,
        &["tensor<4x2xf32>"],
    );
    check(
        r#"(%43) = "pd_op.data" () {dtype:float32,name:"v44",place:Place(undefined:0),shape:[2,-1,4],stop_gradient:[true]} : () -> tensor<2x-1x4xf32>
(%103) = "pd_op.diagonal" (%43) {axis1:-1,axis2:1,offset:1,stop_gradient:[true]} : (tensor<2x-1x4xf32>) -> tensor<2x-1xf32>"#,
        &["tensor<2x-1xf32>"],
    );
    check(
        r#"(%44) = "pd_op.data" () {dtype:float32,name:"v45",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%104) = "pd_op.diagonal" (%44) {axis1:2,axis2:1,offset:-2,stop_gradient:[true]} : (tensor<2x3x4xf32>) -> tensor<2x2xf32>"#,
        &["tensor<2x2xf32>"],
    );
}

/// `EigInferMeta`.
#[test]
fn eig() {
    check(
        r#"(%49) = "pd_op.data" () {dtype:float32,name:"v50",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf32>
(%109, %110) = "pd_op.eig" (%49) {stop_gradient:[true,true]} : (tensor<-1x3x3xf32>) -> tensor<-1x3xc64>, tensor<-1x3x3xc64>"#,
        &["tensor<-1x3xc64>", "tensor<-1x3x3xc64>"],
    );
    check(
        r#"(%50) = "pd_op.data" () {dtype:complex128,name:"v51",place:Place(undefined:0),shape:[3,3],stop_gradient:[true]} : () -> tensor<3x3xc128>
(%111, %112) = "pd_op.eig" (%50) {stop_gradient:[true,true]} : (tensor<3x3xc128>) -> tensor<3xc128>, tensor<3x3xc128>"#,
        &["tensor<3xc128>", "tensor<3x3xc128>"],
    );
}

/// `EighInferMeta`.
#[test]
fn eigh() {
    check(
        r#"(%51) = "pd_op.data" () {dtype:float64,name:"v52",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf64>
(%113, %114) = "pd_op.eigh" (%51) {UPLO:"L",stop_gradient:[true,true]} : (tensor<-1x3x3xf64>) -> tensor<-1x3xf64>, tensor<-1x3x3xf64>"#,
        &["tensor<-1x3xf64>", "tensor<-1x3x3xf64>"],
    );
    check(
        r#"(%52) = "pd_op.data" () {dtype:complex64,name:"v53",place:Place(undefined:0),shape:[3,3],stop_gradient:[true]} : () -> tensor<3x3xc64>
(%115, %116) = "pd_op.eigh" (%52) {UPLO:"U",stop_gradient:[true,true]} : (tensor<3x3xc64>) -> tensor<3xf32>, tensor<3x3xc64>"#,
        &["tensor<3xf32>", "tensor<3x3xc64>"],
    );
}

/// `EigvalsInferMeta`.
#[test]
fn eigvals() {
    check(
        r#"(%54) = "pd_op.data" () {dtype:float32,name:"v55",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf32>
(%119) = "pd_op.eigvals" (%54) {stop_gradient:[true]} : (tensor<-1x3x3xf32>) -> tensor<-1x3xc64>"#,
        &["tensor<-1x3xc64>"],
    );
    check(
        r#"(%55) = "pd_op.data" () {dtype:float32,name:"v56",place:Place(undefined:0),shape:[2,-1,3],stop_gradient:[true]} : () -> tensor<2x-1x3xf32>
(%120) = "pd_op.eigvals" (%55) {stop_gradient:[true]} : (tensor<2x-1x3xf32>) -> tensor<2x-1xc64>"#,
        &["tensor<2x-1xc64>"],
    );
}

/// `EigvalshInferMeta`.
#[test]
fn eigvalsh() {
    check(
        r#"(%53) = "pd_op.data" () {dtype:float32,name:"v54",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf32>
(%117, %118) = "pd_op.eigvalsh" (%53) {is_test:false,stop_gradient:[true,true],uplo:"L"} : (tensor<-1x3x3xf32>) -> tensor<-1x3xf32>, tensor<-1x3x3xf32>"#,
        &["tensor<-1x3xf32>", "tensor<-1x3x3xf32>"],
    );
}

/// `InverseInferMeta`.
#[test]
fn inverse() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf32>
(%44) = "pd_op.inverse" (%0) {stop_gradient:[true]} : (tensor<-1x3x3xf32>) -> tensor<-1x3x3xf32>"#,
        &["tensor<-1x3x3xf32>"],
    );
    check(
        r#"(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[2,-1,3],stop_gradient:[true]} : () -> tensor<2x-1x3xf32>
(%45) = "pd_op.inverse" (%1) {stop_gradient:[true]} : (tensor<2x-1x3xf32>) -> tensor<2x-1x3xf32>"#,
        &["tensor<2x-1x3xf32>"],
    );
}

/// `LUInferMeta`.
#[test]
fn l_u() {
    check(
        r#"(%4) = "pd_op.data" () {dtype:float32,name:"v5",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%47, %48, %49) = "pd_op.lu" (%4) {pivot:true,stop_gradient:[true,true,true]} : (tensor<-1x3x4xf32>) -> tensor<-1x3x4xf32>, tensor<-1x3xi32>, tensor<-1xi32>"#,
        &["tensor<-1x3x4xf32>", "tensor<-1x3xi32>", "tensor<-1xi32>"],
    );
    check(
        r#"(%5) = "pd_op.data" () {dtype:float32,name:"v6",place:Place(undefined:0),shape:[3,5],stop_gradient:[true]} : () -> tensor<3x5xf32>
(%50, %51, %52) = "pd_op.lu" (%5) {pivot:true,stop_gradient:[true,true,true]} : (tensor<3x5xf32>) -> tensor<3x5xf32>, tensor<3xi32>, tensor<i32>"#,
        &["tensor<3x5xf32>", "tensor<3xi32>", "tensor<i32>"],
    );
    check(
        r#"(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[3,5],stop_gradient:[true]} : () -> tensor<3x5xf32>
(%53, %54, %55) = "pd_op.lu" (%6) {pivot:false,stop_gradient:[true,true,true]} : (tensor<3x5xf32>) -> tensor<3x5xf32>, tensor<0xf32>, tensor<i32>"#,
        &["tensor<3x5xf32>", "tensor<0xf32>", "tensor<i32>"],
    );
}

/// `MatrixPowerInferMeta`.
#[test]
fn matrix_power() {
    check(
        r#"(%2) = "pd_op.data" () {dtype:float64,name:"v3",place:Place(undefined:0),shape:[2,3,3],stop_gradient:[true]} : () -> tensor<2x3x3xf64>
(%46) = "pd_op.matrix_power" (%2) {n:3,stop_gradient:[true]} : (tensor<2x3x3xf64>) -> tensor<2x3x3xf64>"#,
        &["tensor<2x3x3xf64>"],
    );
}

/// `NormInferMeta`.
#[test]
fn norm() {
    check(
        r#"(%42) = "pd_op.data" () {dtype:float32,name:"v43",place:Place(undefined:0),shape:[3,5],stop_gradient:[true]} : () -> tensor<3x5xf32>
(%102, %103) = "pd_op.norm" (%42) {axis:1,epsilon:1e-10,is_test:false,stop_gradient:[true,true]} : (tensor<3x5xf32>) -> tensor<3x5xf32>, tensor<3x1xf32>"#,
        &["tensor<3x5xf32>", "tensor<3x1xf32>"],
    );
    check(
        r#"(%43) = "pd_op.data" () {dtype:float32,name:"v44",place:Place(undefined:0),shape:[-1,5,6],stop_gradient:[true]} : () -> tensor<-1x5x6xf32>
(%104, %105) = "pd_op.norm" (%43) {axis:-1,epsilon:1e-10,is_test:true,stop_gradient:[true,true]} : (tensor<-1x5x6xf32>) -> tensor<-1x5x6xf32>, tensor<0xf32>"#,
        &["tensor<-1x5x6xf32>", "tensor<0xf32>"],
    );
}
