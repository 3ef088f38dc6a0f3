//! A block's variables by name: the translator looks a variable up for
//! nearly every argument of every op, so the index is a small open-addressing
//! table of variable indices whose look-up hashes a short name in one
//! multiplication and compares it inline ([`name_eq`]), rather than a
//! general hash map of names (its hashing and probing cost twice as much).

use super::{name_eq, VarDesc};

/// Where each name of a block's variables is last declared (Paddle's
/// `BlockDesc` keeps one variable a name, the last its proto declares),
/// built once the block is read ([`VarIndex::new`]) and asked with the same
/// variables ([`VarIndex::get`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct VarIndex {
    /// A power of two of entries, at most half of them used (so a probe
    /// always meets an empty one), each in one word (half the table a pair
    /// of words made, which was mostly the cost of zeroing it): the hash's
    /// top [`TAG_BITS`] bits, to tell most other names without reading
    /// them, over the variable's index plus one (0: empty).
    slots: Vec<u32>,
    /// How many variables it was built from, when no name among them is
    /// declared twice (else `None`).
    distinct: Option<usize>,
}

/// Bits of an entry that hold a variable's index plus one: every index of a
/// block's variables fits.
const INDEX_BITS: u32 = 20;
/// Bits of an entry that hold the name's hash.
const TAG_BITS: u32 = 32 - INDEX_BITS;
const _: () = assert!(super::MAX_VARS_PER_BLOCK < 1 << INDEX_BITS);

impl VarIndex {
    /// The index of `vars` (the last of each name; at most
    /// [`super::MAX_VARS_PER_BLOCK`], so indices fit [`INDEX_BITS`]).
    pub(crate) fn new(vars: &[VarDesc<'_>]) -> VarIndex {
        if vars.is_empty() {
            return VarIndex {
                slots: Vec::new(),
                distinct: Some(0),
            };
        }
        let size = (2 * vars.len()).next_power_of_two();
        let mask = size - 1;
        let mut slots = vec![0u32; size];
        let mut distinct = Some(vars.len());
        for (i, var) in vars.iter().enumerate() {
            let Some(index) = u32::try_from(i + 1).ok().filter(|&e| e < 1 << INDEX_BITS) else {
                break;
            };
            let (tag, mut at) = split(hash(var.name), mask);
            let entry = tag | index;
            while let Some(&e) = slots.get(at) {
                if e == 0 {
                    slots[at] = entry;
                    break;
                }
                let earlier = &vars[index_of(e)];
                if e & !INDEX_MASK == tag && name_eq(earlier.name, var.name) {
                    slots[at] = entry;
                    distinct = None;
                    break;
                }
                at = (at + 1) & mask;
            }
        }
        VarIndex { slots, distinct }
    }

    /// Whether each of `vars` (the variables it was built from) has a name
    /// of its own, so that a variable's index is where its name is found.
    #[inline]
    pub(crate) fn names_distinct(&self, vars: &[VarDesc<'_>]) -> bool {
        self.distinct == Some(vars.len())
    }

    /// The index in `vars` (the variables it was built from) of the last
    /// variable named `name`.
    #[inline]
    pub(crate) fn get(&self, vars: &[VarDesc<'_>], name: &str) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let (tag, mut at) = split(hash(name), mask);
        loop {
            let &e = self.slots.get(at)?;
            let i = ((e & INDEX_MASK) as usize).checked_sub(1)?;
            if e & !INDEX_MASK == tag && vars.get(i).is_some_and(|v| name_eq(v.name, name)) {
                return Some(i);
            }
            at = (at + 1) & mask;
        }
    }
}

/// The bits of an entry below its tag.
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;

/// The variable index of a used entry.
#[inline(always)]
fn index_of(entry: u32) -> usize {
    ((entry & INDEX_MASK) as usize).saturating_sub(1)
}

/// A hash's tag (its top [`TAG_BITS`] bits, in place in an entry) and
/// first slot (low bits).
#[inline(always)]
fn split(hash: u64, mask: usize) -> (u32, usize) {
    let tag = ((hash >> (64 - TAG_BITS)) as u32) << INDEX_BITS;
    (tag, hash as usize & mask)
}

/// The high and low halves of the product, folded (as `foldhash` and
/// `rustc-hash` mix): every bit of either input moves most of the output.
#[inline(always)]
fn mix(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ (p >> 64) as u64
}

/// A hash of every byte of `name`: names up to 16 bytes (most) as two
/// overlapping words from both ends and one [`mix`], longer ones with one
/// more per further 8 bytes.
#[inline(always)]
fn hash(name: &str) -> u64 {
    const SEED: u64 = 0x243f_6a88_85a3_08d3;
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let b = name.as_bytes();
    let n = b.len();
    let word = |at: usize| {
        b.get(at..)
            .and_then(<[u8]>::first_chunk::<8>)
            .map_or(0, |w| u64::from_le_bytes(*w))
    };
    let (head, tail) = if let (Some(h), Some(t)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (u64::from_le_bytes(*h), u64::from_le_bytes(*t))
    } else if let (Some(h), Some(t)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        (
            u64::from(u32::from_le_bytes(*h)),
            u64::from(u32::from_le_bytes(*t)),
        )
    } else {
        // Up to three bytes: the first, middle and last cover them all.
        let byte = |i: usize| b.get(i).copied().map_or(0, u64::from);
        (
            byte(0) | byte(n / 2) << 8 | byte(n.saturating_sub(1)) << 16,
            0,
        )
    };
    let mut h = mix(head ^ SEED, tail ^ K ^ n as u64);
    // Past 16 bytes, the bytes between the two words, 8 at a time (the
    // last step overlapping the tail's word).
    let mut at = 8;
    while at + 8 < n {
        h = mix(h ^ word(at.min(n - 16)), K);
        at += 8;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desc::{VarDesc, VarKind};

    fn var(name: &str) -> VarDesc<'_> {
        VarDesc {
            name,
            kind: VarKind::DenseTensor,
            tensor: None,
            tuple: &[],
            reader: &[],
            persistable: false,
            need_check_feed: false,
            is_parameter: false,
            stop_gradient: false,
        }
    }

    /// Names of every length around the word sizes, differing in one byte
    /// anywhere, repeated, and the empty name: each found at its last
    /// declaration, and names never declared not found.
    #[test]
    fn every_name_is_found_at_its_last_declaration() {
        let mut names = vec![String::new()];
        for len in 1..=40 {
            let base: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            names.push(base.clone());
            for at in 0..len {
                let mut other = base.clone().into_bytes();
                other[at] = b'Z';
                names.push(String::from_utf8(other).unwrap());
            }
        }
        // Declared twice: the last counts.
        let mut declared: Vec<&str> = names.iter().map(String::as_str).collect();
        declared.extend(names.iter().step_by(7).map(String::as_str));
        let vars: Vec<VarDesc<'_>> = declared.iter().map(|n| var(n)).collect();
        let index = VarIndex::new(&vars);
        for (i, name) in names.iter().enumerate() {
            let again = (i % 7 == 0).then(|| names.len() + i / 7);
            assert_eq!(index.get(&vars, name), Some(again.unwrap_or(i)), "{name:?}");
        }
        assert!(!index.names_distinct(&vars));
        let once = &vars[..names.len()];
        assert!(VarIndex::new(once).names_distinct(once));
        // Built from other variables: nothing is known of them.
        assert!(!VarIndex::new(once).names_distinct(&vars));
        for absent in [
            "?",
            "??",
            "abcdefgh?",
            "abcdefghijklmnopqrstuvwxyzabcdefghijklmn?",
        ] {
            assert_eq!(index.get(&vars, absent), None, "{absent:?}");
        }
    }

    #[test]
    fn an_empty_block_finds_nothing() {
        let index = VarIndex::new(&[]);
        assert_eq!(index.get(&[], ""), None);
        assert_eq!(index.get(&[var("x")], "x"), None);
    }

    /// Names that differ only between their first and last eight bytes
    /// hash apart (a hash of the ends alone would put them all in one
    /// chain).
    #[test]
    fn the_middle_of_long_names_counts() {
        let names: Vec<String> = (0..1000)
            .map(|i| format!("prefix__{i:08}__suffix"))
            .collect();
        let hashes: std::collections::HashSet<u64> = names.iter().map(|n| hash(n)).collect();
        assert_eq!(hashes.len(), names.len());
    }
}
