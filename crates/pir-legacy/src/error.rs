//! The one error type of this crate: what went wrong and where (block, op,
//! op type, variable).

use std::path::PathBuf;

/// Where in a `ProgramDesc` something went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// Block index.
    pub block: Option<usize>,
    /// Op index within the block.
    pub op: Option<usize>,
    /// The legacy op type.
    pub op_type: Option<String>,
    /// A variable name.
    pub var: Option<String>,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut sep = "";
        if let Some(b) = self.block {
            write!(f, "block {b}")?;
            sep = ", ";
        }
        if let Some(o) = self.op {
            write!(f, "{sep}op {o}")?;
            sep = ", ";
        }
        if let Some(t) = &self.op_type {
            write!(f, "{sep}`{t}`")?;
            sep = ", ";
        }
        if let Some(v) = &self.var {
            write!(f, "{sep}var `{v}`")?;
        }
        Ok(())
    }
}

/// Errors reading or translating a legacy model.
#[derive(Debug, thiserror::Error)]
pub enum LegacyError {
    /// The bytes are not a protobuf `ProgramDesc`.
    #[error("not a Paddle ProgramDesc: {0}")]
    Decode(#[from] crate::wire::WireError),
    /// The `ProgramDesc` decodes but is inconsistent (bad block index, unknown
    /// attribute kind, ...).
    #[error("{at}: {message}")]
    Invalid {
        /// Where.
        at: Box<Location>,
        /// What.
        message: String,
    },
    /// A legacy op this translator (like Paddle 3.3.1's) cannot translate.
    #[error("{at}: cannot translate legacy op `{op_type}`: {message}")]
    Unsupported {
        /// Where.
        at: Box<Location>,
        /// The legacy op type.
        op_type: String,
        /// Why.
        message: String,
    },
    /// A limit on the size of the input was exceeded.
    #[error("{at}: {message}")]
    Limit {
        /// Where.
        at: Box<Location>,
        /// Which limit.
        message: String,
    },
    /// Reading a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl LegacyError {
    /// An [`LegacyError::Invalid`] at `at`.
    pub fn invalid(at: Location, message: impl Into<String>) -> Self {
        LegacyError::Invalid {
            at: Box::new(at),
            message: message.into(),
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = LegacyError> = std::result::Result<T, E>;
