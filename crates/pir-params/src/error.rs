//! The error type of every reader and writer of this crate.
//!
//! Messages name the byte offset, the tensor (index and name when known) and
//! what was wrong:
//!
//! ```
//! let bytes = [0u8; 20]; // version 0, lod_level 0, tensor version 0, desc size 0
//! let mut bad = bytes.to_vec();
//! bad[16..20].copy_from_slice(&i32::MAX.to_le_bytes());
//! let err = pir_params::stream::read_dense_tensor(&bad, 0).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "desc size 2147483647 at offset 16 exceeds the 0 bytes left"
//! );
//! ```

use std::io;

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong reading or writing parameter files.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be opened, mapped or read.
    #[error(transparent)]
    Io(#[from] pir_core::fs::ReadError),
    /// Writing to an in-memory or caller-supplied writer failed.
    #[error("write failed: {0}")]
    Output(#[source] io::Error),
    /// An atomic file write failed (or the destination exists).
    #[error(transparent)]
    Write(#[from] pir_core::fs::WriteError),
    /// A DenseTensor / SelectedRows stream or a combined file is malformed.
    #[error("{}{message}", tensor_label(*.index, .name.as_deref()))]
    Stream {
        /// Byte offset (from the start of the buffer) where the problem is.
        offset: u64,
        /// Index of the tensor in a combined file, when reading one.
        index: Option<usize>,
        /// Name of the tensor, when the caller gave the names.
        name: Option<String>,
        /// What was wrong, including the offset.
        message: String,
    },
    /// A pickle is malformed or uses something outside the allow-list.
    #[error("pickle: {message} (at byte offset {offset})")]
    Pickle {
        /// Byte offset of the opcode that failed.
        offset: u64,
        /// What was wrong.
        message: String,
    },
    /// A tensor or state-dict entry is not valid for the requested operation
    /// (sizes that do not match, a dtype the format cannot store, a missing name).
    #[error("{}{message}", entry_label(.name.as_deref()))]
    Invalid {
        /// The tensor or entry name, when known.
        name: Option<String>,
        /// What was wrong.
        message: String,
    },
}

fn tensor_label(index: Option<usize>, name: Option<&str>) -> String {
    match (index, name) {
        (Some(i), Some(n)) => format!("tensor #{i} `{n}`: "),
        (Some(i), None) => format!("tensor #{i}: "),
        (None, Some(n)) => format!("tensor `{n}`: "),
        (None, None) => String::new(),
    }
}

fn entry_label(name: Option<&str>) -> String {
    match name {
        Some(n) => format!("`{n}`: "),
        None => String::new(),
    }
}

impl Error {
    /// A stream error at `offset` without tensor context.
    pub(crate) fn stream(offset: usize, message: impl Into<String>) -> Error {
        Error::Stream {
            offset: offset as u64,
            index: None,
            name: None,
            message: message.into(),
        }
    }

    /// An [`Error::Invalid`].
    pub(crate) fn invalid(name: Option<&str>, message: impl Into<String>) -> Error {
        Error::Invalid {
            name: name.map(str::to_owned),
            message: message.into(),
        }
    }

    /// Adds the tensor index and name to a stream error (other errors unchanged).
    pub(crate) fn in_tensor(self, i: usize, tensor_name: Option<&str>) -> Error {
        match self {
            Error::Stream {
                offset, message, ..
            } => Error::Stream {
                offset,
                index: Some(i),
                name: tensor_name.map(str::to_owned),
                message,
            },
            Error::Invalid {
                name: None,
                message,
            } => Error::Invalid {
                name: tensor_name.map(str::to_owned),
                message,
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        let e = Error::stream(16, "bad at offset 16").in_tensor(3, Some("w"));
        assert_eq!(e.to_string(), "tensor #3 `w`: bad at offset 16");
        let e = Error::stream(16, "bad").in_tensor(3, None);
        assert_eq!(e.to_string(), "tensor #3: bad");
        assert_eq!(Error::invalid(Some("x"), "no").to_string(), "`x`: no");
        let e = Error::Pickle {
            offset: 7,
            message: "boom".into(),
        };
        assert_eq!(e.to_string(), "pickle: boom (at byte offset 7)");
    }
}
