//! Every fact has its value's rank: a rule storing a fact of another rank
//! than the type's would let the analysis call dims of different axes
//! equal. Checked over every program of the corpus in use (its models,
//! compatibility and control-flow models) and the Paddle cases: as passes
//! infer them no fact may differ (the analysis replaces such a fact by its
//! type's shape), as Paddle's print does only the ops where Paddle's own
//! rule does.

use std::path::{Path, PathBuf};

use pir_core::Program;
use pir_serde::ReadOptions;
use pir_shape::{Assume, RankMismatch, ShapeAnalysis};

mod common;

/// Ops whose fact's rank differs from their type's in Paddle's own print
/// (its rule disagrees with the InferMeta that typed the op, or the
/// program's attributes with its types), reproduced because `pir shapes`
/// prints what Paddle prints; `fetch` and `while` forward such facts.
/// Each is pinned by a Paddle case or corpus model printed byte for byte.
const PADDLE_RANK_QUIRKS: &[&str] = &[
    "pd_op.array_pop",
    "pd_op.edit_distance",
    "pd_op.eig",
    "pd_op.fetch",
    "pd_op.flash_attn",
    "pd_op.flash_attn_unpadded",
    "pd_op.flashmask_attention",
    "pd_op.full",
    "pd_op.fused_rms_norm_quant",
    "pd_op.lstsq",
    "pd_op.lu",
    "pd_op.nanmedian",
    "pd_op.read_file",
    "pd_op.rnn",
    "pd_op.slogdet",
    "pd_op.while",
];

fn corpus_programs() -> Vec<PathBuf> {
    pir_corpus::models()
        .into_iter()
        .chain(pir_corpus::compat_models())
        .chain(pir_corpus::control_flow_models())
        .map(|m| m.json())
        .filter(|p| p.exists())
        .collect()
}

fn load(path: &Path) -> Program {
    let ctx = pir_dialects::pd_op_context();
    if path.extension().is_some_and(|e| e == "json") {
        pir_serde::read_file(ctx, path, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .program
    } else {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
        Program::parse(&ctx, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

fn describe(path: &Path, m: &RankMismatch) -> String {
    format!(
        "{}: {} (value {:?}, item {}): fact of rank {}, type of rank {}",
        path.display(),
        m.name,
        m.value,
        m.item,
        m.fact_rank,
        m.type_rank
    )
}

#[test]
fn every_fact_has_its_types_rank() {
    let mut programs = corpus_programs();
    programs.extend(common::paddle_case_programs());
    assert!(!programs.is_empty());
    let mut wrong = Vec::new();
    for path in &programs {
        let program = load(path);
        for assume in [Assume::Every, Assume::TopLevelExcept(Default::default())] {
            let passes = matches!(assume, Assume::TopLevelExcept(_));
            let shapes = ShapeAnalysis::run_assuming(&program, assume);
            for m in shapes.rank_mismatches(&program) {
                if passes || !PADDLE_RANK_QUIRKS.contains(&m.name.as_str()) {
                    let mode = if passes { "for passes" } else { "as Paddle" };
                    wrong.push(format!("{mode}: {}", describe(path, &m)));
                }
            }
        }
    }
    eprintln!("{} programs checked", programs.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
