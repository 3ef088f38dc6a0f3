//! Runs every example of `examples/`, whose `main` asserts what it shows,
//! so the code the guide includes is the code that works. Each example is
//! compiled into this test as a module of its own.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

#[path = "../examples/load_optimise_save.rs"]
mod load_optimise_save;

#[path = "../examples/custom_pass.rs"]
mod custom_pass;

#[path = "../examples/rewrite_rule.rs"]
mod rewrite_rule;

#[test]
fn load_optimise_save_runs() {
    load_optimise_save::main().unwrap();
}

#[test]
fn custom_pass_runs() {
    custom_pass::main().unwrap();
}

#[test]
fn rewrite_rule_runs() {
    rewrite_rule::main().unwrap();
}
