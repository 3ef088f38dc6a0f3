//! Typed indices and index-based arenas.
//!
//! Every IR entity (operation, value, operand, block, region) is addressed by a
//! 32-bit id with a niche, so `Option<OpId>` is still 4 bytes. An [`Arena`] owns
//! the entities and hands out ids; a [`SecondaryMap`] is a side table keyed by the
//! same ids. This mirrors cranelift's `PrimaryMap`/`SecondaryMap` and rustc's
//! `IndexVec`: no reference counting, no interior mutability, cheap copies.
//!
//! ```
//! use pir_core::entity::{Arena, EntityId};
//! pir_core::entity_id!(
//!     /// A demo id.
//!     pub struct NodeId, "node"
//! );
//! let mut nodes: Arena<NodeId, &str> = Arena::new();
//! let a = nodes.push("a");
//! assert_eq!(nodes[a], "a");
//! assert_eq!(format!("{a:?}"), "node0");
//! assert_eq!(std::mem::size_of::<Option<NodeId>>(), 4);
//! ```

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A typed index into an [`Arena`].
pub trait EntityId: Copy + Eq + std::hash::Hash + std::fmt::Debug {
    /// Builds the id of the `index`-th entity.
    fn new(index: usize) -> Self;
    /// The position of the entity in its arena.
    fn index(self) -> usize;
}

/// Declares a `u32` id type with a niche (stored as `index + 1` in a `NonZeroU32`)
/// and a display prefix used by `Debug`.
#[macro_export]
macro_rules! entity_id {
    ($(#[$meta:meta])* $vis:vis struct $name:ident, $prefix:literal) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $name(::std::num::NonZeroU32);

        impl $crate::entity::EntityId for $name {
            #[inline]
            fn new(index: usize) -> Self {
                let raw = u32::try_from(index + 1).expect("more than u32::MAX - 1 entities");
                match ::std::num::NonZeroU32::new(raw) {
                    Some(n) => $name(n),
                    None => unreachable!(),
                }
            }
            #[inline]
            fn index(self) -> usize {
                (self.0.get() - 1) as usize
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($prefix, "{}"), $crate::entity::EntityId::index(*self))
            }
        }
    };
}

/// An arena that owns entities of type `V`, addressed by ids of type `K`.
#[derive(Clone)]
pub struct Arena<K: EntityId, V> {
    items: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityId, V> Default for Arena<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityId, V> Arena<K, V> {
    /// An empty arena.
    pub const fn new() -> Self {
        Arena {
            items: Vec::new(),
            _key: PhantomData,
        }
    }

    /// An empty arena with room for `n` entities.
    pub fn with_capacity(n: usize) -> Self {
        Arena {
            items: Vec::with_capacity(n),
            _key: PhantomData,
        }
    }

    /// Adds an entity and returns its id.
    #[inline]
    pub fn push(&mut self, value: V) -> K {
        let id = K::new(self.items.len());
        self.items.push(value);
        id
    }

    /// The id the next `push` will return.
    pub fn next_id(&self) -> K {
        K::new(self.items.len())
    }

    /// Number of entities ever pushed (erased ones included).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing was pushed yet.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Whether `id` belongs to this arena's range.
    pub fn contains(&self, id: K) -> bool {
        id.index() < self.items.len()
    }

    /// The entity, if `id` is in range.
    pub fn get(&self, id: K) -> Option<&V> {
        self.items.get(id.index())
    }

    /// Iterates over `(id, entity)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> + '_ {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }

    /// Reserves room for `n` more entities.
    pub fn reserve(&mut self, n: usize) {
        self.items.reserve(n);
    }

    /// Frees unused capacity.
    pub fn shrink_to_fit(&mut self) {
        self.items.shrink_to_fit();
    }

    /// Bytes of heap capacity held by the arena.
    pub fn capacity_bytes(&self) -> usize {
        self.items.capacity() * std::mem::size_of::<V>()
    }
}

impl<K: EntityId, V> Index<K> for Arena<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, id: K) -> &V {
        &self.items[id.index()]
    }
}

impl<K: EntityId, V> IndexMut<K> for Arena<K, V> {
    #[inline]
    fn index_mut(&mut self, id: K) -> &mut V {
        &mut self.items[id.index()]
    }
}

/// A side table keyed by entity ids; missing entries read as the default value.
#[derive(Clone)]
pub struct SecondaryMap<K: EntityId, V: Clone> {
    items: Vec<V>,
    default: V,
    _key: PhantomData<K>,
}

impl<K: EntityId, V: Clone> SecondaryMap<K, V> {
    /// A table whose every entry reads as `default` until set.
    pub fn with_default(default: V) -> Self {
        SecondaryMap {
            items: Vec::new(),
            default,
            _key: PhantomData,
        }
    }

    /// The entry for `id`.
    #[inline]
    pub fn get(&self, id: K) -> &V {
        self.items.get(id.index()).unwrap_or(&self.default)
    }

    /// Sets the entry for `id`, growing the table as needed.
    #[inline]
    pub fn set(&mut self, id: K, value: V) {
        let i = id.index();
        if i >= self.items.len() {
            self.items.resize(i + 1, self.default.clone());
        }
        self.items[i] = value;
    }

    /// Resets every entry to the default.
    pub fn clear(&mut self) {
        self.items.clear();
    }
}

impl<K: EntityId, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::with_default(V::default())
    }
}
