//! The bytes of parameter files, shared by the tensors that view them: a
//! read-only memory map, or for a small file one buffer it was read into.
//!
//! ```
//! # let dir = tempfile::tempdir().unwrap();
//! # let path = dir.path().join("x.bin");
//! std::fs::write(&path, b"abc").unwrap();
//! let map = pir_params::map_file(&path).unwrap();
//! assert_eq!(&map[..], b"abc");
//! assert!(map.is_memory_mapped());
//! let read = pir_params::open_file(&path).unwrap();
//! assert_eq!(&read[..], b"abc");
//! assert!(!read.is_memory_mapped()); // smaller than READ_BELOW_BYTES
//! ```

use std::fs::File;
use std::io::Read;
use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

use memmap2::{Mmap, MmapOptions};

use pir_core::fs::ReadError;

use crate::error::{Error, Result};

/// Files smaller than this are read whole by [`open_file`] rather than
/// mapped. Mapping costs a fixed price in system calls — the map, a page
/// fault per few pages touched, and the unmap, which in a process whose
/// other threads run (NumPy's BLAS threads) waits for every core they ran
/// on to drop the pages from its TLB — while a read costs a copy growing
/// with the size. Measured on a 2-core VM with NumPy's threads started:
/// a 64 KiB file read in 5 µs against 16 µs mapped, touched and unmapped;
/// 256 KiB 13 µs against 15 µs; 512 KiB 24 µs against 19 µs.
pub const READ_BELOW_BYTES: u64 = 256 << 10;

/// The unit of a read file's buffer, whose alignment is the buffer's: at
/// least 8 bytes, the largest any element type needs, so a tensor at a
/// given offset is as aligned for its elements as in a memory map (which
/// starts on a page). A buffer of zeros of a primitive type is allocated
/// already zeroed (the allocator's fresh memory is not cleared again)
/// before the read fills it.
type Unit = u128;
const UNIT: usize = std::mem::size_of::<Unit>();

enum Backing {
    Map(Mmap),
    Read { units: Box<[Unit]>, len: usize },
}

/// The read-only bytes of a file, shared (behind an `Arc`) by the tensors
/// that view them without a copy: a memory map ([`map_file`]), or one
/// buffer the whole file was read into ([`open_file`], small files).
pub struct FileBytes(Backing);

impl std::fmt::Debug for FileBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileBytes")
            .field("len", &self.len())
            .field("memory_mapped", &self.is_memory_mapped())
            .finish()
    }
}

impl FileBytes {
    /// Whether the bytes are a memory map of the file (rather than a copy
    /// read whole).
    pub fn is_memory_mapped(&self) -> bool {
        matches!(self.0, Backing::Map(_))
    }
}

impl Deref for FileBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Backing::Map(map) => map,
            Backing::Read { units, len } => {
                let bytes: &[u8] = bytemuck::cast_slice(units);
                bytes.get(..*len).unwrap_or(&[])
            }
        }
    }
}

impl AsRef<[u8]> for FileBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// Opens `path` for reading its length: an error for anything but a
/// regular file (a device or a pipe maps as nothing — `/dev/zero` would
/// read as an empty file of no tensors).
fn open_regular(path: &Path) -> Result<(File, usize)> {
    let io_err = ReadError::at(path);
    let file = File::open(path).map_err(io_err)?;
    let metadata = file.metadata().map_err(io_err)?;
    if !metadata.is_file() {
        return Err(Error::Io(io_err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (parameter files are read by their size; save a stream to a file first)",
        ))));
    }
    // The length is the one just read, not asked of the system again.
    let len = usize::try_from(metadata.len()).map_err(|_| {
        Error::Io(io_err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            "larger than this system can map",
        )))
    })?;
    Ok((file, len))
}

/// The bytes of the parameter file `path`: read whole into one buffer when
/// smaller than [`READ_BELOW_BYTES`], else mapped ([`map_file`]). Either
/// way tensors read from it view its bytes without a copy each.
pub fn open_file(path: &Path) -> Result<Arc<FileBytes>> {
    let (file, len) = open_regular(path)?;
    if len as u64 >= READ_BELOW_BYTES {
        return map_open(path, &file, len);
    }
    let mut units = vec![0 as Unit; len.div_ceil(UNIT)].into_boxed_slice();
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut units);
    let io_err = ReadError::at(path);
    // Exactly the length the metadata gave: a file that shrank since is an
    // error, one that grew is read as it was.
    (&file)
        .take(len as u64)
        .read_exact(bytes.get_mut(..len).unwrap_or_default())
        .map_err(io_err)?;
    Ok(Arc::new(FileBytes(Backing::Read { units, len })))
}

/// Maps `path` read-only into memory.
///
/// Tensors read from the map borrow its bytes (no copy) and keep it alive. As
/// with any memory map, the file must not be truncated or modified in place
/// while it is mapped; this crate's writers never do that (they write a
/// temporary file and rename it over the destination), so re-saving a file
/// that is being read is safe.
pub fn map_file(path: &Path) -> Result<Arc<FileBytes>> {
    let (file, len) = open_regular(path)?;
    map_open(path, &file, len)
}

/// Maps the `len` bytes of `file`, opened from `path`.
#[allow(unsafe_code)]
fn map_open(path: &Path, file: &File, len: usize) -> Result<Arc<FileBytes>> {
    let io_err = ReadError::at(path);
    // SAFETY: mapping is unsafe because the mapped bytes can change (or
    // become inaccessible) if the file is modified or truncated by someone else
    // while mapped. The map is read-only and only ever read through bounds-checked
    // slices of its length at mapping time; the crate's own writers replace files
    // by rename (`pir_core::fs::write_atomic`) and never write into an existing
    // file, so the mapped inode is never changed by this process. Modification by
    // another process is outside what the caller may do (documented above).
    let map = unsafe { MmapOptions::new().len(len).map(file) }.map_err(io_err)?;
    Ok(Arc::new(FileBytes(Backing::Map(map))))
}

/// Drops the pages of `map` that lie wholly inside `range` from this
/// process's resident memory; their bytes stay readable. A reader that goes
/// through a large file once (a model's JSON) calls it behind itself, so
/// the process holds only the part it is reading rather than the whole
/// file: a later read of a dropped page maps it again from the file (the
/// kernel's page cache still holds it, so no disk is read). Out-of-range
/// parts are ignored; where the system offers no such advice it does
/// nothing, as for bytes that were read rather than mapped.
#[allow(unsafe_code)]
pub fn release_pages(bytes: &FileBytes, range: std::ops::Range<usize>) {
    let Backing::Map(map) = &bytes.0 else {
        return;
    };
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
    fn small_files_are_read_larger_ones_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let threshold = READ_BELOW_BYTES as usize;
        for (len, mapped) in [
            (0, false),
            (100, false),
            (threshold - 1, false),
            (threshold, true),
        ] {
            let p = dir.path().join(format!("f{len}.bin"));
            let bytes: Vec<u8> = (0..len).map(|i| (i * 13 % 251) as u8).collect();
            std::fs::write(&p, &bytes).unwrap();
            let opened = open_file(&p).unwrap();
            assert_eq!(opened.is_memory_mapped(), mapped, "{len} bytes");
            assert_eq!(&opened[..], &bytes[..]);
            // As aligned as any element needs.
            assert_eq!(opened.as_ptr() as usize % 8, 0);
            assert!(map_file(&p).unwrap().is_memory_mapped());
            release_pages(&opened, 0..len);
            assert_eq!(&opened[..], &bytes[..]);
        }
        let err = open_file(dir.path()).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
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
