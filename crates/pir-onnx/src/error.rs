//! What can go wrong while exporting.

/// An op kind without a mapping: how often it occurs and where first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmapped {
    /// The op name (`pd_op.roi_align`).
    pub op: String,
    /// How many ops of that kind the program holds (nested blocks included).
    pub count: usize,
    /// Where the first one is (`op 12 of the top block`).
    pub first: String,
}

/// Why a program cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Ops without a mapping to ONNX; nothing is exported then.
    #[error("{} op kind(s) have no ONNX mapping: {}", .0.len(), list_unmapped(.0))]
    UnmappedOps(Vec<Unmapped>),
    /// An op whose mapping cannot express this use of it (an attribute value,
    /// a dtype, an operand that must be constant).
    #[error("`{op}` ({location}): {message}")]
    Unsupported {
        /// The op name.
        op: String,
        /// Where it is.
        location: String,
        /// What cannot be exported.
        message: String,
    },
    /// The opset asked for is outside what the exporter writes.
    #[error("opset {0} is not supported: pir writes opsets 13 to 21")]
    Opset(i64),
    /// A parameter the program reads has no data.
    #[error("parameter `{0}` has no data: load the model with its parameter file")]
    MissingParameter(String),
    /// A value read before any op defined it in the exported graph.
    #[error("a value read by `{op}` ({location}) has no definition in the exported graph")]
    UndefinedValue {
        /// The reading op.
        op: String,
        /// Where it is.
        location: String,
    },
    /// The program has no output (`pd_op.fetch`).
    #[error("the program has no outputs (no pd_op.fetch op)")]
    NoOutputs,
    /// The serialized model would pass protobuf's 2 GB limit.
    #[error("the model is {0} bytes, past protobuf's 2 GB limit for one message (a file written with external data holds more)")]
    TooLarge(u64),
    /// The side file of external data needs a UTF-8 name (the model names
    /// it in text).
    #[error("{}: external data needs a file name in UTF-8", .0.display())]
    DataFileName(std::path::PathBuf),
    /// Preparing the program (folding, cleanups, input shapes) failed.
    #[error("preparing the program: {0}")]
    Prepare(String),
    /// Writing the file failed.
    #[error(transparent)]
    Write(#[from] pir_core::fs::WriteError),
}

fn list_unmapped(ops: &[Unmapped]) -> String {
    ops.iter()
        .map(|u| format!("{} ×{} (first: {})", u.op, u.count, u.first))
        .collect::<Vec<_>>()
        .join(", ")
}
