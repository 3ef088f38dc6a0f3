//! `pir opt IN.json -p PIPELINE [-o OUT.json]`: runs passes on a model;
//! `pir opt --list-passes` lists the registered passes.
//!
//! Options: `--print-ir-before-all`, `--print-ir-after-all`, `--print-ir-after-change`, `--ir-dump-dir D`
//! (IR after each pass to `D/NN-pass.txt` instead of stderr), `--timing`,
//! `--statistics` (a table on stderr), `--no-verify` (skip verification after
//! each pass, on by default), `--force` (overwrite OUT), `--reproducer FILE`
//! (when a pass fails or panics, write the input program to FILE and print the
//! `pir opt` command that replays the failure), `--keep-params` (no pass reads
//! a parameter as a constant, creates or drops one: `OUT.pdiparams` holds the
//! input's tensors), `--rules FILE` (apply the rewrite rules of FILE before
//! the pipeline; rules that never match are reported). Without `-o` the
//! result is printed on stdout.
//!
//! A `.json` input is read with its parameter file (`IN.pdiparams`, else
//! `IN.pdparams`) when there is one, bound and checked (names, dtypes, shapes)
//! before any pass runs; `-o OUT` then writes `OUT.pdiparams` with exactly the
//! persistable tensors the result still uses, in Paddle's order and format.
//! The parameter file is written first and removed again when the program
//! cannot be written, so no half pair is left behind (both writes are atomic).
//! A legacy `.pdmodel` is translated and read with its `.pdiparams` the same
//! way. IR text inputs have no parameters.
//!
//! Paddle knows no value tensors: when the result holds `vt` ops or types
//! (from `to_vtensor`), `-o` first runs `lower_vtensor` so the file is one
//! Paddle loads; `--keep-vtensor` writes them as they are (pir reads them back).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::args::Args;
use crate::CliError;

/// Runs `pir opt`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    if args.iter().any(|a| a == "--list-passes") {
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
    let args = Args::parse(
        args,
        &[
            "--print-ir-before-all",
            "--print-ir-after-all",
            "--print-ir-after-change",
            "--timing",
            "--statistics",
            "--no-verify",
            "--force",
            "--keep-vtensor",
            "--keep-params",
        ],
        &[
            "-p",
            "--pipeline",
            "-o",
            "--ir-dump-dir",
            "--reproducer",
            "--rules",
        ],
    )?;
    let [input] = args.positional.as_slice() else {
        return Err(CliError::Usage("`pir opt` takes one input model".into()));
    };
    let pipeline = pipeline_text(
        args.value("-p").or(args.value("--pipeline")),
        args.value("--rules"),
    )?;
    let pipeline = pipeline.as_str();
    let defaults = if args.has("--keep-params") {
        pir_pass::registry::OptionDefaults::keep_params()
    } else {
        Default::default()
    };
    let mut pm = pir_pass::PassManager::parse_with(pipeline, &defaults)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    pm.instrumentation.verify_each = !args.has("--no-verify");
    pm.instrumentation.print_before_all = args.has("--print-ir-before-all");
    pm.instrumentation.print_after_all = args.has("--print-ir-after-all");
    pm.instrumentation.print_after_change = args.has("--print-ir-after-change");
    pm.instrumentation.dump_dir = args.value("--ir-dump-dir").map(PathBuf::from);
    if let Some(dir) = &pm.instrumentation.dump_dir {
        std::fs::create_dir_all(dir)?;
    }
    let mut loaded = load_model(input)?;
    if let Some(file) = args.value("--reproducer") {
        pm.on_failure = Some(reproducer_hook(PathBuf::from(file), loaded.trainable));
    }
    let records = pm
        .run(&mut loaded.program)
        .map_err(|e| CliError::Pass(e.to_string()))?;
    if args.has("--timing") || args.has("--statistics") {
        std::io::stderr().write_all(pir_pass::manager::report(&records).as_bytes())?;
    }
    for note in records.iter().flat_map(|r| r.statistics.notes()) {
        eprintln!("note: {note}");
    }
    match args.value("-o") {
        Some(out) => {
            let out = PathBuf::from(out);
            if !args.has("--keep-vtensor")
                && pir_dialects::value_tensor::mentions_value_tensors(&loaded.program)
            {
                lower_value_tensors(&mut loaded.program, pm.instrumentation.verify_each)?;
            }
            save_model(&loaded, &out, args.has("--force"))?;
        }
        None => std::io::stdout().write_all(&loaded.program.print_to_vec())?,
    }
    Ok(())
}

/// The pipeline to run: `--rules FILE` (the `drr` pass) first, then `-p`'s.
fn pipeline_text(pipeline: Option<&str>, rules: Option<&str>) -> Result<String, CliError> {
    let rules = match rules {
        Some(file) if file.contains([',', '{', '}', '(', ')']) => {
            return Err(CliError::Usage(format!(
                "--rules {file}: a rule file's path may not contain `,{{}}()`"
            )))
        }
        Some(file) => Some(format!("drr{{file={file}}}")),
        None => None,
    };
    match (rules, pipeline) {
        (Some(r), Some(p)) => Ok(format!("{r},{p}")),
        (Some(r), None) => Ok(r),
        (None, Some(p)) => Ok(p.to_owned()),
        (None, None) => Err(CliError::Usage(
            "`pir opt` needs -p PIPELINE (e.g. \"dce,cse\") or --rules FILE".into(),
        )),
    }
}

/// Reads the input: a `.json` model with the parameter file beside it (if
/// any) through [`pir::Model`], so the tensors stay memory-mapped and are
/// checked against the program; anything else (IR text, or a file told by its
/// content) as a program without parameters.
fn load_model(input: &Path) -> Result<pir::Model, CliError> {
    if input.extension().is_some_and(|e| e == "json") {
        let ctx = pir_dialects::pd_op_context();
        let prefix = input.with_extension("");
        return Ok(pir::Model::load_with(ctx, &prefix, &Default::default())?);
    }
    if pir_legacy::is_pdmodel_path(input) {
        // A Paddle 2.x model, translated as Paddle 3.3.1 does, with its
        // `.pdiparams` bound and checked like a JSON model's.
        let ctx = pir_dialects::pd_op_context();
        let options = crate::commands::legacy_options();
        return Ok(pir::Model::load_legacy(ctx, input, options)?);
    }
    let loaded = crate::commands::load(input)?;
    Ok(pir::Model {
        program: loaded.program,
        trainable: loaded.trainable,
        version: loaded.version,
        readable: loaded.readable,
    })
}

/// Writes the program to `out` (JSON, or text for `.pir`/`.txt`) and, when its
/// parameters have data, `out` with the extension `.pdiparams` holding the
/// persistable tensors it uses. The parameter file goes first; if the program
/// then cannot be written, the new parameter file is removed again.
fn save_model(model: &pir::Model, out: &Path, force: bool) -> Result<(), CliError> {
    let params = model.persistable_tensors()?;
    let params_path = out.with_extension("pdiparams");
    if !params.is_empty() {
        if params_path == out {
            return Err(CliError::Usage(format!(
                "{}: the output must not be the parameter file",
                out.display()
            )));
        }
        pir_params::combined::save_combined(&params_path, &params, force).map_err(|source| {
            CliError::Params {
                path: params_path.clone(),
                source,
            }
        })?;
    }
    let options = pir_serde::WriteOptions {
        trainable: model.trainable,
        ..Default::default()
    };
    let saved = crate::commands::save(&model.program, out, &options, force);
    if saved.is_err() && !params.is_empty() {
        // Best effort: the program's error is the one to report.
        let _ = std::fs::remove_file(&params_path);
    }
    saved
}

/// A failure hook that writes the pipeline's input program to `file` (JSON,
/// or text for `.pir`/`.txt`) and prints the command that replays the failure.
fn reproducer_hook(file: PathBuf, trainable: bool) -> pir_pass::manager::FailureHook {
    Box::new(move |program, pipeline, error| {
        let options = pir_serde::WriteOptions {
            trainable,
            ..Default::default()
        };
        match pir_serde::write_any_file(program, &file, &options, true) {
            Ok(()) => eprintln!(
                "reproducer: {error}\nreplay with: pir opt {} -p \"{pipeline}\"",
                file.display()
            ),
            Err(e) => eprintln!("reproducer: cannot write {}: {e}", file.display()),
        }
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

    use super::run;

    /// `-o` lowers value tensors unless `--keep-vtensor`; a kept file reads
    /// back in pir and lowers to the original program.
    #[test]
    fn value_tensors_are_lowered_for_paddle_unless_kept() {
        let model = pir_corpus::models()
            .into_iter()
            .find(|m| m.name == "mlp_tiny")
            .unwrap();
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
            run(&args).unwrap();
            crate::commands::load(out).unwrap().program
        };
        let original = crate::commands::load(&input).unwrap().program;
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
        let model = pir_corpus::models()
            .into_iter()
            .find(|m| m.name == "mlp_tiny")
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("m.json");
        std::fs::copy(model.json(), &json).unwrap();
        std::fs::copy(
            model.file(".pdiparams").unwrap(),
            dir.path().join("m.pdiparams"),
        )
        .unwrap();
        let mut loaded = super::load_model(&json).unwrap();
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
        super::save_model(&loaded, &out, false).unwrap();
        let back = pir::Model::load(dir.path().join("y")).unwrap();
        assert_eq!(back.parameter_names(), ["linear_0.b_0", "linear_0.w_0"]);
        for (name, tensor) in &original[..2] {
            assert_eq!(back.tensor(name).unwrap().bytes(), tensor.bytes());
        }
    }
}
