//! Memoized bytes keyed by interned handles: the printed or encoded text of
//! a type, attribute or attribute dictionary, computed once per output.
//!
//! Interned things are immutable, so their text never changes; a printer or
//! writer keeps one [`MemoBytes`] arena and one [`MemoTable`] per kind of
//! handle. Tables can defer caching to the second use ([`MemoTable::seen_before`])
//! for things that are often unique (a parameter's attribute dictionary).
//!
//! ```
//! use pir_core::memo::{MemoBytes, MemoTable};
//! let (mut arena, mut table) = (MemoBytes::default(), MemoTable::default());
//! assert_eq!(table.get(3, &arena), None);
//! table.store(3, &mut arena, b"tensor<2xf32>");
//! assert_eq!(table.get(3, &arena), Some(&b"tensor<2xf32>"[..]));
//! ```

const EMPTY: (u32, u32) = (u32::MAX, 0);
const SEEN_ONCE: (u32, u32) = (u32::MAX, 1);

/// The bytes all tables of one output point into.
#[derive(Default, Debug)]
pub struct MemoBytes(Vec<u8>);

/// Ranges of [`MemoBytes`] by handle index.
#[derive(Default, Debug)]
pub struct MemoTable(Vec<(u32, u32)>);

impl MemoBytes {
    /// All stored bytes (ranges handed out by [`MemoBytes::push`] index it).
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.0
    }

    /// Appends `text`, returning its `(start, len)`; `None` past 4 GiB.
    pub fn push(&mut self, text: &[u8]) -> Option<(u32, u32)> {
        let start = u32::try_from(self.0.len()).ok()?;
        let len = u32::try_from(text.len()).ok()?;
        start.checked_add(len)?;
        self.0.extend_from_slice(text);
        Some((start, len))
    }
}

impl MemoTable {
    /// The text stored for `index`.
    #[inline]
    pub fn get<'a>(&self, index: u32, arena: &'a MemoBytes) -> Option<&'a [u8]> {
        match self.0.get(index as usize) {
            Some(&(start, len)) if start != u32::MAX => {
                arena.0.get(start as usize..(start as usize + len as usize))
            }
            _ => None,
        }
    }

    fn slot(&mut self, index: u32) -> &mut (u32, u32) {
        let i = index as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, EMPTY);
        }
        &mut self.0[i]
    }

    /// Whether `index` was met before; marks it as met.
    pub fn seen_before(&mut self, index: u32) -> bool {
        let slot = self.slot(index);
        if *slot == EMPTY {
            *slot = SEEN_ONCE;
            return false;
        }
        true
    }

    /// Stores the text of `index` (silently skipped past 4 GiB of text).
    pub fn store(&mut self, index: u32, arena: &mut MemoBytes, text: &[u8]) {
        if let Some(range) = arena.push(text) {
            *self.slot(index) = range;
        }
    }
}
