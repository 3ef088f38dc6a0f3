//! Models — program plus parameters — load, bind and save as Paddle wrote them.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

use std::path::{Path, PathBuf};

fn prefix(json: &Path) -> PathBuf {
    json.with_extension("")
}

#[test]
fn every_corpus_model_with_parameters_loads_binds_and_saves_byte_for_byte() {
    let mut checked = 0;
    for model in pir_corpus::models() {
        let Some(params) = model.file(".pdiparams") else {
            continue;
        };
        let loaded = pir::Model::load(prefix(&model.json()))
            .unwrap_or_else(|e| panic!("{}: {e}", model.name));
        let names = loaded.parameter_names();
        assert!(!names.is_empty(), "{}", model.name);
        for name in &names {
            let tensor = loaded
                .tensor(name)
                .unwrap_or_else(|| panic!("{}: `{name}` has no data", model.name));
            assert!(tensor.is_mapped(), "tensors view the file's bytes");
            let pir_params::TensorData::Mapped(bytes) = tensor.data() else {
                panic!("{}: `{name}` was copied", model.name);
            };
            let file_len = std::fs::metadata(&params).unwrap().len();
            assert_eq!(
                bytes.map().is_memory_mapped(),
                file_len >= pir_params::READ_BELOW_BYTES,
                "{}: a file of {file_len} bytes",
                model.name
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("model");
        loaded.save(&out, false).unwrap();
        assert!(
            std::fs::read(out.with_extension("json")).unwrap()
                == std::fs::read(model.json()).unwrap(),
            "{}",
            model.name
        );
        assert!(
            std::fs::read(out.with_extension("pdiparams")).unwrap()
                == std::fs::read(&params).unwrap(),
            "{}",
            model.name
        );
        checked += 1;
    }
    assert!(
        checked >= 2,
        "the shipped corpus has models with parameters"
    );
}

#[test]
fn a_parameter_file_that_does_not_fit_the_program_is_an_error() {
    let models = pir_corpus::models();
    let a = models.iter().find(|m| m.name == "mlp_tiny").unwrap();
    let b = models.iter().find(|m| m.name == "while_loop").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("mixed");
    std::fs::copy(a.json(), prefix.with_extension("json")).unwrap();
    std::fs::copy(
        b.file(".pdiparams").unwrap(),
        prefix.with_extension("pdiparams"),
    )
    .unwrap();
    let err = pir::Model::load(&prefix).unwrap_err().to_string();
    assert!(
        err.contains("mixed.pdiparams") || err.contains("parameter `"),
        "{err}"
    );
}

/// A `paddle.static.save` pair: parameters in the `.pdparams`, optimizer
/// state (learning rate, moments) in the `.pdopt`; both bind.
#[test]
fn a_static_save_pair_binds_parameters_and_optimizer_state() {
    let Some(model) = pir_corpus::models()
        .into_iter()
        .find(|m| m.name == "train_mlp_adam")
    else {
        panic!("the shipped corpus has train_mlp_adam");
    };
    let loaded = pir::Model::load(prefix(&model.json())).unwrap();
    let names = loaded.parameter_names();
    assert!(names.iter().any(|n| n.starts_with("learning_rate")));
    let state = pir::params::pickle::load_state_dict_file(&model.file(".pdopt").unwrap()).unwrap();
    for name in &names {
        let tensor = loaded.tensor(name).unwrap();
        if let Some(t) = state.get(name) {
            assert_eq!(t.bytes(), tensor.bytes(), "{name}");
        }
    }
}

/// `Model::load` takes the model file or its prefix; the facade runs passes.
#[test]
fn a_model_loads_by_file_or_prefix_and_runs_passes() {
    let model = pir_corpus::models()
        .into_iter()
        .find(|m| m.name == "mlp_tiny")
        .unwrap();
    let by_file = pir::Model::load(model.json()).unwrap();
    let by_prefix = pir::Model::load(prefix(&model.json())).unwrap();
    assert_eq!(by_file.parameter_names().len(), 4);
    assert_eq!(by_file.program.to_string(), by_prefix.program.to_string());
    let mut m = by_file;
    let mut pm = pir::pass::PassManager::parse("canonicalize,cse,dce").unwrap();
    pm.run(&mut m.program).unwrap();
    m.program.verify().unwrap();
    // A parameter file is not a model, and says so.
    let err = pir::Model::load(model.file(".pdiparams").unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("is a parameter file (.pdiparams), not a model"),
        "{err}"
    );
}

#[test]
fn a_small_model_is_read_whole_and_an_empty_file_is_named_empty() {
    let ctx = pir_dialects::pd_op_context();
    let models = pir_corpus::models();
    let m = models.iter().find(|m| m.name == "mlp_tiny").unwrap();
    let json = std::fs::read(m.json()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.json");
    std::fs::write(&path, &json).unwrap();
    let read = pir::read_program(ctx.clone(), &path, &Default::default()).unwrap();
    let written = pir_serde::write_to_vec(&read.program, &Default::default()).unwrap();
    assert!(written == json);
    // A file of size 0 is read as a stream (a kernel's file of size 0 may
    // have bytes); an empty one is still told as empty.
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, b"").unwrap();
    let err = pir::read_program(ctx, &empty, &Default::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("is an empty file, not a model"), "{err}");
}

#[test]
fn a_large_model_is_read_from_a_memory_map_as_from_its_bytes() {
    // About 5.4 MB: past the size from which JSON models are mapped, and
    // past a step of the pages the reader releases behind itself.
    let ctx = pir_dialects::pd_op_context();
    let program = pir_dialects::synthetic::mlp(ctx.clone(), 2500);
    let json = pir_serde::write_to_vec(&program, &Default::default()).unwrap();
    assert!(json.len() > 5 << 20);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("large.json");
    std::fs::write(&path, &json).unwrap();
    let mapped = pir::read_program(ctx.clone(), &path, &Default::default()).unwrap();
    let from_bytes = pir_serde::read_slice(ctx, &json, &Default::default()).unwrap();
    let write = |p: &pir_core::Program| pir_serde::write_to_vec(p, &Default::default()).unwrap();
    assert!(write(&mapped.program) == json);
    assert!(write(&from_bytes.program) == json);
}

/// The corpus's `mlp_tiny`, with its parameters.
fn mlp_tiny() -> pir::Model {
    let models = pir_corpus::models();
    let m = models.iter().find(|m| m.name == "mlp_tiny").unwrap();
    pir::Model::load(prefix(&m.json())).unwrap()
}

#[test]
fn a_model_whose_parameters_cannot_be_written_leaves_both_files_as_they_were() {
    let loaded = mlp_tiny();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("model.json");
    std::fs::write(&out, b"old program").unwrap();
    // A directory where the parameter file would go: it cannot be replaced.
    std::fs::create_dir(out.with_extension("pdiparams")).unwrap();
    let err = loaded.save_as(&out, true).unwrap_err();
    assert!(matches!(err, pir::Error::Params { .. }), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"old program");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 2, "no temporary file is left behind");
}

#[test]
fn save_as_writes_text_programs_with_their_parameters_beside() {
    let loaded = mlp_tiny();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("model.pir");
    loaded.save_as(&out, false).unwrap();
    let again = pir::Model::load(&out).unwrap();
    assert_eq!(again.parameter_names(), loaded.parameter_names());
    assert!(
        loaded.save_as(&out, false).is_err(),
        "no overwrite unless asked"
    );
}

#[test]
fn persistable_vars_are_in_python_order_with_the_first_op_of_each_name() {
    let text = r#"{
    (%0) = "builtin.parameter" () {parameter_name:"b",persistable:[true],stop_gradient:[false]} : () -> tensor<2xf32>
    (%1) = "builtin.parameter" () {parameter_name:"a",stop_gradient:[false]} : () -> tensor<3xf32>
    (%2) = "builtin.parameter" () {parameter_name:"b",persistable:[true],stop_gradient:[false]} : () -> tensor<4xf32>
    (%3) = "builtin.parameter" () {parameter_name:"dropout_state",persistable:[false],stop_gradient:[true]} : () -> tensor<5xf32>
    (%4) = "pd_op.data" () {dtype:float32,name:"Z",persistable:[true],place:Place(undefined:0),shape:[6],stop_gradient:[true]} : () -> tensor<6xf32>
    (%5) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[7],stop_gradient:[true]} : () -> tensor<7xf32>
    (%6) = "builtin.parameter" () {parameter_name:"_c",persistable:[true],stop_gradient:[false]} : () -> tensor<8xf32>
}
"#;
    let ctx = pir_dialects::pd_op_context();
    let program = pir_core::Program::parse(&ctx, text).unwrap();
    let vars: Vec<(String, String)> = pir::persistable_vars(&program)
        .into_iter()
        .map(|(name, ty)| (name, ctx.display_type(ty)))
        .collect();
    let expected = [("Z", 6), ("_c", 8), ("a", 3), ("b", 2)];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(name, n)| (name.to_string(), format!("tensor<{n}xf32>")))
        .collect();
    assert_eq!(vars, expected);
}
