//! Parsing the textual IR back into a [`Program`]: Paddle's own print (the
//! default printer output) and the lossless typed form (`PrintOptions::typed`).
//!
//! A hand-written recursive-descent parser over the text's bytes. The core
//! syntax — op lines, value names, blocks, regions, attribute dictionaries,
//! signatures — lives here; each type and attribute kind parses its own text
//! in the module that prints it ([`crate::types::TypeDef::parse`],
//! [`crate::attributes::AttrDef::parse`]), and ops with a custom printed form
//! register a parse hook next to their printer ([`crate::OpInfo::parse`]).
//!
//! Paddle's print is lossy: attribute kinds are not printed (`1` may be an
//! int32, an int64 or a double). In that form the parser asks the op's
//! [`AttrHintInterface`] (the `pd_op` definitions), then the context's table
//! of well-known attribute names, and otherwise recognises the value by its
//! shape. The typed form tags every attribute whose kind its text does not
//! show (`(Int64)3`, `(Float)0.1`), so it reads back exactly.
//!
//! ```
//! use std::sync::Arc;
//! use pir_core::{IrContext, Program};
//! let ctx = Arc::new(IrContext::new());
//! let text = "{\n    (%0) = \"test.source\" () {index:1} : () -> tensor<2x3xf32>\n    \
//!             () = \"test.sink\" (%0) {} : (tensor<2x3xf32>) -> \n}\n";
//! let program = Program::parse(&ctx, text).unwrap();
//! assert_eq!(program.to_string(), text);
//! let err = Program::parse(&ctx, &text.replace("(%0) {}", "(%7) {}")).unwrap_err();
//! assert_eq!((err.line, err.message.as_str()), (3, "unknown value `%7`"));
//! ```

pub mod cursor;
mod dicts;
pub mod error;
mod ops;
mod values;

use std::borrow::Cow;
use std::sync::Arc;

use rustc_hash::FxHashMap;

pub use cursor::{Cursor, StringEscapes};
pub use error::ParseError;

use crate::attributes::Attribute;
use crate::builtin::{ArrayAttr, BoolAttr, F64Attr, I32Attr, I64Attr, NullAttr, StrAttr, TypeAttr};
use crate::context::{IrContext, Symbol};
use crate::op_info::OpInfo;
use crate::program::{OpId, Program};
use crate::types::Type;

/// Which textual form a text is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TextForm {
    /// Paddle 3.3's `print(program)`.
    Paddle,
    /// The lossless typed form (starts with a `#pir-typed` line).
    Typed,
}

/// The first line of a typed text.
pub const TYPED_HEADER: &str = "#pir-typed";

/// Options of the parser.
#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    /// Ops without a registration are errors (otherwise they become
    /// unregistered ops, which load, print and save like any other).
    pub strict: bool,
}

/// A parsed text: the program, the form it was in, and the `key=value`
/// pairs of a typed text's header line (`version=4 trainable=true`).
#[derive(Debug)]
pub struct ParsedText {
    /// The program.
    pub program: Program,
    /// The form of the text.
    pub form: TextForm,
    /// The header's pairs, in order (empty for Paddle's form).
    pub header: Vec<(String, String)>,
}

impl ParsedText {
    /// The header value of `key`.
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// What kind of attribute an untagged value stands for (Paddle's form prints
/// no kinds). Kinds are named by their typed-form tag
/// ([`crate::attributes::AttrDef::TAG`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Unknown: recognise the kind by the value's shape.
    Any,
    /// The kind with this tag (`"Int64"`, `"pd_op.IntArray"`).
    Kind(&'static str),
    /// An array whose elements are of the kind with this tag (or unknown).
    ArrayOf(Option<&'static str>),
}

/// Parses a type whose keyword (`tensor`, `vec`, `f32`, `pd_op.tensor_array`)
/// was just read; `start` is the keyword's offset.
pub type TypeParseFn = fn(&mut Parser<'_>, &str, usize) -> Result<Type, ParseError>;

/// Parses an attribute value at the cursor (after its tag, if any).
pub type AttrParseFn = fn(&mut Parser<'_>, Expect) -> Result<Attribute, ParseError>;

/// Parses the rest of an op with a custom printed form, after `(%r) = "name"`.
pub type OpParseFn = for<'t> fn(&mut Parser<'t>, &OpHead<'t>) -> Result<OpId, ParseError>;

/// An op's way of telling the parser the kinds of its attributes, given the
/// op's registration and an attribute name.
#[derive(Copy, Clone, Debug)]
pub struct AttrHintInterface(pub fn(&OpInfo, &str) -> Option<Expect>);

/// An op's way of restoring, from the rest of its attributes, values that
/// Paddle's print shortened (floats print with 6 digits): called on the
/// attributes of each op read from Paddle's print (not the typed form)
/// that has a float attribute ([`F32Attr`](crate::builtin::F32Attr) or
/// [`F64Attr`]), which it may change in place.
#[derive(Copy, Clone, Debug)]
pub struct PrintedAttrsInterface(pub fn(&IrContext, &OpInfo, &mut [(Symbol, Attribute)]));

/// The start of an op line, read before the op's own syntax: its result
/// names and its name.
#[derive(Clone, Debug)]
pub struct OpHead<'t> {
    /// Result names (without `%`) and their offsets.
    pub results: Vec<(&'t str, usize)>,
    /// The op name.
    pub name: Symbol,
    /// Offset of the op line.
    pub start: usize,
    /// Offset of the quoted op name.
    pub name_offset: usize,
}

/// The parser. Dialect hooks receive it to read their parts of the text.
pub struct Parser<'t> {
    /// The lexer.
    pub cur: Cursor<'t>,
    ctx: Arc<IrContext>,
    form: TextForm,
    options: ParseOptions,
    program: Program,
    values: values::ValueTable<'t>,
    /// Types by their text.
    type_cache: FxHashMap<&'t str, Type>,
    /// Attribute entries by op name and `name:value` text.
    entry_cache: FxHashMap<(Symbol, &'t str), dicts::ReadEntry>,
    /// Attribute names by op name and text.
    name_cache: FxHashMap<(Symbol, &'t str), dicts::NameInfo>,
    /// How many distinct entry texts each cached attribute name has had.
    name_misses: Vec<u32>,
    /// Attribute parsers by the address and length of their tag (the
    /// context's table, without its lock or hashing the tag's text).
    attr_parsers: FxHashMap<(usize, usize), Option<AttrParseFn>>,
    /// Buffers reused from op to op.
    scratch: Scratch<'t>,
    /// Quoted op names → symbols.
    op_names: FxHashMap<&'t str, Symbol>,
    /// Each op name's place in `op_slots`, by the symbol's index
    /// (`u32::MAX`: none yet).
    op_slot_of: Vec<u32>,
    /// What the parser keeps per op name.
    op_slots: Vec<ops::OpSlot>,
    /// Op signatures `(types) -> types` that end their line, by their text:
    /// the operand and result types' ranges in `sig_types`.
    sig_cache: FxHashMap<&'t str, (usize, usize, usize)>,
    /// The types of the cached signatures.
    sig_types: Vec<Type>,
    /// Nesting of type parsing (only outermost types are cached).
    type_depth: u32,
    /// Nesting of blocks, bounded so hostile input cannot overflow the stack.
    depth: u32,
}

/// Buffers the parser reuses from op to op instead of allocating.
#[derive(Default)]
struct Scratch<'t> {
    entries: Vec<dicts::Entry>,
    spans: Vec<dicts::Span>,
    pairs: Vec<(Symbol, Attribute)>,
    results: Vec<(&'t str, usize)>,
    operands: Vec<ops::Operand<'t>>,
    operand_types: Vec<Type>,
    result_types: Vec<Type>,
    values: Vec<Option<crate::program::ValueId>>,
}

/// How deeply blocks, types and attributes may nest.
const MAX_DEPTH: u32 = 200;

impl Program {
    /// Parses a program from text in either form (see [`crate::parser`]).
    pub fn parse(ctx: &Arc<IrContext>, text: &str) -> Result<Program, ParseError> {
        parse_text(ctx, text, &ParseOptions::default()).map(|p| p.program)
    }
}

/// Parses a text in either form, with its header.
pub fn parse_text(
    ctx: &Arc<IrContext>,
    text: &str,
    options: &ParseOptions,
) -> Result<ParsedText, ParseError> {
    let mut parser = Parser::new(ctx, text, options);
    let header = parser.parse_header()?;
    parser.parse_top_level()?;
    let form = parser.form;
    // The arenas keep their spare room (see `Program::shrink_to_fit`).
    let program = parser.program;
    Ok(ParsedText {
        program,
        form,
        header,
    })
}

/// Parses the value of attribute `attr_name` of an op `op_name` from its
/// text as Paddle prints it (`1`, `0.5`, `"relu"`, `[1,2]`, `float32`), its
/// kind taken from the op's definition as in a program text. The whole text
/// must be the value.
pub fn parse_attribute(
    ctx: &Arc<IrContext>,
    op_name: &str,
    attr_name: &str,
    text: &str,
) -> Result<Attribute, ParseError> {
    let mut parser = Parser::new(ctx, text, &ParseOptions::default());
    let info = ctx.op_info_named(op_name);
    let expect = dicts::attr_hint(ctx, info, attr_name);
    let attr = parser.parse_attr(expect)?;
    parser.cur.skip_ws();
    if parser.cur.peek().is_some() {
        return Err(parser.expected("the end of the attribute value"));
    }
    Ok(attr)
}

/// Parses a type from its text (`tensor<2x3xf32>`, either text form). The
/// whole text must be the type.
pub fn parse_type_text(ctx: &Arc<IrContext>, text: &str) -> Result<Type, ParseError> {
    let mut parser = Parser::new(ctx, text, &ParseOptions::default());
    let ty = parser.parse_type()?;
    parser.cur.skip_ws();
    if parser.cur.peek().is_some() {
        return Err(parser.expected("the end of the type"));
    }
    Ok(ty)
}

/// Whether `bytes` look like IR text rather than JSON: a typed header, or a
/// `{` not followed by a JSON key.
pub fn looks_like_text(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    loop {
        rest = trim_start(rest);
        if rest.starts_with(b"//") {
            rest = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(&[][..], |i| &rest[i..]);
            continue;
        }
        break;
    }
    if rest.starts_with(TYPED_HEADER.as_bytes()) {
        return true;
    }
    match rest.split_first() {
        Some((b'{', after)) => !trim_start(after).starts_with(b"\""),
        _ => false,
    }
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

impl<'t> Parser<'t> {
    fn new(ctx: &Arc<IrContext>, text: &'t str, options: &ParseOptions) -> Self {
        let approx_ops = text.len() / 200;
        // Most ops of a text bring a dictionary of their own, and many a
        // string (a parameter's name) too.
        ctx.reserve_interned(approx_ops / 2, approx_ops);
        Parser {
            cur: Cursor::new(text, StringEscapes::Paddle),
            ctx: ctx.clone(),
            form: TextForm::Paddle,
            options: options.clone(),
            program: Program::with_capacity(ctx.clone(), approx_ops),
            values: values::ValueTable::new(approx_ops * 3 / 2, text.len()),
            type_cache: FxHashMap::default(),
            entry_cache: FxHashMap::default(),
            name_cache: FxHashMap::default(),
            name_misses: Vec::new(),
            attr_parsers: FxHashMap::default(),
            scratch: Scratch::default(),
            op_names: FxHashMap::default(),
            op_slot_of: Vec::new(),
            op_slots: Vec::new(),
            sig_cache: FxHashMap::default(),
            sig_types: Vec::new(),
            type_depth: 0,
            depth: 0,
        }
    }

    /// The context.
    pub fn ctx(&self) -> &IrContext {
        &self.ctx
    }

    /// A shared handle to the context (for hooks that parse more while
    /// holding on to interned data).
    pub fn ctx_arc(&self) -> Arc<IrContext> {
        self.ctx.clone()
    }

    /// The form of the text being parsed.
    pub fn form(&self) -> TextForm {
        self.form
    }

    /// The program being built.
    pub fn program(&mut self) -> &mut Program {
        &mut self.program
    }

    /// An error at `offset` spanning `len` bytes.
    pub fn error_at(&self, offset: usize, len: usize, message: impl Into<String>) -> ParseError {
        self.cur.error_at(offset, len, message)
    }

    /// An error at the next token saying what was expected.
    pub fn expected(&mut self, what: &str) -> ParseError {
        self.cur.expected(what)
    }

    /// Counts one more level of nesting; a failure leaves the count as it was.
    fn enter(&mut self, what: &str) -> Result<(), ParseError> {
        if self.depth >= MAX_DEPTH {
            let pos = self.cur.pos();
            return Err(self.error_at(pos, 1, format!("{what} nested more than {MAX_DEPTH} deep")));
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Reads the `#pir-typed k=v ...` line, if any.
    fn parse_header(&mut self) -> Result<Vec<(String, String)>, ParseError> {
        let mut header = Vec::new();
        self.cur.skip_ws();
        let rest = self.cur.rest();
        let is_header = rest.starts_with(TYPED_HEADER)
            && matches!(
                rest.as_bytes().get(TYPED_HEADER.len()),
                None | Some(b' ' | b'\n' | b'\r')
            );
        if !is_header {
            return Ok(header);
        }
        self.form = TextForm::Typed;
        self.cur.set_escapes(StringEscapes::Full);
        let start = self.cur.pos() + TYPED_HEADER.len();
        let end = self.cur.src()[start..]
            .find('\n')
            .map_or(self.cur.src().len(), |i| start + i);
        let line = &self.cur.src()[start..end];
        let mut offset = start;
        for word in line.split(' ') {
            if !word.is_empty() {
                let Some((k, v)) = word.split_once('=') else {
                    return Err(self.error_at(
                        offset,
                        word.len(),
                        "expected `key=value` in the header",
                    ));
                };
                if header.iter().any(|(key, _)| key == k) {
                    return Err(self.error_at(
                        offset,
                        k.len(),
                        format!("`{k}` is given twice in the header"),
                    ));
                }
                header.push((k.to_owned(), v.to_owned()));
            }
            offset += word.len() + 1;
        }
        self.cur.set_pos(end);
        Ok(header)
    }

    fn parse_top_level(&mut self) -> Result<(), ParseError> {
        let top = self.program.top_block();
        self.cur.expect("{", "to open the program")?;
        self.parse_block_body(top, None)?;
        self.cur.expect("}", "to close the program")?;
        if self.cur.peek().is_some() {
            return Err(self.expected("the end of the text after the program's closing `}`"));
        }
        Ok(())
    }

    // ----------------------------------------------------------------- types

    /// Parses a type.
    pub fn parse_type(&mut self) -> Result<Type, ParseError> {
        let start = match self.cur.peek() {
            Some(b'<') if self.cur.eat("<<NULL TYPE>>") => return Ok(Type::NULL),
            _ => self.cur.pos(),
        };
        let outermost = self.type_depth == 0;
        let extent = if outermost {
            self.type_extent(start)
        } else {
            None
        };
        if let Some(end) = extent {
            if let Some(&ty) = self.type_cache.get(&self.cur.src()[start..end]) {
                self.cur.set_pos(end);
                return Ok(ty);
            }
        }
        let keyword = self
            .cur
            .ident()
            .ok_or_else(|| self.cur.expected("a type"))?;
        let Some(parse) = self.ctx.type_parser(keyword) else {
            return Err(self.error_at(start, keyword.len(), format!("unknown type `{keyword}`")));
        };
        self.enter("types")?;
        self.type_depth += 1;
        let result = parse(self, keyword, start);
        self.leave();
        self.type_depth -= 1;
        let ty = result?;
        if let Some(end) = extent.filter(|&e| e == self.cur.pos()) {
            self.type_cache.insert(&self.cur.src()[start..end], ty);
        }
        Ok(ty)
    }

    /// Where the type text starting at `start` ends: the first `,` `)` `]`
    /// `>` `{` `}` or white space outside brackets.
    fn type_extent(&self, start: usize) -> Option<usize> {
        let b = self.cur.src().as_bytes();
        let mut depth = 0u32;
        let mut i = start;
        while let Some(&c) = b.get(i) {
            match c {
                b'<' | b'[' | b'(' => depth += 1,
                b'>' | b']' | b')' if depth > 0 => depth -= 1,
                b'\n' => return (depth == 0).then_some(i),
                b'"' => {
                    i = self.cur.string_end(i)?;
                    continue;
                }
                b',' | b')' | b']' | b'>' | b'{' | b'}' | b' ' if depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        (depth == 0 && i > start).then_some(i)
    }

    /// Parses `2x3xf32`: dims each followed by `x`, then the element type
    /// (the inside of `tensor<...>`).
    pub fn parse_dims_and_dtype(&mut self) -> Result<(Vec<i64>, Type), ParseError> {
        let mut dims = Vec::new();
        loop {
            match self.cur.peek() {
                Some(b'-' | b'0'..=b'9') => {
                    dims.push(self.cur.int("a dimension")?);
                    if self.cur.peek_at(0) != Some(b'x') {
                        return Err(self.expected("`x` after a dimension"));
                    }
                    self.cur.set_pos(self.cur.pos() + 1);
                }
                _ => return Ok((dims, self.parse_type()?)),
            }
        }
    }

    /// Parses `open` item `,` item … `close` (possibly empty), each item with `item`;
    /// `what` names the items in errors.
    pub fn parse_list<T>(
        &mut self,
        open: &str,
        close: &str,
        what: &str,
        mut item: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        if !self.cur.eat(open) {
            return Err(self.expected(&format!("`{open}` to open a list of {what}")));
        }
        let mut items = Vec::new();
        if self.cur.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(item(self)?);
            if self.cur.eat(close) {
                return Ok(items);
            }
            if !self.cur.eat(",") {
                return Err(self.expected(&format!("`,` or `{close}` in a list of {what}")));
            }
        }
    }

    /// Parses `[1,-2,3]`.
    pub fn parse_int_list(&mut self) -> Result<Vec<i64>, ParseError> {
        self.parse_list("[", "]", "integers", |p| p.cur.int("an integer"))
    }

    // ------------------------------------------------------------ attributes

    /// Parses an attribute: `(Tag)value` in either form, otherwise the
    /// untagged value as the kind `expect` says (recognised by its shape
    /// when the expected kind does not fit).
    pub fn parse_attr(&mut self, expect: Expect) -> Result<Attribute, ParseError> {
        self.enter("attributes")?;
        let result = self.parse_attr_inner(expect);
        self.leave();
        result
    }

    fn parse_attr_inner(&mut self, expect: Expect) -> Result<Attribute, ParseError> {
        // In the typed form an untagged value shows its kind itself (`[…]` is
        // an array even where the op declares an int array).
        let expect = match self.form {
            TextForm::Typed => Expect::Any,
            TextForm::Paddle => expect,
        };
        let start = match self.cur.peek() {
            Some(b'(') => return self.parse_tagged_attr(),
            Some(_) => self.cur.pos(),
            None => return Err(self.expected("an attribute value")),
        };
        let expected = match expect {
            Expect::Any => return self.guess_attr(),
            Expect::Kind(tag) => match self.attr_parser(tag) {
                Some(parse) => parse(self, Expect::Any),
                None => return self.guess_attr(),
            },
            Expect::ArrayOf(element) => self.parse_array(element.map_or(Expect::Any, Expect::Kind)),
        };
        match expected {
            Ok(a) => Ok(a),
            Err(e) => {
                // The text may hold another kind than declared (hand-edited or
                // newer files): take it when its shape says what it is.
                let after_expected = self.cur.pos();
                self.cur.set_pos(start);
                match self.guess_attr() {
                    Ok(a) if self.cur.pos() >= after_expected => Ok(a),
                    _ => Err(e),
                }
            }
        }
    }

    /// The parser of the attribute kind tagged `tag`.
    fn attr_parser(&mut self, tag: &'static str) -> Option<AttrParseFn> {
        // Tags are constants: one text has one address (or a few, equal).
        let key = (tag.as_ptr() as usize, tag.len());
        if let Some(&parse) = self.attr_parsers.get(&key) {
            return parse;
        }
        let parse = self.ctx.attr_parser(tag);
        self.attr_parsers.insert(key, parse);
        parse
    }

    /// `(Tag)value`.
    fn parse_tagged_attr(&mut self) -> Result<Attribute, ParseError> {
        self.cur.expect("(", "")?;
        let start = self.cur.pos();
        let tag = self.cur.expect_ident("an attribute kind after `(`")?;
        let Some(parse) = self.ctx.attr_parser(tag) else {
            return Err(self.error_at(start, tag.len(), format!("unknown attribute kind `{tag}`")));
        };
        self.cur.expect(")", "after the attribute kind")?;
        parse(self, Expect::Any)
    }

    /// `[a,b,...]` with elements of kind `element`.
    pub fn parse_array(&mut self, element: Expect) -> Result<Attribute, ParseError> {
        let items = self.parse_list("[", "]", "attributes", |p| p.parse_attr(element))?;
        Ok(ArrayAttr::get(&self.ctx, &items))
    }

    /// Recognises an untagged attribute by its shape.
    fn guess_attr(&mut self) -> Result<Attribute, ParseError> {
        let start = self.cur.pos();
        match self.cur.peek() {
            Some(b'"') => {
                let s = self.cur.string()?;
                Ok(StrAttr::get(&self.ctx, &s))
            }
            Some(b'[') => self.parse_array(Expect::Any),
            Some(b'<') if self.cur.eat("<#AttrNull>") => Ok(self.ctx.intern_attr(NullAttr)),
            Some(b'<') => {
                let ty = self.parse_type()?;
                Ok(self.ctx.intern_attr(TypeAttr(ty)))
            }
            Some(b'-' | b'+' | b'0'..=b'9') => self.parse_number_attr(),
            Some(b'{') => match self.ctx.attr_keyword_parser("{") {
                Some(parse) => parse(self, Expect::Any),
                None => Err(self.expected("an attribute value")),
            },
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let word = self.cur.ident().unwrap_or_default();
                match word {
                    "true" | "false" => return Ok(self.ctx.intern_attr(BoolAttr(word == "true"))),
                    _ if word.eq_ignore_ascii_case("nan") || word.eq_ignore_ascii_case("inf") => {
                        self.cur.set_pos(start);
                        return self.parse_number_attr();
                    }
                    _ => {}
                }
                self.cur.set_pos(start);
                if let Some(parse) = self.ctx.attr_keyword_parser(word) {
                    return parse(self, Expect::Any);
                }
                if self.ctx.type_parser(word).is_some() {
                    let ty = self.parse_type()?;
                    return Ok(self.ctx.intern_attr(TypeAttr(ty)));
                }
                Err(self.error_at(
                    start,
                    word.len(),
                    format!("unknown attribute value `{word}`"),
                ))
            }
            _ => Err(self.expected("an attribute value")),
        }
    }

    /// An untagged number: an int32 (int64 when it does not fit) or a double.
    fn parse_number_attr(&mut self) -> Result<Attribute, ParseError> {
        let start = self.cur.pos();
        let text = self
            .cur
            .number_text()
            .ok_or_else(|| self.cur.expected("a number"))?;
        // `-0` only comes from a float: integers print without the sign.
        let is_float = text == "-0"
            || text
                .bytes()
                .any(|b| matches!(b, b'.' | b'e' | b'E' | b'n' | b'N' | b'i' | b'I'));
        if is_float {
            self.cur.set_pos(start);
            let v = self.parse_f64()?;
            return Ok(F64Attr::get(&self.ctx, v));
        }
        match text.parse::<i64>() {
            Ok(v) => Ok(match i32::try_from(v) {
                Ok(v) => self.ctx.intern_attr(I32Attr(v)),
                Err(_) => self.ctx.intern_attr(I64Attr(v)),
            }),
            Err(_) => {
                Err(self.error_at(start, text.len(), format!("integer `{text}` out of range")))
            }
        }
    }

    /// Reads a double: decimal, `inf`, `-inf`, `nan`, `-nan`, or the typed
    /// form's `nan:0x7ff8000000000001` for other NaN payloads.
    pub fn parse_f64(&mut self) -> Result<f64, ParseError> {
        let (text, bits) = self.float_text()?;
        match bits {
            Some(bits) => Ok(f64::from_bits(bits)),
            None => parse_float_text::<f64>(text)
                .filter(|v| !v.is_infinite() || is_infinity_text(text))
                .ok_or_else(|| self.bad_number(text)),
        }
    }

    /// Reads a float (as [`Parser::parse_f64`]), rounding the decimal to f32 once.
    pub fn parse_f32(&mut self) -> Result<f32, ParseError> {
        let (text, bits) = self.float_text()?;
        match bits {
            Some(bits) => u32::try_from(bits)
                .map(f32::from_bits)
                .map_err(|_| self.bad_number(text)),
            None => parse_float_text::<f32>(text)
                .filter(|v| !v.is_infinite() || is_infinity_text(text))
                .ok_or_else(|| self.bad_number(text)),
        }
    }

    /// A number that is malformed or out of the kind's range (`1e400`).
    fn bad_number(&self, text: &str) -> ParseError {
        let at = self.cur.pos() - text.len();
        self.error_at(
            at,
            text.len(),
            format!("bad or out-of-range number `{text}`"),
        )
    }

    fn float_text(&mut self) -> Result<(&'t str, Option<u64>), ParseError> {
        let start = self.cur.pos();
        let text = self
            .cur
            .number_text()
            .ok_or_else(|| self.cur.expected("a number"))?;
        let digits = text.trim_start_matches('-').len();
        if self.form == TextForm::Paddle
            && digits > 6
            && text.bytes().all(|b| b == b'-' || b.is_ascii_digit())
        {
            // C++'s `%g` prints at most 6 digits (`1e+06`): this was an integer.
            self.cur.set_pos(start);
            return Err(self.error_at(
                start,
                text.len(),
                format!("`{text}` is not a printed float"),
            ));
        }
        if text.ends_with("nan") && self.cur.peek_at(0) == Some(b':') {
            let start = self.cur.pos();
            let rest = &self.cur.src()[start + 1..];
            if let Some(hex) = rest.strip_prefix("0x") {
                let digits = hex.bytes().take_while(u8::is_ascii_hexdigit).count();
                if let Ok(bits) = u64::from_str_radix(&hex[..digits], 16) {
                    self.cur.set_pos(start + 3 + digits);
                    return Ok((text, Some(bits)));
                }
            }
            return Err(self.error_at(start, 1, "expected `:0x<bits>` after `nan`"));
        }
        Ok((text, None))
    }

    /// Reads a quoted string (escapes as the form prints them).
    pub fn parse_string(&mut self) -> Result<Cow<'t, str>, ParseError> {
        self.cur.string()
    }
}

/// Whether a number's text spells infinity (rather than overflowing to it).
fn is_infinity_text(text: &str) -> bool {
    text.trim_start_matches(['-', '+']).starts_with(['i', 'I'])
}

/// Parses a decimal or `nan`/`inf` text (either sign, any case).
fn parse_float_text<F: std::str::FromStr + std::ops::Neg<Output = F>>(text: &str) -> Option<F> {
    match text.strip_prefix('-') {
        // Rust's parser takes `-inf` but spells NaN's sign its own way.
        Some(rest) if rest.eq_ignore_ascii_case("nan") => rest.parse::<F>().ok().map(|v| -v),
        _ => text.strip_prefix('+').unwrap_or(text).parse::<F>().ok(),
    }
}
