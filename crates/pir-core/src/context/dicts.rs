//! Interning of attribute dictionaries, and their entries' order by name.

use std::num::NonZeroU32;

use super::{IrContext, Symbol};
use crate::attributes::{AttrDict, Attribute, DictData};
use crate::interner::fx_hash;

/// A sequence of attribute names and their order by name.
struct NameOrder {
    names: Box<[Symbol]>,
    order: Option<NonZeroU32>,
}

/// The sequences of names dictionaries were made with, and their orders
/// by name (see `IrContext::name_orders`).
#[derive(Default)]
pub(super) struct NameOrders {
    known: Vec<NameOrder>,
    /// `known` by the hash of the names.
    by_hash: hashbrown::HashTable<u32>,
    /// The ones met last, the last first: dictionaries of one op kind
    /// come in runs (a model's parameters, then its ops layer by layer),
    /// each op bringing one or two sequences (its attributes', its
    /// outputs'), and the names compared to these settle most without
    /// hashing them.
    recent: [u32; RECENT],
}

/// How many sequences [`NameOrders::recent`] holds.
const RECENT: usize = 4;

impl NameOrders {
    /// Makes `i` the one met last.
    #[inline]
    fn met(&mut self, i: u32) {
        let at = self
            .recent
            .iter()
            .position(|&r| r == i)
            .unwrap_or(RECENT - 1);
        for k in (1..=at).rev() {
            self.recent[k] = self.recent[k - 1];
        }
        self.recent[0] = i;
    }
}

/// The hash of a sequence of names.
fn names_hash(names: impl Iterator<Item = Symbol>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    for n in names {
        n.hash(&mut h);
    }
    h.finish()
}

impl IrContext {
    /// Interns an attribute dictionary. Entries keep their order; when a name
    /// occurs twice the first entry wins (as Paddle's reader does).
    pub fn dict(&self, entries: &[(Symbol, Attribute)]) -> AttrDict {
        // A stored dictionary has no repeated name, so one equal to
        // `entries` is the answer whether or not they repeat one.
        if let Some(index) = self.dicts.guess(|d| *d.entries == *entries) {
            return AttrDict(index);
        }
        // Names are nearly always distinct: a bit per name (by its index
        // modulo 64) settles most lists in one pass, pairs are compared
        // only when two names share a bit. The pass also finds the newest
        // attribute, whose index + 1 marks the dictionary (see
        // `Interner::intern_unguessed`; 1 for the empty one): a dictionary
        // holding an attribute newer than all the stored dictionaries' is
        // new, as the dictionary of most ops that bring an attribute of
        // their own (a name) in a first reading of a model.
        let (mut bits, mut shared, mut newest) = (0u64, false, 0u32);
        for &(n, a) in entries {
            let bit = 1u64 << (n.0 % 64);
            shared |= bits & bit != 0;
            bits |= bit;
            newest = newest.max(a.0);
        }
        let has_dup = shared
            && entries
                .iter()
                .enumerate()
                .any(|(i, (n, _))| entries[..i].iter().any(|(m, _)| m == n));
        if has_dup {
            let mut unique: Vec<(Symbol, Attribute)> = Vec::with_capacity(entries.len());
            for &(n, a) in entries {
                if !unique.iter().any(|(m, _)| *m == n) {
                    unique.push((n, a));
                }
            }
            return self.dict(&unique);
        }
        let index = self.dicts.intern_unguessed(
            (fx_hash(entries), newest.saturating_add(1)),
            entries,
            |d, entries| &*d.entries == *entries,
            |entries| DictData {
                entries: entries.into(),
                sorted: self.name_order(entries),
            },
            |d| fx_hash(&*d.entries),
        );
        AttrDict(index)
    }

    /// The order by name of `entries` (`DictData::sorted`), looked up by
    /// their names' sequence.
    fn name_order(&self, entries: &[(Symbol, Attribute)]) -> Option<NonZeroU32> {
        let names = || entries.iter().map(|&(n, _)| n);
        let mut guard = self.name_orders.lock();
        let known = &mut *guard;
        let is = |i: u32| {
            known
                .known
                .get(i as usize)
                .filter(|k| k.names.len() == entries.len() && k.names.iter().copied().eq(names()))
        };
        if let Some(&i) = known.recent.iter().find(|&&i| is(i).is_some()) {
            let order = known.known[i as usize].order;
            known.met(i);
            return order;
        }
        let hash = names_hash(names());
        if let Some(&i) = known.by_hash.find(hash, |&i| is(i).is_some()) {
            let order = known.known[i as usize].order;
            known.met(i);
            return order;
        }
        let name = |i: u32| self.symbol_str(entries[i as usize].0);
        let in_order = entries
            .windows(2)
            .all(|w| self.symbol_str(w[0].0) <= self.symbol_str(w[1].0));
        let order = (!in_order).then(|| {
            let mut sorted: Vec<u32> = (0..entries.len() as u32).collect();
            sorted.sort_by(|&a, &b| name(a).cmp(name(b)));
            let index = self.orders.intern(
                fx_hash,
                sorted,
                |stored, probe| **stored == **probe,
                Vec::into_boxed_slice,
                |stored| fx_hash(&**stored),
            );
            // Below `u32::MAX` (the interner's bound), so 1 + it fits.
            NonZeroU32::MIN.saturating_add(index)
        });
        // As many sequences as dictionaries at the most, which an interner
        // numbers below `u32::MAX`.
        let Ok(i) = u32::try_from(known.known.len()) else {
            return order;
        };
        known.known.push(NameOrder {
            names: names().collect(),
            order,
        });
        let NameOrders {
            known: all,
            by_hash,
            ..
        } = &mut *known;
        by_hash.insert_unique(hash, i, |&i| {
            names_hash(all[i as usize].names.iter().copied())
        });
        known.met(i);
        order
    }

    /// The entries of a dictionary in insertion order.
    #[inline]
    pub fn dict_entries(&self, dict: AttrDict) -> &[(Symbol, Attribute)] {
        &self.dicts.get(dict.0).entries
    }

    /// The entries of a dictionary ordered by name (byte order).
    pub fn dict_sorted(&self, dict: AttrDict) -> impl Iterator<Item = (Symbol, Attribute)> + '_ {
        let data = self.dicts.get(dict.0);
        let sorted = data.sorted.map(|i| &**self.orders.get(i.get() - 1));
        (0..data.entries.len()).map(move |k| {
            let i = sorted.map_or(k, |s| s[k] as usize);
            data.entries[i]
        })
    }

    /// The attribute named `name`, if present.
    pub fn dict_get(&self, dict: AttrDict, name: Symbol) -> Option<Attribute> {
        self.dict_entries(dict)
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, a)| a)
    }

    /// A dictionary with `name` set to `attr` (replaced in place, or appended).
    pub fn dict_with(&self, dict: AttrDict, name: Symbol, attr: Attribute) -> AttrDict {
        let mut entries = self.dict_entries(dict).to_vec();
        match entries.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 = attr,
            None => entries.push((name, attr)),
        }
        self.dict(&entries)
    }

    /// A dictionary without `name`.
    pub fn dict_without(&self, dict: AttrDict, name: Symbol) -> AttrDict {
        let entries: Vec<_> = self
            .dict_entries(dict)
            .iter()
            .copied()
            .filter(|(n, _)| *n != name)
            .collect();
        self.dict(&entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::I32Attr;

    #[test]
    fn a_run_of_one_sequence_of_names_and_its_neighbours_keep_their_orders() {
        let ctx = IrContext::new();
        let sorted_names = |values: &[i32], ns: &[&str]| -> Vec<String> {
            let entries: Vec<_> = ns
                .iter()
                .zip(values)
                .map(|(n, &v)| (ctx.symbol(n), ctx.intern_attr(I32Attr(v))))
                .collect();
            let dict = ctx.dict(&entries);
            ctx.dict_sorted(dict)
                .map(|(n, _)| ctx.symbol_str(n).to_owned())
                .collect()
        };
        // New dictionaries of one sequence in a row, then sequences that
        // begin alike or hold the same names otherwise ordered, and back.
        for i in 0..3 {
            assert_eq!(sorted_names(&[i, 0], &["y", "x"]), ["x", "y"]);
        }
        assert_eq!(sorted_names(&[1, 2, 3], &["y", "x", "a"]), ["a", "x", "y"]);
        assert_eq!(sorted_names(&[4], &["y"]), ["y"]);
        assert_eq!(sorted_names(&[5, 6], &["x", "y"]), ["x", "y"]);
        assert_eq!(sorted_names(&[7, 8], &["y", "x"]), ["x", "y"]);
        assert_eq!(sorted_names(&[9, 1, 2], &["y", "x", "a"]), ["a", "x", "y"]);
        // Four sequences, and the empty dictionary's of every context.
        assert_eq!(ctx.name_orders.lock().known.len(), 5);
    }
}
