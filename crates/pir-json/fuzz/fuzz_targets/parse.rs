//! Fuzz target: any input either fails to parse with an error or parses into a document that
//! the writer turns back into JSON that parses again and re-writes to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pir_json::{parse, Writer};

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = parse(data) else {
        return;
    };
    for pretty in [false, true] {
        let mut first = Vec::new();
        {
            let writer = if pretty {
                Writer::pretty(&mut first)
            } else {
                Writer::compact(&mut first)
            };
            writer.any_key_order().value(doc.root());
        }
        let again = match parse(&first) {
            Ok(again) => again,
            Err(e) => panic!("writer output does not parse: {e}"),
        };
        let mut second = Vec::new();
        {
            let writer = if pretty {
                Writer::pretty(&mut second)
            } else {
                Writer::compact(&mut second)
            };
            writer.any_key_order().value(again.root());
        }
        assert_eq!(first, second, "write -> parse -> write is not a fixed point");
    }
});
