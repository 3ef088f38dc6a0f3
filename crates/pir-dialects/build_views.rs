//! Generates the typed op views (`ops.rs`) from the op definitions: one struct
//! per `pd_op` op with named accessors and a `build` helper. Every method is a
//! one-line call into the generic helpers of `views_support.rs`, so the
//! generated code stays small.

use std::collections::HashSet;
use std::fmt::Write as _;

use serde_json::{Map, Value};

const KEYWORDS: [&str; 40] = [
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "yield", "gen",
];

/// A Rust identifier for a Paddle name: keywords become raw identifiers
/// (`r#type`), those that cannot be raw get a trailing underscore.
fn ident(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let cleaned = if cleaned.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{cleaned}")
    } else {
        cleaned
    };
    match cleaned.as_str() {
        "self" | "Self" | "super" | "crate" => format!("{cleaned}_"),
        k if KEYWORDS.contains(&k) => format!("r#{k}"),
        _ => cleaned,
    }
}

fn camel(name: &str) -> String {
    let base = name.trim_start_matches("pd_op.");
    let mut out: String = base
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect();
    if base.ends_with('_') {
        out.push_str("Inplace");
    }
    out.push_str("Op");
    out
}

/// (getter return type, getter helper, build parameter type, build maker).
fn attr_rust(attr: &Value) -> super::attr_types::View {
    let ty = attr.get("type").and_then(Value::as_str).unwrap_or("");
    let data_type = attr.get("data_type").and_then(Value::as_str).unwrap_or("");
    super::attr_types::attr_type(ty, data_type).view
}

fn list<'a>(op: &'a Value, key: &str) -> &'a [Value] {
    op.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn name_of(v: &Value) -> &str {
    v.get("name").and_then(Value::as_str).unwrap_or("")
}

/// The source of every view.
pub fn generate(ops: &Map<String, Value>) -> Result<String, String> {
    let mut out = String::with_capacity(8 << 20);
    let mut structs = HashSet::new();
    let mut names: Vec<&String> = ops.keys().collect();
    names.sort();
    for name in names {
        let op = &ops[name.as_str()];
        if !name.starts_with("pd_op.") || op.get("yaml_op_name").is_none() {
            continue;
        }
        let mut sname = camel(name);
        while !structs.insert(sname.clone()) {
            sname.insert(sname.len() - 2, '_');
        }
        view(&mut out, name, &sname, op);
    }
    Ok(out)
}

fn view(out: &mut String, name: &str, sname: &str, op: &Value) {
    let inputs = list(op, "inputs");
    let attrs = list(op, "attributes");
    let outputs = list(op, "outputs");
    let join = |items: &[Value]| items.iter().map(name_of).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        out,
        "/// `{name}` — inputs: {}; attributes: {}; outputs: {}.\n#[derive(Copy, Clone, Debug, PartialEq, Eq)]\npub struct {sname}(pub OpId);\n\nimpl {sname} {{\n    /// The op's name.\n    pub const NAME: &'static str = {name:?};\n\n    /// The view of `op` if it is a `{name}`.\n    pub fn from_op(p: &Program, op: OpId) -> Option<Self> {{\n        (p.op_name_str(op) == Self::NAME).then_some(Self(op))\n    }}",
        if inputs.is_empty() { "none".into() } else { join(inputs) },
        if attrs.is_empty() { "none".into() } else { join(attrs) },
        if outputs.is_empty() { "none".into() } else { join(outputs) },
    );
    let mut used: HashSet<String> = ["from_op", "build", "NAME"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut unique = |base: String, suffix: &str| {
        let mut n = base.clone();
        if used.contains(&n) {
            n = format!("{}_{suffix}", base.trim_start_matches("r#"));
        }
        used.insert(n.clone());
        n
    };
    for (i, input) in inputs.iter().enumerate() {
        let m = unique(ident(name_of(input)), "input");
        let _ = writeln!(out, "\n    /// Input `{}` (operand {i}).\n    pub fn {m}(self, p: &Program) -> Option<ValueId> {{\n        operand(p, self.0, {i})\n    }}", name_of(input));
    }
    for attr in attrs {
        let (ret, getter, _, _) = attr_rust(attr);
        let m = unique(ident(name_of(attr)), "attr");
        let _ = writeln!(out, "\n    /// Attribute `{0}`.\n    pub fn {m}(self, p: &Program) -> Option<{ret}> {{\n        {getter}(p, self.0, {0:?})\n    }}", name_of(attr));
    }
    for (i, output) in outputs.iter().enumerate() {
        let m = unique(ident(name_of(output)), "out");
        let _ = writeln!(out, "\n    /// Output `{}` (result {i}).\n    pub fn {m}(self, p: &Program) -> ValueId {{\n        p.result(self.0, {i})\n    }}", name_of(output));
    }
    // build(b, inputs..., attributes..., result_types)
    let mut params = String::new();
    let mut operands = String::new();
    let mut used_params: HashSet<String> = ["b", "result_types", "ctx"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut param = |n: &str| {
        let mut id = ident(n);
        while used_params.contains(&id) {
            id = format!("{}_", id.trim_start_matches("r#"));
        }
        used_params.insert(id.clone());
        id
    };
    for input in inputs {
        let id = param(name_of(input));
        let optional = input
            .get("optional")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if optional {
            let _ = write!(params, ", {id}: Option<ValueId>");
            let _ = write!(operands, "{id}, ");
        } else {
            let _ = write!(params, ", {id}: ValueId");
            let _ = write!(operands, "Some({id}), ");
        }
    }
    let mut makers = String::new();
    for attr in attrs {
        let (_, _, ty, maker) = attr_rust(attr);
        let id = param(name_of(attr));
        let _ = write!(params, ", {id}: {ty}");
        let _ = write!(
            makers,
            "(ctx.symbol({:?}), {maker}(ctx, {id})), ",
            name_of(attr)
        );
    }
    let attrs_code = if makers.is_empty() {
        "let attrs: [(pir_core::Symbol, Attribute); 0] = [];".to_owned()
    } else {
        format!("let ctx = b.program().ctx_arc().clone();\n        let ctx = &*ctx;\n        let attrs = [{makers}];")
    };
    let _ = writeln!(
        out,
        "\n    /// Creates the op at the builder's insertion point, attributes in definition order.\n    #[allow(clippy::too_many_arguments)]\n    pub fn build(b: &mut Builder<'_>{params}, result_types: &[Type]) -> Self {{\n        {attrs_code}\n        Self(create(b, Self::NAME, &[{operands}], result_types, &attrs))\n    }}\n}}\n"
    );
}
