//! Rules Paddle 3.3.1 declares but cannot run on the programs it builds
//! (no Paddle case can hold them): each is checked against the formula of
//! its source, and each refusal against Paddle's message.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use pir_core::Program;
use pir_shape::ShapeAnalysis;

/// The annotation `pir shapes` gives the last op of `body` (ops of a
/// program's top block, one per line) and the reasons ops were refused.
fn last_op_facts(body: &str) -> (String, Vec<String>) {
    let ctx = pir_dialects::pd_op_context();
    let text = format!("{{\n{body}\n}}\n");
    let p = Program::parse(&ctx, &text).unwrap();
    let shapes = ShapeAnalysis::run(&p);
    let printed = pir_shape::annotated_text(&p, &shapes);
    let line = printed.lines().rev().nth(1).unwrap();
    let facts = line[line.rfind(" { ").unwrap() + 1..].to_string();
    let reasons = shapes.skipped().iter().map(|s| s.reason.clone()).collect();
    (facts, reasons)
}

fn data(result: usize, name: &str, dims: &str) -> String {
    let shape = dims.replace('x', ",");
    format!(
        r#"    (%{result}) = "pd_op.data" () {{dtype:float32,name:"{name}",place:Place(undefined:0),shape:[{shape}],stop_gradient:[true]}} : () -> tensor<{dims}xf32>"#
    )
}

/// `gru`: Paddle's rule reads the hidden result before setting it; by its
/// formula the frame size is the weight's height, the input and weight
/// widths are three frames (recorded, not substituted: products), `h0` is
/// a batch of frames (its width, the older symbol, names the frame), the
/// bias one row of three frames.
#[test]
fn gru_follows_the_formula_of_paddles_rule() {
    let body = [
        data(0, "input", "-1x-1"),
        data(1, "h0", "-1x-1"),
        data(2, "weight", "-1x-1"),
        data(3, "bias", "-1x-1"),
        r#"    (%4, %5, %6, %7) = "pd_op.gru" (%0, %1, %2, %3) {activation:"tanh",gate_activation:"sigmoid",is_reverse:false,is_test:false,origin_mode:false,stop_gradient:[true]} : (tensor<-1x-1xf32>, tensor<-1x-1xf32>, tensor<-1x-1xf32>, tensor<-1x-1xf32>) -> tensor<-1x-1xf32>, tensor<-1x-1xf32>, tensor<-1x-1xf32>, tensor<-1x-1xf32>"#.to_string(),
    ]
    .join("\n");
    let (facts, refused) = last_op_facts(&body);
    assert!(refused.is_empty(), "{refused:?}");
    assert_eq!(
        facts,
        "{ (shape[S0, S1], data[NULL]), (shape[S0, S3], data[NULL]), (shape[S0, S3], data[NULL]), (shape[S0, S3], data[NULL]) }"
    );
}

/// With a static weight the gates and hidden width are numbers.
#[test]
fn gru_with_a_static_weight_has_static_widths() {
    let body = [
        data(0, "input", "-1x24"),
        data(1, "weight", "8x24"),
        r#"    (%2, %3, %4, %5) = "pd_op.gru" (%0, <<NULL VALUE>>, %1, <<NULL VALUE>>) {activation:"tanh",gate_activation:"sigmoid",is_reverse:false,is_test:true,origin_mode:false,stop_gradient:[true]} : (tensor<-1x24xf32>, <<NULL TYPE>>, tensor<8x24xf32>, <<NULL TYPE>>) -> tensor<-1x24xf32>, tensor<-1x8xf32>, tensor<-1x8xf32>, tensor<-1x8xf32>"#.to_string(),
    ]
    .join("\n");
    let (facts, _) = last_op_facts(&body);
    assert_eq!(
        facts,
        "{ (shape[S0, 24], data[NULL]), (shape[S0, 8], data[NULL]), (shape[S0, 8], data[NULL]), (shape[S0, 8], data[NULL]) }"
    );
}

/// `sparse_weight_embedding`: Paddle's rule only throws.
#[test]
fn sparse_weight_embedding_is_refused_as_paddle_refuses_it() {
    let body = [
        r#"    (%0) = "pd_op.data" () {dtype:int64,name:"ids",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xi64>"#.to_string(),
        data(1, "w", "10x8"),
        r#"    (%2) = "pd_op.sparse_weight_embedding" (%0, %1) {padding_idx:-1,sparse:false,stop_gradient:[true]} : (tensor<-1x4xi64>, tensor<10x8xf32>) -> tensor<-1x4x8xf32>"#.to_string(),
    ]
    .join("\n");
    let (facts, refused) = last_op_facts(&body);
    assert_eq!(
        refused,
        ["pd_op.sparse_weight_embedding 's InferSymbolicShape interface is NOT implemented now."]
    );
    // The result keeps its type's shape.
    assert_eq!(facts, "{ (shape[S1, 4, 8], data[NULL]) }");
}

/// `flashmask_attention` checks operand 4, the optional seed offset, so a
/// program without one is refused with the message of an absent shape.
#[test]
fn flashmask_attention_without_a_seed_offset_is_refused() {
    let f16 = |r: usize, n: &str, d: &str| {
        data(r, n, d)
            .replace("float32", "float16")
            .replace("xf32>", "xf16>")
    };
    let body = [
        f16(0, "q", "-1x-1x8x64"),
        f16(1, "k", "-1x-1x8x64"),
        f16(2, "v", "-1x-1x8x64"),
        r#"    (%3) = "pd_op.data" () {dtype:int32,name:"rows",place:Place(undefined:0),shape:[-1,8,-1,2],stop_gradient:[true]} : () -> tensor<-1x8x-1x2xi32>"#.to_string(),
        r#"    (%4, %5, %6, %7) = "pd_op.flashmask_attention" (%0, %1, %2, %3, <<NULL VALUE>>) {causal:false,dropout:0,is_test:false,return_softmax:false,rng_name:"",stop_gradient:[true]} : (tensor<-1x-1x8x64xf16>, tensor<-1x-1x8x64xf16>, tensor<-1x-1x8x64xf16>, tensor<-1x8x-1x2xi32>, <<NULL TYPE>>) -> tensor<-1x-1x8x64xf16>, tensor<-1x8x-1x-1xf16>, tensor<-1x8x-1xf32>, tensor<2xi64>"#.to_string(),
    ]
    .join("\n");
    let (_, refused) = last_op_facts(&body);
    assert_eq!(
        refused,
        ["Shape of ShapeOrData is not a vector, check whether the value is a tensor-list or not."]
    );
}

/// The fused batch norms use `batch_norm`'s rule, which reads the
/// `data_format` these ops do not declare.
#[test]
fn fused_batch_norm_act_without_a_layout_is_refused() {
    let body = [
        data(0, "x", "-1x4x-1x-1"),
        data(1, "c", "4"),
        r#"    (%2, %3, %4, %5, %6, %7) = "pd_op.fused_batch_norm_act" (%0, %1, %1, %1, %1) {act_type:"relu",epsilon:1e-05,momentum:0.9,stop_gradient:[true]} : (tensor<-1x4x-1x-1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<-1x4x-1x-1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<-1xu8>"#.to_string(),
    ]
    .join("\n");
    let (_, refused) = last_op_facts(&body);
    assert_eq!(
        refused,
        ["Attribute (data_format) is not exist, or the type of attribute is not correct."]
    );
}

/// `rms_norm` normalizes trailing dims only: Paddle refuses a
/// `normalized_shape` as long as the input's rank.
#[test]
fn rms_norm_over_every_dim_is_refused() {
    let body = [
        data(0, "x", "-1x-1"),
        r#"    (%1, %2) = "pd_op.rms_norm" (%0, <<NULL VALUE>>) {epsilon:1e-05,normalized_shape:[3,4],stop_gradient:[true]} : (tensor<-1x-1xf32>, <<NULL TYPE>>) -> tensor<-1x-1xf32>, tensor<f32>"#.to_string(),
    ]
    .join("\n");
    let (_, refused) = last_op_facts(&body);
    assert_eq!(refused, ["normalized_shape must be less than x_dims"]);
}
