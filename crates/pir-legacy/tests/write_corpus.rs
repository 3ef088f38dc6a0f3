//! The `.pdmodel` writer over the corpus.
//!
//! - Legacy models (every `.pdmodel` with Paddle 3.3.1's translation beside
//!   it, in `../shared/legacy-corpus`, `../shared/paddle-corpus` and
//!   `tests/corpus`): translated, written back, decoded by prost (the
//!   reference protobuf decoder) and translated again; the second
//!   translation prints as the first.
//! - PIR models (the corpus index, `tests/corpus` on a fresh clone): each is
//!   written, or refused naming every op with no Paddle 2.6 form; what is
//!   written decodes and translates, and the summary counts how many
//!   translate back to the original's print.
//!
//! Paddle itself judges the files in `scripts/paddle_check_pdmodel.py`.

#[allow(missing_docs, clippy::all, dead_code)]
#[path = "support/proto.rs"]
mod proto;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use libtest_mimic::{Arguments, Failed, Trial};
use prost::Message;

fn legacy_models() -> Vec<PathBuf> {
    let root = pir_corpus::repo_root();
    let mut out = Vec::new();
    for dir in [
        root.join("../shared/legacy-corpus"),
        root.join("../shared/paddle-corpus"),
        root.join("tests/corpus"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "pdmodel"))
            .collect();
        found.sort();
        out.extend(found);
    }
    out
}

/// Writes `program`, checks the bytes with prost and translates them back.
fn write_and_translate(program: &pir_core::Program) -> Result<pir_core::Program, Failed> {
    let bytes = pir_legacy::write::to_bytes(program).map_err(|e| e.to_string())?;
    proto::ProgramDesc::decode(&bytes[..]).map_err(|e| format!("prost: {e}"))?;
    pir_legacy::translate_bytes(&bytes, pir_dialects::pd_op_context(), Default::default())
        .map_err(|e| Failed::from(format!("translating the written file: {e}")))
}

fn first_difference(got: &str, want: &str) -> String {
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        if g != w {
            return format!("line {}:\n  got:  {g}\n  want: {w}", i + 1);
        }
    }
    format!(
        "lengths differ: got {} lines, want {}",
        got.lines().count(),
        want.lines().count()
    )
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

static WRITTEN: AtomicUsize = AtomicUsize::new(0);
static REFUSED: AtomicUsize = AtomicUsize::new(0);
static SAME_PRINT: AtomicUsize = AtomicUsize::new(0);
static UNTRANSLATABLE: AtomicUsize = AtomicUsize::new(0);

fn check_pir(model: &pir_corpus::Model) -> Result<(), Failed> {
    let text = std::fs::read(model.json()).map_err(|e| e.to_string())?;
    let program = pir_serde::read_slice(pir_dialects::pd_op_context(), &text, &Default::default())
        .map_err(|e| e.to_string())?
        .program;
    match pir_legacy::write::to_bytes(&program) {
        Err(pir_legacy::write::WriteError::NoLegacyForm { ops }) => {
            REFUSED.fetch_add(1, Ordering::Relaxed);
            // Every op named is in the program, under that name.
            for op in &ops {
                if !program.to_string().contains(&format!("\"{}\"", op.op_name)) {
                    return Err(format!("names `{}`, which the program lacks", op.op_name).into());
                }
            }
            Ok(())
        }
        Err(e) => Err(e.to_string().into()),
        Ok(_) => {
            WRITTEN.fetch_add(1, Ordering::Relaxed);
            let back = match write_and_translate(&program) {
                Ok(back) => back,
                // Legacy ops Paddle 3.3.1's translation refuses (2.6's
                // `round` lacks the `decimals` 3.x requires): written for
                // Paddle 2.x, not read back by 3.x.
                Err(e)
                    if e.message()
                        .is_some_and(|m| m.contains("cannot translate legacy op")) =>
                {
                    UNTRANSLATABLE.fetch_add(1, Ordering::Relaxed);
                    eprintln!("{}: {}", model.label(), e.message().unwrap_or_default());
                    return Ok(());
                }
                Err(e) => return Err(e),
            };
            if back.to_string() == program.to_string() {
                SAME_PRINT.fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        }
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for m in legacy_models() {
        let name = m
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_owned();
        trials.push(Trial::test(format!("legacy::{name}"), move || {
            check_legacy(&m)
        }));
    }
    for m in pir_corpus::models() {
        let name = m.label();
        trials.push(Trial::test(format!("pir::{name}"), move || check_pir(&m)));
    }
    let conclusion = libtest_mimic::run(&args, trials);
    eprintln!(
        "PIR models: {} written ({} translate back to the same print, {} hold ops Paddle 3.3.1 does not translate), {} refused naming their ops",
        WRITTEN.load(Ordering::Relaxed),
        SAME_PRINT.load(Ordering::Relaxed),
        UNTRANSLATABLE.load(Ordering::Relaxed),
        REFUSED.load(Ordering::Relaxed)
    );
    conclusion.exit();
}
