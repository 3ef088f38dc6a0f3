//! Times the symbolic shape analysis of one model in process: loads it
//! once, runs `ShapeAnalysis::run` N times (default 21) and prints the op
//! count and the median as JSON. `scripts/paddle_time_shapes.py` runs it
//! alternately with Paddle's pass on the same file.
//!
//! `cargo run --release -p pir-shape --example time_analysis -- MODEL.json [N]`

mod common;

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: time_analysis MODEL.json [N]");
        std::process::exit(2);
    };
    let runs: usize = args
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(21)
        .max(1);
    let loaded = common::load_or_exit(&path);
    let p = &loaded.program;
    let mut times = Vec::with_capacity(runs);
    let mut symbols = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let s = pir_shape::ShapeAnalysis::run(p);
        times.push(t.elapsed().as_secs_f64());
        symbols = s.symbol_count();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{{\"ops\": {}, \"symbols\": {symbols}, \"median_ms\": {:.4}}}",
        p.num_ops(),
        times[times.len() / 2] * 1e3
    );
}
