//! ARCHITECTURE.md's crate graph is the one the manifests declare: the
//! block between its `crate-graph` markers lists each crate's library
//! dependencies on the workspace's crates, as generated here from every
//! `crates/*/Cargo.toml`. When they disagree the test prints the block to
//! paste.

use std::collections::BTreeMap;
use std::path::Path;

/// The workspace crates a manifest's `[dependencies]` table names (not dev-
/// or build-dependencies), sorted.
fn library_dependencies(manifest: &str, workspace: &[String]) -> Vec<String> {
    let mut deps = Vec::new();
    let mut in_table = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_table = line == "[dependencies]";
            continue;
        }
        if !in_table || line.starts_with('#') {
            continue;
        }
        let name = line
            .split(|c: char| c == '=' || c == '.' || c.is_whitespace())
            .next()
            .unwrap_or("");
        if workspace.iter().any(|w| w == name) {
            deps.push(name.to_owned());
        }
    }
    deps.sort();
    deps.dedup();
    deps
}

fn generated_graph(crates_dir: &Path) -> String {
    let mut manifests = BTreeMap::new();
    for entry in std::fs::read_dir(crates_dir).expect("crates/ is readable") {
        let dir = entry.expect("a directory entry").path();
        let manifest = dir.join("Cargo.toml");
        if let Ok(text) = std::fs::read_to_string(&manifest) {
            let name = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("name = "))
                .map(|n| n.trim_matches('"').to_owned())
                .unwrap_or_else(|| panic!("{}: no package name", manifest.display()));
            manifests.insert(name, text);
        }
    }
    let workspace: Vec<String> = manifests.keys().cloned().collect();
    let width = workspace.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for (name, text) in &manifests {
        let deps = library_dependencies(text, &workspace);
        let deps = if deps.is_empty() {
            "(none)".to_owned()
        } else {
            deps.join(" ")
        };
        out.push_str(&format!("{name:<width$}  → {deps}\n"));
    }
    out
}

#[test]
fn the_documented_crate_graph_is_the_manifests() {
    let root = pir_corpus::repo_root();
    let generated = generated_graph(&root.join("crates"));
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let begin = "<!-- crate-graph begin -->\n```text\n";
    let end = "```\n<!-- crate-graph end -->";
    let documented = doc
        .find(begin)
        .and_then(|b| {
            let from = b + begin.len();
            doc[from..].find(end).map(|e| &doc[from..from + e])
        })
        .unwrap_or_else(|| {
            panic!("ARCHITECTURE.md lacks the crate-graph block:\n{begin}{generated}{end}")
        });
    assert_eq!(
        documented, generated,
        "ARCHITECTURE.md's crate graph differs from the manifests; the block should read:\n{begin}{generated}{end}"
    );
}

#[test]
fn only_the_library_table_counts() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\npir-core.workspace = true\npir-json = { path = \"../pir-json\" }\nserde_json = \"1\"\n[dev-dependencies]\npir-serde.workspace = true\n";
    let workspace = ["pir-core", "pir-json", "pir-serde"].map(String::from);
    assert_eq!(
        library_dependencies(manifest, &workspace),
        ["pir-core", "pir-json"]
    );
}
