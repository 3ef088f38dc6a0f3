//! `UnchangedArrayInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;

/// `UnchangedArrayInferMeta`: the meta of the array.
#[test]
fn assign_array() {
    check(
        r#"(%246) = "pd_op.create_array" () {dtype:float32,stop_gradient:[true]} : () -> pd_op.tensor_array<f32>
(%250) = "pd_op.assign_array" (%246) {stop_gradient:[true]} : (pd_op.tensor_array<f32>) -> pd_op.tensor_array<f32>"#,
        &["pd_op.tensor_array<f32>"],
    );
    check(
        r#"(%251) = "pd_op.create_array" () {dtype:int64,stop_gradient:[true]} : () -> pd_op.tensor_array<i64>
(%255) = "pd_op.assign_array" (%251) {stop_gradient:[true]} : (pd_op.tensor_array<i64>) -> pd_op.tensor_array<i64>"#,
        &["pd_op.tensor_array<i64>"],
    );
}

/// `CreateArrayLikeInferMeta`: the element type (Paddle's print of an array shows no dims).
#[test]
fn create_array_like() {
    check(
        r#"(%6) = "pd_op.create_array" () {dtype:float32,stop_gradient:[true]} : () -> pd_op.tensor_array<f32>
(%10) = "pd_op.create_array_like" (%6) {stop_gradient:[true],val:0} : (pd_op.tensor_array<f32>) -> pd_op.tensor_array<f32>"#,
        &["pd_op.tensor_array<f32>"],
    );
    check(
        r#"(%11) = "pd_op.create_array" () {dtype:int64,stop_gradient:[true]} : () -> pd_op.tensor_array<i64>
(%15) = "pd_op.create_array_like" (%11) {stop_gradient:[true],val:1} : (pd_op.tensor_array<i64>) -> pd_op.tensor_array<i64>"#,
        &["pd_op.tensor_array<i64>"],
    );
}

/// `ArrayPopInferMeta`: the element type; the popped tensor's dims are left alone (Paddle prints them `0x`, held 0-d here).
#[test]
fn array_pop() {
    check(
        r#"(%16) = "pd_op.create_array" () {dtype:float32,stop_gradient:[true]} : () -> pd_op.tensor_array<f32>
(%20, %21) = "pd_op.array_pop" (%16) {index:0,stop_gradient:[true,true]} : (pd_op.tensor_array<f32>) -> pd_op.tensor_array<f32>, tensor<0xf32>"#,
        &["pd_op.tensor_array<f32>", "tensor<0xf32>"],
    );
    check(
        r#"(%22) = "pd_op.create_array" () {dtype:float64,stop_gradient:[true]} : () -> pd_op.tensor_array<f64>
(%26, %27) = "pd_op.array_pop" (%22) {index:-1,stop_gradient:[true,true]} : (pd_op.tensor_array<f64>) -> pd_op.tensor_array<f64>, tensor<0xf64>"#,
        &["pd_op.tensor_array<f64>", "tensor<f64>"],
    );
}
