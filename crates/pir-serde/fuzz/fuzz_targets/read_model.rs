//! Any bytes given to the model reader give a program or an error, never a
//! panic; a program that loads also saves, and what it saves loads again.
//! Read again into the same context (which now keeps its op kinds'
//! templates), the bytes give the same program.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use pir_core::IrContext;

/// One context for all runs: building one costs more than a small read.
fn ctx() -> Arc<IrContext> {
    static CTX: OnceLock<Arc<IrContext>> = OnceLock::new();
    CTX.get_or_init(pir_dialects::pd_op_context).clone()
}

fuzz_target!(|data: &[u8]| {
    let ctx = ctx();
    if let Ok(loaded) = pir_serde::read_slice(ctx.clone(), data, &Default::default()) {
        let _ = loaded.program.verify();
        let _ = loaded.program.print_to_vec();
        let written = pir_serde::write_to_vec(&loaded.program, &Default::default());
        let again = pir_serde::read_slice(ctx.clone(), data, &Default::default());
        let rewritten = again.map(|l| pir_serde::write_to_vec(&l.program, &Default::default()));
        match (&written, rewritten) {
            (Ok(first), Ok(Ok(second))) => assert!(*first == second, "read again, it differs"),
            (Err(_), Ok(Err(_))) => {}
            _ => panic!("read again, it reads or writes otherwise"),
        }
        if let Ok(bytes) = written {
            let again = pir_serde::read_slice(ctx, &bytes, &Default::default());
            assert!(again.is_ok(), "a written program must read back");
        }
    }
});
