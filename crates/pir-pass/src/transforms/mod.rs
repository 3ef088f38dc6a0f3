//! The built-in passes.

pub mod canonicalize;
pub mod cleanup;
pub mod cse;
pub mod dce;
pub mod inplace;
pub mod value_semantics;
