//! JSON for Paddle's PIR model files: a fast zero-copy parser and a writer that reproduces
//! nlohmann::json 3.11 byte for byte.
//!
//! * [`parse`] turns JSON text into a read-only [`Document`]: a flat tape of nodes over the
//!   input (no per-value allocation), read through `Copy` [`Value`] handles.
//! * [`Writer`] streams JSON into a `Vec<u8>` exactly as nlohmann's `dump()` / `dump(4)`.
//! * [`number`] formats doubles like nlohmann (Grisu2) and like C++ `std::ostream` (`%g`).
//! * [`Path`] builds JSON paths on the stack for error messages.
//! * [`Stream`] walks a large document's outer containers and parses one value at a time.
//! * [`Exact`] reads small values spelled exactly as the compact writer spells them, without
//!   a document.
//!
//! The byte-exact rules are those of the format spec §4 (key order, numbers, strings, pretty
//! mode).
//!
//! ```
//! use pir_json::{parse, Writer};
//!
//! let input = br#"{"base_code":{"magic":"pir","trainable":true,"version":4}}"#;
//! let doc = parse(input).unwrap();
//! let version = doc.root().get("base_code").and_then(|b| b.get("version"));
//! assert_eq!(version.and_then(|v| v.as_u64()), Some(4));
//!
//! let mut out = Vec::new();
//! Writer::compact(&mut out).value(doc.root());
//! assert_eq!(out, input);
//! ```

#![deny(unsafe_op_in_unsafe_fn)]
#![forbid(unsafe_code)]

pub mod dom;
pub mod exact;
pub mod number;
pub mod parser;
pub mod path;
pub mod stream;
pub mod writer;

pub use dom::{Document, Elements, Kind, Members, Number, RawMembers, Value};
pub use exact::Exact;
pub use number::{
    f32_to_cpp_ostream_string, f64_to_cpp_ostream_string, f64_to_nlohmann_string,
    write_f32_cpp_ostream, write_f64_cpp_ostream, write_f64_nlohmann,
};
pub use parser::{
    parse, plain_prefix_len, utf8, ParseError, ParseErrorKind, MAX_CONTAINER_LEN, MAX_DEPTH,
};
pub use path::Path;
pub use stream::{Open, Stream};
pub use writer::{needs_escape, write_escaped_string, Writer};
