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

/// A path's extension in lower case (`Model.JSON` → `json`): file kinds are
/// told by extension without regard to case, as on the systems where
/// models are often made.
pub fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Whether `path`'s extension is `ext` (lower case), in any case.
pub fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Reads all of `reader`, or fails with [`io::ErrorKind::FileTooLarge`]
/// past `limit` bytes: a pipe or a device (`/dev/zero`) has no size to
/// check first, so the bound is kept while reading.
pub fn read_to_end_limited(
    reader: impl io::Read,
    limit: u64,
    bytes: &mut Vec<u8>,
) -> io::Result<()> {
    use io::Read as _;
    let start = bytes.len() as u64;
    reader.take(limit.saturating_add(1)).read_to_end(bytes)?;
    if bytes.len() as u64 - start > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("larger than {limit} bytes, the most read"),
        ));
    }
    Ok(())
}

/// The bytes of the file at `path` (a regular file, a pipe, a device), or
/// an error past `limit` bytes (see [`read_to_end_limited`]).
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    read_to_end_limited(File::open(path)?, limit, &mut bytes)?;
    Ok(bytes)
}

/// A file that could not be opened, mapped or read: the error each reader
/// of the project wraps, so that every one names the file alike.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {source}", path.display())]
pub struct ReadError {
    /// The file.
    pub path: PathBuf,
    /// The cause.
    #[source]
    pub source: io::Error,
}

impl ReadError {
    /// The conversion of an I/O error on `path` (for `map_err`).
    pub fn at(path: &Path) -> impl Fn(io::Error) -> ReadError + Copy + '_ {
        move |source| ReadError {
            path: path.to_path_buf(),
            source,
        }
    }
}

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
/// file next to `path`, which then replaces `path` by a rename. The folders
/// of `path` are created when missing.
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
    check_destination(path, overwrite)?;
    let prepared = Prepared {
        tmp: unique_temp_path(&parent_dir(path), &file_name(path)),
        path: path.to_path_buf(),
        overwrite,
        committed: false,
    };
    let written = (|| {
        // Paddle's savers make the folders of an output path; so do ours.
        std::fs::create_dir_all(parent_dir(path))?;
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

    /// Whether the destination already holds exactly the prepared bytes
    /// (a parameter file two outputs of one model share): committing would
    /// change nothing.
    pub fn matches_destination(&self) -> bool {
        same_content(&self.tmp, &self.path).unwrap_or(false)
    }

    /// Renames the temporary file over the destination. Without overwriting,
    /// a destination that appeared meanwhile is an error (and is kept).
    pub fn commit(mut self) -> Result<(), WriteError> {
        check_destination(&self.path, self.overwrite)?;
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

/// Refuses a destination that is a folder, or that exists (a dangling
/// symbolic link included) when overwriting was not asked for. A rename
/// replaces a link itself, never the file it points to.
fn check_destination(path: &Path, overwrite: bool) -> Result<(), WriteError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => Err(WriteError::Io {
            path: path.to_path_buf(),
            source: io::Error::new(io::ErrorKind::IsADirectory, "it is a folder"),
        }),
        Ok(_) if !overwrite => Err(WriteError::Exists(path.to_path_buf())),
        _ => Ok(()),
    }
}

/// Puts several prepared files in place as one: either every destination
/// holds its new content, or every destination is as it was before.
///
/// Each destination is checked first (a folder, or an existing file that
/// may not be overwritten, stops everything before a file is touched).
/// Then, in order, an existing destination is moved aside under a temporary
/// name and the new file renamed into its place. When a step fails, the
/// files already put in place are removed and the moved ones put back, so
/// a program whose write fails never costs the user the old parameter file
/// beside it. The moved-aside files are removed once all are in place.
pub fn commit_all(files: Vec<Prepared>) -> Result<(), WriteError> {
    for file in &files {
        check_destination(&file.path, file.overwrite)?;
    }
    let mut placed: Vec<(Prepared, Option<PathBuf>)> = Vec::with_capacity(files.len());
    let mut failure = None;
    for mut file in files {
        let aside = match std::fs::symlink_metadata(&file.path) {
            Ok(_) => {
                let aside =
                    unique_temp_path(parent_dir(&file.path).as_path(), &file_name(&file.path));
                if let Err(source) = std::fs::rename(&file.path, &aside) {
                    failure = Some(file.io_error(source));
                    break;
                }
                Some(aside)
            }
            Err(_) => None,
        };
        match std::fs::rename(&file.tmp, &file.path) {
            Ok(()) => {
                file.committed = true;
                placed.push((file, aside));
            }
            Err(source) => {
                if let Some(aside) = &aside {
                    let _ = std::fs::rename(aside, &file.path);
                }
                failure = Some(file.io_error(source));
                break;
            }
        }
    }
    match failure {
        None => {
            for (_, aside) in placed {
                if let Some(aside) = aside {
                    let _ = std::fs::remove_file(aside);
                }
            }
            Ok(())
        }
        Some(error) => {
            // Undo in reverse order: each new file out, its old one back.
            for (file, aside) in placed.into_iter().rev() {
                match aside {
                    Some(aside) => {
                        let _ = std::fs::rename(&aside, &file.path);
                    }
                    None => {
                        let _ = std::fs::remove_file(&file.path);
                    }
                }
            }
            Err(error)
        }
    }
}

/// Whether two files hold the same bytes (compared a block at a time).
fn same_content(a: &Path, b: &Path) -> io::Result<bool> {
    use std::io::Read;
    let (fa, fb) = (File::open(a)?, File::open(b)?);
    if fa.metadata()?.len() != fb.metadata()?.len() {
        return Ok(false);
    }
    let (mut ra, mut rb) = (io::BufReader::new(fa), io::BufReader::new(fb));
    let (mut ba, mut bb) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let n = ra.read(&mut ba)?;
        if n == 0 {
            return Ok(true);
        }
        rb.read_exact(&mut bb[..n])?;
        if ba[..n] != bb[..n] {
            return Ok(false);
        }
    }
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
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
    fn a_pair_is_committed_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let params = dir.path().join("b.pdiparams");
        let program = dir.path().join("b.json");
        std::fs::write(&params, b"OLD").unwrap();
        std::fs::create_dir(&program).unwrap();
        // The program's destination is a folder: nothing is touched.
        let pair = || {
            vec![
                prepare_atomic(&params, true, |w| w.write_all(b"NEW")).unwrap(),
                prepare_atomic(&dir.path().join("c.json"), true, |w| w.write_all(b"{}")).unwrap(),
            ]
        };
        let mut files = pair();
        files[1].path = program.clone();
        assert!(matches!(commit_all(files), Err(WriteError::Io { .. })));
        assert_eq!(std::fs::read(&params).unwrap(), b"OLD");
        assert_eq!(entries(dir.path()), ["b.json", "b.pdiparams"]);

        // A rename that fails after the first file is in place: the old
        // file comes back, the new one goes.
        let files = pair();
        std::fs::remove_file(&files[1].tmp).unwrap();
        assert!(commit_all(files).is_err());
        assert_eq!(std::fs::read(&params).unwrap(), b"OLD");
        assert_eq!(entries(dir.path()), ["b.json", "b.pdiparams"]);

        // Both succeed: both new, no file moved aside is left.
        std::fs::remove_dir(&program).unwrap();
        let mut files = pair();
        files[1].path = program.clone();
        commit_all(files).unwrap();
        assert_eq!(std::fs::read(&params).unwrap(), b"NEW");
        assert_eq!(std::fs::read(&program).unwrap(), b"{}");
        assert_eq!(entries(dir.path()), ["b.json", "b.pdiparams"]);
    }

    #[test]
    fn reads_stop_at_their_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read_limited(&path, 5).unwrap(), b"12345");
        let err = read_limited(&path, 4).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        #[cfg(unix)]
        {
            let err = read_limited(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        }
    }

    #[test]
    fn a_destination_with_the_same_bytes_is_recognised() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        std::fs::write(&path, b"same").unwrap();
        let same = prepare_atomic(&path, true, |w| w.write_all(b"same")).unwrap();
        assert!(same.matches_destination());
        let other = prepare_atomic(&path, true, |w| w.write_all(b"sane")).unwrap();
        assert!(!other.matches_destination());
        let longer = prepare_atomic(&path, true, |w| w.write_all(b"same!")).unwrap();
        assert!(!longer.matches_destination());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.txt");
        let link = dir.path().join("link.txt");
        std::fs::write(&target, b"precious").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(
            write_atomic(&link, false, |w| w.write_all(b"x")),
            Err(WriteError::Exists(_))
        ));
        let dangling = dir.path().join("dangling.txt");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert!(matches!(
            write_atomic(&dangling, false, |w| w.write_all(b"x")),
            Err(WriteError::Exists(_))
        ));
        write_atomic(&link, true, |w| w.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"precious");
        assert_eq!(std::fs::read(&link).unwrap(), b"new");
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
