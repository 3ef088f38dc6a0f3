//! Every `.pdmodel` of the shared corpora (`legacy-corpus`: saved by Paddle
//! 2.6.2; `paddle-corpus`: saved by 3.3.1 with the legacy API) and of
//! `tests/corpus/legacy`, translated and printed byte for byte as Paddle
//! 3.3.1's own translation, `NAME.translated.txt`. (The JSON of the same
//! translations, `NAME.translated.json`, is compared in
//! `crates/pir/tests/legacy_corpus.rs`: writing it is `pir-serde`'s.)
//!
//! `tests/corpus/legacy/unsupported` holds models of legacy ops Paddle
//! 3.3.1 cannot translate (its error in `NAME.paddle_error.txt`): each must
//! fail here too, with an error naming the op.
//!
//! Every model is translated in one context shared by all (what one
//! translation leaves for the next in a context must not change the
//! result).
//!
//! Skips with a message when neither corpus is present.

#[path = "support/corpus.rs"]
mod corpus;

use std::path::Path;

use corpus::{first_difference, sibling, stem};
use libtest_mimic::{Arguments, Failed, Trial};

/// The context every print check translates in.
static SHARED: std::sync::LazyLock<std::sync::Arc<pir_core::IrContext>> =
    std::sync::LazyLock::new(pir_dialects::pd_op_context);

/// The model fails to translate, naming its op: `u_<op type>`, with `_v1`
/// for the 1.x version of an op (`u_top_k_v1` holds a `top_k`).
fn check_unsupported(model: &Path) -> Result<(), Failed> {
    let stem = stem(model);
    let name = stem.strip_prefix("u_").ok_or("not named u_<op type>")?;
    let op_type = name.strip_suffix("_v1").unwrap_or(name);
    let bytes = std::fs::read(model).map_err(|e| e.to_string())?;
    let arena = pir_legacy::DescArena::default();
    let desc = pir_legacy::ProgramDesc::decode(&bytes, &arena).map_err(|e| e.to_string())?;
    if !desc.blocks[0].ops.iter().any(|op| op.op_type == op_type) {
        return Err(format!("{stem} holds no `{op_type}` op").into());
    }
    let ctx = pir_dialects::pd_op_context();
    match pir_legacy::load_file(model, ctx, Default::default()) {
        Ok(_) => Err(format!(
            "translated `{op_type}`, which Paddle 3.3.1 cannot: {}",
            std::fs::read_to_string(sibling(model, "paddle_error.txt")).unwrap_or_default()
        )
        .into()),
        Err(e) if e.to_string().contains(&format!("`{op_type}`")) => Ok(()),
        Err(e) => Err(format!("error does not name `{op_type}`: {e}").into()),
    }
}

fn check_print(model: &Path) -> Result<(), Failed> {
    let program = pir_legacy::load_file(model, SHARED.clone(), Default::default())
        .map_err(|e| e.to_string())?;
    let got = program.to_string();
    let want =
        std::fs::read_to_string(sibling(model, "translated.txt")).map_err(|e| e.to_string())?;
    if got.trim_end() != want.trim_end() {
        return Err(first_difference(&got, &want).into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let models = corpus::translated_models();
    if models.is_empty() {
        eprintln!(
            "legacy corpus not found (../shared/legacy-corpus, ../shared/paddle-corpus): skipping"
        );
        return;
    }
    let mut trials = Vec::new();
    for m in models {
        trials.push(Trial::test(format!("print::{}", stem(&m)), move || {
            check_print(&m)
        }));
    }
    let unsupported = pir_corpus::repo_root().join("tests/corpus/legacy/unsupported");
    for m in corpus::pdmodels_in(&unsupported) {
        trials.push(Trial::test(
            format!("unsupported::{}", stem(&m)),
            move || check_unsupported(&m),
        ));
    }
    libtest_mimic::run(&args, trials).exit();
}
