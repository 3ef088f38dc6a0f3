//! Attributes: uniqued, `Copy` handles to immutable constant data, and ordered
//! attribute dictionaries.
//!
//! An attribute kind is a Rust struct implementing [`AttrDef`] — data, printed
//! form and JSON form in one place, like [`crate::types::TypeDef`]. An operation's
//! attributes are an [`AttrDict`]: an interned list of `(name, attribute)` pairs
//! that keeps insertion order (files must round-trip byte for byte) and caches the
//! by-name order the printer needs.
//!
//! ```
//! use pir_core::{IrContext, builtin::{BoolAttr, I32Attr}};
//! let ctx = IrContext::new();
//! let t = ctx.intern_attr(BoolAttr(true));
//! assert_eq!(t, ctx.intern_attr(BoolAttr(true)));
//! let d = ctx.dict(&[(ctx.symbol("z"), t), (ctx.symbol("a"), ctx.intern_attr(I32Attr(3)))]);
//! assert_eq!(ctx.display_attr(ctx.dict_get(d, ctx.symbol("a")).unwrap()), "3");
//! let names: Vec<&str> = ctx.dict_sorted(d).map(|(n, _)| ctx.symbol_str(n)).collect();
//! assert_eq!(names, ["a", "z"]);
//! ```

use std::any::Any;
use std::fmt::Debug;
use std::hash::Hash;

use crate::context::{IrContext, Symbol};
use crate::parser::{Expect, ParseError, Parser};
use crate::printer::Printer;
use crate::serial::{DecodeError, EncodeError, ExactJson, JsonPath, JsonValue, JsonWriter};
use crate::types::hash_with_kind;

/// A uniqued attribute. Equal handles ⇔ equal attributes (within one context).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Attribute(pub(crate) u32);

impl Attribute {
    /// The null attribute (`{"#":"NULL"}`, printed `<#AttrNull>`).
    pub const NULL: Attribute = Attribute(0);

    /// Whether this is the null attribute.
    pub fn is_null(self) -> bool {
        self == Attribute::NULL
    }

    /// The raw index (stable within one context), e.g. to key side tables.
    pub fn as_u32(self) -> u32 {
        self.0
    }
}

/// Reads an attribute of one kind from its JSON object.
pub type AttrDecoder = fn(
    ctx: &IrContext,
    id: &str,
    obj: JsonValue<'_>,
    path: &JsonPath<'_>,
) -> Result<Attribute, DecodeError>;

/// Reads an attribute of one kind from text spelled as the writer spells it
/// (see [`AttrDef::decode_exact`]).
pub type AttrExactDecoder =
    fn(ctx: &IrContext, id: &str, text: &mut ExactJson<'_>) -> Option<Attribute>;

/// The definition of an attribute kind.
pub trait AttrDef: Any + Send + Sync + Debug + Eq + Hash + Sized {
    /// Diagnostic name, e.g. `builtin.i32`.
    const NAME: &'static str;
    /// The JSON ids this kind reads.
    const JSON_IDS: &'static [&'static str];

    /// The kind's name in the typed text (`(Int64)3`); empty for kinds that
    /// cannot be parsed.
    const TAG: &'static str = "";

    /// Whether the printed value shows its kind (`true`, `"text"`, `[...]`),
    /// so the typed form writes it without a tag.
    const SELF_DESCRIBING: bool = false;

    /// Words that start an untagged value of this kind (`Place`, `float32`),
    /// by which the parser recognises values whose kind it does not know.
    const KEYWORDS: &'static [&'static str] = &[];

    /// Prints the attribute as Paddle 3.3 does; in the typed form
    /// ([`Printer::is_typed`]) losslessly.
    fn print(&self, p: &mut Printer<'_>);

    /// Parses the value [`AttrDef::print`] writes (either form). `expect`
    /// carries what the op says of nested values (array elements).
    fn parse(p: &mut Parser<'_>, expect: Expect) -> Result<Attribute, ParseError> {
        let _ = expect;
        Err(p.expected(&format!(
            "a value of {}, which has no text parser",
            Self::NAME
        )))
    }

    /// Writes the whole JSON object of the attribute.
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError>;

    /// Reads an attribute of this kind; `id` is the object's `"#"`.
    fn decode(
        ctx: &IrContext,
        id: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Attribute, DecodeError>;

    /// Reads an attribute of this kind from its JSON text spelled exactly as
    /// [`AttrDef::encode`] writes it, without a document: the cursor stands
    /// after `{"#":"id"` and the kind reads the rest of the object. `None`
    /// when the text is spelled any other way (or the kind has no such
    /// reader); the caller then decodes the text's document with
    /// [`AttrDef::decode`], so whatever this accepts it must read to the
    /// very attribute `decode` gives. Called through
    /// [`serial::decode_attr_exact`](crate::serial::decode_attr_exact).
    fn decode_exact(ctx: &IrContext, id: &str, text: &mut ExactJson<'_>) -> Option<Attribute> {
        let _ = (ctx, id, text);
        None
    }
}

/// Object-safe view of an [`AttrDef`], as stored in the context.
pub trait DynAttr: Any + Send + Sync + Debug {
    /// [`AttrDef::NAME`].
    fn kind_name(&self) -> &'static str;
    /// Equality with another stored attribute (false across kinds).
    fn dyn_eq(&self, other: &dyn DynAttr) -> bool;
    /// Hash including the kind.
    fn dyn_hash(&self) -> u64;
    /// For downcasting.
    fn as_any(&self) -> &dyn Any;
    /// [`AttrDef::TAG`].
    fn tag(&self) -> &'static str;
    /// [`AttrDef::SELF_DESCRIBING`].
    fn self_describing(&self) -> bool;
    /// [`AttrDef::print`].
    fn print(&self, p: &mut Printer<'_>);
    /// [`AttrDef::encode`].
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError>;
}

impl<T: AttrDef> DynAttr for T {
    fn kind_name(&self) -> &'static str {
        T::NAME
    }
    fn dyn_eq(&self, other: &dyn DynAttr) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn dyn_hash(&self) -> u64 {
        hash_with_kind(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn tag(&self) -> &'static str {
        T::TAG
    }
    fn self_describing(&self) -> bool {
        T::SELF_DESCRIBING
    }
    fn print(&self, p: &mut Printer<'_>) {
        AttrDef::print(self, p)
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        AttrDef::encode(self, ctx, w)
    }
}

/// An interned, ordered attribute dictionary (an operation's attribute map).
/// `AttrDict::EMPTY` is the empty dictionary.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AttrDict(pub(crate) u32);

impl AttrDict {
    /// The empty dictionary.
    pub const EMPTY: AttrDict = AttrDict(0);

    /// The raw index (stable within one context), e.g. to key side tables.
    pub fn as_u32(self) -> u32 {
        self.0
    }
}

/// Stored form of an [`AttrDict`].
#[derive(Debug)]
pub(crate) struct DictData {
    pub(crate) entries: Box<[(Symbol, Attribute)]>,
    /// The order of `entries` by the names' bytes (the printer's order), as
    /// 1 + its index among the context's interned orders: dictionaries of
    /// one op kind share their order, so a model with a dictionary per op
    /// stores a handful. `None` when `entries` are in that order already.
    pub(crate) sorted: Option<std::num::NonZeroU32>,
}
