//! What types and attributes share: one uniquing store behind both handles.
//!
//! A type and an attribute are the same thing twice over — a `Copy` handle
//! to immutable data of some kind, uniqued by the context, printed and
//! saved by its kind, read back by the kind its JSON id names. `KindStore`
//! holds the data and the JSON readers of one of the two; the context has
//! one for types and one for attributes, and `HandleKind` says which a
//! handle belongs to, so the context, the JSON framing
//! ([`crate::serial`]) and the kind traits are written once for both.

use std::any::Any;
use std::hash::Hash;

use parking_lot::RwLock;
use rustc_hash::FxHashMap;

use crate::attributes::{Attribute, DynAttr};
use crate::context::IrContext;
use crate::interner::Interner;
use crate::serial::{DecodeError, DecodeInput, EncodeError, ExactJson, JsonWriter};
use crate::types::{hash_as_kind, hash_with_kind, DynType, Type};

/// Reads a value of one kind from its JSON object (`{"#": id, "D": ...}`);
/// `H` is [`Type`] or [`Attribute`].
pub type Decoder<H> = fn(input: DecodeInput<'_>) -> Result<H, DecodeError>;

/// Reads a value of one kind from text spelled exactly as the writer spells
/// it (see [`TypeDef::decode_exact`](crate::TypeDef::decode_exact)).
pub type ExactDecoder<H> = fn(ctx: &IrContext, id: &str, text: &mut ExactJson<'_>) -> Option<H>;

/// The members of [`TypeDef`](crate::TypeDef) and [`AttrDef`](crate::AttrDef)
/// that say what a kind is called and how Paddle's JSON spells it, written
/// once for both traits (`$handle` is the trait's handle, `$what` its noun).
macro_rules! kind_codec_items {
    ($handle:ident, $what:literal) => {
        /// Diagnostic name, e.g. `builtin.dense_tensor`.
        const NAME: &'static str;
        /// The JSON ids this kind reads (e.g. `["0.t_dtensor"]`; scalar kinds list several).
        const JSON_IDS: &'static [&'static str];

        /// Prints the value as Paddle 3.3 does; in the typed form
        /// ([`Printer::is_typed`]) also what Paddle leaves out.
        fn print(&self, p: &mut Printer<'_>);

        /// Writes the whole JSON object of the value (`{"#":...,"D":...}`).
        fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError>;

        /// Reads a value of this kind from its JSON object; the input's `id`
        /// is the object's `"#"`, one of [`Self::JSON_IDS`].
        fn decode(input: DecodeInput<'_>) -> Result<$handle, DecodeError>;

        #[doc = concat!(
            "Reads ", $what, " of this kind from its JSON text spelled exactly as `encode` ",
            "writes it, without a document: the cursor stands after `{\"#\":\"id\"` and the ",
            "kind reads the rest of the object. `None` when the text is spelled any other way ",
            "(or the kind has no such reader); the caller then decodes the text's document ",
            "with `decode`, so whatever this accepts it must read to the very value `decode` ",
            "gives. Called through [`serial`](crate::serial)'s `decode_*_exact`."
        )]
        fn decode_exact(ctx: &IrContext, id: &str, text: &mut ExactJson<'_>) -> Option<$handle> {
            let _ = (ctx, id, text);
            None
        }
    };
}
pub(crate) use kind_codec_items;

/// Declares the object-safe view of a kind trait (what the context stores)
/// and implements it for every kind: its methods forward to the kind's
/// items, the extra ones (`fn tag(&self) -> &'static str = T::TAG;`) to the
/// constants named.
macro_rules! object_safe_view {
    (
        $(#[$doc:meta])* $view:ident for $def:ident;
        $($(#[$extra_doc:meta])* fn $extra:ident(&self) -> $ty:ty = $value:expr;)*
    ) => {
        $(#[$doc])*
        pub trait $view: std::any::Any + Send + Sync + std::fmt::Debug {
            /// The kind's `NAME`.
            fn kind_name(&self) -> &'static str;
            /// Equality with another stored value (false across kinds).
            fn dyn_eq(&self, other: &dyn $view) -> bool;
            /// Hash including the kind.
            fn dyn_hash(&self) -> u64;
            /// For downcasting.
            fn as_any(&self) -> &dyn std::any::Any;
            $($(#[$extra_doc])* fn $extra(&self) -> $ty;)*
            /// The kind's `print`.
            fn print(&self, p: &mut Printer<'_>);
            /// The kind's `encode`.
            fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError>;
        }

        impl<T: $def> $view for T {
            fn kind_name(&self) -> &'static str {
                T::NAME
            }
            fn dyn_eq(&self, other: &dyn $view) -> bool {
                other.as_any().downcast_ref::<T>() == Some(self)
            }
            fn dyn_hash(&self) -> u64 {
                $crate::types::hash_with_kind(self)
            }
            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
            $(fn $extra(&self) -> $ty {
                $value
            })*
            fn print(&self, p: &mut Printer<'_>) {
                $def::print(self, p)
            }
            fn encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError> {
                $def::encode(self, ctx, w)
            }
        }

        impl $crate::kind::StoredData for dyn $view {
            fn stored_hash(&self) -> u64 {
                self.dyn_hash()
            }
            fn stored_any(&self) -> &dyn std::any::Any {
                self.as_any()
            }
            fn stored_encode(
                &self,
                ctx: &IrContext,
                w: &mut JsonWriter<'_>,
            ) -> Result<(), EncodeError> {
                self.encode(ctx, w)
            }
        }
    };
}
pub(crate) use object_safe_view;

/// The stored form of a value (`dyn DynType`, `dyn DynAttr`) as the store uses it.
pub(crate) trait StoredData: Send + Sync {
    /// The hash the value was interned by.
    fn stored_hash(&self) -> u64;
    /// For comparing with a value of a known kind.
    fn stored_any(&self) -> &dyn Any;
    /// Writes the value's JSON object.
    fn stored_encode(&self, ctx: &IrContext, w: &mut JsonWriter<'_>) -> Result<(), EncodeError>;
}

/// A handle to uniqued data: [`Type`] or [`Attribute`].
pub(crate) trait HandleKind: Copy + 'static {
    /// What the context stores per value.
    type Data: ?Sized + StoredData;
    /// The noun for messages (`type`, `attribute`).
    const WHAT: &'static str;
    /// The context's store of this handle's values.
    fn store(ctx: &IrContext) -> &KindStore<Self>;
    /// The handle of the store's item `index`.
    fn from_index(index: u32) -> Self;
    /// The handle's index in its store.
    fn index(self) -> u32;
}

impl HandleKind for Type {
    type Data = dyn DynType;
    const WHAT: &'static str = "type";
    fn store(ctx: &IrContext) -> &KindStore<Self> {
        ctx.type_store()
    }
    fn from_index(index: u32) -> Self {
        Type(index)
    }
    fn index(self) -> u32 {
        self.0
    }
}

impl HandleKind for Attribute {
    type Data = dyn DynAttr;
    const WHAT: &'static str = "attribute";
    fn store(ctx: &IrContext) -> &KindStore<Self> {
        ctx.attr_store()
    }
    fn from_index(index: u32) -> Self {
        Attribute(index)
    }
    fn index(self) -> u32 {
        self.0
    }
}

/// A kind's two JSON readers: of a document, and of exact text.
type Readers<H> = (Decoder<H>, ExactDecoder<H>);

/// The uniqued values behind one handle type, and the JSON readers of their
/// kinds by id.
pub(crate) struct KindStore<H: HandleKind> {
    items: Interner<Box<H::Data>>,
    /// Each JSON id's kind: its decoder and its reader of exact text.
    decoders: RwLock<FxHashMap<&'static str, Readers<H>>>,
}

impl<H: HandleKind> KindStore<H> {
    /// A store whose interner guesses (see [`Interner::guessing`]) when
    /// `guessing` (for kinds a model brings about one of per op), with
    /// room for `ids` JSON ids.
    pub(crate) fn new(guessing: bool, ids: usize) -> Self {
        KindStore {
            items: if guessing {
                Interner::guessing()
            } else {
                Interner::new()
            },
            decoders: RwLock::new(crate::context::map_with_room(ids)),
        }
    }

    /// Interns `data` (boxed by `boxed` when it is new): equal data gives the same handle.
    #[inline]
    pub(crate) fn intern<T: Any + Hash + Eq>(
        &self,
        data: T,
        boxed: impl FnOnce(T) -> Box<H::Data>,
    ) -> H {
        H::from_index(self.items.intern(
            hash_with_kind,
            data,
            |stored, data| stored.stored_any().downcast_ref::<T>() == Some(data),
            boxed,
            |stored| stored.stored_hash(),
        ))
    }

    /// Interns the value of kind `T` that `key` stands for (see
    /// [`IrContext::intern_type_by`]): `make` runs only when none exists yet.
    #[inline]
    pub(crate) fn intern_by<T: Any, Q: Hash + ?Sized>(
        &self,
        key: &Q,
        matches: impl Fn(&T) -> bool,
        make: impl FnOnce() -> Box<H::Data>,
    ) -> H {
        H::from_index(self.items.intern(
            |()| hash_as_kind::<T, Q>(key),
            (),
            |stored, ()| {
                stored
                    .stored_any()
                    .downcast_ref::<T>()
                    .is_some_and(&matches)
            },
            |()| make(),
            |stored| stored.stored_hash(),
        ))
    }

    /// The stored data of a handle.
    #[inline]
    pub(crate) fn get(&self, handle: H) -> &H::Data {
        self.items.get(handle.index())
    }

    /// How many values are stored.
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// Makes room for `total` values in all (see [`IrContext::reserve_interned`]).
    pub(crate) fn reserve_total(&self, total: usize) {
        self.items.reserve_total(total);
    }

    /// Makes the kind with these JSON ids and readers known to the JSON reader.
    pub(crate) fn register(
        &self,
        ids: &[&'static str],
        decode: Decoder<H>,
        exact: ExactDecoder<H>,
    ) {
        let mut map = self.decoders.write();
        for &id in ids {
            map.insert(id, (decode, exact));
        }
    }

    /// The readers registered for a JSON id.
    #[inline]
    pub(crate) fn decoders(&self, json_id: &str) -> Option<Readers<H>> {
        self.decoders.read().get(json_id).copied()
    }
}
