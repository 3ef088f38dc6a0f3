//! A streaming JSON writer whose output is byte-identical to nlohmann::json 3.11 `dump()`
//! (compact) and `dump(4)` (pretty).
//!
//! The writer appends to a caller-owned `Vec<u8>` and inserts separators, newlines and
//! indentation itself; callers only say what comes next. Keys are written in the order they
//! are given: nlohmann sorts object keys by bytes, so callers must give them sorted (debug
//! builds check this unless [`Writer::any_key_order`] was called). Strings are escaped as
//! nlohmann does with `ensure_ascii = false` (format spec §4.5), floats use
//! [`write_f64_nlohmann`](crate::number::write_f64_nlohmann).
//!
//! ```
//! use pir_json::Writer;
//!
//! let mut out = Vec::new();
//! let mut w = Writer::compact(&mut out);
//! w.begin_object();
//! w.key("D");
//! w.begin_array();
//! w.f64(1.5);
//! w.i64(-2);
//! w.end_array();
//! w.key("N");
//! w.string("a\"b");
//! w.end_object();
//! assert_eq!(out, br#"{"D":[1.5,-2],"N":"a\"b"}"#);
//!
//! let mut out = Vec::new();
//! let mut w = Writer::pretty(&mut out);
//! w.begin_object();
//! w.key("a");
//! w.begin_array();
//! w.end_array();
//! w.key("b");
//! w.begin_array();
//! w.bool(true);
//! w.end_array();
//! w.end_object();
//! assert_eq!(String::from_utf8(out).unwrap(), "{\n    \"a\": [],\n    \"b\": [\n        true\n    ]\n}");
//! ```

use crate::dom::{Number, Value};
use crate::number;

/// Escape table: 0 = copy the byte, `b'u'` = `\u00xx`, anything else = backslash + that byte.
static ESCAPES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        table[i] = b'u';
        i += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";

/// Appends `s` as a JSON string literal, quotes included, escaped like nlohmann's
/// `dump()` with `ensure_ascii = false`: `"` `\` and the control characters below 0x20 are
/// escaped (`\b \f \n \r \t`, others as `\u00xx` in lower-case hex); `/`, DEL and non-ASCII
/// characters are copied.
#[inline(always)]
pub fn write_escaped_string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if needs_escape(bytes) {
        write_escaped_slow(out, bytes);
    } else {
        out.reserve(bytes.len() + 2);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
    }
}

/// True if any byte of `bytes` must be escaped (`"`, `\` or below 0x20).
#[inline(always)]
pub fn needs_escape(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if crate::parser::string_special_mask(u64::from_le_bytes(word)) != 0 {
            return true;
        }
    }
    chunks
        .remainder()
        .iter()
        .any(|&b| ESCAPES[usize::from(b)] != 0)
}

#[cold]
fn write_escaped_slow(out: &mut Vec<u8>, bytes: &[u8]) {
    out.reserve(bytes.len() + 8);
    out.push(b'"');
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape = ESCAPES[usize::from(b)];
        if escape == 0 {
            continue;
        }
        out.extend_from_slice(bytes.get(start..i).unwrap_or(&[]));
        if escape == b'u' {
            out.extend_from_slice(b"\\u00");
            out.push(HEX_LOWER[usize::from(b >> 4)]);
            out.push(HEX_LOWER[usize::from(b & 0xF)]);
        } else {
            out.push(b'\\');
            out.push(escape);
        }
        start = i + 1;
    }
    out.extend_from_slice(bytes.get(start..).unwrap_or(&[]));
    out.push(b'"');
}

const INDENT: usize = 4;
const SPACES: &[u8; 64] = &[b' '; 64];

/// A streaming JSON writer (see the [module docs](self)).
///
/// Misuse (a value where a key is required, unbalanced `end_*` calls, several root values)
/// never panics in release builds but produces invalid JSON; debug builds assert.
#[derive(Debug)]
pub struct Writer<'o> {
    out: &'o mut Vec<u8>,
    pretty: bool,
    depth: usize,
    /// The current container already has an entry, so the next one needs a `,`.
    need_comma: bool,
    /// A key was just written; the next call writes its value.
    after_key: bool,
    check_key_order: bool,
    /// Per open container: whether it is an object, and (debug builds) its last key.
    #[cfg(debug_assertions)]
    levels: Vec<Level>,
}

#[cfg(debug_assertions)]
#[derive(Debug, Default)]
struct Level {
    is_object: bool,
    has_key: bool,
    last_key: String,
}

impl<'o> Writer<'o> {
    /// A writer producing nlohmann `dump()` output: no whitespace at all.
    #[inline]
    pub fn compact(out: &'o mut Vec<u8>) -> Writer<'o> {
        Writer::new(out, false)
    }

    /// A writer producing nlohmann `dump(4)` output: one entry per line, 4 spaces per level,
    /// `"key": value`, empty containers as `[]`/`{}`, no trailing newline.
    #[inline]
    pub fn pretty(out: &'o mut Vec<u8>) -> Writer<'o> {
        Writer::new(out, true)
    }

    #[inline]
    fn new(out: &'o mut Vec<u8>, pretty: bool) -> Writer<'o> {
        Writer {
            out,
            pretty,
            depth: 0,
            need_comma: false,
            after_key: false,
            check_key_order: true,
            #[cfg(debug_assertions)]
            levels: Vec::new(),
        }
    }

    /// Turns off the debug-build check that keys of each object are strictly ascending (for
    /// writing documents that do not come from nlohmann, such as a re-emitted arbitrary file).
    pub fn any_key_order(mut self) -> Writer<'o> {
        self.check_key_order = false;
        self
    }

    /// True if this writer produces pretty (`dump(4)`) output.
    pub fn is_pretty(&self) -> bool {
        self.pretty
    }

    /// Number of currently open arrays and objects.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// How many bytes the output buffer holds.
    pub fn buffered(&self) -> usize {
        self.out.len()
    }

    /// Passes the output written so far to `sink` and empties the buffer;
    /// writing goes on where it stood (separators depend on the writer's
    /// state, not on the buffer), so a large document can be streamed.
    pub fn drain_to(&mut self, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
        sink.write_all(self.out)?;
        self.out.clear();
        Ok(())
    }

    #[inline]
    fn newline_indent(&mut self, depth: usize) {
        self.out.push(b'\n');
        let mut n = depth * INDENT;
        while n > 0 {
            let chunk = n.min(SPACES.len());
            self.out
                .extend_from_slice(SPACES.get(..chunk).unwrap_or(&[]));
            n -= chunk;
        }
    }

    /// Separator and indentation before a value (nothing after a key).
    #[inline]
    fn before_value(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        #[cfg(debug_assertions)]
        debug_assert!(
            !self.levels.last().is_some_and(|l| l.is_object),
            "a value inside an object needs a key first"
        );
        if self.depth > 0 {
            if self.need_comma {
                self.out.push(b',');
            }
            if self.pretty {
                self.newline_indent(self.depth);
            }
        }
        self.need_comma = true;
    }

    #[inline]
    fn begin(&mut self, bracket: u8, _is_object: bool) {
        self.before_value();
        self.out.push(bracket);
        self.depth += 1;
        self.need_comma = false;
        #[cfg(debug_assertions)]
        self.levels.push(Level {
            is_object: _is_object,
            has_key: false,
            last_key: String::new(),
        });
    }

    #[inline]
    fn end(&mut self, bracket: u8, _is_object: bool) {
        #[cfg(debug_assertions)]
        {
            debug_assert!(!self.after_key, "a key is missing its value");
            let level = self.levels.pop();
            debug_assert!(
                level.is_some_and(|l| l.is_object == _is_object),
                "unbalanced end_object/end_array"
            );
        }
        self.depth = self.depth.saturating_sub(1);
        if self.need_comma && self.pretty {
            self.newline_indent(self.depth);
        }
        self.out.push(bracket);
        // The parent container now has at least this entry.
        self.need_comma = true;
    }

    /// Starts an object (`{`).
    #[inline]
    pub fn begin_object(&mut self) {
        self.begin(b'{', true);
    }

    /// Ends the current object (`}`).
    #[inline]
    pub fn end_object(&mut self) {
        self.end(b'}', true);
    }

    /// Starts an array (`[`).
    #[inline]
    pub fn begin_array(&mut self) {
        self.begin(b'[', false);
    }

    /// Ends the current array (`]`).
    #[inline]
    pub fn end_array(&mut self) {
        self.end(b']', false);
    }

    /// Writes an object key; the next call writes its value. Keys of one object must be given
    /// in ascending byte order to match nlohmann (checked in debug builds).
    #[inline(always)]
    pub fn key(&mut self, key: &str) {
        #[cfg(debug_assertions)]
        {
            debug_assert!(!self.after_key, "two keys in a row");
            let check = self.check_key_order;
            if let Some(level) = self.levels.last_mut() {
                debug_assert!(level.is_object, "key() inside an array");
                debug_assert!(
                    !check || !level.has_key || level.last_key.as_str() < key,
                    "object keys must be strictly ascending: {:?} after {:?}",
                    key,
                    level.last_key
                );
                level.last_key.clear();
                level.last_key.push_str(key);
                level.has_key = true;
            }
        }
        if self.need_comma {
            self.out.push(b',');
        }
        if self.pretty {
            self.newline_indent(self.depth);
        }
        write_escaped_string(self.out, key);
        if self.pretty {
            self.out.extend_from_slice(b": ");
        } else {
            self.out.push(b':');
        }
        self.need_comma = true;
        self.after_key = true;
    }

    /// Writes a string value.
    #[inline(always)]
    pub fn string(&mut self, s: &str) {
        self.before_value();
        write_escaped_string(self.out, s);
    }

    /// Writes an integer.
    #[inline]
    pub fn i64(&mut self, v: i64) {
        self.before_value();
        number::write_i64(self.out, v);
    }

    /// Writes a non-negative integer.
    #[inline]
    pub fn u64(&mut self, v: u64) {
        self.before_value();
        number::write_u64(self.out, v);
    }

    /// Writes a double as nlohmann does (`1.0`, `0.1`, `1e-05`, `-0.0`).
    ///
    /// `v` should be finite: NaN and ±infinity are written as `null`, which is nlohmann's
    /// behaviour but not a number when read back. Paddle's format spells them differently
    /// (`"VD":"NaN"`), so callers handle them before calling.
    #[inline]
    pub fn f64(&mut self, v: f64) {
        self.before_value();
        number::write_f64_nlohmann(self.out, v);
    }

    /// Writes `true` or `false`.
    #[inline]
    pub fn bool(&mut self, v: bool) {
        self.before_value();
        self.out
            .extend_from_slice(if v { b"true" as &[u8] } else { b"false" });
    }

    /// Writes `null`.
    #[inline]
    pub fn null(&mut self) {
        self.before_value();
        self.out.extend_from_slice(b"null");
    }

    /// Writes a number token verbatim (e.g. [`Value::number_text`] to re-emit a number
    /// unchanged). The caller guarantees `text` is a valid JSON number.
    #[inline]
    pub fn raw_number(&mut self, text: &str) {
        self.before_value();
        self.out.extend_from_slice(text.as_bytes());
    }

    /// Writes an already serialized compact JSON value verbatim (e.g. cached
    /// output of an earlier compact write). The caller guarantees `json` is one
    /// complete compact value; in pretty mode it would not be re-indented.
    #[inline]
    pub fn raw_value(&mut self, json: &[u8]) {
        debug_assert!(!self.pretty, "raw_value is for compact output");
        self.before_value();
        self.out.extend_from_slice(json);
    }

    /// Writes one already serialized compact JSON value given in pieces
    /// (cached fragments joined without a temporary), e.g.
    /// `[b"{\"AT\":", attr, b",\"N\":\"x\"}"]`. The caller guarantees the
    /// pieces together are one complete compact value.
    #[inline]
    pub fn raw_value_parts(&mut self, parts: &[&[u8]]) {
        debug_assert!(!self.pretty, "raw_value_parts is for compact output");
        self.before_value();
        for part in parts {
            self.out.extend_from_slice(part);
        }
    }

    /// Writes one compact JSON value by handing the output buffer to `write`
    /// after the separator (e.g. a small object with a number formatted in
    /// place), and gives what `write` returns. `write` must append exactly
    /// one complete compact value.
    #[inline]
    pub fn raw_value_with<R>(&mut self, write: impl FnOnce(&mut Vec<u8>) -> R) -> R {
        debug_assert!(!self.pretty, "raw_value_with is for compact output");
        self.before_value();
        write(self.out)
    }

    /// Writes a parsed value and everything below it: objects with their members in file
    /// order, integers as integers, other numbers re-formatted like nlohmann (see
    /// [`Number`]).
    pub fn value(&mut self, v: Value<'_>) {
        if let Some(items) = v.array() {
            self.begin_array();
            for item in items {
                self.value(item);
            }
            self.end_array();
        } else if let Some(members) = v.object() {
            self.begin_object();
            for (key, value) in members {
                self.key(&key);
                self.value(value);
            }
            self.end_object();
        } else if let Some(s) = v.as_str() {
            self.string(&s);
        } else if let Some(n) = v.as_number() {
            match n {
                Number::I64(i) => self.i64(i),
                Number::U64(u) => self.u64(u),
                Number::F64(f) => self.f64(f),
            }
        } else if let Some(b) = v.as_bool() {
            self.bool(b);
        } else {
            self.null();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(s: &str) -> String {
        let mut out = Vec::new();
        write_escaped_string(&mut out, s);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn strings_are_escaped_like_nlohmann_with_ensure_ascii_false() {
        assert_eq!(escaped("plain"), "\"plain\"");
        assert_eq!(escaped("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(escaped("\u{8}\u{c}\n\r\t"), r#""\b\f\n\r\t""#);
        assert_eq!(escaped("\u{0}\u{1b}\u{1f}"), r#""\u0000\u001b\u001f""#);
        assert_eq!(escaped("/\u{7f}"), "\"/\u{7f}\"");
        assert_eq!(escaped("é\u{2028}😀"), "\"é\u{2028}😀\"");
        assert_eq!(escaped(""), "\"\"");
    }

    /// A document written in one buffer, and the same drained to a sink after every value.
    fn whole_and_drained(pretty: bool) -> (Vec<u8>, Vec<u8>) {
        let write = |w: &mut Writer<'_>, sink: &mut Option<&mut Vec<u8>>| {
            w.begin_object();
            w.key("a");
            w.begin_array();
            for i in 0..3 {
                w.i64(i);
                if let Some(s) = sink.as_deref_mut() {
                    w.drain_to(s).unwrap();
                    assert_eq!(w.buffered(), 0);
                }
            }
            w.begin_object();
            w.end_object();
            w.end_array();
            w.key("b");
            w.string("x");
            w.end_object();
            if let Some(s) = sink.as_deref_mut() {
                w.drain_to(s).unwrap();
            }
        };
        let (mut whole, mut buf, mut sink) = (Vec::new(), Vec::new(), Vec::new());
        let new = |out| {
            if pretty {
                Writer::pretty(out)
            } else {
                Writer::compact(out)
            }
        };
        write(&mut new(&mut whole), &mut None);
        write(&mut new(&mut buf), &mut Some(&mut sink));
        assert!(buf.is_empty());
        (whole, sink)
    }

    #[test]
    fn draining_to_a_sink_gives_the_same_bytes() {
        for pretty in [false, true] {
            let (whole, drained) = whole_and_drained(pretty);
            assert_eq!(whole, drained);
        }
    }

    #[test]
    fn compact_output_has_no_whitespace() {
        let mut out = Vec::new();
        let mut w = Writer::compact(&mut out);
        w.begin_array();
        w.begin_object();
        w.end_object();
        w.begin_array();
        w.end_array();
        w.null();
        w.bool(false);
        w.u64(u64::MAX);
        w.i64(i64::MIN);
        w.f64(-0.0);
        w.f64(f64::NAN);
        w.raw_number("1E5");
        w.raw_value_parts(&[b"{\"a\":", b"1}"]);
        w.raw_value_with(|out| out.extend_from_slice(b"2"));
        w.end_array();
        assert_eq!(
            String::from_utf8(out).unwrap_or_default(),
            "[{},[],null,false,18446744073709551615,-9223372036854775808,-0.0,null,1E5,{\"a\":1},2]"
        );
    }

    #[test]
    fn pretty_output_matches_nlohmann_dump_4() {
        let mut out = Vec::new();
        let mut w = Writer::pretty(&mut out);
        w.begin_object();
        w.key("a");
        w.begin_object();
        w.end_object();
        w.key("b");
        w.begin_array();
        w.begin_array();
        w.end_array();
        w.i64(1);
        w.begin_object();
        w.key("x");
        w.string("y");
        w.end_object();
        w.end_array();
        w.key("c");
        w.null();
        w.end_object();
        let want = "{\n    \"a\": {},\n    \"b\": [\n        [],\n        1,\n        {\n            \"x\": \"y\"\n        }\n    ],\n    \"c\": null\n}";
        assert_eq!(String::from_utf8(out).unwrap_or_default(), want);
    }

    #[test]
    fn scalars_at_the_root_are_written_alone() {
        let mut out = Vec::new();
        Writer::pretty(&mut out).string("x");
        assert_eq!(out, b"\"x\"");
        let mut out = Vec::new();
        let mut w = Writer::pretty(&mut out);
        w.begin_array();
        w.end_array();
        assert_eq!(out, b"[]");
    }

    #[test]
    fn deep_indentation_is_exact() {
        let mut out = Vec::new();
        let mut w = Writer::pretty(&mut out);
        for _ in 0..20 {
            w.begin_array();
        }
        w.i64(0);
        for _ in 0..20 {
            w.end_array();
        }
        let text = String::from_utf8(out).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 41);
        assert_eq!(lines[20], format!("{}0", " ".repeat(80)));
        assert_eq!(lines[21], format!("{}]", " ".repeat(76)));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "strictly ascending")]
    fn unsorted_keys_are_caught_in_debug_builds() {
        let mut out = Vec::new();
        let mut w = Writer::compact(&mut out);
        w.begin_object();
        w.key("b");
        w.null();
        w.key("a");
        w.null();
        w.end_object();
    }

    #[test]
    fn any_key_order_allows_unsorted_keys() {
        let mut out = Vec::new();
        let mut w = Writer::compact(&mut out).any_key_order();
        w.begin_object();
        w.key("b");
        w.null();
        w.key("a");
        w.null();
        w.end_object();
        assert_eq!(out, br#"{"b":null,"a":null}"#);
    }
}
