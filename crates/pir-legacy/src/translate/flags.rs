//! `stop_gradient` and `persistable` of the values bound in the top scope,
//! set once every op is made, as Paddle's `ProgramTranslator` sets them.

use pir_core::entity::EntityId;
use pir_core::{Attribute, OpId, ValueId};

use super::{Translator, FLAGS, NO_CAST};
use crate::inline::InlineVec;

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
        let last = desc.blocks.len() - 1;
        // (deciding block, name index, value, stop_gradient, persistable)
        let keys = self.scopes.top_keys();
        let mut updates: Vec<(usize, usize, ValueId, bool, bool)> = Vec::with_capacity(keys.len());
        // Names in any order: a value's updates are ordered below when it has
        // several names, and one name's values are pushed oldest first.
        for (k, name, values) in self.scopes.top_entries() {
            if NO_CAST.contains(&name) {
                continue;
            }
            let found = (0..=last)
                .rev()
                .find_map(|b| desc.find_var(b, name).map(|v| (b, v)));
            let Some((b, var)) = found else {
                continue;
            };
            for info in values {
                updates.push((b, k, info.value, var.stop_gradient, var.persistable));
            }
        }
        let mut seen = vec![false; self.program.value_slots()];
        let mut shared = false;
        for u in &updates {
            let i = u.2.index();
            shared |= std::mem::replace(&mut seen[i], true);
        }
        if shared {
            let mut position = vec![0usize; keys.len()];
            for (pos, k) in crate::umap::iteration_order(keys).into_iter().enumerate() {
                position[k] = pos;
            }
            updates.sort_by_key(|u| (u.0, position[u.1]));
        }
        // The last update of a value decides its flags (bit 0: set, bit 1:
        // stop_gradient, bit 2: persistable); ops are flagged in the order
        // first touched (the order does not matter: maps are per op).
        let mut flags = vec![0u8; self.program.value_slots()];
        let mut touched_op = vec![false; self.attrs.len()];
        let mut touched = Vec::with_capacity(self.attrs.len());
        for (_, _, value, stop_gradient, persistable) in updates {
            if let pir_core::ValueDef::Result { op, .. } = self.program.value_def(value) {
                flags[value.index()] =
                    1 | u8::from(stop_gradient) << 1 | u8::from(persistable) << 2;
                if let Some(t) = touched_op.get_mut(op.index()) {
                    if !std::mem::replace(t, true) {
                        touched.push(op);
                    }
                }
            }
        }
        for op in touched {
            self.set_flags(op, &flags);
        }
    }

    /// Sets `stop_gradient` then `persistable` of `op`'s results from
    /// `flags` (per value, as [`Translator::set_value_flags`] leaves them);
    /// results without flags keep what an op builder gave, else false.
    fn set_flags(&mut self, op: OpId, flags: &[u8]) {
        let n = self.program.num_results(op);
        let Some(rec) = self.attrs.get_mut(op.index()).and_then(Option::as_mut) else {
            return;
        };
        let ctx = &*self.ctx;
        for (which, name) in FLAGS.iter().enumerate() {
            let at = rec.map.slot_of(name, Attribute::NULL);
            let given = rec.map.entries()[at].1;
            // One result with its flag set, over nothing or one flag (most
            // ops): the flag alone decides.
            if n == 1 && (given.is_null() || given == self.k.true1 || given == self.k.false1) {
                let f = flags[self.program.result(op, 0).index()];
                if f & 1 != 0 {
                    let attr = if f & (2 << which) != 0 {
                        self.k.true1
                    } else {
                        self.k.false1
                    };
                    rec.map.set_at(at, attr);
                    continue;
                }
            }
            let given: Option<InlineVec<bool, 4>> = if given == self.k.true1 {
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
            for (i, bit) in bits.as_mut_slice().iter_mut().enumerate().take(n) {
                let f = flags[self.program.result(op, i).index()];
                if f & 1 != 0 {
                    *bit = f & (2 << which) != 0;
                }
            }
            let attr = match bits.as_slice() {
                [true] => self.k.true1,
                [false] => self.k.false1,
                more => self.bool_lists.get(ctx, more),
            };
            rec.map.set_at(at, attr);
        }
    }
}
