//! Compiles `data/pd_op_definitions.json` (facts extracted from Paddle 3.3.1)
//! into the static op table `OP_DEFS` of `op_def.rs`.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::Value;

fn main() {
    if let Err(e) = generate() {
        eprintln!("error: cannot compile the op definitions: {e}");
        std::process::exit(1);
    }
}

fn generate() -> Result<(), String> {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?;
    let data = PathBuf::from(&manifest).join("data/pd_op_definitions.json");
    println!("cargo:rerun-if-changed={}", data.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build_views.rs");
    println!("cargo:rerun-if-changed=build_attr_types.rs");
    let text = std::fs::read_to_string(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", data.display()))?;
    let ops = json
        .get("ops")
        .and_then(Value::as_object)
        .ok_or("missing object `ops`")?;
    let mut names: Vec<&String> = ops.keys().collect();
    names.sort();
    let mut out = String::with_capacity(4 << 20);
    out.push_str("/// Every op of the definition file, sorted by name.\n");
    out.push_str("pub static OP_DEFS: &[OpDef] = &[\n");
    for name in names {
        let op = &ops[name.as_str()];
        op_def(&mut out, name, op).map_err(|e| format!("op `{name}`: {e}"))?;
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").map_err(|e| e.to_string())?;
    let path = PathBuf::from(&out_dir).join("op_defs.rs");
    std::fs::write(&path, out).map_err(|e| format!("{}: {e}", path.display()))?;
    let views = views::generate(ops)?;
    let path = PathBuf::from(&out_dir).join("op_views.rs");
    std::fs::write(&path, views).map_err(|e| format!("{}: {e}", path.display()))
}

#[path = "build_views.rs"]
mod views;

#[path = "build_attr_types.rs"]
mod attr_types;

fn string<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn value_kind(ty: &str) -> &'static str {
    match ty {
        "paddle::dialect::DenseTensorType" => "DenseTensor",
        "paddle::dialect::SelectedRowsType" => "SelectedRows",
        "paddle::dialect::DenseTensorArrayType" => "DenseTensorArray",
        "paddle::dialect::SparseCooTensorType" => "SparseCoo",
        "paddle::dialect::SparseCsrTensorType" => "SparseCsr",
        "pir::VectorType<paddle::dialect::DenseTensorType>" => "VectorDenseTensor",
        "pir::VectorType<paddle::dialect::SelectedRowsType>" => "VectorSelectedRows",
        "pir::VectorType<paddle::dialect::DenseTensorArrayType>" => "VectorDenseTensorArray",
        _ => "Any",
    }
}

fn attr_kind(attr: &Value) -> String {
    attr_types::attr_type(string(attr, "type"), string(attr, "data_type")).kind
}

fn float_literal(f: f64) -> String {
    if f.is_nan() {
        "f64::NAN".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "f64::INFINITY".into()
        } else {
            "f64::NEG_INFINITY".into()
        }
    } else {
        format!("{f:?}")
    }
}

/// The Rust expression of an attribute's default value, if it has one.
fn default_value(attr: &Value, kind: &str) -> Option<String> {
    let d = attr.get("default")?;
    Some(match d {
        Value::Bool(b) => format!("DefaultValue::Bool({b})"),
        Value::Number(n) if n.is_i64() || n.is_u64() => {
            if kind.contains("Float") || kind.contains("Double") {
                format!("DefaultValue::Float({})", float_literal(n.as_f64()?))
            } else {
                format!("DefaultValue::Int({})", n.as_i64()?)
            }
        }
        Value::Number(n) => format!("DefaultValue::Float({})", float_literal(n.as_f64()?)),
        Value::String(s) => format!("DefaultValue::Str({s:?})"),
        Value::Array(items) => {
            if kind == "AttrKind::Place" {
                let a = items.first()?.as_i64()?;
                let b = items.get(1)?.as_i64()?;
                let c = items.get(2)?.as_str()?;
                return Some(format!("DefaultValue::Place({a}, {b}, {c:?})"));
            }
            let floats = kind.contains("Float") || kind.contains("Double");
            if items.is_empty() {
                return Some(
                    if floats {
                        "DefaultValue::FloatList(&[])"
                    } else if kind.contains("Bool") {
                        "DefaultValue::BoolList(&[])"
                    } else if kind.contains("Str") {
                        "DefaultValue::StrList(&[])"
                    } else {
                        "DefaultValue::IntList(&[])"
                    }
                    .into(),
                );
            }
            if items.iter().all(Value::is_boolean) {
                let v: Vec<String> = items.iter().map(|b| b.to_string()).collect();
                format!("DefaultValue::BoolList(&[{}])", v.join(", "))
            } else if items.iter().all(Value::is_string) {
                let v: Vec<String> = items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|s| format!("{s:?}"))
                    .collect();
                format!("DefaultValue::StrList(&[{}])", v.join(", "))
            } else if !floats && items.iter().all(|v| v.is_i64()) {
                let v: Vec<String> = items
                    .iter()
                    .filter_map(Value::as_i64)
                    .map(|i| i.to_string())
                    .collect();
                format!("DefaultValue::IntList(&[{}])", v.join(", "))
            } else if items.iter().all(Value::is_number) {
                let v: Vec<String> = items
                    .iter()
                    .filter_map(Value::as_f64)
                    .map(float_literal)
                    .collect();
                format!("DefaultValue::FloatList(&[{}])", v.join(", "))
            } else {
                return None;
            }
        }
        _ => return None,
    })
}

fn pairs(map: Option<&Value>) -> String {
    let Some(map) = map.and_then(Value::as_object) else {
        return "&[]".into();
    };
    let items: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("({k:?}, {:?})", v.as_str().unwrap_or("")))
        .collect();
    format!("&[{}]", items.join(", "))
}

fn names(list: Option<&Value>) -> String {
    let items: Vec<String> = list
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(|s| format!("{s:?}"))
                .collect()
        })
        .unwrap_or_default();
    format!("&[{}]", items.join(", "))
}

fn op_def(out: &mut String, name: &str, op: &Value) -> Result<(), String> {
    let empty = Vec::new();
    let list = |key: &str| op.get(key).and_then(Value::as_array).unwrap_or(&empty);
    let mut inputs = String::new();
    for i in list("inputs") {
        // The C++ type of a mutable attribute's value (`float`, `int64_t`,
        // `std::vector<int64_t>`...): what a Python value given for it is.
        let mutable_type = list("mutable_attributes")
            .iter()
            .find(|m| string(m, "name") == string(i, "name"))
            .map_or("", |m| string(m, "data_type"));
        let _ = write!(
            inputs,
            "InputDef {{ name: {:?}, kind: ValueKind::{}, optional: {}, no_need_buffer: {}, mutable_attribute: {}, mutable_type: {mutable_type:?}, variadic: {} }}, ",
            string(i, "name"),
            value_kind(if string(i, "value_type").is_empty() { string(i, "type") } else { string(i, "value_type") }),
            flag(i, "optional"),
            flag(i, "no_need_buffer"),
            flag(i, "mutable_attribute"),
            flag(i, "variadic"),
        );
    }
    let mut attrs = String::new();
    for a in list("attributes") {
        let kind = attr_kind(a);
        let default = default_value(a, &kind).map_or("None".to_owned(), |d| format!("Some({d})"));
        let _ = write!(
            attrs,
            "AttrSpec {{ name: {:?}, kind: {kind}, default: {default} }}, ",
            string(a, "name")
        );
    }
    let mut outputs = String::new();
    for o in list("outputs") {
        let _ = write!(
            outputs,
            "OutputDef {{ name: {:?}, kind: ValueKind::{}, optional: {}, intermediate: {}, variadic: {} }}, ",
            string(o, "name"),
            value_kind(string(o, "type")),
            flag(o, "optional"),
            flag(o, "intermediate"),
            flag(o, "variadic"),
        );
    }
    let num_regions = op
        .get("regions")
        .and_then(|r| r.get("count"))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let yaml = string(op, "yaml_op_name");
    let runtime = match op.get("runtime") {
        Some(rt) => format!(
            "Some(RuntimeDef {{ infer_meta_func: {:?}, infer_meta_params: {}, kernel_func: {:?}, kernel_params: {}, kernel_key_dtype: {}, kernel_key_backend: {} }})",
            string(rt, "infer_meta_func"),
            names(rt.get("infer_meta_param")),
            string(rt, "kernel_func"),
            names(rt.get("kernel_param")),
            names(rt.get("kernel_key_dtype")),
            names(rt.get("kernel_key_backend")),
        ),
        None => "None".to_owned(),
    };
    let _ = writeln!(
        out,
        "    OpDef {{ name: {name:?}, dialect: {:?}, yaml_name: {yaml:?}, has_yaml_info: {}, inputs: &[{inputs}], attributes: &[{attrs}], outputs: &[{outputs}], inplace: {}, view: {}, traits: {}, interfaces: {}, build_args: {}, num_regions: {num_regions}, runtime: {runtime} }},",
        string(op, "dialect"),
        !yaml.is_empty(),
        pairs(op.get("inplace")),
        pairs(op.get("view")),
        names(op.get("traits")),
        names(op.get("interfaces")),
        names(op.get("build_args")),
    );
    Ok(())
}
