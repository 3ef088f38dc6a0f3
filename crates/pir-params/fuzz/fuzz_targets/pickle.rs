//! Fuzzes the allow-listed pickle reader and the state-dict loader: any input
//! must give a value or an error, never a panic, and values re-write and
//! re-read to the same value.
//!
//! The reader runs with a small expansion bound: the default lets a 2 KB
//! pickle of shared references expand to a million values, which is bounded
//! and correct but takes a second per input under coverage instrumentation;
//! the small bound exercises the same checks at thousands of inputs a second.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pir_params::pickle::{self, ReadLimits};

fuzz_target!(|data: &[u8]| {
    let limits = ReadLimits {
        max_extra_nodes: 1 << 12,
        ..ReadLimits::default()
    };
    if let Ok(value) = pickle::read_pickle_with(data, &limits) {
        let mut out = Vec::new();
        if pickle::write_pickle_to(&mut out, &value, &Default::default()).is_ok() {
            let again = pickle::read_pickle(&out).unwrap();
            // NaN floats compare unequal; compare the re-written bytes instead
            let mut out2 = Vec::new();
            pickle::write_pickle_to(&mut out2, &again, &Default::default()).unwrap();
            assert_eq!(out, out2);
        }
        // the value is small, so the loader's own (default-bound) read is too
        let _ = pickle::load_state_dict(data);
    }
});
