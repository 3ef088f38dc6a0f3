//! Caches of the checks the translator makes of every attribute and operand
//! it gives an op, kept in the context memo between translations: an op
//! type's ops get the same few attributes, and a model's operands have a
//! few types.

use std::hash::BuildHasher;

use pir_core::{Attribute, IrContext, Type};
use pir_dialects::op_def::{AttrKind, ValueKind};
use rustc_hash::{FxBuildHasher, FxHashSet};

use super::MAX_ENTRIES;

/// Attributes found to have a kind a definition declares (see
/// [`KindMatches::matches`]).
#[derive(Default)]
pub(crate) struct KindMatches {
    /// Every match found (within [`MAX_ENTRIES`]).
    matched: FxHashSet<(Attribute, AttrKind)>,
    /// The last match of each of [`KIND_CACHE`] hash buckets, asked before
    /// `matched` (most checks are of a few attributes met again and again:
    /// one compare instead of a set probe).
    cache: Vec<(Attribute, AttrKind)>,
}

/// Buckets of [`KindMatches::cache`].
const KIND_CACHE: usize = 1024;

impl KindMatches {
    /// Whether `attr` has the declared `kind` ([`pir_dialects::kind_matches`]),
    /// a match remembered: each op checks every attribute it gets, and ops
    /// of a type get the same few.
    #[inline]
    pub fn matches(&mut self, ctx: &IrContext, attr: Attribute, kind: AttrKind) -> bool {
        let h = FxBuildHasher.hash_one((attr, kind));
        let bucket = (h ^ (h >> 29)) as usize % KIND_CACHE;
        if self.cache.get(bucket) == Some(&(attr, kind)) {
            return true;
        }
        self.matches_uncached(ctx, attr, kind, bucket)
    }

    /// [`KindMatches::matches`] past the cache (out of line: rare).
    #[inline(never)]
    fn matches_uncached(
        &mut self,
        ctx: &IrContext,
        attr: Attribute,
        kind: AttrKind,
        bucket: usize,
    ) -> bool {
        let matches =
            self.matched.contains(&(attr, kind)) || pir_dialects::kind_matches(ctx, attr, kind);
        if matches {
            if self.matched.len() < MAX_ENTRIES {
                self.matched.insert((attr, kind));
            }
            if self.cache.is_empty() {
                // The null attribute is never checked: an empty bucket.
                self.cache = vec![(Attribute::NULL, AttrKind::Any); KIND_CACHE];
            }
            self.cache[bucket] = (attr, kind);
        }
        matches
    }
}

/// Operand types found to fit the kind an input declares (see
/// [`FitMatches::fits`]).
#[derive(Default)]
pub(crate) struct FitMatches {
    /// The last fit found in each of [`FIT_CACHE`] hash buckets.
    cache: Vec<(Type, ValueKind, bool)>,
}

/// Buckets of [`FitMatches::cache`].
const FIT_CACHE: usize = 256;

impl FitMatches {
    /// Whether a value of type `ty` may be an operand declared `kind`
    /// ([`pir_dialects::value_kinds::fits`]), a fit remembered: every
    /// operand is checked, and a model's operands have a few types.
    #[inline]
    pub fn fits(&mut self, ctx: &IrContext, ty: Type, kind: ValueKind, mutable: bool) -> bool {
        let h = FxBuildHasher.hash_one((ty, kind, mutable));
        let bucket = (h >> 32) as usize % FIT_CACHE;
        if self.cache.get(bucket) == Some(&(ty, kind, mutable)) {
            return true;
        }
        let fits = pir_dialects::value_kinds::fits(ctx, ty, kind, mutable);
        if fits {
            if self.cache.is_empty() {
                // `Any` fits every type: an empty bucket says nothing false.
                self.cache = vec![(Type::NULL, ValueKind::Any, false); FIT_CACHE];
            }
            self.cache[bucket] = (ty, kind, mutable);
        }
        fits
    }
}
