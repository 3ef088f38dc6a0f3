//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `AucInferMeta`.
#[test]
fn auc() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,2],stop_gradient:[true]} : () -> tensor<-1x2xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"v2",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%2) = "pd_op.data" () {dtype:int64,name:"v3",place:Place(undefined:0),shape:[1,8192],stop_gradient:[true]} : () -> tensor<1x8192xi64>
(%3) = "pd_op.data" () {dtype:int64,name:"v4",place:Place(undefined:0),shape:[1,8192],stop_gradient:[true]} : () -> tensor<1x8192xi64>
(%35, %36, %37) = "pd_op.auc" (%0, %1, %2, %3, <<NULL VALUE>>) {curve:"ROC",num_thresholds:8191,slide_steps:0,stop_gradient:[true,true,true]} : (tensor<-1x2xf32>, tensor<-1x1xi64>, tensor<1x8192xi64>, tensor<1x8192xi64>, <<NULL TYPE>>) -> tensor<i64>, tensor<1x8192xi64>, tensor<1x8192xi64>"#,
        &["tensor<i64>", "tensor<1x8192xi64>", "tensor<1x8192xi64>"],
    );
    check(
        r#"(%4) = "pd_op.data" () {dtype:float32,name:"v5",place:Place(undefined:0),shape:[-1,2],stop_gradient:[true]} : () -> tensor<-1x2xf32>
(%5) = "pd_op.data" () {dtype:int64,name:"v6",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%6) = "pd_op.data" () {dtype:int64,name:"v7",place:Place(undefined:0),shape:[16386],stop_gradient:[true]} : () -> tensor<16386xi64>
(%7) = "pd_op.data" () {dtype:int64,name:"v8",place:Place(undefined:0),shape:[16386],stop_gradient:[true]} : () -> tensor<16386xi64>
(%38, %39, %40) = "pd_op.auc" (%4, %5, %6, %7, <<NULL VALUE>>) {curve:"ROC",num_thresholds:4095,slide_steps:3,stop_gradient:[true,true,true]} : (tensor<-1x2xf32>, tensor<-1x1xi64>, tensor<16386xi64>, tensor<16386xi64>, <<NULL TYPE>>) -> tensor<i64>, tensor<16385xi64>, tensor<16385xi64>"#,
        &["tensor<i64>", "tensor<16385xi64>", "tensor<16385xi64>"],
    );
}

/// `BeamSearchInferMeta`.
#[test]
fn beam_search() {
    check(
        r#"(%31) = "pd_op.data" () {dtype:int64,name:"v32",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%32) = "pd_op.data" () {dtype:float32,name:"v33",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf32>
(%33) = "pd_op.data" () {dtype:int64,name:"v34",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xi64>
(%34) = "pd_op.data" () {dtype:float32,name:"v35",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%54, %55, %56) = "pd_op.beam_search" (%31, %32, %33, %34) {beam_size:4,end_id:0,is_accumulated:true,level:0,stop_gradient:[true,true,true]} : (tensor<-1x1xi64>, tensor<-1x1xf32>, tensor<-1x4xi64>, tensor<-1x4xf32>) -> tensor<-1x1xi64>, tensor<-1x1xf32>, tensor<-1xi64>"#,
        &["tensor<-1x1xi64>", "tensor<-1x1xf32>", "tensor<-1xi64>"],
    );
}

/// `BilinearInferMeta`.
#[test]
fn bilinear() {
    check(
        r#"(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[6,4,5],stop_gradient:[true]} : () -> tensor<6x4x5xf32>
(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[1,6],stop_gradient:[true]} : () -> tensor<1x6xf32>
(%41) = "pd_op.bilinear" (%8, %9, %10, %11) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x5xf32>, tensor<6x4x5xf32>, tensor<1x6xf32>) -> tensor<-1x6xf32>"#,
        &["tensor<-1x6xf32>"],
    );
    check(
        r#"(%12) = "pd_op.data" () {dtype:float64,name:"v13",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf64>
(%13) = "pd_op.data" () {dtype:float64,name:"v14",place:Place(undefined:0),shape:[3,5],stop_gradient:[true]} : () -> tensor<3x5xf64>
(%14) = "pd_op.data" () {dtype:float64,name:"v15",place:Place(undefined:0),shape:[6,4,5],stop_gradient:[true]} : () -> tensor<6x4x5xf64>
(%42) = "pd_op.bilinear" (%12, %13, %14, <<NULL VALUE>>) {stop_gradient:[true]} : (tensor<3x4xf64>, tensor<3x5xf64>, tensor<6x4x5xf64>, <<NULL TYPE>>) -> tensor<3x6xf64>"#,
        &["tensor<3x6xf64>"],
    );
}

/// `DistributeFpnProposalsInferMeta`.
#[test]
fn distribute_fpn_proposals() {
    check(
        r#"(%25) = "pd_op.data" () {dtype:float32,name:"v26",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%26) = "pd_op.data" () {dtype:int32,name:"v27",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%45, %46, %47) = "pd_op.distribute_fpn_proposals" (%25, %26) {max_level:5,min_level:2,pixel_offset:true,refer_level:4,refer_scale:224,stop_gradient:[true,true,true]} : (tensor<-1x4xf32>, tensor<-1xi32>) -> vec[tensor<-1x4xf32>,tensor<-1x4xf32>,tensor<-1x4xf32>,tensor<-1x4xf32>], vec[tensor<-1xi32>,tensor<-1xi32>,tensor<-1xi32>,tensor<-1xi32>], tensor<-1x1xi32>"#,
        &[
            "vec[tensor<-1x4xf32>,tensor<-1x4xf32>,tensor<-1x4xf32>,tensor<-1x4xf32>]",
            "vec[tensor<-1xi32>,tensor<-1xi32>,tensor<-1xi32>,tensor<-1xi32>]",
            "tensor<-1x1xi32>",
        ],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%3, %4, %5) = "pd_op.distribute_fpn_proposals" (%0, <<NULL VALUE>>) {max_level:4,min_level:2,pixel_offset:false,refer_level:4,refer_scale:224,stop_gradient:[true,true,true]} : (tensor<-1x4xf32>, <<NULL TYPE>>) -> vec[tensor<-1x4xf32>,tensor<-1x4xf32>,tensor<-1x4xf32>], vec[tensor<-1xi32>,tensor<-1xi32>,tensor<-1xi32>], tensor<-1x1xi32>"#,
        &[
            "vec[tensor<-1x4xf32>,tensor<-1x4xf32>,tensor<-1x4xf32>]",
            "vec[tensor<-1xi32>,tensor<-1xi32>,tensor<-1xi32>]",
            "tensor<-1x1xi32>",
        ],
    );
}

/// `EditDistanceInferMeta`.
#[test]
fn edit_distance() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:int64,name:"v1",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%1) = "pd_op.data" () {dtype:int64,name:"v2",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%13, %14) = "pd_op.edit_distance" (%0, %1, <<NULL VALUE>>, <<NULL VALUE>>) {normalized:false,stop_gradient:[true,true]} : (tensor<-1x1xi64>, tensor<-1x1xi64>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<1xf32>, tensor<-1x1xf32>"#,
        &["tensor<1xf32>", "tensor<-1x1xf32>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:int64,name:"v3",place:Place(undefined:0),shape:[4,7],stop_gradient:[true]} : () -> tensor<4x7xi64>
(%3) = "pd_op.data" () {dtype:int64,name:"v4",place:Place(undefined:0),shape:[4,9],stop_gradient:[true]} : () -> tensor<4x9xi64>
(%4) = "pd_op.data" () {dtype:int64,name:"v5",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi64>
(%5) = "pd_op.data" () {dtype:int64,name:"v6",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi64>
(%15, %16) = "pd_op.edit_distance" (%2, %3, %4, %5) {normalized:true,stop_gradient:[true,true]} : (tensor<4x7xi64>, tensor<4x9xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<1xf32>, tensor<4x9xf32>"#,
        &["tensor<1xf32>", "tensor<4x9xf32>"],
    );
}

/// `MultiDotInferMeta`.
#[test]
fn multi_dot() {
    check(
        r#"(%15) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>
(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[5,6],stop_gradient:[true]} : () -> tensor<5x6xf32>
(%43) = "builtin.combine" (%15, %16, %17) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<4x5xf32>, tensor<5x6xf32>) -> vec[tensor<-1x4xf32>,tensor<4x5xf32>,tensor<5x6xf32>]
(%44) = "pd_op.multi_dot" (%43) {stop_gradient:[true]} : (vec[tensor<-1x4xf32>,tensor<4x5xf32>,tensor<5x6xf32>]) -> tensor<-1x6xf32>"#,
        &["tensor<-1x6xf32>"],
    );
    check(
        r#"(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%19) = "pd_op.data" () {dtype:float32,name:"v20",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>
(%20) = "pd_op.data" () {dtype:float32,name:"v21",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%45) = "builtin.combine" (%18, %19, %20) {stop_gradient:[true]} : (tensor<4xf32>, tensor<4x5xf32>, tensor<5xf32>) -> vec[tensor<4xf32>,tensor<4x5xf32>,tensor<5xf32>]
(%46) = "pd_op.multi_dot" (%45) {stop_gradient:[true]} : (vec[tensor<4xf32>,tensor<4x5xf32>,tensor<5xf32>]) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
    check(
        r#"(%21) = "pd_op.data" () {dtype:float32,name:"v22",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%22) = "pd_op.data" () {dtype:float32,name:"v23",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>
(%47) = "builtin.combine" (%21, %22) {stop_gradient:[true]} : (tensor<4xf32>, tensor<4x5xf32>) -> vec[tensor<4xf32>,tensor<4x5xf32>]
(%48) = "pd_op.multi_dot" (%47) {stop_gradient:[true]} : (vec[tensor<4xf32>,tensor<4x5xf32>]) -> tensor<5xf32>"#,
        &["tensor<5xf32>"],
    );
}

/// `MultiplexInferMeta`.
#[test]
fn multiplex() {
    check(
        r#"(%25) = "pd_op.data" () {dtype:float32,name:"v26",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%26) = "pd_op.data" () {dtype:float32,name:"v27",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%27) = "pd_op.data" () {dtype:int32,name:"v28",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi32>
(%51) = "builtin.combine" (%25, %26) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> vec[tensor<-1x4xf32>,tensor<-1x4xf32>]
(%52) = "pd_op.multiplex" (%51, %27) {stop_gradient:[true]} : (vec[tensor<-1x4xf32>,tensor<-1x4xf32>], tensor<-1x1xi32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[5,4],stop_gradient:[true]} : () -> tensor<5x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[5,4],stop_gradient:[true]} : () -> tensor<5x4xf32>
(%2) = "pd_op.data" () {dtype:int32,name:"v3",place:Place(undefined:0),shape:[3,1],stop_gradient:[true]} : () -> tensor<3x1xi32>
(%23) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<5x4xf32>, tensor<5x4xf32>) -> vec[tensor<5x4xf32>,tensor<5x4xf32>]
(%24) = "pd_op.multiplex" (%23, %2) {stop_gradient:[true]} : (vec[tensor<5x4xf32>,tensor<5x4xf32>], tensor<3x1xi32>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
}

/// `PsroiPoolInferMeta`.
#[test]
fn psroi_pool() {
    check(
        r#"(%28) = "pd_op.data" () {dtype:float32,name:"v29",place:Place(undefined:0),shape:[-1,18,8,8],stop_gradient:[true]} : () -> tensor<-1x18x8x8xf32>
(%29) = "pd_op.data" () {dtype:float32,name:"v30",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%30) = "pd_op.data" () {dtype:int32,name:"v31",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%53) = "pd_op.psroi_pool" (%28, %29, %30) {output_channels:2,pooled_height:3,pooled_width:3,spatial_scale:1,stop_gradient:[true]} : (tensor<-1x18x8x8xf32>, tensor<-1x4xf32>, tensor<-1xi32>) -> tensor<-1x2x3x3xf32>"#,
        &["tensor<-1x2x3x3xf32>"],
    );
}

/// `QuantizeLinearInferMeta`.
#[test]
fn quantize_linear() {
    check(
        r#"(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%8) = "pd_op.data" () {dtype:int32,name:"v9",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi32>
(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%26, %27, %28, %29) = "pd_op.quantize_linear" (%6, %7, %8, %9, %10) {bit_length:8,is_test:false,only_observer:false,qmax:127,qmin:-128,quant_axis:1,round_type:0,stop_gradient:[true,true,true,true]} : (tensor<-1x4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<1xf32>, tensor<1xf32>) -> tensor<-1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<4xf32>"#,
        &[
            "tensor<-1x4xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
            "tensor<4xf32>",
        ],
    );
    check(
        r#"(%76) = "pd_op.data" () {dtype:float32,name:"v77",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%77) = "pd_op.data" () {dtype:float32,name:"v78",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%78) = "pd_op.data" () {dtype:int32,name:"v79",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi32>
(%79) = "pd_op.data" () {dtype:float32,name:"v80",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%80) = "pd_op.data" () {dtype:float32,name:"v81",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%142, %143, %144, %145) = "pd_op.dequantize_linear" (%76, %77, %78, %79, %80) {bit_length:8,is_test:false,only_observer:false,qmax:127,qmin:-128,quant_axis:1,round_type:0,stop_gradient:[true,true,true,true]} : (tensor<-1x4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<1xf32>, tensor<1xf32>) -> tensor<-1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<4xf32>"#,
        &[
            "tensor<-1x4xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
            "tensor<4xf32>",
        ],
    );
}

/// `SendUERecvInferMeta`.
#[test]
fn send_u_e_recv() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%2) = "pd_op.data" () {dtype:int32,name:"v3",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%3) = "pd_op.data" () {dtype:int32,name:"v4",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%31) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]} : () -> tensor<1xi64>
(%32, %33) = "pd_op.send_ue_recv" (%0, %1, %2, %3, %31) {message_op:"ADD",reduce_op:"SUM",stop_gradient:[true,true]} : (tensor<-1x4xf32>, tensor<-1x4xf32>, tensor<-1xi32>, tensor<-1xi32>, tensor<1xi64>) -> tensor<-1x4xf32>, tensor<0xf32>"#,
        &["tensor<-1x4xf32>", "tensor<0xf32>"],
    );
    check(
        r#"(%4) = "pd_op.data" () {dtype:float32,name:"v5",place:Place(undefined:0),shape:[-1,4,1],stop_gradient:[true]} : () -> tensor<-1x4x1xf32>
(%5) = "pd_op.data" () {dtype:float32,name:"v6",place:Place(undefined:0),shape:[-1,1,5],stop_gradient:[true]} : () -> tensor<-1x1x5xf32>
(%6) = "pd_op.data" () {dtype:int32,name:"v7",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%7) = "pd_op.data" () {dtype:int32,name:"v8",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi32>
(%34) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]} : () -> tensor<1xi64>
(%35, %36) = "pd_op.send_ue_recv" (%4, %5, %6, %7, %34) {message_op:"MUL",reduce_op:"MEAN",stop_gradient:[true,true]} : (tensor<-1x4x1xf32>, tensor<-1x1x5xf32>, tensor<-1xi32>, tensor<-1xi32>, tensor<1xi64>) -> tensor<-1x4x5xf32>, tensor<-1xi32>"#,
        &["tensor<-1x4x5xf32>", "tensor<-1xi32>"],
    );
}

/// `SendUVInferMeta`.
#[test]
fn send_u_v() {
    check(
        r#"(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf32>
(%10) = "pd_op.data" () {dtype:int32,name:"v11",place:Place(undefined:0),shape:[7],stop_gradient:[true]} : () -> tensor<7xi32>
(%11) = "pd_op.data" () {dtype:int32,name:"v12",place:Place(undefined:0),shape:[7],stop_gradient:[true]} : () -> tensor<7xi32>
(%37) = "pd_op.send_uv" (%8, %9, %10, %11) {message_op:"ADD",stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x1xf32>, tensor<7xi32>, tensor<7xi32>) -> tensor<7x4xf32>"#,
        &["tensor<7x4xf32>"],
    );
}

/// `YoloLossInferMeta`.
#[test]
fn yolo_loss() {
    check(
        r#"(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[-1,21,8,8],stop_gradient:[true]} : () -> tensor<-1x21x8x8xf32>
(%19) = "pd_op.data" () {dtype:float32,name:"v20",place:Place(undefined:0),shape:[-1,6,4],stop_gradient:[true]} : () -> tensor<-1x6x4xf32>
(%20) = "pd_op.data" () {dtype:int32,name:"v21",place:Place(undefined:0),shape:[-1,6],stop_gradient:[true]} : () -> tensor<-1x6xi32>
(%42, %43, %44) = "pd_op.yolo_loss" (%18, %19, %20, <<NULL VALUE>>) {anchor_mask:[0,1,2],anchors:[10,13,16,30,33,23],class_num:2,downsample_ratio:32,ignore_thresh:0.7,scale_x_y:1,stop_gradient:[true,true,true],use_label_smooth:true} : (tensor<-1x21x8x8xf32>, tensor<-1x6x4xf32>, tensor<-1x6xi32>, <<NULL TYPE>>) -> tensor<-1xf32>, tensor<-1x3x8x8xf32>, tensor<-1x6xf32>"#,
        &["tensor<-1xf32>", "tensor<-1x3x8x8xf32>", "tensor<-1x6xf32>"],
    );
}
