//! The subcommands of `pir`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use pir_serde::{LoadedProgram, ReadOptions};

use crate::args::Args;
use crate::{CliError, USAGE};

/// Runs `pir` with its arguments (program name excluded).
pub fn run(args: &[String]) -> Result<(), CliError> {
    // `--lenient` (any command): untranslatable legacy ops become unregistered ops.
    LENIENT.store(args.iter().any(|a| a == "--lenient"), Ordering::Relaxed);
    let args: Vec<String> = args.iter().filter(|a| *a != "--lenient").cloned().collect();
    let Some((command, rest)) = args.split_first() else {
        return Err(CliError::Usage("missing command".into()));
    };
    match command.as_str() {
        "print" => print(rest),
        "verify" => verify(rest),
        "stats" => stats(rest),
        "convert" => convert(rest, false),
        "upgrade" => convert(rest, true),
        "time" => time(rest),
        "synth" => synth(rest),
        "params" => crate::params::run(rest),
        "opt" => crate::opt::run(rest),
        "help" | "--help" | "-h" => {
            std::io::stdout().write_all(USAGE.as_bytes())?;
            Ok(())
        }
        other => Err(CliError::Usage(format!("unknown command `{other}`"))),
    }
}

fn one_path(args: &[String], command: &str) -> Result<PathBuf, CliError> {
    match args {
        [path] => Ok(PathBuf::from(path)),
        [] => Err(CliError::Usage(format!(
            "`pir {command}` needs a model file"
        ))),
        _ => Err(CliError::Usage(format!(
            "`pir {command}` takes one model file, got {}",
            args.len()
        ))),
    }
}

/// Reads a model: Paddle's JSON, or IR text (Paddle's print or the typed
/// form) for `.pir`/`.txt` paths or text content.
pub(crate) fn load(path: &Path) -> Result<LoadedProgram, CliError> {
    load_with(path, &ReadOptions::default())
}

static LENIENT: AtomicBool = AtomicBool::new(false);

/// How legacy models are translated (`--lenient`).
pub(crate) fn legacy_options() -> pir_legacy::Options {
    pir_legacy::Options {
        lenient: LENIENT.load(Ordering::Relaxed),
    }
}

fn load_with(path: &Path, options: &ReadOptions) -> Result<LoadedProgram, CliError> {
    let ctx = pir_dialects::pd_op_context();
    if let Some(translated) = pir_legacy::load_if_legacy(path, ctx.clone(), legacy_options()) {
        let program = translated.map_err(|source| CliError::Legacy {
            path: path.to_path_buf(),
            source,
        })?;
        return Ok(LoadedProgram::translated(program));
    }
    pir_serde::read_any_file(ctx, path, options).map_err(|source| CliError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes a model as JSON, or as IR text for a `.pir` (typed) or `.txt`
/// (Paddle's print) path.
pub(crate) fn save(
    program: &pir_core::Program,
    path: &Path,
    options: &pir_serde::WriteOptions,
    force: bool,
) -> Result<(), CliError> {
    pir_serde::write_any_file(program, path, options, force).map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// `pir convert IN OUT [--inference] [--readable] [--force] [--patch FILE]...`;
/// `pir upgrade OLD NEW` is the same with the emphasis on the version.
fn convert(args: &[String], upgrade: bool) -> Result<(), CliError> {
    let command = if upgrade { "upgrade" } else { "convert" };
    let args = Args::parse(
        args,
        &[
            "--inference",
            "--trainable",
            "--readable",
            "--force",
            "--accept-develop-version",
        ],
        &["--patch"],
    )?;
    let mut write = pir_serde::WriteOptions {
        readable: args.has("--readable"),
        ..Default::default()
    };
    let force = args.has("--force");
    let mut read = ReadOptions {
        accept_develop_version: args.has("--accept-develop-version"),
        ..Default::default()
    };
    let inference = match (args.has("--inference"), args.has("--trainable")) {
        (true, _) => Some(true),
        (false, true) => Some(false),
        _ => None,
    };
    let mut merged: Option<pir_serde::patch::PatchSet> = None;
    for file in args.values("--patch") {
        let text = std::fs::read_to_string(file)
            .map_err(|e| CliError::Usage(format!("cannot read patch file {file}: {e}")))?;
        let set = pir_serde::patch::parse_patch_yaml(file, &text)
            .map_err(|e| CliError::Usage(format!("invalid patch file: {e}")))?;
        merged.get_or_insert_with(Default::default).merge(set);
    }
    read.patches = merged.map(std::sync::Arc::new);
    let paths = args.positional;
    let [input, output] = paths.as_slice() else {
        return Err(CliError::Usage(format!(
            "`pir {command}` takes an input and an output file"
        )));
    };
    let loaded = load_with(input, &read)?;
    // Keep the file's `trainable` (and, for typed text, `readable`) unless
    // asked otherwise.
    write.trainable = match inference {
        Some(inference) => !inference,
        None => loaded.trainable,
    };
    write.readable |= loaded.readable && pir_serde::is_text_path(input);
    save(&loaded.program, output, &write, force)
}

/// `pir print MODEL [--typed] [--json-ids]`.
fn print(args: &[String]) -> Result<(), CliError> {
    let args = Args::parse(args, &["--typed", "--json-ids"], &[])?;
    let [path] = args.positional.as_slice() else {
        return Err(CliError::Usage("`pir print` takes one model file".into()));
    };
    let loaded = load(path)?;
    let out = if args.has("--typed") {
        pir_serde::typed_text(&loaded, args.has("--json-ids")).into_bytes()
    } else {
        let options = pir_core::printer::PrintOptions {
            typed: false,
            json_ids: args.has("--json-ids"),
        };
        loaded.program.print_with(options, &[])
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(())
}

/// `pir verify [--strict] MODEL`: `--strict` also rejects ops without a registration.
fn verify(args: &[String]) -> Result<(), CliError> {
    let args = Args::parse(args, &["--strict"], &[])?;
    let [path] = args.positional.as_slice() else {
        return Err(CliError::Usage("`pir verify` takes one model file".into()));
    };
    let options = ReadOptions {
        strict: args.has("--strict"),
        ..Default::default()
    };
    let loaded = load_with(path, &options)?;
    loaded.program.verify().map_err(|source| CliError::Verify {
        path: path.to_path_buf(),
        source,
    })?;
    writeln!(
        std::io::stdout(),
        "{}: ok ({} ops)",
        path.display(),
        loaded.program.num_ops()
    )?;
    Ok(())
}

fn stats(args: &[String]) -> Result<(), CliError> {
    let path = one_path(args, "stats")?;
    let loaded = load(&path)?;
    let p = &loaded.program;
    let mut histogram: std::collections::BTreeMap<String, usize> = Default::default();
    let mut total = 0usize;
    p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        if op != p.module_op() {
            *histogram.entry(p.op_name_str(op).to_owned()).or_default() += 1;
            total += 1;
        }
    });
    let mut out = std::io::stdout().lock();
    writeln!(out, "file: {}", path.display())?;
    writeln!(
        out,
        "pir version: {}, trainable: {}",
        loaded.version, loaded.trainable
    )?;
    writeln!(out, "ops: {total}")?;
    let bytes = p.heap_bytes();
    writeln!(
        out,
        "program arena bytes: {bytes} ({:.1} per op)",
        bytes as f64 / total.max(1) as f64
    )?;
    let mut rows: Vec<_> = histogram.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (name, n) in rows {
        writeln!(out, "{n:8}  {name}")?;
    }
    Ok(())
}

/// `pir time MODEL.json [--repeat N]`: in-process medians of load, print and
/// save, as one JSON object on stdout (used by the Paddle comparison script).
fn time(args: &[String]) -> Result<(), CliError> {
    let args = Args::parse(args, &[], &["--repeat"])?;
    let repeat = match args.value("--repeat") {
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| CliError::Usage("--repeat needs a positive number".into()))?,
        None => 7,
    };
    let path = args.positional.first().cloned();
    let path = path.ok_or_else(|| CliError::Usage("`pir time` needs a model file".into()))?;
    let bytes = std::fs::read(&path).map_err(|source| CliError::Read {
        path: path.clone(),
        source: pir_serde::ReadError::Io {
            path: path.clone(),
            source,
        },
    })?;
    let ctx = pir_dialects::pd_op_context();
    // A legacy `.pdmodel` is timed from its bytes through the translation.
    let legacy = pir_legacy::is_pdmodel_path(std::path::Path::new(&path))
        || pir_legacy::looks_like_program_desc(&bytes);
    let read = || {
        if legacy {
            let program = pir_legacy::translate_bytes(&bytes, ctx.clone(), legacy_options())
                .map_err(|source| CliError::Legacy {
                    path: path.clone(),
                    source,
                })?;
            return Ok(LoadedProgram::translated(program));
        }
        pir_serde::read_slice(ctx.clone(), &bytes, &ReadOptions::default()).map_err(|source| {
            CliError::Read {
                path: path.clone(),
                source,
            }
        })
    };
    let loaded = read()?;
    let options = pir_serde::WriteOptions {
        trainable: loaded.trainable,
        ..Default::default()
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (mut load_ms, mut print_ms, mut save_ms) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeat {
        let t = std::time::Instant::now();
        let l = read()?;
        load_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let t = std::time::Instant::now();
        let text = l.program.print_to_vec();
        print_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let t = std::time::Instant::now();
        let json =
            pir_serde::write_to_vec(&l.program, &options).map_err(|source| CliError::Write {
                path: path.clone(),
                source,
            })?;
        save_ms.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box((text.len(), json.len()));
    }
    writeln!(
        std::io::stdout(),
        "{{\"file\":{:?},\"bytes\":{},\"ops\":{},\"repeat\":{repeat},\"load_ms\":{:.4},\"print_ms\":{:.4},\"save_ms\":{:.4}}}",
        path.display().to_string(),
        bytes.len(),
        loaded.program.num_ops(),
        median(load_ms),
        median(print_ms),
        median(save_ms)
    )?;
    Ok(())
}

/// `pir synth OPS OUT.json [--force]`: writes a synthetic model of about OPS
/// ops (stacked Linear + ReLU + LayerNorm blocks), for benchmarks.
fn synth(args: &[String]) -> Result<(), CliError> {
    let force = args.iter().any(|a| a == "--force");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--force").collect();
    let [ops, out] = rest.as_slice() else {
        return Err(CliError::Usage(
            "`pir synth` takes an op count and an output file".into(),
        ));
    };
    let ops: usize = ops
        .parse()
        .map_err(|_| CliError::Usage(format!("`{ops}` is not an op count")))?;
    let program = pir_dialects::synthetic::mlp(
        pir_dialects::pd_op_context(),
        ops.saturating_sub(2).div_ceil(8).max(1),
    );
    let out = PathBuf::from(out);
    pir_serde::write_file(&program, &out, &pir_serde::WriteOptions::default(), force).map_err(
        |source| CliError::Write {
            path: out.clone(),
            source,
        },
    )?;
    Ok(())
}
