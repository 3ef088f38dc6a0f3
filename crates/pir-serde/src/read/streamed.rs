//! Reading a file in Paddle's layout as a [`Stream`], one value at a time (see
//! [`read_slice`](super::read_slice)).

use std::ops::Range;
use std::sync::Arc;

use pir_core::builtin::StrAttr;
use pir_core::serial::{self, JsonPath};
use pir_core::{AttrDef, AttrDict, Attribute, BlockId, IrContext, OpId, Symbol, Type};
use pir_json::{Open, Stream};

use super::kept::{self, Lent};
use super::scan::{Batch, PlainOp, Scanned, ScannedEntry, ScannedResult, TextId};
use super::tables::Recent;
use super::threads::Plan;
use super::{finish_program, invalid, read_header, LoadedProgram, ReadOptions, Reader};
use crate::error::ReadError;
use crate::param_form::{self, Slot};

/// The handles of what one [`Scanner`](super::scan::Scanner) numbered, found
/// as its ops are built.
#[derive(Default)]
pub(super) struct Resolved {
    names: Vec<Option<Symbol>>,
    types: Vec<Option<Type>>,
    /// By op name: the last two pairs of attribute lists built for it and
    /// their dictionaries, as the scanner remembers them (it names no other
    /// pair again), so the table stays as small as the names.
    dicts: Vec<Recent<(TextId, AttrDict)>>,
    entries: Vec<Option<(Symbol, Attribute)>>,
}

fn resolved<T: Copy>(table: &[Option<T>], id: TextId) -> Option<T> {
    table.get(id as usize).copied().flatten()
}

fn resolve<T: Copy>(table: &mut Vec<Option<T>>, id: TextId, handle: T) {
    *super::tables::slot(table, id as usize) = Some(handle);
}

/// The part `range` of `list`.
fn part<'l, T>(list: &'l [T], range: &Range<u32>) -> &'l [T] {
    list.get(range.start as usize..range.end as usize)
        .unwrap_or_default()
}

/// Reads a file laid out as Paddle writes it as a stream (see [`read_slice`]);
/// `None` when the layout is another one.
pub(super) fn read_streamed(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
    release: &dyn Fn(Range<usize>),
) -> Result<Option<LoadedProgram>, ReadError> {
    Ok(
        read_streamed_with(ctx, bytes, options, Plan::default(), release)?
            .map(|(loaded, _)| loaded),
    )
}

/// [`read_streamed`], and how many ops were read field by field.
#[cfg(test)]
pub(super) fn read_streamed_counting(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Option<(LoadedProgram, usize)>, ReadError> {
    Ok(
        read_streamed_with(ctx, bytes, options, Plan::default(), &|_| {})?
            .map(|(loaded, counts)| (loaded, counts.plain)),
    )
}

/// How many ops a streamed read read how (for tests).
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(test), allow(dead_code))]
pub(super) struct Counts {
    /// Ops read field by field.
    pub(super) plain: usize,
    /// Ops scanned on a second thread.
    pub(super) scanned_apart: usize,
}

/// [`read_streamed`] with the top block's ops cut for a second thread as
/// `plan` says, and how many ops were read how.
pub(super) fn read_streamed_with(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
    plan: Plan,
    release: &dyn Fn(Range<usize>),
) -> Result<Option<(LoadedProgram, Counts)>, ReadError> {
    let mut s = Stream::new(bytes)?;
    // Checking the text read all of it; the ops are read from the start again.
    if bytes.len() >= plan.release_checked_min {
        release(0..bytes.len());
    }
    // The other thread starts on its part at once: this one reads the
    // header and sets up meanwhile.
    match super::threads::lending(s.text(), options, plan) {
        Some(lending) => kept::lend(
            lending.kept,
            s.text(),
            lending.at,
            lending.batch_ops,
            |lent| read_document(ctx, &mut s, bytes, options, plan, release, lent),
        ),
        None => read_document(ctx, &mut s, bytes, options, plan, release, None),
    }
}

/// [`read_streamed_with`] once the text is checked, with the top block's
/// ops from a cut on lent to the kept thread, if they are.
fn read_document<'a>(
    ctx: Arc<IrContext>,
    s: &mut Stream<'a>,
    bytes: &[u8],
    options: &ReadOptions,
    plan: Plan,
    release: &dyn Fn(Range<usize>),
    mut lent: Option<&mut Lent<'a>>,
) -> Result<Option<(LoadedProgram, Counts)>, ReadError> {
    let top = JsonPath::Root("");
    let mut root = s.begin_object()?;
    let (mut header, mut program, mut counts) = (None, None, Counts::default());
    while let Some(key) = s.next_key(&mut root)? {
        match &*key {
            "base_code" if header.is_none() => {
                let doc = s.value()?;
                header = Some(read_header(doc.root(), &top.key("base_code"), options)?);
                s.recycle(doc);
            }
            "program" if program.is_none() => {
                let Some(header) = header.as_mut() else {
                    return Ok(None);
                };
                let mut reader = Reader::new(
                    s.text(),
                    ctx.clone(),
                    options,
                    header.patches.take(),
                    bytes.len(),
                    release,
                );
                reader.plan = plan;
                if !reader.read_program_streamed(s, &top.key("program"), lent.take())? {
                    return Ok(None);
                }
                counts = Counts {
                    plain: reader.plain_ops,
                    scanned_apart: reader.scanned_apart,
                };
                program = Some(reader.into_program());
            }
            "base_code" | "program" => return Ok(None),
            _ => s.skip()?,
        }
    }
    s.finish()?;
    match (header, program) {
        (Some(header), Some(program)) => {
            finish_program(program, &header, bytes).map(|p| Some((p, counts)))
        }
        _ => Ok(None),
    }
}

impl<'a> Reader<'_, 'a> {
    /// Reads `program` (the stream stands before its value) into the top block,
    /// one op at a time. False when its layout is not Paddle's: one region
    /// with `#` and `blocks`, whose first block has its members in key order.
    fn read_program_streamed(
        &mut self,
        s: &mut Stream<'a>,
        path: &JsonPath<'_>,
        mut lent: Option<&mut Lent<'a>>,
    ) -> Result<bool, ReadError> {
        let mut program = s.begin_object()?;
        let mut read = false;
        while let Some(key) = s.next_key(&mut program)? {
            if &*key != "regions" || read {
                s.skip()?;
                continue;
            }
            read = true;
            let regions_path = path.key("regions");
            let region_path = regions_path.index(0);
            let mut regions = s.begin_array()?;
            if !s.next_element(&mut regions)? {
                return Ok(false);
            }
            let mut region = s.begin_object()?;
            let (mut named, mut blocks_read) = (false, false);
            while let Some(key) = s.next_key(&mut region)? {
                match &*key {
                    "#" if !named => {
                        named = true;
                        s.skip()?;
                    }
                    "blocks" if !blocks_read => {
                        blocks_read = true;
                        let mut blocks = s.begin_array()?;
                        if !s.next_element(&mut blocks)? {
                            return Ok(false);
                        }
                        let top = self.program.top_block();
                        let blocks_path = region_path.key("blocks");
                        let lent = lent.take();
                        if !self.read_block_streamed(s, top, &blocks_path.index(0), lent)? {
                            return Ok(false);
                        }
                        // Like the whole-document reader, later blocks are not read.
                        while s.next_element(&mut blocks)? {
                            s.skip()?;
                        }
                    }
                    "#" | "blocks" => return Ok(false),
                    _ => s.skip()?,
                }
            }
            if !(named && blocks_read) || s.next_element(&mut regions)? {
                return Ok(false);
            }
        }
        Ok(read)
    }

    /// Reads a block's object (the stream stands before it) op by op. False
    /// when its members are not `#`, `args`, `kwargs` (optional) and `ops` in
    /// that order (other keys anywhere).
    fn read_block_streamed(
        &mut self,
        s: &mut Stream<'a>,
        block: BlockId,
        path: &JsonPath<'_>,
        mut lent: Option<&mut Lent<'a>>,
    ) -> Result<bool, ReadError> {
        let mut object = s.begin_object()?;
        let (mut named, mut args, mut kwargs, mut ops) = (false, false, false, false);
        while let Some(key) = s.next_key(&mut object)? {
            match &*key {
                "#" if !named => {
                    named = true;
                    s.skip()?;
                }
                "args" if !args && !kwargs && !ops => {
                    args = true;
                    let doc = s.value()?;
                    self.read_block_args(doc.root(), block, path)?;
                    s.recycle(doc);
                }
                "kwargs" if args && !kwargs && !ops => {
                    kwargs = true;
                    let doc = s.value()?;
                    self.read_block_kwargs(doc.root(), block, path)?;
                    s.recycle(doc);
                }
                "ops" if args && !ops => {
                    ops = true;
                    let ops_path = path.key("ops");
                    let mut list = s.begin_array()?;
                    let lent = lent.take();
                    super::threads::read_ops(self, s, &mut list, block, &ops_path, lent)?;
                }
                "#" | "args" | "kwargs" | "ops" => return Ok(false),
                _ => s.skip()?,
            }
        }
        Ok(named && args && ops)
    }

    /// Reads the ops of the open list `list` (the top block's) into `dest`
    /// until the list ends or, before an op, the stream reaches `stop` (see
    /// [`Reached`]). With `pending`, the stream stands before an op already.
    pub(super) fn read_ops_until(
        &mut self,
        s: &mut Stream<'a>,
        list: &mut Open,
        dest: &mut Dest<'_>,
        stop: usize,
        mut pending: bool,
    ) -> Result<Reached, ReadError> {
        let mut batch = std::mem::take(&mut self.batch);
        let mut scanner = std::mem::take(&mut self.scanner);
        let mut resolved = std::mem::take(&mut self.resolved);
        let result = loop {
            // A few ops are scanned, then built: one hand-over per batch
            // rather than per op. Where scanning stopped (the list's end,
            // the stop, an error) counts once the ops before are built, so
            // an error of an earlier op still comes first.
            batch.clear_into(s);
            let mut stopped = None;
            for _ in 0..OWN_BATCH_OPS {
                if !pending {
                    match s.next_element(list) {
                        Ok(true) => {}
                        Ok(false) => {
                            stopped = Some(Ok(Reached::End));
                            break;
                        }
                        Err(e) => {
                            stopped = Some(Err(e.into()));
                            break;
                        }
                    }
                }
                pending = false;
                if s.offset() >= stop {
                    let reached = if s.offset() == stop {
                        Reached::Stop
                    } else {
                        Reached::Past
                    };
                    stopped = Some(Ok(reached));
                    // The stream stands before this op, as the caller expects.
                    break;
                }
                if self.patches.is_some() {
                    let read = self.read_op_document(s, dest.block, &dest.path.index(dest.index));
                    if let Err(e) = read {
                        stopped = Some(Err(e));
                        break;
                    }
                    dest.index += 1;
                    continue;
                }
                if let Err(e) = scanner.scan_op(s, &mut batch) {
                    stopped = Some(Err(e));
                    break;
                }
            }
            if let Err(e) = self.build_batch(s, &batch, &mut resolved, dest) {
                break Err(e);
            }
            match stopped {
                Some(Err(e)) => break Err(e),
                Some(reached) => break reached,
                None => self.went_past(s.offset()),
            }
        };
        self.batch = batch;
        self.scanner = scanner;
        self.resolved = resolved;
        result
    }

    /// Reads the op at the stream as one document into `block`.
    fn read_op_document(
        &mut self,
        s: &mut Stream<'a>,
        block: BlockId,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        let doc = s.value()?;
        let op = self.read_op(doc.root(), path);
        s.recycle(doc);
        self.program.append_op(block, op?);
        Ok(())
    }

    /// Builds the ops of `batch` in order into `dest`; `resolved` holds the
    /// handles of what the batch's scanner numbered.
    pub(super) fn build_batch(
        &mut self,
        s: &mut Stream<'a>,
        batch: &Batch<'a>,
        resolved: &mut Resolved,
        dest: &mut Dest<'_>,
    ) -> Result<(), ReadError> {
        for scanned in &batch.ops {
            let path = dest.path.index(dest.index);
            let op = match scanned {
                Scanned::Plain(op) => {
                    let mut scratch = Scratch {
                        operands: std::mem::take(&mut self.operands),
                        result_types: std::mem::take(&mut self.result_types),
                    };
                    scratch.operands.clear();
                    scratch.result_types.clear();
                    let built = self.build_plain(s, batch, resolved, op, &path, &mut scratch);
                    self.operands = scratch.operands;
                    self.result_types = scratch.result_types;
                    built?
                }
                Scanned::Parameter {
                    flags,
                    name,
                    lists,
                    output_flags,
                    result,
                } => {
                    let ty = self.result_type(s, resolved, result, &path, None)?;
                    let syms = self.syms();
                    self.attrs.clear();
                    for (&value, (slot, _)) in flags.iter().zip(param_form::A_FLAGS) {
                        self.attrs.push((syms.get(slot), syms.flag(value)));
                    }
                    let name_attr = StrAttr::get(&self.ctx, name);
                    self.attrs.push((syms.get(Slot::ParameterName), name_attr));
                    // Nearly always empty (Paddle's short form writes `[]`).
                    for (list, key) in lists.iter().zip(["DA", "QA"]) {
                        if list.is_empty() {
                            continue;
                        }
                        let entries = part(&batch.entries, list);
                        self.read_attr_entries(s, resolved, entries, &path.key(key))?;
                    }
                    for (&value, (slot, _)) in
                        output_flags.iter().flatten().zip(param_form::OA_FLAGS)
                    {
                        self.attrs.push((syms.get(slot), syms.flag(value)));
                    }
                    let attrs = self.ctx.dict(&self.attrs);
                    let op = self.program.create_op(syms.op, &[], &[ty], attrs, 0);
                    if let Some(id) = result.id {
                        let v = self.program.result(op, 0);
                        self.bind_or(id, v, |m| invalid(&path.key("O").key("%"), m))?;
                    }
                    self.plain_ops += 1;
                    op
                }
                Scanned::Other(doc) => self.read_op(doc.root(), &path)?,
            };
            self.program.append_op(dest.block, op);
            dest.index += 1;
        }
        Ok(())
    }

    /// The symbol of a scanned op name (`raw` is its JSON text).
    fn build_name(
        &mut self,
        s: &mut Stream<'a>,
        resolved: &mut Resolved,
        (id, raw): (TextId, &'a str),
        path: &JsonPath<'_>,
    ) -> Result<Symbol, ReadError> {
        if let Some(name) = self::resolved(&resolved.names, id) {
            return Ok(name);
        }
        let text = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
        let name = match self.kept.names.get(text).copied() {
            Some(name) => name,
            // A name without escapes or control characters is its own text.
            None if raw.len() >= 2 && pir_json::plain_prefix_len(text.as_bytes()) == text.len() => {
                self.op_name_text(text, &path.key("#"))?
            }
            None => {
                let doc = s.document(raw)?;
                let name = self.op_name(doc.root(), &path.key("#"));
                s.recycle(doc);
                name?
            }
        };
        resolve(&mut resolved.names, id, name);
        Ok(name)
    }

    /// The type of output `output` of the op at `path` (`None`: a parameter's
    /// one result, whose `O` is an object); its path is made only when the
    /// type is decoded, not when it was resolved before.
    #[inline(always)]
    fn result_type(
        &mut self,
        s: &mut Stream<'a>,
        resolved: &mut Resolved,
        result: &ScannedResult<'a>,
        path: &JsonPath<'_>,
        output: Option<usize>,
    ) -> Result<Type, ReadError> {
        match self::resolved(&resolved.types, result.ty) {
            Some(ty) => Ok(ty),
            None => self.decode_result_type(s, resolved, result, path, output),
        }
    }

    /// [`Reader::result_type`] of a type not resolved yet.
    #[inline(never)]
    fn decode_result_type(
        &mut self,
        s: &mut Stream<'a>,
        resolved: &mut Resolved,
        result: &ScannedResult<'a>,
        path: &JsonPath<'_>,
        output: Option<usize>,
    ) -> Result<Type, ReadError> {
        let outputs = path.key("O");
        let indexed;
        let place = match output {
            Some(i) => {
                indexed = outputs.index(i);
                &indexed
            }
            None => &outputs,
        };
        let ty = self.read_type_raw(s, result.text, &place.key("TT"))?;
        resolve(&mut resolved.types, result.ty, ty);
        Ok(ty)
    }

    /// A plain op from its scanned name, operands, results and attributes.
    fn build_plain(
        &mut self,
        s: &mut Stream<'a>,
        batch: &Batch<'a>,
        resolved: &mut Resolved,
        op: &PlainOp<'a>,
        path: &JsonPath<'_>,
        scratch: &mut Scratch,
    ) -> Result<OpId, ReadError> {
        let name = self.build_name(s, resolved, op.name, path)?;
        if self.options.strict && self.ctx.op_info(name).is_none() {
            let text = self.ctx.symbol_str(name);
            return Err(invalid(&path.key("#"), format!("unknown op `{text}`")));
        }
        // Paths are made only for errors: most ids and types are found at once.
        for (i, &id) in part(&batch.operands, &op.operands).iter().enumerate() {
            let value = self.lookup_or(id, |m| invalid(&path.key("I").index(i).key("%"), m))?;
            scratch.operands.push(value);
        }
        let results = part(&batch.results, &op.results);
        for (i, result) in results.iter().enumerate() {
            let ty = self.result_type(s, resolved, result, path, Some(i))?;
            scratch.result_types.push(ty);
        }
        let attrs = self.build_dict(s, batch, resolved, op, path)?;
        if let Err(e) = pir_core::program::check_op_shape(scratch.result_types.len(), 0) {
            return Err(invalid(path, e.to_string()));
        }
        let created =
            self.program
                .create_op(name, &scratch.operands, &scratch.result_types, attrs, 0);
        for (i, result) in results.iter().enumerate() {
            if let Some(id) = result.id {
                let v = self.program.result(created, i);
                self.bind_or(id, v, |m| invalid(&path.key("O").index(i).key("%"), m))?;
            }
        }
        self.plain_ops += 1;
        Ok(created)
    }

    /// The attribute dictionary of a scanned op: the one its pair of lists
    /// had, or its entries decoded.
    fn build_dict(
        &mut self,
        s: &mut Stream<'a>,
        batch: &Batch<'a>,
        resolved: &mut Resolved,
        op: &PlainOp<'a>,
        path: &JsonPath<'_>,
    ) -> Result<AttrDict, ReadError> {
        let (name, dict) = (op.name.0 as usize, &op.dict);
        let recent = resolved.dicts.get(name).copied().unwrap_or_default();
        let built = recent
            .into_iter()
            .flatten()
            .find(|&(id, _)| Some(id) == dict.id);
        if let Some((_, found)) = built {
            return Ok(found);
        }
        let Some([a, oa]) = &dict.entries else {
            // A scanner gives the entries with the first op of each pair.
            return Err(invalid(path, "attribute lists out of order"));
        };
        self.attrs.clear();
        self.read_attr_entries(s, resolved, part(&batch.entries, a), &path.key("A"))?;
        self.read_attr_entries(s, resolved, part(&batch.entries, oa), &path.key("OA"))?;
        let found = self.ctx.dict(&self.attrs);
        if let Some(id) = dict.id {
            *super::tables::slot(&mut resolved.dicts, name) = [Some((id, found)), recent[0]];
        }
        Ok(found)
    }

    /// A type from its text (a slice of the file), decoding each distinct text once:
    /// directly when it is spelled as Paddle writes it ([`super::direct`]), else
    /// through its document.
    fn read_type_raw(
        &mut self,
        s: &mut Stream<'a>,
        raw: &'a str,
        path: &JsonPath<'_>,
    ) -> Result<Type, ReadError> {
        if let Some(&ty) = self.type_cache.get(raw) {
            return Ok(ty);
        }
        let ty = match super::direct::type_text(&self.ctx, raw) {
            Some(ty) => ty,
            None => {
                let doc = s.document(raw)?;
                let ty = serial::decode_type(&self.ctx, doc.root(), path);
                s.recycle(doc);
                let ty = ty?;
                // Texts spelled otherwise (an indented file's) are kept by
                // the context too: a text decodes to one type whatever its
                // spelling, and a context reading the file again finds it.
                self.ctx.remember_type_text(raw, ty);
                ty
            }
        };
        self.type_cache.insert(raw, ty);
        Ok(ty)
    }

    /// An entry holding a string attribute, `{"AT":{"#":"0.a_str","D":"…"},"N":"…"}`
    /// exactly, with plain strings (no escapes or control characters): such text
    /// is valid as it stands, so it is read without a document. Models name
    /// every layer (`struct_name`), so these entries are the ones that repeat least.
    fn plain_str_entry(&mut self, raw: &'a str) -> Option<(Symbol, Attribute)> {
        let plain = |t: &str| pir_json::plain_prefix_len(t.as_bytes()) == t.len();
        let rest = raw
            .strip_prefix(r##"{"AT":{"#":""##)?
            .strip_prefix(StrAttr::JSON_IDS.first()?)?
            .strip_prefix(r#"","D":""#)?;
        // The value ends at its first special byte, which must be its closing quote.
        let (value, rest) = rest.split_at_checked(pir_json::plain_prefix_len(rest.as_bytes()))?;
        let name = rest.strip_prefix(r#""},"N":""#)?.strip_suffix(r#""}"#)?;
        if !plain(name) {
            return None;
        }
        // The name is nearly always the one before (`struct_name`).
        let symbol = match self.last_str_name {
            Some((last, symbol)) if last == name => symbol,
            _ => {
                let symbol = self.ctx.symbol(name);
                self.last_str_name = Some((name, symbol));
                symbol
            }
        };
        Some((symbol, StrAttr::get(&self.ctx, value)))
    }

    /// The attribute entries `entries` (texts `{"AT":…,"N":…}`) into
    /// `self.attrs`, decoding each distinct entry text once: found by the
    /// scanner's number in `resolved`, else from its text
    /// ([`Reader::read_entry_raw`]). Plain string entries the scanner did not
    /// number (the first at their place) are read from their text each time:
    /// they are the ones models repeat least (a layer's `struct_name`), so a
    /// table of them all would grow by about one entry per op for few hits.
    fn read_attr_entries(
        &mut self,
        s: &mut Stream<'a>,
        resolved: &mut Resolved,
        entries: &[ScannedEntry<'a>],
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        for (i, &(raw, id)) in entries.iter().enumerate() {
            let entry = match id.and_then(|id| self::resolved(&resolved.entries, id)) {
                Some(entry) => entry,
                None => {
                    let entry = self.read_entry_raw(s, raw, path, i)?;
                    if let Some(id) = id {
                        resolve(&mut resolved.entries, id, entry);
                    }
                    entry
                }
            };
            self.attrs.push(entry);
        }
        Ok(())
    }

    /// Entry `index` of the list at `path`, from its text (a slice of the
    /// file): a plain string entry from its text each time, any other decoded
    /// once per distinct text, as [`Reader::read_type_raw`] decodes types.
    fn read_entry_raw(
        &mut self,
        s: &mut Stream<'a>,
        raw: &'a str,
        path: &JsonPath<'_>,
        index: usize,
    ) -> Result<(Symbol, Attribute), ReadError> {
        if let Some(entry) = self.plain_str_entry(raw) {
            return Ok(entry);
        }
        // The context keeps every text read this way with its entry, so a
        // text met again is one lookup there; only texts spelled otherwise
        // are kept in the reader's own table.
        if let Some(entry) = super::direct::entry_text(&self.ctx, raw) {
            return Ok(entry);
        }
        if let Some(&entry) = self.entry_cache.get(raw) {
            return Ok(entry);
        }
        let doc = s.document(raw)?;
        let entry = self.read_attr_entry(doc.root(), &path.index(index));
        s.recycle(doc);
        let entry = entry?;
        // As types: the context keeps texts spelled otherwise too (an
        // indented file's).
        super::remember_entry_text(&self.ctx, raw, entry);
        self.entry_cache.insert(raw, entry);
        Ok(entry)
    }
}

/// Where built ops go: a block, the path of its `ops`, and the number of the next op.
pub(super) struct Dest<'p> {
    pub(super) block: BlockId,
    pub(super) path: &'p JsonPath<'p>,
    pub(super) index: usize,
}

/// An op's operands and result types as they are built, in buffers reused across ops.
struct Scratch {
    operands: Vec<Option<pir_core::ValueId>>,
    result_types: Vec<Type>,
}

/// How many ops [`Reader::read_ops_until`] scans before it builds them.
pub(super) const OWN_BATCH_OPS: usize = 8;

/// Where [`Reader::read_ops_until`] stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Reached {
    /// The list ended.
    End,
    /// The stream stands at the stop, before an op.
    Stop,
    /// The stream stands past the stop, before an op.
    Past,
}
