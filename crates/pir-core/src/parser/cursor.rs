//! The lexer: a cursor over the text's bytes that reads one token at a time.
//!
//! The printed IR is not context-free at the token level (`2x3xf32` is a dims
//! list, `Undefined(AnyLayout)` one layout word, `real:1 imag:2` one complex
//! number), so the parser asks the cursor for the token it expects next instead
//! of splitting the whole text up front. Every method skips white space and
//! `//` comments first and records where the token started, so every error
//! points at the text it is about.

use std::borrow::Cow;

use super::error::ParseError;

/// Which escapes a quoted string uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StringEscapes {
    /// Paddle's printer: `\"` is a quote, every other byte is itself.
    Paddle,
    /// The typed form: `\"`, `\\`, `\n`, `\t`, `\r` and `\u{XXXX}`.
    Full,
}

/// A position in the text.
#[derive(Clone, Debug)]
pub struct Cursor<'t> {
    src: &'t str,
    pos: usize,
    escapes: StringEscapes,
}

/// Bytes that may continue an identifier (bit 0) and a value name (bit 1),
/// one look-up per byte in the loops that read them.
const NAME_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' {
            t[c] |= 1;
        }
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b'-') {
            t[c] |= 2;
        }
        c += 1;
    }
    t
};

/// Whether `b` may continue an identifier (`pd_op.tensor_array`, `float32`).
#[inline]
pub fn is_ident_byte(b: u8) -> bool {
    NAME_BYTES[b as usize] & 1 != 0
}

/// Whether `b` may continue a value name after `%` (`%12`, `%arg_0`, `%arg-1`).
#[inline]
fn is_value_name_byte(b: u8) -> bool {
    NAME_BYTES[b as usize] & 2 != 0
}

/// The offset of the first `"`, `\` or newline at or after `from`.
#[inline]
fn string_stop(b: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each zero byte of `v` (and maybe of bytes above the
    // first zero, which the lowest set bit does not see).
    let zeros = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let mut i = from;
    // Most strings are short names: eight bytes at a time costs less than
    // setting up a vector search; long ones go to `memchr`.
    while i < from + 64 {
        let Some(chunk) = b.get(i..i + 8) else {
            break;
        };
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).ok()?);
        let hits = zeros(w ^ (ONES * u64::from(b'"')))
            | zeros(w ^ (ONES * u64::from(b'\\')))
            | zeros(w ^ (ONES * u64::from(b'\n')));
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    memchr::memchr3(b'"', b'\\', b'\n', b.get(i..)?).map(|k| i + k)
}

impl<'t> Cursor<'t> {
    /// A cursor at the start of `src`.
    pub fn new(src: &'t str, escapes: StringEscapes) -> Self {
        Cursor {
            src,
            pos: 0,
            escapes,
        }
    }

    /// The whole text.
    #[inline]
    pub fn src(&self) -> &'t str {
        self.src
    }

    /// The byte offset of the cursor.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the cursor (to a position obtained from [`Cursor::pos`]).
    #[inline]
    pub fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// The string escapes in use.
    pub fn escapes(&self) -> StringEscapes {
        self.escapes
    }

    /// Sets the string escapes (known once the text's form is known).
    pub fn set_escapes(&mut self, escapes: StringEscapes) {
        self.escapes = escapes;
    }

    /// The text from the cursor on.
    #[inline]
    pub fn rest(&self) -> &'t str {
        &self.src[self.pos..]
    }

    #[inline]
    fn bytes(&self) -> &'t [u8] {
        self.src.as_bytes()
    }

    /// An error at `offset` spanning `len` bytes.
    pub fn error_at(&self, offset: usize, len: usize, message: impl Into<String>) -> ParseError {
        ParseError::at(self.src, offset, len, message)
    }

    /// An error at the next token, saying what was expected there.
    pub fn expected(&mut self, what: &str) -> ParseError {
        self.skip_ws();
        let found = self.describe_next();
        let len = self.token_len();
        self.error_at(self.pos, len, format!("expected {what}, found {found}"))
    }

    /// The length in bytes of the token-like text at the cursor (for carets).
    fn token_len(&self) -> usize {
        let rest = self.rest().as_bytes();
        match rest.first() {
            None => 0,
            Some(&b) if is_ident_byte(b) || b == b'-' || b == b'%' => {
                1 + rest[1..]
                    .iter()
                    .take_while(|&&b| is_value_name_byte(b))
                    .count()
            }
            Some(_) => self.rest().chars().next().map_or(1, char::len_utf8),
        }
    }

    /// A short description of the text at the cursor for error messages.
    pub fn describe_next(&self) -> String {
        let rest = self.rest();
        match rest.chars().next() {
            None => "the end of the text".into(),
            Some('\n') => "the end of the line".into(),
            Some(_) => {
                let len = self.token_len().max(1);
                let end = (0..=len.min(rest.len()))
                    .rev()
                    .find(|&i| rest.is_char_boundary(i))
                    .unwrap_or(0);
                let token = &rest[..end.max(rest.chars().next().map_or(0, char::len_utf8))];
                let token: String = token.chars().take(40).collect();
                format!("`{token}`")
            }
        }
    }

    /// Skips spaces, tabs, newlines and `//` comments.
    #[inline]
    pub fn skip_ws(&mut self) {
        let b = self.bytes();
        loop {
            match b.get(self.pos) {
                Some(b' ' | b'\n' | b'\t' | b'\r') => self.pos += 1,
                Some(b'/') if b.get(self.pos + 1) == Some(&b'/') => {
                    while let Some(&c) = b.get(self.pos) {
                        if c == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    /// Skips spaces only (not newlines), for line-sensitive places.
    #[inline]
    pub fn skip_spaces(&mut self) {
        while self.bytes().get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
    }

    /// The next byte after white space, without consuming it.
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.bytes().get(self.pos).copied()
    }

    /// The byte `n` places after the cursor (no white space skipped).
    #[inline]
    pub fn peek_at(&self, n: usize) -> Option<u8> {
        self.bytes().get(self.pos + n).copied()
    }

    /// Whether the text after white space starts with `s` (nothing consumed).
    #[inline]
    pub fn looking_at(&mut self, s: &str) -> bool {
        self.skip_ws();
        let rest = &self.bytes()[self.pos..];
        let s = s.as_bytes();
        // Tokens are short: compare in place rather than through `memcmp`.
        rest.len() >= s.len() && rest.iter().zip(s).all(|(a, b)| a == b)
    }

    /// Consumes `s` if the text after white space starts with it.
    #[inline]
    pub fn eat(&mut self, s: &str) -> bool {
        if self.looking_at(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Consumes `s` or fails with "expected `s` `context`".
    #[inline]
    pub fn expect(&mut self, s: &str, context: &str) -> Result<(), ParseError> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.expect_failed(s, context))
        }
    }

    /// The error of a failed [`Cursor::expect`], out of the hot path.
    #[cold]
    #[inline(never)]
    fn expect_failed(&mut self, s: &str, context: &str) -> ParseError {
        if context.is_empty() {
            self.expected(&format!("`{s}`"))
        } else {
            self.expected(&format!("`{s}` {context}"))
        }
    }

    /// Consumes `word` if it stands at the cursor as a whole identifier.
    pub fn eat_keyword(&mut self, word: &str) -> bool {
        self.skip_ws();
        let rest = self.rest().as_bytes();
        if rest.starts_with(word.as_bytes())
            && !rest.get(word.len()).copied().is_some_and(is_ident_byte)
        {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    /// Reads an identifier `[A-Za-z_][A-Za-z0-9_.]*`.
    #[inline]
    pub fn ident(&mut self) -> Option<&'t str> {
        self.skip_ws();
        let b = self.bytes();
        let start = self.pos;
        match b.get(start) {
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
            _ => return None,
        }
        let mut end = start + 1;
        while b.get(end).copied().is_some_and(is_ident_byte) {
            end += 1;
        }
        self.pos = end;
        Some(&self.src[start..end])
    }

    /// Reads an identifier or fails saying what was expected.
    pub fn expect_ident(&mut self, what: &str) -> Result<&'t str, ParseError> {
        match self.ident() {
            Some(s) => Ok(s),
            None => Err(self.expected(what)),
        }
    }

    /// Reads a value name `%name` and returns `name` with its offset.
    #[inline]
    pub fn value_name(&mut self) -> Option<(&'t str, usize)> {
        self.skip_ws();
        let b = self.bytes();
        if b.get(self.pos) != Some(&b'%') {
            return None;
        }
        let start = self.pos + 1;
        let mut end = start;
        while b.get(end).copied().is_some_and(is_value_name_byte) {
            end += 1;
        }
        if end == start {
            return None;
        }
        self.pos = end;
        Some((&self.src[start..end], start - 1))
    }

    /// Reads the text of a number: an optional sign, then digits with an
    /// optional fraction and exponent, or `nan` / `inf` / `infinity`.
    pub fn number_text(&mut self) -> Option<&'t str> {
        self.skip_ws();
        let b = self.bytes();
        let start = self.pos;
        let mut i = start;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        for word in ["infinity", "inf", "nan"] {
            let w = word.as_bytes();
            if b.len() >= i + w.len()
                && b[i..i + w.len()].eq_ignore_ascii_case(w)
                && !b.get(i + w.len()).copied().is_some_and(is_ident_byte)
            {
                self.pos = i + w.len();
                return Some(&self.src[start..self.pos]);
            }
        }
        let digits_from = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let mut any_digit = i > digits_from;
        if b.get(i) == Some(&b'.') {
            let frac = i + 1;
            let mut j = frac;
            while b.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            if j > frac || any_digit {
                any_digit |= j > frac;
                i = j;
            }
        }
        if !any_digit {
            return None;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            let mut j = i + 1;
            if matches!(b.get(j), Some(b'-' | b'+')) {
                j += 1;
            }
            let exp = j;
            while b.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            if j > exp {
                i = j;
            }
        }
        self.pos = i;
        Some(&self.src[start..i])
    }

    /// Reads a signed 64-bit integer. `-0` is not one (integers never print
    /// so; floats do).
    pub fn int(&mut self, what: &str) -> Result<i64, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let text = self.integer_text().ok_or_else(|| self.expected(what))?;
        if text == "-0" {
            self.pos = start;
            return Err(self.expected(what));
        }
        text.parse::<i64>()
            .map_err(|_| self.error_at(start, text.len(), format!("{what} `{text}` out of range")))
    }

    /// Reads an unsigned 64-bit integer.
    pub fn uint(&mut self, what: &str) -> Result<u64, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let text = self.integer_text().ok_or_else(|| self.expected(what))?;
        text.parse::<u64>()
            .map_err(|_| self.error_at(start, text.len(), format!("{what} `{text}` out of range")))
    }

    /// The text of an integer `-?[0-9]+` (not followed by a fraction).
    fn integer_text(&mut self) -> Option<&'t str> {
        let b = self.bytes();
        let start = self.pos;
        let mut i = start;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let digits = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        // `6.7e-06` is a float, not the integer 6.
        if i == digits || matches!(b.get(i), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.pos = i;
        Some(&self.src[start..i])
    }

    /// Reads a quoted string with the cursor's escapes.
    pub fn string(&mut self) -> Result<Cow<'t, str>, ParseError> {
        self.skip_ws();
        let start = self.pos;
        if self.bytes().get(start) != Some(&b'"') {
            return Err(self.expected("a quoted string"));
        }
        let (end, escaped) = self
            .scan_string(start)
            .ok_or_else(|| self.error_at(start, 1, "unterminated string"))?;
        let body = &self.src[start + 1..end - 1];
        self.pos = end;
        if !escaped {
            return Ok(Cow::Borrowed(body));
        }
        self.unescape(body, start + 1).map(Cow::Owned)
    }

    /// The offset just past the closing quote of the string opening at `start`.
    #[inline]
    pub fn string_end(&self, start: usize) -> Option<usize> {
        self.scan_string(start).map(|(end, _)| end)
    }

    /// [`Cursor::string_end`], and whether the string holds a backslash.
    #[inline]
    fn scan_string(&self, start: usize) -> Option<(usize, bool)> {
        let b = self.bytes();
        let mut i = start + 1;
        let mut escaped = false;
        loop {
            // Only quotes, backslashes and newlines matter.
            i = string_stop(b, i)?;
            match b[i] {
                b'"' => return Some((i + 1, escaped)),
                // The typed form escapes newlines; Paddle prints them raw.
                b'\n' if self.escapes == StringEscapes::Full => return None,
                b'\n' => i += 1,
                _ => {
                    escaped = true;
                    match self.escapes {
                        StringEscapes::Paddle if b.get(i + 1) == Some(&b'"') => i += 2,
                        StringEscapes::Paddle => i += 1,
                        StringEscapes::Full => i += 2,
                    }
                }
            }
        }
    }

    fn unescape(&self, body: &str, offset: usize) -> Result<String, ParseError> {
        let mut out = String::with_capacity(body.len());
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            let bad = |len: usize, what: &str| self.error_at(offset + i, len, what.to_owned());
            match self.escapes {
                StringEscapes::Paddle => match body[i + 1..].starts_with('"') {
                    true => {
                        chars.next();
                        out.push('"');
                    }
                    false => out.push('\\'),
                },
                StringEscapes::Full => match chars.next() {
                    Some((_, '"')) => out.push('"'),
                    Some((_, '\\')) => out.push('\\'),
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, 'u')) => {
                        let rest = &body[i + 2..];
                        let close = rest.find('}').filter(|_| rest.starts_with('{'));
                        let code = close
                            .map(|e| &rest[1..e])
                            .filter(|hex| {
                                !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit())
                            })
                            .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                            .and_then(char::from_u32)
                            .ok_or_else(|| bad(2, "bad `\\u{…}` escape"))?;
                        out.push(code);
                        for _ in 0..close.unwrap_or(0) + 1 {
                            chars.next();
                        }
                    }
                    _ => return Err(bad(2, "unknown escape in string")),
                },
            }
        }
        Ok(out)
    }

    /// The offset just past the bracket that closes the one at `start`
    /// (`{`, `[`, `(` or `<`), skipping strings; `None` if it is not closed
    /// on the same line.
    pub fn balanced_end(&self, start: usize) -> Option<usize> {
        let b = self.bytes();
        let mut depth = 0usize;
        let mut i = start;
        while let Some(&c) = b.get(i) {
            match c {
                b'{' | b'[' | b'(' | b'<' => depth += 1,
                b'}' | b']' | b')' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                b'>' if i > 0 && b[i - 1] == b'-' => {} // `->` is no bracket
                b'>' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                b'"' => {
                    i = self.string_end(i)?;
                    continue;
                }
                // Attribute lists and types sit on one line (strings aside).
                b'\n' => return None,
                _ => {}
            }
            i += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cur(s: &str) -> Cursor<'_> {
        Cursor::new(s, StringEscapes::Paddle)
    }

    #[test]
    fn numbers() {
        for (text, want) in [
            ("1e-05,", "1e-05"),
            ("-0.5]", "-0.5"),
            ("1.23457e+08 ", "1.23457e+08"),
            ("nan}", "nan"),
            ("-inf,", "-inf"),
            ("-nan", "-nan"),
            ("7x", "7"),
            ("3.", "3."),
            ("1e", "1"),
        ] {
            assert_eq!(cur(text).number_text(), Some(want), "{text}");
        }
        assert_eq!(cur("x").number_text(), None);
        assert_eq!(cur("-").number_text(), None);
        assert_eq!(cur("index").number_text(), None);
        assert_eq!(cur("infinite").number_text(), None);
    }

    /// The stop found eight bytes at a time is the first one, wherever it
    /// falls in a chunk, and past 64 bytes `memchr` finds it.
    #[test]
    fn string_stops_at_every_offset() {
        // Bytes one bit away from a stop, or with the high bit set (UTF-8).
        for fill in [b'a', b'"' ^ 0x80, b'\\' ^ 1, b'\n' + 1, 0xc3] {
            for len in 0..150 {
                for stop in [b'"', b'\\', b'\n'] {
                    let mut text = vec![fill; len];
                    text.push(stop);
                    text.extend_from_slice(b"\"\\\nrest");
                    assert_eq!(string_stop(&text, 0), Some(len), "{fill} {len} {stop}");
                    assert_eq!(string_stop(&text, len), Some(len));
                }
                assert_eq!(string_stop(&vec![fill; len], 0), None);
            }
        }
    }

    #[test]
    fn strings_with_both_escapes() {
        let mut c = cur(r#""a\"b\c""#);
        assert_eq!(c.string().unwrap(), "a\"b\\c");
        let mut c = Cursor::new(r#""a\"b\\c\n\u{e9}""#, StringEscapes::Full);
        assert_eq!(c.string().unwrap(), "a\"b\\c\né");
        let mut c = Cursor::new(r#""a\q""#, StringEscapes::Full);
        assert!(c.string().unwrap_err().message.contains("unknown escape"));
        assert!(cur("\"abc")
            .string()
            .unwrap_err()
            .message
            .contains("unterminated"));
    }

    #[test]
    fn identifiers_values_and_comments() {
        let mut c = cur("  // note\n pd_op.tensor_array<f32> %arg_0 %-1");
        assert_eq!(c.ident(), Some("pd_op.tensor_array"));
        assert!(c.eat("<"));
        assert_eq!(c.ident(), Some("f32"));
        assert!(c.eat(">"));
        assert_eq!(c.value_name().map(|v| v.0), Some("arg_0"));
        assert_eq!(c.value_name().map(|v| v.0), Some("-1"));
        assert_eq!(c.peek(), None);
    }

    #[test]
    fn balanced_spans_skip_strings_and_arrows() {
        let s = r#"{a:"}",b:[1,{}]} rest"#;
        assert_eq!(cur(s).balanced_end(0), Some(s.find(" rest").unwrap()));
        let t = "tensor<2x3xf32> x";
        assert_eq!(cur(t).balanced_end(6), Some(15));
        assert_eq!(cur("{unclosed").balanced_end(0), None);
    }
}
