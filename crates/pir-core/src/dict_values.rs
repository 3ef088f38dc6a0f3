//! The attributes of interned attribute dictionaries, stored end to end.
//!
//! A dictionary's names are shared by every dictionary with the same names
//! in the same order (an op kind's, most often), so a dictionary keeps only
//! its attributes: four or fewer in place, more as a run of 4-byte handles
//! in a chunk of this store, without an allocation of its own. Models whose ops carry a name each (a
//! parameter's, a layer's `struct_name`) intern a dictionary per op, and the
//! store keeps them at 4 bytes per attribute.
//!
//! Runs are written once, under the dictionary interner's lock, before the
//! dictionary that names them is published (`boxcar::Vec::push`, which
//! releases what was written before it); readers find them through that
//! dictionary, so they read without a lock. The handles are atomics so that
//! the store needs no `unsafe`; relaxed loads compile to plain loads.

use std::sync::atomic::{AtomicU32, Ordering};

use parking_lot::Mutex;

use crate::attributes::Attribute;

/// Attributes per chunk (256 KiB). A run never straddles two chunks; a run
/// longer than this gets a chunk of its own length.
const CHUNK: usize = 1 << 16;

/// Where a run of attributes is: its chunk and its first index in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RunAt {
    chunk: u32,
    start: u32,
}

/// Dictionaries of up to this many attributes keep them in place.
const IN_PLACE: usize = 4;

/// A dictionary's attributes as it stores them: up to [`IN_PLACE`] of them
/// in place (most ops have no more), more as a run of the store, whose
/// chunk and start the first two are. How many there are
/// is the number of the dictionary's names.
#[derive(Debug)]
pub(crate) struct DictAttrs([AtomicU32; IN_PLACE]);

/// The store (see the module docs).
pub(crate) struct DictValues {
    chunks: boxcar::Vec<Box<[AtomicU32]>>,
    /// The chunk being filled and how much of it is.
    fill: Mutex<(usize, usize)>,
}

impl DictValues {
    pub(crate) fn new() -> Self {
        DictValues {
            chunks: boxcar::Vec::new(),
            fill: Mutex::new((usize::MAX, CHUNK)),
        }
    }

    /// Stores `values`: in place when they are few, else as a run.
    pub(crate) fn store(&self, values: impl ExactSizeIterator<Item = Attribute>) -> DictAttrs {
        if values.len() <= IN_PLACE {
            let mut kept = [0; IN_PLACE];
            for (slot, value) in kept.iter_mut().zip(values) {
                *slot = value.0;
            }
            return DictAttrs(kept.map(AtomicU32::new));
        }
        let at = self.push(values);
        DictAttrs([at.chunk, at.start, 0, 0].map(AtomicU32::new))
    }

    /// The `len` attributes `attrs` stands for.
    #[inline]
    pub(crate) fn get<'s>(&'s self, attrs: &'s DictAttrs, len: usize) -> &'s [AtomicU32] {
        if len <= IN_PLACE {
            return &attrs.0[..len];
        }
        let [chunk, start, ..] = &attrs.0;
        let at = RunAt {
            chunk: chunk.load(Ordering::Relaxed),
            start: start.load(Ordering::Relaxed),
        };
        self.run(at, len)
    }

    /// Appends `values` as one run.
    fn push(&self, values: impl ExactSizeIterator<Item = Attribute>) -> RunAt {
        let len = values.len();
        let mut fill = self.fill.lock();
        let (chunk, used) = &mut *fill;
        let capacity = match self.chunks.get(*chunk) {
            Some(c) => c.len(),
            None => 0,
        };
        if len == 0 {
            return RunAt { chunk: 0, start: 0 };
        }
        if len > capacity.saturating_sub(*used) {
            let fresh: Box<[AtomicU32]> = (0..len.max(CHUNK)).map(|_| AtomicU32::new(0)).collect();
            *chunk = self.chunks.push(fresh);
            *used = 0;
        }
        let start = *used;
        let target = &self.chunks[*chunk][start..start + len];
        for (slot, value) in target.iter().zip(values) {
            slot.store(value.0, Ordering::Relaxed);
        }
        *used += len;
        RunAt {
            chunk: u32::try_from(*chunk).expect("more than 4 billion chunks of attributes"),
            start: u32::try_from(start).expect("a chunk holds fewer than 4 billion attributes"),
        }
    }

    /// The run of `len` attributes at `at`.
    #[inline]
    fn run(&self, at: RunAt, len: usize) -> &[AtomicU32] {
        if len == 0 {
            return &[];
        }
        let start = at.start as usize;
        match self
            .chunks
            .get(at.chunk as usize)
            .and_then(|c| c.get(start..start + len))
        {
            Some(run) => run,
            None => panic!("attribute run {at:?} does not belong to this context"),
        }
    }
}

/// The attribute of a stored handle.
#[inline]
pub(crate) fn load(slot: &AtomicU32) -> Attribute {
    Attribute(slot.load(Ordering::Relaxed))
}
