//! `RecvV2InferMeta` cases of Paddle 3.3.1's own prints (`tests/vectors/paddle-3.3.1.txt`,
//! built by `scripts/paddle_check_infer.py`): the op and its operands, and
//! the result types Paddle printed.

use crate::testing::check;
/// `RecvV2InferMeta`: a dynamic shape leaves the dims alone.
#[test]
fn recv_v2() {
    // out_shape=[5]; dtype=float32; peer=0; ring_id=0; use_calc_stream=False; dynamic_shape=True
    check(
        r#"(%0) = "pd_op.recv_v2" () {dtype:float32,dynamic_shape:true,out_shape:[5],peer:0,ring_id:0,stop_gradient:[true],use_calc_stream:false} : () -> tensor<0xf32>"#,
        &["tensor<0xf32>"],
    );
    // out_shape=[1]; dtype=float32; peer=0; ring_id=0; use_calc_stream=False; dynamic_shape=True
    check(
        r#"(%0) = "pd_op.recv_v2" () {dtype:float32,dynamic_shape:true,out_shape:[1],peer:0,ring_id:0,stop_gradient:[true],use_calc_stream:false} : () -> tensor<0xf32>"#,
        &["tensor<0xf32>"],
    );
    // out_shape=[288]; dtype=float32; peer=0; ring_id=1; use_calc_stream=False; dynamic_shape=True
    check(
        r#"(%0) = "pd_op.recv_v2" () {dtype:float32,dynamic_shape:true,out_shape:[288],peer:0,ring_id:1,stop_gradient:[true],use_calc_stream:false} : () -> tensor<0xf32>"#,
        &["tensor<0xf32>"],
    );
    // out_shape=[5]; dtype=int32; peer=0; ring_id=0; use_calc_stream=True; dynamic_shape=True
    check(
        r#"(%0) = "pd_op.recv_v2" () {dtype:int32,dynamic_shape:true,out_shape:[5],peer:0,ring_id:0,stop_gradient:[true],use_calc_stream:true} : () -> tensor<0xi32>"#,
        &["tensor<i32>"],
    );
    // out_shape=[]; dtype=float32; peer=1; ring_id=0; use_calc_stream=False; dynamic_shape=True
    check(
        r#"(%0) = "pd_op.recv_v2" () {dtype:float32,dynamic_shape:true,out_shape:[],peer:1,ring_id:0,stop_gradient:[true],use_calc_stream:false} : () -> tensor<0xf32>"#,
        &["tensor<0xf32>"],
    );
    // out_shape=[-1]; dtype=int64; peer=0; ring_id=0; use_calc_stream=False; dynamic_shape=True
    check(
        r#"(%0) = "pd_op.recv_v2" () {dtype:int64,dynamic_shape:true,out_shape:[-1],peer:0,ring_id:0,stop_gradient:[true],use_calc_stream:false} : () -> tensor<0xi64>"#,
        &["tensor<i64>"],
    );
}
