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
    let model = pir_corpus::model("mlp_tiny").unwrap();
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
    let model = pir_corpus::model("mlp_tiny").unwrap();
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

/// A sink that records how many writes it got.
#[derive(Default)]
struct Sink {
    bytes: Vec<u8>,
    writes: usize,
}

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writes += 1;
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Streamed output (JSON compact and indented, Paddle's print, the typed
/// text) equals the output built whole; the number of writes the sink got
/// for each, in that order.
fn streamed_equals_whole(bytes: &[u8]) -> [usize; 4] {
    let ctx = pir_dialects::pd_op_context();
    let loaded = pir_serde::read_slice(ctx, bytes, &Default::default()).unwrap();
    let p = &loaded.program;
    let mut writes = [0; 4];
    for (i, readable) in [false, true].into_iter().enumerate() {
        let options = pir_serde::WriteOptions {
            trainable: loaded.trainable,
            readable,
            ..Default::default()
        };
        let mut sink = Sink::default();
        pir_serde::write_to(p, &options, &mut sink).unwrap();
        assert!(sink.bytes == pir_serde::write_to_vec(p, &options).unwrap());
        writes[i] = sink.writes;
    }
    let mut sink = Sink::default();
    p.print(&mut sink).unwrap();
    assert!(sink.bytes == p.print_to_vec(), "streamed print differs");
    writes[2] = sink.writes;
    let options = pir_serde::typed_options(&loaded);
    let mut sink = Sink::default();
    pir_serde::write_typed(p, &options, false, &mut sink).unwrap();
    assert!(sink.bytes == pir_serde::typed_bytes(p, &options, false));
    writes[3] = sink.writes;
    writes
}

#[test]
fn streamed_output_equals_the_whole_output() {
    for model in pir_corpus::models() {
        streamed_equals_whole(&std::fs::read(model.json()).unwrap());
    }
    // 5 MB of JSON, 4 MB of text: each form goes out in several parts.
    let text = pir_corpus::synthetic_mlp_json(2_500);
    let writes = streamed_equals_whole(text.as_bytes());
    assert!(writes.iter().all(|&n| n > 2), "{writes:?}");
}

#[test]
fn a_program_that_cannot_be_written_leaves_no_file() {
    // The 20k-op program (several parts written) then a parameter op without
    // its name, which the format cannot express.
    let ctx = pir_dialects::pd_op_context();
    let mut program = pir_dialects::synthetic::mlp(ctx.clone(), 2_500);
    let top = program.top_block();
    let ty = program.value_type(program.result(program.block_ops(top).next().unwrap(), 0));
    pir_core::Builder::at_end(&mut program, top).op("builtin.parameter", &[], &[ty], &[]);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let err = pir_serde::write_file(&program, &out, &Default::default(), false).unwrap_err();
    assert!(
        matches!(err, pir_serde::WriteError::Unsupported { .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("parameter_name"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// The forms a program is written in: compact and indented, with and
/// without output attributes, for an older release.
const FORMS: [(bool, bool, u64); 4] = [
    (true, false, pir_serde::PIR_VERSION),
    (false, false, pir_serde::PIR_VERSION),
    (true, true, pir_serde::PIR_VERSION),
    (true, false, 1),
];

/// A write's output in form `(trainable, readable, version)`, whole and
/// streamed (which must agree); an error as its message.
fn written_form(
    program: &pir_core::Program,
    (trainable, readable, version): (bool, bool, u64),
) -> Result<Vec<u8>, String> {
    let options = pir_serde::WriteOptions {
        trainable,
        readable,
        version,
    };
    let whole = pir_serde::write_to_vec(program, &options).map_err(|e| e.to_string());
    let mut sink = Sink::default();
    let streamed = pir_serde::write_to(program, &options, &mut sink)
        .map(|()| sink.bytes)
        .map_err(|e| e.to_string());
    assert!(whole == streamed, "streamed output differs");
    whole
}

#[test]
fn writes_in_a_shared_context_equal_those_of_a_fresh_one() {
    // Writes keep the texts of types, attributes and op names in their
    // context for later ones: every corpus program read into one context
    // and written there again and again, in every form and interleaved
    // with the others, gives what a context of its own gives each form.
    let shared = pir_dialects::pd_op_context();
    let mut cases = Vec::new();
    for model in pir_corpus::models() {
        let bytes = std::fs::read(model.json()).unwrap();
        let read = |ctx| pir_serde::read_slice(ctx, &bytes, &Default::default()).unwrap();
        let expected: Vec<_> = FORMS
            .iter()
            .map(|&form| written_form(&read(pir_dialects::pd_op_context()).program, form))
            .collect();
        cases.push((model.name, expected, read(shared.clone())));
    }
    assert!(
        cases.len() >= 5,
        "the corpus has at least the shipped models"
    );
    for round in 0..3 {
        for (name, expected, loaded) in &cases {
            for (&form, expected) in FORMS.iter().zip(expected) {
                assert!(
                    written_form(&loaded.program, form) == *expected,
                    "{name}: write {round} of {form:?} in a shared context differs"
                );
            }
        }
    }
}

#[test]
fn prints_in_a_shared_context_equal_those_of_a_fresh_one() {
    // Prints keep texts, dictionaries and whole op signatures in their
    // context for later ones: every corpus program read into one context
    // and printed there again and again, interleaved with the others and
    // both whole and streamed, gives what a context of its own prints.
    let shared = pir_dialects::pd_op_context();
    let mut cases = Vec::new();
    for model in pir_corpus::models() {
        let bytes = std::fs::read(model.json()).unwrap();
        let read = |ctx| pir_serde::read_slice(ctx, &bytes, &Default::default()).unwrap();
        let expected = read(pir_dialects::pd_op_context()).program.to_string();
        cases.push((model.name, expected, read(shared.clone())));
    }
    assert!(
        cases.len() >= 5,
        "the corpus has at least the shipped models"
    );
    for round in 0..4 {
        for (name, expected, loaded) in &cases {
            let printed = if round % 2 == 0 {
                loaded.program.to_string()
            } else {
                let mut streamed = Vec::new();
                loaded.program.print(&mut streamed).unwrap();
                String::from_utf8(streamed).unwrap()
            };
            assert!(
                printed == *expected,
                "{name}: print {round} in a shared context differs"
            );
        }
    }
}
