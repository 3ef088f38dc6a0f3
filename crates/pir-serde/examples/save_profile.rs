//! Loads one model and saves it in the compact JSON model format: once in
//! the fresh context the load made (every type and attribute encoded), then
//! `--repeat N` times more, each a new load of the same file into that
//! context (their texts kept from the saves before), for profiling each kind
//! of save on its own:
//!
//! ```text
//! cargo build --profile bench -p pir-serde --example save_profile
//! valgrind --tool=callgrind --collect-atstart=no \
//!     --toggle-collect='save_profile::first_save' \
//!     target/release/examples/save_profile FILE.json --repeat 1
//! ```
//!
//! Prints one JSON line: the output's length and the times in ms of the
//! first save and the median repeated one.

use std::time::Instant;

use pir_core::Program;
use pir_serde::WriteOptions;

mod profile;

/// The allocator the `pir` command uses.
#[global_allocator]
static ALLOCATOR: pir_alloc::Allocator = pir_alloc::Allocator;

/// The first save of a program in its context.
#[inline(never)]
fn first_save(program: &Program) -> Result<usize, pir_serde::WriteError> {
    Ok(pir_serde::write_to_vec(program, &WriteOptions::default())?.len())
}

/// A save of a program whose types and attributes a save before it met,
/// its time in ms pushed onto `times` (a body unlike [`first_save`]'s, so
/// the two stay apart in a profile).
#[inline(never)]
fn repeated_save(program: &Program, times: &mut Vec<f64>) -> Result<(), pir_serde::WriteError> {
    let t = Instant::now();
    std::hint::black_box(pir_serde::write_to_vec(program, &WriteOptions::default())?.len());
    times.push(t.elapsed().as_secs_f64() * 1e3);
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (path, repeat) = profile::file_and_repeat("usage: save_profile FILE [--repeat N]")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let ctx = pir_dialects::pd_op_context();
    let load = || pir_serde::read_any_slice(ctx.clone(), &bytes, &Default::default());
    let loaded = load()?;
    let t = Instant::now();
    let len = first_save(&loaded.program)?;
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    let mut times = Vec::with_capacity(repeat);
    for _ in 0..repeat {
        repeated_save(&load()?.program, &mut times)?;
    }
    let repeated_ms = profile::median(&mut times);
    println!("{{\"file\":{path:?},\"bytes\":{len},\"first_save_ms\":{first_ms:.4},\"save_ms\":{repeated_ms:.4}}}");
    Ok(())
}
