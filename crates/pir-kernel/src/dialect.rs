//! The kernel dialects: `pd_kernel` (phi and legacy kernels), `custom_kernel`
//! and `onednn_kernel`, with Paddle's names and printed forms
//! (`kernel_dialect.cc`, `kernel_op.h`).
//!
//! A kernel op stands for one kernel call: `op_name` is the operator it
//! came from, `kernel_name` the phi kernel, `kernel_key` the key it was
//! chosen by, `origin_id` the id of the op it was made from (see
//! [`mod@crate::lower`]). Paddle prints it by kernel name:
//!
//! ```text
//! (%2) = "matmul(phi_kernel)" (%0, %1) {kernel_key:<backend:CPU|layout:NCHW|dtype:float32>,kernel_name:"matmul",op_name:"pd_op.matmul",origin_id:13,...} : (...) -> cpu_tensor<-1x-1xf32>
//! ```
//!
//! with `_` after the kernel name for an in-place op (`is_inplace:true`).
//! The oneDNN kernel ops have no printer of their own in Paddle (its
//! printer only knows the `pd_kernel` classes), so they print in the
//! generic form. The typed form prints every kernel op generically.

use pir_core::builtin::BoolAttr;
use pir_core::builtin::StrAttr;
use pir_core::printer::Printer;
use pir_core::{Dialect, IrContext, OpId, OpInfo, Program};

use crate::key::KernelKeyAttr;
use crate::types::AllocatedType;

/// `pd_kernel.phi_kernel`: a call of a phi kernel.
pub const PHI_KERNEL: &str = "pd_kernel.phi_kernel";
/// `pd_kernel.legacy_kernel`: a call of a fluid (pre-phi) kernel.
pub const LEGACY_KERNEL: &str = "pd_kernel.legacy_kernel";
/// `custom_kernel.custom_kernel`: a call of a custom operator's kernel.
pub const CUSTOM_KERNEL: &str = "custom_kernel.custom_kernel";
/// The oneDNN kernel ops.
pub const ONEDNN_KERNELS: &[&str] = &[
    "onednn_kernel.phi_kernel",
    "onednn_kernel.phi_mixed_kernel",
    "onednn_kernel.legacy_kernel",
];

/// The attributes every kernel op carries.
pub const KERNEL_ATTRS: &[&str] = &["op_name", "kernel_name", "kernel_key"];

/// The `pd_kernel` dialect: [`AllocatedType`], [`KernelKeyAttr`],
/// `pd_kernel.phi_kernel` and `pd_kernel.legacy_kernel`.
pub struct KernelDialect;

impl Dialect for KernelDialect {
    fn name(&self) -> &'static str {
        "pd_kernel"
    }

    fn register(&self, ctx: &IrContext) {
        ctx.register_type::<AllocatedType>();
        ctx.register_attr::<KernelKeyAttr>();
        ctx.register_attr_name_hint(
            "kernel_key",
            pir_core::parser::Expect::Kind(<KernelKeyAttr as pir_core::AttrDef>::TAG),
        );
        for (name, printer) in [
            (PHI_KERNEL, print_phi_kernel as pir_core::op_info::PrintFn),
            (LEGACY_KERNEL, print_legacy_kernel),
        ] {
            ctx.register_op(
                OpInfo::new(name, "pd_kernel")
                    .with_attributes(KERNEL_ATTRS)
                    .with_regions(0)
                    .with_printer(printer),
            );
        }
    }
}

/// The `custom_kernel` dialect: `custom_kernel.custom_kernel`.
pub struct CustomKernelDialect;

impl Dialect for CustomKernelDialect {
    fn name(&self) -> &'static str {
        "custom_kernel"
    }

    fn register(&self, ctx: &IrContext) {
        ctx.register_op(
            OpInfo::new(CUSTOM_KERNEL, "custom_kernel")
                .with_attributes(KERNEL_ATTRS)
                .with_regions(0)
                .with_printer(print_custom_kernel),
        );
    }
}

/// The `onednn_kernel` dialect: oneDNN phi, mixed and legacy kernel ops.
pub struct OneDnnKernelDialect;

impl Dialect for OneDnnKernelDialect {
    fn name(&self) -> &'static str {
        "onednn_kernel"
    }

    fn register(&self, ctx: &IrContext) {
        for &name in ONEDNN_KERNELS {
            ctx.register_op(
                OpInfo::new(name, "onednn_kernel")
                    .with_attributes(KERNEL_ATTRS)
                    .with_regions(0),
            );
        }
    }
}

fn print_phi_kernel(p: &mut Printer<'_>, program: &Program, op: OpId) {
    print_kernel_op(p, program, op, "phi_kernel");
}

fn print_legacy_kernel(p: &mut Printer<'_>, program: &Program, op: OpId) {
    print_kernel_op(p, program, op, "legacy_kernel");
}

fn print_custom_kernel(p: &mut Printer<'_>, program: &Program, op: OpId) {
    print_kernel_op(p, program, op, "custom_kernel");
}

/// `(%r) = "KERNEL[_](KIND)" (%a) {attrs} : (types) -> types`.
fn print_kernel_op(p: &mut Printer<'_>, program: &Program, op: OpId, kind: &str) {
    if p.is_typed() {
        return p.print_generic_op(program, op);
    }
    let ctx = program.ctx();
    p.print_results(program, op);
    p.write_str(" = \"");
    let kernel_name = program
        .attr(op, "kernel_name")
        .and_then(|a| ctx.attr_as::<StrAttr>(a))
        .map_or("", |s| &s.0);
    p.write_str(kernel_name);
    let inplace = program
        .attr(op, "is_inplace")
        .and_then(|a| ctx.attr_as::<BoolAttr>(a))
        .is_some_and(|b| b.0);
    if inplace {
        p.write_str("_");
    }
    p.write_str("(");
    p.write_str(kind);
    p.write_str(")\"");
    print_operands_to_types(p, program, op);
}

/// ` (%a, %b) {attrs}`: what follows the op's name (and number) in each
/// line Paddle prints of a lowered program.
pub(crate) fn print_operands_and_attrs(p: &mut Printer<'_>, program: &Program, op: OpId) {
    p.write_str(" (");
    p.print_operand_list(program, op);
    p.write_str(") ");
    p.print_attr_dict(program, op);
}

/// ` (%a, %b) {attrs} : (types) -> types`: the rest of the line of an op
/// without regions.
pub(crate) fn print_operands_to_types(p: &mut Printer<'_>, program: &Program, op: OpId) {
    print_operands_and_attrs(p, program, op);
    p.write_str(" : (");
    p.print_operand_types(program, op);
    p.write_str(") -> ");
    p.print_result_types(program, op);
}

/// Loads the kernel dialects into `ctx` (which should hold `pd_op`).
pub fn register(ctx: &IrContext) {
    ctx.load_dialect(&KernelDialect);
    ctx.load_dialect(&CustomKernelDialect);
    ctx.load_dialect(&OneDnnKernelDialect);
}
