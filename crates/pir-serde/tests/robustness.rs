//! Bad input never panics the reader: every corpus file truncated at 50 points
//! and with 200 random byte flips (or a random byte overwritten) is either read
//! or rejected with an error.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

fn corpus_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = pir_corpus::models().iter().map(|m| m.json()).collect();
    files.extend(pir_corpus::compat_models().iter().map(|m| m.json()));
    files
}

use pir_corpus::Rng;

fn read(ctx: &std::sync::Arc<pir_core::IrContext>, bytes: &[u8]) -> bool {
    pir_serde::read_slice(ctx.clone(), bytes, &Default::default()).is_ok()
}

#[test]
fn truncated_files_are_rejected_without_panic() {
    let ctx = pir_dialects::pd_op_context();
    for path in corpus_files() {
        let bytes = std::fs::read(&path).unwrap();
        for k in 0..50 {
            let cut = bytes.len() * k / 50;
            assert!(
                !read(&ctx, &bytes[..cut]),
                "{} truncated at {cut} was accepted",
                path.display()
            );
        }
    }
}

#[test]
fn random_byte_flips_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let ctx = pir_dialects::pd_op_context();
    for path in corpus_files() {
        let original = std::fs::read(&path).unwrap();
        for _ in 0..200 {
            let mut bytes = original.clone();
            let i = rng.below(bytes.len());
            if rng.next_u64().is_multiple_of(2) {
                bytes[i] ^= 1 << rng.below(8);
            } else {
                const JSON_BYTES: &[u8] = b"{}[]\":,0-9eE.tfn#%";
                bytes[i] = JSON_BYTES[rng.below(JSON_BYTES.len())];
            }
            let _ = read(&ctx, &bytes);
        }
    }
}

/// An op declaring more results than an op can hold (`pir verify` used to
/// panic on it) is a typed error naming the op.
#[test]
fn an_op_with_too_many_results_is_an_error() {
    let ctx = pir_dialects::pd_op_context();
    let results: Vec<String> = (1..=70_000)
        .map(|i| format!(r##"{{"%":{i},"TT":{{"#":"0.t_dtensor","D":[{{"#":"0.t_f32"}},[1],"NCHW",[],0]}}}}"##))
        .collect();
    let json = format!(
        r##"{{"base_code":{{"magic":"pir","trainable":false,"version":4}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{{"#":"0.foo","I":[],"O":[{}],"A":[]}}]}}]}}]}}}}"##,
        results.join(",")
    );
    let err = pir_serde::read_slice(ctx.clone(), json.as_bytes(), &Default::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("70000 results"), "{err}");
    assert!(err.contains("ops[0]"), "{err}");
    // The text parser says the same.
    let text = format!(
        "{{\n    ({}) = \"pd_op.foo\" () {{}} : () -> {}\n}}\n",
        (0..70_000)
            .map(|i| format!("%{i}"))
            .collect::<Vec<_>>()
            .join(", "),
        vec!["tensor<1xf32>"; 70_000].join(", ")
    );
    let err = pir_serde::read_text(ctx, &text).unwrap_err().to_string();
    assert!(err.contains("70000 results"), "{err}");
}

/// Found by the `program_roundtrip` fuzz target: a registered region op
/// (`pd_op.if`, two regions) built without regions printed no region count
/// in the typed form, so the text read back with the registered two.
#[test]
fn typed_text_keeps_a_region_op_without_its_regions() {
    let ctx = pir_dialects::pd_op_context();
    let mut p = pir_core::Program::new(ctx.clone());
    let top = p.top_block();
    pir_core::Builder::at_end(&mut p, top).create(ctx.symbol("pd_op.if"), &[], &[], &[], 0);
    let loaded = pir_serde::LoadedProgram::translated(p);
    let typed = pir_serde::typed_text(&loaded, false);
    let back = pir_serde::read_text(ctx, &typed).unwrap();
    assert_eq!(
        back.program.num_regions(
            back.program
                .block_ops(back.program.top_block())
                .next()
                .unwrap()
        ),
        0,
        "{typed}"
    );
    assert_eq!(
        back.program.to_typed_string(),
        loaded.program.to_typed_string()
    );
}
