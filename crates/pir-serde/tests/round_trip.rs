//! Writing what was read gives back the bytes Paddle wrote.
//!
//! - Every current-version corpus file: read → write is byte-identical (the
//!   indented `readable` file with the pretty writer).
//! - A synthetic 20k-op program in Paddle's format: same.
//! - A write → read → write cycle is a fixed point.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

fn round_trip(bytes: &[u8], readable: bool) -> Vec<u8> {
    let ctx = pir_dialects::pd_op_context();
    let loaded = pir_serde::read_slice(ctx, bytes, &Default::default()).unwrap();
    let options = pir_serde::WriteOptions {
        trainable: loaded.trainable,
        readable,
        ..Default::default()
    };
    pir_serde::write_to_vec(&loaded.program, &options).unwrap()
}

#[test]
fn every_current_corpus_file_is_rewritten_byte_for_byte() {
    let mut checked = 0;
    for model in pir_corpus::models() {
        let path = model.json();
        let original = std::fs::read(&path).unwrap();
        let readable = original.starts_with(b"{\n");
        let written = round_trip(&original, readable);
        assert!(
            written == original,
            "{}: rewritten file differs",
            model.name
        );
        checked += 1;
    }
    assert!(checked >= 5, "the corpus has at least the shipped models");
}

#[test]
fn a_synthetic_20k_op_program_is_rewritten_byte_for_byte() {
    let text = pir_corpus::synthetic_mlp_json(2_500);
    let written = round_trip(text.as_bytes(), false);
    assert!(
        written == text.as_bytes(),
        "synthetic program differs after a round trip"
    );
    let ctx = pir_dialects::pd_op_context();
    let loaded = pir_serde::read_slice(ctx, text.as_bytes(), &Default::default()).unwrap();
    assert_eq!(loaded.program.num_ops(), 20_002);
    loaded.program.verify().unwrap();
}

#[test]
fn inference_writes_drop_output_attributes_and_read_back() {
    let model = pir_corpus::models()
        .into_iter()
        .find(|m| m.name == "mlp_tiny")
        .unwrap();
    let ctx = pir_dialects::pd_op_context();
    let loaded = pir_serde::read_file(ctx.clone(), &model.json(), &Default::default()).unwrap();
    let options = pir_serde::WriteOptions {
        trainable: false,
        ..Default::default()
    };
    let bytes = pir_serde::write_to_vec(&loaded.program, &options).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains(r#""trainable":false"#));
    assert!(
        !text.contains(r#""OA""#),
        "no output attributes in an inference file"
    );
    let again = pir_serde::read_slice(ctx, &bytes, &Default::default()).unwrap();
    assert!(!again.trainable);
    assert_eq!(
        pir_serde::write_to_vec(&again.program, &options).unwrap(),
        bytes,
        "fixed point"
    );
}

#[test]
fn writing_refuses_to_overwrite_unless_forced() {
    let model = pir_corpus::models()
        .into_iter()
        .find(|m| m.name == "mlp_tiny")
        .unwrap();
    let ctx = pir_dialects::pd_op_context();
    let loaded = pir_serde::read_file(ctx, &model.json(), &Default::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let options = pir_serde::WriteOptions::default();
    pir_serde::write_file(&loaded.program, &out, &options, false).unwrap();
    let err = pir_serde::write_file(&loaded.program, &out, &options, false).unwrap_err();
    assert!(err.to_string().contains("already exists"), "{err}");
    pir_serde::write_file(&loaded.program, &out, &options, true).unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(model.json()).unwrap()
    );
}

#[test]
fn a_program_built_in_rust_saves_exactly_as_paddle_writes_its_shape() {
    // The same 20k-op model built through the API and spelled out as Paddle's
    // text independently: the writer must produce the spelled-out bytes.
    let program = pir_dialects::synthetic::mlp(pir_dialects::pd_op_context(), 2_500);
    program.verify().unwrap();
    let written = pir_serde::write_to_vec(&program, &Default::default()).unwrap();
    assert!(
        written == pir_corpus::synthetic_mlp_json(2_500).as_bytes(),
        "writer output differs"
    );
}
