//! Data-driven tests over the corpus of files written by Paddle: one test per
//! model of the corpus index (and per compat model), so a failure names the file.
//!
//! - `print/<model>`: reading `<model>.json` and printing gives exactly the text
//!   Paddle printed for it (`<model>.txt`), byte for byte.
//! - `verify/<model>`: the loaded program passes the verifier.

use libtest_mimic::{Arguments, Failed, Trial};
use pir_corpus::Model;

fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!("first difference at line {}:\n  paddle: {e}\n  ours:   {a}", i + 1);
        }
    }
    format!(
        "texts differ in length: paddle {} lines / {} bytes, ours {} lines / {} bytes",
        expected.lines().count(),
        expected.len(),
        actual.lines().count(),
        actual.len()
    )
}

fn load(model: &Model) -> Result<pir_serde::LoadedProgram, Failed> {
    let ctx = pir_dialects::pd_op_context();
    pir_serde::read_file(ctx, &model.json(), &Default::default()).map_err(|e| format!("{}: {e}", model.label()).into())
}

fn print_case(model: Model) -> Result<(), Failed> {
    let Some(txt) = model.txt() else { return Ok(()) };
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
    loaded.program.verify().map_err(|e| Failed::from(e.to_string()))
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    // Compat models print as Paddle 3.3 prints them after its upgrade; that
    // needs the version patches, so only current-version files are listed here.
    for model in pir_corpus::models() {
        if model.txt().is_some() {
            let m = model.clone();
            trials.push(Trial::test(format!("print/{}", model.label()), move || print_case(m)));
        }
        let m = model.clone();
        trials.push(Trial::test(format!("verify/{}", model.label()), move || verify_case(m)));
    }
    libtest_mimic::run(&args, trials).exit();
}
