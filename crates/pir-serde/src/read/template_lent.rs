//! Templates lent to the scanning thread (see [`threads`](super::threads)).
//!
//! On a model read again the reading thread builds most ops from the
//! context's templates, faster than from what a scan without them gives: so
//! the scanning thread matches the ops past the cut against the templates
//! too, and the reading thread only builds them. Templates go by an op's
//! place among the ops of its kind in the file, which a thread starting at
//! the cut cannot count: it starts from [`Seeds`], the counts the last read
//! of the same text had at the same cut. A wrong count only makes templates
//! miss: an op matches a template only if its text is the template's, and
//! equal texts decode to equal ops whatever their place.
//!
//! While the thread holds the templates, the reader learns none in place
//! but keeps them until the thread lets go ([`Shared::settle`]). Learning
//! never changes what the same read matches (a place learnt is behind the
//! read's count of its kind), so the program is the one a single thread
//! reads.

use std::ops::Deref;
use std::sync::Arc;

use super::template::{Template, Templates};

/// The context's templates, shared with the scanning thread during a read.
#[derive(Default)]
pub(super) struct Shared {
    templates: Arc<Templates>,
    /// Templates learnt while the scanning thread held them.
    pending: Vec<Pending>,
}

/// A template learnt while the scanning thread held the templates.
enum Pending {
    Kind {
        name: Box<str>,
        occurrence: usize,
        template: Template,
    },
    Parameter {
        occurrence: usize,
        template: Template,
    },
}

impl Deref for Shared {
    type Target = Templates;

    fn deref(&self) -> &Templates {
        &self.templates
    }
}

impl Shared {
    /// Keeps `template` as the one of the `occurrence`th op named `name`
    /// (see [`Templates::learn`]), now or once the thread lets go.
    pub(super) fn learn(&mut self, name: &str, occurrence: usize, template: Template) {
        match Arc::get_mut(&mut self.templates) {
            Some(templates) => templates.learn(name, occurrence, template),
            None => self.pending.push(Pending::Kind {
                name: name.into(),
                occurrence,
                template,
            }),
        }
    }

    /// Keeps `template` as the one of the `occurrence`th parameter op,
    /// now or once the thread lets go.
    pub(super) fn learn_parameter(&mut self, occurrence: usize, template: Template) {
        match Arc::get_mut(&mut self.templates) {
            Some(templates) => templates.learn_parameter(occurrence, template),
            None => self.pending.push(Pending::Parameter {
                occurrence,
                template,
            }),
        }
    }

    /// The templates for the scanning thread to match against.
    pub(super) fn lend(&self) -> Arc<Templates> {
        self.templates.clone()
    }

    /// The templates to change, with what was learnt meanwhile kept, once
    /// no thread holds them; `None` while one does (a read whose ops were
    /// never reached: the thread lets go when the read's lending ends, and
    /// what this read learnt is dropped).
    pub(super) fn settle(&mut self) -> Option<&mut Templates> {
        let templates = Arc::get_mut(&mut self.templates)?;
        for pending in self.pending.drain(..) {
            match pending {
                Pending::Kind {
                    name,
                    occurrence,
                    template,
                } => templates.learn(&name, occurrence, template),
                Pending::Parameter {
                    occurrence,
                    template,
                } => templates.learn_parameter(occurrence, template),
            }
        }
        Some(templates)
    }

    /// The bytes held, about, with what waits to be learnt.
    pub(super) fn bytes(&self) -> usize {
        self.templates.bytes() + self.pending.len() * 256
    }
}

/// How many ops of each kind a read had met at its cut: where the scanning
/// thread of the next read of the same text starts counting.
#[derive(Debug)]
pub(super) struct Seeds {
    /// The text's length, and the cut.
    len: usize,
    at: usize,
    /// Ops met by kind number in [`Templates`], and parameters.
    kinds: Box<[u16]>,
    parameters: u16,
}

impl Seeds {
    /// Counts of `kinds` (a kind's number and its ops met) and of
    /// parameters at the cut `at` of a text of `len` bytes.
    pub(super) fn new(
        len: usize,
        at: usize,
        kinds: impl Iterator<Item = (u32, u16)>,
        parameters: u16,
    ) -> Seeds {
        let mut counts = Vec::new();
        for (kind, count) in kinds {
            let Some(slot) = usize::try_from(kind)
                .ok()
                .filter(|&k| k < Templates::MAX_KINDS)
            else {
                continue;
            };
            if counts.len() <= slot {
                counts.resize(slot + 1, 0);
            }
            counts[slot] = count;
        }
        Seeds {
            len,
            at,
            kinds: counts.into(),
            parameters,
        }
    }

    /// The length of the text they were counted in.
    pub(super) fn text_len(&self) -> usize {
        self.len
    }

    /// Whether these are the counts at the cut `at` of a text of `len` bytes.
    pub(super) fn fit(&self, len: usize, at: usize) -> bool {
        self.len == len && self.at == at
    }

    /// How many ops of `kind` the read had met at the cut.
    pub(super) fn of_kind(&self, kind: u32) -> u16 {
        self.kinds.get(kind as usize).copied().unwrap_or(0)
    }

    /// How many parameter ops the read had met at the cut.
    pub(super) fn parameters(&self) -> u16 {
        self.parameters
    }
}

/// What the scanning thread matches with: the templates, and where its
/// counts start.
#[derive(Clone)]
pub(super) struct Matching {
    pub(super) templates: Arc<Templates>,
    pub(super) seeds: Arc<Seeds>,
}
