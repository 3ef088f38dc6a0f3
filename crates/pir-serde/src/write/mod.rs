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
//!
//! Types, attribute lists and op names are interned, so their compact JSON
//! is encoded once per context rather than once per write: it is kept in the
//! context for later writes (see `kept`), and most ops are written as
//! copies of it with their value ids between (see `compact`).

use std::io::Write;
use std::path::Path;

use pir_core::printer::FLUSH_BYTES;
use pir_core::serial::{self, JsonWriter};
use pir_core::{Attribute, BlockId, IrContext, OpId, Program, Symbol, Type, ValueId};
use rustc_hash::FxHashMap;

use crate::downgrade::{self, DowngradedOp, Placement};
use crate::error::WriteError;
use crate::names::compress_op_name;
use crate::param_form::{self, Slot};

mod compact;
mod kept;

use kept::Kept;

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
    ProgramWriter::new(program, options, None).write_all(&mut w)?;
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
    ProgramWriter::new(program, options, Some(sink)).write_all(&mut w)
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

#[derive(Clone, Copy)]
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
    next_result: i64,
    next_arg: i64,
    next_region: u64,
    next_block: u64,
    op_index: usize,
    names: Names,
    /// Value ids, compressed op names and the compact JSON of types and
    /// attribute lists encoded before (compact mode only), taken from the
    /// context and given back once the program is written.
    kept: Box<Kept>,
    /// Where the output goes a part at a time (see [`write_to`]), if anywhere.
    sink: Option<&'p mut dyn Write>,
    /// Ops an older version writes differently (see [`crate::downgrade`]).
    downgraded: Option<FxHashMap<OpId, DowngradedOp>>,
}

impl Names {
    /// The names' symbols, interned if new: a name the context did not
    /// hold yet could be interned later, and what is kept for later writes
    /// (see [`Kept::names`]) must hold then too.
    fn intern(ctx: &IrContext) -> Names {
        let symbol = |name| Some(ctx.symbol(name));
        Names {
            stop_gradient: symbol(pir_core::builtin::STOP_GRADIENT),
            persistable: symbol(pir_core::builtin::PERSISTABLE),
            op_callstack: symbol("op_callstack"),
            parameter: symbol(param_form::OP_NAME),
            parameter_attrs: param_form::NAMES.map(symbol),
        }
    }

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
        let mut kept = Kept::take(ctx);
        let names = *kept.names.get_or_insert_with(|| Names::intern(ctx));
        ProgramWriter {
            program,
            ctx,
            options,
            next_result: 1,
            next_arg: -1,
            next_region: 0,
            next_block: 0,
            op_index: 0,
            names,
            kept,
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

    /// Writes the program, then gives what it memoized back to the context
    /// (see [`Kept::give_back`]).
    fn write_all(mut self, w: &mut JsonWriter<'_>) -> Result<(), WriteError> {
        let written = self.write(w);
        Kept::give_back(self.ctx, self.kept);
        written
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
        write_numbered(w, "region_", self.next_region);
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
        write_numbered(w, "block_", self.next_block);
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
        self.kept.ids.set(v, id);
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
        w.raw_value(self.kept.cache.type_json(self.ctx, ty)?);
        Ok(())
    }

    /// Writes `op`: in the compact form mostly as copies of kept texts
    /// (see `compact`), else value by value.
    fn write_op(&mut self, w: &mut JsonWriter<'_>, op: OpId) -> Result<(), WriteError> {
        let compact = !w.is_pretty();
        if self.is_parameter_op(op) {
            if compact {
                w.raw_value_with(|out| self.parameter_json(out, op))?;
            } else {
                let fields = self.parameter_fields(op)?;
                self.write_parameter_pretty(w, op, &fields)?;
            }
            self.op_index += 1;
            return Ok(());
        }
        let down = self.take_downgraded(op);
        if compact && down.is_none() && self.program.num_regions(op) == 0 {
            w.raw_value_with(|out| self.op_json(out, op))?;
            self.op_index += 1;
            return Ok(());
        }
        let p = self.program;
        let first_result = self.number_results(op);
        w.begin_object();
        w.key("#");
        match down.as_ref().and_then(|d| d.name.as_deref()) {
            Some(older) => w.string(&compress_op_name(older)),
            None => w.string(&compress_op_name(p.op_name_str(op))),
        }
        w.key("A");
        match &down {
            Some(d) => downgrade::write_entries(w, &d.attrs),
            None => self.write_op_attrs(w, op, false)?,
        }
        w.key("I");
        w.begin_array();
        for (i, v) in p.operands(op).enumerate() {
            let id = self.operand_id(op, i, v)?;
            w.begin_object();
            w.key("%");
            w.i64(id);
            w.end_object();
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
        self.write_regions(w, op)?;
        w.end_object();
        Ok(())
    }

    /// Writes `"regions":[...]` of an op that has regions.
    fn write_regions(&mut self, w: &mut JsonWriter<'_>, op: OpId) -> Result<(), WriteError> {
        if self.program.num_regions(op) > 0 {
            w.key("regions");
            self.write_region_list(w, op)?;
        }
        Ok(())
    }

    /// Writes the array of `op`'s regions.
    fn write_region_list(&mut self, w: &mut JsonWriter<'_>, op: OpId) -> Result<(), WriteError> {
        let p = self.program;
        w.begin_array();
        for region in p.regions(op) {
            let blocks = p.region_blocks(region).to_vec();
            self.write_region(w, &blocks)?;
        }
        w.end_array();
        Ok(())
    }

    /// Whether `op` is written in the short parameter form.
    fn is_parameter_op(&self, op: OpId) -> bool {
        let p = self.program;
        Some(p.op_name(op)) == self.names.parameter
            && p.num_results(op) == 1
            && p.num_operands(op) == 0
    }

    /// Numbers the results of `op` (before its operands are looked up);
    /// gives the first one's id.
    fn number_results(&mut self, op: OpId) -> i64 {
        let first = self.next_result;
        for r in self.program.results(op) {
            self.kept.ids.set(r, self.next_result);
            self.next_result += 1;
        }
        first
    }

    /// How an older version writes `op`, if differently.
    fn take_downgraded(&mut self, op: OpId) -> Option<DowngradedOp> {
        self.downgraded.as_mut()?.remove(&op)
    }

    /// The id of operand `i` of `op` (0 for an absent one).
    fn operand_id(&self, op: OpId, i: usize, v: Option<ValueId>) -> Result<i64, WriteError> {
        let Some(v) = v else { return Ok(0) };
        match *self.kept.ids.get(v) {
            0 => Err(self.unsupported(
                op,
                format!("operand {i} refers to a value that is not defined before the op"),
            )),
            id => Ok(id),
        }
    }

    /// Writes the `"A"` (`output == false`) or `"OA"` list of an op's attributes.
    fn write_op_attrs(
        &mut self,
        w: &mut JsonWriter<'_>,
        op: OpId,
        output: bool,
    ) -> Result<(), WriteError> {
        let placement = self.names.placement();
        let entries = self.ctx.dict_entries(self.program.attrs(op));
        let kept = entries.iter().filter(|&&(n, _)| placement.keeps(n, output));
        self.write_attr_list(w, op, kept.copied())
    }

    fn write_attr_list(
        &mut self,
        w: &mut JsonWriter<'_>,
        op: OpId,
        entries: impl Iterator<Item = (Symbol, Attribute)>,
    ) -> Result<(), WriteError> {
        let ctx = self.ctx;
        w.begin_array();
        for (name, attr) in entries {
            w.begin_object();
            w.key("AT");
            serial::encode_attr(ctx, attr, w).map_err(|e| self.encode_error(op, e))?;
            w.key("N");
            w.string(ctx.symbol_str(name));
            w.end_object();
        }
        w.end_array();
        Ok(())
    }

    /// Writes `{"%":id,"TT":type}` of a result.
    fn write_result(
        &mut self,
        w: &mut JsonWriter<'_>,
        op: OpId,
        r: ValueId,
        id: i64,
    ) -> Result<(), WriteError> {
        w.begin_object();
        w.key("%");
        w.i64(id);
        w.key("TT");
        self.write_type(w, self.program.value_type(r))
            .map_err(|e| self.encode_error(op, e))?;
        w.end_object();
        Ok(())
    }

    /// What the short form of parameter op `op` says, or why it cannot be
    /// said.
    fn parameter_fields(&mut self, op: OpId) -> Result<ParameterFields<'p>, WriteError> {
        let p = self.program;
        let ctx = self.ctx;
        // The attributes placed by their names.
        let mut found: [Option<Attribute>; param_form::NAMES.len()] =
            [None; param_form::NAMES.len()];
        let entries = ctx.dict_entries(p.attrs(op));
        let slots = &self.names.parameter_attrs;
        // A parameter read from Paddle's file has its attributes in the
        // order of the slots: placed at once.
        let in_slot_order = entries.len() <= slots.len()
            && entries.iter().zip(slots).all(|(&(n, _), &s)| s == Some(n));
        if in_slot_order {
            for (slot, &(_, a)) in found.iter_mut().zip(entries) {
                *slot = Some(a);
            }
        } else {
            for &(n, a) in entries {
                match slots.iter().position(|s| *s == Some(n)) {
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
        }
        let flag_slots = param_form::A_FLAGS.iter().chain(&param_form::OA_FLAGS);
        let mut flag_attrs = [None; 6];
        for (attr, &(slot, _)) in flag_attrs.iter_mut().zip(flag_slots) {
            *attr = found[slot.index()];
        }
        let (a_flags, oa_flags) = match self.kept.parameter_flags {
            Some((attrs, a_flags, oa_flags)) if attrs == flag_attrs => (a_flags, oa_flags),
            _ => {
                let (a_flags, oa_flags) = self.parameter_flags(op, &found)?;
                self.kept.parameter_flags = Some((flag_attrs, a_flags, oa_flags));
                (a_flags, oa_flags)
            }
        };
        let name = found[Slot::ParameterName.index()]
            .and_then(|a| ctx.attr_as::<pir_core::builtin::StrAttr>(a))
            .ok_or_else(|| {
                self.unsupported(op, "missing string attribute `parameter_name`".into())
            })?;
        Ok(ParameterFields {
            found,
            a_flags,
            oa_flags,
            name: &name.0,
        })
    }

    /// The `"A"` and `"OA"` flags of parameter op `op` whose attributes
    /// are `found`, by [`param_form::NAMES`] slot.
    fn parameter_flags(
        &mut self,
        op: OpId,
        found: &[Option<Attribute>; param_form::NAMES.len()],
    ) -> Result<([bool; 3], [bool; 3]), WriteError> {
        let ctx = self.ctx;
        let (mut a_flags, mut oa_flags) = ([false; 3], [false; 3]);
        let slots = a_flags.iter_mut().zip(param_form::A_FLAGS);
        for (slot, (attr, default)) in slots.chain(oa_flags.iter_mut().zip(param_form::OA_FLAGS)) {
            *slot = match found[attr.index()] {
                None => default,
                Some(a) => self.kept.cache.flag_of(ctx, a).ok_or_else(|| {
                    self.unsupported(op, format!("`{}` must be a [bool] array", attr.name()))
                })?,
            };
        }
        Ok((a_flags, oa_flags))
    }

    /// The short form `{"#":"p","A":[d,p,c,name],"DA":[...],"O":{...},"OA":[...],"QA":[...]}`.
    fn write_parameter_pretty(
        &mut self,
        w: &mut JsonWriter<'_>,
        op: OpId,
        fields: &ParameterFields<'_>,
    ) -> Result<(), WriteError> {
        w.begin_object();
        w.key("#");
        w.string(param_form::SHORT_NAME);
        w.key("A");
        w.begin_array();
        for f in fields.a_flags {
            w.i64(i64::from(f));
        }
        w.string(fields.name);
        w.end_array();
        w.key("DA");
        let names = self.names;
        let da = fields.entries(&names, &param_form::DA);
        self.write_attr_list(w, op, da)?;
        let r = self.program.result(op, 0);
        let id = self.number_results(op);
        w.key("O");
        self.write_result(w, op, r, id)?;
        if self.options.trainable {
            w.key("OA");
            w.begin_array();
            for f in fields.oa_flags {
                w.i64(i64::from(f));
            }
            w.end_array();
        }
        w.key("QA");
        let qa = fields.entries(&names, &param_form::QA);
        self.write_attr_list(w, op, qa)?;
        w.end_object();
        Ok(())
    }
}

/// A parameter op's attributes as its short form places them.
struct ParameterFields<'p> {
    /// Its attributes by [`param_form::NAMES`] slot.
    found: [Option<Attribute>; param_form::NAMES.len()],
    a_flags: [bool; 3],
    oa_flags: [bool; 3],
    name: &'p str,
}

impl ParameterFields<'_> {
    /// The entries of `slots` present, in their order.
    fn entries<'a>(
        &'a self,
        names: &'a Names,
        slots: &'a [Slot],
    ) -> impl Iterator<Item = (Symbol, Attribute)> + 'a {
        slots
            .iter()
            .filter_map(|&a| Some((names.parameter_attrs[a.index()]?, self.found[a.index()]?)))
    }
}

/// Writes the string `prefix` followed by the decimal `n` (`"block_0"`).
fn write_numbered(w: &mut JsonWriter<'_>, prefix: &str, n: u64) {
    if w.is_pretty() {
        w.string(&format!("{prefix}{n}"));
    } else {
        // The prefixes need no escaping.
        w.raw_value_with(|out| {
            out.push(b'"');
            out.extend_from_slice(prefix.as_bytes());
            pir_json::number::write_u64(out, n);
            out.push(b'"');
        });
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A file of parameters in Paddle's short form, one per `(A, OA)` flags.
    fn parameters_file(flags: &[(&str, &str)]) -> String {
        let ty = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[4],"NCHW",[],0]}"##;
        let ops: Vec<String> = (1..)
            .zip(flags)
            .map(|(id, (a, oa))| {
                format!(
                    r##"{{"#":"p","A":[{a},"w{id}"],"DA":[],"O":{{"%":{id},"TT":{ty}}},"OA":[{oa}],"QA":[]}}"##
                )
            })
            .collect();
        format!(
            r##"{{"base_code":{{"magic":"pir","trainable":true,"version":4}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{}]}}]}}]}}}}"##,
            ops.join(",")
        )
    }

    /// Parameters whose flags differ from the one before, and parameters
    /// that share them, are written with their own flags, in a first write
    /// of the context and in the next.
    #[test]
    fn parameters_keep_their_own_flags() {
        let file = parameters_file(&[
            ("0,1,1", "1,0,1"),
            ("0,1,1", "1,0,1"),
            ("1,0,0", "0,1,0"),
            ("0,1,1", "1,0,1"),
            ("0,1,0", "1,1,1"),
            ("0,1,0", "1,1,1"),
        ]);
        let ctx = pir_dialects::pd_op_context();
        for _ in 0..2 {
            let loaded =
                crate::read_any_slice(ctx.clone(), file.as_bytes(), &Default::default()).unwrap();
            let written = write_to_vec(&loaded.program, &WriteOptions::default()).unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), file);
        }
    }
}
