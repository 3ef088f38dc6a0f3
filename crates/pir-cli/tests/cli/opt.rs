//! `pir opt`: pipelines, reproducers, the parameter file it writes, user
//! rules.

use super::*;

#[test]
fn opt_runs_a_pipeline_and_reports_statistics() {
    let model = corpus_model("mlp_tiny");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("opt.json");
    let res = pir_ok(&[
        "opt",
        model.json().to_str().unwrap(),
        "-p",
        "canonicalize,cse,dce",
        "-o",
        out.to_str().unwrap(),
        "--statistics",
    ]);
    assert!(String::from_utf8_lossy(&res.stderr).contains("patterns applied"));
    assert!(pir(&["verify", out.to_str().unwrap()]).status.success());
    let bad = pir(&["opt", model.json().to_str().unwrap(), "-p", "nope"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown pass `nope`"));
    let list = pir(&["opt", "--list-passes"]);
    let list = String::from_utf8_lossy(&list.stdout);
    for pass in [
        "cse",
        "de_inplace",
        "inplace",
        "to_vtensor",
        "lower_vtensor",
    ] {
        assert!(
            list.lines().any(|l| l.starts_with(&format!("{pass} "))),
            "{list}"
        );
    }
}

#[test]
fn opt_writes_a_reproducer_when_a_pass_fails_and_prints_ir_before_passes() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("copy.txt");
    std::fs::write(
        &model,
        r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2],stop_gradient:[false]} : () -> tensor<2xf32>
    (%1) = "pd_op.exp" (%0) {stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
    (%2) = "pd_op.assign" (%1) {stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>
}
"#,
    )
    .unwrap();
    let repro = dir.path().join("repro.json");
    let model = model.to_str().unwrap();
    // A rewrite limit of zero stops canonicalize before its fixed point.
    let failed = pir(&[
        "opt",
        model,
        "-p",
        "canonicalize{max-rewrites=0}",
        "--reproducer",
        repro.to_str().unwrap(),
    ]);
    assert_eq!(failed.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(stderr.contains("replay with: pir opt"), "{stderr}");
    let replay = pir(&["print", repro.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&replay.stdout).contains("pd_op.assign"));

    let before = pir(&["opt", model, "-p", "canonicalize", "--print-ir-before-all"]);
    assert!(before.status.success());
    let stderr = String::from_utf8_lossy(&before.stderr);
    assert!(stderr.contains("pd_op.assign"), "{stderr}");
    assert!(!String::from_utf8_lossy(&before.stdout).contains("pd_op.assign"));
}

#[test]
fn opt_writes_the_parameters_the_result_uses_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("mlp_tiny");
    let params = model.file(".pdiparams").unwrap();
    let out = dir.path().join("y.json");
    succeeded(opt_to(&model.json(), "canonicalize,cse,dce", &out));
    assert!(
        std::fs::read(dir.path().join("y.pdiparams")).unwrap() == std::fs::read(&params).unwrap(),
        "y.pdiparams is the original file, byte for byte"
    );
    // The pair is a model pir reads back.
    let back = pir::Model::load(dir.path().join("y")).unwrap();
    assert_eq!(back.parameter_names().len(), 4);
    // Text is read with the parameters beside it too; a model without a
    // parameter file writes none.
    let text = dir.path().join("t.json");
    let res = opt_to(&model.txt().unwrap(), "dce", &text);
    assert!(res.status.success());
    assert!(
        std::fs::read(dir.path().join("t.pdiparams")).unwrap() == std::fs::read(&params).unwrap()
    );
    // A model whose parameter file is missing is refused, saying what it
    // needs; with --no-params its program alone is optimised and written.
    let alone = dir.path().join("alone.txt");
    std::fs::copy(model.txt().unwrap(), &alone).unwrap();
    let res = opt_to(&alone, "dce", &dir.path().join("u.json"));
    assert_eq!(res.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        stderr.contains("alone.pdiparams") && stderr.contains("--no-params"),
        "{stderr}"
    );
    assert!(!dir.path().join("u.json").exists());
    let res = pir(&[
        "opt",
        alone.to_str().unwrap(),
        "-p",
        "dce",
        "--no-params",
        "-o",
        dir.path().join("u.json").to_str().unwrap(),
    ]);
    assert!(res.status.success());
    assert!(!dir.path().join("u.pdiparams").exists());
    let no_params = corpus_model("fn_no_params");
    let res = opt_to(&no_params.json(), "dce", &dir.path().join("n.json"));
    assert!(res.status.success());
    assert!(!dir.path().join("n.pdiparams").exists());
}

/// `mlp_tiny` fetching the first layer's output, so that the second layer and
/// the uses of its parameters are dead; with the original parameter file.
fn mlp_with_a_dead_layer(dir: &std::path::Path) -> std::path::PathBuf {
    let model = corpus_model("mlp_tiny");
    let fetch = r#""pd_op.fetch" (%12) {col:0,name:"fetch_name_0",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#;
    let text = std::fs::read_to_string(model.txt().unwrap()).unwrap();
    assert!(text.contains(fetch));
    let text = text.replace(
        fetch,
        r#""pd_op.fetch" (%7) {col:0,name:"fetch_name_0",persistable:[true],stop_gradient:[false]} : (tensor<-1x16xf32>) -> tensor<-1x16xf32>"#,
    );
    let txt = dir.join("dead.txt");
    let json = dir.join("dead.json");
    std::fs::write(&txt, text).unwrap();
    assert!(
        pir(&["convert", txt.to_str().unwrap(), json.to_str().unwrap()])
            .status
            .success()
    );
    std::fs::copy(
        model.file(".pdiparams").unwrap(),
        dir.join("dead.pdiparams"),
    )
    .unwrap();
    json
}

/// `dce` erases the dead layer but keeps its `builtin.parameter` ops: they are
/// the program's interface (like `pd_op.data`), so every tensor the program
/// still names is written, with its bytes. (Dropping a parameter whose op is
/// erased is covered by the unit tests of `opt.rs`.)
#[test]
fn opt_keeps_the_parameters_the_program_still_names() {
    let dir = tempfile::tempdir().unwrap();
    let json = mlp_with_a_dead_layer(dir.path());
    let out = dir.path().join("y.json");
    succeeded(opt_to(&json, "dce", &out));
    let printed =
        String::from_utf8_lossy(&pir(&["print", out.to_str().unwrap()]).stdout).into_owned();
    assert!(!printed.contains("pd_op.scale") && printed.contains("linear_1.w_0"));
    assert!(
        std::fs::read(dir.path().join("y.pdiparams")).unwrap()
            == std::fs::read(dir.path().join("dead.pdiparams")).unwrap()
    );
}

/// With `--keep-params` no pass reads, creates, drops or reshapes a
/// parameter: the inference pipeline on a conv model (whose biases it would
/// fold and trim) writes the parameter file it read, byte for byte.
#[test]
fn opt_keep_params_writes_the_parameter_file_it_read() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("lenet");
    let out = dir.path().join("y.json");
    pir_ok(&[
        "opt",
        model.json().to_str().unwrap(),
        "-p",
        "inference",
        "--keep-params",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        std::fs::read(dir.path().join("y.pdiparams")).unwrap()
            == std::fs::read(model.file(".pdiparams").unwrap()).unwrap()
    );
    let printed =
        String::from_utf8_lossy(&pir(&["print", out.to_str().unwrap()]).stdout).into_owned();
    assert!(!printed.contains("constant_folding@"), "{printed}");
}

#[test]
fn opt_rejects_a_truncated_or_short_parameter_file_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("mlp_tiny");
    let bytes = std::fs::read(model.file(".pdiparams").unwrap()).unwrap();
    let json = dir.path().join("m.json");
    std::fs::copy(model.json(), &json).unwrap();
    let out = dir.path().join("out.json");
    // Cut inside the second tensor, and after the third (one tensor missing).
    let names = [
        "linear_0.b_0",
        "linear_0.w_0",
        "linear_1.b_0",
        "linear_1.w_0",
    ];
    let tensors = pir_params::combined::read_combined(&bytes, &names).unwrap();
    let mut three = Vec::new();
    pir_params::combined::write_combined_to(&mut three, &tensors[..3]).unwrap();
    for (cut, name) in [
        (&bytes[..500], "linear_0.w_0"),
        (&three[..], "linear_1.w_0"),
    ] {
        std::fs::write(dir.path().join("m.pdiparams"), cut).unwrap();
        let res = opt_to(&json, "dce", &out);
        assert_eq!(res.status.code(), Some(1));
        let err = String::from_utf8_lossy(&res.stderr);
        assert!(err.contains("m.pdiparams") && err.contains(name), "{err}");
        assert!(!out.exists() && !dir.path().join("out.pdiparams").exists());
    }
}

#[test]
fn opt_rejects_a_parameter_of_the_wrong_shape() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("mlp_tiny");
    let json = dir.path().join("m.json");
    std::fs::copy(model.json(), &json).unwrap();
    let names = [
        "linear_0.b_0",
        "linear_0.w_0",
        "linear_1.b_0",
        "linear_1.w_0",
    ];
    let mut tensors =
        pir_params::combined::load_combined(&model.file(".pdiparams").unwrap(), &names).unwrap();
    tensors[1].1 =
        pir_params::Tensor::from_slice(pir_params::DType::Float32, vec![16, 8], &[0f32; 128])
            .unwrap();
    let params = dir.path().join("m.pdiparams");
    pir_params::combined::save_combined(&params, &tensors, false).unwrap();
    let out = dir.path().join("out.json");
    let res = opt_to(&json, "dce", &out);
    assert_eq!(res.status.code(), Some(1));
    let err = String::from_utf8_lossy(&res.stderr);
    assert!(
        err.contains("linear_0.w_0") && err.contains("[16, 8]") && err.contains("m.pdiparams"),
        "{err}"
    );
    assert!(!out.exists() && !dir.path().join("out.pdiparams").exists());
}

/// `pir opt --rules FILE` applies a user's rules before the pipeline and
/// notes the rules that never matched; a malformed rule names its line.
#[test]
fn opt_applies_user_rules_and_reports_unmatched_ones() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("fc.drr");
    std::fs::write(
        &rules,
        "rule fc {\n    %m = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false}\n    \
         %out = pd_op.add(%m, %b)\n    where rank(%w) == 2 && rank(%b) == 1\n    =>\n    \
         %out = pd_op.fc(%x, %w, %b) {in_num_col_dims: rank(%x) - 1, activation_type: \"\", padding_weights: false}\n}\n\
         rule never {\n    %y = pd_op.sigmoid(%x)\n    =>\n    %y = %x\n}\n",
    )
    .unwrap();
    let model = corpus_model("mlp_tiny");
    let out = dir.path().join("out.json");
    let res = pir(&[
        "opt",
        model.json().to_str().unwrap(),
        "--rules",
        rules.to_str().unwrap(),
        "-p",
        "dce",
        "-o",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&res.stderr);
    assert!(res.status.success(), "{err}");
    assert!(
        err.contains("rule `never`") && err.contains("never matched"),
        "{err}"
    );
    assert!(!err.contains("rule `fc`"), "{err}");
    let printed = pir(&["print", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&printed.stdout);
    assert_eq!(text.matches("pd_op.fc").count(), 2, "{text}");
    assert!(dir.path().join("out.pdiparams").exists());

    std::fs::write(
        &rules,
        "rule bad {\n    %y = pd_op.relu(%x) {nope: 1}\n    =>\n    %y = %x\n}\n",
    )
    .unwrap();
    let res = pir(&[
        "opt",
        model.json().to_str().unwrap(),
        "--rules",
        rules.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&res.stderr);
    assert_ne!(res.status.code(), Some(0));
    assert!(
        err.contains("line 2, column 26") && err.contains("no attribute `nope`"),
        "{err}"
    );
}

/// `-p inference` is a pipeline name, listed with the passes.
#[test]
fn the_inference_pipeline_is_listed_and_runs() {
    let list = pir(&["opt", "--list-passes"]);
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(text.lines().any(|l| l.starts_with("inference ")), "{text}");
    let model = corpus_model("mlp_tiny");
    let res = pir_ok(&["opt", model.json().to_str().unwrap(), "-p", "inference"]);
    let text = String::from_utf8_lossy(&res.stdout);
    assert_eq!(text.matches("pd_op.fc").count(), 2, "{text}");
    assert!(!text.contains("pd_op.matmul"), "{text}");
}
