//! The reader's lookup tables: value ids and attribute dictionaries.

use std::hash::{BuildHasher, Hash, Hasher};

use pir_core::{Attribute, Symbol, Type, ValueId};
use rustc_hash::{FxBuildHasher, FxHashMap};

use super::build::Resolved;
use super::scan::{Batch, ScannerTables};

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

/// `list` emptied, its room kept, for items of the same layout (in the
/// reader, the same type over texts of another lifetime): the standard
/// library collects a vector's own iterator in place when the layouts
/// agree, so one read's buffers serve the next without allocating.
pub(super) fn emptied<T, U>(list: Vec<T>) -> Vec<U> {
    list.into_iter().filter_map(|_| None).collect()
}

/// `list` emptied, its room kept.
pub(super) fn cleared<T>(mut list: Vec<T>) -> Vec<T> {
    list.clear();
    list
}

/// `table`, a table of texts, emptied, its room kept, for texts of
/// another lifetime (see [`emptied`]).
#[allow(unsafe_code)]
pub(super) fn emptied_table<'a, 'b, V>(table: FxHashMap<&'a str, V>) -> FxHashMap<&'b str, V> {
    let mut table = std::mem::ManuallyDrop::new(table);
    table.clear();
    let table: *const FxHashMap<&'a str, V> = &*table;
    // SAFETY: the two types differ in the lifetime of their keys alone,
    // which has no bearing on their layout; the table is empty, so it
    // holds no key that would outlive its text under the other lifetime.
    // `ManuallyDrop` keeps the table read here from being dropped as well.
    unsafe { std::ptr::read(table.cast::<FxHashMap<&'b str, V>>()) }
}

/// `table` with room for the texts of about `ops` ops (see
/// [`small_table_room`]).
pub(super) fn with_room_for<V>(mut table: FxHashMap<&str, V>, ops: usize) -> FxHashMap<&str, V> {
    table.reserve(small_table_room(ops));
    table
}

/// The bytes of `list`'s room.
pub(super) fn room_bytes<T>(list: &Vec<T>) -> usize {
    list.capacity() * std::mem::size_of::<T>()
}

/// A read's buffers: those of a read that has ended, emptied one by one
/// (`Reader::into_program`, [`Buffers::bound`]), are what the context
/// keeps for the next read (see [`Kept`](super::Kept)), as
/// `Buffers<'static>`: made and freed at every read, they were 3-5 % of
/// reading a model of ten ops.
#[derive(Default)]
pub(super) struct Buffers<'a> {
    pub(super) batch: Batch<'a>,
    pub(super) resolved: Resolved,
    pub(super) values: Vec<Option<ValueId>>,
    pub(super) scanner: ScannerTables<'a>,
    pub(super) type_cache: FxHashMap<&'a str, Type>,
    pub(super) entry_cache: FxHashMap<&'a str, (Symbol, Attribute)>,
    /// One op's attributes, operands and result types.
    pub(super) attrs: Vec<(Symbol, Attribute)>,
    pub(super) operands: Vec<Option<ValueId>>,
    pub(super) result_types: Vec<Type>,
}

impl Buffers<'_> {
    /// Buffers larger than this (a large model's value table) are dropped
    /// rather than held idle between reads.
    const MAX_BYTES: usize = 256 << 10;

    /// Drops the buffers, emptied, of a read that has ended (see
    /// `Reader::into_program`) when they hold more than [`Self::MAX_BYTES`].
    pub(super) fn bound(&mut self) {
        if self.bytes() > Self::MAX_BYTES {
            *self = Buffers::default();
        }
    }

    /// Each buffer taken out, the room each had with it.
    pub(super) fn take_each(&mut self) -> Self {
        use std::mem::take;
        Buffers {
            batch: take(&mut self.batch),
            resolved: take(&mut self.resolved),
            values: take(&mut self.values),
            scanner: take(&mut self.scanner),
            type_cache: take(&mut self.type_cache),
            entry_cache: take(&mut self.entry_cache),
            attrs: take(&mut self.attrs),
            operands: take(&mut self.operands),
            result_types: take(&mut self.result_types),
        }
    }

    /// The bytes of their room.
    pub(super) fn bytes(&self) -> usize {
        let table = |len: usize| len * (std::mem::size_of::<(&str, Type)>() + 1);
        let entry_table =
            |len: usize| len * (std::mem::size_of::<(&str, (Symbol, Attribute))>() + 1);
        self.batch.bytes()
            + self.resolved.bytes()
            + room_bytes(&self.values)
            + self.scanner.bytes()
            + table(self.type_cache.capacity())
            + entry_table(self.entry_cache.capacity())
            + room_bytes(&self.attrs)
            + room_bytes(&self.operands)
            + room_bytes(&self.result_types)
    }
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
    #[cfg(test)]
    pub(super) fn new(file_len: usize, approx_ops: usize) -> ValueTable {
        ValueTable::reusing(Vec::new(), file_len, approx_ops)
    }

    /// [`ValueTable::new`] in the room of `dense`, which must be empty.
    pub(super) fn reusing(
        mut dense: Vec<Option<ValueId>>,
        file_len: usize,
        approx_ops: usize,
    ) -> ValueTable {
        // About 1.3 values per op in real models.
        dense.reserve(approx_ops * 3 / 2);
        ValueTable {
            dense,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_emptied_list_keeps_its_room() {
        let text = String::from("a b c");
        let mut words: Vec<&str> = Vec::with_capacity(8);
        words.extend(text.split(' '));
        let room = words.as_ptr() as usize;
        let emptied: Vec<&'static str> = emptied(words);
        drop(text);
        assert!(emptied.is_empty());
        assert_eq!(emptied.capacity(), 8);
        assert_eq!(emptied.as_ptr() as usize, room, "the same allocation");
    }

    #[test]
    fn an_emptied_table_keeps_its_room_and_serves_other_texts() {
        let text = String::from("a b c");
        let mut table: FxHashMap<&str, u32> = with_room(64);
        for (i, word) in text.split(' ').enumerate() {
            table.insert(word, i as u32);
        }
        let room = table.capacity();
        let mut emptied: FxHashMap<&'static str, u32> = emptied_table(table);
        drop(text);
        assert!(emptied.is_empty());
        assert_eq!(emptied.capacity(), room);
        assert_eq!(emptied.get("a"), None);
        emptied.insert("b", 7);
        assert_eq!(emptied.get("b"), Some(&7));
        assert_eq!(emptied.len(), 1);
    }
}
