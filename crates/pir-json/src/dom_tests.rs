//! Tests of `dom.rs`.
use super::*;
use crate::parse;

#[test]
fn value_handles_are_small() {
    assert_eq!(std::mem::size_of::<Value<'_>>(), 16);
}

#[test]
fn integers_convert_exactly_and_floats_do_not_become_integers() {
    let doc = parse(b"[0, -0, 42, -9223372036854775808, 9223372036854775807, 18446744073709551615, 18446744073709551616, -9223372036854775809, 2.0, 1e3, -0.0]");
    let Ok(doc) = doc else { panic!("parse failed") };
    let v: Vec<Value<'_>> = doc.root().array().into_iter().flatten().collect();
    assert_eq!(v[0].as_i64(), Some(0));
    assert_eq!(v[0].as_u64(), Some(0));
    assert_eq!(v[1].as_i64(), Some(0));
    assert_eq!(v[1].as_u64(), None);
    assert_eq!(v[2].as_u64(), Some(42));
    assert_eq!(v[3].as_i64(), Some(i64::MIN));
    assert_eq!(v[3].as_u64(), None);
    assert_eq!(v[4].as_i64(), Some(i64::MAX));
    assert_eq!(v[5].as_i64(), None);
    assert_eq!(v[5].as_u64(), Some(u64::MAX));
    assert_eq!(v[5].as_f64(), Some(18446744073709551615.0));
    assert_eq!(v[6].as_u64(), None);
    assert_eq!(v[6].as_number(), Some(Number::F64(18446744073709551616.0)));
    assert_eq!(v[7].as_i64(), None);
    assert!(matches!(v[7].as_number(), Some(Number::F64(_))));
    assert_eq!(v[8].as_i64(), None);
    assert_eq!(v[8].as_f64(), Some(2.0));
    assert_eq!(v[8].number_text(), Some("2.0"));
    assert_eq!(v[9].as_u64(), None);
    assert_eq!(v[9].as_f64(), Some(1000.0));
    assert!(v[10]
        .as_f64()
        .is_some_and(|x| x == 0.0 && x.is_sign_negative()));
    assert_eq!(v[1].as_number(), Some(Number::I64(0)));
    assert_eq!(v[2].as_number(), Some(Number::U64(42)));
    assert!(v[1].is_integer() && !v[8].is_integer());
}

#[test]
fn large_integers_convert_to_f64_like_a_cast() {
    let Ok(doc) = parse(b"9007199254740993") else {
        panic!("parse failed")
    };
    assert_eq!(doc.root().as_f64(), Some(9007199254740992.0));
}

#[test]
fn strings_are_borrowed_without_escapes_and_decoded_with_them() {
    let input = br#"["plain", "a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC\ud83d\ude00", "\u0000", ""]"#;
    let Ok(doc) = parse(input) else {
        panic!("parse failed")
    };
    let v: Vec<Value<'_>> = doc.root().array().into_iter().flatten().collect();
    assert!(matches!(v[0].as_str(), Some(Cow::Borrowed("plain"))));
    assert_eq!(v[1].as_str().as_deref(), Some("a\"b\\c/d\u{8}\u{c}\n\r\t"));
    assert_eq!(v[1].raw_str(), Some(r#"a\"b\\c\/d\b\f\n\r\t"#));
    assert_eq!(v[2].as_str().as_deref(), Some("é€😀"));
    assert_eq!(v[3].as_str().as_deref(), Some("\0"));
    assert_eq!(v[4].as_str().as_deref(), Some(""));
    assert!(v[2].str_eq("é€😀"));
    assert!(!v[0].str_eq("plai"));
    assert_eq!(v[0].as_i64(), None);
}

#[test]
fn objects_keep_file_order_and_get_finds_keys() {
    let Ok(doc) = parse(br#"{"b": 1, "a": {"x": [1, [2, 3], {}]}, "c\u0041": true, "a": 5}"#)
    else {
        panic!("parse failed")
    };
    let root = doc.root();
    let keys: Vec<String> = root
        .object()
        .into_iter()
        .flatten()
        .map(|(k, _)| k.into_owned())
        .collect();
    assert_eq!(keys, ["b", "a", "cA", "a"]);
    assert_eq!(root.len(), 4);
    assert_eq!(root.get("cA").and_then(|v| v.as_bool()), Some(true));
    assert_eq!(root.get("a").map(|v| v.kind()), Some(Kind::Object));
    assert_eq!(root.get("zz").map(|v| v.kind()), None);
    let x = root.get("a").and_then(|a| a.get("x"));
    assert_eq!(x.map(|x| x.len()), Some(3));
    assert_eq!(x.and_then(|x| x.at(1)).map(|v| v.len()), Some(2));
    assert_eq!(
        x.and_then(|x| x.at(2)).map(|v| v.kind()),
        Some(Kind::Object)
    );
    assert_eq!(x.and_then(|x| x.at(3)).map(|v| v.kind()), None);
    assert_eq!(root.get("b").map(|v| v.offset()), Some(6));
    assert_eq!(root.at(0).map(|v| v.kind()), None);
    assert!(root.get("b").and_then(|b| b.get("x")).is_none());
    assert_eq!(doc.node_count(), 16);
}

#[test]
fn accessors_on_the_wrong_kind_return_none() {
    let Ok(doc) = parse(b"null") else {
        panic!("parse failed")
    };
    let v = doc.root();
    assert!(v.is_null());
    assert_eq!(v.as_bool(), None);
    assert_eq!(v.as_f64(), None);
    assert_eq!(v.as_str(), None);
    assert_eq!(v.number_text(), None);
    assert!(v.array().is_none() && v.object().is_none());
    assert_eq!(v.len(), 0);
    assert!(v.is_empty());
}

#[test]
fn unescape_never_panics_on_malformed_sequences() {
    assert_eq!(unescape("a\\"), "a\u{FFFD}");
    assert_eq!(unescape("\\u12"), "\u{FFFD}12");
    assert_eq!(unescape("\\ud800x"), "\u{FFFD}x");
    assert_eq!(unescape("\\q"), "\u{FFFD}q");
}
