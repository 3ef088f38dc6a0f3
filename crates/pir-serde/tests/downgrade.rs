//! Writing for older releases, judged by Paddle's own old files: every
//! `compat/<release>/NAME.json` (written by Paddle 3.0.0, 3.1.1, 3.2.2) is
//! read — which upgrades it — and written for its release again; so is
//! `NAME.upgraded.json`, what Paddle 3.3.1 made of it. Both must give the
//! original file: the same JSON up to the order of attributes inside
//! `A`/`OA` lists (Paddle's own re-save reorders those), and byte for byte
//! where the reader kept the file's order (`identical/...` counts those).
//!
//! Runs on the compat files shipped in the repository
//! (`tests/corpus/compat`) and, when present, on the shared corpus'.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{canonical, first_json_difference, Masks};
use libtest_mimic::{Arguments, Failed, Trial};

/// One old file: where it is, which release wrote it and its version.
#[derive(Clone, Debug)]
struct Case {
    label: String,
    original: PathBuf,
    upgraded: Option<PathBuf>,
    version: u64,
}

/// The compat files under `root` (`<release>/<name>.json`).
fn cases(root: &Path, source: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let Ok(releases) = std::fs::read_dir(root) else {
        return out;
    };
    let mut releases: Vec<PathBuf> = releases.flatten().map(|e| e.path()).collect();
    releases.sort();
    for dir in releases {
        let release = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Some(version) = pir_serde::patch::release_version(&release) else {
            continue;
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for path in files {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".json") else {
                continue;
            };
            if stem.contains('.') {
                continue; // .upgraded.json, .meta.json
            }
            let upgraded = dir.join(format!("{stem}.upgraded.json"));
            out.push(Case {
                label: format!("{source}/{release}/{stem}"),
                original: path.clone(),
                upgraded: upgraded.exists().then_some(upgraded),
                version,
            });
        }
    }
    out
}

/// Reads `path` and writes it for `version` with the original's flags.
fn downgrade(path: &Path, version: u64, original: &[u8]) -> Result<Vec<u8>, Failed> {
    let ctx = pir_dialects::pd_op_context();
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let loaded = pir_serde::read_slice(ctx.clone(), &bytes, &Default::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let first =
        pir_serde::read_slice(ctx, original, &Default::default()).map_err(|e| e.to_string())?;
    let options = pir_serde::WriteOptions {
        trainable: first.trainable,
        readable: first.readable,
        version,
    };
    pir_serde::write_to_vec(&loaded.program, &options).map_err(|e| e.to_string().into())
}

/// The original read and written for its release gives its bytes back (the
/// reader keeps the file's attribute order); Paddle 3.3.1's upgrade of it
/// gives the same JSON, attribute lists compared by name (Paddle's re-save
/// reordered them), and is counted in `identical` when byte-identical too.
fn case(case: &Case, identical: &AtomicUsize) -> Result<(), Failed> {
    let original = std::fs::read(&case.original).map_err(|e| e.to_string())?;
    let written = downgrade(&case.original, case.version, &original)?;
    if written != original {
        return Err(format!(
            "read and written for its release: {}",
            first_json_difference(&original, &written)
        )
        .into());
    }
    identical.fetch_add(1, Ordering::Relaxed);
    let Some(upgraded) = &case.upgraded else {
        return Ok(());
    };
    let written = downgrade(upgraded, case.version, &original)?;
    if canonical(&written, Masks::default())? != canonical(&original, Masks::default())? {
        return Err(format!(
            "Paddle 3.3.1's upgrade written for the old release: {}",
            first_json_difference(&original, &written)
        )
        .into());
    }
    if written == original {
        identical.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

/// The repository's copy of a compat file.
fn shipped(release: &str, name: &str) -> PathBuf {
    pir_corpus::repo_root().join(format!("tests/corpus/compat/{release}/{name}.json"))
}

fn load(bytes: &[u8]) -> Result<pir_serde::LoadedProgram, Failed> {
    pir_serde::read_slice(pir_dialects::pd_op_context(), bytes, &Default::default())
        .map_err(|e| e.to_string().into())
}

/// An attribute a patch added, holding a value other than the patch's
/// default, cannot be written for the release before it: the error names
/// the op, its index and the attribute, and no file is left behind.
fn refusal_names_the_op_and_writes_nothing() -> Result<(), Failed> {
    let text = std::fs::read_to_string(shipped("3.2.2", "c_linalg_misc"))?;
    let edited = text.replace(
        r#""D":-1},"N":"output_size""#,
        r#""D":5},"N":"output_size""#,
    );
    assert_ne!(edited, text);
    let loaded = load(edited.as_bytes())?;
    let options = |version| pir_serde::WriteOptions {
        version,
        ..Default::default()
    };
    // Version 3 (Paddle 3.2) has the attribute.
    pir_serde::write_to_vec(&loaded.program, &options(3))?;
    let err = pir_serde::write_to_vec(&loaded.program, &options(2)).unwrap_err();
    let message = err.to_string();
    for part in [
        "op 10",
        "`pd_op.repeat_interleave`",
        "`output_size`",
        "Paddle 3.1",
    ] {
        if !message.contains(part) {
            return Err(format!("`{part}` missing from: {message}").into());
        }
    }
    assert!(matches!(
        err,
        pir_serde::WriteError::Downgrade(pir_serde::patch::DowngradeError::Inexpressible {
            op_index: 10,
            ..
        })
    ));
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("old.json");
    let mut sink = Vec::new();
    assert!(pir_serde::write_to(&loaded.program, &options(2), &mut sink).is_err());
    assert!(sink.is_empty(), "bytes were streamed before the refusal");
    assert!(pir_serde::write_file(&loaded.program, &path, &options(2), true).is_err());
    if std::fs::read_dir(dir.path())?.next().is_some() {
        return Err("a file was left behind".into());
    }
    Ok(())
}

/// The indented form of a downgraded file holds the same JSON as the compact one.
fn readable_output_holds_the_same_json() -> Result<(), Failed> {
    let original = std::fs::read(shipped("3.0.0", "c_pool_interp"))?;
    let loaded = load(&original)?;
    let readable = pir_serde::WriteOptions {
        readable: true,
        version: 1,
        ..Default::default()
    };
    let written = pir_serde::write_to_vec(&loaded.program, &readable)?;
    if canonical(&written, Masks::default())? != canonical(&original, Masks::default())? {
        return Err(first_json_difference(&original, &written).into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let root = pir_corpus::repo_root();
    let mut all = cases(&root.join("tests/corpus/compat"), "repo");
    all.extend(cases(
        &root.join("../shared/paddle-corpus/compat"),
        "shared",
    ));
    let identical = Arc::new(AtomicUsize::new(0));
    let mut trials = Vec::new();
    for c in all.clone() {
        let identical = identical.clone();
        trials.push(Trial::test(format!("downgrade/{}", c.label), move || {
            case(&c, &identical)
        }));
    }
    trials.push(Trial::test(
        "refusal_names_the_op_and_writes_nothing",
        refusal_names_the_op_and_writes_nothing,
    ));
    trials.push(Trial::test(
        "readable_output_holds_the_same_json",
        readable_output_holds_the_same_json,
    ));
    let conclusion = libtest_mimic::run(&args, trials);
    eprintln!(
        "{} of {} downgraded writes byte-identical to the original",
        identical.load(Ordering::Relaxed),
        all.iter()
            .map(|c| 1 + usize::from(c.upgraded.is_some()))
            .sum::<usize>()
    );
    conclusion.exit();
}
