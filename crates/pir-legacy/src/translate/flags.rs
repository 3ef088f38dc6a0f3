//! `stop_gradient` and `persistable` of the values bound in the top scope,
//! worked out once every op is made, as Paddle's `ProgramTranslator` sets
//! them, and given to each op's map as its final dictionary is made.

use pir_core::builtin::{ArrayAttr, BoolAttr};
use pir_core::entity::EntityId;
use pir_core::{Attribute, IrContext, OpId, ValueId};
use rustc_hash::FxHashMap;

use super::attrs::same;
use super::values::VarInfo;
use super::{OpRecord, Translator, FLAGS, NO_CAST};
use crate::desc::{Name, ProgramDesc, VarDesc};
use crate::inline::InlineVec;

/// The flag list `given` (what an op builder gave: `[true]`, an array of
/// bools, else `n` falses) as its length and bits (bit `i`: element `i`),
/// when it has at most 64 elements.
fn given_bits(
    ctx: &IrContext,
    given: Attribute,
    true1: Attribute,
    n: usize,
) -> Option<(usize, u64)> {
    if given == true1 {
        return Some((1, 1));
    }
    let list = Some(given)
        .filter(|a| !a.is_null())
        .and_then(|a| ctx.attr_as::<ArrayAttr>(a));
    let Some(list) = list else {
        return (n <= 64).then_some((n, 0));
    };
    if list.0.len() > 64 {
        return None;
    }
    let mut bits = 0u64;
    for (i, &x) in list.0.iter().enumerate() {
        if ctx.attr_as::<BoolAttr>(x).is_some_and(|b| b.0) {
            bits |= 1 << i;
        }
    }
    Some((list.0.len(), bits))
}

/// What the result flags do to an op's map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flagging {
    /// No result is flagged: the map stays as it is.
    Unflagged,
    /// One result, flagged: `stop_gradient` and `persistable` of these
    /// values follow the map's entries when it holds neither (most ops).
    Single([Attribute; 2]),
    /// Anything else ([`Translator::set_flags`]).
    Other,
}

/// The last block that sees each variable name, as Paddle finds it by
/// asking every block in turn, from the last, whether its scope chain
/// declares the name: worked out once per declaring block, so a name costs
/// one look-up rather than one walk per block.
///
/// A block sees a name when it or an ancestor declares it, so the last
/// block that sees it is the highest block index beneath (or at) any block
/// declaring it: `reach[d]` for the declaring blocks `d`, the highest of
/// them deciding.
struct DecidingBlocks<'d> {
    /// The highest block index in each block's subtree (itself included).
    reach: Vec<usize>,
    /// For each name declared outside block 0: the highest `reach` of the
    /// blocks declaring it (block 0's own names are looked up there, so the
    /// top block's many variables are not copied into a map).
    sub: FxHashMap<Name<'d>, usize>,
}

impl<'d> DecidingBlocks<'d> {
    fn new(desc: &'d ProgramDesc<'d>) -> Self {
        let n = desc.blocks.len();
        // From the last block down, each block marks its ancestors until one
        // already marked (by a later block, so with a higher index, as are
        // that one's ancestors): every block is marked once.
        let mut reach = vec![usize::MAX; n];
        for b in (0..n).rev() {
            let mut a = b;
            while let Some(r) = reach.get_mut(a) {
                if *r != usize::MAX {
                    break;
                }
                *r = b;
                match usize::try_from(desc.blocks[a].parent_idx) {
                    Ok(p) => a = p,
                    Err(_) => break,
                }
            }
        }
        let declared = desc.blocks.iter().skip(1).map(|b| b.vars.len()).sum();
        let mut sub = FxHashMap::with_capacity_and_hasher(declared, Default::default());
        for (d, block) in desc.blocks.iter().enumerate().skip(1) {
            for var in &block.vars {
                let r = sub.entry(Name(var.name)).or_insert(reach[d]);
                *r = (*r).max(reach[d]);
            }
        }
        DecidingBlocks { reach, sub }
    }

    /// The last block that sees `name`, if any does, with the variable
    /// that block finds (`FindVarRecursive`). When block 0 decides and no
    /// sub-block declaring the name reaches as far (most names: none
    /// declares it), that variable is block 0's, so one look-up there gives
    /// both; a sub-block reaching as far lies on the way up from the last
    /// block and is found first.
    ///
    /// `top_at` is the index of block 0's first variable named `name`, when
    /// known (it saves the look-up there).
    // Asked for every name of the top scope: when no sub-block declares a
    // variable (most programs), block 0 decides, and the answer is one
    // index away.
    #[inline(always)]
    fn of<'a>(
        &self,
        desc: &'a ProgramDesc<'d>,
        name: &str,
        top_at: Option<usize>,
    ) -> Option<(usize, &'a VarDesc<'d>)> {
        match (
            top_at,
            self.sub.is_empty(),
            desc.blocks.first(),
            self.reach.first(),
        ) {
            (Some(i), true, Some(top), Some(&t)) => top.vars.get(i).map(|var| (t, var)),
            _ => self.of_any(desc, name, top_at),
        }
    }

    /// [`DecidingBlocks::of`] in general.
    #[inline(never)]
    fn of_any<'a>(
        &self,
        desc: &'a ProgramDesc<'d>,
        name: &str,
        top_at: Option<usize>,
    ) -> Option<(usize, &'a VarDesc<'d>)> {
        let top = desc
            .blocks
            .first()
            .and_then(|b| match top_at {
                Some(i) => b.vars.get(i),
                None => b.var(name),
            })
            .zip(self.reach.first().copied());
        match (top, self.sub.get(&Name(name)).copied()) {
            (Some((var, t)), s) if s.is_none_or(|s| s < t) => Some((t, var)),
            (_, Some(s)) => Some((s, desc.find_var(s, name)?)),
            (_, None) => None,
        }
    }
}

impl<'d> Translator<'d> {
    /// `stop_gradient` and `persistable` of every op result bound to a
    /// variable of the top scope, as the variable is declared.
    ///
    /// Paddle sets `stop_gradient` for every block, walking the top scope's
    /// names in its hash map's order, then `persistable` the same way: the
    /// last block that sees a variable decides its flags, and when a value is
    /// bound to several names the last of them in that order wins. Each
    /// op's map gets `stop_gradient` before `persistable` either way, so both
    /// are set in one walk; the map order is worked out only when a value has
    /// several names.
    pub(super) fn set_value_flags(&mut self) {
        let desc = self.desc;
        let deciding = DecidingBlocks::new(desc);
        // The flags a variable gives its values (bit 0: set, bit 1:
        // stop_gradient, bit 2: persistable).
        let flag_bits = |var: &VarDesc<'_>| {
            1 | u8::from(var.stop_gradient) << 1 | u8::from(var.persistable) << 2
        };
        // Names in any order, each value taking its name's flags. Only a
        // value whose names disagree on them needs its names in Paddle's
        // order (a value bound to several names mostly has names declared
        // alike): then they are set again in that order below.
        let mut flags = vec![0u8; self.program.value_slots()];
        let mut disagree = false;
        self.scopes
            .for_each_top_binding(|name, top_at, older, current| {
                if NO_CAST.contains(&name) {
                    return;
                }
                let Some((_, var)) = deciding.of(desc, name, top_at) else {
                    return;
                };
                let f = flag_bits(var);
                let mut mark = |info: &VarInfo| {
                    let slot = &mut flags[info.value.index()];
                    disagree |= *slot != 0 && *slot != f;
                    *slot = f;
                };
                older.iter().for_each(&mut mark);
                current.iter().for_each(mark);
            });
        if disagree {
            // (deciding block, name index, value, flags), one name's values
            // oldest first: the last update of a value decides its flags.
            let keys = self.scopes.top_keys();
            let mut updates: Vec<(usize, usize, ValueId, u8)> = Vec::with_capacity(keys.len());
            for (k, name, top_at, values) in self.scopes.top_entries() {
                if NO_CAST.contains(&name) {
                    continue;
                }
                let Some((b, var)) = deciding.of(desc, name, top_at) else {
                    continue;
                };
                updates.extend(values.map(|info| (b, k, info.value, flag_bits(var))));
            }
            let mut position = vec![0usize; keys.len()];
            for (pos, k) in crate::umap::iteration_order(keys).into_iter().enumerate() {
                position[k] = pos;
            }
            updates.sort_by_key(|u| (u.0, position[u.1]));
            for &(_, _, value, f) in &updates {
                flags[value.index()] = f;
            }
        }
        // Applied to each op's map as its final dictionary is made
        // ([`Translator::flagging`]).
        self.value_flags = flags;
    }

    /// What the result flags ([`Translator::set_value_flags`]) do to the
    /// map of `op`.
    pub(super) fn flagging(&self, op: OpId) -> Flagging {
        let flag = |v: ValueId| self.value_flags.get(v.index()).copied().unwrap_or(0);
        let mut results = self.program.results(op);
        let Some(first) = results.next().map(flag) else {
            return Flagging::Unflagged;
        };
        let more = results.clone().next().is_some();
        if !more && first & 1 != 0 {
            let pick = |bit: u8| {
                if first & bit != 0 {
                    self.k.true1
                } else {
                    self.k.false1
                }
            };
            return Flagging::Single([pick(2), pick(4)]);
        }
        if first & 1 != 0 || results.any(|v| flag(v) & 1 != 0) {
            Flagging::Other
        } else {
            Flagging::Unflagged
        }
    }

    /// Sets the result flags in every map of `records` (by op index) they
    /// change: the kind checks of an error read the maps whole.
    pub(super) fn set_all_flags(&mut self, records: &mut [Option<OpRecord<'d>>]) {
        for (i, slot) in records.iter_mut().enumerate() {
            let op = OpId::new(i);
            if let Some(rec) = slot {
                if self.flagging(op) != Flagging::Unflagged {
                    self.set_flags(op, rec);
                }
            }
        }
    }

    /// Sets `stop_gradient` then `persistable` of `op`'s results in `rec`,
    /// its record, as [`Translator::set_value_flags`] left them; results
    /// without flags keep what an op builder gave, else false. Setting them
    /// again changes nothing.
    pub(super) fn set_flags(&mut self, op: OpId, rec: &mut OpRecord<'d>) {
        let n = self.program.num_results(op);
        let flags = &self.value_flags;
        // Where each flag already is (an op builder's map may hold them; most
        // maps hold neither): one walk for both, a missing one appended in
        // the order the flags are set, as Paddle's map inserts them.
        let mut at = [None; FLAGS.len()];
        let mut held = false;
        for (i, &(k, _)) in rec.map.entries().iter().enumerate() {
            if let Some(which) = FLAGS.iter().position(|f| same(k, f)) {
                at[which] = Some(i);
                held = true;
            }
        }
        let first = self
            .program
            .results(op)
            .next()
            .map_or(0, |v| flags[v.index()]);
        // One result with its flags set and neither flag in the map (most
        // ops): the flags alone decide, appended in order.
        if n == 1 && first & 1 != 0 && !held {
            for (which, name) in FLAGS.iter().enumerate() {
                let attr = if first & (2 << which) != 0 {
                    self.k.true1
                } else {
                    self.k.false1
                };
                rec.map.push_new(name, attr);
            }
            return;
        }
        let ctx = &*self.ctx;
        for (which, name) in FLAGS.iter().enumerate() {
            let given = at[which].map_or(Attribute::NULL, |i| rec.map.entries()[i].1);
            let bit = 2 << which;
            // One result with its flag set, over nothing or one flag (most
            // ops): the flag alone decides.
            let single = n == 1
                && first & 1 != 0
                && (given.is_null() || given == self.k.true1 || given == self.k.false1);
            let attr = if single {
                if first & bit != 0 {
                    self.k.true1
                } else {
                    self.k.false1
                }
            } else if let Some((len, mut bits)) = given_bits(ctx, given, self.k.true1, n) {
                // At most 64 flags (every op but a few): as bits.
                for (i, v) in self.program.results(op).take(len.min(n)).enumerate() {
                    let f = flags[v.index()];
                    if f & 1 != 0 {
                        if f & bit != 0 {
                            bits |= 1 << i;
                        } else {
                            bits &= !(1 << i);
                        }
                    }
                }
                match (len, bits) {
                    (1, 1) => self.k.true1,
                    (1, 0) => self.k.false1,
                    _ => self.memo.get_mut().bool_lists.get_bits(ctx, len, bits),
                }
            } else {
                let given: Option<InlineVec<bool, 8>> = if given == self.k.true1 {
                    Some(InlineVec::from(&[true][..]))
                } else {
                    Some(given).filter(|a| !a.is_null()).and_then(|a| {
                        ctx.attr_as::<pir_core::builtin::ArrayAttr>(a).map(|arr| {
                            arr.0
                                .iter()
                                .map(|&x| {
                                    ctx.attr_as::<pir_core::builtin::BoolAttr>(x)
                                        .is_some_and(|b| b.0)
                                })
                                .collect()
                        })
                    })
                };
                let mut bits = given.unwrap_or_else(|| std::iter::repeat_n(false, n).collect());
                let results = self.program.results(op);
                for (bit_of, v) in bits.as_mut_slice().iter_mut().zip(results).take(n) {
                    let f = flags[v.index()];
                    if f & 1 != 0 {
                        *bit_of = f & bit != 0;
                    }
                }
                match bits.as_slice() {
                    [true] => self.k.true1,
                    [false] => self.k.false1,
                    more => self.memo.get_mut().bool_lists.get(ctx, more),
                }
            };
            match at[which] {
                Some(i) => rec.map.set_at(i, attr),
                None => rec.map.push_new(name, attr),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::attrs::{bool_array, BoolLists};

    #[test]
    fn flag_lists_read_as_bits_are_the_lists_made_from_them() {
        let ctx = pir_dialects::pd_op_context();
        let true1 = bool_array(&ctx, &[true]);
        let list = [true, false, true, true];
        let given = bool_array(&ctx, &list);
        assert_eq!(given_bits(&ctx, given, true1, 2), Some((4, 0b1101)));
        assert_eq!(given_bits(&ctx, true1, true1, 3), Some((1, 1)));
        // Nothing given: falses, one per result.
        assert_eq!(given_bits(&ctx, Attribute::NULL, true1, 3), Some((3, 0)));
        assert_eq!(given_bits(&ctx, Attribute::NULL, true1, 65), None);
        let long = bool_array(&ctx, &[false; 65]);
        assert_eq!(given_bits(&ctx, long, true1, 1), None);
        let mut lists = BoolLists::default();
        assert_eq!(lists.get_bits(&ctx, 4, 0b1101), given);
        assert_eq!(lists.get(&ctx, &list), given);
        assert_eq!(lists.get_bits(&ctx, 1, 1), true1);
    }
}
