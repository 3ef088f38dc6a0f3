//! What the scanner ([`scan`](super)) gives the builder: scanned ops, with
//! the lists their records point into.

use std::ops::Range;

use pir_json::{Document, Stream};

use super::{ScannedEntry, TextId};
use crate::read::tables::{emptied, room_bytes};
use crate::read::template::{LearnFrom, ParameterTexts, TemplateOp};

/// One op as scanned.
pub(in crate::read) enum Scanned<'a> {
    /// An op without regions read field by field.
    Plain(PlainOp<'a>),
    /// An op its kind's template matched (see [`template`](crate::read::template)).
    Template(TemplateOp),
    /// The start of a block of region `region` of the innermost region op
    /// before it (see [`regions`](super::regions)), with its `args` and `kwargs` (`None`
    /// when empty, or for `args` when scanned); its ops follow.
    Block {
        region: u32,
        args: Option<Document<'a>>,
        kwargs: Option<Document<'a>>,
        /// Its `args` in [`Batch::results`] when scanned as Paddle writes
        /// them, `{"#":id,"TT":type}` each.
        scanned_args: Range<u32>,
    },
    /// The end of the innermost region op's regions.
    EndRegions,
    /// The short form of `builtin.parameter` (format spec §2.7).
    Parameter {
        /// The flags of `A`.
        flags: [bool; 3],
        /// The parameter's name, plain (no escapes or control characters).
        name: &'a str,
        /// The `DA` and `QA` entries in [`Batch::entries`] (empty when absent).
        lists: [Range<u32>; 2],
        /// The flags of `OA`, if present.
        output_flags: Option<[bool; 3]>,
        /// The result.
        result: ScannedResult<'a>,
        /// Its texts when the template of its place among the file's
        /// parameters is to be learnt from it.
        learn: Option<ParameterTexts<'a>>,
    },
    /// Any other op (regions, escapes, unusual layouts), read as one
    /// document: parsed as it is scanned, rather than delimited then
    /// parsed (ops with regions hold kilobytes of text).
    Other(Document<'a>),
}

/// An op without regions as scanned.
pub(in crate::read) struct PlainOp<'a> {
    /// The scanner's number of the name, and its JSON text (quoted).
    pub(in crate::read) name: (TextId, &'a str),
    /// Its operands' value ids in [`Batch::operands`].
    pub(in crate::read) operands: Range<u32>,
    /// Its results in [`Batch::results`].
    pub(in crate::read) results: Range<u32>,
    /// Its attribute dictionary.
    pub(in crate::read) dict: ScannedDict,
    /// Its `A` and `OA` texts when its kind's template is to be learnt
    /// from it.
    pub(in crate::read) learn: LearnFrom<'a>,
    /// How many regions it has, scanned after it (see [`regions`](super::regions)).
    pub(in crate::read) regions: u32,
}

/// An op's attribute dictionary as scanned.
pub(in crate::read) struct ScannedDict {
    /// The scanner's number of the op's pair of `A`/`OA` texts (`None` past
    /// the last number); a pair given without entries is one of the last two
    /// its op kind had.
    pub(in crate::read) id: Option<TextId>,
    /// The `A` then `OA` entries in [`Batch::entries`], given unless the
    /// pair is one the op's kind had last.
    pub(in crate::read) entries: Option<[Range<u32>; 2]>,
}

/// A result `{"%":id,"TT":type}` as scanned.
#[derive(Clone, Copy)]
pub(in crate::read) struct ScannedResult<'a> {
    /// The value id, if written.
    pub(in crate::read) id: Option<i64>,
    /// The scanner's number of the type text.
    pub(in crate::read) ty: TextId,
    /// The type's text.
    pub(in crate::read) text: &'a str,
}

/// Scanned ops, with the lists their records point into.
#[derive(Default)]
pub(in crate::read) struct Batch<'a> {
    pub(in crate::read) ops: Vec<Scanned<'a>>,
    pub(in crate::read) operands: Vec<i64>,
    pub(in crate::read) results: Vec<ScannedResult<'a>>,
    pub(in crate::read) entries: Vec<ScannedEntry<'a>>,
}

impl<'a> Batch<'a> {
    /// A batch with room for about `ops` ops.
    pub(in crate::read) fn with_capacity(ops: usize) -> Self {
        Batch {
            ops: Vec::with_capacity(ops),
            operands: Vec::with_capacity(ops * 2),
            results: Vec::with_capacity(ops * 3 / 2),
            entries: Vec::with_capacity(ops * 2),
        }
    }

    /// Empties the batch, giving the tape of a document it holds back to
    /// `s` (a parse's tape grows a doubling at a time from empty).
    pub(in crate::read) fn clear_into(&mut self, s: &mut Stream<'a>) {
        for op in self.ops.drain(..) {
            match op {
                Scanned::Other(doc) => s.recycle(doc),
                Scanned::Block { args, kwargs, .. } => {
                    args.into_iter()
                        .chain(kwargs)
                        .for_each(|doc| s.recycle(doc));
                }
                _ => {}
            }
        }
        self.clear();
    }

    /// Emptied, its room kept, for the ops of another text.
    pub(in crate::read) fn recycled<'b>(self) -> Batch<'b> {
        let mut operands = self.operands;
        operands.clear();
        Batch {
            ops: emptied(self.ops),
            operands,
            results: emptied(self.results),
            entries: emptied(self.entries),
        }
    }

    /// The bytes of its room.
    pub(in crate::read) fn bytes(&self) -> usize {
        room_bytes(&self.ops)
            + room_bytes(&self.operands)
            + room_bytes(&self.results)
            + room_bytes(&self.entries)
    }

    pub(in crate::read) fn clear(&mut self) {
        self.ops.clear();
        self.operands.clear();
        self.results.clear();
        self.entries.clear();
    }
}
