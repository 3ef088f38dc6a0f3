//! Helpers shared by the pass tests written in Paddle's text.
#![allow(clippy::unwrap_used)] // a test fails loudly by design
#![allow(dead_code)] // each test file uses its own subset

use pir_core::Program;
use pir_pass::PassManager;

/// The program of `text`, in a context with every dialect.
pub fn parse(text: &str) -> Program {
    let ctx = pir_dialects::pd_op_context();
    Program::parse(&ctx, text).unwrap()
}

/// Runs `pipeline` on `p`, verifying after every pass.
pub fn run(p: &mut Program, pipeline: &str) {
    let mut pm = PassManager::parse(pipeline).unwrap();
    pm.instrumentation.verify_each = true;
    pm.run(p).unwrap();
}

/// How many ops named `op` the printed program has.
pub fn count(p: &Program, op: &str) -> usize {
    p.to_string().matches(&format!("\"{op}\"")).count()
}
