//! `ChunkEvalInferMeta` and `CrfDecodingInferMeta` cases checked against
//! Paddle 3.3.1: programs Paddle built (its printed IR, trimmed to the op
//! and its operands) and the result types it printed.

use crate::testing::check;
use crate::testing::{program, refusal};

/// `ChunkEvalInferMeta`: `[1]` metrics and counts.
#[test]
fn chunk_eval() {
    // Precision, recall, F1, then the three chunk counts.
    const METRICS: [&str; 6] = [
        "tensor<1xf32>",
        "tensor<1xf32>",
        "tensor<1xf32>",
        "tensor<1xi64>",
        "tensor<1xi64>",
        "tensor<1xi64>",
    ];
    check(
        r#"(%17) = "pd_op.data" () {dtype:int64,name:"v18",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%18) = "pd_op.data" () {dtype:int64,name:"v19",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
(%55, %56, %57, %58, %59, %60) = "pd_op.chunk_eval" (%17, %18, <<NULL VALUE>>) {chunk_scheme:"IOB",excluded_chunk_types:[],num_chunk_types:3,stop_gradient:[true,true,true,true,true,true]} : (tensor<-1x1xi64>, tensor<-1x1xi64>, <<NULL TYPE>>) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>"#,
        &METRICS,
    );
    check(
        r#"(%19) = "pd_op.data" () {dtype:int64,name:"v20",place:Place(undefined:0),shape:[4,12],stop_gradient:[true]} : () -> tensor<4x12xi64>
(%20) = "pd_op.data" () {dtype:int64,name:"v21",place:Place(undefined:0),shape:[4,12],stop_gradient:[true]} : () -> tensor<4x12xi64>
(%21) = "pd_op.data" () {dtype:int64,name:"v22",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi64>
(%61, %62, %63, %64, %65, %66) = "pd_op.chunk_eval" (%19, %20, %21) {chunk_scheme:"IOB",excluded_chunk_types:[1],num_chunk_types:3,stop_gradient:[true,true,true,true,true,true]} : (tensor<4x12xi64>, tensor<4x12xi64>, tensor<4xi64>) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>"#,
        &METRICS,
    );
}

/// `CrfDecodingInferMeta`: `[N, 1]`, or `[N, T]` with lengths.
#[test]
fn crf_decoding() {
    check(
        r#"(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xf32>
(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[7,5],stop_gradient:[true]} : () -> tensor<7x5xf32>
(%52) = "pd_op.crf_decoding" (%8, %9, <<NULL VALUE>>, <<NULL VALUE>>) {stop_gradient:[true]} : (tensor<-1x5xf32>, tensor<7x5xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x1xf32>"#,
        &["tensor<-1x1xf32>"],
    );
    check(
        r#"(%10) = "pd_op.data" () {dtype:float64,name:"v11",place:Place(undefined:0),shape:[10,5],stop_gradient:[true]} : () -> tensor<10x5xf64>
(%11) = "pd_op.data" () {dtype:float64,name:"v12",place:Place(undefined:0),shape:[7,5],stop_gradient:[true]} : () -> tensor<7x5xf64>
(%12) = "pd_op.data" () {dtype:int64,name:"v13",place:Place(undefined:0),shape:[10,1],stop_gradient:[true]} : () -> tensor<10x1xi64>
(%53) = "pd_op.crf_decoding" (%10, %11, %12, <<NULL VALUE>>) {stop_gradient:[true]} : (tensor<10x5xf64>, tensor<7x5xf64>, tensor<10x1xi64>, <<NULL TYPE>>) -> tensor<10x1xf64>"#,
        &["tensor<10x1xf64>"],
    );
    check(
        r#"(%13) = "pd_op.data" () {dtype:float32,name:"v14",place:Place(undefined:0),shape:[4,12,5],stop_gradient:[true]} : () -> tensor<4x12x5xf32>
(%14) = "pd_op.data" () {dtype:float32,name:"v15",place:Place(undefined:0),shape:[7,5],stop_gradient:[true]} : () -> tensor<7x5xf32>
(%15) = "pd_op.data" () {dtype:int64,name:"v16",place:Place(undefined:0),shape:[4,12],stop_gradient:[true]} : () -> tensor<4x12xi64>
(%16) = "pd_op.data" () {dtype:int64,name:"v17",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi64>
(%54) = "pd_op.crf_decoding" (%13, %14, %15, %16) {stop_gradient:[true]} : (tensor<4x12x5xf32>, tensor<7x5xf32>, tensor<4x12xi64>, tensor<4xi64>) -> tensor<4x12xf32>"#,
        &["tensor<4x12xf32>"],
    );
}

/// Paddle's refusals of `crf_decoding` and `chunk_eval`.
#[test]
fn sequence_tagging_refusals() {
    let crf = |e: &[i64], t: &[i64], l: Option<&[i64]>| {
        refusal(&program(
            "pd_op.crf_decoding",
            &[
                Some(("float32", "f32", e)),
                Some(("float32", "f32", t)),
                l.map(|l| ("int64", "i64", l)),
                None,
            ],
            "",
            1,
        ))
    };
    let e = crf(&[-1, 5], &[6, 5], None);
    assert!(e.contains("An invalid dimension for the Input(Transition), which should be a 2-D tensor with shape [(D + 2) x D]."), "{e}");
    let e = crf(&[-1, 4], &[7, 5], None);
    assert!(e.contains("The last dimension of the Input(Emission) and the Input(Transition) should be equal to the tag number."), "{e}");
    let e = crf(&[10, 5], &[7, 5], Some(&[10, 2]));
    assert!(e.contains("The Input(Label) should be a 2-D tensor with last dimension fixed to 1 or a 1-D tensor. But received: input rank 2"), "{e}");
    let e = refusal(&program(
        "pd_op.chunk_eval",
        &[
            Some(("int64", "i64", &[4, 1])),
            Some(("int64", "i64", &[5, 1])),
            None,
        ],
        "chunk_scheme:\"IOB\",excluded_chunk_types:[],num_chunk_types:3",
        6,
    ));
    assert!(e.contains("Input(Inference)'s shape must be the same as Input(Label)'s shape, but received [4, 1] (Inference) vs [5, 1] (Label)."), "{e}");
}
