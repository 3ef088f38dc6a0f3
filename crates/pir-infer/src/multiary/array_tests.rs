//! `AddNTensorArrayInferMeta` cases checked against Paddle 3.3.1: programs
//! Paddle built (its printed IR, trimmed to the op and its operands) and the
//! result types it printed (an array's element type; no dims).

use crate::testing::check;

/// `AddNTensorArrayInferMeta`: the first array's element type.
#[test]
fn add_n_array() {
    check(
        r#"(%28) = "pd_op.create_array" () {dtype:float32,stop_gradient:[true]} : () -> pd_op.tensor_array<f32>
(%32) = "pd_op.create_array" () {dtype:float32,stop_gradient:[true]} : () -> pd_op.tensor_array<f32>
(%36) = "builtin.combine" (%28, %32) {stop_gradient:[true]} : (pd_op.tensor_array<f32>, pd_op.tensor_array<f32>) -> vec[pd_op.tensor_array<f32>,pd_op.tensor_array<f32>]
(%37) = "pd_op.add_n_array" (%36) {stop_gradient:[true]} : (vec[pd_op.tensor_array<f32>,pd_op.tensor_array<f32>]) -> pd_op.tensor_array<f32>"#,
        &["pd_op.tensor_array<f32>"],
    );
}
