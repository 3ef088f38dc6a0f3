//! `HashInferMeta` cases of Paddle 3.3.1's own prints (`tests/vectors/paddle-3.3.1.txt`,
//! built by `scripts/paddle_check_infer.py`): the op and its operands, and
//! the result types Paddle printed.

use crate::testing::check;
/// `HashInferMeta`: `[N, num_hash, 1]`.
#[test]
fn hash() {
    // x:int64[-1,-1]; num_hash=1; mod_by=100000; runtime_shape=True
    check(
        r#"(%0) = "pd_op.data" () {dtype:int64,name:"x",place:Place(undefined:0),shape:[-1,-1],stop_gradient:[true]} : () -> tensor<-1x-1xi64>
(%1) = "pd_op.hash" (%0) {mod_by:100000,num_hash:1,runtime_shape:true,stop_gradient:[true]} : (tensor<-1x-1xi64>) -> tensor<-1x1x1xi64>"#,
        &["tensor<-1x1x1xi64>"],
    );
    // x:int32[4,6]; num_hash=1; mod_by=100000; runtime_shape=True
    check(
        r#"(%0) = "pd_op.data" () {dtype:int32,name:"x",place:Place(undefined:0),shape:[4,6],stop_gradient:[true]} : () -> tensor<4x6xi32>
(%1) = "pd_op.hash" (%0) {mod_by:100000,num_hash:1,runtime_shape:true,stop_gradient:[true]} : (tensor<4x6xi32>) -> tensor<4x1x1xi32>"#,
        &["tensor<4x1x1xi32>"],
    );
    // x:int64[4,4]; num_hash=1; mod_by=2; runtime_shape=False
    check(
        r#"(%0) = "pd_op.data" () {dtype:int64,name:"x",place:Place(undefined:0),shape:[4,4],stop_gradient:[true]} : () -> tensor<4x4xi64>
(%1) = "pd_op.hash" (%0) {mod_by:2,num_hash:1,runtime_shape:false,stop_gradient:[true]} : (tensor<4x4xi64>) -> tensor<4x1x1xi64>"#,
        &["tensor<4x1x1xi64>"],
    );
}
