//! Interpolation (`InterpolateInferMeta`) checked against Paddle 3.3.1:
//! programs Paddle built (its printed IR) and the result types it printed.

use crate::testing::{check, infer_last};

/// A `size_tensor` wins: `out_h`, `out_w` as given, even 0 or -1; `scale` and `out_size` are not read.
#[test]
fn size_tensor_gives_the_attributes_as_they_are() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7,4],stop_gradient:[true]} : () -> tensor<2x3x7x4xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"o",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%2) = "pd_op.data" () {dtype:int32,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%3) = "pd_op.data" () {dtype:int32,name:"b",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%4) = "builtin.combine" (%2, %3) {stop_gradient:[true]} : (tensor<1xi32>, tensor<1xi32>) -> vec[tensor<1xi32>,tensor<1xi32>]
(%5) = "pd_op.bilinear_interp" (%0, %1, %4, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"bilinear",out_d:0,out_h:-1,out_w:0,scale:[],stop_gradient:[true]} : (tensor<2x3x7x4xf32>, tensor<2xi32>, vec[tensor<1xi32>,tensor<1xi32>], <<NULL TYPE>>) -> tensor<2x3x-1x0xf32>"#,
        &["tensor<2x3x-1x0xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[5,6,5,2],stop_gradient:[true]} : () -> tensor<5x6x5x2xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"o",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%2) = "pd_op.data" () {dtype:int32,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%3) = "pd_op.data" () {dtype:int32,name:"b",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%4) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>
(%5) = "builtin.combine" (%2, %3) {stop_gradient:[true]} : (tensor<1xi32>, tensor<1xi32>) -> vec[tensor<1xi32>,tensor<1xi32>]
(%6) = "pd_op.bicubic_interp" (%0, %1, %5, %4) {align_corners:true,align_mode:-1,data_format:"NCHW",interp_method:"bicubic",out_d:1,out_h:2,out_w:2,scale:[0.5,2],stop_gradient:[true]} : (tensor<5x6x5x2xf32>, tensor<2xi32>, vec[tensor<1xi32>,tensor<1xi32>], tensor<2xf32>) -> tensor<5x6x2x2xf32>"#,
        &["tensor<5x6x2x2xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7,4,5],stop_gradient:[true]} : () -> tensor<2x3x7x4x5xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%2) = "builtin.combine" (%1, %1, %1) {stop_gradient:[true]} : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> vec[tensor<1xi32>,tensor<1xi32>,tensor<1xi32>]
(%3) = "pd_op.trilinear_interp" (%0, <<NULL VALUE>>, %2, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NDHWC",interp_method:"trilinear",out_d:0,out_h:-1,out_w:4,scale:[],stop_gradient:[true]} : (tensor<2x3x7x4x5xf32>, <<NULL TYPE>>, vec[tensor<1xi32>,tensor<1xi32>,tensor<1xi32>], <<NULL TYPE>>) -> tensor<2x0x-1x4x5xf32>"#,
        &["tensor<2x0x-1x4x5xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7],stop_gradient:[true]} : () -> tensor<2x3x7xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"a",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%2) = "builtin.combine" (%1) {stop_gradient:[true]} : (tensor<1xi32>) -> vec[tensor<1xi32>]
(%3) = "pd_op.linear_interp" (%0, <<NULL VALUE>>, %2, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NHWC",interp_method:"linear",out_d:0,out_h:3,out_w:4,scale:[1.5],stop_gradient:[true]} : (tensor<2x3x7xf32>, <<NULL TYPE>>, vec[tensor<1xi32>], <<NULL TYPE>>) -> tensor<2x4x7xf32>"#,
        &["tensor<2x4x7xf32>"],
    );
}

/// `out_size` alone: the `out_*` attributes (the tensor is read only at run time).
#[test]
fn out_size_is_not_read_at_build_time() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,6,2],stop_gradient:[true]} : () -> tensor<2x3x6x2xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"o",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%2) = "pd_op.bilinear_interp" (%0, %1, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"bilinear",out_d:0,out_h:7,out_w:5,scale:[],stop_gradient:[true]} : (tensor<2x3x6x2xf32>, tensor<2xi32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x3x7x5xf32>"#,
        &["tensor<2x3x7x5xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,6,2],stop_gradient:[true]} : () -> tensor<2x3x6x2xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"o",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%2) = "pd_op.nearest_interp" (%0, %1, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NHWC",interp_method:"nearest",out_d:0,out_h:0,out_w:0,scale:[],stop_gradient:[true]} : (tensor<2x3x6x2xf32>, tensor<2xi32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x0x0x2xf32>"#,
        &["tensor<2x0x0x2xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7],stop_gradient:[true]} : () -> tensor<2x3x7xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"o",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xi32>
(%2) = "pd_op.linear_interp" (%0, %1, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"linear",out_d:0,out_h:3,out_w:4,scale:[],stop_gradient:[true]} : (tensor<2x3x7xf32>, tensor<1xi32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x3x4xf32>"#,
        &["tensor<2x3x4xf32>"],
    );
}

/// A `scale_tensor` (without `size_tensor`): unknown spatial dims, with or without `out_size`.
#[test]
fn scale_tensor_gives_unknown_dims() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7,4],stop_gradient:[true]} : () -> tensor<2x3x7x4xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>
(%2) = "pd_op.bilinear_interp" (%0, <<NULL VALUE>>, <<NULL VALUE>>, %1) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"bilinear",out_d:0,out_h:3,out_w:3,scale:[2,2],stop_gradient:[true]} : (tensor<2x3x7x4xf32>, <<NULL TYPE>>, <<NULL TYPE>>, tensor<2xf32>) -> tensor<2x3x-1x-1xf32>"#,
        &["tensor<2x3x-1x-1xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7,4],stop_gradient:[true]} : () -> tensor<2x3x7x4xf32>
(%1) = "pd_op.data" () {dtype:int32,name:"o",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi32>
(%2) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>
(%3) = "pd_op.bilinear_interp" (%0, %1, <<NULL VALUE>>, %2) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"bilinear",out_d:0,out_h:3,out_w:3,scale:[2,2],stop_gradient:[true]} : (tensor<2x3x7x4xf32>, tensor<2xi32>, <<NULL TYPE>>, tensor<2xf32>) -> tensor<2x3x-1x-1xf32>"#,
        &["tensor<2x3x-1x-1xf32>"],
    );
}

/// A `scale`: `(int64) ((float) dim * scale)`, -1 for an unknown dim.
#[test]
fn scale_attribute_rounds_down_in_float() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7,4],stop_gradient:[true]} : () -> tensor<2x3x7x4xf32>
(%1) = "pd_op.bilinear_interp" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"bilinear",out_d:0,out_h:7,out_w:5,scale:[0.3,1.7],stop_gradient:[true]} : (tensor<2x3x7x4xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x3x2x6xf32>"#,
        &["tensor<2x3x2x6xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,-1,4],stop_gradient:[true]} : () -> tensor<2x3x-1x4xf32>
(%1) = "pd_op.bilinear_interp" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"bilinear",out_d:0,out_h:7,out_w:5,scale:[0.5,1.5],stop_gradient:[true]} : (tensor<2x3x-1x4xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x3x-1x6xf32>"#,
        &["tensor<2x3x-1x6xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7,4,5],stop_gradient:[true]} : () -> tensor<2x3x7x4x5xf32>
(%1) = "pd_op.trilinear_interp" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"trilinear",out_d:2,out_h:3,out_w:4,scale:[0.5,1.5,2.5],stop_gradient:[true]} : (tensor<2x3x7x4x5xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x3x3x6x12xf32>"#,
        &["tensor<2x3x3x6x12xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7],stop_gradient:[true]} : () -> tensor<2x3x7xf32>
(%1) = "pd_op.linear_interp" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"linear",out_d:0,out_h:3,out_w:4,scale:[1.5],stop_gradient:[true]} : (tensor<2x3x7xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x3x10xf32>"#,
        &["tensor<2x3x10xf32>"],
    );
}

/// Only `"NCHW"` puts channels first: Paddle reads `"NCDHW"` as channels last.
#[test]
fn only_nchw_puts_channels_first() {
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7,4,5],stop_gradient:[true]} : () -> tensor<2x3x7x4x5xf32>
(%1) = "pd_op.trilinear_interp" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NCHW",interp_method:"trilinear",out_d:2,out_h:3,out_w:4,scale:[],stop_gradient:[true]} : (tensor<2x3x7x4x5xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x3x2x3x4xf32>"#,
        &["tensor<2x3x2x3x4xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7,4,5],stop_gradient:[true]} : () -> tensor<2x3x7x4x5xf32>
(%1) = "pd_op.trilinear_interp" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"NCDHW",interp_method:"trilinear",out_d:2,out_h:3,out_w:4,scale:[],stop_gradient:[true]} : (tensor<2x3x7x4x5xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x2x3x4x5xf32>"#,
        &["tensor<2x2x3x4x5xf32>"],
    );
    check(
        r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,7],stop_gradient:[true]} : () -> tensor<2x3x7xf32>
(%1) = "pd_op.linear_interp" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {align_corners:false,align_mode:1,data_format:"nhwc",interp_method:"linear",out_d:0,out_h:3,out_w:4,scale:[],stop_gradient:[true]} : (tensor<2x3x7xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x4x7xf32>"#,
        &["tensor<2x4x7xf32>"],
    );
}

/// What Paddle refuses at build time: a scale that is not positive, a
/// method the rank does not take, a 0 spatial dim.
#[test]
fn refusals() {
    let x = r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,6,4],stop_gradient:[true]} : () -> tensor<2x3x6x4xf32>"#;
    let op = |method: &str, scale: &str| {
        format!(
            "{{\n{x}\n(%1) = \"pd_op.bilinear_interp\" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {{align_corners:false,align_mode:1,data_format:\"NCHW\",interp_method:\"{method}\",out_d:0,out_h:7,out_w:5,scale:[{scale}],stop_gradient:[true]}} : (tensor<2x3x6x4xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x3x3x6xf32>\n}}\n"
        )
    };
    assert!(infer_last(&op("bilinear", "0.5,1.5")).is_ok());
    let e = infer_last(&op("bilinear", "-1,1.5")).unwrap_err();
    assert!(e.contains("scale_h"), "{e}");
    let e = infer_last(&op("linear", "")).unwrap_err();
    assert!(e.contains("Interpolation method"), "{e}");
    let zero = op("bilinear", "").replace("shape:[2,3,6,4]", "shape:[2,3,0,4]");
    let e = infer_last(&zero.replace("tensor<2x3x6x4xf32>", "tensor<2x3x0x4xf32>")).unwrap_err();
    assert!(e.contains("larger than 0"), "{e}");
}
