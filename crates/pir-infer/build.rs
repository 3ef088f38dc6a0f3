//! Compiles the `runtime.infer_meta_func` / `infer_meta_param` facts of
//! `pir-dialects/data/pd_op_definitions.json` (Paddle 3.3.1) into the table
//! `INFER_META` of `table.rs`: op name, InferMeta function, parameter names.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::Value;

fn main() {
    if let Err(e) = generate() {
        eprintln!("error: cannot compile the infer-meta table: {e}");
        std::process::exit(1);
    }
}

fn generate() -> Result<(), String> {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?;
    let data = PathBuf::from(&manifest).join("../pir-dialects/data/pd_op_definitions.json");
    println!("cargo:rerun-if-changed={}", data.display());
    println!("cargo:rerun-if-changed=build.rs");
    let text = std::fs::read_to_string(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", data.display()))?;
    let ops = json
        .get("ops")
        .and_then(Value::as_object)
        .ok_or("missing object `ops`")?;
    let mut names: Vec<&String> = ops.keys().collect();
    names.sort();
    let mut out = String::new();
    out.push_str("/// `(op, InferMeta function, parameters)` of every op that names a function, sorted by op.\n");
    out.push_str("pub static INFER_META: &[(&str, &str, &[&str])] = &[\n");
    for name in names {
        let Some(rt) = ops[name.as_str()].get("runtime") else {
            continue;
        };
        let func = rt
            .get("infer_meta_func")
            .and_then(Value::as_str)
            .unwrap_or("");
        if func.is_empty() {
            continue;
        }
        let params: Vec<String> = rt
            .get("infer_meta_param")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(|s| format!("{s:?}"))
                    .collect()
            })
            .unwrap_or_default();
        let _ = writeln!(out, "    ({name:?}, {func:?}, &[{}]),", params.join(", "));
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").map_err(|e| e.to_string())?;
    let path = PathBuf::from(&out_dir).join("infer_meta_table.rs");
    std::fs::write(&path, out).map_err(|e| format!("{}: {e}", path.display()))
}
