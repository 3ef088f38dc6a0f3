//! `pir-params`: tensors and PaddlePaddle parameter files.
//!
//! - [`DType`] — every Paddle element type, with its `VarType` code, size,
//!   Paddle name and numpy code.
//! - [`Tensor`] — dtype, dims, LoD and element bytes, owned or borrowed
//!   zero-copy from a file's shared bytes ([`open_file`]: small files read
//!   whole into one buffer, larger ones memory-mapped).
//! - [`stream`] — one DenseTensor stream (spec §7.1/§7.2), per-variable files,
//!   SelectedRows (§7.4a).
//! - [`combined`] — `.pdiparams` files (§7.3), sorted like Python.
//! - [`pickle`] — an allow-listed pickle reader and a Python-identical writer
//!   for `.pdparams`/`.pdopt` state dicts (§7.5); never executes anything.
//! - [`bound`] — tensors bound to a program's parameters, and the one
//!   mapping between IR element types and [`DType`].
//! - [`convert`] — `.pdparams` ↔ `.pdiparams` at the tensor-list level.
//!
//! Readers check every size against the bytes left before allocating and name
//! the offset and tensor in their errors; writers produce Paddle's bytes and
//! write files atomically.
//!
//! ```
//! use pir_params::{combined, pickle, DType, Tensor};
//! let w = Tensor::from_slice(DType::Float32, vec![2], &[0.5f32, -1.0]).unwrap();
//! let params = vec![("linear_0.w_0".to_string(), w)];
//! // .pdiparams bytes
//! let mut file = Vec::new();
//! combined::write_combined_to(&mut file, &params).unwrap();
//! let back = combined::read_combined(&file, &["linear_0.w_0"]).unwrap();
//! assert_eq!(back, params);
//! // .pdparams (pickle) bytes
//! let mut pkl = Vec::new();
//! pickle::write_state_dict_to(&mut pkl, &params, &pickle::WriteOptions::default()).unwrap();
//! let state = pickle::load_state_dict(&pkl).unwrap();
//! assert_eq!(state.tensors, params);
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
// The two `unsafe` blocks (mapping a file, dropping its read pages: `mapped.rs`) opt in.
#![deny(unsafe_code)]

pub mod bound;
pub mod combined;
pub mod convert;
pub mod dtype;
pub mod error;
mod mapped;
pub mod pickle;
pub mod stream;
pub mod tensor;

pub use dtype::DType;
pub use error::{Error, Result};
pub use mapped::{map_file, open_file, release_pages, FileBytes, READ_BELOW_BYTES};
pub use tensor::{Element, MappedBytes, Tensor, TensorData, ViewError};
