//! A thread-safe, append-only interner used for symbols, types, attributes and
//! attribute dictionaries.
//!
//! Reads (`get`) are lock-free: items live in a `boxcar::Vec`, whose elements never
//! move. Interning takes a short mutex around a hash table of indices, so the same
//! value interned twice — from any thread — yields the same index.
//!
//! The table is open-addressed with linear probing, each slot holding an
//! item's index beside 32 bits of its hash. Models whose ops carry names of
//! their own bring a new dictionary and a new string per op, so the tables
//! grow with the program and most lookups miss the cache: here a lookup
//! costs one miss (a slot and its neighbours share a cache line), where a
//! table of bare indices beside separate control bytes costs two dependent
//! ones. Growing moves slots by their stored hash bits, never touching the
//! items.

use parking_lot::Mutex;
use std::hash::{BuildHasher, Hash};

pub(crate) struct Interner<T> {
    items: boxcar::Vec<T>,
    table: Mutex<Table>,
}

pub(crate) fn fx_hash<H: Hash + ?Sized>(value: &H) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(value)
}

/// Item indices by hash. A slot is `hash32 << 32 | (index + 1)`, 0 when
/// empty; the slot of a hash is `hash32` modulo the (power-of-two)
/// capacity, or the next free one after it. At most 7/8 of the slots are
/// used, so a search always ends at an empty slot.
#[derive(Default)]
struct Table {
    slots: Vec<u64>,
    len: usize,
}

/// The 32 bits of a hash a slot keeps. FxHash's `finish` rotates its
/// best-mixed bits to the bottom, and the low bits place the slot.
#[inline]
fn hash32(hash: u64) -> u32 {
    hash as u32
}

impl Table {
    /// The index stored with `h32` for which `eq` holds, or the empty slot
    /// where it would go (`usize::MAX` while the table has no slots).
    #[inline]
    fn find(&self, h32: u32, mut eq: impl FnMut(u32) -> bool) -> Result<u32, usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut pos = h32 as usize & mask;
        loop {
            let Some(&slot) = self.slots.get(pos) else {
                return Err(usize::MAX);
            };
            if slot == 0 {
                return Err(pos);
            }
            if (slot >> 32) as u32 == h32 {
                let index = (slot as u32).wrapping_sub(1);
                if eq(index) {
                    return Ok(index);
                }
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Makes room for `additional` more entries within the load bound.
    fn reserve(&mut self, additional: usize) {
        let need = self.len.saturating_add(additional);
        if need.saturating_mul(8) < self.slots.len().saturating_mul(7) {
            return;
        }
        let capacity = need
            .saturating_mul(8)
            .div_ceil(7)
            .saturating_add(1)
            .next_power_of_two()
            .max(16);
        let old = std::mem::replace(&mut self.slots, vec![0; capacity]);
        let mask = capacity - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let mut pos = (slot >> 32) as usize & mask;
            while self.slots[pos] != 0 {
                pos = (pos + 1) & mask;
            }
            self.slots[pos] = slot;
        }
    }
}

impl<T> Interner<T> {
    pub(crate) fn new() -> Self {
        Interner {
            items: boxcar::Vec::new(),
            table: Mutex::new(Table::default()),
        }
    }

    /// Returns the index of the item equal to `probe` (by `hash` and `eq`),
    /// inserting `make(probe)` if there is none.
    pub(crate) fn intern<V>(
        &self,
        hash: u64,
        probe: V,
        eq: impl Fn(&T, &V) -> bool,
        make: impl FnOnce(V) -> T,
    ) -> u32 {
        let h32 = hash32(hash);
        let mut table = self.table.lock();
        table.reserve(1);
        match table.find(h32, |i| eq(self.get(i), &probe)) {
            Ok(index) => index,
            Err(pos) => {
                let index = self.items.push(make(probe));
                // Index `u32::MAX` would not fit beside the empty slot's 0.
                let index = u32::try_from(index)
                    .ok()
                    .filter(|&i| i < u32::MAX)
                    .expect("interner overflow: more than 4 billion items");
                table.slots[pos] = u64::from(h32) << 32 | u64::from(index + 1);
                table.len += 1;
                index
            }
        }
    }

    /// Makes room for `total` items in all without growing the table on
    /// the way.
    pub(crate) fn reserve_total(&self, total: usize) {
        let mut table = self.table.lock();
        let additional = total.saturating_sub(table.len);
        table.reserve(additional);
    }

    /// Looks up without inserting.
    pub(crate) fn find(&self, hash: u64, eq: impl Fn(&T) -> bool) -> Option<u32> {
        let table = self.table.lock();
        table.find(hash32(hash), |i| eq(self.get(i))).ok()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Equal items share an index across growth and reserving, including
    /// items whose hashes are the same, and lookups of absent items end.
    #[test]
    fn interns_through_growth_and_equal_hashes() {
        let interner: Interner<String> = Interner::new();
        let hash = |i: usize| if i % 3 == 0 { 7 } else { fx_hash(&i) };
        let intern =
            |i: usize| interner.intern(hash(i), i.to_string(), |stored, s| stored == s, |s| s);
        assert_eq!(interner.find(7, |s| s == "0"), None);
        let indices: Vec<u32> = (0..2000).map(intern).collect();
        assert_eq!(interner.len(), 2000);
        interner.reserve_total(100);
        interner.reserve_total(10_000);
        for (i, &index) in indices.iter().enumerate() {
            assert_eq!(intern(i), index);
            assert_eq!(interner.find(hash(i), |s| *s == i.to_string()), Some(index));
            assert_eq!(interner.get(index), &i.to_string());
        }
        assert_eq!(interner.find(7, |s| s == "missing"), None);
        assert_eq!(interner.len(), 2000);
    }
}
