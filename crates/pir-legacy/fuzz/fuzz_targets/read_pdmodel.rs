//! Any bytes given to the legacy reader give a program or an error, never a
//! panic: decoding (the op-version pairs too), translating (strict and
//! lenient), printing, verifying and writing the JSON of what translates.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use pir_core::IrContext;
use pir_legacy::{Options, ProgramDesc};

/// One context for all runs: building one costs more than a small model.
fn ctx() -> Arc<IrContext> {
    static CTX: OnceLock<Arc<IrContext>> = OnceLock::new();
    CTX.get_or_init(pir_dialects::pd_op_context).clone()
}

fuzz_target!(|data: &[u8]| {
    let _ = pir_legacy::looks_like_program_desc(data);
    let arena = pir_legacy::DescArena::default();
    let Ok(desc) = ProgramDesc::decode(data, &arena) else {
        return;
    };
    let _ = desc.op_version_map.pairs();
    for lenient in [false, true] {
        if let Ok(program) = pir_legacy::translate(&desc, ctx(), Options { lenient, ..Default::default() }) {
            let _ = program.to_string();
            let _ = program.verify();
            let _ = pir_serde::write_to_vec(&program, &Default::default());
        }
    }
});
