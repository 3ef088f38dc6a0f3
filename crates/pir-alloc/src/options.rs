//! The options a process gives mimalloc as it starts, before the first
//! allocation, which reserves mimalloc's first arena (the `pir` command's
//! `start.rs` calls them).
#![allow(unsafe_code)]

use std::ffi::{c_int, c_long};

/// mimalloc's options `arena_reserve` and `allow_thp` (their numbers in
/// `mimalloc.h`, whose options keep them: retired ones stay as
/// `deprecated_*`), which `libmimalloc-sys` declares only with a feature
/// that needs another crate; a test checks the numbers by the defaults.
const OPTION_ARENA_RESERVE: c_int = 23;
const OPTION_ALLOW_THP: c_int = 43;

/// The arenas of a command that works on small files: 32 MiB (in KiB),
/// mimalloc's smallest.
const SMALL_ARENA_KIB: c_long = 32 << 10;

extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
}

/// Has mimalloc reserve its memory 32 MiB at a time rather than 1 GiB; to
/// be called before the first allocation, which reserves the first arena.
/// As it reserves an arena, mimalloc writes the header of each of its 79
/// bitmaps, which for 1 GiB span 41 pages, each a page fault: a sixth of
/// those of `pir verify` of a small model. A command that outgrows the
/// arena reserves more, each later arena larger.
pub fn reserve_small_arenas() {
    // SAFETY: the call sets one integer option, which mimalloc lets a
    // program do at any time.
    unsafe { mi_option_set(OPTION_ARENA_RESERVE, SMALL_ARENA_KIB) };
}

/// Sets mimalloc's `allow_thp` from `MIMALLOC_ALLOW_THP` (or
/// `mimalloc_allow_thp`), as mimalloc itself would; to be called before
/// the first allocation. mimalloc is built not to read its options from
/// the environment (`.cargo/config.toml`): looking up each of its 40-odd
/// names twice was a fifth of the instructions of `pir --version`. This
/// one, which trades huge pages back for memory, is read here, without
/// allocating.
///
/// # Safety
///
/// No other thread may change the environment while it is read (the C
/// library's `getenv` takes no lock): call it before the process starts
/// a thread.
pub unsafe fn allow_huge_pages_from_environment() {
    for name in [c"mimalloc_allow_thp", c"MIMALLOC_ALLOW_THP"] {
        // SAFETY: the name is NUL-terminated; no thread changes the
        // environment meanwhile (the caller's guarantee).
        let value = unsafe { libc::getenv(name.as_ptr()) };
        if value.is_null() {
            continue;
        }
        // SAFETY: the environment's strings are NUL-terminated.
        let text = unsafe { std::ffi::CStr::from_ptr(value) }.to_bytes();
        if let Some(value) = option_value(text) {
            // SAFETY: the call sets one integer option, at any time.
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

#[cfg(test)]
mod tests {
    use super::*;

    extern "C" {
        fn mi_option_get(option: c_int) -> c_long;
    }

    /// The options' numbers are `arena_reserve`'s and `allow_thp`'s: the
    /// default of the first, 1 GiB in KiB, and that of the option two after
    /// the second (`arena_max_object_size`), 2 GiB in KiB, are no other
    /// option's. Then the helpers set them; one test, so that no other
    /// test sees the options or the environment change.
    #[test]
    fn the_option_numbers_are_mimalloc_s_and_the_helpers_set_them() {
        // SAFETY: the calls read and set integer options (the environment
        // is not read by mimalloc: see `.cargo/config.toml`); no other test
        // changes the environment.
        unsafe {
            assert_eq!(mi_option_get(OPTION_ARENA_RESERVE), 1 << 20);
            assert_eq!(mi_option_get(OPTION_ALLOW_THP + 2), 2 << 20);
            assert_eq!(mi_option_get(OPTION_ALLOW_THP), 1);

            reserve_small_arenas();
            assert_eq!(mi_option_get(OPTION_ARENA_RESERVE), SMALL_ARENA_KIB);
            std::env::set_var("MIMALLOC_ALLOW_THP", "off");
            allow_huge_pages_from_environment();
            std::env::remove_var("MIMALLOC_ALLOW_THP");
            assert_eq!(mi_option_get(OPTION_ALLOW_THP), 0);
            mi_option_set(OPTION_ALLOW_THP, 1);
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
}
