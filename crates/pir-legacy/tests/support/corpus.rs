//! The `.pdmodel` files of the corpora and what the tests over them share
//! (also included by `crates/pir/tests/legacy_corpus.rs`, whose checks need
//! the JSON format).

// Each test uses a part.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The `.pdmodel` files of the shared corpora (`legacy-corpus`: saved by
/// Paddle 2.6.2; `paddle-corpus`: saved by 3.3.1 with the legacy API), then
/// of `local` below the repository, each folder's sorted by name; folders
/// that are missing (a fresh clone has no shared corpora) are skipped.
pub fn pdmodels(local: &str) -> Vec<PathBuf> {
    let root = pir_corpus::repo_root();
    [
        root.join("../shared/legacy-corpus"),
        root.join("../shared/paddle-corpus"),
        root.join(local),
    ]
    .iter()
    .flat_map(|dir| pdmodels_in(dir))
    .collect()
}

/// The `.pdmodel` files in `dir`, sorted by name (none when it is missing).
pub fn pdmodels_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pdmodel"))
        .collect();
    found.sort();
    found
}

/// The models of [`pdmodels`] (`tests/corpus/legacy`) with Paddle 3.3.1's
/// translation beside them.
pub fn translated_models() -> Vec<PathBuf> {
    let mut models = pdmodels("tests/corpus/legacy");
    models.retain(|m| sibling(m, "translated.json").exists());
    models
}

/// `NAME.suffix` beside `NAME.pdmodel`.
pub fn sibling(model: &Path, suffix: &str) -> PathBuf {
    model.with_file_name(format!("{}.{suffix}", stem(model)))
}

/// The file's name without its extension (a test's name).
pub fn stem(model: &Path) -> String {
    model
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("?")
        .to_owned()
}

/// The first line where `got` and `want` differ, for a failure message.
pub fn first_difference(got: &str, want: &str) -> String {
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
