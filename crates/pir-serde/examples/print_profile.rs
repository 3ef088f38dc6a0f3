//! Loads one model and prints it in Paddle's form: once in the fresh
//! context the load made (every type and attribute formatted), then
//! `--repeat N` times more and once after those (`steady_print`), each a
//! new load of the same file into that context (their texts kept from the
//! prints before), for profiling each kind of print on its own:
//!
//! ```text
//! cargo build --profile bench -p pir-serde --example print_profile
//! valgrind --tool=callgrind --collect-atstart=no \
//!     --toggle-collect='print_profile::first_print' \
//!     --toggle-collect='print_profile::steady_print' \
//!     target/release/examples/print_profile FILE.json --repeat 1
//! ```
//!
//! Prints one JSON line: the text's length and the times in ms of the
//! first print and the median repeated one.

use std::time::Instant;

use pir_core::Program;

mod profile;

/// The allocator the `pir` command uses.
#[global_allocator]
static ALLOCATOR: pir_alloc::Allocator = pir_alloc::Allocator;

/// The first print of a program in its context.
#[inline(never)]
fn first_print(program: &Program) -> usize {
    program.print_to_vec().len()
}

/// A print of a program whose types and attributes a print before it met,
/// its time in ms pushed onto `times` (a body unlike [`first_print`]'s, so
/// the two stay apart in a profile).
#[inline(never)]
fn repeated_print(program: &Program, times: &mut Vec<f64>) {
    let t = Instant::now();
    std::hint::black_box(program.print_to_vec().len());
    times.push(t.elapsed().as_secs_f64() * 1e3);
}

/// A print after two or more of the same program in its context.
#[inline(never)]
fn steady_print(program: &Program) -> Vec<u8> {
    program.print_to_vec()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (path, repeat) = profile::file_and_repeat("usage: print_profile FILE [--repeat N]")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let ctx = pir_dialects::pd_op_context();
    let load = || pir_serde::read_any_slice(ctx.clone(), &bytes, &Default::default());
    let loaded = load()?;
    let t = Instant::now();
    let len = first_print(&loaded.program);
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    let mut times = Vec::with_capacity(repeat);
    for _ in 0..repeat {
        repeated_print(&load()?.program, &mut times);
    }
    // One more, on its own in a profile: the second print still keeps the
    // texts of what the first met once, this one only copies.
    std::hint::black_box(steady_print(&load()?.program));
    let repeated_ms = profile::median(&mut times);
    println!("{{\"file\":{path:?},\"bytes\":{len},\"first_print_ms\":{first_ms:.4},\"print_ms\":{repeated_ms:.4}}}");
    Ok(())
}
