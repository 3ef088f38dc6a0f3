//! Prints a model annotated with its symbolic shapes, as `pir shapes` does,
//! and lists on stderr the ops the analysis skipped.
//!
//! `cargo run -p pir-shape --example annotate -- MODEL.json`

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: annotate MODEL.json");
        std::process::exit(2);
    };
    let ctx = pir_dialects::pd_op_context();
    let loaded = match pir_serde::read_file(ctx, path.as_ref(), &Default::default()) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let shapes = pir_shape::ShapeAnalysis::run(&loaded.program);
    print!("{}", pir_shape::annotated_text(&loaded.program, &shapes));
    for s in shapes.skipped() {
        eprintln!("skipped {}: {}", s.name, s.reason);
    }
}
