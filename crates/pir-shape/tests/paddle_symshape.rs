//! `pir shapes`' text against Paddle's: every `NAME.symshape.txt` of the
//! corpus in use and of the control-flow models (written by Paddle 3.3.1's
//! `infer_symbolic_shape_pass`, see the corpus README and
//! scripts/paddle_check_shapes.py) must equal the annotated program byte for
//! byte. Reports N/N and the first differing line of each failure.

use std::path::Path;

use pir_serde::ReadOptions;

fn first_difference(ours: &str, theirs: &str) -> String {
    for (i, (a, b)) in ours.lines().zip(theirs.lines()).enumerate() {
        if a != b {
            return format!("line {}:\n  ours:   {a}\n  paddle: {b}", i + 1);
        }
    }
    format!(
        "lengths differ: {} lines against {}",
        ours.lines().count(),
        theirs.lines().count()
    )
}

fn annotate(json: &Path) -> Result<String, String> {
    let ctx = pir_dialects::pd_op_context();
    let loaded = pir_serde::read_file(ctx, json, &ReadOptions::default())
        .map_err(|e| format!("{}: {e}", json.display()))?;
    let shapes = pir_shape::ShapeAnalysis::run(&loaded.program);
    Ok(pir_shape::annotated_text(&loaded.program, &shapes))
}

#[test]
fn annotated_programs_equal_paddles() {
    let dir = pir_corpus::corpus_dir();
    let mut total = 0;
    let mut failures = Vec::new();
    let models = pir_corpus::models()
        .into_iter()
        .chain(pir_corpus::control_flow_models());
    for model in models {
        let json = model.json();
        let Some(folder) = json.parent() else {
            continue;
        };
        let expected = folder.join(format!("{}.symshape.txt", model.name));
        let Ok(theirs) = std::fs::read_to_string(&expected) else {
            continue;
        };
        total += 1;
        match annotate(&json) {
            Ok(ours) if ours == theirs => {}
            Ok(ours) => failures.push(format!(
                "{}: {}",
                model.name,
                first_difference(&ours, &theirs)
            )),
            Err(e) => failures.push(format!("{}: {e}", model.name)),
        }
    }
    eprintln!(
        "symbolic shapes equal to Paddle's: {}/{total}",
        total - failures.len()
    );
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(total > 0, "no .symshape.txt in {}", dir.display());
    assert!(failures.is_empty(), "{} of {total} differ", failures.len());
}
