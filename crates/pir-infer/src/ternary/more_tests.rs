//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `AccuracyInferMeta`.
#[test]
fn accuracy() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"v2",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xi64>
(%2) = "pd_op.data" () {dtype:int64,name:"v3",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%89, %90, %91) = "pd_op.accuracy" (%0, %1, %2) {stop_gradient:[true,true,true]} : (tensor<-1x5xf32>, tensor<-1x5xi64>, tensor<-1x1xi64>) -> tensor<f32>, tensor<f32>, tensor<f32>"#,
        &["tensor<f32>", "tensor<f32>", "tensor<f32>"],
    );
}

/// `AffineChannelInferMeta`.
#[test]
fn affine_channel() {
    check(
        r#"(%64) = "pd_op.data" () {dtype:float32,name:"v65",place:Place(undefined:0),shape:[-1,3,4,4],stop_gradient:[true]} : () -> tensor<-1x3x4x4xf32>
(%65) = "pd_op.data" () {dtype:float32,name:"v66",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%66) = "pd_op.data" () {dtype:float32,name:"v67",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%139) = "pd_op.affine_channel" (%64, %65, %66) {data_layout:"NCHW",stop_gradient:[true]} : (tensor<-1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<-1x3x4x4xf32>"#,
        &["tensor<-1x3x4x4xf32>"],
    );
    check(
        r#"(%21) = "pd_op.data" () {dtype:float32,name:"v22",place:Place(undefined:0),shape:[-1,4,4,3],stop_gradient:[true]} : () -> tensor<-1x4x4x3xf32>
(%22) = "pd_op.data" () {dtype:float32,name:"v23",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%23) = "pd_op.data" () {dtype:float32,name:"v24",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%48) = "pd_op.affine_channel" (%21, %22, %23) {data_layout:"NHWC",stop_gradient:[true]} : (tensor<-1x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<-1x4x4x3xf32>"#,
        &["tensor<-1x4x4x3xf32>"],
    );
    check(
        r#"(%24) = "pd_op.data" () {dtype:float32,name:"v25",place:Place(undefined:0),shape:[-1,4,4,3],stop_gradient:[true]} : () -> tensor<-1x4x4x3xf32>
(%25) = "pd_op.data" () {dtype:float32,name:"v26",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%26) = "pd_op.data" () {dtype:float32,name:"v27",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%49) = "pd_op.affine_channel" (%24, %25, %26) {data_layout:"AnyLayout",stop_gradient:[true]} : (tensor<-1x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<-1x4x4x3xf32>"#,
        &["tensor<-1x4x4x3xf32>"],
    );
}

/// `AssignPosInferMeta`.
#[test]
fn assign_pos() {
    check(
        r#"(%22) = "pd_op.data" () {dtype:int64,name:"v23",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xi64>
(%23) = "pd_op.data" () {dtype:int64,name:"v24",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%24) = "pd_op.data" () {dtype:int64,name:"v25",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%63) = "pd_op.assign_pos" (%22, %23, %24) {stop_gradient:[true]} : (tensor<-1x4xi64>, tensor<-1xi64>, tensor<1xi64>) -> tensor<0xi64>"#,
        &["tensor<0xi64>"],
    );
}

/// `BaddbmmInferMeta`.
#[test]
fn baddbmm() {
    check(
        r#"(%58) = "pd_op.data" () {dtype:float32,name:"v59",place:Place(undefined:0),shape:[-1,3,5],stop_gradient:[true]} : () -> tensor<-1x3x5xf32>
(%59) = "pd_op.data" () {dtype:float32,name:"v60",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%60) = "pd_op.data" () {dtype:float32,name:"v61",place:Place(undefined:0),shape:[-1,4,5],stop_gradient:[true]} : () -> tensor<-1x4x5xf32>
(%138) = "pd_op.baddbmm" (%58, %59, %60) {alpha:1,beta:1,stop_gradient:[true]} : (tensor<-1x3x5xf32>, tensor<-1x3x4xf32>, tensor<-1x4x5xf32>) -> tensor<-1x3x5xf32>"#,
        &["tensor<-1x3x5xf32>"],
    );
    check(
        r#"(%27) = "pd_op.data" () {dtype:float64,name:"v28",place:Place(undefined:0),shape:[-1,3,5],stop_gradient:[true]} : () -> tensor<-1x3x5xf64>
(%28) = "pd_op.data" () {dtype:float64,name:"v29",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf64>
(%29) = "pd_op.data" () {dtype:float64,name:"v30",place:Place(undefined:0),shape:[2,4,5],stop_gradient:[true]} : () -> tensor<2x4x5xf64>
(%50) = "pd_op.baddbmm" (%27, %28, %29) {alpha:1,beta:1,stop_gradient:[true]} : (tensor<-1x3x5xf64>, tensor<2x3x4xf64>, tensor<2x4x5xf64>) -> tensor<2x3x5xf64>"#,
        &["tensor<2x3x5xf64>"],
    );
}

/// `BoxCoderInferMeta`.
#[test]
fn box_coder() {
    check(
        r#"(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%92) = "pd_op.box_coder" (%6, %7, %8) {axis:0,box_normalized:true,code_type:"encode_center_size",stop_gradient:[true],variance:[]} : (tensor<-1x4xf32>, tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x-1x4xf32>"#,
        &["tensor<-1x-1x4xf32>"],
    );
    check(
        r#"(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[-1,7,4],stop_gradient:[true]} : () -> tensor<-1x7x4xf32>
(%93) = "pd_op.box_coder" (%9, <<NULL VALUE>>, %10) {axis:1,box_normalized:true,code_type:"decode_center_size",stop_gradient:[true],variance:[0.1,0.1,0.2,0.2]} : (tensor<-1x4xf32>, <<NULL TYPE>>, tensor<-1x7x4xf32>) -> tensor<-1x7x4xf32>"#,
        &["tensor<-1x7x4xf32>"],
    );
    check(
        r#"(%15) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[5,4],stop_gradient:[true]} : () -> tensor<5x4xf32>
(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[-1,5,4],stop_gradient:[true]} : () -> tensor<-1x5x4xf32>
(%42) = "pd_op.box_coder" (%15, <<NULL VALUE>>, %16) {axis:0,box_normalized:true,code_type:"decode_center_size",stop_gradient:[true],variance:[0.1,0.1,0.2,0.2]} : (tensor<5x4xf32>, <<NULL TYPE>>, tensor<-1x5x4xf32>) -> tensor<-1x5x4xf32>"#,
        &["tensor<-1x5x4xf32>"],
    );
}

/// `CSoftmaxWithMultiLabelCrossEntropyInferMeta`.
#[test]
fn c_softmax_with_multi_label_cross_entropy() {
    check(
        r#"(%28) = "pd_op.data" () {dtype:float32,name:"v29",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf32>
(%29) = "pd_op.data" () {dtype:int64,name:"v30",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi64>
(%30) = "pd_op.data" () {dtype:float32,name:"v31",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%67, %68) = "pd_op.c_softmax_with_multi_label_cross_entropy" (%28, %29, %30) {ignore_index:-100,nranks:1,rank:0,ring_id:0,stop_gradient:[true,true],sum_multi_label_loss:true} : (tensor<-1x10xf32>, tensor<-1x3xi64>, tensor<-1x3xf32>) -> tensor<-1x10xf32>, tensor<-1x1xf32>"#,
        &["tensor<-1x10xf32>", "tensor<-1x1xf32>"],
    );
}

/// `FakeQuantOrWithDequantMovingAverageAbsMaxInferMeta`.
#[test]
fn fake_quant_or_with_dequant_moving_average_abs_max() {
    check(
        r#"(%81) = "pd_op.data" () {dtype:float32,name:"v82",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%82) = "pd_op.data" () {dtype:float32,name:"v83",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%83) = "pd_op.data" () {dtype:float32,name:"v84",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%84) = "pd_op.data" () {dtype:float32,name:"v85",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%146, %147, %148, %149) = "pd_op.fake_quantize_moving_average_abs_max" (%81, %82, %83, %84) {bit_length:8,is_test:false,moving_rate:0.9,round_type:1,stop_gradient:[true,true,true,true]} : (tensor<-1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<-1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>"#,
        &[
            "tensor<-1x4xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
        ],
    );
    check(
        r#"(%85) = "pd_op.data" () {dtype:float32,name:"v86",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%86) = "pd_op.data" () {dtype:float32,name:"v87",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%150, %151, %152, %153) = "pd_op.fake_quantize_dequantize_moving_average_abs_max" (%85, %86, <<NULL VALUE>>, <<NULL VALUE>>) {bit_length:8,is_test:true,moving_rate:0.9,round_type:1,stop_gradient:[true,true,true,true]} : (tensor<-1x4xf32>, tensor<1xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>"#,
        &[
            "tensor<-1x4xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
        ],
    );
}

/// `FakeQuantizeRangeAbsMaxInferMeta`.
#[test]
fn fake_quantize_range_abs_max() {
    check(
        r#"(%50) = "pd_op.data" () {dtype:float32,name:"v51",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%51) = "pd_op.data" () {dtype:float32,name:"v52",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%52) = "pd_op.data" () {dtype:int64,name:"v53",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%132, %133, %134) = "pd_op.fake_quantize_range_abs_max" (%50, %51, %52) {bit_length:8,is_test:false,round_type:1,stop_gradient:[true,true,true],window_size:10000} : (tensor<-1x4xf32>, tensor<1xf32>, tensor<1xi64>) -> tensor<-1x4xf32>, tensor<1xf32>, tensor<10000xf32>"#,
        &["tensor<-1x4xf32>", "tensor<1xf32>", "tensor<10000xf32>"],
    );
    check(
        r#"(%53) = "pd_op.data" () {dtype:float32,name:"v54",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%54) = "pd_op.data" () {dtype:float32,name:"v55",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%135, %136, %137) = "pd_op.fake_quantize_range_abs_max" (%53, %54, <<NULL VALUE>>) {bit_length:8,is_test:true,round_type:1,stop_gradient:[true,true,true],window_size:10000} : (tensor<-1x4xf32>, tensor<1xf32>, <<NULL TYPE>>) -> tensor<-1x4xf32>, tensor<1xf32>, tensor<10000xf32>"#,
        &["tensor<-1x4xf32>", "tensor<1xf32>", "tensor<10000xf32>"],
    );
}

/// `InstanceNormInferMeta`.
#[test]
fn instance_norm() {
    check(
        r#"(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf32>
(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%13) = "pd_op.data" () {dtype:float32,name:"v14",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%94, %95, %96) = "pd_op.instance_norm" (%11, %12, %13) {epsilon:1e-05,stop_gradient:[true,true,true]} : (tensor<-1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<-1x3x8x8xf32>, tensor<-3xf32>, tensor<-3xf32>"#,
        &["tensor<-1x3x8x8xf32>", "tensor<-3xf32>", "tensor<-3xf32>"],
    );
    check(
        r#"(%20) = "pd_op.data" () {dtype:float64,name:"v21",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf64>
(%45, %46, %47) = "pd_op.instance_norm" (%20, <<NULL VALUE>>, <<NULL VALUE>>) {epsilon:1e-05,stop_gradient:[true,true,true]} : (tensor<-1x3x8x8xf64>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x3x8x8xf64>, tensor<-3xf64>, tensor<-3xf64>"#,
        &["tensor<-1x3x8x8xf64>", "tensor<-3xf64>", "tensor<-3xf64>"],
    );
}

/// `LinspaceInferMeta`.
#[test]
fn linspace() {
    check(
        r#"(%97) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
(%98) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
(%99) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xi32>
(%100) = "pd_op.linspace" (%97, %98, %99) {dtype:float64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<-1xf64>"#,
        &["tensor<-1xf64>"],
    );
}

/// `LogspaceInferMeta`.
#[test]
fn logspace() {
    check(
        r#"(%101) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
(%102) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
(%103) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xi32>
(%104) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xf32>
(%105) = "pd_op.logspace" (%101, %102, %103, %104) {dtype:float64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf32>, tensor<1xf32>, tensor<1xi32>, tensor<1xf32>) -> tensor<-1xf64>"#,
        &["tensor<-1xf64>"],
    );
}

/// `MovingAverageAbsMaxScaleInferMeta`.
#[test]
fn moving_average_abs_max_scale() {
    check(
        r#"(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%19) = "pd_op.data" () {dtype:float32,name:"v20",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%109, %110, %111, %112) = "pd_op.moving_average_abs_max_scale" (%17, %18, %19) {is_test:false,moving_rate:0.9,stop_gradient:[true,true,true,true]} : (tensor<-1x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<-1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>"#,
        &[
            "tensor<-1x4xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
        ],
    );
}

/// `MultiClassNMSInferMeta`.
#[test]
fn multi_class_n_m_s() {
    check(
        r#"(%15) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[-1,100,4],stop_gradient:[true]} : () -> tensor<-1x100x4xf32>
(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[-1,3,100],stop_gradient:[true]} : () -> tensor<-1x3x100xf32>
(%106, %107, %108) = "pd_op.multiclass_nms3" (%15, %16, <<NULL VALUE>>) {background_label:0,keep_top_k:5,nms_eta:1,nms_threshold:0.3,nms_top_k:10,normalized:true,score_threshold:0.1,stop_gradient:[true,true,true]} : (tensor<-1x100x4xf32>, tensor<-1x3x100xf32>, <<NULL TYPE>>) -> tensor<-1x6xf32>, tensor<-1x1xi32>, tensor<-1xi32>"#,
        &["tensor<-1x6xf32>", "tensor<-1x1xi32>", "tensor<-1xi32>"],
    );
}

/// `NllLossRawInferMeta`.
#[test]
fn nll_loss_raw() {
    check(
        r#"(%21) = "pd_op.data" () {dtype:float32,name:"v22",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf32>
(%22) = "pd_op.data" () {dtype:int64,name:"v23",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%113, %114) = "pd_op.nll_loss" (%21, %22, <<NULL VALUE>>) {ignore_index:-100,reduction:"mean",stop_gradient:[true,true]} : (tensor<-1x10xf32>, tensor<-1xi64>, <<NULL TYPE>>) -> tensor<f32>, tensor<f32>"#,
        &["tensor<f32>", "tensor<f32>"],
    );
    check(
        r#"(%23) = "pd_op.data" () {dtype:float32,name:"v24",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf32>
(%24) = "pd_op.data" () {dtype:int64,name:"v25",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%115, %116) = "pd_op.nll_loss" (%23, %24, <<NULL VALUE>>) {ignore_index:-100,reduction:"none",stop_gradient:[true,true]} : (tensor<-1x10xf32>, tensor<-1xi64>, <<NULL TYPE>>) -> tensor<-1xf32>, tensor<f32>"#,
        &["tensor<-1xf32>", "tensor<f32>"],
    );
    check(
        r#"(%25) = "pd_op.data" () {dtype:float32,name:"v26",place:Place(undefined:0),shape:[-1,10,4,5],stop_gradient:[true]} : () -> tensor<-1x10x4x5xf32>
(%26) = "pd_op.data" () {dtype:int64,name:"v27",place:Place(undefined:0),shape:[-1,4,5],stop_gradient:[true]} : () -> tensor<-1x4x5xi64>
(%117, %118) = "pd_op.nll_loss" (%25, %26, <<NULL VALUE>>) {ignore_index:-100,reduction:"none",stop_gradient:[true,true]} : (tensor<-1x10x4x5xf32>, tensor<-1x4x5xi64>, <<NULL TYPE>>) -> tensor<-1x4x5xf32>, tensor<f32>"#,
        &["tensor<-1x4x5xf32>", "tensor<f32>"],
    );
}

/// `RoiAlignInferMeta`.
#[test]
fn roi_align() {
    check(
        r#"(%30) = "pd_op.data" () {dtype:float32,name:"v31",place:Place(undefined:0),shape:[-1,3,16,16],stop_gradient:[true]} : () -> tensor<-1x3x16x16xf32>
(%31) = "pd_op.data" () {dtype:float32,name:"v32",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%32) = "pd_op.data" () {dtype:int32,name:"v33",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%119) = "pd_op.roi_align" (%30, %31, %32) {aligned:false,pooled_height:7,pooled_width:7,sampling_ratio:-1,spatial_scale:1,stop_gradient:[true]} : (tensor<-1x3x16x16xf32>, tensor<-1x4xf32>, tensor<-1xi32>) -> tensor<-1x3x7x7xf32>"#,
        &["tensor<-1x3x7x7xf32>"],
    );
}

/// `RoiPoolInferMeta`.
#[test]
fn roi_pool() {
    check(
        r#"(%33) = "pd_op.data" () {dtype:float32,name:"v34",place:Place(undefined:0),shape:[-1,3,16,16],stop_gradient:[true]} : () -> tensor<-1x3x16x16xf32>
(%34) = "pd_op.data" () {dtype:float32,name:"v35",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%35) = "pd_op.data" () {dtype:int32,name:"v36",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%120, %121) = "pd_op.roi_pool" (%33, %34, %35) {pooled_height:7,pooled_width:7,spatial_scale:1,stop_gradient:[true,true]} : (tensor<-1x3x16x16xf32>, tensor<-1x4xf32>, tensor<-1xi32>) -> tensor<-1x3x7x7xf32>, tensor<-1x3x7x7xi64>"#,
        &["tensor<-1x3x7x7xf32>", "tensor<-1x3x7x7xi64>"],
    );
}

/// `SendURecvInferMeta`.
#[test]
fn send_u_recv() {
    check(
        r#"(%36) = "pd_op.data" () {dtype:float32,name:"v37",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%37) = "pd_op.data" () {dtype:int32,name:"v38",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%38) = "pd_op.data" () {dtype:int32,name:"v39",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%122) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]} : () -> tensor<1xi64>
(%123, %124) = "pd_op.send_u_recv" (%36, %37, %38, %122) {reduce_op:"MEAN",stop_gradient:[true,true]} : (tensor<-1x3xf32>, tensor<-1xi32>, tensor<-1xi32>, tensor<1xi64>) -> tensor<-1x3xf32>, tensor<-1xi32>"#,
        &["tensor<-1x3xf32>", "tensor<-1xi32>"],
    );
    check(
        r#"(%39) = "pd_op.data" () {dtype:float32,name:"v40",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%40) = "pd_op.data" () {dtype:int32,name:"v41",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%41) = "pd_op.data" () {dtype:int32,name:"v42",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%125) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[5]} : () -> tensor<1xi64>
(%126, %127) = "pd_op.send_u_recv" (%39, %40, %41, %125) {reduce_op:"SUM",stop_gradient:[true,true]} : (tensor<-1x3xf32>, tensor<-1xi32>, tensor<-1xi32>, tensor<1xi64>) -> tensor<-1x3xf32>, tensor<0xf32>"#,
        &["tensor<-1x3xf32>", "tensor<0xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[10,3],stop_gradient:[true]} : () -> tensor<10x3xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"v2",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%2) = "pd_op.data" () {dtype:int32,name:"v3",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%30) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[5]} : () -> tensor<1xi64>
(%31, %32) = "pd_op.send_u_recv" (%0, %1, %2, %30) {reduce_op:"SUM",stop_gradient:[true,true]} : (tensor<10x3xf32>, tensor<-1xi32>, tensor<-1xi32>, tensor<1xi64>) -> tensor<-1x3xf32>, tensor<0xf32>"#,
        &["tensor<-1x3xf32>", "tensor<0xf32>"],
    );
}

/// `SequenceConvInferMeta`.
#[test]
fn sequence_conv() {
    check(
        r#"(%42) = "pd_op.data" () {dtype:float32,name:"v43",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%43) = "pd_op.data" () {dtype:float32,name:"v44",place:Place(undefined:0),shape:[12,6],stop_gradient:[true]} : () -> tensor<12x6xf32>
(%128) = "pd_op.sequence_conv" (%42, <<NULL VALUE>>, %43) {context_length:3,context_start:-1,context_stride:1,padding_trainable:false,stop_gradient:[true]} : (tensor<-1x4xf32>, <<NULL TYPE>>, tensor<12x6xf32>) -> tensor<-1x6xf32>"#,
        &["tensor<-1x6xf32>"],
    );
}

/// `SpectralNormInferMeta`.
#[test]
fn spectral_norm() {
    check(
        r#"(%44) = "pd_op.data" () {dtype:float32,name:"v45",place:Place(undefined:0),shape:[6,4,3],stop_gradient:[true]} : () -> tensor<6x4x3xf32>
(%45) = "pd_op.data" () {dtype:float32,name:"v46",place:Place(undefined:0),shape:[6],stop_gradient:[true]} : () -> tensor<6xf32>
(%46) = "pd_op.data" () {dtype:float32,name:"v47",place:Place(undefined:0),shape:[12],stop_gradient:[true]} : () -> tensor<12xf32>
(%129) = "pd_op.spectral_norm" (%44, %45, %46) {dim:0,eps:1e-12,power_iters:1,stop_gradient:[true]} : (tensor<6x4x3xf32>, tensor<6xf32>, tensor<12xf32>) -> tensor<6x4x3xf32>"#,
        &["tensor<6x4x3xf32>"],
    );
}

/// `TdmSamplerInferMeta`.
#[test]
fn tdm_sampler() {
    check(
        r#"(%25) = "pd_op.data" () {dtype:int32,name:"v26",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi32>
(%26) = "pd_op.data" () {dtype:int32,name:"v27",place:Place(undefined:0),shape:[10,2],stop_gradient:[true]} : () -> tensor<10x2xi32>
(%27) = "pd_op.data" () {dtype:int32,name:"v28",place:Place(undefined:0),shape:[10,1],stop_gradient:[true]} : () -> tensor<10x1xi32>
(%64, %65, %66) = "pd_op.tdm_sampler" (%25, %26, %27) {dtype:2,layer_offset:[0,2,4],neg_samples_num_list:[1,2],output_positive:true,seed:0,stop_gradient:[true,true,true]} : (tensor<-1x1xi32>, tensor<10x2xi32>, tensor<10x1xi32>) -> tensor<-1x5xi32>, tensor<-1x5xi32>, tensor<-1x5xi32>"#,
        &["tensor<-1x5xi32>", "tensor<-1x5xi32>", "tensor<-1x5xi32>"],
    );
}

/// `ViterbiDecodeInferMeta`.
#[test]
fn viterbi_decode() {
    check(
        r#"(%47) = "pd_op.data" () {dtype:float32,name:"v48",place:Place(undefined:0),shape:[-1,5,4],stop_gradient:[true]} : () -> tensor<-1x5x4xf32>
(%48) = "pd_op.data" () {dtype:float32,name:"v49",place:Place(undefined:0),shape:[4,4],stop_gradient:[true]} : () -> tensor<4x4xf32>
(%49) = "pd_op.data" () {dtype:int64,name:"v50",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%130, %131) = "pd_op.viterbi_decode" (%47, %48, %49) {include_bos_eos_tag:true,stop_gradient:[true,true]} : (tensor<-1x5x4xf32>, tensor<4x4xf32>, tensor<-1xi64>) -> tensor<-1xi64>, tensor<0xf32>"#,
        &["tensor<-1xi64>", "tensor<0xf32>"],
    );
    check(
        r#"(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[2,-1,5],stop_gradient:[true]} : () -> tensor<2x-1x5xf32>
(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[4,4],stop_gradient:[true]} : () -> tensor<4x4xf32>
(%19) = "pd_op.data" () {dtype:int32,name:"v20",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%43, %44) = "pd_op.viterbi_decode" (%17, %18, %19) {include_bos_eos_tag:false,stop_gradient:[true,true]} : (tensor<2x-1x5xf32>, tensor<4x4xf32>, tensor<2xi32>) -> tensor<2xi32>, tensor<0xf32>"#,
        &["tensor<2xi32>", "tensor<0xf32>"],
    );
}
