//! Both passes over the corpus, checked against a snapshot.

use std::collections::BTreeMap;

use pir_dialects::op_def::OpDefinition;

use super::*;

/// How many ops of each in-place kind (`relu_`, `reshape_`, ...) `p` has,
/// nested ones included.
fn in_place_ops(p: &Program) -> BTreeMap<String, usize> {
    let mut kinds = BTreeMap::new();
    p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        let def = p.op_info(op).and_then(|i| i.interface::<OpDefinition>());
        if def.is_some_and(|d| !d.0.inplace.is_empty() || !d.0.view.is_empty()) {
            *kinds.entry(p.op_name_str(op).to_owned()).or_insert(0) += 1;
        }
    });
    kinds
}

/// Names the model being run if a pass panics on it.
struct RunningOn<'a>(&'a str);

impl Drop for RunningOn<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("while running {}", self.0);
        }
    }
}

/// One snapshot line: the ops each pipeline converted, and which in-place
/// ops `inplace` alone made.
fn snapshot_line(name: &str, original: &Program) -> String {
    let _context = RunningOn(name);
    let mut parts = Vec::new();
    for pipeline in ["de_inplace", "inplace", "de_inplace,inplace"] {
        let mut p = original.clone();
        let counts: Vec<String> = run(&mut p, pipeline).iter().map(u64::to_string).collect();
        let mut part = format!("{pipeline} {}", counts.join("+"));
        if pipeline == "inplace" {
            let (before, after) = (in_place_ops(original), in_place_ops(&p));
            let added: Vec<String> = after
                .iter()
                .filter_map(|(kind, &n)| {
                    let added = n - before.get(kind).copied().unwrap_or(0);
                    let kind = kind.strip_prefix("pd_op.").unwrap_or(kind);
                    (added > 0).then(|| format!("{kind} {added}"))
                })
                .collect();
            if !added.is_empty() {
                part += &format!(" ({})", added.join(", "));
            }
        }
        parts.push(part);
    }
    format!("{name}: {}", parts.join(" | "))
}

/// Both passes on every corpus and control-flow model verify, and convert
/// the ops `tests/snapshots/inplace_corpus.txt` records (one line per model:
/// the ops `de_inplace`, `inplace` and `de_inplace,inplace` converted, and
/// the in-place ops `inplace` added by kind). Models of the full corpus
/// absent here are skipped. Re-bless after an intended change with
/// `PIR_BLESS=1 cargo test -p pir-pass --test inplace` and review the diff.
#[test]
fn corpus_in_place_ops_match_their_snapshot() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/inplace_corpus.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let (header, recorded): (Vec<&str>, Vec<&str>) =
        text.lines().partition(|l| l.starts_with("//"));
    let mut snapshot: BTreeMap<String, String> = recorded
        .iter()
        .filter_map(|l| Some((l.split_once(':')?.0.to_owned(), (*l).to_owned())))
        .collect();
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    let models = pir_corpus::models()
        .into_iter()
        .chain(pir_corpus::control_flow_models());
    for model in models {
        let ctx = pir_dialects::pd_op_context();
        let original = pir_serde::read_file(ctx, &model.json(), &Default::default())
            .unwrap()
            .program;
        let line = snapshot_line(&model.name, &original);
        if snapshot.get(&model.name) != Some(&line) {
            failures.push(format!(
                "  recorded {:?}\n  now      {line:?}",
                snapshot.get(&model.name)
            ));
            snapshot.insert(model.name.clone(), line);
        }
        seen.push(model.name);
    }
    // Every model of the full corpus ran: a recorded model that did not is
    // gone.
    if pir_corpus::full_corpus_available() && std::env::var_os("PIR_CORPUS").is_none() {
        for name in snapshot.keys().filter(|n| !seen.contains(n)) {
            failures.push(format!("  {name}: recorded, but no such model"));
        }
        snapshot.retain(|n, _| seen.contains(n));
    }
    if std::env::var_os("PIR_BLESS").is_some() {
        let mut out: String = header.iter().map(|l| format!("{l}\n")).collect();
        for line in snapshot.values() {
            out += line;
            out.push('\n');
        }
        std::fs::write(&path, out).unwrap();
    } else {
        assert!(
            failures.is_empty(),
            "{} differs (re-bless with PIR_BLESS=1 and review):\n{}",
            path.display(),
            failures.join("\n")
        );
    }
}
