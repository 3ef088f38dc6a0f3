//! Programs Paddle 3.3.1 refused to build: the InferMeta functions must
//! refuse them too.

use crate::testing::infer_last;

/// A program of `data` ops of the given shapes and element types, then `op`
/// (which names the data results `%0`, `%1`, ...).
fn program(inputs: &[(&str, &str)], op: &str) -> String {
    let mut text = String::from("{\n");
    for (i, (shape, elem)) in inputs.iter().enumerate() {
        let dims = shape
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("x");
        let dtype = match *elem {
            "f32" => "float32",
            "i32" => "int32",
            "i64" => "int64",
            other => other,
        };
        text.push_str(&format!(
            "(%{i}) = \"pd_op.data\" () {{dtype:{dtype},name:\"v{i}\",place:Place(undefined:0),shape:{shape},stop_gradient:[true]}} : () -> tensor<{dims}x{elem}>\n"
        ));
    }
    text.push_str(op);
    text.push_str("\n}\n");
    text
}

/// `text` parses and its last op's InferMeta function refuses it.
fn refused(text: &str) {
    match infer_last(text) {
        Ok(types) => panic!("accepted: {types:?}"),
        Err(e) => assert!(e.contains("InferMeta"), "not refused by InferMeta: {e}"),
    }
}

#[test]
fn mv_refuses_mismatched_extents() {
    refused(&program(
        &[("[5,3]", "f32"), ("[-1]", "f32")],
        "(%2) = \"pd_op.mv\" (%0, %1) {stop_gradient:[true]} : (tensor<5x3xf32>, tensor<-1xf32>) -> tensor<5xf32>",
    ));
}

#[test]
fn cross_refuses_different_shapes() {
    refused(&program(
        &[("[2,3,4]", "f32"), ("[-1,3,4]", "f32")],
        "(%2) = \"pd_op.cross\" (%0, %1) {axis:1,stop_gradient:[true]} : (tensor<2x3x4xf32>, tensor<-1x3x4xf32>) -> tensor<2x3x4xf32>",
    ));
}

#[test]
fn triangular_solve_refuses_unbroadcastable_batches() {
    refused(&program(
        &[("[-1,3,3]", "f32"), ("[2,3,4]", "f32")],
        "(%2) = \"pd_op.triangular_solve\" (%0, %1) {stop_gradient:[true],transpose:false,unitriangular:false,upper:true} : (tensor<-1x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>",
    ));
}

#[test]
fn eigvals_refuses_known_non_square() {
    refused(&program(
        &[("[2,4,3]", "f32")],
        "(%1) = \"pd_op.eigvals\" (%0) {stop_gradient:[true]} : (tensor<2x4x3xf32>) -> tensor<2x4xc64>",
    ));
}

#[test]
fn matrix_power_refuses_unknown_extents() {
    refused(&program(
        &[("[-1,3,3]", "f32")],
        "(%1) = \"pd_op.matrix_power\" (%0) {n:3,stop_gradient:[true]} : (tensor<-1x3x3xf32>) -> tensor<-1x3x3xf32>",
    ));
}

#[test]
fn maxout_refuses_indivisible_channels() {
    refused(&program(
        &[("[-1,6,4,-1]", "f32")],
        "(%1) = \"pd_op.maxout\" (%0) {axis:-1,groups:2,stop_gradient:[true]} : (tensor<-1x6x4x-1xf32>) -> tensor<-1x6x4x-1xf32>",
    ));
}

#[test]
fn multiplex_refuses_fewer_rows_than_indices() {
    refused(&program(
        &[("[-1,4]", "f32"), ("[-1,4]", "f32"), ("[3,1]", "i32")],
        "(%3) = \"builtin.combine\" (%0, %1) {stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> vec[tensor<-1x4xf32>,tensor<-1x4xf32>]\n(%4) = \"pd_op.multiplex\" (%3, %2) {stop_gradient:[true]} : (vec[tensor<-1x4xf32>,tensor<-1x4xf32>], tensor<3x1xi32>) -> tensor<3x4xf32>",
    ));
}

#[test]
fn view_slice_refuses_rows_past_an_unknown_extent() {
    refused(&program(
        &[("[-1,3]", "f32")],
        "(%1) = \"pd_op.view_slice\" (%0) {begin_idx:2,end_idx:5,stop_gradient:[true]} : (tensor<-1x3xf32>) -> tensor<3x3xf32>",
    ));
}

#[test]
fn fold_refuses_a_block_count_that_does_not_match() {
    refused(&program(
        &[("[2,12,9]", "f32")],
        "(%1) = \"pd_op.fold\" (%0) {dilations:[1,1],kernel_sizes:[2,2],output_sizes:[4,5],paddings:[0,0,0,0],stop_gradient:[true],strides:[1,1]} : (tensor<2x12x9xf32>) -> tensor<2x3x4x5xf32>",
    ));
}
