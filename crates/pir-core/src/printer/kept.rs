//! What a print of Paddle's text keeps for the next one in the same
//! context (a [`KeptState`], taken while it prints, so printers on other
//! threads or inside a custom print start afresh rather than wait): the
//! memoized texts of types, attributes and dictionaries (they are interned
//! and immutable, so each is formatted once per context) and the printer's
//! reusable tables.

use crate::attributes::Attribute;
use crate::context::KeptState;
use crate::entity::SecondaryMap;
use crate::memo::{HandleTable, MemoBytes, MemoTable};
use crate::program::ValueId;

/// A printer's memoized texts and reusable tables.
#[derive(Default)]
pub(super) struct Kept {
    /// Printed text of types, attributes and dictionaries met so far: they
    /// are interned and immutable, so each is formatted once.
    pub(super) cache: TextCache,
    /// `number + 1` of each value printed so far (0: not yet printed);
    /// cleared by each print, its room kept.
    pub(super) numbers: SecondaryMap<ValueId, u32>,
    /// Counts the prints (and flushes) these tables served: a
    /// [`PrintedDict`] of an earlier one points into text no longer there.
    pub(super) print: u64,
}

impl KeptState for Kept {
    /// The bytes its texts and their tables hold (the value numbers, four
    /// bytes a value of the largest program printed, are not counted).
    fn footprint(&self) -> usize {
        let cache = &self.cache;
        let tables: usize = cache.tables.iter().map(MemoTable::footprint).sum();
        cache.bytes.as_slice().len() + tables + cache.prev_of.footprint() + cache.scratch.capacity()
    }

    /// Clears the value numbers and counts the print.
    fn prepare(&mut self) {
        self.numbers.clear();
        self.print += 1;
    }
}

impl Kept {
    /// The state a printer of the typed form starts with: an empty one
    /// (it prints kinds' tags, so Paddle's texts kept are not its), which
    /// it does not give back.
    pub(super) fn for_typed_form() -> Kept {
        let mut kept = Kept::default();
        kept.prepare();
        kept
    }
}

/// Memoized text of interned things.
#[derive(Default)]
pub(super) struct TextCache {
    pub(super) bytes: MemoBytes,
    /// The texts' places in `bytes`, by [`Texts`] kind and handle.
    pub(super) tables: [MemoTable; 4],
    /// The last dictionary printed for each op name, by the name's symbol:
    /// 1 + its index in `prev` (0: none yet). A table in pages, made where
    /// op names' symbols lie: not one as long as all symbols.
    prev_of: HandleTable<u32>,
    pub(super) prev: Vec<PrintedDict>,
    /// A cleared [`PrintedDict`] whose buffers the next dictionary reuses.
    pub(super) spare: PrintedDict,
    /// Reused buffer for a signature's text and types (see `signature.rs`).
    pub(super) scratch: Vec<u8>,
}

/// The kinds of handles whose texts are kept, each with its table.
#[derive(Copy, Clone)]
pub(super) enum Texts {
    Types = 0,
    Attrs = 1,
    Dicts = 2,
    /// Generic ops' `{attrs} : (types) -> types`, by dictionary, behind
    /// the types (see `signature.rs`).
    Signatures = 3,
}

/// A dictionary as printed in Paddle's form: its shown entries in print
/// order, each with where its `name:value` text lies in the output.
/// Dictionaries of one op name mostly repeat the previous one's entries, so
/// runs of equal entries at the same places are copied from its text.
#[derive(Default)]
pub(super) struct PrintedDict {
    /// The [`Kept::print`] it was printed by.
    pub(super) print: u64,
    pub(super) entries: Vec<PrintedEntry>,
}

/// An entry of a [`PrintedDict`] and the span of its text in the output.
#[derive(Copy, Clone)]
pub(super) struct PrintedEntry {
    pub(super) entry: (crate::context::Symbol, Attribute),
    pub(super) start: usize,
    pub(super) end: usize,
}

impl TextCache {
    /// The slot in `prev` of the last dictionary printed for op name `name`.
    #[inline]
    pub(super) fn prev_slot(&mut self, name: crate::context::Symbol) -> usize {
        let slot = self.prev_of.get_mut(name.0);
        if *slot == 0 {
            if self.prev.capacity() == 0 {
                // Programs name a few dozen ops: not grown one at a time.
                self.prev.reserve(32);
            }
            self.prev.push(PrintedDict::default());
            // One slot per symbol at most: the count fits.
            *slot = self.prev.len() as u32;
        }
        *slot as usize - 1
    }

    /// The buffer of the next dictionary: the spare one, with room for a
    /// usual dictionary when it has none (the spare of an op name's first
    /// dictionary is empty), so that it does not grow entry by entry.
    pub(super) fn take_spare(&mut self) -> PrintedDict {
        const ENTRIES: usize = 16;
        let mut now = std::mem::take(&mut self.spare);
        now.entries.clear();
        now.entries.reserve(ENTRIES);
        now
    }
}
