//! The `.pdmodel` writer's round trip: PIR → `.pdmodel` → PIR. The PIR
//! programs come from the structured legacy programs of
//! `translate_structured` (translated leniently: every op kind the
//! translator makes, control flow included) and, for inputs starting with
//! `{`, from the bytes read as IR text. Each is written; what is written
//! must decode with this crate's reader and with prost, and translates
//! again (an error is fine, a panic is not); a refusal must name at least
//! one op.
#![no_main]

#[allow(missing_docs, clippy::all, dead_code)]
#[path = "../../tests/support/proto.rs"]
mod proto;

use std::sync::{Arc, OnceLock};

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use pir_core::{IrContext, Program};
use pir_legacy::translate::Limits;
use pir_legacy::write::{to_bytes, WriteError};
use pir_legacy::{Options, ProgramDesc};
use prost::Message;

#[path = "common/structured.rs"]
mod structured;

fn ctx() -> Arc<IrContext> {
    static CTX: OnceLock<Arc<IrContext>> = OnceLock::new();
    CTX.get_or_init(pir_dialects::pd_op_context).clone()
}

const LIMITS: Limits = Limits {
    max_ops: 20_000,
    max_values: 40_000,
    max_operands: 80_000,
    max_attrs: 200_000,
    max_sub_blocks: 2_000,
    max_walked: 200_000,
};

fn round_trip(program: &Program) {
    match to_bytes(program) {
        Ok(bytes) => {
            let arena = pir_legacy::DescArena::default();
            let desc = ProgramDesc::decode(&bytes, &arena).expect("the reader reads what the writer wrote");
            proto::ProgramDesc::decode(&bytes[..]).expect("prost reads what the writer wrote");
            let options = Options { lenient: true, limits: LIMITS };
            if let Ok(back) = pir_legacy::translate(&desc, ctx(), options) {
                let _ = back.to_string();
            }
        }
        Err(WriteError::NoLegacyForm { ops }) => assert!(!ops.is_empty()),
        Err(WriteError::Invalid(_)) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    if data.first() == Some(&b'{') {
        if let Ok(text) = std::str::from_utf8(data) {
            if let Ok(program) = Program::parse(&ctx(), text) {
                round_trip(&program);
            }
        }
        return;
    }
    let Ok(p) = structured::Program::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };
    let bytes = structured::encode(&p);
    let arena = pir_legacy::DescArena::default();
    let Ok(desc) = ProgramDesc::decode(&bytes, &arena) else {
        return;
    };
    let options = Options { lenient: true, limits: LIMITS };
    if let Ok(program) = pir_legacy::translate(&desc, ctx(), options) {
        round_trip(&program);
    }
});
