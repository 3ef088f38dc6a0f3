//! Read-only memory maps of parameter files, shared by the tensors that borrow
//! from them.
//!
//! ```
//! # let dir = tempfile::tempdir().unwrap();
//! # let path = dir.path().join("x.bin");
//! std::fs::write(&path, b"abc").unwrap();
//! let map = pir_params::map_file(&path).unwrap();
//! assert_eq!(&map[..], b"abc");
//! ```

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use memmap2::{Mmap, MmapOptions};

use pir_core::fs::ReadError;

use crate::error::{Error, Result};

/// Maps `path` read-only into memory.
///
/// Tensors read from the map borrow its bytes (no copy) and keep it alive. As
/// with any memory map, the file must not be truncated or modified in place
/// while it is mapped; this crate's writers never do that (they write a
/// temporary file and rename it over the destination), so re-saving a file
/// that is being read is safe.
#[allow(unsafe_code)]
pub fn map_file(path: &Path) -> Result<Arc<Mmap>> {
    let io_err = ReadError::at(path);
    let file = File::open(path).map_err(io_err)?;
    // A device or a pipe maps as nothing (`/dev/zero` would read as an
    // empty file of no tensors): only a regular file's bytes are its size.
    let metadata = file.metadata().map_err(io_err)?;
    if !metadata.is_file() {
        return Err(Error::Io(io_err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (parameter files are mapped into memory; save a stream to a file first)",
        ))));
    }
    // The length is the one just read, not asked of the system again.
    let len = usize::try_from(metadata.len()).map_err(|_| {
        Error::Io(io_err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            "larger than this system can map",
        )))
    })?;
    // SAFETY: mapping is unsafe because the mapped bytes can change (or
    // become inaccessible) if the file is modified or truncated by someone else
    // while mapped. The map is read-only and only ever read through bounds-checked
    // slices of its length at mapping time; the crate's own writers replace files
    // by rename (`pir_core::fs::write_atomic`) and never write into an existing
    // file, so the mapped inode is never changed by this process. Modification by
    // another process is outside what the caller may do (documented above).
    let map = unsafe { MmapOptions::new().len(len).map(&file) }.map_err(io_err)?;
    Ok(Arc::new(map))
}

/// Drops the pages of `map` that lie wholly inside `range` from this
/// process's resident memory; their bytes stay readable. A reader that goes
/// through a large file once (a model's JSON) calls it behind itself, so
/// the process holds only the part it is reading rather than the whole
/// file: a later read of a dropped page maps it again from the file (the
/// kernel's page cache still holds it, so no disk is read). Out-of-range
/// parts are ignored; where the system offers no such advice it does
/// nothing.
#[allow(unsafe_code)]
pub fn release_pages(map: &Mmap, range: std::ops::Range<usize>) {
    #[cfg(unix)]
    {
        const PAGE: usize = 4096;
        // Whole pages only (the map starts on a page boundary); a larger
        // system page size makes memmap2 round `start` down to its page,
        // which is harmless (see below).
        let start = range.start.next_multiple_of(PAGE);
        let end = range.end.min(map.len()) / PAGE * PAGE;
        if start >= end {
            return;
        }
        // SAFETY: `MADV_DONTNEED` is unsafe in general because on private
        // or anonymous mappings it discards the pages' contents (a later
        // read sees zeros or the file's bytes instead of what was written),
        // which would change memory that Rust code borrows. `map` is a
        // shared, read-only mapping of a file (`Mmap::map`, never written
        // through), and for shared file mappings a later read maps the
        // file's current bytes again: the same bytes, under the contract
        // of `map_file` that nobody modifies the file while it is mapped.
        // So borrows of the dropped range keep seeing what they saw. The
        // range is within the map (checked above, as memmap2 also does).
        let advised = unsafe {
            map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
        };
        // Only a hint: a refusal leaves the pages resident, which is correct.
        drop(advised);
    }
    #[cfg(not(unix))]
    {
        let _ = (map, range);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn maps_small_and_empty_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.bin");
        std::fs::write(&p, [1u8, 2, 3]).unwrap();
        let map = map_file(&p).unwrap();
        assert_eq!(&map[..], &[1, 2, 3]);
        let e = dir.path().join("empty.bin");
        std::fs::write(&e, []).unwrap();
        assert_eq!(map_file(&e).unwrap().len(), 0);
        let err = map_file(&dir.path().join("missing")).unwrap_err();
        assert!(err.to_string().starts_with("cannot read "), "{err}");
    }

    #[test]
    fn released_pages_read_back_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.bin");
        let bytes: Vec<u8> = (0..5 * 4096 + 100).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&p, &bytes).unwrap();
        let map = map_file(&p).unwrap();
        let before: Vec<u8> = map.to_vec();
        let borrowed = &map[4096..8192];
        release_pages(&map, 1..3 * 4096 + 5);
        release_pages(&map, 0..usize::MAX);
        release_pages(&map, 9000..9001);
        assert_eq!(borrowed, &bytes[4096..8192]);
        assert_eq!(&map[..], &before[..]);
        assert_eq!(&map[..], &bytes[..]);
    }

    #[test]
    fn atomic_replacement_keeps_a_live_map_intact() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.bin");
        std::fs::write(&p, b"old bytes").unwrap();
        let map = map_file(&p).unwrap();
        pir_core::fs::write_atomic(&p, true, |w| w.write_all(b"new")).unwrap();
        assert_eq!(&map[..], b"old bytes");
        assert_eq!(&map_file(&p).unwrap()[..], b"new");
    }
}
