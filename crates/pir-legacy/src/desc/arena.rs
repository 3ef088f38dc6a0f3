//! Where a decoded [`ProgramDesc`](super::ProgramDesc) keeps its lists:
//! one arena ([`DescArena`]) for the whole program, and the list type of
//! attribute values ([`List`]), borrowed from it when read.

/// The items of a list attribute value: in the program's [`DescArena`]
/// when read, owned when the writer builds one. (Not a `Cow`, whose owned
/// form would make a value's string type invariant: the extra attributes'
/// `'static` values could then not stand beside a file's.)
#[derive(Clone)]
pub enum List<'l, T> {
    /// Items kept elsewhere (the arena).
    Borrowed(&'l [T]),
    /// Items of the value's own.
    Owned(Vec<T>),
}

impl<T> List<'_, T> {
    /// No items.
    pub const EMPTY: Self = List::Borrowed(&[]);
}

impl<T> std::ops::Deref for List<'_, T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            List::Borrowed(items) => items,
            List::Owned(items) => items,
        }
    }
}

impl<T> From<Vec<T>> for List<'_, T> {
    fn from(items: Vec<T>) -> Self {
        List::Owned(items)
    }
}

impl<T> FromIterator<T> for List<'_, T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        List::Owned(items.into_iter().collect())
    }
}

impl<'l, T> From<&'l [T]> for List<'l, T> {
    fn from(items: &'l [T]) -> Self {
        List::Borrowed(items)
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for List<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: PartialEq> PartialEq for List<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<'a, T> IntoIterator for &'a List<'_, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Where a decoded program keeps its lists: slots, their arguments,
/// attributes, the items of list values, variables' dims. Taken from one
/// arena, a list costs a few instructions rather than an allocation, and
/// nothing is freed item by item: dropping a
/// [`ProgramDesc`](super::ProgramDesc) leaves its ops and variables alone
/// (they own nothing) and the arena returns all of their memory at once
/// (those frees, two or more an op and a drop call per attribute, were 4%
/// of a translation). The arena must outlive the program read into it:
/// [`ProgramDesc::decode`](super::ProgramDesc::decode) borrows both it and
/// the bytes.
#[derive(Default)]
pub struct DescArena(pub(super) bumpalo::Bump);

impl DescArena {
    /// An empty arena (it takes memory as the decoder asks).
    pub fn new() -> Self {
        Self::default()
    }

    /// An arena with room for the lists of a serialized program of `len`
    /// bytes: Paddle's models fill 2.5 to 4 times their size, and room for
    /// four times (at most 16 MiB at once) serves each shipped model in one
    /// allocation; past the room, the arena takes more as it needs it.
    pub fn for_bytes(len: usize) -> Self {
        DescArena(bumpalo::Bump::with_capacity(
            len.saturating_mul(ARENA_ROOM_PER_BYTE).min(ARENA_ROOM_CAP),
        ))
    }

    /// Bytes taken from the system for the arena so far.
    pub fn allocated_bytes(&self) -> usize {
        self.0.allocated_bytes()
    }
}

impl std::fmt::Debug for DescArena {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DescArena")
            .field("allocated_bytes", &self.allocated_bytes())
            .finish()
    }
}

/// Bytes of room [`DescArena::for_bytes`] takes per byte of the program.
const ARENA_ROOM_PER_BYTE: usize = 4;

/// Most room [`DescArena::for_bytes`] takes at once.
const ARENA_ROOM_CAP: usize = 16 << 20;
