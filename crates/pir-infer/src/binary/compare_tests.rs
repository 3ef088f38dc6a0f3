//! `equal_all`, `allclose` and `atan2` checked against Paddle 3.3.1:
//! programs Paddle built (its printed IR) and the result types it printed.

use crate::testing::{check, infer_last};

/// `CompareAllInferMeta` sets only the 0-d dims: the data type stays float32, whatever the inputs are (no rank check either).
#[test]
fn equal_all_sets_only_the_dims() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:int64,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xi64>
(%1) = "pd_op.data" () {dtype:int64,name:"y",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xi64>
(%2) = "pd_op.equal_all" (%0, %1) {stop_gradient:[true]} : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:bool,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xb>
(%1) = "pd_op.data" () {dtype:bool,name:"y",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xb>
(%2) = "pd_op.equal_all" (%0, %1) {stop_gradient:[true]} : (tensor<2x3xb>, tensor<2x3xb>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%2) = "pd_op.equal_all" (%0, %1) {stop_gradient:[true]} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
}

/// `AllValueCompareInferMeta`: a 0-d bool; an unknown dim matches any.
#[test]
fn allclose_is_a_0d_bool() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> tensor<-1x3xf32>
(%2) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-05} : () -> tensor<1xf64>
(%3) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf64>
(%4) = "pd_op.allclose" (%0, %1, %2, %3) {equal_nan:false,stop_gradient:[true]} : (tensor<2x3xf32>, tensor<-1x3xf32>, tensor<1xf64>, tensor<1xf64>) -> tensor<b>"#,
        &["tensor<b>"],
    );
}

/// `Atan2InferMeta`: x's meta without broadcasting; int32 and int64 give float64.
#[test]
fn atan2_keeps_x_and_widens_integers() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[6,1],stop_gradient:[true]} : () -> tensor<6x1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[6,5],stop_gradient:[true]} : () -> tensor<6x5xf32>
(%2) = "pd_op.atan2" (%0, %1) {stop_gradient:[true]} : (tensor<6x1xf32>, tensor<6x5xf32>) -> tensor<6x1xf32>"#,
        &["tensor<6x1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xf32>
(%2) = "pd_op.atan2" (%0, %1) {stop_gradient:[true]} : (tensor<-1xf32>, tensor<5xf32>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:int64,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xi64>
(%1) = "pd_op.data" () {dtype:int64,name:"y",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xi64>
(%2) = "pd_op.atan2" (%0, %1) {stop_gradient:[true]} : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xf64>"#,
        &["tensor<2x3xf64>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:int32,name:"x",place:Place(undefined:0),shape:[6,5,2,6],stop_gradient:[true]} : () -> tensor<6x5x2x6xi32>
(%1) = "pd_op.data" () {dtype:int32,name:"y",place:Place(undefined:0),shape:[6,5,2,1],stop_gradient:[true]} : () -> tensor<6x5x2x1xi32>
(%2) = "pd_op.atan2" (%0, %1) {stop_gradient:[true]} : (tensor<6x5x2x6xi32>, tensor<6x5x2x1xi32>) -> tensor<6x5x2x6xf64>"#,
        &["tensor<6x5x2x6xf64>"],
    );
}

/// What Paddle refuses: `allclose` of other ranks or known dims that
/// differ; `atan2` of other ranks or with `x.dims[0] > y.dims[0]` (an
/// unknown -1 of y included).
#[test]
fn refusals() {
    let two = |op: &str, x: &str, y: &str, extra: &str| {
        let t = |d: &str| {
            if d.is_empty() {
                "tensor<f32>".to_owned()
            } else {
                format!("tensor<{}xf32>", d.replace(',', "x"))
            }
        };
        format!(
            "{{\n(%0) = \"pd_op.data\" () {{dtype:float32,name:\"x\",place:Place(undefined:0),shape:[{x}],stop_gradient:[true]}} : () -> {tx}\n\
             (%1) = \"pd_op.data\" () {{dtype:float32,name:\"y\",place:Place(undefined:0),shape:[{y}],stop_gradient:[true]}} : () -> {ty}\n\
             {extra}(%4) = \"{op}\" (%0, %1{args}) {{stop_gradient:[true]}} : ({tx}, {ty}{types}) -> tensor<f32>\n}}\n",
            tx = t(x),
            ty = t(y),
            args = if extra.is_empty() { "" } else { ", %2, %3" },
            types = if extra.is_empty() { "" } else { ", tensor<1xf64>, tensor<1xf64>" },
        )
    };
    let tols = "(%2) = \"pd_op.full\" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-05} : () -> tensor<1xf64>\n\
                (%3) = \"pd_op.full\" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1e-08} : () -> tensor<1xf64>\n";
    let allclose = |x: &str, y: &str| {
        two("pd_op.allclose", x, y, tols).replace(
            "\"pd_op.allclose\" (%0, %1, %2, %3) {",
            "\"pd_op.allclose\" (%0, %1, %2, %3) {equal_nan:false,",
        )
    };
    assert!(infer_last(&allclose("2,3", "-1,3")).is_ok());
    assert!(infer_last(&allclose("2,3", "2,4")).is_err());
    assert!(infer_last(&allclose("2,3", "3")).is_err());
    assert!(infer_last(&two("pd_op.atan2", "-1", "5", "")).is_ok());
    assert!(infer_last(&two("pd_op.atan2", "5", "-1", "")).is_err());
    assert!(infer_last(&two("pd_op.atan2", "7", "5", "")).is_err());
    assert!(infer_last(&two("pd_op.atan2", "2,3", "3", "")).is_err());
}
