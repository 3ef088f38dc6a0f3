//! Attributes: legacy values to PIR attributes by the kind the target op
//! declares (Paddle's `AttributeTranslator`), the defaults some ops give to
//! attributes a legacy op lacks, and attribute maps that remember the order
//! Paddle's hash map would list them in.

use pir_core::builtin::{
    bool_array, ArrayAttr, BoolAttr, Complex128Attr, F32Attr, F64Attr, I32Attr, I64Attr, StrAttr,
};
use pir_core::{Attribute, IrContext};
use pir_dialects::op_def::{AttrKind, ElementKind};
use pir_dialects::pd_op::attrs::{DataType, DataTypeAttr, IntArrayAttr, Place, PlaceAttr};

use crate::desc::{AttrValue, DataKind, OpDesc, ScalarValue};
use crate::error::Result;
use crate::inline::InlineVec;
use crate::translate::values::phi_dtype;
use crate::translate::Translator;

/// Equal names; most are the same static strings of the op definitions,
/// which the address tells at once (after the length, which tells most
/// different names apart; the rest are compared inline,
/// [`crate::desc::name_eq`]).
#[inline]
pub(super) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && (a.as_ptr() == b.as_ptr() || crate::desc::name_eq(a, b))
}

/// An op's attributes in the order Paddle first inserted each key into its
/// map; the order the map iterates them in follows from that order alone
/// ([`crate::umap::iteration_order`]). Up to four entries (most ops: the
/// declared attributes and the two result flags) live inline; the map is
/// moved a few times on its way to the op, and a larger inline map costs
/// more in those moves than the few larger maps cost on the heap.
#[derive(Debug, Clone, Default)]
pub struct AttrMap<'k> {
    entries: InlineVec<(&'k str, Attribute), 4>,
}

impl<'k> AttrMap<'k> {
    /// An empty map.
    pub fn new() -> Self {
        AttrMap {
            entries: InlineVec::new(),
        }
    }

    /// An empty map with room for `n` entries (a definition's attributes
    /// and the two result flags), allocated once when they do not fit inline.
    pub fn with_capacity(n: usize) -> Self {
        AttrMap {
            entries: InlineVec::with_capacity(n),
        }
    }

    /// `map[name] = attr`: a new key is inserted, an existing one keeps its place.
    pub fn set(&mut self, name: &'k str, attr: Attribute) {
        match self
            .entries
            .as_mut_slice()
            .iter_mut()
            .find(|(k, _)| same(k, name))
        {
            Some(slot) => slot.1 = attr,
            None => self.entries.push((name, attr)),
        }
    }

    /// Inserts `name`, which the caller knows is not in the map yet.
    pub fn push_new(&mut self, name: &'k str, attr: Attribute) {
        debug_assert!(self.get(name).is_none());
        self.entries.push((name, attr));
    }

    /// Where `name` is, inserting it (with `attr`) when absent. Searched
    /// from the end: the names asked for are the result flags, which most
    /// maps hold last (keys are distinct, so the first match is the only).
    pub fn slot_of(&mut self, name: &'k str, attr: Attribute) -> usize {
        match self.entries.iter().rposition(|(k, _)| same(k, name)) {
            Some(i) => i,
            None => {
                self.entries.push((name, attr));
                self.entries.len() - 1
            }
        }
    }

    /// Replaces the value at `slot` (from [`AttrMap::slot_of`]).
    pub fn set_at(&mut self, slot: usize, attr: Attribute) {
        if let Some(e) = self.entries.as_mut_slice().get_mut(slot) {
            e.1 = attr;
        }
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<Attribute> {
        self.entries
            .iter()
            .find(|(k, _)| same(k, name))
            .map(|(_, a)| *a)
    }

    /// Entries in first-insertion order.
    pub fn entries(&self) -> &[(&'k str, Attribute)] {
        &self.entries
    }

    /// The keys in first-insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &'k str> + Clone + '_ {
        self.entries.iter().map(|(k, _)| *k)
    }

    /// The same entries inserted in the order `order` (indices) gives.
    pub fn reordered(&self, order: &[usize]) -> Self {
        AttrMap {
            entries: order.iter().map(|&i| self.entries[i]).collect(),
        }
    }

    /// Entries in the map's iteration order.
    pub fn ordered(&self) -> Vec<(&'k str, Attribute)> {
        let keys: Vec<&str> = self.keys().collect();
        crate::umap::iteration_order(&keys)
            .into_iter()
            .map(|i| self.entries[i])
            .collect()
    }
}

/// `pir::ArrayAttribute`s of bools, each list of at most 64 made once per
/// context (the ops of one kind give their results the same flags, in every
/// translation of a model); at most `MAX_KEPT` of them are kept.
#[derive(Debug, Default)]
pub struct BoolLists(rustc_hash::FxHashMap<(usize, u64), Attribute>);

impl BoolLists {
    /// Most lists kept: past this many, lists are made each time.
    const MAX_KEPT: usize = 4096;

    /// The array of `values`.
    pub fn get(&mut self, ctx: &IrContext, values: &[bool]) -> Attribute {
        let words: InlineVec<u64, 1> = values
            .chunks(64)
            .map(|chunk| chunk.iter().rev().fold(0, |m, &b| m << 1 | u64::from(b)))
            .collect();
        self.get_words(ctx, values.len(), &words)
    }

    /// The array of `len` values, value `i` bit `i % 64` of word `i / 64`
    /// of `words` (bits past `len` clear; a missing word is falses).
    pub fn get_words(&mut self, ctx: &IrContext, len: usize, words: &[u64]) -> Attribute {
        // Lists past 64 values (rare) are made each time.
        let key = match words {
            _ if len > 64 => None,
            [] => Some((len, 0)),
            [word, ..] => Some((len, *word)),
        };
        if let Some(&known) = key.and_then(|key| self.0.get(&key)) {
            return known;
        }
        let value = |i: usize| words.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 != 0);
        let values: Vec<bool> = (0..len).map(value).collect();
        let made = bool_array(ctx, &values);
        if let Some(key) = key.filter(|_| self.0.len() < Self::MAX_KEPT) {
            self.0.insert(key, made);
        }
        made
    }
}

fn array<T: Copy>(ctx: &IrContext, values: &[T], f: impl Fn(T) -> Attribute) -> Attribute {
    let items: InlineVec<Attribute, 8> = values.iter().map(|&v| f(v)).collect();
    ArrayAttr::get(ctx, &items)
}

/// A Scalar value as the builtin attribute Paddle stores it as.
pub fn scalar_attr(ctx: &IrContext, s: ScalarValue) -> Attribute {
    match s {
        ScalarValue::Bool(b) => ctx.intern_attr(BoolAttr(b)),
        ScalarValue::Long(i) => ctx.intern_attr(I64Attr(i)),
        ScalarValue::Float64(f) => F64Attr::get(ctx, f),
        ScalarValue::Complex(r, i) => ctx.intern_attr(Complex128Attr(r.to_bits(), i.to_bits())),
    }
}

/// The general visitor: each legacy kind to its natural PIR attribute; block,
/// variable and single-scalar attributes have none (Paddle gives null).
pub fn general(ctx: &IrContext, v: &AttrValue<'_>) -> Attribute {
    match v {
        AttrValue::Int(i) => ctx.intern_attr(I32Attr(*i)),
        AttrValue::Long(i) => ctx.intern_attr(I64Attr(*i)),
        AttrValue::Float(f) => F32Attr::get(ctx, *f),
        AttrValue::Float64(f) => F64Attr::get(ctx, *f),
        AttrValue::Bool(b) => ctx.intern_attr(BoolAttr(*b)),
        AttrValue::String(s) => StrAttr::get(ctx, s),
        AttrValue::Strings(list) => {
            let items: InlineVec<Attribute, 8> =
                list.iter().map(|s| StrAttr::get(ctx, s)).collect();
            ArrayAttr::get(ctx, &items)
        }
        AttrValue::Floats(list) => array(ctx, list, |f| F32Attr::get(ctx, f)),
        AttrValue::Ints(list) => array(ctx, list, |i| ctx.intern_attr(I32Attr(i))),
        AttrValue::Bools(list) => array(ctx, list, |b| ctx.intern_attr(BoolAttr(b))),
        AttrValue::Longs(list) => array(ctx, list, |i| ctx.intern_attr(I64Attr(i))),
        AttrValue::Float64s(list) => array(ctx, list, |f| F64Attr::get(ctx, f)),
        AttrValue::Scalars(list) => array(ctx, list, |s| scalar_attr(ctx, s)),
        AttrValue::Scalar(_)
        | AttrValue::Block(_)
        | AttrValue::Blocks(_)
        | AttrValue::Var(_)
        | AttrValue::Vars(_) => Attribute::NULL,
    }
}

/// `phi::TransToPhiDataType` of a legacy `VarType.Type` number.
pub fn dtype_of_proto(v: i32) -> DataType {
    phi_dtype(DataKind::from_i32(v))
}

/// Translates a legacy attribute (`None`: absent) for a target of `kind`,
/// as Paddle's visitor for that kind does.
pub fn translate(ctx: &IrContext, kind: AttrKind, v: Option<&AttrValue<'_>>) -> Attribute {
    match (kind, v) {
        (AttrKind::IntArray, Some(AttrValue::Ints(list))) => {
            let values: Vec<i64> = list.iter().map(|&i| i64::from(i)).collect();
            IntArrayAttr::get(ctx, &values)
        }
        (AttrKind::IntArray, Some(AttrValue::Longs(list))) => IntArrayAttr::get(ctx, list),
        (AttrKind::DataType, Some(AttrValue::Int(i))) => DataTypeAttr::get(ctx, dtype_of_proto(*i)),
        (AttrKind::DataType, None) => DataTypeAttr::get(ctx, DataType::Undefined),
        (AttrKind::Place, None) => PlaceAttr::get(ctx, Place::undefined()),
        (AttrKind::Array(Some(ElementKind::Int64)), Some(AttrValue::Ints(list))) => {
            array(ctx, list, |i| ctx.intern_attr(I64Attr(i64::from(i))))
        }
        (AttrKind::Array(Some(ElementKind::Int64)), None) => ArrayAttr::get(ctx, &[]),
        (AttrKind::Array(Some(ElementKind::Int32)), Some(AttrValue::Longs(list))) => {
            // Paddle narrows each element as C++ does.
            array(ctx, list, |i| ctx.intern_attr(I32Attr(i as i32)))
        }
        (AttrKind::Array(Some(ElementKind::Double)), Some(AttrValue::Floats(list))) => {
            // Paddle 3.3.1 widens float lists for double-list attributes
            // (the interpolation ops' `scale`).
            array(ctx, list, |f| F64Attr::get(ctx, f64::from(f)))
        }
        (AttrKind::Double, Some(AttrValue::Float(f))) => F64Attr::get(ctx, f64::from(*f)),
        (AttrKind::Int64, Some(AttrValue::Int(i))) => ctx.intern_attr(I64Attr(i64::from(*i))),
        (AttrKind::Bool, None) => ctx.intern_attr(BoolAttr(false)),
        (AttrKind::Bool, Some(AttrValue::Int(i))) => ctx.intern_attr(BoolAttr(*i != 0)),
        (AttrKind::Bool, Some(AttrValue::Long(i))) => ctx.intern_attr(BoolAttr(*i != 0)),
        (_, Some(v)) => general(ctx, v),
        (_, None) => Attribute::NULL,
    }
}

/// A default some op gives to an attribute its legacy form lacks.
#[derive(Debug, Clone, Copy)]
pub enum Fallback {
    /// `BoolAttribute`.
    Bool(bool),
    /// `Int32Attribute`.
    I32(i32),
    /// `Int64Attribute`.
    I64(i64),
    /// `FloatAttribute`.
    F32(f32),
    /// `DoubleAttribute` (a Scalar of a double).
    F64(f64),
    /// `StrAttribute`.
    Str(&'static str),
    /// `ArrayAttribute` of int32.
    I32s(&'static [i32]),
}

impl Fallback {
    /// The attribute.
    pub fn attr(self, ctx: &IrContext) -> Attribute {
        match self {
            Fallback::Bool(b) => ctx.intern_attr(BoolAttr(b)),
            Fallback::I32(i) => ctx.intern_attr(I32Attr(i)),
            Fallback::I64(i) => ctx.intern_attr(I64Attr(i)),
            Fallback::F32(f) => F32Attr::get(ctx, f),
            Fallback::F64(f) => F64Attr::get(ctx, f),
            Fallback::Str(s) => StrAttr::get(ctx, s),
            Fallback::I32s(list) => array(ctx, list, |i| ctx.intern_attr(I32Attr(i))),
        }
    }
}

use Fallback as D;

const POOL: &[(&str, D)] = &[
    ("exclusive", D::Bool(true)),
    ("adaptive", D::Bool(false)),
    ("padding_algorithm", D::Str("EXPLICIT")),
];
const CONV: &[(&str, D)] = &[("padding_algorithm", D::Str("EXPLICIT"))];
const EMBEDDING: &[(&str, D)] = &[("padding_idx", D::I64(-1)), ("sparse", D::Bool(false))];
const FUSED_ADD_ACT: &[(&str, D)] = &[
    ("scale", D::F32(0.0)),
    ("axis", D::I32(-1)),
    ("save_intermediate_out", D::Bool(false)),
];
const FAKE_QUANT: &[(&str, D)] = &[
    ("round_type", D::I32(1)),
    ("x_num_col_dims", D::I32(1)),
    ("quant_axis", D::I32(0)),
];
const QUANT_LINEAR: &[(&str, D)] = &[
    ("round_type", D::I32(0)),
    ("is_test", D::Bool(true)),
    ("only_observer", D::Bool(false)),
    ("moving_rate", D::F32(0.9)),
    ("qmin", D::I32(-128)),
    ("qmax", D::I32(127)),
];
const FUSED_FEEDFORWARD: &[(&str, D)] = &[
    ("ln1_epsilon", D::F32(1e-5)),
    ("ln2_epsilon", D::F32(1e-5)),
    ("act_method", D::Str("gelu")),
    ("dropout1_prob", D::F32(0.5)),
    ("dropout2_prob", D::F32(0.5)),
    ("dropout1_implementation", D::Str("downgrade_in_infer")),
    ("dropout2_implementation", D::Str("downgrade_in_infer")),
    ("is_test", D::Bool(false)),
    ("dropout1_fix_seed", D::Bool(false)),
    ("dropout2_fix_seed", D::Bool(false)),
    ("dropout1_seed_val", D::I32(0)),
    ("dropout2_seed_val", D::I32(0)),
    ("add_residual", D::Bool(true)),
    ("ring_id", D::I32(-1)),
];

/// Ops whose translation fills absent attributes from a table of their own
/// (then attributes not in the table stay absent), by legacy op type.
pub fn missing_attr_defaults(op_type: &str) -> Option<&'static [(&'static str, Fallback)]> {
    Some(match op_type {
        "argsort" => &[("stable", D::Bool(false))],
        "batch_norm" => &[
            ("use_global_stats", D::Bool(false)),
            ("trainable_statistics", D::Bool(false)),
        ],
        "conv2d" | "conv3d" | "depthwise_conv2d" => CONV,
        "scale" => &[("bias", D::F64(0.0)), ("bias_after_scale", D::Bool(true))],
        "dropout" => &[("mode", D::Str("downscale_in_infer"))],
        "sequence_pool" => &[("pad_value", D::F32(0.0))],
        "lookup_table_v2" | "lookup_table" | "lookup_table_v2_grad" => EMBEDDING,
        "cross_entropy_with_softmax" => &[("axis", D::I32(-1))],
        "box_coder" => &[("axis", D::I32(0)), ("variance", D::I32s(&[]))],
        "im2sequence" => &[("out_stride", D::I32s(&[1, 1]))],
        "pool2d" | "pool3d" => POOL,
        "top_p_sampling" => &[
            ("seed", D::I32(-1)),
            ("k", D::I32(0)),
            ("mode", D::Str("truncated")),
        ],
        "fused_elemwise_add_activation" | "fused_elemwise_add_activation_grad" => FUSED_ADD_ACT,
        "fake_quantize_moving_average_abs_max"
        | "fake_channel_wise_dequantize_max_abs"
        | "fake_quantize_range_abs_max"
        | "fake_quantize_dequantize_moving_average_abs_max" => FAKE_QUANT,
        "softmax" => &[("axis", D::I32(-1))],
        "softmax_with_cross_entropy" => &[("use_softmax", D::Bool(true)), ("axis", D::I32(-1))],
        "matmul" => &[
            ("transpose_x", D::Bool(false)),
            ("transpose_y", D::Bool(false)),
        ],
        "c_embedding" => &[("vocab_size", D::I64(-1))],
        "quantize_linear" | "dequantize_linear" => QUANT_LINEAR,
        "fused_feedforward" => FUSED_FEEDFORWARD,
        _ => return None,
    })
}

/// Reading an op's attributes by kind.
impl<'d> Translator<'d> {
    /// Attribute `name` as an `INT` (or a `LONG` that fits), `None` when
    /// absent; another kind is an error, not a default.
    pub(super) fn int_attr(&self, op: &OpDesc<'_>, name: &str) -> Result<Option<i32>> {
        match op.attr(name) {
            None => Ok(None),
            Some(AttrValue::Int(i)) => Ok(Some(*i)),
            Some(AttrValue::Long(i)) => i32::try_from(*i)
                .map(Some)
                .map_err(|_| self.err(format!("attribute `{name}`: {i} does not fit in an INT"))),
            Some(other) => Err(self.attr_kind_err(name, other, "an INT")),
        }
    }

    /// Attribute `name` as a `FLOAT`, `None` when absent.
    pub(super) fn float_attr(&self, op: &OpDesc<'_>, name: &str) -> Result<Option<f32>> {
        match op.attr(name) {
            None => Ok(None),
            Some(AttrValue::Float(f)) => Ok(Some(*f)),
            Some(other) => Err(self.attr_kind_err(name, other, "a FLOAT")),
        }
    }

    /// Attribute `name` as a `BOOLEAN`, `None` when absent.
    pub(super) fn bool_attr(&self, op: &OpDesc<'_>, name: &str) -> Result<Option<bool>> {
        match op.attr(name) {
            None => Ok(None),
            Some(AttrValue::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.attr_kind_err(name, other, "a BOOLEAN")),
        }
    }

    /// Attribute `name` as a `STRING`, `None` when absent.
    pub(super) fn str_attr(&self, op: &OpDesc<'d>, name: &str) -> Result<Option<&'d str>> {
        match op.attr(name) {
            None => Ok(None),
            Some(AttrValue::String(s)) => Ok(Some(*s)),
            Some(other) => Err(self.attr_kind_err(name, other, "a STRING")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_arrays_and_dtypes_follow_the_target_kind() {
        let ctx = pir_dialects::pd_op_context();
        let a = translate(
            &ctx,
            AttrKind::IntArray,
            Some(&AttrValue::Ints(vec![1, -1].into())),
        );
        assert_eq!(
            ctx.attr_as::<IntArrayAttr>(a).map(|x| &x.0[..]),
            Some(&[1i64, -1][..])
        );
        let d = translate(&ctx, AttrKind::DataType, Some(&AttrValue::Int(5)));
        assert_eq!(
            ctx.attr_as::<DataTypeAttr>(d).map(|x| x.0),
            Some(DataType::Float32)
        );
        let b = translate(&ctx, AttrKind::Bool, None);
        assert_eq!(ctx.attr_as::<BoolAttr>(b).map(|x| x.0), Some(false));
        assert!(translate(&ctx, AttrKind::Str, None).is_null());
        let l = translate(&ctx, AttrKind::Int64, Some(&AttrValue::Int(-1)));
        assert_eq!(ctx.attr_as::<I64Attr>(l).map(|x| x.0), Some(-1));
    }

    #[test]
    fn maps_keep_first_insertion_and_iterate_in_hash_order() {
        let ctx = pir_dialects::pd_op_context();
        let t = ctx.intern_attr(BoolAttr(true));
        let f = ctx.intern_attr(BoolAttr(false));
        let mut m = AttrMap::new();
        for k in ["name", "col", "persistable", "stop_gradient"] {
            m.set(k, t);
        }
        m.set("col", f);
        assert_eq!(m.get("col"), Some(f));
        let keys: Vec<&str> = m.ordered().into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["stop_gradient", "persistable", "col", "name"]);
    }
}
