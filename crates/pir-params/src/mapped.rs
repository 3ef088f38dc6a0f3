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

use memmap2::Mmap;

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
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io_err)?;
    // SAFETY: `Mmap::map` is unsafe because the mapped bytes can change (or
    // become inaccessible) if the file is modified or truncated by someone else
    // while mapped. The map is read-only and only ever read through bounds-checked
    // slices of its length at mapping time; the crate's own writers replace files
    // by rename (`pir_core::fs::write_atomic`) and never write into an existing
    // file, so the mapped inode is never changed by this process. Modification by
    // another process is outside what the caller may do (documented above).
    let map = unsafe { Mmap::map(&file) }.map_err(io_err)?;
    Ok(Arc::new(map))
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
