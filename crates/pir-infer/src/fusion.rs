//! InferMeta functions of fused ops (Paddle's `infermeta/fusion.cc`).
//! None of the fused ops is implemented yet: they report
//! [`crate::InferError::Unimplemented`].
