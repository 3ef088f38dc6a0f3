//! The first half of reading an op in Paddle's layout: its parts delimited
//! and numbered, nothing decoded or interned. The second half
//! ([`Reader::build_batch`](super::Reader)) turns them into the program's op
//! in file order, so a scan may run ahead on another thread (see
//! [`threads`](super::threads)) and the context still interns everything in
//! the order one thread would.

use std::ops::Range;
use std::sync::Arc;

use pir_json::{Open, Stream};
use rustc_hash::FxHashMap;

use super::compact::{
    compact_dense_type, compact_input, compact_items, compact_operands, eat, eat_plain_string,
    plain_string,
};
use super::tables::{
    emptied, emptied_table, room_bytes, slot, small_table_room, with_room, Recent,
};
use super::template::{TemplateUse, Templates};
use super::template_lent::Seeds;
use crate::error::ReadError;
use crate::param_form;

/// A scanner's number for a distinct op name, type text, attribute entry or
/// pair of attribute lists, dense from 0 in order of first appearance.
pub(super) type TextId = u32;

/// Which attribute list of an op: `A`, `OA`, or a parameter's `DA`, `QA`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum AttrListId {
    A,
    Oa,
    Da,
    Qa,
}

/// The two pairs of `A`/`OA` texts an op kind had last, and their numbers.
type RecentDicts<'a> = Recent<(&'a str, &'a str, Option<TextId>)>;

#[path = "scan_batch.rs"]
mod batch;
#[path = "scan_lists.rs"]
mod lists;
#[path = "scan_parameter.rs"]
mod parameter;
#[path = "scan_regions.rs"]
mod regions;

pub(super) use batch::{Batch, PlainOp, Scanned, ScannedDict, ScannedResult};
use lists::{AttrList, KeptList};

/// The name id the parameter op's lists and result are remembered under.
const PARAMETER: TextId = TextId::MAX;

/// An attribute entry's text and the scanner's number of it; entries of a
/// plain string attribute are not numbered (see
/// [`compact_str_entry`](super::compact::compact_str_entry)).
pub(super) type ScannedEntry<'a> = (&'a str, Option<TextId>);

/// A plain op's fields after its name, as scanned.
struct Fields<'a> {
    a: AttrList<'a>,
    oa: Option<AttrList<'a>>,
    /// Its operands' value ids in [`Batch::operands`].
    operands: Range<u32>,
    /// Its results in [`Batch::results`].
    results: Range<u32>,
    /// Whether `,"regions":[` follows its `OA` list.
    regions: bool,
}

/// The scanner's tables: what it numbered, and the texts each place of an op
/// kind had last (ops of one kind mostly repeat them, so most parts are
/// matched by comparing bytes rather than delimited and hashed).
#[derive(Default)]
pub(super) struct Scanner<'a> {
    names: FxHashMap<&'a str, TextId>,
    /// Names numbered lately, by their length and last byte: a model has
    /// a few op kinds in turn, found here by one comparison, not a hash.
    recent_names: [Option<(&'a str, TextId)>; 16],
    types: FxHashMap<&'a str, TextId>,
    next_dict: TextId,
    /// What each op name's places held last, by the name's number: names
    /// are numbered densely, so a place is found by indexing, not hashing
    /// (a few places per op).
    memos: Vec<Memo<'a>>,
    /// [`Memo`] of the parameter op.
    parameter_memo: Memo<'a>,
    /// Each op name's templates' use in this read, by the name's number,
    /// apart from the memos: a kind its template serves needs no memo.
    template_uses: Vec<TemplateUse>,
    /// The parameter op's.
    parameter_template: TemplateUse,
    /// The last two types of any op's results, and the last two numbered
    /// entries of any op's lists of each kind: an op kind met for the
    /// first time, which its own memo cannot help, mostly repeats what
    /// other kinds had (a result's type, `stop_gradient`), and in a small
    /// model most ops are the first of their kind.
    shared_types: Recent<(&'a str, TextId)>,
    shared_entries: [Recent<ScannedEntry<'a>>; 4],
    /// Attribute entries other than plain strings, numbered: most hit the
    /// memo, which hands the builder their number, so it finds what it
    /// decoded by index rather than by hashing the text again.
    entries: FxHashMap<&'a str, TextId>,
    /// How many region ops the op at hand is inside (see [`regions`]).
    depth: u32,
    /// How many ops other than parameters were scanned, and how many of
    /// them matched a template: whether the model is one read again (see
    /// [`threads`](super::threads)).
    named_ops: usize,
    templated_ops: usize,
    /// Where the counts of ops by kind start, for a scanner starting at a
    /// cut (see [`template_lent`](super::template_lent)).
    seeds: Option<Arc<Seeds>>,
}

impl Scanner<'_> {
    /// A scanner with room for the texts of about `ops` ops (see
    /// [`small_table_room`]).
    pub(super) fn with_capacity(ops: usize) -> Self {
        let room = small_table_room(ops);
        Scanner {
            names: with_room(room),
            recent_names: [None; 16],
            types: with_room(room),
            next_dict: 0,
            memos: Vec::with_capacity(room),
            parameter_memo: Memo::default(),
            template_uses: Vec::with_capacity(room),
            parameter_template: TemplateUse::default(),
            shared_types: Recent::default(),
            shared_entries: Default::default(),
            entries: with_room(room),
            depth: 0,
            named_ops: 0,
            templated_ops: 0,
            seeds: None,
        }
    }
}

impl<'a> Scanner<'a> {
    /// A scanner with room for the texts of about `ops` ops, whose tables
    /// of texts are `tables`: empty, the room an earlier scanner left (see
    /// [`Scanner::take_tables`]).
    ///
    /// Inlined so the reader's scanner is built in place: returned, the
    /// kilobyte it is was made on the stack, then copied into the reader.
    #[inline(always)]
    pub(super) fn with_tables(ops: usize, tables: ScannerTables<'a>) -> Self {
        let room = small_table_room(ops);
        let ScannerTables {
            texts: [mut names, mut types, mut entries],
            mut memos,
            mut template_uses,
        } = tables;
        names.reserve(room);
        types.reserve(room);
        entries.reserve(room);
        memos.reserve(room);
        template_uses.reserve(room);
        // Every field spelled out: with `..Scanner::default()`, a default
        // scanner (a kilobyte) was made, then copied.
        Scanner {
            names,
            recent_names: [None; 16],
            types,
            next_dict: 0,
            memos,
            parameter_memo: Memo::default(),
            template_uses,
            parameter_template: TemplateUse::default(),
            shared_types: Recent::default(),
            shared_entries: Default::default(),
            entries,
            depth: 0,
            named_ops: 0,
            templated_ops: 0,
            seeds: None,
        }
    }

    /// Counts ops by kind from `seeds` (for a scanner starting at a cut).
    pub(super) fn seeded(&mut self, seeds: Arc<Seeds>) {
        self.parameter_template.start_at(seeds.parameters());
        self.seeds = Some(seeds);
    }

    /// How many ops of each kind this scanner has met, at the cut `at` of a
    /// text of `len` bytes.
    pub(super) fn seeds(&self, len: usize, at: usize) -> Seeds {
        let kinds = self
            .template_uses
            .iter()
            .filter_map(|used| match used.met() {
                (Some(kind), count) => Some((kind, count)),
                (None, _) => None,
            });
        Seeds::new(len, at, kinds, self.parameter_template.met().1)
    }

    /// How many ops other than parameters were scanned, and how many of
    /// them matched a template.
    pub(super) fn templated_share(&self) -> (usize, usize) {
        (self.named_ops, self.templated_ops)
    }

    /// Each op name's templates' use in this read, by the name's number.
    pub(super) fn template_uses(&self) -> &[TemplateUse] {
        &self.template_uses
    }

    /// Its tables, taken out (to be emptied for a scanner of another text).
    pub(super) fn take_tables(&mut self) -> ScannerTables<'a> {
        use std::mem::take;
        ScannerTables {
            texts: [
                take(&mut self.names),
                take(&mut self.types),
                take(&mut self.entries),
            ],
            memos: take(&mut self.memos),
            template_uses: take(&mut self.template_uses),
        }
    }
}

/// A [`Scanner`]'s tables: of texts (op names, types, attribute entries)
/// and of its memos by op name, whose room a read leaves to the next one
/// (made and freed at every read, the memos' list was 1 % of reading a
/// small model).
#[derive(Default)]
pub(super) struct ScannerTables<'a> {
    texts: [FxHashMap<&'a str, TextId>; 3],
    memos: Vec<Memo<'a>>,
    template_uses: Vec<TemplateUse>,
}

impl ScannerTables<'_> {
    /// Emptied, their room kept, for texts of any lifetime.
    pub(super) fn emptied(self) -> ScannerTables<'static> {
        let mut memos = self.memos;
        // Dropped in place: collected in place, each memo would be moved
        // out first.
        memos.clear();
        let mut template_uses = self.template_uses;
        template_uses.clear();
        ScannerTables {
            texts: self.texts.map(emptied_table),
            memos: emptied(memos),
            template_uses,
        }
    }

    /// The bytes of their room.
    pub(super) fn bytes(&self) -> usize {
        let table = |len: usize| len * (std::mem::size_of::<(&str, TextId)>() + 1);
        let texts: usize = self.texts.iter().map(|t| table(t.capacity())).sum();
        texts + room_bytes(&self.memos) + room_bytes(&self.template_uses)
    }
}

/// The last two texts (and numbers) each place of one op name held.
#[derive(Default)]
struct Memo<'a> {
    /// Of its outputs' types, by output index.
    types: Vec<Recent<(&'a str, TextId)>>,
    /// Of its pair of `A`/`OA` lists.
    dicts: RecentDicts<'a>,
    /// How many of its `A` and of its `OA` lists in a row were neither of
    /// the last two it had.
    list_misses: [u16; 2],
    /// Of its attribute entries, by list (`AttrListId as usize`) and index.
    entries: [Vec<Recent<ScannedEntry<'a>>>; 4],
    /// Its last `OA` list delimited entry by entry, with its entries: the
    /// `OA` list after a new `A` mostly repeats it (`stop_gradient`).
    oa: KeptList<'a>,
}

/// The length of `list` as a position in it.
pub(super) fn end_of<T>(list: &[T]) -> u32 {
    u32::try_from(list.len()).unwrap_or(u32::MAX)
}

impl<'a> Scanner<'a> {
    /// The memo of the op named `name`.
    fn memo(&mut self, name: TextId) -> &mut Memo<'a> {
        if name == PARAMETER {
            return &mut self.parameter_memo;
        }
        slot(&mut self.memos, name as usize)
    }

    /// Scans the op at the stream into `batch`, matching ops against
    /// their kinds' `templates` if given.
    pub(super) fn scan_op(
        &mut self,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
        templates: Option<&Templates>,
    ) -> Result<(), ReadError> {
        let start = s.offset();
        let marks = (
            batch.operands.len(),
            batch.results.len(),
            batch.entries.len(),
            batch.ops.len(),
        );
        if self.scan_fields(s, batch, templates)? {
            return Ok(());
        }
        batch.operands.truncate(marks.0);
        batch.results.truncate(marks.1);
        batch.entries.truncate(marks.2);
        if batch.ops.len() > marks.3 {
            // Regions scanned in part: the pairs of lists their ops
            // numbered are never built, so no later op may name them.
            batch.ops.truncate(marks.3);
            self.forget_dicts();
        }
        s.rewind(start);
        let doc = s.value()?;
        batch.ops.push(Scanned::Other(doc));
        Ok(())
    }

    /// A plain op or a parameter op pushed to `batch.ops` (true), or
    /// false for the others. Pushed here rather than returned: each
    /// scanned op was copied once more on its way.
    fn scan_fields(
        &mut self,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
        templates: Option<&Templates>,
    ) -> Result<bool, ReadError> {
        let mut object = s.begin_object()?;
        if s.next_key(&mut object)?.as_deref() != Some("#") {
            return Ok(false);
        }
        // Parameters, most ops of a model, are told by their name's text
        // alone, not delimited as a string first.
        if eat_plain_string(s, param_form::SHORT_NAME) {
            return self.scan_parameter(s, object, batch, templates);
        }
        let (raw_name, plain) = match plain_string(s) {
            Some(raw) => (raw, true),
            None => (s.raw_value()?, false),
        };
        let (name, text) = match raw_name.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            Some(param_form::SHORT_NAME) => {
                return self.scan_parameter(s, object, batch, templates)
            }
            Some(n) if !plain && n.contains('\\') => return Ok(false),
            Some(n) => (self.number_name(n), n),
            None => return Ok(false),
        };
        self.named_ops += 1;
        let mut learn_at = None;
        if let Some(templates) = templates {
            // A parameter's uses are `parameter_template`; `name` is no
            // parameter's.
            let seeds = self.seeds.as_deref();
            match slot(&mut self.template_uses, name as usize).scan(
                (templates, seeds),
                (name, text),
                s,
                batch,
            ) {
                Ok(op) => {
                    batch.ops.push(Scanned::Template(op));
                    self.templated_ops += 1;
                    return Ok(true);
                }
                Err(learn) => learn_at = learn,
            }
        }
        let at = s.offset();
        let marks = (
            batch.operands.len(),
            batch.results.len(),
            batch.entries.len(),
        );
        let mut learn = None;
        let fields = match self.compact_fields(s, name, batch) {
            Some(fields) => {
                // Templates hold texts in Paddle's compact form only.
                if let Some(at) = learn_at {
                    learn = Some((at, fields.a.text, fields.oa.as_ref().map(|oa| oa.text)));
                }
                fields
            }
            None => {
                // Read again field by field: the same values in the same order.
                batch.operands.truncate(marks.0);
                batch.results.truncate(marks.1);
                batch.entries.truncate(marks.2);
                s.rewind(at);
                match self.fields_by_key(s, object, name, batch)? {
                    Some(fields) => fields,
                    None => return Ok(false),
                }
            }
        };
        let dict = self.scan_dict(s, name, fields.a, fields.oa, batch)?;
        let op = PlainOp {
            name: (name, raw_name),
            operands: fields.operands,
            results: fields.results,
            dict,
            learn: learn.filter(|_| !fields.regions),
            regions: 0,
        };
        let at = batch.ops.len();
        batch.ops.push(Scanned::Plain(op));
        if !fields.regions {
            return Ok(true);
        }
        let Some(regions) = self.scan_regions(s, batch, templates)? else {
            return Ok(false);
        };
        if regions == 0 {
            // `"regions":[]`: an op without regions.
            return Ok(true);
        }
        if let Some(Scanned::Plain(op)) = batch.ops.get_mut(at) {
            op.regions = regions;
        }
        batch.ops.push(Scanned::EndRegions);
        Ok(true)
    }

    /// Forgets the pairs of attribute lists each op kind had last.
    fn forget_dicts(&mut self) {
        for memo in self.memos.iter_mut().chain([&mut self.parameter_memo]) {
            memo.dicts = Default::default();
        }
    }

    /// The fields of a plain op named `name` after its name, when its text is
    /// exactly as Paddle writes it: `,"A":[...],"I":[...],"O":[...],"OA":[...]}`
    /// (no white space, those keys in that order, `OA` optional, operands
    /// `{"%":id}`, results `{"%":id,"TT":type}`), or the same up to
    /// `,"regions":[` after `OA`, which the stream then stands after.
    /// Matched part by part, its keys and brackets cost a comparison each
    /// rather than a key read and a container each. `None`, with the stream
    /// and `batch` anywhere, for any other text (the caller reads it field
    /// by field from where it was).
    fn compact_fields(
        &mut self,
        s: &mut Stream<'a>,
        name: TextId,
        batch: &mut Batch<'a>,
    ) -> Option<Fields<'a>> {
        if !eat(s, br#","A":"#) {
            return None;
        }
        let a = self.scan_list_memo(s, name, false, None, batch).ok()?;
        if !eat(s, br#","I":["#) {
            return None;
        }
        let operands = compact_operands(s, &mut batch.operands)?;
        if !eat(s, br#","O":["#) {
            return None;
        }
        let first = end_of(&batch.results);
        let mut index = 0;
        compact_items(s, |s| {
            let result = self.compact_result(s, name, index)?;
            batch.results.push(result);
            index += 1;
            Some(())
        })?;
        let results = first..end_of(&batch.results);
        // Files saved untrainable have no `OA`.
        let oa = match eat(s, br#","OA":"#) {
            true => Some(self.scan_oa(s, name, &a, batch).ok()?),
            false => None,
        };
        let regions = match eat(s, b"}") {
            true => false,
            false => eat(s, br#","regions":["#).then_some(true)?,
        };
        Some(Fields {
            a,
            oa,
            operands,
            results,
            regions,
        })
    }

    /// The fields of a plain op named `name` after its name, read key by key
    /// (any order, white space, unknown keys skipped); `None` for ops this
    /// scanner leaves whole (regions, repeated or missing keys, other shapes).
    fn fields_by_key(
        &mut self,
        s: &mut Stream<'a>,
        mut object: Open,
        name: TextId,
        batch: &mut Batch<'a>,
    ) -> Result<Option<Fields<'a>>, ReadError> {
        let (mut a, mut oa, mut inputs, mut outputs) = (None, None, None, None);
        while let Some(key) = s.next_key(&mut object)? {
            match &*key {
                "I" if inputs.is_none() => {
                    let first = end_of(&batch.operands);
                    let mut list = s.begin_array()?;
                    while s.next_element(&mut list)? {
                        if let Some(id) = compact_input(s) {
                            batch.operands.push(id);
                            continue;
                        }
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
                        batch.operands.push(id);
                    }
                    inputs = Some(first..end_of(&batch.operands));
                }
                "O" if outputs.is_none() => {
                    let first = end_of(&batch.results);
                    let mut list = s.begin_array()?;
                    let mut index = 0;
                    while s.next_element(&mut list)? {
                        let Some(result) = self.scan_result(s, name, index)? else {
                            return Ok(None);
                        };
                        batch.results.push(result);
                        index += 1;
                    }
                    outputs = Some(first..end_of(&batch.results));
                }
                "A" if a.is_none() => a = Some(self.scan_list_memo(s, name, false, None, batch)?),
                "OA" if oa.is_none() => {
                    oa = Some(match &a {
                        Some(a) => self.scan_oa(s, name, a, batch)?,
                        None => self.scan_list_memo(s, name, true, None, batch)?,
                    });
                }
                "#" | "I" | "O" | "A" | "OA" | "regions" => return Ok(None),
                _ => s.skip()?,
            }
        }
        let (Some(a), Some(operands), Some(results)) = (a, inputs, outputs) else {
            return Ok(None);
        };
        Ok(Some(Fields {
            a,
            oa,
            operands,
            results,
            regions: false,
        }))
    }

    /// A result `{"%":id,"TT":type}` at the stream, output `index` of an op
    /// named `name`; `None` for other shapes.
    fn scan_result(
        &mut self,
        s: &mut Stream<'a>,
        name: TextId,
        index: usize,
    ) -> Result<Option<ScannedResult<'a>>, ReadError> {
        let start = s.offset();
        if let Some(result) = self.compact_result(s, name, index) {
            return Ok(Some(result));
        }
        s.rewind(start);
        let mut object = s.begin_object()?;
        let (mut id, mut ty) = (None, None);
        while let Some(key) = s.next_key(&mut object)? {
            match &*key {
                "%" if id.is_none() => match s.i64()? {
                    Some(v) => id = Some(v),
                    None => return Ok(None),
                },
                "TT" if ty.is_none() => ty = Some(self.scan_type(s, name, index)?),
                _ => return Ok(None),
            }
        }
        Ok(ty.map(|(ty, text)| ScannedResult { id, ty, text }))
    }

    /// [`scan_result`](Self::scan_result) of the text Paddle writes,
    /// `{"%":id,"TT":type}` with no white space; `None`, with the stream
    /// anywhere, for other text (read field by field from where it was, it
    /// meets the same values in the same order).
    fn compact_result(
        &mut self,
        s: &mut Stream<'a>,
        name: TextId,
        index: usize,
    ) -> Option<ScannedResult<'a>> {
        if !eat(s, br#"{"%":"#) {
            return None;
        }
        let id = s.i64().ok()??;
        if !eat(s, br#","TT":"#) {
            return None;
        }
        let (ty, text) = self.scan_type(s, name, index).ok()?;
        eat(s, b"}").then_some(ScannedResult {
            id: Some(id),
            ty,
            text,
        })
    }

    /// The type at the stream, output `index` of an op named `name`: the two
    /// texts that type had last are tried first, then the text is delimited
    /// and numbered.
    fn scan_type(
        &mut self,
        s: &mut Stream<'a>,
        name: TextId,
        index: usize,
    ) -> Result<(TextId, &'a str), ReadError> {
        let last = self
            .memo(name)
            .types
            .get(index)
            .copied()
            .unwrap_or_default();
        for (text, ty) in last.into_iter().flatten() {
            if s.skip_known(text) {
                return Ok((ty, text));
            }
        }
        let (raw, ty) = self.scan_any_type(s)?;
        *slot(&mut self.memo(name).types, index) = [Some((raw, ty)), last[0]];
        Ok((ty, raw))
    }

    /// The type at the stream, wherever it is: the last two types of any
    /// place are tried first, then the text is delimited and numbered.
    pub(super) fn scan_any_type(
        &mut self,
        s: &mut Stream<'a>,
    ) -> Result<(&'a str, TextId), ReadError> {
        let shared = self.shared_types;
        if let Some(found) = shared.into_iter().flatten().find(|t| s.skip_known(t.0)) {
            return Ok(found);
        }
        let raw = match compact_dense_type(s) {
            Some(raw) => raw,
            None => s.raw_value()?,
        };
        let next = TextId::try_from(self.types.len()).unwrap_or(TextId::MAX);
        let ty = *self.types.entry(raw).or_insert(next);
        self.shared_types = [Some((raw, ty)), shared[0]];
        Ok((raw, ty))
    }

    /// The number of the op name `name`.
    fn number_name(&mut self, name: &'a str) -> TextId {
        let last = name.as_bytes().last().copied().unwrap_or(0);
        let slot = (name.len() ^ usize::from(last).wrapping_mul(5)) % self.recent_names.len();
        if let Some(Some((text, id))) = self.recent_names.get(slot) {
            if *text == name {
                return *id;
            }
        }
        let id = self.number_new_name(name);
        if let Some(recent) = self.recent_names.get_mut(slot) {
            *recent = Some((name, id));
        }
        id
    }

    /// [`number_name`](Self::number_name) for a name not met lately; out
    /// of line, as most ops find their name among the recent ones.
    #[inline(never)]
    fn number_new_name(&mut self, name: &'a str) -> TextId {
        let next = TextId::try_from(self.names.len()).unwrap_or(PARAMETER);
        *self.names.entry(name).or_insert(next)
    }
}
