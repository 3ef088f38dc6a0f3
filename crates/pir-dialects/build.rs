//! Compiles `data/pd_op_definitions.json` (facts extracted from Paddle 3.3.1)
//! into the static op table `OP_DEFS` of `op_def.rs`.

use std::collections::HashMap;
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
    println!("cargo:rerun-if-changed=src/op_name_hash.rs");
    let text = std::fs::read_to_string(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", data.display()))?;
    let ops = json
        .get("ops")
        .and_then(Value::as_object)
        .ok_or("missing object `ops`")?;
    let mut names: Vec<&String> = ops.keys().collect();
    names.sort();
    let slots = name_slots(&names)?;
    let mut table = Table::new();
    let defs: Vec<String> = names
        .into_iter()
        .map(|name| table.op_def(name, &ops[name.as_str()]))
        .collect();
    let mut out = table.write(&defs);
    let _ = writeln!(
        out,
        "/// Where each op's name sits in a hash table (see `op_name_hash`).\n\
         static OP_NAME_SLOTS: [u16; {}] = {slots:?};",
        slots.len()
    );
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

#[path = "src/op_name_hash.rs"]
#[allow(dead_code)]
mod op_name_hash;

/// The table of names (`OP_NAME_SLOTS`): for each slot, 1 + the number of
/// the op whose name hashes there (the next free slot after it when that
/// one is taken), or 0 for an empty slot.
fn name_slots(names: &[&String]) -> Result<Vec<u16>, String> {
    use op_name_hash::{first_slot, OP_NAME_SLOTS_LEN};
    if names.len() * 2 > OP_NAME_SLOTS_LEN {
        return Err(format!(
            "{} ops need more than {OP_NAME_SLOTS_LEN} name slots",
            names.len()
        ));
    }
    let mut slots = vec![0u16; OP_NAME_SLOTS_LEN];
    for (index, name) in names.iter().enumerate() {
        let mut slot = first_slot(name.as_bytes(), OP_NAME_SLOTS_LEN);
        while slots[slot] != 0 {
            slot = (slot + 1) % OP_NAME_SLOTS_LEN;
        }
        slots[slot] = u16::try_from(index + 1).map_err(|_| "too many ops for u16 slots")?;
    }
    Ok(slots)
}

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

/// The table being written, free of pointers (see `op_def.rs`): one string
/// of all texts, and for each element type one array of all its lists.
struct Table {
    strings: String,
    text_at: HashMap<String, String>,
    texts: Pool,
    pairs: Pool,
    inputs: Pool,
    attributes: Pool,
    outputs: Pool,
    ints: Pool,
    floats: Pool,
    bools: Pool,
}

/// The array behind the lists of one element type: Rust expressions of its
/// elements, and each list written so far (a list that repeats is shared).
struct Pool {
    name: &'static str,
    element: &'static str,
    items: Vec<String>,
    list_at: HashMap<Vec<String>, String>,
}

impl Pool {
    fn new(name: &'static str, element: &'static str) -> Self {
        Pool {
            name,
            element,
            items: Vec::new(),
            list_at: HashMap::new(),
        }
    }

    /// The `List` expression of `items`.
    fn list(&mut self, items: Vec<String>) -> String {
        if items.is_empty() {
            return "List::new(0, 0)".into();
        }
        if let Some(list) = self.list_at.get(&items) {
            return list.clone();
        }
        let list = format!("List::new({}, {})", self.items.len(), items.len());
        self.items.extend(items.iter().cloned());
        self.list_at.insert(items, list.clone());
        list
    }

    fn write(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "static {}: [{}; {}] = [",
            self.name,
            self.element,
            self.items.len()
        );
        for item in &self.items {
            let _ = writeln!(out, "    {item},");
        }
        out.push_str("];\n");
    }
}

impl Table {
    fn new() -> Self {
        Table {
            strings: String::new(),
            text_at: HashMap::new(),
            texts: Pool::new("TEXT_POOL", "Text"),
            pairs: Pool::new("PAIR_POOL", "(Text, Text)"),
            inputs: Pool::new("INPUT_POOL", "InputDef"),
            attributes: Pool::new("ATTR_POOL", "AttrSpec"),
            outputs: Pool::new("OUTPUT_POOL", "OutputDef"),
            ints: Pool::new("INT_POOL", "i64"),
            floats: Pool::new("FLOAT_POOL", "f64"),
            bools: Pool::new("BOOL_POOL", "bool"),
        }
    }

    /// The `Text` expression of `s`.
    fn text(&mut self, s: &str) -> String {
        if let Some(text) = self.text_at.get(s) {
            return text.clone();
        }
        let text = format!("Text {{ start: {}, len: {} }}", self.strings.len(), s.len());
        self.strings.push_str(s);
        self.text_at.insert(s.to_owned(), text.clone());
        text
    }

    /// The `List<Text>` expression of the strings of `list`.
    fn names(&mut self, list: Option<&Value>) -> String {
        let items = list
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(|s| self.text(s))
                    .collect()
            })
            .unwrap_or_default();
        self.texts.list(items)
    }

    /// The `List<(Text, Text)>` expression of the entries of `map`.
    fn pairs(&mut self, map: Option<&Value>) -> String {
        let items = map
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| {
                        format!(
                            "({}, {})",
                            self.text(k),
                            self.text(v.as_str().unwrap_or(""))
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.pairs.list(items)
    }

    /// The Rust expression of an attribute's default value, if it has one.
    fn default_value(&mut self, attr: &Value, kind: &str) -> Option<String> {
        let d = attr.get("default")?;
        let floats = kind.contains("Float") || kind.contains("Double");
        Some(match d {
            Value::Bool(b) => format!("DefaultValue::Bool({b})"),
            Value::Number(n) if n.is_i64() || n.is_u64() => {
                if floats {
                    format!("DefaultValue::Float({})", float_literal(n.as_f64()?))
                } else {
                    format!("DefaultValue::Int({})", n.as_i64()?)
                }
            }
            Value::Number(n) => format!("DefaultValue::Float({})", float_literal(n.as_f64()?)),
            Value::String(s) => format!("DefaultValue::Str({})", self.text(s)),
            Value::Array(items) => {
                if kind == "AttrKind::Place" {
                    let a = items.first()?.as_i64()?;
                    let b = items.get(1)?.as_i64()?;
                    let c = self.text(items.get(2)?.as_str()?);
                    return Some(format!("DefaultValue::Place({a}, {b}, {c})"));
                }
                let empty_variant = if floats {
                    "FloatList"
                } else if kind.contains("Bool") {
                    "BoolList"
                } else if kind.contains("Str") {
                    "StrList"
                } else {
                    "IntList"
                };
                if items.is_empty() {
                    format!("DefaultValue::{empty_variant}(List::new(0, 0))")
                } else if items.iter().all(Value::is_boolean) {
                    let v = items.iter().map(|b| b.to_string()).collect();
                    format!("DefaultValue::BoolList({})", self.bools.list(v))
                } else if items.iter().all(Value::is_string) {
                    let strs: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                    let v = strs.into_iter().map(|s| self.text(s)).collect();
                    format!("DefaultValue::StrList({})", self.texts.list(v))
                } else if !floats && items.iter().all(|v| v.is_i64()) {
                    let v = items
                        .iter()
                        .filter_map(Value::as_i64)
                        .map(|i| i.to_string())
                        .collect();
                    format!("DefaultValue::IntList({})", self.ints.list(v))
                } else if items.iter().all(Value::is_number) {
                    let v = items
                        .iter()
                        .filter_map(Value::as_f64)
                        .map(float_literal)
                        .collect();
                    format!("DefaultValue::FloatList({})", self.floats.list(v))
                } else {
                    return None;
                }
            }
            _ => return None,
        })
    }

    /// The `OpDef` expression of op `name`.
    fn op_def(&mut self, name: &str, op: &Value) -> String {
        let empty = Vec::new();
        let list = |key: &str| op.get(key).and_then(Value::as_array).unwrap_or(&empty);
        let mut inputs = Vec::new();
        for i in list("inputs") {
            // The C++ type of a mutable attribute's value (`float`, `int64_t`,
            // `std::vector<int64_t>`...): what a Python value given for it is.
            let mutable_type = list("mutable_attributes")
                .iter()
                .find(|m| string(m, "name") == string(i, "name"))
                .map_or("", |m| string(m, "data_type"));
            let value_type = match string(i, "value_type") {
                "" => string(i, "type"),
                declared => declared,
            };
            inputs.push(format!(
                "InputDef {{ name: {}, kind: ValueKind::{}, optional: {}, no_need_buffer: {}, mutable_attribute: {}, mutable_type: {}, variadic: {} }}",
                self.text(string(i, "name")),
                value_kind(value_type),
                flag(i, "optional"),
                flag(i, "no_need_buffer"),
                flag(i, "mutable_attribute"),
                self.text(mutable_type),
                flag(i, "variadic"),
            ));
        }
        let mut attrs = Vec::new();
        for a in list("attributes") {
            let kind = attr_kind(a);
            let default = self
                .default_value(a, &kind)
                .map_or("None".to_owned(), |d| format!("Some({d})"));
            attrs.push(format!(
                "AttrSpec {{ name: {}, kind: {kind}, default: {default} }}",
                self.text(string(a, "name"))
            ));
        }
        let mut outputs = Vec::new();
        for o in list("outputs") {
            outputs.push(format!(
                "OutputDef {{ name: {}, kind: ValueKind::{}, optional: {}, intermediate: {}, variadic: {} }}",
                self.text(string(o, "name")),
                value_kind(string(o, "type")),
                flag(o, "optional"),
                flag(o, "intermediate"),
                flag(o, "variadic"),
            ));
        }
        let num_regions = op
            .get("regions")
            .and_then(|r| r.get("count"))
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let yaml = string(op, "yaml_op_name");
        let runtime = match op.get("runtime") {
            Some(rt) => format!(
                "Some(RuntimeDef {{ infer_meta_func: {}, infer_meta_params: {}, kernel_func: {}, kernel_params: {}, kernel_key_dtype: {}, kernel_key_backend: {} }})",
                self.text(string(rt, "infer_meta_func")),
                self.names(rt.get("infer_meta_param")),
                self.text(string(rt, "kernel_func")),
                self.names(rt.get("kernel_param")),
                self.names(rt.get("kernel_key_dtype")),
                self.names(rt.get("kernel_key_backend")),
            ),
            None => "None".to_owned(),
        };
        format!(
            "OpDef {{ name: {}, dialect: {}, yaml_name: {}, has_yaml_info: {}, inputs: {}, attributes: {}, outputs: {}, inplace: {}, view: {}, traits: {}, interfaces: {}, build_args: {}, num_regions: {num_regions}, runtime: {runtime} }}",
            self.text(name),
            self.text(string(op, "dialect")),
            self.text(yaml),
            !yaml.is_empty(),
            self.inputs.list(inputs),
            self.attributes.list(attrs),
            self.outputs.list(outputs),
            self.pairs(op.get("inplace")),
            self.pairs(op.get("view")),
            self.names(op.get("traits")),
            self.names(op.get("interfaces")),
            self.names(op.get("build_args")),
        )
    }

    /// The Rust source of the table: `OP_DEFS` and what it refers to.
    fn write(self, defs: &[String]) -> String {
        let mut out = String::with_capacity(4 << 20);
        out.push_str("/// Every op of the definition file, sorted by name.\n");
        out.push_str("pub static OP_DEFS: &[OpDef] = &[\n");
        for def in defs {
            let _ = writeln!(out, "    {def},");
        }
        out.push_str("];\n");
        // A `const`, not a `static`: a static `&str` would be one more
        // address for the loader to rewrite; the one function that reads it
        // (`Text::as_str`) holds it.
        let _ = writeln!(out, "const STRINGS: &str = {:?};", self.strings);
        for pool in [
            &self.texts,
            &self.pairs,
            &self.inputs,
            &self.attributes,
            &self.outputs,
            &self.ints,
            &self.floats,
            &self.bools,
        ] {
            pool.write(&mut out);
        }
        out
    }
}
