//! Structured programs for the translator: `arbitrary` builds a
//! `ProgramDesc` from a few blocks whose ops come from the op types the
//! translator treats specially (control flow referencing blocks, feed and
//! fetch, splits, arrays...) with inputs, outputs and attributes drawn from
//! small pools of names (so ops meet the variables and blocks they name),
//! of every attribute kind, and with argument lists up to thousands long.
//! The program is encoded with the prost types of `framework.proto` and
//! given to the reader and translator (strict and lenient, with small
//! limits so that expanding programs stop early); what translates is
//! printed, verified and written as JSON. Nothing may panic.
#![no_main]

#[allow(missing_docs, clippy::all, dead_code)]
#[path = "../../tests/support/proto.rs"]
mod proto;

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use pir_core::IrContext;
use pir_legacy::translate::Limits;
use pir_legacy::{Options, ProgramDesc};

#[path = "common/structured.rs"]
mod structured;
use structured::{encode, Program};

fn ctx() -> Arc<IrContext> {
    static CTX: OnceLock<Arc<IrContext>> = OnceLock::new();
    CTX.get_or_init(pir_dialects::pd_op_context).clone()
}

fuzz_target!(|p: Program| {
    let bytes = encode(&p);
    let arena = pir_legacy::DescArena::default();
    let Ok(desc) = ProgramDesc::decode(&bytes, &arena) else {
        return;
    };
    // Small limits: a program that unfolds stops within a few thousand ops.
    let limits = Limits {
        max_ops: 20_000,
        max_values: 40_000,
        max_operands: 80_000,
        max_attrs: 200_000,
        max_sub_blocks: 2_000,
        max_walked: 200_000,
    };
    for lenient in [false, true] {
        let options = Options { lenient, limits };
        if let Ok(program) = pir_legacy::translate(&desc, ctx(), options) {
            let _ = program.to_string();
            let _ = program.verify();
            let _ = pir_serde::write_to_vec(&program, &Default::default());
        }
    }
});
