//! What a translation leaves in its context for the next translation
//! there (see [`ContextMemo`]): the op names, definition facts, types,
//! plans, attributes and dictionaries it made, each table bounded by
//! [`MAX_ENTRIES`].

use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex, PoisonError, Weak};

use pir_core::{AttrDict, Attribute, IrContext, Symbol, Type};
use pir_dialects::op_def::{AttrKind, ElementKind, OpDef};
use pir_dialects::pd_op::attrs::DataType;
use rustc_hash::{FxBuildHasher, FxHashMap, FxHasher};

use super::super::attrs::BoolLists;
use super::super::plan::Plan;
use super::matches::{FitMatches, KindMatches};
use super::{plan, target_plan, Answers, DefFacts, MAX_ENTRIES};
use crate::desc::{AttrValue, DataKind};

/// What a translation in a context leaves for the next one in it: the
/// symbol and writer of each op name it made ops of (keyed by the name's
/// address: these names are static strings) with the facts of the
/// definitions the writers point into, the dense tensor types of its
/// variables and the targets and plans of its legacy op types. Most models
/// make ops of the same few names and types and variables of the same few
/// types, and each costs interning or a locked look-up the first time.
#[derive(Default)]
pub(crate) struct ContextMemo {
    /// Symbol and writer by op name.
    pub names: FxHashMap<(usize, usize), (Symbol, super::super::Writer)>,
    /// The op name (address and length) and its symbol and writer each
    /// look-up of [`super::super::Translator::op_kind`] the last
    /// translation made found.
    pub op_kinds: Answers<OpKindAnswer>,
    /// What [`super::super::Writer::Declared`] points into.
    pub def_facts: Vec<Arc<DefFacts>>,
    /// Dense tensor types of variables and op builders by a hash of element
    /// type and dims (see [`ContextMemo::tensor_type`]).
    tensor_types: FxHashMap<u64, KeptTensorType>,
    /// The last dense tensor type made for each variable, by block and
    /// index (see [`ContextMemo::tensor_type_at`]).
    tensor_types_at: Vec<Vec<Option<KeptTensorType>>>,
    /// Default target and plan per legacy op type, not in place and in
    /// place ([`target_plan`] without its lock).
    target_plans: [FxHashMap<Box<str>, Option<super::super::TargetPlan>>; 2],
    /// Plans per legacy op type into the definitions the special paths
    /// name, by the definition's address ([`plan`] without its lock).
    plans: FxHashMap<Box<str>, Vec<(usize, Arc<Plan>)>>,
    /// Declared attributes translated from legacy values, by a hash of kind
    /// and value (see [`ContextMemo::attr`]).
    attrs: FxHashMap<u64, (AttrKind, KeptValue, Attribute)>,
    /// Data type attributes (a handful of types).
    data_types: Vec<(DataType, Attribute)>,
    /// Type and attributes (shape, value, data type, place) of the `full`
    /// made for a scalar attribute, by that attribute.
    full_of_attr: FxHashMap<Attribute, (Type, [Attribute; 4])>,
    /// Type and attributes of the zero `full` a fake false branch yields
    /// for a value of a type, by that type.
    zero_full_of_type: FxHashMap<Type, (Type, [Attribute; 4])>,
    /// Type and attributes (value, data type) of the `full_int_array` made
    /// for an int array attribute, by that attribute.
    int_array_of_attr: FxHashMap<Attribute, (Type, [Attribute; 2])>,
    /// Final dictionaries of ops with their definition facts, keys and
    /// values (see [`ContextMemo::finished_dict`]).
    finished: Vec<FinishedKey>,
    /// Indices in `finished` by a hash of the definition facts, keys and
    /// values.
    finished_by_hash: FxHashMap<u64, u32>,
    /// The index in `finished` of the dictionary each look-up there the
    /// last translation made found (see [`ContextMemo::finished_dict`]).
    finished_answers: Answers<u32>,
    /// Final dictionaries of `builtin.parameter` ops by their name,
    /// `stop_gradient` and `persistable` (see
    /// [`ContextMemo::parameter_dict`]).
    parameter_dicts: FxHashMap<[Attribute; 3], AttrDict>,
    /// Final dictionaries of ops without a definition whose keys are all
    /// static, by their entries: each key's address and length, and its
    /// value (see [`ContextMemo::generic_dict`]).
    generic_dicts: FxHashMap<Box<[KeyedEntry]>, AttrDict>,
    /// Attributes found to have a kind a definition declares.
    pub kinds: KindMatches,
    /// Lists of result flags made so far.
    pub bool_lists: BoolLists,
    /// Operand types found to fit the kind an input declares.
    pub fits: FitMatches,
    /// The general path's attributes by definition, legacy op type and the
    /// op's attribute bytes (see [`ContextMemo::general_attrs`]).
    general_attrs: FxHashMap<u64, GeneralAttrs>,
    /// Where each variable the last translation looked up by name was
    /// declared, when in the block asked from (see
    /// [`super::super::Translator::find_var_pos`]).
    pub var_positions: Answers<(u32, u32)>,
    /// The default target and plan the last translation found for each
    /// legacy op it translated the general way, with whether in place (see
    /// [`super::super::Translator::target_plan`]).
    pub op_targets: Answers<(bool, super::super::TargetPlan)>,
    /// The plan the last translation found for each look-up of
    /// [`super::super::Translator::plan_of`], with its definition's address.
    pub op_plans: Answers<(usize, Arc<Plan>)>,
    /// The name and its `parameter_name` attribute each look-up of
    /// [`super::super::Translator::parameter_name`] the last translation
    /// made found.
    pub param_names: Answers<(Box<str>, Attribute)>,
    /// The column and the `name` and `col` attributes each look-up of
    /// [`super::super::Translator::feed_fetch_attrs_of`] the last
    /// translation made found.
    pub feed_fetch_attrs: Answers<(i32, [Attribute; 2])>,
    /// The key in `general_attrs` of each look-up there the last translation
    /// made (see [`ContextMemo::general_attrs`]).
    general_attr_keys: Answers<u64>,
    /// The op each mutable attribute given as a legacy attribute became in
    /// the last translation, with whether an int array and the value (see
    /// [`ContextMemo::as_input`]).
    as_inputs: Answers<(bool, KeptValue, AsInputOp)>,
}

/// The type and attributes of the op a mutable attribute given as a legacy
/// attribute becomes (Paddle's `GetAttributeAsInput`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum AsInputOp {
    /// A `full` (Scalar): shape, value, data type, place.
    Full(Type, [Attribute; 4]),
    /// A `full_int_array` (IntArray): value, data type.
    IntArray(Type, [Attribute; 2]),
}

/// An op name by address and length, with its symbol and writer.
pub(crate) type OpKindAnswer = ((usize, usize), (Symbol, super::super::Writer));

/// A map entry by its key's address and length, with its value.
pub(crate) type KeyedEntry = (usize, usize, Attribute);

/// A dense tensor type kept with its element type and dims.
type KeptTensorType = (Elem, Box<[i64]>, Type);

/// Attributes [`ContextMemo::general_attrs`] keeps, with their key.
#[derive(Debug)]
struct GeneralAttrs {
    def: usize,
    op_type: Box<str>,
    bytes: Box<[u8]>,
    values: Box<[Attribute]>,
}

/// Longest run of attribute bytes [`ContextMemo::general_attrs`] keeps a
/// translation for (Paddle's ops take a few hundred bytes).
const MAX_KEPT_ATTR_BYTES: usize = 2048;

/// The op type is left out (it is compared): the bytes tell most apart.
fn general_attrs_hash(def: &'static OpDef, bytes: &[u8]) -> u64 {
    FxBuildHasher.hash_one((std::ptr::from_ref(def) as usize, bytes))
}

/// A final dictionary [`ContextMemo::finished_dict`] keeps, with its key.
#[derive(Debug)]
struct FinishedKey {
    facts: usize,
    keys: Box<[(usize, usize)]>,
    values: Box<[Attribute]>,
    dict: AttrDict,
}

/// Longest list or string whose translation [`ContextMemo::attr`] keeps.
const MAX_KEPT_LEN: usize = 64;

/// A legacy attribute value as [`ContextMemo::attr`] keeps it: owned, floats
/// by their bits (the translation of equal bits is the same attribute).
#[derive(Debug, PartialEq)]
enum KeptValue {
    Absent,
    Int(i32),
    Long(i64),
    Float(u32),
    Float64(u64),
    Bool(bool),
    String(Box<str>),
    Ints(Box<[i32]>),
    Longs(Box<[i64]>),
    Floats(Box<[u32]>),
    Bools(Box<[bool]>),
}

impl KeptValue {
    /// The kept form of `v`, `None` for kinds and sizes not kept.
    fn of(v: Option<&AttrValue<'_>>) -> Option<KeptValue> {
        let short = |n: usize| n <= MAX_KEPT_LEN;
        Some(match v {
            None => KeptValue::Absent,
            Some(AttrValue::Int(i)) => KeptValue::Int(*i),
            Some(AttrValue::Long(i)) => KeptValue::Long(*i),
            Some(AttrValue::Float(f)) => KeptValue::Float(f.to_bits()),
            Some(AttrValue::Float64(f)) => KeptValue::Float64(f.to_bits()),
            Some(AttrValue::Bool(b)) => KeptValue::Bool(*b),
            Some(AttrValue::String(s)) if short(s.len()) => KeptValue::String((*s).into()),
            Some(AttrValue::Ints(l)) if short(l.len()) => KeptValue::Ints((**l).into()),
            Some(AttrValue::Longs(l)) if short(l.len()) => KeptValue::Longs((**l).into()),
            Some(AttrValue::Floats(l)) if short(l.len()) => {
                KeptValue::Floats(l.iter().map(|f| f.to_bits()).collect())
            }
            Some(AttrValue::Bools(l)) if short(l.len()) => KeptValue::Bools((**l).into()),
            _ => return None,
        })
    }

    /// Whether this is the kept form of `v`.
    fn is(&self, v: Option<&AttrValue<'_>>) -> bool {
        match (self, v) {
            (KeptValue::Absent, None) => true,
            (KeptValue::Int(a), Some(AttrValue::Int(b))) => a == b,
            (KeptValue::Long(a), Some(AttrValue::Long(b))) => a == b,
            (KeptValue::Float(a), Some(AttrValue::Float(b))) => *a == b.to_bits(),
            (KeptValue::Float64(a), Some(AttrValue::Float64(b))) => *a == b.to_bits(),
            (KeptValue::Bool(a), Some(AttrValue::Bool(b))) => a == b,
            (KeptValue::String(a), Some(AttrValue::String(b))) => **a == **b,
            (KeptValue::Ints(a), Some(AttrValue::Ints(b))) => **a == **b,
            (KeptValue::Longs(a), Some(AttrValue::Longs(b))) => **a == **b,
            (KeptValue::Floats(a), Some(AttrValue::Floats(b))) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| *x == y.to_bits())
            }
            (KeptValue::Bools(a), Some(AttrValue::Bools(b))) => **a == **b,
            _ => false,
        }
    }
}

/// A hash of `kind` and `v` for [`ContextMemo::attr`] (whether `v` is kept
/// is [`KeptValue::of`]'s to say).
fn attr_hash(kind: AttrKind, v: Option<&AttrValue<'_>>) -> u64 {
    let mut h = FxHasher::default();
    kind.hash(&mut h);
    // Lists of different element types hash their elements' bytes alike:
    // without the variant, an empty list of ints and one of longs would
    // take each other's place in every translation.
    if let Some(v) = v {
        std::mem::discriminant(v).hash(&mut h);
    }
    match v {
        None => h.write_u8(0),
        Some(AttrValue::Int(i)) => h.write_i32(*i),
        Some(AttrValue::Long(i)) => h.write_i64(*i),
        Some(AttrValue::Float(f)) => h.write_u32(f.to_bits()),
        Some(AttrValue::Float64(f)) => h.write_u64(f.to_bits()),
        Some(AttrValue::Bool(b)) => h.write_u8(u8::from(*b) + 1),
        Some(AttrValue::String(s)) => s.hash(&mut h),
        Some(AttrValue::Ints(l)) => l.hash(&mut h),
        Some(AttrValue::Longs(l)) => l.hash(&mut h),
        Some(AttrValue::Floats(l)) => l.iter().for_each(|f| h.write_u32(f.to_bits())),
        Some(AttrValue::Bools(l)) => l.hash(&mut h),
        Some(_) => {}
    }
    h.finish()
}

impl ContextMemo {
    /// [`target_plan`], remembered.
    pub fn target_plan(
        &mut self,
        op_type: &str,
        inplace: bool,
    ) -> Option<super::super::TargetPlan> {
        let plans = &mut self.target_plans[usize::from(inplace)];
        if let Some(known) = plans.get(op_type) {
            return known.clone();
        }
        let found = target_plan(op_type, inplace);
        plans.insert(op_type.into(), found.clone());
        found
    }

    /// [`plan`], remembered.
    pub fn plan(&mut self, op_type: &str, def: &'static OpDef) -> Arc<Plan> {
        let at = std::ptr::from_ref(def) as usize;
        let known = self
            .plans
            .get(op_type)
            .and_then(|list| list.iter().find(|(d, _)| *d == at).map(|(_, p)| p.clone()));
        if let Some(known) = known {
            return known;
        }
        let found = plan(op_type, def);
        match self.plans.get_mut(op_type) {
            Some(list) => list.push((at, found.clone())),
            None => {
                self.plans.insert(op_type.into(), vec![(at, found.clone())]);
            }
        }
        found
    }

    /// The attribute `translate` makes of legacy value `v` (`None`: absent)
    /// for a declared attribute of `kind`, unless known: most ops of a type
    /// carry the same few values, and interning each (a list element by
    /// element) takes a lock and a look-up each time.
    pub fn attr(
        &mut self,
        kind: AttrKind,
        v: Option<&AttrValue<'_>>,
        translate: impl FnOnce() -> Attribute,
    ) -> Attribute {
        let hash = attr_hash(kind, v);
        self.kept_attr(
            hash,
            |k, kept| *k == kind && kept.is(v),
            || Some((kind, KeptValue::of(v)?)),
            translate,
        )
    }

    /// The array of int64 attributes of `values` (a `full_int_array`'s
    /// value), made by `make` unless known: the attribute of
    /// [`ContextMemo::attr`] for an int64 list attribute given these longs.
    pub fn int64_array(&mut self, values: &[i64], make: impl FnOnce() -> Attribute) -> Attribute {
        const KIND: AttrKind = AttrKind::Array(Some(ElementKind::Int64));
        let mut h = FxHasher::default();
        KIND.hash(&mut h);
        values.hash(&mut h);
        self.kept_attr(
            h.finish(),
            |k, kept| *k == KIND && matches!(kept, KeptValue::Longs(l) if **l == *values),
            || (values.len() <= MAX_KEPT_LEN).then(|| (KIND, KeptValue::Longs(values.into()))),
            make,
        )
    }

    /// A double attribute of `value` (a `full`'s value), made by `make`
    /// unless known.
    pub fn double(&mut self, value: f64, make: impl FnOnce() -> Attribute) -> Attribute {
        self.attr(AttrKind::Double, Some(&AttrValue::Float64(value)), make)
    }

    fn kept_attr(
        &mut self,
        hash: u64,
        is: impl FnOnce(&AttrKind, &KeptValue) -> bool,
        keep: impl FnOnce() -> Option<(AttrKind, KeptValue)>,
        make: impl FnOnce() -> Attribute,
    ) -> Attribute {
        if let Some((k, kept, a)) = self.attrs.get(&hash) {
            if is(k, kept) {
                return *a;
            }
        }
        let a = make();
        if self.attrs.len() < MAX_ENTRIES {
            if let Some((kind, kept)) = keep() {
                self.attrs.insert(hash, (kind, kept, a));
            }
        }
        a
    }

    /// The attribute of data type `dtype`, made by `make` unless known.
    pub fn data_type(&mut self, dtype: DataType, make: impl FnOnce() -> Attribute) -> Attribute {
        if let Some(&(_, a)) = self.data_types.iter().find(|(d, _)| *d == dtype) {
            return a;
        }
        let a = make();
        self.data_types.push((dtype, a));
        a
    }

    /// The type and attributes of the `full` made for scalar attribute
    /// `attr`, when made before.
    pub fn full_of_attr(&self, attr: Attribute) -> Option<(Type, [Attribute; 4])> {
        self.full_of_attr.get(&attr).copied()
    }

    /// Remembers [`ContextMemo::full_of_attr`] (within [`MAX_ENTRIES`]).
    pub fn keep_full_of_attr(&mut self, attr: Attribute, ty: Type, attrs: [Attribute; 4]) {
        if self.full_of_attr.len() < MAX_ENTRIES {
            self.full_of_attr.insert(attr, (ty, attrs));
        }
    }

    /// The op look-up `seq` of the last translation made of mutable
    /// attribute value `v` (an int array or a scalar), when of the same
    /// value: a model translated again gives its reshapes the same shapes,
    /// found without hashing the value or its attribute.
    pub fn as_input(&self, seq: usize, int_array: bool, v: &AttrValue<'_>) -> Option<AsInputOp> {
        let (kept_int_array, kept, made) = self.as_inputs.get(seq)?;
        (*kept_int_array == int_array && kept.is(Some(v))).then_some(*made)
    }

    /// Remembers [`ContextMemo::as_input`] (values of kept sizes only).
    pub fn keep_as_input(
        &mut self,
        seq: usize,
        int_array: bool,
        v: &AttrValue<'_>,
        made: AsInputOp,
    ) {
        let kept = KeptValue::of(Some(v)).map(|kept| (int_array, kept, made));
        self.as_inputs.keep(seq, kept);
    }

    /// The type and attributes of the zero `full` a fake false branch
    /// yields for a value of type `ty`, when made before.
    pub fn zero_full_of_type(&self, ty: Type) -> Option<(Type, [Attribute; 4])> {
        self.zero_full_of_type.get(&ty).copied()
    }

    /// Remembers [`ContextMemo::zero_full_of_type`] (within [`MAX_ENTRIES`]).
    pub fn keep_zero_full_of_type(&mut self, ty: Type, full: Type, attrs: [Attribute; 4]) {
        if self.zero_full_of_type.len() < MAX_ENTRIES {
            self.zero_full_of_type.insert(ty, (full, attrs));
        }
    }

    /// The type and attributes (value, data type) of the `full_int_array`
    /// made for int array attribute `attr`, when made before.
    pub fn int_array_of_attr(&self, attr: Attribute) -> Option<(Type, [Attribute; 2])> {
        self.int_array_of_attr.get(&attr).copied()
    }

    /// Remembers [`ContextMemo::int_array_of_attr`] (within [`MAX_ENTRIES`]).
    pub fn keep_int_array_of_attr(&mut self, attr: Attribute, ty: Type, attrs: [Attribute; 2]) {
        if self.int_array_of_attr.len() < MAX_ENTRIES {
            self.int_array_of_attr.insert(attr, (ty, attrs));
        }
    }

    /// The final dictionary of an op with the definition facts `facts`
    /// and the map's `values` in order: for a map in declared order
    /// ([`super::super::ops::in_declared_order`]) `keys` is empty, for a map
    /// of static keys ([`super::super::OpRecord::static_keys`]) it holds their
    /// addresses and lengths in map order. `seq` numbers the look-ups of a
    /// translation: a model translated again asks for the dictionary the
    /// look-up of the same number found, checked without hashing.
    pub fn finished_dict(
        &mut self,
        seq: usize,
        facts: usize,
        keys: &[(usize, usize)],
        values: &[Attribute],
    ) -> Option<AttrDict> {
        let same = |known: &FinishedKey| {
            known.facts == facts && *known.keys == *keys && *known.values == *values
        };
        let answer = self.finished_answers.get(seq);
        if let Some(known) = answer.and_then(|&i| self.finished.get(i as usize)) {
            if same(known) {
                return Some(known.dict);
            }
        }
        // Equal hashes of different keys make the dictionary again.
        let hash = FxBuildHasher.hash_one((facts, keys, values));
        let found = self
            .finished_by_hash
            .get(&hash)
            .copied()
            .filter(|&i| self.finished.get(i as usize).is_some_and(same));
        self.finished_answers.keep(seq, found);
        Some(self.finished.get(found? as usize)?.dict)
    }

    /// Remembers `dict` for [`ContextMemo::finished_dict`] as the answer
    /// of look-up `seq` (within [`MAX_ENTRIES`]).
    pub fn keep_finished_dict(
        &mut self,
        seq: usize,
        facts: usize,
        keys: &[(usize, usize)],
        values: &[Attribute],
        dict: AttrDict,
    ) {
        let Ok(i) = u32::try_from(self.finished.len()) else {
            return;
        };
        if self.finished.len() < MAX_ENTRIES {
            let hash = FxBuildHasher.hash_one((facts, keys, values));
            self.finished.push(FinishedKey {
                facts,
                keys: keys.into(),
                values: values.into(),
                dict,
            });
            self.finished_by_hash.insert(hash, i);
            self.finished_answers.keep(seq, Some(i));
        }
    }

    /// The final dictionary of an op without a definition whose map of
    /// static keys has `entries` (each key's address and length, and its
    /// value), when made before: a translation makes the same `builtin.slice`
    /// and control-flow ops each time.
    pub fn generic_dict(&self, entries: &[KeyedEntry]) -> Option<AttrDict> {
        self.generic_dicts.get(entries).copied()
    }

    /// Remembers [`ContextMemo::generic_dict`] (within [`MAX_ENTRIES`]).
    pub fn keep_generic_dict(&mut self, entries: &[KeyedEntry], dict: AttrDict) {
        if self.generic_dicts.len() < MAX_ENTRIES {
            self.generic_dicts.insert(entries.into(), dict);
        }
    }

    /// The final dictionary of a `builtin.parameter` whose map holds the
    /// name, `stop_gradient` and `persistable` attributes `key` in that
    /// order, when made before: it follows from those alone, and a model's
    /// parameters are the same in every translation of it.
    pub fn parameter_dict(&self, key: &[Attribute; 3]) -> Option<AttrDict> {
        self.parameter_dicts.get(key).copied()
    }

    /// Remembers [`ContextMemo::parameter_dict`] (within [`MAX_ENTRIES`]).
    pub fn keep_parameter_dict(&mut self, key: [Attribute; 3], dict: AttrDict) {
        if self.parameter_dicts.len() < MAX_ENTRIES {
            self.parameter_dicts.insert(key, dict);
        }
    }

    /// The values of the declared attributes of `def` (in declaration
    /// order) the general path made for a legacy op of type `op_type` whose
    /// attributes were read from `bytes` ([`crate::desc::OpDesc::attr_bytes`]),
    /// when made before (`seq` numbers the look-ups of a translation): they
    /// follow from those alone (the op type gives the extra attributes and
    /// the defaults), and ops of a type repeat a
    /// few attribute sets with other variables, within a model and in
    /// every translation of it.
    pub fn general_attrs(
        &mut self,
        seq: usize,
        def: &'static OpDef,
        op_type: &str,
        bytes: &[u8],
    ) -> Option<&[Attribute]> {
        // Equal hashes of different keys translate again.
        let same = |known: &GeneralAttrs| {
            known.def == std::ptr::from_ref(def) as usize
                && *known.op_type == *op_type
                && *known.bytes == *bytes
        };
        // The key of the look-up of the same number in the last translation,
        // when it is this one's, spares hashing the bytes.
        let kept = self.general_attr_keys.get(seq).copied();
        if let Some(known) = kept
            .and_then(|h| self.general_attrs.get(&h))
            .filter(|k| same(k))
        {
            return Some(&known.values);
        }
        let hash = general_attrs_hash(def, bytes);
        self.general_attr_keys.keep(seq, Some(hash));
        let known = self.general_attrs.get(&hash).filter(|known| same(known))?;
        Some(&known.values)
    }

    /// Remembers [`ContextMemo::general_attrs`] (within [`MAX_ENTRIES`]
    /// and [`MAX_KEPT_ATTR_BYTES`]).
    pub fn keep_general_attrs(
        &mut self,
        def: &'static OpDef,
        op_type: &str,
        bytes: &[u8],
        values: impl Iterator<Item = Attribute>,
    ) {
        if self.general_attrs.len() < MAX_ENTRIES && bytes.len() <= MAX_KEPT_ATTR_BYTES {
            let known = GeneralAttrs {
                def: std::ptr::from_ref(def) as usize,
                op_type: op_type.into(),
                bytes: bytes.into(),
                values: values.collect(),
            };
            let hash = general_attrs_hash(def, bytes);
            self.general_attrs.insert(hash, known);
        }
    }

    /// The dense tensor type of `elem` and `dims`, made by `make` unless
    /// known (within [`MAX_ENTRIES`]).
    pub fn tensor_type<E>(
        &mut self,
        elem: Elem,
        dims: &[i64],
        make: impl FnOnce() -> Result<Type, E>,
    ) -> Result<Type, E> {
        let hash = FxBuildHasher.hash_one((elem, dims));
        if let Some((k, d, t)) = self.tensor_types.get(&hash) {
            // Equal hashes of different keys make a new type.
            if *k == elem && same_dims(d, dims) {
                return Ok(*t);
            }
        }
        let t = make()?;
        if self.tensor_types.len() < MAX_ENTRIES {
            self.tensor_types.insert(hash, (elem, dims.into(), t));
        }
        Ok(t)
    }

    /// [`ContextMemo::tensor_type`] of variable `index` of block `block`:
    /// its type when last asked, if of the same element type and dims,
    /// found without hashing (a model translated again asks the same).
    #[inline]
    pub fn tensor_type_at<E>(
        &mut self,
        (block, index): (usize, usize),
        elem: Elem,
        dims: &[i64],
        make: impl FnOnce() -> Result<Type, E>,
    ) -> Result<Type, E> {
        if let Some(t) = self.kept_tensor_type_at((block, index), elem, dims) {
            return Ok(t);
        }
        self.keep_tensor_type_at((block, index), elem, dims, make)
    }

    /// The type [`ContextMemo::tensor_type_at`] keeps for variable `index`
    /// of block `block`, if of element type `elem` and dims `dims`.
    #[inline]
    pub fn kept_tensor_type_at(
        &self,
        (block, index): (usize, usize),
        elem: Elem,
        dims: &[i64],
    ) -> Option<Type> {
        let (k, d, t) = self.tensor_types_at.get(block)?.get(index)?.as_ref()?;
        (*k == elem && same_dims(d, dims)).then_some(*t)
    }

    /// [`ContextMemo::tensor_type_at`] of a place not kept with this type
    /// (out of line: the question a model translated again does not ask).
    #[inline(never)]
    fn keep_tensor_type_at<E>(
        &mut self,
        (block, index): (usize, usize),
        elem: Elem,
        dims: &[i64],
        make: impl FnOnce() -> Result<Type, E>,
    ) -> Result<Type, E> {
        let t = self.tensor_type(elem, dims, make)?;
        if block < MAX_ENTRIES && index < MAX_ENTRIES {
            if self.tensor_types_at.len() <= block {
                self.tensor_types_at.resize_with(block + 1, Vec::new);
            }
            let kept = &mut self.tensor_types_at[block];
            if kept.len() <= index {
                kept.resize_with(index + 1, || None);
            }
            kept[index] = Some((elem, dims.into(), t));
        }
        Ok(t)
    }
}

/// Equal dims, compared inline: most tensors have four or fewer, which a
/// `memcmp` call costs more than.
#[inline]
fn same_dims(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The element type a kept tensor type is known by: a variable's legacy
/// data type or the phi data type an op builder is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Elem {
    /// A variable's.
    Legacy(DataKind),
    /// An op builder's.
    Phi(DataType),
}

/// The context a memo was kept for, and the memo (boxed: it is moved in
/// and out of each translation, and whole it is a few hundred words).
type KeptMemo = (Weak<IrContext>, Option<Box<ContextMemo>>);

/// The memo of the last translation in the last context asked about.
static CONTEXT_MEMO: LazyLock<Mutex<KeptMemo>> = LazyLock::new(|| Mutex::new((Weak::new(), None)));

/// What a translation in `ctx` left ([`keep_context_memo`]), or an empty
/// memo. Taken, not shared: translations running at once never share one.
pub(crate) fn take_context_memo(ctx: &Arc<IrContext>) -> Box<ContextMemo> {
    let mut guard = CONTEXT_MEMO.lock().unwrap_or_else(PoisonError::into_inner);
    let (known_ctx, memo) = &mut *guard;
    if std::ptr::eq(known_ctx.as_ptr(), Arc::as_ptr(ctx)) {
        if let Some(memo) = memo.take() {
            return memo;
        }
    }
    let mut fresh = Box::<ContextMemo>::default();
    fresh.names.reserve(32);
    fresh.def_facts.reserve(32);
    fresh.tensor_types.reserve(32);
    fresh.target_plans[0].reserve(32);
    fresh.attrs.reserve(64);
    fresh
}

/// Keeps the memo of a finished translation in `ctx` for the next one
/// (within the bound of the other tables).
pub(crate) fn keep_context_memo(ctx: &Arc<IrContext>, mut memo: Box<ContextMemo>) {
    // Grown to the translated model's variables: kept only within the bound.
    let kept_at: usize = memo.tensor_types_at.iter().map(Vec::len).sum();
    if kept_at > MAX_ENTRIES {
        memo.tensor_types_at = Vec::new();
    }
    let sizes = [
        memo.names.len(),
        memo.def_facts.len(),
        memo.tensor_types.len(),
        memo.target_plans[0].len() + memo.target_plans[1].len(),
        memo.plans.len(),
        memo.attrs.len(),
        memo.data_types.len(),
        memo.finished.len(),
        memo.generic_dicts.len(),
        memo.finished_by_hash.len(),
        memo.parameter_dicts.len(),
        memo.full_of_attr.len(),
        memo.int_array_of_attr.len(),
        memo.zero_full_of_type.len(),
        memo.general_attrs.len(),
    ];
    if sizes.iter().any(|&n| n > MAX_ENTRIES) {
        return;
    }
    let mut guard = CONTEXT_MEMO.lock().unwrap_or_else(PoisonError::into_inner);
    *guard = (Arc::downgrade(ctx), Some(memo));
}

#[cfg(test)]
#[path = "context_tests.rs"]
mod tests;
