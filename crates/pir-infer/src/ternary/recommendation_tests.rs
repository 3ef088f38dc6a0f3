//! `RankAttentionInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;
use crate::testing::{program, refusal};

/// `RankAttentionInferMeta`.
#[test]
fn rank_attention() {
    check(
        r#"(%42) = "pd_op.data" () {dtype:float32,name:"v43",place:Place(undefined:0),shape:[4,8],stop_gradient:[true]} : () -> tensor<4x8xf32>
(%43) = "pd_op.data" () {dtype:int32,name:"v44",place:Place(undefined:0),shape:[4,7],stop_gradient:[true]} : () -> tensor<4x7xi32>
(%44) = "pd_op.data" () {dtype:float32,name:"v45",place:Place(undefined:0),shape:[72,16],stop_gradient:[true]} : () -> tensor<72x16xf32>
(%98, %99, %100) = "pd_op.rank_attention" (%42, %43, %44) {max_rank:3,max_size:0,stop_gradient:[true,true,true]} : (tensor<4x8xf32>, tensor<4x7xi32>, tensor<72x16xf32>) -> tensor<4x24xf32>, tensor<4x16xf32>, tensor<4x1xf32>"#,
        &["tensor<4x24xf32>", "tensor<4x16xf32>", "tensor<4x1xf32>"],
    );
    check(
        r#"(%45) = "pd_op.data" () {dtype:float64,name:"v46",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf64>
(%46) = "pd_op.data" () {dtype:int32,name:"v47",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xi32>
(%47) = "pd_op.data" () {dtype:float64,name:"v48",place:Place(undefined:0),shape:[20,7],stop_gradient:[true]} : () -> tensor<20x7xf64>
(%101, %102, %103) = "pd_op.rank_attention" (%45, %46, %47) {max_rank:2,max_size:3,stop_gradient:[true,true,true]} : (tensor<-1x5xf64>, tensor<-1x5xi32>, tensor<20x7xf64>) -> tensor<-1x10xf64>, tensor<-1x7xf64>, tensor<-1x1xf64>"#,
        &["tensor<-1x10xf64>", "tensor<-1x7xf64>", "tensor<-1x1xf64>"],
    );
}

/// Paddle refuses a rank offset of the wrong width.
#[test]
fn rank_attention_refusal() {
    let e = refusal(&program(
        "pd_op.rank_attention",
        &[
            Some(("float32", "f32", &[4, 8])),
            Some(("int32", "i32", &[4, 5])),
            Some(("float32", "f32", &[72, 16])),
        ],
        "max_rank:3,max_size:0",
        3,
    ));
    assert!(
        e.contains("Input(RankOffset) has wrong columns, except columns to be 3, but got 2"),
        "{e}"
    );
}
