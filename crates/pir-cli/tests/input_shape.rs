//! `pir opt --input-shape NAME=DIMS`: fixed input dims followed through the
//! program; contradictions and unknown inputs are errors naming them.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use common::{corpus_model, pir, pir_ok, stderr};

#[test]
fn fixed_batch_reaches_the_output() {
    let m = corpus_model("lenet");
    let path = m.json();
    let out = pir(&[
        "opt",
        path.to_str().unwrap(),
        "--input-shape",
        "image=4,1,28,28",
        "--statistics",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.contains("shape:[4,1,28,28]"),
        "the data op's shape attribute follows"
    );
    assert!(text.contains("-> tensor<4x1x28x28xf32>"), "{text}");
    assert!(
        text.contains("-> tensor<4x10xf32>"),
        "the last layer's result is fixed too"
    );
    assert!(
        !text.contains("tensor<-1x"),
        "no dynamic dim is left:\n{text}"
    );
    assert!(stderr(&out).contains("ops re-inferred"), "{}", stderr(&out));
}

#[test]
fn shapes_then_pipeline_in_one_run() {
    let m = corpus_model("lenet");
    let path = m.json();
    let dir = tempfile::tempdir().unwrap();
    let dst = dir.path().join("fixed.json");
    pir_ok(&[
        "opt",
        path.to_str().unwrap(),
        "--input-shape",
        "image=1x1x28x28",
        "-p",
        "inference",
        "-o",
        dst.to_str().unwrap(),
    ]);
    let printed = pir(&["print", dst.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&printed.stdout);
    assert!(text.contains("tensor<1x10xf32>"), "{text}");
    assert!(dir.path().join("fixed.pdiparams").exists());
}

#[test]
fn contradictions_and_unknown_inputs_are_errors() {
    let m = corpus_model("lenet");
    let path = m.json();
    let path = path.to_str().unwrap();
    let out = pir(&["opt", path, "--input-shape", "imgae=1,1,28,28"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("did you mean `image`"),
        "{}",
        stderr(&out)
    );
    let out = pir(&["opt", path, "--input-shape", "image=1,28,28"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("rank 4"), "{}", stderr(&out));
    // 40x40 images reach the first linear layer with 1,024 features for 400.
    let out = pir(&["opt", path, "--input-shape", "image=1,1,40,40"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("pd_op.matmul"), "{}", stderr(&out));
    // A malformed option is a usage error.
    let out = pir(&["opt", path, "--input-shape", "image=1,a"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
