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

/// The room [`MemoBytes`] takes at its first text.
const FIRST_BYTES: usize = 4096;

/// The bytes all tables of one output point into.
#[derive(Default, Debug)]
pub struct MemoBytes(Vec<u8>);

/// Ranges of [`MemoBytes`] by handle index.
#[derive(Debug)]
pub struct MemoTable(HandleTable<(u32, u32)>);

impl Default for MemoTable {
    fn default() -> Self {
        MemoTable(HandleTable::new(EMPTY))
    }
}

/// A value per handle index (`empty` until set), in pages of `PAGE`
/// handles made when first touched. Handles number everything the context
/// ever interned, but one output meets a few clusters of them (what one
/// model brought): a table as long as the largest handle would cost a print
/// of a small model, in a context that read large ones, more than the print.
///
/// ```
/// use pir_core::memo::HandleTable;
/// let mut flags = HandleTable::new(0u8);
/// *flags.get_mut(70_000) = 3;
/// assert_eq!((flags.get(70_000), flags.get(5)), (3, 0));
/// ```
#[derive(Debug)]
pub struct HandleTable<T: Copy> {
    pages: Vec<Option<Box<[T; PAGE]>>>,
    /// How many of `pages` are made: a footprint asked after every print
    /// or write counts no pages.
    made: usize,
    empty: T,
    /// What [`HandleTable::get_mut`] would give if a page it made were gone.
    spare: T,
}

impl<T: Copy + Default> Default for HandleTable<T> {
    fn default() -> Self {
        HandleTable::new(T::default())
    }
}

/// How many handles a page of a [`HandleTable`] holds.
const PAGE: usize = 256;

impl<T: Copy> HandleTable<T> {
    /// A table holding `empty` for every handle.
    pub fn new(empty: T) -> Self {
        HandleTable {
            pages: Vec::new(),
            made: 0,
            empty,
            spare: empty,
        }
    }

    /// The bytes its pages take.
    pub fn footprint(&self) -> usize {
        self.made * std::mem::size_of::<[T; PAGE]>() + self.pages.capacity() * 8
    }

    /// The value of `index`.
    #[inline]
    pub fn get(&self, index: u32) -> T {
        let i = index as usize;
        match self.pages.get(i / PAGE) {
            Some(Some(page)) => page[i % PAGE],
            _ => self.empty,
        }
    }

    /// The value of `index`, to change.
    #[inline]
    pub fn get_mut(&mut self, index: u32) -> &mut T {
        let (page, i) = (index as usize / PAGE, index as usize % PAGE);
        if !matches!(self.pages.get(page), Some(Some(_))) {
            self.add_page(page);
        }
        match self.pages.get_mut(page) {
            Some(Some(page)) => &mut page[i],
            // Not reached: the page was just made.
            _ => &mut self.spare,
        }
    }

    #[cold]
    fn add_page(&mut self, page: usize) {
        if self.pages.len() <= page {
            self.pages.resize(page + 1, None);
        }
        if self.pages[page].is_none() {
            // Filled in place on the heap (`Box::new([empty; PAGE])` fills
            // one on the stack and copies it), from an exact-size vector
            // whose conversion cannot fail.
            let filled = vec![self.empty; PAGE].into_boxed_slice();
            if let Ok(filled) = <Box<[T; PAGE]>>::try_from(filled) {
                self.pages[page] = Some(filled);
                self.made += 1;
            }
        }
    }
}

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
        if self.0.capacity() == 0 {
            // Not grown from a few bytes one doubling at a time.
            self.0.reserve(FIRST_BYTES.max(text.len()));
        }
        self.0.extend_from_slice(text);
        Some((start, len))
    }
}

impl MemoTable {
    /// The bytes its pages take (see [`HandleTable::footprint`]).
    pub fn footprint(&self) -> usize {
        self.0.footprint()
    }

    /// The text stored for `index`.
    #[inline]
    pub fn get<'a>(&self, index: u32, arena: &'a MemoBytes) -> Option<&'a [u8]> {
        match self.0.get(index) {
            (start, len) if start != u32::MAX => {
                arena.0.get(start as usize..(start as usize + len as usize))
            }
            _ => None,
        }
    }

    #[inline]
    fn slot(&mut self, index: u32) -> &mut (u32, u32) {
        self.0.get_mut(index)
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
