//! Cases checked against Paddle 3.3.1: programs Paddle built (its printed
//! IR, trimmed to the op and its inputs) and the result types it printed.

use crate::testing::check;

/// `ReadFileInferMeta`.
#[test]
fn read_file() {
    check(
        r#"(%43) = "pd_op.read_file" () {dtype:uint8,filename:"a.jpg",place:Place(cpu),stop_gradient:[true]} : () -> tensor<-1xu8>"#,
        &["tensor<-1xu8>"],
    );
}

/// `TrilIndicesInferMeta`.
#[test]
fn tril_indices() {
    check(
        r#"(%36) = "pd_op.tril_indices" () {cols:5,dtype:int64,offset:0,place:Place(cpu),rows:4,stop_gradient:[true]} : () -> tensor<2x10xi64>"#,
        &["tensor<2x10xi64>"],
    );
    check(
        r#"(%37) = "pd_op.tril_indices" () {cols:5,dtype:int32,offset:-1,place:Place(cpu),rows:4,stop_gradient:[true]} : () -> tensor<2x6xi32>"#,
        &["tensor<2x6xi32>"],
    );
    check(
        r#"(%38) = "pd_op.tril_indices" () {cols:5,dtype:int64,offset:2,place:Place(cpu),rows:4,stop_gradient:[true]} : () -> tensor<2x17xi64>"#,
        &["tensor<2x17xi64>"],
    );
}

/// `TriuIndicesInferMeta`.
#[test]
fn triu_indices() {
    check(
        r#"(%40) = "pd_op.triu_indices" () {col:5,dtype:int64,offset:0,place:Place(cpu),row:4,stop_gradient:[true]} : () -> tensor<2x14xi64>"#,
        &["tensor<2x14xi64>"],
    );
    check(
        r#"(%41) = "pd_op.triu_indices" () {col:5,dtype:int64,offset:2,place:Place(cpu),row:4,stop_gradient:[true]} : () -> tensor<2x6xi64>"#,
        &["tensor<2x6xi64>"],
    );
    check(
        r#"(%42) = "pd_op.triu_indices" () {col:3,dtype:int64,offset:-1,place:Place(cpu),row:3,stop_gradient:[true]} : () -> tensor<2x8xi64>"#,
        &["tensor<2x8xi64>"],
    );
}

/// `TruncatedGaussianRandomInferMeta`.
#[test]
fn truncated_gaussian_random() {
    check(
        r#"(%35) = "pd_op.truncated_gaussian_random" () {a:-2,b:2,dtype:float64,mean:0,place:Place(cpu),seed:0,shape:[3,4],std:1,stop_gradient:[true]} : () -> tensor<3x4xf64>"#,
        &["tensor<3x4xf64>"],
    );
}

/// `ArangeInferMeta`: a step pointing away from `end` gives length 0.
#[test]
fn arange_away_from_the_end_is_empty() {
    check(
        r#"(%0) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf64>
(%1) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%2) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf64>
(%3) = "pd_op.arange" (%0, %1, %2) {dtype:float64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<0xf64>"#,
        &["tensor<0xf64>"],
    );
    check(
        r#"(%0) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%1) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xf64>
(%2) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:-1} : () -> tensor<1xf64>
(%3) = "pd_op.arange" (%0, %1, %2) {dtype:float32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<0xf32>"#,
        &["tensor<0xf32>"],
    );
    check(
        r#"(%0) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%1) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xf64>
(%2) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:-3} : () -> tensor<1xf64>
(%3) = "pd_op.arange" (%0, %1, %2) {dtype:int32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<0xi32>"#,
        &["tensor<0xi32>"],
    );
    check(
        r#"(%0) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xf64>
(%1) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf64>
(%2) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%3) = "pd_op.arange" (%0, %1, %2) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<0xi64>"#,
        &["tensor<0xi64>"],
    );
    check(
        r#"(%0) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xf64>
(%1) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%2) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:-3} : () -> tensor<1xf64>
(%3) = "pd_op.arange" (%0, %1, %2) {dtype:float32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xf32>"#,
        &["tensor<4xf32>"],
    );
}

/// `ArangeInferMeta` refuses a step of 0 in the output's type (Paddle 3.3.1:
/// "Expected step != 0"), 0.5 for int64 included.
#[test]
fn arange_of_a_zero_step_is_refused() {
    let arange = |dtype: &str, t: &str, step: &str| {
        format!(
            "{{\n(%0) = \"pd_op.full\" () {{dtype:{dtype},place:Place(cpu),shape:[1],stop_gradient:[true],value:0}} : () -> tensor<1x{t}>\n\
             (%1) = \"pd_op.full\" () {{dtype:{dtype},place:Place(cpu),shape:[1],stop_gradient:[true],value:5}} : () -> tensor<1x{t}>\n\
             (%2) = \"pd_op.full\" () {{dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:{step}}} : () -> tensor<1xf64>\n\
             (%3) = \"pd_op.arange\" (%0, %1, %2) {{dtype:{dtype},place:Place(cpu),stop_gradient:[true]}} : (tensor<1x{t}>, tensor<1x{t}>, tensor<1xf64>) -> tensor<-1x{t}>\n}}\n"
        )
    };
    let infer = |text: String| crate::testing::infer_last(&text);
    assert_eq!(
        infer(arange("float32", "f32", "0.5")),
        Ok(vec!["tensor<10xf32>".to_owned()])
    );
    assert!(infer(arange("float32", "f32", "0")).is_err());
    assert!(infer(arange("int64", "i64", "0.5")).is_err());
}
