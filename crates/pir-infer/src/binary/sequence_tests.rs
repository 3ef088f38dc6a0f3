//! `CvmInferMeta` and `CtcAlignInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::check;
use crate::testing::{program, refusal};

/// `CvmInferMeta`: `[N, D]`, or `[N, D - 2]` without the CVM columns.
#[test]
fn cvm() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[-1,10],stop_gradient:[true]} : () -> tensor<-1x10xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"v2",place:Place(undefined:0),shape:[-1,2],stop_gradient:[true]} : () -> tensor<-1x2xf32>
(%23) = "pd_op.cvm" (%0, %1) {stop_gradient:[true],use_cvm:true} : (tensor<-1x10xf32>, tensor<-1x2xf32>) -> tensor<-1x10xf32>"#,
        &["tensor<-1x10xf32>"],
    );
    check(
        r#"(%2) = "pd_op.data" () {dtype:float64,name:"v3",place:Place(undefined:0),shape:[4,10],stop_gradient:[true]} : () -> tensor<4x10xf64>
(%3) = "pd_op.data" () {dtype:float64,name:"v4",place:Place(undefined:0),shape:[4,2],stop_gradient:[true]} : () -> tensor<4x2xf64>
(%24) = "pd_op.cvm" (%2, %3) {stop_gradient:[true],use_cvm:false} : (tensor<4x10xf64>, tensor<4x2xf64>) -> tensor<4x8xf64>"#,
        &["tensor<4x8xf64>"],
    );
}

/// `CtcAlignInferMeta`: the input's dims; `[N, 1]` lengths when given.
#[test]
fn ctc_align() {
    check(
        r#"(%4) = "pd_op.data" () {dtype:int32,name:"v5",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi32>
(%25, %26) = "pd_op.ctc_align" (%4, <<NULL VALUE>>) {blank:0,merge_repeated:true,padding_value:0,stop_gradient:[true,true]} : (tensor<-1x1xi32>, <<NULL TYPE>>) -> tensor<-1x1xi32>, <<NULL TYPE>>"#,
        &["tensor<-1x1xi32>", "null"],
    );
    check(
        r#"(%5) = "pd_op.data" () {dtype:int64,name:"v6",place:Place(undefined:0),shape:[4,7],stop_gradient:[true]} : () -> tensor<4x7xi64>
(%6) = "pd_op.data" () {dtype:int64,name:"v7",place:Place(undefined:0),shape:[4,1],stop_gradient:[true]} : () -> tensor<4x1xi64>
(%27, %28) = "pd_op.ctc_align" (%5, %6) {blank:0,merge_repeated:true,padding_value:0,stop_gradient:[true,true]} : (tensor<4x7xi64>, tensor<4x1xi64>) -> tensor<4x7xi64>, tensor<4x1xf32>"#,
        &["tensor<4x7xi64>", "tensor<4x1xf32>"],
    );
}

/// Paddle refuses an x of another rank than 2.
#[test]
fn cvm_refuses_rank_3() {
    let e = refusal(&program(
        "pd_op.cvm",
        &[
            Some(("float32", "f32", &[4, 10, 2])),
            Some(("float32", "f32", &[4, 2])),
        ],
        "use_cvm:true",
        1,
    ));
    assert!(e.contains("Input(X)'s rank should be 2, but got 3"), "{e}");
}

/// `SequenceExpandInferMeta`: an unknown first extent.
#[test]
fn sequence_expand() {
    check(
        r#"(%15) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[4,8],stop_gradient:[true]} : () -> tensor<4x8xf32>
(%16) = "pd_op.data" () {dtype:float32,name:"v17",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xf32>
(%72) = "pd_op.sequence_expand" (%15, %16) {ref_level:-1,stop_gradient:[true]} : (tensor<4x8xf32>, tensor<-1x1xf32>) -> tensor<-1x8xf32>"#,
        &["tensor<-1x8xf32>"],
    );
    check(
        r#"(%17) = "pd_op.data" () {dtype:float64,name:"v18",place:Place(undefined:0),shape:[-1,2,3],stop_gradient:[true]} : () -> tensor<-1x2x3xf64>
(%18) = "pd_op.data" () {dtype:float64,name:"v19",place:Place(undefined:0),shape:[4,1],stop_gradient:[true]} : () -> tensor<4x1xf64>
(%73) = "pd_op.sequence_expand" (%17, %18) {ref_level:0,stop_gradient:[true]} : (tensor<-1x2x3xf64>, tensor<4x1xf64>) -> tensor<-1x2x3xf64>"#,
        &["tensor<-1x2x3xf64>"],
    );
}

/// Paddle refuses a `sequence_expand` x of rank 1.
#[test]
fn sequence_expand_refuses_rank_1() {
    let e = refusal(&program(
        "pd_op.sequence_expand",
        &[
            Some(("float32", "f32", &[4])),
            Some(("float32", "f32", &[-1, 1])),
        ],
        "ref_level:-1",
        1,
    ));
    assert!(
        e.contains("Dimension number of Input(X) should be at least 2. But received: input rank 1"),
        "{e}"
    );
}

/// `RowConvInferMeta` (from Paddle's source; the op has no Python
/// builder, the legacy corpus holds one): like x, with a rank-2 filter.
#[test]
fn row_conv() {
    let t = program(
        "pd_op.row_conv",
        &[
            Some(("float32", "f32", &[-1, 16])),
            Some(("float32", "f32", &[3, 16])),
        ],
        "",
        1,
    );
    assert_eq!(crate::testing::types(&t), ["tensor<-1x16xf32>"]);
    let e = refusal(&program(
        "pd_op.row_conv",
        &[
            Some(("float32", "f32", &[-1, 16])),
            Some(("float32", "f32", &[3])),
        ],
        "",
        1,
    ));
    assert!(e.contains("Input(Filter)'s dimensions should be 2."), "{e}");
}
/// `BeamSearchDecodeInferMeta` (from Paddle's prints): results left alone.
#[test]
fn beam_search_decode() {
    // ids:int64[2,5,4,5]; scores:float32[2,5,4,5]; beam_size=1; end_id=2
    check(
        r#"(%0) = "pd_op.data" () {dtype:int64,name:"ids",place:Place(undefined:0),shape:[2,5,4,5],stop_gradient:[true]} : () -> tensor<2x5x4x5xi64>
(%1) = "pd_op.data" () {dtype:float32,name:"scores",place:Place(undefined:0),shape:[2,5,4,5],stop_gradient:[true]} : () -> tensor<2x5x4x5xf32>
(%2, %3) = "pd_op.beam_search_decode" (%0, %1) {beam_size:1,end_id:2,stop_gradient:[true,true]} : (tensor<2x5x4x5xi64>, tensor<2x5x4x5xf32>) -> tensor<0xf32>, tensor<0xf32>"#,
        &["tensor<0xf32>", "tensor<0xf32>"],
    );
    // ids:int64[2,5]; scores:float32[2,5]; beam_size=1; end_id=0
    check(
        r#"(%0) = "pd_op.data" () {dtype:int64,name:"ids",place:Place(undefined:0),shape:[2,5],stop_gradient:[true]} : () -> tensor<2x5xi64>
(%1) = "pd_op.data" () {dtype:float32,name:"scores",place:Place(undefined:0),shape:[2,5],stop_gradient:[true]} : () -> tensor<2x5xf32>
(%2, %3) = "pd_op.beam_search_decode" (%0, %1) {beam_size:1,end_id:0,stop_gradient:[true,true]} : (tensor<2x5xi64>, tensor<2x5xf32>) -> tensor<0xf32>, tensor<0xf32>"#,
        &["tensor<0xf32>", "tensor<0xf32>"],
    );
}
