//! `pir-dialects`: Paddle's dialects for `pir-core`.
//!
//! - [`pd_op`]: Paddle's operator dialect — its types (selected rows, tensor
//!   arrays, sparse tensors), attributes (IntArray, DataType, Place, DataLayout,
//!   Scalar), all 1,617 `pd_op` operations of Paddle 3.3.1 compiled from their
//!   definitions ([`mod@op_def`]), with typed views ([`ops`]), and the control-flow
//!   ops `pd_op.if`, `pd_op.while`, `pd_op.pylayer` with Paddle's printed forms.
//! - [`cf`]: control flow (`cf.yield`, stack ops and their types).
//! - [`dist`]: the `pd_dist` dialect's distributed attributes and types.
//! - [`value_tensor`]: the `vt` dialect — read-only, alias-free value tensors
//!   (`v_tensor<…>`) and the copies `vt.to_vtensor` / `vt.to_tensor`
//!   (seed §2.5), which pir-rs adds to Paddle's dialects.
//!
//! [`register_all`] loads them into a context; [`pd_op_context`] makes a context
//! with everything a real Paddle model needs.
//!
//! ```
//! let ctx = pir_dialects::pd_op_context();
//! assert!(ctx.op_info(ctx.symbol("pd_op.matmul")).is_some());
//! assert!(ctx.op_info(ctx.symbol("cf.yield")).is_some());
//! ```
#![forbid(unsafe_code)]

pub mod cf;
pub mod dist;
pub mod op_attrs;
pub mod op_def;
pub mod op_facts;
mod op_name_hash;
mod op_registry;
pub mod ops;
pub mod pd_op;
mod printed_floats;
pub mod synthetic;
pub mod value_kinds;
pub mod value_tensor;
mod views_support;

pub use op_registry::{kind_matches, op_def, verify_by_definition};

use std::sync::Arc;

use pir_core::IrContext;

/// Loads `pd_op`, `cf`, `pd_dist` and `vt` into `ctx`.
pub fn register_all(ctx: &IrContext) {
    ctx.load_dialect(&pd_op::PdOpDialect);
    ctx.load_dialect(&cf::CfDialect);
    ctx.load_dialect(&dist::DistDialect);
    ctx.load_dialect(&value_tensor::ValueTensorDialect);
}

/// A new context with the builtin, `pd_op`, `cf`, `pd_dist` and `vt` dialects.
pub fn pd_op_context() -> Arc<IrContext> {
    let ctx = IrContext::new();
    register_all(&ctx);
    Arc::new(ctx)
}
