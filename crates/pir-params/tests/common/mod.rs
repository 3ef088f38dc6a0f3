//! Test support: locating the Paddle corpus and reading its meta files.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The corpus folder beside the repository.
pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/paddle-corpus");

/// The corpus folder, or `None` (with a printed note) when it is absent.
pub fn corpus() -> Option<PathBuf> {
    let p = PathBuf::from(CORPUS);
    if p.join("index.json").is_file() {
        Some(p)
    } else {
        eprintln!("note: Paddle corpus not found at {CORPUS}; skipping");
        None
    }
}

/// One model with a parameter file.
pub struct Model {
    /// Model name.
    pub name: String,
    /// Its `.pdiparams`.
    pub pdiparams: PathBuf,
    /// Its parsed `meta.json`.
    pub meta: Value,
}

impl Model {
    /// `params` of the meta, as (name, shape, dtype) in program order, or
    /// `None` when the list was left out.
    pub fn params(&self) -> Option<Vec<(String, Vec<i64>, String)>> {
        let list = self.meta.get("params")?.as_array()?;
        Some(
            list.iter()
                .map(|p| {
                    let shape = p["shape"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|d| d.as_i64().unwrap())
                        .collect();
                    (
                        p["name"].as_str().unwrap().to_string(),
                        shape,
                        p["dtype"].as_str().unwrap().to_string(),
                    )
                })
                .collect(),
        )
    }

    /// A number field of the meta.
    pub fn num(&self, key: &str) -> u64 {
        self.meta[key].as_u64().unwrap()
    }

    /// The recorded sha256 of the `.pdiparams`.
    pub fn sha256(&self) -> &str {
        self.meta["files"]["pdiparams"]["sha256"].as_str().unwrap()
    }
}

/// Every model (top level and `compat/`) of `index.json` with a `.pdiparams`.
pub fn models_with_params(corpus: &Path) -> Vec<Model> {
    let index: Value =
        serde_json::from_slice(&std::fs::read(corpus.join("index.json")).unwrap()).unwrap();
    let mut out = Vec::new();
    for section in ["models", "compat"] {
        for m in index[section].as_array().unwrap() {
            let files: Vec<&str> = m["files"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap())
                .collect();
            let Some(params) = files.iter().find(|f| f.ends_with(".pdiparams")) else {
                continue;
            };
            let meta_file = files.iter().find(|f| f.ends_with(".meta.json")).unwrap();
            let meta =
                serde_json::from_slice(&std::fs::read(corpus.join(meta_file)).unwrap()).unwrap();
            out.push(Model {
                name: params.trim_end_matches(".pdiparams").to_string(),
                pdiparams: corpus.join(params),
                meta,
            });
        }
    }
    out
}

/// Whether `python3 -c 'import numpy'` works.
pub fn python_with_numpy() -> bool {
    std::process::Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}
