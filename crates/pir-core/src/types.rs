//! Types: uniqued, `Copy` handles to immutable storage owned by the [`IrContext`].
//!
//! A type kind is a Rust struct implementing [`TypeDef`]: its data (hashed and
//! compared for uniquing), how Paddle prints it, and how Paddle's JSON encodes it
//! — all in one place. Registering the kind in a context (normally through its
//! dialect) makes the JSON reader find it by id. The printer and writer reach it
//! through the handle, so no layer has a `match` over all kinds.
//!
//! ```
//! use pir_core::{IrContext, builtin::{DenseTensorType, ScalarType, DataLayout}};
//! let ctx = IrContext::new();
//! let f32_ty = ctx.intern_type(ScalarType::F32);
//! let t1 = DenseTensorType::get(&ctx, f32_ty, &[-1, 4]);
//! let t2 = DenseTensorType::get(&ctx, f32_ty, &[-1, 4]);
//! assert_eq!(t1, t2); // uniqued: same data, same handle
//! assert_eq!(ctx.display_type(t1), "tensor<-1x4xf32>");
//! assert_eq!(ctx.type_as::<DenseTensorType>(t1).unwrap().layout, DataLayout::NCHW);
//! ```

use std::any::Any;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};

use crate::context::IrContext;
use crate::parser::{ParseError, Parser};
use crate::printer::Printer;
use crate::serial::{DecodeError, EncodeError, ExactJson, JsonPath, JsonValue, JsonWriter};

/// A uniqued type. Compare by handle: equal handles ⇔ equal types (within one context).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Type(pub(crate) u32);

impl Type {
    /// The null type (`{"#":"NULL"}` in JSON, `<<NULL TYPE>>` in text): the type
    /// of an absent optional result.
    pub const NULL: Type = Type(0);

    /// Whether this is the null type.
    pub fn is_null(self) -> bool {
        self == Type::NULL
    }

    /// The raw index (stable within one context).
    pub fn as_u32(self) -> u32 {
        self.0
    }
}

/// Reads a type of one kind from its JSON object (`{"#": id, "D": ...}`).
pub type TypeDecoder = fn(
    ctx: &IrContext,
    id: &str,
    obj: JsonValue<'_>,
    path: &JsonPath<'_>,
) -> Result<Type, DecodeError>;

/// Reads a type of one kind from text spelled as the writer spells it (see
/// [`TypeDef::decode_exact`]).
pub type TypeExactDecoder = fn(ctx: &IrContext, id: &str, text: &mut ExactJson<'_>) -> Option<Type>;

/// The definition of a type kind.
pub trait TypeDef: Any + Send + Sync + Debug + Eq + Hash + Sized {
    /// Diagnostic name, e.g. `builtin.dense_tensor`.
    const NAME: &'static str;
    /// The JSON ids this kind reads (e.g. `["0.t_dtensor"]`; scalar kinds list several).
    const JSON_IDS: &'static [&'static str];

    /// Words that start the kind's text (`tensor`; scalar kinds list `f32`,
    /// `i64`, ...), by which the parser finds the kind.
    const KEYWORDS: &'static [&'static str] = &[];

    /// Prints the type as Paddle 3.3 does; in the typed form
    /// ([`Printer::is_typed`]) also what Paddle leaves out.
    fn print(&self, p: &mut Printer<'_>);

    /// Parses the text [`TypeDef::print`] writes (either form), after its
    /// keyword `keyword` (which started at `start`).
    fn parse(p: &mut Parser<'_>, keyword: &str, start: usize) -> Result<Type, ParseError> {
        Err(p.error_at(
            start,
            keyword.len(),
            format!("type kind {} has no text parser", Self::NAME),
        ))
    }

    /// Writes the whole JSON object of the type (`{"#":...,"D":...}`).
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError>;

    /// Reads a type of this kind; `id` is the object's `"#"`, one of [`Self::JSON_IDS`].
    fn decode(
        ctx: &IrContext,
        id: &str,
        obj: JsonValue<'_>,
        path: &JsonPath<'_>,
    ) -> Result<Type, DecodeError>;

    /// Reads a type of this kind from its JSON text spelled exactly as
    /// [`TypeDef::encode`] writes it, without a document: the cursor stands
    /// after `{"#":"id"` and the kind reads the rest of the object. `None`
    /// when the text is spelled any other way (or the kind has no such
    /// reader); the caller then decodes the text's document with
    /// [`TypeDef::decode`], so whatever this accepts it must read to the
    /// very type `decode` gives. Called through [`serial::decode_type_exact`](crate::serial::decode_type_exact).
    fn decode_exact(ctx: &IrContext, id: &str, text: &mut ExactJson<'_>) -> Option<Type> {
        let _ = (ctx, id, text);
        None
    }
}

/// Object-safe view of a [`TypeDef`], as stored in the context.
pub trait DynType: Any + Send + Sync + Debug {
    /// [`TypeDef::NAME`].
    fn kind_name(&self) -> &'static str;
    /// Equality with another stored type (false across kinds).
    fn dyn_eq(&self, other: &dyn DynType) -> bool;
    /// Hash including the kind.
    fn dyn_hash(&self) -> u64;
    /// For downcasting.
    fn as_any(&self) -> &dyn Any;
    /// [`TypeDef::print`].
    fn print(&self, p: &mut Printer<'_>);
    /// [`TypeDef::encode`].
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError>;
}

pub(crate) fn hash_with_kind<T: Any + Hash>(value: &T) -> u64 {
    hash_as_kind::<T, T>(value)
}

/// [`hash_with_kind`] of a `T` from a borrowed form `key` that hashes as `T` does (e.g. `str`
/// for a newtype over `Box<str>`), so a lookup needs no `T`.
pub(crate) fn hash_as_kind<T: Any, Q: Hash + ?Sized>(key: &Q) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    std::any::TypeId::of::<T>().hash(&mut h);
    key.hash(&mut h);
    h.finish()
}

impl<T: TypeDef> DynType for T {
    fn kind_name(&self) -> &'static str {
        T::NAME
    }
    fn dyn_eq(&self, other: &dyn DynType) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn dyn_hash(&self) -> u64 {
        hash_with_kind(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn print(&self, p: &mut Printer<'_>) {
        TypeDef::print(self, p)
    }
    fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
        TypeDef::encode(self, ctx, w)
    }
}
