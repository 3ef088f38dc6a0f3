//! Programs from IR text wherever the JSON format is read, and the typed
//! text of a loaded file with its header.
//!
//! A typed text's header line carries what the JSON file's `base_code` holds
//! and the program does not — `version`, `trainable` — and whether the file
//! was `readable`, so that JSON → typed text → JSON gives the same bytes.
//! Paddle's print carries none of it: such a text reads as a current-version,
//! trainable program (what `paddle.jit.save` writes).
//!
//! ```
//! let ctx = pir_dialects::pd_op_context();
//! let options = pir_serde::WriteOptions::default();
//! let json = pir_serde::write_to_vec(&pir_dialects::synthetic::mlp(ctx.clone(), 3), &options).unwrap();
//! let loaded = pir_serde::read_slice(ctx.clone(), &json, &Default::default()).unwrap();
//! let typed = pir_serde::typed_text(&loaded, false);
//! assert!(typed.starts_with("#pir-typed version=4 trainable=true\n"));
//! let back = pir_serde::read_text(ctx, &typed).unwrap();
//! assert_eq!(pir_serde::write_to_vec(&back.program, &options).unwrap(), json);
//! ```

use std::path::Path;
use std::sync::Arc;

use pir_core::fs::Prepared;
use pir_core::parser::{self, ParseOptions};
use pir_core::printer::PrintOptions;
use pir_core::{IrContext, Program};

use crate::error::{ReadError, WriteError};
use crate::read::{read_bytes, read_slice, LoadedProgram, ReadOptions};
use crate::write::{WriteOptions, PIR_VERSION};

/// Whether a path names IR text by its extension (`.pir`, `.txt`).
pub fn is_text_path(path: &Path) -> bool {
    matches!(
        pir_core::fs::extension(path).as_deref(),
        Some("pir" | "txt")
    )
}

/// Reads a model from a JSON file or from IR text, chosen by the extension
/// (`.pir`, `.txt` are text, `.json` is JSON) or else by the content.
pub fn read_any_file(
    ctx: Arc<IrContext>,
    path: &Path,
    options: &ReadOptions,
) -> Result<LoadedProgram, ReadError> {
    let bytes = read_bytes(path)?;
    let is_json = pir_core::fs::has_extension(path, "json");
    if is_text_path(path) || (!is_json && parser::looks_like_text(&bytes)) {
        return read_text_with(ctx, utf8(&bytes)?, options);
    }
    read_slice(ctx, &bytes, options)
}

/// Reads a model from JSON or IR text in memory, chosen by the content.
pub fn read_any_slice(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<LoadedProgram, ReadError> {
    if parser::looks_like_text(bytes) {
        return read_text_with(ctx, utf8(bytes)?, options);
    }
    read_slice(ctx, bytes, options)
}

/// The text of `bytes`, or an error at the first byte that is not UTF-8.
fn utf8(bytes: &[u8]) -> Result<&str, ReadError> {
    pir_json::utf8(bytes).map_err(|e| {
        ReadError::Text(parser::ParseError::at(
            &String::from_utf8_lossy(bytes),
            e.valid_up_to(),
            1,
            "the text is not valid UTF-8",
        ))
    })
}

/// Reads IR text (either form); ops without a registration load as
/// unregistered ops.
pub fn read_text(ctx: Arc<IrContext>, text: &str) -> Result<LoadedProgram, ReadError> {
    read_text_with(ctx, text, &ReadOptions::default())
}

/// Reads IR text (either form) with the reader's options (`strict`: unknown
/// ops are errors).
pub fn read_text_with(
    ctx: Arc<IrContext>,
    text: &str,
    options: &ReadOptions,
) -> Result<LoadedProgram, ReadError> {
    let parse_options = ParseOptions {
        strict: options.strict,
    };
    let parsed = parser::parse_text(&ctx, text, &parse_options)?;
    let flag = |key: &str, default: bool| -> Result<bool, ReadError> {
        match parsed.header_value(key) {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(other) => Err(header_error(key, other, "expected true or false")),
        }
    };
    let version = match parsed.header_value("version") {
        None => PIR_VERSION,
        Some(v) => v
            .parse::<u64>()
            .map_err(|_| header_error("version", v, "expected a version number"))?,
    };
    let trainable = match parsed.header_value("trainable") {
        Some(_) => flag("trainable", true)?,
        None => !prints_inference_parameters(&parsed.program),
    };
    let readable = flag("readable", false)?;
    Ok(LoadedProgram {
        program: parsed.program,
        trainable,
        version,
        readable,
    })
}

/// Whether the program's parameter ops carry none of the output attributes
/// (`persistable`, `stop_gradient`, `trainable`) a trainable file stores:
/// Paddle's print of an inference (`trainable: false`) file. A program
/// without parameter ops tells nothing (trainable).
fn prints_inference_parameters(program: &pir_core::Program) -> bool {
    use crate::param_form::{Slot, OA_FLAGS};
    let ctx = program.ctx();
    let Some(parameter) = ctx.lookup_symbol(crate::param_form::OP_NAME) else {
        return false;
    };
    let flags: Vec<_> = OA_FLAGS
        .iter()
        .filter_map(|&(slot, _): &(Slot, bool)| ctx.lookup_symbol(slot.name()))
        .collect();
    let mut parameters = program
        .block_ops(program.top_block())
        .filter(|&op| program.op_name(op) == parameter)
        .peekable();
    parameters.peek().is_some()
        && parameters.all(|op| {
            ctx.dict_entries(program.attrs(op))
                .iter()
                .all(|(name, _)| !flags.contains(name))
        })
}

fn header_error(key: &str, value: &str, message: &str) -> ReadError {
    ReadError::Header {
        key: key.to_owned(),
        value: value.to_owned(),
        message: message.to_owned(),
    }
}

/// The typed text of a loaded model, its header carrying the version of
/// its content (files of older releases were upgraded on reading), the
/// `trainable` flag and (when set) `readable`.
pub fn typed_text(loaded: &LoadedProgram, json_ids: bool) -> String {
    let options = typed_options(loaded);
    String::from_utf8_lossy(&typed_bytes(&loaded.program, &options, json_ids)).into_owned()
}

/// The typed text of a program whose header says what `options` would
/// write as JSON (`version`, `trainable`, `readable`).
pub fn typed_bytes(program: &Program, options: &WriteOptions, json_ids: bool) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing into a vector cannot fail.
    let _ = write_typed(program, options, json_ids, &mut out);
    out
}

/// [`typed_bytes`] to a writer, a part at a time.
pub fn write_typed(
    program: &Program,
    options: &WriteOptions,
    json_ids: bool,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let version = options.version.to_string();
    let mut header = vec![
        ("version", version.as_str()),
        (
            "trainable",
            if options.trainable { "true" } else { "false" },
        ),
    ];
    if options.readable {
        header.push(("readable", "true"));
    }
    let print = PrintOptions {
        typed: true,
        json_ids,
    };
    program.print_with_to(print, &header, w)
}

/// The header options of a loaded model's typed text: the version of its
/// content (files of older releases were upgraded on reading), its
/// `trainable` flag and layout.
pub fn typed_options(loaded: &LoadedProgram) -> WriteOptions {
    WriteOptions {
        trainable: loaded.trainable,
        readable: loaded.readable,
        version: loaded.version.max(PIR_VERSION),
    }
}

/// Writes a program atomically as IR text: the typed form for a `.pir`
/// path, Paddle's print for any other (`.txt`). An existing file is
/// replaced only with `overwrite`. The text goes to the file as it is
/// printed, a part at a time.
pub fn write_text_file(
    program: &Program,
    path: &Path,
    options: &WriteOptions,
    overwrite: bool,
) -> Result<(), WriteError> {
    Ok(prepare_text_file(program, path, options, overwrite)?.commit()?)
}

/// [`write_text_file`] up to the rename (see [`pir_core::fs::prepare_atomic`]).
fn prepare_text_file(
    program: &Program,
    path: &Path,
    options: &WriteOptions,
    overwrite: bool,
) -> Result<Prepared, WriteError> {
    let typed = pir_core::fs::has_extension(path, "pir");
    Ok(pir_core::fs::prepare_atomic(path, overwrite, |w| {
        if typed {
            write_typed(program, options, false, w)
        } else {
            program.print_with_to(PrintOptions::default(), &[], w)
        }
    })?)
}

/// Writes a program as IR text or JSON, chosen by the path's extension
/// (see [`is_text_path`]).
pub fn write_any_file(
    program: &Program,
    path: &Path,
    options: &WriteOptions,
    overwrite: bool,
) -> Result<(), WriteError> {
    Ok(prepare_any_file(program, path, options, overwrite)?.commit()?)
}

/// [`write_any_file`] up to the rename: the file written and synced under
/// a temporary name, put in place by [`Prepared::commit`] (see
/// [`pir_core::fs::prepare_atomic`]).
pub fn prepare_any_file(
    program: &Program,
    path: &Path,
    options: &WriteOptions,
    overwrite: bool,
) -> Result<Prepared, WriteError> {
    if is_text_path(path) {
        prepare_text_file(program, path, options, overwrite)
    } else {
        crate::write::prepare_file(program, path, options, overwrite)
    }
}
