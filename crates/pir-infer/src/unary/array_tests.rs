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
