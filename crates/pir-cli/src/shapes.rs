//! `pir shapes MODEL [-o OUT]`: the program annotated with the symbolic
//! shape of every value, printed exactly as Paddle 3.3.1's shape
//! optimization pass prints it (`{ (shape[S0, 8], data[NULL]) }` after each
//! op). Ops the analysis has no rule for, or whose rule refused them, are
//! listed on stderr; their results get fresh symbols for unknown dims.

use std::io::Write;

use crate::cli::ShapesArgs;
use crate::input::{check_extension, is_stdio, load};
use crate::CliError;

/// Runs `pir shapes`.
pub(crate) fn run(args: &ShapesArgs) -> Result<(), CliError> {
    if let Some(out) = args.output.as_deref().filter(|o| !is_stdio(o)) {
        check_extension(out, &["txt"], "an annotated program")?;
    }
    let loaded = load(&args.model)?;
    let shapes = pir::shape::ShapeAnalysis::run(&loaded.program);
    for s in shapes.skipped() {
        eprintln!(
            "warning: {}: {}: {}",
            args.model.display(),
            s.name,
            s.reason
        );
    }
    let text = pir::shape::annotated_text(&loaded.program, &shapes);
    match &args.output {
        Some(out) if !is_stdio(out) => {
            pir_core::fs::write_atomic(out, args.force, |w| w.write_all(text.as_bytes()))?;
        }
        _ => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
            stdout.flush()?;
        }
    }
    Ok(())
}
