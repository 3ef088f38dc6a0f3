//! Every model of the corpus exported to ONNX and checked structurally: the
//! file decodes back, its inputs and outputs are the feeds and fetches, every
//! node reads only values defined before it (or initializers, or an outer
//! graph's values), every op type is a standard ONNX op. Numbers are judged
//! by `scripts/onnx_check.py` (onnxruntime against Paddle).

use std::collections::HashSet;

use pir_onnx::proto::{GraphProto, ModelProto};
use pir_onnx::{ExportError, ExportOptions};
use prost::Message;

/// The ONNX (default domain) ops the exporter may write.
const ONNX_OPS: &[&str] = &[
    "Abs",
    "Acos",
    "Acosh",
    "Add",
    "And",
    "ArgMax",
    "ArgMin",
    "Asin",
    "Asinh",
    "Atan",
    "Atanh",
    "AveragePool",
    "BatchNormalization",
    "BitShift",
    "BitwiseAnd",
    "BitwiseNot",
    "BitwiseOr",
    "BitwiseXor",
    "Cast",
    "Ceil",
    "Celu",
    "Clip",
    "Compress",
    "Concat",
    "ConcatFromSequence",
    "ConstantOfShape",
    "Conv",
    "ConvTranspose",
    "Cos",
    "Cosh",
    "CumSum",
    "DepthToSpace",
    "Det",
    "DFT",
    "Div",
    "Einsum",
    "Elu",
    "Equal",
    "Erf",
    "Exp",
    "Expand",
    "Floor",
    "GRU",
    "Gather",
    "GatherElements",
    "GatherND",
    "Gelu",
    "GlobalAveragePool",
    "GlobalMaxPool",
    "Greater",
    "GreaterOrEqual",
    "GridSample",
    "HardSigmoid",
    "HardSwish",
    "Identity",
    "If",
    "InstanceNormalization",
    "IsInf",
    "IsNaN",
    "LRN",
    "LSTM",
    "LayerNormalization",
    "LeakyRelu",
    "Less",
    "LessOrEqual",
    "Log",
    "LogSoftmax",
    "Loop",
    "MatMul",
    "Max",
    "MaxPool",
    "MaxRoiPool",
    "Min",
    "Mod",
    "Mul",
    "Multinomial",
    "Neg",
    "NegativeLogLikelihoodLoss",
    "NonMaxSuppression",
    "NonZero",
    "Not",
    "OneHot",
    "Or",
    "PRelu",
    "Pad",
    "Pow",
    "RNN",
    "RandomNormalLike",
    "RandomUniformLike",
    "Range",
    "Reciprocal",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSumExp",
    "ReduceMax",
    "ReduceMean",
    "ReduceMin",
    "ReduceProd",
    "ReduceSum",
    "Relu",
    "Reshape",
    "Resize",
    "RoiAlign",
    "Round",
    "Scan",
    "ScatterElements",
    "ScatterND",
    "Selu",
    "SequenceAt",
    "SequenceEmpty",
    "SequenceErase",
    "SequenceInsert",
    "SequenceLength",
    "Shape",
    "Shrink",
    "Sigmoid",
    "Sign",
    "Sin",
    "Sinh",
    "Size",
    "Slice",
    "Softmax",
    "Softplus",
    "Softsign",
    "Split",
    "Sqrt",
    "Squeeze",
    "Sub",
    "Sum",
    "Tan",
    "Tanh",
    "ThresholdedRelu",
    "Tile",
    "TopK",
    "Transpose",
    "Trilu",
    "Unique",
    "Unsqueeze",
    "Where",
    "Xor",
];

/// Checks `graph`: defined-before-use and known op types; `outer` holds the
/// names visible from enclosing graphs.
fn check_graph(graph: &GraphProto, outer: &HashSet<String>, label: &str) {
    let mut defined: HashSet<String> = outer.clone();
    defined.extend(graph.input.iter().map(|i| i.name.clone()));
    defined.extend(graph.initializer.iter().map(|t| t.name.clone()));
    for node in &graph.node {
        assert!(
            ONNX_OPS.contains(&node.op_type.as_str()),
            "{label}: op type {} is not one the exporter writes",
            node.op_type
        );
        for input in &node.input {
            assert!(
                input.is_empty() || defined.contains(input),
                "{label}: {} reads {input} before it is defined",
                node.op_type
            );
        }
        for attr in &node.attribute {
            if let Some(g) = &attr.g {
                check_graph(g, &defined, label);
            }
        }
        defined.extend(node.output.iter().cloned());
    }
    for output in &graph.output {
        assert!(
            defined.contains(&output.name),
            "{label}: output {} is not defined",
            output.name
        );
    }
}

/// Exports one model; `None` when it holds ops without a mapping (training
/// programs), after checking that the error names them.
fn export_model(path: &std::path::Path, label: &str) -> Option<(pir::Model, ModelProto)> {
    export_model_or(path, label, false)
}

/// [`export_model`]; with `lenient`, an op whose use the exporter refuses
/// (e.g. integer bitwise ops below opset 18) also gives `None`.
fn export_model_or(
    path: &std::path::Path,
    label: &str,
    lenient: bool,
) -> Option<(pir::Model, ModelProto)> {
    let mut model = pir::Model::load(path).unwrap_or_else(|e| panic!("{label}: {e}"));
    pir_onnx::prepare(&mut model.program, &[], true).unwrap_or_else(|e| panic!("{label}: {e}"));
    match pir_onnx::export_bytes(&model.program, &ExportOptions::default()) {
        Ok(bytes) => {
            let decoded = ModelProto::decode(bytes.as_slice())
                .unwrap_or_else(|e| panic!("{label}: does not decode: {e}"));
            Some((model, decoded))
        }
        Err(ExportError::UnmappedOps(ops)) => {
            assert!(!ops.is_empty());
            assert!(ops.iter().all(|u| u.count > 0 && !u.first.is_empty()));
            None
        }
        Err(ExportError::Unsupported { message, .. }) if lenient => {
            assert!(!message.is_empty());
            None
        }
        Err(e) => panic!("{label}: {e}"),
    }
}

fn check_model(model: &pir::Model, onnx: &ModelProto, label: &str) {
    let graph = onnx.graph.as_ref().expect("a graph");
    assert_eq!(onnx.opset_import[0].version, pir_onnx::DEFAULT_OPSET);
    let p = &model.program;
    let feeds: Vec<String> = p
        .block_ops(p.top_block())
        .filter(|&op| matches!(p.op_name_str(op), "pd_op.data" | "pd_op.feed"))
        .filter_map(|op| {
            let a = p.attr(op, "name")?;
            p.ctx()
                .attr_as::<pir::core::builtin::StrAttr>(a)
                .map(|s| s.0.to_string())
        })
        .collect();
    let inputs: Vec<String> = graph.input.iter().map(|i| i.name.clone()).collect();
    assert_eq!(inputs, feeds, "{label}: graph inputs are the feeds");
    let fetches = p
        .block_ops(p.top_block())
        .filter(|&op| p.op_name_str(op) == "pd_op.fetch")
        .count();
    assert_eq!(graph.output.len(), fetches, "{label}: one output per fetch");
    let mut names = HashSet::new();
    for t in &graph.initializer {
        assert!(
            names.insert(t.name.clone()),
            "{label}: initializer {} twice",
            t.name
        );
    }
    check_graph(graph, &HashSet::new(), label);
}

#[test]
fn every_corpus_model_exports_to_a_well_formed_onnx_graph() {
    let mut unmapped = Vec::new();
    let mut models: Vec<(std::path::PathBuf, String)> = pir_corpus::models()
        .into_iter()
        .map(|m| (m.json(), m.name.clone()))
        .collect();
    models.extend(
        pir_corpus::control_flow_models()
            .into_iter()
            .map(|m| (m.json(), format!("control_flow/{}", m.name))),
    );
    assert!(!models.is_empty(), "the corpus is missing");
    for (path, label) in &models {
        match export_model(path, label) {
            Some((model, onnx)) => check_model(&model, &onnx, label),
            None => unmapped.push(label.clone()),
        }
    }
    // Only the training program (gradients, an optimizer) and complex
    // numbers (which ONNX cannot compute with) lack mappings.
    for label in &unmapped {
        assert!(
            ["train_mlp_adam", "dtype_zoo"].contains(&label.as_str()),
            "{label} has ops without a mapping"
        );
    }
}

#[test]
fn legacy_models_export_through_the_translation() {
    let dir = pir_corpus::repo_root().join("tests/corpus/legacy");
    let mut exported = 0;
    let mut total = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/corpus/legacy") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("pdmodel") {
            continue;
        }
        total += 1;
        let label = path.display().to_string();
        if let Some((mut model, _)) = export_model_or(&path, &label, true) {
            // Legacy translations keep their variables' declared shapes:
            // re-inferred, as `pir export` does, before the structural check.
            pir_onnx::reinfer_types(&mut model.program);
            let options = ExportOptions {
                trust_shapes: false,
                ..Default::default()
            };
            let bytes = pir_onnx::export_bytes(&model.program, &options)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            let onnx = ModelProto::decode(bytes.as_slice()).expect("decodes");
            check_model(&model, &onnx, &label);
            exported += 1;
        }
    }
    assert!(total > 0);
    // Most of these models exist to cover rare legacy ops (detection
    // post-processing, sequence ops, linear algebra, random numbers); over
    // half export.
    assert!(
        2 * exported > total,
        "{exported} of {total} legacy models exported"
    );
}

#[test]
fn an_unmapped_op_writes_nothing_and_names_the_op() {
    let ctx = pir::dialects::pd_op_context();
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.i0" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%2) = "pd_op.i0" (%1) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
}"#;
    let program = pir::core::Program::parse(&ctx, text).expect("parses");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("y.onnx");
    let err = pir_onnx::write_onnx(&program, &ExportOptions::default(), &out, false)
        .expect_err("i0 has no mapping");
    match &err {
        ExportError::UnmappedOps(ops) => {
            assert_eq!(ops.len(), 1);
            assert_eq!(ops[0].op, "pd_op.i0");
            assert_eq!(ops[0].count, 2);
            assert_eq!(ops[0].first, "op 1 of the top block");
        }
        other => panic!("unexpected error {other}"),
    }
    assert!(!out.exists(), "nothing is written");
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
}

#[test]
fn an_opset_outside_13_to_21_is_refused() {
    let ctx = pir::dialects::pd_op_context();
    let program = pir::core::Program::new(ctx);
    for opset in [12, 22] {
        let options = ExportOptions {
            opset,
            ..Default::default()
        };
        assert!(matches!(
            pir_onnx::export(&program, &options),
            Err(ExportError::Opset(o)) if o == opset
        ));
    }
}

/// Exports each `(model, op type)` of `tests/corpus/onnx_ops` and checks
/// the graph is well formed and has a node of that type.
fn export_each_with(cases: &[(&str, &str)]) {
    let dir = pir_corpus::repo_root().join("tests/corpus/onnx_ops");
    for &(name, op_type) in cases {
        let path = dir.join(format!("{name}.json"));
        let (model, onnx) =
            export_model(&path, name).unwrap_or_else(|| panic!("{name}: unmapped ops"));
        check_model(&model, &onnx, name);
        let graph = onnx.graph.as_ref().expect("a graph");
        assert!(
            graph.node.iter().any(|n| n.op_type == op_type),
            "{name}: no {op_type} node"
        );
    }
}

/// The sequence-decoding and signal models of `tests/corpus/onnx_ops`
/// (`op_*`, made by `scripts/make_onnx_decode_models.py`; their numbers are
/// judged by `scripts/onnx_check.py --sets ops`) export to well-formed
/// graphs, each with its op's loop where the op is sequential.
#[test]
fn decoding_and_signal_models_export() {
    let loops = [
        ("op_ctc_align", "TopK"),
        ("op_gather_tree", "Scan"),
        ("op_viterbi_decode", "Scan"),
        ("op_crf_decoding", "Scan"),
        ("op_edit_distance", "Scan"),
        ("op_frame", "Gather"),
        ("op_overlap_add", "ScatterND"),
        ("op_gru_unit", "MatMul"),
    ];
    export_each_with(&loops);
}

/// The decomposition and detection models of `tests/corpus/onnx_ops`
/// (made by `scripts/make_onnx_op_models.py`; their numbers are judged by
/// `scripts/onnx_check.py --sets ops`) export to well-formed graphs, each
/// with the node that carries its op.
#[test]
fn decomposition_and_detection_models_export() {
    let carriers = [
        ("qr_reduced_4x3", "Trilu"),
        ("qr_complete_3x5", "Trilu"),
        ("qr_r_4x3", "Trilu"),
        ("lu_4x4", "ArgMax"),
        ("lu_5x3", "ArgMax"),
        ("lu_unpack_3x5", "GatherElements"),
        ("lstsq", "Compress"),
        ("cholesky_solve_lower", "Trilu"),
        ("cholesky_solve_upper", "Trilu"),
        ("generate_proposals", "NonMaxSuppression"),
        ("generate_proposals_offset", "NonMaxSuppression"),
        ("generate_proposals_empty", "NonZero"),
        ("distribute_fpn_proposals", "Compress"),
        ("collect_fpn_proposals", "TopK"),
        ("bipartite_match_bipartite", "ArgMax"),
        ("bipartite_match_per_prediction", "ArgMax"),
        ("matrix_nms", "NonZero"),
        ("matrix_nms_gaussian", "Exp"),
    ];
    export_each_with(&carriers);
}
