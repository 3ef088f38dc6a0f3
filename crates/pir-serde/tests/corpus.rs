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

use libtest_mimic::{Arguments, Failed, Trial};
use pir_corpus::Model;

fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!(
                "first difference at line {}:\n  paddle: {e}\n  ours:   {a}",
                i + 1
            );
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

/// A JSON tree with every `A`/`OA` attribute list sorted by name.
fn canonical(bytes: &[u8]) -> Result<pir_serde::patch::Json, Failed> {
    use pir_serde::patch::Json;
    fn sort_lists(j: &mut Json) {
        match j {
            Json::Obj(members) => {
                for (k, v) in members.iter_mut() {
                    if k == "A" || k == "OA" {
                        if let Json::Arr(items) = v {
                            if items.iter().all(|e| e.get("N").is_some()) {
                                items.sort_by(|a, b| {
                                    a.get("N")
                                        .and_then(Json::as_str)
                                        .cmp(&b.get("N").and_then(Json::as_str))
                                });
                            }
                        }
                    }
                    sort_lists(v);
                }
            }
            Json::Arr(items) => items.iter_mut().for_each(sort_lists),
            _ => {}
        }
    }
    let doc = pir_json::parse(bytes).map_err(|e| Failed::from(e.to_string()))?;
    let mut tree = Json::from_value(doc.root());
    sort_lists(&mut tree);
    Ok(tree)
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
    if canonical(&written)? != canonical(&expected)? {
        let w = String::from_utf8_lossy(&written).into_owned();
        let e = String::from_utf8_lossy(&expected).into_owned();
        let at = w
            .bytes()
            .zip(e.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let lo = at.saturating_sub(120);
        return Err(format!(
            "differs from Paddle's upgrade near byte {at}:\n  ours:   {}\n  paddle: {}",
            w.get(lo..(at + 80).min(w.len())).unwrap_or(""),
            e.get(lo..(at + 80).min(e.len())).unwrap_or("")
        )
        .into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for model in pir_corpus::models() {
        if model.txt().is_some() {
            let m = model.clone();
            trials.push(Trial::test(format!("print/{}", model.label()), move || {
                print_case(m)
            }));
        }
        let m = model.clone();
        trials.push(Trial::test(
            format!("verify/{}", model.label()),
            move || verify_case(m),
        ));
    }
    for model in pir_corpus::compat_models() {
        if model.txt().is_some() {
            let m = model.clone();
            trials.push(Trial::test(format!("print/{}", model.label()), move || {
                print_case(m)
            }));
        }
        let m = model.clone();
        trials.push(Trial::test(
            format!("upgrade/{}", model.label()),
            move || upgrade_case(m),
        ));
        let m = model.clone();
        trials.push(Trial::test(
            format!("verify/{}", model.label()),
            move || verify_case(m),
        ));
    }
    libtest_mimic::run(&args, trials).exit();
}
