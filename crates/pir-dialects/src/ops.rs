//! Typed views of the `pd_op` operations, generated from their definitions:
//! one `Copy` struct per op (`MatmulOp(OpId)`) with an accessor per input,
//! attribute and output, named as in Paddle, and a `build` helper that creates
//! the op with its attributes in definition order — the order Paddle's writer
//! uses. Names that are Rust keywords become raw identifiers (`r#type`); an
//! in-place op `relu_` is `ReluInplaceOp`.
//!
//! ```
//! use pir_core::{Builder, Program, builtin::{DenseTensorType, ScalarType}};
//! use pir_dialects::ops::MatmulOp;
//! let ctx = pir_dialects::pd_op_context();
//! let mut p = Program::new(ctx.clone());
//! let t = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::F32), &[2, 2]);
//! let top = p.top_block();
//! let mut b = Builder::at_end(&mut p, top);
//! let x = b.op("test.input", &[], &[t], &[]);
//! let x = b.program().result(x, 0);
//! let mm = MatmulOp::build(&mut b, x, x, false, true, &[t]);
//! assert_eq!(mm.transpose_y(&p), Some(true));
//! assert_eq!(mm.x(&p), Some(x));
//! assert_eq!(MatmulOp::from_op(&p, mm.0), Some(mm));
//! p.verify().unwrap();
//! ```
#![allow(clippy::too_many_arguments)]

use pir_core::{Attribute, Builder, OpId, Program, Type, ValueId};

use crate::pd_op::{DataType, Place};
use crate::views_support::*;

include!(concat!(env!("OUT_DIR"), "/op_views.rs"));

/// Declares the views of the control-flow ops, which have regions and no
/// generated definition view: their names, and the view of an op.
macro_rules! region_op_views {
    ($($(#[$doc:meta])* $view:ident = $name:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub struct $view(pub OpId);

        impl $view {
            /// The op's name.
            pub const NAME: &'static str = $name;

            /// The view of `op` if it is a `
            #[doc = $name]
            /// `.
            pub fn from_op(p: &Program, op: OpId) -> Option<Self> {
                (p.op_name_str(op) == Self::NAME).then_some(Self(op))
            }
        }
    )*};
}

region_op_views! {
    /// `pd_op.if` — a condition operand; a true and a false branch region.
    IfOp = "pd_op.if";
    /// `pd_op.while` — the condition and the carried values as operands; a
    /// body region.
    WhileOp = "pd_op.while";
    /// `pd_op.pylayer` — a Python layer's forward region.
    PylayerOp = "pd_op.pylayer";
}
