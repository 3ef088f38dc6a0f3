//! A declarative rewrite rule (DRR) given as text: parsed and checked
//! against Paddle's op definitions, compiled into a pattern and applied to a
//! model, first through the greedy driver and then as the `drr` pass of a
//! pipeline, as `pir opt --rules FILE` runs it.
//!
//! `cargo run -p pir --example rewrite_rule`
#![allow(clippy::unwrap_used)] // an example fails loudly by design

use std::path::PathBuf;

use pir::pass::drr::RuleSet;
use pir::pass::rewrite::{apply_greedily, FrozenPatternSet, GreedyConfig, Stop};

/// x·w + b with a 2-D weight and a 1-D bias is one `pd_op.fc`.
const RULES: &str = r#"
// y = x·w + b: one pd_op.fc
rule matmul_add_to_fc {
    %m = pd_op.matmul(%x, %w) {transpose_x: false, transpose_y: false}
    %out = pd_op.add(%m, %b)
    where rank(%w) == 2 && rank(%x) >= 2 && dim(%x, -1) == dim(%w, 0)
    where rank(%b) == 1 && dim(%b, 0) == dim(%w, 1)
    =>
    %out = pd_op.fc(%x, %w, %b) {in_num_col_dims: rank(%x) - 1, activation_type: "", padding_weights: false}
}
"#;

fn count(p: &pir::core::Program, name: &str) -> usize {
    let mut n = 0;
    p.walk(p.module_op(), pir::core::walk::Order::Pre, &mut |op| {
        n += usize::from(p.op_name_str(op) == name)
    });
    n
}

/// Runs the example (`tests/examples.rs` runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Errors name the source, line and column, with a caret.
    let rules = RuleSet::parse(RULES, "example.drr")?;
    assert_eq!(rules.rules.len(), 1);
    // A rule set prints back as text that parses to an equal set.
    assert_eq!(RuleSet::parse(&rules.to_string(), "printed")?, rules);

    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/mlp_tiny.json");
    let mut model = pir::Model::load(&path)?;
    assert_eq!(count(&model.program, "pd_op.matmul"), 2);

    // Through the greedy driver: the rule fires once per Linear layer.
    let patterns = FrozenPatternSet::new(rules.patterns());
    let root = model.program.module_op();
    let outcome = apply_greedily(
        &mut model.program,
        root,
        &patterns,
        &GreedyConfig::default(),
    );
    println!("{:?} after {} rewrite(s)", outcome.stop, outcome.rewrites);
    assert_eq!(outcome.stop, Stop::Converged);
    assert_eq!(outcome.rewrites, 2);
    assert_eq!(
        (
            count(&model.program, "pd_op.fc"),
            count(&model.program, "pd_op.matmul")
        ),
        (2, 0)
    );
    model.program.verify().map_err(|e| e.to_string())?;

    // As a pass: `drr{file=F}` reads a rule file (what `pir opt --rules F`
    // runs before the pipeline).
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("fc.drr");
    std::fs::write(&file, RULES)?;
    let mut model = pir::Model::load(&path)?;
    let pipeline = format!("drr{{file={}}},dce", file.display());
    let mut pm = pir::pass::PassManager::parse(&pipeline)?;
    let records = pm.run(&mut model.program)?;
    assert!(records[0].changed);
    assert_eq!(count(&model.program, "pd_op.fc"), 2);
    print!("{}", model.program);
    Ok(())
}
