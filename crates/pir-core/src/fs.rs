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
    prepare_atomic(path, overwrite, fill)?.commit()
}

/// The first half of [`write_atomic`]: the content written and synced to a
/// temporary file next to `path`, which [`Prepared::commit`] then renames over
/// `path`. Files that belong together (a program and its parameters) are
/// prepared first, in parallel if need be (syncing is the slow part), and
/// committed one after the other, so that a failure of either leaves both
/// destinations as they were.
pub fn prepare_atomic(
    path: &Path,
    overwrite: bool,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Prepared, WriteError> {
    if !overwrite && path.exists() {
        return Err(WriteError::Exists(path.to_path_buf()));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prepared = Prepared {
        tmp: unique_temp_path(&dir, &file_name),
        path: path.to_path_buf(),
        overwrite,
        committed: false,
    };
    let written = (|| {
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&prepared.tmp)?;
        let mut writer = BufWriter::with_capacity(1 << 16, file);
        fill(&mut writer)?;
        let file = writer.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()
    })();
    // On an error `prepared` is dropped here, which removes the temporary file.
    written.map_err(|source| prepared.io_error(source))?;
    Ok(prepared)
}

/// A file written and synced under a temporary name, not yet in place (see
/// [`prepare_atomic`]). Dropping it without [`commit`](Prepared::commit)
/// removes the temporary file and leaves the destination untouched.
#[must_use = "a prepared file is removed unless it is committed"]
#[derive(Debug)]
pub struct Prepared {
    tmp: PathBuf,
    path: PathBuf,
    overwrite: bool,
    committed: bool,
}

impl Prepared {
    /// The destination.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the temporary file over the destination. Without overwriting,
    /// a destination that appeared meanwhile is an error (and is kept).
    pub fn commit(mut self) -> Result<(), WriteError> {
        if !self.overwrite && self.path.exists() {
            return Err(WriteError::Exists(self.path.clone()));
        }
        match std::fs::rename(&self.tmp, &self.path) {
            Ok(()) => {
                self.committed = true;
                Ok(())
            }
            Err(source) => Err(self.io_error(source)),
        }
    }

    fn io_error(&self, source: io::Error) -> WriteError {
        if source.kind() == io::ErrorKind::AlreadyExists && !self.overwrite {
            return WriteError::Exists(self.path.clone());
        }
        WriteError::Io {
            path: self.path.clone(),
            source,
        }
    }
}

impl Drop for Prepared {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
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

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_prepared_file_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        write_atomic(&path, false, |w| w.write_all(b"old")).unwrap();
        let prepared = prepare_atomic(&path, true, |w| w.write_all(b"new")).unwrap();
        assert_eq!(prepared.path(), path);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(
            entries(dir.path()).len(),
            2,
            "the temporary file is beside it"
        );
        prepared.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(entries(dir.path()), ["a.bin"]);
    }

    #[test]
    fn a_dropped_prepared_file_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        drop(prepare_atomic(&path, false, |w| w.write_all(b"new")).unwrap());
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn a_destination_that_appears_before_the_commit_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        let prepared = prepare_atomic(&path, false, |w| w.write_all(b"mine")).unwrap();
        std::fs::write(&path, b"theirs").unwrap();
        assert!(matches!(prepared.commit(), Err(WriteError::Exists(_))));
        assert_eq!(std::fs::read(&path).unwrap(), b"theirs");
        assert_eq!(entries(dir.path()), ["a.bin"]);
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
