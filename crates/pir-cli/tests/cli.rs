//! The `pir` binary end to end: output on stdout, errors on stderr, exit codes.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

use std::process::Command;

fn pir(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pir"))
        .args(args)
        .output()
        .expect("the pir binary runs")
}

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
    let model = pir_corpus::models()
        .into_iter()
        .find(|m| m.name == "mlp_tiny")
        .unwrap();
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
fn usage_errors_exit_1() {
    assert_eq!(pir(&[]).status.code(), Some(1));
    assert_eq!(pir(&["frobnicate"]).status.code(), Some(1));
    assert_eq!(pir(&["print"]).status.code(), Some(1));
    assert!(pir(&["help"]).status.success());
}

#[test]
fn verify_accepts_a_corpus_model() {
    let model = pir_corpus::models()
        .into_iter()
        .find(|m| m.name == "while_loop")
        .unwrap();
    let out = pir(&["verify", model.json().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
