//! mimalloc through its unaligned entry points for blocks aligned to a
//! word or less, and for blocks of 16 bytes or more aligned to 16 (hash
//! tables' alignment): like any `malloc`, mimalloc gives those the
//! alignment of `max_align_t`, 16 bytes.
//!
//! mimalloc's aligned entry point takes its fast path only when the page
//! of the size asked for has a free block at a fitting address; else, for
//! a size that is not a power of two, it takes `size + align - 1` bytes of
//! a larger size class, so that the page of the size itself is never
//! started and every later block of that size takes the same slow path
//! (`pir verify` of a small model spent 1.4% of its instructions there).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};

/// The alignment of every block `mi_malloc` returns: a machine word.
const WORD_ALIGN: usize = std::mem::size_of::<usize>();

/// The alignment of every block of this size or more that `mi_malloc`
/// returns (`max_align_t`'s, mimalloc's `MI_MAX_ALIGN_SIZE`).
const MAX_ALIGN: usize = 16;

/// Whether a block of `size` bytes aligned to `align` comes from the
/// unaligned calls (which give no less).
#[inline(always)]
fn unaligned_call(size: usize, align: usize) -> bool {
    align <= WORD_ALIGN || (align <= MAX_ALIGN && size >= MAX_ALIGN)
}

/// mimalloc, through its unaligned entry points wherever they give the
/// alignment asked (see the module's note): a program's allocator as
/// `#[global_allocator]`.
pub struct Allocator;

// SAFETY: every block comes from mimalloc aligned as asked (to a word, or
// to 16 bytes when it is 16 bytes or more, by its unaligned calls, which
// give no less, else by its aligned calls) and is freed by `mi_free`, which
// takes blocks of either kind.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the calls take any size and alignment.
        unsafe {
            if unaligned_call(layout.size(), layout.align()) {
                mi_malloc(layout.size()).cast()
            } else {
                mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the calls take any size and alignment.
        unsafe {
            if unaligned_call(layout.size(), layout.align()) {
                mi_zalloc(layout.size()).cast()
            } else {
                mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` is a block of this allocator (the caller's
        // guarantee), so one of mimalloc's.
        unsafe { mi_free(ptr.cast()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` is a block of this allocator with this layout (the
        // caller's guarantee); mimalloc resizes a block of any of its calls
        // with any of them, and the call is chosen by the new size (a block
        // shrunk below 16 bytes keeps its alignment only by the aligned
        // call).
        unsafe {
            if unaligned_call(new_size, layout.align()) {
                mi_realloc(ptr.cast(), new_size).cast()
            } else {
                mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of 16 bytes or more asked with 16-byte alignment (a hash
    /// table's) come from the unaligned calls: many of each size, side by
    /// side in mimalloc's pages, are all aligned.
    #[test]
    fn sixteen_byte_aligned_blocks_from_the_unaligned_calls_are_aligned() {
        for size in (16..=4096).step_by(8) {
            let layout = Layout::from_size_align(size, 16).expect("a layout");
            assert!(unaligned_call(size, 16));
            // SAFETY: the layout's size is not zero; each block is freed
            // once, with its layout.
            unsafe {
                let blocks: Vec<*mut u8> = (0..40).map(|_| Allocator.alloc(layout)).collect();
                for &b in &blocks {
                    assert!(!b.is_null() && (b as usize).is_multiple_of(16), "{size}");
                }
                for b in blocks {
                    Allocator.dealloc(b, layout);
                }
            }
        }
        assert!(!unaligned_call(8, 16));
        assert!(!unaligned_call(64, 32));
    }

    /// Blocks of every kind come aligned, keep their bytes when resized,
    /// and zeroed ones are zero.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 3, 8, 15, 16, 24, 40, 48, 100, 1000, 1040, 70_000] {
                let layout = Layout::from_size_align(size, align).expect("a layout");
                // SAFETY: the layout's size is not zero; each block is
                // used within its size and freed once, with its layout.
                unsafe {
                    let zeroed = Allocator.alloc_zeroed(layout);
                    assert!(!zeroed.is_null() && (zeroed as usize).is_multiple_of(align));
                    assert!(std::slice::from_raw_parts(zeroed, size)
                        .iter()
                        .all(|&b| b == 0));
                    Allocator.dealloc(zeroed, layout);

                    let block = Allocator.alloc(layout);
                    assert!(!block.is_null() && (block as usize).is_multiple_of(align));
                    for i in 0..size {
                        block.add(i).write(i as u8);
                    }
                    let grown = Allocator.realloc(block, layout, size * 3);
                    assert!(
                        !grown.is_null() && (grown as usize).is_multiple_of(align),
                        "{size} {align}"
                    );
                    for i in 0..size {
                        assert_eq!(grown.add(i).read(), i as u8);
                    }
                    let grown_layout = Layout::from_size_align(size * 3, align).expect("a layout");
                    // Shrunk, below 16 bytes too (where the unaligned calls
                    // give only a word's alignment).
                    let small = (size / 4).max(1);
                    let shrunk = Allocator.realloc(grown, grown_layout, small);
                    assert!(
                        !shrunk.is_null() && (shrunk as usize).is_multiple_of(align),
                        "{size} {align} shrunk to {small}"
                    );
                    for i in 0..small {
                        assert_eq!(shrunk.add(i).read(), i as u8);
                    }
                    let shrunk_layout = Layout::from_size_align(small, align).expect("a layout");
                    Allocator.dealloc(shrunk, shrunk_layout);
                }
            }
        }
    }
}
