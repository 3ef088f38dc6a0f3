//! The start and the end of the `pir` process on Linux, in place of Rust's
//! runtime (the program is `#![no_main]`; the C library calls [`start`]).
//!
//! Before a Rust `main`, the runtime ignores SIGPIPE, opens `/dev/null` on
//! a closed standard descriptor, and installs the handler that reports a
//! stack overflow; that one reads the whole of `/proc/self/maps` to find
//! the main thread's stack (a sixth of the instructions of `pir
//! --version`) and allocates, which makes mimalloc reserve its arena and
//! touch its first page: a 2 MB transparent huge page the kernel clears,
//! about a quarter of a small command's time. [`start`] does the first two
//! itself, leaves the stack-overflow report out (recursion is bounded
//! everywhere; an overflow would end the process with SIGSEGV rather than
//! a message), and, before anything is allocated, turns huge pages off
//! for the process unless its command line says they may pay
//! ([`wants_huge_pages`]), and otherwise has mimalloc reserve its memory
//! in small arenas ([`pir_alloc::reserve_small_arenas`]). The choice
//! is made then because memory touched in small pages stays in small pages,
//! and the first arena is reserved by the first allocation.
#![allow(unsafe_code)]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The process's entry point, called by the C library with the arguments
/// (which `std::env::args` finds by itself).
#[cfg(not(test))]
#[export_name = "main"]
extern "C" fn start(
    argc: std::ffi::c_int,
    argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    use std::io::Write;
    // SAFETY: the C library passes `argc` pointers to NUL-terminated
    // strings in `argv`, which last as long as the process.
    let args = unsafe { std::slice::from_raw_parts(argv, usize::try_from(argc).unwrap_or(0)) };
    // SAFETY: as above, each pointer is a NUL-terminated string.
    let args = args
        .iter()
        .skip(1)
        .map(|&arg| unsafe { std::ffi::CStr::from_ptr(arg) }.to_bytes());
    prepare_process(wants_huge_pages(args.clone()));
    // Read in place, and written without Rust's buffered standard output,
    // whose buffer would be the first allocation (mimalloc then reserves
    // its arena and starts a page: 4% of the command's instructions):
    // `pir --version` allocates nothing. A closed standard output is no
    // error, as for clap.
    if let Some(version) = crate::version_request(args.clone().map(OsStr::from_bytes)) {
        let _ = write_unbuffered(version.as_bytes());
        return 0;
    }
    // A panic (its message already written) ends the process with Rust's
    // exit code 101, rather than unwinding into the C library.
    let run = std::panic::AssertUnwindSafe(|| crate::run(args.map(OsStr::from_bytes)));
    let code = std::panic::catch_unwind(run).unwrap_or(101);
    // Rust's runtime flushes standard output after `main`; the C library's
    // `exit` knows nothing of its buffer.
    let _ = std::io::stdout().flush();
    std::ffi::c_int::from(code)
}

/// Writes `bytes` to standard output directly, with no buffer.
#[cfg(not(test))]
fn write_unbuffered(bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::fd::FromRawFd;
    // SAFETY: descriptor 1 is open (`prepare_process` opens `/dev/null` on
    // it if it was closed); the file is never dropped, so it stays open.
    let stdout = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(1) });
    (&*stdout).write_all(bytes)
}

/// What the process needs before the command runs (see the module docs).
#[cfg(not(test))]
fn prepare_process(huge_pages: bool) {
    // SAFETY: `SIG_IGN` installs no handler code; Rust's runtime makes the
    // same call, so that a closed pipe is an error the command sees
    // (`BrokenPipe`) rather than a signal that ends it.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    open_closed_standard_descriptors();
    // SAFETY: no other thread runs yet that could change the environment.
    unsafe { pir_alloc::allow_huge_pages_from_environment() };
    if !huge_pages {
        turn_huge_pages_off();
        pir_alloc::reserve_small_arenas();
    }
}

/// Files of this many bytes in all make a command use enough memory for
/// 2 MB pages to pay: a large model loads about 10% faster with them.
const HUGE_PAGE_FILE_BYTES: u64 = 1 << 20;

/// Whether a command line (the arguments after the program's name) may
/// have the command work on enough memory for huge pages to pay: the
/// files it names (models, and any other file: a wrong guess only costs
/// the first page's clearing) are large in all, or it reads standard input
/// (`-`), whose size is not known in advance, or it makes a program (`pir
/// synth`), or it times work in a process already started (`pir time`,
/// whose figures were made with huge pages, as before this start).
fn wants_huge_pages<'a>(args: impl Iterator<Item = &'a [u8]>) -> bool {
    let mut bytes = 0u64;
    for (i, arg) in args.enumerate() {
        if arg == b"-" || (i == 0 && matches!(arg, b"synth" | b"time")) {
            return true;
        }
        // The first is the command's name (or an option).
        if i == 0 || arg.starts_with(b"-") {
            continue;
        }
        // A short path is made a C string on the stack: nothing allocated.
        if let Ok(meta) = std::fs::metadata(Path::new(OsStr::from_bytes(arg))) {
            if meta.is_file() {
                bytes = bytes.saturating_add(meta.len());
            }
        }
    }
    bytes >= HUGE_PAGE_FILE_BYTES
}

/// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, as
/// Rust's runtime does: else the first file the command opens would take
/// that number, and what it prints would be written into that file.
fn open_closed_standard_descriptors() {
    for fd in 0..=2 {
        // SAFETY: F_GETFD only reads the descriptor's flags.
        let closed = unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
        if closed {
            // SAFETY: the path is NUL-terminated and outlives the call.
            // The lowest free descriptor is taken: `fd`, the lower ones
            // being open by now.
            let opened = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
            if opened != fd {
                // What Rust's runtime does too: nothing safe is left to do.
                std::process::abort();
            }
        }
    }
}

/// Turns transparent huge pages off for the process (and the programs it
/// starts, as any process setting does).
fn turn_huge_pages_off() {
    // SAFETY: the request takes and returns integers only.
    unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether huge pages are off for this process.
    fn huge_pages_off() -> bool {
        // SAFETY: the request takes and returns integers only.
        unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1 }
    }

    #[test]
    fn huge_pages_are_turned_off() {
        let initially_off = huge_pages_off();
        turn_huge_pages_off();
        assert!(huge_pages_off());
        // SAFETY: the request takes and returns integers only.
        unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, u64::from(initially_off), 0, 0, 0) };
    }

    #[test]
    fn huge_pages_are_for_large_or_unknown_inputs() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let small = dir.path().join("small.json");
        let large = dir.path().join("large.json");
        std::fs::write(&small, vec![b' '; 4 << 10]).expect("written");
        std::fs::write(&large, vec![b' '; 1 << 20]).expect("written");
        let wants = |args: &[&OsStr]| wants_huge_pages(args.iter().map(|a| a.as_bytes()));
        let (small, large) = (small.as_os_str(), large.as_os_str());
        assert!(!wants(&[OsStr::new("--version")]));
        assert!(!wants(&[OsStr::new("verify"), small, small]));
        assert!(!wants(&[OsStr::new("print"), dir.path().as_os_str()]));
        assert!(wants(&[OsStr::new("verify"), small, large]));
        assert!(wants(&[OsStr::new("convert"), OsStr::new("-"), small]));
        assert!(wants(&[OsStr::new("synth"), OsStr::new("1000"), small]));
        assert!(wants(&[OsStr::new("time"), small]));
        assert!(!wants(&[OsStr::new("print"), OsStr::new("time")]));
    }

    #[test]
    fn open_standard_descriptors_are_left_alone() {
        let before = std::fs::read_link("/proc/self/fd/1").ok();
        open_closed_standard_descriptors();
        assert_eq!(std::fs::read_link("/proc/self/fd/1").ok(), before);
    }
}
