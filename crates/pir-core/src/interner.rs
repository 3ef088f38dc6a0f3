//! A thread-safe, append-only interner used for symbols, types, attributes and
//! attribute dictionaries.
//!
//! Reads (`get`) are lock-free: items live in a `boxcar::Vec`, whose elements never
//! move. Interning takes a short mutex around a hash table of indices, so the same
//! value interned twice — from any thread — yields the same index.
//!
//! Before the table, an interning compares the item stored after the one the
//! last interning gave: a context that reads a model again meets that model's
//! items in the order it stored them, and the next item's slot in the table
//! is a cache miss once the table outgrows the cache (two of them per lookup,
//! about half a 1M-op load), while the next item itself sits beside the last
//! one. Any other item is found by the table as before, so handles do not
//! depend on the guess.

use hashbrown::HashTable;
use parking_lot::Mutex;
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicU32, Ordering};

pub(crate) struct Interner<T> {
    items: boxcar::Vec<T>,
    table: Mutex<HashTable<u32>>,
    /// 1 + the index the last interning gave (0 before any): the item
    /// compared first. Only a guess: an item equal to the probe is the one
    /// the table would find, whichever thread stored it, so finding it
    /// there takes neither the lock nor the table.
    next: AtomicU32,
    /// Whether interning guesses at all: not for interners that stay small
    /// (symbols, types), whose tables the cache holds anyway.
    guessing: bool,
}

pub(crate) fn fx_hash<H: Hash + ?Sized>(value: &H) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(value)
}

impl<T> Interner<T> {
    /// An interner that finds items by its table alone.
    pub(crate) fn new() -> Self {
        Interner {
            items: boxcar::Vec::new(),
            table: Mutex::new(HashTable::new()),
            next: AtomicU32::new(0),
            guessing: false,
        }
    }

    /// An interner that guesses before it looks in its table (see the
    /// module docs): for kinds a model brings about one of per op
    /// (attributes, dictionaries).
    pub(crate) fn guessing() -> Self {
        Interner {
            guessing: true,
            ..Self::new()
        }
    }

    /// Returns the index of the item equal to `probe` (by `hash` and `eq`),
    /// inserting `make(probe)` if there is none. `hash` is asked for only
    /// when the guess (see the module docs) is not the item; `rehash`
    /// recomputes the hash of a stored item when the table grows.
    pub(crate) fn intern<V>(
        &self,
        hash: impl FnOnce(&V) -> u64,
        probe: V,
        eq: impl Fn(&T, &V) -> bool,
        make: impl FnOnce(V) -> T,
        rehash: impl Fn(&T) -> u64,
    ) -> u32 {
        match self.guess(|item| eq(item, &probe)) {
            Some(index) => index,
            None => self.intern_unguessed(hash(&probe), probe, eq, make, rehash),
        }
    }

    /// The index of the item after the one the last interning gave, or of
    /// that one again (two ops in a row often share a name), if `eq` says it
    /// is the one sought (see the module docs).
    #[inline]
    pub(crate) fn guess(&self, eq: impl Fn(&T) -> bool) -> Option<u32> {
        if !self.guessing {
            return None;
        }
        let next = self.next.load(Ordering::Relaxed);
        // After an item just stored there is nothing to guess (a first
        // reading stores most of its items).
        if eq(self.items.get(next as usize)?) {
            self.next.store(next.saturating_add(1), Ordering::Relaxed);
            return Some(next);
        }
        let last = next.checked_sub(1)?;
        eq(self.items.get(last as usize)?).then_some(last)
    }

    /// [`Interner::intern`] past a guess that failed: by the table.
    pub(crate) fn intern_unguessed<V>(
        &self,
        hash: u64,
        probe: V,
        eq: impl Fn(&T, &V) -> bool,
        make: impl FnOnce(V) -> T,
        rehash: impl Fn(&T) -> u64,
    ) -> u32 {
        let mut table = self.table.lock();
        let index = match table.find(hash, |&i| eq(self.get(i), &probe)) {
            Some(&index) => index,
            None => {
                let index = self.items.push(make(probe));
                let index =
                    u32::try_from(index).expect("interner overflow: more than 4 billion items");
                table.insert_unique(hash, index, |&i| rehash(self.get(i)));
                index
            }
        };
        if self.guessing {
            self.next.store(index.saturating_add(1), Ordering::Relaxed);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn intern(interner: &Interner<String>, s: &str) -> u32 {
        interner.intern(
            |s| fx_hash(*s),
            s,
            |stored, s| stored == s,
            |s| s.to_owned(),
            |stored| fx_hash(stored.as_str()),
        )
    }

    #[test]
    fn handles_do_not_depend_on_the_order_of_lookups() {
        let interner = Interner::guessing();
        let words: Vec<String> = (0..200).map(|i| format!("w{}", i % 150)).collect();
        let first: Vec<u32> = words.iter().map(|w| intern(&interner, w)).collect();
        assert_eq!(interner.len(), 150);
        // Again in order (every guess right), backwards (every guess wrong),
        // and in a mixed order with repeats: the same handles each time.
        let again: Vec<u32> = words.iter().map(|w| intern(&interner, w)).collect();
        assert_eq!(again, first);
        for (w, &h) in words.iter().zip(&first).rev() {
            assert_eq!(intern(&interner, w), h);
        }
        for k in 0..words.len() {
            let i = (k * 37) % words.len();
            assert_eq!(intern(&interner, &words[i]), first[i]);
            assert_eq!(intern(&interner, &words[i]), first[i]);
        }
        assert_eq!(interner.len(), 150);
        // A new item after a lookup that set the guess to an old one.
        intern(&interner, "w3");
        let new = intern(&interner, "fresh");
        assert_eq!(new, 150);
        assert_eq!(interner.get(new), "fresh");
        assert_eq!(interner.find(fx_hash("fresh"), |s| s == "fresh"), Some(new));
    }

    #[test]
    fn threads_interning_one_sequence_at_once_agree() {
        let interner = Interner::guessing();
        let words: Vec<String> = (0..500).map(|i| format!("t{i}")).collect();
        let seen: Vec<Vec<u32>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| s.spawn(|| words.iter().map(|w| intern(&interner, w)).collect()))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(seen.windows(2).all(|w| w[0] == w[1]));
        assert_eq!(interner.len(), 500);
        for (w, &h) in words.iter().zip(&seen[0]) {
            assert_eq!(interner.get(h), w);
        }
    }
}
