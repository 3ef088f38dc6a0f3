//! Paddle's print of a lowered program (`IR after lowering` with
//! `FLAGS_print_ir=1`).
//!
//! Paddle prints most ops' numbers (`"builtin.parameter" [id:25]`,
//! `"pd_op.if" [id:55]`, `"cf.yield" [id:36]`); kernel ops print without
//! (their `origin_id` is their number) and so does `while`, whose body
//! arguments show their `stop_gradient`. The numbers are not part of the
//! program, so this printer walks the program itself and hands the parts it
//! shares with every print (values, attributes, types, kernel ops) to
//! `pir-core`'s [`Printer`].

use std::io::{self, Write};

use pir_core::printer::{PrintOptions, Printer};
use pir_core::{BlockId, OpId};

use crate::dialect::{
    print_operands_and_attrs, print_operands_to_types, CUSTOM_KERNEL, LEGACY_KERNEL, PHI_KERNEL,
};
use crate::lower::LoweredProgram;

impl LoweredProgram {
    /// Paddle's print of the program.
    pub fn to_paddle_string(&self) -> String {
        let mut out = Vec::new();
        // Writing into a vector cannot fail.
        let _ = self.print_paddle_to(&mut out);
        // Every piece printed is UTF-8 (names and strings come from `&str`s).
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// Writes Paddle's print of the program to `w`.
    pub fn print_paddle_to<W: Write + ?Sized>(&self, w: &mut W) -> io::Result<()> {
        let ctx = self.program.ctx();
        let mut out = Vec::with_capacity(self.program.num_ops() * 200);
        let mut state = PrintState {
            lowered: self,
            next_arg: 0,
        };
        {
            let mut p = Printer::with_options(ctx, &mut out, PrintOptions::default());
            p.write_str("{\n");
            state.print_block(&mut p, self.program.top_block(), 1);
            p.write_str("}\n");
        }
        w.write_all(&out)
    }

    /// The lossless typed text of the program (kernel ops in the generic
    /// form, kernel types as `kernel.alloc<place, type>`).
    pub fn to_typed_string(&self) -> String {
        self.program.to_typed_string()
    }
}

struct PrintState<'a> {
    lowered: &'a LoweredProgram,
    next_arg: u32,
}

impl PrintState<'_> {
    fn indent(p: &mut Printer<'_>, depth: usize) {
        for _ in 0..depth {
            p.write_str("    ");
        }
    }

    fn print_line(&mut self, p: &mut Printer<'_>, op: OpId, depth: usize) {
        Self::indent(p, depth);
        self.print_op(p, op, depth);
        p.write_str("\n");
    }

    fn print_block(&mut self, p: &mut Printer<'_>, block: BlockId, depth: usize) {
        let program = &self.lowered.program;
        for op in program.block_ops(block) {
            self.print_line(p, op, depth);
        }
    }

    fn print_id(&self, p: &mut Printer<'_>, op: OpId) {
        if let Some(&id) = self.lowered.op_ids.get(&op) {
            p.write_str(" [id:");
            p.write_i64(id);
            p.write_str("]");
        }
    }

    /// `(%r) = "name" [id:N]`.
    fn print_head(&self, p: &mut Printer<'_>, op: OpId) {
        let program = &self.lowered.program;
        p.print_results(program, op);
        p.write_str(" = \"");
        p.write_str(program.op_name_str(op));
        p.write_str("\"");
        self.print_id(p, op);
    }

    fn print_op(&mut self, p: &mut Printer<'_>, op: OpId, depth: usize) {
        let program = &self.lowered.program;
        match program.op_name_str(op) {
            PHI_KERNEL | LEGACY_KERNEL | CUSTOM_KERNEL => p.print_op(program, op),
            "pd_op.if" | "pd_op.pylayer" => {
                self.print_head(p, op);
                print_operands_and_attrs(p, program, op);
                p.write_str(" -> ");
                p.print_result_types(program, op);
                p.write_str(" {\n");
                for (i, region) in program.regions(op).enumerate() {
                    if i > 0 {
                        Self::indent(p, depth);
                        p.write_str("} else {\n");
                    }
                    for &block in program.region_blocks(region) {
                        self.print_block(p, block, depth + 1);
                    }
                }
                Self::indent(p, depth);
                p.write_str("}");
            }
            "pd_op.while" => self.print_while(p, op, depth),
            _ => {
                self.print_head(p, op);
                print_operands_to_types(p, program, op);
            }
        }
    }

    /// `(%r) = "pd_op.while" (cond=%c, inputs=%a, %b) { ` and the body, whose
    /// `^` line shows each argument's `stop_gradient`.
    fn print_while(&mut self, p: &mut Printer<'_>, op: OpId, depth: usize) {
        let program = &self.lowered.program;
        p.print_results(program, op);
        p.write_str(" = \"pd_op.while\"");
        pir_dialects::pd_op::print_while_operands(p, program, op);
        p.write_str(") { \n");
        for region in program.regions(op) {
            for &block in program.region_blocks(region) {
                Self::indent(p, depth);
                p.write_str("^");
                for (i, &arg) in program.block_args(block).iter().enumerate() {
                    if i > 0 {
                        p.write_str(", ");
                    }
                    let name = format!("arg_{}", self.next_arg);
                    self.next_arg += 1;
                    p.write_str("%");
                    p.write_str(&name);
                    p.set_value_name(arg, &name);
                    let stop = self.lowered.arg_stop_gradient.get(&arg).copied();
                    match stop {
                        Some(s) => p.write_str(if s {
                            " {stop_gradient:true}"
                        } else {
                            " {stop_gradient:false}"
                        }),
                        None => p.write_str(" {}"),
                    }
                }
                p.write_str("\n");
                self.print_block(p, block, depth + 1);
            }
        }
        Self::indent(p, depth);
        p.write_str("}");
    }
}
