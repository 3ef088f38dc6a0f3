//! The textual form of a program, exactly as Paddle 3.3 prints it
//! (format spec §6): generic op lines with attributes sorted by name, values
//! numbered `%0, %1, …` in print order, block arguments `%arg_N`, and custom
//! forms for the ops that register a [`crate::op_info::PrintFn`].
//!
//! Printing is a visitor writing into one output buffer; it allocates nothing
//! per op beyond that buffer and the value-number table. Printing to a
//! writer ([`Program::print`], [`Program::print_with_to`]) passes the buffer
//! on every [`FLUSH_BYTES`] between top-level ops, so a large program's text
//! never exists whole in memory.
//!
//! The text of a type, an attribute or a dictionary depends on nothing but
//! its interned handle, so it is formatted once and copied after that. The
//! context keeps those texts (and the printer's tables) from one print of
//! Paddle's text to the next (`kept.rs`): printing a program again,
//! after each pass of a pipeline or in a timing loop, formats nothing twice
//! and allocates nothing but the output.
//!
//! With [`PrintOptions::typed`] it writes the lossless typed form instead,
//! which [`crate::parser`] reads back exactly: a `#pir-typed` header line,
//! attributes in their stored order with their kinds (`(Int64)3`,
//! `(Float)0.1` with round-trip digits), block arguments with types, tensor
//! layouts, LoD and offsets, and the region layout of generic ops.
//!
//! ```
//! use std::sync::Arc;
//! use pir_core::{IrContext, Program, Builder, builtin::{ScalarType, DenseTensorType, I32Attr}};
//! let ctx = Arc::new(IrContext::new());
//! let mut p = Program::new(ctx.clone());
//! let f32_ty = ctx.intern_type(ScalarType::F32);
//! let t = DenseTensorType::get(&ctx, f32_ty, &[2, 3]);
//! let top = p.top_block();
//! let mut b = Builder::at_end(&mut p, top);
//! let a = b.op("test.source", &[], &[t], &[("index", ctx.intern_attr(I32Attr(1)))]);
//! let v = b.program().result(a, 0);
//! b.op("test.sink", &[v], &[], &[]);
//! assert_eq!(p.to_string(), "{\n    (%0) = \"test.source\" () {index:1} : () -> tensor<2x3xf32>\n    () = \"test.sink\" (%0) {} : (tensor<2x3xf32>) -> \n}\n");
//! ```

use rustc_hash::FxHashMap;

use crate::attributes::Attribute;
use crate::context::IrContext;
use crate::program::{BlockId, OpId, Program, ValueId};
use crate::types::Type;

use kept::{Kept, TextCache, Texts};

/// How much text a print to a writer holds before passing it on.
pub const FLUSH_BYTES: usize = 1 << 20;

/// What to print.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// The lossless typed form instead of Paddle's text.
    pub typed: bool,
    /// Name values by the ids Paddle's JSON writer gives them (results `%1`,
    /// `%2`, ...; block arguments `%-1`, `%-2`, ...) instead of print order.
    pub json_ids: bool,
}

/// Writes Paddle's text. Hooks of types, attributes and custom op printers
/// receive it to write their parts.
pub struct Printer<'a> {
    ctx: &'a IrContext,
    out: &'a mut Vec<u8>,
    options: PrintOptions,
    /// The memoized texts and the tables a print fills, taken from the
    /// context for Paddle's text and given back when the printer is dropped.
    kept: Kept,
    custom_names: FxHashMap<ValueId, Box<str>>,
    next_value: u32,
    next_arg: u32,
    indent: usize,
    counters: Vec<(&'static str, u32)>,
    /// Keyword arguments printed so far, by key.
    kwarg_keys: FxHashMap<crate::context::Symbol, u32>,
}

impl<'a> Printer<'a> {
    /// A printer appending Paddle's text to `out`.
    pub fn new(ctx: &'a IrContext, out: &'a mut Vec<u8>) -> Self {
        Self::with_options(ctx, out, PrintOptions::default())
    }

    /// A printer appending to `out` in the form `options` says.
    pub fn with_options(ctx: &'a IrContext, out: &'a mut Vec<u8>, options: PrintOptions) -> Self {
        // The typed form prints kinds' tags: not the texts kept for Paddle's.
        let kept = if options.typed {
            Kept::for_typed_form()
        } else {
            ctx.take_kept()
        };
        Printer {
            ctx,
            out,
            options,
            kept,
            custom_names: FxHashMap::default(),
            next_value: 0,
            next_arg: 0,
            indent: 0,
            counters: Vec::new(),
            kwarg_keys: FxHashMap::default(),
        }
    }

    /// The context.
    pub fn ctx(&self) -> &'a IrContext {
        self.ctx
    }

    /// Whether the lossless typed form is printed.
    #[inline]
    pub fn is_typed(&self) -> bool {
        self.options.typed
    }

    // ------------------------------------------------------------ primitives

    /// Writes text.
    #[inline]
    pub fn write_str(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    /// Writes a decimal integer.
    #[inline]
    pub fn write_i64(&mut self, v: i64) {
        pir_json::number::write_i64(self.out, v);
    }

    /// Writes a decimal unsigned integer.
    #[inline]
    pub fn write_u64(&mut self, v: u64) {
        pir_json::number::write_u64(self.out, v);
    }

    /// Writes a double as C++ `ostream << double` does (`%g`).
    pub fn write_f64_g(&mut self, v: f64) {
        pir_json::number::write_f64_cpp_ostream(self.out, v);
    }

    /// Writes a float as C++ `ostream << float` does.
    pub fn write_f32_g(&mut self, v: f32) {
        pir_json::number::write_f32_cpp_ostream(self.out, v);
    }

    /// Writes a float so that it reads back exactly: the shortest decimal
    /// that round-trips, `inf`, `-inf`, `nan`, `-nan`, or `nan:0x<bits>` for
    /// other NaN payloads.
    pub fn write_f32_exact(&mut self, v: f32) {
        const QUIET_NAN: u32 = 0x7fc0_0000;
        match v.to_bits() {
            QUIET_NAN => self.write_str("nan"),
            bits if bits == QUIET_NAN | 0x8000_0000 => self.write_str("-nan"),
            bits if v.is_nan() => self.write_str(&format!("nan:0x{bits:x}")),
            // `{:?}` is the shortest round-trip form, `inf` and `-inf` included.
            _ => self.write_str(&format!("{v:?}")),
        }
    }

    /// Writes a double so that it reads back exactly (see [`Printer::write_f32_exact`]).
    pub fn write_f64_exact(&mut self, v: f64) {
        const QUIET_NAN: u64 = 0x7ff8_0000_0000_0000;
        match v.to_bits() {
            QUIET_NAN => self.write_str("nan"),
            bits if bits == QUIET_NAN | (1 << 63) => self.write_str("-nan"),
            bits if v.is_nan() => self.write_str(&format!("nan:0x{bits:x}")),
            _ => self.write_str(&format!("{v:?}")),
        }
    }

    /// Writes a quoted string: Paddle's quoting (each `"` as `\"`, nothing
    /// else escaped), or in the typed form with `\\`, `\n`, `\t`, `\r` and
    /// `\u{…}` escapes too, so every string reads back exactly.
    pub fn write_quoted(&mut self, s: &str) {
        if self.options.typed {
            self.write_quoted_escaped(s);
            return;
        }
        self.out.push(b'"');
        // A branch-free scan (vectorized) beats memchr on short names.
        if !s.as_bytes().iter().fold(false, |q, &b| q | (b == b'"')) {
            self.out.extend_from_slice(s.as_bytes());
            self.out.push(b'"');
            return;
        }
        for part in s.split('"').enumerate() {
            if part.0 > 0 {
                self.out.extend_from_slice(b"\\\"");
            }
            self.out.extend_from_slice(part.1.as_bytes());
        }
        self.out.push(b'"');
    }

    fn write_quoted_escaped(&mut self, s: &str) {
        self.out.push(b'"');
        for c in s.chars() {
            match c {
                '"' => self.write_str("\\\""),
                '\\' => self.write_str("\\\\"),
                '\n' => self.write_str("\\n"),
                '\t' => self.write_str("\\t"),
                '\r' => self.write_str("\\r"),
                c if (c as u32) < 0x20 || c == '\u{7f}' => {
                    self.write_str(&format!("\\u{{{:x}}}", c as u32))
                }
                c => {
                    let mut buf = [0u8; 4];
                    self.out
                        .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        self.out.push(b'"');
    }

    /// Writes `[a,b,...]`, each item written by `each`.
    pub fn write_list<T: Copy>(&mut self, items: &[T], mut each: impl FnMut(&mut Self, T)) {
        self.out.push(b'[');
        for (i, &item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            each(self, item);
        }
        self.out.push(b']');
    }

    /// Writes `[1,-2,3]`.
    pub fn write_int_list(&mut self, values: &[i64]) {
        self.write_list(values, |p, v| p.write_i64(v));
    }

    /// Writes the current indentation.
    #[inline]
    pub fn write_indent(&mut self) {
        const SPACES: &[u8; 32] = b"                                ";
        // The top block's and the next level's as stores of known size.
        match self.indent {
            4 => self.out.extend_from_slice(b"    "),
            8 => self.out.extend_from_slice(b"        "),
            n => match SPACES.get(..n) {
                Some(spaces) => self.out.extend_from_slice(spaces),
                None => self.out.resize(self.out.len() + n, b' '),
            },
        }
    }

    /// Copies the kept text of handle `index` of `kind`; false when
    /// there is none.
    #[inline]
    fn copy_kept(&mut self, kind: Texts, index: u32) -> bool {
        let cache = &self.kept.cache;
        let text = cache.tables[kind as usize].get(index, &cache.bytes);
        if let Some(text) = text {
            self.out.extend_from_slice(text);
        }
        text.is_some()
    }

    /// Keeps the text printed since `from` as that of handle `index` of
    /// `kind`: at once, or (`from_second_use`, for kinds many of which
    /// occur once: names, a parameter's dictionary) when met before.
    fn keep_text(&mut self, kind: Texts, index: u32, from: usize, from_second_use: bool) {
        let TextCache { bytes, tables, .. } = &mut self.kept.cache;
        let table = &mut tables[kind as usize];
        if !from_second_use || table.seen_before(index) {
            table.store(index, bytes, &self.out[from..]);
        }
    }

    /// Prints a type.
    #[inline]
    pub fn print_type(&mut self, ty: Type) {
        if !self.copy_kept(Texts::Types, ty.0) {
            self.format_type(ty);
        }
    }

    /// Prints a type met for the first time, and keeps its text.
    #[inline(never)]
    fn format_type(&mut self, ty: Type) {
        let from = self.out.len();
        self.ctx.type_data(ty).print(self);
        self.keep_text(Texts::Types, ty.0, from, false);
    }

    /// Prints an attribute.
    #[inline]
    pub fn print_attr(&mut self, attr: Attribute) {
        if !self.copy_kept(Texts::Attrs, attr.0) {
            self.format_attr(attr);
        }
    }

    /// Prints an attribute whose text is not kept (yet): met for the first
    /// time, or once before.
    #[inline(never)]
    fn format_attr(&mut self, attr: Attribute) {
        let from = self.out.len();
        let data = self.ctx.attr_data(attr);
        if self.options.typed && !data.self_describing() && !data.tag().is_empty() {
            self.out.push(b'(');
            self.write_str(data.tag());
            self.out.push(b')');
        }
        data.print(self);
        self.keep_text(Texts::Attrs, attr.0, from, true);
    }

    /// Prints an operand: the value, or `<<NULL VALUE>>`.
    #[inline]
    pub fn print_operand(&mut self, program: &Program, v: Option<ValueId>) {
        match v {
            Some(v) => self.print_value(program, v),
            None => self.write_str("<<NULL VALUE>>"),
        }
    }

    /// Prints `(%0, %1)`: the op's results.
    #[inline]
    pub fn print_results(&mut self, program: &Program, op: OpId) {
        self.out.push(b'(');
        // Results are numbered here, in print order, unless named otherwise.
        let plain = self.plain_names();
        for (i, r) in program.results(op).enumerate() {
            if i > 0 {
                self.write_str(", ");
            }
            if plain {
                self.print_result_number(r);
            } else {
                self.print_value(program, r);
            }
        }
        self.out.push(b')');
    }

    /// Prints `(%0, %1) = "name"`, the start of every op line. Paddle writes
    /// the name as it is; the typed form escapes it like any string.
    #[inline]
    pub fn print_op_head(&mut self, program: &Program, op: OpId) {
        self.print_op_head_named(program, op, program.op_name_str(op));
    }

    /// [`Printer::print_op_head`] of an op whose name's text is at hand.
    #[inline]
    fn print_op_head_named(&mut self, program: &Program, op: OpId, name: &str) {
        self.print_results(program, op);
        if self.options.typed {
            self.write_str(" = ");
            self.write_quoted_escaped(name);
        } else {
            self.write_str(" = \"");
            self.write_str(name);
            self.out.push(b'"');
        }
    }

    /// Prints `(%r) = "name" (%a, %b) {attrs}`: the part of an op line the
    /// generic form shares with the custom forms of region ops.
    #[inline]
    pub fn print_op_prefix(&mut self, program: &Program, op: OpId) {
        self.print_op_head(program, op);
        self.print_operands_in_parens(program, op);
        self.print_attr_dict(program, op);
    }

    /// Prints ` (%a, %b) `, the operands between the head and the dictionary.
    #[inline]
    fn print_operands_in_parens(&mut self, program: &Program, op: OpId) {
        self.write_str(" (");
        self.print_operand_list(program, op);
        self.write_str(") ");
    }

    /// Prints the operands separated by `, ` (no parentheses).
    #[inline]
    pub fn print_operand_list(&mut self, program: &Program, op: OpId) {
        for (i, v) in program.operands(op).enumerate() {
            if i > 0 {
                self.write_str(", ");
            }
            self.print_operand(program, v);
        }
    }

    /// Prints the operand types separated by `, ` (`<<NULL TYPE>>` for absent operands).
    #[inline]
    pub fn print_operand_types(&mut self, program: &Program, op: OpId) {
        for (i, v) in program.operands(op).enumerate() {
            if i > 0 {
                self.write_str(", ");
            }
            match v {
                Some(v) => self.print_type(program.value_type(v)),
                None => self.write_str("<<NULL TYPE>>"),
            }
        }
    }

    /// Prints the result types separated by `, `.
    #[inline]
    pub fn print_result_types(&mut self, program: &Program, op: OpId) {
        for (i, r) in program.results(op).enumerate() {
            if i > 0 {
                self.write_str(", ");
            }
            self.print_type(program.value_type(r));
        }
    }

    // ------------------------------------------------------------ structure

    /// Prints one op (its custom form if it has one) without indentation or newline.
    pub fn print_op(&mut self, program: &Program, op: OpId) {
        // Not `op_info`: that would build registrations a print needs not.
        let ctx = self.ctx;
        match ctx.op_printer_and_text(program.op_name(op)) {
            (Some(print), _) => print(self, program, op),
            (None, name) => self.print_generic_op_named(program, op, name),
        }
    }

    /// Prints the generic form:
    /// `(%r) = "name" (%a, %b) {attrs} : (types) -> types`, then its regions' blocks.
    pub fn print_generic_op(&mut self, program: &Program, op: OpId) {
        self.print_generic_op_named(program, op, program.op_name_str(op));
    }

    /// [`Printer::print_generic_op`] of an op whose name's text is at hand.
    fn print_generic_op_named(&mut self, program: &Program, op: OpId, name: &str) {
        self.print_op_head_named(program, op, name);
        self.print_operands_in_parens(program, op);
        self.print_signature(program, op);
        // A registered region count the op does not have is shown too
        // (`regions:[]`), or the parser would give the op its registered regions.
        let registered = || {
            program
                .op_info(op)
                .and_then(|i| i.num_regions)
                .is_some_and(|n| n as usize != program.num_regions(op))
        };
        if self.options.typed && (program.num_regions(op) > 0 || registered()) {
            // Blocks alone do not show where one region ends and the next begins.
            self.write_str(" regions:[");
            for (i, region) in program.regions(op).enumerate() {
                if i > 0 {
                    self.out.push(b',');
                }
                self.write_u64(program.region_blocks(region).len() as u64);
            }
            self.out.push(b']');
        }
        for region in program.regions(op) {
            for &block in program.region_blocks(region) {
                self.out.push(b'\n');
                self.write_indent();
                self.write_str("{\n");
                self.print_block_args_line(program, block);
                self.print_block_ops(program, block);
                self.write_indent();
                self.out.push(b'}');
            }
        }
    }

    /// Prints the `^%arg_0 {}, %arg_1 {}` line of a block with arguments (at the
    /// current indentation), and its keyword arguments.
    pub fn print_block_args_line(&mut self, program: &Program, block: BlockId) {
        let args = program.block_args(block);
        if !args.is_empty() {
            self.write_indent();
            self.out.push(b'^');
            self.print_block_arg_list(program, args);
            self.out.push(b'\n');
        }
        let kwargs = program.block_kwargs(block);
        if !kwargs.is_empty() {
            self.indent += 4;
            self.write_indent();
            self.write_str("^kw:\n");
            self.indent += 4;
            for &(_, v) in kwargs {
                self.write_indent();
                self.print_value(program, v);
                self.print_arg_type(program, v);
                self.out.push(b'\n');
            }
            self.indent -= 8;
        }
    }

    /// Prints block arguments `%arg_0 {}, %arg_1 {}` (typed: `%arg_0 : type, ...`).
    pub fn print_block_arg_list(&mut self, program: &Program, args: &[ValueId]) {
        for (i, &a) in args.iter().enumerate() {
            if i > 0 {
                self.write_str(", ");
            }
            self.print_value(program, a);
            self.print_arg_type(program, a);
        }
    }

    fn print_arg_type(&mut self, program: &Program, v: ValueId) {
        if self.options.typed {
            self.write_str(" : ");
            self.print_type(program.value_type(v));
        }
    }

    /// Prints a block's ops one per line, indented 4 more than the current level.
    pub fn print_block_ops(&mut self, program: &Program, block: BlockId) {
        self.indent += 4;
        for op in program.block_ops(block) {
            self.write_indent();
            self.print_op(program, op);
            self.out.push(b'\n');
        }
        self.indent -= 4;
    }

    /// Prints a typed text's header line: `#pir-typed key=value ...`.
    pub fn print_typed_header(&mut self, header: &[(&str, &str)]) {
        self.write_str(crate::parser::TYPED_HEADER);
        for (k, v) in header {
            self.out.push(b' ');
            self.write_str(k);
            self.out.push(b'=');
            self.write_str(v);
        }
        self.out.push(b'\n');
    }
}

mod dicts;
mod kept;
mod program;
mod signature;
#[cfg(test)]
mod tests;
mod values;

impl Drop for Printer<'_> {
    /// Gives the memoized texts of Paddle's text back to the context (see
    /// [`IrContext::keep`]).
    fn drop(&mut self) {
        if !self.options.typed {
            self.ctx.keep(std::mem::take(&mut self.kept));
        }
    }
}
