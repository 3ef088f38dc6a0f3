//! Atomic file writing shared by every writer of the project.
//!
//! A writer never leaves a half-written file behind: the bytes go to a temporary
//! file in the destination's directory, which is flushed, synced and then renamed
//! over the destination. Overwriting an existing file must be asked for.
//!
//! ```
//! # let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("model.json");
//! pir_core::fs::write_atomic(&path, false, |w| w.write_all(b"{}")).unwrap();
//! assert!(pir_core::fs::write_atomic(&path, false, |w| w.write_all(b"{}")).is_err());
//! # use std::io::Write;
//! ```

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Error of [`write_atomic`].
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The destination exists and overwriting was not requested.
    #[error("{} already exists and overwriting it was not asked for", .0.display())]
    Exists(PathBuf),
    /// An I/O error while creating, writing, syncing or renaming.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// The destination path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

/// Writes a file atomically: `fill` writes the content into a buffered temporary
/// file next to `path`, which then replaces `path` by a rename.
///
/// With `overwrite == false` an existing destination is an error and nothing is
/// written. On any error the temporary file is removed and `path` is untouched.
pub fn write_atomic(
    path: &Path,
    overwrite: bool,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    if !overwrite && path.exists() {
        return Err(WriteError::Exists(path.to_path_buf()));
    }
    let io_err = |source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = unique_temp_path(&dir, &file_name);
    let result = (|| {
        let file = File::options().write(true).create_new(true).open(&tmp)?;
        let mut writer = BufWriter::with_capacity(1 << 16, file);
        fill(&mut writer)?;
        let file = writer.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        if !overwrite && path.exists() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "destination appeared while writing",
            ));
        }
        std::fs::rename(&tmp, path)
    })();
    if let Err(source) = result {
        let _ = std::fs::remove_file(&tmp);
        if source.kind() == io::ErrorKind::AlreadyExists && !overwrite {
            return Err(WriteError::Exists(path.to_path_buf()));
        }
        return Err(io_err(source));
    }
    Ok(())
}

fn unique_temp_path(dir: &Path, file_name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{file_name}.{}.{n}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_to_overwrite_unless_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        write_atomic(&path, false, |w| w.write_all(b"one")).unwrap();
        assert!(matches!(
            write_atomic(&path, false, |w| w.write_all(b"two")),
            Err(WriteError::Exists(_))
        ));
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        write_atomic(&path, true, |w| w.write_all(b"two")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
    }

    #[test]
    fn failed_fill_leaves_destination_and_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        write_atomic(&path, false, |w| w.write_all(b"keep")).unwrap();
        let err = write_atomic(&path, true, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("boom"))
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"keep");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
