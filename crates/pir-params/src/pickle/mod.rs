//! Paddle's pickle files (`.pdparams`, `.pdopt`, `paddle.save` dicts; spec §7.5).
//!
//! **Reading** is done by a small allow-listed interpreter, not a general
//! unpickler: protocols 2–4 only (5 is rejected, as Paddle does), the opcodes of
//! numpy-array state dicts only, and only these globals, which are recognised by
//! name and never imported or called:
//!
//! | global | becomes |
//! |---|---|
//! | `numpy._core.multiarray._reconstruct` / `numpy.core.multiarray._reconstruct` applied to `numpy.ndarray`, then `BUILD` | an [`NdArray`] |
//! | `numpy.dtype(code, align, copy)` + `BUILD` | its [`crate::DType`] (little-endian, no structured dtypes) |
//! | `collections.OrderedDict()` | an empty dict |
//! | `_codecs.encode(str, 'latin1')` (protocol 2 bytes) | bytes |
//! | `builtins.tuple(seq)` (Paddle's `(name, ndarray)` tensors) | a tuple |
//!
//! Anything else — `eval`, `os.system`, `INST`/`OBJ`/`NEWOBJ`, persistent ids,
//! extension codes, lookalike module names — is an error that names the
//! global or opcode and its byte offset. Stack, memo and the size of the result
//! (shared references expanded) are bounded by [`ReadLimits`]; an array's byte
//! length must equal shape × item size and come from the file's own bytes, so
//! a declared 1 TB shape is rejected before anything is allocated. The bytes
//! the reader and the state-dict loader copy or create — latin-1 decoding,
//! Fortran reordering, buffers cloned per shared reference, arrays joined
//! from their `UnpackBigParamInfor@@` slices (each slice named once, the
//! joined size checked against `OriginShape` first) — are charged before
//! they are allocated against a budget of a few times the input's size
//! ([`ReadLimits::copy_factor`]), so a pickle naming one 1 MiB buffer
//! thousands of times is an error, not gigabytes.
//!
//! **Writing** produces the bytes of CPython's protocol-4 pickler for numpy
//! state dicts (see [`WriteOptions`] and the `writer` notes): re-writing
//! the corpus `.pdparams`/`.pdopt` gives the original files back.
//!
//! ```
//! use pir_params::{pickle, DType, Tensor};
//! let w = Tensor::from_slice(DType::Float32, vec![2], &[1.0f32, 2.0]).unwrap();
//! let mut bytes = Vec::new();
//! pickle::write_state_dict_to(&mut bytes, &[("w", w.clone())], &Default::default()).unwrap();
//! assert_eq!(&bytes[..2], b"\x80\x04");
//! let state = pickle::load_state_dict(&bytes).unwrap();
//! assert_eq!(state.tensors, vec![("w".to_string(), w)]);
//!
//! // a pickle calling os.system is rejected, never run
//! let evil = b"\x80\x04\x8c\x05posix\x8c\x06system\x93\x8c\x04true\x85R.";
//! let err = pickle::read_pickle(evil).unwrap_err().to_string();
//! assert!(err.contains("global `posix.system` is not allowed"), "{err}");
//! ```

mod budget;
mod expand;
mod globals;
mod opcodes;
mod reader;
mod state_dict;
mod value;
mod writer;

pub use reader::{read_pickle, read_pickle_with, ReadLimits};
pub use state_dict::{
    load_state_dict, load_state_dict_file, load_state_dict_mapped, load_state_dict_mapped_with,
    load_state_dict_with, save_pickle, save_state_dict, write_pickle_to, write_state_dict_to,
    StateDict, STRUCTURED_KEY, UNPACK_KEY,
};
pub use value::{NdArray, PickleValue};
pub use writer::{NumpyModule, WriteOptions};
