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

/// The flag list an op builder gave: `[true]`, an array of bools, else one
/// false per result.
#[derive(Clone, Copy)]
enum Given<'c> {
    /// `[true]` (the most common, known without looking it up).
    True1,
    /// An array of bools (elements not bools read as false).
    List(&'c [Attribute]),
    /// Nothing: this many falses.
    Falses(usize),
}

impl<'c> Given<'c> {
    /// The list `given` is, for `n` results.
    fn of(ctx: &'c IrContext, given: Attribute, true1: Attribute, n: usize) -> Self {
        if given == true1 {
            return Given::True1;
        }
        Some(given)
            .filter(|a| !a.is_null())
            .and_then(|a| ctx.attr_as::<ArrayAttr>(a))
            .map_or(Given::Falses(n), |list| Given::List(&list.0))
    }

    /// The number of flags.
    fn len(self) -> usize {
        match self {
            Given::True1 => 1,
            Given::List(list) => list.len(),
            Given::Falses(n) => n,
        }
    }

    /// Values `64 w`… as bits (value `64 w + i` bit `i`).
    #[inline]
    fn word(self, ctx: &IrContext, w: usize) -> u64 {
        match self {
            Given::True1 => u64::from(w == 0),
            Given::List(list) => {
                list.iter()
                    .skip(64 * w)
                    .take(64)
                    .enumerate()
                    .fold(0, |bits, (i, &x)| {
                        bits | u64::from(ctx.attr_as::<BoolAttr>(x).is_some_and(|b| b.0)) << i
                    })
            }
            Given::Falses(_) => 0,
        }
    }
}

/// A flag's list for an op's results, a word at a time (value `i` bit
/// `i % 64` of word `i / 64`): what an op builder gave, each result with
/// its flags set (bit 0 of its `value_flags`) taking its own (bit `bit`);
/// a result past the list's end is left out.
struct FlagWords<'c, R> {
    ctx: &'c IrContext,
    given: Given<'c>,
    /// The `value_flags` of the results not yet read, in order.
    results: R,
    bit: u8,
    /// The next word.
    w: usize,
}

impl<R: Iterator<Item = u8>> Iterator for FlagWords<'_, R> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        let start = 64 * self.w;
        let len = self.given.len();
        if start >= len && self.w > 0 {
            return None;
        }
        let mut bits = self.given.word(self.ctx, self.w);
        self.w += 1;
        let in_word = (len - start.min(len)).min(64);
        for (i, f) in self.results.by_ref().take(in_word).enumerate() {
            if f & 1 != 0 {
                if f & self.bit != 0 {
                    bits |= 1 << i;
                } else {
                    bits &= !(1 << i);
                }
            }
        }
        Some(bits)
    }
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
        // Inlined into the walk: it runs for every name of the top scope.
        self.scopes.for_each_top_binding(
            #[inline(always)]
            |name, top_at, older, current| {
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
            },
        );
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
            } else {
                let given = Given::of(ctx, given, self.k.true1, n);
                let len = given.len();
                let results = self.program.results(op).map(|v| flags[v.index()]);
                let mut words = FlagWords {
                    ctx,
                    given,
                    results,
                    bit,
                    w: 0,
                };
                match (len, words.next().unwrap_or(0)) {
                    (1, 1) => self.k.true1,
                    (1, 0) => self.k.false1,
                    // At most 64 flags (every op but a few): one word.
                    (len, first) if len <= 64 => {
                        self.memo.get_mut().bool_lists.get_words(ctx, len, &[first])
                    }
                    (len, first) => {
                        let words: Vec<u64> = std::iter::once(first).chain(words).collect();
                        self.memo.get_mut().bool_lists.get_words(ctx, len, &words)
                    }
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
    use prost::Message;

    use super::*;
    use crate::proto::{self, op_desc};
    use crate::translate::attrs::BoolLists;
    use pir_core::builtin::bool_array;

    /// The words [`FlagWords`] gives for results of the `value_flags`
    /// `results` over what a builder gave, checked to be as many as the
    /// list needs with no bit set past its end.
    fn flag_words(ctx: &IrContext, given: Attribute, results: &[u8], bit: u8) -> Vec<u64> {
        let true1 = bool_array(ctx, &[true]);
        let given = Given::of(ctx, given, true1, results.len());
        let len = given.len();
        let results = results.iter().copied();
        let words: Vec<u64> = FlagWords {
            ctx,
            given,
            results,
            bit,
            w: 0,
        }
        .collect();
        assert_eq!(words.len(), len.div_ceil(64).max(1));
        for (w, word) in words.iter().enumerate() {
            let held = len.saturating_sub(64 * w);
            assert!(held >= 64 || word >> held == 0, "{len}: word {w} {word:#x}");
        }
        words
    }

    fn values(words: &[u64], len: usize) -> Vec<bool> {
        (0..len)
            .map(|i| words[i / 64] >> (i % 64) & 1 != 0)
            .collect()
    }

    #[test]
    fn flag_lists_given_by_a_builder_read_as_the_lists_made_from_them() {
        let ctx = pir_dialects::pd_op_context();
        let read = |given, n| {
            let unset = vec![0u8; n];
            let len = Given::of(&ctx, given, bool_array(&ctx, &[true]), n).len();
            values(&flag_words(&ctx, given, &unset, 2), len)
        };
        let list = [true, false, true, true];
        assert_eq!(read(bool_array(&ctx, &list), 2), list);
        assert_eq!(read(bool_array(&ctx, &[true]), 3), [true]);
        // Nothing given: falses, one per result.
        assert_eq!(read(Attribute::NULL, 3), [false; 3]);
        assert_eq!(read(Attribute::NULL, 65), [false; 65]);
        assert_eq!(read(Attribute::NULL, 0), [false; 0]);
        let long: Vec<bool> = (0..130).map(|i| i % 3 == 0 || i == 129).collect();
        assert_eq!(read(bool_array(&ctx, &long), 1), long);
        let mut lists = BoolLists::default();
        for values in [&list[..], &[true][..], &long[..], &[][..]] {
            assert_eq!(lists.get(&ctx, values), bool_array(&ctx, values));
        }
    }

    #[test]
    fn result_flags_cover_a_builders_list_of_more_than_64_where_set() {
        let ctx = pir_dialects::pd_op_context();
        let given: Vec<bool> = (0..70).map(|i| i % 7 == 0 || i == 65 || i == 69).collect();
        // 68 results: the even ones flagged, `stop_gradient` on every
        // fourth; the odd ones and the list's last two keep what was given.
        let results: Vec<u8> = (0..68)
            .map(|i| {
                if i % 2 == 0 {
                    1 | u8::from(i % 4 == 0) << 1
                } else {
                    0
                }
            })
            .collect();
        let expected: Vec<bool> = (0..70)
            .map(|i| {
                if i < 68 && i % 2 == 0 {
                    i % 4 == 0
                } else {
                    given[i]
                }
            })
            .collect();
        let words = flag_words(&ctx, bool_array(&ctx, &given), &results, 2);
        assert_eq!(values(&words, 70), expected);
        let mut lists = BoolLists::default();
        assert_eq!(
            lists.get_words(&ctx, 70, &words),
            bool_array(&ctx, &expected)
        );
        // A list shorter than the results: those past its end are left out.
        let words = flag_words(&ctx, bool_array(&ctx, &[true]), &[1, 3, 3], 2);
        assert_eq!(words, [0]);
        let many = vec![3u8; 130];
        let words = flag_words(&ctx, bool_array(&ctx, &[false; 66]), &many, 2);
        assert_eq!(words, [u64::MAX, 0b11]);
    }

    /// A top block running a `conditional_block` whose outputs `o0`, `o1`…
    /// are declared with the flags `flags` gives each (`stop_gradient`,
    /// `persistable`); its branch writes none of them.
    fn conditional_with_outputs(flags: &[(bool, bool)]) -> Vec<u8> {
        let names: Vec<String> = (0..flags.len()).map(|i| format!("o{i}")).collect();
        let mut vars = vec![proto::VarDesc {
            persistable: Some(false),
            ..crate::desc::tests::tensor_var("c", vec![1])
        }];
        for (name, &(stop_gradient, persistable)) in names.iter().zip(flags) {
            vars.push(proto::VarDesc {
                stop_gradient: Some(stop_gradient),
                persistable: Some(persistable),
                ..crate::desc::tests::tensor_var(name, vec![2])
            });
        }
        let slot = |parameter: &str, arguments: Vec<String>| op_desc::Var {
            parameter: parameter.into(),
            arguments,
        };
        let inputs = std::iter::once("c".to_owned()).chain(names.iter().cloned());
        let conditional = proto::OpDesc {
            r#type: "conditional_block".into(),
            inputs: vec![
                slot("Cond", vec!["c".into()]),
                slot("Input", inputs.collect()),
            ],
            outputs: vec![slot("Out", names)],
            attrs: vec![op_desc::Attr {
                name: "sub_block".into(),
                r#type: proto::AttrType::Block as i32,
                block_idx: Some(1),
                ..Default::default()
            }],
            is_target: None,
        };
        let block = |idx, parent_idx, vars, ops| proto::BlockDesc {
            idx,
            parent_idx,
            vars,
            ops,
            forward_block_idx: None,
        };
        proto::ProgramDesc {
            blocks: vec![
                block(0, -1, vars, vec![conditional]),
                block(1, 0, vec![], vec![]),
            ],
            version: None,
            op_version_map: None,
        }
        .encode_to_vec()
    }

    #[test]
    fn an_op_of_more_than_64_results_takes_each_results_flags() {
        let flags: Vec<(bool, bool)> = (0..70)
            .map(|i| (i % 3 == 0 || i == 69, i % 5 == 1 || i == 64))
            .collect();
        let ctx = pir_dialects::pd_op_context();
        let bytes = conditional_with_outputs(&flags);
        let program = crate::translate_bytes(&bytes, ctx.clone(), Default::default())
            .expect("the program translates");
        let top = program.top_block();
        let conditional = program
            .block_ops(top)
            .find(|&op| program.op_name_str(op) == "pd_op.if")
            .expect("a `pd_op.if`");
        assert_eq!(program.num_results(conditional), flags.len());
        let (stop_gradient, persistable): (Vec<bool>, Vec<bool>) = flags.into_iter().unzip();
        assert_eq!(
            program.attr(conditional, "stop_gradient"),
            Some(bool_array(&ctx, &stop_gradient))
        );
        assert_eq!(
            program.attr(conditional, "persistable"),
            Some(bool_array(&ctx, &persistable))
        );
    }
}
