//! `RangeInferMeta` and `RandomInferMeta` cases checked against Paddle 3.3.1: programs Paddle built (its
//! printed IR, trimmed to the op and its operands) and the result types it
//! printed.

use crate::testing::{check, infer_last};

/// `RangeInferMeta`: `end` included, counted in the data type's arithmetic; `-1` for a tensor bound.
#[test]
fn range() {
    check(
        r#"(%162) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%163) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%164) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.3} : () -> tensor<1xf64>
(%165) = "pd_op.range_v2" (%162, %163, %164) {dtype:float32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xf32>"#,
        &["tensor<4xf32>"],
    );
    check(
        r#"(%166) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%167) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf64>
(%168) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.3} : () -> tensor<1xf64>
(%169) = "pd_op.range_v2" (%166, %167, %168) {dtype:float32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<3xf32>"#,
        &["tensor<3xf32>"],
    );
    check(
        r#"(%170) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf64>
(%171) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3.7} : () -> tensor<1xf64>
(%172) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%173) = "pd_op.range_v2" (%170, %171, %172) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xi64>"#,
        &["tensor<4xi64>"],
    );
    check(
        r#"(%174) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf64>
(%175) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xf64>
(%176) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%177) = "pd_op.range_v2" (%174, %175, %176) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xi64>"#,
        &["tensor<4xi64>"],
    );
    check(
        r#"(%178) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%179) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xf64>
(%180) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xf64>
(%181) = "pd_op.range_v2" (%178, %179, %180) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xi64>"#,
        &["tensor<4xi64>"],
    );
    check(
        r#"(%182) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%183) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:-10} : () -> tensor<1xf64>
(%184) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:-3} : () -> tensor<1xf64>
(%185) = "pd_op.range_v2" (%182, %183, %184) {dtype:int32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xi32>"#,
        &["tensor<4xi32>"],
    );
    check(
        r#"(%186) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%187) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%188) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.1} : () -> tensor<1xf64>
(%189) = "pd_op.range_v2" (%186, %187, %188) {dtype:float64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<11xf64>"#,
        &["tensor<11xf64>"],
    );
    check(
        r#"(%190) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xf64>
(%191) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%192) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%193) = "pd_op.range_v2" (%190, %191, %192) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<0xi64>"#,
        &["tensor<0xi64>"],
    );
    check(
        r#"(%194) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:-2.5} : () -> tensor<1xf64>
(%195) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:2.5} : () -> tensor<1xf64>
(%196) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf64>
(%197) = "pd_op.range_v2" (%194, %195, %196) {dtype:float32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<11xf32>"#,
        &["tensor<11xf32>"],
    );
    check(
        r#"(%198) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xf64>
(%199) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xf64>
(%200) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%201) = "pd_op.range_v2" (%198, %199, %200) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<1xi64>"#,
        &["tensor<1xi64>"],
    );
    check(
        r#"(%202) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%203) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xf64>
(%204) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:-1} : () -> tensor<1xf64>
(%205) = "pd_op.range_v2" (%202, %203, %204) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<0xi64>"#,
        &["tensor<0xi64>"],
    );
    check(
        r#"(%206) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf64>
(%207) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%208) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xf64>
(%209) = "pd_op.range_v2" (%206, %207, %208) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<0xi64>"#,
        &["tensor<0xi64>"],
    );
    check(
        r#"(%210) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf64>
(%211) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%212) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xf64>
(%213) = "pd_op.range_v2" (%210, %211, %212) {dtype:float32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<0xf32>"#,
        &["tensor<0xf32>"],
    );
    check(
        r#"(%214) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%215) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.9} : () -> tensor<1xf64>
(%216) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.3} : () -> tensor<1xf64>
(%217) = "pd_op.range_v2" (%214, %215, %216) {dtype:float64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xf64>"#,
        &["tensor<4xf64>"],
    );
    check(
        r#"(%218) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%219) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.7} : () -> tensor<1xf64>
(%220) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.1} : () -> tensor<1xf64>
(%221) = "pd_op.range_v2" (%218, %219, %220) {dtype:float32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<8xf32>"#,
        &["tensor<8xf32>"],
    );
    check(
        r#"(%222) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%223) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.7} : () -> tensor<1xf64>
(%224) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.1} : () -> tensor<1xf64>
(%225) = "pd_op.range_v2" (%222, %223, %224) {dtype:float64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<7xf64>"#,
        &["tensor<7xf64>"],
    );
    check(
        r#"(%226) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.2} : () -> tensor<1xf64>
(%227) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:7.9} : () -> tensor<1xf64>
(%228) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:2.6} : () -> tensor<1xf64>
(%229) = "pd_op.range_v2" (%226, %227, %228) {dtype:int32,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xi32>"#,
        &["tensor<4xi32>"],
    );
    check(
        r#"(%230) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:-0.5} : () -> tensor<1xf64>
(%231) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xf64>
(%232) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%233) = "pd_op.range_v2" (%230, %231, %232) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xi64>"#,
        &["tensor<4xi64>"],
    );
    check(
        r#"(%101) = "pd_op.data" () {dtype:int64,name:"v102",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<i64>
(%234) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xf64>
(%235) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf64>
(%236) = "pd_op.range_v2" (%101, %234, %235) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<i64>, tensor<1xf64>, tensor<1xf64>) -> tensor<-1xi64>"#,
        &["tensor<-1xi64>"],
    );
    check(
        r#"(%237) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%238) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xf64>
(%239) = "pd_op.full" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xf64>
(%240) = "pd_op.range_v2" (%237, %238, %239) {dtype:float32,place:Place(undefined:0),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<4xf32>"#,
        &["tensor<4xf32>"],
    );
}

/// `RandomInferMeta`: like x.
#[test]
fn random() {
    check(
        r#"(%102) = "pd_op.data" () {dtype:int32,name:"v103",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xi32>
(%241) = "pd_op.random" (%102) {from:0,stop_gradient:[true],to:10} : (tensor<3x4xi32>) -> tensor<3x4xi32>"#,
        &["tensor<3x4xi32>"],
    );
    check(
        r#"(%103) = "pd_op.data" () {dtype:int64,name:"v104",place:Place(undefined:0),shape:[-1,2],stop_gradient:[true]} : () -> tensor<-1x2xi64>
(%242) = "pd_op.random" (%103) {from:0,stop_gradient:[true],to:10} : (tensor<-1x2xi64>) -> tensor<-1x2xi64>"#,
        &["tensor<-1x2xi64>"],
    );
    check(
        r#"(%104) = "pd_op.data" () {dtype:float64,name:"v105",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf64>
(%243) = "pd_op.random" (%104) {from:0,stop_gradient:[true],to:10} : (tensor<3xf64>) -> tensor<3xf64>"#,
        &["tensor<3xf64>"],
    );
    check(
        r#"(%105) = "pd_op.data" () {dtype:float32,name:"v106",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<f32>
(%244) = "pd_op.random" (%105) {from:0,stop_gradient:[true],to:10} : (tensor<f32>) -> tensor<f32>"#,
        &["tensor<f32>"],
    );
}

/// `RandomInferMeta` of the in-place op.
#[test]
fn random_inplace() {
    check(
        r#"(%106) = "pd_op.data" () {dtype:int32,name:"v107",place:Place(undefined:0),shape:[2,-1],stop_gradient:[true]} : () -> tensor<2x-1xi32>
(%245) = "pd_op.random_" (%106) {from:0,stop_gradient:[true],to:10} : (tensor<2x-1xi32>) -> tensor<2x-1xi32>"#,
        &["tensor<2x-1xi32>"],
    );
}

/// Paddle refuses a zero step.
#[test]
fn range_refuses_zero_step() {
    let t = "{
(%0) = \"pd_op.full\" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%1) = \"pd_op.full\" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xf64>
(%2) = \"pd_op.full\" () {dtype:float64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf64>
(%3) = \"pd_op.range_v2\" (%0, %1, %2) {dtype:int64,place:Place(cpu),stop_gradient:[true]} : (tensor<1xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<f32>
}
";
    let e = infer_last(t).unwrap_err();
    assert!(e.contains("The step of range op should not be 0."), "{e}");
}
