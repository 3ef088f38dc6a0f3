//! Fuzz target: a `Stream` accepts exactly what the whole-document parser accepts, and the
//! elements of a root array, delimited by `raw_value` and parsed alone, equal the whole parse's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pir_json::{parse, ParseError, Stream, Value, Writer};

fn compact(v: Value<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    Writer::compact(&mut out).any_key_order().value(v);
    out
}

/// Whether the input's first byte after white space is `[` (no byte order mark).
fn starts_array(data: &[u8]) -> bool {
    data.iter()
        .find(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
        .is_some_and(|&b| b == b'[')
}

/// The root array's elements (raw, then parsed alone), or the root value itself.
fn walk(data: &[u8]) -> Result<Vec<Vec<u8>>, ParseError> {
    let mut s = Stream::new(data)?;
    let mut out = Vec::new();
    if starts_array(data) {
        let mut array = s.begin_array()?;
        while s.next_element(&mut array)? {
            let raw = s.raw_value()?;
            let doc = s.document(raw)?;
            out.push(compact(doc.root()));
            s.recycle(doc);
        }
    } else {
        let doc = s.value()?;
        out.push(compact(doc.root()));
        s.recycle(doc);
    }
    s.finish()?;
    Ok(out)
}

fuzz_target!(|data: &[u8]| {
    let whole = parse(data);
    let streamed = walk(data);
    match (whole, streamed) {
        (Ok(doc), Ok(items)) => {
            let root = doc.root();
            let want: Vec<Vec<u8>> = match root.array() {
                Some(elements) if starts_array(data) => elements.map(compact).collect(),
                _ => vec![compact(root)],
            };
            assert_eq!(items, want, "stream and parse disagree");
        }
        (Ok(_), Err(e)) => panic!("the stream refused a valid document: {e}"),
        (Err(e), Ok(_)) => panic!("the stream accepted an invalid document ({e})"),
        (Err(_), Err(_)) => {}
    }
});
