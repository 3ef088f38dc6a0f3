//! `pir-legacy`: Paddle 2.x models (`NAME.pdmodel`, a protobuf
//! `ProgramDesc`) read and translated to PIR exactly as Paddle 3.3.1's
//! `paddle.pir.translate_to_pir` does, and PIR written back as one.
//!
//! - [`desc`]: the `ProgramDesc` reader — blocks, variables of every kind,
//!   ops with inputs, outputs and attributes of every `AttrType`, version and
//!   op-version map — with typed errors naming block, op, op type and
//!   variable, and bounds on untrusted counts.
//! - [`translate()`]: the translator. Legacy → PIR names, arguments and
//!   mutable attributes come from the facts of Paddle's `op_compat.yaml`
//!   ([`compat`], data in `data/op_compat.txt`); argument order and kinds
//!   from the `pd_op` definitions of `pir-dialects`.
//! - [`write`](mod@write): the way back, PIR → `.pdmodel` as Paddle 2.6.2's
//!   `save_inference_model` writes it, for runtimes that read only the
//!   legacy format; an op with no Paddle 2.6 form is an error naming it.
//!
//! The result is the program Paddle holds after saving its translation and
//! loading it back, so `pir print` and the JSON writer reproduce Paddle's
//! files.
//!
//! ```no_run
//! let ctx = pir_dialects::pd_op_context();
//! let program = pir_legacy::load_file("model.pdmodel".as_ref(), ctx, Default::default())?;
//! print!("{program}");
//! # Ok::<(), pir_legacy::LegacyError>(())
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
// The two `unsafe` blocks (text known to be ASCII, `wire::utf8` and
// `wire::long_utf8`) opt in.
#![deny(unsafe_code)]

mod canonical;
pub mod compat;
pub mod desc;
mod error;
pub mod inline;
pub mod translate;
pub mod umap;
pub mod wire;
pub mod write;

/// Paddle's `framework.proto` as prost types: the reference the reader is
/// tested against, and a way to write programs in tests.
#[cfg(test)]
#[allow(missing_docs, clippy::all, dead_code)]
#[path = "../tests/support/proto.rs"]
mod proto;

use std::path::Path;
use std::sync::Arc;

use pir_core::{IrContext, Program};

pub use desc::{DescArena, ProgramDesc};
pub use error::{LegacyError, Location, Result};
pub use translate::{translate, Options};

/// Largest model file read (the protobuf itself has no limit; Paddle's own
/// reader stops at 2 GiB).
pub const MAX_FILE_BYTES: u64 = 2 << 30;

/// Decodes and translates a serialized `ProgramDesc`.
pub fn translate_bytes(bytes: &[u8], ctx: Arc<IrContext>, options: Options) -> Result<Program> {
    let arena = DescArena::for_bytes(bytes.len());
    let desc = ProgramDesc::decode(bytes, &arena)?;
    translate(&desc, ctx, options)
}

/// Reads and translates a `.pdmodel` file.
pub fn load_file(path: &Path, ctx: Arc<IrContext>, options: Options) -> Result<Program> {
    let io = |source| LegacyError::Io {
        path: path.to_owned(),
        source,
    };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if len > MAX_FILE_BYTES {
        return Err(LegacyError::Limit {
            at: Box::new(Location::default()),
            message: format!(
                "{} is {len} bytes (at most {MAX_FILE_BYTES})",
                path.display()
            ),
        });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    translate_bytes(&bytes, ctx, options)
}

/// Whether `bytes` look like a serialized `ProgramDesc` rather than JSON or
/// IR text: the first field is field 1 (`blocks`) with wire type 2, or the
/// whole input decodes as one. Cheap enough to call on any model file.
pub fn looks_like_program_desc(bytes: &[u8]) -> bool {
    match bytes.first() {
        Some(0x0a) => ProgramDesc::decode(bytes, &DescArena::for_bytes(bytes.len())).is_ok(),
        _ => false,
    }
}

/// Reads `path` as a legacy model if it is one: a `.pdmodel` by its
/// extension, a file with an extension other than `.json`, `.pir` or `.txt`
/// by its content. `None` when it is not a legacy model.
pub fn load_if_legacy(
    path: &Path,
    ctx: Arc<IrContext>,
    options: Options,
) -> Option<Result<Program>> {
    if is_pdmodel_path(path) {
        return Some(load_file(path, ctx, options));
    }
    let told_by_extension = matches!(
        pir_core::fs::extension(path).as_deref(),
        Some("json" | "pir" | "txt")
    );
    if told_by_extension {
        return None;
    }
    let len = std::fs::metadata(path).ok()?.len();
    if len > MAX_FILE_BYTES {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    if !looks_like_program_desc(&bytes) {
        return None;
    }
    Some(translate_bytes(&bytes, ctx, options))
}

/// Whether a path names a legacy model by its extension.
pub fn is_pdmodel_path(path: &Path) -> bool {
    pir_core::fs::has_extension(path, "pdmodel")
}
