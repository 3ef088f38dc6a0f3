//! Errors of the JSON model reader and writer.

use std::path::PathBuf;

/// Why a model file could not be read. Every variant says where: a byte
/// offset (with line and column) for malformed JSON, a JSON path such as
/// `program.regions[0].blocks[0].ops[17].O[0].TT` for a well-formed document
/// that is not a valid model.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Not valid JSON.
    #[error("malformed JSON: {0}")]
    Json(#[from] pir_json::ParseError),
    /// Valid JSON that is not a model file at all (no `base_code`).
    #[error("not a Paddle model: {0}")]
    NotAModel(String),
    /// `base_code.magic` is not `pir`.
    #[error("{path}: not a PIR model file (magic is {found}, expected \"pir\")")]
    BadMagic {
        /// JSON path.
        path: String,
        /// What was found.
        found: String,
    },
    /// The file's version cannot be read.
    #[error("base_code.version {version}: {message}")]
    Version {
        /// The file's version.
        version: u64,
        /// Why.
        message: String,
    },
    /// A patch file is malformed.
    #[error("patch file {0}")]
    Patch(crate::patch::PatchError),
    /// A patch does not fit the op it targets.
    #[error("cannot apply patch at {0}")]
    PatchApply(crate::patch::ApplyError),
    /// IR text (Paddle's print or the typed form) that does not parse.
    #[error("{0}")]
    Text(#[from] pir_core::parser::ParseError),
    /// A typed text's header holds a value that is not what its key needs.
    #[error("typed text header: `{key}={value}`: {message}")]
    Header {
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What is wrong.
        message: String,
    },
    /// A well-formed document that is not a valid model.
    #[error("{path}: {message}")]
    Invalid {
        /// JSON path.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// Errors of the version and patch layer, as reader errors.
impl From<crate::patch::PatchError> for ReadError {
    fn from(e: crate::patch::PatchError) -> Self {
        ReadError::Patch(e)
    }
}

impl From<crate::patch::ApplyError> for ReadError {
    fn from(e: crate::patch::ApplyError) -> Self {
        ReadError::PatchApply(e)
    }
}

impl From<pir_core::serial::DecodeError> for ReadError {
    fn from(e: pir_core::serial::DecodeError) -> Self {
        ReadError::Invalid {
            path: e.path,
            message: e.message,
        }
    }
}

/// Why a program could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// A type or attribute has no JSON encoding.
    #[error("op {op_index} (`{op_name}`): {source}")]
    Encode {
        /// Position of the op in write order.
        op_index: usize,
        /// The op's name.
        op_name: String,
        /// The cause.
        #[source]
        source: pir_core::serial::EncodeError,
    },
    /// The program cannot be expressed in the format.
    #[error("op {op_index} (`{op_name}`): {message}")]
    Unsupported {
        /// Position of the op in write order.
        op_index: usize,
        /// The op's name.
        op_name: String,
        /// Why.
        message: String,
    },
    /// The program cannot be said in the older release asked for
    /// ([`crate::WriteOptions::version`]); nothing was written.
    #[error(transparent)]
    Downgrade(#[from] crate::patch::DowngradeError),
    /// Writing the file failed.
    #[error(transparent)]
    File(#[from] pir_core::fs::WriteError),
    /// The writer the output streams to failed.
    #[error("cannot write the output: {0}")]
    Io(#[from] std::io::Error),
}
