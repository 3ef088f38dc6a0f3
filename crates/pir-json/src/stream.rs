//! Reading a large document one part at a time.
//!
//! [`parse`](crate::parse) builds a tape of the whole input: about 12 bytes per JSON value, so
//! for a 276 MB model several times the file's size. A [`Stream`] walks the outer containers of
//! the same text itself — object keys and array elements, one at a time — and turns only the
//! value at hand into a [`Document`], reusing one tape allocation for all of them. A reader that
//! knows the shape of its file (Paddle's models: a few levels of objects around one long array
//! of ops) then holds one op's tape at a time.
//!
//! The stream accepts exactly what [`parse`](crate::parse) accepts; errors carry the same
//! offsets, lines and columns.
//!
//! ```
//! use pir_json::Stream;
//!
//! let text = br#"{"name": "m", "items": [{"x": 1}, {"x": 2}]}"#;
//! let mut s = Stream::new(text).unwrap();
//! let mut root = s.begin_object().unwrap();
//! let mut xs = Vec::new();
//! while let Some(key) = s.next_key(&mut root).unwrap() {
//!     if key == "items" {
//!         let mut items = s.begin_array().unwrap();
//!         while s.next_element(&mut items).unwrap() {
//!             let doc = s.value().unwrap();
//!             xs.push(doc.root().get("x").and_then(|x| x.as_i64()));
//!             s.recycle(doc);
//!         }
//!     } else {
//!         s.skip().unwrap();
//!     }
//! }
//! s.finish().unwrap();
//! assert_eq!(xs, [Some(1), Some(2)]);
//! ```

use std::borrow::Cow;

use crate::dom::{parse_i64, unescape, Document, Node, Tag};
use crate::parser::{
    fail, next_byte, parse_value_at, plain_prefix_len, scan_number, scan_string, short_integer,
    skip_ws, Fail, Frame, ParseError, ParseErrorKind, MAX_DEPTH,
};

/// A cursor over JSON text that hands out its values one at a time. See the
/// [module docs](self).
pub struct Stream<'a> {
    text: &'a str,
    pos: usize,
    /// The tape of the last value handed out, given back by [`Stream::recycle`].
    tape: Vec<Node>,
    /// The parser's stack of open containers, reused from value to value.
    stack: Vec<Frame>,
}

/// An array or object opened by [`Stream::begin_array`] / [`Stream::begin_object`]; pass it to
/// [`Stream::next_element`] / [`Stream::next_key`] to move through its entries.
#[derive(Debug)]
pub struct Open {
    first: bool,
    done: bool,
}

impl<'a> Stream<'a> {
    /// A stream over `input`, which must be UTF-8 (checked here, once) and shorter than 4 GiB.
    /// A leading byte order mark is skipped, as [`parse`](crate::parse) does.
    pub fn new(input: &'a [u8]) -> Result<Stream<'a>, ParseError> {
        let (text, pos) = crate::parser::checked_text(input)?;
        Ok(Stream {
            text,
            pos,
            tape: Vec::new(),
            stack: Vec::new(),
        })
    }

    /// A stream over `text` standing at byte `at`, which must be where an element of an array
    /// begins other than its first, with the array open: a second reader of the same text can
    /// take over a long array part of the way through. Whether `at` is such a place is the
    /// caller's to check (e.g. by a stream that reads up to `at` from the start); elsewhere
    /// the stream reads whatever the text holds there and fails where it is no such element.
    /// A text of 4 GiB or more, which [`new`](Self::new) refuses, gives a stream at its end.
    pub fn resume_in_array(text: &'a str, at: usize) -> (Stream<'a>, Open) {
        let pos = if u32::try_from(text.len()).is_ok() {
            at.min(text.len())
        } else {
            text.len()
        };
        let stream = Stream {
            text,
            pos,
            tape: Vec::new(),
            stack: Vec::new(),
        };
        let open = Open {
            first: false,
            done: false,
        };
        (stream, open)
    }

    /// The whole input as text.
    #[inline]
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The byte offset of the stream in the input.
    #[inline]
    pub fn offset(&self) -> usize {
        self.pos
    }

    #[inline]
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    #[cold]
    #[allow(clippy::boxed_local)] // `Fail` is boxed to keep the scanners' results small
    fn error(&self, f: Fail) -> ParseError {
        ParseError::new(self.bytes(), f.0, f.1)
    }

    /// The next non-whitespace byte, without moving past it.
    fn peek(&mut self, expected: &'static str) -> Result<u8, ParseError> {
        let input = self.bytes();
        next_byte(input, &mut self.pos, expected).map_err(|f| self.error(f))
    }

    /// Opens the object that must come next.
    #[inline]
    pub fn begin_object(&mut self) -> Result<Open, ParseError> {
        self.begin(b'{', "an object")
    }

    /// Opens the array that must come next.
    #[inline]
    pub fn begin_array(&mut self) -> Result<Open, ParseError> {
        self.begin(b'[', "an array")
    }

    #[inline]
    fn begin(&mut self, open: u8, expected: &'static str) -> Result<Open, ParseError> {
        if self.bytes().get(self.pos) == Some(&open) {
            self.pos += 1;
            return Ok(Open {
                first: true,
                done: false,
            });
        }
        self.begin_in_full(open, expected)
    }

    /// [`begin`](Self::begin) for any text.
    #[inline(never)]
    fn begin_in_full(&mut self, open: u8, expected: &'static str) -> Result<Open, ParseError> {
        if self.peek(expected)? != open {
            return Err(self.error(fail(self.pos, ParseErrorKind::Expected { expected })));
        }
        self.pos += 1;
        Ok(Open {
            first: true,
            done: false,
        })
    }

    /// Moves to the next entry of `open`: past the `,` between entries, or past the closing
    /// bracket `close` (then returns false).
    fn advance(
        &mut self,
        open: &mut Open,
        close: u8,
        between: &'static str,
        first: &'static str,
    ) -> Result<bool, ParseError> {
        if open.done {
            return Ok(false);
        }
        let b = self.peek(if open.first { first } else { between })?;
        if b == close {
            self.pos += 1;
            open.done = true;
            return Ok(false);
        }
        if open.first {
            open.first = false;
            return Ok(true);
        }
        if b != b',' {
            return Err(self.error(fail(
                self.pos,
                ParseErrorKind::Expected { expected: between },
            )));
        }
        self.pos += 1;
        Ok(true)
    }

    /// The next key of `object` (the stream then stands before its value, which must be read
    /// with [`value`](Self::value), [`skip`](Self::skip) or a `begin_…`), or `None` after the
    /// closing `}`.
    #[inline]
    pub fn next_key(&mut self, object: &mut Open) -> Result<Option<Cow<'a, str>>, ParseError> {
        match self.compact_key(object) {
            Some(key) => Ok(Some(Cow::Borrowed(key))),
            None => self.next_key_in_full(object),
        }
    }

    /// [`next_key`](Self::next_key) for any text.
    #[inline(never)]
    fn next_key_in_full(&mut self, object: &mut Open) -> Result<Option<Cow<'a, str>>, ParseError> {
        if !self.advance(
            object,
            b'}',
            "',' or '}' after object member",
            "'}' or a string key",
        )? {
            return Ok(None);
        }
        let input = self.bytes();
        let start = skip_ws(input, self.pos);
        if input.get(start) != Some(&b'"') {
            return Err(self.error(fail(
                start,
                ParseErrorKind::Expected {
                    expected: "a string key",
                },
            )));
        }
        let (end, escaped) = scan_string(input, start).map_err(|f| self.error(f))?;
        let raw = self.text.get(start + 1..end - 1).unwrap_or("");
        let key = if escaped {
            Cow::Owned(unescape(raw))
        } else {
            Cow::Borrowed(raw)
        };
        self.pos = end;
        const EXPECTED: &str = "':' after object key";
        if self.peek(EXPECTED)? != b':' {
            return Err(self.error(fail(
                self.pos,
                ParseErrorKind::Expected { expected: EXPECTED },
            )));
        }
        self.pos += 1;
        Ok(Some(key))
    }

    /// The next key of `object` when the text is compact there (`"key":`, after a `,` for
    /// all but the first), and the key short and plain (no escapes, no control characters);
    /// otherwise `None`, with nothing moved, for [`next_key`](Self::next_key) to read.
    #[inline]
    fn compact_key(&mut self, object: &mut Open) -> Option<&'a str> {
        const LONGEST: usize = 32;
        if object.done {
            return None;
        }
        let input = self.bytes();
        let quote = if object.first {
            self.pos
        } else if input.get(self.pos) == Some(&b',') {
            self.pos + 1
        } else {
            return None;
        };
        if input.get(quote) != Some(&b'"') {
            return None;
        }
        let mut end = quote + 1;
        loop {
            match input.get(end) {
                Some(b'"') => break,
                Some(&b) if b >= 0x20 && b != b'\\' && end - quote <= LONGEST => end += 1,
                _ => return None,
            }
        }
        if input.get(end + 1) != Some(&b':') {
            return None;
        }
        let key = self.text.get(quote + 1..end)?;
        object.first = false;
        self.pos = end + 2;
        Some(key)
    }

    /// Whether `array` has another element (the stream then stands before it), or false after
    /// the closing `]`.
    #[inline]
    pub fn next_element(&mut self, array: &mut Open) -> Result<bool, ParseError> {
        // Compact text: the `,` or `]` right here, or the first element.
        if !array.done {
            match self.bytes().get(self.pos) {
                Some(b',') if !array.first => {
                    self.pos += 1;
                    return Ok(true);
                }
                Some(b']') => {
                    self.pos += 1;
                    array.done = true;
                    return Ok(false);
                }
                Some(&b) if array.first && b > b' ' => {
                    array.first = false;
                    return Ok(true);
                }
                _ => {}
            }
        }
        self.advance(
            array,
            b']',
            "',' or ']' after array element",
            "']' or a value",
        )
    }

    /// The value at the stream as a document of its own (offsets are those of the whole input);
    /// the stream moves past it. Give the document back with [`recycle`](Self::recycle) to
    /// reuse its tape.
    pub fn value(&mut self) -> Result<Document<'a>, ParseError> {
        let tape = std::mem::take(&mut self.tape);
        let (doc, end) = parse_value_at(self.text, self.pos, tape, &mut self.stack)?;
        self.pos = end;
        Ok(doc)
    }

    /// Takes back the tape of a document made by [`value`](Self::value).
    pub fn recycle(&mut self, doc: Document<'a>) {
        self.tape = doc.into_tape();
    }

    /// Checks and skips the value at the stream.
    pub fn skip(&mut self) -> Result<(), ParseError> {
        let doc = self.value()?;
        self.recycle(doc);
        Ok(())
    }

    /// The byte offset of `raw`, a slice of this stream's text (the text's length for
    /// another string).
    pub fn offset_of(&self, raw: &str) -> usize {
        (raw.as_ptr() as usize)
            .checked_sub(self.text.as_ptr() as usize)
            .filter(|&o| o <= self.text.len())
            .unwrap_or(self.text.len())
    }

    /// Moves the stream back (or forward) to byte `offset`, e.g. to read a value again as a
    /// document after looking into it with the other methods.
    #[inline]
    pub fn rewind(&mut self, offset: usize) {
        self.pos = offset.min(self.text.len());
    }

    /// The integer at the stream (the stream moves past it), or `None` when the value there
    /// is another kind or out of `i64`'s range (the stream then stays before it).
    // Readers call it on every id of a model: called rather than inlined
    // where a caller grows, it cost them a tenth more.
    #[inline(always)]
    pub fn i64(&mut self) -> Result<Option<i64>, ParseError> {
        match self.short_i64() {
            Some(v) => Ok(Some(v)),
            None => self.i64_in_full(),
        }
    }

    /// [`i64`](Self::i64) for any text.
    #[inline(never)]
    fn i64_in_full(&mut self) -> Result<Option<i64>, ParseError> {
        let start = self.pos;
        let b = self.peek("a value")?;
        if !(b == b'-' || b.is_ascii_digit()) {
            self.pos = start;
            return Ok(None);
        }
        let input = self.bytes();
        let at = self.pos;
        let (end, tag) = scan_number(input, at).map_err(|f| self.error(f))?;
        match (tag, input.get(at..end).and_then(parse_i64)) {
            (Tag::Integer, Some(v)) => {
                self.pos = end;
                Ok(Some(v))
            }
            _ => {
                self.pos = start;
                Ok(None)
            }
        }
    }

    /// A JSON integer of at most 18 digits right at the stream (no white space before it),
    /// which the stream moves past; `None` for anything else, with nothing moved.
    #[inline(always)]
    fn short_i64(&mut self) -> Option<i64> {
        let (value, end) = short_integer(self.bytes(), self.pos)?;
        self.pos = end;
        Some(value)
    }

    /// Moves past `text` if the input at the stream (no white space before it) starts with
    /// it, and says whether it did. `text` must be an array, object or string read before
    /// (as a [`document`](Self::document)): such a value ends where its text ends, so
    /// the value at the stream is then exactly `text`. Other texts are never matched.
    #[inline]
    pub fn skip_known(&mut self, text: &str) -> bool {
        if !matches!(text.as_bytes().first(), Some(b'[' | b'{' | b'"')) {
            return false;
        }
        match self.bytes().get(self.pos..) {
            Some(rest) if rest.starts_with(text.as_bytes()) => {
                self.pos += text.len();
                true
            }
            _ => false,
        }
    }

    /// The exact text of the value at the stream, which the stream moves past, found by
    /// matching brackets and string quotes only: the text is **not validated**. Read it
    /// with [`document`](Self::document) before trusting it — unless byte-equal text was
    /// read as a document before, as a cache keyed by this text does.
    pub fn raw_value(&mut self) -> Result<&'a str, ParseError> {
        self.peek("a value")?;
        let start = self.pos;
        let end = delimit(self.bytes(), start).map_err(|f| self.error(f))?;
        self.pos = end;
        Ok(self.text.get(start..end).unwrap_or(""))
    }

    /// `raw` (a slice of this stream's text, e.g. from [`raw_value`](Self::raw_value)) parsed
    /// as a document of its own. Give it back with [`recycle`](Self::recycle).
    pub fn document(&mut self, raw: &'a str) -> Result<Document<'a>, ParseError> {
        let offset = self.offset_of(raw);
        let mut tape = std::mem::take(&mut self.tape);
        // The text's length is known: room for its nodes at once, rather
        // than a tape grown (and copied) a doubling at a time.
        tape.clear();
        tape.reserve(crate::parser::estimate_nodes(raw.len()));
        let (doc, end) = parse_value_at(self.text, offset, tape, &mut self.stack)?;
        // `raw` must be exactly one value: `1e1{"a"` delimits as one piece but parses as `1e1`.
        if end != offset + raw.len() {
            self.tape = doc.into_tape();
            return Err(self.error(fail(
                end,
                ParseErrorKind::Expected {
                    expected: "the end of the value",
                },
            )));
        }
        Ok(doc)
    }

    /// Checks that nothing but whitespace follows.
    pub fn finish(&mut self) -> Result<(), ParseError> {
        let input = self.bytes();
        let end = skip_ws(input, self.pos);
        if end != input.len() {
            return Err(self.error(fail(end, ParseErrorKind::TrailingCharacters)));
        }
        self.pos = end;
        Ok(())
    }
}

/// The class of each byte for [`delimit`]: 1 for `"`, 2 for `[` and `{`, 3 for `]` and
/// `}`, 0 for the bytes it passes over.
static DELIMITERS: [u8; 256] = {
    let mut classes = [0u8; 256];
    classes[b'"' as usize] = 1;
    classes[b'[' as usize] = 2;
    classes[b'{' as usize] = 2;
    classes[b']' as usize] = 3;
    classes[b'}' as usize] = 3;
    classes[b'\n' as usize] = 4;
    classes
};

/// The offset just past the value starting at `start` (not whitespace), found by matching
/// brackets and quotes: only quotes, backslashes and brackets are looked at (a table gives
/// each byte's class), nothing is validated. Never reads past the input; nesting is bounded
/// by [`MAX_DEPTH`].
fn delimit(input: &[u8], start: usize) -> Result<usize, Fail> {
    let unexpected_end = || {
        fail(
            input.len(),
            ParseErrorKind::UnexpectedEnd {
                expected: "the end of the value",
            },
        )
    };
    let unterminated = |at: usize| fail(at, ParseErrorKind::UnterminatedString);
    match input.get(start) {
        None => Err(unexpected_end()),
        Some(b'"' | b'[' | b'{') => {
            let mut depth = 0usize;
            let mut pos = start;
            // One loop over the bytes: strings are walked in place, not by a call each, as
            // models' texts hold a quote every few bytes.
            while let Some(&b) = input.get(pos) {
                pos += 1;
                match DELIMITERS[usize::from(b)] {
                    0 => {}
                    4 => pos = crate::parser::skip_spaces(input, pos),
                    1 => {
                        let open = pos - 1;
                        loop {
                            // Straight to the first `"` or `\` (or control byte,
                            // passed over below), eight bytes at a time: names and
                            // `struct_name`s run to tens of bytes.
                            pos += plain_prefix_len(input.get(pos..).unwrap_or_default());
                            match input.get(pos) {
                                Some(b'"') => break,
                                Some(b'\\') => pos += 2,
                                Some(_) => pos += 1,
                                None => return Err(unterminated(open)),
                            }
                        }
                        pos += 1;
                        if depth == 0 {
                            return Ok(pos);
                        }
                    }
                    2 => {
                        depth += 1;
                        if depth > MAX_DEPTH {
                            return Err(fail(
                                pos - 1,
                                ParseErrorKind::TooDeep { limit: MAX_DEPTH },
                            ));
                        }
                    }
                    _ => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(pos);
                        }
                    }
                }
            }
            Err(unexpected_end())
        }
        Some(b']' | b'}' | b',' | b':') => Err(fail(
            start,
            ParseErrorKind::Expected {
                expected: "a value",
            },
        )),
        // A number or literal: the bytes those can hold.
        Some(_) => {
            let rest = input.get(start..).unwrap_or_default();
            let len = rest
                .iter()
                .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))
                .unwrap_or(rest.len());
            Ok(start + len)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Every value of the root array, each read as its own document, printed back compactly.
    fn elements(text: &str) -> Result<Vec<String>, ParseError> {
        let mut s = Stream::new(text.as_bytes())?;
        let mut array = s.begin_array()?;
        let mut out = Vec::new();
        while s.next_element(&mut array)? {
            let doc = s.value()?;
            let mut buf = Vec::new();
            crate::Writer::compact(&mut buf).value(doc.root());
            out.push(String::from_utf8(buf).unwrap());
            s.recycle(doc);
        }
        s.finish()?;
        Ok(out)
    }

    #[test]
    fn elements_come_one_at_a_time() {
        assert_eq!(
            elements(" [ {\"a\" : [1, 2]} ,\n\"x\\n\", [] , 3.5 ] ").unwrap(),
            [r#"{"a":[1,2]}"#, r#""x\n""#, "[]", "3.5"]
        );
        assert_eq!(elements("[]").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn keys_are_unescaped_and_values_keep_their_offsets() {
        let text = br#"{"a\u0062": 7, "c": {"d": true}}"#;
        let mut s = Stream::new(text).unwrap();
        let mut root = s.begin_object().unwrap();
        assert_eq!(s.next_key(&mut root).unwrap().as_deref(), Some("ab"));
        s.skip().unwrap();
        assert_eq!(s.next_key(&mut root).unwrap().as_deref(), Some("c"));
        let doc = s.value().unwrap();
        assert_eq!(doc.root().offset(), 20);
        assert_eq!(doc.root().text_key(), r#"{"d": true}"#);
        s.recycle(doc);
        assert_eq!(s.next_key(&mut root).unwrap(), None);
        assert_eq!(s.next_key(&mut root).unwrap(), None);
        s.finish().unwrap();
    }

    /// Walks an object at the root, skipping every value.
    fn members(text: &str) -> Result<(), ParseError> {
        let mut s = Stream::new(text.as_bytes())?;
        let mut object = s.begin_object()?;
        while s.next_key(&mut object)?.is_some() {
            s.skip()?;
        }
        s.finish()
    }

    #[test]
    fn errors_are_those_of_the_whole_input_parse() {
        for text in [
            "[1, 2,]",
            "[1 2]",
            "[1, {\"a\" 2}]",
            "[1, [2, 3}",
            "[1, 2] x",
            "[1, \"abc",
            "[",
            "[01]",
            "{\"a\": 1,}",
            "{\"a\" 1}",
            "{\"a\": [1, 2}",
            "{\"a\": 1} {",
            "{1: 2}",
        ] {
            let want = crate::parse(text.as_bytes()).unwrap_err();
            let got = if text.starts_with('[') {
                elements(text).unwrap_err()
            } else {
                members(text).unwrap_err()
            };
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn raw_values_are_delimited_exactly() {
        let text = r#"[{"a": "x]\"}", "b": [1, {}]}, -12.5e3, true, "s\\", [[]], 7]"#;
        let mut s = Stream::new(text.as_bytes()).unwrap();
        let mut array = s.begin_array().unwrap();
        let mut raws = Vec::new();
        while s.next_element(&mut array).unwrap() {
            raws.push(s.raw_value().unwrap());
        }
        s.finish().unwrap();
        assert_eq!(
            raws,
            [
                r#"{"a": "x]\"}", "b": [1, {}]}"#,
                "-12.5e3",
                "true",
                r#""s\\""#,
                "[[]]",
                "7"
            ]
        );
        let doc = s.document(raws[0]).unwrap();
        assert_eq!(
            doc.root()
                .get("b")
                .and_then(|b| b.at(0))
                .and_then(|v| v.as_i64()),
            Some(1)
        );
        s.recycle(doc);
        assert!(s.document(&text[3..]).is_err(), "a slice that is no value");
        assert!(
            s.document(&text[1..5]).is_err(),
            "a slice longer than its value"
        );
    }

    #[test]
    fn raw_values_never_read_past_the_input() {
        for text in ["[\"abc", "[[1, 2", "[{", "[ ", "[\"\\", "[]]", "[,"] {
            let mut s = Stream::new(text.as_bytes()).unwrap();
            let mut array = s.begin_array().unwrap();
            let result = s.next_element(&mut array).and_then(|more| {
                if more {
                    s.raw_value().map(|_| ())
                } else {
                    Ok(())
                }
            });
            let _ = result.and_then(|()| s.finish());
        }
        let deep = "[".repeat(MAX_DEPTH + 2);
        let mut s = Stream::new(deep.as_bytes()).unwrap();
        let mut array = s.begin_array().unwrap();
        assert!(s.next_element(&mut array).unwrap());
        assert!(matches!(
            s.raw_value().unwrap_err().kind,
            ParseErrorKind::TooDeep { .. }
        ));
    }

    #[test]
    fn a_scalar_followed_by_garbage_is_refused() {
        // Found by fuzzing: `1e1{"a[t're` was delimited as one value and parsed as `1e1`.
        for text in ["[1e1{\"a[t're]", "[1e1{]", "[true{}]", "[1\"x\"]"] {
            let mut s = Stream::new(text.as_bytes()).unwrap();
            let mut array = s.begin_array().unwrap();
            assert!(s.next_element(&mut array).unwrap());
            let walked = s
                .raw_value()
                .and_then(|raw| s.document(raw).map(|doc| s.recycle(doc)))
                .and_then(|()| s.next_element(&mut array).map(|_| ()));
            assert!(walked.is_err(), "{text}");
            assert!(crate::parse(text.as_bytes()).is_err());
        }
    }

    #[test]
    fn known_texts_are_skipped_only_when_they_come_next() {
        let text = br#"[{"a":[1]},{"a":[1]}, {"a":[1]},{"a":[1]}x]"#;
        let mut s = Stream::new(text).unwrap();
        let mut array = s.begin_array().unwrap();
        assert!(s.next_element(&mut array).unwrap());
        let first = s.raw_value().unwrap();
        assert!(s.next_element(&mut array).unwrap());
        assert!(s.skip_known(first));
        assert!(s.next_element(&mut array).unwrap());
        assert!(!s.skip_known(first), "white space is not skipped");
        s.skip().unwrap();
        assert!(s.next_element(&mut array).unwrap());
        assert!(s.skip_known(first));
        assert!(
            s.next_element(&mut array).is_err(),
            "what follows is still read"
        );
        let mut s = Stream::new(b"123").unwrap();
        assert!(!s.skip_known("12"), "a number is no known text");
        assert!(!s.skip_known(""));
        assert_eq!(s.i64().unwrap(), Some(123));
    }

    #[test]
    fn integers_are_read_and_other_values_left_in_place() {
        let mut s = Stream::new(b"[12, -3, 1.5, \"x\", 99999999999999999999]").unwrap();
        let mut array = s.begin_array().unwrap();
        let mut got = Vec::new();
        while s.next_element(&mut array).unwrap() {
            match s.i64().unwrap() {
                Some(v) => got.push(Some(v)),
                None => {
                    got.push(None);
                    s.skip().unwrap();
                }
            }
        }
        assert_eq!(got, [Some(12), Some(-3), None, None, None]);
    }

    #[test]
    fn invalid_utf8_is_refused_up_front() {
        let err = Stream::new(b"[\"\xff\"]").err().unwrap();
        assert_eq!((err.kind, err.offset), (ParseErrorKind::InvalidUtf8, 2));
    }
}
