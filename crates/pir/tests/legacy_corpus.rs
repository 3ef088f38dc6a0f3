//! The legacy `.pdmodel` format beside Paddle's JSON format: the checks that
//! need both `pir-legacy` and `pir-serde` (so they live above both).
//!
//! - `json::NAME`: every `.pdmodel` of the shared corpora (`legacy-corpus`,
//!   `paddle-corpus`) and of `tests/corpus/legacy` with Paddle 3.3.1's
//!   translation beside it is translated (each in a context of its own) and
//!   written as JSON: byte for byte `NAME.translated.json`, else equal with
//!   the attribute lists `A`/`OA` compared by name (the summary counts
//!   both). Their print is compared in `crates/pir-legacy/tests/legacy_corpus.rs`.
//! - `write::NAME`: every PIR model of the corpus index (`tests/corpus` on a
//!   fresh clone), read from its JSON, is written as a `.pdmodel`, or refused
//!   naming every op with no Paddle 2.6 form; what is written decodes and
//!   translates, and the summary counts how many translate back to the
//!   original's print. (Legacy models written back, with the bytes checked
//!   by prost, are `crates/pir-legacy/tests/write_corpus.rs`.)
//! - `lenient`: an op no translation knows, kept with `lenient` as an
//!   unregistered op, saves as JSON and reads back.

#[path = "../../pir-legacy/tests/support/corpus.rs"]
mod corpus;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use corpus::{first_difference, sibling, stem};
use libtest_mimic::{Arguments, Failed, Trial};
use pir::legacy::desc::{DataKind, VarKind};
use pir::legacy::write::{self as legacy_write, encode};
use serde_json::Value;

/// Sorts every `A`/`OA` list of attribute entries by name.
fn normalize(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                if k == "A" || k == "OA" {
                    if let Value::Array(items) = child {
                        if items.iter().all(|i| i.get("N").is_some()) {
                            items.sort_by(|a, b| {
                                a["N"]
                                    .as_str()
                                    .unwrap_or("")
                                    .cmp(b["N"].as_str().unwrap_or(""))
                            });
                        }
                    }
                }
                normalize(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalize),
        _ => {}
    }
}

static JSON_IDENTICAL: AtomicUsize = AtomicUsize::new(0);
static JSON_BY_NAME: AtomicUsize = AtomicUsize::new(0);

fn check_json(model: &Path) -> Result<(), Failed> {
    let ctx = pir::dialects::pd_op_context();
    let program =
        pir::legacy::load_file(model, ctx, Default::default()).map_err(|e| e.to_string())?;
    let got = pir::serde::write_to_vec(&program, &Default::default()).map_err(|e| e.to_string())?;
    let want = std::fs::read(sibling(model, "translated.json")).map_err(|e| e.to_string())?;
    if got == want
        || got.strip_suffix(b"\n") == Some(&want)
        || want.strip_suffix(b"\n") == Some(&got)
    {
        JSON_IDENTICAL.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    let mut g: Value = serde_json::from_slice(&got).map_err(|e| e.to_string())?;
    let mut w: Value = serde_json::from_slice(&want).map_err(|e| e.to_string())?;
    normalize(&mut g);
    normalize(&mut w);
    if g == w {
        JSON_BY_NAME.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    let gs = serde_json::to_string_pretty(&g).unwrap_or_default();
    let ws = serde_json::to_string_pretty(&w).unwrap_or_default();
    Err(first_difference(&gs, &ws).into())
}

static WRITTEN: AtomicUsize = AtomicUsize::new(0);
static REFUSED: AtomicUsize = AtomicUsize::new(0);
static SAME_PRINT: AtomicUsize = AtomicUsize::new(0);
static UNTRANSLATABLE: AtomicUsize = AtomicUsize::new(0);

fn check_write(model: &pir_corpus::Model) -> Result<(), Failed> {
    let text = std::fs::read(model.json()).map_err(|e| e.to_string())?;
    let ctx = pir::dialects::pd_op_context();
    let program = pir::serde::read_slice(ctx, &text, &Default::default())
        .map_err(|e| e.to_string())?
        .program;
    let bytes = match legacy_write::to_bytes(&program) {
        Err(legacy_write::WriteError::NoLegacyForm { ops }) => {
            REFUSED.fetch_add(1, Ordering::Relaxed);
            // Every op named is in the program, under that name.
            let printed = program.to_string();
            for op in &ops {
                if !printed.contains(&format!("\"{}\"", op.op_name)) {
                    return Err(format!("names `{}`, which the program lacks", op.op_name).into());
                }
            }
            return Ok(());
        }
        Err(e) => return Err(e.to_string().into()),
        Ok(bytes) => bytes,
    };
    WRITTEN.fetch_add(1, Ordering::Relaxed);
    let ctx = pir::dialects::pd_op_context();
    let back = match pir::legacy::translate_bytes(&bytes, ctx, Default::default()) {
        Ok(back) => back,
        // Legacy ops Paddle 3.3.1's translation refuses (2.6's `round`
        // lacks the `decimals` 3.x requires): written for Paddle 2.x, not
        // read back by 3.x.
        Err(e) if e.to_string().contains("cannot translate legacy op") => {
            UNTRANSLATABLE.fetch_add(1, Ordering::Relaxed);
            eprintln!("{}: {e}", model.label());
            return Ok(());
        }
        Err(e) => return Err(format!("translating the written file: {e}").into()),
    };
    if back.to_string() == program.to_string() {
        SAME_PRINT.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

/// feed `x` → `my_custom_op` (no translation knows it) → fetch.
fn unknown_op_program() -> Vec<u8> {
    let var = |name: &str, kind| encode::Var {
        persistable: kind != VarKind::DenseTensor,
        ..encode::Var::new(name, kind)
    };
    let tensor = |name: &str| encode::Var {
        dtype: Some(DataKind::Fp32.to_i32()),
        dims: vec![-1, 4],
        ..var(name, VarKind::DenseTensor)
    };
    let op = |ty: &str, input: (&str, &str), output: (&str, &str), attrs: Vec<_>| {
        let mut op = encode::Op::new(ty);
        op.set_input(input.0, vec![input.1.to_owned()]);
        op.set_output(output.0, vec![output.1.to_owned()]);
        op.attrs = attrs;
        op
    };
    let col = || vec![("col".to_owned(), encode::Value::Int(0))];
    let custom = vec![
        ("k".to_owned(), encode::Value::Int(3)),
        ("tag".to_owned(), encode::Value::String("a".into())),
    ];
    encode::encode(&encode::Program {
        blocks: vec![encode::Block {
            idx: 0,
            parent_idx: -1,
            vars: vec![
                var("feed", VarKind::FeedMinibatch),
                var("fetch", VarKind::FetchList),
                tensor("x"),
                tensor("y"),
            ],
            ops: vec![
                op("feed", ("X", "feed"), ("Out", "x"), col()),
                op("my_custom_op", ("X", "x"), ("Out", "y"), custom),
                op("fetch", ("X", "y"), ("Out", "fetch"), col()),
            ],
        }],
        version: 0,
        op_versions: Vec::new(),
    })
}

fn check_lenient_saves() -> Result<(), Failed> {
    let ctx = pir::dialects::pd_op_context();
    let options = pir::legacy::Options {
        lenient: true,
        ..Default::default()
    };
    let program = pir::legacy::translate_bytes(&unknown_op_program(), ctx.clone(), options)
        .map_err(|e| e.to_string())?;
    let text = program.to_string();
    if !text.contains("\"legacy.my_custom_op\" (%0)") || !text.contains("k:3") {
        return Err(format!("not kept as an unregistered op:\n{text}").into());
    }
    let json =
        pir::serde::write_to_vec(&program, &Default::default()).map_err(|e| e.to_string())?;
    let again =
        pir::serde::read_slice(ctx, &json, &Default::default()).map_err(|e| e.to_string())?;
    let back = again.program.to_string();
    if back != text {
        return Err(first_difference(&back, &text).into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = vec![Trial::test("lenient", check_lenient_saves)];
    let translated = corpus::translated_models();
    if translated.is_empty() {
        eprintln!(
            "legacy corpus not found (../shared/legacy-corpus, ../shared/paddle-corpus): no json:: checks"
        );
    }
    for m in translated {
        trials.push(Trial::test(format!("json::{}", stem(&m)), move || {
            check_json(&m)
        }));
    }
    for m in pir_corpus::models() {
        trials.push(Trial::test(format!("write::{}", m.label()), move || {
            check_write(&m)
        }));
    }
    let conclusion = libtest_mimic::run(&args, trials);
    eprintln!(
        "JSON: {} byte-identical, {} identical with attributes compared by name",
        JSON_IDENTICAL.load(Ordering::Relaxed),
        JSON_BY_NAME.load(Ordering::Relaxed)
    );
    eprintln!(
        "PIR models: {} written ({} translate back to the same print, {} hold ops Paddle 3.3.1 does not translate), {} refused naming their ops",
        WRITTEN.load(Ordering::Relaxed),
        SAME_PRINT.load(Ordering::Relaxed),
        UNTRANSLATABLE.load(Ordering::Relaxed),
        REFUSED.load(Ordering::Relaxed)
    );
    conclusion.exit();
}
