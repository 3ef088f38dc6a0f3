//! What the examples share: reading the model named on the command line.

/// Reads the model at `path` with every dialect; on failure prints the
/// error after the path and exits with status 1.
pub fn load_or_exit(path: &str) -> pir_serde::LoadedProgram {
    let ctx = pir_dialects::pd_op_context();
    match pir_serde::read_file(ctx, path.as_ref(), &Default::default()) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
