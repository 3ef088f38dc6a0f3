//! A list of `Copy` items kept inline up to `N` (most dims and slot
//! arguments are short), on the heap beyond: one allocation fewer per
//! variable and per slot while reading a model.

use std::fmt;
use std::ops::Deref;

/// A `Vec` of `Copy` items whose first `N` live inline.
#[derive(Clone)]
pub enum InlineVec<T: Copy, const N: usize> {
    /// One to `N` items.
    Inline {
        /// Number of items used (at least one).
        len: u8,
        /// Storage; items past `len` are copies of the first.
        buf: [T; N],
    },
    /// No items (an empty `Vec` allocates nothing), or more than `N`.
    Heap(Vec<T>),
}

impl<T: Copy, const N: usize> InlineVec<T, N> {
    /// An empty list.
    pub const fn new() -> Self {
        InlineVec::Heap(Vec::new())
    }

    /// An empty list with room for `n` items: inline when they fit, else
    /// one allocation of that size (no copy out of the inline room and no
    /// growing on the way).
    pub fn with_capacity(n: usize) -> Self {
        if n <= N {
            Self::new()
        } else {
            InlineVec::Heap(Vec::with_capacity(n))
        }
    }

    /// Appends an item.
    #[inline]
    pub fn push(&mut self, item: T) {
        match self {
            InlineVec::Inline { len, buf } if usize::from(*len) < N.min(usize::from(u8::MAX)) => {
                buf[usize::from(*len)] = item;
                *len += 1;
            }
            // Room made beforehand (`with_capacity`): no call out of line.
            InlineVec::Heap(v) if v.len() < v.capacity() => v.push(item),
            InlineVec::Heap(v) if v.capacity() == 0 && N > 0 => {
                *self = InlineVec::Inline {
                    len: 1,
                    buf: [item; N],
                };
            }
            _ => self.push_spilled(item),
        }
    }

    /// [`InlineVec::push`] past the inline room (kept out of line: rare).
    #[inline(never)]
    fn push_spilled(&mut self, item: T) {
        match self {
            InlineVec::Inline { len, buf } => {
                let n = usize::from(*len);
                let mut v = Vec::with_capacity(2 * n.max(1));
                v.extend_from_slice(&buf[..n]);
                v.push(item);
                *self = InlineVec::Heap(v);
            }
            InlineVec::Heap(v) => v.push(item),
        }
    }

    /// The items, to change in place.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match self {
            InlineVec::Inline { len, buf } => &mut buf[..usize::from(*len)],
            InlineVec::Heap(v) => v,
        }
    }

    /// The items.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        match self {
            InlineVec::Inline { len, buf } => &buf[..usize::from(*len)],
            InlineVec::Heap(v) => v,
        }
    }
}

impl<T: Copy, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Deref for InlineVec<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy, const N: usize> Extend<T> for InlineVec<T, N> {
    #[inline]
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.push(item);
        }
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for InlineVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        v.extend(iter);
        v
    }
}

impl<T: Copy, const N: usize> From<&[T]> for InlineVec<T, N> {
    fn from(items: &[T]) -> Self {
        items.iter().copied().collect()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for InlineVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Eq, const N: usize> Eq for InlineVec<T, N> {}

impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_from_inline_to_heap_keeping_order() {
        let mut v: InlineVec<i64, 2> = InlineVec::new();
        assert!(v.is_empty());
        assert!(matches!(v, InlineVec::Heap(ref h) if h.capacity() == 0));
        v.push(1);
        v.push(2);
        assert!(matches!(v, InlineVec::Inline { len: 2, .. }));
        v.push(3);
        assert!(matches!(v, InlineVec::Heap(_)));
        assert_eq!(&*v, &[1, 2, 3]);
        let w: InlineVec<i64, 2> = [1, 2, 3].as_slice().into();
        assert_eq!(v, w);
        let mut roomy: InlineVec<i64, 2> = InlineVec::with_capacity(3);
        roomy.extend([1, 2, 3]);
        assert!(matches!(roomy, InlineVec::Heap(ref h) if h.capacity() == 3));
        assert_eq!(roomy, w);
        // Past the room made: grows on the heap.
        roomy.push(4);
        assert_eq!(&*roomy, &[1, 2, 3, 4]);
        let mut small: InlineVec<i64, 2> = InlineVec::with_capacity(2);
        small.push(1);
        assert!(matches!(small, InlineVec::Inline { len: 1, .. }));
        assert_eq!(format!("{v:?}"), "[1, 2, 3]");
    }
}
