//! `Model::save_as` to a `.pdmodel`: Paddle 2.x's program and its
//! parameters are put in place together, or neither is.

use std::path::PathBuf;

fn corpus(name: &str) -> PathBuf {
    pir_corpus::repo_root().join("tests/corpus").join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pir-save-pdmodel-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_model_is_written_as_pdmodel_with_its_parameters_and_reads_back() {
    let model = pir::Model::load(corpus("lenet.json")).expect("lenet loads");
    let dir = scratch("lenet");
    let out = dir.join("m.pdmodel");
    model.save_as(&out, false).expect("written");
    assert!(dir.join("m.pdiparams").exists());
    let back = pir::Model::load(&out).expect("the written pair loads");
    assert_eq!(back.parameter_names(), model.parameter_names());
    for name in model.parameter_names() {
        let (a, b) = (model.tensor(&name), back.tensor(&name));
        assert_eq!(
            a.map(|t| t.bytes().to_vec()),
            b.map(|t| t.bytes().to_vec()),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_program_with_no_legacy_form_writes_neither_file() {
    let model = pir::Model::load(corpus("train_mlp_adam.json")).expect("loads");
    let dir = scratch("adam");
    let out = dir.join("m.pdmodel");
    match model.save_as(&out, false) {
        Err(e @ pir::Error::LegacyWrite { .. }) => {
            assert!(e.to_string().contains("_grad"), "{e}");
        }
        other => panic!("expected a refusal naming the ops, got {other:?}"),
    }
    assert!(!out.exists());
    assert!(!dir.join("m.pdiparams").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
