//! Fuzz target: a `Stream` accepts exactly what the whole-document parser accepts, and the
//! elements of a root array, delimited by `raw_value` and parsed alone, equal the whole parse's.
//! A stream resumed inside a root array at any element after the first reads the same
//! elements from there; resumed anywhere else it reads or fails, never panics.
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

/// The elements from `at` to the end of the array a stream resumed at `at` reads (at most
/// `limit` of them), parsed alone.
fn resumed(text: &str, at: usize, limit: usize) -> Result<Vec<Vec<u8>>, ParseError> {
    let (mut s, mut array) = Stream::resume_in_array(text, at);
    let mut out = Vec::new();
    loop {
        let raw = s.raw_value()?;
        let doc = s.document(raw)?;
        out.push(compact(doc.root()));
        s.recycle(doc);
        if out.len() >= limit || !s.next_element(&mut array)? {
            return Ok(out);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let (Ok(text), Some(&first)) = (std::str::from_utf8(data), data.first()) {
        // Anywhere: no panic.
        let _ = resumed(text, usize::from(first) * data.len() / 256, 64);
        // At each element after the first of a root array: the same elements from there.
        if starts_array(data) && parse(data).is_ok() {
            if let Ok(mut s) = Stream::new(data) {
                let mut starts = Vec::new();
                if let Ok(mut array) = s.begin_array() {
                    while let Ok(true) = s.next_element(&mut array) {
                        starts.push(s.offset());
                        if s.skip().is_err() {
                            break;
                        }
                    }
                }
                let all = walk(data).unwrap_or_default();
                for (i, &at) in starts.iter().enumerate().skip(1) {
                    let from_here = resumed(text, at, usize::MAX);
                    assert_eq!(from_here.ok().as_deref(), all.get(i..), "resumed at {at}");
                }
            }
        }
    }
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
