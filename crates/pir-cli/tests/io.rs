//! Where `pir` reads and writes: standard input and output (`-`), pipes,
//! output folders made as needed, extensions in any case, and pairs of
//! files (a program and its parameters) that are written whole or not at
//! all.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;
use common::{corpus_model, opt_to, path_str, pir, pir_ok, pir_with_stdin, stderr};

use std::path::Path;

/// `mlp_tiny.json` and its parameters copied into `dir` as `m.json` and
/// `m.pdiparams`.
fn mlp_in(dir: &Path) -> std::path::PathBuf {
    let model = corpus_model("mlp_tiny");
    let json = dir.join("m.json");
    std::fs::copy(model.json(), &json).unwrap();
    std::fs::copy(model.file(".pdiparams").unwrap(), dir.join("m.pdiparams")).unwrap();
    json
}

#[test]
fn a_model_is_read_from_standard_input_and_pipes() {
    let model = corpus_model("cond_if");
    let json = std::fs::read(model.json()).unwrap();
    let expected = std::fs::read(model.txt().unwrap()).unwrap();
    let out = pir_with_stdin(&["print", "-"], &json);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout == expected, "stdin: not Paddle's print");
    // `/dev/stdin` is a pipe here: read once, its kind told from the bytes.
    let out = pir_with_stdin(&["print", "/dev/stdin"], &json);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout == expected, "/dev/stdin: not Paddle's print");
    // Text and legacy programs too, told by content.
    let text = std::fs::read(model.txt().unwrap()).unwrap();
    let out = pir_with_stdin(&["verify", "-"], &text);
    assert!(out.status.success(), "{}", stderr(&out));
    // Something else says what it is, after reading only its start.
    let params = std::fs::read(corpus_model("mlp_tiny").file(".pdiparams").unwrap()).unwrap();
    let out = pir_with_stdin(&["print", "-"], &params);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("<stdin> is a parameter file (.pdiparams), not a model"),
        "{}",
        stderr(&out)
    );
    let out = pir_with_stdin(&["print", "-"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("empty"), "{}", stderr(&out));
}

#[test]
fn diff_reads_one_model_from_standard_input() {
    let model = corpus_model("mlp_tiny");
    let json = std::fs::read(model.json()).unwrap();
    let out = pir_with_stdin(&["diff", path_str(&model.json()), "-"], &json);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no differences"));
    let out = pir(&["diff", "-", "-"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_model_is_written_to_standard_output() {
    let model = corpus_model("fn_no_params");
    let out = pir_ok(&["convert", path_str(&model.json()), "-"]);
    assert!(out.stdout == std::fs::read(model.json()).unwrap());
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    // A model with parameters: the program goes out, a note says the
    // parameters do not.
    let dir = tempfile::tempdir().unwrap();
    let json = mlp_in(dir.path());
    let out = pir_ok(&["opt", path_str(&json), "-p", "dce", "-o", "-"]);
    assert!(out.stdout.starts_with(b"{\"base_code\""));
    assert!(stderr(&out).contains("parameters are not written"));
}

#[test]
fn outputs_make_their_folders_and_take_extensions_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let json = mlp_in(dir.path());
    let out_json = dir.path().join("r18opt/deep/model.JSON");
    pir_ok(&[
        "opt",
        path_str(&json),
        "-p",
        "dce",
        "-o",
        path_str(&out_json),
    ]);
    assert!(out_json.exists());
    assert!(dir.path().join("r18opt/deep/model.pdiparams").exists());
    let txt = dir.path().join("text/m.TXT");
    pir_ok(&["convert", path_str(&json), path_str(&txt)]);
    let printed = std::fs::read(&txt).unwrap();
    assert!(
        printed.starts_with(b"{\n"),
        "a .TXT output is Paddle's print"
    );
    let graph = dir.path().join("g/m.SVG");
    pir_ok(&["graph", path_str(&json), "-o", path_str(&graph)]);
    assert!(std::fs::read_to_string(&graph).unwrap().contains("<svg"));
}

#[test]
fn convert_writes_the_parameters_beside_its_output() {
    let dir = tempfile::tempdir().unwrap();
    let json = mlp_in(dir.path());
    pir_ok(&[
        "convert",
        path_str(&json),
        path_str(&dir.path().join("c/y.json")),
    ]);
    assert_eq!(
        std::fs::read(dir.path().join("c/y.pdiparams")).unwrap(),
        std::fs::read(dir.path().join("m.pdiparams")).unwrap()
    );
    // Without a parameter file beside the input, a note says so.
    std::fs::remove_file(dir.path().join("m.pdiparams")).unwrap();
    let out = pir_ok(&[
        "convert",
        path_str(&json),
        path_str(&dir.path().join("z.json")),
    ]);
    assert!(
        stderr(&out).contains("no parameter file beside it"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("z.pdiparams").exists());
}

#[test]
fn two_outputs_of_one_model_share_its_parameter_file() {
    let dir = tempfile::tempdir().unwrap();
    let json = mlp_in(dir.path());
    for out in ["r.txt", "r.pir", "r.json"] {
        let res = opt_to(&json, "dce", &dir.path().join(out));
        assert!(res.status.success(), "{out}: {}", stderr(&res));
    }
    // Other parameters under that name are not overwritten unasked.
    pir_ok(&[
        "opt",
        path_str(&json),
        "-p",
        "constant_folding,dce",
        "-o",
        path_str(&dir.path().join("r2.json")),
    ]);
    std::fs::write(dir.path().join("other.pdiparams"), b"OTHER").unwrap();
    let res = opt_to(&json, "dce", &dir.path().join("other.json"));
    assert_eq!(res.status.code(), Some(1));
    assert!(
        stderr(&res).contains("other.pdiparams already exists"),
        "{}",
        stderr(&res)
    );
    assert!(!dir.path().join("other.json").exists());
    assert_eq!(
        std::fs::read(dir.path().join("other.pdiparams")).unwrap(),
        b"OTHER"
    );
}

#[test]
fn a_failed_write_leaves_the_old_files_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let json = mlp_in(dir.path());
    std::fs::create_dir(dir.path().join("b.json")).unwrap();
    std::fs::write(dir.path().join("b.pdiparams"), b"OLD").unwrap();
    let res = pir(&[
        "opt",
        path_str(&json),
        "-p",
        "dce",
        "-o",
        path_str(&dir.path().join("b.json")),
        "--force",
    ]);
    assert_eq!(res.status.code(), Some(1));
    assert!(stderr(&res).contains("b.json"), "{}", stderr(&res));
    assert_eq!(
        std::fs::read(dir.path().join("b.pdiparams")).unwrap(),
        b"OLD"
    );
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["b.json", "b.pdiparams", "m.json", "m.pdiparams"]);
}

#[test]
fn opt_refuses_a_model_without_its_parameter_file() {
    let dir = tempfile::tempdir().unwrap();
    let json = mlp_in(dir.path());
    std::fs::remove_file(dir.path().join("m.pdiparams")).unwrap();
    let out_json = dir.path().join("o.json");
    let res = opt_to(&json, "inference", &out_json);
    assert_eq!(res.status.code(), Some(1));
    let err = stderr(&res);
    assert!(
        err.contains("m.pdiparams") && err.contains("--no-params"),
        "{err}"
    );
    assert!(!out_json.exists());
    pir_ok(&[
        "opt",
        path_str(&json),
        "-p",
        "inference",
        "--no-params",
        "-o",
        path_str(&out_json),
    ]);
    assert!(out_json.exists() && !dir.path().join("o.pdiparams").exists());
    // A model without parameters needs no file.
    let none = corpus_model("fn_no_params");
    pir_ok(&["opt", path_str(&none.json()), "-p", "dce"]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stderr_is_an_error_not_a_panic() {
    let model = corpus_model("mlp_tiny");
    let dir = tempfile::tempdir().unwrap();
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pir"))
        .args([
            "upgrade",
            path_str(&model.json()),
            path_str(&dir.path().join("u.json")),
        ])
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "not a panic (101)");
}

/// A closed pipe on standard output ends the command quietly (exit 0), as
/// a `BrokenPipe` error, not by SIGPIPE.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    // Far more text than a pipe holds.
    let model = dir.path().join("big.json");
    pir_ok(&["synth", "3000", path_str(&model)]);
    let status = dir.path().join("status");
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            r#"{ "$0" print "$1"; echo $? >"$2"; } | head -c 10 >/dev/null"#,
        ])
        .args([
            env!("CARGO_BIN_EXE_pir"),
            path_str(&model),
            path_str(&status),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&status).unwrap().trim(),
        "0",
        "{}",
        stderr(&out)
    );
}
