//! Any text given to the patch parser gives a patch set or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = pir_serde::patch::parse_patch_yaml("fuzz.yaml", text);
    }
});
