//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `CropInferMeta`.
#[test]
fn crop() {
    check(
        r#"(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%56) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,2,2]} : () -> tensor<3xi64>
(%57) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0,0,0]} : () -> tensor<3xi64>
(%58) = "pd_op.crop" (%7, %56, %57) {stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x2x2xf32>"#,
        &["tensor<2x2x2xf32>"],
    );
    check(
        r#"(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[5,3,4],stop_gradient:[true]} : () -> tensor<5x3x4xf32>
(%59) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[-1,2,3]} : () -> tensor<3xi64>
(%60) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0,1,0]} : () -> tensor<3xi64>
(%61) = "pd_op.crop" (%8, %59, %60) {stop_gradient:[true]} : (tensor<5x3x4xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<-1x2x3xf32>"#,
        &["tensor<-1x2x3xf32>"],
    );
    check(
        r#"(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[5,3,4],stop_gradient:[true]} : () -> tensor<5x3x4xf32>
(%10) = "pd_op.data" () {dtype:int32,name:"v11",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xi32>
(%62) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0,1,0]} : () -> tensor<3xi64>
(%63) = "pd_op.crop" (%9, %10, %62) {stop_gradient:[true]} : (tensor<5x3x4xf32>, tensor<3xi32>, tensor<3xi64>) -> tensor<-1x-1x-1xf32>"#,
        &["tensor<-1x-1x-1xf32>"],
    );
}

/// `FoldInferMeta`.
#[test]
fn fold() {
    check(
        r#"(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[-1,12,12],stop_gradient:[true]} : () -> tensor<-1x12x12xf32>
(%64) = "pd_op.fold" (%12) {dilations:[1,1],kernel_sizes:[2,2],output_sizes:[4,5],paddings:[0,0,0,0],stop_gradient:[true],strides:[1,1]} : (tensor<-1x12x12xf32>) -> tensor<-1x3x4x5xf32>"#,
        &["tensor<-1x3x4x5xf32>"],
    );
}

/// `FractionalMaxPoolInferMeta`.
#[test]
fn fractional_max_pool() {
    check(
        r#"(%38) = "pd_op.data" () {dtype:float32,name:"v39",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf32>
(%97, %98) = "pd_op.fractional_max_pool2d" (%38) {kernel_size:[0,0],output_size:[3,3],random_u:0,return_mask:true,stop_gradient:[true,true]} : (tensor<-1x3x8x8xf32>) -> tensor<-1x3x3x3xf32>, tensor<-1x3x3x3xi32>"#,
        &["tensor<-1x3x3x3xf32>", "tensor<-1x3x3x3xi32>"],
    );
    check(
        r#"(%39) = "pd_op.data" () {dtype:float32,name:"v40",place:Place(undefined:0),shape:[-1,3,8,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8x8xf32>
(%99, %100) = "pd_op.fractional_max_pool3d" (%39) {kernel_size:[0,0,0],output_size:[3,3,2],random_u:0,return_mask:false,stop_gradient:[true,true]} : (tensor<-1x3x8x8x8xf32>) -> tensor<-1x3x3x3x2xf32>, tensor<-1x3x3x3x2xi32>"#,
        &["tensor<-1x3x3x3x2xf32>", "tensor<-1x3x3x3x2xi32>"],
    );
}

/// `FrameInferMeta`.
#[test]
fn frame() {
    check(
        r#"(%13) = "pd_op.data" () {dtype:float32,name:"v14",place:Place(undefined:0),shape:[-1,100],stop_gradient:[true]} : () -> tensor<-1x100xf32>
(%65) = "pd_op.frame" (%13) {axis:-1,frame_length:10,hop_length:5,stop_gradient:[true]} : (tensor<-1x100xf32>) -> tensor<-1x10x19xf32>"#,
        &["tensor<-1x10x19xf32>"],
    );
    check(
        r#"(%14) = "pd_op.data" () {dtype:float32,name:"v15",place:Place(undefined:0),shape:[100,-1],stop_gradient:[true]} : () -> tensor<100x-1xf32>
(%66) = "pd_op.frame" (%14) {axis:0,frame_length:10,hop_length:5,stop_gradient:[true]} : (tensor<100x-1xf32>) -> tensor<19x10x-1xf32>"#,
        &["tensor<19x10x-1xf32>"],
    );
    check(
        r#"(%15) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[4,-1],stop_gradient:[true]} : () -> tensor<4x-1xf32>
(%67) = "pd_op.frame" (%15) {axis:-1,frame_length:10,hop_length:5,stop_gradient:[true]} : (tensor<4x-1xf32>) -> tensor<4x10x-1xf32>"#,
        &["tensor<4x10x-1xf32>"],
    );
}

/// `FullBatchSizeLikeInferMeta`.
#[test]
fn full_batch_size_like() {
    check(
        r#"(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%70) = "pd_op.full_batch_size_like" (%18) {dtype:float32,input_dim_idx:0,output_dim_idx:0,place:Place(cpu),shape:[1,5],stop_gradient:[true],value:0} : (tensor<-1x3xf32>) -> tensor<-1x5xf32>"#,
        &["tensor<-1x5xf32>"],
    );
    check(
        r#"(%19) = "pd_op.data" () {dtype:float32,name:"v20",place:Place(undefined:0),shape:[4,3],stop_gradient:[true]} : () -> tensor<4x3xf32>
(%71) = "pd_op.full_batch_size_like" (%19) {dtype:int64,input_dim_idx:1,output_dim_idx:2,place:Place(cpu),shape:[2,5,6],stop_gradient:[true],value:1} : (tensor<4x3xf32>) -> tensor<2x5x3xi64>"#,
        &["tensor<2x5x3xi64>"],
    );
}

/// `GumbelSoftmaxInferMeta`.
#[test]
fn gumbel_softmax() {
    check(
        r#"(%41) = "pd_op.data" () {dtype:float32,name:"v42",place:Place(undefined:0),shape:[-1,2,5],stop_gradient:[true]} : () -> tensor<-1x2x5xf32>
(%101) = "pd_op.gumbel_softmax" (%41) {axis:-1,hard:false,stop_gradient:[true],temperature:1} : (tensor<-1x2x5xf32>) -> tensor<-1x2x5xf32>"#,
        &["tensor<-1x2x5xf32>"],
    );
}

/// `IdentityLossInferMeta`.
#[test]
fn identity_loss() {
    check(
        r#"(%20) = "pd_op.data" () {dtype:float32,name:"v21",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%72) = "pd_op.identity_loss" (%20) {reduction:1,stop_gradient:[true]} : (tensor<-1x3xf32>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
    check(
        r#"(%21) = "pd_op.data" () {dtype:float32,name:"v22",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%73) = "pd_op.identity_loss" (%21) {reduction:2,stop_gradient:[true]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>"#,
        &["tensor<-1x3xf32>"],
    );
}

/// `IsEmptyInferMeta`.
#[test]
fn is_empty() {
    check(
        r#"(%22) = "pd_op.data" () {dtype:float32,name:"v23",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%74) = "pd_op.is_empty" (%22) {stop_gradient:[true]} : (tensor<-1x3xf32>) -> tensor<b>"#,
        &["tensor<b>"],
    );
}

/// `MaxOutInferMeta`.
#[test]
fn max_out() {
    check(
        r#"(%23) = "pd_op.data" () {dtype:float32,name:"v24",place:Place(undefined:0),shape:[-1,6,4,4],stop_gradient:[true]} : () -> tensor<-1x6x4x4xf32>
(%75) = "pd_op.maxout" (%23) {axis:1,groups:2,stop_gradient:[true]} : (tensor<-1x6x4x4xf32>) -> tensor<-1x3x4x4xf32>"#,
        &["tensor<-1x3x4x4xf32>"],
    );
}

/// `MedianInferMeta`.
#[test]
fn median() {
    check(
        r#"(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%63, %64) = "pd_op.median" (%11) {axis:[1],keepdim:false,mode:"avg",stop_gradient:[true,true]} : (tensor<-1x3x8xf32>) -> tensor<-1x8xf32>, tensor<-1x8x2xi64>"#,
        &["tensor<-1x8xf32>", "tensor<-1x8x2xi64>"],
    );
    check(
        r#"(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%65, %66) = "pd_op.median" (%12) {axis:[],keepdim:true,mode:"min",stop_gradient:[true,true]} : (tensor<-1x3x8xf32>) -> tensor<1x1x1xf32>, tensor<1x1x1xi64>"#,
        &["tensor<1x1x1xf32>", "tensor<1x1x1xi64>"],
    );
    check(
        r#"(%22) = "pd_op.data" () {dtype:float32,name:"v23",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%93, %94) = "pd_op.median" (%22) {axis:[0,2],keepdim:true,mode:"avg",stop_gradient:[true,true]} : (tensor<-1x3x8xf32>) -> tensor<1x3x1xf32>, tensor<1x3x1x2xi64>"#,
        &["tensor<1x3x1xf32>", "tensor<1x3x1x2xi64>"],
    );
}

/// `ModeInferMeta`.
#[test]
fn mode() {
    check(
        r#"(%25) = "pd_op.data" () {dtype:float32,name:"v26",place:Place(undefined:0),shape:[-1,6,4],stop_gradient:[true]} : () -> tensor<-1x6x4xf32>
(%76, %77) = "pd_op.mode" (%25) {axis:-1,keepdim:false,stop_gradient:[true,true]} : (tensor<-1x6x4xf32>) -> tensor<-1x6xf32>, tensor<-1x6xi64>"#,
        &["tensor<-1x6xf32>", "tensor<-1x6xi64>"],
    );
    check(
        r#"(%26) = "pd_op.data" () {dtype:float32,name:"v27",place:Place(undefined:0),shape:[-1,6,4],stop_gradient:[true]} : () -> tensor<-1x6x4xf32>
(%78, %79) = "pd_op.mode" (%26) {axis:1,keepdim:true,stop_gradient:[true,true]} : (tensor<-1x6x4xf32>) -> tensor<-1x1x4xf32>, tensor<-1x1x4xi64>"#,
        &["tensor<-1x1x4xf32>", "tensor<-1x1x4xi64>"],
    );
    check(
        r#"(%27) = "pd_op.data" () {dtype:float32,name:"v28",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%80, %81) = "pd_op.mode" (%27) {axis:0,keepdim:true,stop_gradient:[true,true]} : (tensor<f32>) -> tensor<f32>, tensor<i64>"#,
        &["tensor<f32>", "tensor<i64>"],
    );
}

/// `MultinomialInferMeta`.
#[test]
fn multinomial() {
    check(
        r#"(%28) = "pd_op.data" () {dtype:float32,name:"v29",place:Place(undefined:0),shape:[-1,6],stop_gradient:[true]} : () -> tensor<-1x6xf32>
(%82) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xi32>
(%83) = "pd_op.multinomial" (%28, %82) {replacement:false,stop_gradient:[true]} : (tensor<-1x6xf32>, tensor<1xi32>) -> tensor<-1x3xi64>"#,
        &["tensor<-1x3xi64>"],
    );
    check(
        r#"(%29) = "pd_op.data" () {dtype:float32,name:"v30",place:Place(undefined:0),shape:[6],stop_gradient:[true]} : () -> tensor<6xf32>
(%84) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xi32>
(%85) = "pd_op.multinomial" (%29, %84) {replacement:true,stop_gradient:[true]} : (tensor<6xf32>, tensor<1xi32>) -> tensor<2xi64>"#,
        &["tensor<2xi64>"],
    );
}

/// `NMSInferMeta`.
#[test]
fn n_m_s() {
    check(
        r#"(%34) = "pd_op.data" () {dtype:float32,name:"v35",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%94) = "pd_op.nms" (%34) {stop_gradient:[true],threshold:0.5} : (tensor<-1x4xf32>) -> tensor<-1xi64>"#,
        &["tensor<-1xi64>"],
    );
}

/// `NanmedianInferMeta`.
#[test]
fn nanmedian() {
    check(
        r#"(%30) = "pd_op.data" () {dtype:float32,name:"v31",place:Place(undefined:0),shape:[-1,6,4],stop_gradient:[true]} : () -> tensor<-1x6x4xf32>
(%86, %87) = "pd_op.nanmedian" (%30) {axis:[],keepdim:true,mode:"avg",stop_gradient:[true,true]} : (tensor<-1x6x4xf32>) -> tensor<1x1x1xf32>, tensor<1x1x1x2xi64>"#,
        &["tensor<1x1x1xf32>", "tensor<1x1x1x2xi64>"],
    );
    check(
        r#"(%31) = "pd_op.data" () {dtype:float32,name:"v32",place:Place(undefined:0),shape:[-1,6,4],stop_gradient:[true]} : () -> tensor<-1x6x4xf32>
(%88, %89) = "pd_op.nanmedian" (%31) {axis:[1],keepdim:false,mode:"min",stop_gradient:[true,true]} : (tensor<-1x6x4xf32>) -> tensor<-1x4xf32>, tensor<-1x4xi64>"#,
        &["tensor<-1x4xf32>", "tensor<-1x4xi64>"],
    );
    check(
        r#"(%32) = "pd_op.data" () {dtype:float32,name:"v33",place:Place(undefined:0),shape:[-1,6,4],stop_gradient:[true]} : () -> tensor<-1x6x4xf32>
(%90, %91) = "pd_op.nanmedian" (%32) {axis:[0,-1],keepdim:true,mode:"avg",stop_gradient:[true,true]} : (tensor<-1x6x4xf32>) -> tensor<1x6x1xf32>, tensor<1x6x1x2xi64>"#,
        &["tensor<1x6x1xf32>", "tensor<1x6x1x2xi64>"],
    );
}

/// `NonZeroInferMeta`.
#[test]
fn non_zero() {
    check(
        r#"(%35) = "pd_op.data" () {dtype:float32,name:"v36",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%95) = "pd_op.nonzero" (%35) {stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<-1x2xi64>"#,
        &["tensor<-1x2xi64>"],
    );
    check(
        r#"(%36) = "pd_op.data" () {dtype:float32,name:"v37",place:Place(undefined:0),shape:[3,0,4],stop_gradient:[true]} : () -> tensor<3x0x4xf32>
(%96) = "pd_op.nonzero" (%36) {stop_gradient:[true]} : (tensor<3x0x4xf32>) -> tensor<0x3xi64>"#,
        &["tensor<0x3xi64>"],
    );
}

/// `OverlapAddInferMeta`.
#[test]
fn overlap_add() {
    check(
        r#"(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[4,10,-1],stop_gradient:[true]} : () -> tensor<4x10x-1xf32>
(%68) = "pd_op.overlap_add" (%16) {axis:-1,hop_length:5,stop_gradient:[true]} : (tensor<4x10x-1xf32>) -> tensor<4x-1xf32>"#,
        &["tensor<4x-1xf32>"],
    );
    check(
        r#"(%17) = "pd_op.data" () {dtype:float64,name:"v18",place:Place(undefined:0),shape:[7,10,3],stop_gradient:[true]} : () -> tensor<7x10x3xf64>
(%69) = "pd_op.overlap_add" (%17) {axis:0,hop_length:5,stop_gradient:[true]} : (tensor<7x10x3xf64>) -> tensor<40x3xf32>"#,
        &["tensor<40x3xf32>"],
    );
}

/// `SequenceMaskScalarInferMeta`.
#[test]
fn sequence_mask_scalar() {
    check(
        r#"(%63) = "pd_op.data" () {dtype:int64,name:"v64",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%123) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xi32>
(%124) = "pd_op.sequence_mask" (%63, %123) {out_dtype:int64,stop_gradient:[true]} : (tensor<-1x1xi64>, tensor<1xi32>) -> tensor<-1x1x5xi64>"#,
        &["tensor<-1x1x5xi64>"],
    );
    check(
        r#"(%64) = "pd_op.data" () {dtype:int64,name:"v65",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%65) = "pd_op.data" () {dtype:int32,name:"v66",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%125) = "pd_op.sequence_mask" (%64, %65) {out_dtype:int32,stop_gradient:[true]} : (tensor<-1x1xi64>, tensor<1xi32>) -> tensor<-1x1x-1xi32>"#,
        &["tensor<-1x1x-1xi32>"],
    );
}
