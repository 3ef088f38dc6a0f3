//! Per-pass diff snapshots of real corpus models and of the shipped
//! control-flow models (in the style of rustc's mir-opt tests): for each
//! model, every pass runs alone on the loaded program (with its parameters) and the printed
//! before/after difference is compared with `tests/pass_snapshots/<model>.diff`.
//! Each result must also verify.
//!
//! Re-bless after an intended change with `PIR_BLESS=1 cargo test -p pir --test pass_snapshots`,
//! then review the diff of the snapshot files.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use std::fmt::Write as _;
use std::path::PathBuf;

const PASSES: [&str; 22] = [
    "dce",
    "cse",
    "loop_invariant_code_motion",
    "einsum_to_matmul",
    "canonicalize",
    "remove_identity_ops",
    "delete_assert",
    "replace_fetch_with_shadow_output",
    "de_inplace",
    "inplace",
    "constant_folding",
    "fold_batch_norm",
    "identity_op_clean",
    "matmul_add_act_fuse",
    "matmul_transpose_fuse",
    "remove_redundant_transpose",
    "silu_fuse",
    "conv2d_add_act_fuse",
    "add_norm_fuse",
    "horizontal_fuse",
    "trim_broadcast_constants",
    "inference",
];

/// A line diff: common prefix and suffix are skipped, the rest is an LCS diff
/// (or, when too large, all removed then all added).
fn diff(before: &str, after: &str) -> String {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut out = String::new();
    if a.is_empty() && b.is_empty() {
        return out;
    }
    let _ = writeln!(out, "@@ line {} @@", prefix + 1);
    if a.len() * b.len() > 4_000_000 {
        for l in a {
            let _ = writeln!(out, "-{l}");
        }
        for l in b {
            let _ = writeln!(out, "+{l}");
        }
        return out;
    }
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            let _ = writeln!(out, " {}", a[i]);
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "-{}", a[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "+{}", b[j]);
            j += 1;
        }
    }
    out
}

/// Programs of more lines than this are recorded as op-count changes, not
/// line diffs (which would run to megabytes).
const LARGE: usize = 1500;

/// The change of each op name's count, `name: before -> after`.
fn histogram_change(before: &str, after: &str) -> String {
    fn counts(text: &str) -> std::collections::BTreeMap<&str, i64> {
        let mut m = std::collections::BTreeMap::new();
        for line in text.lines() {
            if let Some(start) = line.find(" = \"").map(|i| i + 4) {
                if let Some(len) = line[start..].find('"') {
                    *m.entry(&line[start..start + len]).or_insert(0) += 1;
                }
            }
        }
        m
    }
    let (a, b) = (counts(before), counts(after));
    let mut out = String::new();
    for name in a
        .keys()
        .chain(b.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let (x, y) = (
            a.get(name).copied().unwrap_or(0),
            b.get(name).copied().unwrap_or(0),
        );
        if x != y {
            let _ = writeln!(out, "{name}: {x} -> {y}");
        }
    }
    if out.is_empty() && before != after {
        out.push_str("(same op counts, other changes)\n");
    }
    out
}

#[test]
fn per_pass_diffs_of_corpus_models_match_their_snapshots() {
    let bless = std::env::var_os("PIR_BLESS").is_some();
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pass_snapshots"));
    let mut failures = Vec::new();
    let models = pir_corpus::models()
        .into_iter()
        .chain(pir_corpus::control_flow_models());
    for model in models {
        // With its parameters, which the folding passes read (a training
        // checkpoint whose optimizer state lives elsewhere loads without).
        let original = match pir::Model::load(model.json().with_extension("")) {
            Ok(m) => m.program,
            Err(_) => {
                let ctx = pir_dialects::pd_op_context();
                pir_serde::read_file(ctx, &model.json(), &Default::default())
                    .unwrap()
                    .program
            }
        };
        let before = original.to_string();
        let mut snapshot = format!(
            "// Per-pass changes to `{}` (one pass at a time on the loaded model).\n",
            model.name
        );
        for pass in PASSES {
            let mut p = original.clone();
            let mut pm = pir_pass::PassManager::parse(pass).unwrap();
            pm.run(&mut p)
                .unwrap_or_else(|e| panic!("{}: {e}", model.name));
            p.verify()
                .unwrap_or_else(|e| panic!("{} after {pass}: {e}", model.name));
            let after = p.to_string();
            let d = if before.lines().count() > LARGE {
                histogram_change(&before, &after)
            } else {
                diff(&before, &after)
            };
            let _ = writeln!(snapshot, "== {pass} ==");
            snapshot.push_str(if d.is_empty() { "(unchanged)\n" } else { &d });
        }
        let path = dir.join(format!("{}.diff", model.name));
        if bless {
            std::fs::write(&path, &snapshot).unwrap();
        } else {
            match std::fs::read_to_string(&path) {
                Ok(expected) if expected == snapshot => {}
                Ok(_) => failures.push(format!("{}: differs from {}", model.name, path.display())),
                Err(_) => failures.push(format!("{}: no snapshot {}", model.name, path.display())),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "re-run with PIR_BLESS=1 and review:\n{}",
        failures.join("\n")
    );
}
