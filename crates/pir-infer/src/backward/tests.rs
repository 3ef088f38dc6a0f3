//! Gradient, optimizer and collective functions against the types Paddle
//! 3.3.1 printed for the same ops (built with `paddle._pir_ops` in static
//! mode, or by `paddle.static.gradients`).

use crate::testing::{infer_last, types};

#[test]
fn ternary_grad_shares_given_inputs() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d2\",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d3\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float32,name:\"d4\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>\n\
                 (%4, %5, %6) = \"pd_op.addmm_grad\" (%2, %0, %1, %3) {alpha:1,beta:1,stop_gradient:[true,true,true]} : (tensor<-1x5xf64>, tensor<-1x4xf64>, tensor<4x5xf32>, tensor<-1x5xf32>) -> tensor<-1x5xf64>, tensor<-1x4xf64>, tensor<4x5xf32>\n}\n";
    assert_eq!(
        types(t),
        ["tensor<-1x5xf64>", "tensor<-1x4xf64>", "tensor<4x5xf32>"]
    );
}

#[test]
fn ternary_grad_leaves_missing_scale_as_built() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d5\",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d10\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d11\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>\n\
                 (%3, %4, %5) = \"pd_op.batch_norm_grad\" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>, %1, %2, <<NULL VALUE>>, %0) {data_format:\"NCHW\",epsilon:1e-05,is_test:false,momentum:0.9,stop_gradient:[true,true,true],trainable_statistics:false,use_global_stats:false} : (tensor<-1x3x8x8xf64>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<3xf32>, tensor<3xf32>, <<NULL TYPE>>, tensor<-1x3x8x8xf64>) -> tensor<-1x3x8x8xf64>, tensor<0xf32>, tensor<0xf32>\n}\n";
    assert_eq!(
        types(t),
        ["tensor<-1x3x8x8xf64>", "tensor<f32>", "tensor<f32>"]
    );
}

#[test]
fn layer_norm_grad_without_bias() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d14\",place:Place(undefined:0),shape:[-1,7,16],stop_gradient:[true]} : () -> tensor<-1x7x16xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d15\",place:Place(undefined:0),shape:[16],stop_gradient:[true]} : () -> tensor<16xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d16\",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float32,name:\"d17\",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d18\",place:Place(undefined:0),shape:[-1,7,16],stop_gradient:[true]} : () -> tensor<-1x7x16xf64>\n\
                 (%5, %6, %7) = \"pd_op.layer_norm_grad\" (%0, %1, <<NULL VALUE>>, %2, %3, %4) {begin_norm_axis:2,epsilon:1e-05,stop_gradient:[true,true,true]} : (tensor<-1x7x16xf64>, tensor<16xf32>, <<NULL TYPE>>, tensor<-1xf32>, tensor<-1xf32>, tensor<-1x7x16xf64>) -> tensor<-1x7x16xf64>, tensor<16xf32>, tensor<0xf32>\n}\n";
    assert_eq!(
        types(t),
        ["tensor<-1x7x16xf64>", "tensor<16xf32>", "tensor<f32>"]
    );
}

#[test]
fn unary_grad_shares_x() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d23\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:int64,name:\"d24\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xi64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d25\",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>\n\
                 (%3) = \"pd_op.full\" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>\n\
                 (%4) = \"pd_op.gather_grad\" (%0, %1, %2, %3) {stop_gradient:[true]} : (tensor<-1x4xf64>, tensor<3xi64>, tensor<3x4xf32>, tensor<1xi32>) -> tensor<-1x4xf64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x4xf64>"]);
}

#[test]
fn grad_same_with_x_takes_out_grad_dtype() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d33\",place:Place(undefined:0),shape:[-1,4,6],stop_gradient:[true]} : () -> tensor<-1x4x6xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d34\",place:Place(undefined:0),shape:[-1,24],stop_gradient:[true]} : () -> tensor<-1x24xf64>\n\
                 (%2) = \"pd_op.reshape_grad\" (%0, %1) {stop_gradient:[true]} : (tensor<-1x4x6xf32>, tensor<-1x24xf64>) -> tensor<-1x4x6xf64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x4x6xf64>"]);
}

#[test]
fn index_add_grad_like_out_grad() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:int64,name:\"d53\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xi64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d54\",place:Place(undefined:0),shape:[3,5],stop_gradient:[true]} : () -> tensor<3x5xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d55\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf64>\n\
                 (%3, %4) = \"pd_op.index_add_grad\" (%0, %1, %2) {axis:0,stop_gradient:[true,true]} : (tensor<3xi64>, tensor<3x5xf32>, tensor<-1x5xf64>) -> tensor<-1x5xf64>, tensor<3x5xf32>\n}\n";
    assert_eq!(types(t), ["tensor<-1x5xf64>", "tensor<3x5xf32>"]);
}

#[test]
fn real_grad_is_complex() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d51\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf64>\n\
                 (%1) = \"pd_op.real_grad\" (%0) {stop_gradient:[true]} : (tensor<-1x5xf64>) -> tensor<-1x5xc128>\n}\n";
    assert_eq!(types(t), ["tensor<-1x5xc128>"]);
}

#[test]
fn scatter_grad_dtype_of_out_grad() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:int64,name:\"d76\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xi64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d77\",place:Place(undefined:0),shape:[3,5],stop_gradient:[true]} : () -> tensor<3x5xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d78\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>\n\
                 (%3, %4) = \"pd_op.scatter_grad\" (%0, %1, %2) {overwrite:true,stop_gradient:[true,true]} : (tensor<3xi64>, tensor<3x5xf64>, tensor<-1x5xf32>) -> tensor<-1x5xf32>, tensor<3x5xf32>\n}\n";
    assert_eq!(types(t), ["tensor<-1x5xf32>", "tensor<3x5xf32>"]);
}

#[test]
fn pixel_unshuffle_grad_nhwc() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d86\",place:Place(undefined:0),shape:[-1,4,4,12],stop_gradient:[true]} : () -> tensor<-1x4x4x12xf64>\n\
                 (%1) = \"pd_op.pixel_unshuffle_grad\" (%0) {data_format:\"NHWC\",downscale_factor:2,stop_gradient:[true]} : (tensor<-1x4x4x12xf64>) -> tensor<-1x8x8x3xf64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x8x8x3xf64>"]);
}

#[test]
fn prelu_grad_dims_only() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d87\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf64>\n\
                 (%2, %3) = \"pd_op.prelu_grad\" (%0, %1, %0) {data_format:\"NCHW\",mode:\"all\",stop_gradient:[true,true]} : (tensor<-1x4xf64>, tensor<1xf64>, tensor<-1x4xf64>) -> tensor<-1x4xf32>, tensor<1xf32>\n}\n";
    assert_eq!(types(t), ["tensor<-1x4xf32>", "tensor<1xf32>"]);
}

#[test]
fn instance_norm_grad_channel_dims() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d5\",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d88\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d89\",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d90\",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf64>\n\
                 (%4, %5, %6) = \"pd_op.instance_norm_grad\" (%0, %1, <<NULL VALUE>>, %2, %3, %0) {epsilon:1e-05,stop_gradient:[true,true,true]} : (tensor<-1x3x8x8xf64>, tensor<3xf64>, <<NULL TYPE>>, tensor<-1xf64>, tensor<-1xf64>, tensor<-1x3x8x8xf64>) -> tensor<-1x3x8x8xf64>, tensor<3xf32>, tensor<3xf32>\n}\n";
    assert_eq!(
        types(t),
        ["tensor<-1x3x8x8xf64>", "tensor<3xf32>", "tensor<3xf32>"]
    );
}

#[test]
fn transpose_grad_inverts_permutation() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d101\",place:Place(undefined:0),shape:[-1,3,5],stop_gradient:[true]} : () -> tensor<-1x3x5xf64>\n\
                 (%1) = \"pd_op.transpose_grad\" (%0) {perm:[-1,0,1],stop_gradient:[true]} : (tensor<-1x3x5xf64>) -> tensor<3x5x-1xf64>\n}\n";
    assert_eq!(types(t), ["tensor<3x5x-1xf64>"]);
}

#[test]
fn stack_grad_drops_axis() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d103\",place:Place(undefined:0),shape:[-1,4,-1],stop_gradient:[true]} : () -> tensor<-1x4x-1xf64>\n\
                 (%2) = \"builtin.combine\" (%0, %0) {stop_gradient:[true]} : (tensor<-1x4xf64>, tensor<-1x4xf64>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf64>]\n\
                 (%3) = \"pd_op.stack_grad\" (%2, %1) {axis:-1,stop_gradient:[true]} : (vec[tensor<-1x4xf64>,tensor<-1x4xf64>], tensor<-1x4x-1xf64>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf64>]\n}\n";
    assert_eq!(types(t), ["vec[tensor<-1x4xf64>,tensor<-1x4xf64>]"]);
}

#[test]
fn unstack_grad_inserts_count() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf64>\n\
                 (%1) = \"builtin.combine\" (%0, %0) {stop_gradient:[true]} : (tensor<-1x4xf64>, tensor<-1x4xf64>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf64>]\n\
                 (%2) = \"pd_op.unstack_grad\" (%1) {axis:-1,stop_gradient:[true]} : (vec[tensor<-1x4xf64>,tensor<-1x4xf64>]) -> tensor<-1x4x2xf64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x4x2xf64>"]);
}

#[test]
fn multi_dot_grad_float32() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d104\",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d105\",place:Place(undefined:0),shape:[4,5],stop_gradient:[true]} : () -> tensor<4x5xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d106\",place:Place(undefined:0),shape:[3,5],stop_gradient:[true]} : () -> tensor<3x5xf64>\n\
                 (%3) = \"builtin.combine\" (%0, %1) {stop_gradient:[true]} : (tensor<3x4xf64>, tensor<4x5xf64>) -> vec[tensor<3x4xf64>,tensor<4x5xf64>]\n\
                 (%4) = \"pd_op.multi_dot_grad\" (%3, %2) {stop_gradient:[true]} : (vec[tensor<3x4xf64>,tensor<4x5xf64>], tensor<3x5xf64>) -> vec[tensor<3x4xf32>,tensor<4x5xf32>]\n}\n";
    assert_eq!(types(t), ["vec[tensor<3x4xf32>,tensor<4x5xf32>]"]);
}

#[test]
fn concat_grad_shares_each_input() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d111\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>\n\
                 (%2) = \"pd_op.full\" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>\n\
                 (%3) = \"builtin.combine\" (%0, %1) {stop_gradient:[true]} : (tensor<-1x4xf64>, tensor<-1x4xf32>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf32>]\n\
                 (%4) = \"pd_op.concat_grad\" (%3, %0, %2) {stop_gradient:[true]} : (vec[tensor<-1x4xf64>,tensor<-1x4xf32>], tensor<-1x4xf64>, tensor<1xi32>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf32>]\n}\n";
    assert_eq!(types(t), ["vec[tensor<-1x4xf64>,tensor<-1x4xf32>]"]);
}

#[test]
fn bilinear_grad_bias_row() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d140\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d141\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d142\",place:Place(undefined:0),shape:[3,4,5],stop_gradient:[true]} : () -> tensor<3x4x5xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float32,name:\"d143\",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>\n\
                 (%4, %5, %6, %7) = \"pd_op.bilinear_grad\" (%0, %1, %2, %3) {stop_gradient:[true,true,true,true]} : (tensor<-1x4xf64>, tensor<-1x5xf64>, tensor<3x4x5xf64>, tensor<-1x3xf32>) -> tensor<-1x4xf64>, tensor<-1x5xf64>, tensor<3x4x5xf64>, tensor<1x3xf32>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x4xf64>",
            "tensor<-1x5xf64>",
            "tensor<3x4x5xf64>",
            "tensor<1x3xf32>"
        ]
    );
}

#[test]
fn rnn_grad_lists() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d144\",place:Place(undefined:0),shape:[5,-1,8],stop_gradient:[true]} : () -> tensor<5x-1x8xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d145\",place:Place(undefined:0),shape:[1,-1,16],stop_gradient:[true]} : () -> tensor<1x-1x16xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d146\",place:Place(undefined:0),shape:[48,8],stop_gradient:[true]} : () -> tensor<48x8xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float32,name:\"d147\",place:Place(undefined:0),shape:[48,16],stop_gradient:[true]} : () -> tensor<48x16xf32>\n\
                 (%4) = \"pd_op.data\" () {dtype:float32,name:\"d148\",place:Place(undefined:0),shape:[5,-1,16],stop_gradient:[true]} : () -> tensor<5x-1x16xf32>\n\
                 (%5) = \"pd_op.data\" () {dtype:uint8,name:\"d149\",place:Place(undefined:0),shape:[0],stop_gradient:[true]} : () -> tensor<0xu8>\n\
                 (%6) = \"pd_op.data\" () {dtype:uint8,name:\"d150\",place:Place(undefined:0),shape:[0],stop_gradient:[true]} : () -> tensor<0xu8>\n\
                 (%7) = \"pd_op.data\" () {dtype:float32,name:\"d151\",place:Place(undefined:0),shape:[5,-1,16],stop_gradient:[true]} : () -> tensor<5x-1x16xf32>\n\
                 (%8) = \"pd_op.data\" () {dtype:float32,name:\"d152\",place:Place(undefined:0),shape:[1,-1,16],stop_gradient:[true]} : () -> tensor<1x-1x16xf32>\n\
                 (%9) = \"builtin.combine\" (%1) {stop_gradient:[true]} : (tensor<1x-1x16xf32>) -> vec[tensor<1x-1x16xf32>]\n\
                 (%10) = \"builtin.combine\" (%2, %3) {stop_gradient:[true]} : (tensor<48x8xf32>, tensor<48x16xf32>) -> vec[tensor<48x8xf32>,tensor<48x16xf32>]\n\
                 (%11) = \"builtin.combine\" (%8) {stop_gradient:[true]} : (tensor<1x-1x16xf32>) -> vec[tensor<1x-1x16xf32>]\n\
                 (%12, %13, %14) = \"pd_op.rnn_grad\" (%0, %9, %10, <<NULL VALUE>>, %4, %5, %6, %7, %11) {dropout_prob:0,hidden_size:16,input_size:8,is_bidirec:false,is_test:false,mode:\"GRU\",num_layers:1,seed:0,stop_gradient:[true,true,true]} : (tensor<5x-1x8xf32>, vec[tensor<1x-1x16xf32>], vec[tensor<48x8xf32>,tensor<48x16xf32>], <<NULL TYPE>>, tensor<5x-1x16xf32>, tensor<0xu8>, tensor<0xu8>, tensor<5x-1x16xf32>, vec[tensor<1x-1x16xf32>]) -> tensor<5x-1x8xf32>, vec[tensor<1x-1x16xf32>], vec[tensor<48x8xf32>,tensor<48x16xf32>]\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<5x-1x8xf32>",
            "vec[tensor<1x-1x16xf32>]",
            "vec[tensor<48x8xf32>,tensor<48x16xf32>]"
        ]
    );
}

#[test]
fn deformable_conv_grad_without_mask() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d5\",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d137\",place:Place(undefined:0),shape:[-1,18,6,6],stop_gradient:[true]} : () -> tensor<-1x18x6x6xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d138\",place:Place(undefined:0),shape:[6,3,3,3],stop_gradient:[true]} : () -> tensor<6x3x3x3xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d139\",place:Place(undefined:0),shape:[-1,6,6,6],stop_gradient:[true]} : () -> tensor<-1x6x6x6xf64>\n\
                 (%4, %5, %6, %7) = \"pd_op.deformable_conv_grad\" (%0, %1, %2, <<NULL VALUE>>, %3) {deformable_groups:1,dilations:[1,1],groups:1,im2col_step:1,paddings:[0,0],stop_gradient:[true,true,true,true],strides:[1,1]} : (tensor<-1x3x8x8xf64>, tensor<-1x18x6x6xf64>, tensor<6x3x3x3xf64>, <<NULL TYPE>>, tensor<-1x6x6x6xf64>) -> tensor<-1x3x8x8xf64>, tensor<-1x18x6x6xf64>, tensor<6x3x3x3xf64>, tensor<0xf32>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x3x8x8xf64>",
            "tensor<-1x18x6x6xf64>",
            "tensor<6x3x3x3xf64>",
            "tensor<f32>"
        ]
    );
}

#[test]
fn multiply_triple_grad_quinary() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d7\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d8\",place:Place(undefined:0),shape:[4],stop_gradient:[false]} : () -> tensor<4xf64>\n\
                 (%2) = \"pd_op.multiply\" (%0, %1) {stop_gradient:[false]} : (tensor<-1x4xf64>, tensor<4xf64>) -> tensor<-1x4xf64>\n\
                 (%3) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>\n\
                 (%4) = \"pd_op.sum\" (%2, %3) {dtype:Undefined,keepdim:false,stop_gradient:[false]} : (tensor<-1x4xf64>, tensor<0xi64>) -> tensor<f64>\n\
                 (%5) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>\n\
                 (%6) = \"pd_op.full_like\" (%4, %5) {dtype:float64,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f64>, tensor<1xf32>) -> tensor<f64>\n\
                 (%7) = \"pd_op.sum_grad\" (%2, %6, %3) {keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<-1x4xf64>, tensor<f64>, tensor<0xi64>) -> tensor<-1x4xf64>\n\
                 (%8, %9) = \"pd_op.multiply_grad\" (%0, %1, %7) {axis:-1,stop_gradient:[false,false]} : (tensor<-1x4xf64>, tensor<4xf64>, tensor<-1x4xf64>) -> tensor<-1x4xf64>, tensor<4xf64>\n\
                 (%10) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>\n\
                 (%11) = \"pd_op.sum\" (%8, %10) {dtype:Undefined,keepdim:false,stop_gradient:[false]} : (tensor<-1x4xf64>, tensor<0xi64>) -> tensor<f64>\n\
                 (%12) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>\n\
                 (%13) = \"pd_op.sum\" (%9, %12) {dtype:Undefined,keepdim:false,stop_gradient:[false]} : (tensor<4xf64>, tensor<0xi64>) -> tensor<f64>\n\
                 (%14) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>\n\
                 (%15) = \"pd_op.full_like\" (%11, %14) {dtype:float64,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f64>, tensor<1xf32>) -> tensor<f64>\n\
                 (%16) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>\n\
                 (%17) = \"pd_op.full_like\" (%13, %16) {dtype:float64,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f64>, tensor<1xf32>) -> tensor<f64>\n\
                 (%18) = \"pd_op.sum_grad\" (%8, %15, %10) {keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<-1x4xf64>, tensor<f64>, tensor<0xi64>) -> tensor<-1x4xf64>\n\
                 (%19) = \"pd_op.sum_grad\" (%9, %17, %12) {keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<4xf64>, tensor<f64>, tensor<0xi64>) -> tensor<4xf64>\n\
                 (%20, %21, %22) = \"pd_op.multiply_double_grad\" (%0, %1, %7, %18, %19) {axis:-1,stop_gradient:[false,false,false]} : (tensor<-1x4xf64>, tensor<4xf64>, tensor<-1x4xf64>, tensor<-1x4xf64>, tensor<4xf64>) -> tensor<-1x4xf64>, tensor<4xf64>, tensor<-1x4xf64>\n\
                 (%23) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>\n\
                 (%24) = \"pd_op.sum\" (%20, %23) {dtype:Undefined,keepdim:false,stop_gradient:[false]} : (tensor<-1x4xf64>, tensor<0xi64>) -> tensor<f64>\n\
                 (%25) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>\n\
                 (%26) = \"pd_op.sum\" (%21, %25) {dtype:Undefined,keepdim:false,stop_gradient:[false]} : (tensor<4xf64>, tensor<0xi64>) -> tensor<f64>\n\
                 (%27) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>\n\
                 (%28) = \"pd_op.full_like\" (%24, %27) {dtype:float64,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f64>, tensor<1xf32>) -> tensor<f64>\n\
                 (%29) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>\n\
                 (%30) = \"pd_op.full_like\" (%26, %29) {dtype:float64,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f64>, tensor<1xf32>) -> tensor<f64>\n\
                 (%31) = \"pd_op.sum_grad\" (%20, %28, %23) {keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<-1x4xf64>, tensor<f64>, tensor<0xi64>) -> tensor<-1x4xf64>\n\
                 (%32) = \"pd_op.sum_grad\" (%21, %30, %25) {keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<4xf64>, tensor<f64>, tensor<0xi64>) -> tensor<4xf64>\n\
                 (%33) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>\n\
                 (%34) = \"pd_op.full_like\" (%22, %33) {dtype:float64,place:Place(undefined:0),stop_gradient:[false]} : (tensor<-1x4xf64>, tensor<1xf32>) -> tensor<-1x4xf64>\n\
                 (%35, %36, %37, %38, %39) = \"pd_op.multiply_triple_grad\" (%0, %1, %7, %18, %19, %31, %32, %34) {axis:-1,stop_gradient:[false,false,false,false,false]} : (tensor<-1x4xf64>, tensor<4xf64>, tensor<-1x4xf64>, tensor<-1x4xf64>, tensor<4xf64>, tensor<-1x4xf64>, tensor<4xf64>, tensor<-1x4xf64>) -> tensor<-1x4xf64>, tensor<4xf64>, tensor<-1x4xf64>, tensor<-1x4xf64>, tensor<4xf64>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x4xf64>",
            "tensor<4xf64>",
            "tensor<-1x4xf64>",
            "tensor<-1x4xf64>",
            "tensor<4xf64>"
        ]
    );
}

#[test]
fn embedding_grad_like_weight() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:int64,name:\"d7\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xi64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d8\",place:Place(undefined:0),shape:[100,16],stop_gradient:[true]} : () -> tensor<100x16xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d9\",place:Place(undefined:0),shape:[-1,5,16],stop_gradient:[true]} : () -> tensor<-1x5x16xf64>\n\
                 (%3) = \"pd_op.embedding_grad\" (%0, %1, %2) {padding_idx:-1,stop_gradient:[true]} : (tensor<-1x5xi64>, tensor<100x16xf64>, tensor<-1x5x16xf64>) -> tensor<100x16xf64>\n}\n";
    assert_eq!(types(t), ["tensor<100x16xf64>"]);
}

#[test]
fn c_concat_multiplies_last_dim() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,6],stop_gradient:[true]} : () -> tensor<-1x6xf64>\n\
                 (%1) = \"pd_op.c_concat\" (%0) {nranks:2,rank:0,ring_id:0,stop_gradient:[true],use_calc_stream:false,use_model_parallel:false} : (tensor<-1x6xf64>) -> tensor<-1x12xf64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x12xf64>"]);
}

#[test]
fn all_gather_scales_first_dim() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,6],stop_gradient:[true]} : () -> tensor<-1x6xf64>\n\
                 (%1) = \"pd_op.all_gather\" (%0) {nranks:2,ring_id:0,stop_gradient:[true]} : (tensor<-1x6xf64>) -> tensor<-1x6xf64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x6xf64>"]);
}

#[test]
fn reduce_scatter_keeps_unknown() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,6],stop_gradient:[true]} : () -> tensor<-1x6xf64>\n\
                 (%1) = \"pd_op.reduce_scatter\" (%0) {nranks:2,ring_id:0,stop_gradient:[true]} : (tensor<-1x6xf64>) -> tensor<-1x6xf64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x6xf64>"]);
}

#[test]
fn sgd_master_copy_with_multi_precision() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d29\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d30\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d31\",place:Place(undefined:0),shape:[64,-1],stop_gradient:[true]} : () -> tensor<64x-1xf64>\n\
                 (%4, %5) = \"pd_op.sgd_\" (%1, %0, %2, %3) {multi_precision:true,stop_gradient:[true,true]} : (tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf32>, tensor<64x-1xf64>) -> tensor<-1x32xf32>, tensor<64x-1xf64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x32xf32>", "tensor<64x-1xf64>"]);
}

#[test]
fn sgd_master_untouched_without_multi_precision() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d29\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d30\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d31\",place:Place(undefined:0),shape:[64,-1],stop_gradient:[true]} : () -> tensor<64x-1xf64>\n\
                 (%4, %5) = \"pd_op.sgd_\" (%1, %0, %2, %3) {multi_precision:false,stop_gradient:[true,true]} : (tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf32>, tensor<64x-1xf64>) -> tensor<-1x32xf32>, tensor<0xf32>\n}\n";
    assert_eq!(types(t), ["tensor<-1x32xf32>", "tensor<f32>"]);
}

#[test]
fn momentum_param_out_dims_only() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d55\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d56\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float32,name:\"d57\",place:Place(undefined:0),shape:[64,-1],stop_gradient:[true]} : () -> tensor<64x-1xf32>\n\
                 (%4) = \"pd_op.data\" () {dtype:float16,name:\"d58\",place:Place(undefined:0),shape:[64,32],stop_gradient:[true]} : () -> tensor<64x32xf16>\n\
                 (%5, %6, %7) = \"pd_op.momentum_\" (%1, %2, %4, %0, %3) {mu:0.9,multi_precision:true,regularization_coeff:0,regularization_method:\"\",rescale_grad:0,stop_gradient:[true,true,true],use_nesterov:false} : (tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<64x32xf16>, tensor<1xf32>, tensor<64x-1xf32>) -> tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<-1x32xf64>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x32xf32>",
            "tensor<-1x32xf64>",
            "tensor<-1x32xf64>"
        ]
    );
}

#[test]
fn gumbel_softmax_grad_needs_equal_dims() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"a\",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>\n\
             (%1) = \"pd_op.data\" () {dtype:float32,name:\"b\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>\n\
             (%2) = \"pd_op.gumbel_softmax_grad\" (%0, %1) {axis:-1,stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x5xf32>) -> tensor<-1x5xf32>\n}\n";
    assert!(infer_last(t).is_err_and(|e| !e.starts_with("line ")));
}

#[test]
fn sgd_learning_rate_must_have_one_element() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"p\",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>\n\
             (%1) = \"pd_op.data\" () {dtype:float32,name:\"lr\",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>\n\
             (%2, %3) = \"pd_op.sgd_\" (%0, %1, %0, <<NULL VALUE>>) {multi_precision:false,stop_gradient:[true,true]} : (tensor<4xf32>, tensor<-1xf32>, tensor<4xf32>, <<NULL TYPE>>) -> tensor<4xf32>, <<NULL TYPE>>\n}\n";
    assert!(infer_last(t).is_err_and(|e| !e.starts_with("line ")));
}
#[test]
fn adamw_moment2_max_with_amsgrad() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d9\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d10\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float16,name:\"d75\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf16>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d76\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d77\",place:Place(undefined:0),shape:[9],stop_gradient:[true]} : () -> tensor<9xf64>\n\
                 (%6) = \"pd_op.data\" () {dtype:float64,name:\"d78\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf64>\n\
                 (%7) = \"pd_op.data\" () {dtype:float16,name:\"d79\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf16>\n\
                 (%8) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>\n\
                 (%9) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>\n\
                 (%10) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>\n\
                 (%11, %12, %13, %14, %15, %16, %17) = \"pd_op.adamw_\" (%1, %2, %0, %3, %4, %5, %6, %7, <<NULL VALUE>>, <<NULL VALUE>>, %8, %9, %10) {amsgrad:true,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:0,multi_precision:true,stop_gradient:[true,true,true,true,true,true,true],use_global_beta_pow:false,with_decay:true} : (tensor<-1x32xf32>, tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<9xf64>, tensor<2xf64>, tensor<3xf16>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<2xf64>, tensor<3xf16>, <<NULL TYPE>>\n}\n";
    // The master copy is absent (a null result in Paddle); the crate
    // reports results of absent optional inputs as the builder default.
    assert_eq!(
        types(t)[..6],
        [
            "tensor<-1x32xf32>",
            "tensor<-1x32xf16>",
            "tensor<-1x32xf64>",
            "tensor<-1x32xf64>",
            "tensor<2xf64>",
            "tensor<3xf16>"
        ]
    );
}

#[test]
fn adamw_master_copy_with_multi_precision() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d2\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d3\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d4\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float16,name:\"d13\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf16>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d14\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%6) = \"pd_op.data\" () {dtype:float64,name:\"d15\",place:Place(undefined:0),shape:[9],stop_gradient:[true]} : () -> tensor<9xf64>\n\
                 (%7) = \"pd_op.data\" () {dtype:float64,name:\"d16\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf64>\n\
                 (%8) = \"pd_op.data\" () {dtype:float16,name:\"d17\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf16>\n\
                 (%9) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>\n\
                 (%10) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>\n\
                 (%11) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>\n\
                 (%12, %13, %14, %15, %16, %17, %18) = \"pd_op.adamw_\" (%1, %2, %0, %4, %5, %6, %7, %8, %3, <<NULL VALUE>>, %9, %10, %11) {amsgrad:true,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:0,multi_precision:true,stop_gradient:[true,true,true,true,true,true,true],use_global_beta_pow:false,with_decay:true} : (tensor<-1x32xf32>, tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<9xf64>, tensor<2xf64>, tensor<3xf16>, tensor<-1x32xf64>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<2xf64>, tensor<3xf16>, tensor<-1x32xf32>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x32xf32>",
            "tensor<-1x32xf16>",
            "tensor<-1x32xf64>",
            "tensor<-1x32xf64>",
            "tensor<2xf64>",
            "tensor<3xf16>",
            "tensor<-1x32xf32>"
        ]
    );
}

#[test]
fn lamb_param_out_dims_only() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d116\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d117\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float16,name:\"d178\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf16>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d179\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d180\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf64>\n\
                 (%6) = \"pd_op.data\" () {dtype:float16,name:\"d181\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf16>\n\
                 (%7, %8, %9, %10, %11, %12) = \"pd_op.lamb_\" (%1, %2, %0, %3, %4, %5, %6, <<NULL VALUE>>, <<NULL VALUE>>) {always_adapt:false,beta1:0.9,beta2:0.999,epsilon:1e-06,multi_precision:true,stop_gradient:[true,true,true,true,true,true],weight_decay:0.01} : (tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<1xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<2xf64>, tensor<3xf16>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<2xf64>, tensor<3xf16>, <<NULL TYPE>>\n}\n";
    // The master copy is absent (a null result in Paddle); the crate
    // reports results of absent optional inputs as the builder default.
    assert_eq!(
        types(t)[..5],
        [
            "tensor<-1x32xf32>",
            "tensor<-1x32xf16>",
            "tensor<-1x32xf64>",
            "tensor<2xf64>",
            "tensor<3xf16>"
        ]
    );
}

#[test]
fn rmsprop_mean_grad_when_centered() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d9\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d10\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float16,name:\"d65\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf16>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d66\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%5) = \"pd_op.data\" () {dtype:float16,name:\"d67\",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf16>\n\
                 (%6, %7, %8, %9, %10) = \"pd_op.rmsprop_\" (%1, %3, %2, %4, %0, %5, <<NULL VALUE>>) {centered:true,decay:0.9,epsilon:1e-06,momentum:0,multi_precision:true,stop_gradient:[true,true,true,true,true]} : (tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<1xf32>, tensor<5xf16>, <<NULL TYPE>>) -> tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<-1x32xf16>, tensor<-1x32xf16>, <<NULL TYPE>>\n}\n";
    // The master copy is absent (a null result in Paddle); the crate
    // reports results of absent optional inputs as the builder default.
    assert_eq!(
        types(t)[..4],
        [
            "tensor<-1x32xf32>",
            "tensor<-1x32xf64>",
            "tensor<-1x32xf16>",
            "tensor<-1x32xf16>"
        ]
    );
}

#[test]
fn rmsprop_mean_grad_as_built_uncentered() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d9\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d10\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float16,name:\"d68\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf16>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d69\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%5) = \"pd_op.data\" () {dtype:float16,name:\"d70\",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf16>\n\
                 (%6, %7, %8, %9, %10) = \"pd_op.rmsprop_\" (%1, %3, %2, %4, %0, %5, <<NULL VALUE>>) {centered:false,decay:0.9,epsilon:1e-06,momentum:0,multi_precision:true,stop_gradient:[true,true,true,true,true]} : (tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<1xf32>, tensor<5xf16>, <<NULL TYPE>>) -> tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<-1x32xf16>, tensor<0xf32>, <<NULL TYPE>>\n}\n";
    // The master copy is absent (a null result in Paddle); the crate
    // reports results of absent optional inputs as the builder default.
    assert_eq!(
        types(t)[..4],
        [
            "tensor<-1x32xf32>",
            "tensor<-1x32xf64>",
            "tensor<-1x32xf16>",
            "tensor<f32>"
        ]
    );
}

#[test]
fn adagrad_master_as_built_without_multi_precision() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d2\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d3\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d4\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float16,name:\"d23\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf16>\n\
                 (%5, %6, %7) = \"pd_op.adagrad_\" (%1, %2, %4, %0, %3) {epsilon:1e-06,multi_precision:false,stop_gradient:[true,true,true]} : (tensor<-1x32xf32>, tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<1xf32>, tensor<-1x32xf64>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<0xf32>\n}\n";
    assert_eq!(
        types(t),
        ["tensor<-1x32xf32>", "tensor<-1x32xf16>", "tensor<f32>"]
    );
}

#[test]
fn adamax_master_copy() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d2\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d3\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d4\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float16,name:\"d18\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf16>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d19\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%6) = \"pd_op.data\" () {dtype:float64,name:\"d20\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf64>\n\
                 (%7, %8, %9, %10) = \"pd_op.adamax_\" (%1, %2, %0, %4, %5, %6, %3) {beta1:0.9,beta2:0.999,epsilon:1e-08,multi_precision:true,stop_gradient:[true,true,true,true]} : (tensor<-1x32xf32>, tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<1xf64>, tensor<-1x32xf64>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<-1x32xf32>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x32xf32>",
            "tensor<-1x32xf16>",
            "tensor<-1x32xf64>",
            "tensor<-1x32xf32>"
        ]
    );
}

#[test]
fn adadelta_moments_keep_their_types() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d41\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d42\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float16,name:\"d43\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf16>\n\
                 (%4) = \"pd_op.data\" () {dtype:float16,name:\"d60\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf16>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d61\",place:Place(undefined:0),shape:[-1,32],stop_gradient:[true]} : () -> tensor<-1x32xf64>\n\
                 (%6, %7, %8, %9) = \"pd_op.adadelta_\" (%1, %2, %4, %5, %0, %3) {epsilon:1e-06,multi_precision:true,rho:0.95,stop_gradient:[true,true,true,true]} : (tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<1xf32>, tensor<-1x32xf16>) -> tensor<-1x32xf64>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<-1x32xf64>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x32xf64>",
            "tensor<-1x32xf16>",
            "tensor<-1x32xf64>",
            "tensor<-1x32xf64>"
        ]
    );
}

#[test]
fn fft_c2r_grad_halves_last_axis() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d4\",place:Place(undefined:0),shape:[4,9,15],stop_gradient:[true]} : () -> tensor<4x9x15xf32>\n\
                 (%1) = \"pd_op.fft_c2r_grad\" (%0) {axes:[0,1],forward:false,last_dim_size:0,normalization:\"backward\",stop_gradient:[true]} : (tensor<4x9x15xf32>) -> tensor<4x5x15xc64>\n}\n";
    assert_eq!(types(t), ["tensor<4x5x15xc64>"]);
}

#[test]
fn fft_c2r_grad_keeps_unknown() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d2\",place:Place(undefined:0),shape:[-1,8,-1],stop_gradient:[true]} : () -> tensor<-1x8x-1xf32>\n\
                 (%1) = \"pd_op.fft_c2r_grad\" (%0) {axes:[2],forward:false,last_dim_size:0,normalization:\"backward\",stop_gradient:[true]} : (tensor<-1x8x-1xf32>) -> tensor<-1x8x-1xc64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x8x-1xc64>"]);
}

#[test]
fn gru_grad_without_h0_and_bias() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d14\",place:Place(undefined:0),shape:[-1,48],stop_gradient:[true]} : () -> tensor<-1x48xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d15\",place:Place(undefined:0),shape:[16,48],stop_gradient:[true]} : () -> tensor<16x48xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d16\",place:Place(undefined:0),shape:[-1,48],stop_gradient:[true]} : () -> tensor<-1x48xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d17\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d18\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d19\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%6) = \"pd_op.data\" () {dtype:float64,name:\"d20\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%7, %8, %9, %10) = \"pd_op.gru_grad\" (%0, <<NULL VALUE>>, %1, <<NULL VALUE>>, %2, %3, %4, %5, %6) {activation:\"tanh\",gate_activation:\"sigmoid\",is_reverse:false,is_test:false,origin_mode:false,stop_gradient:[true,true,true,true]} : (tensor<-1x48xf64>, <<NULL TYPE>>, tensor<16x48xf64>, <<NULL TYPE>>, tensor<-1x48xf64>, tensor<-1x16xf64>, tensor<-1x16xf64>, tensor<-1x16xf64>, tensor<-1x16xf64>) -> tensor<-1x48xf64>, tensor<0xf32>, tensor<16x48xf64>, tensor<0xf32>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x48xf64>",
            "tensor<f32>",
            "tensor<16x48xf64>",
            "tensor<f32>"
        ]
    );
}

#[test]
fn gru_unit_grad_unknown_width() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d35\",place:Place(undefined:0),shape:[-1,-1],stop_gradient:[true]} : () -> tensor<-1x-1xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d36\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d37\",place:Place(undefined:0),shape:[16,48],stop_gradient:[true]} : () -> tensor<16x48xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d38\",place:Place(undefined:0),shape:[-1,48],stop_gradient:[true]} : () -> tensor<-1x48xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float64,name:\"d39\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d40\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%6, %7, %8, %9) = \"pd_op.gru_unit_grad\" (%0, %1, %2, <<NULL VALUE>>, %3, %4, %5) {activation:2,gate_activation:1,origin_mode:false,stop_gradient:[true,true,true,true]} : (tensor<-1x-1xf64>, tensor<-1x16xf32>, tensor<16x48xf64>, <<NULL TYPE>>, tensor<-1x48xf64>, tensor<-1x16xf64>, tensor<-1x16xf64>) -> tensor<-1x-1xf64>, tensor<-1x16xf32>, tensor<16x48xf64>, tensor<0xf32>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x-1xf64>",
            "tensor<-1x16xf32>",
            "tensor<16x48xf64>",
            "tensor<f32>"
        ]
    );
}

#[test]
fn sequence_conv_grad_trainable_padding() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d41\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d42\",place:Place(undefined:0),shape:[4,8],stop_gradient:[true]} : () -> tensor<4x8xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d43\",place:Place(undefined:0),shape:[24,16],stop_gradient:[true]} : () -> tensor<24x16xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d44\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%4, %5, %6) = \"pd_op.sequence_conv_grad\" (%0, %1, %2, %3) {context_length:3,context_start:-1,context_stride:1,padding_trainable:true,stop_gradient:[true,true,true]} : (tensor<-1x8xf64>, tensor<4x8xf32>, tensor<24x16xf64>, tensor<-1x16xf64>) -> tensor<-1x8xf64>, tensor<4x8xf32>, tensor<24x16xf64>\n}\n";
    assert_eq!(
        types(t),
        ["tensor<-1x8xf64>", "tensor<4x8xf32>", "tensor<24x16xf64>"]
    );
}

#[test]
fn sequence_conv_grad_fixed_padding() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d45\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d46\",place:Place(undefined:0),shape:[4,8],stop_gradient:[true]} : () -> tensor<4x8xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d47\",place:Place(undefined:0),shape:[24,16],stop_gradient:[true]} : () -> tensor<24x16xf64>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d48\",place:Place(undefined:0),shape:[-1,16],stop_gradient:[true]} : () -> tensor<-1x16xf64>\n\
                 (%4, %5, %6) = \"pd_op.sequence_conv_grad\" (%0, %1, %2, %3) {context_length:3,context_start:-1,context_stride:1,padding_trainable:false,stop_gradient:[true,true,true]} : (tensor<-1x8xf64>, tensor<4x8xf32>, tensor<24x16xf64>, tensor<-1x16xf64>) -> tensor<-1x8xf64>, tensor<0xf32>, tensor<24x16xf64>\n}\n";
    assert_eq!(
        types(t),
        ["tensor<-1x8xf64>", "tensor<f32>", "tensor<24x16xf64>"]
    );
}

#[test]
fn trans_layout_grad_inverse() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d76\",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d77\",place:Place(undefined:0),shape:[-1,8,8,3],stop_gradient:[true]} : () -> tensor<-1x8x8x3xf32>\n\
                 (%2) = \"pd_op.trans_layout_grad\" (%0, %1) {perm:[0,2,3,1],stop_gradient:[true]} : (tensor<-1x3x8x8xf64>, tensor<-1x8x8x3xf32>) -> tensor<-1x3x8x8xf32>\n}\n";
    assert_eq!(types(t), ["tensor<-1x3x8x8xf32>"]);
}

#[test]
fn yolo_loss_grad_only_x() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d70\",place:Place(undefined:0),shape:[-1,18,8,8],stop_gradient:[true]} : () -> tensor<-1x18x8x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d71\",place:Place(undefined:0),shape:[-1,5,4],stop_gradient:[true]} : () -> tensor<-1x5x4xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:int32,name:\"d72\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xi32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d73\",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[true]} : () -> tensor<-1x3x8x8xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:int32,name:\"d74\",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xi32>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d75\",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf64>\n\
                 (%6, %7, %8, %9) = \"pd_op.yolo_loss_grad\" (%0, %1, %2, <<NULL VALUE>>, %3, %4, %5) {anchor_mask:[0,1,2],anchors:[10,13,16,30,33,23],class_num:1,downsample_ratio:32,ignore_thresh:0.7,scale_x_y:0,stop_gradient:[true,true,true,true],use_label_smooth:false} : (tensor<-1x18x8x8xf64>, tensor<-1x5x4xf64>, tensor<-1x5xi32>, <<NULL TYPE>>, tensor<-1x3x8x8xf64>, tensor<-1x5xi32>, tensor<-1xf64>) -> tensor<-1x18x8x8xf64>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x18x8x8xf64>",
            "tensor<f32>",
            "tensor<f32>",
            "tensor<f32>"
        ]
    );
}

#[test]
fn c_softmax_grad_dims_only() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:int64,name:\"d2\",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float64,name:\"d3\",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf64>\n\
                 (%3) = \"pd_op.c_softmax_with_cross_entropy_grad\" (%0, %1, %2) {ignore_index:-100,nranks:2,rank:0,ring_id:0,stop_gradient:[true]} : (tensor<-1x10xf64>, tensor<-1x1xi64>, tensor<-1x1xf64>) -> tensor<-1x10xf32>\n}\n";
    assert_eq!(types(t), ["tensor<-1x10xf32>"]);
}
#[test]
fn nadam_master_copy() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d9\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d10\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d11\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d12\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float16,name:\"d13\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf16>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d14\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf64>\n\
                 (%6) = \"pd_op.data\" () {dtype:float16,name:\"d15\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf16>\n\
                 (%7) = \"pd_op.data\" () {dtype:float64,name:\"d16\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%8) = \"pd_op.data\" () {dtype:float16,name:\"d17\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf16>\n\
                 (%9, %10, %11, %12, %13, %14, %15) = \"pd_op.nadam_\" (%0, %1, %2, %3, %4, %5, %6, %7, %8) {beta1:0.9,beta2:0.999,epsilon:1e-08,momentum_decay:0.004,multi_precision:true,stop_gradient:[true,true,true,true,true,true,true]} : (tensor<-1x8xf64>, tensor<-1x8xf64>, tensor<1xf32>, tensor<1xf64>, tensor<2xf16>, tensor<3xf64>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<-1x8xf16>) -> tensor<-1x8xf64>, tensor<1xf64>, tensor<2xf16>, tensor<3xf64>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<-1x8xf64>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x8xf64>",
            "tensor<1xf64>",
            "tensor<2xf16>",
            "tensor<3xf64>",
            "tensor<-1x8xf16>",
            "tensor<-1x8xf64>",
            "tensor<-1x8xf64>"
        ]
    );
}

#[test]
fn radam_master_as_built_without_multi_precision() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d35\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%1) = \"pd_op.data\" () {dtype:float64,name:\"d36\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d37\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d38\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float16,name:\"d39\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf16>\n\
                 (%5) = \"pd_op.data\" () {dtype:float64,name:\"d40\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf64>\n\
                 (%6) = \"pd_op.data\" () {dtype:float16,name:\"d41\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf16>\n\
                 (%7) = \"pd_op.data\" () {dtype:float64,name:\"d42\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%8) = \"pd_op.data\" () {dtype:float16,name:\"d43\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf16>\n\
                 (%9, %10, %11, %12, %13, %14, %15) = \"pd_op.radam_\" (%0, %1, %2, %3, %4, %5, %6, %7, %8) {beta1:0.9,beta2:0.999,epsilon:1e-08,multi_precision:false,stop_gradient:[true,true,true,true,true,true,true]} : (tensor<-1x8xf64>, tensor<-1x8xf64>, tensor<1xf32>, tensor<1xf64>, tensor<2xf16>, tensor<3xf64>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<-1x8xf16>) -> tensor<-1x8xf64>, tensor<1xf64>, tensor<2xf16>, tensor<3xf64>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<0xf32>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x8xf64>",
            "tensor<1xf64>",
            "tensor<2xf16>",
            "tensor<3xf64>",
            "tensor<-1x8xf16>",
            "tensor<-1x8xf64>",
            "tensor<f32>"
        ]
    );
}

#[test]
fn merged_momentum_lists_per_parameter() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d1\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d2\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float32,name:\"d3\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>\n\
                 (%3) = \"pd_op.data\" () {dtype:float32,name:\"d4\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%4) = \"pd_op.data\" () {dtype:float32,name:\"d5\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%5) = \"pd_op.data\" () {dtype:float32,name:\"d6\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>\n\
                 (%6) = \"pd_op.data\" () {dtype:float32,name:\"d7\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%7) = \"pd_op.data\" () {dtype:float32,name:\"d8\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%8) = \"builtin.combine\" (%7) {stop_gradient:[true]} : (tensor<-1x8xf32>) -> vec[tensor<-1x8xf32>]\n\
                 (%9) = \"builtin.combine\" (%0, %1, %2) {stop_gradient:[true]} : (tensor<-1x8xf32>, tensor<3xf32>, tensor<3xf32>) -> vec[tensor<-1x8xf32>,tensor<3xf32>,tensor<3xf32>]\n\
                 (%10) = \"builtin.combine\" (%3) {stop_gradient:[true]} : (tensor<-1x8xf32>) -> vec[tensor<-1x8xf32>]\n\
                 (%11) = \"builtin.combine\" (%4, %5) {stop_gradient:[true]} : (tensor<-1x8xf32>, tensor<3xf32>) -> vec[tensor<-1x8xf32>,tensor<3xf32>]\n\
                 (%12) = \"builtin.combine\" (%6) {stop_gradient:[true]} : (tensor<1xf32>) -> vec[tensor<1xf32>]\n\
                 (%13, %14, %15) = \"pd_op.merged_momentum_\" (%9, %10, %11, %12, %8) {mu:0.9,multi_precision:false,regularization_coeff:[],regularization_method:[],rescale_grad:0,stop_gradient:[true,true,true],use_nesterov:false} : (vec[tensor<-1x8xf32>,tensor<3xf32>,tensor<3xf32>], vec[tensor<-1x8xf32>], vec[tensor<-1x8xf32>,tensor<3xf32>], vec[tensor<1xf32>], vec[tensor<-1x8xf32>]) -> vec[tensor<0xf32>,tensor<0xf32>,tensor<0xf32>], vec[tensor<0xf32>,tensor<0xf32>,tensor<0xf32>], vec[tensor<0xf32>,tensor<0xf32>,tensor<0xf32>]\n}\n";
    assert_eq!(
        types(t),
        [
            "vec[tensor<f32>,tensor<f32>,tensor<f32>]",
            "vec[tensor<f32>,tensor<f32>,tensor<f32>]",
            "vec[tensor<f32>,tensor<f32>,tensor<f32>]"
        ]
    );
}

#[test]
fn rprop_master_copy_in_f32() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"d7\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d8\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:float16,name:\"d9\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf16>\n\
                 (%3) = \"pd_op.data\" () {dtype:float64,name:\"d10\",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf64>\n\
                 (%4) = \"pd_op.data\" () {dtype:float16,name:\"d11\",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf16>\n\
                 (%5) = \"pd_op.data\" () {dtype:float32,name:\"d12\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>\n\
                 (%6) = \"pd_op.data\" () {dtype:float32,name:\"d13\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>\n\
                 (%7, %8, %9, %10) = \"pd_op.rprop_\" (%0, %1, %2, %3, %4, %5, %6) {multi_precision:true,stop_gradient:[true,true,true,true]} : (tensor<-1x8xf32>, tensor<-1x8xf32>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<3xf16>, tensor<2xf32>, tensor<2xf32>) -> tensor<-1x8xf32>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<3xf32>\n}\n";
    assert_eq!(
        types(t),
        [
            "tensor<-1x8xf32>",
            "tensor<-1x8xf16>",
            "tensor<-1x8xf64>",
            "tensor<3xf32>"
        ]
    );
}

#[test]
fn sgd_master_copy_of_bf16_is_f32() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:bfloat16,name:\"d41\",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xbf16>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"d42\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>\n\
                 (%2) = \"pd_op.data\" () {dtype:bfloat16,name:\"d43\",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xbf16>\n\
                 (%3) = \"pd_op.data\" () {dtype:bfloat16,name:\"d44\",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xbf16>\n\
                 (%4, %5) = \"pd_op.sgd_\" (%0, %1, %2, %3) {multi_precision:true,stop_gradient:[true,true]} : (tensor<4xbf16>, tensor<1xf32>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>, tensor<4xf32>\n}\n";
    assert_eq!(types(t), ["tensor<4xbf16>", "tensor<4xf32>"]);
}

#[test]
fn pixel_shuffle_grad_keeps_unknown() {
    let t = "{\n(%0) = \"pd_op.data\" () {dtype:float64,name:\"d1\",place:Place(undefined:0),shape:[-1,3,-1,16],stop_gradient:[true]} : () -> tensor<-1x3x-1x16xf64>\n\
                 (%1) = \"pd_op.pixel_shuffle_grad\" (%0) {data_format:\"NCHW\",stop_gradient:[true],upscale_factor:2} : (tensor<-1x3x-1x16xf64>) -> tensor<-1x12x-1x8xf64>\n}\n";
    assert_eq!(types(t), ["tensor<-1x12x-1x8xf64>"]);
}

/// `PixelUnshuffleGradInferMeta`: an unknown (-1) extent stays unknown.
#[test]
fn pixel_unshuffle_grad_keeps_unknown() {
    crate::testing::check(
        r#"(%0) = "pd_op.data" () {dtype:float64,name:"d",place:Place(undefined:0),shape:[-1,12,-1,4],stop_gradient:[true]} : () -> tensor<-1x12x-1x4xf64>
(%1) = "pd_op.pixel_unshuffle_grad" (%0) {data_format:"NCHW",downscale_factor:2,stop_gradient:[true]} : (tensor<-1x12x-1x4xf64>) -> tensor<-1x3x-1x8xf64>"#,
        &["tensor<-1x3x-1x8xf64>"],
    );
    crate::testing::check(
        r#"(%0) = "pd_op.data" () {dtype:float64,name:"d",place:Place(undefined:0),shape:[-1,-1,4,-1],stop_gradient:[true]} : () -> tensor<-1x-1x4x-1xf64>
(%1) = "pd_op.pixel_unshuffle_grad" (%0) {data_format:"NHWC",downscale_factor:2,stop_gradient:[true]} : (tensor<-1x-1x4x-1xf64>) -> tensor<-1x-1x8x-1xf64>"#,
        &["tensor<-1x-1x8x-1xf64>"],
    );
}
