//! The `pir` binary end to end: output on stdout, errors on stderr, exit codes.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

mod common;
use common::{corpus_model, pir};

#[test]
fn print_writes_exactly_paddles_text() {
    let model = pir_corpus::models()
        .into_iter()
        .find(|m| m.name == "cond_if")
        .expect("cond_if is in every corpus");
    let out = pir(&["print", model.json().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = std::fs::read(model.txt().unwrap()).unwrap();
    assert!(out.stdout == expected, "stdout differs from Paddle's print");
    assert!(out.stderr.is_empty());
}

#[test]
fn a_missing_file_is_an_error_with_exit_code_1() {
    let out = pir(&["print", "/nonexistent/model.json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/model.json"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_corrupt_file_names_the_json_path_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("mlp_tiny");
    let text = std::fs::read_to_string(model.json())
        .unwrap()
        .replacen("0.t_f32", "0.t_bogus", 1);
    let path = dir.path().join("bad.json");
    std::fs::write(&path, text).unwrap();
    let out = pir(&["print", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("program.regions[0].blocks[0].ops[0].O.TT.D[0]"),
        "{err}"
    );
    assert!(err.contains("unknown type id `0.t_bogus`"), "{err}");
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    assert_eq!(pir(&[]).status.code(), Some(2));
    assert_eq!(pir(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(pir(&["print"]).status.code(), Some(2));
    assert_eq!(pir(&["print", "a", "--bogus"]).status.code(), Some(2));
    for args in [
        &["help"][..],
        &["--help"],
        &["print", "--help"],
        &["opt", "--help"],
    ] {
        let out = pir(args);
        assert!(out.status.success(), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: pir"));
    }
    let version = pir(&["--version"]);
    assert!(version.status.success());
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("pir "));
    // `--version` alone is answered before the command line is parsed; with
    // other arguments clap answers it: the same text either way.
    for args in [
        &["-V"][..],
        &["--lenient", "--version"],
        &["-V", "--lenient"],
    ] {
        let out = pir(args);
        assert!(out.status.success(), "{args:?}");
        assert_eq!(out.stdout, version.stdout, "{args:?}");
    }
    // A typo gets a suggestion.
    let typo = pir(&["prnt", "x.json"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&typo.stderr).contains("'print'"));
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let out = pir(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        assert!(
            script.contains("print") && script.contains("typed"),
            "{shell}"
        );
    }
}

/// The bash script completes below the first level: a nested command's
/// options (`pir params convert --program`) and the `help` tree
/// (`pir help params convert`).
#[test]
fn the_bash_script_completes_nested_commands() {
    let out = pir(&["completions", "bash"]);
    assert!(out.status.success());
    let script = String::from_utf8_lossy(&out.stdout);
    let case = |name: &str| {
        let start = script
            .find(&format!("\n        {name})\n"))
            .unwrap_or_else(|| panic!("no case for {name}"));
        let rest = &script[start..];
        rest[..rest.find(";;").unwrap_or(rest.len())].to_owned()
    };
    let convert = case("pir__subcmd__params__subcmd__convert");
    assert!(
        convert.contains("--program") && convert.contains("--force"),
        "{convert}"
    );
    let help_params = case("pir__subcmd__help__subcmd__params");
    assert!(help_params.contains("convert"), "{help_params}");
    assert!(script.contains("pir__subcmd__help__subcmd__params,convert)"));
}

/// A file of the wrong kind says what it is; an error names its path once.
#[test]
fn files_of_the_wrong_kind_say_what_they_are() {
    let model = corpus_model("mlp_tiny");
    let params = model.file(".pdiparams").unwrap();
    let json = model.json();
    let err = |args: &[&str]| {
        let out = pir(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = err(&["print", params.to_str().unwrap()]);
    assert!(
        e.contains("is a parameter file (.pdiparams), not a model"),
        "{e}"
    );
    assert!(e.contains("pir params"), "{e}");
    let e = err(&["params", json.to_str().unwrap()]);
    assert!(
        e.contains("is a Paddle JSON model, not a parameter file"),
        "{e}"
    );
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, "{}").unwrap();
    let e = err(&["print", empty.to_str().unwrap()]);
    assert!(
        e.contains("not a Paddle model: a JSON object without `base_code`"),
        "{e}"
    );
    assert!(!e.contains(": :"), "{e}");
    let missing = dir.path().join("missing.json");
    let e = err(&["print", missing.to_str().unwrap()]);
    assert_eq!(e.matches("missing.json").count(), 1, "{e}");
    let junk = dir.path().join("junk");
    std::fs::write(&junk, "PK\x03\x04").unwrap();
    let e = err(&["verify", junk.to_str().unwrap()]);
    assert!(e.contains("is not a model"), "{e}");
}

/// Output extensions that say no format are refused before anything is read.
#[test]
fn unknown_output_extensions_are_refused() {
    let model = corpus_model("mlp_tiny");
    let dir = tempfile::tempdir().unwrap();
    let json = model.json();
    let out = dir.path().join("out.yaml");
    let res = pir(&["convert", json.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(res.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&res.stderr).contains(".yaml"));
    assert!(!out.exists());
    let bin = dir.path().join("x.bin");
    let params = model.file(".pdiparams").unwrap();
    let res = pir(&[
        "params",
        "convert",
        params.to_str().unwrap(),
        bin.to_str().unwrap(),
    ]);
    assert_eq!(res.status.code(), Some(2));
    assert!(!bin.exists());
}

/// JSON to JSON keeps the input's layout unless told; `upgrade` of a current
/// file says so.
#[test]
fn convert_keeps_the_layout_and_upgrade_says_when_nothing_changes() {
    let model = corpus_model("mlp_tiny");
    let dir = tempfile::tempdir().unwrap();
    let json = model.json();
    let readable = dir.path().join("readable.json");
    let s = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let run = |args: &[&str]| {
        let out = pir(args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    run(&["convert", &s(&json), &s(&readable), "--readable"]);
    let again = dir.path().join("again.json");
    run(&["convert", &s(&readable), &s(&again)]);
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&readable).unwrap()
    );
    let compact = dir.path().join("compact.json");
    run(&["convert", &s(&readable), &s(&compact), "--compact"]);
    assert_eq!(
        std::fs::read(&compact).unwrap(),
        std::fs::read(&json).unwrap()
    );
    let upgraded = dir.path().join("upgraded.json");
    let note = run(&["upgrade", &s(&json), &s(&upgraded)]);
    assert!(note.contains("already at version"), "{note}");
}

#[test]
fn verify_accepts_a_corpus_model() {
    let model = corpus_model("while_loop");
    let out = pir(&["verify", model.json().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn verify_and_stats_take_many_models_and_report_them_in_order() {
    let models: Vec<String> = pir_corpus::models()
        .iter()
        .map(|m| m.json().to_str().unwrap().to_owned())
        .collect();
    assert!(models.len() >= 2);
    let mut args = vec!["verify", "-j", "3"];
    args.extend(models.iter().map(String::as_str));
    let out = pir(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let reported: Vec<&str> = stdout
        .lines()
        .map(|l| l.split(": ok (").next().unwrap())
        .collect();
    assert_eq!(
        reported,
        models.iter().map(String::as_str).collect::<Vec<_>>()
    );

    // A bad file among good ones: every file is still reported, the bad one
    // on stderr, and the exit code is 1.
    let mut args = vec!["verify", models[0].as_str(), "/nonexistent/m.json"];
    args.push(models[1].as_str());
    let out = pir(&args);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/m.json"), "{err}");
    assert!(err.contains("1 of 3 models failed"), "{err}");

    let out = pir(&["stats", models[0].as_str(), models[1].as_str()]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let files: Vec<&str> = stdout.lines().filter(|l| l.starts_with("file: ")).collect();
    assert_eq!(
        files,
        [
            format!("file: {}", models[0]),
            format!("file: {}", models[1])
        ]
    );
}

#[test]
fn convert_rewrites_a_model_byte_for_byte_and_refuses_to_overwrite() {
    let model = corpus_model("cond_if");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let json = model.json();
    let args = ["convert", json.to_str().unwrap(), out.to_str().unwrap()];
    assert!(pir(&args).status.success());
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(model.json()).unwrap()
    );
    let again = pir(&args);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    let forced = pir(&[
        "convert",
        model.json().to_str().unwrap(),
        out.to_str().unwrap(),
        "--force",
        "--inference",
    ]);
    assert!(forced.status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(r#""trainable":false"#) && !text.contains(r#""OA""#));
}

#[test]
fn params_lists_tensors_named_by_the_program_as_json() {
    let model = corpus_model("mlp_tiny");
    let params = model.file(".pdiparams").unwrap();
    let out = pir(&[
        "params",
        params.to_str().unwrap(),
        "--program",
        model.json().to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "linear_0.b_0",
            "linear_0.w_0",
            "linear_1.b_0",
            "linear_1.w_0"
        ]
    );
    assert_eq!(list[1]["dtype"], "float32");
    assert_eq!(list[1]["shape"], serde_json::json!([8, 16]));
    assert_eq!(list[1]["bytes"], 8 * 16 * 4);
    assert_eq!(list[1]["sha256"].as_str().unwrap().len(), 64);
}

#[test]
fn time_reports_the_phases_and_with_params_reads_the_parameter_file() {
    let model = corpus_model("mlp_tiny");
    let json = model.json();
    let out = pir(&["time", json.to_str().unwrap(), "--repeat", "2", "--params"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let size = std::fs::metadata(model.file(".pdiparams").unwrap())
        .unwrap()
        .len();
    assert_eq!(report["params_bytes"], size);
    for key in [
        "first_load_ms",
        "first_print_ms",
        "first_save_ms",
        "load_ms",
        "print_ms",
        "save_ms",
        "params_ms",
        "params_gbps",
    ] {
        assert!(report[key].as_f64().unwrap() >= 0.0, "{key}: {report}");
    }
    // A model without a parameter file beside it is an error naming the file.
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("alone.json");
    std::fs::copy(&json, &alone).unwrap();
    let out = pir(&["time", alone.to_str().unwrap(), "--params"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("alone.pdiparams"));
}

#[test]
fn params_convert_goes_to_pickle_and_back_to_the_same_bytes() {
    let model = corpus_model("mlp_tiny");
    let params = model.file(".pdiparams").unwrap();
    let program = model.json();
    let dir = tempfile::tempdir().unwrap();
    let pickle = dir.path().join("p.pdparams");
    let back = dir.path().join("p.pdiparams");
    let ok = |args: &[&str]| assert!(pir(args).status.success(), "{args:?}");
    ok(&[
        "params",
        "convert",
        params.to_str().unwrap(),
        pickle.to_str().unwrap(),
        "--program",
        program.to_str().unwrap(),
    ]);
    ok(&[
        "params",
        "convert",
        pickle.to_str().unwrap(),
        back.to_str().unwrap(),
        "--program",
        program.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(&back).unwrap(),
        std::fs::read(&params).unwrap()
    );
    // The model beside the file names its tensors; without one it is a usage error.
    let beside = pir(&[
        "params",
        "convert",
        params.to_str().unwrap(),
        pickle.to_str().unwrap(),
        "--force",
    ]);
    assert!(beside.status.success());
    let alone = dir.path().join("alone.pdiparams");
    std::fs::copy(&params, &alone).unwrap();
    let no_names = pir(&[
        "params",
        "convert",
        alone.to_str().unwrap(),
        pickle.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(no_names.status.code(), Some(2));
}

#[test]
fn upgrade_writes_the_current_version() {
    let Some(old) = pir_corpus::compat_models()
        .into_iter()
        .find(|m| m.pir_version == 1)
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("new.json");
    assert!(pir(&[
        "upgrade",
        old.json().to_str().unwrap(),
        out.to_str().unwrap()
    ])
    .status
    .success());
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains(r#""version":4"#));
}

#[test]
fn opt_runs_a_pipeline_and_reports_statistics() {
    let model = corpus_model("mlp_tiny");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("opt.json");
    let res = pir(&[
        "opt",
        model.json().to_str().unwrap(),
        "-p",
        "canonicalize,cse,dce",
        "-o",
        out.to_str().unwrap(),
        "--statistics",
    ]);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
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
fn text_models_print_convert_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("while_loop");
    let json = model.json();
    let txt = model.txt().unwrap();
    // Paddle's print reads back and prints the same text.
    let out = pir(&["print", txt.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout == std::fs::read(&txt).unwrap());
    // JSON → typed text (.pir) → JSON gives the file's bytes.
    let typed = dir.path().join("m.pir");
    let back = dir.path().join("m.json");
    for args in [
        vec!["convert", json.to_str().unwrap(), typed.to_str().unwrap()],
        vec!["convert", typed.to_str().unwrap(), back.to_str().unwrap()],
        vec!["verify", typed.to_str().unwrap()],
    ] {
        let out = pir(&args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(std::fs::read_to_string(&typed)
        .unwrap()
        .starts_with("#pir-typed version=4"));
    assert!(std::fs::read(&back).unwrap() == std::fs::read(&json).unwrap());
    // `print --typed` writes what convert wrote.
    let out = pir(&["print", "--typed", json.to_str().unwrap()]);
    assert!(out.stdout == std::fs::read(&typed).unwrap());
    // Text is recognised by its content whatever the extension.
    let odd = dir.path().join("model.ir");
    std::fs::copy(&typed, &odd).unwrap();
    let out = pir(&["print", odd.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout == std::fs::read(&txt).unwrap());
}

#[test]
fn malformed_text_shows_line_column_and_caret() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("mlp_tiny");
    let text = std::fs::read_to_string(model.txt().unwrap()).unwrap();
    let bad = text.replacen("stop_gradient:[false]", "stop_gradient[false]", 1);
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, &bad).unwrap();
    let out = pir(&["print", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let line = bad[..bad.find("stop_gradient[").unwrap()].lines().count();
    assert!(
        err.contains(&format!("bad.txt: line {line}, column ")),
        "{err}"
    );
    assert!(err.contains("expected `:` after attribute name"), "{err}");
    assert!(err.lines().any(|l| l.trim() == "^"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn strict_verify_rejects_unknown_ops_in_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("mlp_tiny");
    let text = std::fs::read_to_string(model.txt().unwrap())
        .unwrap()
        .replacen("\"pd_op.relu\"", "\"pd_op.reluu\"", 1);
    let txt = dir.path().join("typo.txt");
    std::fs::write(&txt, &text).unwrap();
    let json =
        std::fs::read_to_string(model.json())
            .unwrap()
            .replacen("\"1.relu\"", "\"1.reluu\"", 1);
    let json_path = dir.path().join("typo.json");
    std::fs::write(&json_path, &json).unwrap();
    for path in [&txt, &json_path] {
        let lenient = pir(&["verify", path.to_str().unwrap()]);
        assert!(
            lenient.status.success(),
            "{}",
            String::from_utf8_lossy(&lenient.stderr)
        );
        let strict = pir(&["verify", "--strict", path.to_str().unwrap()]);
        assert_eq!(strict.status.code(), Some(1));
        let err = String::from_utf8_lossy(&strict.stderr);
        assert!(err.contains("unknown op `pd_op.reluu`"), "{err}");
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

/// `pir opt` on `mlp_tiny.json` with the pipeline `passes`, into `out`.
fn opt_to(input: &std::path::Path, passes: &str, out: &std::path::Path) -> std::process::Output {
    pir(&[
        "opt",
        input.to_str().unwrap(),
        "-p",
        passes,
        "-o",
        out.to_str().unwrap(),
    ])
}

#[test]
fn opt_writes_the_parameters_the_result_uses_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("mlp_tiny");
    let params = model.file(".pdiparams").unwrap();
    let out = dir.path().join("y.json");
    let res = opt_to(&model.json(), "canonicalize,cse,dce", &out);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
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
    let res = opt_to(&json, "dce", &out);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
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
    let res = pir(&[
        "opt",
        model.json().to_str().unwrap(),
        "-p",
        "inference",
        "--keep-params",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
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

/// `pir diff`: identical models exit 0; an optimised one differs (exit 1)
/// in the ops the pipeline removed and the parameters it folded.
#[test]
fn diff_tells_models_apart() {
    let model = corpus_model("resblock");
    let dir = tempfile::tempdir().unwrap();
    let json = model.json();
    let same = pir(&["diff", json.to_str().unwrap(), json.to_str().unwrap()]);
    assert!(same.status.success());
    assert!(String::from_utf8_lossy(&same.stdout).contains("no differences"));
    let out = dir.path().join("o.json");
    let res = opt_to(&json, "fold_batch_norm,canonicalize,cse,dce", &out);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    let diff = pir(&[
        "diff",
        json.to_str().unwrap(),
        out.to_str().unwrap(),
        "--color",
        "never",
    ]);
    assert_eq!(diff.status.code(), Some(1));
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(
        text.contains("- (") && text.contains("pd_op.batch_norm"),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "no colour when told");
    let stat = pir(&[
        "diff",
        json.to_str().unwrap(),
        out.to_str().unwrap(),
        "--stat",
    ]);
    assert_eq!(stat.status.code(), Some(1));
    let stat = String::from_utf8_lossy(&stat.stdout);
    assert!(
        stat.contains("removed") && stat.contains("parameters differ"),
        "{stat}"
    );
}

/// `pir graph`: DOT with nested regions as clusters, and a laid-out SVG and
/// HTML page.
#[test]
fn graph_writes_dot_svg_and_html() {
    let model = corpus_model("cond_if");
    let json = model.json();
    let dot = pir(&["graph", json.to_str().unwrap()]);
    assert!(dot.status.success());
    let dot = String::from_utf8_lossy(&dot.stdout);
    assert!(
        dot.starts_with("digraph") && dot.contains("subgraph cluster_"),
        "{dot}"
    );
    assert!(
        dot.contains("linear_0.w_0: 4x4xf32"),
        "parameters fold into their users"
    );
    let dir = tempfile::tempdir().unwrap();
    for (ext, marker) in [("svg", "<svg"), ("html", "<!DOCTYPE html>")] {
        let out = dir.path().join(format!("g.{ext}"));
        let res = pir(&["graph", json.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert!(
            res.status.success(),
            "{}",
            String::from_utf8_lossy(&res.stderr)
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.contains(marker) && text.contains("pd_op.if true"),
            "{ext}"
        );
        // Colours every SVG 1.1 renderer knows (eight-digit colours paint
        // region boxes black in cairosvg and librsvg).
        assert!(!text.contains("#00000000"), "{ext}");
    }
    let bad = dir.path().join("g.png");
    let res = pir(&["graph", json.to_str().unwrap(), "-o", bad.to_str().unwrap()]);
    assert_eq!(res.status.code(), Some(2));
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
    let res = pir(&["opt", model.json().to_str().unwrap(), "-p", "inference"]);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    let text = String::from_utf8_lossy(&res.stdout);
    assert_eq!(text.matches("pd_op.fc").count(), 2, "{text}");
    assert!(!text.contains("pd_op.matmul"), "{text}");
}
