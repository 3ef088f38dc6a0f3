//! `split`, `squeeze`, `reshape` and the reductions over an `IntArray`
//! checked against Paddle 3.3.1: programs Paddle built (its printed IR) and
//! the result types it printed.

use crate::testing::{check, infer_last};

/// `SplitInferMeta`: x's dim on the axis unknown (or 0): every output has x's dims.
#[test]
fn split_with_an_unknown_dim_on_the_axis_keeps_x() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:int32,name:"x",place:Place(undefined:0),shape:[2,-1,-1],stop_gradient:[true]} : () -> tensor<2x-1x-1xi32>
(%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[3,2]} : () -> tensor<2xi64>
(%2) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xi32>
(%3) = "pd_op.split" (%0, %1, %2) {stop_gradient:[true]} : (tensor<2x-1x-1xi32>, tensor<2xi64>, tensor<1xi32>) -> vec[tensor<2x-1x-1xi32>,tensor<2x-1x-1xi32>]"#,
        &["vec[tensor<2x-1x-1xi32>,tensor<2x-1x-1xi32>]"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:int32,name:"x",place:Place(undefined:0),shape:[2,-1,-1],stop_gradient:[true]} : () -> tensor<2x-1x-1xi32>
(%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[3,-1]} : () -> tensor<2xi64>
(%2) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xi32>
(%3) = "pd_op.split" (%0, %1, %2) {stop_gradient:[true]} : (tensor<2x-1x-1xi32>, tensor<2xi64>, tensor<1xi32>) -> vec[tensor<2x-1x-1xi32>,tensor<2x-1x-1xi32>]"#,
        &["vec[tensor<2x-1x-1xi32>,tensor<2x-1x-1xi32>]"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:int32,name:"x",place:Place(undefined:0),shape:[2,0,4],stop_gradient:[true]} : () -> tensor<2x0x4xi32>
(%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[3,2]} : () -> tensor<2xi64>
(%2) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xi32>
(%3) = "pd_op.split" (%0, %1, %2) {stop_gradient:[true]} : (tensor<2x0x4xi32>, tensor<2xi64>, tensor<1xi32>) -> vec[tensor<2x0x4xi32>,tensor<2x0x4xi32>]"#,
        &["vec[tensor<2x0x4xi32>,tensor<2x0x4xi32>]"],
    );
}

/// `SplitInferMeta`: sections or axis from a tensor: every output unknown at x's rank.
#[test]
fn split_from_tensors_is_unknown() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[5,4,4,2],stop_gradient:[true]} : () -> tensor<5x4x4x2xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"s",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%2) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xi32>
(%3) = "pd_op.split" (%0, %1, %2) {stop_gradient:[true]} : (tensor<5x4x4x2xf32>, tensor<2xi32>, tensor<1xi32>) -> vec[tensor<-1x-1x-1x-1xf32>,tensor<-1x-1x-1x-1xf32>]"#,
        &["vec[tensor<-1x-1x-1x-1xf32>,tensor<-1x-1x-1x-1xf32>]"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[5,4,4,2],stop_gradient:[true]} : () -> tensor<5x4x4x2xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%2) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,2]} : () -> tensor<2xi64>
(%3) = "pd_op.split" (%0, %2, %1) {stop_gradient:[true]} : (tensor<5x4x4x2xf32>, tensor<2xi64>, tensor<1xi32>) -> vec[tensor<-1x-1x-1x-1xf32>,tensor<-1x-1x-1x-1xf32>]"#,
        &["vec[tensor<-1x-1x-1x-1xf32>,tensor<-1x-1x-1x-1xf32>]"],
    );
}

/// `SplitInferMeta`: one -1 section takes the rest; a negative axis counts from the end.
#[test]
fn split_fills_one_unknown_section() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[5,4,5,2],stop_gradient:[true]} : () -> tensor<5x4x5x2xf32>
(%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,-1]} : () -> tensor<2xi64>
(%2) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:-2} : () -> tensor<1xi32>
(%3) = "pd_op.split" (%0, %1, %2) {stop_gradient:[true]} : (tensor<5x4x5x2xf32>, tensor<2xi64>, tensor<1xi32>) -> vec[tensor<5x4x2x2xf32>,tensor<5x4x3x2xf32>]"#,
        &["vec[tensor<5x4x2x2xf32>,tensor<5x4x3x2xf32>]"],
    );
}

/// `SqueezeInferMeta`: at build time a named -1 dim is squeezed like a 1; without axes only 1s go.
#[test]
fn squeeze_drops_named_unknown_dims() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,6],stop_gradient:[true]} : () -> tensor<-1x6xf32>
(%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0,1]} : () -> tensor<2xi64>
(%2) = "pd_op.squeeze" (%0, %1) {stop_gradient:[true]} : (tensor<-1x6xf32>, tensor<2xi64>) -> tensor<6xf32>"#,
        &["tensor<6xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,1,6],stop_gradient:[true]} : () -> tensor<-1x1x6xf32>
(%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]} : () -> tensor<1xi64>
(%2) = "pd_op.squeeze" (%0, %1) {stop_gradient:[true]} : (tensor<-1x1x6xf32>, tensor<1xi64>) -> tensor<1x6xf32>"#,
        &["tensor<1x6xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,1,6],stop_gradient:[true]} : () -> tensor<-1x1x6xf32>
(%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
(%2) = "pd_op.squeeze" (%0, %1) {stop_gradient:[true]} : (tensor<-1x1x6xf32>, tensor<0xi64>) -> tensor<-1x6xf32>"#,
        &["tensor<-1x6xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,1,-1],stop_gradient:[true]} : () -> tensor<-1x1x-1xf32>
(%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[-1,0]} : () -> tensor<2xi64>
(%2) = "pd_op.squeeze" (%0, %1) {stop_gradient:[true]} : (tensor<-1x1x-1xf32>, tensor<2xi64>) -> tensor<1xf32>"#,
        &["tensor<1xf32>"],
    );
}

/// `SqueezeInferMeta`: axes from a tensor give `rank - len(axes)` unknown dims (a 0-d or unknown-length tensor counts as one axis).
#[test]
fn squeeze_axes_from_a_tensor() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,1,5],stop_gradient:[true]} : () -> tensor<3x1x5xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%2) = "pd_op.squeeze" (%0, %1) {stop_gradient:[true]} : (tensor<3x1x5xf32>, tensor<2xi64>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,1,5],stop_gradient:[true]} : () -> tensor<3x1x5xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[],stop_gradient:[true]} : () -> tensor<i64>
(%2) = "pd_op.squeeze" (%0, %1) {stop_gradient:[true]} : (tensor<3x1x5xf32>, tensor<i64>) -> tensor<-1x-1xf32>"#,
        &["tensor<-1x-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,1,5],stop_gradient:[true]} : () -> tensor<3x1x5xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[-1],stop_gradient:[true]} : () -> tensor<-1xi64>
(%2) = "pd_op.squeeze" (%0, %1) {stop_gradient:[true]} : (tensor<3x1x5xf32>, tensor<-1xi64>) -> tensor<-1x-1xf32>"#,
        &["tensor<-1x-1xf32>"],
    );
}

/// `max`, `min`, `prod` are built with `is_runtime = false`: axes from a tensor give unknown dims (`prod` with `reduce_all` still reduces everything).
#[test]
fn max_min_prod_with_axes_from_a_tensor() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,4,4],stop_gradient:[true]} : () -> tensor<3x4x4xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"a",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%2) = "pd_op.max" (%0, %1) {keepdim:false,stop_gradient:[true]} : (tensor<3x4x4xf32>, tensor<2xi32>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,6,2,6],stop_gradient:[true]} : () -> tensor<4x6x2x6xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%2) = "pd_op.max" (%0, %1) {keepdim:false,stop_gradient:[true]} : (tensor<4x6x2x6xf32>, tensor<1xi64>) -> tensor<-1x-1x-1xf32>"#,
        &["tensor<-1x-1x-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,4,5],stop_gradient:[true]} : () -> tensor<3x4x5xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> tensor<5xi64>
(%2) = "pd_op.min" (%0, %1) {keepdim:false,stop_gradient:[true]} : (tensor<3x4x5xf32>, tensor<5xi64>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,4,5],stop_gradient:[true]} : () -> tensor<3x4x5xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%2) = "pd_op.min" (%0, %1) {keepdim:true,stop_gradient:[true]} : (tensor<3x4x5xf32>, tensor<2xi64>) -> tensor<-1x-1x-1xf32>"#,
        &["tensor<-1x-1x-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[5,5,5,2],stop_gradient:[true]} : () -> tensor<5x5x5x2xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"a",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%2) = "pd_op.prod" (%0, %1) {keepdim:true,reduce_all:false,stop_gradient:[true]} : (tensor<5x5x5x2xf32>, tensor<2xi32>) -> tensor<-1x-1x-1x-1xf32>"#,
        &["tensor<-1x-1x-1x-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,4,5],stop_gradient:[true]} : () -> tensor<3x4x5xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>
(%2) = "pd_op.prod" (%0, %1) {keepdim:true,reduce_all:true,stop_gradient:[true]} : (tensor<3x4x5xf32>, tensor<2xi64>) -> tensor<1x1x1xf32>"#,
        &["tensor<1x1x1xf32>"],
    );
}

/// `frobenius_norm` reduces the -1 placeholders of axes from a tensor as values (the last dim).
#[test]
fn frobenius_norm_reduces_the_placeholders() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,4,5],stop_gradient:[true]} : () -> tensor<3x4x5xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%2) = "pd_op.frobenius_norm" (%0, %1) {keep_dim:false,reduce_all:false,stop_gradient:[true]} : (tensor<3x4x5xf32>, tensor<1xi64>) -> tensor<3x4xf32>"#,
        &["tensor<3x4xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,4,5],stop_gradient:[true]} : () -> tensor<3x4x5xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%2) = "pd_op.frobenius_norm" (%0, %1) {keep_dim:true,reduce_all:false,stop_gradient:[true]} : (tensor<3x4x5xf32>, tensor<1xi64>) -> tensor<3x4x1xf32>"#,
        &["tensor<3x4x1xf32>"],
    );
}

/// `ReshapeInferMeta` with a shape from a tensor: the values as given (no -1 inferred), a 0 copies x's dim; a shape of constants is inferred.
#[test]
fn reshape_to_values_from_a_tensor() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"s",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%2) = "pd_op.reshape" (%0, %1) {stop_gradient:[true]} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<-1xf32>"#,
        &["tensor<-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%2) = "pd_op.full" () {dtype:int64,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
(%3) = "builtin.combine" (%1, %2) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> vec[tensor<1xi64>,tensor<1xi64>]
(%4) = "pd_op.stack" (%3) {axis:0,stop_gradient:[true]} : (vec[tensor<1xi64>,tensor<1xi64>]) -> tensor<2x1xi64>
(%5) = "pd_op.reshape" (%0, %4) {stop_gradient:[true]} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<-1x3xf32>"#,
        &["tensor<-1x3xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%1) = "pd_op.data" () {dtype:int64,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>
(%2) = "pd_op.full" () {dtype:int64,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:-5} : () -> tensor<1xi64>
(%3) = "builtin.combine" (%1, %2) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> vec[tensor<1xi64>,tensor<1xi64>]
(%4) = "pd_op.stack" (%3) {axis:0,stop_gradient:[true]} : (vec[tensor<1xi64>,tensor<1xi64>]) -> tensor<2x1xi64>
(%5) = "pd_op.reshape" (%0, %4) {stop_gradient:[true]} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<-1x-5xf32>"#,
        &["tensor<-1x-5xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,6],stop_gradient:[true]} : () -> tensor<4x6xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,12],stop_gradient:[true]} : () -> tensor<-1x12xf32>
(%2) = "pd_op.shape64" (%1) {stop_gradient:[true]} : (tensor<-1x12xf32>) -> tensor<2xi64>
(%3) = "pd_op.reshape" (%0, %2) {stop_gradient:[true]} : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<-1x12xf32>"#,
        &["tensor<-1x12xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
(%1) = "pd_op.full" () {dtype:int64,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xi64>
(%2) = "pd_op.full" () {dtype:int64,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:-1} : () -> tensor<1xi64>
(%3) = "builtin.combine" (%1, %2) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> vec[tensor<1xi64>,tensor<1xi64>]
(%4) = "pd_op.stack" (%3) {axis:0,stop_gradient:[true]} : (vec[tensor<1xi64>,tensor<1xi64>]) -> tensor<2x1xi64>
(%5) = "pd_op.reshape" (%0, %4) {stop_gradient:[true]} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>"#,
        &["tensor<2x3xf32>"],
    );
}

/// What Paddle refuses: sections that do not add up, two -1 sections, a
/// -1 with nothing left; a squeeze axis out of range; a 0 in a shape from
/// a tensor past x's rank.
#[test]
fn refusals() {
    let split = |secs: &str, axis: i32| {
        let n = secs.split(',').count();
        format!(
            "{{\n(%0) = \"pd_op.data\" () {{dtype:float32,name:\"x\",place:Place(undefined:0),shape:[5,4,5,2],stop_gradient:[true]}} : () -> tensor<5x4x5x2xf32>\n\
             (%1) = \"pd_op.full_int_array\" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[{secs}]}} : () -> tensor<{n}xi64>\n\
             (%2) = \"pd_op.full\" () {{dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:{axis}}} : () -> tensor<1xi32>\n\
             (%3) = \"pd_op.split\" (%0, %1, %2) {{stop_gradient:[true]}} : (tensor<5x4x5x2xf32>, tensor<{n}xi64>, tensor<1xi32>) -> vec[tensor<5x4x5x2xf32>]\n}}\n"
        )
    };
    assert!(infer_last(&split("2,3", 2)).is_ok());
    let e = infer_last(&split("2,4", 2)).unwrap_err();
    assert!(e.contains("must be equal to the input's size"), "{e}");
    let e = infer_last(&split("2,-1,-1", 2)).unwrap_err();
    assert!(e.contains("Only one dimension value"), "{e}");
    let e = infer_last(&split("5,-1", 2)).unwrap_err();
    assert!(e.contains("must be less than the input's size"), "{e}");
    assert!(infer_last(&split("2,3", 7)).is_err());

    let squeeze = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[3,1,5],stop_gradient:[true]} : () -> tensor<3x1x5xf32>\n\
                   (%1) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[5]} : () -> tensor<1xi64>\n\
                   (%2) = \"pd_op.squeeze\" (%0, %1) {stop_gradient:[true]} : (tensor<3x1x5xf32>, tensor<1xi64>) -> tensor<3x1x5xf32>\n}\n";
    let e = infer_last(squeeze).unwrap_err();
    assert!(e.contains("should be in the range"), "{e}");

    let reshape = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>\n\
                   (%1) = \"pd_op.data\" () {dtype:int64,name:\"a\",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi64>\n\
                   (%2) = \"pd_op.full\" () {dtype:int64,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>\n\
                   (%3) = \"builtin.combine\" (%2, %1, %2) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> vec[tensor<1xi64>,tensor<1xi64>,tensor<1xi64>]\n\
                   (%4) = \"pd_op.stack\" (%3) {axis:0,stop_gradient:[true]} : (vec[tensor<1xi64>,tensor<1xi64>,tensor<1xi64>]) -> tensor<3x1xi64>\n\
                   (%5) = \"pd_op.reshape\" (%0, %4) {stop_gradient:[true]} : (tensor<2x3xf32>, tensor<3x1xi64>) -> tensor<2x-1x3xf32>\n}\n";
    let e = infer_last(reshape).unwrap_err();
    assert!(e.contains("The index of 0 in `shape`"), "{e}");
}
