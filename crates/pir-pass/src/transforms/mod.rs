//! The built-in passes.

pub mod canonicalize;
pub mod cleanup;
pub mod constant_folding;
pub mod cse;
pub mod dce;
pub mod fold_batch_norm;
pub mod inplace;
pub mod value_semantics;
