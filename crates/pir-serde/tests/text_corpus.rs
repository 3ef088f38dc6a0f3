//! The text forms against the corpus, one trial per model and check:
//!
//! - `paddle_text/<model>`: Paddle's print (`<model>.txt`, and the older
//!   releases' own prints `<model>.orig.txt`) parses and prints back byte for
//!   byte.
//! - `typed_json/<model>`: JSON → typed text → JSON gives the original bytes
//!   (for older releases: the bytes the upgraded program writes).
//! - `paddle_json/<model>`: Paddle's print read back and written as JSON
//!   equals Paddle's file under the canonical comparison (attribute lists
//!   compared by name). Where Paddle's print cannot hold what the file has,
//!   [`EXCEPTIONS`] names the model, the parts left out of the comparison and
//!   why; such a model must still differ without the masks (so the list
//!   stays true) and match with them.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use common::{canonical, first_difference, first_json_difference, Masks};
use libtest_mimic::{Arguments, Failed, Trial};
use pir_corpus::Model;

/// Models whose Paddle print loses something their JSON file holds.
const EXCEPTIONS: &[(&str, Masks, &str)] = &[(
    "rnn_cell_loop",
    Masks {
        while_attrs: true,
        array_dims: true,
    },
    "Paddle prints tensor array types without their dims (`pd_op.tensor_array<f32>` for \
         [-1,8]) and `pd_op.while` without its attributes (`struct_name:\"/RNN/\"`)",
)];

fn ctx() -> std::sync::Arc<pir_core::IrContext> {
    pir_dialects::pd_op_context()
}

fn read(path: &std::path::Path) -> Result<Vec<u8>, Failed> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()).into())
}

fn paddle_text_case(path: std::path::PathBuf) -> Result<(), Failed> {
    let text = String::from_utf8(read(&path)?).map_err(|e| e.to_string())?;
    let loaded = pir_serde::read_text(ctx(), &text).map_err(|e| e.to_string())?;
    let printed = loaded.program.to_string();
    if printed != text {
        return Err(first_difference(&text, &printed).into());
    }
    loaded.program.verify().map_err(|e| e.to_string())?;
    Ok(())
}

fn typed_json_case(model: Model) -> Result<(), Failed> {
    let original = read(&model.json())?;
    let loaded =
        pir_serde::read_slice(ctx(), &original, &Default::default()).map_err(|e| e.to_string())?;
    let options = pir_serde::WriteOptions {
        trainable: loaded.trainable,
        readable: loaded.readable,
        ..Default::default()
    };
    // Files of older releases are upgraded on reading: compare with what the
    // upgraded program writes.
    let expected = if model.saved_by.is_some() {
        pir_serde::write_to_vec(&loaded.program, &options).map_err(|e| e.to_string())?
    } else {
        original
    };
    let typed = pir_serde::typed_text(&loaded, false);
    let back = pir_serde::read_text(ctx(), &typed).map_err(|e| e.to_string())?;
    let options = pir_serde::WriteOptions {
        trainable: back.trainable,
        readable: back.readable,
        version: back.version,
    };
    let written = pir_serde::write_to_vec(&back.program, &options).map_err(|e| e.to_string())?;
    if written != expected {
        return Err(first_json_difference(&expected, &written).into());
    }
    // The typed text is a fixed point of parse → print.
    if back.program.to_typed_string() != loaded.program.to_typed_string() {
        return Err("typed text differs after a parse → print round".into());
    }
    // Named by their JSON ids, values read back the same, and the names are
    // the ids the written file gives them.
    let with_ids = pir_serde::typed_text(&loaded, true);
    let back = pir_serde::read_text(ctx(), &with_ids).map_err(|e| e.to_string())?;
    let again = pir_serde::write_to_vec(&back.program, &options).map_err(|e| e.to_string())?;
    if again != expected {
        return Err(format!(
            "with JSON ids: {}",
            first_json_difference(&expected, &again)
        )
        .into());
    }
    let json = String::from_utf8_lossy(&expected);
    let last_id = json
        .rsplit("{\"%\":")
        .filter_map(|tail| tail.split([',', '}']).next()?.parse::<i64>().ok())
        .max()
        .unwrap_or(0);
    if last_id > 0 && !with_ids.contains(&format!("%{last_id}")) {
        return Err(format!("the largest id %{last_id} of the file is not a value name").into());
    }
    Ok(())
}

fn paddle_json_case(model: Model) -> Result<(), Failed> {
    let txt = model.txt().ok_or("no text")?;
    let text = String::from_utf8(read(&txt)?).map_err(|e| e.to_string())?;
    let original = read(&model.json())?;
    let file =
        pir_serde::read_slice(ctx(), &original, &Default::default()).map_err(|e| e.to_string())?;
    let parsed = pir_serde::read_text(ctx(), &text).map_err(|e| e.to_string())?;
    // Paddle's print holds no `trainable` flag: take the file's, as
    // `pir convert --inference` would for an inference file.
    let options = pir_serde::WriteOptions {
        trainable: file.trainable,
        ..Default::default()
    };
    let written = pir_serde::write_to_vec(&parsed.program, &options).map_err(|e| e.to_string())?;
    let exception = EXCEPTIONS.iter().find(|(name, _, _)| *name == model.name);
    let masks = exception.map(|e| e.1).unwrap_or_default();
    let equal = |masks: Masks| -> Result<bool, Failed> {
        Ok(canonical(&written, masks)? == canonical(&original, masks)?)
    };
    if !equal(masks)? {
        return Err(format!(
            "canonical JSON differs from Paddle's file; {}",
            first_json_difference(&original, &written)
        )
        .into());
    }
    if let Some((_, _, why)) = exception {
        if equal(Masks::default())? {
            return Err(format!("listed as an exception ({why}) but equal without masks").into());
        }
    }
    Ok(())
}

/// Whether JSON written from Paddle's print of `model` — with nothing taken
/// from its file, not even `trainable` — equals Paddle's JSON file (attribute
/// lists compared by name, nothing masked).
fn text_gives_paddles_json(model: &Model) -> Result<bool, Failed> {
    let txt = model.txt().ok_or("no text")?;
    let text = String::from_utf8(read(&txt)?).map_err(|e| e.to_string())?;
    let original = read(&model.json())?;
    let parsed = pir_serde::read_text(ctx(), &text).map_err(|e| e.to_string())?;
    let options = pir_serde::WriteOptions {
        trainable: parsed.trainable,
        ..Default::default()
    };
    let written = pir_serde::write_to_vec(&parsed.program, &options).map_err(|e| e.to_string())?;
    Ok(canonical(&written, Masks::default())? == canonical(&original, Masks::default())?)
}

/// How many corpus models' JSON Paddle's print alone may fail to give back
/// exactly: those whose print cannot hold their file (see [`EXCEPTIONS`]).
const TEXT_TO_JSON_AT_MOST_DIFFERENT: usize = 1;

fn text_to_json_count(models: Vec<Model>) -> Result<(), Failed> {
    let mut equal = Vec::new();
    let mut differ = Vec::new();
    for model in &models {
        if text_gives_paddles_json(model)? {
            equal.push(model.name.clone());
        } else {
            differ.push(model.name.clone());
        }
    }
    let total = equal.len() + differ.len();
    eprintln!(
        "textjson: {}/{total} equal Paddle's JSON; differ: {}",
        equal.len(),
        differ.join(", ")
    );
    if differ.len() > TEXT_TO_JSON_AT_MOST_DIFFERENT {
        return Err(format!(
            "{}/{total} equal; at most {TEXT_TO_JSON_AT_MOST_DIFFERENT} may differ",
            equal.len()
        )
        .into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let models = pir_corpus::models();
    let compat = pir_corpus::compat_models();
    for model in models.iter().chain(&compat) {
        let label = model.label();
        for suffix in [".txt", ".orig.txt"] {
            if let Some(path) = model.file(suffix) {
                let name = format!("paddle_text/{label}{}", suffix.trim_end_matches(".txt"));
                trials.push(Trial::test(name, move || paddle_text_case(path)));
            }
        }
        let m = model.clone();
        trials.push(Trial::test(format!("typed_json/{label}"), move || {
            typed_json_case(m)
        }));
    }
    let with_text: Vec<Model> = models
        .iter()
        .chain(&pir_corpus::control_flow_models())
        .filter(|m| m.txt().is_some())
        .cloned()
        .collect();
    trials.push(Trial::test("textjson_count", move || {
        text_to_json_count(with_text)
    }));
    for model in models {
        if model.txt().is_some() {
            let label = model.label();
            trials.push(Trial::test(format!("paddle_json/{label}"), move || {
                paddle_json_case(model)
            }));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
