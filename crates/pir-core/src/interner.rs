//! A thread-safe, append-only interner used for symbols, types, attributes and
//! attribute dictionaries.
//!
//! Reads (`get`) are lock-free: items live in a `boxcar::Vec`, whose elements never
//! move. Interning takes a short mutex around a hash table of indices, so the same
//! value interned twice — from any thread — yields the same index.

use hashbrown::HashTable;
use parking_lot::Mutex;
use std::hash::{BuildHasher, Hash};

pub(crate) struct Interner<T> {
    items: boxcar::Vec<T>,
    table: Mutex<HashTable<u32>>,
}

pub(crate) fn fx_hash<H: Hash + ?Sized>(value: &H) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(value)
}

impl<T> Interner<T> {
    pub(crate) fn new() -> Self {
        Interner {
            items: boxcar::Vec::new(),
            table: Mutex::new(HashTable::new()),
        }
    }

    /// Returns the index of the item equal to `probe` (by `hash` and `eq`),
    /// inserting `make(probe)` if there is none. `rehash` recomputes the hash of a
    /// stored item when the table grows.
    pub(crate) fn intern<V>(
        &self,
        hash: u64,
        probe: V,
        eq: impl Fn(&T, &V) -> bool,
        make: impl FnOnce(V) -> T,
        rehash: impl Fn(&T) -> u64,
    ) -> u32 {
        let mut table = self.table.lock();
        if let Some(&index) = table.find(hash, |&i| eq(self.get(i), &probe)) {
            return index;
        }
        let index = self.items.push(make(probe));
        let index = u32::try_from(index).expect("interner overflow: more than 4 billion items");
        table.insert_unique(hash, index, |&i| rehash(self.get(i)));
        index
    }

    /// Makes room for `total` items in all without growing the table on
    /// the way (`rehash` as for [`Interner::intern`]).
    pub(crate) fn reserve_total(&self, total: usize, rehash: impl Fn(&T) -> u64) {
        let mut table = self.table.lock();
        let additional = total.saturating_sub(table.len());
        table.reserve(additional, |&i| rehash(self.get(i)));
    }

    /// Looks up without inserting.
    pub(crate) fn find(&self, hash: u64, eq: impl Fn(&T) -> bool) -> Option<u32> {
        let table = self.table.lock();
        table.find(hash, |&i| eq(self.get(i))).copied()
    }

    #[inline]
    pub(crate) fn get(&self, index: u32) -> &T {
        match self.items.get(index as usize) {
            Some(item) => item,
            None => panic!("handle {index} does not belong to this context"),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.items.count()
    }
}
