//! Writing a [`Program`] in Paddle's JSON model format (format spec §2, §4).
//!
//! The writer streams straight into one output buffer in the order Paddle's
//! writer uses: regions and blocks numbered in pre-order, result ids from 1 and
//! block-argument ids from −1 in write order, keys in byte order, numbers as
//! nlohmann formats them. A program read from a current-version file is
//! written back byte for byte: attributes keep the order they were read in.
//!
//! Attribute placement (§2.6): `stop_gradient` and `persistable` go to `"OA"`
//! (written only when `trainable`), `op_callstack` is never written, everything
//! else goes to `"A"` in the op's attribute order. Unlike Paddle, attributes a
//! `pd_op` definition does not declare are kept rather than silently dropped
//! (Paddle's reader accepts them). `builtin.parameter` uses the short `"p"` form.

use std::io::Write;
use std::path::Path;

use pir_core::entity::SecondaryMap;
use pir_core::memo::{HandleTable, MemoBytes, MemoTable};
use pir_core::printer::FLUSH_BYTES;
use pir_core::serial::{self, JsonWriter};
use pir_core::{Attribute, BlockId, IrContext, OpId, Program, Symbol, Type, ValueId};
use rustc_hash::FxHashMap;

use crate::downgrade::{self, DowngradedOp, Placement};
use crate::error::WriteError;
use crate::names::compress_op_name;
use crate::param_form::{self, Slot};

/// The PIR format version this crate writes (Paddle 3.3).
pub const PIR_VERSION: u64 = 4;

/// Options of the writer.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// Write output attributes (`"OA"`) and `trainable: true`, as Paddle does
    /// by default; `false` gives the inference form.
    pub trainable: bool,
    /// Paddle's indented form (`readable=True`).
    pub readable: bool,
    /// The PIR version to write: `base_code.version` and the content.
    /// Below the current version ([`PIR_VERSION`]) the program is written as
    /// that release wrote it — every version patch after it undone (see
    /// [`crate::patch::Downgrade`]; [`crate::patch::release_version`] gives
    /// the version of a Paddle release); a program the older release cannot
    /// hold is refused ([`WriteError::Downgrade`]) before anything is
    /// written. The current version, newer ones and 0 (a development
    /// build's) are written as they are.
    pub version: u64,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            trainable: true,
            readable: false,
            version: PIR_VERSION,
        }
    }
}

/// Writes a program to bytes.
pub fn write_to_vec(program: &Program, options: &WriteOptions) -> Result<Vec<u8>, WriteError> {
    // Corpus models take 270-380 bytes per op in compact form.
    let mut out = Vec::with_capacity(program.num_ops() * 400 + 256);
    let mut w = json_writer(&mut out, options);
    ProgramWriter::new(program, options, None).write(&mut w)?;
    Ok(out)
}

/// Writes a program to `sink`, a part at a time: the top block's ops are
/// encoded into a buffer passed on every [`FLUSH_BYTES`], so a large
/// program's JSON never exists whole in memory.
pub fn write_to(
    program: &Program,
    options: &WriteOptions,
    sink: &mut dyn Write,
) -> Result<(), WriteError> {
    let mut out = Vec::with_capacity(FLUSH_BYTES + FLUSH_BYTES / 4);
    let mut w = json_writer(&mut out, options);
    ProgramWriter::new(program, options, Some(sink)).write(&mut w)
}

/// The JSON writer of `options`' layout.
fn json_writer<'o>(out: &'o mut Vec<u8>, options: &WriteOptions) -> JsonWriter<'o> {
    if options.readable {
        JsonWriter::pretty(out)
    } else {
        JsonWriter::compact(out)
    }
}

/// Writes a program to a file atomically, as it is encoded (see
/// [`write_to`]); an existing file is replaced only with `overwrite`.
pub fn write_file(
    program: &Program,
    path: &Path,
    options: &WriteOptions,
    overwrite: bool,
) -> Result<(), WriteError> {
    Ok(prepare_file(program, path, options, overwrite)?.commit()?)
}

/// [`write_file`] up to the rename (see [`pir_core::fs::prepare_atomic`]).
pub fn prepare_file(
    program: &Program,
    path: &Path,
    options: &WriteOptions,
    overwrite: bool,
) -> Result<pir_core::fs::Prepared, WriteError> {
    // An encoding error stops the file (which is then removed) and is
    // reported as itself rather than as the file's I/O error.
    let mut failed = None;
    let prepared =
        pir_core::fs::prepare_atomic(path, overwrite, |w| match write_to(program, options, w) {
            Ok(()) => Ok(()),
            Err(WriteError::Io(e)) => Err(e),
            Err(e) => {
                failed = Some(e);
                Err(std::io::Error::other("the program cannot be written"))
            }
        });
    match (failed, prepared) {
        (Some(e), _) => Err(e),
        (None, prepared) => Ok(prepared?),
    }
}

struct Names {
    stop_gradient: Option<Symbol>,
    persistable: Option<Symbol>,
    op_callstack: Option<Symbol>,
    parameter: Option<Symbol>,
    /// The attributes a parameter op may carry, in [`param_form::NAMES`] order.
    parameter_attrs: [Option<Symbol>; param_form::NAMES.len()],
}

struct ProgramWriter<'p> {
    program: &'p Program,
    ctx: &'p IrContext,
    options: &'p WriteOptions,
    ids: SecondaryMap<ValueId, i64>,
    next_result: i64,
    next_arg: i64,
    next_region: u64,
    next_block: u64,
    op_index: usize,
    names: Names,
    /// Compressed op names, and 1 + the index in it of each op name's, by
    /// symbol index (0: not compressed yet).
    op_names: Vec<Box<str>>,
    op_name_of: HandleTable<u32>,
    /// Compact JSON of types and attribute lists already written: they are
    /// interned, so each is encoded once per file (compact mode only).
    cache: EncodedCache,
    /// Where the output goes a part at a time (see [`write_to`]), if anywhere.
    sink: Option<&'p mut dyn Write>,
    /// Ops an older version writes differently (see [`crate::downgrade`]).
    downgraded: Option<FxHashMap<OpId, DowngradedOp>>,
}

#[derive(Default)]
struct EncodedCache {
    bytes: MemoBytes,
    types: MemoTable,
    /// `"A"` lists by attribute dictionary.
    attrs: MemoTable,
    /// `"OA"` lists by attribute dictionary.
    output_attrs: MemoTable,
    /// Single attributes, by attribute (from their second use on: names
    /// and paths are often unique).
    attr_values: MemoTable,
    /// `,"N":"name"}`, the end of an attribute entry, by name symbol.
    entry_tails: MemoTable,
    /// [`pir_core::builtin::first_bool`] by attribute: 0 not yet asked,
    /// 1 not a flag, 2 false, 3 true.
    flags: HandleTable<u8>,
    /// Reused buffer for an attribute met for the first time.
    scratch: Vec<u8>,
}

impl Names {
    fn placement(&self) -> Placement {
        Placement {
            stop_gradient: self.stop_gradient,
            persistable: self.persistable,
            op_callstack: self.op_callstack,
            parameter: self.parameter,
        }
    }
}

impl<'p> ProgramWriter<'p> {
    fn new(
        program: &'p Program,
        options: &'p WriteOptions,
        sink: Option<&'p mut dyn Write>,
    ) -> Self {
        let ctx = program.ctx();
        ProgramWriter {
            program,
            ctx,
            options,
            ids: SecondaryMap::with_default(0),
            next_result: 1,
            next_arg: -1,
            next_region: 0,
            next_block: 0,
            op_index: 0,
            cache: EncodedCache::default(),
            names: Names {
                stop_gradient: ctx.lookup_symbol(pir_core::builtin::STOP_GRADIENT),
                persistable: ctx.lookup_symbol(pir_core::builtin::PERSISTABLE),
                op_callstack: ctx.lookup_symbol("op_callstack"),
                parameter: ctx.lookup_symbol(param_form::OP_NAME),
                parameter_attrs: param_form::NAMES.map(|n| ctx.lookup_symbol(n)),
            },
            op_names: Vec::new(),
            op_name_of: HandleTable::new(0),
            sink,
            downgraded: None,
        }
    }

    /// Passes the output to the sink, if there is one, once the buffer holds
    /// [`FLUSH_BYTES`] (or with `all`, whatever it holds).
    fn flush(&mut self, w: &mut JsonWriter<'_>, all: bool) -> Result<(), WriteError> {
        if let Some(sink) = self.sink.as_deref_mut() {
            if all || w.buffered() >= FLUSH_BYTES {
                w.drain_to(sink)?;
            }
        }
        Ok(())
    }

    fn write(&mut self, w: &mut JsonWriter<'_>) -> Result<(), WriteError> {
        // Everything an older version cannot hold is found before a byte is written.
        let placement = self.names.placement();
        self.downgraded = downgrade::downgrade_ops(self.program, self.options.version, &placement)?;
        w.begin_object();
        w.key("base_code");
        w.begin_object();
        w.key("magic");
        w.string("pir");
        w.key("trainable");
        w.bool(self.options.trainable);
        w.key("version");
        w.u64(self.options.version);
        w.end_object();
        w.key("program");
        w.begin_object();
        w.key("regions");
        w.begin_array();
        let top = self.program.top_block();
        self.write_region(w, &[top])?;
        w.end_array();
        w.end_object();
        w.end_object();
        self.flush(w, true)
    }

    fn write_region(
        &mut self,
        w: &mut JsonWriter<'_>,
        blocks: &[BlockId],
    ) -> Result<(), WriteError> {
        w.begin_object();
        w.key("#");
        w.string(&format!("region_{}", self.next_region));
        self.next_region += 1;
        w.key("blocks");
        w.begin_array();
        for &b in blocks {
            self.write_block(w, b)?;
        }
        w.end_array();
        w.end_object();
        Ok(())
    }

    fn write_block(&mut self, w: &mut JsonWriter<'_>, block: BlockId) -> Result<(), WriteError> {
        let p = self.program;
        w.begin_object();
        w.key("#");
        w.string(&format!("block_{}", self.next_block));
        self.next_block += 1;
        w.key("args");
        w.begin_array();
        for &arg in p.block_args(block) {
            let id = self.assign_arg(arg);
            w.begin_object();
            w.key("#");
            w.i64(id);
            w.key("TT");
            self.write_type_of(w, arg)?;
            w.end_object();
        }
        w.end_array();
        let kwargs = p.block_kwargs(block);
        if !kwargs.is_empty() {
            w.key("kwargs");
            w.begin_array();
            for &(name, v) in kwargs {
                let id = self.assign_arg(v);
                w.begin_object();
                w.key("#");
                w.i64(id);
                w.key("TT");
                self.write_type_of(w, v)?;
                w.key("key");
                w.string(self.ctx.symbol_str(name));
                w.end_object();
            }
            w.end_array();
        }
        w.key("ops");
        w.begin_array();
        for op in p.block_ops(block) {
            self.write_op(w, op)?;
            self.flush(w, false)?;
        }
        w.end_array();
        w.end_object();
        Ok(())
    }

    fn assign_arg(&mut self, v: ValueId) -> i64 {
        let id = self.next_arg;
        self.next_arg -= 1;
        self.ids.set(v, id);
        id
    }

    fn encode_error(&self, op: OpId, source: serial::EncodeError) -> WriteError {
        WriteError::Encode {
            op_index: self.op_index,
            op_name: self.program.op_name_str(op).to_owned(),
            source,
        }
    }

    fn unsupported(&self, op: OpId, message: String) -> WriteError {
        WriteError::Unsupported {
            op_index: self.op_index,
            op_name: self.program.op_name_str(op).to_owned(),
            message,
        }
    }

    fn write_type_of(&mut self, w: &mut JsonWriter<'_>, v: ValueId) -> Result<(), WriteError> {
        let ty = self.program.value_type(v);
        self.write_type(w, ty).map_err(|e| WriteError::Encode {
            op_index: self.op_index,
            op_name: String::from("(block argument)"),
            source: e,
        })
    }

    /// Writes a type, from the cache when it was encoded before.
    fn write_type(&mut self, w: &mut JsonWriter<'_>, ty: Type) -> Result<(), serial::EncodeError> {
        if w.is_pretty() {
            return serial::encode_type(self.ctx, ty, w);
        }
        w.raw_value(self.type_json(ty)?);
        Ok(())
    }

    /// The compact JSON of a type, encoded once per file.
    fn type_json(&mut self, ty: Type) -> Result<&[u8], serial::EncodeError> {
        let cache = &mut self.cache;
        if cache.types.get(ty.as_u32(), &cache.bytes).is_none() {
            cache.scratch.clear();
            serial::encode_type(self.ctx, ty, &mut JsonWriter::compact(&mut cache.scratch))?;
            cache
                .types
                .store(ty.as_u32(), &mut cache.bytes, &cache.scratch);
        }
        // A table that stopped storing (past 4 GiB of text) falls back to
        // the fresh encoding in `scratch`.
        Ok(match cache.types.get(ty.as_u32(), &cache.bytes) {
            Some(json) => json,
            None => &cache.scratch[..],
        })
    }

    /// Writes the `"A"` (`output == false`) or `"OA"` list of an op's attributes.
    fn write_op_attrs(
        &mut self,
        w: &mut JsonWriter<'_>,
        op: OpId,
        output: bool,
    ) -> Result<(), WriteError> {
        let dict = self.program.attrs(op);
        let placement = self.names.placement();
        let entries = self.ctx.dict_entries(dict);
        let keep = move |&(n, _): &(Symbol, Attribute)| placement.keeps(n, output);
        if w.is_pretty() {
            return self.write_attr_list(w, op, entries.iter().copied().filter(keep));
        }
        let cache = &mut self.cache;
        let table = if output {
            &mut cache.output_attrs
        } else {
            &mut cache.attrs
        };
        if let Some(json) = table.get(dict.as_u32(), &cache.bytes) {
            w.raw_value(json);
            return Ok(());
        }
        if !table.seen_before(dict.as_u32()) {
            // Many dictionaries occur once (unique names): cache from the second use on.
            return self.write_attr_list(w, op, entries.iter().copied().filter(keep));
        }
        let mut json = Vec::new();
        self.write_attr_list(
            &mut JsonWriter::compact(&mut json),
            op,
            entries.iter().copied().filter(keep),
        )?;
        w.raw_value(&json);
        let cache = &mut self.cache;
        let table = if output {
            &mut cache.output_attrs
        } else {
            &mut cache.attrs
        };
        table.store(dict.as_u32(), &mut cache.bytes, &json);
        Ok(())
    }

    fn write_attr_list(
        &mut self,
        w: &mut JsonWriter<'_>,
        op: OpId,
        entries: impl Iterator<Item = (Symbol, Attribute)>,
    ) -> Result<(), WriteError> {
        w.begin_array();
        for (name, attr) in entries {
            self.write_attr_entry(w, op, name, attr)?;
        }
        w.end_array();
        Ok(())
    }

    /// Writes `{"AT":attr,"N":"name"}`; compact output joins cached pieces.
    fn write_attr_entry(
        &mut self,
        w: &mut JsonWriter<'_>,
        op: OpId,
        name: Symbol,
        attr: Attribute,
    ) -> Result<(), WriteError> {
        let ctx = self.ctx;
        if w.is_pretty() {
            w.begin_object();
            w.key("AT");
            serial::encode_attr(ctx, attr, w).map_err(|e| self.encode_error(op, e))?;
            w.key("N");
            w.string(ctx.symbol_str(name));
            w.end_object();
            return Ok(());
        }
        let cache = &mut self.cache;
        let name_index = name.index() as u32;
        if cache.entry_tails.get(name_index, &cache.bytes).is_none() {
            cache.scratch.clear();
            entry_tail(&mut cache.scratch, ctx.symbol_str(name));
            cache
                .entry_tails
                .store(name_index, &mut cache.bytes, &cache.scratch);
        }
        let attr_index = attr.as_u32();
        if cache.attr_values.get(attr_index, &cache.bytes).is_none() {
            cache.scratch.clear();
            let encoded =
                serial::encode_attr(ctx, attr, &mut JsonWriter::compact(&mut cache.scratch));
            if let Err(e) = encoded {
                return Err(self.encode_error(op, e));
            }
            if cache.attr_values.seen_before(attr_index) {
                cache
                    .attr_values
                    .store(attr_index, &mut cache.bytes, &cache.scratch);
            }
        }
        // A table that stopped storing (past 4 GiB of text) falls back to
        // the fresh encoding in `scratch`.
        let value = match cache.attr_values.get(attr_index, &cache.bytes) {
            Some(v) => v,
            None => &cache.scratch[..],
        };
        match cache.entry_tails.get(name_index, &cache.bytes) {
            Some(tail) => w.raw_value_parts(&[b"{\"AT\":", value, tail]),
            None => {
                let mut tail = Vec::new();
                entry_tail(&mut tail, ctx.symbol_str(name));
                w.raw_value_parts(&[b"{\"AT\":", value, &tail]);
            }
        }
        Ok(())
    }

    /// Writes `{"%":id,"TT":type}` of a result; compact output in one piece.
    fn write_result(
        &mut self,
        w: &mut JsonWriter<'_>,
        op: OpId,
        r: ValueId,
        id: i64,
    ) -> Result<(), WriteError> {
        let ty = self.program.value_type(r);
        if w.is_pretty() {
            w.begin_object();
            w.key("%");
            w.i64(id);
            w.key("TT");
            return self
                .write_type(w, ty)
                .map_err(|e| self.encode_error(op, e))
                .map(|()| w.end_object());
        }
        let ty = match self.type_json(ty) {
            Ok(json) => json,
            Err(e) => return Err(self.encode_error(op, e)),
        };
        w.raw_value_with(|out| {
            out.extend_from_slice(b"{\"%\":");
            pir_json::number::write_i64(out, id);
            out.extend_from_slice(b",\"TT\":");
            out.extend_from_slice(ty);
            out.push(b'}');
        });
        Ok(())
    }

    /// [`pir_core::builtin::first_bool`], memoized per attribute.
    fn flag_of(&mut self, attr: Attribute) -> Option<bool> {
        let flag = self.cache.flags.get_mut(attr.as_u32());
        if *flag == 0 {
            *flag = match pir_core::builtin::first_bool(self.ctx, attr) {
                None => 1,
                Some(false) => 2,
                Some(true) => 3,
            };
        }
        match *flag {
            2 => Some(false),
            3 => Some(true),
            _ => None,
        }
    }

    /// The compressed name of `op`, compressed once per op name.
    fn compressed_name(&mut self, op: OpId) -> &str {
        let name = self.program.op_name(op).index() as u32;
        let slot = self.op_name_of.get_mut(name);
        if *slot == 0 {
            self.op_names
                .push(compress_op_name(self.program.op_name_str(op)).into());
            *slot = u32::try_from(self.op_names.len()).unwrap_or(u32::MAX);
        }
        let index = *slot as usize - 1;
        self.op_names.get(index).map_or("", |n| n)
    }

    fn write_op(&mut self, w: &mut JsonWriter<'_>, op: OpId) -> Result<(), WriteError> {
        let p = self.program;
        if Some(p.op_name(op)) == self.names.parameter
            && p.num_results(op) == 1
            && p.num_operands(op) == 0
        {
            self.write_parameter_op(w, op)?;
            self.op_index += 1;
            return Ok(());
        }
        // Results are numbered before the operands are looked up.
        let first_result = self.next_result;
        for r in p.results(op) {
            self.ids.set(r, self.next_result);
            self.next_result += 1;
        }
        w.begin_object();
        w.key("#");
        let down = self.downgraded.as_mut().and_then(|ops| ops.remove(&op));
        match down.as_ref().and_then(|d| d.name.as_deref()) {
            Some(older) => w.string(&compress_op_name(older)),
            None => w.string(self.compressed_name(op)),
        }
        w.key("A");
        match &down {
            Some(d) => downgrade::write_entries(w, &d.attrs),
            None => self.write_op_attrs(w, op, false)?,
        }
        w.key("I");
        w.begin_array();
        for (i, v) in p.operands(op).enumerate() {
            let id = match v {
                None => 0,
                Some(v) => match *self.ids.get(v) {
                    0 => {
                        return Err(self.unsupported(
                            op,
                            format!(
                                "operand {i} refers to a value that is not defined before the op"
                            ),
                        ))
                    }
                    id => id,
                },
            };
            if w.is_pretty() {
                w.begin_object();
                w.key("%");
                w.i64(id);
                w.end_object();
            } else {
                w.raw_value_with(|out| {
                    out.extend_from_slice(b"{\"%\":");
                    pir_json::number::write_i64(out, id);
                    out.push(b'}');
                });
            }
        }
        w.end_array();
        w.key("O");
        w.begin_array();
        for (r, id) in p.results(op).zip(first_result..) {
            self.write_result(w, op, r, id)?;
        }
        w.end_array();
        if self.options.trainable {
            w.key("OA");
            match &down {
                Some(d) => downgrade::write_entries(w, &d.output_attrs),
                None => self.write_op_attrs(w, op, true)?,
            }
        }
        self.op_index += 1;
        if p.num_regions(op) > 0 {
            w.key("regions");
            w.begin_array();
            for region in p.regions(op) {
                let blocks = p.region_blocks(region).to_vec();
                self.write_region(w, &blocks)?;
            }
            w.end_array();
        }
        w.end_object();
        Ok(())
    }

    /// The short form `{"#":"p","A":[d,p,c,name],"DA":[...],"O":{...},"OA":[...],"QA":[...]}`.
    fn write_parameter_op(&mut self, w: &mut JsonWriter<'_>, op: OpId) -> Result<(), WriteError> {
        let p = self.program;
        let ctx = self.ctx;
        // One pass over the attributes, placing each by its name.
        let mut found: [Option<Attribute>; param_form::NAMES.len()] =
            [None; param_form::NAMES.len()];
        for (k, &(n, a)) in ctx.dict_entries(p.attrs(op)).iter().enumerate() {
            // A parameter read from Paddle's file has its attributes in the
            // order of the slots: tried first.
            let slots = &self.names.parameter_attrs;
            let slot = match slots.get(k) {
                Some(&s) if s == Some(n) => Some(k),
                _ => slots.iter().position(|s| *s == Some(n)),
            };
            match slot {
                Some(i) => found[i] = found[i].or(Some(a)),
                None => {
                    let n = ctx.symbol_str(n);
                    return Err(self.unsupported(
                        op,
                        format!("attribute `{n}` cannot be saved on a parameter op"),
                    ));
                }
            }
        }
        let (mut a_flags, mut oa_flags) = ([false; 3], [false; 3]);
        let slots = a_flags.iter_mut().zip(param_form::A_FLAGS);
        for (slot, (attr, default)) in slots.chain(oa_flags.iter_mut().zip(param_form::OA_FLAGS)) {
            *slot = match found[attr.index()] {
                None => default,
                Some(a) => self.flag_of(a).ok_or_else(|| {
                    self.unsupported(op, format!("`{}` must be a [bool] array", attr.name()))
                })?,
            };
        }
        let name = found[Slot::ParameterName.index()]
            .and_then(|a| ctx.attr_as::<pir_core::builtin::StrAttr>(a))
            .ok_or_else(|| {
                self.unsupported(op, "missing string attribute `parameter_name`".into())
            })?;
        w.begin_object();
        w.key("#");
        w.string(param_form::SHORT_NAME);
        w.key("A");
        if w.is_pretty() {
            w.begin_array();
            for f in a_flags {
                w.i64(i64::from(f));
            }
            w.string(&name.0);
            w.end_array();
        } else {
            // Most ops of a model are parameters: their flags and name are
            // written in one piece rather than value by value.
            w.raw_value_with(|out| {
                write_flags(out, a_flags, b',');
                pir_json::write_escaped_string(out, &name.0);
                out.push(b']');
            });
        }
        let syms = self.names.parameter_attrs;
        let pick = |attrs: &[Slot]| -> Vec<(Symbol, Attribute)> {
            attrs
                .iter()
                .filter_map(|&a| Some((syms[a.index()]?, found[a.index()]?)))
                .collect()
        };
        let absent = |attrs: &[Slot]| attrs.iter().all(|&a| found[a.index()].is_none());
        w.key("DA");
        if absent(&param_form::DA) && !w.is_pretty() {
            w.raw_value(b"[]");
        } else {
            self.write_attr_list(w, op, pick(&param_form::DA).into_iter())?;
        }
        let r = p.result(op, 0);
        let id = self.next_result;
        self.next_result += 1;
        self.ids.set(r, id);
        w.key("O");
        self.write_result(w, op, r, id)?;
        if self.options.trainable {
            w.key("OA");
            if w.is_pretty() {
                w.begin_array();
                for f in oa_flags {
                    w.i64(i64::from(f));
                }
                w.end_array();
            } else {
                w.raw_value_with(|out| write_flags(out, oa_flags, b']'));
            }
        }
        w.key("QA");
        if absent(&param_form::QA) && !w.is_pretty() {
            w.raw_value(b"[]");
        } else {
            self.write_attr_list(w, op, pick(&param_form::QA).into_iter())?;
        }
        w.end_object();
        Ok(())
    }
}

/// `[f,f,f` and `last`: a parameter op's three flags as Paddle writes them
/// (`0` or `1`), opening their array.
fn write_flags(out: &mut Vec<u8>, flags: [bool; 3], last: u8) {
    let digit = |f: bool| if f { b'1' } else { b'0' };
    out.extend_from_slice(&[
        b'[',
        digit(flags[0]),
        b',',
        digit(flags[1]),
        b',',
        digit(flags[2]),
        last,
    ]);
}

/// `,"N":"name"}`: what follows an attribute's value in its entry.
fn entry_tail(out: &mut Vec<u8>, name: &str) {
    out.extend_from_slice(b",\"N\":");
    pir_json::write_escaped_string(out, name);
    out.push(b'}');
}
