//! Any bytes given to the text reader (as UTF-8, invalid sequences replaced)
//! give a program or an error, never a panic; a program that parses prints in
//! both forms, and its typed text — a text we printed — reads back as the
//! same program (the same typed text).
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use pir_core::IrContext;

/// One context for all runs: building one costs more than a small parse.
fn ctx() -> Arc<IrContext> {
    static CTX: OnceLock<Arc<IrContext>> = OnceLock::new();
    CTX.get_or_init(pir_dialects::pd_op_context).clone()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(loaded) = pir_serde::read_text(ctx(), &text) {
        let _ = loaded.program.verify();
        let _ = loaded.program.to_string();
        let typed = loaded.program.to_typed_string();
        match pir_serde::read_text(ctx(), &typed) {
            Err(e) => panic!("a printed typed text must parse again: {e}\n--- typed text ---\n{typed}"),
            Ok(again) => assert_eq!(again.program.to_typed_string(), typed, "typed text changed"),
        }
    }
});
