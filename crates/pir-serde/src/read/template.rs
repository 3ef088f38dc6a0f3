//! Op kinds' templates: the text of an op but for its value ids, as Paddle
//! writes it, with what it decoded to, kept in the context between reads
//! (see [`Kept`](super::Kept)).
//!
//! In a small model most ops are the first of their kind in the file, which
//! the scanner's memos (see [`scan`](super::scan)) cannot help: each of
//! their attribute entries and types is delimited, numbered, then looked up
//! again by the builder (about 5 000 instructions an op). A context that
//! reads models again, or models built from the same layers, meets the same
//! texts: an op whose text but for its ids is byte for byte its kind's
//! template's is the template's op with its own operands and result ids,
//! built from the template's handles without delimiting or looking up any
//! of its parts; the text is matched a piece between two ids at a time.
//! Parameter ops, each named differently, have templates by their place
//! among the file's parameters, matched but for their result's id: a model
//! read again finds all of its own. Equal texts decode to equal values in
//! one context (the reader is deterministic and the context's handles
//! never change), so the program is the one the full read builds.
//!
//! Templates are learnt from a context's second read on (a process that
//! reads one model never uses them): the first [`PER_KIND`] ops of each
//! kind a read builds from compact text, where the template of their place
//! among the kind's ops is missing or did not match; one copy of an op's
//! texts at the most. A kind whose first [`PER_KIND`] ops all matched in a
//! read is one of a model read again: its later ops are learnt as well (up
//! to [`MOST_PLACES`]), so from the next read on none of the model's ops is
//! delimited, while reading models that differ learns no more than before.

use std::ops::Range;

use pir_core::serial::JsonPath;
use pir_core::{AttrDict, Symbol, Type};
use pir_json::Stream;
use rustc_hash::FxHashMap;

use super::build::Scratch;
use super::compact::eat;
use super::scan::{end_of, Batch, ScannedResult, TextId};
use super::template_lent::Seeds;
use super::Reader;
use crate::error::ReadError;

/// An op kind's texts and what they decoded to.
pub(super) struct Template {
    name: Symbol,
    /// The op's text after its name through its closing brace, as Paddle
    /// writes it, without its operand and result ids: each is at its hole.
    /// A plain op's `A` list, its operands, results and their types, then
    /// its `OA` list if any; a parameter op's short form around its
    /// result's id. Everything but the ids is what the op decodes to.
    text: Box<str>,
    /// Where in `text` the ids go, in order: the operands', then the
    /// results'.
    holes: Box<[u32]>,
    /// How many of the holes are the operands'.
    operands: u32,
    /// The results' types.
    types: Box<[Type]>,
    dict: AttrDict,
}

impl Template {
    /// The bytes it holds, about.
    fn bytes(&self) -> usize {
        self.text.len() + (self.holes.len() + self.types.len()) * 4 + 96
    }

    /// The op's fields after its name at the stream when they are this
    /// template's text with an integer at each hole: the ids are
    /// appended to `batch.operands`, and the ranges of the operands' and
    /// the results' there returned. `None`, with the stream and `batch`
    /// anywhere, for any other text.
    fn scan<'a>(
        &self,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
    ) -> Option<(Range<u32>, Range<u32>)> {
        let first = end_of(&batch.operands);
        let text = self.text.as_bytes();
        let mut from = 0;
        for &hole in &*self.holes {
            // Each piece after a hole starts with `,` or `}`: an id that
            // is not a whole integer (`1.5`, `1e3`) leaves a byte it does
            // not match.
            if !eat(s, text.get(from..hole as usize)?) {
                return None;
            }
            batch.operands.push(s.i64().ok()??);
            from = hole as usize;
        }
        if !eat(s, text.get(from..)?) {
            return None;
        }
        let split = first + self.operands;
        Some((first..split, split..end_of(&batch.operands)))
    }
}

/// A template's text as it is written: pieces, and holes where ids go.
#[derive(Default)]
struct TextWithHoles {
    text: String,
    holes: Vec<u32>,
}

impl TextWithHoles {
    fn piece(&mut self, piece: &str) -> &mut Self {
        self.text.push_str(piece);
        self
    }

    fn hole(&mut self) -> &mut Self {
        self.holes.push(end_of(self.text.as_bytes()));
        self
    }
}

/// The templates a context keeps: by op name, then by the op's place
/// among the ops of its name in the file (the first [`PER_KIND`] of them,
/// and later ones of a model read again).
/// Ops of a kind differ in their attributes (each `fetch` its name and
/// column, each layer its `struct_name`), but a model read again, or
/// another model built alike, repeats them in the same order.
#[derive(Default)]
pub(super) struct Templates {
    by_name: FxHashMap<Box<str>, u32>,
    /// Each kind's name and templates, by the kind's number.
    kinds: Vec<Kind>,
    /// The kind of each op name the last read found one for, by the
    /// name's number in the scanner (plus one; 0 for none): a model read
    /// again numbers its names alike, so its kinds are found by comparing
    /// their names rather than hashing them.
    hints: Vec<u32>,
    /// Parameter ops' templates, by the op's place among the parameters
    /// of the file (the first [`PER_PARAMETER_KIND`]): each holds its own
    /// name, so a model's parameters repeat only when it is read again.
    parameters: Vec<Option<Template>>,
    bytes: usize,
    /// Whether a read of the context has ended: the first read of a
    /// context neither matches nor learns (a process that reads one model
    /// would pay for copies it never uses, 4-9 % of that read).
    warm: bool,
}

/// An op kind's name and the templates of its first ops (see [`PER_KIND`]).
struct Kind {
    name: Box<str>,
    templates: Vec<Option<Template>>,
}

/// Templates learnt per op kind whatever a read matched: the first ops of
/// a kind in a file. The scanner's memos serve the later ones, mostly
/// repeats, unless the model is read again (see [`MOST_PLACES`]).
const PER_KIND: usize = 16;

/// Parameter ops' templates learnt whatever a read matched (see
/// [`Templates::parameters`]).
const PER_PARAMETER_KIND: usize = 1024;

/// Templates kept per op kind, parameters included, at the most: those past
/// the first [`PER_KIND`] (or [`PER_PARAMETER_KIND`]) are learnt only when
/// all of those matched in the read, as when a model is read again. A
/// model's kinds rarely hold more ops; [`Templates::MAX_BYTES`] bounds them
/// all.
const MOST_PLACES: u16 = 8192;

/// The kind [`TemplateOp::kind`] gives parameter ops.
const PARAMETER_KIND: u32 = u32::MAX;

impl Templates {
    /// Kinds kept at the most: models use a few hundred.
    pub(super) const MAX_KINDS: usize = 4096;
    /// Bytes kept at the most (lists of a few hundred bytes an op).
    const MAX_BYTES: usize = 8 << 20;

    /// Whether templates past their kinds' first places are still learnt:
    /// while a few more kilobytes fit within [`MAX_BYTES`](Self::MAX_BYTES).
    fn has_room(&self) -> bool {
        self.bytes + (4 << 10) <= Self::MAX_BYTES
    }

    /// Whether the templates hold all they may: a model read again may
    /// then have ops of no template past the first megabytes.
    pub(super) fn full(&self) -> bool {
        !self.has_room()
    }

    /// The bytes held, about.
    pub(super) fn bytes(&self) -> usize {
        self.bytes + self.hints.capacity() * 4
    }

    /// The kind of the op name `name`, numbered `number` by the scanner.
    fn kind_of(&self, number: TextId, name: &str) -> Option<u32> {
        let hint = self
            .hints
            .get(number as usize)
            .and_then(|h| h.checked_sub(1));
        if let Some(kind) = hint {
            if self
                .kinds
                .get(kind as usize)
                .is_some_and(|k| *k.name == *name)
            {
                return Some(kind);
            }
        }
        self.by_name.get(name).copied()
    }

    /// Notes the kinds a read found for its op names, `uses` by the
    /// names' numbers, as hints for the next read.
    pub(super) fn remember_kinds(&mut self, uses: &[TemplateUse]) {
        let uses = uses.get(..Self::MAX_KINDS).unwrap_or(uses);
        if self.hints.len() < uses.len() {
            self.hints.resize(uses.len(), 0);
        }
        for (hint, used) in self.hints.iter_mut().zip(uses) {
            if let Some(kind) = used.kind {
                *hint = kind + 1;
            }
        }
    }

    /// The templates for a read to match and learn, unless no read of the
    /// context has ended yet.
    pub(super) fn in_use(&self) -> Option<&Self> {
        self.warm.then_some(self)
    }

    /// Notes that a read of the context has ended.
    pub(super) fn read_ended(&mut self) {
        self.warm = true;
    }

    /// Keeps `template` as the one of the `occurrence`th op named `name`,
    /// replacing the one it had, while the bounds allow.
    pub(super) fn learn(&mut self, name: &str, occurrence: usize, template: Template) {
        let bytes = template.bytes();
        let kind = match self.by_name.get(name) {
            Some(&kind) => kind as usize,
            None => {
                let kind = self.kinds.len();
                let room = self.bytes + bytes + name.len() <= Self::MAX_BYTES;
                let Ok(number) = u32::try_from(kind) else {
                    return;
                };
                if kind >= Self::MAX_KINDS || !room {
                    return;
                }
                self.by_name.insert(name.into(), number);
                self.kinds.push(Kind {
                    name: name.into(),
                    templates: Vec::new(),
                });
                self.bytes += 2 * name.len() + 64;
                kind
            }
        };
        let Some(Kind {
            templates: list, ..
        }) = self.kinds.get_mut(kind)
        else {
            return;
        };
        Self::keep(list, &mut self.bytes, occurrence, template);
    }

    /// Keeps `template` at `occurrence` in `list`, replacing the one it
    /// had, while the bounds allow; `bytes` counts what the templates
    /// hold, their places included.
    fn keep(
        list: &mut Vec<Option<Template>>,
        bytes: &mut usize,
        occurrence: usize,
        template: Template,
    ) {
        if occurrence >= usize::from(MOST_PLACES) {
            return;
        }
        if list.len() <= occurrence {
            let places = (occurrence + 1 - list.len()) * std::mem::size_of::<Option<Template>>();
            if *bytes + places > Self::MAX_BYTES {
                return;
            }
            list.resize_with(occurrence + 1, || None);
            *bytes += places;
        }
        let Some(slot) = list.get_mut(occurrence) else {
            return;
        };
        let held = *bytes - slot.as_ref().map_or(0, Template::bytes);
        let needed = template.bytes();
        if held + needed <= Self::MAX_BYTES {
            *slot = Some(template);
            *bytes = held + needed;
        }
    }

    /// Keeps `template` as the one of the `occurrence`th parameter op,
    /// replacing the one it had, while the bounds allow.
    pub(super) fn learn_parameter(&mut self, occurrence: usize, template: Template) {
        Self::keep(&mut self.parameters, &mut self.bytes, occurrence, template);
    }

    /// The template of `op`.
    fn get(&self, op: &TemplateOp) -> Option<&Template> {
        let list = match op.kind {
            PARAMETER_KIND => &self.parameters,
            kind => &self.kinds.get(kind as usize)?.templates,
        };
        list.get(usize::from(op.occurrence))?.as_ref()
    }
}

/// What a scanner knows of one op kind's templates during a read.
#[derive(Clone, Copy)]
pub(super) struct TemplateUse {
    /// Whether the kind's templates were looked for, and their number in
    /// [`Templates`] if found.
    looked_up: bool,
    kind: Option<u32>,
    /// How many ops of the kind were scanned.
    occurrences: u16,
    /// The places past which no template is matched or learnt:
    /// [`MOST_PLACES`], or once a template of the first [`PER_KIND`] (for
    /// parameters, [`PER_PARAMETER_KIND`]) places missed, those.
    places: u16,
}

impl Default for TemplateUse {
    fn default() -> Self {
        TemplateUse {
            looked_up: false,
            kind: None,
            occurrences: 0,
            places: MOST_PLACES,
        }
    }
}

/// An op matched against its kind's template.
pub(super) struct TemplateOp {
    /// The template's kind and place in [`Templates`].
    kind: u32,
    occurrence: u16,
    /// Its operand ids, then its result ids, in [`Batch::operands`].
    pub(super) operands: Range<u32>,
    pub(super) results: Range<u32>,
}

impl TemplateUse {
    /// The op named `name`, numbered by the scanner, at the stream, after
    /// its name, when the template of its place among the ops of its kind
    /// matches it
    /// (`Ok`); `None`, with the stream and `batch` where they were,
    /// otherwise (`Err`), with whether a template is to be learnt from
    /// it: its place has none or another.
    /// A scanner starting at a cut counts from `seeds` (see
    /// [`template_lent`](super::template_lent)).
    #[inline(always)]
    pub(super) fn scan<'a>(
        &mut self,
        (templates, seeds): (&Templates, Option<&Seeds>),
        (number, name): (TextId, &str),
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
    ) -> Result<TemplateOp, Option<usize>> {
        if !self.looked_up {
            self.looked_up = true;
            self.kind = templates.kind_of(number, name);
            if let (Some(kind), Some(seeds)) = (self.kind, seeds) {
                self.occurrences = seeds.of_kind(kind);
            }
        }
        let occurrence = self.next_occurrence()?;
        let matched = match self.kind {
            Some(kind) => Self::match_template(templates, kind, occurrence, s, batch),
            None => Err(Some(occurrence)),
        };
        matched.map_err(|learn| self.missed(learn, PER_KIND, templates))
    }

    /// [`scan`](Self::scan) for a parameter op (its short form), whose
    /// templates go by its place among the file's parameters.
    #[inline(always)]
    pub(super) fn scan_parameter<'a>(
        &mut self,
        templates: &Templates,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
    ) -> Result<TemplateOp, Option<usize>> {
        let occurrence = self.next_occurrence()?;
        Self::match_template(templates, PARAMETER_KIND, occurrence, s, batch)
            .map_err(|learn| self.missed(learn, PER_PARAMETER_KIND, templates))
    }

    /// The kind's number in [`Templates`], if it has one, and how many of
    /// its ops were scanned.
    pub(super) fn met(&self) -> (Option<u32>, u16) {
        (self.kind, self.occurrences)
    }

    /// Counts from `occurrences` ops already met.
    pub(super) fn start_at(&mut self, occurrences: u16) {
        self.occurrences = occurrences;
    }

    /// The op's place among the ops of its kind, counted; `Err(None)` (no
    /// template, none to learn) past the kind's [`places`](Self::places).
    #[inline(always)]
    fn next_occurrence(&mut self) -> Result<usize, Option<usize>> {
        let occurrence = usize::from(self.occurrences);
        if occurrence >= usize::from(self.places) {
            return Err(None);
        }
        self.occurrences += 1;
        Ok(occurrence)
    }

    /// `learn`, the place to learn of an op no template matched: when it
    /// is one of the first `always`, the model is not one read again, and
    /// the kind's later places are left to the scanner's memos; a later
    /// place is learnt while `templates` have room (once they are full,
    /// each read would make its template only to drop it).
    fn missed(
        &mut self,
        learn: Option<usize>,
        always: usize,
        templates: &Templates,
    ) -> Option<usize> {
        let occurrence = learn?;
        if occurrence < always {
            self.places = self.places.min(u16::try_from(always).unwrap_or(u16::MAX));
            return learn;
        }
        templates.has_room().then_some(occurrence)
    }

    /// The template of `kind` at `occurrence` matched; on no match, the
    /// stream and `batch` as they were and the place to learn.
    #[inline(never)]
    fn match_template<'a>(
        templates: &Templates,
        kind: u32,
        occurrence: usize,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
    ) -> Result<TemplateOp, Option<usize>> {
        let mut op = TemplateOp {
            kind,
            // Below `MOST_PLACES`, a `u16` (see `next_occurrence`).
            occurrence: occurrence as u16,
            operands: 0..0,
            results: 0..0,
        };
        let Some(template) = templates.get(&op) else {
            return Err(Some(occurrence));
        };
        let (at, marks) = (s.offset(), end_of(&batch.operands));
        match template.scan(s, batch) {
            Some((operands, results)) => {
                (op.operands, op.results) = (operands, results);
                Ok(op)
            }
            None => {
                s.rewind(at);
                batch.operands.truncate(marks as usize);
                Err(Some(occurrence))
            }
        }
    }
}

/// What a template is learnt from: an op's place among the ops of its
/// kind, and the texts of its `A` and `OA` lists.
pub(super) type LearnFrom<'a> = Option<(usize, &'a str, Option<&'a str>)>;

impl<'a> Reader<'_, 'a> {
    /// Builds an op its kind's template matched.
    pub(super) fn build_template(
        &mut self,
        batch: &Batch<'a>,
        op: &TemplateOp,
        path: &JsonPath<'_>,
        scratch: &mut Scratch,
    ) -> Result<pir_core::OpId, ReadError> {
        let Some(template) = self.kept.templates.get(op) else {
            return Err(super::invalid(path, "op kind template out of range"));
        };
        let (name, dict) = (template.name, template.dict);
        scratch.result_types.extend_from_slice(&template.types);
        self.check_known(name, path)?;
        let operands = super::build::part(&batch.operands, &op.operands);
        self.lookup_operands(operands, path, scratch)?;
        let created =
            self.program
                .create_op(name, &scratch.operands, &scratch.result_types, dict, 0);
        let ids = super::build::part(&batch.operands, &op.results);
        self.bind_results(created, ids.iter().map(|&id| Some(id)), path)?;
        self.plain_ops += 1;
        Ok(created)
    }

    /// Keeps the op just built, named `name`, with `operands` operands, as
    /// its kind's template. Kept out of the builder's loop, which calls it
    /// only while templates are learnt.
    #[cold]
    #[inline(never)]
    pub(super) fn learn_template(
        &mut self,
        name: (Symbol, &str),
        (occurrence, a, oa): (usize, &str, Option<&str>),
        operands: usize,
        results: &[ScannedResult<'a>],
        types: &[Type],
        dict: AttrDict,
    ) {
        let mut text = TextWithHoles::default();
        text.piece(r#","A":"#).piece(a).piece(r#","I":["#);
        for i in 0..operands {
            text.piece(if i == 0 { "" } else { "," });
            text.piece(r#"{"%":"#).hole().piece("}");
        }
        text.piece(r#"],"O":["#);
        for (i, result) in results.iter().enumerate() {
            text.piece(if i == 0 { "" } else { "," });
            text.piece(r#"{"%":"#).hole();
            text.piece(r#","TT":"#).piece(result.text).piece("}");
        }
        text.piece("]");
        if let Some(oa) = oa {
            text.piece(r#","OA":"#).piece(oa);
        }
        text.piece("}");
        let Ok(operands) = u32::try_from(operands) else {
            return;
        };
        let template = Template {
            name: name.0,
            text: text.text.into(),
            holes: text.holes.into(),
            operands,
            types: types.into(),
            dict,
        };
        self.kept.templates.learn(name.1, occurrence, template);
    }

    /// Keeps the parameter op just built, named `name`, of type `ty` and
    /// attributes `dict`, as the template of its place among the file's
    /// parameters.
    #[cold]
    #[inline(never)]
    pub(super) fn learn_parameter_template(
        &mut self,
        name: Symbol,
        (occurrence, head, tail): ParameterTexts<'_>,
        ty: Type,
        dict: AttrDict,
    ) {
        let mut text = TextWithHoles::default();
        text.piece(head).hole().piece(tail);
        let template = Template {
            name,
            text: text.text.into(),
            holes: text.holes.into(),
            operands: 0,
            types: Box::new([ty]),
            dict,
        };
        self.kept.templates.learn_parameter(occurrence, template);
    }
}

/// What a parameter op's template is learnt from: its place among the
/// file's parameters, and its texts before and after its result's id.
pub(super) type ParameterTexts<'a> = (usize, &'a str, &'a str);

#[cfg(test)]
mod tests {
    use super::super::build::part;
    use super::*;

    /// A template of `pieces` with a hole between each two, the first
    /// `operands` of them the operands'.
    fn template(pieces: &[&str], operands: u32) -> Template {
        let ctx = pir_core::IrContext::new();
        let mut text = TextWithHoles::default();
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0 {
                text.hole();
            }
            text.piece(piece);
        }
        Template {
            name: ctx.symbol("x.y"),
            text: text.text.into(),
            holes: text.holes.into(),
            operands,
            types: Box::new([]),
            dict: ctx.dict(&[]),
        }
    }

    /// The operand ids and result ids `t` finds in `text`, and where it
    /// leaves the stream.
    fn scanned(t: &Template, text: &str) -> Option<(Vec<i64>, Vec<i64>, usize)> {
        let mut s = Stream::new(text.as_bytes()).ok()?;
        let mut batch = Batch::default();
        let (operands, results) = t.scan(&mut s, &mut batch)?;
        assert_eq!(operands.end, results.start);
        let ids = |range| part(&batch.operands, &range).to_vec();
        Some((ids(operands), ids(results), s.offset()))
    }

    fn plain() -> Template {
        template(
            &[
                r#","A":[{"N":"x"}],"I":[{"%":"#,
                r#"},{"%":"#,
                r##"}],"O":[{"%":"##,
                r##","TT":{"#":"t"}}],"OA":[]}"##,
            ],
            2,
        )
    }

    #[test]
    fn an_op_with_its_templates_texts_gives_its_ids() {
        let text =
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":-4}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##;
        assert_eq!(
            scanned(&plain(), text),
            Some((vec![3, -4], vec![5], text.len()))
        );
    }

    #[test]
    fn a_parameter_with_its_templates_texts_gives_its_id() {
        let (head, tail) = (
            r#","A":[0,1,1,"w"],"DA":[],"O":{"%":"#,
            r##","TT":{"#":"t"}},"QA":[]}"##,
        );
        let t = template(&[head, tail], 0);
        let text = format!("{head}7{tail}");
        assert_eq!(scanned(&t, &text), Some((vec![], vec![7], text.len())));
        let others = [
            format!("{head}7.5{tail}"),
            format!("{head}7e1{tail}"),
            format!("{head}\"7\"{tail}"),
            format!("{head}{tail}"),
            format!(r#","A":[0,1,1,"v"],"DA":[],"O":{{"%":7{tail}"#),
            format!(r##"{head}7,"TT":{{"#":"u"}}}},"QA":[]}}"##),
            format!("{head}7{}", &tail[..tail.len() - 1]),
        ];
        for text in others {
            assert_eq!(scanned(&t, &text), None, "{text}");
        }
        // A plain op's template matches no parameter, nor the other way.
        assert!(scanned(&plain(), &text).is_none());
        let op =
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##;
        assert!(scanned(&t, op).is_none());
    }

    /// A kind is found by the hint its name's number left when the hint
    /// names it, and by its name otherwise.
    #[test]
    fn hints_are_taken_for_the_names_they_were_left_for_only() {
        let mut templates = Templates::default();
        templates.learn("a.x", 0, template(&["}"], 0));
        templates.learn("a.y", 0, template(&["}"], 0));
        let used = TemplateUse {
            looked_up: true,
            kind: Some(1),
            occurrences: 1,
            places: MOST_PLACES,
        };
        templates.remember_kinds(&[TemplateUse::default(), used]);
        assert_eq!(templates.kind_of(1, "a.y"), Some(1));
        assert_eq!(templates.kind_of(1, "a.x"), Some(0));
        assert_eq!(templates.kind_of(0, "a.y"), Some(1));
        assert_eq!(templates.kind_of(7, "a.x"), Some(0));
        assert_eq!(templates.kind_of(1, "a.z"), None);
    }

    /// Whether each of `ops` ops of kind 0 with text `text` matched its
    /// template (`Ok`), else the place to learn.
    fn uses(templates: &Templates, text: &str, ops: usize) -> Vec<Result<(), Option<usize>>> {
        seeded_uses(templates, None, text, ops)
    }

    /// [`uses`] for a scanner counting from `seeds`, giving the places of
    /// the templates matched.
    fn seeded_uses(
        templates: &Templates,
        seeds: Option<&Seeds>,
        text: &str,
        ops: usize,
    ) -> Vec<Result<(), Option<usize>>> {
        let mut used = TemplateUse::default();
        let mut batch = Batch::default();
        (0..ops)
            .map(|_| {
                let Ok(mut s) = Stream::new(text.as_bytes()) else {
                    return Err(None);
                };
                used.scan((templates, seeds), (0, "a.x"), &mut s, &mut batch)
                    .map(drop)
            })
            .collect()
    }

    /// A scanner starting at a cut counts a kind's ops from its seed: the
    /// templates of the places after it match.
    #[test]
    fn seeded_scanners_count_from_their_seeds() {
        let mut templates = Templates::default();
        for place in 0..PER_KIND + 4 {
            let text = if place < PER_KIND + 2 { "}" } else { "]" };
            templates.learn("a.x", place, template(&[text], 0));
        }
        let seeds = |count| Seeds::new(100, 10, [(0, count)].into_iter(), 0);
        let at = |count| seeded_uses(&templates, Some(&seeds(count)), "}", 3);
        assert_eq!(at(PER_KIND as u16 - 1), [Ok(()), Ok(()), Ok(())]);
        // Counted from the wrong place, templates of other texts miss.
        assert_eq!(
            at(PER_KIND as u16 + 1),
            [Ok(()), Err(Some(PER_KIND + 2)), Err(Some(PER_KIND + 3))]
        );
        assert!(seeds(3).fit(100, 10) && !seeds(3).fit(100, 11) && !seeds(3).fit(99, 10));
        assert_eq!((seeds(3).of_kind(0), seeds(3).of_kind(1)), (3, 0));
    }

    /// A kind whose first ops all match, as in a model read again, has its
    /// later places learnt; one whose first ops missed has none matched or
    /// learnt past them.
    #[test]
    fn later_places_are_learnt_when_the_first_ones_matched() {
        let mut templates = Templates::default();
        for place in 0..PER_KIND {
            templates.learn("a.x", place, template(&["}"], 0));
        }
        let again = uses(&templates, "}", PER_KIND + 2);
        assert!(again[..PER_KIND].iter().all(Result::is_ok));
        assert_eq!(
            again[PER_KIND..],
            [Err(Some(PER_KIND)), Err(Some(PER_KIND + 1))]
        );
        templates.learn("a.x", PER_KIND, template(&["}"], 0));
        assert_eq!(
            uses(&templates, "}", PER_KIND + 2)[PER_KIND..],
            [Ok(()), Err(Some(PER_KIND + 1))]
        );
        let other = uses(&templates, "]", PER_KIND + 2);
        assert_eq!(other[..2], [Err(Some(0)), Err(Some(1))]);
        assert_eq!(other[PER_KIND..], [Err(None), Err(None)]);
        // Full, the templates learn their kinds' first places only.
        templates.bytes = Templates::MAX_BYTES;
        assert_eq!(
            uses(&templates, "}", PER_KIND + 2)[PER_KIND..],
            [Ok(()), Err(None)]
        );
    }

    #[test]
    fn other_texts_do_not_match() {
        let others = [
            r##","A":[{"N":"y"}],"I":[{"%":3},{"%":4}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4},{"%":5}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4}],"O":[],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4}],"O":[{"%":5,"TT":{"#":"t"}},{"%":6,"TT":{"#":"t"}}],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4}],"O":[{"%":5,"TT":{"#":"u"}}],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[1]}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[],"x":1}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4}],"O":[{"%":5,"TT":{"#":"t"}}]}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4.5}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":"4"}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##,
            r##", "A":[{"N":"x"}],"I":[{"%":3},{"%":4}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##,
        ];
        for text in others {
            assert_eq!(scanned(&plain(), text), None, "{text}");
        }
    }
}
