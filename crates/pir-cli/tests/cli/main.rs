//! The `pir` binary end to end: output on stdout, errors on stderr, exit codes.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design
#[path = "../common/mod.rs"]
mod common;
mod opt;

use common::{corpus_model, opt_to, pir, pir_ok, succeeded};

#[test]
fn print_writes_exactly_paddles_text() {
    let model = corpus_model("cond_if");
    let out = pir_ok(&["print", model.json().to_str().unwrap()]);
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
        let out = succeeded(pir(args));
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
    pir_ok(&["verify", model.json().to_str().unwrap()]);
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
    let out = succeeded(pir(&args));
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
    let out = pir_ok(&[
        "params",
        params.to_str().unwrap(),
        "--program",
        model.json().to_str().unwrap(),
        "--json",
    ]);
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
    let out = pir_ok(&["time", json.to_str().unwrap(), "--repeat", "2", "--params"]);
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
        "fresh_print_ms",
        "fresh_save_ms",
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
fn text_models_print_convert_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let model = corpus_model("while_loop");
    let json = model.json();
    let txt = model.txt().unwrap();
    // Paddle's print reads back and prints the same text.
    let out = pir_ok(&["print", txt.to_str().unwrap()]);
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
    let out = pir_ok(&["print", odd.to_str().unwrap()]);
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
        pir_ok(&["verify", path.to_str().unwrap()]);
        let strict = pir(&["verify", "--strict", path.to_str().unwrap()]);
        assert_eq!(strict.status.code(), Some(1));
        let err = String::from_utf8_lossy(&strict.stderr);
        assert!(err.contains("unknown op `pd_op.reluu`"), "{err}");
    }
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
    succeeded(opt_to(&json, "fold_batch_norm,canonicalize,cse,dce", &out));
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
        pir_ok(&["graph", json.to_str().unwrap(), "-o", out.to_str().unwrap()]);
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
