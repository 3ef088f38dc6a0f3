//! The subcommands of `pir`.

use std::io::Write;
use std::path::Path;

use pir_serde::ReadOptions;

use crate::cli::{Cli, Command, ConvertArgs, PrintArgs, SynthArgs, TimeArgs, VerifyArgs};
use crate::input::{load, load_with, save};
use crate::CliError;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    crate::input::set_lenient(cli.lenient);
    match cli.command {
        Command::Print(args) => print(&args),
        Command::Verify(args) => verify(&args),
        Command::Stats(args) => crate::batch::run(&args.models, args.jobs.get(), stats),
        Command::Convert(args) => convert(&args, Mode::Convert),
        Command::Upgrade(args) => convert(&args, Mode::Upgrade),
        Command::Downgrade(args) => convert(&args.convert, Mode::Downgrade),
        Command::Opt(args) => crate::opt::run(&args),
        Command::Export(args) => crate::export::run(&args),
        Command::Params(args) => crate::params::run(&args),
        Command::Diff(args) => crate::diff::run(&args),
        Command::Graph(args) => crate::graph::run(&args),
        Command::Time(args) => time(&args),
        Command::Synth(args) => synth(&args),
        Command::Lower(args) => crate::lower::run(&args),
        Command::Shapes(args) => crate::shapes::run(&args),
        Command::Completions(args) => {
            let mut out = Vec::new();
            clap_complete::generate(args.shell, &mut crate::cli::full_command(), "pir", &mut out);
            std::io::stdout().write_all(&out)?;
            Ok(())
        }
    }
}

/// The largest patch file read (Paddle's own patch files are a few KiB).
const MAX_PATCH_FILE: u64 = 16 << 20;

/// Which of the converting commands runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Convert,
    Upgrade,
    Downgrade,
}

/// `pir convert IN OUT`; `pir upgrade OLD NEW` and `pir downgrade NEW OLD
/// --to R` are the same and say when the input was already at the version
/// asked for.
fn convert(args: &ConvertArgs, mode: Mode) -> Result<(), CliError> {
    crate::input::check_model_output(&args.output)?;
    let version = args.to.unwrap_or(pir_serde::PIR_VERSION);
    if version < pir_serde::PIR_VERSION && pir_legacy::is_pdmodel_path(&args.output) {
        return Err(CliError::Usage(format!(
            "{}: --to writes Paddle 3.x JSON; a .pdmodel is Paddle 2.x's format (leave out --to)",
            args.output.display()
        )));
    }
    if version < pir_serde::PIR_VERSION && pir_serde::is_text_path(&args.output) {
        return Err(CliError::Usage(format!(
            "{}: --to writes Paddle's JSON; name a .json output (or - for standard output)",
            args.output.display()
        )));
    }
    let mut read = ReadOptions {
        accept_develop_version: args.accept_develop_version,
        ..Default::default()
    };
    let mut merged: Option<pir_serde::patch::PatchSet> = None;
    for file in &args.patch {
        let bytes = pir_core::fs::read_limited(file, MAX_PATCH_FILE).map_err(|e| {
            CliError::File(format!("cannot read patch file {}: {e}", file.display()))
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            CliError::File(format!(
                "patch file {}: not UTF-8 text (byte offset {})",
                file.display(),
                e.utf8_error().valid_up_to()
            ))
        })?;
        let name = file.display().to_string();
        let set = pir_serde::patch::parse_patch_yaml(&name, &text)
            .map_err(|e| CliError::File(format!("invalid patch file: {e}")))?;
        merged.get_or_insert_with(Default::default).merge(set);
    }
    read.patches = merged.map(std::sync::Arc::new);
    let mut model = crate::input::load_model_with(&args.input, &read)?;
    if mode == Mode::Upgrade
        && model.version >= pir_serde::PIR_VERSION
        && version >= pir_serde::PIR_VERSION
        && args.patch.is_empty()
    {
        crate::note(&format!(
            "{} is already at version {} (current): written unchanged",
            args.input.display(),
            model.version
        ))?;
    }
    if mode == Mode::Downgrade && model.version <= version && model.version > 0 {
        let release = pir_serde::patch::release_name(version).unwrap_or("?");
        crate::note(&if model.version == version {
            format!(
                "{} is already at version {version} (Paddle {release}): nothing to undo",
                args.input.display()
            )
        } else {
            format!(
                "{} is at version {}, older than {version} (Paddle {release}): written upgraded to it",
                args.input.display(),
                model.version
            )
        })?;
    }
    // Keep the file's `trainable` and layout unless asked otherwise.
    model.trainable = match (args.inference, args.trainable) {
        (true, _) => false,
        (_, true) => true,
        _ => model.trainable,
    };
    model.readable = match (args.readable, args.compact) {
        (true, _) => true,
        (_, true) => false,
        _ => model.readable,
    };
    if model.lacks_parameter_data() && !crate::input::is_stdio(&args.output) {
        crate::note(&format!(
            "{} has parameters but no parameter file beside it: only the program is written",
            args.input.display()
        ))?;
    }
    crate::input::save_model_as_version(&model, &args.output, args.force, version)
}

/// `pir print MODEL [--typed] [--json-ids]`: the text goes to stdout as it
/// is printed, so it never exists whole in memory.
fn print(args: &PrintArgs) -> Result<(), CliError> {
    let loaded = load(&args.model)?;
    // A spinner would mix with text printed on the terminal.
    let _progress = if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        None
    } else {
        crate::progress::spinner("printing")
    };
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if args.typed {
        let options = pir_serde::typed_options(&loaded);
        pir_serde::write_typed(&loaded.program, &options, args.json_ids, &mut stdout)?;
    } else {
        let options = pir_core::printer::PrintOptions {
            typed: false,
            json_ids: args.json_ids,
        };
        loaded.program.print_with_to(options, &[], &mut stdout)?;
    }
    stdout.flush()?;
    crate::input::leave_to_exit(loaded);
    Ok(())
}

/// `pir verify MODEL [--strict]`: `--strict` also rejects ops without a registration.
fn verify(args: &VerifyArgs) -> Result<(), CliError> {
    let options = ReadOptions {
        strict: args.strict,
        ..Default::default()
    };
    crate::batch::run(&args.models, args.jobs.get(), |path| {
        let loaded = load_with(path, &options)?;
        loaded.program.verify().map_err(|source| CliError::Verify {
            path: path.to_path_buf(),
            source,
        })?;
        if args.infer {
            return verify_infer(path, &loaded.program);
        }
        let report = format!(
            "{}: ok ({} ops)\n",
            path.display(),
            loaded.program.num_ops()
        );
        if args.models.len() == 1 {
            crate::input::leave_to_exit(loaded);
        }
        Ok(report)
    })
}

/// `pir verify --infer`: re-infers every op; one line per op whose stored
/// result types differ (an error) or that has no inference (a note).
fn verify_infer(path: &Path, program: &pir_core::Program) -> Result<String, CliError> {
    use std::fmt::Write as _;
    let inferer = pir_infer::Inferer::shared(program.ctx_arc());
    let check = inferer.check_program(program);
    let ctx = program.ctx();
    let mut out = String::new();
    let mut without: std::collections::BTreeMap<&str, usize> = Default::default();
    for (op_path, op, outcome) in &check.reports {
        let at = op_path
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join("/");
        let name = program.op_name_str(*op);
        match outcome {
            pir_infer::OpCheck::Equal | pir_infer::OpCheck::Declared => {}
            pir_infer::OpCheck::Differ { stored, inferred } => {
                // Writing into a String cannot fail.
                let _ = writeln!(
                    out,
                    "{}: op {at} `{name}`: stored [{}], inferred [{}]",
                    path.display(),
                    pir_infer::display_types(ctx, stored),
                    pir_infer::display_types(ctx, inferred)
                );
            }
            pir_infer::OpCheck::Error(pir_infer::InferError::Invalid { .. }) => {
                let pir_infer::OpCheck::Error(e) = outcome else {
                    continue;
                };
                let _ = writeln!(out, "{}: op {at}: {e}", path.display());
            }
            pir_infer::OpCheck::Error(_) => *without.entry(name).or_default() += 1,
        }
    }
    let differ = check.differing();
    let _ = writeln!(
        out,
        "{}: {} ops inferred, {} equal, {differ} differ, {} declared",
        path.display(),
        check.checked,
        check.equal,
        check.declared
    );
    if !without.is_empty() {
        let list: Vec<String> = without.iter().map(|(n, c)| format!("{n} ({c})")).collect();
        let _ = writeln!(
            out,
            "{}: without inference: {}",
            path.display(),
            list.join(", ")
        );
    }
    if differ > 0 {
        return Err(CliError::File(out.trim_end().to_owned()));
    }
    Ok(out)
}

/// `pir stats MODEL`.
fn stats(path: &Path) -> Result<String, CliError> {
    let loaded = load(path)?;
    let p = &loaded.program;
    let mut histogram: std::collections::BTreeMap<String, usize> = Default::default();
    let mut total = 0usize;
    p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        if op != p.module_op() {
            *histogram.entry(p.op_name_str(op).to_owned()).or_default() += 1;
            total += 1;
        }
    });
    // Writing into a String cannot fail.
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "file: {}", path.display());
    let _ = writeln!(
        out,
        "pir version: {}, trainable: {}",
        loaded.version, loaded.trainable
    );
    let _ = writeln!(out, "ops: {total}");
    let bytes = p.heap_bytes();
    let _ = writeln!(
        out,
        "program arena bytes: {bytes} ({:.1} per op)",
        bytes as f64 / total.max(1) as f64
    );
    let mut rows: Vec<_> = histogram.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (name, n) in rows {
        let _ = writeln!(out, "{n:8}  {name}");
    }
    Ok(out)
}

/// `pir time MODEL [--repeat N]`: in-process medians of load, print and
/// save, as one JSON object on stdout (used by the Paddle comparison script).
fn time(args: &TimeArgs) -> Result<(), CliError> {
    let path = &args.model;
    let io = |source| pir::Error::Io(pir_core::fs::ReadError::at(path)(source));
    let bytes = if crate::input::is_stdio(path) {
        if args.params {
            return Err(CliError::Usage(
                "`pir time - --params`: a model read from standard input has no parameter file beside it".into(),
            ));
        }
        let mut bytes = Vec::new();
        let stdin = std::io::stdin().lock();
        pir_core::fs::read_to_end_limited(stdin, pir::MAX_STREAM_BYTES, &mut bytes).map_err(io)?;
        bytes
    } else {
        pir_core::fs::read_limited(path, pir::MAX_STREAM_BYTES).map_err(io)?
    };
    // The whole file is in hand: its kind is told from it, not read again.
    let kind = pir::FileKind::of_named_bytes(&bytes, path);
    let ctx = pir_dialects::pd_op_context();
    let options = crate::input::load_options(&ReadOptions::default());
    let read_into = |ctx| pir::read_program_bytes(ctx, path, kind, &bytes, &options);
    let read = || read_into(ctx.clone());
    // The first read builds the context's tables (a model's items are
    // new to it); the repeats find them again.
    let t = std::time::Instant::now();
    let loaded = read()?;
    let first_load_ms = t.elapsed().as_secs_f64() * 1e3;
    // The context is new: this print formats every type and attribute
    // (what `pir print FILE` does); the repeats find their texts kept.
    let t = std::time::Instant::now();
    std::hint::black_box(loaded.program.print_to_vec().len());
    let first_print_ms = t.elapsed().as_secs_f64() * 1e3;
    let write_options = pir_serde::WriteOptions {
        trainable: loaded.trainable,
        ..Default::default()
    };
    let save = |program: &pir_core::Program| {
        pir_serde::write_to_vec(program, &write_options).map_err(|source| CliError::Write {
            path: path.clone(),
            source,
        })
    };
    // Likewise the first save encodes every type and attribute (what
    // `pir convert` does once); the repeats reuse the texts the context keeps.
    let t = std::time::Instant::now();
    std::hint::black_box(save(&loaded.program)?.len());
    let first_save_ms = t.elapsed().as_secs_f64() * 1e3;
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let (mut load_ms, mut print_ms, mut save_ms) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..args.repeat {
        let t = std::time::Instant::now();
        let l = read()?;
        load_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let t = std::time::Instant::now();
        let text = l.program.print_to_vec();
        print_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let t = std::time::Instant::now();
        let json = save(&l.program)?;
        save_ms.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box((text.len(), json.len()));
    }
    // A program loaded into a fresh context of this warm process: its first
    // print and save format every type and attribute, as `first_print_ms`
    // and `first_save_ms` do, but without the process's first run of the
    // printer's and writer's code and first touch of their memory (what a
    // session pays for each new model it opens; Paddle's figures are
    // medians of calls in a process that made them before).
    let (mut fresh_print_ms, mut fresh_save_ms) = (Vec::new(), Vec::new());
    for _ in 0..args.repeat {
        let l = read_into(pir_dialects::pd_op_context())?;
        let t = std::time::Instant::now();
        let text = l.program.print_to_vec();
        fresh_print_ms.push(t.elapsed().as_secs_f64() * 1e3);
        // Another fresh context: the save finds nothing the print left.
        let l = read_into(pir_dialects::pd_op_context())?;
        let t = std::time::Instant::now();
        let json = save(&l.program)?;
        fresh_save_ms.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box((text.len(), json.len()));
    }
    let params = if args.params {
        let (bytes, ms) = time_params(path, &loaded.program, args.repeat)?;
        let ms = median(ms);
        let gbps = bytes as f64 / (ms * 1e6);
        format!(",\"params_bytes\":{bytes},\"params_ms\":{ms:.4},\"params_gbps\":{gbps:.3}")
    } else {
        String::new()
    };
    writeln!(
        std::io::stdout(),
        "{{\"file\":{:?},\"bytes\":{},\"ops\":{},\"repeat\":{},\"first_load_ms\":{first_load_ms:.6},\"first_print_ms\":{first_print_ms:.6},\"first_save_ms\":{first_save_ms:.6},\"load_ms\":{:.6},\"print_ms\":{:.6},\"save_ms\":{:.6},\"fresh_print_ms\":{:.6},\"fresh_save_ms\":{:.6}{params}}}",
        path.display().to_string(),
        bytes.len(),
        loaded.program.num_ops(),
        args.repeat,
        median(load_ms),
        median(print_ms),
        median(save_ms),
        median(fresh_print_ms),
        median(fresh_save_ms)
    )?;
    Ok(())
}

/// Times `repeat` reads of the `.pdiparams` beside `model`: mapped, each of
/// `program`'s parameters located, checked and summed (so every byte is
/// read). Gives the file's size and the times in ms.
fn time_params(
    model: &std::path::Path,
    program: &pir_core::Program,
    repeat: u32,
) -> Result<(u64, Vec<f64>), CliError> {
    let path = model.with_extension("pdiparams");
    let vars = pir::persistable_vars(program);
    let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
    let err = |source| pir::Error::Params {
        path: path.clone(),
        source,
    };
    let size = std::fs::metadata(&path)
        .map_err(pir_core::fs::ReadError::at(&path))
        .map_err(pir::Error::Io)?
        .len();
    let mut ms = Vec::new();
    for _ in 0..repeat {
        let t = std::time::Instant::now();
        let tensors = pir_params::combined::load_combined(&path, &names).map_err(err)?;
        let sum: f64 = tensors.iter().map(|(_, t)| t.sum_f64()).sum();
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(sum);
    }
    Ok((size, ms))
}

/// `pir synth OPS OUT [--force]`: writes a synthetic model of about OPS ops
/// (stacked Linear + ReLU + LayerNorm blocks), for benchmarks.
fn synth(args: &SynthArgs) -> Result<(), CliError> {
    let program = pir_dialects::synthetic::mlp(
        pir_dialects::pd_op_context(),
        // The range of `ops` keeps this within usize on every target.
        usize::try_from(args.ops.saturating_sub(2).div_ceil(8).max(1)).unwrap_or(usize::MAX),
    );
    save(
        &program,
        &args.output,
        &pir_serde::WriteOptions::default(),
        args.force,
    )
}
