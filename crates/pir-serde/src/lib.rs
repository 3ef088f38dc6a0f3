//! `pir-serde`: Paddle's JSON model format (`*.json` written by
//! `paddle.jit.save` and friends), read and written byte-compatibly.
//!
//! ```no_run
//! let ctx = pir_dialects::pd_op_context();
//! let loaded = pir_serde::read_file(ctx, "model.json".as_ref(), &Default::default()).unwrap();
//! print!("{}", loaded.program);
//! ```
#![deny(unsafe_code)]

mod downgrade;
mod error;
pub mod names;
mod param_form;
pub mod patch;
mod read;
mod text;
mod write;

pub use error::{ReadError, WriteError};
pub use read::{
    prepare_threads, read_file, read_slice, read_slice_releasing, LoadedProgram, ReadOptions,
};
pub use text::{
    is_text_path, prepare_any_file, read_any_file, read_any_slice, read_text, read_text_with,
    typed_bytes, typed_options, typed_text, write_any_file, write_text_file, write_typed,
};
pub use write::{prepare_file, write_file, write_to, write_to_vec, WriteOptions, PIR_VERSION};
