//! Attribute dictionaries `{name:value,...}`: their entries, read through
//! caches of entry texts and compared in place with the previous dictionary
//! of the same op name, and the kinds attribute names give their values.

use std::any::TypeId;

use super::{Expect, ParseError, Parser, TextForm};
use crate::attributes::{AttrDict, Attribute};
use crate::builtin::{F32Attr, F64Attr};
use crate::context::Symbol;
use crate::op_info::OpInfo;
use crate::parser::AttrHintInterface;

/// One attribute of a dictionary being read, with its place in the op's
/// declared attribute order (`u32::MAX` for the others).
#[derive(Copy, Clone, Debug)]
pub(super) struct Entry {
    name: Symbol,
    attr: Attribute,
    rank: u32,
    /// Whether the value is a float (what Paddle's print may have shortened).
    float: bool,
}

/// An entry as read: the attribute, what is known of its name, and where
/// its value starts (bytes after the entry's start).
#[derive(Copy, Clone, Debug)]
pub(super) struct ReadEntry {
    entry: Entry,
    known: NameInfo,
    value_at: usize,
}

/// Where an entry of an attribute dictionary was written (`len` 0: its text
/// is not to be matched whole), and what it read as.
#[derive(Copy, Clone, Debug)]
pub(super) struct Span {
    start: usize,
    len: usize,
    read: ReadEntry,
}

/// The previous attribute dictionary read for an op name.
#[derive(Default)]
pub(super) struct PrevDict {
    pub(super) spans: Vec<Span>,
    pub(super) dict: Option<AttrDict>,
}

/// What the parser knows of an attribute name on an op: its symbol, the kind
/// its value is expected to have, and its place in the declared order.
#[derive(Copy, Clone, Debug)]
pub(super) struct NameInfo {
    name: Symbol,
    expect: Expect,
    rank: u32,
    /// Its counter in `Parser::name_misses`.
    slot: u32,
}

/// After this many distinct texts of one attribute of one op name
/// (`parameter_name:"…"`), its entries are no longer cached: they do not repeat.
const MAX_DISTINCT_ENTRIES: u32 = 64;

impl<'t> Parser<'t> {
    // -------------------------------------------------------- attribute dicts

    /// Parses `{name:value,...}` for an op named `op`.
    pub fn parse_attr_dict(&mut self, op: Symbol) -> Result<AttrDict, ParseError> {
        self.cur.expect("{", "to open the attribute dictionary")?;
        let mut entries = std::mem::take(&mut self.scratch.entries);
        let mut spans = std::mem::take(&mut self.scratch.spans);
        entries.clear();
        spans.clear();
        // The previous dictionary of an op of this name: its entries are
        // compared to the text in place (most ops repeat most of them).
        let slot = self.op_slot(op);
        let PrevDict {
            spans: prev_spans,
            dict: prev_dict,
        } = std::mem::take(&mut self.op_slots[slot].prev);
        let parsed = self.parse_entries(op, &prev_spans, &mut entries, &mut spans);
        let dict = parsed.map(|same| match prev_dict {
            // The same entries as the previous op's give the same dictionary.
            Some(dict) if same => dict,
            _ => self.finish_dict(op, slot, &mut entries),
        });
        let keep = match dict {
            Ok(dict) => PrevDict {
                spans: std::mem::replace(&mut spans, prev_spans),
                dict: Some(dict),
            },
            Err(_) => PrevDict {
                spans: prev_spans,
                dict: prev_dict,
            },
        };
        self.op_slots[slot].prev = keep;
        self.scratch.entries = entries;
        self.scratch.spans = spans;
        dict
    }

    /// Orders the entries of a dictionary read from Paddle's print, restores
    /// what its print shortened and interns it.
    fn finish_dict(&mut self, op: Symbol, slot: usize, entries: &mut [Entry]) -> AttrDict {
        if self.form == TextForm::Paddle && !entries.is_sorted_by_key(|e| e.rank) {
            // Paddle prints attributes sorted by name; files list an op's
            // declared attributes first, in definition order (stable sort:
            // the rest keeps the printed order).
            entries.sort_by_key(|e| e.rank);
        }
        let mut pairs = std::mem::take(&mut self.scratch.pairs);
        pairs.clear();
        pairs.extend(entries.iter().map(|e| (e.name, e.attr)));
        // Only floats are shortened: most dictionaries have none.
        if self.form == TextForm::Paddle && entries.iter().any(|e| e.float) {
            if let (Some(restore), Some(info)) = (self.op_slots[slot].restore, self.ctx.op_info(op))
            {
                (restore.0)(&self.ctx, info, &mut pairs);
            }
        }
        let dict = self.ctx.dict(&pairs);
        self.scratch.pairs = pairs;
        dict
    }

    /// Reads `name:value` entries up to the closing `}`, recording in `spans`
    /// where each was written. Entries repeat across ops
    /// (`stop_gradient:[false]`, `struct_name:"/Linear/"`), so each distinct
    /// text is parsed once per op name; an entry written as the previous op
    /// of the name wrote it at the same place (`prev`) is taken from there
    /// without a lookup. Returns whether every entry was so (the same
    /// dictionary as the previous op's).
    fn parse_entries(
        &mut self,
        op: Symbol,
        prev: &[Span],
        entries: &mut Vec<Entry>,
        spans: &mut Vec<Span>,
    ) -> Result<bool, ParseError> {
        if self.cur.eat("}") {
            return Ok(prev.is_empty());
        }
        let b = self.cur.src().as_bytes();
        let mut same = true;
        // A bit per name read (by its index modulo 64): the entries are
        // searched for a name given twice only when its bit was set.
        let mut seen = 0u64;
        let mut given_twice = |entries: &[Entry], name: Symbol| {
            let bit = 1u64 << (name.index() % 64);
            let maybe = seen & bit != 0;
            seen |= bit;
            maybe && entries.iter().any(|e| e.name == name)
        };
        loop {
            self.cur.skip_ws();
            let start = self.cur.pos();
            // A run of the previous op's entries written the same way, one
            // after the other: compared at once and taken whole.
            let from = entries.len().min(prev.len());
            let (count, taken) = matching_run(b, start, &prev[from..]);
            if count > 0 {
                let base = prev[from].start;
                for p in &prev[from..from + count] {
                    let at = start + (p.start - base);
                    if given_twice(entries, p.read.entry.name) {
                        return Err(self.twice(p.read.entry.name, at));
                    }
                    entries.push(p.read.entry);
                    spans.push(Span { start: at, ..*p });
                }
                self.cur.set_pos(start + taken);
                // The run takes the `,` or `}` after its last entry.
                if b[start + taken - 1] == b'}' {
                    return Ok(same && entries.len() == prev.len());
                }
                continue;
            }
            let at_prev = prev.get(entries.len());
            let repeated = at_prev.filter(|p| {
                let (from, len) = (p.start, p.len);
                len > 0
                    && b.get(start..start + len) == Some(&b[from..from + len])
                    && matches!(b.get(start + len), Some(b',' | b'}'))
            });
            let (read, clean) = match repeated {
                Some(p) => {
                    self.cur.set_pos(start + p.len);
                    (p.read, true)
                }
                None => {
                    same = false;
                    // The same `name:` as the previous op's entry here: what
                    // the name is is known.
                    let hint = at_prev.filter(|p| {
                        let (from, len) = (p.start, p.read.value_at);
                        b.get(start..start + len) == Some(&b[from..from + len])
                    });
                    self.parse_entry(op, start, hint.map(|p| p.read))?
                }
            };
            let entry = read.entry;
            if given_twice(entries, entry.name) {
                return Err(self.twice(entry.name, start));
            }
            entries.push(entry);
            let end = self.cur.pos();
            spans.push(Span {
                start,
                // A span whose text is not the whole entry is never matched.
                len: if clean { end - start } else { 0 },
                read,
            });
            if self.cur.eat("}") {
                return Ok(same && entries.len() == prev.len());
            }
            self.cur.expect(",", "or `}` between attributes")?;
        }
    }

    /// The error of an attribute given twice, the second time at `start`.
    #[cold]
    fn twice(&self, name: Symbol, start: usize) -> ParseError {
        let name = self.ctx.symbol_str(name);
        self.error_at(
            start,
            name.len(),
            format!("attribute `{name}` is given twice"),
        )
    }

    /// Reads one `name:value` entry at `start` (through the cache of entry
    /// texts, unless its name's values do not repeat); `hint` is an entry
    /// of the same name. Also says whether the entry's text ends where its
    /// value does (at a `,` or `}`).
    fn parse_entry(
        &mut self,
        op: Symbol,
        start: usize,
        hint: Option<ReadEntry>,
    ) -> Result<(ReadEntry, bool), ParseError> {
        let distinct = hint.is_some_and(|h| {
            self.name_misses
                .get(h.known.slot as usize)
                .is_some_and(|&m| m > MAX_DISTINCT_ENTRIES)
        });
        let extent = if distinct {
            None
        } else {
            self.entry_extent(start)
        };
        if let Some(end) = extent {
            if let Some(e) = self.entry_cache.get(&(op, &self.cur.src()[start..end])) {
                let e = *e;
                self.cur.set_pos(end);
                return Ok((e, true));
            }
        }
        let known = match hint {
            Some(h) => {
                self.cur.set_pos(start + h.value_at);
                h.known
            }
            None => self.attr_name_info(op)?,
        };
        let value_at = self.cur.pos() - start;
        let attr = self.parse_attr(known.expect)?;
        let read = ReadEntry {
            entry: Entry {
                name: known.name,
                attr,
                rank: known.rank,
                float: is_float(&self.ctx, attr),
            },
            known,
            value_at,
        };
        let end = self.cur.pos();
        let clean = extent == Some(end);
        let misses = self.name_misses.get_mut(known.slot as usize);
        let repeats = misses.is_some_and(|m| {
            *m = m.saturating_add(1);
            *m <= MAX_DISTINCT_ENTRIES
        });
        if clean && repeats {
            self.entry_cache
                .insert((op, &self.cur.src()[start..end]), read);
        }
        Ok((read, clean))
    }

    /// Reads `name:` of an entry and what is known of the name on `op`.
    fn attr_name_info(&mut self, op: Symbol) -> Result<NameInfo, ParseError> {
        let name = self.attr_name()?;
        self.cur.expect(":", "after attribute name")?;
        if let std::borrow::Cow::Borrowed(text) = name {
            if let Some(&known) = self.name_cache.get(&(op, text)) {
                return Ok(known);
            }
        }
        let ctx = self.ctx.clone();
        let info = ctx.op_info(op);
        let known = NameInfo {
            name: ctx.symbol(&name),
            expect: attr_hint(&ctx, info, &name),
            rank: info
                .and_then(|i| i.attribute_names.iter().position(|&d| d == name))
                .map_or(u32::MAX, |r| r as u32),
            slot: u32::MAX,
        };
        Ok(match name {
            std::borrow::Cow::Borrowed(text) => {
                let slot = u32::try_from(self.name_misses.len()).unwrap_or(u32::MAX);
                self.name_misses.push(0);
                let known = NameInfo { slot, ..known };
                self.name_cache.insert((op, text), known);
                known
            }
            std::borrow::Cow::Owned(_) => known,
        })
    }

    /// Where the entry starting at `start` ends: the `,` or `}` after it
    /// outside brackets and strings (`None` past the line's end).
    fn entry_extent(&self, start: usize) -> Option<usize> {
        /// Bytes the scan must look at; all others are skipped in a tight loop.
        const SPECIAL: [bool; 256] = {
            let mut t = [false; 256];
            let mut i = 0;
            let bytes = b"[]{}()<>,\"\n";
            while i < bytes.len() {
                t[bytes[i] as usize] = true;
                i += 1;
            }
            t
        };
        let b = self.cur.src().as_bytes();
        let mut depth = 0u32;
        let mut i = start;
        loop {
            while !SPECIAL[*b.get(i)? as usize] {
                i += 1;
            }
            match b[i] {
                b'[' | b'{' | b'(' | b'<' => depth += 1,
                b']' | b')' | b'>' => depth = depth.checked_sub(1)?,
                b'}' if depth == 0 => return Some(i),
                b'}' => depth -= 1,
                b',' if depth == 0 => return Some(i),
                b'"' => {
                    i = self.cur.string_end(i)?;
                    continue;
                }
                b'\n' => return None,
                _ => {}
            }
            i += 1;
        }
    }

    /// An attribute name: a quoted string, or the text up to `:`.
    fn attr_name(&mut self) -> Result<std::borrow::Cow<'t, str>, ParseError> {
        if self.cur.peek() == Some(b'"') {
            return self.cur.string();
        }
        let start = self.cur.pos();
        let len = self
            .cur
            .rest()
            .bytes()
            .take_while(|b| {
                !matches!(b, b':' | b',' | b'{' | b'}' | b'[' | b']') && !b.is_ascii_whitespace()
            })
            .count();
        if len == 0 {
            return Err(self.expected("an attribute name"));
        }
        self.cur.set_pos(start + len);
        Ok(std::borrow::Cow::Borrowed(
            &self.cur.src()[start..start + len],
        ))
    }
}

/// How many of the entries `prev` (written one after the other, each
/// followed by its `,` or `}`) the text at `start` repeats, with the bytes
/// they take there (separators included).
fn matching_run(b: &[u8], start: usize, prev: &[Span]) -> (usize, usize) {
    let Some(base) = prev.first().map(|p| p.start) else {
        return (0, 0);
    };
    // The stretch of contiguous, wholly matchable entries.
    let mut extent = 0;
    let mut contiguous = 0;
    for p in prev {
        if p.len == 0 || p.start != base + extent {
            break;
        }
        extent += p.len + 1;
        contiguous += 1;
    }
    if contiguous == 0 {
        return (0, 0);
    }
    let (Some(text), Some(was)) = (b.get(start..), b.get(base..base + extent)) else {
        return (0, 0);
    };
    let common = common_prefix(text, was);
    let mut taken = 0;
    let mut count = 0;
    for p in &prev[..contiguous] {
        if taken + p.len + 1 > common {
            break;
        }
        taken += p.len + 1;
        count += 1;
    }
    (count, taken)
}

/// The length of the common prefix of `a` and `b`, sixteen bytes at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut i = 0;
    for (x, y) in a.chunks_exact(16).zip(b.chunks_exact(16)) {
        let x = u128::from_le_bytes(<[u8; 16]>::try_from(x).unwrap_or_default());
        let y = u128::from_le_bytes(<[u8; 16]>::try_from(y).unwrap_or_default());
        if x != y {
            return i + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        i += 16;
    }
    i + a[i..]
        .iter()
        .zip(&b[i..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Whether `attr` is an [`F32Attr`] or an [`F64Attr`] (one look at its kind).
fn is_float(ctx: &crate::IrContext, attr: Attribute) -> bool {
    let kind = ctx.attr_data(attr).as_any().type_id();
    kind == TypeId::of::<F64Attr>() || kind == TypeId::of::<F32Attr>()
}

/// The kind the op (or the context's table of common names) gives attribute `name`.
pub(crate) fn attr_hint(ctx: &crate::IrContext, info: Option<&OpInfo>, name: &str) -> Expect {
    if let Some(info) = info {
        if let Some(hint) = info.interface::<AttrHintInterface>() {
            if let Some(expect) = (hint.0)(info, name) {
                return expect;
            }
        }
    }
    ctx.attr_name_hint(name).unwrap_or(Expect::Any)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::{IrContext, Program};

    fn op(name: &str, result: usize, attrs: &str) -> String {
        format!("    (%{result}) = \"{name}\" () {{{attrs}}} : () -> tensor<2xf32>\n")
    }

    /// Dictionaries repeating, changing, growing, shrinking and reordering the
    /// previous op's entries read as written.
    #[test]
    fn attribute_dicts_against_the_previous_op() {
        let ctx = Arc::new(IrContext::new());
        let dicts = [
            "a:1,b:\"x\",c:[true]",
            "a:1,b:\"x\",c:[true]",
            "a:1,b:\"y\",c:[true]",
            "a:1,b:\"y\"",
            "a:1,b:\"y\",c:[true],d:2.5",
            "b:\"y\",a:1",
            "a:10,b:\"y\"",
            "a:1,b:\"x\",c:[true]",
            "",
            "a:1",
        ];
        let mut text = String::from("{\n");
        for (i, d) in dicts.iter().enumerate() {
            text += &op("test.op", i, d);
        }
        text += "}\n";
        let program = Program::parse(&ctx, &text).unwrap();
        // Paddle's print sorts attributes by name.
        let sorted = text.replace("{b:\"y\",a:1}", "{a:1,b:\"y\"}");
        assert_eq!(program.to_string(), sorted);
        let top = program.top_block();
        let ops: Vec<_> = program.block_ops(top).collect();
        assert_eq!(program.attrs(ops[0]), program.attrs(ops[1]));
        assert_eq!(program.attrs(ops[0]), program.attrs(ops[7]));
        assert_ne!(program.attrs(ops[1]), program.attrs(ops[2]));
        assert_ne!(program.attrs(ops[3]), program.attrs(ops[5]));
    }

    /// An entry repeated within a dictionary is an error even where it
    /// matches the previous op's entries.
    #[test]
    fn repeated_entry_after_a_matching_op() {
        let ctx = Arc::new(IrContext::new());
        let text = format!(
            "{{\n{}{}}}\n",
            op("test.op", 0, "a:1,b:2"),
            op("test.op", 1, "a:1,a:1")
        );
        let err = Program::parse(&ctx, &text).unwrap_err();
        assert_eq!(err.message, "attribute `a` is given twice");
        assert_eq!((err.line, err.column), (3, 30));
    }
}
