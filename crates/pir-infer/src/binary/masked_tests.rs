//! `MaskedFillInferMeta` and `ReduceAsInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::{check, infer_last};

/// `MaskedFillInferMeta`: x broadcast with the mask, zero and unknown extents.
#[test]
fn masked_fill() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"v1",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%1) = "pd_op.data" () {dtype:bool,name:"v2",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xb>
(%2) = "pd_op.data" () {dtype:float32,name:"v3",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%109) = "pd_op.masked_fill" (%0, %1, %2) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<3x4xb>, tensor<f32>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
    check(
        r#"(%3) = "pd_op.data" () {dtype:float32,name:"v4",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%4) = "pd_op.data" () {dtype:bool,name:"v5",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xb>
(%5) = "pd_op.data" () {dtype:float32,name:"v6",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%110) = "pd_op.masked_fill" (%3, %4, %5) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<4xb>, tensor<f32>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
    check(
        r#"(%6) = "pd_op.data" () {dtype:float32,name:"v7",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%7) = "pd_op.data" () {dtype:bool,name:"v8",place:Place(undefined:0),shape:[3,1],stop_gradient:[true]} : () -> tensor<3x1xb>
(%8) = "pd_op.data" () {dtype:float32,name:"v9",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xf32>
(%111) = "pd_op.masked_fill" (%6, %7, %8) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<3x1xb>, tensor<1xf32>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
    check(
        r#"(%9) = "pd_op.data" () {dtype:float32,name:"v10",place:Place(undefined:0),shape:[2,1,4],stop_gradient:[true]} : () -> tensor<2x1x4xf32>
(%10) = "pd_op.data" () {dtype:bool,name:"v11",place:Place(undefined:0),shape:[3,1],stop_gradient:[true]} : () -> tensor<3x1xb>
(%11) = "pd_op.data" () {dtype:float32,name:"v12",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%112) = "pd_op.masked_fill" (%9, %10, %11) {stop_gradient:[true]} : (tensor<2x1x4xf32>, tensor<3x1xb>, tensor<f32>) -> tensor<2x3x4xf32>"#,
        &["tensor<2x3x4xf32>"],
    );
    check(
        r#"(%12) = "pd_op.data" () {dtype:float32,name:"v13",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%13) = "pd_op.data" () {dtype:bool,name:"v14",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xb>
(%14) = "pd_op.data" () {dtype:float32,name:"v15",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%113) = "pd_op.masked_fill" (%12, %13, %14) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<3x4xb>, tensor<4xf32>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
    check(
        r#"(%15) = "pd_op.data" () {dtype:float32,name:"v16",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%16) = "pd_op.data" () {dtype:bool,name:"v17",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xb>
(%17) = "pd_op.data" () {dtype:float32,name:"v18",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%114) = "pd_op.masked_fill" (%15, %16, %17) {stop_gradient:[true]} : (tensor<4xf32>, tensor<3x4xb>, tensor<f32>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
    check(
        r#"(%18) = "pd_op.data" () {dtype:float32,name:"v19",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%19) = "pd_op.data" () {dtype:bool,name:"v20",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xb>
(%20) = "pd_op.data" () {dtype:float32,name:"v21",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%115) = "pd_op.masked_fill" (%18, %19, %20) {stop_gradient:[true]} : (tensor<f32>, tensor<3xb>, tensor<f32>) -> tensor<3xf32>"#,
        &["tensor<3xf32>"],
    );
    check(
        r#"(%21) = "pd_op.data" () {dtype:float32,name:"v22",place:Place(undefined:0),shape:[0,4],stop_gradient:[true]} : () -> tensor<0x4xf32>
(%22) = "pd_op.data" () {dtype:bool,name:"v23",place:Place(undefined:0),shape:[1,4],stop_gradient:[true]} : () -> tensor<1x4xb>
(%23) = "pd_op.data" () {dtype:float32,name:"v24",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%116) = "pd_op.masked_fill" (%21, %22, %23) {stop_gradient:[true]} : (tensor<0x4xf32>, tensor<1x4xb>, tensor<f32>) -> tensor<0x4xf32>"#,
        &["tensor<0x4xf32>"],
    );
    check(
        r#"(%24) = "pd_op.data" () {dtype:float32,name:"v25",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%25) = "pd_op.data" () {dtype:bool,name:"v26",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xb>
(%26) = "pd_op.data" () {dtype:float32,name:"v27",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%117) = "pd_op.masked_fill" (%24, %25, %26) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x1xb>, tensor<f32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%27) = "pd_op.data" () {dtype:float32,name:"v28",place:Place(undefined:0),shape:[1,4],stop_gradient:[true]} : () -> tensor<1x4xf32>
(%28) = "pd_op.data" () {dtype:bool,name:"v29",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xb>
(%29) = "pd_op.data" () {dtype:float32,name:"v30",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%118) = "pd_op.masked_fill" (%27, %28, %29) {stop_gradient:[true]} : (tensor<1x4xf32>, tensor<-1x4xb>, tensor<f32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%30) = "pd_op.data" () {dtype:float64,name:"v31",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf64>
(%31) = "pd_op.data" () {dtype:bool,name:"v32",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xb>
(%32) = "pd_op.data" () {dtype:float64,name:"v33",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f64>
(%119) = "pd_op.masked_fill" (%30, %31, %32) {stop_gradient:[true]} : (tensor<2x3xf64>, tensor<2x3xb>, tensor<f64>) -> tensor<2x3xf64>"#,
        &["tensor<2x3xf64>"],
    );
    check(
        r#"(%36) = "pd_op.data" () {dtype:float32,name:"v37",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xf32>
(%37) = "pd_op.data" () {dtype:bool,name:"v38",place:Place(undefined:0),shape:[-1,8],stop_gradient:[true]} : () -> tensor<-1x8xb>
(%121) = "pd_op.full" () {dtype:float32,place:Place(undefined:0),shape:[],stop_gradient:[true],value:0.5} : () -> tensor<f32>
(%122) = "pd_op.cast" (%37) {dtype:bool,stop_gradient:[true]} : (tensor<-1x8xb>) -> tensor<-1x8xb>
(%123) = "pd_op.masked_fill" (%36, %122, %121) {stop_gradient:[true]} : (tensor<-1x8xf32>, tensor<-1x8xb>, tensor<f32>) -> tensor<-1x8xf32>"#,
        &["tensor<-1x8xf32>"],
    );
}

/// `MaskedFillInferMeta` of the in-place op.
#[test]
fn masked_fill_inplace() {
    check(
        r#"(%33) = "pd_op.data" () {dtype:float32,name:"v34",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%34) = "pd_op.data" () {dtype:bool,name:"v35",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xb>
(%35) = "pd_op.data" () {dtype:float32,name:"v36",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%120) = "pd_op.masked_fill_" (%33, %34, %35) {stop_gradient:[true]} : (tensor<2x3xf32>, tensor<3xb>, tensor<f32>) -> tensor<2x3xf32>"#,
        &["tensor<2x3xf32>"],
    );
}

/// `ReduceAsInferMeta`: the target's dims; bool and int32 sum as int64.
#[test]
fn reduce_as() {
    check(
        r#"(%38) = "pd_op.data" () {dtype:float32,name:"v39",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%39) = "pd_op.data" () {dtype:float32,name:"v40",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%124) = "pd_op.reduce_as" (%38, %39) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<4xf32>"#,
        &["tensor<4xf32>"],
    );
    check(
        r#"(%40) = "pd_op.data" () {dtype:float32,name:"v41",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%41) = "pd_op.data" () {dtype:float32,name:"v42",place:Place(undefined:0),shape:[1,4],stop_gradient:[true]} : () -> tensor<1x4xf32>
(%125) = "pd_op.reduce_as" (%40, %41) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>"#,
        &["tensor<1x4xf32>"],
    );
    check(
        r#"(%42) = "pd_op.data" () {dtype:float32,name:"v43",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%43) = "pd_op.data" () {dtype:float32,name:"v44",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
(%126) = "pd_op.reduce_as" (%42, %43) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<4xf32>) -> tensor<4xf32>"#,
        &["tensor<4xf32>"],
    );
    check(
        r#"(%44) = "pd_op.data" () {dtype:float32,name:"v45",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf32>
(%45) = "pd_op.data" () {dtype:float32,name:"v46",place:Place(undefined:0),shape:[3,1],stop_gradient:[true]} : () -> tensor<3x1xf32>
(%127) = "pd_op.reduce_as" (%44, %45) {stop_gradient:[true]} : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>"#,
        &["tensor<3x1xf32>"],
    );
    check(
        r#"(%46) = "pd_op.data" () {dtype:float32,name:"v47",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>
(%47) = "pd_op.data" () {dtype:float32,name:"v48",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
(%128) = "pd_op.reduce_as" (%46, %47) {stop_gradient:[true]} : (tensor<3x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
        &["tensor<-1x4xf32>"],
    );
    check(
        r#"(%48) = "pd_op.data" () {dtype:int32,name:"v49",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xi32>
(%49) = "pd_op.data" () {dtype:int32,name:"v50",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi32>
(%129) = "pd_op.reduce_as" (%48, %49) {stop_gradient:[true]} : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<4xi64>"#,
        &["tensor<4xi64>"],
    );
    check(
        r#"(%50) = "pd_op.data" () {dtype:bool,name:"v51",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xb>
(%51) = "pd_op.data" () {dtype:bool,name:"v52",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xb>
(%130) = "pd_op.reduce_as" (%50, %51) {stop_gradient:[true]} : (tensor<3x4xb>, tensor<4xb>) -> tensor<4xi64>"#,
        &["tensor<4xi64>"],
    );
    check(
        r#"(%52) = "pd_op.data" () {dtype:int8,name:"v53",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xi8>
(%53) = "pd_op.data" () {dtype:int8,name:"v54",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi8>
(%131) = "pd_op.reduce_as" (%52, %53) {stop_gradient:[true]} : (tensor<3x4xi8>, tensor<4xi8>) -> tensor<4xi8>"#,
        &["tensor<4xi8>"],
    );
    check(
        r#"(%54) = "pd_op.data" () {dtype:float16,name:"v55",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf16>
(%55) = "pd_op.data" () {dtype:float16,name:"v56",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf16>
(%132) = "pd_op.reduce_as" (%54, %55) {stop_gradient:[true]} : (tensor<3x4xf16>, tensor<4xf16>) -> tensor<4xf16>"#,
        &["tensor<4xf16>"],
    );
    check(
        r#"(%56) = "pd_op.data" () {dtype:float64,name:"v57",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf64>
(%57) = "pd_op.data" () {dtype:float64,name:"v58",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[true]} : () -> tensor<2x3x4xf64>
(%133) = "pd_op.reduce_as" (%56, %57) {stop_gradient:[true]} : (tensor<3x4xf64>, tensor<2x3x4xf64>) -> tensor<2x3x4xf64>"#,
        &["tensor<2x3x4xf64>"],
    );
    check(
        r#"(%58) = "pd_op.data" () {dtype:int64,name:"v59",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xi64>
(%59) = "pd_op.data" () {dtype:int64,name:"v60",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xi64>
(%134) = "pd_op.reduce_as" (%58, %59) {stop_gradient:[true]} : (tensor<3x4xi64>, tensor<4xi64>) -> tensor<4xi64>"#,
        &["tensor<4xi64>"],
    );
}

/// Paddle's broadcast refuses unequal extents unless one is 1 (or -1), and
/// a zero extent broadcasts only against 1.
#[test]
fn masked_fill_refuses_unbroadcastable_dims() {
    let body = |x: &str, m: &str| {
        format!(
            "{{\n(%0) = \"pd_op.data\" () {{dtype:float32,name:\"x\",place:Place(undefined:0),shape:[{x}],stop_gradient:[true]}} : () -> tensor<{}xf32>\n\
             (%1) = \"pd_op.data\" () {{dtype:bool,name:\"m\",place:Place(undefined:0),shape:[{m}],stop_gradient:[true]}} : () -> tensor<{}xb>\n\
             (%2) = \"pd_op.data\" () {{dtype:float32,name:\"v\",place:Place(undefined:0),shape:[],stop_gradient:[true]}} : () -> tensor<f32>\n\
             (%3) = \"pd_op.masked_fill\" (%0, %1, %2) {{}} : (tensor<{}xf32>, tensor<{}xb>, tensor<f32>) -> tensor<f32>\n}}\n",
            x.replace(',', "x"),
            m.replace(',', "x"),
            x.replace(',', "x"),
            m.replace(',', "x")
        )
    };
    let e = infer_last(&body("3,4", "5,4")).unwrap_err();
    assert!(e.contains("Broadcast dimension mismatch"), "{e}");
    assert!(
        e.contains("Received [3] in X is not equal to [5] in Y at i:0."),
        "{e}"
    );
    let e = infer_last(&body("3,4", "0,4")).unwrap_err();
    assert!(
        e.contains("Received [3] in X is not equal to [0] in Y at i:0."),
        "{e}"
    );
}
