//! `DeformableConvInferMeta` and `GenerateProposalsV2InferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::{check, program, refusal};

/// `DeformableConvInferMeta`: spatial extents from x and the filter, `-1` where unknown.
#[test]
fn deformable_conv() {
    check(
        r#"(%83) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[2,8,16,16],stop_gradient:[true]} : () -> tensor<2x8x16x16xf32>
(%84) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[2,18,-1,-1],stop_gradient:[true]} : () -> tensor<2x18x-1x-1xf32>
(%85) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[4,8,3,3],stop_gradient:[true]} : () -> tensor<4x8x3x3xf32>
(%99) = "pd_op.deformable_conv" (%83, %84, %85, <<NULL VALUE>>) {deformable_groups:1,dilations:[1,1],groups:1,im2col_step:64,paddings:[1,1],stop_gradient:[true],strides:[1,1]} : (tensor<2x8x16x16xf32>, tensor<2x18x-1x-1xf32>, tensor<4x8x3x3xf32>, <<NULL TYPE>>) -> tensor<2x4x16x16xf32>"#,
        &["tensor<2x4x16x16xf32>"],
    );
    check(
        r#"(%86) = "pd_op.data" () {dtype:float32,name:"v4",place:Place(undefined:0),shape:[-1,8,-1,20],stop_gradient:[true]} : () -> tensor<-1x8x-1x20xf32>
(%87) = "pd_op.data" () {dtype:float32,name:"v5",place:Place(undefined:0),shape:[-1,36,-1,-1],stop_gradient:[true]} : () -> tensor<-1x36x-1x-1xf32>
(%88) = "pd_op.data" () {dtype:float32,name:"v6",place:Place(undefined:0),shape:[16,4,3,3],stop_gradient:[true]} : () -> tensor<16x4x3x3xf32>
(%89) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[-1,18,-1,-1],stop_gradient:[true]} : () -> tensor<-1x18x-1x-1xf32>
(%100) = "pd_op.deformable_conv" (%86, %87, %88, %89) {deformable_groups:2,dilations:[1,1],groups:2,im2col_step:64,paddings:[0,0],stop_gradient:[true],strides:[2,2]} : (tensor<-1x8x-1x20xf32>, tensor<-1x36x-1x-1xf32>, tensor<16x4x3x3xf32>, tensor<-1x18x-1x-1xf32>) -> tensor<-1x16x-1x9xf32>"#,
        &["tensor<-1x16x-1x9xf32>"],
    );
    check(
        r#"(%90) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[1,3,7,9],stop_gradient:[true]} : () -> tensor<1x3x7x9xf32>
(%91) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[1,2,-1,-1],stop_gradient:[true]} : () -> tensor<1x2x-1x-1xf32>
(%92) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[6,3,1,1],stop_gradient:[true]} : () -> tensor<6x3x1x1xf32>
(%101) = "pd_op.deformable_conv" (%90, %91, %92, <<NULL VALUE>>) {deformable_groups:1,dilations:[1,1],groups:1,im2col_step:64,paddings:[0,0],stop_gradient:[true],strides:[1,2]} : (tensor<1x3x7x9xf32>, tensor<1x2x-1x-1xf32>, tensor<6x3x1x1xf32>, <<NULL TYPE>>) -> tensor<1x6x7x5xf32>"#,
        &["tensor<1x6x7x5xf32>"],
    );
    check(
        r#"(%93) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[4,4,32,32],stop_gradient:[true]} : () -> tensor<4x4x32x32xf32>
(%94) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[4,18,-1,-1],stop_gradient:[true]} : () -> tensor<4x18x-1x-1xf32>
(%95) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[8,4,3,3],stop_gradient:[true]} : () -> tensor<8x4x3x3xf32>
(%96) = "pd_op.data" () {dtype:float32,name:"v14",place:Place(undefined:0),shape:[4,9,-1,-1],stop_gradient:[true]} : () -> tensor<4x9x-1x-1xf32>
(%102) = "pd_op.deformable_conv" (%93, %94, %95, %96) {deformable_groups:1,dilations:[2,2],groups:1,im2col_step:64,paddings:[2,2],stop_gradient:[true],strides:[1,1]} : (tensor<4x4x32x32xf32>, tensor<4x18x-1x-1xf32>, tensor<8x4x3x3xf32>, tensor<4x9x-1x-1xf32>) -> tensor<4x8x32x32xf32>"#,
        &["tensor<4x8x32x32xf32>"],
    );
    check(
        r#"(%82) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"create_parameter_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<6x3x3x3xf32>
(%97) = "pd_op.data" () {dtype:float32,name:"v15",place:Place(undefined:0),shape:[2,3,8,8],stop_gradient:[true]} : () -> tensor<2x3x8x8xf32>
(%98) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[2,18,8,8],stop_gradient:[true]} : () -> tensor<2x18x8x8xf32>
(%103) = "pd_op.deformable_conv" (%97, %98, %82, <<NULL VALUE>>) {deformable_groups:1,dilations:[1,1],groups:1,im2col_step:1,paddings:[1,1],stop_gradient:[false],strides:[1,1]} : (tensor<2x3x8x8xf32>, tensor<2x18x8x8xf32>, tensor<6x3x3x3xf32>, <<NULL TYPE>>) -> tensor<2x6x8x8xf32>"#,
        &["tensor<2x6x8x8xf32>"],
    );
    check(
        r#"(%1) = "pd_op.data" () {dtype:float64,name:"v17",place:Place(undefined:0),shape:[2,4,5,5],stop_gradient:[true]} : () -> tensor<2x4x5x5xf64>
(%2) = "pd_op.data" () {dtype:float64,name:"v18",place:Place(undefined:0),shape:[2,18,3,3],stop_gradient:[true]} : () -> tensor<2x18x3x3xf64>
(%3) = "pd_op.data" () {dtype:float64,name:"v19",place:Place(undefined:0),shape:[2,4,3,3],stop_gradient:[true]} : () -> tensor<2x4x3x3xf64>
(%104) = "pd_op.deformable_conv" (%1, %2, %3, <<NULL VALUE>>) {deformable_groups:1,dilations:[1,1],groups:1,im2col_step:1,paddings:[0,0],stop_gradient:[true],strides:[1,1]} : (tensor<2x4x5x5xf64>, tensor<2x18x3x3xf64>, tensor<2x4x3x3xf64>, <<NULL TYPE>>) -> tensor<2x2x3x3xf64>"#,
        &["tensor<2x2x3x3xf64>"],
    );
}

/// `GenerateProposalsV2InferMeta`: `[-1, 4]`, `[-1, 1]`, `[N]`, all float32.
#[test]
fn generate_proposals() {
    check(
        r#"(%4) = "pd_op.data" () {dtype:float32,name:"v20",place:Place(undefined:0),shape:[2,15,10,10],stop_gradient:[true]} : () -> tensor<2x15x10x10xf32>
(%5) = "pd_op.data" () {dtype:float32,name:"v21",place:Place(undefined:0),shape:[2,60,10,10],stop_gradient:[true]} : () -> tensor<2x60x10x10xf32>
(%6) = "pd_op.data" () {dtype:float32,name:"v22",place:Place(undefined:0),shape:[2,2],stop_gradient:[true]} : () -> tensor<2x2xf32>
(%7) = "pd_op.data" () {dtype:float32,name:"v23",place:Place(undefined:0),shape:[10,10,15,4],stop_gradient:[true]} : () -> tensor<10x10x15x4xf32>
(%8) = "pd_op.data" () {dtype:float32,name:"v24",place:Place(undefined:0),shape:[10,10,15,4],stop_gradient:[true]} : () -> tensor<10x10x15x4xf32>
(%105, %106, %107) = "pd_op.generate_proposals" (%4, %5, %6, %7, %8) {eta:1,min_size:0.1,nms_thresh:0.7,pixel_offset:true,post_nms_top_n:1000,pre_nms_top_n:6000,stop_gradient:[true,true,true]} : (tensor<2x15x10x10xf32>, tensor<2x60x10x10xf32>, tensor<2x2xf32>, tensor<10x10x15x4xf32>, tensor<10x10x15x4xf32>) -> tensor<-1x4xf32>, tensor<-1x1xf32>, tensor<2xf32>"#,
        &["tensor<-1x4xf32>", "tensor<-1x1xf32>", "tensor<2xf32>"],
    );
    check(
        r#"(%9) = "pd_op.data" () {dtype:float32,name:"v25",place:Place(undefined:0),shape:[-1,15,10,10],stop_gradient:[true]} : () -> tensor<-1x15x10x10xf32>
(%10) = "pd_op.data" () {dtype:float32,name:"v26",place:Place(undefined:0),shape:[-1,60,10,10],stop_gradient:[true]} : () -> tensor<-1x60x10x10xf32>
(%11) = "pd_op.data" () {dtype:float32,name:"v27",place:Place(undefined:0),shape:[-1,2],stop_gradient:[true]} : () -> tensor<-1x2xf32>
(%12) = "pd_op.data" () {dtype:float32,name:"v28",place:Place(undefined:0),shape:[10,10,15,4],stop_gradient:[true]} : () -> tensor<10x10x15x4xf32>
(%13) = "pd_op.data" () {dtype:float32,name:"v29",place:Place(undefined:0),shape:[10,10,15,4],stop_gradient:[true]} : () -> tensor<10x10x15x4xf32>
(%108, %109, %110) = "pd_op.generate_proposals" (%9, %10, %11, %12, %13) {eta:1,min_size:0.1,nms_thresh:0.7,pixel_offset:true,post_nms_top_n:1000,pre_nms_top_n:6000,stop_gradient:[true,true,true]} : (tensor<-1x15x10x10xf32>, tensor<-1x60x10x10xf32>, tensor<-1x2xf32>, tensor<10x10x15x4xf32>, tensor<10x10x15x4xf32>) -> tensor<-1x4xf32>, tensor<-1x1xf32>, tensor<-1xf32>"#,
        &["tensor<-1x4xf32>", "tensor<-1x1xf32>", "tensor<-1xf32>"],
    );
    check(
        r#"(%14) = "pd_op.data" () {dtype:float64,name:"v30",place:Place(undefined:0),shape:[1,15,10,10],stop_gradient:[true]} : () -> tensor<1x15x10x10xf64>
(%15) = "pd_op.data" () {dtype:float64,name:"v31",place:Place(undefined:0),shape:[1,60,10,10],stop_gradient:[true]} : () -> tensor<1x60x10x10xf64>
(%16) = "pd_op.data" () {dtype:float64,name:"v32",place:Place(undefined:0),shape:[1,2],stop_gradient:[true]} : () -> tensor<1x2xf64>
(%17) = "pd_op.data" () {dtype:float64,name:"v33",place:Place(undefined:0),shape:[10,10,15,4],stop_gradient:[true]} : () -> tensor<10x10x15x4xf64>
(%18) = "pd_op.data" () {dtype:float64,name:"v34",place:Place(undefined:0),shape:[10,10,15,4],stop_gradient:[true]} : () -> tensor<10x10x15x4xf64>
(%111, %112, %113) = "pd_op.generate_proposals" (%14, %15, %16, %17, %18) {eta:1,min_size:0.1,nms_thresh:0.7,pixel_offset:true,post_nms_top_n:1000,pre_nms_top_n:6000,stop_gradient:[true,true,true]} : (tensor<1x15x10x10xf64>, tensor<1x60x10x10xf64>, tensor<1x2xf64>, tensor<10x10x15x4xf64>, tensor<10x10x15x4xf64>) -> tensor<-1x4xf32>, tensor<-1x1xf32>, tensor<1xf32>"#,
        &["tensor<-1x4xf32>", "tensor<-1x1xf32>", "tensor<1xf32>"],
    );
    check(
        r#"(%19) = "pd_op.data" () {dtype:float32,name:"v35",place:Place(undefined:0),shape:[1,3,4,4],stop_gradient:[true]} : () -> tensor<1x3x4x4xf32>
(%20) = "pd_op.data" () {dtype:float32,name:"v36",place:Place(undefined:0),shape:[1,12,4,4],stop_gradient:[true]} : () -> tensor<1x12x4x4xf32>
(%21) = "pd_op.data" () {dtype:float32,name:"v37",place:Place(undefined:0),shape:[1,2],stop_gradient:[true]} : () -> tensor<1x2xf32>
(%22) = "pd_op.data" () {dtype:float32,name:"v38",place:Place(undefined:0),shape:[4,4,3,4],stop_gradient:[true]} : () -> tensor<4x4x3x4xf32>
(%23) = "pd_op.data" () {dtype:float32,name:"v39",place:Place(undefined:0),shape:[4,4,3,4],stop_gradient:[true]} : () -> tensor<4x4x3x4xf32>
(%114, %115, %116) = "pd_op.generate_proposals" (%19, %20, %21, %22, %23) {eta:1,min_size:0.1,nms_thresh:0.5,pixel_offset:false,post_nms_top_n:1000,pre_nms_top_n:6000,stop_gradient:[true,true,true]} : (tensor<1x3x4x4xf32>, tensor<1x12x4x4xf32>, tensor<1x2xf32>, tensor<4x4x3x4xf32>, tensor<4x4x3x4xf32>) -> tensor<-1x4xf32>, tensor<-1x1xf32>, tensor<1xf32>"#,
        &["tensor<-1x4xf32>", "tensor<-1x1xf32>", "tensor<1xf32>"],
    );
}

/// Paddle's refusals of `deformable_conv`.
#[test]
fn deformable_conv_refusals() {
    let attrs =
        "deformable_groups:1,dilations:[1,1],groups:1,im2col_step:64,paddings:[1,1],strides:[1,1]";
    let e = refusal(&program(
        "pd_op.deformable_conv",
        &[
            Some(("float32", "f32", &[2, 8, 16, 16])),
            Some(("float32", "f32", &[2, 18, 16, 16])),
            Some(("float32", "f32", &[4, 4, 3, 3])),
            None,
        ],
        attrs,
        1,
    ));
    assert!(e.contains("The number of input channels should be equal to filter channels * groups. The difference is [8]: [4]"), "{e}");
    let attrs =
        "deformable_groups:1,dilations:[1,1],groups:1,im2col_step:4,paddings:[1,1],strides:[1,1]";
    let e = refusal(&program(
        "pd_op.deformable_conv",
        &[
            Some(("float32", "f32", &[10, 8, 16, 16])),
            Some(("float32", "f32", &[10, 18, 16, 16])),
            Some(("float32", "f32", &[4, 8, 3, 3])),
            None,
        ],
        attrs,
        1,
    ));
    assert!(e.contains("Input batchsize must be smaller than or divide im2col_step. But received Input batchsize:[10], im2col_step:[4]"), "{e}");
    let attrs =
        "deformable_groups:1,dilations:[1,1],groups:1,im2col_step:64,paddings:[0,0],strides:[1,1]";
    let e = refusal(&program(
        "pd_op.deformable_conv",
        &[
            Some(("float32", "f32", &[2, 8, 2, 2])),
            Some(("float32", "f32", &[2, 18, 2, 2])),
            Some(("float32", "f32", &[4, 8, 5, 5])),
            None,
        ],
        attrs,
        1,
    ));
    assert!(e.contains("But received: output's size is -2."), "{e}");
}
