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
