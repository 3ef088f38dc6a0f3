//! Text a kind reads directly (`decode_exact`) reads to what its document
//! gives: any bytes, as UTF-8, are read as a type and as an attribute both
//! ways, and whenever the direct read takes the whole text the document
//! must parse and decode to the same handle.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use pir_core::serial::{self, ExactJson, JsonPath};
use pir_core::IrContext;

/// One context for all runs: building one costs more than a small read.
fn ctx() -> Arc<IrContext> {
    static CTX: OnceLock<Arc<IrContext>> = OnceLock::new();
    CTX.get_or_init(pir_dialects::pd_op_context).clone()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let ctx = ctx();
    let path = JsonPath::Root("");
    let mut exact = ExactJson::new(text);
    if let Some(ty) = serial::decode_type_exact(&ctx, &mut exact).filter(|_| exact.at_end()) {
        let doc = pir_json::parse(data).expect("text read directly is JSON");
        assert_eq!(serial::decode_type(&ctx, doc.root(), &path), Ok(ty), "{text}");
    }
    let mut exact = ExactJson::new(text);
    if let Some(attr) = serial::decode_attr_exact(&ctx, &mut exact).filter(|_| exact.at_end()) {
        let doc = pir_json::parse(data).expect("text read directly is JSON");
        assert_eq!(serial::decode_attr(&ctx, doc.root(), &path), Ok(attr), "{text}");
    }
});
