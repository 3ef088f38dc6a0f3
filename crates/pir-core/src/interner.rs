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
//! is a cache miss once the table outgrows the cache (and the item it names
//! another), while the next item itself sits beside the last one. Any other
//! item is found by the table as before, so handles do not depend on the
//! guess.
//!
//! The table ([`Slots`]) keeps each index beside 32 bits of its item's hash,
//! in one array: a first reading of a large model, whose items are mostly
//! new, finds an item missing and writes its slot in one cache line (a
//! table of control bytes and a separate one of indices, as `hashbrown`
//! keeps, took a miss in each), and the table grows without asking the
//! items for their hashes again.
//!
//! An item known new is not looked for in a large table: it waits among
//! the young items, in a small table of their own that the cache holds,
//! and the young are placed in the large table a thousand at a time, their
//! slots read all at once first, so that the cache misses of a first
//! reading overlap rather than come one after the other. An item is known
//! new by its caller's mark (see [`Interner::intern_unguessed`]), or by
//! bits beside the large table, four a slot (a sixteenth of its size, which
//! the cache holds too), among which most items not there find theirs clear.

use parking_lot::Mutex;
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicU32, Ordering};

pub(crate) struct Interner<T> {
    items: boxcar::Vec<T>,
    table: Mutex<Table>,
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
            table: Mutex::new(Table::default()),
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
    /// when the guess (see the module docs) is not the item; `rehash` is
    /// the hash of a stored item, which must be the hash of any probe equal
    /// to it (checked in debug builds as an item is stored: the table keeps
    /// the hash's bits, a mismatch would make equal items two).
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
            None => self.intern_unguessed((hash(&probe), 0), probe, eq, make, rehash),
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

    /// [`Interner::intern`] past a guess that failed: by the table, given
    /// the probe's hash and its mark. A mark is 0, or a number an item
    /// equal to the probe was given as its mark when it was stored: a mark
    /// above every mark given before proves the probe new, and it is stored
    /// without a look in the table (see the module docs). An interner
    /// given marks must be given them with every item it stores.
    pub(crate) fn intern_unguessed<V>(
        &self,
        (hash, mark): (u64, u32),
        probe: V,
        eq: impl Fn(&T, &V) -> bool,
        make: impl FnOnce(V) -> T,
        rehash: impl Fn(&T) -> u64,
    ) -> u32 {
        let mut table = self.table.lock();
        let place = if mark > table.mark {
            table.mark = mark;
            Err(None)
        } else {
            table.find(hash, |i| eq(self.get(i), &probe))
        };
        let index = match place {
            Ok(index) => index,
            Err(place) => {
                let index = self.store(make(probe), hash, rehash);
                table.insert(place, hash, index);
                index
            }
        };
        if self.guessing {
            self.next.store(index.saturating_add(1), Ordering::Relaxed);
        }
        index
    }

    /// Stores a new item of hash `hash`, giving its index (below
    /// `u32::MAX`).
    fn store(&self, item: T, hash: u64, rehash: impl Fn(&T) -> u64) -> u32 {
        let index = self.items.push(item);
        let index = u32::try_from(index)
            .ok()
            .filter(|&i| i < u32::MAX)
            .expect("interner overflow: more than 4 billion items");
        debug_assert_eq!(
            rehash(self.get(index)) as u32,
            hash as u32,
            "an item hashes otherwise than its probe"
        );
        index
    }

    /// Makes room for `total` items in all without growing the table on
    /// the way (the table keeps its items' hashes: none is asked again).
    pub(crate) fn reserve_total(&self, total: usize) {
        self.table.lock().reserve(total);
    }

    /// Looks up without inserting.
    pub(crate) fn find(&self, hash: u64, eq: impl Fn(&T) -> bool) -> Option<u32> {
        self.table.lock().probe(hash, |i| eq(self.get(i)))
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

/// The young items' table holds this many of them (see the module docs).
const YOUNG_ITEMS: usize = 1024;

/// From how many slots on a table keeps young items apart: a smaller one
/// stays in the cache.
const YOUNG_FROM: usize = 1 << 16;

/// What an [`Interner`]'s lock guards: its items' indices by hash.
#[derive(Default)]
struct Table {
    /// The indices of all items but the young ones.
    slots: Slots,
    /// The indices of items stored new while `slots` was large (see the
    /// module docs), until [`Table::settle`] places them in `slots`.
    young: Slots,
    /// While `slots` is large: bit [`seen_bit`] of the hash of each item
    /// there is set, [`seen_words`] of them.
    seen: Vec<u64>,
    /// The largest mark given (see [`Interner::intern_unguessed`]).
    mark: u32,
}

/// How many words of bits a table of `slots` slots keeps beside it: four
/// bits a slot (so fewer than one in four is set) when it is large.
fn seen_words(slots: usize) -> usize {
    match slots < YOUNG_FROM {
        true => 0,
        false => slots / 16,
    }
}

/// The bit of a hash among `words` words of them (at least one): as the
/// slots' place, from the 32 bits of it a slot keeps.
#[inline]
fn seen_bit(hash: u64, words: usize) -> (usize, u64) {
    let bit = hash as u32 as usize & (words * 64 - 1);
    (bit / 64, 1 << (bit % 64))
}

impl Table {
    /// The index of the item of hash `hash` for which `eq` holds, or where
    /// it would go: the free slot of `slots` (after making room for it), or
    /// none when it is known new.
    #[inline]
    fn find(&mut self, hash: u64, eq: impl Fn(u32) -> bool) -> Result<u32, Option<Vacant>> {
        // Only a large table has young items.
        if !self.seen.is_empty() {
            if self.young.len != 0 {
                if let Ok(index) = self.young.probe(hash, &eq) {
                    return Ok(index);
                }
            }
            let (word, bit) = seen_bit(hash, self.seen.len());
            if self.seen.get(word).is_some_and(|&w| w & bit == 0) {
                return Err(None);
            }
        }
        if self.slots.len >= self.slots.capacity {
            self.reserve(self.slots.len + 1);
        }
        self.slots.probe(hash, eq).map_err(Some)
    }

    /// Takes the place `place` (from a [`Table::find`] with the same hash,
    /// and nothing inserted since, or none for an item known new) for item
    /// `index` of hash `hash`.
    #[inline]
    fn insert(&mut self, place: Option<Vacant>, hash: u64, index: u32) {
        match place {
            Some(vacant) => {
                self.slots.insert(vacant, hash, index);
                self.see(hash);
            }
            None => self.insert_new(hash, index),
        }
    }

    /// Sets the bit of `hash` (see [`Table::seen`]).
    #[inline]
    fn see(&mut self, hash: u64) {
        if self.seen.is_empty() {
            return;
        }
        let (word, bit) = seen_bit(hash, self.seen.len());
        if let Some(w) = self.seen.get_mut(word) {
            *w |= bit;
        }
    }

    /// Makes room for `total` items in all in `slots`, and remakes
    /// [`Table::seen`] if they grew.
    fn reserve(&mut self, total: usize) {
        self.slots.reserve_total(total);
        if self.seen.len() != seen_words(self.slots.slots.len()) {
            self.remake_seen();
        }
    }

    /// Makes [`Table::seen`] anew from `slots`.
    #[inline(never)]
    fn remake_seen(&mut self) {
        let words = seen_words(self.slots.slots.len());
        self.seen = vec![0; words];
        if words == 0 {
            return;
        }
        for &taken in self.slots.slots.iter().filter(|&&taken| taken != 0) {
            let (word, bit) = seen_bit(taken >> 32, words);
            self.seen[word] |= bit;
        }
    }

    /// The index of the item of hash `hash` for which `eq` holds.
    fn probe(&self, hash: u64, eq: impl Fn(u32) -> bool) -> Option<u32> {
        let young = self.young.probe(hash, &eq);
        young.or_else(|_| self.slots.probe(hash, eq)).ok()
    }

    /// Takes a slot for item `index` of hash `hash`, known to be new: in
    /// `slots` if it is small, else among the young.
    #[inline]
    fn insert_new(&mut self, hash: u64, index: u32) {
        if self.slots.slots.len() < YOUNG_FROM {
            if self.slots.len >= self.slots.capacity {
                self.reserve(self.slots.len + 1);
            }
            self.slots.place(slot(hash, index));
            self.see(hash);
            return;
        }
        self.young.place(slot(hash, index));
        if self.young.len >= YOUNG_ITEMS {
            self.settle();
        }
    }

    /// Places the young items in `slots`. Their slots there are read first,
    /// all in one pass that waits for none, so that their cache misses
    /// overlap; the places are then found in the cache.
    #[inline(never)]
    fn settle(&mut self) {
        self.reserve(self.slots.len + self.young.len);
        let Table {
            slots, young, seen, ..
        } = self;
        let mask = slots.slots.len().wrapping_sub(1);
        let read = young
            .slots
            .iter()
            .filter(|&&taken| taken != 0)
            .fold(0u64, |acc, &taken| {
                let at = (taken >> 32) as usize & mask;
                acc ^ slots.slots.get(at).copied().unwrap_or_default()
            });
        std::hint::black_box(read);
        for taken in young.slots.iter_mut().filter(|taken| **taken != 0) {
            let (word, bit) = seen_bit(*taken >> 32, seen.len());
            if let Some(w) = seen.get_mut(word) {
                *w |= bit;
            }
            slots.place(std::mem::take(taken));
        }
        young.len = 0;
    }
}

/// The indices of an [`Interner`]'s items by hash: open addressing, probing
/// slot after slot. A slot is 0 when free, else the low 32 bits of its
/// item's hash above the item's index + 1; the hash's low bits also give
/// the slot a probe starts at, so the table grows by its slots alone.
#[derive(Default)]
struct Slots {
    /// A power of two of them (or none before the first item).
    slots: Vec<u64>,
    /// How many are taken.
    len: usize,
    /// How many it holds before it grows ([`capacity_of`] the slots).
    capacity: usize,
}

/// Where a probe found no item: the free slot the item goes in.
struct Vacant(usize);

/// How many items a table of `slots` slots holds before it grows: seven
/// eighths. A probe for an item not there then reads tens of slots (four
/// cache lines, one after the other) just before the table grows, but the
/// table of a 100k-op model stays about as small as `hashbrown`'s and in
/// the cache: at two thirds, twice as large for that model, a first load
/// of it took 7 % more time.
fn capacity_of(slots: usize) -> usize {
    slots - slots / 8
}

/// The fewest slots that hold `items` items (a power of two, at least 16).
/// Positions come from 32 bits of hash, so a table stops at 2^32 slots:
/// past the bound of 4 billion items a probe would find no free slot, and
/// the interner refuses such an item before.
fn slots_for(items: usize) -> usize {
    let mut slots = 16usize;
    while capacity_of(slots) < items && (slots as u64) < 1 << 32 {
        slots *= 2;
    }
    slots
}

impl Slots {
    /// The index of the item of hash `hash` for which `eq` holds, or where
    /// it would go: the table has a free slot (or none at all).
    #[inline]
    fn probe(&self, hash: u64, eq: impl Fn(u32) -> bool) -> Result<u32, Vacant> {
        let Some(mask) = self.slots.len().checked_sub(1) else {
            return Err(Vacant(0));
        };
        let tag = hash as u32;
        let mut at = tag as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return Err(Vacant(at));
            }
            let index = (slot as u32).wrapping_sub(1);
            if (slot >> 32) as u32 == tag && eq(index) {
                return Ok(index);
            }
            at = (at + 1) & mask;
        }
    }

    /// Takes the free slot `vacant` (from a [`Slots::probe`] with the same
    /// hash, and nothing inserted since) for item `index` (below `u32::MAX`).
    #[inline]
    fn insert(&mut self, vacant: Vacant, hash: u64, index: u32) {
        self.slots[vacant.0] = slot(hash, index);
        self.len += 1;
    }

    /// Takes a free slot for `taken` (a [`slot`] of an item not there),
    /// making room for it first.
    #[inline]
    fn place(&mut self, taken: u64) {
        if self.len >= self.capacity {
            self.reserve_total(self.len + 1);
        }
        let mask = self.slots.len() - 1;
        let mut at = (taken >> 32) as usize & mask;
        while self.slots[at] != 0 {
            at = (at + 1) & mask;
        }
        self.slots[at] = taken;
        self.len += 1;
    }

    /// Makes room for `total` items in all.
    #[inline(never)]
    fn reserve_total(&mut self, total: usize) {
        if total <= self.capacity {
            return;
        }
        let wanted = slots_for(total);
        if wanted <= self.slots.len() {
            return;
        }
        self.capacity = capacity_of(wanted);
        let old = std::mem::replace(&mut self.slots, vec![0; wanted]);
        let mask = self.slots.len() - 1;
        for taken in old.into_iter().filter(|&s| s != 0) {
            let mut at = (taken >> 32) as usize & mask;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = taken;
        }
    }
}

/// The slot of item `index` of hash `hash`.
#[inline]
fn slot(hash: u64, index: u32) -> u64 {
    (u64::from(hash as u32) << 32) | u64::from(index + 1)
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
    fn a_large_table_finds_young_settled_and_marked_items_alike() {
        let interner = Interner::new();
        // A mark for every tenth word (its number + 1), in no order.
        let marked = |i: u32| i.is_multiple_of(10).then_some(i + 1);
        let intern = |i: u32| {
            let word = format!("w{i}");
            interner.intern_unguessed(
                (fx_hash(word.as_str()), marked(i).unwrap_or(0)),
                word.as_str(),
                |stored: &String, w| stored == w,
                |w| w.to_owned(),
                |stored| fx_hash(stored.as_str()),
            )
        };
        // Past the size from which new items wait among the young, and
        // again, backwards and in a mixed order: one handle per word.
        let count = (YOUNG_FROM * 2) as u32;
        // An odd step through a power of two: every word once.
        let order = |k: u32| (k * 7919) % count;
        let first: Vec<u32> = (0..count).map(|k| intern(order(k))).collect();
        assert_eq!(interner.len(), count as usize);
        let table = interner.table.lock();
        assert!(table.slots.slots.len() >= YOUNG_FROM && !table.seen.is_empty());
        assert!(table.young.len > 0, "some items still young");
        drop(table);
        for k in (0..count).rev() {
            assert_eq!(intern(order(k)), first[k as usize]);
            let word = format!("w{}", order(k));
            let found = interner.find(fx_hash(word.as_str()), |s| *s == word);
            assert_eq!(found, Some(first[k as usize]));
        }
        assert_eq!(interner.len(), count as usize);
        assert_eq!(interner.find(fx_hash("absent"), |s| s == "absent"), None);
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

    #[test]
    fn slots_find_what_they_hold_across_growth_and_collisions() {
        let mut slots = Slots::default();
        assert!(
            slots.probe(7, |_| true).is_err(),
            "an empty table holds nothing"
        );
        // Hashes that share their low bits collide on one start and probe
        // past each other; the ones of the top half wrap around the end.
        let hash = |i: u32| u64::from(i % 5) << 40 | u64::from(i % 3) | u64::from(i) << 33;
        for i in 0..1000u32 {
            slots.reserve_total(slots.len + 1);
            match slots.probe(hash(i), |j| j == i) {
                Err(vacant) => slots.insert(vacant, hash(i), i),
                Ok(found) => panic!("{i} found as {found} before it was stored"),
            }
        }
        assert_eq!(slots.len, 1000);
        assert!(slots.slots.len() >= slots_for(1000));
        for i in 0..1000u32 {
            assert_eq!(slots.probe(hash(i), |j| j == i).ok(), Some(i));
        }
        assert!(slots.probe(hash(3), |_| false).is_err());
        let before = slots.slots.len();
        slots.reserve_total(100_000);
        assert!(capacity_of(slots.slots.len()) >= 100_000 && slots.slots.len() > before);
        for i in 0..1000u32 {
            assert_eq!(slots.probe(hash(i), |j| j == i).ok(), Some(i));
        }
    }

    #[test]
    fn a_table_of_slots_stops_growing_at_two_to_the_32() {
        assert_eq!(slots_for(0), 16);
        assert_eq!(slots_for(14), 16, "seven eighths of 16");
        assert_eq!(slots_for(15), 32);
        assert!(capacity_of(slots_for(1_000_000)) >= 1_000_000);
        assert_eq!(slots_for(usize::MAX) as u64, 1 << 32);
    }
}
