//! Printing whole programs: into a buffer, or a part at a time into a
//! writer, and `Program`'s printing methods.

use std::fmt;
use std::io;

use super::{PrintOptions, Printer, FLUSH_BYTES};
use crate::entity::EntityId;
use crate::program::{OpId, Program, ValueId};

impl Printer<'_> {
    /// Prints a whole program: `{\n`, the top block's ops, `}\n`.
    pub fn print_program(&mut self, program: &Program) {
        self.begin_program(program);
        self.print_block_ops(program, program.top_block());
        self.write_str("}\n");
    }

    /// [`Printer::print_program`], passing the text to `sink` (the buffer
    /// and then `sink`) every [`FLUSH_BYTES`] between top-level ops and at the end.
    pub fn print_program_to(
        &mut self,
        program: &Program,
        sink: &mut dyn io::Write,
    ) -> io::Result<()> {
        self.begin_program(program);
        self.indent += 4;
        for op in program.block_ops(program.top_block()) {
            self.write_indent();
            self.print_op(program, op);
            self.out.push(b'\n');
            if self.out.len() >= FLUSH_BYTES {
                self.flush_to(sink)?;
            }
        }
        self.indent -= 4;
        self.write_str("}\n");
        self.flush_to(sink)
    }

    /// The program's opening: sizes the value-number table once rather
    /// than growing it value by value, then `{\n` and the top block's arguments.
    fn begin_program(&mut self, program: &Program) {
        if let Some(last) = program.values.len().checked_sub(1) {
            let last = ValueId::new(last);
            let n = *self.kept.numbers.get(last);
            self.kept.numbers.set(last, n);
        }
        self.write_str("{\n");
        self.print_block_args_line(program, program.top_block());
    }

    /// Passes the buffered text to `sink` and empties the buffer.
    fn flush_to(&mut self, sink: &mut dyn io::Write) -> io::Result<()> {
        sink.write_all(self.out)?;
        self.out.clear();
        // The dictionaries' spans point into the buffer: later ones no longer
        // copy from them.
        self.kept.print += 1;
        Ok(())
    }
}

impl Program {
    /// Writes Paddle's text of the program to `w`, a part at a time (see
    /// [`FLUSH_BYTES`]).
    pub fn print(&self, w: &mut impl io::Write) -> io::Result<()> {
        self.print_with_to(PrintOptions::default(), &[], w)
    }

    /// [`Program::print_with`] to a writer, a part at a time (see [`FLUSH_BYTES`]).
    pub fn print_with_to(
        &self,
        options: PrintOptions,
        header: &[(&str, &str)],
        w: &mut dyn io::Write,
    ) -> io::Result<()> {
        let mut out = Vec::with_capacity(FLUSH_BYTES + FLUSH_BYTES / 4);
        let mut p = Printer::with_options(self.ctx(), &mut out, options);
        if options.typed {
            p.print_typed_header(header);
        }
        p.print_program_to(self, w)
    }

    /// The program's text in the form `options` says; a typed text starts
    /// with a `#pir-typed` line carrying `header`'s pairs.
    pub fn print_with(&self, options: PrintOptions, header: &[(&str, &str)]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.ops.len() * 320);
        let mut p = Printer::with_options(self.ctx(), &mut out, options);
        if options.typed {
            p.print_typed_header(header);
        }
        p.print_program(self);
        drop(p);
        out
    }

    /// The lossless typed text of the program (no header pairs).
    pub fn to_typed_string(&self) -> String {
        let options = PrintOptions {
            typed: true,
            json_ids: false,
        };
        String::from_utf8_lossy(&self.print_with(options, &[])).into_owned()
    }

    /// Paddle's text of the program as bytes.
    pub fn print_to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.ops.len() * 256);
        Printer::new(self.ctx(), &mut out).print_program(self);
        out
    }

    /// The text of one op (as in a program print, value numbers starting at 0).
    pub fn op_to_string(&self, op: OpId) -> String {
        let mut out = Vec::new();
        Printer::new(self.ctx(), &mut out).print_op(self, op);
        String::from_utf8_lossy(&out).into_owned()
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.print_to_vec()))
    }
}
