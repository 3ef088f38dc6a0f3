//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `BCELossInferMeta`.
#[test]
fn b_c_e_loss() {
    check(
        r#"(%36) = "pd_op.data" () {dtype:float32,name:"v37",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%37) = "pd_op.data" () {dtype:float32,name:"v38",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%107) = "pd_op.bce_loss" (%36, %37) {stop_gradient:[true]} : (tensor<-1x5xf32>, tensor<-1x5xf32>) -> tensor<-1x5xf32>"#,
        &["tensor<-1x5xf32>"],
    );
    check(
        r#"(%38) = "pd_op.data" () {dtype:float32,name:"v39",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>
(%39) = "pd_op.data" () {dtype:float32,name:"v40",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%108) = "pd_op.bce_loss" (%38, %39) {stop_gradient:[true]} : (tensor<4x5xf32>, tensor<-1x5xf32>) -> tensor<4x5xf32>"#,
        &["tensor<4x5xf32>"],
    );
}

/// `BinomialInferMeta`.
#[test]
fn binomial() {
    check(
        r#"(%32) = "pd_op.data" () {dtype:float32,name:"v33",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%33) = "pd_op.data" () {dtype:float32,name:"v34",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%105) = "pd_op.binomial" (%32, %33) {stop_gradient:[true]} : (tensor<-1x5xf32>, tensor<-1x5xf32>) -> tensor<-1x5xi64>"#,
        &["tensor<-1x5xi64>"],
    );
    check(
        r#"(%34) = "pd_op.data" () {dtype:float32,name:"v35",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>
(%35) = "pd_op.data" () {dtype:float32,name:"v36",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>
(%106) = "pd_op.binomial" (%34, %35) {stop_gradient:[true]} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi64>"#,
        &["tensor<4x5xi64>"],
    );
}

/// `CholeskySolveInferMeta`.
#[test]
fn cholesky_solve() {
    check(
        r#"(%66) = "pd_op.data" () {dtype:float32,name:"v67",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%67) = "pd_op.data" () {dtype:float32,name:"v68",place:Place(undefined:0),shape:[3,3],stop_gradient:[true]} : () -> tensor<3x3xf32>
(%122) = "pd_op.cholesky_solve" (%66, %67) {stop_gradient:[true],upper:false} : (tensor<2x3x4xf32>, tensor<3x3xf32>) -> tensor<2x3x4xf32>"#,
        &["tensor<2x3x4xf32>"],
    );
    check(
        r#"(%68) = "pd_op.data" () {dtype:float32,name:"v69",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%69) = "pd_op.data" () {dtype:float32,name:"v70",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf32>
(%123) = "pd_op.cholesky_solve" (%68, %69) {stop_gradient:[true],upper:false} : (tensor<-1x3x4xf32>, tensor<-1x3x3xf32>) -> tensor<-1x3x4xf32>"#,
        &["tensor<-1x3x4xf32>"],
    );
}

/// `ComplexInferMeta`.
#[test]
fn complex() {
    check(
        r#"(%54) = "pd_op.data" () {dtype:float32,name:"v55",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%55) = "pd_op.data" () {dtype:float32,name:"v56",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%118) = "pd_op.complex" (%54, %55) {stop_gradient:[true]} : (tensor<-1x3xf32>, tensor<-1x3xf32>) -> tensor<-1x3xc64>"#,
        &["tensor<-1x3xc64>"],
    );
    check(
        r#"(%56) = "pd_op.data" () {dtype:float64,name:"v57",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf64>
(%57) = "pd_op.data" () {dtype:float32,name:"v58",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%119) = "pd_op.complex" (%56, %57) {stop_gradient:[true]} : (tensor<2x3xf64>, tensor<3xf32>) -> tensor<2x3xc128>"#,
        &["tensor<2x3xc128>"],
    );
}

/// `CrossInferMeta`.
#[test]
fn cross() {
    check(
        r#"(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%95) = "pd_op.cross" (%10, %11) {axis:1,stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<-1x3x4xf32>) -> tensor<-1x3x4xf32>"#,
        &["tensor<-1x3x4xf32>"],
    );
    check(
        r#"(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%13) = "pd_op.data" () {dtype:float32,name:"v14",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%96) = "pd_op.cross" (%12, %13) {axis:9,stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<-1x3x4xf32>) -> tensor<-1x3x4xf32>"#,
        &["tensor<-1x3x4xf32>"],
    );
}

/// `DistInferMeta`.
#[test]
fn dist() {
    check(
        r#"(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%97) = "pd_op.dist" (%16, %17) {p:2,stop_gradient:[true]} : (tensor<-1x3xf32>, tensor<-1x3xf32>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
}

/// `GridSampleBaseInferMeta`.
#[test]
fn grid_sample_base() {
    check(
        r#"(%40) = "pd_op.data" () {dtype:float32,name:"v41",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf32>
(%41) = "pd_op.data" () {dtype:float32,name:"v42",place:Place(undefined:0),shape:[-1,4,4,2],stop_gradient:[true]} : () -> tensor<-1x4x4x2xf32>
(%109) = "pd_op.grid_sample" (%40, %41) {align_corners:true,mode:"bilinear",padding_mode:"zeros",stop_gradient:[true]} : (tensor<-1x3x8x8xf32>, tensor<-1x4x4x2xf32>) -> tensor<-1x3x4x4xf32>"#,
        &["tensor<-1x3x4x4xf32>"],
    );
    check(
        r#"(%42) = "pd_op.data" () {dtype:float32,name:"v43",place:Place(undefined:0),shape:[2,3,4,8,8],stop_gradient:[true]} : () -> tensor<2x3x4x8x8xf32>
(%43) = "pd_op.data" () {dtype:float32,name:"v44",place:Place(undefined:0),shape:[2,4,4,5,3],stop_gradient:[true]} : () -> tensor<2x4x4x5x3xf32>
(%110) = "pd_op.grid_sample" (%42, %43) {align_corners:true,mode:"bilinear",padding_mode:"zeros",stop_gradient:[true]} : (tensor<2x3x4x8x8xf32>, tensor<2x4x4x5x3xf32>) -> tensor<2x3x4x4x5xf32>"#,
        &["tensor<2x3x4x4x5xf32>"],
    );
    check(
        r#"(%44) = "pd_op.data" () {dtype:float32,name:"v45",place:Place(undefined:0),shape:[2,3,8,8],stop_gradient:[true]} : () -> tensor<2x3x8x8xf32>
(%45) = "pd_op.data" () {dtype:float32,name:"v46",place:Place(undefined:0),shape:[-1,4,4,-1],stop_gradient:[true]} : () -> tensor<-1x4x4x-1xf32>
(%111) = "pd_op.grid_sample" (%44, %45) {align_corners:true,mode:"bilinear",padding_mode:"zeros",stop_gradient:[true]} : (tensor<2x3x8x8xf32>, tensor<-1x4x4x-1xf32>) -> tensor<2x3x4x4xf32>"#,
        &["tensor<2x3x4x4xf32>"],
    );
}

/// `IndexSampleInferMeta`.
#[test]
fn index_sample() {
    check(
        r#"(%26) = "pd_op.data" () {dtype:float32,name:"v27",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%27) = "pd_op.data" () {dtype:int64,name:"v28",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi64>
(%102) = "pd_op.index_sample" (%26, %27) {stop_gradient:[true]} : (tensor<-1x5xf32>, tensor<-1x3xi64>) -> tensor<-1x3xf32>"#,
        &["tensor<-1x3xf32>"],
    );
    check(
        r#"(%28) = "pd_op.data" () {dtype:float32,name:"v29",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>
(%29) = "pd_op.data" () {dtype:int64,name:"v30",place:Place(undefined:0),shape:[3,3],stop_gradient:[true]} : () -> tensor<3x3xi64>
(%103) = "pd_op.index_sample" (%28, %29) {stop_gradient:[true]} : (tensor<4x5xf32>, tensor<3x3xi64>) -> tensor<3x3xf32>"#,
        &["tensor<3x3xf32>"],
    );
}

/// `IndexSelectStridedInferMeta`.
#[test]
fn index_select_strided() {
    check(
        r#"(%80) = "pd_op.data" () {dtype:float32,name:"v81",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%128) = "pd_op.index_select_strided" (%80) {axis:-1,index:1,stop_gradient:[true]} : (tensor<-1x3x4xf32>) -> tensor<-1x3xf32>"#,
        &["tensor<-1x3xf32>"],
    );
}

/// `KLDivInferMeta`.
#[test]
fn k_l_div() {
    check(
        r#"(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%19) = "pd_op.data" () {dtype:float32,name:"v20",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%98) = "pd_op.kldiv_loss" (%18, %19) {log_target:false,reduction:"none",stop_gradient:[true]} : (tensor<-1x3xf32>, tensor<-1x3xf32>) -> tensor<-1x3xf32>"#,
        &["tensor<-1x3xf32>"],
    );
    check(
        r#"(%20) = "pd_op.data" () {dtype:float32,name:"v21",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%21) = "pd_op.data" () {dtype:float32,name:"v22",place:Place(undefined:0),shape:[4,3],stop_gradient:[true]} : () -> tensor<4x3xf32>
(%99) = "pd_op.kldiv_loss" (%20, %21) {log_target:false,reduction:"mean",stop_gradient:[true]} : (tensor<-1x3xf32>, tensor<4x3xf32>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
}

/// `KronInferMeta`.
#[test]
fn kron() {
    check(
        r#"(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[2,-1,3],stop_gradient:[true]} : () -> tensor<2x-1x3xf32>
(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>
(%93) = "pd_op.kron" (%6, %7) {stop_gradient:[true]} : (tensor<2x-1x3xf32>, tensor<4x5xf32>) -> tensor<2x-1x15xf32>"#,
        &["tensor<2x-1x15xf32>"],
    );
    check(
        r#"(%8) = "pd_op.data" () {dtype:float64,name:"v9",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf64>
(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[-1,4,5],stop_gradient:[true]} : () -> tensor<-1x4x5xf32>
(%94) = "pd_op.kron" (%8, %9) {stop_gradient:[true]} : (tensor<2x3xf64>, tensor<-1x4x5xf32>) -> tensor<-1x8x15xf64>"#,
        &["tensor<-1x8x15xf64>"],
    );
}

/// `LogLossInferMeta`.
#[test]
fn log_loss() {
    check(
        r#"(%22) = "pd_op.data" () {dtype:float32,name:"v23",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf32>
(%23) = "pd_op.data" () {dtype:float32,name:"v24",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf32>
(%100) = "pd_op.log_loss" (%22, %23) {epsilon:0.0001,stop_gradient:[true]} : (tensor<-1x1xf32>, tensor<-1x1xf32>) -> tensor<-1x1xf32>"#,
        &["tensor<-1x1xf32>"],
    );
    check(
        r#"(%24) = "pd_op.data" () {dtype:float32,name:"v25",place:Place(undefined:0),shape:[4,3],stop_gradient:[true]} : () -> tensor<4x3xf32>
(%25) = "pd_op.data" () {dtype:float32,name:"v26",place:Place(undefined:0),shape:[4,3],stop_gradient:[true]} : () -> tensor<4x3xf32>
(%101) = "pd_op.log_loss" (%24, %25) {epsilon:0.0001,stop_gradient:[true]} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x1xf32>"#,
        &["tensor<4x1xf32>"],
    );
}

/// `LstsqInferMeta`.
#[test]
fn lstsq() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[5,3],stop_gradient:[true]} : () -> tensor<5x3xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[5,2],stop_gradient:[true]} : () -> tensor<5x2xf32>
(%14) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
(%15, %16, %17, %18) = "pd_op.lstsq" (%0, %1, %14) {driver:"gelsd",stop_gradient:[true,true,true,true]} : (tensor<5x3xf32>, tensor<5x2xf32>, tensor<1xf32>) -> tensor<3x2xf32>, tensor<-1xf32>, tensor<f32>, tensor<3xf32>"#,
        &[
            "tensor<3x2xf32>",
            "tensor<-1xf32>",
            "tensor<f32>",
            "tensor<3xf32>",
        ],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[2,5,3],stop_gradient:[true]} : () -> tensor<2x5x3xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"v4",place:Place(undefined:0),shape:[2,5,2],stop_gradient:[true]} : () -> tensor<2x5x2xf32>
(%19) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
(%20, %21, %22, %23) = "pd_op.lstsq" (%2, %3, %19) {driver:"gelsd",stop_gradient:[true,true,true,true]} : (tensor<2x5x3xf32>, tensor<2x5x2xf32>, tensor<1xf32>) -> tensor<2x3x2xf32>, tensor<-1xf32>, tensor<2xf32>, tensor<2x3xf32>"#,
        &[
            "tensor<2x3x2xf32>",
            "tensor<-1xf32>",
            "tensor<2xf32>",
            "tensor<2x3xf32>",
        ],
    );
    check(
        r#"(%4) = "pd_op.data" () {dtype:float32,name:"v5",place:Place(undefined:0),shape:[2,5,3],stop_gradient:[true]} : () -> tensor<2x5x3xf32>
(%5) = "pd_op.data" () {dtype:float32,name:"v6",place:Place(undefined:0),shape:[2,5,2],stop_gradient:[true]} : () -> tensor<2x5x2xf32>
(%24) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
(%25, %26, %27, %28) = "pd_op.lstsq" (%4, %5, %24) {driver:"gels",stop_gradient:[true,true,true,true]} : (tensor<2x5x3xf32>, tensor<2x5x2xf32>, tensor<1xf32>) -> tensor<2x3x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2x3xf32>"#,
        &[
            "tensor<2x3x2xf32>",
            "tensor<2x2xf32>",
            "tensor<2xf32>",
            "tensor<2x3xf32>",
        ],
    );
}

/// `MaskedSelectInferMeta`.
#[test]
fn masked_select() {
    check(
        r#"(%30) = "pd_op.data" () {dtype:float32,name:"v31",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%31) = "pd_op.data" () {dtype:bool,name:"v32",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xb>
(%104) = "pd_op.masked_select" (%30, %31) {stop_gradient:[true]} : (tensor<-1x5xf32>, tensor<-1x5xb>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
}

/// `MatmulWithFlattenInferMeta`.
#[test]
fn matmul_with_flatten() {
    check(
        r#"(%83) = "pd_op.data" () {dtype:float32,name:"v84",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%84) = "pd_op.data" () {dtype:float32,name:"v85",place:Place(undefined:0),shape:[12,5],stop_gradient:[true]} : () -> tensor<12x5xf32>
(%129) = "pd_op.matmul_with_flatten" (%83, %84) {stop_gradient:[true],x_num_col_dims:1,y_num_col_dims:1} : (tensor<-1x3x4xf32>, tensor<12x5xf32>) -> tensor<-1x5xf32>"#,
        &["tensor<-1x5xf32>"],
    );
    check(
        r#"(%85) = "pd_op.data" () {dtype:int8,name:"v86",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xi8>
(%86) = "pd_op.data" () {dtype:int8,name:"v87",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xi8>
(%130) = "pd_op.matmul_with_flatten" (%85, %86) {stop_gradient:[true],x_num_col_dims:2,y_num_col_dims:1} : (tensor<2x3x4xi8>, tensor<4x5xi8>) -> tensor<2x3x5xi32>"#,
        &["tensor<2x3x5xi32>"],
    );
}

/// `MvInferMeta`.
#[test]
fn mv() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%91) = "pd_op.mv" (%0, %1) {stop_gradient:[true]} : (tensor<-1x3xf32>, tensor<3xf32>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[5,-1],stop_gradient:[true]} : () -> tensor<5x-1xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"v4",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%92) = "pd_op.mv" (%2, %3) {stop_gradient:[true]} : (tensor<5x-1xf32>, tensor<-1xf32>) -> tensor<5xf32>"#,
        &["tensor<5xf32>"],
    );
}

/// `SearchsortedInferMeta`.
#[test]
fn searchsorted() {
    check(
        r#"(%46) = "pd_op.data" () {dtype:float32,name:"v47",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%47) = "pd_op.data" () {dtype:float32,name:"v48",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%112) = "pd_op.searchsorted" (%46, %47) {out_int32:false,right:false,stop_gradient:[true]} : (tensor<-1x5xf32>, tensor<-1x3xf32>) -> tensor<-1x3xi64>"#,
        &["tensor<-1x3xi64>"],
    );
    check(
        r#"(%48) = "pd_op.data" () {dtype:float32,name:"v49",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%49) = "pd_op.data" () {dtype:float32,name:"v50",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%113) = "pd_op.searchsorted" (%48, %49) {out_int32:true,right:false,stop_gradient:[true]} : (tensor<5xf32>, tensor<2x3xf32>) -> tensor<2x3xi32>"#,
        &["tensor<2x3xi32>"],
    );
}

/// `SolveInferMeta`.
#[test]
fn solve() {
    check(
        r#"(%70) = "pd_op.data" () {dtype:float32,name:"v71",place:Place(undefined:0),shape:[2,3,3],stop_gradient:[true]} : () -> tensor<2x3x3xf32>
(%71) = "pd_op.data" () {dtype:float32,name:"v72",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%124) = "pd_op.solve" (%70, %71) {stop_gradient:[true]} : (tensor<2x3x3xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>"#,
        &["tensor<2x3x4xf32>"],
    );
    check(
        r#"(%72) = "pd_op.data" () {dtype:float32,name:"v73",place:Place(undefined:0),shape:[2,3,3],stop_gradient:[true]} : () -> tensor<2x3x3xf32>
(%73) = "pd_op.data" () {dtype:float32,name:"v74",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%125) = "pd_op.solve" (%72, %73) {stop_gradient:[true]} : (tensor<2x3x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>"#,
        &["tensor<2x3xf32>"],
    );
    check(
        r#"(%74) = "pd_op.data" () {dtype:float32,name:"v75",place:Place(undefined:0),shape:[3,3],stop_gradient:[true]} : () -> tensor<3x3xf32>
(%75) = "pd_op.data" () {dtype:float32,name:"v76",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%126) = "pd_op.solve" (%74, %75) {stop_gradient:[true]} : (tensor<3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>"#,
        &["tensor<2x3x4xf32>"],
    );
}

/// `TakeAlongAxisInferMeta`.
#[test]
fn take_along_axis() {
    check(
        r#"(%66) = "pd_op.data" () {dtype:float32,name:"v67",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%67) = "pd_op.data" () {dtype:int64,name:"v68",place:Place(undefined:0),shape:[-1,4,4],stop_gradient:[true]} : () -> tensor<-1x4x4xi64>
(%126) = "pd_op.take_along_axis" (%66, %67) {axis:1,stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<-1x4x4xi64>) -> tensor<-1x4x4xf32>"#,
        &["tensor<-1x4x4xf32>"],
    );
    check(
        r#"(%68) = "pd_op.data" () {dtype:float32,name:"v69",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%69) = "pd_op.data" () {dtype:int64,name:"v70",place:Place(undefined:0),shape:[2,1,4],stop_gradient:[true]} : () -> tensor<2x1x4xi64>
(%127) = "pd_op.take_along_axis" (%68, %69) {axis:1,stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<2x1x4xi64>) -> tensor<2x1x4xf32>"#,
        &["tensor<2x1x4xf32>"],
    );
}

/// `TriangularSolveInferMeta`.
#[test]
fn triangular_solve() {
    check(
        r#"(%60) = "pd_op.data" () {dtype:float32,name:"v61",place:Place(undefined:0),shape:[2,3,3],stop_gradient:[true]} : () -> tensor<2x3x3xf32>
(%61) = "pd_op.data" () {dtype:float32,name:"v62",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%120) = "pd_op.triangular_solve" (%60, %61) {stop_gradient:[true],transpose:false,unitriangular:false,upper:true} : (tensor<2x3x3xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>"#,
        &["tensor<2x3x4xf32>"],
    );
    check(
        r#"(%62) = "pd_op.data" () {dtype:float32,name:"v63",place:Place(undefined:0),shape:[-1,3,3],stop_gradient:[true]} : () -> tensor<-1x3x3xf32>
(%63) = "pd_op.data" () {dtype:float32,name:"v64",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%121) = "pd_op.triangular_solve" (%62, %63) {stop_gradient:[true],transpose:false,unitriangular:false,upper:true} : (tensor<-1x3x3xf32>, tensor<-1x3x4xf32>) -> tensor<-1x3x4xf32>"#,
        &["tensor<-1x3x4xf32>"],
    );
}

/// `ValueCompareInferMeta`.
#[test]
fn value_compare() {
    check(
        r#"(%50) = "pd_op.data" () {dtype:float32,name:"v51",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%51) = "pd_op.data" () {dtype:float32,name:"v52",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%114) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-05} : () -> tensor<1xf64>
(%115) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf64>
(%116) = "pd_op.isclose" (%50, %51, %114, %115) {equal_nan:false,stop_gradient:[true]} : (tensor<-1x3xf32>, tensor<2x3xf32>, tensor<1xf64>, tensor<1xf64>) -> tensor<-1x3xb>"#,
        &["tensor<-1x3xb>"],
    );
    check(
        r#"(%52) = "pd_op.data" () {dtype:float32,name:"v53",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%53) = "pd_op.data" () {dtype:float32,name:"v54",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%117) = "pd_op.accuracy_check" (%52, %53) {atol:1e-08,equal_nan:false,fn_name:"a",rtol:1e-05,stop_gradient:[true]} : (tensor<-1x3xf32>, tensor<2x3xf32>) -> tensor<-1x3xb>"#,
        &["tensor<-1x3xb>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%14) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-05} : () -> tensor<1xf64>
(%15) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf64>
(%16) = "pd_op.isclose" (%2, %2, %14, %15) {equal_nan:false,stop_gradient:[true]} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xf64>, tensor<1xf64>) -> tensor<2x3xb>"#,
        &["tensor<2x3xb>"],
    );
}

/// `BitwiseShiftInferMeta`.
#[test]
fn bitwise_shift() {
    check(
        r#"(%87) = "pd_op.data" () {dtype:int32,name:"v88",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi32>
(%88) = "pd_op.data" () {dtype:int32,name:"v89",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xi32>
(%131) = "pd_op.bitwise_left_shift" (%87, %88) {is_arithmetic:true,stop_gradient:[true]} : (tensor<-1x3xi32>, tensor<3xi32>) -> tensor<-1x3xi32>"#,
        &["tensor<-1x3xi32>"],
    );
    check(
        r#"(%89) = "pd_op.data" () {dtype:int64,name:"v90",place:Place(undefined:0),shape:[4,1],stop_gradient:[true]} : () -> tensor<4x1xi64>
(%90) = "pd_op.data" () {dtype:int64,name:"v91",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi64>
(%132) = "pd_op.bitwise_right_shift_" (%89, %90) {is_arithmetic:false,stop_gradient:[true]} : (tensor<4x1xi64>, tensor<-1x3xi64>) -> tensor<4x3xi64>"#,
        &["tensor<4x3xi64>"],
    );
}
