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
use crate::kind::{kind_codec_items, object_safe_view, Decoder, ExactDecoder};
use crate::parser::{ParseError, Parser};
use crate::printer::Printer;
use crate::serial::{DecodeError, DecodeInput, EncodeError, ExactJson, JsonWriter};

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
pub type TypeDecoder = Decoder<Type>;

/// Reads a type of one kind from text spelled as the writer spells it (see
/// [`TypeDef::decode_exact`]).
pub type TypeExactDecoder = ExactDecoder<Type>;

/// The definition of a type kind.
pub trait TypeDef: Any + Send + Sync + Debug + Eq + Hash + Sized {
    kind_codec_items!(Type, "a type");

    /// Words that start the kind's text (`tensor`; scalar kinds list `f32`,
    /// `i64`, ...), by which the parser finds the kind.
    const KEYWORDS: &'static [&'static str] = &[];

    /// Parses the text [`TypeDef::print`] writes (either form), after its
    /// keyword `keyword` (which started at `start`).
    fn parse(p: &mut Parser<'_>, keyword: &str, start: usize) -> Result<Type, ParseError> {
        Err(p.error_at(
            start,
            keyword.len(),
            format!("type kind {} has no text parser", Self::NAME),
        ))
    }
}

object_safe_view! {
    /// Object-safe view of a [`TypeDef`], as stored in the context.
    DynType for TypeDef;
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
