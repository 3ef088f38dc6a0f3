//! `pir opt IN.json -p PIPELINE [-o OUT.json]`: runs passes on a model;
//! `pir opt --list-passes` lists the registered passes.
//!
//! Options: `--print-ir-before-all`, `--print-ir-after-all`, `--print-ir-after-change`, `--ir-dump-dir D`
//! (IR after each pass to `D/NN-pass.txt` instead of stderr), `--timing`,
//! `--statistics` (a table on stderr), `--no-verify` (skip verification after
//! each pass, on by default), `--force` (overwrite OUT), `--reproducer FILE`
//! (when a pass fails or panics, write the input program to FILE and print the
//! `pir opt` command that replays the failure), `--keep-params` (no pass reads
//! a parameter as a constant, creates, drops or reshapes one: `OUT.pdiparams`
//! holds the input's tensors), `--rules FILE` (apply the rewrite rules of FILE before
//! the pipeline; rules that never match are reported), `--input-shape
//! NAME=DIMS` (fixed dims for an input, followed through the program by
//! type inference before anything else runs). Without `-o` the
//! result is printed on stdout.
//!
//! A `.json` input is read with its parameter file (`IN.pdiparams`, else
//! `IN.pdparams`) when there is one, bound and checked (names, dtypes, shapes)
//! before any pass runs; `-o OUT` then writes `OUT.pdiparams` with exactly the
//! persistable tensors the result still uses, in Paddle's order and format.
//! The parameter file is written first and removed again when the program
//! cannot be written, so no half pair is left behind (both writes are atomic).
//! A legacy `.pdmodel` is translated and read with its `.pdiparams` the same
//! way, and so is IR text (`IN.txt` with `IN.pdiparams`).
//!
//! Paddle knows no value tensors: when the result holds `vt` ops or types
//! (from `to_vtensor`), `-o` first runs `lower_vtensor` so the file is one
//! Paddle loads; `--keep-vtensor` writes them as they are (pir reads them back).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::cli::OptArgs;
use crate::input::{load_model, save_model};
use crate::CliError;

/// Runs `pir opt`.
pub fn run(args: &OptArgs) -> Result<(), CliError> {
    if args.list_passes {
        let mut out = String::new();
        for info in pir_pass::registry::PASSES {
            let options = if info.options.is_empty() {
                String::new()
            } else {
                format!(" {{{}}}", info.options.join(", "))
            };
            out.push_str(&format!(
                "{:<34} {}{options}\n",
                info.argument, info.description
            ));
        }
        for (name, passes, description) in pir_pass::pipelines::PIPELINES {
            out.push_str(&format!("{name:<34} pipeline: {description} ({passes})\n"));
        }
        std::io::stdout().write_all(out.as_bytes())?;
        return Ok(());
    }
    let Some(input) = &args.input else {
        return Err(CliError::Usage(
            "`pir opt` needs a model and -p PIPELINE (e.g. \"canonicalize,cse,dce\")".into(),
        ));
    };
    let pipeline = pipeline_text(
        &args.input_shape,
        args.pipeline.as_deref(),
        args.rules.as_deref(),
    )?;
    let pipeline = pipeline.as_str();
    if let Some(out) = &args.output {
        crate::input::check_model_output(out)?;
    }
    let defaults = if args.keep_params {
        pir_pass::registry::OptionDefaults::keep_params()
    } else {
        Default::default()
    };
    // A misspelt pipeline is a usage error; a rule file that cannot be read
    // or parsed is bad input, said with its file, line and column.
    let mut pm =
        pir_pass::PassManager::parse_with(pipeline, &defaults).map_err(|e| match e.input {
            true => CliError::Pass(e.to_string()),
            false => CliError::Usage(e.to_string()),
        })?;
    for renamed in pir_pass::registry::renamed_in(pipeline) {
        crate::note(&renamed)?;
    }
    pm.instrumentation.verify_each = !args.no_verify;
    pm.instrumentation.print_before_all = args.print_ir_before_all;
    pm.instrumentation.print_after_all = args.print_ir_after_all;
    pm.instrumentation.print_after_change = args.print_ir_after_change;
    pm.instrumentation.dump_dir = args.ir_dump_dir.clone();
    if let Some(dir) = &pm.instrumentation.dump_dir {
        std::fs::create_dir_all(dir)?;
    }
    let started = Instant::now();
    let mut loaded = load_model(input)?;
    let load_time = started.elapsed();
    if loaded.lacks_parameter_data() && !args.no_params {
        return Err(missing_params(input));
    }
    if let Some(file) = &args.reproducer {
        pm.on_failure = Some(reproducer_hook(file.clone(), loaded.trainable));
    }
    let records = {
        let _progress = crate::progress::spinner(format_args!("running {pipeline}"));
        pm.run(&mut loaded.program)
            .map_err(|e| CliError::Pass(e.to_string()))?
    };
    for note in records.iter().flat_map(|r| r.statistics.notes()) {
        crate::note(&note.to_string())?;
    }
    let started = Instant::now();
    match &args.output {
        Some(out) => {
            if !args.keep_vtensor
                && pir_dialects::value_tensor::mentions_value_tensors(&loaded.program)
            {
                lower_value_tensors(&mut loaded.program, pm.instrumentation.verify_each)?;
            }
            save_model(&loaded, out, args.force)?;
        }
        None => std::io::stdout().write_all(&loaded.program.print_to_vec())?,
    }
    let save_time = started.elapsed();
    if args.timing || args.statistics {
        let mut report = pir_pass::manager::report(&records);
        if args.timing {
            let what = if args.output.is_some() {
                "save"
            } else {
                "print"
            };
            report.push_str(&format!(
                "{:11.3}         load (program and parameters)\n{:11.3}         {what}\n",
                load_time.as_secs_f64() * 1e3,
                save_time.as_secs_f64() * 1e3
            ));
        }
        std::io::stderr().write_all(crate::escape_controls(&report).as_bytes())?;
    }
    Ok(())
}

/// The pipeline to run: `--input-shape` (the `set_input_shapes` pass) first,
/// then `--rules FILE` (the `drr` pass), then `-p`'s.
fn pipeline_text(
    shapes: &[(String, Vec<i64>)],
    pipeline: Option<&str>,
    rules: Option<&str>,
) -> Result<String, CliError> {
    let set_shapes = (!shapes.is_empty()).then(|| {
        format!(
            "{}{{shapes={}}}",
            pir_pass::transforms::set_input_shapes::INFO.argument,
            pir_pass::transforms::set_input_shapes::option_text(shapes)
        )
    });
    let rules = match rules {
        Some(file) if file.contains([',', '{', '}', '(', ')']) => {
            return Err(CliError::Usage(format!(
                "--rules {file}: a rule file's path may not contain `,{{}}()`"
            )))
        }
        Some(file) => Some(format!("drr{{file={file}}}")),
        None => None,
    };
    let parts: Vec<String> = [set_shapes, rules, pipeline.map(str::to_owned)]
        .into_iter()
        .flatten()
        .collect();
    if parts.is_empty() {
        return Err(CliError::Usage(
            "`pir opt` needs -p PIPELINE (e.g. \"canonicalize,cse,dce\"), --rules FILE or --input-shape NAME=DIMS".into(),
        ));
    }
    Ok(parts.join(","))
}

/// The error for a model whose parameters were not found: where they were
/// looked for, and how to go on without them.
fn missing_params(input: &Path) -> CliError {
    let looked = if crate::input::is_stdio(input) {
        "a model read from standard input has none".to_owned()
    } else {
        let prefix = match pir_core::fs::extension(input).as_deref() {
            Some("json" | "pdmodel" | "pir" | "txt") => input.with_extension(""),
            _ => input.to_path_buf(),
        };
        let name = prefix.display();
        format!("neither {name}.pdiparams nor {name}.pdparams exists")
    };
    CliError::MissingParams(format!(
        "{}: the program has parameters but their data was not found ({looked}): passes that read parameters would see none, and -o would write no parameter file; put the parameter file beside the model, or pass --no-params to optimise the program alone",
        input.display()
    ))
}

/// A failure hook that writes the pipeline's input program to `file` (JSON,
/// or text for `.pir`/`.txt`) and prints the command that replays the failure.
fn reproducer_hook(file: PathBuf, trainable: bool) -> pir_pass::manager::FailureHook {
    Box::new(move |program, pipeline, error| {
        let options = pir_serde::WriteOptions {
            trainable,
            ..Default::default()
        };
        // The pass's failure is reported either way: a stderr that cannot
        // be written loses only this hint.
        let mut stderr = std::io::stderr().lock();
        let message = match pir_serde::write_any_file(program, &file, &options, true) {
            Ok(()) => format!(
                "reproducer: {error}\nreplay with: pir opt {} -p \"{pipeline}\"",
                file.display()
            ),
            Err(e) => format!("reproducer: cannot write {}: {e}", file.display()),
        };
        let _ = writeln!(stderr, "{}", crate::escape_controls(&message));
    })
}

/// Runs `lower_vtensor` so that the program holds only Paddle's types.
fn lower_value_tensors(program: &mut pir_core::Program, verify: bool) -> Result<(), CliError> {
    let mut lower =
        pir_pass::PassManager::parse("lower_vtensor").map_err(|e| CliError::Pass(e.to_string()))?;
    lower.instrumentation.verify_each = verify;
    lower
        .run(program)
        .map_err(|e| CliError::Pass(e.to_string()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test fails loudly by design

    /// `-o` lowers value tensors unless `--keep-vtensor`; a kept file reads
    /// back in pir and lowers to the original program.
    #[test]
    fn value_tensors_are_lowered_for_paddle_unless_kept() {
        let model = pir_corpus::model("mlp_tiny").unwrap();
        let input = model.json();
        let dir = tempfile::tempdir().unwrap();
        let opt = |out: &std::path::Path, keep: bool| {
            let mut args: Vec<String> = [
                input.to_str().unwrap(),
                "-p",
                "to_vtensor,drop_vtensor_copies",
                "-o",
                out.to_str().unwrap(),
            ]
            .map(String::from)
            .to_vec();
            if keep {
                args.push("--keep-vtensor".into());
            }
            let cli = <crate::cli::Cli as clap::Parser>::parse_from(
                std::iter::once("pir".to_string())
                    .chain(std::iter::once("opt".to_string()))
                    .chain(args),
            );
            crate::commands::run(cli).unwrap();
            crate::input::load(out).unwrap().program
        };
        let original = crate::input::load(&input).unwrap().program;
        let lowered = opt(&dir.path().join("lowered.json"), false);
        assert!(!pir_dialects::value_tensor::mentions_value_tensors(
            &lowered
        ));
        assert_eq!(lowered.to_string(), original.to_string());
        assert_eq!(
            std::fs::read(dir.path().join("lowered.json")).unwrap(),
            std::fs::read(&input).unwrap(),
            "the lowered file is the original, byte for byte"
        );

        let mut kept = opt(&dir.path().join("kept.json"), true);
        kept.verify().unwrap();
        assert!(pir_dialects::value_tensor::mentions_value_tensors(&kept));
        super::lower_value_tensors(&mut kept, true).unwrap();
        assert_eq!(kept.to_string(), original.to_string());
    }

    /// A parameter whose `builtin.parameter` op is erased (no registered pass
    /// does: `dce` keeps them as the program's interface) is dropped from the
    /// written file; the others keep their bytes, in Paddle's order.
    #[test]
    fn a_parameter_whose_op_is_erased_is_not_written() {
        let model = pir_corpus::model("mlp_tiny").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("m.json");
        std::fs::copy(model.json(), &json).unwrap();
        std::fs::copy(
            model.file(".pdiparams").unwrap(),
            dir.path().join("m.pdiparams"),
        )
        .unwrap();
        let mut loaded = crate::input::load_model(&json).unwrap();
        let original = loaded.persistable_tensors().unwrap();
        assert_eq!(original.len(), 4);
        // Fetch the first layer's output: the second layer becomes dead.
        let p = &mut loaded.program;
        let top = p.top_block();
        let ops: Vec<_> = p.block_ops(top).collect();
        let relu = ops
            .iter()
            .copied()
            .find(|&op| p.op_name_str(op) == "pd_op.relu")
            .unwrap();
        let scale = ops
            .iter()
            .copied()
            .find(|&op| p.op_name_str(op) == "pd_op.scale")
            .unwrap();
        let parameters = ops
            .into_iter()
            .filter(|&op| p.op_name_str(op) == "builtin.parameter");
        let parameters: Vec<_> = parameters.collect();
        let (from, to) = (p.result(scale, 0), p.result(relu, 0));
        p.replace_all_uses_with(from, to);
        let mut dce = pir_pass::PassManager::parse("dce").unwrap();
        dce.instrumentation.verify_each = false;
        dce.run(p).unwrap();
        for op in parameters {
            if p.use_empty(p.result(op, 0)) {
                p.erase_op(op).unwrap();
            }
        }
        let out = dir.path().join("y.json");
        crate::input::save_model(&loaded, &out, false).unwrap();
        let back = pir::Model::load(dir.path().join("y")).unwrap();
        assert_eq!(back.parameter_names(), ["linear_0.b_0", "linear_0.w_0"]);
        for (name, tensor) in &original[..2] {
            assert_eq!(back.tensor(name).unwrap().bytes(), tensor.bytes());
        }
    }
}
