//! Matching Paddle's compact text of an op's commonest parts byte by byte:
//! the parts the scanner ([`scan`](super::scan)) would otherwise read a key,
//! a container and a value at a time, or delimit byte by byte. Each matcher
//! moves the stream past the text it matches, which is exactly the text the
//! field-by-field read (or [`Stream::raw_value`]) would take; on any other
//! text it gives `None` and the caller reads the part field by field from
//! where it was, so values and errors are those of that read.

use pir_core::builtin::{DenseTensorType, StrAttr};
use pir_core::{AttrDef, TypeDef};
use std::ops::Range;

use pir_json::Stream;

use super::scan::end_of;

/// Moves the stream past `text` when the input continues with exactly it.
/// Inlined so that each literal's comparison is compiled for its length.
#[inline(always)]
pub(super) fn eat(s: &mut Stream<'_>, text: &[u8]) -> bool {
    let at = s.offset();
    let found = s
        .text()
        .as_bytes()
        .get(at..)
        .is_some_and(|rest| rest.starts_with(text));
    if found {
        s.rewind(at + text.len());
    }
    found
}

/// Moves the stream past the string `"text"` when it comes next, spelled
/// exactly so; `text` holds no quote, backslash or control character.
/// Inlined so that a literal `text` is compared for its length.
#[inline(always)]
pub(super) fn eat_plain_string(s: &mut Stream<'_>, text: &str) -> bool {
    let at = s.offset();
    let rest = s.text().as_bytes().get(at..).unwrap_or_default();
    let len = text.len();
    let found = rest.first() == Some(&b'"')
        && rest.get(1..=len) == Some(text.as_bytes())
        && rest.get(len + 1) == Some(&b'"');
    if found {
        s.rewind(at + len + 2);
    }
    found
}

/// The start of a file as Paddle writes it, up to its top block's list of
/// ops: `{"base_code":{"magic":"pir","trainable":flag,"version":n},
/// "program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0",
/// "args":[],"ops":` with no white space, which the stream moves past; the
/// trainable flag and the version. `None`, with the stream where it was,
/// for any other text (read key by key: the same values).
pub(super) fn compact_prelude(s: &mut Stream<'_>) -> Option<(bool, u64)> {
    let at = s.offset();
    let read = prelude_parts(s);
    if read.is_none() {
        s.rewind(at);
    }
    read
}

fn prelude_parts(s: &mut Stream<'_>) -> Option<(bool, u64)> {
    if !eat(s, br#"{"base_code":{"magic":"pir","trainable":"#) {
        return None;
    }
    let trainable = match eat(s, b"true") {
        true => true,
        false => eat(s, b"false").then_some(false)?,
    };
    if !eat(s, br#","version":"#) {
        return None;
    }
    let version = u64::try_from(s.i64().ok()??).ok()?;
    let rest =
        br##"},"program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":[],"ops":"##;
    eat(s, rest).then_some((trainable, version))
}

/// The end of a file as Paddle writes it after its top block's list of
/// ops (see [`compact_prelude`]): the block, the region and the program
/// closed, which the stream moves past.
pub(super) fn compact_postlude(s: &mut Stream<'_>) -> bool {
    eat(s, b"}]}]}}")
}

/// An operand `{"%":id}` at the stream, in compact text; `None`, with the
/// stream where it was, for any other text.
pub(super) fn compact_input(s: &mut Stream<'_>) -> Option<i64> {
    let at = s.offset();
    let id = (eat(s, br#"{"%":"#))
        .then(|| s.i64().ok().flatten())
        .flatten()
        .filter(|_| eat(s, b"}"));
    if id.is_none() {
        s.rewind(at);
    }
    id
}

/// The operand ids `{"%":id}` of a list whose `[` the stream has passed,
/// in compact text through its `]`, appended to `ids`; their range there.
/// `None`, with the stream and `ids` anywhere, for other text.
#[inline(always)]
pub(super) fn compact_operands(s: &mut Stream<'_>, ids: &mut Vec<i64>) -> Option<Range<u32>> {
    let first = end_of(ids);
    compact_items(s, |s| {
        ids.push(compact_input(s)?);
        Some(())
    })?;
    Some(first..end_of(ids))
}

/// The rest of an array whose `[` the stream has passed, in compact text:
/// `]`, or items read by `item` separated by `,` and closed by `]`. `None`
/// as soon as `item` gives `None` or a separator is missing. Inlined into
/// each caller, as its loop would be.
#[inline(always)]
pub(super) fn compact_items<'a>(
    s: &mut Stream<'a>,
    mut item: impl FnMut(&mut Stream<'a>) -> Option<()>,
) -> Option<()> {
    if eat(s, b"]") {
        return Some(());
    }
    loop {
        item(s)?;
        if eat(s, b"]") {
            return Some(());
        }
        if !eat(s, b",") {
            return None;
        }
    }
}

/// An entry holding a string attribute at the stream,
/// `{"AT":{"#":"0.a_str","D":"…"},"N":"…"}` exactly with plain strings (no
/// escapes or control characters), which the stream moves past; `None`,
/// with the stream where it was, for other text. Its text is the one
/// [`Stream::raw_value`] finds, matched rather than walked byte by byte:
/// these entries (a `struct_name` per layer) are the ones the memo of an
/// entry misses most.
pub(super) fn compact_str_entry<'a>(s: &mut Stream<'a>) -> Option<&'a str> {
    matched(s, str_entry_parts)
}

/// Moves past the parts of [`compact_str_entry`]'s text, or `None`.
fn str_entry_parts(s: &mut Stream<'_>) -> Option<()> {
    let prefix = [
        r##"{"AT":{"#":""##,
        StrAttr::JSON_IDS.first()?,
        r#"","D":""#,
    ];
    eat_all(s, prefix)?;
    plain_string_rest(s)?;
    if !eat(s, br#"},"N":""#) {
        return None;
    }
    plain_string_rest(s)?;
    eat(s, b"}").then_some(())
}

/// An attribute entry at the stream, `{"AT":{"#":"kind","D":value},"N":"name"}`
/// exactly with plain strings for the kind and the name, which the stream
/// moves past; `None`, with the stream where it was, for other text. Its
/// text is the one [`Stream::raw_value`] finds for the whole entry: the
/// frame is matched, and only the value is delimited byte by byte (most
/// are a literal, a number or a short list), so an entry met for the first
/// time costs about a third of delimiting it whole.
pub(super) fn compact_entry<'a>(s: &mut Stream<'a>) -> Option<&'a str> {
    matched(s, entry_parts)
}

/// Moves past the parts of [`compact_entry`]'s text, or `None`.
fn entry_parts(s: &mut Stream<'_>) -> Option<()> {
    if !eat(s, br##"{"AT":{"#":""##) {
        return None;
    }
    plain_string_rest(s)?;
    if !eat(s, br#","D":"#) {
        return None;
    }
    entry_value(s)?;
    if !eat(s, br#"},"N":""#) {
        return None;
    }
    plain_string_rest(s)?;
    eat(s, b"}").then_some(())
}

/// Moves past the value of an entry, delimited as the whole entry's walk
/// would pass over it: a literal or a number runs to the `}` that must
/// follow it, a plain string to its closing quote, a list of integers to
/// its `]`; brackets and quotes decide where anything else ends.
fn entry_value(s: &mut Stream<'_>) -> Option<()> {
    let at = s.offset();
    match s.text().as_bytes().get(at)? {
        b'"' => {
            s.rewind(at + 1);
            if plain_string_rest(s).is_some() {
                return Some(());
            }
        }
        b'[' => {
            s.rewind(at + 1);
            skip_while(s, |b| b.is_ascii_digit() || b == b'-' || b == b',');
            if eat(s, b"]") {
                return Some(());
            }
        }
        b'{' => {}
        _ => {
            skip_while(s, |b| {
                b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
            });
            return (s.offset() > at).then_some(());
        }
    }
    s.rewind(at);
    s.raw_value().ok().map(drop)
}

/// A dense tensor type at the stream in Paddle's compact text,
/// `{"#":"0.t_dtensor","D":[{"#":"dtype"},[dims],"layout",[],offset]}` with
/// plain strings, which the stream moves past; `None`, with the stream
/// where it was, for other text. Its text is the one [`Stream::raw_value`]
/// finds (only strings and brackets decide that), matched rather than
/// walked byte by byte: parameters' shapes vary, so the memo of a result's
/// type misses for about one parameter in three.
pub(super) fn compact_dense_type<'a>(s: &mut Stream<'a>) -> Option<&'a str> {
    matched(s, dense_type_parts)
}

/// Moves past the parts of [`compact_dense_type`]'s text, or `None`.
fn dense_type_parts(s: &mut Stream<'_>) -> Option<()> {
    let prefix = [
        r##"{"#":""##,
        DenseTensorType::JSON_IDS.first()?,
        r##"","D":[{"#":""##,
    ];
    eat_all(s, prefix)?;
    plain_string_rest(s)?;
    if !eat(s, b"},[") {
        return None;
    }
    skip_while(s, |b| b.is_ascii_digit() || b == b'-' || b == b',');
    if !eat(s, b"],\"") {
        return None;
    }
    plain_string_rest(s)?;
    if !eat(s, b",[],") {
        return None;
    }
    skip_while(s, |b| b.is_ascii_digit());
    eat(s, b"]}").then_some(())
}

/// Moves the stream past the bytes `keep` holds for.
fn skip_while(s: &mut Stream<'_>, keep: impl Fn(u8) -> bool) {
    let at = s.offset();
    let rest = s.text().as_bytes().get(at..).unwrap_or_default();
    let len = rest.iter().take_while(|&&b| keep(b)).count();
    s.rewind(at + len);
}

/// Three one-digit flags separated by commas at the stream (non-zero is
/// true), as Paddle writes them (`0,1,1`); `None` for any other text, which
/// the caller then reads field by field (`read_flags` in `scan`). What
/// follows, a `,` or `]`, is the caller's to match, so `0,1,10` fails there.
pub(super) fn compact_flags(s: &mut Stream<'_>) -> Option<[bool; 3]> {
    let at = s.offset();
    let &[a, b',', b, b',', c] = s.text().as_bytes().get(at..at + 5)? else {
        return None;
    };
    if ![a, b, c].iter().all(u8::is_ascii_digit) {
        return None;
    }
    s.rewind(at + 5);
    Some([a != b'0', b != b'0', c != b'0'])
}

/// A string at the stream with no escapes or control characters, quotes
/// included (the text [`Stream::raw_value`] would give), which the stream
/// moves past; `None`, with the stream where it was, for anything else.
pub(super) fn plain_string<'a>(s: &mut Stream<'a>) -> Option<&'a str> {
    let at = s.offset();
    if !eat(s, b"\"") {
        return None;
    }
    if plain_string_rest(s).is_none() {
        s.rewind(at);
        return None;
    }
    s.text().get(at..s.offset())
}

/// The rest of a string whose opening quote the stream has passed, when it
/// holds no escapes or control characters (so its text is its value); the
/// stream moves past the closing quote. `None` for other strings.
pub(super) fn plain_string_rest<'a>(s: &mut Stream<'a>) -> Option<&'a str> {
    let at = s.offset();
    let text = s.text();
    let rest = text.as_bytes().get(at..)?;
    let len = pir_json::plain_prefix_len(rest);
    if rest.get(len) != Some(&b'"') {
        return None;
    }
    let value = text.get(at..at + len)?;
    s.rewind(at + len + 1);
    Some(value)
}

/// The text `parts` moves the stream past, or `None` with the stream where
/// it was when they do not match.
fn matched<'a>(s: &mut Stream<'a>, parts: fn(&mut Stream<'_>) -> Option<()>) -> Option<&'a str> {
    let at = s.offset();
    if parts(s).is_none() {
        s.rewind(at);
        return None;
    }
    s.text().get(at..s.offset())
}

/// Moves the stream past `texts` one after the other, or `None` at the
/// first that does not come next.
fn eat_all<const N: usize>(s: &mut Stream<'_>, texts: [&str; N]) -> Option<()> {
    texts
        .into_iter()
        .all(|text| eat(s, text.as_bytes()))
        .then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `matcher` and [`Stream::raw_value`] take from the start of
    /// `text`, and where the matcher left the stream.
    fn both(
        text: &str,
        matcher: for<'a> fn(&mut Stream<'a>) -> Option<&'a str>,
    ) -> (Option<String>, usize, Option<String>) {
        let Ok(mut s) = Stream::new(text.as_bytes()) else {
            return (None, usize::MAX, None);
        };
        let matched = matcher(&mut s).map(str::to_owned);
        let at = s.offset();
        let raw = Stream::new(text.as_bytes())
            .ok()
            .and_then(|mut whole| whole.raw_value().ok().map(str::to_owned));
        (matched, at, raw)
    }

    #[test]
    fn an_entry_matched_is_the_text_raw_value_delimits() {
        let entries = [
            r##"{"AT":{"#":"0.a_bool","D":false},"N":"transpose_x"}"##,
            r##"{"AT":{"#":"1.a_intarray","D":[-1,8]},"N":"shape"}"##,
            r##"{"AT":{"#":"1.a_place","D":[0,0,""]},"N":"place"}"##,
            r##"{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":false}]},"N":"stop_gradient"}"##,
            r##"{"AT":{"#":"0.a_f32","D":1e-05},"N":"epsilon"}"##,
            r##"{"AT":{"#":"0.a_str","D":"a\"]}b"},"N":"name"}"##,
            r##"{"AT":{"#":"0.a_i32","D":-3},"N":"axis"},{"AT":1}"##,
            r##"{"AT":{"#":"1.a_intarray","D":[]},"N":"axes"}"##,
            r##"{"AT":{"#":"1.a_intarray","D":[1,[2]]},"N":"axes"}"##,
            r##"{"AT":{"#":"0.a_str","D":""},"N":"name"}"##,
            r##"{"AT":{"#":"0.a_f64","D":{"x":"}"}},"N":"name"}"##,
        ];
        for text in entries {
            let (matched, at, raw) = both(text, compact_entry);
            assert_eq!(matched, raw, "{text}");
            assert_eq!(at, raw.map_or(0, |r| r.len()), "{text}");
        }
    }

    #[test]
    fn a_string_is_eaten_only_when_spelled_exactly() {
        let texts = [
            (r#""p","#, true),
            (r#""p"#, false),
            (r#""pp""#, false),
            (r#""\u0070""#, false),
            (r#" "p""#, false),
            (r#"p""#, false),
            (r#""""#, false),
        ];
        for (text, eaten) in texts {
            let Ok(mut s) = Stream::new(text.as_bytes()) else {
                panic!("{text}");
            };
            assert_eq!(eat_plain_string(&mut s, "p"), eaten, "{text}");
            assert_eq!(s.offset(), if eaten { 3 } else { 0 }, "{text}");
        }
    }

    #[test]
    fn other_spellings_are_left_where_they_were() {
        let others = [
            r##"{ "AT":{"#":"0.a_bool","D":false},"N":"x"}"##,
            r##"{"AT":{"#":"0.a_bool","D":false},"N":"x\n"}"##,
            r##"{"AT":{"#":"0.a\\u0062","D":1},"N":"x"}"##,
            r##"{"AT":{"#":"0.a_bool","D":false x},"N":"x"}"##,
            r##"{"AT":{"#":"0.a_bool","D":[1,2},"N":"x"}"##,
            r##"{"AT":{"#":"0.a_bool","D":false},"N":"x""##,
            r##"{"N":"x","AT":{"#":"0.a_bool","D":false}}"##,
            r##"{"AT":{"#":"0.a_bool","D":},"N":"x"}"##,
            r##"{"AT":{"#":"0.a_bool","D":[1,2"##,
        ];
        for text in others {
            let (matched, at, _) = both(text, compact_entry);
            assert_eq!((matched, at), (None, 0), "{text}");
        }
    }
}
