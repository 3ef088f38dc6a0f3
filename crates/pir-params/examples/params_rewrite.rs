//! Reads Paddle parameter files and writes them back or converts them.
//!
//! ```text
//! params_rewrite combined    IN.pdiparams OUT.pdiparams [--names FILE]
//! params_rewrite to-pdparams IN.pdiparams OUT.pdparams  --names FILE
//! params_rewrite to-pdiparams IN.pdparams OUT.pdiparams [--names FILE]
//! params_rewrite pickle      IN.pdparams  OUT.pdparams
//! params_rewrite info        FILE
//! ```
//!
//! A names file has one parameter a line, `NAME [DTYPE]`, in program order
//! (the combined file's order is derived by sorting like Python). Without
//! `--names` a combined file is read blind. `to-pdparams` writes the keys in
//! the names-file order (as `paddle.static.save` does); `to-pdiparams` turns
//! `uint16` arrays into bfloat16 where the names file says `bfloat16`.
//! Outputs are overwritten. Prints one summary line per file written.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::ExitCode;

use pir_params::convert::{self, ParamSpec};
use pir_params::{combined, pickle, DType, Tensor};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn read_specs(path: &Path) -> Res<Vec<ParamSpec>> {
    let text = std::fs::read_to_string(path)?;
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let mut parts = line.split_whitespace();
        let mut spec = ParamSpec::new(parts.next().unwrap_or_default());
        if let Some(d) = parts.next() {
            spec = spec.with_dtype(
                DType::from_paddle_name(d).ok_or_else(|| format!("unknown dtype `{d}`"))?,
            );
        }
        out.push(spec);
    }
    Ok(out)
}

fn read_combined(path: &Path, specs: Option<&[ParamSpec]>) -> Res<Vec<(String, Tensor)>> {
    Ok(match specs {
        Some(specs) => {
            let names = combined::paddle_sorted(specs.iter().map(|s| s.name.as_str()));
            combined::load_combined(path, &names)?
        }
        None => combined::load_combined_blind(path)?
            .into_iter()
            .enumerate()
            .map(|(i, t)| (format!("param_{i:05}"), t))
            .collect(),
    })
}

fn summary(what: &str, path: &Path, params: &[(String, Tensor)]) -> Res<()> {
    let bytes = std::fs::read(path)?;
    let sha = {
        use sha2::Digest;
        sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let sum: f64 = params.iter().map(|(_, t)| t.sum_f64()).sum();
    println!(
        "{what}: {} tensors, {} bytes, sum {sum:.9e}, sha256 {sha} -> {}",
        params.len(),
        bytes.len(),
        path.display()
    );
    Ok(())
}

fn run(args: &[String]) -> Res<()> {
    let mut names = None;
    let mut pos = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--names" {
            names = Some(read_specs(Path::new(
                it.next().ok_or("--names needs a file")?,
            ))?);
        } else {
            pos.push(a.as_str());
        }
    }
    match pos.as_slice() {
        ["combined", input, output] => {
            let params = read_combined(Path::new(input), names.as_deref())?;
            combined::save_combined(Path::new(output), &params, true)?;
            summary("pdiparams", Path::new(output), &params)
        }
        ["to-pdparams", input, output] => {
            let specs = names.ok_or("to-pdparams needs --names")?;
            let params = read_combined(Path::new(input), Some(&specs))?;
            let order: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
            let state = convert::combined_to_state_dict(params, Some(&order))?;
            state.save(Path::new(output), &Default::default(), true)?;
            summary("pdparams", Path::new(output), &state.tensors)
        }
        ["to-pdiparams", input, output] => {
            let state = pickle::load_state_dict_file(Path::new(input))?;
            let specs = match names {
                Some(s) => s,
                None => state.tensors.iter().map(|(n, _)| ParamSpec::new(n.clone())).collect(),
            };
            let params = convert::state_dict_to_combined(&state, &specs)?;
            combined::save_combined(Path::new(output), &params, true)?;
            summary("pdiparams", Path::new(output), &params)
        }
        ["pickle", input, output] => {
            let state = pickle::load_state_dict_file(Path::new(input))?;
            state.save(Path::new(output), &Default::default(), true)?;
            summary("pdparams", Path::new(output), &state.tensors)
        }
        ["info", input] => {
            let path = Path::new(input);
            let params = if std::fs::read(path)?.starts_with(b"\x80") {
                pickle::load_state_dict_file(path)?.tensors
            } else {
                read_combined(path, names.as_deref())?
            };
            for (n, t) in &params {
                println!("{n}\t{}\t{:?}\t{:.9e}", t.dtype(), t.dims(), t.sum_f64());
            }
            Ok(())
        }
        _ => Err("usage: params_rewrite combined|to-pdparams|to-pdiparams|pickle IN OUT [--names FILE] | info FILE".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
