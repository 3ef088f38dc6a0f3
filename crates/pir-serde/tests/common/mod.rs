//! Helpers shared by the corpus tests: comparing texts and JSON documents.
#![allow(dead_code)] // each test binary uses a part

use libtest_mimic::Failed;
use pir_serde::patch::Json;

/// The first differing line of two texts, for a failure message.
pub fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!(
                "first difference at line {}:\n  expected: {e}\n  actual:   {a}",
                i + 1
            );
        }
    }
    format!(
        "texts differ in length: expected {} lines / {} bytes, actual {} lines / {} bytes",
        expected.lines().count(),
        expected.len(),
        actual.lines().count(),
        actual.len()
    )
}

/// The first differing bytes of two JSON texts, with some context.
pub fn first_json_difference(expected: &[u8], actual: &[u8]) -> String {
    let (w, e) = (
        String::from_utf8_lossy(actual),
        String::from_utf8_lossy(expected),
    );
    let at = w
        .bytes()
        .zip(e.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(w.len().min(e.len()));
    let lo = at.saturating_sub(120);
    format!(
        "differs near byte {at}:\n  actual:   {}\n  expected: {}",
        w.get(lo..(at + 80).min(w.len())).unwrap_or(""),
        e.get(lo..(at + 80).min(e.len())).unwrap_or("")
    )
}

/// Parts of a model a comparison leaves out, because the text they came
/// from cannot hold them.
#[derive(Copy, Clone, Debug, Default)]
pub struct Masks {
    /// Leave out the attributes of `pd_op.while` (Paddle prints none).
    pub while_attrs: bool,
    /// Leave out the dims of tensor array types (Paddle prints only the
    /// element type).
    pub array_dims: bool,
}

/// A JSON document with every `A`/`OA` attribute list sorted by name (the
/// canonical comparison) and the masked parts normalised.
pub fn canonical(bytes: &[u8], masks: Masks) -> Result<Json, Failed> {
    let doc = pir_json::parse(bytes).map_err(|e| Failed::from(e.to_string()))?;
    let mut tree = Json::from_value(doc.root());
    normalise(&mut tree, masks);
    Ok(tree)
}

fn normalise(j: &mut Json, masks: Masks) {
    match j {
        Json::Obj(members) => {
            let tag = members
                .iter()
                .find(|(k, _)| k == "#")
                .and_then(|(_, v)| v.as_str().map(str::to_owned));
            if masks.while_attrs && tag.as_deref() == Some("1.while") {
                members.retain(|(k, _)| k != "A" && k != "OA");
            }
            if masks.array_dims && tag.as_deref() == Some("1.t_dense_tensor_array") {
                if let Some((_, Json::Arr(data))) = members.iter_mut().find(|(k, _)| k == "D") {
                    if data.len() > 1 {
                        data[1] = Json::Arr(Vec::new());
                    }
                }
            }
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
                normalise(v, masks);
            }
        }
        Json::Arr(items) => items.iter_mut().for_each(|i| normalise(i, masks)),
        _ => {}
    }
}
