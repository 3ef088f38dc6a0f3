//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `AnchorGeneratorInferMeta`.
#[test]
fn anchor_generator() {
    check(
        r#"(%34) = "pd_op.data" () {dtype:float32,name:"v35",place:Place(undefined:0),shape:[-1,3,8,9],stop_gradient:[true]} : () -> tensor<-1x3x8x9xf32>
(%93, %94) = "pd_op.anchor_generator" (%34) {anchor_sizes:[64,128],aspect_ratios:[0.5,1,2],offset:0.5,stop_gradient:[true,true],stride:[16,16],variances:[0.1,0.1,0.2,0.2]} : (tensor<-1x3x8x9xf32>) -> tensor<8x9x6x4xf32>, tensor<8x9x6x4xf32>"#,
        &["tensor<8x9x6x4xf32>", "tensor<8x9x6x4xf32>"],
    );
}

/// `AsComplexInferMeta`.
#[test]
fn as_complex() {
    check(
        r#"(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[-1,4,2],stop_gradient:[true]} : () -> tensor<-1x4x2xf32>
(%70) = "pd_op.as_complex" (%17) {stop_gradient:[true]} : (tensor<-1x4x2xf32>) -> tensor<-1x4xc64>"#,
        &["tensor<-1x4xc64>"],
    );
    check(
        r#"(%18) = "pd_op.data" () {dtype:float64,name:"v19",place:Place(undefined:0),shape:[-1,4,2],stop_gradient:[true]} : () -> tensor<-1x4x2xf64>
(%71) = "pd_op.as_complex" (%18) {stop_gradient:[true]} : (tensor<-1x4x2xf64>) -> tensor<-1x4xc128>"#,
        &["tensor<-1x4xc128>"],
    );
}

/// `AsRealInferMeta`.
#[test]
fn as_real() {
    check(
        r#"(%16) = "pd_op.data" () {dtype:complex64,name:"v17",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xc64>
(%69) = "pd_op.as_real" (%16) {stop_gradient:[true]} : (tensor<-1x4xc64>) -> tensor<-1x4x2xf32>"#,
        &["tensor<-1x4x2xf32>"],
    );
}

/// `BipartiteMatchInferMeta`.
#[test]
fn bipartite_match() {
    check(
        r#"(%32) = "pd_op.data" () {dtype:float32,name:"v33",place:Place(undefined:0),shape:[-1,7],stop_gradient:[true]} : () -> tensor<-1x7xf32>
(%89, %90) = "pd_op.bipartite_match" (%32) {dist_threshold:0.5,match_type:"bipartite",stop_gradient:[true,true]} : (tensor<-1x7xf32>) -> tensor<-1x7xi32>, tensor<-1x7xf32>"#,
        &["tensor<-1x7xi32>", "tensor<-1x7xf32>"],
    );
}

/// `ClassCenterSampleInferMeta`.
#[test]
fn class_center_sample() {
    check(
        r#"(%33) = "pd_op.data" () {dtype:int64,name:"v34",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%91, %92) = "pd_op.class_center_sample" (%33) {fix_seed:false,nranks:1,num_classes:10,num_samples:5,rank:0,ring_id:0,seed:0,stop_gradient:[true,true]} : (tensor<-1xi64>) -> tensor<-1xi64>, tensor<-1xi64>"#,
        &["tensor<-1xi64>", "tensor<-1xi64>"],
    );
}

/// `CumWithIndicesInferMeta`.
#[test]
fn cum_with_indices() {
    check(
        r#"(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%21, %22) = "pd_op.cummax" (%7) {axis:-1,dtype:int64,stop_gradient:[true,true]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>, tensor<-1x3xi64>"#,
        &["tensor<-1x3xf32>", "tensor<-1x3xi64>"],
    );
    check(
        r#"(%19) = "pd_op.data" () {dtype:float32,name:"v20",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%72, %73) = "pd_op.cummax" (%19) {axis:0,dtype:int32,stop_gradient:[true,true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>, tensor<-1x4xi32>"#,
        &["tensor<-1x4xf32>", "tensor<-1x4xi32>"],
    );
    check(
        r#"(%20) = "pd_op.data" () {dtype:int64,name:"v21",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xi64>
(%74, %75) = "pd_op.cummin" (%20) {axis:-1,dtype:int64,stop_gradient:[true,true]} : (tensor<-1x4xi64>) -> tensor<-1x4xi64>, tensor<-1x4xi64>"#,
        &["tensor<-1x4xi64>", "tensor<-1x4xi64>"],
    );
}

/// `DirichletInferMeta`.
#[test]
fn dirichlet() {
    check(
        r#"(%15) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%68) = "pd_op.dirichlet" (%15) {stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
}

/// `FFTC2CInferMeta`.
#[test]
fn f_f_t_c2_c() {
    check(
        r#"(%25) = "pd_op.data" () {dtype:complex64,name:"v26",place:Place(undefined:0),shape:[5,-1],stop_gradient:[true]} : () -> tensor<5x-1xc64>
(%82) = "pd_op.fft_c2c" (%25) {axes:[1],forward:true,normalization:"backward",stop_gradient:[true]} : (tensor<5x-1xc64>) -> tensor<5x-1xc64>"#,
        &["tensor<5x-1xc64>"],
    );
}

/// `FFTC2RInferMeta`.
#[test]
fn f_f_t_c2_r() {
    check(
        r#"(%26) = "pd_op.data" () {dtype:complex64,name:"v27",place:Place(undefined:0),shape:[5,-1],stop_gradient:[true]} : () -> tensor<5x-1xc64>
(%83) = "pd_op.fft_c2r" (%26) {axes:[1],forward:false,last_dim_size:0,normalization:"backward",stop_gradient:[true]} : (tensor<5x-1xc64>) -> tensor<5x-1xf32>"#,
        &["tensor<5x-1xf32>"],
    );
    check(
        r#"(%27) = "pd_op.data" () {dtype:complex128,name:"v28",place:Place(undefined:0),shape:[5,6],stop_gradient:[true]} : () -> tensor<5x6xc128>
(%84) = "pd_op.fft_c2r" (%27) {axes:[1],forward:false,last_dim_size:0,normalization:"backward",stop_gradient:[true]} : (tensor<5x6xc128>) -> tensor<5x10xf64>"#,
        &["tensor<5x10xf64>"],
    );
    check(
        r#"(%28) = "pd_op.data" () {dtype:complex64,name:"v29",place:Place(undefined:0),shape:[5,6],stop_gradient:[true]} : () -> tensor<5x6xc64>
(%85) = "pd_op.fft_c2r" (%28) {axes:[0,1],forward:false,last_dim_size:7,normalization:"backward",stop_gradient:[true]} : (tensor<5x6xc64>) -> tensor<5x7xf32>"#,
        &["tensor<5x7xf32>"],
    );
}

/// `FFTR2CInferMeta`.
#[test]
fn f_f_t_r2_c() {
    check(
        r#"(%29) = "pd_op.data" () {dtype:float32,name:"v30",place:Place(undefined:0),shape:[5,-1],stop_gradient:[true]} : () -> tensor<5x-1xf32>
(%86) = "pd_op.fft_r2c" (%29) {axes:[1],forward:true,normalization:"backward",onesided:true,stop_gradient:[true]} : (tensor<5x-1xf32>) -> tensor<5x1xc64>"#,
        &["tensor<5x1xc64>"],
    );
    check(
        r#"(%30) = "pd_op.data" () {dtype:float64,name:"v31",place:Place(undefined:0),shape:[5,7],stop_gradient:[true]} : () -> tensor<5x7xf64>
(%87) = "pd_op.fft_r2c" (%30) {axes:[1],forward:true,normalization:"backward",onesided:true,stop_gradient:[true]} : (tensor<5x7xf64>) -> tensor<5x4xc128>"#,
        &["tensor<5x4xc128>"],
    );
    check(
        r#"(%31) = "pd_op.data" () {dtype:float32,name:"v32",place:Place(undefined:0),shape:[5,7],stop_gradient:[true]} : () -> tensor<5x7xf32>
(%88) = "pd_op.fft_r2c" (%31) {axes:[1],forward:true,normalization:"backward",onesided:false,stop_gradient:[true]} : (tensor<5x7xf32>) -> tensor<5x7xc64>"#,
        &["tensor<5x7xc64>"],
    );
}

/// `FakeChannelWiseQuantizeAbsMaxInferMeta`.
#[test]
fn fake_channel_wise_quantize_abs_max() {
    check(
        r#"(%22) = "pd_op.data" () {dtype:float32,name:"v23",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%78, %79) = "pd_op.fake_channel_wise_quantize_abs_max" (%22) {bit_length:8,is_test:false,quant_axis:1,round_type:1,stop_gradient:[true,true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>, tensor<4xf32>"#,
        &["tensor<-1x4xf32>", "tensor<4xf32>"],
    );
}

/// `FakeChannelWiseQuantizeDequantizeAbsMaxInferMeta`.
#[test]
fn fake_channel_wise_quantize_dequantize_abs_max() {
    check(
        r#"(%23) = "pd_op.data" () {dtype:float32,name:"v24",place:Place(undefined:0),shape:[5,-1],stop_gradient:[true]} : () -> tensor<5x-1xf32>
(%80, %81) = "pd_op.fake_channel_wise_quantize_dequantize_abs_max" (%23) {bit_length:8,quant_axis:0,round_type:1,stop_gradient:[true,true]} : (tensor<5x-1xf32>) -> tensor<5x-1xf32>, tensor<5xf32>"#,
        &["tensor<5x-1xf32>", "tensor<5xf32>"],
    );
}

/// `FakeQuantizeAbsMaxInferMeta`.
#[test]
fn fake_quantize_abs_max() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%11, %12) = "pd_op.fake_quantize_abs_max" (%0) {bit_length:8,round_type:1,stop_gradient:[true,true]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>, tensor<1xf32>"#,
        &["tensor<-1x3xf32>", "tensor<1xf32>"],
    );
    check(
        r#"(%21) = "pd_op.data" () {dtype:float32,name:"v22",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%76, %77) = "pd_op.fake_quantize_dequantize_abs_max" (%21) {bit_length:8,round_type:1,stop_gradient:[true,true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>, tensor<1xf32>"#,
        &["tensor<-1x4xf32>", "tensor<1xf32>"],
    );
}

/// `NumberCountInferMeta`.
#[test]
fn number_count() {
    check(
        r#"(%30) = "pd_op.data" () {dtype:int64,name:"v31",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xi64>
(%80) = "pd_op.number_count" (%30) {stop_gradient:[true],upper_range:4} : (tensor<-1x3xi64>) -> tensor<-1x3xi64>"#,
        &["tensor<-1x3xi64>"],
    );
}

/// `ViewShapeInferMeta`.
#[test]
fn view_shape() {
    check(
        r#"(%27) = "pd_op.data" () {dtype:float32,name:"v28",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%56) = "pd_op.view_shape" (%27) {dims:[6,-1],stop_gradient:[true]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>"#,
        &["tensor<6x4xf32>"],
    );
    check(
        r#"(%28) = "pd_op.data" () {dtype:float32,name:"v29",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%57) = "pd_op.view_shape" (%28) {dims:[-1,12],stop_gradient:[true]} : (tensor<-1x3x4xf32>) -> tensor<-1x12xf32>"#,
        &["tensor<-1x12xf32>"],
    );
}
