//! Times the text parser on one file (or a synthetic program's text) and
//! prints one JSON line with the median parse time.
//!
//! ```text
//! cargo run --release -p pir-serde --example parse_timing -- FILE.txt [--repeat N] [--typed]
//! cargo run --release -p pir-serde --example parse_timing -- --synth OPS [--repeat N] [--typed]
//! ```
//!
//! `FILE` is Paddle's printed text, the typed text or a JSON model (read
//! with `pir_serde::read_any_slice`; a JSON model needs `--typed`).
//! `--synth OPS` builds `pir_dialects::synthetic::mlp` with `OPS / 8`
//! blocks, prints it in Paddle's form and times parsing that text.
//! `--typed` times the typed text of the same program instead
//! (`pir_serde::typed_text`). Each parse goes into the same context, which
//! holds every type, attribute and dictionary from the warm-up on;
//! `--fresh` gives each parse a new context (made before the clock starts),
//! as a process reading one file has. Output:
//! `{"file":..,"form":..,"context":..,"bytes":..,"ops":..,"repeat":..,"parse_ms":..,"min_ms":..}`.
//! Used by `bench/compare_mlir_parse.py`.

use std::process::ExitCode;
use std::time::Instant;

fn usage() -> ExitCode {
    eprintln!("usage: parse_timing (FILE | --synth OPS) [--repeat N] [--typed] [--fresh]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut file = None;
    let mut synth = None;
    let mut repeat = 7usize;
    let mut typed = false;
    let mut fresh = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let number = |v: Option<String>| v.and_then(|v| v.parse::<usize>().ok()).filter(|&n| n > 0);
        match arg.as_str() {
            "--repeat" => match number(args.next()) {
                Some(n) => repeat = n,
                None => return usage(),
            },
            "--synth" => match number(args.next()) {
                Some(n) => synth = Some(n),
                None => return usage(),
            },
            "--typed" => typed = true,
            "--fresh" => fresh = true,
            _ if file.is_none() && !arg.starts_with("--") => file = Some(arg),
            _ => return usage(),
        }
    }
    let ctx = pir_dialects::pd_op_context();
    let (label, mut text) = match (file, synth) {
        (Some(path), None) => match std::fs::read(&path) {
            Ok(bytes) => (path, bytes),
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        },
        (None, Some(ops)) => {
            let program = pir_dialects::synthetic::mlp(ctx.clone(), (ops / 8).max(1));
            let label = format!("synthetic:{}", program.num_ops());
            (label, program.to_string().into_bytes())
        }
        _ => return usage(),
    };
    if typed {
        match pir_serde::read_any_slice(ctx.clone(), &text, &Default::default()) {
            Ok(loaded) => text = pir_serde::typed_text(&loaded, false).into_bytes(),
            Err(e) => {
                eprintln!("{label}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let Ok(text) = String::from_utf8(text) else {
        eprintln!("{label}: not UTF-8 text");
        return ExitCode::FAILURE;
    };
    let parse =
        |ctx: &std::sync::Arc<pir_core::IrContext>| pir_serde::read_text(ctx.clone(), &text);
    // Warm-up run; it also gives the op count.
    let ops = match parse(&ctx) {
        Ok(l) => l.program.num_ops(),
        Err(e) => {
            eprintln!("{label}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut times = Vec::with_capacity(repeat);
    for _ in 0..repeat {
        let fresh_ctx = fresh.then(pir_dialects::pd_op_context);
        let t = Instant::now();
        let loaded = parse(fresh_ctx.as_ref().unwrap_or(&ctx));
        times.push(t.elapsed().as_secs_f64() * 1e3);
        // Dropping the program is not part of the parse time.
        std::hint::black_box(loaded.map(|l| l.program.num_ops()).ok());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{{\"file\":{label:?},\"form\":{:?},\"context\":{:?},\"bytes\":{},\"ops\":{ops},\"repeat\":{repeat},\"parse_ms\":{:.4},\"min_ms\":{:.4}}}",
        if typed { "typed" } else { "input" },
        if fresh { "fresh" } else { "shared" },
        text.len(),
        times[times.len() / 2],
        times[0]
    );
    ExitCode::SUCCESS
}
