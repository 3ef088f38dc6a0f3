//! Scanning an op's attribute lists (`A`, `OA`): each list matched whole
//! against the pairs its op kind had last, else delimited entry by entry,
//! each entry matched against the texts its place had last; and the pair
//! numbered as the op's dictionary.

use std::ops::Range;

use pir_json::Stream;

use super::{end_of, AttrListId, Batch, ScannedDict, ScannedEntry, Scanner, TextId};
use crate::error::ReadError;
use crate::read::compact::{compact_entry, compact_str_entry};
use crate::read::tables::slot;

/// After this many lists of an op kind in a row that were neither of the
/// last two it had, its lists are matched whole only every
/// [`LIST_RETRY`]th time.
const LIST_MISSES_TRUSTED: u16 = 4;
const LIST_RETRY: u16 = 16;

/// An attribute list as scanned.
pub(super) struct AttrList<'a> {
    /// Its text.
    pub(super) text: &'a str,
    /// The range of its entries' texts in [`Batch::entries`], once delimited.
    entries: Option<Range<u32>>,
    /// Which of its op kind's last two pairs of lists has this text as its
    /// list of this kind, when it was matched against them.
    pair: Option<usize>,
}

impl<'a> AttrList<'a> {
    /// A list delimited entry by entry.
    fn scanned((text, entries): (&'a str, Range<u32>)) -> Self {
        AttrList {
            text,
            entries: Some(entries),
            pair: None,
        }
    }
}

/// A short attribute list's text and its entries, as scanned.
#[derive(Default, Clone, Copy)]
pub(super) struct KeptList<'a> {
    /// Its text; empty for none.
    text: &'a str,
    entries: [ScannedEntry<'a>; 2],
    len: u8,
}

impl<'a> KeptList<'a> {
    /// The list `text` of `entries`; none (empty) past two entries.
    fn of(text: &'a str, entries: &[ScannedEntry<'a>]) -> Self {
        let mut kept = KeptList::default();
        if let Some(room) = kept.entries.get_mut(..entries.len()) {
            room.copy_from_slice(entries);
            kept.text = text;
            kept.len = entries.len() as u8;
        }
        kept
    }

    /// Its entries.
    fn entries(&self) -> &[ScannedEntry<'a>] {
        self.entries
            .get(..usize::from(self.len))
            .unwrap_or_default()
    }
}

impl<'a> Scanner<'a> {
    /// The `OA` list of an op named `name` whose `A` list was `a`.
    pub(super) fn scan_oa(
        &mut self,
        s: &mut Stream<'a>,
        name: TextId,
        a: &AttrList<'a>,
        batch: &mut Batch<'a>,
    ) -> Result<AttrList<'a>, ReadError> {
        // After an `A` no pair of the op kind had, the pair is new whatever
        // `OA` holds: its entries are wanted (see `scan_dict`), so they are
        // scanned now rather than the list matched whole and scanned again;
        // a list the kind's last scanned `OA` was has its entries.
        if a.entries.is_some() {
            let start = s.offset();
            let kept = &self.memo(name).oa;
            if s.skip_known(kept.text) {
                let first = end_of(&batch.entries);
                batch.entries.extend_from_slice(kept.entries());
                let text = s.text().get(start..s.offset()).unwrap_or_default();
                return Ok(AttrList::scanned((text, first..end_of(&batch.entries))));
            }
            let list = self.scan_list(s, name, AttrListId::Oa, batch)?;
            let scanned = batch
                .entries
                .get(list.1.start as usize..list.1.end as usize);
            self.memo(name).oa = KeptList::of(list.0, scanned.unwrap_or_default());
            return Ok(AttrList::scanned(list));
        }
        self.scan_list_memo(s, name, true, a.pair, batch)
    }

    /// The attribute list at the stream, `[{"AT":attr,"N":name}, ...]`, list
    /// `list` of an op named `name`: its text, and its entries' texts
    /// (unchecked) appended to `batch.entries`. Each entry is first matched
    /// against the two texts the same entry had last.
    pub(super) fn scan_list(
        &mut self,
        s: &mut Stream<'a>,
        name: TextId,
        list: AttrListId,
        batch: &mut Batch<'a>,
    ) -> Result<(&'a str, Range<u32>), ReadError> {
        let mut open = s.begin_array()?;
        let start = s.offset() - 1;
        let first = end_of(&batch.entries);
        let mut index = 0u32;
        while s.next_element(&mut open)? {
            let place = index as usize;
            let last = self.memo(name).entries[list as usize]
                .get(place)
                .copied()
                .unwrap_or_default();
            let mut fresh = None;
            let known = match compact_str_entry_after(last[0], s) {
                // The place's latest was a string met once, as a layer's
                // `struct_name` mostly is: delimited first and compared
                // with the two kept, rather than missed as four texts.
                Some(raw) => {
                    let known = last.into_iter().flatten().find(|e| e.0 == raw);
                    fresh = known.is_none().then_some((raw, None));
                    known
                }
                None => last.into_iter().flatten().find(|e| s.skip_known(e.0)),
            };
            let entry = match known {
                Some((raw, None)) => {
                    // A string entry met again at its place (`data_format`,
                    // a layer kind's `struct_name`): numbered now, so the
                    // builder decodes it once rather than at every op.
                    let entry = (raw, self.number_entry(raw));
                    let entries = &mut self.memo(name).entries[list as usize];
                    if let Some(recent) = entries.get_mut(place) {
                        for kept in recent.iter_mut().flatten() {
                            if kept.0 == raw {
                                *kept = entry;
                            }
                        }
                    }
                    entry
                }
                Some(entry) => entry,
                None => {
                    // A string entry is never among the shared ones (see
                    // `delimit_entry`).
                    let shared = self.shared_entries[list as usize];
                    let entry = match fresh {
                        Some(entry) => entry,
                        None => match shared.into_iter().flatten().find(|e| s.skip_known(e.0)) {
                            Some(entry) => entry,
                            None => self.delimit_entry(s, list)?,
                        },
                    };
                    let entries = &mut self.memo(name).entries[list as usize];
                    *slot(entries, place) = [Some(entry), last[0]];
                    entry
                }
            };
            batch.entries.push(entry);
            index += 1;
        }
        let text = s.text().get(start..s.offset()).unwrap_or_default();
        Ok((text, first..end_of(&batch.entries)))
    }

    /// The attribute entry at the stream, met neither at its place nor
    /// lately in a list of its kind `list`: delimited and, unless it holds
    /// a plain string, numbered (and kept as the kind's latest). Unchecked
    /// until its op is built: a text that is no value fails that op, and
    /// with it the whole stream.
    fn delimit_entry(
        &mut self,
        s: &mut Stream<'a>,
        list: AttrListId,
    ) -> Result<ScannedEntry<'a>, ReadError> {
        if let Some(raw) = compact_str_entry(s) {
            return Ok((raw, None));
        }
        let raw = match compact_entry(s) {
            Some(raw) => raw,
            None => s.raw_value()?,
        };
        let entry = (raw, self.number_entry(raw));
        let shared = &mut self.shared_entries[list as usize];
        *shared = [Some(entry), shared[0]];
        Ok(entry)
    }

    /// The number of the attribute entry text `raw` (`None` past the last).
    fn number_entry(&mut self, raw: &'a str) -> Option<TextId> {
        let next = TextId::try_from(self.entries.len()).ok()?;
        Some(*self.entries.entry(raw).or_insert(next))
    }

    /// The `A` (or with `output`, the `OA`) list of an op named `name` at the
    /// stream: matched against the lists that op had last, else delimited.
    pub(super) fn scan_list_memo(
        &mut self,
        s: &mut Stream<'a>,
        name: TextId,
        output: bool,
        first: Option<usize>,
        batch: &mut Batch<'a>,
    ) -> Result<AttrList<'a>, ReadError> {
        let start = s.offset();
        let memo = self.memo(name);
        let misses = &mut memo.list_misses[usize::from(output)];
        // Lists that name their layer (`struct_name`) differ at every op of
        // a kind, and are compared nearly to their end before they do: past
        // a few misses in a row they are compared once in a while only.
        if *misses < LIST_MISSES_TRUSTED || misses.is_multiple_of(LIST_RETRY) {
            // The pair `first` (the one the op's `A` was) is tried first.
            let order = if first == Some(1) { [1, 0] } else { [0, 1] };
            for i in order {
                let Some((a, oa, _)) = memo.dicts[i] else {
                    continue;
                };
                if s.skip_known(if output { oa } else { a }) {
                    *misses = 0;
                    return Ok(AttrList {
                        text: s.text().get(start..s.offset()).unwrap_or_default(),
                        entries: None,
                        pair: Some(i),
                    });
                }
            }
        }
        *misses = misses.wrapping_add(1);
        let list = if output {
            AttrListId::Oa
        } else {
            AttrListId::A
        };
        Ok(AttrList::scanned(self.scan_list(s, name, list, batch)?))
    }

    /// An op's attribute dictionary from its `A` and `OA` lists: one of the
    /// pairs the op named `name` had last, or a newly numbered pair with its
    /// entries. Pairs are not looked up by their texts beyond that: in
    /// models that name each layer (`struct_name`) nearly every pair is new,
    /// and hashing its texts (hundreds of bytes) cost more than a repeated
    /// pair saves, whose entries the builder finds by number and whose
    /// dictionary the context interns once (3-4 % fewer instructions per
    /// load of the corpus's native models, within 1 % on translated ones).
    pub(super) fn scan_dict(
        &mut self,
        s: &mut Stream<'a>,
        name: TextId,
        a: AttrList<'a>,
        oa: Option<AttrList<'a>>,
        batch: &mut Batch<'a>,
    ) -> Result<ScannedDict, ReadError> {
        let key = (a.text, oa.as_ref().map_or("", |oa| oa.text));
        let last = self.memo(name).dicts;
        // Both lists matched against one pair are that pair: no need to
        // compare their texts again.
        let matched = match (a.pair, oa.as_ref().map(|oa| oa.pair)) {
            (Some(i), Some(Some(j))) if i == j => last.get(i).copied().flatten(),
            _ => None,
        };
        let remembered = matched.or_else(|| last.into_iter().flatten().find(|m| (m.0, m.1) == key));
        if let Some((_, _, Some(id))) = remembered {
            return Ok(ScannedDict {
                id: Some(id),
                entries: None,
            });
        }
        let a_entries = self.entries_of(s, name, a, AttrListId::A, batch)?;
        let oa_entries = match oa {
            Some(oa) => self.entries_of(s, name, oa, AttrListId::Oa, batch)?,
            None => 0..0,
        };
        let id = (self.next_dict < TextId::MAX).then_some(self.next_dict);
        self.next_dict = self.next_dict.saturating_add(1);
        let dict = ScannedDict {
            id,
            entries: Some([a_entries, oa_entries]),
        };
        self.memo(name).dicts = [Some((key.0, key.1, dict.id)), last[0]];
        Ok(dict)
    }

    /// The range of `list`'s entries in `batch.entries`, delimiting them now
    /// if they were not.
    fn entries_of(
        &mut self,
        s: &mut Stream<'a>,
        name: TextId,
        AttrList { text, entries, .. }: AttrList<'a>,
        id: AttrListId,
        batch: &mut Batch<'a>,
    ) -> Result<Range<u32>, ReadError> {
        if let Some(entries) = entries {
            return Ok(entries);
        }
        let resume = s.offset();
        s.rewind(s.offset_of(text));
        let read = self.scan_list(s, name, id, batch);
        s.rewind(resume);
        Ok(read?.1)
    }
}

/// The string entry at the stream (see [`compact_str_entry`]), which the
/// stream moves past, when `latest`, the latest entry of its place, was a
/// string met once; `None`, the stream where it was, otherwise.
#[inline(always)]
fn compact_str_entry_after<'a>(
    latest: Option<ScannedEntry<'a>>,
    s: &mut Stream<'a>,
) -> Option<&'a str> {
    match latest {
        Some((_, None)) => compact_str_entry(s),
        _ => None,
    }
}
