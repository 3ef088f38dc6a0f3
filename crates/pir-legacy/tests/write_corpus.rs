//! The `.pdmodel` writer over the legacy corpus: every `.pdmodel` in
//! `../shared/legacy-corpus`, `../shared/paddle-corpus` and `tests/corpus`
//! is translated, written back, decoded by prost (the reference protobuf
//! decoder) and translated again; the second translation prints as the
//! first. (The PIR models of the corpus index, read from their JSON, are
//! written in `crates/pir/tests/legacy_corpus.rs`.)
//!
//! Paddle itself judges the files in `scripts/paddle_check_pdmodel.py`.

#[allow(missing_docs, clippy::all, dead_code)]
#[path = "support/proto.rs"]
mod proto;

#[path = "support/corpus.rs"]
mod corpus;

use std::path::Path;

use corpus::{first_difference, stem};
use libtest_mimic::{Arguments, Failed, Trial};
use prost::Message;

/// Writes `program`, checks the bytes with prost and translates them back.
fn write_and_translate(program: &pir_core::Program) -> Result<pir_core::Program, Failed> {
    let bytes = pir_legacy::write::to_bytes(program).map_err(|e| e.to_string())?;
    proto::ProgramDesc::decode(&bytes[..]).map_err(|e| format!("prost: {e}"))?;
    pir_legacy::translate_bytes(&bytes, pir_dialects::pd_op_context(), Default::default())
        .map_err(|e| Failed::from(format!("translating the written file: {e}")))
}

fn check_legacy(model: &Path) -> Result<(), Failed> {
    let ctx = pir_dialects::pd_op_context();
    let first = pir_legacy::load_file(model, ctx, Default::default()).map_err(|e| e.to_string())?;
    if let Ok(dir) = std::env::var("PIR_WRITE_DUMP") {
        // Keeps the written file for a look (`PIR_WRITE_DUMP=/tmp/d`).
        let bytes = pir_legacy::write::to_bytes(&first).map_err(|e| e.to_string())?;
        let name = model.file_name().ok_or("no file name")?;
        std::fs::write(Path::new(&dir).join(name), bytes).map_err(|e| e.to_string())?;
    }
    let second = write_and_translate(&first)?;
    let (got, want) = (second.to_string(), first.to_string());
    if got != want {
        return Err(first_difference(&got, &want).into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for m in corpus::pdmodels("tests/corpus") {
        trials.push(Trial::test(format!("legacy::{}", stem(&m)), move || {
            check_legacy(&m)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
