//! Loads a model with its parameters, runs a pipeline of passes on it, saves
//! the result into a fresh folder, reads it back and checks that what was
//! read is what was saved.
//!
//! `cargo run -p pir --example load_optimise_save` (the model is the
//! repository's `tests/corpus/mlp_tiny.json`).
#![allow(clippy::unwrap_used)] // an example fails loudly by design

use std::path::PathBuf;

use pir::pass::PassManager;

/// Runs the example (`tests/examples.rs` runs it too).
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The path is taken from the crate's folder, so the example runs from
    // any working directory (and under `cargo test`).
    let input = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/mlp_tiny.json");

    // The program, with the tensors of `mlp_tiny.pdiparams` bound by name
    // (memory-mapped, dtype and shape checked against the program).
    let mut model = pir::Model::load(&input)?;
    let before = model.program.num_ops();
    println!(
        "{}: {before} ops, parameters {:?}",
        input.display(),
        model.parameter_names()
    );

    // Fuse `matmul` + `add` (+ `relu`) into `pd_op.fc`, then clean up. The
    // program is verified after every pass.
    let mut pm = PassManager::parse("matmul_add_act_fuse,canonicalize,cse,dce")?;
    pm.instrumentation.verify_each = true;
    for record in pm.run(&mut model.program)? {
        println!("{:<20} changed: {}", record.pass, record.changed);
    }
    let count = |p: &pir::core::Program, name: &str| {
        let mut n = 0;
        p.walk(p.module_op(), pir::core::walk::Order::Pre, &mut |op| {
            n += usize::from(p.op_name_str(op) == name)
        });
        n
    };
    let fcs = count(&model.program, "pd_op.fc");
    println!(
        "{} ops after the pipeline, {fcs} pd_op.fc",
        model.program.num_ops()
    );
    // Two Linear + ReLU layers: two fc ops with their activation.
    assert!(model.program.num_ops() < before);
    assert_eq!(fcs, 2);
    assert_eq!(count(&model.program, "pd_op.relu"), 0);

    // `out/model.json` and `out/model.pdiparams`, written atomically.
    let dir = tempfile::tempdir()?;
    let prefix = dir.path().join("out/model");
    std::fs::create_dir_all(prefix.parent().unwrap())?;
    model.save(&prefix, false)?;

    // Read back: the same text, the same parameters with the same bytes.
    let again = pir::Model::load(&prefix)?;
    assert_eq!(again.program.to_string(), model.program.to_string());
    assert_eq!(again.parameter_names(), model.parameter_names());
    for name in model.parameter_names() {
        let (a, b) = (model.tensor(&name).unwrap(), again.tensor(&name).unwrap());
        assert_eq!((a.dtype(), a.dims()), (b.dtype(), b.dims()), "{name}");
        assert_eq!(a.bytes(), b.bytes(), "{name}");
    }
    println!("saved to {} and read back equal", prefix.display());
    Ok(())
}
