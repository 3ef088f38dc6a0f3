//! Optimizer functions against the types Paddle 3.3.1 printed for the same
//! ops (built with `paddle._pir_ops` in static mode).

use crate::testing::{infer_last, types, with_inputs};

#[test]
fn sgd_master_copy_with_multi_precision() {
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d29", "float32", &[-1, 32]),
            ("d30", "float32", &[-1, 32]),
            ("d31", "float64", &[64, -1]),
        ],
        &[
            r#"(%4, %5) = "pd_op.sgd_" (%1, %0, %2, %3) {multi_precision:true,stop_gradient:[true,true]} : (tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf32>, tensor<64x-1xf64>) -> tensor<-1x32xf32>, tensor<64x-1xf64>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x32xf32>", "tensor<64x-1xf64>"]);
}

#[test]
fn sgd_master_untouched_without_multi_precision() {
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d29", "float32", &[-1, 32]),
            ("d30", "float32", &[-1, 32]),
            ("d31", "float64", &[64, -1]),
        ],
        &[
            r#"(%4, %5) = "pd_op.sgd_" (%1, %0, %2, %3) {multi_precision:false,stop_gradient:[true,true]} : (tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf32>, tensor<64x-1xf64>) -> tensor<-1x32xf32>, tensor<0xf32>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<-1x32xf32>", "tensor<f32>"]);
}

#[test]
fn momentum_param_out_dims_only() {
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d55", "float64", &[-1, 32]),
            ("d56", "float64", &[-1, 32]),
            ("d57", "float32", &[64, -1]),
            ("d58", "float16", &[64, 32]),
        ],
        &[
            r#"(%5, %6, %7) = "pd_op.momentum_" (%1, %2, %4, %0, %3) {mu:0.9,multi_precision:true,regularization_coeff:0,regularization_method:"",rescale_grad:0,stop_gradient:[true,true,true],use_nesterov:false} : (tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<64x32xf16>, tensor<1xf32>, tensor<64x-1xf32>) -> tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<-1x32xf64>"#,
        ],
    );
    assert_eq!(
        types(&t),
        [
            "tensor<-1x32xf32>",
            "tensor<-1x32xf64>",
            "tensor<-1x32xf64>"
        ]
    );
}

#[test]
fn sgd_learning_rate_must_have_one_element() {
    let t = with_inputs(
        &[("p", "float32", &[4]), ("lr", "float32", &[-1])],
        &[
            r#"(%2, %3) = "pd_op.sgd_" (%0, %1, %0, <<NULL VALUE>>) {multi_precision:false,stop_gradient:[true,true]} : (tensor<4xf32>, tensor<-1xf32>, tensor<4xf32>, <<NULL TYPE>>) -> tensor<4xf32>, <<NULL TYPE>>"#,
        ],
    );
    assert!(infer_last(&t).is_err_and(|e| !e.starts_with("line ")));
}

#[test]
fn adamw_moment2_max_with_amsgrad() {
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d9", "float32", &[-1, 32]),
            ("d10", "float32", &[-1, 32]),
            ("d75", "float16", &[-1, 32]),
            ("d76", "float64", &[-1, 32]),
            ("d77", "float64", &[9]),
            ("d78", "float64", &[2]),
            ("d79", "float16", &[3]),
        ],
        &[
            r#"(%8) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>"#,
            r#"(%9) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>"#,
            r#"(%10) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>"#,
            r#"(%11, %12, %13, %14, %15, %16, %17) = "pd_op.adamw_" (%1, %2, %0, %3, %4, %5, %6, %7, <<NULL VALUE>>, <<NULL VALUE>>, %8, %9, %10) {amsgrad:true,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:0,multi_precision:true,stop_gradient:[true,true,true,true,true,true,true],use_global_beta_pow:false,with_decay:true} : (tensor<-1x32xf32>, tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<9xf64>, tensor<2xf64>, tensor<3xf16>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<2xf64>, tensor<3xf16>, <<NULL TYPE>>"#,
        ],
    );
    // The master copy is absent (a null result in Paddle); the crate
    // reports results of absent optional inputs as the builder default.
    assert_eq!(
        types(&t)[..6],
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
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d2", "float32", &[-1, 32]),
            ("d3", "float32", &[-1, 32]),
            ("d4", "float64", &[-1, 32]),
            ("d13", "float16", &[-1, 32]),
            ("d14", "float64", &[-1, 32]),
            ("d15", "float64", &[9]),
            ("d16", "float64", &[2]),
            ("d17", "float16", &[3]),
        ],
        &[
            r#"(%9) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf32>"#,
            r#"(%10) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.999} : () -> tensor<1xf32>"#,
            r#"(%11) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf32>"#,
            r#"(%12, %13, %14, %15, %16, %17, %18) = "pd_op.adamw_" (%1, %2, %0, %4, %5, %6, %7, %8, %3, <<NULL VALUE>>, %9, %10, %11) {amsgrad:true,coeff:0.01,lazy_mode:false,lr_ratio:1,min_row_size_to_use_multithread:0,multi_precision:true,stop_gradient:[true,true,true,true,true,true,true],use_global_beta_pow:false,with_decay:true} : (tensor<-1x32xf32>, tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<9xf64>, tensor<2xf64>, tensor<3xf16>, tensor<-1x32xf64>, <<NULL TYPE>>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<2xf64>, tensor<3xf16>, tensor<-1x32xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d116", "float64", &[-1, 32]),
            ("d117", "float64", &[-1, 32]),
            ("d178", "float16", &[-1, 32]),
            ("d179", "float64", &[-1, 32]),
            ("d180", "float64", &[2]),
            ("d181", "float16", &[3]),
        ],
        &[
            r#"(%7, %8, %9, %10, %11, %12) = "pd_op.lamb_" (%1, %2, %0, %3, %4, %5, %6, <<NULL VALUE>>, <<NULL VALUE>>) {always_adapt:false,beta1:0.9,beta2:0.999,epsilon:1e-06,multi_precision:true,stop_gradient:[true,true,true,true,true,true],weight_decay:0.01} : (tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<1xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<2xf64>, tensor<3xf16>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<2xf64>, tensor<3xf16>, <<NULL TYPE>>"#,
        ],
    );
    // The master copy is absent (a null result in Paddle); the crate
    // reports results of absent optional inputs as the builder default.
    assert_eq!(
        types(&t)[..5],
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
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d9", "float32", &[-1, 32]),
            ("d10", "float32", &[-1, 32]),
            ("d65", "float16", &[-1, 32]),
            ("d66", "float64", &[-1, 32]),
            ("d67", "float16", &[5]),
        ],
        &[
            r#"(%6, %7, %8, %9, %10) = "pd_op.rmsprop_" (%1, %3, %2, %4, %0, %5, <<NULL VALUE>>) {centered:true,decay:0.9,epsilon:1e-06,momentum:0,multi_precision:true,stop_gradient:[true,true,true,true,true]} : (tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<1xf32>, tensor<5xf16>, <<NULL TYPE>>) -> tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<-1x32xf16>, tensor<-1x32xf16>, <<NULL TYPE>>"#,
        ],
    );
    // The master copy is absent (a null result in Paddle); the crate
    // reports results of absent optional inputs as the builder default.
    assert_eq!(
        types(&t)[..4],
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
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d9", "float32", &[-1, 32]),
            ("d10", "float32", &[-1, 32]),
            ("d68", "float16", &[-1, 32]),
            ("d69", "float64", &[-1, 32]),
            ("d70", "float16", &[5]),
        ],
        &[
            r#"(%6, %7, %8, %9, %10) = "pd_op.rmsprop_" (%1, %3, %2, %4, %0, %5, <<NULL VALUE>>) {centered:false,decay:0.9,epsilon:1e-06,momentum:0,multi_precision:true,stop_gradient:[true,true,true,true,true]} : (tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<1xf32>, tensor<5xf16>, <<NULL TYPE>>) -> tensor<-1x32xf32>, tensor<-1x32xf64>, tensor<-1x32xf16>, tensor<0xf32>, <<NULL TYPE>>"#,
        ],
    );
    // The master copy is absent (a null result in Paddle); the crate
    // reports results of absent optional inputs as the builder default.
    assert_eq!(
        types(&t)[..4],
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
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d2", "float32", &[-1, 32]),
            ("d3", "float32", &[-1, 32]),
            ("d4", "float64", &[-1, 32]),
            ("d23", "float16", &[-1, 32]),
        ],
        &[
            r#"(%5, %6, %7) = "pd_op.adagrad_" (%1, %2, %4, %0, %3) {epsilon:1e-06,multi_precision:false,stop_gradient:[true,true,true]} : (tensor<-1x32xf32>, tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<1xf32>, tensor<-1x32xf64>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<0xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
        ["tensor<-1x32xf32>", "tensor<-1x32xf16>", "tensor<f32>"]
    );
}

#[test]
fn adamax_master_copy() {
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d2", "float32", &[-1, 32]),
            ("d3", "float32", &[-1, 32]),
            ("d4", "float64", &[-1, 32]),
            ("d18", "float16", &[-1, 32]),
            ("d19", "float64", &[-1, 32]),
            ("d20", "float64", &[1]),
        ],
        &[
            r#"(%7, %8, %9, %10) = "pd_op.adamax_" (%1, %2, %0, %4, %5, %6, %3) {beta1:0.9,beta2:0.999,epsilon:1e-08,multi_precision:true,stop_gradient:[true,true,true,true]} : (tensor<-1x32xf32>, tensor<-1x32xf32>, tensor<1xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<1xf64>, tensor<-1x32xf64>) -> tensor<-1x32xf32>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<-1x32xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d1", "float32", &[1]),
            ("d41", "float64", &[-1, 32]),
            ("d42", "float64", &[-1, 32]),
            ("d43", "float16", &[-1, 32]),
            ("d60", "float16", &[-1, 32]),
            ("d61", "float64", &[-1, 32]),
        ],
        &[
            r#"(%6, %7, %8, %9) = "pd_op.adadelta_" (%1, %2, %4, %5, %0, %3) {epsilon:1e-06,multi_precision:true,rho:0.95,stop_gradient:[true,true,true,true]} : (tensor<-1x32xf64>, tensor<-1x32xf64>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<1xf32>, tensor<-1x32xf16>) -> tensor<-1x32xf64>, tensor<-1x32xf16>, tensor<-1x32xf64>, tensor<-1x32xf64>"#,
        ],
    );
    assert_eq!(
        types(&t),
        [
            "tensor<-1x32xf64>",
            "tensor<-1x32xf16>",
            "tensor<-1x32xf64>",
            "tensor<-1x32xf64>"
        ]
    );
}

#[test]
fn nadam_master_copy() {
    let t = with_inputs(
        &[
            ("d9", "float64", &[-1, 8]),
            ("d10", "float64", &[-1, 8]),
            ("d11", "float32", &[1]),
            ("d12", "float64", &[1]),
            ("d13", "float16", &[2]),
            ("d14", "float64", &[3]),
            ("d15", "float16", &[-1, 8]),
            ("d16", "float64", &[-1, 8]),
            ("d17", "float16", &[-1, 8]),
        ],
        &[
            r#"(%9, %10, %11, %12, %13, %14, %15) = "pd_op.nadam_" (%0, %1, %2, %3, %4, %5, %6, %7, %8) {beta1:0.9,beta2:0.999,epsilon:1e-08,momentum_decay:0.004,multi_precision:true,stop_gradient:[true,true,true,true,true,true,true]} : (tensor<-1x8xf64>, tensor<-1x8xf64>, tensor<1xf32>, tensor<1xf64>, tensor<2xf16>, tensor<3xf64>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<-1x8xf16>) -> tensor<-1x8xf64>, tensor<1xf64>, tensor<2xf16>, tensor<3xf64>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<-1x8xf64>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d35", "float64", &[-1, 8]),
            ("d36", "float64", &[-1, 8]),
            ("d37", "float32", &[1]),
            ("d38", "float64", &[1]),
            ("d39", "float16", &[2]),
            ("d40", "float64", &[3]),
            ("d41", "float16", &[-1, 8]),
            ("d42", "float64", &[-1, 8]),
            ("d43", "float16", &[-1, 8]),
        ],
        &[
            r#"(%9, %10, %11, %12, %13, %14, %15) = "pd_op.radam_" (%0, %1, %2, %3, %4, %5, %6, %7, %8) {beta1:0.9,beta2:0.999,epsilon:1e-08,multi_precision:false,stop_gradient:[true,true,true,true,true,true,true]} : (tensor<-1x8xf64>, tensor<-1x8xf64>, tensor<1xf32>, tensor<1xf64>, tensor<2xf16>, tensor<3xf64>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<-1x8xf16>) -> tensor<-1x8xf64>, tensor<1xf64>, tensor<2xf16>, tensor<3xf64>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<0xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d1", "float32", &[-1, 8]),
            ("d2", "float32", &[3]),
            ("d3", "float32", &[3]),
            ("d4", "float32", &[-1, 8]),
            ("d5", "float32", &[-1, 8]),
            ("d6", "float32", &[3]),
            ("d7", "float32", &[1]),
            ("d8", "float32", &[-1, 8]),
        ],
        &[
            r#"(%8) = "builtin.combine" (%7) {stop_gradient:[true]} : (tensor<-1x8xf32>) -> vec[tensor<-1x8xf32>]"#,
            r#"(%9) = "builtin.combine" (%0, %1, %2) {stop_gradient:[true]} : (tensor<-1x8xf32>, tensor<3xf32>, tensor<3xf32>) -> vec[tensor<-1x8xf32>,tensor<3xf32>,tensor<3xf32>]"#,
            r#"(%10) = "builtin.combine" (%3) {stop_gradient:[true]} : (tensor<-1x8xf32>) -> vec[tensor<-1x8xf32>]"#,
            r#"(%11) = "builtin.combine" (%4, %5) {stop_gradient:[true]} : (tensor<-1x8xf32>, tensor<3xf32>) -> vec[tensor<-1x8xf32>,tensor<3xf32>]"#,
            r#"(%12) = "builtin.combine" (%6) {stop_gradient:[true]} : (tensor<1xf32>) -> vec[tensor<1xf32>]"#,
            r#"(%13, %14, %15) = "pd_op.merged_momentum_" (%9, %10, %11, %12, %8) {mu:0.9,multi_precision:false,regularization_coeff:[],regularization_method:[],rescale_grad:0,stop_gradient:[true,true,true],use_nesterov:false} : (vec[tensor<-1x8xf32>,tensor<3xf32>,tensor<3xf32>], vec[tensor<-1x8xf32>], vec[tensor<-1x8xf32>,tensor<3xf32>], vec[tensor<1xf32>], vec[tensor<-1x8xf32>]) -> vec[tensor<0xf32>,tensor<0xf32>,tensor<0xf32>], vec[tensor<0xf32>,tensor<0xf32>,tensor<0xf32>], vec[tensor<0xf32>,tensor<0xf32>,tensor<0xf32>]"#,
        ],
    );
    assert_eq!(
        types(&t),
        [
            "vec[tensor<f32>,tensor<f32>,tensor<f32>]",
            "vec[tensor<f32>,tensor<f32>,tensor<f32>]",
            "vec[tensor<f32>,tensor<f32>,tensor<f32>]"
        ]
    );
}

#[test]
fn rprop_master_copy_in_f32() {
    let t = with_inputs(
        &[
            ("d7", "float32", &[-1, 8]),
            ("d8", "float32", &[-1, 8]),
            ("d9", "float16", &[-1, 8]),
            ("d10", "float64", &[-1, 8]),
            ("d11", "float16", &[3]),
            ("d12", "float32", &[2]),
            ("d13", "float32", &[2]),
        ],
        &[
            r#"(%7, %8, %9, %10) = "pd_op.rprop_" (%0, %1, %2, %3, %4, %5, %6) {multi_precision:true,stop_gradient:[true,true,true,true]} : (tensor<-1x8xf32>, tensor<-1x8xf32>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<3xf16>, tensor<2xf32>, tensor<2xf32>) -> tensor<-1x8xf32>, tensor<-1x8xf16>, tensor<-1x8xf64>, tensor<3xf32>"#,
        ],
    );
    assert_eq!(
        types(&t),
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
    let t = with_inputs(
        &[
            ("d41", "bfloat16", &[4]),
            ("d42", "float32", &[1]),
            ("d43", "bfloat16", &[4]),
            ("d44", "bfloat16", &[4]),
        ],
        &[
            r#"(%4, %5) = "pd_op.sgd_" (%0, %1, %2, %3) {multi_precision:true,stop_gradient:[true,true]} : (tensor<4xbf16>, tensor<1xf32>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>, tensor<4xf32>"#,
        ],
    );
    assert_eq!(types(&t), ["tensor<4xbf16>", "tensor<4xf32>"]);
}
