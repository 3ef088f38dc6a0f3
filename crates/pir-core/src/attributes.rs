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
use crate::kind::{kind_codec_items, object_safe_view, Decoder, ExactDecoder};
use crate::parser::{Expect, ParseError, Parser};
use crate::printer::Printer;
use crate::serial::{DecodeError, DecodeInput, EncodeError, ExactJson, JsonWriter};

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
pub type AttrDecoder = Decoder<Attribute>;

/// Reads an attribute of one kind from text spelled as the writer spells it
/// (see [`AttrDef::decode_exact`]).
pub type AttrExactDecoder = ExactDecoder<Attribute>;

/// The definition of an attribute kind.
pub trait AttrDef: Any + Send + Sync + Debug + Eq + Hash + Sized {
    kind_codec_items!(Attribute, "an attribute");

    /// The kind's name in the typed text (`(Int64)3`); empty for kinds that
    /// cannot be parsed.
    const TAG: &'static str = "";

    /// Whether the printed value shows its kind (`true`, `"text"`, `[...]`),
    /// so the typed form writes it without a tag.
    const SELF_DESCRIBING: bool = false;

    /// Words that start an untagged value of this kind (`Place`, `float32`),
    /// by which the parser recognises values whose kind it does not know.
    const KEYWORDS: &'static [&'static str] = &[];

    /// Parses the value [`AttrDef::print`] writes (either form). `expect`
    /// carries what the op says of nested values (array elements).
    fn parse(p: &mut Parser<'_>, expect: Expect) -> Result<Attribute, ParseError> {
        let _ = expect;
        Err(p.expected(&format!(
            "a value of {}, which has no text parser",
            Self::NAME
        )))
    }
}

object_safe_view! {
    /// Object-safe view of an [`AttrDef`], as stored in the context.
    DynAttr for AttrDef;
    /// [`AttrDef::TAG`].
    fn tag(&self) -> &'static str = T::TAG;
    /// [`AttrDef::SELF_DESCRIBING`].
    fn self_describing(&self) -> bool = T::SELF_DESCRIBING;
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
