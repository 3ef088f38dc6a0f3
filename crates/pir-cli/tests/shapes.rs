//! `pir shapes`: Paddle's annotated print of a corpus model, to standard
//! output and to a file, and the refusal of output kinds it cannot write.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;
use common::{corpus_model, pir, pir_ok, stderr};

#[test]
fn shapes_prints_paddles_annotated_program() {
    let model = corpus_model("cond_if");
    let expected = std::fs::read(model.json().with_extension("symshape.txt")).unwrap();
    let json = model.json();
    let out = pir_ok(&["shapes", json.to_str().unwrap()]);
    assert!(out.stdout == expected, "not Paddle's annotated print");

    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("out.txt");
    pir_ok(&[
        "shapes",
        json.to_str().unwrap(),
        "-o",
        txt.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&txt).unwrap(), expected);

    let bad = dir.path().join("out.json");
    let out = pir(&[
        "shapes",
        json.to_str().unwrap(),
        "-o",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!bad.exists());
}
