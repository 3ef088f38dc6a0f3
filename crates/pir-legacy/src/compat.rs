//! Legacy ↔ PIR names of ops, arguments and attributes, and which legacy
//! inputs may carry a mutable attribute: the facts of Paddle's
//! `op_compat.yaml`, kept as data in `data/op_compat.txt` (made by
//! `scripts/gen_legacy_op_compat.py`) and indexed once per process.

use std::borrow::Cow;
use std::sync::OnceLock;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::desc::AttrValue;

const DATA: &str = include_str!("../data/op_compat.txt");
const EXTRA: &str = include_str!("../data/extra_attrs.txt");

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
}

/// The table, parsed on first use.
pub fn compat() -> &'static Compat {
    static TABLE: OnceLock<Compat> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut c = Compat::parse(DATA);
        c.parse_extra(EXTRA);
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
