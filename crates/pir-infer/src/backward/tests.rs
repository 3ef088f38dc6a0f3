//! Gradient and collective functions against the types Paddle
//! 3.3.1 printed for the same ops (built with `paddle._pir_ops` in static
//! mode, or by `paddle.static.gradients`).

use crate::testing::{infer_last, types, with_inputs};

#[test]
fn ternary_grad_shares_given_inputs() {
    let t = with_inputs(
        &[
            ("d1", "float64", &[-1, 4]),
            ("d2", "float32", &[4, 5]),
            ("d3", "float64", &[-1, 5]),
            ("d4", "float32", &[-1, 5]),
        ],
        &[
            r#"(%4, %5, %6) = "pd_op.addmm_grad" (%2, %0, %1, %3) {alpha:1,beta:1,stop_gradient:[true,true,true]} : (tensor<-1x5xf64>, tensor<-1x4xf64>, tensor<4x5xf32>, tensor<-1x5xf32>) -> tensor<-1x5xf64>, tensor<-1x4xf64>, tensor<4x5xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
        ["tensor<-1x5xf64>", "tensor<-1x4xf64>", "tensor<4x5xf32>"]
    );
}

#[test]
fn ternary_grad_leaves_missing_scale_as_built() {
    let t = with_inputs(
        &[
            ("d5", "float64", &[-1, 3, 8, 8]),
            ("d10", "float32", &[3]),
            ("d11", "float32", &[3]),
        ],
        &[
            r#"(%3, %4, %5) = "pd_op.batch_norm_grad" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>, %1, %2, <<NULL VALUE>>, %0) {data_format:"NCHW",epsilon:1e-05,is_test:false,momentum:0.9,stop_gradient:[true,true,true],trainable_statistics:false,use_global_stats:false} : (tensor<-1x3x8x8xf64>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<3xf32>, tensor<3xf32>, <<NULL TYPE>>, tensor<-1x3x8x8xf64>) -> tensor<-1x3x8x8xf64>, tensor<0xf32>, tensor<0xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
        ["tensor<-1x3x8x8xf64>", "tensor<f32>", "tensor<f32>"]
    );
}

#[test]
fn layer_norm_grad_without_bias() {
    let t = with_inputs(
        &[
            ("d14", "float64", &[-1, 7, 16]),
            ("d15", "float32", &[16]),
            ("d16", "float32", &[-1]),
            ("d17", "float32", &[-1]),
            ("d18", "float64", &[-1, 7, 16]),
        ],
        &[
            r#"(%5, %6, %7) = "pd_op.layer_norm_grad" (%0, %1, <<NULL VALUE>>, %2, %3, %4) {begin_norm_axis:2,epsilon:1e-05,stop_gradient:[true,true,true]} : (tensor<-1x7x16xf64>, tensor<16xf32>, <<NULL TYPE>>, tensor<-1xf32>, tensor<-1xf32>, tensor<-1x7x16xf64>) -> tensor<-1x7x16xf64>, tensor<16xf32>, tensor<0xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
        ["tensor<-1x7x16xf64>", "tensor<16xf32>", "tensor<f32>"]
    );
}

#[test]
fn unary_grad_shares_x() {
    let t = with_inputs(
        &[
            ("d23", "float64", &[-1, 4]),
            ("d24", "int64", &[3]),
            ("d25", "float32", &[3, 4]),
        ],
        &[
            r#"(%3) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>"#,
            r#"(%4) = "pd_op.gather_grad" (%0, %1, %2, %3) {stop_gradient:[true]} : (tensor<-1x4xf64>, tensor<3xi64>, tensor<3x4xf32>, tensor<1xi32>) -> tensor<-1x4xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x4xf64>"]);
}

#[test]
fn grad_same_with_x_takes_out_grad_dtype() {
    let t = with_inputs(
        &[
            ("d33", "float32", &[-1, 4, 6]),
            ("d34", "float64", &[-1, 24]),
        ],
        &[
            r#"(%2) = "pd_op.reshape_grad" (%0, %1) {stop_gradient:[true]} : (tensor<-1x4x6xf32>, tensor<-1x24xf64>) -> tensor<-1x4x6xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x4x6xf64>"]);
}

#[test]
fn index_add_grad_like_out_grad() {
    let t = with_inputs(
        &[
            ("d53", "int64", &[3]),
            ("d54", "float32", &[3, 5]),
            ("d55", "float64", &[-1, 5]),
        ],
        &[
            r#"(%3, %4) = "pd_op.index_add_grad" (%0, %1, %2) {axis:0,stop_gradient:[true,true]} : (tensor<3xi64>, tensor<3x5xf32>, tensor<-1x5xf64>) -> tensor<-1x5xf64>, tensor<3x5xf32>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x5xf64>", "tensor<3x5xf32>"]);
}

#[test]
fn real_grad_is_complex() {
    let t = with_inputs(
        &[("d51", "float64", &[-1, 5])],
        &[
            r#"(%1) = "pd_op.real_grad" (%0) {stop_gradient:[true]} : (tensor<-1x5xf64>) -> tensor<-1x5xc128>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x5xc128>"]);
}

#[test]
fn scatter_grad_dtype_of_out_grad() {
    let t = with_inputs(
        &[
            ("d76", "int64", &[3]),
            ("d77", "float64", &[3, 5]),
            ("d78", "float32", &[-1, 5]),
        ],
        &[
            r#"(%3, %4) = "pd_op.scatter_grad" (%0, %1, %2) {overwrite:true,stop_gradient:[true,true]} : (tensor<3xi64>, tensor<3x5xf64>, tensor<-1x5xf32>) -> tensor<-1x5xf32>, tensor<3x5xf32>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x5xf32>", "tensor<3x5xf32>"]);
}

#[test]
fn pixel_unshuffle_grad_nhwc() {
    let t = with_inputs(
        &[("d86", "float64", &[-1, 4, 4, 12])],
        &[
            r#"(%1) = "pd_op.pixel_unshuffle_grad" (%0) {data_format:"NHWC",downscale_factor:2,stop_gradient:[true]} : (tensor<-1x4x4x12xf64>) -> tensor<-1x8x8x3xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x8x8x3xf64>"]);
}

#[test]
fn prelu_grad_dims_only() {
    let t = with_inputs(
        &[("d1", "float64", &[-1, 4]), ("d87", "float64", &[1])],
        &[
            r#"(%2, %3) = "pd_op.prelu_grad" (%0, %1, %0) {data_format:"NCHW",mode:"all",stop_gradient:[true,true]} : (tensor<-1x4xf64>, tensor<1xf64>, tensor<-1x4xf64>) -> tensor<-1x4xf32>, tensor<1xf32>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x4xf32>", "tensor<1xf32>"]);
}

#[test]
fn instance_norm_grad_channel_dims() {
    let t = with_inputs(
        &[
            ("d5", "float64", &[-1, 3, 8, 8]),
            ("d88", "float64", &[3]),
            ("d89", "float64", &[-1]),
            ("d90", "float64", &[-1]),
        ],
        &[
            r#"(%4, %5, %6) = "pd_op.instance_norm_grad" (%0, %1, <<NULL VALUE>>, %2, %3, %0) {epsilon:1e-05,stop_gradient:[true,true,true]} : (tensor<-1x3x8x8xf64>, tensor<3xf64>, <<NULL TYPE>>, tensor<-1xf64>, tensor<-1xf64>, tensor<-1x3x8x8xf64>) -> tensor<-1x3x8x8xf64>, tensor<3xf32>, tensor<3xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
        ["tensor<-1x3x8x8xf64>", "tensor<3xf32>", "tensor<3xf32>"]
    );
}

#[test]
fn transpose_grad_inverts_permutation() {
    let t = with_inputs(
        &[("d101", "float64", &[-1, 3, 5])],
        &[
            r#"(%1) = "pd_op.transpose_grad" (%0) {perm:[-1,0,1],stop_gradient:[true]} : (tensor<-1x3x5xf64>) -> tensor<3x5x-1xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<3x5x-1xf64>"]);
}

#[test]
fn stack_grad_drops_axis() {
    let t = with_inputs(
        &[
            ("d1", "float64", &[-1, 4]),
            ("d103", "float64", &[-1, 4, -1]),
        ],
        &[
            r#"(%2) = "builtin.combine" (%0, %0) {stop_gradient:[true]} : (tensor<-1x4xf64>, tensor<-1x4xf64>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf64>]"#,
            r#"(%3) = "pd_op.stack_grad" (%2, %1) {axis:-1,stop_gradient:[true]} : (vec[tensor<-1x4xf64>,tensor<-1x4xf64>], tensor<-1x4x-1xf64>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf64>]"#,
        ],
    );
    assert_eq!(types(&t), ["vec[tensor<-1x4xf64>,tensor<-1x4xf64>]"]);
}

#[test]
fn unstack_grad_inserts_count() {
    let t = with_inputs(
        &[("d1", "float64", &[-1, 4])],
        &[
            r#"(%1) = "builtin.combine" (%0, %0) {stop_gradient:[true]} : (tensor<-1x4xf64>, tensor<-1x4xf64>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf64>]"#,
            r#"(%2) = "pd_op.unstack_grad" (%1) {axis:-1,stop_gradient:[true]} : (vec[tensor<-1x4xf64>,tensor<-1x4xf64>]) -> tensor<-1x4x2xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x4x2xf64>"]);
}

#[test]
fn multi_dot_grad_float32() {
    let t = with_inputs(
        &[
            ("d104", "float64", &[3, 4]),
            ("d105", "float64", &[4, 5]),
            ("d106", "float64", &[3, 5]),
        ],
        &[
            r#"(%3) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<3x4xf64>, tensor<4x5xf64>) -> vec[tensor<3x4xf64>,tensor<4x5xf64>]"#,
            r#"(%4) = "pd_op.multi_dot_grad" (%3, %2) {stop_gradient:[true]} : (vec[tensor<3x4xf64>,tensor<4x5xf64>], tensor<3x5xf64>) -> vec[tensor<3x4xf32>,tensor<4x5xf32>]"#,
        ],
    );
    assert_eq!(types(&t), ["vec[tensor<3x4xf32>,tensor<4x5xf32>]"]);
}

#[test]
fn concat_grad_shares_each_input() {
    let t = with_inputs(
        &[("d1", "float64", &[-1, 4]), ("d111", "float32", &[-1, 4])],
        &[
            r#"(%2) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>"#,
            r#"(%3) = "builtin.combine" (%0, %1) {stop_gradient:[true]} : (tensor<-1x4xf64>, tensor<-1x4xf32>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf32>]"#,
            r#"(%4) = "pd_op.concat_grad" (%3, %0, %2) {stop_gradient:[true]} : (vec[tensor<-1x4xf64>,tensor<-1x4xf32>], tensor<-1x4xf64>, tensor<1xi32>) -> vec[tensor<-1x4xf64>,tensor<-1x4xf32>]"#,
        ],
    );
    assert_eq!(types(&t), ["vec[tensor<-1x4xf64>,tensor<-1x4xf32>]"]);
}

#[test]
fn bilinear_grad_bias_row() {
    let t = with_inputs(
        &[
            ("d140", "float64", &[-1, 4]),
            ("d141", "float64", &[-1, 5]),
            ("d142", "float64", &[3, 4, 5]),
            ("d143", "float32", &[-1, 3]),
        ],
        &[
            r#"(%4, %5, %6, %7) = "pd_op.bilinear_grad" (%0, %1, %2, %3) {stop_gradient:[true,true,true,true]} : (tensor<-1x4xf64>, tensor<-1x5xf64>, tensor<3x4x5xf64>, tensor<-1x3xf32>) -> tensor<-1x4xf64>, tensor<-1x5xf64>, tensor<3x4x5xf64>, tensor<1x3xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d144", "float32", &[5, -1, 8]),
            ("d145", "float32", &[1, -1, 16]),
            ("d146", "float32", &[48, 8]),
            ("d147", "float32", &[48, 16]),
            ("d148", "float32", &[5, -1, 16]),
            ("d149", "uint8", &[0]),
            ("d150", "uint8", &[0]),
            ("d151", "float32", &[5, -1, 16]),
            ("d152", "float32", &[1, -1, 16]),
        ],
        &[
            r#"(%9) = "builtin.combine" (%1) {stop_gradient:[true]} : (tensor<1x-1x16xf32>) -> vec[tensor<1x-1x16xf32>]"#,
            r#"(%10) = "builtin.combine" (%2, %3) {stop_gradient:[true]} : (tensor<48x8xf32>, tensor<48x16xf32>) -> vec[tensor<48x8xf32>,tensor<48x16xf32>]"#,
            r#"(%11) = "builtin.combine" (%8) {stop_gradient:[true]} : (tensor<1x-1x16xf32>) -> vec[tensor<1x-1x16xf32>]"#,
            r#"(%12, %13, %14) = "pd_op.rnn_grad" (%0, %9, %10, <<NULL VALUE>>, %4, %5, %6, %7, %11) {dropout_prob:0,hidden_size:16,input_size:8,is_bidirec:false,is_test:false,mode:"GRU",num_layers:1,seed:0,stop_gradient:[true,true,true]} : (tensor<5x-1x8xf32>, vec[tensor<1x-1x16xf32>], vec[tensor<48x8xf32>,tensor<48x16xf32>], <<NULL TYPE>>, tensor<5x-1x16xf32>, tensor<0xu8>, tensor<0xu8>, tensor<5x-1x16xf32>, vec[tensor<1x-1x16xf32>]) -> tensor<5x-1x8xf32>, vec[tensor<1x-1x16xf32>], vec[tensor<48x8xf32>,tensor<48x16xf32>]"#,
        ],
    );
    assert_eq!(
        types(&t),
        [
            "tensor<5x-1x8xf32>",
            "vec[tensor<1x-1x16xf32>]",
            "vec[tensor<48x8xf32>,tensor<48x16xf32>]"
        ]
    );
}

#[test]
fn deformable_conv_grad_without_mask() {
    let t = with_inputs(
        &[
            ("d5", "float64", &[-1, 3, 8, 8]),
            ("d137", "float64", &[-1, 18, 6, 6]),
            ("d138", "float64", &[6, 3, 3, 3]),
            ("d139", "float64", &[-1, 6, 6, 6]),
        ],
        &[
            r#"(%4, %5, %6, %7) = "pd_op.deformable_conv_grad" (%0, %1, %2, <<NULL VALUE>>, %3) {deformable_groups:1,dilations:[1,1],groups:1,im2col_step:1,paddings:[0,0],stop_gradient:[true,true,true,true],strides:[1,1]} : (tensor<-1x3x8x8xf64>, tensor<-1x18x6x6xf64>, tensor<6x3x3x3xf64>, <<NULL TYPE>>, tensor<-1x6x6x6xf64>) -> tensor<-1x3x8x8xf64>, tensor<-1x18x6x6xf64>, tensor<6x3x3x3xf64>, tensor<0xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d7", "int64", &[-1, 5]),
            ("d8", "float64", &[100, 16]),
            ("d9", "float64", &[-1, 5, 16]),
        ],
        &[
            r#"(%3) = "pd_op.embedding_grad" (%0, %1, %2) {padding_idx:-1,stop_gradient:[true]} : (tensor<-1x5xi64>, tensor<100x16xf64>, tensor<-1x5x16xf64>) -> tensor<100x16xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<100x16xf64>"]);
}

#[test]
fn c_concat_multiplies_last_dim() {
    let t = with_inputs(
        &[("d1", "float64", &[-1, 6])],
        &[
            r#"(%1) = "pd_op.c_concat" (%0) {nranks:2,rank:0,ring_id:0,stop_gradient:[true],use_calc_stream:false,use_model_parallel:false} : (tensor<-1x6xf64>) -> tensor<-1x12xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x12xf64>"]);
}

#[test]
fn all_gather_scales_first_dim() {
    let t = with_inputs(
        &[("d1", "float64", &[-1, 6])],
        &[
            r#"(%1) = "pd_op.all_gather" (%0) {nranks:2,ring_id:0,stop_gradient:[true]} : (tensor<-1x6xf64>) -> tensor<-1x6xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x6xf64>"]);
}

#[test]
fn reduce_scatter_keeps_unknown() {
    let t = with_inputs(
        &[("d1", "float64", &[-1, 6])],
        &[
            r#"(%1) = "pd_op.reduce_scatter" (%0) {nranks:2,ring_id:0,stop_gradient:[true]} : (tensor<-1x6xf64>) -> tensor<-1x6xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x6xf64>"]);
}

#[test]
fn gumbel_softmax_grad_needs_equal_dims() {
    let t = with_inputs(
        &[("a", "float32", &[-1, 4]), ("b", "float32", &[-1, 5])],
        &[
            r#"(%2) = "pd_op.gumbel_softmax_grad" (%0, %1) {axis:-1,stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x5xf32>) -> tensor<-1x5xf32>"#,
        ],
    );
    assert!(infer_last(&t).is_err_and(|e| !e.starts_with("line ")));
}

#[test]
fn fft_c2r_grad_halves_last_axis() {
    let t = with_inputs(
        &[("d4", "float32", &[4, 9, 15])],
        &[
            r#"(%1) = "pd_op.fft_c2r_grad" (%0) {axes:[0,1],forward:false,last_dim_size:0,normalization:"backward",stop_gradient:[true]} : (tensor<4x9x15xf32>) -> tensor<4x5x15xc64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<4x5x15xc64>"]);
}

#[test]
fn fft_c2r_grad_keeps_unknown() {
    let t = with_inputs(
        &[("d2", "float32", &[-1, 8, -1])],
        &[
            r#"(%1) = "pd_op.fft_c2r_grad" (%0) {axes:[2],forward:false,last_dim_size:0,normalization:"backward",stop_gradient:[true]} : (tensor<-1x8x-1xf32>) -> tensor<-1x8x-1xc64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x8x-1xc64>"]);
}

#[test]
fn gru_grad_without_h0_and_bias() {
    let t = with_inputs(
        &[
            ("d14", "float64", &[-1, 48]),
            ("d15", "float64", &[16, 48]),
            ("d16", "float64", &[-1, 48]),
            ("d17", "float64", &[-1, 16]),
            ("d18", "float64", &[-1, 16]),
            ("d19", "float64", &[-1, 16]),
            ("d20", "float64", &[-1, 16]),
        ],
        &[
            r#"(%7, %8, %9, %10) = "pd_op.gru_grad" (%0, <<NULL VALUE>>, %1, <<NULL VALUE>>, %2, %3, %4, %5, %6) {activation:"tanh",gate_activation:"sigmoid",is_reverse:false,is_test:false,origin_mode:false,stop_gradient:[true,true,true,true]} : (tensor<-1x48xf64>, <<NULL TYPE>>, tensor<16x48xf64>, <<NULL TYPE>>, tensor<-1x48xf64>, tensor<-1x16xf64>, tensor<-1x16xf64>, tensor<-1x16xf64>, tensor<-1x16xf64>) -> tensor<-1x48xf64>, tensor<0xf32>, tensor<16x48xf64>, tensor<0xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d35", "float64", &[-1, -1]),
            ("d36", "float32", &[-1, 16]),
            ("d37", "float64", &[16, 48]),
            ("d38", "float64", &[-1, 48]),
            ("d39", "float64", &[-1, 16]),
            ("d40", "float64", &[-1, 16]),
        ],
        &[
            r#"(%6, %7, %8, %9) = "pd_op.gru_unit_grad" (%0, %1, %2, <<NULL VALUE>>, %3, %4, %5) {activation:2,gate_activation:1,origin_mode:false,stop_gradient:[true,true,true,true]} : (tensor<-1x-1xf64>, tensor<-1x16xf32>, tensor<16x48xf64>, <<NULL TYPE>>, tensor<-1x48xf64>, tensor<-1x16xf64>, tensor<-1x16xf64>) -> tensor<-1x-1xf64>, tensor<-1x16xf32>, tensor<16x48xf64>, tensor<0xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d41", "float64", &[-1, 8]),
            ("d42", "float32", &[4, 8]),
            ("d43", "float64", &[24, 16]),
            ("d44", "float64", &[-1, 16]),
        ],
        &[
            r#"(%4, %5, %6) = "pd_op.sequence_conv_grad" (%0, %1, %2, %3) {context_length:3,context_start:-1,context_stride:1,padding_trainable:true,stop_gradient:[true,true,true]} : (tensor<-1x8xf64>, tensor<4x8xf32>, tensor<24x16xf64>, tensor<-1x16xf64>) -> tensor<-1x8xf64>, tensor<4x8xf32>, tensor<24x16xf64>"#,
        ],
    );
    assert_eq!(
        types(&t),
        ["tensor<-1x8xf64>", "tensor<4x8xf32>", "tensor<24x16xf64>"]
    );
}

#[test]
fn sequence_conv_grad_fixed_padding() {
    let t = with_inputs(
        &[
            ("d45", "float64", &[-1, 8]),
            ("d46", "float32", &[4, 8]),
            ("d47", "float64", &[24, 16]),
            ("d48", "float64", &[-1, 16]),
        ],
        &[
            r#"(%4, %5, %6) = "pd_op.sequence_conv_grad" (%0, %1, %2, %3) {context_length:3,context_start:-1,context_stride:1,padding_trainable:false,stop_gradient:[true,true,true]} : (tensor<-1x8xf64>, tensor<4x8xf32>, tensor<24x16xf64>, tensor<-1x16xf64>) -> tensor<-1x8xf64>, tensor<0xf32>, tensor<24x16xf64>"#,
        ],
    );
    assert_eq!(
        types(&t),
        ["tensor<-1x8xf64>", "tensor<f32>", "tensor<24x16xf64>"]
    );
}

#[test]
fn trans_layout_grad_inverse() {
    let t = with_inputs(
        &[
            ("d76", "float64", &[-1, 3, 8, 8]),
            ("d77", "float32", &[-1, 8, 8, 3]),
        ],
        &[
            r#"(%2) = "pd_op.trans_layout_grad" (%0, %1) {perm:[0,2,3,1],stop_gradient:[true]} : (tensor<-1x3x8x8xf64>, tensor<-1x8x8x3xf32>) -> tensor<-1x3x8x8xf32>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x3x8x8xf32>"]);
}

#[test]
fn yolo_loss_grad_only_x() {
    let t = with_inputs(
        &[
            ("d70", "float64", &[-1, 18, 8, 8]),
            ("d71", "float64", &[-1, 5, 4]),
            ("d72", "int32", &[-1, 5]),
            ("d73", "float64", &[-1, 3, 8, 8]),
            ("d74", "int32", &[-1, 5]),
            ("d75", "float64", &[-1]),
        ],
        &[
            r#"(%6, %7, %8, %9) = "pd_op.yolo_loss_grad" (%0, %1, %2, <<NULL VALUE>>, %3, %4, %5) {anchor_mask:[0,1,2],anchors:[10,13,16,30,33,23],class_num:1,downsample_ratio:32,ignore_thresh:0.7,scale_x_y:0,stop_gradient:[true,true,true,true],use_label_smooth:false} : (tensor<-1x18x8x8xf64>, tensor<-1x5x4xf64>, tensor<-1x5xi32>, <<NULL TYPE>>, tensor<-1x3x8x8xf64>, tensor<-1x5xi32>, tensor<-1xf64>) -> tensor<-1x18x8x8xf64>, tensor<0xf32>, tensor<0xf32>, tensor<0xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d1", "float64", &[-1, 10]),
            ("d2", "int64", &[-1, 1]),
            ("d3", "float64", &[-1, 1]),
        ],
        &[
            r#"(%3) = "pd_op.c_softmax_with_cross_entropy_grad" (%0, %1, %2) {ignore_index:-100,nranks:2,rank:0,ring_id:0,stop_gradient:[true]} : (tensor<-1x10xf64>, tensor<-1x1xi64>, tensor<-1x1xf64>) -> tensor<-1x10xf32>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x10xf32>"]);
}

#[test]
fn pixel_shuffle_grad_keeps_unknown() {
    let t = with_inputs(
        &[("d1", "float64", &[-1, 3, -1, 16])],
        &[
            r#"(%1) = "pd_op.pixel_shuffle_grad" (%0) {data_format:"NCHW",stop_gradient:[true],upscale_factor:2} : (tensor<-1x3x-1x16xf64>) -> tensor<-1x12x-1x8xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x12x-1x8xf64>"]);
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
