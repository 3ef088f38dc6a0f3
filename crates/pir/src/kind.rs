//! What kind of file a path holds, told by its content (the extension only
//! breaks ties), so that a file of the wrong kind gets an error saying what
//! it is instead of a parse error from the wrong reader.
//!
//! ```
//! use pir::FileKind;
//! assert_eq!(FileKind::of_bytes(br#"{"base_code":{}}"#), FileKind::ModelJson);
//! assert_eq!(FileKind::of_bytes(b"{\n    (%0) = \"pd_op.data\" ..."), FileKind::ModelText);
//! assert_eq!(FileKind::of_bytes(&[0, 0, 0, 0, 0, 0, 0, 0]), FileKind::CombinedParams);
//! assert_eq!(FileKind::of_bytes(b"\x80\x04\x95"), FileKind::PickleParams);
//! assert_eq!(FileKind::of_bytes(b"PK\x03\x04"), FileKind::Unknown);
//! ```

use std::io::Read;
use std::path::Path;

/// The kinds of file pir reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Paddle's JSON model format (`.json`).
    ModelJson,
    /// IR text: Paddle's print or the typed form (`.txt`, `.pir`).
    ModelText,
    /// A Paddle 2.x `ProgramDesc` (`.pdmodel`).
    LegacyModel,
    /// A combined parameter file (`.pdiparams`): a stream of dense tensors.
    CombinedParams,
    /// A pickled state dict (`.pdparams`).
    PickleParams,
    /// An empty file.
    Empty,
    /// Anything else.
    Unknown,
}

/// How many leading bytes [`FileKind::of_file`] reads (all of a file that
/// starts like a `.pdmodel`, whose check decodes it).
pub(crate) const HEAD: usize = 4096;

impl FileKind {
    /// Tells the kind from a file's content (all of it for a legacy model,
    /// whose check decodes the protobuf; otherwise its first bytes suffice).
    pub fn of_bytes(bytes: &[u8]) -> FileKind {
        match bytes {
            [] => FileKind::Empty,
            // Pickle protocols 2 to 5 start with PROTO.
            [0x80, 2..=5, ..] => FileKind::PickleParams,
            // A dense tensor stream starts with its version, a u32 zero; no
            // text or JSON starts with a NUL byte.
            [0, 0, 0, 0, ..] => FileKind::CombinedParams,
            _ if pir_core::parser::looks_like_text(bytes) => FileKind::ModelText,
            _ if looks_like_json_object(bytes) => FileKind::ModelJson,
            [0x0a, ..] if pir_legacy::looks_like_program_desc(bytes) => FileKind::LegacyModel,
            _ => FileKind::Unknown,
        }
    }

    /// Tells the kind of a file from its first bytes (all of it when it may
    /// be a legacy model). `{}` in a `.json` file is JSON (an empty object),
    /// elsewhere it is an empty program's text; content of no kind is taken
    /// by its extension, so its reader says what is wrong with it.
    pub fn of_file(path: &Path) -> std::io::Result<FileKind> {
        let mut file = std::fs::File::open(path)?;
        let mut head = Vec::with_capacity(HEAD);
        file.by_ref().take(HEAD as u64).read_to_end(&mut head)?;
        if head.first() == Some(&0x0a) {
            file.read_to_end(&mut head)?;
        }
        Ok(FileKind::of_contents(&head, path))
    }

    /// The kind of the file named `path` whose bytes (at least the first
    /// [`HEAD`], or all of a file that starts like a `.pdmodel`) are
    /// `bytes`, as [`of_file`](Self::of_file) tells it.
    pub(crate) fn of_contents(bytes: &[u8], path: &Path) -> FileKind {
        let told = match bytes.first() {
            Some(&0x0a) => bytes,
            _ => bytes.get(..HEAD).unwrap_or(bytes),
        };
        FileKind::of_named_bytes(told, path)
    }

    /// The kind of `bytes`, the start or the whole of a file named `path`
    /// (a stream's name: its extension breaks ties, as in
    /// [`of_file`](Self::of_file)).
    pub fn of_named_bytes(bytes: &[u8], path: &Path) -> FileKind {
        let kind = FileKind::of_bytes(bytes);
        let ext = pir_core::fs::extension(path);
        match (kind, ext.as_deref()) {
            (FileKind::ModelText, Some("json")) if looks_like_json_object(bytes) => {
                FileKind::ModelJson
            }
            // Content of no kind: the extension names the reader whose error
            // says what is wrong (a truncated file, a bad byte).
            (FileKind::Unknown, Some("json")) => FileKind::ModelJson,
            (FileKind::Unknown, Some("pdmodel")) => FileKind::LegacyModel,
            (FileKind::Unknown, Some("pir" | "txt")) => FileKind::ModelText,
            (FileKind::Unknown, Some("pdiparams")) => FileKind::CombinedParams,
            (kind, _) => kind,
        }
    }

    /// Whether the file holds a program.
    pub fn is_model(self) -> bool {
        matches!(
            self,
            FileKind::ModelJson | FileKind::ModelText | FileKind::LegacyModel
        )
    }

    /// Whether the file holds parameters.
    pub fn is_params(self) -> bool {
        matches!(self, FileKind::CombinedParams | FileKind::PickleParams)
    }

    /// What the file is, for messages: "a parameter file (.pdiparams)".
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::ModelJson => "a Paddle JSON model",
            FileKind::ModelText => "IR text",
            FileKind::LegacyModel => "a Paddle 2.x model (.pdmodel)",
            FileKind::CombinedParams => "a parameter file (.pdiparams)",
            FileKind::PickleParams => "a parameter pickle (.pdparams)",
            FileKind::Empty => "an empty file",
            FileKind::Unknown => "of a kind pir does not read",
        }
    }
}

/// `{` then, after white space, `"` or `}`: a JSON object.
fn looks_like_json_object(bytes: &[u8]) -> bool {
    let trimmed = trim_start(bytes);
    match trimmed.split_first() {
        Some((b'{', rest)) => matches!(trim_start(rest).first(), Some(b'"' | b'}')),
        _ => false,
    }
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn corpus_files_are_told_by_content() {
        let model = pir_corpus::models()
            .into_iter()
            .find(|m| m.name == "mlp_tiny")
            .unwrap();
        let kind = |p: &Path| FileKind::of_file(p).unwrap();
        assert_eq!(kind(&model.json()), FileKind::ModelJson);
        assert_eq!(
            kind(&model.file(".pdiparams").unwrap()),
            FileKind::CombinedParams
        );
        if let Some(txt) = model.file(".txt") {
            assert_eq!(kind(&txt), FileKind::ModelText);
        }
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.json");
        std::fs::write(&empty, "{}").unwrap();
        assert_eq!(kind(&empty), FileKind::ModelJson);
        let bare = dir.path().join("empty");
        std::fs::write(&bare, "{\n}\n").unwrap();
        assert_eq!(kind(&bare), FileKind::ModelText);
        std::fs::write(&bare, "").unwrap();
        assert_eq!(kind(&bare), FileKind::Empty);
        std::fs::write(&bare, "\x0a\x05hello").unwrap();
        assert_eq!(kind(&bare), FileKind::Unknown);
        let truncated = dir.path().join("m.pdmodel");
        std::fs::write(&truncated, "\x0a\x05hello").unwrap();
        assert_eq!(kind(&truncated), FileKind::LegacyModel);
    }
}
