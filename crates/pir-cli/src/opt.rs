//! `pir opt IN.json -p PIPELINE [-o OUT.json]`: runs passes on a model;
//! `pir opt --list-passes` lists the registered passes.
//!
//! Options: `--print-ir-before-all`, `--print-ir-after-all`, `--print-ir-after-change`, `--ir-dump-dir D`
//! (IR after each pass to `D/NN-pass.txt` instead of stderr), `--timing`,
//! `--statistics` (a table on stderr), `--no-verify` (skip verification after
//! each pass, on by default), `--force` (overwrite OUT), `--reproducer FILE`
//! (when a pass fails or panics, write the input program to FILE and print the
//! `pir opt` command that replays the failure). Without `-o` the
//! result is printed on stdout.
//!
//! Paddle knows no value tensors: when the result holds `vt` ops or types
//! (from `to_vtensor`), `-o` first runs `lower_vtensor` so the file is one
//! Paddle loads; `--keep-vtensor` writes them as they are (pir reads them back).

use std::io::Write;
use std::path::PathBuf;

use crate::args::Args;
use crate::CliError;

/// Runs `pir opt`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    if args.iter().any(|a| a == "--list-passes") {
        let mut out = String::new();
        for (name, description) in pir_pass::registry::PASSES {
            out.push_str(&format!("{name:<34} {description}\n"));
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
        ],
        &["-p", "--pipeline", "-o", "--ir-dump-dir", "--reproducer"],
    )?;
    let [input] = args.positional.as_slice() else {
        return Err(CliError::Usage("`pir opt` takes one input model".into()));
    };
    let pipeline = args
        .value("-p")
        .or(args.value("--pipeline"))
        .ok_or_else(|| CliError::Usage("`pir opt` needs -p PIPELINE (e.g. \"dce,cse\")".into()))?;
    let mut pm =
        pir_pass::PassManager::parse(pipeline).map_err(|e| CliError::Usage(e.to_string()))?;
    pm.instrumentation.verify_each = !args.has("--no-verify");
    pm.instrumentation.print_before_all = args.has("--print-ir-before-all");
    pm.instrumentation.print_after_all = args.has("--print-ir-after-all");
    pm.instrumentation.print_after_change = args.has("--print-ir-after-change");
    pm.instrumentation.dump_dir = args.value("--ir-dump-dir").map(PathBuf::from);
    if let Some(dir) = &pm.instrumentation.dump_dir {
        std::fs::create_dir_all(dir)?;
    }
    let mut loaded = crate::commands::load(input)?;
    if let Some(file) = args.value("--reproducer") {
        pm.on_failure = Some(reproducer_hook(PathBuf::from(file), loaded.trainable));
    }
    let records = pm
        .run(&mut loaded.program)
        .map_err(|e| CliError::Pass(e.to_string()))?;
    if args.has("--timing") || args.has("--statistics") {
        std::io::stderr().write_all(pir_pass::manager::report(&records).as_bytes())?;
    }
    match args.value("-o") {
        Some(out) => {
            let out = PathBuf::from(out);
            if !args.has("--keep-vtensor")
                && pir_dialects::value_tensor::mentions_value_tensors(&loaded.program)
            {
                lower_value_tensors(&mut loaded.program, pm.instrumentation.verify_each)?;
            }
            let options = pir_serde::WriteOptions {
                trainable: loaded.trainable,
                ..Default::default()
            };
            crate::commands::save(&loaded.program, &out, &options, args.has("--force"))?;
        }
        None => std::io::stdout().write_all(&loaded.program.print_to_vec())?,
    }
    Ok(())
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
}
