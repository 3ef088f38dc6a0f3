//! `pir verify --infer`: re-inferred result types against stored ones.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use common::{corpus_model, pir, stderr};

#[test]
fn a_corpus_model_passes() {
    let m = corpus_model("fn_no_params");
    let path = m.json();
    let out = pir(&["verify", "--infer", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(text.contains("ops inferred"), "{text}");
    assert!(text.contains(" 0 differ"), "{text}");
}

#[test]
fn an_edited_type_is_reported_with_file_op_and_both_types() {
    let m = corpus_model("fn_no_params");
    let json = std::fs::read_to_string(m.json()).unwrap();
    // The matmul of `fn_no_params` gives `[-1, -1]` (`-1x3` times `-1x3`
    // transposed); store `[-1, 7]` instead.
    let edited = edit_first_matmul_dims(&json);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.json");
    std::fs::write(&path, edited).unwrap();
    let out = pir(&["verify", "--infer", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("edited.json"), "{err}");
    assert!(err.contains("`pd_op.matmul`"), "{err}");
    assert!(err.contains("stored [tensor<-1x7xf32>]"), "{err}");
    assert!(err.contains("inferred [tensor<-1x-1xf32>]"), "{err}");
}

/// The JSON with the result dims of the first `matmul` set to `[-1,7]`.
fn edit_first_matmul_dims(json: &str) -> String {
    let at = json.find("\"1.matmul\"").expect("a matmul");
    let rest = &json[at..];
    let out = rest.find("\"O\"").expect("its results") + at;
    let dims = json[out..].find("[-1,-1]").expect("its dims") + out;
    format!("{}[-1,7]{}", &json[..dims], &json[dims + "[-1,-1]".len()..])
}
