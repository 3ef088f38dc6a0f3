//! `ShuffleBatchInferMeta` and `TdmChildInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;
use crate::testing::{program, refusal};

/// `ShuffleBatchInferMeta`.
#[test]
fn shuffle_batch() {
    check(
        r#"(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>
(%12) = "pd_op.data" () {dtype:int64,name:"v13",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%66, %67, %68) = "pd_op.shuffle_batch" (%11, %12) {startup_seed:0,stop_gradient:[true,true,true]} : (tensor<-1x8xf32>, tensor<1xi64>) -> tensor<-1x8xf32>, tensor<-1xf32>, tensor<1xi64>"#,
        &["tensor<-1x8xf32>", "tensor<-1xf32>", "tensor<1xi64>"],
    );
    check(
        r#"(%13) = "pd_op.data" () {dtype:float64,name:"v14",place:Place(undefined:0),shape:[4,3,2],stop_gradient:[true]} : () -> tensor<4x3x2xf64>
(%14) = "pd_op.data" () {dtype:int64,name:"v15",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%69, %70, %71) = "pd_op.shuffle_batch" (%13, %14) {startup_seed:5,stop_gradient:[true,true,true]} : (tensor<4x3x2xf64>, tensor<1xi64>) -> tensor<4x3x2xf64>, tensor<-1xf32>, tensor<1xi64>"#,
        &["tensor<4x3x2xf64>", "tensor<-1xf32>", "tensor<1xi64>"],
    );
}

/// `TdmChildInferMeta`: x's dims plus `[child_nums]`, x's data type.
#[test]
fn tdm_child() {
    check(
        r#"(%7) = "pd_op.data" () {dtype:int64,name:"v8",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%8) = "pd_op.data" () {dtype:int64,name:"v9",place:Place(undefined:0),shape:[30,5],stop_gradient:[true]} : () -> tensor<30x5xi64>
(%62, %63) = "pd_op.tdm_child" (%7, %8) {child_nums:2,dtype:int32,stop_gradient:[true,true]} : (tensor<-1x1xi64>, tensor<30x5xi64>) -> tensor<-1x1x2xi64>, tensor<-1x1x2xi64>"#,
        &["tensor<-1x1x2xi64>", "tensor<-1x1x2xi64>"],
    );
    check(
        r#"(%9) = "pd_op.data" () {dtype:int32,name:"v10",place:Place(undefined:0),shape:[4,3],stop_gradient:[true]} : () -> tensor<4x3xi32>
(%10) = "pd_op.data" () {dtype:int32,name:"v11",place:Place(undefined:0),shape:[30,5],stop_gradient:[true]} : () -> tensor<30x5xi32>
(%64, %65) = "pd_op.tdm_child" (%9, %10) {child_nums:3,dtype:int64,stop_gradient:[true,true]} : (tensor<4x3xi32>, tensor<30x5xi32>) -> tensor<4x3x3xi32>, tensor<4x3x3xi32>"#,
        &["tensor<4x3x3xi32>", "tensor<4x3x3xi32>"],
    );
}

/// Paddle's refusals of `tdm_child`.
#[test]
fn tdm_child_refusals() {
    let e = refusal(&program(
        "pd_op.tdm_child",
        &[
            Some(("int64", "i64", &[4, 1])),
            Some(("int64", "i64", &[30])),
        ],
        "child_nums:2,dtype:int32",
        2,
    ));
    assert!(e.contains("ShapeError: The dimensions of the 'tree info' must be 2. But received tree info's dimensions = 1"), "{e}");
    let e = refusal(&program(
        "pd_op.tdm_child",
        &[
            Some(("int64", "i64", &[4, 1])),
            Some(("int64", "i64", &[30, 5])),
        ],
        "child_nums:0,dtype:int32",
        2,
    ));
    assert!(e.contains("ValueError: The value of the 'child_nums' must greater than 0. But received child_nums value = 0"), "{e}");
}
