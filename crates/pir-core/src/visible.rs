//! Text shown to a person: names from a model (which a hostile file can
//! fill with terminal escapes, NUL, or characters XML forbids) made
//! visible before they reach a terminal or a document, and quoted as a
//! string literal of the text formats that write them.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with its control characters (newline and tab kept) written as
/// `\x01`, `\x1b`, `\x7f`, `\u{85}`; with `xml`, also U+FFFE and U+FFFF,
/// which XML 1.0 does not allow even escaped. Text without them is
/// borrowed as it is.
///
/// ```
/// use pir_core::visible::visible;
/// assert_eq!(visible("a\tb\n", false), "a\tb\n");
/// assert_eq!(visible("\x1b]0;title\x07", false), "\\x1b]0;title\\x07");
/// assert_eq!(visible("\u{fffe}", true), "\\u{fffe}");
/// ```
pub fn visible(text: &str, xml: bool) -> Cow<'_, str> {
    let plain = |c: char| {
        (!c.is_control() || c == '\n' || c == '\t')
            && !(xml && (c == '\u{fffe}' || c == '\u{ffff}'))
    };
    if text.chars().all(plain) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if plain(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    Cow::Owned(out)
}

/// `text` as a double-quoted string literal: `"` and `\\` escaped with a
/// backslash, and each character of `escapes` spelled as it says (DOT escapes
/// only a newline, `\\n`; the DRR text also a tab, `\\t`).
///
/// ```
/// use pir_core::visible::quoted;
/// assert_eq!(quoted("a \"b\"\n", &[('\n', "\\n")]), r#""a \"b\"\n""#);
/// ```
pub fn quoted(text: &str, escapes: &[(char, &str)]) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => match escapes.iter().find(|&&(e, _)| e == c) {
                Some(&(_, spelled)) => out.push_str(spelled),
                None => out.push(c),
            },
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::{quoted, visible};

    #[test]
    fn quoting_escapes_quotes_backslashes_and_the_escapes_named() {
        assert_eq!(quoted(r"a\b", &[]), r#""a\\b""#);
        assert_eq!(quoted("\t\n", &[('\t', "\\t")]), "\"\\t\n\"");
    }

    #[test]
    fn controls_become_visible_and_the_rest_stays() {
        assert_eq!(
            visible("\0\x1b[31m\r\x7f\u{85}é", false),
            "\\x00\\x1b[31m\\x0d\\x7f\\u{85}é"
        );
        assert_eq!(visible("\u{ffff}", false), "\u{ffff}");
        assert_eq!(visible("\u{ffff}", true), "\\u{ffff}");
    }
}
