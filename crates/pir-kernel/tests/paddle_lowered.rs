//! Every corpus model with Paddle's `IR after lowering` (`NAME.lowered.txt`,
//! made by Paddle 3.3.1's executor with `FLAGS_print_ir=1`) is lowered and
//! printed; the text must be Paddle's byte for byte. The corpus folder is
//! the full one when present, else the copy in `tests/corpus`; the control
//! flow models of `tests/corpus/control_flow` and the legacy translations of
//! `tests/corpus/legacy` (`NAME.translated.json`) are checked too, and the
//! same legacy models translated here from their `NAME.pdmodel`.

use std::path::{Path, PathBuf};

/// `(model json, Paddle's lowered text)` of every model that has both.
fn cases() -> Vec<(String, PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let models = pir_corpus::models()
        .into_iter()
        .chain(pir_corpus::control_flow_models());
    for model in models {
        let json = model.json();
        let lowered = json.with_file_name(format!("{}.lowered.txt", model.name));
        if json.exists() && lowered.exists() {
            out.push((model.name.clone(), json, lowered));
        }
    }
    let legacy = pir_corpus::repo_root().join("tests/corpus/legacy");
    let mut translated: Vec<_> = std::fs::read_dir(&legacy)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry
                .file_name()
                .to_str()?
                .strip_suffix(".lowered.txt")?
                .to_owned();
            let json = legacy.join(format!("{name}.translated.json"));
            json.exists().then(|| (name, json, entry.path()))
        })
        .collect();
    translated.sort();
    out.extend(translated);
    out
}

/// The first line where `ours` and `paddle` differ, for the failure message.
fn first_difference(ours: &str, paddle: &str) -> String {
    for (i, (a, b)) in ours.lines().zip(paddle.lines()).enumerate() {
        if a != b {
            return format!("line {}:\n  ours:   {a}\n  paddle: {b}", i + 1);
        }
    }
    format!(
        "lengths differ: {} lines vs {} lines",
        ours.lines().count(),
        paddle.lines().count()
    )
}

fn lower_file(json: &Path) -> Result<String, String> {
    let ctx = pir_kernel::kernel_context();
    let loaded = pir_serde::read_file(ctx, json, &pir_serde::ReadOptions::default())
        .map_err(|e| e.to_string())?;
    let lowered = pir_kernel::lower(&loaded.program).map_err(|e| e.to_string())?;
    Ok(lowered.to_paddle_string())
}

#[test]
fn lowered_programs_print_as_paddles_executor_prints_them() {
    let cases = cases();
    assert!(
        !cases.is_empty(),
        "no model with a .lowered.txt in {}",
        pir_corpus::corpus_dir().display()
    );
    let mut failures = Vec::new();
    for (name, json, lowered) in &cases {
        let expected = std::fs::read_to_string(lowered).unwrap_or_default();
        match lower_file(json) {
            Ok(ours) if ours == expected => {}
            Ok(ours) => failures.push(format!("{name}: {}", first_difference(&ours, &expected))),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    let passed = cases.len() - failures.len();
    eprintln!("lowered byte-equal to Paddle: {passed}/{}", cases.len());
    assert!(
        failures.is_empty(),
        "{passed}/{} equal; failures:\n{}",
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn legacy_models_translated_here_lower_as_paddles_translation_does() {
    let legacy = pir_corpus::repo_root().join("tests/corpus/legacy");
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(&legacy)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            Some(
                e.file_name()
                    .to_str()?
                    .strip_suffix(".lowered.txt")?
                    .to_owned(),
            )
        })
        .collect();
    names.sort();
    for name in names {
        let pdmodel = legacy.join(format!("{name}.pdmodel"));
        if !pdmodel.exists() {
            continue;
        }
        checked += 1;
        let expected =
            std::fs::read_to_string(legacy.join(format!("{name}.lowered.txt"))).unwrap_or_default();
        let ctx = pir_kernel::kernel_context();
        let ours = pir_legacy::load_file(&pdmodel, ctx, pir_legacy::Options::default())
            .map_err(|e| e.to_string())
            .and_then(|p| pir_kernel::lower(&p).map_err(|e| e.to_string()))
            .map(|l| l.to_paddle_string());
        match ours {
            Ok(ours) if ours == expected => {}
            Ok(ours) => failures.push(format!("{name}: {}", first_difference(&ours, &expected))),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "legacy .pdmodel lowered byte-equal to Paddle: {}/{checked}",
        checked - failures.len()
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}
