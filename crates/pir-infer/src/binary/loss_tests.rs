//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `BincountInferMeta`.
#[test]
fn bincount() {
    check(
        r#"(%16) = "pd_op.data" () {dtype:int64,name:"v17",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%62) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xi32>
(%63) = "pd_op.bincount" (%16, <<NULL VALUE>>, %62) {stop_gradient:[true]} : (tensor<-1xi64>, <<NULL TYPE>>, tensor<1xi32>) -> tensor<-1xi64>"#,
        &["tensor<-1xi64>"],
    );
    check(
        r#"(%17) = "pd_op.data" () {dtype:int32,name:"v18",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%18) = "pd_op.data" () {dtype:float64,name:"v19",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf64>
(%64) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xi32>
(%65) = "pd_op.bincount" (%17, %18, %64) {stop_gradient:[true]} : (tensor<-1xi32>, tensor<-1xf64>, tensor<1xi32>) -> tensor<-1xf64>"#,
        &["tensor<-1xf64>"],
    );
    check(
        r#"(%19) = "pd_op.data" () {dtype:int32,name:"v20",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%66) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>
(%67) = "pd_op.bincount" (%19, <<NULL VALUE>>, %66) {stop_gradient:[true]} : (tensor<-1xi32>, <<NULL TYPE>>, tensor<1xi32>) -> tensor<-1xi64>"#,
        &["tensor<-1xi64>"],
    );
}

/// `CEmbeddingInferMeta`.
#[test]
fn c_embedding() {
    check(
        r#"(%61) = "pd_op.data" () {dtype:float32,name:"v62",place:Place(undefined:0),shape:[10,8],stop_gradient:[true]} : () -> tensor<10x8xf32>
(%62) = "pd_op.data" () {dtype:int64,name:"v63",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi64>
(%122) = "pd_op.c_embedding" (%61, %62) {start_index:0,stop_gradient:[true],vocab_size:-1} : (tensor<10x8xf32>, tensor<-1x3xi64>) -> tensor<-1x3x8xf32>"#,
        &["tensor<-1x3x8xf32>"],
    );
}

/// `GatherTreeMeta`.
#[test]
fn gather_tree() {
    check(
        r#"(%20) = "pd_op.data" () {dtype:int64,name:"v21",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi64>
(%21) = "pd_op.data" () {dtype:int64,name:"v22",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi64>
(%68) = "pd_op.gather_tree" (%20, %21) {stop_gradient:[true]} : (tensor<-1x3xi64>, tensor<-1x3xi64>) -> tensor<-1x3xi64>"#,
        &["tensor<-1x3xi64>"],
    );
    check(
        r#"(%28) = "pd_op.data" () {dtype:int32,name:"v29",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi32>
(%29) = "pd_op.data" () {dtype:int32,name:"v30",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi32>
(%100) = "pd_op.gather_tree" (%28, %29) {stop_gradient:[true]} : (tensor<-1x3xi32>, tensor<-1x3xi32>) -> tensor<-1x3xi32>"#,
        &["tensor<-1x3xi32>"],
    );
}

/// `HingeLossInferMeta`.
#[test]
fn hinge_loss() {
    check(
        r#"(%30) = "pd_op.data" () {dtype:float32,name:"v31",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf32>
(%31) = "pd_op.data" () {dtype:float32,name:"v32",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf32>
(%101) = "pd_op.hinge_loss" (%30, %31) {stop_gradient:[true]} : (tensor<-1x1xf32>, tensor<-1x1xf32>) -> tensor<-1x1xf32>"#,
        &["tensor<-1x1xf32>"],
    );
}

/// `HistogramInferMeta`.
#[test]
fn histogram() {
    check(
        r#"(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%69) = "pd_op.histogram" (%18, <<NULL VALUE>>) {bins:10,density:false,max:1,min:0,stop_gradient:[true]} : (tensor<-1x3x8xf32>, <<NULL TYPE>>) -> tensor<10xi64>"#,
        &["tensor<10xi64>"],
    );
    check(
        r#"(%19) = "pd_op.data" () {dtype:float32,name:"v20",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%70) = "pd_op.histogram" (%19, <<NULL VALUE>>) {bins:10,density:true,max:1,min:0,stop_gradient:[true]} : (tensor<-1x3x8xf32>, <<NULL TYPE>>) -> tensor<10xf32>"#,
        &["tensor<10xf32>"],
    );
    check(
        r#"(%4) = "pd_op.data" () {dtype:float64,name:"v5",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf64>
(%47) = "pd_op.histogram" (%4, <<NULL VALUE>>) {bins:10,density:true,max:1,min:0,stop_gradient:[true]} : (tensor<-1x3x8xf64>, <<NULL TYPE>>) -> tensor<10xf32>"#,
        &["tensor<10xf32>"],
    );
}

/// `HuberLossInferMeta`.
#[test]
fn huber_loss() {
    check(
        r#"(%31) = "pd_op.data" () {dtype:float64,name:"v32",place:Place(undefined:0),shape:[-1,3,4,4],stop_gradient:[true]} : () -> tensor<-1x3x4x4xf64>
(%86, %87) = "pd_op.huber_loss" (%31, %31) {delta:1,stop_gradient:[true,true]} : (tensor<-1x3x4x4xf64>, tensor<-1x3x4x4xf64>) -> tensor<-1x3x4x4xf64>, tensor<-1x3x4x4xf64>"#,
        &["tensor<-1x3x4x4xf64>", "tensor<-1x3x4x4xf64>"],
    );
    check(
        r#"(%1) = "pd_op.data" () {dtype:float64,name:"v2",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf64>
(%2) = "pd_op.data" () {dtype:float64,name:"v3",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf64>
(%3, %4) = "pd_op.huber_loss" (%1, %2) {delta:1,stop_gradient:[true,true]} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>, tensor<3x4xf64>"#,
        &["tensor<3x4xf64>", "tensor<3x4xf64>"],
    );
}

/// `LimitByCapacityInferMeta`.
#[test]
fn limit_by_capacity() {
    check(
        r#"(%40) = "pd_op.data" () {dtype:int64,name:"v41",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%41) = "pd_op.data" () {dtype:int64,name:"v42",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi64>
(%104) = "pd_op.limit_by_capacity" (%40, %41) {n_worker:2,stop_gradient:[true]} : (tensor<-1xi64>, tensor<4xi64>) -> tensor<-1xi64>"#,
        &["tensor<-1xi64>"],
    );
}

/// `LookupTableDequantInferMeta`.
#[test]
fn lookup_table_dequant() {
    check(
        r#"(%13) = "pd_op.data" () {dtype:float32,name:"v14",place:Place(undefined:0),shape:[10,8],stop_gradient:[true]} : () -> tensor<10x8xf32>
(%14) = "pd_op.data" () {dtype:int64,name:"v15",place:Place(undefined:0),shape:[-1,3,1],stop_gradient:[true]} : () -> tensor<-1x3x1xi64>
(%20) = "pd_op.lookup_table_dequant" (%13, %14) {padding_idx:-1,stop_gradient:[true]} : (tensor<10x8xf32>, tensor<-1x3x1xi64>) -> tensor<-1x3x24xf32>"#,
        &["tensor<-1x3x24xf32>"],
    );
    check(
        r#"(%38) = "pd_op.data" () {dtype:float32,name:"v39",place:Place(undefined:0),shape:[10,8],stop_gradient:[true]} : () -> tensor<10x8xf32>
(%39) = "pd_op.data" () {dtype:int64,name:"v40",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%103) = "pd_op.lookup_table_dequant" (%38, %39) {padding_idx:-1,stop_gradient:[true]} : (tensor<10x8xf32>, tensor<-1x1xi64>) -> tensor<-1x24xf32>"#,
        &["tensor<-1x24xf32>"],
    );
}

/// `MarginCrossEntropyInferMeta`.
#[test]
fn margin_cross_entropy() {
    check(
        r#"(%42) = "pd_op.data" () {dtype:float32,name:"v43",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf32>
(%43) = "pd_op.data" () {dtype:int64,name:"v44",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%105, %106) = "pd_op.margin_cross_entropy" (%42, %43) {margin1:1,margin2:0.5,margin3:0,nranks:1,rank:0,return_softmax:true,ring_id:0,scale:64,stop_gradient:[true,true]} : (tensor<-1x10xf32>, tensor<-1x1xi64>) -> tensor<-1x10xf32>, tensor<-1x1xf32>"#,
        &["tensor<-1x10xf32>", "tensor<-1x1xf32>"],
    );
    check(
        r#"(%44) = "pd_op.data" () {dtype:float32,name:"v45",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf32>
(%45) = "pd_op.data" () {dtype:int64,name:"v46",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%107, %108) = "pd_op.margin_cross_entropy" (%44, %45) {margin1:1,margin2:0.5,margin3:0,nranks:1,rank:0,return_softmax:false,ring_id:0,scale:64,stop_gradient:[true,true]} : (tensor<-1x10xf32>, tensor<-1xi64>) -> tensor<-1x10xf32>, tensor<-1x1xf32>"#,
        &["tensor<-1x10xf32>", "tensor<-1x1xf32>"],
    );
}

/// `MatrixNMSInferMeta`.
#[test]
fn matrix_n_m_s() {
    check(
        r#"(%46) = "pd_op.data" () {dtype:float32,name:"v47",place:Place(undefined:0),shape:[-1,100,4],stop_gradient:[true]} : () -> tensor<-1x100x4xf32>
(%47) = "pd_op.data" () {dtype:float32,name:"v48",place:Place(undefined:0),shape:[-1,3,100],stop_gradient:[true]} : () -> tensor<-1x3x100xf32>
(%109, %110, %111) = "pd_op.matrix_nms" (%46, %47) {background_label:0,gaussian_sigma:2,keep_top_k:5,nms_top_k:10,normalized:true,post_threshold:0,score_threshold:0.1,stop_gradient:[true,true,true],use_gaussian:false} : (tensor<-1x100x4xf32>, tensor<-1x3x100xf32>) -> tensor<-1x6xf32>, tensor<-1x1xi32>, tensor<-1xi32>"#,
        &["tensor<-1x6xf32>", "tensor<-1x1xi32>", "tensor<-1xi32>"],
    );
}

/// `MatrixRankAtolRtolInferMeta`.
#[test]
fn matrix_rank_atol_rtol() {
    check(
        r#"(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%17) = "pd_op.matrix_rank_atol_rtol" (%6, %7, %8) {hermitian:false,stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<-1xf32>, tensor<-1xf32>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%9) = "pd_op.data" () {dtype:float64,name:"v10",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf64>
(%10) = "pd_op.data" () {dtype:float64,name:"v11",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf64>
(%18) = "pd_op.matrix_rank_atol_rtol" (%9, %10, <<NULL VALUE>>) {hermitian:false,stop_gradient:[true]} : (tensor<2x3x4xf64>, tensor<1xf64>, <<NULL TYPE>>) -> tensor<2xf32>"#,
        &["tensor<2xf32>"],
    );
    check(
        r#"(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[0,3,4],stop_gradient:[true]} : () -> tensor<0x3x4xf32>
(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>
(%19) = "pd_op.matrix_rank_atol_rtol" (%11, %12, <<NULL VALUE>>) {hermitian:false,stop_gradient:[true]} : (tensor<0x3x4xf32>, tensor<2xf32>, <<NULL TYPE>>) -> tensor<0xf32>"#,
        &["tensor<0xf32>"],
    );
}

/// `MatrixRankTolInferMeta`.
#[test]
fn matrix_rank_tol() {
    check(
        r#"(%14) = "pd_op.data" () {dtype:float64,name:"v15",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf64>
(%15) = "pd_op.data" () {dtype:float64,name:"v16",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf64>
(%61) = "pd_op.matrix_rank_tol" (%14, %15) {hermitian:false,stop_gradient:[true],use_default_tol:true} : (tensor<-1x3x8xf64>, tensor<-1xf64>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%34) = "pd_op.data" () {dtype:float32,name:"v35",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%35) = "pd_op.data" () {dtype:float32,name:"v36",place:Place(undefined:0),shape:[2,1],stop_gradient:[true]} : () -> tensor<2x1xf32>
(%102) = "pd_op.matrix_rank_tol" (%34, %35) {hermitian:false,stop_gradient:[true],use_default_tol:true} : (tensor<-1x3x8xf32>, tensor<2x1xf32>) -> tensor<2x-1xf32>"#,
        &["tensor<2x-1xf32>"],
    );
}

/// `SegmentPoolInferMeta`.
#[test]
fn segment_pool() {
    check(
        r#"(%57) = "pd_op.data" () {dtype:float32,name:"v58",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%58) = "pd_op.data" () {dtype:int64,name:"v59",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%118, %119) = "pd_op.segment_pool" (%57, %58) {pooltype:"MEAN",stop_gradient:[true,true]} : (tensor<-1x3x4xf32>, tensor<-1xi64>) -> tensor<-1x3x4xf32>, tensor<-1x1xf32>"#,
        &["tensor<-1x3x4xf32>", "tensor<-1x1xf32>"],
    );
    check(
        r#"(%59) = "pd_op.data" () {dtype:float32,name:"v60",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%60) = "pd_op.data" () {dtype:int64,name:"v61",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%120, %121) = "pd_op.segment_pool" (%59, %60) {pooltype:"SUM",stop_gradient:[true,true]} : (tensor<-1x3x4xf32>, tensor<-1xi64>) -> tensor<-1x3x4xf32>, tensor<0xf32>"#,
        &["tensor<-1x3x4xf32>", "tensor<0xf32>"],
    );
}

/// `Unpool3dInferMeta`.
#[test]
fn unpool3d() {
    check(
        r#"(%55) = "pd_op.data" () {dtype:float32,name:"v56",place:Place(undefined:0),shape:[2,3,4,4,4],stop_gradient:[true]} : () -> tensor<2x3x4x4x4xf32>
(%56) = "pd_op.data" () {dtype:int32,name:"v57",place:Place(undefined:0),shape:[2,3,4,4,4],stop_gradient:[true]} : () -> tensor<2x3x4x4x4xi32>
(%117) = "pd_op.unpool3d" (%55, %56) {data_format:"NCDHW",ksize:[2,2,2],output_size:[8,8,8],paddings:[0,0,0],stop_gradient:[true],strides:[2,2,2]} : (tensor<2x3x4x4x4xf32>, tensor<2x3x4x4x4xi32>) -> tensor<2x3x8x8x8xf32>"#,
        &["tensor<2x3x8x8x8xf32>"],
    );
}

/// `UnpoolInferMeta`.
#[test]
fn unpool() {
    check(
        r#"(%48) = "pd_op.data" () {dtype:float32,name:"v49",place:Place(undefined:0),shape:[-1,3,4,4],stop_gradient:[true]} : () -> tensor<-1x3x4x4xf32>
(%49) = "pd_op.data" () {dtype:int32,name:"v50",place:Place(undefined:0),shape:[-1,3,4,4],stop_gradient:[true]} : () -> tensor<-1x3x4x4xi32>
(%112) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[8,8]} : () -> tensor<2xi64>
(%113) = "pd_op.unpool" (%48, %49, %112) {data_format:"NCHW",ksize:[2,2],padding:[0,0],stop_gradient:[true],strides:[2,2]} : (tensor<-1x3x4x4xf32>, tensor<-1x3x4x4xi32>, tensor<2xi64>) -> tensor<-1x3x8x8xf32>"#,
        &["tensor<-1x3x8x8xf32>"],
    );
    check(
        r#"(%50) = "pd_op.data" () {dtype:float32,name:"v51",place:Place(undefined:0),shape:[2,3,-1,4],stop_gradient:[true]} : () -> tensor<2x3x-1x4xf32>
(%51) = "pd_op.data" () {dtype:int32,name:"v52",place:Place(undefined:0),shape:[2,3,-1,4],stop_gradient:[true]} : () -> tensor<2x3x-1x4xi32>
(%114) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[8,8]} : () -> tensor<2xi64>
(%115) = "pd_op.unpool" (%50, %51, %114) {data_format:"NCHW",ksize:[2,2],padding:[0,0],stop_gradient:[true],strides:[2,2]} : (tensor<2x3x-1x4xf32>, tensor<2x3x-1x4xi32>, tensor<2xi64>) -> tensor<2x3x-1x8xf32>"#,
        &["tensor<2x3x-1x8xf32>"],
    );
    check(
        r#"(%52) = "pd_op.data" () {dtype:float32,name:"v53",place:Place(undefined:0),shape:[2,3,4,4],stop_gradient:[true]} : () -> tensor<2x3x4x4xf32>
(%53) = "pd_op.data" () {dtype:int32,name:"v54",place:Place(undefined:0),shape:[2,3,4,4],stop_gradient:[true]} : () -> tensor<2x3x4x4xi32>
(%54) = "pd_op.data" () {dtype:int64,name:"v55",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%116) = "pd_op.unpool" (%52, %53, %54) {data_format:"NCHW",ksize:[2,2],padding:[0,0],stop_gradient:[true],strides:[2,2]} : (tensor<2x3x4x4xf32>, tensor<2x3x4x4xi32>, tensor<2xi64>) -> tensor<2x3x-1x-1xf32>"#,
        &["tensor<2x3x-1x-1xf32>"],
    );
}
