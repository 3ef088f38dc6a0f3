//! Tests of `parser.rs`.
use super::*;
use crate::Kind;

fn err(input: &str) -> ParseError {
    match parse(input.as_bytes()) {
        Ok(_) => panic!("{input:?} should not parse"),
        Err(e) => e,
    }
}

fn ok(input: &str) -> Document<'_> {
    match parse(input.as_bytes()) {
        Ok(d) => d,
        Err(e) => panic!("{input:?} should parse: {e}"),
    }
}

#[test]
fn scalars_parse_at_the_root() {
    assert_eq!(ok("null").root().kind(), Kind::Null);
    assert_eq!(ok(" true ").root().as_bool(), Some(true));
    assert_eq!(ok("false").root().as_bool(), Some(false));
    assert_eq!(ok("-12").root().as_i64(), Some(-12));
    assert_eq!(ok("\"a\"").root().as_str().as_deref(), Some("a"));
    assert_eq!(ok("\t\r\n 1.5e3 \n").root().as_f64(), Some(1500.0));
}

#[test]
fn whitespace_is_allowed_between_all_tokens() {
    let doc = ok(" {\n \"a\" \t:\r [ 1 , { } , [ ] ] , \"b\" : null } ");
    let root = doc.root();
    assert_eq!(root.len(), 2);
    assert_eq!(root.get("a").map(|a| a.len()), Some(3));
}

#[test]
fn errors_name_what_was_expected() {
    assert_eq!(
        err("[1 2]").kind,
        ParseErrorKind::Expected {
            expected: "',' or ']' after array element"
        }
    );
    assert_eq!(
        err("{\"a\":1 \"b\"}").kind,
        ParseErrorKind::Expected {
            expected: "',' or '}' after object member"
        }
    );
    assert_eq!(
        err("{\"a\" 1}").kind,
        ParseErrorKind::Expected {
            expected: "':' after object key"
        }
    );
    assert_eq!(
        err("{1:2}").kind,
        ParseErrorKind::Expected {
            expected: "a string key"
        }
    );
    assert_eq!(
        err("[1,").kind,
        ParseErrorKind::UnexpectedEnd {
            expected: "a value"
        }
    );
    assert_eq!(
        err("").kind,
        ParseErrorKind::UnexpectedEnd {
            expected: "a value"
        }
    );
    assert_eq!(err("\"abc").kind, ParseErrorKind::UnterminatedString);
    assert_eq!(err("01").kind, ParseErrorKind::InvalidNumber);
    assert_eq!(err("1 2").kind, ParseErrorKind::TrailingCharacters);
    assert_eq!(err("nul").kind, ParseErrorKind::InvalidLiteral);
}

#[test]
fn error_positions_count_lines_and_columns() {
    let e = err("{\n  \"a\": [1,\n  ]\n}");
    assert_eq!(e.line, 3);
    assert_eq!(e.column, 3);
    assert_eq!(e.offset, 15);
    assert_eq!(
        e.to_string(),
        "expected a value at line 3, column 3 (byte offset 15)"
    );
    let e = err("[\"é\", x]");
    assert_eq!((e.line, e.column, e.offset), (1, 7, 7));
}

#[test]
fn rfc8259_extensions_are_rejected() {
    for bad in [
        "[1,]",
        "{\"a\":1,}",
        "// c\n1",
        "/* c */ 1",
        "NaN",
        "Infinity",
        "-Infinity",
        "[nan]",
        "'a'",
        "+1",
        ".5",
        "1.",
        "1.e5",
        "1e",
        "1e+",
        "-",
        "-01",
        "0x10",
        "00",
        "[01]",
        "{\"a\"}",
        "{,}",
        "[,]",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\u12G4\"",
        "\"\\uD800\"",
        "\"\\uD800\\u0041\"",
        "\"\\uDC00\"",
        "\"a\tb\"",
        "\"a\nb\"",
        "\"\u{0}\"",
        "[1] x",
        "{} {}",
        "True",
    ] {
        let e = parse(bad.as_bytes());
        assert!(e.is_err(), "{bad:?} should be rejected");
    }
}

#[test]
fn numbers_are_validated_like_rfc8259() {
    for good in [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1e5",
        "1E5",
        "1e+5",
        "1e-5",
        "1.25E-10",
        "123456789",
    ] {
        assert_eq!(ok(good).root().kind(), Kind::Number, "{good}");
    }
}

#[test]
fn invalid_utf8_is_rejected_with_its_offset() {
    let e = parse(b"[\"ab\xff\"]").err();
    assert_eq!(
        e.map(|e| (e.kind, e.offset)),
        Some((ParseErrorKind::InvalidUtf8, 4))
    );
    let e = parse(b"[\"\xc3\"]").err();
    assert_eq!(e.map(|e| e.kind), Some(ParseErrorKind::InvalidUtf8));
    assert!(parse("[\"\u{1F600}\u{2028}\"]".as_bytes()).is_ok());
}

/// The SIMD check accepts what the standard one accepts and reports
/// the same offset, past the SIMD blocks too (bad bytes at every place
/// of a long ASCII text with multi-byte characters in it).
#[test]
fn utf8_checks_agree_with_the_standard_one() {
    let base = "[\"abcdefgh\u{e9}ijklmnop\u{1F600}qrstuvwxyz0123456789\"]".repeat(5);
    for at in 0..base.len() {
        for bad in [0xffu8, 0xc3, 0x80, 0xed] {
            let mut bytes = base.clone().into_bytes();
            bytes[at] = bad;
            let want = std::str::from_utf8(&bytes).map_err(|e| e.valid_up_to());
            let got = checked_text(&bytes).map(|(t, _)| t).map_err(|e| e.offset);
            assert_eq!(
                got.map(str::len),
                want.map(str::len),
                "byte {bad:#x} at {at}"
            );
        }
    }
}

#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let doc = parse(b"\xEF\xBB\xBF[1]");
    assert_eq!(doc.ok().map(|d| d.root().len()), Some(1));
    assert!(parse(b"[1]\xEF\xBB\xBF").is_err());
}

#[test]
fn nesting_is_limited_without_stack_overflow() {
    let ok_depth = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    assert!(parse(ok_depth.as_bytes()).is_ok());
    let too_deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
    let e = parse(too_deep.as_bytes()).err();
    assert_eq!(
        e.as_ref().map(|e| e.kind),
        Some(ParseErrorKind::TooDeep { limit: MAX_DEPTH })
    );
    assert_eq!(
        e.map(|e| e.kind.to_string()),
        Some("nesting deeper than 1000".to_string())
    );
    let huge = "{\"a\":".repeat(100_000);
    assert!(parse(huge.as_bytes()).is_err());
}

#[test]
fn the_string_scanner_finds_specials_in_every_lane() {
    for lane in 0..16 {
        let prefix = "a".repeat(lane);
        let input = format!("[\"{prefix}\\n{prefix}\"]");
        let doc = ok(&input);
        let expect = format!("{prefix}\n{prefix}");
        assert_eq!(
            doc.root().at(0).and_then(|v| v.as_str()).as_deref(),
            Some(expect.as_str())
        );
        let bad = format!("[\"{prefix}\u{1}\"]");
        assert_eq!(
            parse(bad.as_bytes()).err().map(|e| (e.kind, e.offset)),
            Some((ParseErrorKind::ControlCharacterInString, 2 + lane))
        );
        let multibyte = format!("[\"{prefix}\u{e9}\u{1F600}{prefix}\"]");
        assert_eq!(
            ok(&multibyte)
                .root()
                .at(0)
                .and_then(|v| v.as_str())
                .as_deref(),
            Some(&multibyte[2..multibyte.len() - 2])
        );
    }
}

#[test]
fn plain_prefixes_end_at_the_first_special_byte_in_every_lane() {
    let scalar = |b: &[u8]| {
        b.iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
            .unwrap_or(b.len())
    };
    for len in 0..40 {
        let plain: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        assert_eq!(plain_prefix_len(&plain), len);
        for at in 0..len {
            for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                let mut text = plain.clone();
                text[at] = special;
                // A second special byte after the first must not move the answer.
                if at + 3 < len {
                    text[at + 3] = b'"';
                }
                assert_eq!(plain_prefix_len(&text), at, "{len} {at} {special}");
                assert_eq!(plain_prefix_len(&text), scalar(&text));
            }
            // Bytes at or above 0x20, and UTF-8's high bytes, are plain.
            let mut text = plain.clone();
            text[at] = 0xc3;
            assert_eq!(plain_prefix_len(&text), len);
            text[at] = b' ';
            assert_eq!(plain_prefix_len(&text), len);
        }
    }
}

#[test]
fn has_string_special_detects_exactly_the_special_bytes() {
    for b in 0..=255u8 {
        let w = u64::from_le_bytes([b'a', b'a', b'a', b, b'a', b'a', b'a', b'a']);
        let special = b == b'"' || b == b'\\' || b < 0x20;
        assert_eq!(has_string_special(w), special, "byte {b:#x}");
    }
}
