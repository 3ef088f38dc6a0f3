//! The deployment pipelines — `constant_folding,fold_batch_norm,canonicalize,
//! cse,dce` and `inference` (with the fusions) — on every corpus model with
//! its parameters, against what Paddle
//! Inference 3.3.1 finally runs after its own CPU passes
//! (`tests/corpus/paddle_inference_ops.json`, recorded by
//! `scripts/paddle_inference_ops.py --record`): the result verifies, its
//! parameters are complete, no `batch_norm` is left, and it has no more
//! compute ops than Paddle's program (`inference`: fewer in total). Whether the results compute the same
//! outputs is checked in Paddle itself by `scripts/paddle_check_passes.py`.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use std::collections::BTreeMap;

use pir_core::walk::Order;
use pir_core::Program;

const PIPELINE: &str = "constant_folding,fold_batch_norm,canonicalize,cse,dce";

/// Ops that do no compute, left out of the counts on both sides (the
/// script's list).
const NOT_COMPUTE: [&str; 12] = [
    "builtin.module",
    "builtin.parameter",
    "builtin.constant",
    "pd_op.full",
    "pd_op.full_int_array",
    "pd_op.assign_value",
    "pd_op.assign_value_",
    "pd_op.data",
    "pd_op.feed",
    "pd_op.fetch",
    "builtin.shadow_output",
    "cf.yield",
];

/// Models where Paddle's count is not a correct program's, with the reason.
const PADDLE_WRONG: [(&str, &str); 1] = [(
    "inplace_in_loop",
    "Paddle's constant_folding_pass folds away the in-place increment of a loop \
     counter that starts as a `full`; its loop never ends",
)];

fn compute_ops(p: &Program) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    p.walk(p.module_op(), Order::Pre, &mut |op| {
        let name = p.op_name_str(op);
        if !NOT_COMPUTE.contains(&name) {
            *counts.entry(name.to_owned()).or_insert(0) += 1;
        }
    });
    counts
}

#[test]
fn deploy_pipeline_leaves_no_more_compute_ops_than_paddle_inference() {
    let (ours, paddle) = compare(PIPELINE);
    assert!(ours <= paddle, "{ours} compute ops in all, Paddle {paddle}");
}

#[test]
fn inference_pipeline_leaves_fewer_compute_ops_than_paddle_inference() {
    let (ours, paddle) = compare("inference");
    assert!(ours < paddle, "{ours} compute ops in all, Paddle {paddle}");
}

/// Runs `pipeline` on every recorded model; fails on a model with more
/// compute ops than Paddle's; returns the totals (ours, Paddle's) over the
/// models whose count of Paddle's is a correct program's.
fn compare(pipeline: &str) -> (u64, u64) {
    let record = pir_corpus::repo_root().join("tests/corpus/paddle_inference_ops.json");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    let paddle = record["models"].as_object().unwrap();
    let models: Vec<_> = pir_corpus::models()
        .into_iter()
        .chain(pir_corpus::control_flow_models())
        .filter(|m| paddle.contains_key(&m.name))
        .collect();
    assert!(!models.is_empty(), "no recorded model in the corpus");
    let mut report = Vec::new();
    let (mut total, mut paddle_total) = (0u64, 0u64);
    for model in models {
        let expected = &paddle[&model.name];
        let Some(limit) = expected["compute_ops"].as_u64() else {
            continue; // Paddle failed on it (recorded as an error)
        };
        let mut m = pir::Model::load(model.json().with_extension("")).unwrap();
        let had_params = !m.parameter_names().is_empty();
        let mut pm = pir_pass::PassManager::parse(pipeline).unwrap();
        pm.instrumentation.verify_each = true;
        pm.run(&mut m.program)
            .unwrap_or_else(|e| panic!("{}: {e}", model.name));
        m.program.verify().unwrap();
        if had_params {
            let params = m.persistable_tensors().unwrap();
            assert_eq!(params.len(), m.parameter_names().len(), "{}", model.name);
        }
        let counts = compute_ops(&m.program);
        let ours: u64 = counts.values().sum();
        let batch_norms = counts
            .iter()
            .filter(|(k, _)| k.starts_with("pd_op.batch_norm"))
            .count();
        assert_eq!(batch_norms, 0, "{}: batch norms left", model.name);
        let excused = PADDLE_WRONG.iter().any(|(n, _)| *n == model.name);
        if excused {
            // Paddle's count is not a correct program's: no total holds it.
            continue;
        }
        total += ours;
        paddle_total += limit;
        if ours > limit {
            report.push(format!(
                "{}: {ours} compute ops, Paddle Inference {limit}: {counts:?}",
                model.name
            ));
        }
    }
    assert!(report.is_empty(), "{pipeline}:\n{}", report.join("\n"));
    (total, paddle_total)
}
