//! Any bytes given to the model reader give a program or an error, never a
//! panic; a program that loads also saves, and what it saves loads again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ctx = pir_dialects::pd_op_context();
    if let Ok(loaded) = pir_serde::read_slice(ctx.clone(), data, &Default::default()) {
        let _ = loaded.program.verify();
        let _ = loaded.program.print_to_vec();
        if let Ok(bytes) = pir_serde::write_to_vec(&loaded.program, &Default::default()) {
            let again = pir_serde::read_slice(ctx, &bytes, &Default::default());
            assert!(again.is_ok(), "a written program must read back");
        }
    }
});
