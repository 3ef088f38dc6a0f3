//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `ChannelShuffleInferMeta`.
#[test]
fn channel_shuffle() {
    check(
        r#"(%7) = "pd_op.data" () {dtype:float32,name:"v8",place:Place(undefined:0),shape:[-1,4,6,3],stop_gradient:[true]} : () -> tensor<-1x4x6x3xf32>
(%79) = "pd_op.channel_shuffle" (%7) {data_format:"NCHW",groups:2,stop_gradient:[true]} : (tensor<-1x4x6x3xf32>) -> tensor<-1x4x6x3xf32>"#,
        &["tensor<-1x4x6x3xf32>"],
    );
    check(
        r#"(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[-1,4,6,4],stop_gradient:[true]} : () -> tensor<-1x4x6x4xf32>
(%80) = "pd_op.channel_shuffle" (%8) {data_format:"NHWC",groups:2,stop_gradient:[true]} : (tensor<-1x4x6x4xf32>) -> tensor<-1x4x6x4xf32>"#,
        &["tensor<-1x4x6x4xf32>"],
    );
}

/// `CheckNumericsInferMeta`.
#[test]
fn check_numerics() {
    check(
        r#"(%31) = "pd_op.data" () {dtype:float32,name:"v32",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%81, %82) = "pd_op.check_numerics" (%31) {check_nan_inf_level:0,op_type:"a",output_dir:"",stack_height_limit:-1,stop_gradient:[true,true],var_name:"b"} : (tensor<-1x3xf32>) -> tensor<3xi64>, tensor<3xf32>"#,
        &["tensor<3xi64>", "tensor<3xf32>"],
    );
}

/// `L1NormInferMeta`.
#[test]
fn l1_norm() {
    check(
        r#"(%32) = "pd_op.data" () {dtype:float32,name:"v33",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%83) = "pd_op.l1_norm" (%32) {stop_gradient:[true]} : (tensor<-1x3xf32>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
}

/// `PadInferMeta`.
#[test]
fn pad() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%70) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
(%71) = "pd_op.pad" (%0, %70) {paddings:[0,0,1,2,3,4],stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<1xf32>) -> tensor<-1x6x11xf32>"#,
        &["tensor<-1x6x11xf32>"],
    );
    check(
        r#"(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%72) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>
(%73) = "pd_op.pad" (%1, %72) {paddings:[1,0,1,2,3,4],stop_gradient:[true]} : (tensor<2x3x4xf32>, tensor<1xf32>) -> tensor<3x6x11xf32>"#,
        &["tensor<3x6x11xf32>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[2,-1,4],stop_gradient:[true]} : () -> tensor<2x-1x4xf32>
(%74) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
(%75) = "pd_op.pad" (%2, %74) {paddings:[0,0,1,2,3,4],stop_gradient:[true]} : (tensor<2x-1x4xf32>, tensor<1xf32>) -> tensor<2x-1x11xf32>"#,
        &["tensor<2x-1x11xf32>"],
    );
}

/// `PixelShuffleInferMeta`.
#[test]
fn pixel_shuffle() {
    check(
        r#"(%3) = "pd_op.data" () {dtype:float32,name:"v4",place:Place(undefined:0),shape:[-1,8,4,6],stop_gradient:[true]} : () -> tensor<-1x8x4x6xf32>
(%76) = "pd_op.pixel_shuffle" (%3) {data_format:"NCHW",stop_gradient:[true],upscale_factor:2} : (tensor<-1x8x4x6xf32>) -> tensor<-1x2x8x12xf32>"#,
        &["tensor<-1x2x8x12xf32>"],
    );
}

/// `PixelUnshuffleInferMeta`.
#[test]
fn pixel_unshuffle() {
    check(
        r#"(%5) = "pd_op.data" () {dtype:float32,name:"v6",place:Place(undefined:0),shape:[-1,2,4,6],stop_gradient:[true]} : () -> tensor<-1x2x4x6xf32>
(%77) = "pd_op.pixel_unshuffle" (%5) {data_format:"NCHW",downscale_factor:2,stop_gradient:[true]} : (tensor<-1x2x4x6xf32>) -> tensor<-1x8x2x3xf32>"#,
        &["tensor<-1x8x2x3xf32>"],
    );
    check(
        r#"(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[-1,4,6,3],stop_gradient:[true]} : () -> tensor<-1x4x6x3xf32>
(%78) = "pd_op.pixel_unshuffle" (%6) {data_format:"NHWC",downscale_factor:2,stop_gradient:[true]} : (tensor<-1x4x6x3xf32>) -> tensor<-1x2x3x12xf32>"#,
        &["tensor<-1x2x3x12xf32>"],
    );
}

/// `RReluInferMeta`.
#[test]
fn r_relu() {
    check(
        r#"(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%81, %82) = "pd_op.rrelu" (%9) {is_test:false,lower:0.1,stop_gradient:[true,true],upper:0.3} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>, tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>", "tensor<-1x4xf32>"],
    );
    check(
        r#"(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%83, %84) = "pd_op.rrelu" (%10) {is_test:true,lower:0.1,stop_gradient:[true,true],upper:0.3} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>, tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>", "tensor<-1x4xf32>"],
    );
}

/// `RepeatInterleaveInferMeta`.
#[test]
fn repeat_interleave() {
    check(
        r#"(%22) = "pd_op.data" () {dtype:float32,name:"v23",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%74) = "pd_op.repeat_interleave" (%22) {axis:1,output_size:-1,repeats:2,stop_gradient:[true]} : (tensor<-1x3x4xf32>) -> tensor<-1x6x4xf32>"#,
        &["tensor<-1x6x4xf32>"],
    );
    check(
        r#"(%23) = "pd_op.data" () {dtype:float32,name:"v24",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%75) = "pd_op.repeat_interleave" (%23) {axis:0,output_size:-1,repeats:2,stop_gradient:[true]} : (tensor<-1x3x4xf32>) -> tensor<-1x3x4xf32>"#,
        &["tensor<-1x3x4xf32>"],
    );
    check(
        r#"(%24) = "pd_op.data" () {dtype:float32,name:"v25",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%76) = "pd_op.repeat_interleave" (%24) {axis:1,output_size:7,repeats:2,stop_gradient:[true]} : (tensor<-1x3x4xf32>) -> tensor<-1x7x4xf32>"#,
        &["tensor<-1x7x4xf32>"],
    );
}

/// `RepeatInterleaveWithTensorIndexInferMeta`.
#[test]
fn repeat_interleave_with_tensor_index() {
    check(
        r#"(%25) = "pd_op.data" () {dtype:float32,name:"v26",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%26) = "pd_op.data" () {dtype:int64,name:"v27",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xi64>
(%77) = "pd_op.repeat_interleave_with_tensor_index" (%25, %26) {axis:1,output_size:-1,stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<3xi64>) -> tensor<-1x-1x4xf32>"#,
        &["tensor<-1x-1x4xf32>"],
    );
    check(
        r#"(%27) = "pd_op.data" () {dtype:float32,name:"v28",place:Place(undefined:0),shape:[-1,3,4],stop_gradient:[true]} : () -> tensor<-1x3x4xf32>
(%28) = "pd_op.data" () {dtype:int64,name:"v29",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xi64>
(%78) = "pd_op.repeat_interleave_with_tensor_index" (%27, %28) {axis:1,output_size:9,stop_gradient:[true]} : (tensor<-1x3x4xf32>, tensor<3xi64>) -> tensor<-1x9x4xf32>"#,
        &["tensor<-1x9x4xf32>"],
    );
}

/// `SequenceSoftmaxInferMeta`.
#[test]
fn sequence_softmax() {
    check(
        r#"(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%58) = "pd_op.sequence_softmax" (%6) {stop_gradient:[true]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>"#,
        &["tensor<-1x3xf32>"],
    );
    check(
        r#"(%3) = "pd_op.data" () {dtype:float64,name:"v4",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf64>
(%46) = "pd_op.sequence_softmax" (%3) {stop_gradient:[true]} : (tensor<-1x3xf64>) -> tensor<-1x3xf32>"#,
        &["tensor<-1x3xf32>"],
    );
}

/// `ShardIndexInferMeta`.
#[test]
fn shard_index() {
    check(
        r#"(%34) = "pd_op.data" () {dtype:int64,name:"v35",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%88) = "pd_op.shard_index" (%34) {ignore_value:-1,index_num:20,nshards:2,shard_id:0,stop_gradient:[true]} : (tensor<-1x1xi64>) -> tensor<-1x1xi64>"#,
        &["tensor<-1x1xi64>"],
    );
}

/// `ShareDataInferMeta`.
#[test]
fn share_data() {
    check(
        r#"(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%85) = "pd_op.share_data" (%11) {stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
}

/// `SquaredL2NormInferMeta`.
#[test]
fn squared_l2_norm() {
    check(
        r#"(%33) = "pd_op.data" () {dtype:float32,name:"v34",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%84) = "pd_op.squared_l2_norm" (%33) {stop_gradient:[true]} : (tensor<-1x3xf32>) -> tensor<1xf32>"#,
        &["tensor<1xf32>"],
    );
}

/// `StdInferMeta`.
#[test]
fn std() {
    check(
        r#"(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%67) = "pd_op.std" (%16) {axis:[1],correction:1,keepdim:false,stop_gradient:[true],unbiased:true} : (tensor<-1x3x8xf32>) -> tensor<-1x8xf32>"#,
        &["tensor<-1x8xf32>"],
    );
    check(
        r#"(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%53) = "pd_op.std" (%9) {axis:[],correction:1,keepdim:false,stop_gradient:[true],unbiased:true} : (tensor<-1x3x8xf32>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
    check(
        r#"(%24) = "pd_op.data" () {dtype:float32,name:"v25",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%97) = "pd_op.std" (%24) {axis:[0,-1],correction:1,keepdim:true,stop_gradient:[true],unbiased:true} : (tensor<-1x3x8xf32>) -> tensor<1x3x1xf32>"#,
        &["tensor<1x3x1xf32>"],
    );
}

/// `TemporalShiftInferMeta`.
#[test]
fn temporal_shift() {
    check(
        r#"(%30) = "pd_op.data" () {dtype:float32,name:"v31",place:Place(undefined:0),shape:[-1,3,4,4],stop_gradient:[true]} : () -> tensor<-1x3x4x4xf32>
(%85) = "pd_op.temporal_shift" (%30) {data_format:"NCHW",seg_num:2,shift_ratio:0.25,stop_gradient:[true]} : (tensor<-1x3x4x4xf32>) -> tensor<-1x3x4x4xf32>"#,
        &["tensor<-1x3x4x4xf32>"],
    );
}

/// `UnfoldInferMeta`.
#[test]
fn unfold() {
    check(
        r#"(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf32>
(%61) = "pd_op.unfold" (%9) {dilations:[1,1],kernel_sizes:[3,3],paddings:[0,0,0,0],stop_gradient:[true],strides:[1,1]} : (tensor<-1x3x8x8xf32>) -> tensor<-1x27x36xf32>"#,
        &["tensor<-1x27x36xf32>"],
    );
    check(
        r#"(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[2,-1,8,-1],stop_gradient:[true]} : () -> tensor<2x-1x8x-1xf32>
(%62) = "pd_op.unfold" (%10) {dilations:[1,1],kernel_sizes:[3,3],paddings:[1,1,1,1],stop_gradient:[true],strides:[1,1]} : (tensor<2x-1x8x-1xf32>) -> tensor<2x-1x-1xf32>"#,
        &["tensor<2x-1x-1xf32>"],
    );
}

/// `UniformRandomBatchSizeLikeInferMeta`.
#[test]
fn uniform_random_batch_size_like() {
    check(
        r#"(%14) = "pd_op.data" () {dtype:float32,name:"v15",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%88) = "pd_op.uniform_random_batch_size_like" (%14) {diag_num:0,diag_step:0,diag_val:1,dtype:float64,input_dim_idx:0,max:1,min:-1,output_dim_idx:0,seed:0,shape:[1,5],stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<-1x5xf64>"#,
        &["tensor<-1x5xf64>"],
    );
    check(
        r#"(%15) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[3,-1],stop_gradient:[true]} : () -> tensor<3x-1xf32>
(%89) = "pd_op.uniform_random_batch_size_like" (%15) {diag_num:0,diag_step:0,diag_val:1,dtype:float32,input_dim_idx:1,max:1,min:-1,output_dim_idx:2,seed:0,shape:[7,5,2],stop_gradient:[true]} : (tensor<3x-1xf32>) -> tensor<7x5x-1xf32>"#,
        &["tensor<7x5x-1xf32>"],
    );
}

/// `UniformRandomInplaceInferMeta`.
#[test]
fn uniform_random_inplace() {
    check(
        r#"(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%86) = "pd_op.uniform_inplace" (%12) {diag_num:0,diag_step:0,diag_val:1,max:1,min:-1,seed:0,stop_gradient:[true]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%13) = "pd_op.data" () {dtype:float64,name:"v14",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf64>
(%87) = "pd_op.uniform_inplace_" (%13) {diag_num:0,diag_step:0,diag_val:1,max:1,min:-1,seed:0,stop_gradient:[true]} : (tensor<-1x4xf64>) -> tensor<-1x4xf64>"#,
        &["tensor<-1x4xf64>"],
    );
}

/// `VarInferMeta`.
#[test]
fn var() {
    check(
        r#"(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%68) = "pd_op.var" (%17) {axis:[],correction:1,keepdim:true,stop_gradient:[true],unbiased:true} : (tensor<-1x3x8xf32>) -> tensor<1x1x1xf32>"#,
        &["tensor<1x1x1xf32>"],
    );
    check(
        r#"(%10) = "pd_op.data" () {dtype:float32,name:"v11",place:Place(undefined:0),shape:[-1,3,8],stop_gradient:[true]} : () -> tensor<-1x3x8xf32>
(%54) = "pd_op.var" (%10) {axis:[-1,0],correction:1,keepdim:true,stop_gradient:[true],unbiased:true} : (tensor<-1x3x8xf32>) -> tensor<1x3x1xf32>"#,
        &["tensor<1x3x1xf32>"],
    );
}

/// `ViewSliceInferMeta`.
#[test]
fn view_slice() {
    check(
        r#"(%20) = "pd_op.data" () {dtype:float32,name:"v21",place:Place(undefined:0),shape:[10,3],stop_gradient:[true]} : () -> tensor<10x3xf32>
(%92) = "pd_op.view_slice" (%20) {begin_idx:2,end_idx:5,stop_gradient:[true]} : (tensor<10x3xf32>) -> tensor<3x3xf32>"#,
        &["tensor<3x3xf32>"],
    );
}

/// `WeightQuantizeInferMeta`.
#[test]
fn weight_quantize() {
    check(
        r#"(%19) = "pd_op.data" () {dtype:float16,name:"v20",place:Place(undefined:0),shape:[64,32],stop_gradient:[true]} : () -> tensor<64x32xf16>
(%90, %91) = "pd_op.weight_quantize" (%19) {algo:"weight_only_int4",arch:80,group_size:64,stop_gradient:[true,true]} : (tensor<64x32xf16>) -> tensor<16x64xi8>, tensor<1x32xf16>"#,
        &["tensor<16x64xi8>", "tensor<1x32xf16>"],
    );
}
