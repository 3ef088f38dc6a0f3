//! Legacy ↔ PIR names of ops, arguments and attributes, and which legacy
//! inputs may carry a mutable attribute: the facts of Paddle's
//! `op_compat.yaml`, kept as data in `data/op_compat.txt` (made by
//! `scripts/gen_legacy_op_compat.py`) and indexed once per process.
//!
//! The legacy op set itself — each op type Paddle 2.6.2 registers, its
//! input and output slots, its attribute kinds and defaults, and the version
//! and op-version map Paddle 2.6.2 saves — is kept in `data/legacy_ops.txt`
//! (made by `scripts/gen_legacy_op_protos.py`); the `.pdmodel` writer
//! ([`crate::write`]) reads it through [`Compat::legacy_op`].

use std::borrow::Cow;
use std::sync::OnceLock;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::desc::AttrValue;

const DATA: &str = include_str!("../data/op_compat.txt");
const EXTRA: &str = include_str!("../data/extra_attrs.txt");
const LEGACY_OPS: &str = include_str!("../data/legacy_ops.txt");

const GRAD_SUFFIX: &str = "_grad";
const LEGACY_GRAD_SUFFIX: &str = "@GRAD";

/// The op-compat table.
#[derive(Debug, Default)]
pub struct Compat {
    names: HashMap<&'static str, &'static str>,
    args: HashMap<&'static str, HashMap<&'static str, &'static str>>,
    mutable: HashMap<&'static str, HashMap<&'static str, Vec<&'static str>>>,
    int_array_inputs: HashSet<(&'static str, &'static str)>,
    extra: HashMap<&'static str, Vec<(&'static str, AttrValue<'static>)>>,
    legacy_ops: HashMap<&'static str, LegacyOp>,
    /// PIR op name (without dialect) → legacy op types renamed to it.
    renamed_from: HashMap<&'static str, Vec<&'static str>>,
    legacy_version: i64,
    legacy_op_versions: Vec<(&'static str, i32)>,
}

/// An input or output slot of a legacy op (`OpProto.Var`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegacySlot {
    /// Slot name (`X`, `Out`, `XShape`).
    pub name: &'static str,
    /// Takes a list of variables.
    pub duplicable: bool,
    /// May be left out.
    pub dispensable: bool,
    /// An intermediate output (`XShape`).
    pub intermediate: bool,
}

/// The kind of a legacy attribute: `AttrType` of `framework.proto`, whose
/// numbers the variants carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // the variants are `AttrType`'s names
pub enum LegacyAttrKind {
    Int = 0,
    Float = 1,
    String = 2,
    Ints = 3,
    Floats = 4,
    Strings = 5,
    Bool = 6,
    Bools = 7,
    Block = 8,
    Long = 9,
    Blocks = 10,
    Longs = 11,
    Float64s = 12,
    Var = 13,
    Vars = 14,
    Float64 = 15,
    Scalar = 16,
    Scalars = 17,
}

impl LegacyAttrKind {
    /// From the record's kind word.
    fn from_word(word: &str) -> Option<LegacyAttrKind> {
        use LegacyAttrKind as K;
        Some(match word {
            "int" => K::Int,
            "float" => K::Float,
            "str" => K::String,
            "ints" => K::Ints,
            "floats" => K::Floats,
            "strs" => K::Strings,
            "bool" => K::Bool,
            "bools" => K::Bools,
            "block" => K::Block,
            "long" => K::Long,
            "blocks" => K::Blocks,
            "longs" => K::Longs,
            "float64s" => K::Float64s,
            "var" => K::Var,
            "vars" => K::Vars,
            "float64" => K::Float64,
            "scalar" => K::Scalar,
            "scalars" => K::Scalars,
            _ => return None,
        })
    }

    /// The `AttrType` name with its article, for messages ("an INT").
    pub fn message_name(self) -> &'static str {
        use LegacyAttrKind as K;
        match self {
            K::Int => "an INT",
            K::Float => "a FLOAT",
            K::String => "a STRING",
            K::Ints => "INTS",
            K::Floats => "FLOATS",
            K::Strings => "STRINGS",
            K::Bool => "a BOOLEAN",
            K::Bools => "BOOLEANS",
            K::Block => "a BLOCK",
            K::Long => "a LONG",
            K::Blocks => "BLOCKS",
            K::Longs => "LONGS",
            K::Float64s => "FLOAT64S",
            K::Var => "a VAR",
            K::Vars => "VARS",
            K::Float64 => "a FLOAT64",
            K::Scalar => "a SCALAR",
            K::Scalars => "SCALARS",
        }
    }
}

/// An attribute of a legacy op: its kind and the default Paddle's checker
/// fills in when a saved op lacks it.
#[derive(Debug, Clone, PartialEq)]
pub struct LegacyAttrSpec {
    /// Name.
    pub name: &'static str,
    /// Kind.
    pub kind: LegacyAttrKind,
    /// Default (`None`: required).
    pub default: Option<AttrValue<'static>>,
}

/// A legacy op type as Paddle 2.6.2 registers it (`OpProto`, gradient ops
/// left out, extra attributes left out).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LegacyOp {
    /// Op type.
    pub name: &'static str,
    /// Input slots in registration order.
    pub inputs: Vec<LegacySlot>,
    /// Output slots in registration order.
    pub outputs: Vec<LegacySlot>,
    /// Attributes in registration order.
    pub attrs: Vec<LegacyAttrSpec>,
}

impl LegacyOp {
    /// Input slot `name`.
    pub fn input(&self, name: &str) -> Option<&LegacySlot> {
        self.inputs.iter().find(|s| s.name == name)
    }

    /// Output slot `name`.
    pub fn output(&self, name: &str) -> Option<&LegacySlot> {
        self.outputs.iter().find(|s| s.name == name)
    }

    /// Attribute `name`.
    pub fn attr(&self, name: &str) -> Option<&LegacyAttrSpec> {
        self.attrs.iter().find(|a| a.name == name)
    }
}

/// The table, parsed on first use.
pub fn compat() -> &'static Compat {
    static TABLE: OnceLock<Compat> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut c = Compat::parse(DATA);
        c.parse_extra(EXTRA);
        c.parse_legacy_ops(LEGACY_OPS);
        c
    })
}

impl Compat {
    /// Parses the record format of `data/op_compat.txt`; malformed lines are
    /// skipped (the file is generated and checked by a unit test).
    pub fn parse(data: &'static str) -> Compat {
        let mut c = Compat::default();
        for line in data.lines() {
            let mut t = line.split(' ');
            match (t.next(), t.next(), t.next()) {
                (Some("name"), Some(legacy), Some(new)) => {
                    c.names.insert(legacy, new);
                }
                (Some("arg"), Some(op), Some(new)) => {
                    if let Some(legacy) = t.next() {
                        c.args.entry(op).or_default().insert(new, legacy);
                    }
                }
                (Some("mut"), Some(op), Some(attr)) => {
                    c.mutable.entry(op).or_default().insert(attr, t.collect());
                }
                (Some("intarray"), Some(op), Some(input)) => {
                    c.int_array_inputs.insert((op, input));
                }
                _ => {}
            }
        }
        c
    }

    /// Reads `extra OP NAME KIND VALUE` records (`data/extra_attrs.txt`).
    pub fn parse_extra(&mut self, data: &'static str) {
        for line in data.lines() {
            let mut t = line.splitn(5, ' ');
            if let (Some("extra"), Some(op), Some(name), Some(kind), Some(value)) =
                (t.next(), t.next(), t.next(), t.next(), t.next())
            {
                if let Some(v) = extra_value(kind, value) {
                    self.extra.entry(op).or_default().push((name, v));
                }
            }
        }
    }

    /// Reads the legacy op set (`data/legacy_ops.txt`, records described in
    /// `scripts/gen_legacy_op_protos.py`); malformed records are skipped (a
    /// unit test checks the file).
    pub fn parse_legacy_ops(&mut self, data: &'static str) {
        let mut current: Option<LegacyOp> = None;
        let slot = |name: &'static str, flags: &str| LegacySlot {
            name,
            duplicable: flags.contains('d'),
            dispensable: flags.contains('o'),
            intermediate: flags.contains('i'),
        };
        for line in data.lines() {
            let mut t = line.splitn(4, ' ');
            match (t.next(), t.next(), t.next(), t.next()) {
                (Some("version"), Some(v), None, None) => {
                    self.legacy_version = v.parse().unwrap_or(0);
                }
                (Some("opversion"), Some(op), Some(v), None) => {
                    if let Ok(v) = v.parse() {
                        self.legacy_op_versions.push((op, v));
                    }
                }
                (Some("op"), Some(op), None, None) => {
                    if let Some(done) = current.take() {
                        self.legacy_ops.insert(done.name, done);
                    }
                    current = Some(LegacyOp {
                        name: op,
                        ..LegacyOp::default()
                    });
                }
                (Some("in"), Some(name), Some(flags), None) => {
                    if let Some(op) = current.as_mut() {
                        op.inputs.push(slot(name, flags));
                    }
                }
                (Some("out"), Some(name), Some(flags), None) => {
                    if let Some(op) = current.as_mut() {
                        op.outputs.push(slot(name, flags));
                    }
                }
                (Some("attr"), Some(name), Some(kind), Some(value)) => {
                    let (Some(op), Some(kind)) =
                        (current.as_mut(), LegacyAttrKind::from_word(kind))
                    else {
                        continue;
                    };
                    let default = match value {
                        "-" => None,
                        v => extra_value(kind_word(kind), v),
                    };
                    op.attrs.push(LegacyAttrSpec {
                        name,
                        kind,
                        default,
                    });
                }
                _ => {}
            }
        }
        if let Some(done) = current.take() {
            self.legacy_ops.insert(done.name, done);
        }
        for (&legacy, &new) in &self.names {
            if !legacy.contains(GRAD_SUFFIX) {
                self.renamed_from.entry(new).or_default().push(legacy);
            }
        }
        for list in self.renamed_from.values_mut() {
            list.sort_unstable();
        }
    }

    /// Legacy op type `op` as Paddle 2.6.2 registers it.
    pub fn legacy_op(&self, op: &str) -> Option<&LegacyOp> {
        self.legacy_ops.get(op)
    }

    /// The legacy op types that translate to `pd_op.<name>` by name (and
    /// `name` itself when it is a legacy type no record renames), among
    /// those Paddle 2.6.2 has, the one to prefer first.
    pub fn legacy_types_of(&self, name: &str) -> Vec<&'static str> {
        // The types renamed to `name` first (what Paddle 2.6 writes:
        // `transpose2` rather than `transpose`), newest version first
        // (`lookup_table_v2` rather than `lookup_table`), then `name`.
        let mut found: Vec<&'static str> = Vec::new();
        if let Some(list) = self.renamed_from.get(name) {
            found.extend(
                list.iter()
                    .rev()
                    .filter(|l| self.legacy_ops.contains_key(*l)),
            );
        }
        if let Some((&own, _)) = self.legacy_ops.get_key_value(name) {
            if !self.names.contains_key(own) {
                found.push(own);
            }
        }
        found
    }

    /// `ProgramDesc.version` as Paddle 2.6.2 writes it.
    pub fn legacy_version(&self) -> i64 {
        self.legacy_version
    }

    /// The op-version map Paddle 2.6.2 writes, pair by pair.
    pub fn legacy_op_versions(&self) -> &[(&'static str, i32)] {
        &self.legacy_op_versions
    }

    /// The extra attributes of legacy op `op` with their defaults: Paddle's
    /// `OpDesc` answers with these when a saved op lacks them.
    pub fn extra_attrs(&self, op: &str) -> &[(&'static str, AttrValue<'static>)] {
        self.extra.get(op).map_or(&[], Vec::as_slice)
    }

    /// The PIR name (without dialect) of a legacy op type
    /// (`OpNameNormalizer::operator[]`).
    pub fn op_name<'a>(&self, legacy: &'a str) -> &'a str
    where
        'static: 'a,
    {
        self.names.get(legacy).copied().unwrap_or(legacy)
    }

    fn direct(&self, op: &str, arg: &str) -> Option<&'static str> {
        self.args.get(op).and_then(|m| m.get(arg)).copied()
    }

    /// The legacy name of PIR argument `arg` of legacy op `op`
    /// (`GetLegacyArgName`, with its rules for gradient ops).
    pub fn legacy_arg_name<'n>(&self, op: &str, arg: &'n str) -> Cow<'n, str> {
        if let Some(name) = self.direct(op, arg) {
            return Cow::Borrowed(name);
        }
        let grad_op = op.find(GRAD_SUFFIX);
        let grad_arg = arg.find(GRAD_SUFFIX);
        match (grad_op, grad_arg) {
            (Some(op_pos), Some(arg_pos)) => {
                let base = &arg[..arg_pos];
                let mut legacy = self.direct(&op[..op_pos], base).unwrap_or(base).to_owned();
                legacy.push_str(&arg[arg_pos..]);
                Cow::Owned(legacy.replace(GRAD_SUFFIX, LEGACY_GRAD_SUFFIX))
            }
            (Some(op_pos), None) => Cow::Borrowed(self.direct(&op[..op_pos], arg).unwrap_or(arg)),
            _ => Cow::Borrowed(arg),
        }
    }

    /// The legacy name of PIR attribute `attr` (`GetLegacyAttrName`).
    pub fn legacy_attr_name<'n>(&self, op: &str, attr: &'n str) -> &'n str {
        let base = op.find(GRAD_SUFFIX).map_or(op, |p| &op[..p]);
        self.direct(base, attr).unwrap_or(attr)
    }

    /// Legacy inputs that may carry mutable attribute `attr` of `op`, in the
    /// order Paddle tries them (`None` when `attr` is not mutable there).
    pub fn mutable_candidates(&self, op: &str, attr: &str) -> Option<&[&'static str]> {
        self.mutable
            .get(op)
            .and_then(|m| m.get(attr))
            .map(Vec::as_slice)
    }

    /// Whether input `input` of `pd_op` op `op` is a mutable IntArray attribute.
    pub fn is_int_array_input(&self, op: &str, input: &str) -> bool {
        self.int_array_inputs.contains(&(op, input))
    }

    /// Every legacy op type with a name of its own in the table.
    pub fn renamed_ops(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.names.iter().map(|(k, v)| (*k, *v))
    }
}

/// The record word of a kind whose defaults [`extra_value`] reads.
fn kind_word(kind: LegacyAttrKind) -> &'static str {
    use LegacyAttrKind as K;
    match kind {
        K::Int => "int",
        K::Float => "float",
        K::String => "str",
        K::Ints => "ints",
        K::Floats => "floats",
        K::Strings => "strs",
        K::Bool => "bool",
        K::Bools => "bools",
        K::Long => "long",
        K::Longs => "longs",
        K::Float64 => "float64",
        K::Float64s => "float64s",
        K::Block | K::Blocks | K::Var | K::Vars | K::Scalar | K::Scalars => "",
    }
}

/// Parses one extra-attribute default (`bool false`, `ints [1,2]`, `str "x"`).
fn extra_value(kind: &str, value: &'static str) -> Option<AttrValue<'static>> {
    fn list(v: &str) -> Vec<&str> {
        let inner = v.trim().trim_start_matches('[').trim_end_matches(']');
        if inner.is_empty() {
            Vec::new()
        } else {
            inner.split(',').collect()
        }
    }
    // The table lives for the whole process: a string with escapes is
    // unescaped once and kept (the data has none today).
    let string = |v: &'static str| -> Option<&'static str> {
        let v = v.trim();
        let inner = v.strip_prefix('"')?.strip_suffix('"')?;
        if !inner.contains('\\') {
            return Some(inner);
        }
        let owned = inner.replace("\\\"", "\"").replace("\\\\", "\\");
        Some(Box::leak(owned.into_boxed_str()))
    };
    Some(match kind {
        "bool" => AttrValue::Bool(value == "true"),
        "int" => AttrValue::Int(value.parse().ok()?),
        "float" => AttrValue::Float(value.parse().ok()?),
        "str" => AttrValue::String(string(value)?),
        "ints" => AttrValue::Ints(
            list(value)
                .iter()
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?,
        ),
        "floats" => AttrValue::Floats(
            list(value)
                .iter()
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?,
        ),
        "long" => AttrValue::Long(value.parse().ok()?),
        "float64" => AttrValue::Float64(value.parse().ok()?),
        "longs" => AttrValue::Longs(
            list(value)
                .iter()
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?,
        ),
        "float64s" => AttrValue::Float64s(
            list(value)
                .iter()
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?,
        ),
        "bools" => AttrValue::Bools(list(value).iter().map(|x| *x == "true").collect()),
        "strs" => AttrValue::Strings(list(value).into_iter().map(string).collect::<Option<_>>()?),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_knows_the_common_legacy_names() {
        let c = compat();
        assert_eq!(c.op_name("elementwise_add"), "add");
        assert_eq!(c.op_name("matmul_v2"), "matmul");
        assert_eq!(c.op_name("reshape2"), "reshape");
        assert_eq!(c.op_name("relu"), "relu");
        assert_eq!(c.legacy_arg_name("elementwise_add", "x"), "X");
        assert_eq!(c.legacy_arg_name("matmul_v2", "transpose_x"), "trans_x");
        assert_eq!(c.legacy_attr_name("matmul_v2", "transpose_x"), "trans_x");
        assert_eq!(
            c.mutable_candidates("reshape2", "shape"),
            Some(&["ShapeTensor", "Shape"][..])
        );
        assert!(c.is_int_array_input("pd_op.reshape", "shape"));
        assert!(!c.is_int_array_input("pd_op.scale", "scale"));
    }

    #[test]
    fn extra_attributes_have_typed_defaults() {
        let c = compat();
        let dropout = c.extra_attrs("dropout");
        assert!(dropout.contains(&("seed", AttrValue::Int(0))));
        assert!(dropout.contains(&("fix_seed", AttrValue::Bool(false))));
        assert!(c.extra_attrs("no_such_op").is_empty());
    }

    #[test]
    fn the_legacy_op_set_is_paddle_2_6s() {
        let c = compat();
        assert_eq!(c.legacy_version(), 2_006_002);
        assert!(c.legacy_op_versions().contains(&("fill_constant", 2)));
        let reshape = c.legacy_op("reshape2").expect("reshape2");
        assert!(reshape.output("XShape").is_some_and(|s| s.intermediate));
        assert!(reshape.input("ShapeTensor").is_some_and(|s| s.duplicable));
        let fill = c.legacy_op("fill_constant").expect("fill_constant");
        let shape = fill.attr("shape").expect("shape");
        assert_eq!(shape.kind, LegacyAttrKind::Longs);
        assert_eq!(
            fill.attr("dtype").and_then(|a| a.default.clone()),
            Some(AttrValue::Int(5))
        );
        assert_eq!(c.legacy_types_of("reshape"), ["reshape2"]);
        assert_eq!(c.legacy_types_of("relu"), ["relu"]);
        assert!(c.legacy_types_of("add").contains(&"elementwise_add"));
        assert_eq!(c.legacy_types_of("embedding")[0], "lookup_table_v2");
        assert_eq!(c.legacy_types_of("transpose"), ["transpose2", "transpose"]);
        assert!(c.legacy_op("relu_grad").is_none());
    }

    #[test]
    fn every_line_of_the_legacy_op_set_is_a_known_record() {
        for line in LEGACY_OPS.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.splitn(4, ' ').collect();
            let ok = match fields[0] {
                "version" | "op" => fields.len() == 2,
                "opversion" | "in" | "out" => fields.len() == 3,
                "attr" => fields.len() == 4 && LegacyAttrKind::from_word(fields[2]).is_some(),
                _ => false,
            };
            assert!(ok, "bad record {line:?}");
        }
    }

    #[test]
    fn gradient_arguments_follow_the_forward_names() {
        let c = compat();
        assert_eq!(
            c.legacy_arg_name("elementwise_add_grad", "out_grad"),
            "Out@GRAD"
        );
        assert_eq!(c.legacy_arg_name("elementwise_add_grad", "x"), "X");
    }

    #[test]
    fn every_line_of_the_data_is_a_known_record() {
        for line in DATA.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split(' ').collect();
            let ok = match fields[0] {
                "name" => fields.len() == 3,
                "arg" => fields.len() == 4,
                "mut" => fields.len() >= 3,
                "intarray" => fields.len() == 3,
                _ => false,
            };
            assert!(ok, "bad record {line:?}");
        }
    }
}
