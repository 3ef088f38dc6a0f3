//! Building the ops a [`Scanner`](super::scan::Scanner) scanned, in file
//! order (see [`scan`](super::scan)): names, types and attribute entries
//! decoded once per distinct text, through the handles of what the scanner
//! numbered; region ops' blocks nested as the scanner marked them.

use std::ops::Range;

use pir_core::builtin::StrAttr;
use pir_core::serial::{self, JsonPath};
use pir_core::{AttrDef, AttrDict, Attribute, BlockId, OpId, Symbol, Type};
use pir_json::Stream;

use super::scan::{Batch, PlainOp, Scanned, ScannedEntry, ScannedResult, TextId};
use super::streamed::Dest;
use super::tables::Recent;
use super::{invalid, Reader};
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

impl Resolved {
    /// Emptied, its room kept for the next read.
    pub(super) fn cleared(mut self) -> Resolved {
        self.names.clear();
        self.types.clear();
        self.dicts.clear();
        self.entries.clear();
        self
    }

    /// The bytes of its room.
    pub(super) fn bytes(&self) -> usize {
        use super::tables::room_bytes;
        room_bytes(&self.names)
            + room_bytes(&self.types)
            + room_bytes(&self.dicts)
            + room_bytes(&self.entries)
    }
}

fn resolved<T: Copy>(table: &[Option<T>], id: TextId) -> Option<T> {
    table.get(id as usize).copied().flatten()
}

fn resolve<T: Copy>(table: &mut Vec<Option<T>>, id: TextId, handle: T) {
    *super::tables::slot(table, id as usize) = Some(handle);
}

/// The part `range` of `list`.
pub(super) fn part<'l, T>(list: &'l [T], range: &Range<u32>) -> &'l [T] {
    list.get(range.start as usize..range.end as usize)
        .unwrap_or_default()
}

impl<'a> Reader<'_, 'a> {
    /// Builds the ops of `batch` in order into `dest`; `resolved` holds the
    /// handles of what the batch's scanner numbered.
    pub(super) fn build_batch(
        &mut self,
        s: &mut Stream<'a>,
        batch: &Batch<'a>,
        resolved: &mut Resolved,
        dest: &mut Dest<'_>,
    ) -> Result<(), ReadError> {
        // The buffers go out of `self` once per batch, not once per op.
        let mut scratch = Scratch {
            operands: std::mem::take(&mut self.operands),
            result_types: std::mem::take(&mut self.result_types),
        };
        let built = self.build_batch_with(s, batch, resolved, dest, &mut scratch);
        self.operands = scratch.operands;
        self.result_types = scratch.result_types;
        built
    }

    /// [`build_batch`](Self::build_batch) with `scratch`, the reader's
    /// buffers for one op's operands and result types.
    fn build_batch_with(
        &mut self,
        s: &mut Stream<'a>,
        batch: &Batch<'a>,
        resolved: &mut Resolved,
        dest: &mut Dest<'_>,
        scratch: &mut Scratch,
    ) -> Result<(), ReadError> {
        // Region ops whose regions are being built (see `Scanned::Block`),
        // innermost last, with the block at hand.
        let mut nest: Vec<(OpId, Option<BlockId>)> = Vec::new();
        for scanned in &batch.ops {
            // Ops inside regions are located by their region op's path.
            let path = dest.path.index(dest.index);
            let op = match scanned {
                Scanned::Plain(op) => {
                    scratch.clear();
                    let built = self.build_plain(s, batch, resolved, op, &path, scratch)?;
                    if op.regions > 0 {
                        nest.push((built, None));
                        continue;
                    }
                    built
                }
                Scanned::Template(op) => {
                    scratch.clear();
                    self.build_template(batch, op, &path, scratch)?
                }
                Scanned::Parameter {
                    flags,
                    name,
                    lists,
                    output_flags,
                    result,
                    learn,
                } => {
                    let lists = lists.each_ref().map(|list| part(&batch.entries, list));
                    let parts = (flags, *name, lists, output_flags, result);
                    let (op, ty, dict) = self.build_parameter(s, resolved, parts, &path)?;
                    if let Some(texts) = *learn {
                        let name = self.syms().op;
                        self.learn_parameter_template(name, texts, ty, dict);
                    }
                    op
                }
                Scanned::Other(doc) => self.read_op(doc.root(), &path)?,
                Scanned::Block {
                    region,
                    args,
                    kwargs,
                    scanned_args,
                } => {
                    let Some((op, block)) = nest.last_mut() else {
                        return Err(invalid(&path, "a block outside a region op"));
                    };
                    let lists = [args, kwargs].map(Option::as_ref);
                    let scanned_args = part(&batch.results, scanned_args);
                    let (s, resolved) = (&mut *s, &mut *resolved);
                    let at = (*op, *region, s, resolved);
                    *block = Some(self.open_block(at, lists, scanned_args, &path)?);
                    continue;
                }
                Scanned::EndRegions => match nest.pop() {
                    Some((op, _)) => op,
                    None => return Err(invalid(&path, "regions end outside a region op")),
                },
            };
            match nest.last() {
                None => {
                    self.program.append_op(dest.block, op);
                    dest.index += 1;
                }
                Some((_, Some(block))) => self.program.append_op(*block, op),
                Some((_, None)) => return Err(invalid(&path, "an op of a region outside a block")),
            }
        }
        match nest.is_empty() {
            true => Ok(()),
            false => Err(invalid(dest.path, "regions left open")),
        }
    }

    /// A new block of region `region` of `op`, with its `args` and `kwargs`
    /// (`None`: empty), and the args scanned (`scanned_args`).
    #[inline(never)]
    fn open_block(
        &mut self,
        (op, region, s, resolved): (OpId, u32, &mut Stream<'a>, &mut Resolved),
        [args, kwargs]: [Option<&pir_json::Document<'a>>; 2],
        scanned_args: &[ScannedResult<'a>],
        path: &JsonPath<'_>,
    ) -> Result<BlockId, ReadError> {
        let index = region as usize;
        if index >= self.program.num_regions(op) {
            return Err(invalid(path, "a block of a region the op lacks"));
        }
        let block = self.program.add_block(self.program.op_region(op, index));
        if let Some(args) = args {
            self.read_block_args(args.root(), block, path)?;
        }
        self.add_scanned_args(s, resolved, block, scanned_args, path)?;
        if let Some(kwargs) = kwargs {
            self.read_block_kwargs(kwargs.root(), block, path)?;
        }
        Ok(block)
    }

    /// The arguments `args` of `block` as scanned (the block's path is
    /// `path`), in order.
    fn add_scanned_args(
        &mut self,
        s: &mut Stream<'a>,
        resolved: &mut Resolved,
        block: BlockId,
        args: &[ScannedResult<'a>],
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        for (i, arg) in args.iter().enumerate() {
            let ty = match self::resolved(&resolved.types, arg.ty) {
                Some(ty) => ty,
                None => {
                    let ty =
                        self.read_type_raw(s, arg.text, &path.key("args").index(i).key("TT"))?;
                    resolve(&mut resolved.types, arg.ty, ty);
                    ty
                }
            };
            let v = self.program.add_block_arg(block, ty);
            if let Some(id) = arg.id {
                self.bind_or(id, v, |m| invalid(&path.key("args").index(i).key("#"), m))?;
            }
        }
        Ok(())
    }

    /// Builds a parameter op from its scanned parts: the flags of `A`, its
    /// name, the entries of `DA` and `QA`, the flags of `OA`, its result.
    /// Gives the op, its result's type and its attributes.
    fn build_parameter(
        &mut self,
        s: &mut Stream<'a>,
        resolved: &mut Resolved,
        (flags, name, lists, output_flags, result): ScannedParameter<'_, 'a>,
        path: &JsonPath<'_>,
    ) -> Result<(OpId, Type, AttrDict), ReadError> {
        let ty = self.result_type(s, resolved, result, path, None)?;
        let syms = self.syms();
        self.attrs.clear();
        for (&value, (slot, _)) in flags.iter().zip(param_form::A_FLAGS) {
            self.attrs.push((syms.get(slot), syms.flag(value)));
        }
        let name_attr = StrAttr::get(&self.ctx, name);
        self.attrs.push((syms.get(Slot::ParameterName), name_attr));
        // Nearly always empty (Paddle's short form writes `[]`).
        for (entries, key) in lists.into_iter().zip(["DA", "QA"]) {
            if !entries.is_empty() {
                self.read_attr_entries(s, resolved, entries, &path.key(key))?;
            }
        }
        for (&value, (slot, _)) in output_flags.iter().flatten().zip(param_form::OA_FLAGS) {
            self.attrs.push((syms.get(slot), syms.flag(value)));
        }
        let attrs = self.ctx.dict(&self.attrs);
        let op = self.program.create_op(syms.op, &[], &[ty], attrs, 0);
        if let Some(id) = result.id {
            let v = self.program.result(op, 0);
            self.bind_or(id, v, |m| invalid(&path.key("O").key("%"), m))?;
        }
        self.plain_ops += 1;
        Ok((op, ty, attrs))
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
        self.check_known(name, path)?;
        self.lookup_operands(part(&batch.operands, &op.operands), path, scratch)?;
        let results = part(&batch.results, &op.results);
        for (i, result) in results.iter().enumerate() {
            let ty = self.result_type(s, resolved, result, path, Some(i))?;
            scratch.result_types.push(ty);
        }
        let attrs = self.build_dict(s, batch, resolved, op, path)?;
        let regions = op.regions as usize;
        if let Err(e) = pir_core::program::check_op_shape(scratch.result_types.len(), regions) {
            return Err(invalid(path, e.to_string()));
        }
        let created = self.program.create_op(
            name,
            &scratch.operands,
            &scratch.result_types,
            attrs,
            regions,
        );
        self.bind_results(created, results.iter().map(|r| r.id), path)?;
        if let Some(lists) = op.learn {
            let text = op.name.1.get(1..op.name.1.len() - 1).unwrap_or_default();
            let operands = op.operands.len();
            self.learn_template(
                (name, text),
                lists,
                operands,
                results,
                &scratch.result_types,
                attrs,
            );
        }
        self.plain_ops += 1;
        Ok(created)
    }

    /// Fails on an op name no op is registered under, when the options
    /// are strict.
    #[inline(always)]
    pub(super) fn check_known(&self, name: Symbol, path: &JsonPath<'_>) -> Result<(), ReadError> {
        if self.options.strict && self.ctx.op_info(name).is_none() {
            let text = self.ctx.symbol_str(name);
            return Err(invalid(&path.key("#"), format!("unknown op `{text}`")));
        }
        Ok(())
    }

    /// The values of the operand ids `ids` of the op at `path`, into
    /// `scratch.operands`.
    #[inline(always)]
    pub(super) fn lookup_operands(
        &self,
        ids: &[i64],
        path: &JsonPath<'_>,
        scratch: &mut Scratch,
    ) -> Result<(), ReadError> {
        // Paths are made only for errors: most ids are found at once.
        for (i, &id) in ids.iter().enumerate() {
            let value = self.lookup_or(id, |m| invalid(&path.key("I").index(i).key("%"), m))?;
            scratch.operands.push(value);
        }
        Ok(())
    }

    /// Binds the result ids `ids` (`None`: not written) of the op at
    /// `path` to the results of `created`.
    #[inline(always)]
    pub(super) fn bind_results(
        &mut self,
        created: OpId,
        ids: impl Iterator<Item = Option<i64>>,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        for (i, id) in ids.enumerate() {
            if let Some(id) = id {
                let v = self.program.result(created, i);
                self.bind_or(id, v, |m| invalid(&path.key("O").index(i).key("%"), m))?;
            }
        }
        Ok(())
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

/// A scanned parameter op's parts (see [`Scanned::Parameter`]), its
/// entry lists resolved.
type ScannedParameter<'b, 'a> = (
    &'b [bool; 3],
    &'a str,
    [&'b [ScannedEntry<'a>]; 2],
    &'b Option<[bool; 3]>,
    &'b ScannedResult<'a>,
);

/// An op's operands and result types as they are built, in buffers reused across ops.
pub(super) struct Scratch {
    pub(super) operands: Vec<Option<pir_core::ValueId>>,
    pub(super) result_types: Vec<Type>,
}

impl Scratch {
    /// Empties both buffers for the next op.
    fn clear(&mut self) {
        self.operands.clear();
        self.result_types.clear();
    }
}
