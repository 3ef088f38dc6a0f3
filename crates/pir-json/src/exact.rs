//! Reading JSON text spelled exactly as the compact writer spells it, without a document.
//!
//! A model file repeats a few shapes of small values (a tensor type, an `{"#":…,"D":…}`
//! attribute); parsing each into a [`Document`](crate::Document) costs more than matching its
//! bytes. [`Exact`] matches such text piece by piece: literal bytes, strings without escapes,
//! numbers, arrays. Every method gives `None` when the text is spelled in any other way (white
//! space, escapes, another key order), and the caller then parses the text as a document, so
//! what `Exact` accepts is always valid JSON whose values are those the document would give:
//! numbers go through the document's own routines.

use crate::dom::{number, parse_i64, parse_u64, Number};
use crate::parser::{plain_prefix_len, scan_number, short_integer, MAX_CONTAINER_LEN};

/// How deep [`Exact::nest`] lets values nest: far below [`MAX_DEPTH`](crate::MAX_DEPTH), so
/// that text `Exact` accepts is never too deep for the parser.
pub const EXACT_MAX_DEPTH: usize = 64;

/// A cursor over JSON text in compact spelling (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Exact<'t> {
    text: &'t str,
    pos: usize,
    depth: usize,
}

impl<'t> Exact<'t> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'t str) -> Self {
        Exact {
            text,
            pos: 0,
            depth: 0,
        }
    }

    /// The text not read yet.
    #[inline]
    pub fn rest(&self) -> &'t str {
        self.text.get(self.pos..).unwrap_or_default()
    }

    /// Whether the whole text was read.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// Reads the byte `b` (an ASCII character).
    #[inline]
    pub fn eat_byte(&mut self, b: u8) -> Option<()> {
        (self.text.as_bytes().get(self.pos) == Some(&b)).then(|| {
            self.pos += 1;
        })
    }

    /// Reads `literal` byte for byte.
    #[inline]
    pub fn eat(&mut self, literal: &str) -> Option<()> {
        self.rest().starts_with(literal).then(|| {
            self.pos += literal.len();
        })
    }

    /// Reads a string without escapes or control characters (`"abc"`), giving its content.
    #[inline]
    pub fn string(&mut self) -> Option<&'t str> {
        let body = self.rest().strip_prefix('"')?;
        let len = plain_prefix_len(body.as_bytes());
        // The body ends at its first special byte, which must be the closing quote.
        if body.as_bytes().get(len) != Some(&b'"') {
            return None;
        }
        let content = body.get(..len)?;
        self.pos += len + 2;
        Some(content)
    }

    /// Reads `true` or `false`.
    #[inline]
    pub fn boolean(&mut self) -> Option<bool> {
        if self.eat("true").is_some() {
            Some(true)
        } else {
            self.eat("false").map(|()| false)
        }
    }

    /// Reads a number token; its text and whether it is an integer (no fraction or exponent).
    #[inline]
    fn number_token(&mut self) -> Option<(&'t str, bool)> {
        let (end, tag) = scan_number(self.text.as_bytes(), self.pos).ok()?;
        let token = self.text.get(self.pos..end)?;
        self.pos = end;
        Some((token, tag == crate::dom::Tag::Integer))
    }

    /// Reads a number, classified as [`Value::as_number`](crate::Value::as_number) does.
    #[inline]
    pub fn number(&mut self) -> Option<Number> {
        let (token, integer) = self.number_token()?;
        number(token, integer)
    }

    /// Reads an integer token (no fraction or exponent, as the parser's number scan decides)
    /// with `parse`, the document's routine for the integer reads; `None`, with the cursor
    /// where it was, for any other number or one `parse` refuses.
    #[inline]
    fn integer<T>(&mut self, parse: fn(&[u8]) -> Option<T>) -> Option<T> {
        let at = self.pos;
        let (token, integer) = self.number_token()?;
        match integer.then(|| parse(token.as_bytes())).flatten() {
            Some(v) => Some(v),
            None => {
                self.pos = at;
                None
            }
        }
    }

    /// Reads an integer token that fits in `i64`, as [`Value::as_i64`](crate::Value::as_i64)
    /// accepts it.
    #[inline]
    pub fn int(&mut self) -> Option<i64> {
        // Dims and most attributes are short: read in one pass, digits only.
        if let Some((value, end)) = short_integer(self.text.as_bytes(), self.pos) {
            self.pos = end;
            return Some(value);
        }
        self.integer(parse_i64)
    }

    /// Reads a non-negative integer token that fits in `u64`, as
    /// [`Value::as_u64`](crate::Value::as_u64) accepts it.
    #[inline]
    pub fn uint(&mut self) -> Option<u64> {
        self.integer(parse_u64)
    }

    /// Reads a number as `f64`, as [`Value::as_f64`](crate::Value::as_f64) gives it.
    #[inline]
    pub fn float(&mut self) -> Option<f64> {
        self.number().map(Number::to_f64)
    }

    /// Runs `read` one level deeper, failing past [`EXACT_MAX_DEPTH`]: whoever reads an
    /// object or array by hand reads it through this.
    #[inline]
    pub fn nest<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        if self.depth >= EXACT_MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    /// Reads an array (`[a,b]`, `[]`), each element with `item`.
    pub fn array(&mut self, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.nest(|s| {
            s.eat_byte(b'[')?;
            if s.eat_byte(b']').is_some() {
                return Some(());
            }
            let mut count = 0usize;
            loop {
                count += 1;
                if count > MAX_CONTAINER_LEN {
                    return None;
                }
                item(s)?;
                if s.eat_byte(b']').is_some() {
                    return Some(());
                }
                s.eat_byte(b',')?;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    #[test]
    fn numbers_are_those_of_the_document() {
        for text in [
            "0",
            "-0",
            "-0.0",
            "1e40",
            "-1e400",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "18446744073709551616",
            "9.999999747378752e-06",
            "0.1",
            "1E+2",
            "-",
            "01",
            "-01",
            "00",
            "1.",
            "1e",
            "12",
            "-12",
            "1.5",
            "2e3",
        ] {
            let Ok(doc) = parse(text.as_bytes()) else {
                let mut e = Exact::new(text);
                assert!(e.int().is_none() || !e.at_end(), "{text}");
                let mut e = Exact::new(text);
                assert!(e.uint().is_none() || !e.at_end(), "{text}");
                let mut e = Exact::new(text);
                assert!(e.number().is_none() || !e.at_end(), "{text}");
                continue;
            };
            let v = doc.root();
            assert_eq!(Exact::new(text).number(), v.as_number(), "{text}");
            assert_eq!(
                Exact::new(text).float().map(f64::to_bits),
                v.as_f64().map(f64::to_bits),
                "{text}"
            );
            assert_eq!(Exact::new(text).int(), v.as_i64(), "{text}");
            assert_eq!(Exact::new(text).uint(), v.as_u64(), "{text}");
        }
    }

    #[test]
    fn other_spellings_are_refused() {
        for text in ["01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity"] {
            let mut e = Exact::new(text);
            assert!(e.number().is_none() || !e.at_end(), "{text}");
        }
        assert_eq!(Exact::new(r#""a\"b""#).string(), None);
        assert_eq!(Exact::new("\"a\u{1}b\"").string(), None);
        assert_eq!(Exact::new(r#""abc"#).string(), None);
        assert_eq!(Exact::new(r#""é""#).string(), Some("é"));
        assert_eq!(Exact::new("[1, 2]").array(|e| e.int().map(drop)), None);
        assert_eq!(Exact::new("[1,]").array(|e| e.int().map(drop)), None);
        let mut e = Exact::new("[[],[1]]");
        let mut lengths = Vec::new();
        e.array(|e| {
            let mut n = 0;
            e.array(|e| e.int().map(|_| n += 1))?;
            lengths.push(n);
            Some(())
        })
        .unwrap();
        assert!(e.at_end());
        assert_eq!(lengths, [0, 1]);
    }

    #[test]
    fn nesting_is_bounded() {
        fn nested(e: &mut Exact<'_>) -> Option<()> {
            e.array(nested)
        }
        let deep = "[".repeat(EXACT_MAX_DEPTH) + &"]".repeat(EXACT_MAX_DEPTH);
        assert!(Exact::new(&deep).array(nested).is_some());
        let deeper = "[".repeat(EXACT_MAX_DEPTH + 1) + &"]".repeat(EXACT_MAX_DEPTH + 1);
        assert!(Exact::new(&deeper).array(nested).is_none());
    }
}
