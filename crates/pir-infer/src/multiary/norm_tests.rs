//! `FusedLayerNormInferMeta` cases checked against Paddle 3.3.1: programs
//! Paddle built (its printed IR, trimmed to the op and its operands, here
//! and in `tests/vectors/paddle-3.3.1.txt`) and the result types it printed.

use crate::testing::check;

/// `FusedLayerNormInferMeta`: int8 and float8 for bounds 127 and 448; x's type otherwise.
#[test]
fn fused_layer_norm_quantized() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[2,8,16],stop_gradient:[true]} : () -> tensor<2x8x16xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[2,8,16],stop_gradient:[true]} : () -> tensor<2x8x16xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"v4",place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
(%4) = "pd_op.data" () {dtype:float32,name:"v5",place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
(%14, %15, %16, %17) = "pd_op.fused_bias_residual_layernorm" (%0, %1, %2, %3, %4) {begin_norm_axis:2,epsilon:1e-05,quant_max_bound:127,quant_min_bound:-127,quant_round_type:0,quant_scale:1,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x8x16xi8>, tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>"#,
        &[
            "tensor<2x8x16xi8>",
            "tensor<2x8x16xf32>",
            "tensor<16xf32>",
            "tensor<16xf32>",
        ],
    );
    check(
        r#"(%5) = "pd_op.data" () {dtype:float32,name:"v6",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf32>
(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
(%18, %19, %20, %21) = "pd_op.fused_bias_residual_layernorm" (%5, <<NULL VALUE>>, <<NULL VALUE>>, %6, <<NULL VALUE>>) {begin_norm_axis:1,epsilon:1e-05,quant_max_bound:448,quant_min_bound:-448,quant_round_type:0,quant_scale:1,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<-1x16xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<16xf32>, <<NULL TYPE>>) -> tensor<-1x16xf8e4m3fn>, tensor<-1x16xf32>, tensor<-1xf32>, tensor<-1xf32>"#,
        &[
            "tensor<-1x16xf8e4m3fn>",
            "tensor<-1x16xf32>",
            "tensor<-1xf32>",
            "tensor<-1xf32>",
        ],
    );
    check(
        r#"(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[4,3,16],stop_gradient:[true]} : () -> tensor<4x3x16xf32>
(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[4,3,16],stop_gradient:[true]} : () -> tensor<4x3x16xf32>
(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
(%22, %23, %24, %25) = "pd_op.fused_bias_residual_layernorm" (%7, <<NULL VALUE>>, %8, %9, %10) {begin_norm_axis:2,epsilon:1e-05,quant_max_bound:0,quant_min_bound:0,quant_round_type:0,quant_scale:-1,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<4x3x16xf32>, <<NULL TYPE>>, tensor<4x3x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<12xf32>, tensor<12xf32>"#,
        &[
            "tensor<4x3x16xf32>",
            "tensor<4x3x16xf32>",
            "tensor<12xf32>",
            "tensor<12xf32>",
        ],
    );
    check(
        r#"(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[4,16],stop_gradient:[true]} : () -> tensor<4x16xf32>
(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>
(%26, %27, %28, %29) = "pd_op.fused_bias_residual_layernorm" (%11, <<NULL VALUE>>, <<NULL VALUE>>, %12, <<NULL VALUE>>) {begin_norm_axis:1,epsilon:1e-05,quant_max_bound:5,quant_min_bound:-5,quant_round_type:0,quant_scale:1,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<4x16xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<16xf32>, <<NULL TYPE>>) -> tensor<4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<4xf32>"#,
        &[
            "tensor<4x16xf32>",
            "tensor<4x16xf32>",
            "tensor<4xf32>",
            "tensor<4xf32>",
        ],
    );
    check(
        r#"(%13) = "pd_op.data" () {dtype:float32,name:"v14",place:Place(undefined:0),shape:[4,16],stop_gradient:[true]} : () -> tensor<4x16xf32>
(%30, %31, %32, %33) = "pd_op.fused_bias_residual_layernorm" (%13, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {begin_norm_axis:1,epsilon:1e-05,quant_max_bound:127,quant_min_bound:-127,quant_round_type:0,quant_scale:1,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<4x16xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<4xf32>"#,
        &[
            "tensor<4x16xf32>",
            "tensor<4x16xf32>",
            "tensor<4xf32>",
            "tensor<4xf32>",
        ],
    );
}
/// `FusedLayerNormInferMeta` (Paddle's sampled cases): a negative `begin_norm_axis` gives one row.
#[test]
fn fused_layer_norm() {
    // x:float32[4,-1,2,6]; bias=None; residual:float32[4,-1,2,6]; norm_weight=None; norm_bias=None; epsilon=0.5; residual_alpha=1.0; begin_norm_axis=-2; quant_scale=2.0; quant_round_type=1; quant_max_bound=2.0; quant_min_bound=0.5
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,-1,2,6],stop_gradient:[true]} : () -> tensor<4x-1x2x6xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"residual",place:Place(undefined:0),shape:[4,-1,2,6],stop_gradient:[true]} : () -> tensor<4x-1x2x6xf32>
(%2, %3, %4, %5) = "pd_op.fused_bias_residual_layernorm" (%0, <<NULL VALUE>>, %1, <<NULL VALUE>>, <<NULL VALUE>>) {begin_norm_axis:-2,epsilon:0.5,quant_max_bound:2,quant_min_bound:0.5,quant_round_type:1,quant_scale:2,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<4x-1x2x6xf32>, <<NULL TYPE>>, tensor<4x-1x2x6xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<4x-1x2x6xf32>, tensor<4x-1x2x6xf32>, tensor<1xf32>, tensor<1xf32>"#,
        &[
            "tensor<4x-1x2x6xf32>",
            "tensor<4x-1x2x6xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
        ],
    );
    // x:float32[6,-1]; bias=None; residual:float32[6,-1,4]; norm_weight:float32[5,2,-1,6]; norm_bias=None; epsilon=1.0; residual_alpha=1.0; begin_norm_axis=0; quant_scale=2.0; quant_round_type=1; quant_max_bound=2.0; quant_min_bound=0.5
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[6,-1],stop_gradient:[true]} : () -> tensor<6x-1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"residual",place:Place(undefined:0),shape:[6,-1,4],stop_gradient:[true]} : () -> tensor<6x-1x4xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"norm_weight",place:Place(undefined:0),shape:[5,2,-1,6],stop_gradient:[true]} : () -> tensor<5x2x-1x6xf32>
(%3, %4, %5, %6) = "pd_op.fused_bias_residual_layernorm" (%0, <<NULL VALUE>>, %1, %2, <<NULL VALUE>>) {begin_norm_axis:0,epsilon:1,quant_max_bound:2,quant_min_bound:0.5,quant_round_type:1,quant_scale:2,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<6x-1xf32>, <<NULL TYPE>>, tensor<6x-1x4xf32>, tensor<5x2x-1x6xf32>, <<NULL TYPE>>) -> tensor<6x-1xf32>, tensor<6x-1xf32>, tensor<1xf32>, tensor<1xf32>"#,
        &[
            "tensor<6x-1xf32>",
            "tensor<6x-1xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
        ],
    );
    // x:float32[3,2]; bias:float32[2]; residual:float32[3,2]; norm_weight:float32[3,2]; norm_bias:float32[3,2]; epsilon=1.0; residual_alpha=1.0; begin_norm_axis=1; quant_scale=1.0; quant_round_type=2; quant_max_bound=1.0; quant_min_bound=1.0
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,2],stop_gradient:[true]} : () -> tensor<3x2xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"bias",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>
(%2) = "pd_op.data" () {dtype:float32,name:"residual",place:Place(undefined:0),shape:[3,2],stop_gradient:[true]} : () -> tensor<3x2xf32>
(%3) = "pd_op.data" () {dtype:float32,name:"norm_weight",place:Place(undefined:0),shape:[3,2],stop_gradient:[true]} : () -> tensor<3x2xf32>
(%4) = "pd_op.data" () {dtype:float32,name:"norm_bias",place:Place(undefined:0),shape:[3,2],stop_gradient:[true]} : () -> tensor<3x2xf32>
(%5, %6, %7, %8) = "pd_op.fused_bias_residual_layernorm" (%0, %1, %2, %3, %4) {begin_norm_axis:1,epsilon:1,quant_max_bound:1,quant_min_bound:1,quant_round_type:2,quant_scale:1,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<3x2xf32>, tensor<2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>, tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>"#,
        &[
            "tensor<3x2xf32>",
            "tensor<3x2xf32>",
            "tensor<3xf32>",
            "tensor<3xf32>",
        ],
    );
    // x:float32[]; bias=None; residual=None; norm_weight:float32[]; norm_bias:float32[]; epsilon=2.0; residual_alpha=1.0; begin_norm_axis=0; quant_scale=0.5; quant_round_type=1; quant_max_bound=1.0; quant_min_bound=2.0
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%1) = "pd_op.data" () {dtype:float32,name:"norm_weight",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%2) = "pd_op.data" () {dtype:float32,name:"norm_bias",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%3, %4, %5, %6) = "pd_op.fused_bias_residual_layernorm" (%0, <<NULL VALUE>>, <<NULL VALUE>>, %1, %2) {begin_norm_axis:0,epsilon:2,quant_max_bound:1,quant_min_bound:2,quant_round_type:1,quant_scale:0.5,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<f32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<f32>, tensor<f32>) -> tensor<f32>, tensor<f32>, tensor<1xf32>, tensor<1xf32>"#,
        &[
            "tensor<f32>",
            "tensor<f32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
        ],
    );
    // x:float32[4,-1,3,-1]; bias=None; residual:float32[4,1,3,1]; norm_weight=None; norm_bias=None; epsilon=0.5; residual_alpha=0.5; begin_norm_axis=-4; quant_scale=0.5; quant_round_type=1; quant_max_bound=1.0; quant_min_bound=2.0
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,-1,3,-1],stop_gradient:[true]} : () -> tensor<4x-1x3x-1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"residual",place:Place(undefined:0),shape:[4,1,3,1],stop_gradient:[true]} : () -> tensor<4x1x3x1xf32>
(%2, %3, %4, %5) = "pd_op.fused_bias_residual_layernorm" (%0, <<NULL VALUE>>, %1, <<NULL VALUE>>, <<NULL VALUE>>) {begin_norm_axis:-4,epsilon:0.5,quant_max_bound:1,quant_min_bound:2,quant_round_type:1,quant_scale:0.5,residual_alpha:0.5,stop_gradient:[true,true,true,true]} : (tensor<4x-1x3x-1xf32>, <<NULL TYPE>>, tensor<4x1x3x1xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<4x-1x3x-1xf32>, tensor<4x-1x3x-1xf32>, tensor<1xf32>, tensor<1xf32>"#,
        &[
            "tensor<4x-1x3x-1xf32>",
            "tensor<4x-1x3x-1xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
        ],
    );
    // x:float32[-1,4]; bias=None; residual=None; norm_weight=None; norm_bias=None; epsilon=2.0; residual_alpha=2.0; begin_norm_axis=0; quant_scale=0.5; quant_round_type=0; quant_max_bound=1.0; quant_min_bound=1.0
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%1, %2, %3, %4) = "pd_op.fused_bias_residual_layernorm" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {begin_norm_axis:0,epsilon:2,quant_max_bound:1,quant_min_bound:1,quant_round_type:0,quant_scale:0.5,residual_alpha:2,stop_gradient:[true,true,true,true]} : (tensor<-1x4xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x4xf32>, tensor<-1x4xf32>, tensor<1xf32>, tensor<1xf32>"#,
        &[
            "tensor<-1x4xf32>",
            "tensor<-1x4xf32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
        ],
    );
    // x:float32[]; bias=None; residual=None; norm_weight:float32[]; norm_bias=None; epsilon=1.0; residual_alpha=1.0; begin_norm_axis=0; quant_scale=0.5; quant_round_type=1; quant_max_bound=1.0; quant_min_bound=0.5
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%1) = "pd_op.data" () {dtype:float32,name:"norm_weight",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%2, %3, %4, %5) = "pd_op.fused_bias_residual_layernorm" (%0, <<NULL VALUE>>, <<NULL VALUE>>, %1, <<NULL VALUE>>) {begin_norm_axis:0,epsilon:1,quant_max_bound:1,quant_min_bound:0.5,quant_round_type:1,quant_scale:0.5,residual_alpha:1,stop_gradient:[true,true,true,true]} : (tensor<f32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<f32>, <<NULL TYPE>>) -> tensor<f32>, tensor<f32>, tensor<1xf32>, tensor<1xf32>"#,
        &[
            "tensor<f32>",
            "tensor<f32>",
            "tensor<1xf32>",
            "tensor<1xf32>",
        ],
    );
}
