//! The process's allocator: mimalloc, asked for a block as C's `malloc`
//! asks for one when the alignment is one every block of mimalloc has.
//!
//! mimalloc's aligned entry point takes its fast path only when the page
//! of the size asked for has a free block at a fitting address; else, for
//! a size that is not a power of two, it takes `size + align - 1` bytes of
//! a larger size class, so that the page of the size itself is never
//! started and every later block of that size takes the same slow path
//! (`pir verify` of a small model spent 1.4% of its instructions there).
//!
//! On Linux the process gives mimalloc its options as it starts, before
//! the first allocation (`start.rs`).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
#[cfg(any(test, target_os = "linux"))]
use std::ffi::{c_int, c_long};

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};

/// mimalloc's options `arena_reserve` and `allow_thp` (their numbers in
/// `mimalloc.h`, whose options keep them: retired ones stay as
/// `deprecated_*`), which `libmimalloc-sys` declares only with a feature
/// that needs another crate; a test checks the numbers by the defaults.
#[cfg(any(test, target_os = "linux"))]
const OPTION_ARENA_RESERVE: c_int = 23;
#[cfg(any(test, target_os = "linux"))]
const OPTION_ALLOW_THP: c_int = 43;

/// The arenas of a command that works on small files: 32 MiB (in KiB),
/// mimalloc's smallest.
#[cfg(all(target_os = "linux", not(test)))]
const SMALL_ARENA_KIB: c_long = 32 << 10;

#[cfg(all(target_os = "linux", not(test)))]
extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
}

/// Has mimalloc reserve its memory 32 MiB at a time rather than 1 GiB; to
/// be called before the first allocation, which reserves the first arena.
/// As it reserves an arena, mimalloc writes the header of each of its 79
/// bitmaps, which for 1 GiB span 41 pages, each a page fault: a sixth of
/// those of `pir verify` of a small model. A command that outgrows the
/// arena reserves more, each later arena larger.
#[cfg(all(target_os = "linux", not(test)))]
pub(crate) fn reserve_small_arenas() {
    // SAFETY: the call sets one integer option; no thread runs yet.
    unsafe { mi_option_set(OPTION_ARENA_RESERVE, SMALL_ARENA_KIB) };
}

/// Sets mimalloc's `allow_thp` from `MIMALLOC_ALLOW_THP` (or
/// `mimalloc_allow_thp`), as mimalloc itself would; to be called before
/// the first allocation. mimalloc is built not to read its options from
/// the environment (`.cargo/config.toml`): looking up each of its 40-odd
/// names twice was a fifth of the instructions of `pir --version`. This
/// one, which trades huge pages back for memory, is read here.
#[cfg(all(target_os = "linux", not(test)))]
pub(crate) fn allow_huge_pages_from_environment() {
    for name in [c"mimalloc_allow_thp", c"MIMALLOC_ALLOW_THP"] {
        // SAFETY: the name is NUL-terminated; no thread runs yet that
        // could change the environment while it is read.
        let value = unsafe { libc::getenv(name.as_ptr()) };
        if value.is_null() {
            continue;
        }
        // SAFETY: the environment's strings are NUL-terminated.
        let text = unsafe { std::ffi::CStr::from_ptr(value) }.to_bytes();
        if let Some(value) = option_value(text) {
            // SAFETY: the call sets one integer option.
            unsafe { mi_option_set(OPTION_ALLOW_THP, value) };
        }
        return;
    }
}

/// An option's value as mimalloc reads it from the environment: nothing,
/// `1`, `true`, `yes` or `on` (in any case) is 1; `0`, `false`, `no` or
/// `off` is 0; else a decimal number (`None` when it is not one, which
/// mimalloc ignores). Nothing is allocated: the first allocation reserves
/// mimalloc's first arena, which the option is for.
#[cfg(any(test, target_os = "linux"))]
fn option_value(text: &[u8]) -> Option<c_long> {
    let is_any = |words: &[&str]| {
        words
            .iter()
            .any(|w| text.eq_ignore_ascii_case(w.as_bytes()))
    };
    if is_any(&["", "1", "true", "yes", "on"]) {
        Some(1)
    } else if is_any(&["0", "false", "no", "off"]) {
        Some(0)
    } else {
        std::str::from_utf8(text).ok()?.parse().ok()
    }
}

/// The alignment of every block `mi_malloc` returns: a machine word.
const WORD_ALIGN: usize = std::mem::size_of::<usize>();

/// mimalloc, through its unaligned entry points for blocks aligned to a
/// word or less.
pub struct Allocator;

// SAFETY: every block comes from mimalloc aligned as asked (to a word by
// its unaligned calls, which give no less, else by its aligned calls) and
// is freed or resized by the call of the same kind (`mi_free` takes
// blocks of either).
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the calls take any size and alignment.
        unsafe {
            if layout.align() <= WORD_ALIGN {
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
            if layout.align() <= WORD_ALIGN {
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
        // caller's guarantee), which made it with the call of the same
        // alignment.
        unsafe {
            if layout.align() <= WORD_ALIGN {
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

    extern "C" {
        fn mi_option_get(option: c_int) -> c_long;
    }

    /// The options' numbers are `arena_reserve`'s and `allow_thp`'s: the
    /// default of the first, 1 GiB in KiB, and that of the option two after
    /// the second (`arena_max_object_size`), 2 GiB in KiB, are no other
    /// option's.
    #[test]
    fn the_option_numbers_are_mimalloc_s() {
        // SAFETY: the calls read integer options (the environment is not
        // read: see `.cargo/config.toml`).
        unsafe {
            assert_eq!(mi_option_get(OPTION_ARENA_RESERVE), 1 << 20);
            assert_eq!(mi_option_get(OPTION_ALLOW_THP + 2), 2 << 20);
            assert_eq!(mi_option_get(OPTION_ALLOW_THP), 1);
        }
    }

    #[test]
    fn option_values_are_read_as_mimalloc_reads_them() {
        for (text, value) in [
            ("", Some(1)),
            ("1", Some(1)),
            ("on", Some(1)),
            ("True", Some(1)),
            ("0", Some(0)),
            ("off", Some(0)),
            ("NO", Some(0)),
            ("2", Some(2)),
            ("maybe", None),
        ] {
            assert_eq!(option_value(text.as_bytes()), value, "{text:?}");
        }
    }

    /// Blocks of every kind come aligned, keep their bytes when resized,
    /// and zeroed ones are zero.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        for align in [1, 2, 4, 8, 16, 64, 4096] {
            for size in [1, 3, 8, 24, 40, 100, 1000, 70_000] {
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
                    Allocator.dealloc(grown, grown_layout);
                }
            }
        }
    }
}
