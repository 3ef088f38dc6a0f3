//! The read-only document produced by [`parse`](crate::parse): a flat tape of nodes over the
//! input text, and [`Value`] handles into it.
//!
//! Every JSON value is one 12-byte node in a single `Vec`, in document order. A node stores
//! the byte offset of its first byte, and for scalars the offset just past its token (numbers
//! and strings are read from the input on demand), for arrays and objects the tape index just
//! past their last descendant (so a sibling is one jump away) and their length. Object members
//! are stored as a key node followed by the value's nodes, in file order.
//!
//! [`Value`] is a `Copy` handle (a reference to the document and a tape index). Accessors never
//! panic; they return `None` when the value has another kind.
//!
//! ```
//! use std::borrow::Cow;
//! use pir_json::{parse, Kind};
//!
//! let doc = parse(br#"{"name": "fc\u0030", "dims": [2, -1], "scale": 0.5}"#).unwrap();
//! let root = doc.root();
//! assert_eq!(root.kind(), Kind::Object);
//! assert_eq!(root.get("name").and_then(|v| v.as_str()), Some(Cow::Owned("fc0".to_string())));
//! let dims: Vec<i64> = root.get("dims").unwrap().array().unwrap().filter_map(|v| v.as_i64()).collect();
//! assert_eq!(dims, [2, -1]);
//! assert_eq!(root.get("scale").and_then(|v| v.as_f64()), Some(0.5));
//! assert_eq!(root.get("scale").and_then(|v| v.as_i64()), None);
//! for (key, value) in root.object().unwrap() {
//!     println!("{key} at byte {}", value.offset());
//! }
//! ```

use std::borrow::Cow;
use std::fmt;

/// Node kinds as stored on the tape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Tag {
    Null = 0,
    True = 1,
    False = 2,
    /// A number token without fraction or exponent.
    Integer = 3,
    /// A number token with a fraction or an exponent.
    Float = 4,
    /// A string without escapes: its content is the input between the quotes.
    String = 5,
    /// A string with at least one escape sequence.
    EscapedString = 6,
    Array = 7,
    Object = 8,
}

impl Tag {
    #[inline]
    fn from_bits(bits: u32) -> Tag {
        match bits & 0xF {
            1 => Tag::True,
            2 => Tag::False,
            3 => Tag::Integer,
            4 => Tag::Float,
            5 => Tag::String,
            6 => Tag::EscapedString,
            7 => Tag::Array,
            8 => Tag::Object,
            _ => Tag::Null,
        }
    }
}

/// One value on the tape (12 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    /// Byte offset of the value's first byte.
    pub(crate) start: u32,
    /// Scalars: byte offset just past the token. Containers: tape index after the subtree.
    pub(crate) end: u32,
    /// Tag in the low 4 bits; the element count of a container above them.
    meta: u32,
}

const _: () = assert!(std::mem::size_of::<Node>() == 12);

impl Node {
    #[inline]
    pub(crate) fn new(start: u32, end: u32, tag: Tag) -> Node {
        Node {
            start,
            end,
            meta: tag as u32,
        }
    }

    /// Records the end of a container: the tape index after it and its length.
    #[inline]
    pub(crate) fn close(&mut self, next: u32, count: u32) {
        self.end = next;
        self.meta = (self.meta & 0xF) | (count << 4);
    }

    #[inline]
    fn tag(self) -> Tag {
        Tag::from_bits(self.meta)
    }

    #[inline]
    fn count(self) -> usize {
        (self.meta >> 4) as usize
    }
}

const NULL_NODE: Node = Node {
    start: 0,
    end: 0,
    meta: Tag::Null as u32,
};

/// A parsed JSON document. Create one with [`parse`](crate::parse); read it through
/// [`Document::root`].
pub struct Document<'a> {
    text: &'a str,
    tape: Vec<Node>,
    /// Byte offset just past the document's text: the input's length for a whole-input
    /// parse, the end of the value for one value of a [`Stream`](crate::Stream).
    end: usize,
}

impl<'a> Document<'a> {
    #[inline]
    pub(crate) fn new(text: &'a str, tape: Vec<Node>, end: usize) -> Document<'a> {
        Document { text, tape, end }
    }

    /// Gives back the tape's allocation, for the next value of a stream.
    #[inline]
    pub(crate) fn into_tape(self) -> Vec<Node> {
        self.tape
    }

    /// The root value.
    #[inline]
    pub fn root(&self) -> Value<'_> {
        Value { doc: self, idx: 0 }
    }

    /// The input text the document was parsed from.
    #[inline]
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The number of JSON values in the document (every scalar, array, object and object key
    /// counts once). Useful to size tables before walking the document.
    #[inline]
    pub fn node_count(&self) -> usize {
        self.tape.len()
    }

    #[inline]
    fn node(&self, idx: u32) -> Node {
        self.tape.get(idx as usize).copied().unwrap_or(NULL_NODE)
    }

    /// Tape index just past the subtree starting at `idx`.
    #[inline]
    fn skip(&self, idx: u32) -> u32 {
        let node = self.node(idx);
        match node.tag() {
            Tag::Array | Tag::Object => node.end,
            _ => idx + 1,
        }
    }

    #[inline]
    fn span(&self, node: Node) -> &str {
        self.text
            .get(node.start as usize..node.end as usize)
            .unwrap_or("")
    }
}

impl fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("bytes", &self.text.len())
            .field("nodes", &self.tape.len())
            .finish()
    }
}

/// The kind of a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// Any number, integer or not.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Null => "null",
            Kind::Bool => "bool",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        })
    }
}

/// A number classified the way nlohmann::json stores it after parsing.
///
/// Tokens without fraction and exponent are integers: `U64` when non-negative and at most
/// `u64::MAX`, `I64` when negative and at least `i64::MIN`, and otherwise (out of range)
/// `F64`, like nlohmann. Tokens with a fraction or exponent are always `F64`, even `2.0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// A negative integer.
    I64(i64),
    /// A non-negative integer.
    U64(u64),
    /// A floating-point number (possibly infinite if the token is out of `f64` range).
    F64(f64),
}

impl Number {
    /// The number as `f64`, like nlohmann's `get<double>()`: integers are converted (rounded
    /// to nearest).
    #[inline]
    pub fn to_f64(self) -> f64 {
        match self {
            Number::I64(v) => v as f64,
            Number::U64(v) => v as f64,
            Number::F64(v) => v,
        }
    }
}

/// A handle to one value of a [`Document`]. Cheap to copy.
#[derive(Clone, Copy)]
pub struct Value<'d> {
    doc: &'d Document<'d>,
    idx: u32,
}

impl<'d> Value<'d> {
    #[inline]
    fn node(self) -> Node {
        self.doc.node(self.idx)
    }

    /// The kind of this value.
    #[inline]
    pub fn kind(self) -> Kind {
        match self.node().tag() {
            Tag::Null => Kind::Null,
            Tag::True | Tag::False => Kind::Bool,
            Tag::Integer | Tag::Float => Kind::Number,
            Tag::String | Tag::EscapedString => Kind::String,
            Tag::Array => Kind::Array,
            Tag::Object => Kind::Object,
        }
    }

    /// Byte offset of the value's first byte in the input (for error messages).
    #[inline]
    pub fn offset(self) -> usize {
        self.node().start as usize
    }

    /// The input text from this value's first byte up to the first byte of the
    /// next value in the document (or the end of the input): the value's own
    /// text followed only by delimiters (`,` `:` `]` `}`) and whitespace.
    ///
    /// Two values with equal `text_key`s are equal, so it serves as a cheap
    /// memoization key (the same content followed by other delimiters gives
    /// another key, never a wrong hit).
    ///
    /// ```
    /// let doc = pir_json::parse(br#"[{"a":[1,2]},{"a":[1,2]}]"#).unwrap();
    /// let items: Vec<_> = doc.root().array().unwrap().collect();
    /// assert_eq!(items[0].text_key(), r#"{"a":[1,2]},"#);
    /// assert_eq!(items[1].text_key(), r#"{"a":[1,2]}]"#);
    /// ```
    #[inline]
    pub fn text_key(self) -> &'d str {
        let node = self.node();
        let next = self.doc.skip(self.idx);
        let end = match self.doc.tape.get(next as usize) {
            Some(n) => n.start as usize,
            None => self.doc.end,
        };
        self.doc.text.get(node.start as usize..end).unwrap_or("")
    }

    /// True for `null`.
    #[inline]
    pub fn is_null(self) -> bool {
        self.node().tag() == Tag::Null
    }

    /// The boolean, if this is `true` or `false`.
    #[inline]
    pub fn as_bool(self) -> Option<bool> {
        match self.node().tag() {
            Tag::True => Some(true),
            Tag::False => Some(false),
            _ => None,
        }
    }

    /// True if this is a number token without fraction and exponent (`-3`, `0`,
    /// `18446744073709551616`).
    #[inline]
    pub fn is_integer(self) -> bool {
        self.node().tag() == Tag::Integer
    }

    /// The raw text of a number token, e.g. `"-1.50e+3"`.
    #[inline]
    pub fn number_text(self) -> Option<&'d str> {
        let node = self.node();
        match node.tag() {
            Tag::Integer | Tag::Float => Some(self.doc.span(node)),
            _ => None,
        }
    }

    /// The value of an integer token that fits in `i64`. Floats (`2.0`, `1e3`) give `None`.
    #[inline]
    pub fn as_i64(self) -> Option<i64> {
        if self.node().tag() != Tag::Integer {
            return None;
        }
        parse_i64(self.number_text()?.as_bytes())
    }

    /// The value of a non-negative integer token that fits in `u64`. Floats give `None`.
    #[inline]
    pub fn as_u64(self) -> Option<u64> {
        if self.node().tag() != Tag::Integer {
            return None;
        }
        parse_u64(self.number_text()?.as_bytes())
    }

    /// The number as `f64`, like nlohmann's `get<double>()`: integers are converted (rounded
    /// to nearest), other tokens are parsed with correct rounding (out-of-range tokens become
    /// ±infinity).
    #[inline]
    pub fn as_f64(self) -> Option<f64> {
        self.as_number().map(Number::to_f64)
    }

    /// The number classified like nlohmann::json stores it (see [`Number`]).
    #[inline]
    pub fn as_number(self) -> Option<Number> {
        let node = self.node();
        match node.tag() {
            Tag::Integer | Tag::Float => number(self.doc.span(node), node.tag() == Tag::Integer),
            _ => None,
        }
    }

    /// The string, borrowed from the input when it has no escapes, decoded otherwise
    /// (including `\uXXXX` surrogate pairs).
    #[inline]
    pub fn as_str(self) -> Option<Cow<'d, str>> {
        let node = self.node();
        match node.tag() {
            Tag::String => Some(Cow::Borrowed(string_content(self.doc, node))),
            Tag::EscapedString => Some(Cow::Owned(unescape(string_content(self.doc, node)))),
            _ => None,
        }
    }

    /// The text between the quotes of a string, escapes not decoded (`a\"b` for `"a\"b"`).
    #[inline]
    pub fn raw_str(self) -> Option<&'d str> {
        let node = self.node();
        match node.tag() {
            Tag::String | Tag::EscapedString => Some(string_content(self.doc, node)),
            _ => None,
        }
    }

    /// True if this is a string equal to `s` (after decoding escapes). Does not allocate for
    /// strings without escapes.
    #[inline]
    pub fn str_eq(self, s: &str) -> bool {
        let node = self.node();
        match node.tag() {
            Tag::String => string_content(self.doc, node) == s,
            Tag::EscapedString => unescape(string_content(self.doc, node)) == s,
            _ => false,
        }
    }

    /// Number of elements of an array or members of an object; 0 for other kinds.
    #[inline]
    pub fn len(self) -> usize {
        let node = self.node();
        match node.tag() {
            Tag::Array | Tag::Object => node.count(),
            _ => 0,
        }
    }

    /// True if [`len`](Self::len) is 0.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The elements of an array, in order.
    #[inline]
    pub fn array(self) -> Option<Elements<'d>> {
        let node = self.node();
        if node.tag() != Tag::Array {
            return None;
        }
        Some(Elements {
            doc: self.doc,
            next: self.idx + 1,
            remaining: node.count(),
        })
    }

    /// The `i`-th element of an array. This walks the preceding siblings (O(i)); iterate with
    /// [`array`](Self::array) to visit all elements.
    #[inline]
    pub fn at(self, i: usize) -> Option<Value<'d>> {
        self.array()?.nth(i)
    }

    /// The members of an object as `(key, value)`, in file order.
    #[inline]
    pub fn object(self) -> Option<Members<'d>> {
        let node = self.node();
        if node.tag() != Tag::Object {
            return None;
        }
        Some(Members {
            doc: self.doc,
            next: self.idx + 1,
            remaining: node.count(),
        })
    }

    /// The value of the first member named `key` of an object (linear scan; no allocation
    /// unless a key contains escapes).
    #[inline]
    pub fn get(self, key: &str) -> Option<Value<'d>> {
        self.object()?
            .raw()
            .find(|(k, _)| k.str_eq(key))
            .map(|(_, v)| v)
    }
}

impl fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let node = self.node();
        match node.tag() {
            Tag::Array | Tag::Object => {
                write!(f, "{}(len {}) @{}", self.kind(), node.count(), node.start)
            }
            _ => write!(f, "{} @{}", self.doc.span(node), node.start),
        }
    }
}

#[inline]
fn string_content<'d>(doc: &'d Document<'d>, node: Node) -> &'d str {
    let start = node.start as usize + 1;
    let end = (node.end as usize).saturating_sub(1);
    doc.text.get(start..end).unwrap_or("")
}

/// The value of a number token (`text`, a valid JSON number; `integer` when it has neither
/// fraction nor exponent), classified as [`Number`] says.
#[inline]
pub(crate) fn number(text: &str, integer: bool) -> Option<Number> {
    if integer {
        if text.starts_with('-') {
            if let Some(v) = parse_i64(text.as_bytes()) {
                return Some(Number::I64(v));
            }
        } else if let Some(v) = parse_u64(text.as_bytes()) {
            return Some(Number::U64(v));
        }
    }
    text.parse::<f64>().ok().map(Number::F64)
}

/// Parses an integer token (`-?[0-9]+`) into `i64`, `None` on overflow.
#[inline]
pub(crate) fn parse_i64(text: &[u8]) -> Option<i64> {
    match text.split_first() {
        Some((b'-', digits)) => {
            if digits.is_empty() {
                return None;
            }
            digits.iter().try_fold(0i64, |acc, &b| {
                acc.checked_mul(10)?.checked_sub(i64::from(digit(b)?))
            })
        }
        _ => i64::try_from(parse_u64(text)?).ok(),
    }
}

/// Parses a non-negative integer token into `u64`, `None` on overflow or a `-` sign.
#[inline]
pub(crate) fn parse_u64(text: &[u8]) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    text.iter().try_fold(0u64, |acc, &b| {
        acc.checked_mul(10)?.checked_add(u64::from(digit(b)?))
    })
}

#[inline]
fn digit(b: u8) -> Option<u8> {
    b.is_ascii_digit().then(|| b - b'0')
}

/// Decodes the escapes of a string that the parser validated. Malformed sequences (impossible
/// after a successful parse) become U+FFFD instead of panicking.
pub(crate) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(pos) = rest.find('\\') {
        let (plain, tail) = rest.split_at(pos);
        out.push_str(plain);
        let bytes = tail.as_bytes();
        let (ch, used) = match bytes.get(1) {
            Some(b'"') => ('"', 2),
            Some(b'\\') => ('\\', 2),
            Some(b'/') => ('/', 2),
            Some(b'b') => ('\u{8}', 2),
            Some(b'f') => ('\u{c}', 2),
            Some(b'n') => ('\n', 2),
            Some(b'r') => ('\r', 2),
            Some(b't') => ('\t', 2),
            Some(b'u') => decode_unicode_escape(bytes),
            _ => ('\u{FFFD}', 1),
        };
        out.push(ch);
        rest = tail.get(used.min(tail.len())..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// Decodes `\uXXXX` (and a following low surrogate escape) at the start of `bytes`.
fn decode_unicode_escape(bytes: &[u8]) -> (char, usize) {
    let hex4 = |at: usize| -> Option<u32> {
        bytes
            .get(at..at + 4)?
            .iter()
            .try_fold(0u32, |acc, &b| Some(acc << 4 | char::from(b).to_digit(16)?))
    };
    let Some(unit) = hex4(2) else {
        return ('\u{FFFD}', 2);
    };
    if (0xD800..0xDC00).contains(&unit) {
        if bytes.get(6..8) == Some(b"\\u") {
            if let Some(low @ 0xDC00..=0xDFFF) = hex4(8) {
                let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                return (char::from_u32(code).unwrap_or('\u{FFFD}'), 12);
            }
        }
        return ('\u{FFFD}', 6);
    }
    (char::from_u32(unit).unwrap_or('\u{FFFD}'), 6)
}

/// Iterator over the elements of an array; see [`Value::array`].
#[derive(Clone)]
pub struct Elements<'d> {
    doc: &'d Document<'d>,
    next: u32,
    remaining: usize,
}

impl<'d> Iterator for Elements<'d> {
    type Item = Value<'d>;

    #[inline]
    fn next(&mut self) -> Option<Value<'d>> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let value = Value {
            doc: self.doc,
            idx: self.next,
        };
        self.next = self.doc.skip(self.next);
        Some(value)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Elements<'_> {}

/// Iterator over the members of an object, in file order; see [`Value::object`].
#[derive(Clone)]
pub struct Members<'d> {
    doc: &'d Document<'d>,
    next: u32,
    remaining: usize,
}

impl<'d> Members<'d> {
    /// Iterates over `(key, value)` with the key as a string [`Value`] (no decoding, no
    /// allocation); compare it with [`Value::str_eq`].
    #[inline]
    pub fn raw(self) -> RawMembers<'d> {
        RawMembers(self)
    }

    #[inline]
    fn next_pair(&mut self) -> Option<(Value<'d>, Value<'d>)> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let key = Value {
            doc: self.doc,
            idx: self.next,
        };
        let value = Value {
            doc: self.doc,
            idx: self.next + 1,
        };
        self.next = self.doc.skip(self.next + 1);
        Some((key, value))
    }
}

impl<'d> Iterator for Members<'d> {
    type Item = (Cow<'d, str>, Value<'d>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (key, value) = self.next_pair()?;
        Some((key.as_str().unwrap_or(Cow::Borrowed("")), value))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Members<'_> {}

/// Iterator over `(key, value)` pairs with undecoded keys; see [`Members::raw`].
#[derive(Clone)]
pub struct RawMembers<'d>(Members<'d>);

impl<'d> Iterator for RawMembers<'d> {
    type Item = (Value<'d>, Value<'d>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_pair()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for RawMembers<'_> {}

#[cfg(test)]
#[path = "dom_tests.rs"]
mod tests;
