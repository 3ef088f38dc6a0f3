//! Ops, blocks and regions: the generic op line
//! `(%r) = "name" (%a, %b) {attrs} : (types) -> types`, its regions, block
//! argument lines, and the pieces custom op parsers reuse.

use super::dicts::PrevDict;
use super::{OpHead, OpParseFn, ParseError, Parser, PrintedAttrsInterface};
use crate::attributes::AttrDict;
use crate::context::Symbol;
use crate::program::{BlockId, OpId, ValueId};
use crate::types::Type;

/// One parsed operand: the value (`None` for `<<NULL VALUE>>`) and where it
/// was written.
#[derive(Copy, Clone, Debug)]
pub struct Operand<'t> {
    /// The value.
    pub value: Option<ValueId>,
    /// Offset of the operand text.
    pub offset: usize,
    /// The value name without `%` (empty for a null operand).
    pub name: &'t str,
}

/// What the parser keeps per op name: the parts of its registration the
/// parser uses, copied out once (not looked up per op), and the last
/// attribute dictionary read for the name.
pub(super) struct OpSlot {
    /// Whether the op is registered.
    pub(super) registered: bool,
    /// [`crate::OpInfo::parse`].
    pub(super) parse: Option<OpParseFn>,
    /// [`crate::OpInfo::num_regions`].
    pub(super) num_regions: Option<u32>,
    /// The op's [`PrintedAttrsInterface`].
    pub(super) restore: Option<PrintedAttrsInterface>,
    /// The last attribute dictionary read for the name.
    pub(super) prev: PrevDict,
}

/// How the blocks after a generic op are distributed over its regions.
enum RegionLayout {
    /// Blocks per region, as the typed form's `regions:[n, ...]` says.
    Explicit(Vec<usize>),
    /// Counted from the text: `blocks` blocks follow.
    Counted { blocks: usize },
}

impl<'t> Parser<'t> {
    /// Parses `{` block `}` into `block`; arguments printed without a type get
    /// the type of `arg_types` at their position (tentatively), else null.
    pub fn parse_block(
        &mut self,
        block: BlockId,
        arg_types: Option<&[Type]>,
    ) -> Result<(), ParseError> {
        self.cur.expect("{", "to open a block")?;
        self.parse_block_body(block, arg_types)?;
        self.cur.expect("}", "to close the block")
    }

    /// Parses a block's argument lines and ops, up to (not including) its `}`.
    pub fn parse_block_body(
        &mut self,
        block: BlockId,
        arg_types: Option<&[Type]>,
    ) -> Result<(), ParseError> {
        self.enter("blocks")?;
        self.values.push_scope();
        if self.cur.peek() == Some(b'^') && !self.cur.rest().starts_with("^kw:") {
            self.cur.expect("^", "")?;
            self.parse_block_args(block, arg_types)?;
        }
        if self.cur.eat("^kw:") {
            while self.cur.peek() == Some(b'%') {
                let (name, offset) = self.value_def_name()?;
                let key = kwarg_key(name);
                let key = self.ctx.symbol(key);
                self.skip_arg_attrs()?;
                let (ty, tentative) = self.optional_arg_type(None)?;
                let v = self.program.add_block_kwarg(block, key, ty);
                if tentative {
                    self.values.mark_tentative(v);
                }
                self.values.define(name, offset, v, &self.cur)?;
            }
        }
        loop {
            match self.cur.peek() {
                Some(b'}') => break,
                Some(b'(') => {
                    let op = self.parse_op()?;
                    self.program.append_op(block, op);
                }
                _ => return Err(self.expected("an op `(%…) = \"name\" …` or `}`")),
            }
        }
        self.values.pop_scope();
        self.leave();
        Ok(())
    }

    /// Parses the arguments after a block's `^`: `%arg_0 {}, %arg_1 {}` (Paddle)
    /// or `%arg_0 : type, ...` (typed).
    pub fn parse_block_args(
        &mut self,
        block: BlockId,
        arg_types: Option<&[Type]>,
    ) -> Result<(), ParseError> {
        let mut index = 0usize;
        while self.cur.peek() == Some(b'%') {
            let (name, offset) = self.value_def_name()?;
            self.skip_arg_attrs()?;
            let fallback = arg_types.and_then(|t| t.get(index)).copied();
            let (ty, tentative) = self.optional_arg_type(fallback)?;
            let v = self.program.add_block_arg(block, ty);
            if tentative {
                self.values.mark_tentative(v);
            }
            self.values.define(name, offset, v, &self.cur)?;
            index += 1;
            if !self.cur.eat(",") {
                break;
            }
        }
        Ok(())
    }

    fn value_def_name(&mut self) -> Result<(&'t str, usize), ParseError> {
        self.cur
            .value_name()
            .ok_or_else(|| self.cur.expected("a value name `%name`"))
    }

    /// Block-argument attributes (`{}`; they are not kept, as in Paddle's files).
    fn skip_arg_attrs(&mut self) -> Result<(), ParseError> {
        if self.cur.peek() == Some(b'{') {
            let start = self.cur.pos();
            let end = self
                .cur
                .balanced_end(start)
                .ok_or_else(|| self.error_at(start, 1, "unclosed `{` of argument attributes"))?;
            self.cur.set_pos(end);
        }
        Ok(())
    }

    /// `: type` after an argument, or the fallback (tentative) type.
    fn optional_arg_type(&mut self, fallback: Option<Type>) -> Result<(Type, bool), ParseError> {
        if self.cur.eat(":") {
            Ok((self.parse_type()?, false))
        } else {
            Ok((fallback.unwrap_or(Type::NULL), true))
        }
    }

    fn parse_op(&mut self) -> Result<OpId, ParseError> {
        self.cur.skip_ws();
        let start = self.cur.pos();
        self.cur.expect("(", "to open the op's results")?;
        let mut results = std::mem::take(&mut self.scratch.results);
        results.clear();
        if !self.cur.eat(")") {
            loop {
                results.push(self.value_def_name()?);
                if self.cur.eat(")") {
                    break;
                }
                self.cur.expect(",", "or `)` in the result list")?;
            }
        }
        self.cur.expect("=", "after the op's results")?;
        self.cur.skip_ws();
        let name_offset = self.cur.pos();
        let name = self.op_name()?;
        if self.cur.eat("[id:") {
            self.cur.uint("an op id")?;
            self.cur.expect("]", "after the op id")?;
        }
        let slot = self.op_slot(name);
        let (registered, parse) = (self.op_slots[slot].registered, self.op_slots[slot].parse);
        if !registered && self.options.strict {
            let text = self.ctx.symbol_str(name);
            return Err(self.error_at(name_offset, text.len() + 2, format!("unknown op `{text}`")));
        }
        let head = OpHead {
            results,
            name,
            start,
            name_offset,
        };
        let op = match parse {
            Some(parse) => parse(self, &head),
            None => self.parse_generic_op(&head),
        };
        self.scratch.results = head.results;
        op
    }

    /// The index in `op_slots` of op name `op`, its slot made on first use.
    pub(super) fn op_slot(&mut self, op: Symbol) -> usize {
        let i = op.index();
        match self.op_slot_of.get(i) {
            Some(&slot) if slot != u32::MAX => slot as usize,
            _ => {
                let info = self.ctx.op_info(op);
                let slot = OpSlot {
                    registered: info.is_some(),
                    parse: info.and_then(|i| i.parse),
                    num_regions: info.and_then(|i| i.num_regions),
                    restore: info.and_then(|i| i.interface::<PrintedAttrsInterface>().copied()),
                    prev: PrevDict::default(),
                };
                if self.op_slot_of.len() <= i {
                    self.op_slot_of.resize(i + 1, u32::MAX);
                }
                let index = self.op_slots.len();
                // Fewer slots than symbols, whose indices are `u32`.
                self.op_slot_of[i] = u32::try_from(index).unwrap_or(u32::MAX);
                self.op_slots.push(slot);
                index
            }
        }
    }

    fn op_name(&mut self) -> Result<Symbol, ParseError> {
        let start = self.cur.pos();
        if self.cur.peek() != Some(b'"') {
            return Err(self.expected("a quoted op name"));
        }
        let end = self
            .cur
            .string_end(start)
            .ok_or_else(|| self.error_at(start, 1, "unterminated op name"))?;
        let raw = &self.cur.src()[start + 1..end - 1];
        if let Some(&s) = self.op_names.get(raw) {
            self.cur.set_pos(end);
            return Ok(s);
        }
        // Escapes are read as the form writes them (the typed form escapes names).
        let text = self.cur.string()?;
        if text.is_empty() {
            return Err(self.error_at(start, 2, "empty op name"));
        }
        let s = self.ctx.symbol(&text);
        self.op_names.insert(raw, s);
        Ok(s)
    }

    /// Parses the generic form after `(%r) = "name"`:
    /// `(operands) {attrs} : (types) -> types`, then the op's blocks. Custom
    /// op parsers fall back to it for ops printed generically.
    pub fn parse_generic_op(&mut self, head: &OpHead<'t>) -> Result<OpId, ParseError> {
        let mut operands = std::mem::take(&mut self.scratch.operands);
        let mut operand_types = std::mem::take(&mut self.scratch.operand_types);
        let mut result_types = std::mem::take(&mut self.scratch.result_types);
        let mut values = std::mem::take(&mut self.scratch.values);
        let op = self.parse_generic_op_with(
            head,
            &mut operands,
            &mut operand_types,
            &mut result_types,
            &mut values,
        );
        self.scratch.operands = operands;
        self.scratch.operand_types = operand_types;
        self.scratch.result_types = result_types;
        self.scratch.values = values;
        op
    }

    fn parse_generic_op_with(
        &mut self,
        head: &OpHead<'t>,
        operands: &mut Vec<Operand<'t>>,
        operand_types: &mut Vec<Type>,
        result_types: &mut Vec<Type>,
        values: &mut Vec<Option<ValueId>>,
    ) -> Result<OpId, ParseError> {
        self.cur.expect("(", "to open the operand list")?;
        self.parse_operands_into(")", operands)?;
        let attrs = self.parse_attr_dict(head.name)?;
        self.cur.expect(":", "before the op's signature")?;
        self.cur.skip_ws();
        let sig = self.cur.pos();
        self.parse_signature(sig, operand_types, result_types)?;
        self.check_operand_types(operands, operand_types, sig)?;
        let slot = self.op_slot(head.name);
        let fixed = self.op_slots[slot].num_regions;
        let per_region: Vec<usize> = match self.region_layout()? {
            RegionLayout::Explicit(counts) => counts,
            RegionLayout::Counted { blocks: 0 } => match fixed {
                Some(n) => vec![0; n as usize],
                None => Vec::new(),
            },
            RegionLayout::Counted { blocks } => match fixed {
                Some(n) if n as usize == blocks => vec![1; blocks],
                Some(1) => vec![blocks],
                Some(n) => {
                    let name = self.ctx.symbol_str(head.name);
                    return Err(self.error_at(
                        head.name_offset,
                        name.len() + 2,
                        format!("`{name}` has {n} regions but {blocks} blocks follow it"),
                    ));
                }
                None => vec![1; blocks],
            },
        };
        if let Err(e) = crate::program::check_op_shape(0, per_region.len()) {
            return Err(self.error_at(head.start, 1, e.to_string()));
        }
        values.clear();
        values.extend(operands.iter().map(|o| o.value));
        let op = self.create_op(head, values, result_types, attrs, per_region.len())?;
        for (r, &blocks) in per_region.iter().enumerate() {
            let region = self.program.op_region(op, r);
            for _ in 0..blocks {
                let block = self.program.add_block(region);
                self.parse_block(block, None)?;
            }
        }
        Ok(op)
    }

    /// Parses `(types) -> types` at `sig`. Signatures repeat from op to op:
    /// one that ends its line is cached by its text.
    fn parse_signature(
        &mut self,
        sig: usize,
        operand_types: &mut Vec<Type>,
        result_types: &mut Vec<Type>,
    ) -> Result<(), ParseError> {
        let src = self.cur.src();
        let line_end = memchr::memchr(b'\n', &src.as_bytes()[sig..]).map(|i| sig + i);
        if let Some(end) = line_end {
            if let Some(&(from, mid, to)) = self.sig_cache.get(&src[sig..end]) {
                operand_types.clear();
                operand_types.extend_from_slice(&self.sig_types[from..mid]);
                result_types.clear();
                result_types.extend_from_slice(&self.sig_types[mid..to]);
                self.cur.set_pos(end);
                return Ok(());
            }
        }
        self.cur.expect("(", "to open the operand types")?;
        self.parse_type_list_into(operand_types)?;
        self.cur.expect(")", "to close the operand types")?;
        self.cur.expect("->", "before the result types")?;
        self.parse_type_list_into(result_types)?;
        // The result types end the line when the cursor stopped after the
        // newline with only white space between (`eat(",")` skipped it).
        let pos = self.cur.pos();
        let ends_line = |&end: &usize| {
            end <= pos
                && src.as_bytes()[end..pos]
                    .iter()
                    .all(|&b| matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
        };
        if let Some(end) = line_end.filter(ends_line) {
            let from = self.sig_types.len();
            self.sig_types.extend_from_slice(operand_types);
            let mid = self.sig_types.len();
            self.sig_types.extend_from_slice(result_types);
            let to = self.sig_types.len();
            self.sig_cache.insert(&src[sig..end], (from, mid, to));
        }
        Ok(())
    }

    /// `regions:[1,0]` (typed form), or the number of `{` blocks that follow.
    fn region_layout(&mut self) -> Result<RegionLayout, ParseError> {
        // Most ops have no regions: the next line starts with `(` or `}`.
        if !matches!(self.cur.peek(), Some(b'{' | b'r')) {
            return Ok(RegionLayout::Counted { blocks: 0 });
        }
        if self.cur.eat_keyword("regions") {
            self.cur.expect(":", "after `regions`")?;
            let counts = self.parse_int_list()?;
            let counts = counts
                .into_iter()
                .map(|n| usize::try_from(n).map_err(|_| self.expected("block counts ≥ 0")))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(RegionLayout::Explicit(counts));
        }
        let b = self.cur.src().as_bytes();
        let mut i = self.cur.pos();
        let mut blocks = 0;
        loop {
            while b.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            if b.get(i) != Some(&b'{') {
                return Ok(RegionLayout::Counted { blocks });
            }
            match self.block_end(i) {
                Some(end) => i = end,
                None => return Err(self.error_at(i, 1, "unclosed block")),
            }
            blocks += 1;
        }
    }

    /// The offset after the `}` matching the `{` at `start`, across lines.
    fn block_end(&self, start: usize) -> Option<usize> {
        let b = self.cur.src().as_bytes();
        let mut depth = 0usize;
        let mut i = start;
        while let Some(&c) = b.get(i) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                b'"' => {
                    i = self.cur.string_end(i)?;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// Parses operands `%a, <<NULL VALUE>>, %b` up to and including `close`.
    pub fn parse_operands_until(&mut self, close: &str) -> Result<Vec<Operand<'t>>, ParseError> {
        let mut operands = Vec::new();
        self.parse_operands_into(close, &mut operands)?;
        Ok(operands)
    }

    fn parse_operands_into(
        &mut self,
        close: &str,
        operands: &mut Vec<Operand<'t>>,
    ) -> Result<(), ParseError> {
        operands.clear();
        if self.cur.eat(close) {
            return Ok(());
        }
        loop {
            operands.push(self.parse_operand()?);
            if self.cur.eat(close) {
                return Ok(());
            }
            if !self.cur.eat(",") {
                return Err(self.expected(&format!("`,` or `{close}` between operands")));
            }
        }
    }

    /// Parses one operand: `%name` (which must be defined) or `<<NULL VALUE>>`.
    pub fn parse_operand(&mut self) -> Result<Operand<'t>, ParseError> {
        let next = self.cur.peek();
        let offset = self.cur.pos();
        if next == Some(b'<') && self.cur.eat("<<NULL VALUE>>") {
            return Ok(Operand {
                value: None,
                offset,
                name: "",
            });
        }
        let (name, offset) = self
            .cur
            .value_name()
            .ok_or_else(|| self.cur.expected("an operand `%name` or `<<NULL VALUE>>`"))?;
        let value = self.values.lookup(name, offset, &self.cur)?;
        Ok(Operand {
            value: Some(value),
            offset,
            name,
        })
    }

    /// Parses zero or more types separated by `,`.
    pub fn parse_type_list(&mut self) -> Result<Vec<Type>, ParseError> {
        let mut types = Vec::new();
        self.parse_type_list_into(&mut types)?;
        Ok(types)
    }

    fn parse_type_list_into(&mut self, types: &mut Vec<Type>) -> Result<(), ParseError> {
        types.clear();
        loop {
            match self.cur.peek() {
                // The typed form's region layout follows the result types.
                Some(b'r') if self.cur.rest().starts_with("regions:") => return Ok(()),
                Some(c) if c.is_ascii_alphabetic() || c == b'_' => {}
                Some(b'<') if self.cur.rest().starts_with("<<NULL TYPE>>") => {}
                _ => return Ok(()),
            }
            types.push(self.parse_type()?);
            if !self.cur.eat(",") {
                return Ok(());
            }
        }
    }

    /// Checks the signature's operand types against the operands' values
    /// (fixing tentative types); `sig` is the signature's offset.
    pub fn check_operand_types(
        &mut self,
        operands: &[Operand<'t>],
        types: &[Type],
        sig: usize,
    ) -> Result<(), ParseError> {
        if operands.len() != types.len() {
            return Err(self.error_at(
                sig,
                1,
                format!(
                    "the signature lists {} operand type(s) for {} operand(s)",
                    types.len(),
                    operands.len()
                ),
            ));
        }
        for (operand, &ty) in operands.iter().zip(types) {
            match operand.value {
                Some(v) => self.values.check_use(
                    &mut self.program,
                    v,
                    ty,
                    operand.name,
                    operand.offset,
                    &self.cur,
                )?,
                None if ty.is_null() => {}
                None => {
                    return Err(self.error_at(
                        operand.offset,
                        14,
                        "an absent operand must have the type `<<NULL TYPE>>` in the signature",
                    ))
                }
            }
        }
        Ok(())
    }

    /// Creates an op for `head` and binds its result names.
    pub fn create_op(
        &mut self,
        head: &OpHead<'t>,
        operands: &[Option<ValueId>],
        result_types: &[Type],
        attrs: AttrDict,
        num_regions: usize,
    ) -> Result<OpId, ParseError> {
        if head.results.len() != result_types.len() {
            return Err(self.error_at(
                head.start,
                1,
                format!(
                    "{} result name(s) for {} result type(s)",
                    head.results.len(),
                    result_types.len()
                ),
            ));
        }
        if let Err(e) = crate::program::check_op_shape(result_types.len(), 0) {
            return Err(self.error_at(head.start, 1, e.to_string()));
        }
        let op = self
            .program
            .create_op(head.name, operands, result_types, attrs, num_regions);
        for (i, &(name, offset)) in head.results.iter().enumerate() {
            let v = self.program.result(op, i);
            self.values.define(name, offset, v, &self.cur)?;
        }
        Ok(op)
    }

    /// Marks `v`'s type as a guess that its first typed use replaces.
    pub fn mark_tentative(&mut self, v: ValueId) {
        self.values.mark_tentative(v);
    }
}

/// The key of a keyword argument named `kwarg_<key>` (the typed form adds
/// `$N` to repeated names).
fn kwarg_key(name: &str) -> &str {
    let key = name.strip_prefix("kwarg_").unwrap_or(name);
    match key.rsplit_once('$') {
        Some((key, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => key,
        _ => key,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::{IrContext, Program};

    /// A signature ending its line is cached; the same text elsewhere (with
    /// trailing text, or a result type mismatch) is still checked.
    #[test]
    fn cached_signatures_still_check_operands() {
        let ctx = Arc::new(IrContext::new());
        let good = "{\n    (%0) = \"test.a\" () {} : () -> tensor<2xf32>\n    \
                    (%1) = \"test.b\" (%0) {} : (tensor<2xf32>) -> tensor<2xf32>\n    \
                    (%2) = \"test.b\" (%1) {} : (tensor<2xf32>) -> tensor<2xf32>\n}\n";
        let program = Program::parse(&ctx, good).unwrap();
        assert_eq!(program.to_string(), good);
        let bad = good.replace("(%2) = \"test.b\" (%1)", "(%2) = \"test.b\" (%1, %0)");
        let err = Program::parse(&ctx, &bad).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(
            err.message.contains("1 operand type(s) for 2 operand(s)"),
            "{}",
            err.message
        );
    }
}
