//! The JSON parser: strict RFC 8259 text to a flat tape of nodes.
//!
//! The parser is iterative (an explicit stack, never recursion), so deeply nested input cannot
//! overflow the thread stack; nesting deeper than [`MAX_DEPTH`] is an error. It accepts exactly
//! what nlohmann::json accepts with its default settings: no comments, no trailing commas, no
//! `NaN`/`Infinity`, no leading zeros, strict string escapes (including correctly paired
//! `\uD800`–`\uDFFF` surrogates), UTF-8 only, control characters in strings must be escaped,
//! one root value surrounded by optional whitespace. Like nlohmann, a UTF-8 byte order mark at
//! the very start is skipped.
//!
//! Nothing is allocated per value: the tape is one `Vec` reserved from the input size, strings
//! and numbers are kept as byte spans of the input, and escapes are only decoded on access.
//!
//! ```
//! let err = pir_json::parse(b"[1, 2,]").unwrap_err();
//! assert_eq!((err.line, err.column, err.offset), (1, 7, 6));
//! assert_eq!(err.to_string(), "expected a value at line 1, column 7 (byte offset 6)");
//! ```

use crate::dom::{Document, Node, Tag};

/// Maximum nesting depth of arrays and objects; a deeper document is rejected.
pub const MAX_DEPTH: usize = 1000;

/// Maximum number of elements of one array or members of one object.
pub const MAX_CONTAINER_LEN: usize = (1 << 28) - 1;

/// What went wrong while parsing; part of [`ParseError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input ended where something else was required.
    #[error("unexpected end of input (expected {expected})")]
    UnexpectedEnd {
        /// What the parser was looking for.
        expected: &'static str,
    },
    /// A byte that cannot start or continue the current construct.
    #[error("expected {expected}")]
    Expected {
        /// What the parser was looking for, e.g. `',' or ']' after array element`.
        expected: &'static str,
    },
    /// A string without its closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// A backslash followed by a character that is not a JSON escape.
    #[error("invalid escape sequence in string")]
    InvalidEscape,
    /// `\u` not followed by four hexadecimal digits.
    #[error("invalid \\u escape: expected four hexadecimal digits")]
    InvalidUnicodeEscape,
    /// A `\uD800`–`\uDBFF` escape not followed by a `\uDC00`–`\uDFFF` escape, or a low surrogate
    /// on its own.
    #[error("unpaired UTF-16 surrogate in \\u escape")]
    UnpairedSurrogate,
    /// A raw byte below 0x20 inside a string.
    #[error("control character in string (must be escaped)")]
    ControlCharacterInString,
    /// A malformed number (e.g. `01`, `1.`, `-`, `1e`).
    #[error("invalid number")]
    InvalidNumber,
    /// Something starting with `t`, `f` or `n` that is not `true`, `false` or `null`.
    #[error("invalid literal (expected true, false or null)")]
    InvalidLiteral,
    /// The input is not valid UTF-8 at this offset.
    #[error("invalid UTF-8")]
    InvalidUtf8,
    /// More than [`MAX_DEPTH`] nested arrays and objects.
    #[error("nesting deeper than {limit}")]
    TooDeep {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// Non-whitespace after the root value.
    #[error("trailing characters after the JSON value")]
    TrailingCharacters,
    /// The input is 4 GiB or larger (offsets are stored as 32-bit numbers).
    #[error("input of 4 GiB or more is not supported")]
    InputTooLarge,
    /// An array or object with more than [`MAX_CONTAINER_LEN`] entries.
    #[error("more than {MAX_CONTAINER_LEN} entries in one array or object")]
    TooManyEntries,
}

/// A JSON syntax error with its position.
///
/// `line` and `column` are 1-based; the column counts characters (UTF-8 code points) from the
/// start of the line. `offset` is the 0-based byte offset into the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at line {line}, column {column} (byte offset {offset})")]
pub struct ParseError {
    /// Byte offset of the offending byte (or the input length for an unexpected end).
    pub offset: usize,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    #[cold]
    pub(crate) fn new(input: &[u8], offset: usize, kind: ParseErrorKind) -> ParseError {
        let offset = offset.min(input.len());
        let before = input.get(..offset).unwrap_or(&[]);
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + before
            .get(line_start..)
            .unwrap_or(&[])
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        ParseError {
            offset,
            line,
            column,
            kind,
        }
    }
}

/// `input` as text when it is UTF-8, as `std::str::from_utf8` gives it,
/// checked with SIMD: a few times faster on the mostly-ASCII text of a
/// model (the rare error is located by the standard check).
pub fn utf8(input: &[u8]) -> Result<&str, std::str::Utf8Error> {
    simdutf8::basic::from_utf8(input).or_else(|_| std::str::from_utf8(input))
}

/// `input` checked as a JSON text: shorter than 4 GiB and UTF-8 ([`utf8`]).
/// Gives the text and where its value starts: after a byte order mark.
pub(crate) fn checked_text(input: &[u8]) -> Result<(&str, usize), ParseError> {
    if u32::try_from(input.len()).is_err() {
        return Err(ParseError::new(input, 0, ParseErrorKind::InputTooLarge));
    }
    let text = utf8(input)
        .map_err(|e| ParseError::new(input, e.valid_up_to(), ParseErrorKind::InvalidUtf8))?;
    let start = if input.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    Ok((text, start))
}

/// Parses one JSON document.
///
/// The input must be UTF-8 JSON text (an optional byte order mark is skipped). The returned
/// [`Document`] borrows `input`: strings without escapes and all numbers are read from it in
/// place.
///
/// ```
/// let doc = pir_json::parse(br#"{"a": [1, "x"]}"#).unwrap();
/// let a = doc.root().get("a").unwrap();
/// assert_eq!(a.at(0).and_then(|v| v.as_i64()), Some(1));
/// assert_eq!(a.at(1).and_then(|v| v.as_str()).as_deref(), Some("x"));
/// ```
pub fn parse(input: &[u8]) -> Result<Document<'_>, ParseError> {
    // Validating everything up front lets the document hand out `&str`
    // slices without further checks.
    let (text, start) = checked_text(input)?;
    let mut tape = Vec::with_capacity(estimate_nodes(input.len()));
    let mut stack = Vec::with_capacity(32);
    let parsed = run(input, start, &mut tape, &mut stack).and_then(|end| {
        let end = skip_ws(input, end);
        if end == input.len() {
            Ok(())
        } else {
            Err(fail(end, ParseErrorKind::TrailingCharacters))
        }
    });
    match parsed {
        Ok(()) => Ok(Document::new(text, tape, input.len())),
        Err(e) => Err(ParseError::new(input, e.0, e.1)),
    }
}

/// Parses the one JSON value that starts at byte `pos` of `text` (after optional whitespace)
/// onto `tape`, which is cleared first so that its allocation can be reused from value to
/// value. Returns the value's document and the byte offset just past the value; what follows
/// it is not looked at. Offsets in the document and in errors are offsets into `text`.
///
/// [`Stream`](crate::Stream) uses it to hold one part of a large file as a document at a time.
pub(crate) fn parse_value_at<'a>(
    text: &'a str,
    pos: usize,
    mut tape: Vec<Node>,
    stack: &mut Vec<Frame>,
) -> Result<(Document<'a>, usize), ParseError> {
    let input = text.as_bytes();
    if u32::try_from(input.len()).is_err() {
        return Err(ParseError::new(input, 0, ParseErrorKind::InputTooLarge));
    }
    tape.clear();
    match run(input, pos, &mut tape, stack) {
        Ok(end) => Ok((Document::new(text, tape, end), end)),
        Err(e) => Err(ParseError::new(input, e.0, e.1)),
    }
}

/// A generous guess of the number of tape nodes, so that typical model files never regrow
/// the tape (Paddle's compact files have about one value per 5 bytes; reserving does not
/// touch the memory). Capped so that a huge input does not reserve gigabytes up front.
pub(crate) fn estimate_nodes(len: usize) -> usize {
    (len / 4 + 16).min(1 << 24)
}

/// An internal error: byte offset and kind (line and column are computed at the end). Boxed so
/// that the hot functions return their results in registers.
pub(crate) type Fail = Box<(usize, ParseErrorKind)>;

#[cold]
#[inline(never)]
pub(crate) fn fail(offset: usize, kind: ParseErrorKind) -> Fail {
    Box::new((offset, kind))
}

/// An open array or object.
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    node: u32,
    count: u32,
    is_object: bool,
}

const NO_CONTAINER: u32 = u32::MAX;

const TOP_LEVEL: Frame = Frame {
    node: NO_CONTAINER,
    count: 0,
    is_object: false,
};

/// Bit 7 of each byte lane of the result is set for the first lane of `w` that holds `"`,
/// `\` or a byte below 0x20 (lanes above the first hit may be set spuriously; lanes below
/// it never are).
#[inline(always)]
pub(crate) fn string_special_mask(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let quote = w ^ (ONES * u64::from(b'"'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    let zero_in_quote = quote.wrapping_sub(ONES) & !quote;
    let zero_in_backslash = backslash.wrapping_sub(ONES) & !backslash;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_in_quote | zero_in_backslash | below_space) & HIGHS
}

/// The length of the longest prefix of `bytes` that holds no `"`, `\` or byte below 0x20:
/// in a JSON string's body, the part that stands for itself (a body of plain bytes is its own
/// value, and the first byte past the prefix is where the string ends, an escape or an error).
/// Looks at eight bytes at a time.
#[inline]
pub fn plain_prefix_len(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(8);
    let mut pos = 0;
    for chunk in &mut chunks {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let mask = string_special_mask(u64::from_le_bytes(chunk));
        if mask != 0 {
            return pos + (mask.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    let rest = chunks.remainder();
    pos + rest
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .unwrap_or(rest.len())
}

/// The JSON integer of at most 18 digits (so it fits in `i64` whatever its digits) at
/// `at`, and the offset past it; `None` for any other text there (more digits, a leading
/// zero, a fraction or exponent, no digit), which the callers then read in full.
#[inline]
pub(crate) fn short_integer(input: &[u8], at: usize) -> Option<(i64, usize)> {
    const MOST: usize = 18;
    let negative = input.get(at) == Some(&b'-');
    let first = at + usize::from(negative);
    let mut pos = first;
    let mut magnitude = 0i64;
    while let Some(&d) = input.get(pos) {
        if !d.is_ascii_digit() {
            break;
        }
        if pos - first == MOST {
            return None;
        }
        magnitude = magnitude * 10 + i64::from(d - b'0');
        pos += 1;
    }
    // Not a number, a leading zero, or a fraction or exponent follows.
    let len = pos - first;
    if len == 0 || (len > 1 && input.get(first) == Some(&b'0')) {
        return None;
    }
    if matches!(input.get(pos), Some(b'.' | b'e' | b'E')) {
        return None;
    }
    Some((if negative { -magnitude } else { magnitude }, pos))
}

/// True if any byte of `w` is `"`, `\` or below 0x20.
#[cfg(test)]
fn has_string_special(w: u64) -> bool {
    string_special_mask(w) != 0
}

#[inline(always)]
fn hex_value(b: u8) -> Option<u32> {
    match b {
        b'0'..=b'9' => Some(u32::from(b - b'0')),
        b'a'..=b'f' => Some(u32::from(b - b'a' + 10)),
        b'A'..=b'F' => Some(u32::from(b - b'A' + 10)),
        _ => None,
    }
}

#[inline(always)]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// The offset past the spaces from `pos` on, eight at a time:
/// pretty-printed files indent with long runs of them.
#[inline]
pub(crate) fn skip_spaces(input: &[u8], mut pos: usize) -> usize {
    const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
    while let Some(chunk) = input.get(pos..).and_then(|s| s.first_chunk::<8>()) {
        let other = u64::from_le_bytes(*chunk) ^ SPACES;
        if other != 0 {
            return pos + (other.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    pos
}

/// Skips whitespace from `pos`; returns the new position.
#[inline(never)]
pub(crate) fn skip_ws(input: &[u8], mut pos: usize) -> usize {
    loop {
        pos = skip_spaces(input, pos);
        match input.get(pos) {
            Some(&b) if is_ws(b) => pos += 1,
            _ => return pos,
        }
    }
}

/// The next non-whitespace byte at or after `*pos` (moving `*pos` to it), or an "unexpected
/// end" failure naming `expected`.
#[inline(always)]
pub(crate) fn next_byte(input: &[u8], pos: &mut usize, expected: &'static str) -> Result<u8, Fail> {
    if let Some(&b) = input.get(*pos) {
        if b > b' ' {
            return Ok(b);
        }
    }
    *pos = skip_ws(input, *pos);
    match input.get(*pos) {
        Some(&b) => Ok(b),
        None => Err(fail(
            input.len(),
            ParseErrorKind::UnexpectedEnd { expected },
        )),
    }
}

#[inline(always)]
fn push(tape: &mut Vec<Node>, start: usize, end: usize, tag: Tag) -> u32 {
    let index = tape.len() as u32;
    // Offsets fit in u32: the input length was checked against u32::MAX.
    tape.push(Node::new(start as u32, end as u32, tag));
    index
}

/// Parses one value from `pos` onto `tape`; returns the offset just past it.
fn run(
    input: &[u8],
    mut pos: usize,
    tape: &mut Vec<Node>,
    stack: &mut Vec<Frame>,
) -> Result<usize, Fail> {
    stack.clear();
    let mut current = TOP_LEVEL;
    'value: loop {
        // A value is expected at the next non-whitespace byte.
        let b = next_byte(input, &mut pos, "a value")?;
        let start = pos;
        match b {
            b'"' => {
                let (end, escaped) = scan_string(input, start)?;
                let tag = if escaped {
                    Tag::EscapedString
                } else {
                    Tag::String
                };
                push(tape, start, end, tag);
                pos = end;
            }
            b'-' | b'0'..=b'9' => {
                let (end, tag) = scan_number(input, start)?;
                push(tape, start, end, tag);
                pos = end;
            }
            b'{' | b'[' => {
                let is_object = b == b'{';
                if stack.len() >= MAX_DEPTH {
                    return Err(fail(start, ParseErrorKind::TooDeep { limit: MAX_DEPTH }));
                }
                let tag = if is_object { Tag::Object } else { Tag::Array };
                let node = push(tape, start, 0, tag);
                stack.push(current);
                current = Frame {
                    node,
                    count: 0,
                    is_object,
                };
                pos += 1;
                if is_object {
                    let b = next_byte(input, &mut pos, "'}' or a string key")?;
                    if b != b'}' {
                        pos = scan_key(input, pos, tape)?;
                        continue 'value;
                    }
                } else {
                    let b = next_byte(input, &mut pos, "']' or a value")?;
                    if b != b']' {
                        continue 'value;
                    }
                }
                // Empty container.
                pos += 1;
                close(tape, current)?;
                current = stack.pop().unwrap_or(TOP_LEVEL);
            }
            b't' => pos = literal(input, start, b"true", Tag::True, tape)?,
            b'f' => pos = literal(input, start, b"false", Tag::False, tape)?,
            b'n' => pos = literal(input, start, b"null", Tag::Null, tape)?,
            _ => {
                return Err(fail(
                    start,
                    ParseErrorKind::Expected {
                        expected: "a value",
                    },
                ))
            }
        }

        // After a complete value: close containers or move on to the next entry.
        loop {
            if current.node == NO_CONTAINER {
                break 'value;
            }
            if current.is_object {
                const EXPECTED: &str = "',' or '}' after object member";
                match next_byte(input, &mut pos, EXPECTED)? {
                    b',' => {
                        current.count += 1;
                        pos += 1;
                        next_byte(input, &mut pos, "a string key")?;
                        pos = scan_key(input, pos, tape)?;
                        continue 'value;
                    }
                    b'}' => {
                        current.count += 1;
                        pos += 1;
                        close(tape, current)?;
                        current = stack.pop().unwrap_or(TOP_LEVEL);
                    }
                    _ => return Err(fail(pos, ParseErrorKind::Expected { expected: EXPECTED })),
                }
            } else {
                const EXPECTED: &str = "',' or ']' after array element";
                match next_byte(input, &mut pos, EXPECTED)? {
                    b',' => {
                        current.count += 1;
                        pos += 1;
                        continue 'value;
                    }
                    b']' => {
                        current.count += 1;
                        pos += 1;
                        close(tape, current)?;
                        current = stack.pop().unwrap_or(TOP_LEVEL);
                    }
                    _ => return Err(fail(pos, ParseErrorKind::Expected { expected: EXPECTED })),
                }
            }
        }
    }
    Ok(pos)
}

/// Records the end and length of the container `frame`.
#[inline(always)]
fn close(tape: &mut [Node], frame: Frame) -> Result<(), Fail> {
    let next = tape.len() as u32;
    let Some(node) = tape.get_mut(frame.node as usize) else {
        return Ok(());
    };
    if frame.count as usize > MAX_CONTAINER_LEN {
        return Err(fail(node.start as usize, ParseErrorKind::TooManyEntries));
    }
    node.close(next, frame.count);
    Ok(())
}

/// Parses an object key at `pos` (the first non-whitespace byte) and the following `:`;
/// returns the position after the colon.
#[inline(always)]
fn scan_key(input: &[u8], pos: usize, tape: &mut Vec<Node>) -> Result<usize, Fail> {
    if input.get(pos) != Some(&b'"') {
        return Err(fail(
            pos,
            ParseErrorKind::Expected {
                expected: "a string key",
            },
        ));
    }
    let (end, escaped) = scan_string(input, pos)?;
    let tag = if escaped {
        Tag::EscapedString
    } else {
        Tag::String
    };
    push(tape, pos, end, tag);
    let mut pos = end;
    const EXPECTED: &str = "':' after object key";
    if next_byte(input, &mut pos, EXPECTED)? != b':' {
        return Err(fail(pos, ParseErrorKind::Expected { expected: EXPECTED }));
    }
    Ok(pos + 1)
}

fn literal(
    input: &[u8],
    start: usize,
    word: &'static [u8],
    tag: Tag,
    tape: &mut Vec<Node>,
) -> Result<usize, Fail> {
    let end = start + word.len();
    if input.get(start..end) != Some(word) {
        return Err(fail(start, ParseErrorKind::InvalidLiteral));
    }
    push(tape, start, end, tag);
    Ok(end)
}

/// Scans a string whose opening quote is at `start`; returns the offset after the closing
/// quote and whether the string contains escapes.
#[inline(always)]
pub(crate) fn scan_string(input: &[u8], start: usize) -> Result<(usize, bool), Fail> {
    let mut pos = start + 1;
    let mut escaped = false;
    loop {
        // Straight to the first special byte, eight bytes at a time.
        pos += plain_prefix_len(input.get(pos..).unwrap_or_default());
        match input.get(pos) {
            Some(b'"') => return Ok((pos + 1, escaped)),
            Some(b'\\') => {
                escaped = true;
                pos = scan_escape(input, pos)?;
            }
            Some(&c) if c < 0x20 => {
                return Err(fail(pos, ParseErrorKind::ControlCharacterInString))
            }
            // Only reached in the last 7 bytes of the input.
            Some(_) => pos += 1,
            None => return Err(fail(start, ParseErrorKind::UnterminatedString)),
        }
    }
}

/// Validates the escape sequence whose backslash is at `pos`; returns the offset after it.
#[inline(never)]
fn scan_escape(input: &[u8], pos: usize) -> Result<usize, Fail> {
    match input.get(pos + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(pos + 2),
        Some(b'u') => {
            let unit = hex4(input, pos + 2)?;
            match unit {
                0xD800..=0xDBFF => {
                    // A high surrogate must be followed by an escaped low surrogate.
                    if input.get(pos + 6..pos + 8) != Some(b"\\u") {
                        return Err(fail(pos, ParseErrorKind::UnpairedSurrogate));
                    }
                    let low = hex4(input, pos + 8)?;
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return Err(fail(pos, ParseErrorKind::UnpairedSurrogate));
                    }
                    Ok(pos + 12)
                }
                0xDC00..=0xDFFF => Err(fail(pos, ParseErrorKind::UnpairedSurrogate)),
                _ => Ok(pos + 6),
            }
        }
        Some(_) => Err(fail(pos, ParseErrorKind::InvalidEscape)),
        None => Err(fail(pos, ParseErrorKind::UnterminatedString)),
    }
}

/// Reads four hex digits at `pos`.
fn hex4(input: &[u8], pos: usize) -> Result<u32, Fail> {
    let Some(digits) = input.get(pos..pos + 4) else {
        return Err(fail(
            pos.min(input.len()),
            ParseErrorKind::InvalidUnicodeEscape,
        ));
    };
    digits.iter().try_fold(0u32, |acc, &b| {
        hex_value(b)
            .map(|d| acc << 4 | d)
            .ok_or_else(|| fail(pos, ParseErrorKind::InvalidUnicodeEscape))
    })
}

#[inline(always)]
fn skip_digits(input: &[u8], mut pos: usize) -> usize {
    while let Some(b'0'..=b'9') = input.get(pos) {
        pos += 1;
    }
    pos
}

/// Scans a number starting at `start` (a `-` or a digit); returns its end and tag.
#[inline(always)]
pub(crate) fn scan_number(input: &[u8], start: usize) -> Result<(usize, Tag), Fail> {
    let invalid = || fail(start, ParseErrorKind::InvalidNumber);
    let mut pos = start;
    if input.get(pos) == Some(&b'-') {
        pos += 1;
    }
    match input.get(pos) {
        Some(b'0') => {
            pos += 1;
            if let Some(b'0'..=b'9') = input.get(pos) {
                return Err(invalid());
            }
        }
        Some(b'1'..=b'9') => pos = skip_digits(input, pos + 1),
        _ => return Err(invalid()),
    }
    let mut tag = Tag::Integer;
    if input.get(pos) == Some(&b'.') {
        pos += 1;
        if !matches!(input.get(pos), Some(b'0'..=b'9')) {
            return Err(invalid());
        }
        pos = skip_digits(input, pos + 1);
        tag = Tag::Float;
    }
    if let Some(b'e' | b'E') = input.get(pos) {
        pos += 1;
        if let Some(b'+' | b'-') = input.get(pos) {
            pos += 1;
        }
        if !matches!(input.get(pos), Some(b'0'..=b'9')) {
            return Err(invalid());
        }
        pos = skip_digits(input, pos + 1);
        tag = Tag::Float;
    }
    Ok((pos, tag))
}

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
