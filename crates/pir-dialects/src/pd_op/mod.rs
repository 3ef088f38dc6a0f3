//! The `pd_op` dialect: Paddle's operators.
//!
//! Types and attributes are in [`types`] and [`attrs`]; the 1,617 operations
//! are registered from the definition table ([`mod@crate::op_def`]), each
//! built when a program first names it; the
//! control-flow ops with regions get Paddle's custom printed forms here:
//!
//! ```text
//! (%8) = "pd_op.if" (%7) {stop_gradient:[false]} -> tensor<-1x4xf32> {
//!     ...
//! } else {
//!     ...
//! }
//! (%15, %16) = "pd_op.while" (cond=%14, inputs=%13, %8) {
//! ^%arg_0 {}, %arg_1 {}
//!     ...
//! }
//! ```

pub mod attrs;
mod control_flow;
pub mod types;

pub use attrs::*;
pub use types::*;

use pir_core::op_info::OpInfo;
use pir_core::{Dialect, IrContext};

pub use control_flow::print_while_operands;
use control_flow::{
    parse_if, parse_pylayer, parse_while, print_if, print_pylayer, print_while, verify_if,
    verify_while,
};

use crate::op_def::OpDef;

/// The `pd_op` dialect.
pub struct PdOpDialect;

impl Dialect for PdOpDialect {
    fn name(&self) -> &'static str {
        "pd_op"
    }

    fn register(&self, ctx: &IrContext) {
        types::register_declared_types(ctx);
        ctx.register_type::<DenseTensorArrayType>();
        attrs::register_declared_attrs(ctx);
        ctx.register_attr::<ScalarAttr>();
        crate::op_registry::register_table_ops(ctx, customize_control_flow);
    }
}

/// Attaches the printers and checks of the ops with regions.
fn customize_control_flow(def: &'static OpDef, info: OpInfo) -> OpInfo {
    match def.name.as_str() {
        "pd_op.if" => info
            .with_regions(2)
            .with_printer(print_if)
            .with_parser(parse_if)
            .with_verify(verify_if),
        "pd_op.while" => info
            .with_regions(1)
            .with_printer(print_while)
            .with_parser(parse_while)
            .with_verify(verify_while),
        "pd_op.pylayer" => info
            .with_regions(1)
            .with_printer(print_pylayer)
            .with_parser(parse_pylayer),
        _ => info,
    }
}
