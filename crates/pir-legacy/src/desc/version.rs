//! The program's `op_version_map`: checked while reading, its pairs
//! decoded only when asked for. The translation never reads them, and
//! Paddle writes the same map of some 80 pairs into every model, which
//! decoding into a list cost as much as a few ops.

use std::fmt;

use crate::inline::InlineVec;
use crate::wire::Reader;

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
