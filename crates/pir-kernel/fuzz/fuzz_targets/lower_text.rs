//! Any program text (either form) that parses is lowered and printed in both
//! forms without a panic; the typed text of a lowered program parses back
//! to a program that prints the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let ctx = pir_kernel::kernel_context();
    let Ok(program) = pir_core::Program::parse(&ctx, text) else {
        return;
    };
    let Ok(lowered) = pir_kernel::lower(&program) else {
        return;
    };
    let _ = lowered.to_paddle_string();
    let typed = lowered.to_typed_string();
    let again =
        pir_core::Program::parse(&ctx, &typed).expect("the typed text of a lowered program parses");
    assert_eq!(again.to_typed_string(), typed);
});
