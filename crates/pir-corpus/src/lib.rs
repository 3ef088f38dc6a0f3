//! Test support: the corpus of real files written by Paddle.
//!
//! Tests iterate over the corpus index (`index.json`) instead of hard-coded
//! lists. The full corpus lives in `../shared/paddle-corpus` beside the
//! repository; a few small models are shipped in the repository under
//! `tests/corpus`, so tests still have real files to read when the full corpus
//! is absent.
//!
//! ```
//! for model in pir_corpus::models() {
//!     assert!(model.json().exists());
//! }
//! ```

use std::path::{Path, PathBuf};

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The full corpus folder if present, else the copy shipped in the repository.
pub fn corpus_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("PIR_CORPUS") {
        return PathBuf::from(dir);
    }
    let shared = repo_root().join("../shared/paddle-corpus");
    if shared.join("index.json").exists() {
        shared
    } else {
        repo_root().join("tests/corpus")
    }
}

/// Whether the full corpus (not just the shipped copy) is available.
pub fn full_corpus_available() -> bool {
    repo_root().join("../shared/paddle-corpus/index.json").exists()
}

/// One model of the corpus index.
#[derive(Clone, Debug)]
pub struct Model {
    /// Model name (`mlp_tiny`).
    pub name: String,
    /// The Paddle release that wrote it.
    pub paddle_version: String,
    /// `base_code.version` of its JSON file.
    pub pir_version: u64,
    /// Files of the model, relative to the corpus folder.
    pub files: Vec<String>,
    /// Total op count (nested included).
    pub op_count: u64,
    /// For compat models: the release folder (`3.0.0`).
    pub saved_by: Option<String>,
    dir: PathBuf,
}

impl Model {
    /// Path of the file whose name ends with `suffix` (e.g. `.json`), if listed.
    pub fn file(&self, suffix: &str) -> Option<PathBuf> {
        let stem = format!("{}{}", self.name, suffix);
        self.files.iter().find(|f| f.ends_with(&format!("/{stem}")) || **f == stem).map(|f| self.dir.join(f))
    }

    /// The model's program JSON.
    pub fn json(&self) -> PathBuf {
        self.file(".json").unwrap_or_else(|| self.dir.join(format!("{}.json", self.name)))
    }

    /// Paddle's printed text of the model, if the corpus has it.
    pub fn txt(&self) -> Option<PathBuf> {
        self.file(".txt")
    }

    /// A file name unique across releases (`3.0.0/lenet` for compat models).
    pub fn label(&self) -> String {
        match &self.saved_by {
            Some(v) => format!("{v}/{}", self.name),
            None => self.name.clone(),
        }
    }
}

fn read_index(section: &str) -> Vec<Model> {
    let dir = corpus_dir();
    let Ok(text) = std::fs::read_to_string(dir.join("index.json")) else {
        return Vec::new();
    };
    let Ok(index) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let Some(list) = index.get(section).and_then(|v| v.as_array()) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|m| {
            Some(Model {
                name: m.get("name")?.as_str()?.to_owned(),
                paddle_version: m.get("paddle_version").and_then(|v| v.as_str()).unwrap_or_default().to_owned(),
                pir_version: m.get("pir_version").and_then(|v| v.as_u64()).unwrap_or_default(),
                files: m
                    .get("files")?
                    .as_array()?
                    .iter()
                    .filter_map(|f| f.as_str().map(str::to_owned))
                    .collect(),
                op_count: m.get("op_count").and_then(|v| v.as_u64()).unwrap_or_default(),
                saved_by: m.get("saved_by").and_then(|v| v.as_str()).map(str::to_owned),
                dir: dir.clone(),
            })
        })
        .collect()
}

/// Models written by the current Paddle release (top level of the corpus).
pub fn models() -> Vec<Model> {
    read_index("models")
}

/// Models written by older releases (`compat/<release>/`).
pub fn compat_models() -> Vec<Model> {
    read_index("compat")
}
