//! The `pd_op` dialect: Paddle's operators.
//!
//! Types and attributes are in [`types`] and [`attrs`]; the 1,617 operations
//! are registered from the definition table ([`mod@crate::op_def`]); the
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
pub mod types;

pub use attrs::*;
pub use types::*;

use pir_core::op_info::OpInfo;
use pir_core::printer::Printer;
use pir_core::{Dialect, IrContext, OpId, Program};

use crate::op_def::OpDef;

/// The `pd_op` dialect.
pub struct PdOpDialect;

impl Dialect for PdOpDialect {
    fn name(&self) -> &'static str {
        "pd_op"
    }

    fn register(&self, ctx: &IrContext) {
        ctx.register_type::<SelectedRowsType>();
        ctx.register_type::<DenseTensorArrayType>();
        ctx.register_type::<SparseCooTensorType>();
        ctx.register_type::<SparseCsrTensorType>();
        ctx.register_attr::<IntArrayAttr>();
        ctx.register_attr::<DataTypeAttr>();
        ctx.register_attr::<PlaceAttr>();
        ctx.register_attr::<DataLayoutAttr>();
        ctx.register_attr::<ScalarAttr>();
        crate::op_registry::register_table_ops(ctx, &customize_control_flow);
    }
}

/// Attaches the printers and checks of the ops with regions.
fn customize_control_flow(def: &'static OpDef, info: OpInfo) -> OpInfo {
    match def.name {
        "pd_op.if" => info
            .with_regions(2)
            .with_printer(print_if)
            .with_verify(verify_if),
        "pd_op.while" => info
            .with_regions(1)
            .with_printer(print_while)
            .with_verify(verify_while),
        "pd_op.pylayer" => info.with_regions(1).with_printer(print_pylayer),
        _ => info,
    }
}

/// `(%r) = "name" (%c) {attrs} -> types {` — the head shared by `if` and `pylayer`.
fn print_region_op_head(p: &mut Printer<'_>, program: &Program, op: OpId) {
    p.print_results(program, op);
    p.write_str(" = \"");
    p.write_str(program.op_name_str(op));
    p.write_str("\" (");
    p.print_operand_list(program, op);
    p.write_str(") ");
    p.print_attr_dict(program, op);
    p.write_str(" -> ");
    p.print_result_types(program, op);
    p.write_str(" {\n");
}

fn print_region_blocks(p: &mut Printer<'_>, program: &Program, op: OpId, index: usize) {
    if index < program.num_regions(op) {
        for &block in program.region_blocks(program.op_region(op, index)) {
            p.print_block_ops(program, block);
        }
    }
}

fn print_if(p: &mut Printer<'_>, program: &Program, op: OpId) {
    print_region_op_head(p, program, op);
    print_region_blocks(p, program, op, 0);
    p.write_indent();
    p.write_str("} else {\n");
    print_region_blocks(p, program, op, 1);
    p.write_indent();
    p.write_str("}");
}

fn print_pylayer(p: &mut Printer<'_>, program: &Program, op: OpId) {
    print_region_op_head(p, program, op);
    print_region_blocks(p, program, op, 0);
    p.write_indent();
    p.write_str("}");
}

fn print_while(p: &mut Printer<'_>, program: &Program, op: OpId) {
    p.print_results(program, op);
    p.write_str(" = \"");
    p.write_str(program.op_name_str(op));
    p.write_str("\" (cond=");
    let mut operands = program.operands(op);
    if let Some(cond) = operands.next() {
        p.print_operand(program, cond);
    }
    p.write_str(", inputs=");
    for (i, v) in operands.enumerate() {
        if i > 0 {
            p.write_str(", ");
        }
        p.print_operand(program, v);
    }
    p.write_str(") { \n");
    if program.num_regions(op) > 0 {
        for &block in program.region_blocks(program.op_region(op, 0)) {
            // The `^` line is printed even for a body without arguments.
            p.write_indent();
            p.write_str("^");
            for (i, &arg) in program.block_args(block).iter().enumerate() {
                if i > 0 {
                    p.write_str(", ");
                }
                p.print_value(program, arg);
            }
            p.write_str("\n");
            p.print_block_ops(program, block);
        }
    }
    p.write_indent();
    p.write_str("}");
}

/// Checks that each region of an op has one block ending in `cf.yield` with
/// the op's result count (plus `extra` leading values, e.g. the next condition).
fn check_yields(program: &Program, op: OpId, extra: usize) -> Result<(), String> {
    for (i, region) in program.regions(op).enumerate() {
        let blocks = program.region_blocks(region);
        if blocks.len() != 1 {
            return Err(format!(
                "region {i} must have exactly 1 block, has {}",
                blocks.len()
            ));
        }
        let Some(last) = program.block_last_op(blocks[0]) else {
            return Err(format!("region {i} is empty; it must end with cf.yield"));
        };
        if program.op_name_str(last) != "cf.yield" {
            return Err(format!(
                "region {i} ends with {} instead of cf.yield",
                program.op_name_str(last)
            ));
        }
        let want = program.num_results(op) + extra;
        if program.num_operands(last) != want {
            return Err(format!(
                "the cf.yield of region {i} yields {} values, expected {want}",
                program.num_operands(last)
            ));
        }
    }
    Ok(())
}

fn verify_if(program: &Program, op: OpId) -> Result<(), String> {
    if program.num_operands(op) != 1 {
        return Err(format!(
            "expects 1 operand (the condition), has {}",
            program.num_operands(op)
        ));
    }
    check_yields(program, op, 0)
}

fn verify_while(program: &Program, op: OpId) -> Result<(), String> {
    let n = program.num_operands(op);
    if n == 0 {
        return Err("expects a condition operand".into());
    }
    if program.num_results(op) != n - 1 {
        return Err(format!(
            "has {} results for {} loop-carried values",
            program.num_results(op),
            n - 1
        ));
    }
    let body = program.op_region(op, 0);
    if let Some(&block) = program.region_blocks(body).first() {
        if program.block_args(block).len() != n - 1 {
            return Err(format!(
                "the body has {} arguments for {} loop-carried values",
                program.block_args(block).len(),
                n - 1
            ));
        }
    }
    check_yields(program, op, 1)
}
