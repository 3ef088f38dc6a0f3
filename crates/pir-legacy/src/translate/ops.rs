//! Creating ops: the symbol and writer of each op name (remembered in the
//! context memo), the attribute map every created op keeps until the end
//! (attributes are ordered as Paddle's writer orders them only then, when
//! the result flags are known), the libstdc++ map orders those maps need,
//! and the final attribute dictionaries, with the attribute kind checks the
//! ops owe ([`KindCheck`]).

use std::sync::Arc;

use pir_core::entity::EntityId;
use pir_core::{AttrDict, Attribute, InsertPoint, OpId, Program, Symbol, Type, ValueId};
use pir_dialects::op_def::{AttrKind, OpDef};
use rustc_hash::FxHashMap;

use super::attrs::{self, AttrMap};
use super::flags::Flagging;
use super::{general, memo, Translator, TYPICAL_KINDS};
use crate::error::Result;

/// Map orders by the hash of their keys' addresses, with those addresses.
pub(super) type LocalOrders = FxHashMap<u64, Vec<(Box<[(usize, usize)]>, Arc<[usize]>)>>;

/// The final dictionaries of the maps of ops without a definition made so
/// far in a translation, by their entries: they follow from those alone,
/// and the ops the translator makes itself (`builtin.slice`, `pd_op.if`)
/// repeat a few maps.
#[derive(Default)]
struct GenericDicts {
    /// Dictionaries by entries: each key's address and length (within one
    /// translation an address names one text) and its value.
    known: FxHashMap<Vec<memo::KeyedEntry>, AttrDict>,
    /// The entries of the map asked for (kept to reuse its room).
    entries: Vec<memo::KeyedEntry>,
}

/// The last dictionary made in a translation for an op of each definition,
/// with the map it was made from and the result flags kept beside it (see
/// [`Translator::finish`]): ops of one kind often come with the same
/// attributes (a network's repeated blocks), and comparing two maps costs
/// less than looking one up in the memo. Only dictionaries whose kinds
/// were checked are kept (as in the memo).
struct LastDicts<'r, 'd> {
    /// By definition facts index.
    by_facts: Vec<Option<KeptDict<'r, 'd>>>,
}

/// A map, the result flags beside it and its dictionary.
type KeptDict<'r, 'd> = (&'r AttrMap<'d>, Option<[Attribute; 2]>, AttrDict);

impl<'r, 'd> LastDicts<'r, 'd> {
    fn new(facts: usize) -> Self {
        LastDicts {
            by_facts: vec![None; facts],
        }
    }

    /// The dictionary last kept for `rec`'s definition, when made from a
    /// map of the same entries (keys by address: within one translation an
    /// address names one text) and the same flags beside it.
    #[inline]
    fn get(&self, rec: &OpRecord<'d>, flags: Option<[Attribute; 2]>) -> Option<AttrDict> {
        let Writer::Declared(_, facts) = rec.writer else {
            return None;
        };
        let (kept, kept_flags, dict) = (*self.by_facts.get(facts)?)?;
        let (a, b) = (kept.entries(), rec.map.entries());
        let same = kept_flags == flags
            && a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(&(k, x), &(l, y))| x == y && k.as_ptr() == l.as_ptr() && k.len() == l.len());
        same.then_some(dict)
    }

    /// Keeps `dict` as the last one of `rec`'s definition.
    #[inline]
    fn keep(&mut self, rec: &'r OpRecord<'d>, flags: Option<[Attribute; 2]>, dict: AttrDict) {
        if let Writer::Declared(_, facts) = rec.writer {
            if let Some(slot) = self.by_facts.get_mut(facts) {
                *slot = Some((&rec.map, flags, dict));
            }
        }
    }
}

/// Most key lists [`Translator::order_of`] remembers per translation.
const MAX_LOCAL_ORDERS: usize = 256;

/// How Paddle's writer and reader leave an op's attributes (see
/// [`final_attrs`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Writer {
    /// `builtin.parameter`: a fixed list.
    Parameter,
    /// A `pd_op` op with a definition: declared attributes in order (the
    /// index of its facts in `Translator::def_facts`).
    Declared(&'static OpDef, usize),
    /// Any other op: every attribute in its map's order.
    Generic,
}

/// What the translator keeps of a created op until the end.
pub(crate) struct OpRecord<'d> {
    /// Its attributes.
    pub map: AttrMap<'d>,
    /// How the writer treats them.
    pub writer: Writer,
    /// Every key is a `&'static str` (an op builder's map): a key's address
    /// then names it in any translation of the process.
    pub static_keys: bool,
    /// Set once the legacy op that made it is translated: its attribute
    /// kinds are then owed a check, made when the final dictionary is (see
    /// [`KindCheck`]).
    pub kind_check: Option<KindCheck>,
}

/// A check of an op's attribute kinds against its definition, owed since
/// the legacy op that made it was translated. Ops whose final dictionary
/// was made before (same definition, keys and values) passed it then; the
/// others are checked when their dictionary is made. When a translation
/// fails, the checks owed so far are made first, in the order they were
/// owed, so a kind error is reported before a later op's error, as when
/// each op was checked right after it was translated.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KindCheck {
    /// How many checks were owed before this one.
    pub seq: usize,
    /// The legacy op that made the op (for the error).
    pub at: super::Cursor,
}

impl<'d> Translator<'d> {
    /// Creates an op at `at`.
    pub fn create_op(
        &mut self,
        at: InsertPoint,
        name: &'static str,
        operands: &[Option<ValueId>],
        results: &[Type],
        attrs: AttrMap<'d>,
        regions: usize,
    ) -> OpId {
        let (sym, writer) = self.op_kind(name);
        self.create_op_sym(at, sym, writer, operands, results, attrs, regions)
    }

    /// The symbol and writer of op name `name` (remembered in the context
    /// memo by the name's address): the answer of the look-up of the same
    /// number in the last translation in this context when for the same
    /// name (a model translated again makes the same ops in the same
    /// order), else found by hashing the address.
    #[inline]
    pub(super) fn op_kind(&mut self, name: &'static str) -> (Symbol, Writer) {
        let key = (name.as_ptr() as usize, name.len());
        let seq = self.lookups.next_op_kind();
        match self.memo.get_mut().op_kinds.get(seq) {
            Some(&(kept, known)) if kept == key => known,
            _ => self.op_kind_by_name(seq, name),
        }
    }

    /// [`Translator::op_kind`] by the name's address, kept as look-up `seq`.
    #[inline(never)]
    fn op_kind_by_name(&mut self, seq: usize, name: &'static str) -> (Symbol, Writer) {
        let key = (name.as_ptr() as usize, name.len());
        let known = match self.memo.get_mut().names.get(&key) {
            Some(&known) => known,
            None => {
                let known = (self.ctx.symbol(name), self.writer_of(name));
                self.memo.get_mut().names.insert(key, known);
                known
            }
        };
        self.memo.get_mut().op_kinds.keep(seq, Some((key, known)));
        known
    }

    /// Creates an op of a name made at run time (`legacy.<type>`).
    pub fn create_op_named(
        &mut self,
        at: InsertPoint,
        name: &str,
        operands: &[Option<ValueId>],
        results: &[Type],
        attrs: AttrMap<'d>,
    ) -> OpId {
        let sym = self.ctx.symbol(name);
        let writer = self.writer_of(name);
        self.create_op_sym(at, sym, writer, operands, results, attrs, 0)
    }

    fn writer_of(&mut self, name: &str) -> Writer {
        if name == "builtin.parameter" {
            return Writer::Parameter;
        }
        match general::def(name).filter(|d| d.has_yaml_info) {
            Some(d) => {
                let facts = &mut self.memo.get_mut().def_facts;
                facts.push(memo::def_facts(&self.ctx, d));
                Writer::Declared(d, facts.len() - 1)
            }
            None => Writer::Generic,
        }
    }

    /// Creates an op of a known symbol and writer (see
    /// [`Translator::op_kind`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn create_op_sym(
        &mut self,
        at: InsertPoint,
        sym: Symbol,
        writer: Writer,
        operands: &[Option<ValueId>],
        results: &[Type],
        attrs: AttrMap<'d>,
        regions: usize,
    ) -> OpId {
        self.count_op(operands.len(), results.len(), attrs.entries().len());
        let op = self
            .program
            .create_op_at(at, sym, operands, results, AttrDict::EMPTY, regions);
        let i = op.index();
        let rec = Some(OpRecord {
            map: attrs,
            writer,
            static_keys: false,
            kind_check: None,
        });
        if self.attrs.len() == i {
            self.attrs.push(rec);
        } else {
            if self.attrs.len() < i {
                self.attrs.resize_with(i + 1, || None);
            }
            self.attrs[i] = rec;
        }
        op
    }

    /// Records that every key of `op`'s map is a `&'static str` (see
    /// [`OpRecord::static_keys`]).
    pub fn mark_static_keys(&mut self, op: OpId) {
        if let Some(Some(rec)) = self.attrs.get_mut(op.index()) {
            rec.static_keys = true;
        }
    }

    /// The attribute map of a created op.
    pub fn attr_map(&mut self, op: OpId) -> Option<&mut AttrMap<'d>> {
        self.attrs
            .get_mut(op.index())
            .and_then(Option::as_mut)
            .map(|r| &mut r.map)
    }

    /// The libstdc++ `unordered_map` order of the keys of `map` (indices),
    /// remembered: most ops of a type insert the same keys.
    pub fn order_of(&self, map: &AttrMap<'d>) -> Arc<[usize]> {
        self.order_of_keys(map.keys())
    }

    /// The libstdc++ `unordered_map` order of distinct `keys` inserted in
    /// this order (indices).
    pub fn order_of_keys<'k>(&self, keys: impl Iterator<Item = &'k str> + Clone) -> Arc<[usize]> {
        // Most maps have the static names of a definition or builder: known
        // by the keys' addresses (equal addresses are equal keys) without
        // hashing their text.
        let addr = |k: &str| (k.as_ptr() as usize, k.len());
        let mut h = rustc_hash::FxHasher::default();
        for k in keys.clone() {
            std::hash::Hash::hash(&addr(k), &mut h);
        }
        let hash = std::hash::Hasher::finish(&h);
        let mut orders = self.orders.borrow_mut();
        if let Some(list) = orders.get(&hash) {
            for (known, order) in list {
                if known.iter().copied().eq(keys.clone().map(addr)) {
                    return order.clone();
                }
            }
        }
        let order = memo::map_order(keys.clone());
        if orders.len() < MAX_LOCAL_ORDERS {
            let known = keys.map(addr).collect();
            orders.entry(hash).or_default().push((known, order.clone()));
        }
        order
    }

    /// The final dictionary of the map of an op without a definition
    /// ([`Writer::Generic`], whose attribute kinds are not checked),
    /// remembered in `known` for the rest of the translation, or in the
    /// context memo when every key is static ([`OpRecord::static_keys`]:
    /// their addresses then name them in any translation). Kept out of the
    /// loop over the ops: most ops have a definition.
    #[inline(never)]
    fn generic_dict(&mut self, rec: &OpRecord<'d>, known: &mut GenericDicts) -> AttrDict {
        let map = &rec.map;
        // Most have no attributes (`builtin.combine`, `cf.yield`).
        if map.entries().is_empty() {
            return AttrDict::EMPTY;
        }
        known.entries.clear();
        known.entries.extend(
            map.entries()
                .iter()
                .map(|&(k, a)| (k.as_ptr() as usize, k.len(), a)),
        );
        let found = if rec.static_keys {
            self.memo.get_mut().generic_dict(&known.entries)
        } else {
            known.known.get(known.entries.as_slice()).copied()
        };
        if let Some(dict) = found {
            return dict;
        }
        let mut entries = Vec::with_capacity(map.entries().len());
        final_attrs(self, Writer::Generic, map, &mut entries);
        let dict = self.ctx.dict(&entries);
        if rec.static_keys {
            self.memo.get_mut().keep_generic_dict(&known.entries, dict);
        } else {
            known.known.insert(known.entries.clone(), dict);
        }
        dict
    }

    /// Gives every op its final attribute dictionary, in the order Paddle's
    /// writer produces and with what its reader keeps, making the attribute
    /// kind checks owed ([`KindCheck`]) on the way: a dictionary made
    /// before was checked then.
    pub(super) fn finish(mut self) -> Result<Program> {
        let mut attrs = std::mem::take(&mut self.attrs);
        let mut entries = Vec::with_capacity(TYPICAL_KINDS);
        let mut values = Vec::with_capacity(TYPICAL_KINDS);
        let mut keys = Vec::with_capacity(TYPICAL_KINDS);
        let mut generic = GenericDicts::default();
        let mut last = LastDicts::new(self.memo.get_mut().def_facts.len());
        // Numbers the look-ups of final dictionaries in the memo.
        let mut finished_seq = 0;
        let mut failed = None;
        for (i, slot) in attrs.iter_mut().enumerate() {
            let Some(rec) = slot else {
                continue;
            };
            let op = OpId::new(i);
            // The result flags of most ops follow their map's entries (one
            // flagged result; a parameter's name or a definition's declared
            // attributes in order, none named as a flag): kept beside the
            // map, they are appended to it only when its dictionary is made
            // for the first time. Any other map gets them now.
            let flags = match self.flagging(op) {
                Flagging::Unflagged => None,
                Flagging::Single(f) if self.flags_follow(rec) => Some(f),
                _ => {
                    self.set_flags(op, rec);
                    None
                }
            };
            // Most ops have what the general path or an op builder makes:
            // their dictionary follows from the definition and the values
            // alone (maps in declared order), or from those and the keys
            // in map order (builders' maps, whose keys are static strings,
            // known by address). Ops of one type and attributes repeat, so
            // most were made before: taken from the memo without listing
            // and interning the entries again, or checking their kinds.
            keys.clear();
            let memo = self.memo.get_mut();
            // A parameter's dictionary follows from its name and flags.
            let parameter = match (rec.writer, rec.map.entries(), flags) {
                (Writer::Parameter, [("parameter_name", name)], Some([sg, p])) => {
                    Some([*name, sg, p])
                }
                (
                    Writer::Parameter,
                    [("parameter_name", name), ("stop_gradient", sg), ("persistable", p)],
                    None,
                ) => Some([*name, *sg, *p]),
                _ => None,
            };
            if let Some(dict) = parameter.and_then(|k| memo.parameter_dict(&k)) {
                self.program.set_attrs(op, dict);
                continue;
            }
            if let Writer::Generic = rec.writer {
                let dict = self.generic_dict(rec, &mut generic);
                self.program.set_attrs(op, dict);
                continue;
            }
            if let Some(dict) = last.get(rec, flags) {
                self.program.set_attrs(op, dict);
                continue;
            }
            let key = match rec.writer {
                // Flags beside the map: its entries are in declared order.
                Writer::Declared(_, facts) if flags.is_some() => Some(facts),
                Writer::Declared(_, facts)
                    if in_declared_order(&memo.def_facts[facts].specs, &rec.map) =>
                {
                    Some(facts)
                }
                Writer::Declared(_, facts) if rec.static_keys => {
                    keys.extend(rec.map.keys().map(|k| (k.as_ptr() as usize, k.len())));
                    Some(facts)
                }
                _ => None,
            };
            let seq = finished_seq;
            if let Some(facts) = key {
                finished_seq += 1;
                values.clear();
                values.extend(rec.map.entries().iter().map(|&(_, a)| a));
                if let Some(f) = flags {
                    values.extend_from_slice(&f);
                }
                let memo = self.memo.get_mut();
                if let Some(dict) = memo.finished_dict(seq, facts, &keys, &values) {
                    last.keep(rec, flags, dict);
                    self.program.set_attrs(op, dict);
                    continue;
                }
            }
            // Made for the first time, from the whole map, and checked (an
            // op no legacy op owes a check for is made by the translator
            // itself; its dictionary is remembered only when its kinds
            // match, so that a dictionary found in the memo always passed).
            if let Some(f) = flags {
                for (name, a) in super::FLAGS.iter().zip(f) {
                    rec.map.push_new(name, a);
                }
            }
            let rec: &OpRecord<'d> = rec;
            let mismatch = self.kind_mismatch(rec);
            if let (Some(message), Some(check)) = (mismatch.clone(), rec.kind_check) {
                failed = Some((check, message));
                break;
            }
            let kinds_match = mismatch.is_none();
            entries.clear();
            final_attrs(&mut self, rec.writer, &rec.map, &mut entries);
            let dict = self.ctx.dict(&entries);
            if let (Some(facts), true) = (key, kinds_match) {
                let memo = self.memo.get_mut();
                memo.keep_finished_dict(seq, facts, &keys, &values, dict);
            }
            if let (Some(k), true) = (parameter, kinds_match) {
                self.memo.get_mut().keep_parameter_dict(k, dict);
            }
            if kinds_match {
                last.keep(rec, None, dict);
            }
            self.program.set_attrs(op, dict);
        }
        if let Some((check, message)) = failed {
            self.set_all_flags(&mut attrs);
            let first = self.first_kind_error(&attrs);
            return Err(first.unwrap_or_else(|| self.kind_error(check, message)));
        }
        memo::keep_context_memo(&self.ctx, self.memo.into_inner());
        Ok(self.program)
    }

    /// Whether the result flags follow the entries of `rec`'s map without
    /// a search: the map holds a parameter's name only, or a definition's
    /// declared attributes in order, none named as a flag.
    fn flags_follow(&mut self, rec: &OpRecord<'d>) -> bool {
        match (rec.writer, rec.map.entries()) {
            (Writer::Parameter, [("parameter_name", _)]) => true,
            (Writer::Declared(_, facts), _) => {
                let facts = &self.memo.get_mut().def_facts[facts];
                !facts.declares_flags && declared_exactly(&facts.specs, &rec.map)
            }
            _ => false,
        }
    }
}

/// Whether `map` holds what the general path and most op builders make for
/// a definition with the declared attributes `specs` (its facts'): their
/// names in order, then the two flags, or no flags at all (ops whose
/// results no variable names, such as `fetch`). [`final_attrs`] of such a
/// map follows from the definition and the values alone (the number of
/// values tells the two layouts apart).
pub(super) fn in_declared_order(specs: &[(&str, AttrKind)], map: &AttrMap<'_>) -> bool {
    let entries = map.entries();
    let n = specs.len();
    let flags_follow = match entries.get(n..) {
        Some([]) => true,
        Some([(sg, _), (p, _)]) => *sg == super::FLAGS[0] && *p == super::FLAGS[1],
        _ => false,
    };
    flags_follow && keys_in_order(specs, entries)
}

/// Whether `map` holds the declared attributes `specs` in order and
/// nothing else (what the general path makes, before the result flags).
#[inline]
pub(super) fn declared_exactly(specs: &[(&str, AttrKind)], map: &AttrMap<'_>) -> bool {
    let entries = map.entries();
    entries.len() == specs.len() && keys_in_order(specs, entries)
}

/// Whether the keys of `entries` begin with the declared names of `specs`,
/// in order (as far as both go).
#[inline]
fn keys_in_order(specs: &[(&str, AttrKind)], entries: &[(&str, Attribute)]) -> bool {
    entries
        .iter()
        .zip(specs)
        .all(|((k, _), (name, _))| attrs::same(k, name))
}

/// The attribute list Paddle's writer and reader leave an op with, into
/// `out`: a `pd_op` op with a definition keeps its declared attributes in
/// declaration order (others are dropped); every other op keeps all, in its
/// map's order; `stop_gradient`/`persistable` follow in the map's order.
pub(super) fn final_attrs<'d>(
    t: &mut Translator<'d>,
    writer: Writer,
    map: &AttrMap<'d>,
    out: &mut Vec<(Symbol, Attribute)>,
) {
    let is_output = |k: &str| k == "stop_gradient" || k == "persistable";
    match writer {
        Writer::Parameter => {
            let k = &t.k;
            // What `create_parameters_and_data` and the flags make: the
            // name, then both flags; the rest are the defaults.
            if let [("parameter_name", name), ("stop_gradient", sg), ("persistable", p)] =
                map.entries()
            {
                let [dist, is_param, clip, name_sym, p_sym, sg_sym, trainable] = k.param_syms;
                out.extend([
                    (dist, k.false1),
                    (is_param, k.true1),
                    (clip, k.false1),
                    (name_sym, *name),
                    (p_sym, *p),
                    (sg_sym, *sg),
                    (trainable, k.true1),
                ]);
                return;
            }
            let defaults = [false, true, false, false, true, true, true];
            for ((name, sym), default) in super::PARAM_ATTRS.iter().zip(k.param_syms).zip(defaults)
            {
                match map.get(name) {
                    Some(a) => out.push((sym, a)),
                    None if *name == "parameter_name" => {}
                    None => out.push((sym, if default { k.true1 } else { k.false1 })),
                }
            }
        }
        Writer::Declared(d, facts) => {
            // Maps made from the definition hold its names in its order:
            // follow them along (keys are distinct, and an equal address is
            // an equal name), looking up only what is elsewhere.
            let entries = map.entries();
            let facts = &t.memo.get_mut().def_facts[facts];
            let mut next = 0;
            for (&(name, _), &sym) in facts.specs.iter().zip(facts.syms.iter()) {
                let here = entries
                    .get(next)
                    .filter(|(k, _)| k.as_ptr() == name.as_ptr() && k.len() == name.len());
                if let Some(&(_, a)) = here {
                    next += 1;
                    out.push((sym, a));
                } else if let Some(a) = map.get(name) {
                    out.push((sym, a));
                }
            }
            let flag_sym = |k: &str| {
                if k == "stop_gradient" {
                    t.k.stop_gradient
                } else {
                    t.k.persistable
                }
            };
            // What the general path makes: the declared names in order, then
            // the two flags; the definition knows their order.
            if let [(sg, sg_attr), (p, p_attr)] = &entries[next..] {
                if next == d.attributes.len() && *sg == super::FLAGS[0] && *p == super::FLAGS[1] {
                    let (sg, p) = ((t.k.stop_gradient, *sg_attr), (t.k.persistable, *p_attr));
                    if facts.stop_gradient_first {
                        out.extend([sg, p]);
                    } else {
                        out.extend([p, sg]);
                    }
                    return;
                }
            }
            let mut flags = map.entries().iter().filter(|(k, _)| is_output(k));
            match (flags.next(), flags.next()) {
                (None, _) => {}
                (Some(&(k, a)), None) => out.push((flag_sym(k), a)),
                (Some(_), Some(_)) => {
                    let order = t.order_of(map);
                    for &i in order.iter() {
                        let (k, a) = map.entries()[i];
                        if is_output(k) {
                            out.push((flag_sym(k), a));
                        }
                    }
                }
            }
        }
        Writer::Generic => {
            let order = t.order_of(map);
            for &i in order.iter() {
                let (k, a) = map.entries()[i];
                if k != "op_callstack" {
                    out.push((t.ctx.symbol(k), a));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pir_core::builtin::BoolAttr;
    use pir_core::Attribute;

    fn record<'d>(writer: Writer, entries: &[(&'d str, Attribute)]) -> OpRecord<'d> {
        let mut map = AttrMap::new();
        for &(k, a) in entries {
            map.push_new(k, a);
        }
        OpRecord {
            map,
            writer,
            static_keys: false,
            kind_check: None,
        }
    }

    /// Models translated one after another in one context, each twice,
    /// print as translated alone: the numbered answers one model leaves
    /// (op names, attributes given as inputs) are checked by the next,
    /// which asks the same numbers about other ops and values.
    #[test]
    fn models_translated_in_one_context_print_as_translated_alone() {
        let dir = pir_corpus::repo_root().join("tests/corpus/legacy");
        let models = [
            "lg_jit_text_encoder",
            "lg_control_more",
            "lg_dynamic_attrs",
            "lg_jit_shufflenet_v2",
        ];
        let read = |m: &str| std::fs::read(dir.join(format!("{m}.pdmodel"))).unwrap();
        let print = |bytes: &[u8], ctx| {
            crate::translate_bytes(bytes, ctx, Default::default())
                .unwrap()
                .to_string()
        };
        // The memo follows the context last translated in: each model
        // alone first, then all in one context.
        let alone: Vec<String> = models
            .iter()
            .map(|m| print(&read(m), pir_dialects::pd_op_context()))
            .collect();
        let shared = pir_dialects::pd_op_context();
        for (m, alone) in models.iter().zip(&alone).chain(models.iter().zip(&alone)) {
            assert_eq!(&print(&read(m), shared.clone()), alone, "{m}");
        }
    }

    #[test]
    fn last_dicts_give_a_dictionary_for_the_same_entries_of_one_definition_only() {
        let ctx = pir_dialects::pd_op_context();
        let def = pir_dialects::op_def("pd_op.relu").expect("`pd_op.relu` is defined");
        let (t, f) = (
            ctx.intern_attr(BoolAttr(true)),
            ctx.intern_attr(BoolAttr(false)),
        );
        let dict = ctx.dict(&[(ctx.symbol("stop_gradient"), t)]);
        let key: &'static str = "stop_gradient";
        let elsewhere = String::from(key);
        let relu = Writer::Declared(def, 1);
        let kept = record(relu, &[(key, t)]);
        let same = record(relu, &[(key, t)]);
        let other_value = record(relu, &[(key, f)]);
        let other_address = record(relu, &[(elsewhere.as_str(), t)]);
        let longer = record(relu, &[(key, t), ("persistable", f)]);
        let other_facts = record(Writer::Declared(def, 0), &[(key, t)]);
        let generic = record(Writer::Generic, &[(key, t)]);
        let mut last = LastDicts::new(2);
        assert_eq!(last.get(&same, None), None);
        last.keep(&kept, None, dict);
        assert_eq!(last.get(&same, None), Some(dict));
        for differs in [
            &other_value,
            &other_address,
            &longer,
            &other_facts,
            &generic,
        ] {
            assert_eq!(last.get(differs, None), None);
        }
        // The flags beside a map count as its entries.
        assert_eq!(last.get(&same, Some([t, f])), None);
        // A later dictionary of the definition takes the place of the last.
        last.keep(&other_value, Some([t, f]), AttrDict::EMPTY);
        assert_eq!(last.get(&other_value, Some([t, f])), Some(AttrDict::EMPTY));
        assert_eq!(last.get(&other_value, Some([t, t])), None);
        assert_eq!(last.get(&other_value, None), None);
        assert_eq!(last.get(&same, None), None);
    }
}
