//! Every `.pdmodel` of the shared corpora (`legacy-corpus`: saved by Paddle
//! 2.6.2; `paddle-corpus`: saved by 3.3.1 with the legacy API) and of
//! `tests/corpus/legacy`, translated and compared with Paddle 3.3.1's own
//! translation: the print byte for byte with `NAME.translated.txt`, the JSON
//! with `NAME.translated.json` (byte for byte, else with the attribute lists
//! `A`/`OA` compared by name; the summary counts both).
//!
//! `tests/corpus/legacy/unsupported` holds models of legacy ops Paddle
//! 3.3.1 cannot translate (its error in `NAME.paddle_error.txt`): each must
//! fail here too, with an error naming the op.
//!
//! The print is checked with every model translated in one context shared
//! by all (what one translation leaves for the next in a context must not
//! change the result), the JSON with each in a context of its own.
//!
//! Skips with a message when neither corpus is present.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;

fn models() -> Vec<PathBuf> {
    let root = pir_corpus::repo_root();
    let dirs = [
        root.join("../shared/legacy-corpus"),
        root.join("../shared/paddle-corpus"),
        root.join("tests/corpus/legacy"),
    ];
    let mut out = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "pdmodel"))
            .filter(|p| sibling(p, "translated.json").exists())
            .collect();
        found.sort();
        out.extend(found);
    }
    out
}

fn sibling(model: &Path, suffix: &str) -> PathBuf {
    let stem = model
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    model.with_file_name(format!("{stem}.{suffix}"))
}

fn translate(model: &Path) -> Result<pir_core::Program, Failed> {
    translate_in(model, pir_dialects::pd_op_context())
}

fn translate_in(
    model: &Path,
    ctx: std::sync::Arc<pir_core::IrContext>,
) -> Result<pir_core::Program, Failed> {
    pir_legacy::load_file(model, ctx, Default::default()).map_err(|e| Failed::from(e.to_string()))
}

/// The context every print check translates in.
static SHARED: std::sync::LazyLock<std::sync::Arc<pir_core::IrContext>> =
    std::sync::LazyLock::new(pir_dialects::pd_op_context);

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

fn unsupported_models() -> Vec<PathBuf> {
    let dir = pir_corpus::repo_root().join("tests/corpus/legacy/unsupported");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pdmodel"))
        .collect();
    found.sort();
    found
}

/// The model fails to translate, naming its op: `u_<op type>`, with `_v1`
/// for the 1.x version of an op (`u_top_k_v1` holds a `top_k`).
fn check_unsupported(model: &Path) -> Result<(), Failed> {
    let stem = model
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or("no file name")?;
    let name = stem.strip_prefix("u_").ok_or("not named u_<op type>")?;
    let op_type = name.strip_suffix("_v1").unwrap_or(name);
    let bytes = std::fs::read(model).map_err(|e| e.to_string())?;
    let desc = pir_legacy::ProgramDesc::decode(&bytes).map_err(|e| e.to_string())?;
    if !desc.blocks[0].ops.iter().any(|op| op.op_type == op_type) {
        return Err(format!("{stem} holds no `{op_type}` op").into());
    }
    let ctx = pir_dialects::pd_op_context();
    match pir_legacy::load_file(model, ctx, Default::default()) {
        Ok(_) => Err(format!(
            "translated `{op_type}`, which Paddle 3.3.1 cannot: {}",
            std::fs::read_to_string(sibling(model, "paddle_error.txt")).unwrap_or_default()
        )
        .into()),
        Err(e) if e.to_string().contains(&format!("`{op_type}`")) => Ok(()),
        Err(e) => Err(format!("error does not name `{op_type}`: {e}").into()),
    }
}

static JSON_IDENTICAL: AtomicUsize = AtomicUsize::new(0);
static JSON_BY_NAME: AtomicUsize = AtomicUsize::new(0);

fn check_print(model: &Path) -> Result<(), Failed> {
    let program = translate_in(model, SHARED.clone())?;
    let got = program.to_string();
    let want =
        std::fs::read_to_string(sibling(model, "translated.txt")).map_err(|e| e.to_string())?;
    if got.trim_end() != want.trim_end() {
        return Err(first_difference(&got, &want).into());
    }
    Ok(())
}

fn check_json(model: &Path) -> Result<(), Failed> {
    let program = translate(model)?;
    let got = pir_serde::write_to_vec(&program, &Default::default()).map_err(|e| e.to_string())?;
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

fn main() {
    let args = Arguments::from_args();
    let models = models();
    if models.is_empty() {
        eprintln!(
            "legacy corpus not found (../shared/legacy-corpus, ../shared/paddle-corpus): skipping"
        );
        return;
    }
    let mut trials = Vec::new();
    for m in &models {
        let name = m
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_owned();
        let p = m.clone();
        trials.push(Trial::test(format!("print::{name}"), move || {
            check_print(&p)
        }));
        let p = m.clone();
        trials.push(Trial::test(format!("json::{name}"), move || check_json(&p)));
    }
    for m in unsupported_models() {
        let name = m
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_owned();
        trials.push(Trial::test(format!("unsupported::{name}"), move || {
            check_unsupported(&m)
        }));
    }
    let conclusion = libtest_mimic::run(&args, trials);
    eprintln!(
        "JSON: {} byte-identical, {} identical with attributes compared by name",
        JSON_IDENTICAL.load(Ordering::Relaxed),
        JSON_BY_NAME.load(Ordering::Relaxed)
    );
    conclusion.exit();
}
