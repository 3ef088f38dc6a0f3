//! `pir params`: list and convert parameter files.
//!
//! ```text
//! pir params FILE [--program MODEL] [--json]
//! pir params convert IN OUT [--program MODEL] [--force]
//! ```
//! A `.pdiparams` file stores no names: they come from the program (its
//! persistable variables, sorted as Python sorts them), by default the model
//! beside the file (`X.json`, else `X.pdmodel`, for `X.pdiparams`); without
//! one the tensors are listed as `#0`, `#1`, ... A `.pdparams` pickle names
//! its arrays.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use pir::FileKind;
use pir_params::{DType, Tensor};

use crate::cli::{ParamsArgs, ParamsCommand, ParamsConvertArgs};
use crate::CliError;

fn params_err(path: &Path) -> impl FnOnce(pir_params::Error) -> CliError + '_ {
    move |source| CliError::Params {
        path: path.to_path_buf(),
        source,
    }
}

/// Pickle extensions a state dict may be written with.
const PICKLE_EXTENSIONS: [&str; 4] = ["pdparams", "pdopt", "pkl", "pickle"];

/// What a parameter file is, by its content: an error for anything else.
fn params_kind(path: &Path) -> Result<FileKind, CliError> {
    let kind = FileKind::of_file(path)
        .map_err(pir_core::fs::ReadError::at(path))
        .map_err(pir::Error::Io)?;
    if kind.is_params() {
        return Ok(kind);
    }
    let beside = path.with_extension("pdiparams");
    let hint = if kind.is_model() && beside.is_file() {
        format!(" (its parameters are in {})", beside.display())
    } else {
        String::new()
    };
    Err(CliError::File(format!(
        "{} is {}, not a parameter file{hint}",
        path.display(),
        kind.describe()
    )))
}

/// The model beside a parameter file: `X.json`, else `X.pdmodel`.
fn program_beside(params: &Path) -> Option<PathBuf> {
    ["json", "pdmodel"]
        .into_iter()
        .map(|e| params.with_extension(e))
        .find(|p| p.is_file())
}

/// What a program declares of a variable: its dtype and dims, when its type
/// is a dense tensor of an element type with a [`DType`].
type Declared = Option<(DType, Vec<i64>)>;

/// The variable names and declarations of a program file.
fn program_vars(path: &Path) -> Result<Vec<(String, Declared)>, CliError> {
    let loaded = crate::input::load(path)?;
    let p = &loaded.program;
    Ok(pir::persistable_vars(p)
        .into_iter()
        .map(|(n, ty)| (n, pir::declared(p, ty)))
        .collect())
}

/// Refuses a tensor that is not what the program declares: another dtype,
/// or other dims (a declared `-1` matches any size). The parameters of one
/// model read with another model's program would otherwise be written
/// under names whose shapes they do not have.
fn check_declared(
    name: &str,
    t: &Tensor,
    declared: &Declared,
    path: &Path,
    program: &Path,
) -> Result<(), CliError> {
    let Some((dtype, dims)) = declared else {
        return Ok(());
    };
    let dims_agree =
        dims.len() == t.dims().len() && dims.iter().zip(t.dims()).all(|(&d, &f)| d < 0 || d == f);
    if *dtype == t.dtype() && dims_agree {
        return Ok(());
    }
    Err(CliError::File(format!(
        "`{name}`: {} declares {} {dims:?}, {} holds {} {:?}",
        program.display(),
        dtype.paddle_name(),
        path.display(),
        t.dtype().paddle_name(),
        t.dims()
    )))
}

/// Reads a parameter file into named tensors; names of a `.pdiparams` come
/// from `program`, else from the model beside it, else are `#0`, `#1`, ...
fn read_tensors(path: &Path, program: Option<&Path>) -> Result<Vec<(String, Tensor)>, CliError> {
    let kind = params_kind(path)?;
    let program = match program {
        Some(p) => Some(p.to_path_buf()),
        None if kind == FileKind::CombinedParams => program_beside(path),
        None => None,
    };
    let vars = match &program {
        Some(p) => Some(program_vars(p)?),
        None => None,
    };
    let map = pir_params::map_file(path).map_err(params_err(path))?;
    if kind == FileKind::PickleParams {
        let state = pir_params::pickle::load_state_dict_mapped(&map).map_err(params_err(path))?;
        let (Some(vars), Some(program)) = (vars, &program) else {
            return Ok(state.tensors);
        };
        // by name, first entry first as `StateDict::get`: a lookup per
        // variable in a list would be quadratic in the parameter count
        let mut by_name: HashMap<&str, &Tensor> = HashMap::with_capacity(state.tensors.len());
        for (n, t) in &state.tensors {
            by_name.entry(n.as_str()).or_insert(t);
        }
        let mut out = Vec::with_capacity(vars.len());
        for (name, declared) in vars {
            let t = by_name
                .get(name.as_str())
                .map(|t| (*t).clone())
                .ok_or_else(|| CliError::File(format!("`{name}` is not in {}", path.display())))?;
            let t = pir_params::convert::as_declared(t, declared.as_ref().map(|(d, _)| *d))
                .map_err(params_err(path))?;
            check_declared(&name, &t, &declared, path, program)?;
            out.push((name, t));
        }
        return Ok(out);
    }
    match (vars, &program) {
        (Some(vars), Some(program)) => {
            let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
            let tensors = pir_params::combined::read_combined_mapped(&map, &names)
                .map_err(params_err(path))?;
            for ((name, t), (_, declared)) in tensors.iter().zip(&vars) {
                check_declared(name, t, declared, path, program)?;
            }
            Ok(tensors)
        }
        _ => {
            let tensors =
                pir_params::combined::read_combined_blind_mapped(&map).map_err(params_err(path))?;
            Ok(tensors
                .into_iter()
                .enumerate()
                .map(|(i, t)| (format!("#{i}"), t))
                .collect())
        }
    }
}

/// Runs `pir params ...`.
pub fn run(args: &ParamsArgs) -> Result<(), CliError> {
    if let Some(ParamsCommand::Convert(convert_args)) = &args.command {
        return convert(convert_args);
    }
    let Some(file) = &args.file else {
        return Err(CliError::Usage(
            "`pir params` needs a parameter file".into(),
        ));
    };
    let tensors = read_tensors(file, args.program.as_deref())?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut text = String::from("[");
        for (i, (name, t)) in tensors.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            let mut escaped = Vec::new();
            pir_json::write_escaped_string(&mut escaped, name);
            let shape: Vec<String> = t.dims().iter().map(i64::to_string).collect();
            text.push_str(&format!(
                "{{\"name\":{},\"dtype\":\"{}\",\"shape\":[{}],\"bytes\":{},\"sha256\":\"{}\"}}",
                String::from_utf8_lossy(&escaped),
                t.dtype().paddle_name(),
                shape.join(","),
                t.byte_len(),
                t.sha256_hex()
            ));
        }
        text.push_str("]\n");
        out.write_all(text.as_bytes())?;
    } else {
        writeln!(
            out,
            "{:<40} {:<10} {:<16} {:>12}  sha256",
            "name", "dtype", "shape", "bytes"
        )?;
        for (name, t) in &tensors {
            writeln!(
                out,
                "{:<40} {:<10} {:<16} {:>12}  {}",
                name,
                t.dtype().paddle_name(),
                format!("{:?}", t.dims()),
                t.byte_len(),
                t.sha256_hex()
            )?;
        }
        let total: usize = tensors.iter().map(|(_, t)| t.byte_len()).sum();
        writeln!(out, "{} tensors, {total} bytes", tensors.len())?;
    }
    Ok(())
}

/// `pir params convert IN OUT [--program MODEL] [--force]`, by the output's
/// extension.
fn convert(args: &ParamsConvertArgs) -> Result<(), CliError> {
    let mut allowed = vec!["pdiparams"];
    allowed.extend(PICKLE_EXTENSIONS);
    crate::input::check_extension(&args.output, &allowed, "parameters")?;
    let kind = params_kind(&args.input)?;
    if args.program.is_none()
        && kind == FileKind::CombinedParams
        && program_beside(&args.input).is_none()
    {
        return Err(CliError::Usage(format!(
            "{} has no names and no model beside it: pass --program MODEL",
            args.input.display()
        )));
    }
    let tensors = read_tensors(&args.input, args.program.as_deref())?;
    let output = &args.output;
    let to_pickle =
        pir_core::fs::extension(output).is_some_and(|e| PICKLE_EXTENSIONS.contains(&e.as_str()));
    if to_pickle {
        let options = pir_params::pickle::WriteOptions::default();
        let mut bytes = Vec::new();
        pir_params::pickle::write_state_dict_to(&mut bytes, &tensors, &options)
            .map_err(params_err(output))?;
        pir_core::fs::write_atomic(output, args.force, |w| w.write_all(&bytes)).map_err(|e| {
            CliError::Params {
                path: output.clone(),
                source: e.into(),
            }
        })?;
    } else {
        let mut sorted = tensors;
        pir_params::combined::sort_params(&mut sorted);
        pir_params::combined::save_combined(output, &sorted, args.force)
            .map_err(params_err(output))?;
    }
    Ok(())
}
