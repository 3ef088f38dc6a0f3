//! Fuzzes the allow-listed pickle reader and the state-dict loader: any input
//! must give a value or an error, never a panic, and values re-write and
//! re-read to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pir_params::pickle;

fuzz_target!(|data: &[u8]| {
    if let Ok(value) = pickle::read_pickle(data) {
        let mut out = Vec::new();
        if pickle::write_pickle_to(&mut out, &value, &Default::default()).is_ok() {
            let again = pickle::read_pickle(&out).unwrap();
            // NaN floats compare unequal; compare the re-written bytes instead
            let mut out2 = Vec::new();
            pickle::write_pickle_to(&mut out2, &again, &Default::default()).unwrap();
            assert_eq!(out, out2);
        }
    }
    let _ = pickle::load_state_dict(data);
});
