//! The textual form of a program, exactly as Paddle 3.3 prints it
//! (format spec §6): generic op lines with attributes sorted by name, values
//! numbered `%0, %1, …` in print order, block arguments `%arg_N`, and custom
//! forms for the ops that register a [`crate::op_info::PrintFn`].
//!
//! Printing is a visitor writing into one output buffer; it allocates nothing
//! per op beyond that buffer and the value-number table.
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

use std::fmt;
use std::io;

use rustc_hash::FxHashMap;

use crate::attributes::Attribute;
use crate::context::IrContext;
use crate::entity::SecondaryMap;
use crate::memo::{MemoBytes, MemoTable};
use crate::program::{BlockId, OpId, Program, ValueDef, ValueId};
use crate::types::Type;

/// Writes Paddle's text. Hooks of types, attributes and custom op printers
/// receive it to write their parts.
pub struct Printer<'a> {
    ctx: &'a IrContext,
    out: &'a mut Vec<u8>,
    /// `number + 1` of each value printed so far (0: not yet printed).
    numbers: SecondaryMap<ValueId, u32>,
    custom_names: FxHashMap<ValueId, Box<str>>,
    next_value: u32,
    next_arg: u32,
    indent: usize,
    counters: Vec<(&'static str, u32)>,
    /// Printed text of types and attribute dictionaries met so far: they are
    /// interned and immutable, so each is formatted once per print.
    cache: TextCache,
}

/// Memoized text of interned things.
#[derive(Default)]
struct TextCache {
    bytes: MemoBytes,
    types: MemoTable,
    attrs: MemoTable,
    dicts: MemoTable,
}

impl<'a> Printer<'a> {
    /// A printer appending to `out`.
    pub fn new(ctx: &'a IrContext, out: &'a mut Vec<u8>) -> Self {
        Printer {
            ctx,
            out,
            numbers: SecondaryMap::with_default(0),
            custom_names: FxHashMap::default(),
            next_value: 0,
            next_arg: 0,
            indent: 0,
            counters: Vec::new(),
            cache: TextCache::default(),
        }
    }

    /// The context.
    pub fn ctx(&self) -> &'a IrContext {
        self.ctx
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
        let mut buf = itoa_buf();
        self.out.extend_from_slice(format_i64(&mut buf, v));
    }

    /// Writes a decimal unsigned integer.
    pub fn write_u64(&mut self, v: u64) {
        let mut buf = itoa_buf();
        self.out.extend_from_slice(format_u64(&mut buf, v));
    }

    /// Writes a double as C++ `ostream << double` does (`%g`).
    pub fn write_f64_g(&mut self, v: f64) {
        pir_json::number::write_f64_cpp_ostream(self.out, v);
    }

    /// Writes a float as C++ `ostream << float` does.
    pub fn write_f32_g(&mut self, v: f32) {
        pir_json::number::write_f32_cpp_ostream(self.out, v);
    }

    /// Writes `"text"` with each `"` escaped as `\"` and nothing else escaped (Paddle's quoting).
    pub fn write_quoted(&mut self, s: &str) {
        self.out.push(b'"');
        for part in s.split('"').enumerate() {
            if part.0 > 0 {
                self.out.extend_from_slice(b"\\\"");
            }
            self.out.extend_from_slice(part.1.as_bytes());
        }
        self.out.push(b'"');
    }

    /// Writes the current indentation.
    pub fn write_indent(&mut self) {
        self.out.resize(self.out.len() + self.indent, b' ');
    }

    /// Prints a type.
    pub fn print_type(&mut self, ty: Type) {
        if let Some(text) = self.cache.types.get(ty.0, &self.cache.bytes) {
            self.out.extend_from_slice(text);
            return;
        }
        let from = self.out.len();
        self.ctx.type_data(ty).print(self);
        let cache = &mut self.cache;
        cache.types.store(ty.0, &mut cache.bytes, &self.out[from..]);
    }

    /// Prints an attribute.
    pub fn print_attr(&mut self, attr: Attribute) {
        if let Some(text) = self.cache.attrs.get(attr.0, &self.cache.bytes) {
            self.out.extend_from_slice(text);
            return;
        }
        let from = self.out.len();
        self.ctx.attr_data(attr).print(self);
        let cache = &mut self.cache;
        cache
            .attrs
            .store(attr.0, &mut cache.bytes, &self.out[from..]);
    }

    // ---------------------------------------------------------------- values

    /// Returns the next number of a named counter (0, 1, ...), for custom
    /// printers that number things on their own (`%stack_0`).
    pub fn next_counter(&mut self, key: &'static str) -> u32 {
        match self.counters.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.counters.push((key, 0));
                0
            }
        }
    }

    /// Gives a value a fixed name (without `%`), e.g. `stack_0`; it then takes no number.
    pub fn set_value_name(&mut self, v: ValueId, name: &str) {
        self.custom_names.insert(v, name.into());
    }

    /// Prints a value reference, numbering it on first print. A block argument's
    /// first print carries its (empty) attribute dictionary: `%arg_0 {}`.
    pub fn print_value(&mut self, program: &Program, v: ValueId) {
        if !self.custom_names.is_empty() {
            if let Some(name) = self.custom_names.get(&v) {
                self.out.push(b'%');
                self.out.extend_from_slice(name.as_bytes());
                return;
            }
        }
        let n = *self.numbers.get(v);
        let def = program.value_def(v);
        match def {
            ValueDef::BlockArg { .. } => {
                let first = n == 0;
                if first {
                    self.next_arg += 1;
                    self.numbers.set(v, self.next_arg);
                }
                self.write_str("%arg_");
                self.write_u64(u64::from(*self.numbers.get(v) - 1));
                if first {
                    self.write_str(" {}");
                }
            }
            ValueDef::BlockKwarg { block, index } => {
                self.write_str("%kwarg_");
                let name = program.block_kwargs(block)[index as usize].0;
                self.write_str(self.ctx.symbol_str(name));
                if n == 0 {
                    self.numbers.set(v, u32::MAX);
                    self.write_str(" {}");
                }
            }
            _ => {
                if n == 0 {
                    self.next_value += 1;
                    self.numbers.set(v, self.next_value);
                }
                self.out.push(b'%');
                let n = *self.numbers.get(v) - 1;
                self.write_u64(n as u64);
            }
        }
    }

    /// Prints an operand: the value, or `<<NULL VALUE>>`.
    pub fn print_operand(&mut self, program: &Program, v: Option<ValueId>) {
        match v {
            Some(v) => self.print_value(program, v),
            None => self.write_str("<<NULL VALUE>>"),
        }
    }

    /// Prints `(%0, %1)`: the op's results.
    pub fn print_results(&mut self, program: &Program, op: OpId) {
        self.out.push(b'(');
        for (i, r) in program.results(op).enumerate() {
            if i > 0 {
                self.write_str(", ");
            }
            self.print_value(program, r);
        }
        self.out.push(b')');
    }

    /// Prints the operands separated by `, ` (no parentheses).
    pub fn print_operand_list(&mut self, program: &Program, op: OpId) {
        for (i, v) in program.operands(op).enumerate() {
            if i > 0 {
                self.write_str(", ");
            }
            self.print_operand(program, v);
        }
    }

    /// Prints `{name:value,...}` sorted by name, without `op_callstack` and `sym_shape_str`.
    pub fn print_attr_dict(&mut self, program: &Program, op: OpId) {
        let dict = program.attrs(op);
        if let Some(text) = self.cache.dicts.get(dict.0, &self.cache.bytes) {
            self.out.extend_from_slice(text);
            return;
        }
        let from = self.out.len();
        self.print_dict_uncached(dict);
        // Many dictionaries occur once (unique names): cache from the second use on.
        let cache = &mut self.cache;
        if cache.dicts.seen_before(dict.0) {
            cache
                .dicts
                .store(dict.0, &mut cache.bytes, &self.out[from..]);
        }
    }

    fn print_dict_uncached(&mut self, dict: crate::attributes::AttrDict) {
        let ctx = self.ctx;
        let hidden = [ctx.well_known.op_callstack, ctx.well_known.sym_shape_str];
        self.out.push(b'{');
        let mut first = true;
        for (name, attr) in ctx.dict_sorted(dict) {
            if hidden.contains(&name) {
                continue;
            }
            if !first {
                self.out.push(b',');
            }
            first = false;
            self.write_str(ctx.symbol_str(name));
            self.out.push(b':');
            self.print_attr(attr);
        }
        self.out.push(b'}');
    }

    /// Prints the operand types separated by `, ` (`<<NULL TYPE>>` for absent operands).
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
        if let Some(print) = program.op_info(op).and_then(|info| info.print) {
            print(self, program, op);
        } else {
            self.print_generic_op(program, op);
        }
    }

    /// Prints the generic form:
    /// `(%r) = "name" (%a, %b) {attrs} : (types) -> types`, then its regions' blocks.
    pub fn print_generic_op(&mut self, program: &Program, op: OpId) {
        self.print_results(program, op);
        self.write_str(" = \"");
        self.write_str(program.op_name_str(op));
        self.write_str("\" (");
        self.print_operand_list(program, op);
        self.write_str(") ");
        self.print_attr_dict(program, op);
        self.write_str(" : (");
        self.print_operand_types(program, op);
        self.write_str(") -> ");
        self.print_result_types(program, op);
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
            for (i, &a) in args.iter().enumerate() {
                if i > 0 {
                    self.write_str(", ");
                }
                self.print_value(program, a);
            }
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
                self.out.push(b'\n');
            }
            self.indent -= 8;
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

    /// Prints a whole program: `{\n`, the top block's ops, `}\n`.
    pub fn print_program(&mut self, program: &Program) {
        let top = program.top_block();
        self.write_str("{\n");
        self.print_block_args_line(program, top);
        self.print_block_ops(program, top);
        self.write_str("}\n");
    }
}

fn itoa_buf() -> [u8; 20] {
    [0; 20]
}

fn format_u64(buf: &mut [u8; 20], mut v: u64) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &buf[i..]
}

fn format_i64(buf: &mut [u8; 20], v: i64) -> &[u8] {
    if v >= 0 {
        return format_u64(buf, v as u64);
    }
    // 20 bytes hold u64::MAX; i64::MIN's magnitude has 19 digits plus the sign.
    let len = format_u64(buf, v.unsigned_abs()).len();
    let start = buf.len() - len - 1;
    buf[start] = b'-';
    &buf[start..]
}

impl Program {
    /// Writes Paddle's text of the program.
    pub fn print(&self, w: &mut impl io::Write) -> io::Result<()> {
        let mut out = Vec::with_capacity(self.ops.len() * 160);
        Printer::new(self.ctx(), &mut out).print_program(self);
        w.write_all(&out)
    }

    /// Paddle's text of the program as bytes.
    pub fn print_to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.ops.len() * 160);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_format_across_the_range() {
        for v in [0i64, 7, -1, 10, -10, 1234567890123, i64::MAX, i64::MIN] {
            let mut buf = itoa_buf();
            assert_eq!(
                std::str::from_utf8(format_i64(&mut buf, v)).unwrap(),
                v.to_string()
            );
        }
    }

    #[test]
    fn quoting_escapes_only_double_quotes() {
        let ctx = IrContext::new();
        let mut out = Vec::new();
        Printer::new(&ctx, &mut out).write_quoted("a\"b\\c\nd");
        assert_eq!(out, b"\"a\\\"b\\c\nd\"");
    }
}
