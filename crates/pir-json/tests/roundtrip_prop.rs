//! Property tests: for random documents (unicode strings with control characters, the full
//! integer ranges, arbitrary finite doubles, nesting), writing, parsing and writing again gives
//! the same bytes, and the parsed values equal the ones written.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

use std::collections::BTreeMap;

use pir_json::{parse, Kind, Number, Value, Writer};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    /// Keys sorted and unique, as nlohmann writes them.
    Object(BTreeMap<String, Json>),
}

fn any_string() -> impl Strategy<Value = String> {
    prop_oneof![
        // Arbitrary unicode, including control characters and surrogate-free code points.
        any::<String>(),
        // Short strings dense in characters that need escaping.
        proptest::collection::vec(
            prop_oneof![
                Just('"'),
                Just('\\'),
                Just('/'),
                Just('\u{7f}'),
                Just('\u{2028}'),
                Just('😀'),
                (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap_or('?')),
                proptest::char::range('a', 'z'),
            ],
            0..12
        )
        .prop_map(|chars| chars.into_iter().collect()),
    ]
}

fn finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        any::<f32>().prop_map(f64::from),
        (-1e6f64..1e6),
        Just(0.0),
        Just(-0.0),
    ]
    .prop_filter("finite", |v| v.is_finite())
}

fn json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        // Negative integers are I64 in nlohmann's classification, others U64.
        (i64::MIN..0).prop_map(Json::Int),
        any::<u64>().prop_map(Json::UInt),
        finite_f64().prop_map(Json::Float),
        any_string().prop_map(Json::Str),
    ];
    leaf.prop_recursive(6, 96, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Json::Array),
            proptest::collection::btree_map(any_string(), inner, 0..8).prop_map(Json::Object),
        ]
    })
}

fn write(json: &Json, w: &mut Writer<'_>) {
    match json {
        Json::Null => w.null(),
        Json::Bool(b) => w.bool(*b),
        Json::Int(i) => w.i64(*i),
        Json::UInt(u) => w.u64(*u),
        Json::Float(f) => w.f64(*f),
        Json::Str(s) => w.string(s),
        Json::Array(items) => {
            w.begin_array();
            for item in items {
                write(item, w);
            }
            w.end_array();
        }
        Json::Object(members) => {
            w.begin_object();
            for (k, v) in members {
                w.key(k);
                write(v, w);
            }
            w.end_object();
        }
    }
}

fn to_bytes(json: &Json, pretty: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = if pretty {
        Writer::pretty(&mut out)
    } else {
        Writer::compact(&mut out)
    };
    write(json, &mut w);
    out
}

fn rewrite(v: Value<'_>, pretty: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = if pretty {
        Writer::pretty(&mut out)
    } else {
        Writer::compact(&mut out)
    };
    w.value(v);
    out
}

/// True if the parsed value is exactly the generated one.
fn same(json: &Json, v: Value<'_>) -> bool {
    match json {
        Json::Null => v.is_null(),
        Json::Bool(b) => v.as_bool() == Some(*b),
        Json::Int(i) => v.as_number() == Some(Number::I64(*i)),
        Json::UInt(u) => v.as_number() == Some(Number::U64(*u)),
        Json::Float(f) => {
            v.kind() == Kind::Number
                && !v.is_integer()
                && v.as_f64().map(f64::to_bits) == Some(f.to_bits())
        }
        Json::Str(s) => v.as_str().as_deref() == Some(s.as_str()),
        Json::Array(items) => {
            v.len() == items.len()
                && v.array()
                    .is_some_and(|elems| items.iter().zip(elems).all(|(j, e)| same(j, e)))
        }
        Json::Object(members) => {
            v.len() == members.len()
                && v.object().is_some_and(|parsed| {
                    members
                        .iter()
                        .zip(parsed)
                        .all(|((k, j), (pk, pv))| *k == pk && same(j, pv))
                })
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn write_parse_write_is_a_fixed_point(doc in json()) {
        for pretty in [false, true] {
            let first = to_bytes(&doc, pretty);
            let parsed = match parse(&first) {
                Ok(parsed) => parsed,
                Err(e) => return Err(TestCaseError::fail(format!("{e} in {}", String::from_utf8_lossy(&first)))),
            };
            prop_assert!(same(&doc, parsed.root()), "values differ after parsing {}", String::from_utf8_lossy(&first));
            let second = rewrite(parsed.root(), pretty);
            prop_assert_eq!(&first, &second);
        }
    }

    #[test]
    fn pretty_and_compact_forms_parse_to_the_same_document(doc in json()) {
        let compact = to_bytes(&doc, false);
        let pretty = to_bytes(&doc, true);
        let from_pretty = match parse(&pretty) {
            Ok(parsed) => rewrite(parsed.root(), false),
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        prop_assert_eq!(compact, from_pretty);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = parse(&bytes);
    }

    #[test]
    fn json_like_bytes_never_panic(bytes in proptest::collection::vec(
        prop_oneof![
            Just(b'{'), Just(b'}'), Just(b'['), Just(b']'), Just(b','), Just(b':'),
            Just(b'"'), Just(b'\\'), Just(b'u'), Just(b'd'), Just(b'8'), Just(b'0'),
            Just(b'-'), Just(b'.'), Just(b'e'), Just(b' '), Just(b'n'), Just(b't'),
        ],
        0..64,
    )) {
        if let Ok(doc) = parse(&bytes) {
            let again = rewrite(doc.root(), false);
            prop_assert!(parse(&again).is_ok());
        }
    }
}

/// Each element of a root array, delimited by the stream without parsing and parsed alone.
fn stream_elements(text: &[u8]) -> Result<Vec<(String, Vec<u8>)>, pir_json::ParseError> {
    let mut s = pir_json::Stream::new(text)?;
    let mut array = s.begin_array()?;
    let mut out = Vec::new();
    while s.next_element(&mut array)? {
        let raw = s.raw_value()?;
        let doc = s.document(raw)?;
        out.push((raw.to_owned(), rewrite(doc.root(), false)));
        s.recycle(doc);
    }
    s.finish()?;
    Ok(out)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `Stream::raw_value` finds exactly the text of every element (compact and pretty), and
    /// each element parsed alone equals the same element of the whole-document parse.
    #[test]
    fn stream_elements_are_delimited_exactly(items in proptest::collection::vec(json(), 0..6)) {
        let doc = Json::Array(items);
        for pretty in [false, true] {
            let text = to_bytes(&doc, pretty);
            let whole = parse(&text).unwrap();
            let elements = match stream_elements(&text) {
                Ok(elements) => elements,
                Err(e) => return Err(TestCaseError::fail(format!("{e} in {}", String::from_utf8_lossy(&text)))),
            };
            let expected: Vec<Vec<u8>> = whole.root().array().unwrap().map(|v| rewrite(v, false)).collect();
            prop_assert_eq!(elements.len(), expected.len());
            for ((raw, alone), want) in elements.iter().zip(&expected) {
                prop_assert_eq!(alone, want);
                let reparsed = parse(raw.as_bytes()).unwrap();
                prop_assert_eq!(&rewrite(reparsed.root(), false), want);
            }
        }
    }

    /// Damaged input makes the stream fail or succeed, never panic or read out of bounds.
    #[test]
    fn streaming_json_like_bytes_never_panics(bytes in proptest::collection::vec(
        prop_oneof![
            Just(b'{'), Just(b'}'), Just(b'['), Just(b']'), Just(b','), Just(b':'),
            Just(b'"'), Just(b'\\'), Just(b'1'), Just(b' '), Just(b'n'), Just(b'x'),
        ],
        0..64,
    )) {
        let mut text = vec![b'['];
        text.extend(bytes);
        let _ = stream_elements(&text);
    }
}
