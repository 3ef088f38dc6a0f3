//! `CorrelationInferMeta` cases of Paddle 3.3.1's own prints (`tests/vectors/paddle-3.3.1.txt`,
//! built by `scripts/paddle_check_infer.py`): the op and its operands, and
//! the result types Paddle printed.

use crate::testing::check;
/// `CorrelationInferMeta`.
#[test]
fn correlation() {
    // input1:float32[2,2,4,4]; input2:float32[2,2,4,4]; pad_size=0; kernel_size=0; max_displacement=1; stride1=1; stride2=1; corr_type_multiply=1
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"input1",place:Place(undefined:0),shape:[2,2,4,4],stop_gradient:[true]} : () -> tensor<2x2x4x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"input2",place:Place(undefined:0),shape:[2,2,4,4],stop_gradient:[true]} : () -> tensor<2x2x4x4xf32>
(%2) = "pd_op.correlation" (%0, %1) {corr_type_multiply:1,kernel_size:0,max_displacement:1,pad_size:0,stop_gradient:[true],stride1:1,stride2:1} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x9x2x2xf32>"#,
        &["tensor<2x9x2x2xf32>"],
    );
    // input1:float32[6,6,6,4]; input2:float32[6,6,6,4]; pad_size=1; kernel_size=0; max_displacement=2; stride1=1; stride2=1; corr_type_multiply=1
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"input1",place:Place(undefined:0),shape:[6,6,6,4],stop_gradient:[true]} : () -> tensor<6x6x6x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"input2",place:Place(undefined:0),shape:[6,6,6,4],stop_gradient:[true]} : () -> tensor<6x6x6x4xf32>
(%2) = "pd_op.correlation" (%0, %1) {corr_type_multiply:1,kernel_size:0,max_displacement:2,pad_size:1,stop_gradient:[true],stride1:1,stride2:1} : (tensor<6x6x6x4xf32>, tensor<6x6x6x4xf32>) -> tensor<6x25x4x2xf32>"#,
        &["tensor<6x25x4x2xf32>"],
    );
    // input1:float32[4,5,3,4]; input2:float32[4,2,2,4]; pad_size=0; kernel_size=1; max_displacement=2; stride1=1; stride2=2; corr_type_multiply=1
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"input1",place:Place(undefined:0),shape:[4,5,3,4],stop_gradient:[true]} : () -> tensor<4x5x3x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"input2",place:Place(undefined:0),shape:[4,2,2,4],stop_gradient:[true]} : () -> tensor<4x2x2x4xf32>
(%2) = "pd_op.correlation" (%0, %1) {corr_type_multiply:1,kernel_size:1,max_displacement:2,pad_size:0,stop_gradient:[true],stride1:1,stride2:2} : (tensor<4x5x3x4xf32>, tensor<4x2x2x4xf32>) -> tensor<4x9x-1x0xf32>"#,
        &["tensor<4x9x-1x0xf32>"],
    );
}
