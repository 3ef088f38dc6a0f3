//! The program's `op_version_map`: checked while reading, its pairs
//! decoded only when asked for. The translation never reads them, and
//! Paddle writes the same map of some 80 pairs into every model, which
//! decoding into a list cost as much as a few ops.

use std::fmt;
use std::sync::Mutex;

use crate::inline::InlineVec;
use crate::wire::Reader;

/// The `op_version_map` messages found well-formed so far in this process,
/// most recent last. Paddle writes one map per release into every model it
/// saves (some 80 pairs, about 1.4 KB): a map seen before is known good by
/// one comparison instead of a pass over its pairs.
static CHECKED: Mutex<Vec<Box<[u8]>>> = Mutex::new(Vec::new());

/// Most maps [`CHECKED`] keeps (one per Paddle release a process reads).
const MAX_CHECKED: usize = 4;

/// Largest map [`CHECKED`] keeps (Paddle's are below 2 KB).
const MAX_CHECKED_BYTES: usize = 16 << 10;

/// Whether `bytes` are an `op_version_map` message found well-formed before.
pub(super) fn checked_before(bytes: &[u8]) -> bool {
    // A poisoned lock only loses the memo: the map is checked again.
    CHECKED
        .lock()
        .is_ok_and(|known| known.iter().any(|k| **k == *bytes))
}

/// Remembers `bytes`, an `op_version_map` message just found well-formed.
pub(super) fn remember_checked(bytes: &[u8]) {
    if bytes.len() > MAX_CHECKED_BYTES {
        return;
    }
    if let Ok(mut known) = CHECKED.lock() {
        if known.len() >= MAX_CHECKED {
            known.remove(0);
        }
        known.push(bytes.into());
    }
}

/// The `op_version_map` of a [`super::ProgramDesc`]: the bytes of its
/// `OpVersionMap` messages (a repeated field merges), each already checked
/// to hold well-formed pairs.
#[derive(Clone, Default)]
pub struct OpVersionMap<'a> {
    messages: InlineVec<&'a [u8], 1>,
}

impl<'a> OpVersionMap<'a> {
    /// Adds a checked `OpVersionMap` message.
    pub(super) fn push(&mut self, checked: &'a [u8]) {
        self.messages.push(checked);
    }

    /// The `(op name, version)` pairs in file order.
    pub fn pairs(&self) -> Vec<(&'a str, i32)> {
        let mut out = Vec::new();
        for &bytes in self.messages.iter() {
            let mut m = Reader::new(bytes, "OpVersionMap");
            // Checked when read: no step below fails (a failure would end
            // the message early rather than panic).
            while m.has_more() {
                let taken = crate::canonical::version_pairs(m.rest(), &mut out);
                if taken > 0 {
                    m.advance(taken);
                    continue;
                }
                let Ok(key) = m.key() else { break };
                let step = match key {
                    (1, w) => m
                        .message(w, "OpVersionMap.OpVersionPair")
                        .and_then(|mut p| super::decode::decode_version_pair(&mut p))
                        .map(|pair| out.push(pair)),
                    (f, w) => m.skip(f, w),
                };
                if step.is_err() {
                    break;
                }
            }
        }
        out
    }

    /// Whether the map has no pairs.
    pub fn is_empty(&self) -> bool {
        self.pairs().is_empty()
    }
}

impl PartialEq for OpVersionMap<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.pairs() == other.pairs()
    }
}

impl fmt::Debug for OpVersionMap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.pairs()).finish()
    }
}
