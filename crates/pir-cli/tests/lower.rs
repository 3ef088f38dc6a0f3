//! `pir lower`: Paddle's `IR after lowering` on stdout, the typed text with
//! `--typed`, text files with `-o`, and no JSON (a kernel program is a view).
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use common::{corpus_model, pir, pir_ok, stderr};

#[test]
fn the_print_is_paddles_executor_print() {
    let m = corpus_model("while_loop");
    let json = m.json();
    let expected = std::fs::read_to_string(json.with_file_name("while_loop.lowered.txt")).unwrap();
    let out = pir_ok(&["lower", json.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}

#[test]
fn json_output_is_refused_and_nothing_is_written() {
    let m = corpus_model("fn_no_params");
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("lowered.json");
    let out = pir(&[
        "lower",
        m.json().to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot be saved as JSON"),
        "{}",
        stderr(&out)
    );
    assert!(!out_path.exists());
}

#[test]
fn a_pir_file_gets_the_typed_text_as_does_typed() {
    let m = corpus_model("cond_if");
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("lowered.pir");
    pir_ok(&[
        "lower",
        m.json().to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    let typed = std::fs::read_to_string(&out_path).unwrap();
    assert!(typed.starts_with("#pir-typed"), "{typed}");
    assert!(typed.contains("\"pd_kernel.phi_kernel\""), "{typed}");
    let stdout = pir(&["lower", "--typed", m.json().to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&stdout.stdout), typed);
}
