//! `pir export IN -o OUT.onnx [--opset N] [--no-opt] [--input-shape NAME=DIMS]
//! [--external-data]`: writes a model as ONNX (with its parameters in
//! `OUT.onnx.data` when asked, or when the model would pass 2 GB).
//!
//! The model is read with its parameters (as `pir opt` reads it), given
//! the fixed input dims asked for, prepared (constant folding and cleanups,
//! unless `--no-opt`) and exported (`pir::Model::export_onnx`). An op without an ONNX
//! mapping is an error listing every such op kind with its count and first
//! location; nothing is written then, and the file is put in place only
//! once it is complete.

use std::io::Write;
use std::time::Instant;

use crate::cli::ExportArgs;
use crate::input::{check_extension, load_model};
use crate::CliError;

/// Runs `pir export`.
pub fn run(args: &ExportArgs) -> Result<(), CliError> {
    check_extension(&args.output, &["onnx"], "an ONNX file")?;
    let options = pir::onnx::ExportOptions {
        opset: args.opset,
        // A translated legacy program keeps the shapes its variables
        // declared, which are sometimes stale.
        trust_shapes: !pir_core::fs::has_extension(&args.input, "pdmodel"),
        external_data: args.external_data,
        ..Default::default()
    };
    if !(pir::onnx::MIN_OPSET..=pir::onnx::MAX_OPSET).contains(&args.opset) {
        return Err(CliError::Usage(
            pir::onnx::ExportError::Opset(args.opset).to_string(),
        ));
    }
    if !args.force && args.output.exists() {
        return Err(pir_core::fs::WriteError::Exists(args.output.clone()).into());
    }
    let started = Instant::now();
    let mut model = load_model(&args.input)?;
    let loaded = started.elapsed();
    if model.lacks_parameter_data() {
        return Err(CliError::MissingParams(format!(
            "{}: the program has parameters but their data was not found: put the parameter file (.pdiparams) beside the model",
            args.input.display()
        )));
    }
    let onnx = pir::OnnxOptions {
        export: options,
        input_shapes: args.input_shape.clone(),
        no_opt: args.no_opt,
        overwrite: args.force,
    };
    let timings = {
        let _progress = crate::progress::spinner("exporting");
        model.export_onnx(&args.output, &onnx)
    }
    .map_err(|e| match e {
        pir::Error::Onnx { source, .. } => CliError::Export(source),
        other => CliError::Model(other),
    })?;
    if args.timing {
        let report = format!(
            "{:11.3}         load (program and parameters)\n{:11.3}         prepare\n{:11.3}         export\n{:11.3}         write\n",
            loaded.as_secs_f64() * 1e3,
            timings.prepare.as_secs_f64() * 1e3,
            timings.export.as_secs_f64() * 1e3,
            timings.write.as_secs_f64() * 1e3,
        );
        std::io::stderr().write_all(report.as_bytes())?;
    }
    Ok(())
}
