//! Times the `.pdmodel` writer on models: each file (`.pdmodel`, or PIR
//! JSON) is read once, then written to bytes `--repeat N` times; prints one
//! line per file, `NAME write_ms=MEDIAN bytes=SIZE`.
//!
//! ```sh
//! cargo run --release -p pir --example time_write -- --repeat 20 m.pdmodel
//! ```
//! `bench/compare_paddle26_save.py` runs it interleaved with Paddle 2.6.2.

use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut repeat = 20usize;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--repeat" {
            repeat = args.next().ok_or("--repeat needs a number")?.parse()?;
        } else {
            files.push(a);
        }
    }
    let ctx = pir::dialects::pd_op_context();
    for file in files {
        let bytes = std::fs::read(&file)?;
        let program = if file.ends_with(".pdmodel") {
            pir::legacy::translate_bytes(&bytes, ctx.clone(), Default::default())?
        } else {
            pir::serde::read_slice(ctx.clone(), &bytes, &Default::default())?.program
        };
        let mut times = Vec::with_capacity(repeat);
        let mut size = 0;
        for _ in 0..repeat.max(1) {
            let start = Instant::now();
            size = pir::legacy::write::to_bytes(&program)?.len();
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        println!("{file} write_ms={:.4} bytes={size}", times[times.len() / 2]);
    }
    Ok(())
}
