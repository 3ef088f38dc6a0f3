//! Prints a model annotated with its symbolic shapes, as `pir shapes` does,
//! and lists on stderr the ops the analysis skipped.
//!
//! `cargo run -p pir-shape --example annotate -- MODEL.json`

mod common;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: annotate MODEL.json");
        std::process::exit(2);
    };
    let loaded = common::load_or_exit(&path);
    let shapes = pir_shape::ShapeAnalysis::run(&loaded.program);
    print!("{}", pir_shape::annotated_text(&loaded.program, &shapes));
    for s in shapes.skipped() {
        eprintln!("skipped {}: {}", s.name, s.reason);
    }
}
