//! The reader's lookup tables: value ids and attribute dictionaries.

use std::hash::{BuildHasher, Hash, Hasher};

use pir_core::ValueId;
use rustc_hash::{FxBuildHasher, FxHashMap};

/// Room for the reader's tables of what is distinct per op kind or per text
/// (types, attribute entries, memos) in a file of about `ops` ops: tens to
/// hundreds in real models. Reserving it up front spares their growth one
/// doubling at a time (2-3 % of loading a model of a few hundred ops).
pub(super) fn small_table_room(ops: usize) -> usize {
    ops.clamp(16, 256)
}

/// The slot `index` of `list`, made (with its default) if missing: the
/// reader's tables by a dense number (a scanner's `TextId`, an op name's).
pub(super) fn slot<T: Default>(list: &mut Vec<T>, index: usize) -> &mut T {
    if index >= list.len() {
        // Numbers come one after another: grown in steps, not one at a
        // time, from a few (an op kind's places, read once in a small model).
        let len = (index + 1).max(list.len() * 2).max(4);
        list.resize_with(len, T::default);
    }
    &mut list[index]
}

/// An empty table with room for `room` entries.
pub(super) fn with_room<K, V>(room: usize) -> FxHashMap<K, V> {
    FxHashMap::with_capacity_and_hasher(room, FxBuildHasher)
}

/// The last two of something seen at one place of the file, newest first.
pub(super) type Recent<T> = [Option<T>; 2];

/// Attribute dictionaries by the texts of an op's `A` and `OA` lists. Models
/// whose ops carry unique attributes (a `struct_name` per layer) never repeat a
/// whole list: once most lookups miss, new lists are no longer stored, so
/// such files do not pay a table entry per op for nothing.
pub(super) struct DictCache<'a, V> {
    pub(super) map: FxHashMap<DictKey<'a>, V>,
    hits: u64,
    pub(super) misses: u64,
}

impl<V> Default for DictCache<'_, V> {
    fn default() -> Self {
        DictCache {
            map: FxHashMap::default(),
            hits: 0,
            misses: 0,
        }
    }
}

impl<'a, V: Copy> DictCache<'a, V> {
    /// Lookups after which the hit rate decides whether new lists are stored.
    pub(super) const TRIAL: u64 = 4096;

    pub(super) fn get(&mut self, key: &DictKey<'a>) -> Option<V> {
        let found = self.map.get(key).copied();
        match found {
            Some(_) => self.hits += 1,
            None => self.misses += 1,
        }
        found
    }

    pub(super) fn insert(&mut self, key: DictKey<'a>, dict: V) -> bool {
        let worth_it = self.misses < Self::TRIAL || self.hits * 4 >= self.misses;
        if worth_it {
            self.map.insert(key, dict);
        }
        worth_it
    }
}

/// The texts of an op's `A` and `OA` lists (`""` without `OA`), the key of a
/// [`DictCache`], with their hash: hashed once for the lookup and the insert
/// that follows a miss (the texts run to hundreds of bytes, and in models
/// with a `struct_name` per op nearly every lookup misses).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct DictKey<'a> {
    hash: u64,
    texts: (&'a str, &'a str),
}

impl<'a> DictKey<'a> {
    pub(super) fn new(texts: (&'a str, &'a str)) -> Self {
        DictKey {
            hash: FxBuildHasher.hash_one(texts),
            texts,
        }
    }
}

impl Hash for DictKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// The file's value ids → values. Paddle numbers results 1, 2, 3, … in file
/// order (block arguments get negative ids), so positive ids index a dense
/// vector; it only grows up to a bound set by the file's size (every value
/// takes several bytes of the file), and ids past it or below 1 go to a map.
pub(super) struct ValueTable {
    pub(super) dense: Vec<Option<ValueId>>,
    pub(super) dense_limit: usize,
    sparse: FxHashMap<i64, ValueId>,
}

impl ValueTable {
    pub(super) fn new(file_len: usize, approx_ops: usize) -> ValueTable {
        ValueTable {
            // About 1.3 values per op in real models.
            dense: Vec::with_capacity(approx_ops * 3 / 2),
            dense_limit: file_len / 4 + 1024,
            sparse: FxHashMap::default(),
        }
    }

    fn dense_index(&self, id: i64) -> Option<usize> {
        usize::try_from(id).ok().filter(|&i| i < self.dense_limit)
    }

    /// Binds `id` (not 0); false when it was bound already.
    pub(super) fn insert(&mut self, id: i64, v: ValueId) -> bool {
        let Some(i) = self.dense_index(id) else {
            return self.sparse.insert(id, v).is_none();
        };
        if i >= self.dense.len() {
            self.dense.resize(i + 1, None);
        }
        match self.dense.get_mut(i) {
            Some(slot @ None) => {
                *slot = Some(v);
                true
            }
            _ => false,
        }
    }

    pub(super) fn get(&self, id: i64) -> Option<ValueId> {
        match self.dense_index(id) {
            Some(i) => self.dense.get(i).copied().flatten(),
            None => self.sparse.get(&id).copied(),
        }
    }
}
