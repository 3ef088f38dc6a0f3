//! Any bytes that parse as rules are compiled and applied greedily to small
//! models of the corpus: the driver stops (converged, a limit, or a rule's
//! error), never panics, overflows the stack or runs out of memory, and
//! the program stays printable.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use pir_core::IrContext;
use pir_pass::drr::RuleSet;
use pir_pass::rewrite::{apply_greedily, FrozenPatternSet, GreedyConfig};

/// One context for all runs: building one costs more than a run.
fn ctx() -> Arc<IrContext> {
    static CTX: OnceLock<Arc<IrContext>> = OnceLock::new();
    CTX.get_or_init(pir_dialects::pd_op_context).clone()
}

/// The models rules are applied to: an MLP (matmul, add, relu, scale) and
/// LeNet (conv2d, pool2d, flatten).
const MODELS: [&[u8]; 2] = [
    include_bytes!("../../../../tests/corpus/mlp_tiny.json"),
    include_bytes!("../../../../tests/corpus/lenet.json"),
];

fuzz_target!(|data: &[u8]| {
    // The first byte picks the model; the rest is the rule text.
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let Ok(rules) = RuleSet::parse(&text, "fuzz.drr") else {
        return;
    };
    let model = MODELS[usize::from(pick) % MODELS.len()];
    let Ok(mut loaded) = pir_serde::read_slice(ctx(), model, &Default::default()) else {
        panic!("the corpus model does not read");
    };
    let set = FrozenPatternSet::new(rules.patterns());
    let p = &mut loaded.program;
    let module = p.module_op();
    let config = GreedyConfig::default();
    let outcome = apply_greedily(p, module, &set, &config);
    assert!(outcome.created <= outcome.max_created + 1024, "{outcome:?}");
    let _ = outcome.describe(|i| format!("rule {i}"));
    let _ = p.verify();
    let _ = p.to_string();
});
