//! The IR context: interner of symbols, types, attributes and attribute
//! dictionaries, and registry of dialects and operations.
//!
//! This mirrors Paddle's `pir::IrContext` (seed `ir-program-design.md`), without
//! its global singleton: create as many contexts as you like, share one between
//! threads (`IrContext` is `Send + Sync`; reads of interned data take no lock).
//!
//! ```
//! use pir_core::IrContext;
//! let ctx = IrContext::new();
//! let a = ctx.symbol("stop_gradient");
//! assert_eq!(a, ctx.symbol("stop_gradient"));
//! assert_eq!(ctx.symbol_str(a), "stop_gradient");
//! assert!(ctx.op_info(ctx.symbol("builtin.parameter")).is_some());
//! ```

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::atomic::AtomicU32;

use parking_lot::{Mutex, RwLock};
use rustc_hash::FxHashMap;

use crate::attributes::{
    AttrDecoder, AttrDef, AttrDict, AttrExactDecoder, Attribute, DictData, DynAttr,
};
use crate::interner::{fx_hash, Interner};
use crate::kind::KindStore;
use crate::op_info::{OpInfo, TraitId};
use crate::parser::{AttrParseFn, Expect, TypeParseFn};
use crate::types::{DynType, Type, TypeDecoder, TypeDef, TypeExactDecoder};

mod decoded;
mod dicts;
mod kept;
mod ops;

pub use kept::{KeptState, KEEP_BYTES};
pub use ops::OpSource;
use ops::NO_OP;

/// An interned string: op names, attribute names, parameter names.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Symbol(pub(crate) u32);

impl Symbol {
    /// The symbol's dense index in its context, for tables keyed by symbol.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

struct SymbolEntry {
    /// Static texts (op names from a dialect's table) are not copied.
    text: Cow<'static, str>,
    /// Index into `op_infos` when an op of this name is registered; a
    /// deferred registration (`DEFERRED`, its source and the op's number
    /// there) until first looked up; else `NO_OP`.
    op: AtomicU32,
}

/// A dialect: a named group of types, attributes and operations that registers
/// itself into a context.
pub trait Dialect: Send + Sync {
    /// The dialect's name (`builtin`, `pd_op`, `cf`, ...).
    fn name(&self) -> &'static str;
    /// Registers the dialect's kinds and ops into `ctx`.
    fn register(&self, ctx: &IrContext);
}

/// The IR context. See the module docs.
pub struct IrContext {
    symbols: Interner<SymbolEntry>,
    types: KindStore<Type>,
    attrs: KindStore<Attribute>,
    dicts: Interner<DictData>,
    /// The orders of unsorted dictionaries' entries by name (see `DictData::sorted`).
    orders: Interner<Box<[u32]>>,
    /// Each sequence of names a dictionary was made with, and its order by
    /// name: dictionaries of one op kind repeat their names, so a new one
    /// (one per op when ops carry their own names) finds its order here
    /// instead of sorting the names' texts.
    name_orders: Mutex<dicts::NameOrders>,
    op_infos: boxcar::Vec<OpInfo>,
    /// The sources of deferred registrations, by number.
    op_sources: boxcar::Vec<Box<dyn OpSource>>,
    /// Held while a deferred registration is built, so that it is built once.
    materializing: Mutex<()>,
    text: RwLock<TextRegistry>,
    traits: Mutex<Vec<String>>,
    dialects: Mutex<HashSet<&'static str>>,
    /// Texts of the JSON model format decoded before (see `decoded`).
    decoded: decoded::DecodedTexts,
    /// What a use (a print, a write, a read) leaves for the next, one
    /// state per type (see [`IrContext::take_kept`]).
    kept: kept::KeptStates,
    pub(crate) well_known: WellKnown,
}

/// What the text parser looks up: type parsers by keyword, attribute parsers
/// by typed-form tag and by leading word, and the kinds of common attribute
/// names.
struct TextRegistry {
    types: FxHashMap<&'static str, TypeParseFn>,
    attr_tags: FxHashMap<&'static str, AttrParseFn>,
    attr_keywords: FxHashMap<&'static str, AttrParseFn>,
    attr_names: FxHashMap<&'static str, Expect>,
}

/// Room the registries of a context start with: what a context with
/// Paddle's dialects registers (28 type keywords and JSON ids, 21
/// attribute tags and ids, 32 attribute keywords, 13 attribute names).
/// Grown from nothing they were rebuilt two dozen times while the dialects
/// registered (4% of the instructions of a small `pir verify`).
mod room {
    pub(super) const TYPES: usize = 32;
    pub(super) const ATTRS: usize = 24;
    pub(super) const ATTR_KEYWORDS: usize = 40;
    pub(super) const ATTR_NAMES: usize = 16;
}

/// An empty map with room for `n` entries.
pub(crate) fn map_with_room<K, V>(n: usize) -> FxHashMap<K, V> {
    FxHashMap::with_capacity_and_hasher(n, Default::default())
}

impl TextRegistry {
    fn with_room() -> Self {
        TextRegistry {
            types: map_with_room(room::TYPES),
            attr_tags: map_with_room(room::ATTRS),
            attr_keywords: map_with_room(room::ATTR_KEYWORDS),
            attr_names: map_with_room(room::ATTR_NAMES),
        }
    }
}

/// Symbols the core itself needs often.
pub(crate) struct WellKnown {
    pub(crate) op_callstack: Symbol,
    pub(crate) sym_shape_str: Symbol,
}

impl Default for IrContext {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for IrContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IrContext")
            .field("symbols", &self.symbols.len())
            .field("types", &self.types.len())
            .field("attributes", &self.attrs.len())
            .field("ops", &self.op_infos.count())
            .finish()
    }
}

/// The symbol of `s` in `symbols`, its entry made by `entry(s)` if it is
/// new.
fn intern_symbol<'s>(
    symbols: &Interner<SymbolEntry>,
    s: &'s str,
    entry: impl FnOnce(&'s str) -> SymbolEntry,
) -> Symbol {
    Symbol(symbols.intern(
        |s| fx_hash(*s),
        s,
        |e, s| &*e.text == *s,
        entry,
        |e| fx_hash(&*e.text),
    ))
}

/// The entry of a symbol that names no op.
fn plain_symbol(text: &'static str) -> SymbolEntry {
    SymbolEntry {
        text: Cow::Borrowed(text),
        op: AtomicU32::new(NO_OP),
    }
}

impl IrContext {
    /// A context with the builtin dialect registered.
    pub fn new() -> Self {
        let ctx = Self::empty();
        ctx.load_dialect(&crate::builtin::BuiltinDialect);
        ctx
    }

    fn empty() -> Self {
        let symbols = Interner::new();
        let well_known = WellKnown {
            op_callstack: intern_symbol(&symbols, "op_callstack", plain_symbol),
            sym_shape_str: intern_symbol(&symbols, "sym_shape_str", plain_symbol),
        };
        let ctx = IrContext {
            symbols,
            types: KindStore::new(false, room::TYPES),
            attrs: KindStore::new(true, room::ATTRS),
            dicts: Interner::guessing(),
            orders: Interner::new(),
            name_orders: Mutex::default(),
            op_infos: boxcar::Vec::new(),
            op_sources: boxcar::Vec::new(),
            materializing: Mutex::new(()),
            text: RwLock::new(TextRegistry::with_room()),
            traits: Mutex::new(Vec::new()),
            dialects: Mutex::new(HashSet::new()),
            decoded: decoded::DecodedTexts::default(),
            kept: Default::default(),
            well_known,
        };
        // Handle 0 of types and attributes is the null kind; of dicts, the empty dict.
        let null_ty = ctx.intern_type(crate::builtin::NullType);
        debug_assert_eq!(null_ty, Type::NULL);
        let null_attr = ctx.intern_attr(crate::builtin::NullAttr);
        debug_assert_eq!(null_attr, Attribute::NULL);
        let empty = ctx.dict(&[]);
        debug_assert_eq!(empty, AttrDict::EMPTY);
        for name in crate::op_info::traits::CORE_TRAITS {
            ctx.trait_id(name);
        }
        ctx
    }

    // ----- symbols -----

    /// Interns a string.
    pub fn symbol(&self, s: &str) -> Symbol {
        intern_symbol(&self.symbols, s, |s| {
            self.new_symbol_entry(s, || Cow::Owned(s.into()))
        })
    }

    /// Interns a static string without copying it.
    fn symbol_static(&self, s: &'static str) -> Symbol {
        intern_symbol(&self.symbols, s, |s| {
            self.new_symbol_entry(s, || Cow::Borrowed(s))
        })
    }

    /// The entry of the new symbol `s`: the name of a deferred op keeps
    /// its source's static text, any other symbol the text `text()` makes.
    fn new_symbol_entry(&self, s: &str, text: impl FnOnce() -> Cow<'static, str>) -> SymbolEntry {
        let (op, name) = self.deferred_op(s);
        SymbolEntry {
            op: AtomicU32::new(op),
            // A source that gave another text would break the table (the
            // entry must hash and compare as `s`).
            text: name
                .filter(|&name| name == s)
                .map_or_else(text, Cow::Borrowed),
        }
    }

    /// The symbol of `s` if it was interned before, or if `s` names a
    /// deferred op (as if every op's name were interned from the start).
    pub fn lookup_symbol(&self, s: &str) -> Option<Symbol> {
        match self.symbols.find(fx_hash(s), |e| &*e.text == s) {
            Some(index) => Some(Symbol(index)),
            None => (self.deferred_op(s).0 != NO_OP).then(|| self.symbol(s)),
        }
    }

    /// The text of a symbol.
    #[inline]
    pub fn symbol_str(&self, s: Symbol) -> &str {
        &self.symbols.get(s.0).text
    }

    // ----- types -----

    /// Interns a type: equal data gives the same handle.
    pub fn intern_type<T: TypeDef>(&self, data: T) -> Type {
        self.types.intern(data, |data| Box::new(data))
    }

    /// Interns the type of kind `T` that `key` stands for: `key` hashes as `T` does (as the
    /// one field of a newtype does, or `str` for `Box<str>`) and `matches` recognises it, so
    /// `make` builds a `T` only when none exists yet (a lookup allocates nothing). A key
    /// that hashes otherwise breaks uniquing: equal types may get two handles.
    pub fn intern_type_by<T: TypeDef, Q: std::hash::Hash + ?Sized>(
        &self,
        key: &Q,
        matches: impl Fn(&T) -> bool,
        make: impl FnOnce() -> T,
    ) -> Type {
        self.types
            .intern_by(key, matches, || Box::new(make()) as Box<dyn DynType>)
    }

    /// The store of types (see [`crate::kind`]).
    pub(crate) fn type_store(&self) -> &KindStore<Type> {
        &self.types
    }

    /// The stored data of a type.
    #[inline]
    pub fn type_data(&self, ty: Type) -> &dyn DynType {
        self.types.get(ty)
    }

    /// The data of `ty` if it is of kind `T`.
    #[inline]
    pub fn type_as<T: TypeDef>(&self, ty: Type) -> Option<&T> {
        self.type_data(ty).as_any().downcast_ref::<T>()
    }

    /// Whether `ty` is of kind `T`.
    pub fn type_is<T: TypeDef>(&self, ty: Type) -> bool {
        self.type_as::<T>(ty).is_some()
    }

    /// Registers a type kind so the JSON reader finds it by its ids and the
    /// text parser by its keywords.
    pub fn register_type<T: TypeDef>(&self) {
        self.types.register(T::JSON_IDS, T::decode, T::decode_exact);
        let mut text = self.text.write();
        for kw in T::KEYWORDS {
            text.types.insert(kw, T::parse);
        }
    }

    /// The text parser of the type kind whose text starts with `keyword`.
    pub fn type_parser(&self, keyword: &str) -> Option<TypeParseFn> {
        self.text.read().types.get(keyword).copied()
    }

    /// The text parser of the attribute kind tagged `tag` (`Int64`).
    pub fn attr_parser(&self, tag: &str) -> Option<AttrParseFn> {
        self.text.read().attr_tags.get(tag).copied()
    }

    /// The text parser of the attribute kind whose untagged value starts with `word`.
    pub fn attr_keyword_parser(&self, word: &str) -> Option<AttrParseFn> {
        self.text.read().attr_keywords.get(word).copied()
    }

    /// Declares the kind of attributes named `name` on any op, for parsing
    /// Paddle's untagged text (`stop_gradient` is an array of bools).
    pub fn register_attr_name_hint(&self, name: &'static str, expect: Expect) {
        self.text.write().attr_names.insert(name, expect);
    }

    /// The kind declared for attributes named `name`.
    pub fn attr_name_hint(&self, name: &str) -> Option<Expect> {
        self.text.read().attr_names.get(name).copied()
    }

    /// The decoder registered for a JSON type id.
    pub fn type_decoder(&self, json_id: &str) -> Option<TypeDecoder> {
        self.types.decoders(json_id).map(|(decode, _)| decode)
    }

    /// The reader of exact text ([`TypeDef::decode_exact`]) registered for a JSON type id.
    pub fn type_exact_decoder(&self, json_id: &str) -> Option<TypeExactDecoder> {
        self.types.decoders(json_id).map(|(_, exact)| exact)
    }

    // ----- attributes -----

    /// Interns an attribute: equal data gives the same handle.
    pub fn intern_attr<T: AttrDef>(&self, data: T) -> Attribute {
        self.attrs.intern(data, |data| Box::new(data))
    }

    /// Interns the attribute of kind `T` that `key` stands for, as
    /// [`intern_type_by`](Self::intern_type_by) does types.
    pub fn intern_attr_by<T: AttrDef, Q: std::hash::Hash + ?Sized>(
        &self,
        key: &Q,
        matches: impl Fn(&T) -> bool,
        make: impl FnOnce() -> T,
    ) -> Attribute {
        self.attrs
            .intern_by(key, matches, || Box::new(make()) as Box<dyn DynAttr>)
    }

    /// The store of attributes (see [`crate::kind`]).
    pub(crate) fn attr_store(&self) -> &KindStore<Attribute> {
        &self.attrs
    }

    /// Makes room for about `attrs` attributes and `dicts` attribute
    /// dictionaries in all, so a reader that knows roughly how many it will
    /// intern does not rehash the tables as they grow. Tables that hold as
    /// many already are left as they are: a context that read the same
    /// model before finds its items again, and room for them twice over
    /// would rehash every item and spread lookups over twice the memory.
    pub fn reserve_interned(&self, attrs: usize, dicts: usize) {
        self.attrs.reserve_total(attrs);
        self.dicts.reserve_total(dicts);
    }

    /// The stored data of an attribute.
    #[inline]
    pub fn attr_data(&self, attr: Attribute) -> &dyn DynAttr {
        self.attrs.get(attr)
    }

    /// The data of `attr` if it is of kind `T`.
    #[inline]
    pub fn attr_as<T: AttrDef>(&self, attr: Attribute) -> Option<&T> {
        self.attr_data(attr).as_any().downcast_ref::<T>()
    }

    /// Registers an attribute kind so the JSON reader finds it by its ids and
    /// the text parser by its tag and keywords.
    pub fn register_attr<T: AttrDef>(&self) {
        self.attrs.register(T::JSON_IDS, T::decode, T::decode_exact);
        let mut text = self.text.write();
        if !T::TAG.is_empty() {
            text.attr_tags.insert(T::TAG, T::parse);
        }
        for kw in T::KEYWORDS {
            text.attr_keywords.insert(kw, T::parse);
        }
    }

    /// The decoder registered for a JSON attribute id.
    pub fn attr_decoder(&self, json_id: &str) -> Option<AttrDecoder> {
        self.attrs.decoders(json_id).map(|(decode, _)| decode)
    }

    /// The reader of exact text ([`AttrDef::decode_exact`]) registered for a JSON attribute id.
    pub fn attr_exact_decoder(&self, json_id: &str) -> Option<AttrExactDecoder> {
        self.attrs.decoders(json_id).map(|(_, exact)| exact)
    }

    // ----- texts decoded before -----

    /// The type a reader decoded from the JSON text `text` (a type object
    /// of the model format) and gave to [`IrContext::remember_type_text`].
    pub fn type_of_text(&self, text: &str) -> Option<Type> {
        self.decoded.ty(text)
    }

    /// Keeps `ty`, decoded from the JSON text `text`, for later reads (see
    /// [`IrContext::type_of_text`]); past a few MiB of texts, nothing more.
    pub fn remember_type_text(&self, text: &str, ty: Type) {
        self.decoded.remember_ty(text, ty);
    }

    /// The attribute entry (`{"AT":…,"N":…}` of the model format) a reader
    /// decoded from the JSON text `text` and gave to
    /// [`IrContext::remember_entry_text`].
    pub fn entry_of_text(&self, text: &str) -> Option<(Symbol, Attribute)> {
        self.decoded.entry(text)
    }

    /// Keeps `entry`, decoded from the JSON text `text`, for later reads
    /// (see [`IrContext::entry_of_text`]); past a few MiB of texts, nothing more.
    pub fn remember_entry_text(&self, text: &str, entry: (Symbol, Attribute)) {
        self.decoded.remember_entry(text, entry);
    }

    // ----- dialects, ops, traits -----

    /// Registers a dialect (once; later calls are no-ops).
    pub fn load_dialect(&self, dialect: &dyn Dialect) {
        if self.dialects.lock().insert(dialect.name()) {
            dialect.register(self);
        }
    }

    /// Whether a dialect of this name is loaded.
    pub fn has_dialect(&self, name: &str) -> bool {
        self.dialects.lock().contains(name)
    }

    /// The id of a trait name, registering it on first use.
    pub fn trait_id(&self, name: &str) -> TraitId {
        let mut traits = self.traits.lock();
        if let Some(i) = traits.iter().position(|t| t == name) {
            return TraitId(i as u8);
        }
        assert!(traits.len() < 128, "more than 128 op traits registered");
        traits.push(name.to_owned());
        TraitId((traits.len() - 1) as u8)
    }

    /// The name of a trait.
    pub fn trait_name(&self, id: TraitId) -> String {
        self.traits
            .lock()
            .get(id.0 as usize)
            .cloned()
            .unwrap_or_default()
    }

    /// Prints a type to a string (Paddle's text form).
    pub fn display_type(&self, ty: Type) -> String {
        let mut out = Vec::new();
        crate::printer::Printer::new(self, &mut out).print_type(ty);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Prints an attribute to a string (Paddle's text form).
    pub fn display_attr(&self, attr: Attribute) -> String {
        let mut out = Vec::new();
        crate::printer::Printer::new(self, &mut out).print_attr(attr);
        String::from_utf8_lossy(&out).into_owned()
    }
}

#[cfg(test)]
#[path = "context_tests.rs"]
mod tests;
