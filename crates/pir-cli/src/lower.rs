//! `pir lower MODEL [--typed] [-o OUT]`: the program Paddle's executor runs
//! on the CPU — each op lowered to its phi kernel with the key Paddle
//! chooses — printed as Paddle prints it with `FLAGS_print_ir=1` (`IR after
//! lowering`), or as the lossless typed text.
//!
//! A kernel program is a view: Paddle never saves one, so there is no JSON
//! to write, and `-o X.json` is refused. Kernel ops whose key no registered
//! Paddle kernel matches are listed on stderr (Paddle lowers them the same
//! way and fails when it runs them).

use std::io::Write;
use std::path::Path;

use crate::cli::LowerArgs;
use crate::input::{check_extension, is_stdio, load};
use crate::CliError;

/// Runs `pir lower`.
pub(crate) fn run(args: &LowerArgs) -> Result<(), CliError> {
    if let Some(out) = &args.output {
        check_lowered_output(out)?;
    }
    let loaded = load(&args.model)?;
    let lowered = pir::kernel::lower(&loaded.program)
        .map_err(|e| CliError::Pass(format!("{}: cannot lower: {e}", args.model.display())))?;
    for missing in &lowered.missing_kernels {
        eprintln!(
            "warning: {}: no registered kernel {} for {} ({}): Paddle fails when it runs it",
            args.model.display(),
            missing.kernel,
            missing.key,
            missing.op_name
        );
    }
    let typed = args.typed
        || args
            .output
            .as_deref()
            .and_then(pir_core::fs::extension)
            .is_some_and(|e| e == "pir");
    let write = |w: &mut dyn Write| -> std::io::Result<()> {
        if typed {
            w.write_all(lowered.to_typed_string().as_bytes())
        } else {
            lowered.print_paddle_to(&mut *w)
        }
    };
    match &args.output {
        Some(out) if !is_stdio(out) => {
            pir_core::fs::write_atomic(out, args.force, |w| write(w))?;
        }
        _ => {
            let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            write(&mut stdout)?;
            stdout.flush()?;
        }
    }
    Ok(())
}

/// Refuses `.json` (a kernel program has no JSON form) and extensions that
/// say no text.
fn check_lowered_output(path: &Path) -> Result<(), CliError> {
    if is_stdio(path) {
        return Ok(());
    }
    if pir_core::fs::extension(path).is_some_and(|e| e == "json") {
        return Err(CliError::Usage(format!(
            "{}: a lowered program cannot be saved as JSON: it is a view of what Paddle's \
             executor runs, and Paddle saves none; write its text (.txt, or .pir for the \
             typed form)",
            path.display()
        )));
    }
    check_extension(path, &["txt", "pir"], "a lowered program")
}
