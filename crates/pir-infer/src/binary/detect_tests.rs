//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `AddPositionEncodingInferMeta`.
#[test]
fn add_position_encoding() {
    check(
        r#"(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[-1,8,4],stop_gradient:[true]} : () -> tensor<-1x8x4xf32>
(%60) = "pd_op.add_position_encoding" (%17) {alpha:1,beta:1,stop_gradient:[true]} : (tensor<-1x8x4xf32>) -> tensor<-1x8x4xf32>"#,
        &["tensor<-1x8x4xf32>"],
    );
}

/// `AffineGridInferMeta`.
#[test]
fn affine_grid() {
    check(
        r#"(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[-1,2,3],stop_gradient:[true]} : () -> tensor<-1x2x3xf32>
(%52) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,3,8,8]} : () -> tensor<4xi64>
(%53) = "pd_op.affine_grid" (%9, %52) {align_corners:true,stop_gradient:[true]} : (tensor<-1x2x3xf32>, tensor<4xi64>) -> tensor<-1x-1x-1x2xf32>"#,
        &["tensor<-1x-1x-1x2xf32>"],
    );
    check(
        r#"(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%54) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,3,4,8,8]} : () -> tensor<5xi64>
(%55) = "pd_op.affine_grid" (%10, %54) {align_corners:true,stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<5xi64>) -> tensor<-1x-1x-1x-1x3xf32>"#,
        &["tensor<-1x-1x-1x-1x3xf32>"],
    );
    check(
        r#"(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[-1,2,3],stop_gradient:[true]} : () -> tensor<-1x2x3xf32>
(%12) = "pd_op.data" () {dtype:int32,name:"v13",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi32>
(%56) = "pd_op.affine_grid" (%11, %12) {align_corners:true,stop_gradient:[true]} : (tensor<-1x2x3xf32>, tensor<4xi32>) -> tensor<-1x-1x-1x-1x3xf32>"#,
        &["tensor<-1x-1x-1x-1x3xf32>"],
    );
}

/// `CSoftmaxWithCrossEntropyInferMeta`.
#[test]
fn c_softmax_with_cross_entropy() {
    check(
        r#"(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf32>
(%19) = "pd_op.data" () {dtype:int64,name:"v20",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%61, %62) = "pd_op.c_softmax_with_cross_entropy" (%18, %19) {ignore_index:-100,nranks:1,rank:0,ring_id:0,stop_gradient:[true,true]} : (tensor<-1x10xf32>, tensor<-1x1xi64>) -> tensor<-1x10xf32>, tensor<-1x1xf32>"#,
        &["tensor<-1x10xf32>", "tensor<-1x1xf32>"],
    );
}

/// `FakeChannelWiseDequantizeMaxAbsInferMeta`.
#[test]
fn fake_channel_wise_dequantize_max_abs() {
    check(
        r#"(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%18) = "builtin.combine" (%8) {stop_gradient:[true]} : (tensor<4xf32>) -> vec[tensor<4xf32>]
(%19) = "pd_op.fake_channel_wise_dequantize_max_abs" (%7, %18) {quant_axis:0,quant_bits:[8],stop_gradient:[true],x_num_col_dims:1} : (tensor<-1x4xf32>, vec[tensor<4xf32>]) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
}

/// `Im2sequenceInferMeta`.
#[test]
fn im2sequence() {
    check(
        r#"(%13) = "pd_op.data" () {dtype:float32,name:"v14",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf32>
(%57) = "pd_op.im2sequence" (%13, <<NULL VALUE>>) {kernels:[2,2],out_stride:[1,1],paddings:[0,0,0,0],stop_gradient:[true],strides:[1,1]} : (tensor<-1x3x8x8xf32>, <<NULL TYPE>>) -> tensor<-1x12xf32>"#,
        &["tensor<-1x12xf32>"],
    );
}

/// `PriorBoxInferMeta`.
#[test]
fn prior_box() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,3,8,9],stop_gradient:[true]} : () -> tensor<-1x3x8x9xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[-1,3,64,64],stop_gradient:[true]} : () -> tensor<-1x3x64x64xf32>
(%44, %45) = "pd_op.prior_box" (%0, %1) {aspect_ratios:[2,0.5],clip:true,flip:true,max_sizes:[64],min_max_aspect_ratios_order:false,min_sizes:[32],offset:0.5,step_h:0,step_w:0,stop_gradient:[true,true],variances:[0.1,0.1,0.2,0.2]} : (tensor<-1x3x8x9xf32>, tensor<-1x3x64x64xf32>) -> tensor<8x9x4x4xf32>, tensor<8x9x4x4xf32>"#,
        &["tensor<8x9x4x4xf32>", "tensor<8x9x4x4xf32>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[-1,3,8,9],stop_gradient:[true]} : () -> tensor<-1x3x8x9xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"v4",place:Place(undefined:0),shape:[-1,3,64,64],stop_gradient:[true]} : () -> tensor<-1x3x64x64xf32>
(%46, %47) = "pd_op.prior_box" (%2, %3) {aspect_ratios:[2],clip:true,flip:false,max_sizes:[],min_max_aspect_ratios_order:false,min_sizes:[32,40],offset:0.5,step_h:0,step_w:0,stop_gradient:[true,true],variances:[0.1,0.1,0.2,0.2]} : (tensor<-1x3x8x9xf32>, tensor<-1x3x64x64xf32>) -> tensor<8x9x4x4xf32>, tensor<8x9x4x4xf32>"#,
        &["tensor<8x9x4x4xf32>", "tensor<8x9x4x4xf32>"],
    );
}

/// `SetInferMeta`.
#[test]
fn set() {
    check(
        r#"(%29) = "pd_op.data" () {dtype:float32,name:"v30",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%30) = "pd_op.data" () {dtype:float32,name:"v31",place:Place(undefined:0),shape:[2,12],stop_gradient:[true]} : () -> tensor<2x12xf32>
(%58) = "pd_op.set" (%29, %30) {dims:[4,6],offset:0,stop_gradient:[true],stride:[6,1]} : (tensor<2x3x4xf32>, tensor<2x12xf32>) -> tensor<4x6xf32>"#,
        &["tensor<4x6xf32>"],
    );
    check(
        r#"(%1) = "pd_op.data" () {dtype:int64,name:"v2",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xi64>
(%2) = "pd_op.data" () {dtype:int64,name:"v3",place:Place(undefined:0),shape:[2,12],stop_gradient:[true]} : () -> tensor<2x12xi64>
(%12) = "pd_op.set_" (%1, %2) {dims:[24],offset:0,stop_gradient:[true],stride:[1]} : (tensor<2x3x4xi64>, tensor<2x12xi64>) -> tensor<24xi64>"#,
        &["tensor<24xi64>"],
    );
}

/// `SwiGLUInferMeta`.
#[test]
fn swi_g_l_u() {
    check(
        r#"(%14) = "pd_op.data" () {dtype:float32,name:"v15",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>
(%58) = "pd_op.swiglu" (%14, <<NULL VALUE>>) {stop_gradient:[true]} : (tensor<-1x8xf32>, <<NULL TYPE>>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%15) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>
(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>
(%59) = "pd_op.swiglu" (%15, %16) {stop_gradient:[true]} : (tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xf32>"#,
        &["tensor<-1x8xf32>"],
    );
}

/// `YoloBoxInferMeta`.
#[test]
fn yolo_box() {
    check(
        r#"(%4) = "pd_op.data" () {dtype:float32,name:"v5",place:Place(undefined:0),shape:[-1,18,8,8],stop_gradient:[true]} : () -> tensor<-1x18x8x8xf32>
(%5) = "pd_op.data" () {dtype:int32,name:"v6",place:Place(undefined:0),shape:[-1,2],stop_gradient:[true]} : () -> tensor<-1x2xi32>
(%48, %49) = "pd_op.yolo_box" (%4, %5) {anchors:[10,13,16,30],class_num:4,clip_bbox:true,conf_thresh:0.01,downsample_ratio:32,iou_aware:false,iou_aware_factor:0.5,scale_x_y:1,stop_gradient:[true,true]} : (tensor<-1x18x8x8xf32>, tensor<-1x2xi32>) -> tensor<-1x128x4xf32>, tensor<-1x128x4xf32>"#,
        &["tensor<-1x128x4xf32>", "tensor<-1x128x4xf32>"],
    );
    check(
        r#"(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[2,20,-1,8],stop_gradient:[true]} : () -> tensor<2x20x-1x8xf32>
(%7) = "pd_op.data" () {dtype:int32,name:"v8",place:Place(undefined:0),shape:[2,2],stop_gradient:[true]} : () -> tensor<2x2xi32>
(%50, %51) = "pd_op.yolo_box" (%6, %7) {anchors:[10,13,16,30],class_num:4,clip_bbox:true,conf_thresh:0.01,downsample_ratio:32,iou_aware:true,iou_aware_factor:0.5,scale_x_y:1,stop_gradient:[true,true]} : (tensor<2x20x-1x8xf32>, tensor<2x2xi32>) -> tensor<2x-1x4xf32>, tensor<2x-1x4xf32>"#,
        &["tensor<2x-1x4xf32>", "tensor<2x-1x4xf32>"],
    );
}
