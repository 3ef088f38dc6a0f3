//! Reading a file in Paddle's layout as a [`Stream`], one value at a time (see
//! [`read_slice`](super::read_slice)).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use pir_core::builtin::StrAttr;
use pir_core::serial::{self, JsonPath};
use pir_core::{AttrDef, AttrDict, Attribute, BlockId, IrContext, OpId, Symbol, Type, ValueId};
use pir_json::{Open, Stream};

use super::{finish_program, invalid, read_header, LoadedProgram, ReadOptions, Reader};
use crate::error::ReadError;
use crate::param_form::{self, Slot};

/// An attribute list: its text and, once delimited, the range of its
/// entries' texts in `Reader::entry_texts`.
type AttrList<'a> = (&'a str, Option<Range<usize>>);

/// Which attribute list of an op: `A`, `OA`, or a parameter's `DA`, `QA`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum AttrListId {
    A,
    Oa,
    Da,
    Qa,
}

/// Reads a file laid out as Paddle writes it as a stream (see [`read_slice`]);
/// `None` when the layout is another one.
pub(super) fn read_streamed(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Option<LoadedProgram>, ReadError> {
    Ok(read_streamed_counting(ctx, bytes, options)?.map(|(loaded, _)| loaded))
}

/// [`read_streamed`], and how many ops were read field by field.
pub(super) fn read_streamed_counting(
    ctx: Arc<IrContext>,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Option<(LoadedProgram, usize)>, ReadError> {
    let top = JsonPath::Root("");
    let mut s = Stream::new(bytes)?;
    let mut root = s.begin_object()?;
    let (mut header, mut program, mut plain_ops) = (None, None, 0);
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
                );
                if !reader.read_program_streamed(&mut s, &top.key("program"))? {
                    return Ok(None);
                }
                plain_ops = reader.plain_ops;
                program = Some(reader.program);
            }
            "base_code" | "program" => return Ok(None),
            _ => s.skip()?,
        }
    }
    s.finish()?;
    match (header, program) {
        (Some(header), Some(program)) => {
            finish_program(program, &header, bytes).map(|p| Some((p, plain_ops)))
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
                        if !self.read_block_streamed(s, top, &blocks_path.index(0))? {
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
                    let mut i = 0;
                    while s.next_element(&mut list)? {
                        let op = self.read_op_streamed(s, &ops_path.index(i))?;
                        self.program.append_op(block, op);
                        i += 1;
                    }
                }
                "#" | "args" | "kwargs" | "ops" => return Ok(false),
                _ => s.skip()?,
            }
        }
        Ok(named && args && ops)
    }

    /// Reads the op at the stream. A plain op is read field by field, its types
    /// and attribute lists looked up by their text before any of it is parsed;
    /// parameter ops, ops with regions, ops of patched files and unusual layouts
    /// are read as one document.
    fn read_op_streamed(
        &mut self,
        s: &mut Stream<'a>,
        path: &JsonPath<'_>,
    ) -> Result<OpId, ReadError> {
        let start = s.offset();
        if self.patches.is_none() {
            let mut operands = std::mem::take(&mut self.operands);
            let mut result_types = std::mem::take(&mut self.result_types);
            let mut result_ids = std::mem::take(&mut self.result_ids);
            operands.clear();
            result_types.clear();
            result_ids.clear();
            self.entry_texts.clear();
            let plain =
                self.read_plain_op(s, path, &mut operands, &mut result_types, &mut result_ids);
            self.operands = operands;
            self.result_types = result_types;
            self.result_ids = result_ids;
            if let Some(op) = plain? {
                self.plain_ops += 1;
                return Ok(op);
            }
            s.rewind(start);
        }
        let doc = s.value()?;
        let op = self.read_op(doc.root(), path);
        s.recycle(doc);
        op
    }

    /// A plain op (see [`Self::read_op_streamed`]), or `None` for the others.
    fn read_plain_op(
        &mut self,
        s: &mut Stream<'a>,
        path: &JsonPath<'_>,
        operands: &mut Vec<Option<ValueId>>,
        result_types: &mut Vec<Type>,
        result_ids: &mut Vec<Option<i64>>,
    ) -> Result<Option<OpId>, ReadError> {
        let mut object = s.begin_object()?;
        if s.next_key(&mut object)?.as_deref() != Some("#") {
            return Ok(None);
        }
        let raw_name = s.raw_value()?;
        let name = match raw_name.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            Some(param_form::SHORT_NAME) => return self.read_parameter_streamed(s, object, path),
            Some(n) if n.contains('\\') => return Ok(None),
            Some(n) => match self.names.get(n) {
                Some(&sym) => sym,
                None => {
                    let doc = s.document(raw_name)?;
                    let sym = self.op_name(doc.root(), &path.key("#"));
                    s.recycle(doc);
                    sym?
                }
            },
            None => return Ok(None),
        };
        if self.options.strict && self.ctx.op_info(name).is_none() {
            return Ok(None);
        }
        let (mut a, mut oa, mut inputs, mut outputs) = (None, None, false, false);
        while let Some(key) = s.next_key(&mut object)? {
            match &*key {
                "I" if !inputs => {
                    inputs = true;
                    let inputs_path = path.key("I");
                    let mut list = s.begin_array()?;
                    while s.next_element(&mut list)? {
                        let mut input = s.begin_object()?;
                        if s.next_key(&mut input)?.as_deref() != Some("%") {
                            return Ok(None);
                        }
                        let Some(id) = s.i64()? else {
                            return Ok(None);
                        };
                        if s.next_key(&mut input)?.is_some() {
                            return Ok(None);
                        }
                        let ipath = inputs_path.index(operands.len());
                        operands.push(self.lookup(id, &ipath.key("%"))?);
                    }
                }
                "O" if !outputs => {
                    outputs = true;
                    let outputs_path = path.key("O");
                    let mut list = s.begin_array()?;
                    while s.next_element(&mut list)? {
                        let index = result_types.len();
                        let rpath = outputs_path.index(index);
                        let Some((id, ty)) = self.read_result(s, name, index, &rpath)? else {
                            return Ok(None);
                        };
                        result_types.push(ty);
                        result_ids.push(id);
                    }
                }
                "A" if a.is_none() => a = Some(self.read_attr_list_memo(s, name, false)?),
                "OA" if oa.is_none() => oa = Some(self.read_attr_list_memo(s, name, true)?),
                "#" | "I" | "O" | "A" | "OA" | "regions" => return Ok(None),
                _ => s.skip()?,
            }
        }
        let (Some(a), true, true) = (a, inputs, outputs) else {
            return Ok(None);
        };
        let attrs = self.read_attr_dict_raw(s, name, a, oa, path)?;
        if let Err(e) = pir_core::program::check_op_shape(result_types.len(), 0) {
            return Err(invalid(path, e.to_string()));
        }
        let op = self
            .program
            .create_op(name, operands, result_types, attrs, 0);
        let outputs_path = path.key("O");
        for (i, id) in result_ids.iter().enumerate() {
            if let Some(id) = *id {
                let v = self.program.result(op, i);
                self.bind(id, v, &outputs_path.index(i).key("%"))?;
            }
        }
        Ok(Some(op))
    }

    /// A result `{"%":id,"TT":type}` at the stream, output `index` of an op named
    /// `name` (`path` is the result's); `None` for other shapes.
    fn read_result(
        &mut self,
        s: &mut Stream<'a>,
        name: Symbol,
        index: usize,
        path: &JsonPath<'_>,
    ) -> Result<Option<(Option<i64>, Type)>, ReadError> {
        let mut object = s.begin_object()?;
        let (mut id, mut ty) = (None, None);
        while let Some(key) = s.next_key(&mut object)? {
            match &*key {
                "%" if id.is_none() => match s.i64()? {
                    Some(v) => id = Some(v),
                    None => return Ok(None),
                },
                "TT" if ty.is_none() => {
                    ty = Some(self.read_type_memo(s, name, index, &path.key("TT"))?);
                }
                _ => return Ok(None),
            }
        }
        Ok(ty.map(|ty| (id, ty)))
    }

    /// The short form of `builtin.parameter` (format spec §2.7) after its name,
    /// read field by field: `A` and `OA` hold integer flags and a plain name,
    /// `O` a result, `DA`/`QA` attribute lists. `None` for anything else
    /// (escaped keys or names, other keys, repeated keys, other shapes).
    fn read_parameter_streamed(
        &mut self,
        s: &mut Stream<'a>,
        mut object: Open,
        path: &JsonPath<'_>,
    ) -> Result<Option<OpId>, ReadError> {
        let (mut a, mut oa, mut da, mut qa, mut output) = (None, None, None, None, None);
        while let Some(key) = s.next_key(&mut object)? {
            let Cow::Borrowed(key) = key else {
                return Ok(None);
            };
            match key {
                "A" if a.is_none() => {
                    let mut list = s.begin_array()?;
                    let Some(flags) = read_flags(s, &mut list)? else {
                        return Ok(None);
                    };
                    if !s.next_element(&mut list)? {
                        return Ok(None);
                    }
                    // A name without escapes or control characters is its own text.
                    let raw = s.raw_value()?;
                    let name = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
                        Some(n) if n.bytes().all(|b| b >= 0x20 && b != b'\\' && b != b'"') => n,
                        _ => return Ok(None),
                    };
                    if s.next_element(&mut list)? {
                        return Ok(None);
                    }
                    a = Some((flags, name));
                }
                "OA" if oa.is_none() => {
                    let mut list = s.begin_array()?;
                    match read_flags(s, &mut list)? {
                        Some(flags) if !s.next_element(&mut list)? => oa = Some(flags),
                        _ => return Ok(None),
                    }
                }
                "DA" if da.is_none() => {
                    da = Some(self.read_attr_texts(s, self.syms.op, AttrListId::Da)?);
                }
                "QA" if qa.is_none() => {
                    qa = Some(self.read_attr_texts(s, self.syms.op, AttrListId::Qa)?);
                }
                "O" if output.is_none() => {
                    match self.read_result(s, self.syms.op, 0, &path.key("O"))? {
                        Some(result) => output = Some(result),
                        None => return Ok(None),
                    }
                }
                _ => return Ok(None),
            }
        }
        let (Some((flags, name)), Some((id, ty))) = (a, output) else {
            return Ok(None);
        };
        // The attributes in the whole-document reader's order: `A`, `DA`, `QA`, `OA`.
        self.attrs.clear();
        for (value, (slot, _)) in flags.into_iter().zip(param_form::A_FLAGS) {
            self.attrs
                .push((self.syms.get(slot), self.syms.flag(value)));
        }
        let name_attr = StrAttr::get(&self.ctx, name);
        self.attrs
            .push((self.syms.get(Slot::ParameterName), name_attr));
        for (list, key) in [(da, "DA"), (qa, "QA")] {
            if let Some((_, entries)) = list {
                self.read_attr_entries(s, entries, &path.key(key))?;
            }
        }
        for (value, (slot, _)) in oa.into_iter().flatten().zip(param_form::OA_FLAGS) {
            self.attrs
                .push((self.syms.get(slot), self.syms.flag(value)));
        }
        let attrs = self.ctx.dict(&self.attrs);
        let op = self.program.create_op(self.syms.op, &[], &[ty], attrs, 0);
        if let Some(id) = id {
            let v = self.program.result(op, 0);
            let opath = path.key("O");
            self.bind(id, v, &opath.key("%"))?;
        }
        Ok(Some(op))
    }

    /// A type from its text (a slice of the file), decoding each distinct text once.
    fn read_type_raw(
        &mut self,
        s: &mut Stream<'a>,
        raw: &'a str,
        path: &JsonPath<'_>,
    ) -> Result<Type, ReadError> {
        if let Some(&ty) = self.type_cache.get(raw) {
            return Ok(ty);
        }
        let doc = s.document(raw)?;
        let ty = serial::decode_type(&self.ctx, doc.root(), path);
        s.recycle(doc);
        let ty = ty?;
        self.type_cache.insert(raw, ty);
        Ok(ty)
    }

    /// The attribute list at the stream, `[{"AT":attr,"N":name}, ...]`, list
    /// `list` (see [`AttrListId`]) of an op named `name`: its text, and its
    /// entries' texts (unchecked) appended to `self.entry_texts`. Each entry is
    /// first matched against the two texts the same entry had last.
    fn read_attr_texts(
        &mut self,
        s: &mut Stream<'a>,
        name: Symbol,
        list: AttrListId,
    ) -> Result<(&'a str, Range<usize>), ReadError> {
        let mut open = s.begin_array()?;
        let start = s.offset() - 1;
        let first = self.entry_texts.len();
        let mut index = 0u32;
        while s.next_element(&mut open)? {
            let key = (name, list, index);
            let last = self.entry_memo.get(&key).copied().unwrap_or_default();
            let raw = match last.into_iter().flatten().find(|&text| s.skip_known(text)) {
                Some(text) => text,
                None => {
                    // Unchecked until its op is read: a text that is no value fails
                    // that op, and with it the whole stream.
                    let raw = s.raw_value()?;
                    self.entry_memo.insert(key, [Some(raw), last[0]]);
                    raw
                }
            };
            self.entry_texts.push(raw);
            index += 1;
        }
        let text = s.text().get(start..s.offset()).unwrap_or_default();
        Ok((text, first..self.entry_texts.len()))
    }

    /// An entry holding a string attribute, `{"AT":{"#":"0.a_str","D":"…"},"N":"…"}`
    /// exactly, with plain strings (no escapes or control characters): such text
    /// is valid as it stands, so it is read without a document. Models name
    /// every layer (`struct_name`), so these entries are the ones that repeat least.
    fn plain_str_entry(&self, raw: &str) -> Option<(Symbol, Attribute)> {
        let plain = |t: &str| t.bytes().all(|b| b >= 0x20 && b != b'\\' && b != b'"');
        let rest = raw
            .strip_prefix(r##"{"AT":{"#":""##)?
            .strip_prefix(StrAttr::JSON_IDS.first()?)?
            .strip_prefix(r#"","D":""#)?;
        let (value, rest) = rest.split_once('"')?;
        let name = rest.strip_prefix(r#"},"N":""#)?.strip_suffix(r#""}"#)?;
        if !(plain(value) && plain(name)) {
            return None;
        }
        Some((self.ctx.symbol(name), StrAttr::get(&self.ctx, value)))
    }

    /// The type at the stream, output `index` of an op named `name`: the two
    /// texts that type had last are tried first, as ops of one kind mostly
    /// repeat their types, then the text is delimited and looked up.
    fn read_type_memo(
        &mut self,
        s: &mut Stream<'a>,
        name: Symbol,
        index: usize,
        path: &JsonPath<'_>,
    ) -> Result<Type, ReadError> {
        let last = self
            .type_memo
            .get(&(name, index))
            .copied()
            .unwrap_or_default();
        for (text, ty) in last.into_iter().flatten() {
            if s.skip_known(text) {
                return Ok(ty);
            }
        }
        let raw = s.raw_value()?;
        let ty = self.read_type_raw(s, raw, path)?;
        self.type_memo
            .insert((name, index), [Some((raw, ty)), last[0]]);
        Ok(ty)
    }

    /// The `A` (or with `output`, the `OA`) list of an op named `name` at the
    /// stream: matched against the lists that op had last, else delimited.
    fn read_attr_list_memo(
        &mut self,
        s: &mut Stream<'a>,
        name: Symbol,
        output: bool,
    ) -> Result<AttrList<'a>, ReadError> {
        let start = s.offset();
        let last = self.dict_memo.get(&name).copied().unwrap_or_default();
        for (a, oa, _) in last.into_iter().flatten() {
            if s.skip_known(if output { oa } else { a }) {
                return Ok((s.text().get(start..s.offset()).unwrap_or_default(), None));
            }
        }
        let list = if output {
            AttrListId::Oa
        } else {
            AttrListId::A
        };
        let (text, entries) = self.read_attr_texts(s, name, list)?;
        Ok((text, Some(entries)))
    }

    /// An op's attribute dictionary from its `A` and `OA` lists: the pairs the
    /// op named `name` had last, then each distinct pair of texts decoded once.
    fn read_attr_dict_raw(
        &mut self,
        s: &mut Stream<'a>,
        name: Symbol,
        a: AttrList<'a>,
        oa: Option<AttrList<'a>>,
        path: &JsonPath<'_>,
    ) -> Result<AttrDict, ReadError> {
        let key = (a.0, oa.as_ref().map_or("", |oa| oa.0));
        let last = self.dict_memo.get(&name).copied().unwrap_or_default();
        if let Some((_, _, dict)) = last.into_iter().flatten().find(|m| (m.0, m.1) == key) {
            return Ok(dict);
        }
        let dict = match self.dict_cache.get(key) {
            Some(dict) => dict,
            None => {
                self.attrs.clear();
                let a_entries = self.attr_entries_of(s, name, a, AttrListId::A)?;
                self.read_attr_entries(s, a_entries, &path.key("A"))?;
                if let Some(oa) = oa {
                    let oa_entries = self.attr_entries_of(s, name, oa, AttrListId::Oa)?;
                    self.read_attr_entries(s, oa_entries, &path.key("OA"))?;
                }
                let dict = self.ctx.dict(&self.attrs);
                self.dict_cache.insert(key, dict);
                dict
            }
        };
        self.dict_memo
            .insert(name, [Some((key.0, key.1, dict)), last[0]]);
        Ok(dict)
    }

    /// The range of `list`'s entries in `self.entry_texts`, delimiting them
    /// now if they were not.
    fn attr_entries_of(
        &mut self,
        s: &mut Stream<'a>,
        name: Symbol,
        (text, entries): AttrList<'a>,
        id: AttrListId,
    ) -> Result<Range<usize>, ReadError> {
        if let Some(entries) = entries {
            return Ok(entries);
        }
        let resume = s.offset();
        s.rewind(s.offset_of(text));
        let read = self.read_attr_texts(s, name, id);
        s.rewind(resume);
        Ok(read?.1)
    }

    /// The attribute entries `self.entry_texts[entries]` (`{"AT":…,"N":…}`) into
    /// `self.attrs`, decoding each distinct entry text once. Plain string
    /// entries are read from their text every time instead: they are the
    /// ones models repeat least, so a table of them would grow by about one
    /// entry per op for few hits.
    fn read_attr_entries(
        &mut self,
        s: &mut Stream<'a>,
        entries: Range<usize>,
        path: &JsonPath<'_>,
    ) -> Result<(), ReadError> {
        for (i, k) in entries.enumerate() {
            let Some(&raw) = self.entry_texts.get(k) else {
                continue;
            };
            if let Some(entry) = self.plain_str_entry(raw) {
                self.attrs.push(entry);
                continue;
            }
            if let Some(&cached) = self.entry_cache.get(raw) {
                self.attrs.push(cached);
                continue;
            }
            let doc = s.document(raw)?;
            let entry = self.read_attr_entry(doc.root(), &path.index(i));
            s.recycle(doc);
            let entry = entry?;
            self.attrs.push(entry);
            self.entry_cache.insert(raw, entry);
        }
        Ok(())
    }
}

/// Three integer flags (non-zero is true) of an open array, or `None` when
/// the array holds fewer or other values.
fn read_flags(s: &mut Stream<'_>, list: &mut Open) -> Result<Option<[bool; 3]>, ReadError> {
    let mut flags = [false; 3];
    for flag in &mut flags {
        if !s.next_element(list)? {
            return Ok(None);
        }
        match s.i64()? {
            Some(v) => *flag = v != 0,
            None => return Ok(None),
        }
    }
    Ok(Some(flags))
}
