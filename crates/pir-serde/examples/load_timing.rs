//! Times reading one JSON model again and again into one context, as
//! `pir time` does, and prints one JSON line with the median load time.
//!
//! ```text
//! cargo run --release -p pir-serde --example load_timing -- FILE.json [--repeat N]
//! ```
//!
//! The first read fills the context's tables and is not timed; the repeats
//! read into the same context (every type, attribute and dictionary found
//! again). The reads happen in [`timed_reads`], which a profiler can be told
//! to count alone (`valgrind --tool=callgrind --toggle-collect=load_timing::timed_reads`).
//! Reads use the threads [`pir_serde::ReadOptions`] gives by default
//! (`PIR_LOAD_THREADS=1` for one). Output:
//! `{"file":..,"bytes":..,"ops":..,"repeat":..,"load_ms":..,"min_ms":..}`.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use pir_core::IrContext;
use pir_serde::{LoadedProgram, ReadError, ReadOptions};

/// As the `pir` command: a load is many small allocations.
#[global_allocator]
static ALLOCATOR: pir_alloc::Allocator = pir_alloc::Allocator;

fn usage() -> ExitCode {
    eprintln!("usage: load_timing FILE.json [--repeat N]");
    ExitCode::from(2)
}

/// `repeat` timed reads of `bytes`; each read's time in ms, and the
/// programs read (dropped by the caller, outside the timed reads).
#[inline(never)]
fn timed_reads(
    ctx: &Arc<IrContext>,
    bytes: &[u8],
    repeat: usize,
) -> Result<(Vec<f64>, Vec<LoadedProgram>), ReadError> {
    let options = ReadOptions::default();
    let mut times = Vec::with_capacity(repeat);
    let mut loaded = Vec::with_capacity(repeat);
    for _ in 0..repeat {
        let t = Instant::now();
        let l = pir_serde::read_slice(ctx.clone(), bytes, &options)?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
        loaded.push(l);
    }
    Ok((times, loaded))
}

fn main() -> ExitCode {
    let mut file = None;
    let mut repeat = 21usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--repeat" => match args.next().and_then(|v| v.parse().ok()).filter(|&n| n > 0) {
                Some(n) => repeat = n,
                None => return usage(),
            },
            _ if file.is_none() && !arg.starts_with("--") => file = Some(arg),
            _ => return usage(),
        }
    }
    let Some(path) = file else {
        return usage();
    };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ctx = pir_dialects::pd_op_context();
    let first = pir_serde::read_slice(ctx.clone(), &bytes, &ReadOptions::default());
    let ops = match first {
        Ok(l) => l.program.num_ops(),
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut times, loaded) = match timed_reads(&ctx, &bytes, repeat) {
        Ok(read) => read,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    drop(loaded);
    times.sort_by(f64::total_cmp);
    println!(
        "{{\"file\":{path:?},\"bytes\":{},\"ops\":{ops},\"repeat\":{repeat},\"load_ms\":{:.4},\"min_ms\":{:.4}}}",
        bytes.len(),
        times[times.len() / 2],
        times[0]
    );
    ExitCode::SUCCESS
}
