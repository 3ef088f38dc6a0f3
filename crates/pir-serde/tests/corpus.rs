//! Data-driven tests over the corpus of files written by Paddle: one test per
//! model of the corpus index (and per compat model), so a failure names the file.
//!
//! - `print/<model>`: reading `<model>.json` and printing gives exactly the text
//!   Paddle printed for it (`<model>.txt`), byte for byte.
//! - `verify/<model>`: the loaded program passes the verifier.
//! - `upgrade/<release>/<model>`: an old release's file, read (its version
//!   patches applied) and written again, equals what Paddle 3.3.1 wrote for it
//!   (`.upgraded.json`) up to the order of attributes inside `A`/`OA` lists —
//!   the one thing Paddle's own re-save reorders.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

mod common;

use common::{canonical, first_difference, first_json_difference, Masks};
use libtest_mimic::{Arguments, Failed, Trial};
use pir_corpus::Model;

fn load(model: &Model) -> Result<pir_serde::LoadedProgram, Failed> {
    let ctx = pir_dialects::pd_op_context();
    pir_serde::read_file(ctx, &model.json(), &Default::default())
        .map_err(|e| format!("{}: {e}", model.label()).into())
}

fn print_case(model: Model) -> Result<(), Failed> {
    let Some(txt) = model.txt() else {
        return Ok(());
    };
    let expected = std::fs::read_to_string(&txt).map_err(|e| format!("{}: {e}", txt.display()))?;
    let loaded = load(&model)?;
    let actual = loaded.program.to_string();
    if actual != expected {
        return Err(first_difference(&expected, &actual).into());
    }
    Ok(())
}

fn verify_case(model: Model) -> Result<(), Failed> {
    let loaded = load(&model)?;
    loaded
        .program
        .verify()
        .map_err(|e| Failed::from(e.to_string()))
}

fn upgrade_case(model: Model) -> Result<(), Failed> {
    let Some(expected_path) = model.file(".upgraded.json") else {
        return Ok(());
    };
    let loaded = load(&model)?;
    let options = pir_serde::WriteOptions {
        trainable: loaded.trainable,
        ..Default::default()
    };
    let written = pir_serde::write_to_vec(&loaded.program, &options)
        .map_err(|e| Failed::from(e.to_string()))?;
    let expected =
        std::fs::read(&expected_path).map_err(|e| format!("{}: {e}", expected_path.display()))?;
    if canonical(&written, Masks::default())? != canonical(&expected, Masks::default())? {
        return Err(format!(
            "differs from Paddle's upgrade: {}",
            first_json_difference(&expected, &written)
        )
        .into());
    }
    Ok(())
}

/// The trial `<kind>/<model>`, running `case` on the model.
fn trial(kind: &str, model: &Model, case: fn(Model) -> Result<(), Failed>) -> Trial {
    let m = model.clone();
    Trial::test(format!("{kind}/{}", model.label()), move || case(m))
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for model in pir_corpus::models() {
        if model.txt().is_some() {
            trials.push(trial("print", &model, print_case));
        }
        trials.push(trial("verify", &model, verify_case));
    }
    for model in pir_corpus::compat_models() {
        if model.txt().is_some() {
            trials.push(trial("print", &model, print_case));
        }
        trials.push(trial("upgrade", &model, upgrade_case));
        trials.push(trial("verify", &model, verify_case));
    }
    libtest_mimic::run(&args, trials).exit();
}
