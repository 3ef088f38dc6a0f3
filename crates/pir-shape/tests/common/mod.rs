//! What several tests read: the Paddle cases.

use std::path::{Path, PathBuf};

/// The programs of `tests/paddle_cases` (`NAME.txt`, Paddle's text; each
/// with Paddle's annotation in `NAME.symshape.txt` beside it), in name
/// order.
pub fn paddle_case_programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/paddle_cases");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .filter(|p| !p.to_string_lossy().ends_with(".symshape.txt"))
        .collect();
    entries.sort();
    entries
}
