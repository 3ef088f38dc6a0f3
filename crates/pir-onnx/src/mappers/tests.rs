//! One case per mapper family: a small program in Paddle's text form,
//! exported, and the ONNX nodes it must give.

use crate::proto::GraphProto;
use crate::{export, ExportOptions};

/// Exports the program written as `ops` (Paddle's print, one op a line).
pub(crate) fn export_ops(ops: &str) -> GraphProto {
    export_at(ops, crate::DEFAULT_OPSET)
        .expect("exports")
        .graph
        .expect("a graph")
}

/// Exports the program written as `ops` at `opset`.
pub(crate) fn export_at(
    ops: &str,
    opset: i64,
) -> Result<crate::proto::ModelProto, crate::ExportError> {
    let ctx = pir_dialects::pd_op_context();
    let text = format!("{{\n{ops}\n}}");
    let program = pir_core::Program::parse(&ctx, &text).expect("the test program parses");
    let options = ExportOptions {
        opset,
        ..Default::default()
    };
    export(&program, &options)
}

pub(crate) fn op_types(g: &GraphProto) -> Vec<&str> {
    g.node.iter().map(|n| n.op_type.as_str()).collect()
}

const DATA: &str = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3,8,8],stop_gradient:[false]} : () -> tensor<-1x3x8x8xf32>"#;

fn fetch(v: &str, ty: &str) -> String {
    format!(
        r#"    (%99) = "pd_op.fetch" ({v}) {{col:0,name:"y",persistable:[true],stop_gradient:[false]}} : ({ty}) -> {ty}"#
    )
}

#[test]
fn elementwise_ops_map_to_their_onnx_op() {
    let g = export_ops(&format!(
        "{DATA}\n{}\n{}\n{}",
        r#"    (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (tensor<-1x3x8x8xf32>) -> tensor<-1x3x8x8xf32>"#,
        r#"    (%2) = "pd_op.add" (%1, %0) {stop_gradient:[false]} : (tensor<-1x3x8x8xf32>, tensor<-1x3x8x8xf32>) -> tensor<-1x3x8x8xf32>"#,
        fetch("%2", "tensor<-1x3x8x8xf32>")
    ));
    assert_eq!(op_types(&g), ["Relu", "Add", "Identity"]);
    assert_eq!(g.input[0].name, "x");
    assert_eq!(g.output[0].name, "y");
}

#[test]
fn unknown_input_dims_are_named() {
    let g = export_ops(&format!("{DATA}\n{}", fetch("%0", "tensor<-1x3x8x8xf32>")));
    let Some(crate::proto::type_proto::Value::TensorType(t)) =
        g.input[0].r#type.as_ref().and_then(|t| t.value.clone())
    else {
        panic!("a tensor input")
    };
    let dims = t.shape.expect("a shape").dim;
    assert_eq!(
        dims[0].value,
        Some(crate::proto::tensor_shape_proto::dimension::Value::DimParam("batch".into()))
    );
    assert_eq!(
        dims[1].value,
        Some(crate::proto::tensor_shape_proto::dimension::Value::DimValue(3))
    );
}

#[test]
fn shape_ops_keep_paddle_axes() {
    let g = export_ops(&format!(
        "{DATA}\n{}\n{}",
        r#"    (%1) = "pd_op.transpose" (%0) {perm:[0,2,3,-3],stop_gradient:[false]} : (tensor<-1x3x8x8xf32>) -> tensor<-1x8x8x3xf32>"#,
        fetch("%1", "tensor<-1x8x8x3xf32>")
    ));
    let t = &g.node[0];
    assert_eq!(t.op_type, "Transpose");
    assert_eq!(t.attribute[0].ints, [0, 2, 3, 1]);
}

#[test]
fn constants_become_initializers_only_when_read() {
    let g = export_ops(&format!(
        "{DATA}\n{}\n{}\n{}\n{}",
        r#"    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>"#,
        r#"    (%2) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xf32>"#,
        r#"    (%3) = "pd_op.multiply" (%0, %1) {stop_gradient:[false]} : (tensor<-1x3x8x8xf32>, tensor<1xf32>) -> tensor<-1x3x8x8xf32>"#,
        fetch("%3", "tensor<-1x3x8x8xf32>")
    ));
    assert_eq!(g.initializer.len(), 1, "the unread full is left out");
    assert_eq!(g.initializer[0].raw_data, 2f32.to_le_bytes());
}

#[test]
fn nhwc_convolutions_run_between_transposes() {
    let g = export_ops(&format!(
        "{}\n{}\n{}\n{}",
        r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,8,8,3],stop_gradient:[false]} : () -> tensor<-1x8x8x3xf32>"#,
        r#"    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[4,3,3,3],stop_gradient:[false]} : () -> tensor<4x3x3x3xf32>"#,
        r#"    (%2) = "pd_op.conv2d" (%0, %1) {data_format:"NHWC",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],stop_gradient:[false],strides:[1,1]} : (tensor<-1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<-1x8x8x4xf32>"#,
        fetch("%2", "tensor<-1x8x8x4xf32>")
    ));
    assert_eq!(
        op_types(&g),
        ["Transpose", "Conv", "Transpose", "Identity", "Identity"]
    );
    let conv = &g.node[1];
    let pads = conv
        .attribute
        .iter()
        .find(|a| a.name == "pads")
        .expect("pads");
    assert_eq!(pads.ints, [1, 1, 1, 1]);
}

#[test]
fn reductions_read_constant_axes() {
    let g = export_ops(&format!(
        "{DATA}\n{}\n{}\n{}",
        r#"    (%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2,3]} : () -> tensor<2xi64>"#,
        r#"    (%2) = "pd_op.mean" (%0, %1) {keepdim:false,stop_gradient:[false]} : (tensor<-1x3x8x8xf32>, tensor<2xi64>) -> tensor<-1x3xf32>"#,
        fetch("%2", "tensor<-1x3xf32>")
    ));
    let mean = g
        .node
        .iter()
        .find(|n| n.op_type == "ReduceMean")
        .expect("a ReduceMean");
    let axes = mean
        .attribute
        .iter()
        .find(|a| a.name == "axes")
        .expect("axes at opset 17");
    assert_eq!(axes.ints, [2, 3]);
}

#[test]
fn a_while_loop_becomes_a_loop_with_its_body() {
    let g = export_ops(
        r#"    (%0) = "pd_op.data" () {dtype:int64,name:"n",place:Place(undefined:0),shape:[1],stop_gradient:[false]} : () -> tensor<1xi64>
    (%1) = "pd_op.full" () {dtype:int64,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
    (%2) = "pd_op.less_than" (%1, %0) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%3) = "pd_op.while" (cond=%2, inputs=%1) {
    ^%arg_0 {}
        (%4) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%5) = "pd_op.scale" (%arg_0, %4) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%6) = "pd_op.less_than" (%5, %0) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%6, %5) {} : (tensor<1xb>, tensor<1xi64>) -> 
    }
    (%7) = "pd_op.fetch" (%3) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<1xi64>) -> tensor<1xi64>"#,
    );
    let lp = g.node.iter().find(|n| n.op_type == "Loop").expect("a Loop");
    assert_eq!(
        lp.input.len(),
        3,
        "trip count (none), condition, one carried value"
    );
    assert_eq!(lp.input[0], "");
    let body = lp.attribute[0].g.as_ref().expect("a body");
    assert_eq!(body.input.len(), 3);
    assert_eq!(body.output.len(), 2);
}

#[test]
fn layer_norm_is_written_out_before_opset_17() {
    let ctx = pir_dialects::pd_op_context();
    let text = format!(
        "{{\n{}\n{}\n{}\n{}\n{}\n}}",
        r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>"#,
        r#"    (%1) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[8],stop_gradient:[false]} : () -> tensor<8xf32>"#,
        r#"    (%2) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[8],stop_gradient:[false]} : () -> tensor<8xf32>"#,
        r#"    (%3, %4, %5) = "pd_op.layer_norm" (%0, %1, %2) {begin_norm_axis:1,epsilon:1e-05,stop_gradient:[false,false,false]} : (tensor<-1x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<-1x8xf32>, tensor<-1xf32>, tensor<-1xf32>"#,
        fetch("%3", "tensor<-1x8xf32>")
    );
    let program = pir_core::Program::parse(&ctx, &text).expect("parses");
    let types_at = |opset| {
        let options = ExportOptions {
            opset,
            ..Default::default()
        };
        let g = export(&program, &options)
            .expect("exports")
            .graph
            .expect("graph");
        g.node.iter().map(|n| n.op_type.clone()).collect::<Vec<_>>()
    };
    assert!(types_at(17).contains(&"LayerNormalization".to_string()));
    let at13 = types_at(13);
    assert!(!at13.contains(&"LayerNormalization".to_string()));
    assert!(at13.contains(&"ReduceMean".to_string()));
}

#[test]
fn embedding_masks_only_a_padding_row_it_is_given() {
    let program = |pad: i64| {
        let op = format!(
            r#"    (%2) = "pd_op.embedding" (%0, %1) {{padding_idx:{pad},sparse:false,stop_gradient:[false]}} : (tensor<-1x5xi64>, tensor<10x4xf32>) -> tensor<-1x5x4xf32>"#
        );
        let data = r#"    (%0) = "pd_op.data" () {dtype:int64,name:"ids",place:Place(undefined:0),shape:[-1,5],stop_gradient:[true]} : () -> tensor<-1x5xi64>
    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[10,4],stop_gradient:[true]} : () -> tensor<10x4xf32>"#;
        format!("{data}\n{op}\n{}", fetch("%2", "tensor<-1x5x4xf32>"))
    };
    // -1 is Paddle's "no padding row" (its API makes other negatives
    // non-negative before the op is built).
    assert_eq!(op_types(&export_ops(&program(-1))), ["Gather", "Identity"]);
    let masked = export_ops(&program(3));
    assert!(
        op_types(&masked).contains(&"Where"),
        "{:?}",
        op_types(&masked)
    );
}
