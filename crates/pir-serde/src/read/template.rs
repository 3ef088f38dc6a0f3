//! Op kinds' templates: the texts of an op's attribute lists and result
//! types, as Paddle writes them, with what they decoded to, kept in the
//! context between reads (see [`Kept`](super::Kept)).
//!
//! In a small model most ops are the first of their kind in the file, which
//! the scanner's memos (see [`scan`](super::scan)) cannot help: each of
//! their attribute entries and types is delimited, numbered, then looked up
//! again by the builder (about 5 000 instructions an op). A context that
//! reads models again, or models built from the same layers, meets the same
//! texts: an op whose `A`, `OA` and result types are byte for byte those of
//! its kind's template is the template's op with its own operands and
//! result ids, built from the template's handles without delimiting or
//! looking up any of its parts. Parameter ops, each named differently, have
//! templates by their place among the file's parameters, matched but for
//! their result's id: a model read again finds all of its own. Equal texts decode to equal values in one
//! context (the reader is deterministic and the context's handles never
//! change), so the program is the one the full read builds.
//!
//! Templates are learnt from a context's second read on (a process that
//! reads one model never uses them): the first [`PER_KIND`] ops of each
//! kind a read builds from compact text, where the template of their place
//! among the kind's ops is missing or did not match; one copy of an op's
//! texts at the most.

use std::ops::Range;

use pir_core::serial::JsonPath;
use pir_core::{AttrDict, Symbol, Type};
use pir_json::Stream;
use rustc_hash::FxHashMap;

use super::build::Scratch;
use super::compact::{compact_items, compact_operands, eat};
use super::scan::{end_of, Batch, ScannedResult};
use super::Reader;
use crate::error::ReadError;

/// An op kind's texts and what they decoded to.
pub(super) struct Template {
    name: Symbol,
    texts: Texts,
    /// The results' types.
    types: Box<[Type]>,
    dict: AttrDict,
}

/// The texts of an op a [`Template`] matches.
enum Texts {
    /// A plain op's `A` and `OA` lists (`None`: no `OA`) and its results'
    /// type texts.
    Plain {
        a: Box<str>,
        oa: Option<Box<str>>,
        type_texts: Box<[Box<str>]>,
    },
    /// A parameter op's short form around its result's id: from after the
    /// op's name through `"%":`, and from after the id through the op's
    /// closing brace. Everything but the id (its flags, name and type) is
    /// what the op decodes to.
    Parameter { head: Box<str>, tail: Box<str> },
}

impl Template {
    /// The bytes it holds, about.
    fn bytes(&self) -> usize {
        let texts = match &self.texts {
            Texts::Plain { a, oa, type_texts } => {
                let types: usize = type_texts.iter().map(|t| t.len() + 16).sum();
                a.len() + oa.as_ref().map_or(0, |oa| oa.len()) + types
            }
            Texts::Parameter { head, tail } => head.len() + tail.len(),
        };
        texts + self.types.len() * 4 + 96
    }

    /// The fields after the op's name at the stream when they are this
    /// template's, `,"A":…,"I":[…],"O":[…],"OA":…}` in compact text: the
    /// operand ids then the result ids are appended to `batch.operands`,
    /// and their ranges there returned. `None`, with the stream and
    /// `batch` anywhere, for any other text.
    fn scan<'a>(
        &self,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
    ) -> Option<(Range<u32>, Range<u32>)> {
        let Texts::Plain { a, oa, type_texts } = &self.texts else {
            return None;
        };
        if !(eat(s, br#","A":"#) && s.skip_known(a) && eat(s, br#","I":["#)) {
            return None;
        }
        let operands = compact_operands(s, &mut batch.operands)?;
        if !eat(s, br#","O":["#) {
            return None;
        }
        let mut types = type_texts.iter();
        compact_items(s, |s| {
            let ty = types.next()?;
            if !eat(s, br#"{"%":"#) {
                return None;
            }
            let id = s.i64().ok()??;
            let matched = eat(s, br#","TT":"#) && s.skip_known(ty) && eat(s, b"}");
            batch.operands.push(id);
            matched.then_some(())
        })?;
        let results = operands.end..end_of(&batch.operands);
        let oa_matched = match oa {
            Some(oa) => eat(s, br#","OA":"#) && s.skip_known(oa),
            None => true,
        };
        let whole = types.next().is_none() && oa_matched && eat(s, b"}");
        whole.then_some((operands, results))
    }

    /// The fields of a parameter op after its name at the stream when
    /// they are this template's but for the result's id, which is
    /// appended to `batch.operands`: the (empty) range of operand ids
    /// there and the range of the result id. `None`, with the stream and
    /// `batch` anywhere, for any other text.
    fn scan_parameter(
        &self,
        s: &mut Stream<'_>,
        batch: &mut Batch<'_>,
    ) -> Option<(Range<u32>, Range<u32>)> {
        let Texts::Parameter { head, tail } = &self.texts else {
            return None;
        };
        if !eat(s, head.as_bytes()) {
            return None;
        }
        // The tail starts with `,`: an id that is not a whole integer
        // (`1.5`, `1e3`) leaves a byte it does not match.
        let id = s.i64().ok()??;
        if !eat(s, tail.as_bytes()) {
            return None;
        }
        let at = end_of(&batch.operands);
        batch.operands.push(id);
        Some((at..at, at..at + 1))
    }
}

/// The templates a context keeps: by op name, then by the op's place
/// among the ops of its name in the file (the first [`PER_KIND`] of them).
/// Ops of a kind differ in their attributes (each `fetch` its name and
/// column, each layer its `struct_name`), but a model read again, or
/// another model built alike, repeats them in the same order.
#[derive(Default)]
pub(super) struct Templates {
    by_name: FxHashMap<Box<str>, u32>,
    kinds: Vec<Vec<Option<Template>>>,
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

/// Templates kept per op kind at the most: the first ops of a kind in a
/// file; the scanner's memos serve the later ones, mostly repeats.
const PER_KIND: usize = 16;

/// Parameter ops' templates kept at the most (see [`Templates::parameters`]).
const PER_PARAMETER_KIND: usize = 1024;

/// The kind [`TemplateOp::kind`] gives parameter ops.
const PARAMETER_KIND: u32 = u32::MAX;

impl Templates {
    /// Kinds kept at the most: models use a few hundred.
    const MAX_KINDS: usize = 4096;
    /// Bytes kept at the most (lists of a few hundred bytes an op).
    const MAX_BYTES: usize = 8 << 20;

    /// The bytes held, about.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
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
    fn learn(&mut self, name: &str, occurrence: usize, template: Template) {
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
                self.kinds.push(Vec::new());
                self.bytes += name.len() + 64;
                kind
            }
        };
        let Some(list) = self.kinds.get_mut(kind) else {
            return;
        };
        if occurrence >= PER_KIND {
            return;
        }
        if list.len() <= occurrence {
            list.resize_with(occurrence + 1, || None);
        }
        let Some(slot) = list.get_mut(occurrence) else {
            return;
        };
        let held = self.bytes - slot.as_ref().map_or(0, Template::bytes);
        if held + bytes <= Self::MAX_BYTES {
            *slot = Some(template);
            self.bytes = held + bytes;
        }
    }

    /// Keeps `template` as the one of the `occurrence`th parameter op,
    /// replacing the one it had, while the bounds allow.
    fn learn_parameter(&mut self, occurrence: usize, template: Template) {
        if occurrence >= PER_PARAMETER_KIND {
            return;
        }
        if self.parameters.len() <= occurrence {
            self.parameters.resize_with(occurrence + 1, || None);
        }
        let Some(slot) = self.parameters.get_mut(occurrence) else {
            return;
        };
        let held = self.bytes - slot.as_ref().map_or(0, Template::bytes);
        let bytes = template.bytes();
        if held + bytes <= Self::MAX_BYTES {
            *slot = Some(template);
            self.bytes = held + bytes;
        }
    }

    /// The template of `op`.
    fn get(&self, op: &TemplateOp) -> Option<&Template> {
        let list = match op.kind {
            PARAMETER_KIND => &self.parameters,
            kind => self.kinds.get(kind as usize)?,
        };
        list.get(usize::from(op.occurrence))?.as_ref()
    }
}

/// What a scanner knows of one op kind's templates during a read.
#[derive(Default, Clone, Copy)]
pub(super) struct TemplateUse {
    /// Whether the kind's templates were looked for, and their number in
    /// [`Templates`] if found.
    looked_up: bool,
    kind: Option<u32>,
    /// How many ops of the kind were scanned.
    occurrences: u16,
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
    /// The op named `name` at the stream, after its name, when the
    /// template of its place among the ops of its kind matches it
    /// (`Ok`); `None`, with the stream and `batch` where they were,
    /// otherwise (`Err`), with whether a template is to be learnt from
    /// it: its place has none or another.
    #[inline(always)]
    pub(super) fn scan<'a>(
        &mut self,
        templates: &Templates,
        name: &str,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
    ) -> Result<TemplateOp, Option<usize>> {
        let occurrence = self.next_occurrence(PER_KIND)?;
        if !self.looked_up {
            self.looked_up = true;
            self.kind = templates.by_name.get(name).copied();
        }
        match self.kind {
            Some(kind) => {
                Self::match_template(templates, kind, occurrence, s, batch, Template::scan)
            }
            None => Err(Some(occurrence)),
        }
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
        let occurrence = self.next_occurrence(PER_PARAMETER_KIND)?;
        Self::match_template(
            templates,
            PARAMETER_KIND,
            occurrence,
            s,
            batch,
            Template::scan_parameter,
        )
    }

    /// The op's place among the ops of its kind, counted; `Err(None)` (no
    /// template, none to learn) past the first `limit`.
    #[inline(always)]
    fn next_occurrence(&mut self, limit: usize) -> Result<usize, Option<usize>> {
        let occurrence = usize::from(self.occurrences);
        if occurrence >= limit {
            return Err(None);
        }
        self.occurrences += 1;
        Ok(occurrence)
    }

    /// The template of `kind` at `occurrence` matched by `scan`; on no
    /// match, the stream and `batch` as they were and the place to learn.
    #[inline(never)]
    fn match_template<'a>(
        templates: &Templates,
        kind: u32,
        occurrence: usize,
        s: &mut Stream<'a>,
        batch: &mut Batch<'a>,
        scan: impl FnOnce(
            &Template,
            &mut Stream<'a>,
            &mut Batch<'a>,
        ) -> Option<(Range<u32>, Range<u32>)>,
    ) -> Result<TemplateOp, Option<usize>> {
        let mut op = TemplateOp {
            kind,
            occurrence: occurrence as u16,
            operands: 0..0,
            results: 0..0,
        };
        let Some(template) = templates.get(&op) else {
            return Err(Some(occurrence));
        };
        let (at, marks) = (s.offset(), end_of(&batch.operands));
        match scan(template, s, batch) {
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

    /// Keeps the op just built, named `name`, as its kind's template.
    pub(super) fn learn_template(
        &mut self,
        name: (Symbol, &str),
        (occurrence, a, oa): (usize, &str, Option<&str>),
        results: &[ScannedResult<'a>],
        types: &[Type],
        dict: AttrDict,
    ) {
        let template = Template {
            name: name.0,
            texts: Texts::Plain {
                a: a.into(),
                oa: oa.map(Into::into),
                type_texts: results.iter().map(|r| r.text.into()).collect(),
            },
            types: types.into(),
            dict,
        };
        self.kept.templates.learn(name.1, occurrence, template);
    }

    /// Keeps the parameter op just built, named `name`, of type `ty` and
    /// attributes `dict`, as the template of its place among the file's
    /// parameters.
    pub(super) fn learn_parameter_template(
        &mut self,
        name: Symbol,
        (occurrence, head, tail): ParameterTexts<'_>,
        ty: Type,
        dict: AttrDict,
    ) {
        let template = Template {
            name,
            texts: Texts::Parameter {
                head: head.into(),
                tail: tail.into(),
            },
            types: Box::new([ty]),
            dict,
        };
        self.kept.templates.learn_parameter(occurrence, template);
    }
}

/// What a parameter op's template is learnt from: its place among the
/// file's parameters, and its texts before and after its result's id (see
/// [`Texts::Parameter`]).
pub(super) type ParameterTexts<'a> = (usize, &'a str, &'a str);

#[cfg(test)]
mod tests {
    use super::super::build::part;
    use super::*;

    fn template(a: &str, types: &[&str]) -> Template {
        let ctx = pir_core::IrContext::new();
        Template {
            name: ctx.symbol("x.y"),
            texts: Texts::Plain {
                a: a.into(),
                oa: Some("[]".into()),
                type_texts: types.iter().map(|&t| t.into()).collect(),
            },
            types: Box::new([]),
            dict: ctx.dict(&[]),
        }
    }

    fn scanned(t: &Template, text: &str) -> Option<(Vec<i64>, usize)> {
        let mut s = Stream::new(text.as_bytes()).ok()?;
        let mut batch = Batch::default();
        let (operands, results) = t.scan(&mut s, &mut batch)?;
        assert_eq!(operands.end, results.start);
        Some((batch.operands, s.offset()))
    }

    #[test]
    fn an_op_with_its_templates_texts_gives_its_ids() {
        let t = template(r#"[{"N":"x"}]"#, &[r##"{"#":"t"}"##]);
        let text =
            r##","A":[{"N":"x"}],"I":[{"%":3},{"%":4}],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##;
        assert_eq!(scanned(&t, text), Some((vec![3, 4, 5], text.len())));
    }

    fn parameter(head: &str, tail: &str) -> Template {
        let ctx = pir_core::IrContext::new();
        Template {
            name: ctx.symbol("builtin.parameter"),
            texts: Texts::Parameter {
                head: head.into(),
                tail: tail.into(),
            },
            types: Box::new([]),
            dict: ctx.dict(&[]),
        }
    }

    #[test]
    fn a_parameter_with_its_templates_texts_gives_its_id() {
        let (head, tail) = (
            r#","A":[0,1,1,"w"],"DA":[],"O":{"%":"#,
            r##","TT":{"#":"t"}},"QA":[]}"##,
        );
        let t = parameter(head, tail);
        let matched = |text: &str| {
            let mut s = Stream::new(text.as_bytes()).ok()?;
            let mut batch = Batch::default();
            let (operands, results) = t.scan_parameter(&mut s, &mut batch)?;
            assert!(operands.is_empty());
            Some((part(&batch.operands, &results).to_vec(), s.offset()))
        };
        let text = format!("{head}7{tail}");
        assert_eq!(matched(&text), Some((vec![7], text.len())));
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
            assert_eq!(matched(&text), None, "{text}");
        }
        // A plain op's template matches no parameter, nor the other way.
        let mut s = Stream::new(text.as_bytes()).unwrap();
        assert!(template("[]", &[])
            .scan_parameter(&mut s, &mut Batch::default())
            .is_none());
        assert!(t.scan(&mut s, &mut Batch::default()).is_none());
    }

    #[test]
    fn other_texts_do_not_match() {
        let t = template(r#"[{"N":"x"}]"#, &[r##"{"#":"t"}"##]);
        let others = [
            r##","A":[{"N":"y"}],"I":[],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[],"O":[],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[],"O":[{"%":5,"TT":{"#":"t"}},{"%":6,"TT":{"#":"t"}}],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[],"O":[{"%":5,"TT":{"#":"u"}}],"OA":[]}"##,
            r##","A":[{"N":"x"}],"I":[],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[1]}"##,
            r##","A":[{"N":"x"}],"I":[],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[],"x":1}"##,
            r##","A":[{"N":"x"}],"I":[],"O":[{"%":5,"TT":{"#":"t"}}]}"##,
            r##", "A":[{"N":"x"}],"I":[],"O":[{"%":5,"TT":{"#":"t"}}],"OA":[]}"##,
        ];
        for text in others {
            assert_eq!(scanned(&t, text), None, "{text}");
        }
    }
}
