//! Reading a serialized `ProgramDesc` into [`ProgramDesc`] in one pass:
//! the program, its blocks and their variables and ops, field by field with
//! the wire rules of [`crate::wire`] (prost's), the layouts Paddle writes
//! most in one step each (`crate::canonical`). Counts are bounded while
//! reading; repeated slot and attribute names replace earlier ones, as in
//! Paddle's maps.

mod attr;
mod block;
mod in_order;
mod var;

use rustc_hash::FxHashMap;

use attr::{attr_value, decode_attr, RawAttr};
#[cfg(test)]
pub(super) use block::count_fields;
use block::decode_block;
#[cfg(test)]
use var::{decode_var, RawVarType};

use bumpalo::collections::Vec as ArenaVec;
use bumpalo::Bump;

use super::{
    op_location, Attr, AttrValue, BlockDesc, DescArena, OpDesc, OpVersionMap, ProgramDesc, Slot,
    MAX_ARGS, MAX_BLOCKS, MAX_OPS_PER_BLOCK, MAX_OP_ENTRIES, MAX_VARS_PER_BLOCK,
};
use crate::error::{LegacyError, Location, Result};
use crate::wire::{Reader, WireResult};

impl<'a> ProgramDesc<'a> {
    /// Decodes and checks a serialized `ProgramDesc`, its lists in `arena`
    /// ([`DescArena::for_bytes`] of the bytes' length has room for them).
    pub fn decode(bytes: &'a [u8], arena: &'a DescArena) -> Result<ProgramDesc<'a>> {
        let arena = &arena.0;
        let mut r = Reader::new(bytes, "ProgramDesc");
        let mut blocks: Vec<BlockDesc<'a>> = Vec::new();
        let mut version = None;
        let mut op_version_map = OpVersionMap::default();
        while r.has_more() {
            let (field, wire) = r.key()?;
            match field {
                1 => {
                    if blocks.len() >= MAX_BLOCKS {
                        return Err(LegacyError::Limit {
                            at: Box::new(Location::default()),
                            message: format!("more than {MAX_BLOCKS} blocks"),
                        });
                    }
                    let at = blocks.len();
                    let mut m = r.message(wire, "BlockDesc")?;
                    blocks.push(decode_block(&mut m, at, arena)?);
                }
                4 => {
                    let mut m = r.message(wire, "Version")?;
                    let v = version.get_or_insert(None);
                    while m.has_more() {
                        match m.key()? {
                            (1, w) => *v = Some(m.i64(w)?),
                            (f, w) => m.skip(f, w)?,
                        }
                    }
                }
                5 => {
                    let mut m = r.message(wire, "OpVersionMap")?;
                    // Checked here, decoded when asked for (`OpVersionMap`);
                    // a map checked before in this process is known good.
                    let bytes = m.rest();
                    if super::version::checked_before(bytes) {
                        op_version_map.push(bytes);
                        continue;
                    }
                    while m.has_more() {
                        let taken = crate::canonical::version_pairs_len(m.rest());
                        if taken > 0 {
                            m.advance(taken);
                            continue;
                        }
                        match m.key()? {
                            (1, w) => {
                                let mut p = m.message(w, "OpVersionMap.OpVersionPair")?;
                                decode_version_pair(&mut p)?;
                            }
                            (f, w) => m.skip(f, w)?,
                        }
                    }
                    super::version::remember_checked(bytes);
                    op_version_map.push(bytes);
                }
                _ => r.skip(field, wire)?,
            }
        }
        let desc = ProgramDesc {
            blocks,
            version: version.flatten(),
            op_version_map,
        };
        desc.check()?;
        Ok(desc)
    }
}

/// The general reader of one `OpDesc.Attr` message, for comparison with
/// [`crate::canonical::attr`].
#[cfg(test)]
pub(crate) fn general_attr<'a>(
    bytes: &'a [u8],
    arena: &'a Bump,
) -> WireResult<Result<(&'a str, AttrValue<'a>), String>> {
    let mut raw = RawAttr::default();
    decode_attr(&mut Reader::new(bytes, "OpDesc.Attr"), &mut raw)?;
    Ok(attr_value(&raw, arena).map(|v| (raw.name, v)))
}

/// The general reader of one `OpDesc.Var` message, for comparison with
/// [`crate::canonical::slot`].
#[cfg(test)]
pub(crate) fn general_slot<'a>(bytes: &'a [u8], arena: &'a Bump) -> WireResult<Slot<'a>> {
    decode_slot(&mut Reader::new(bytes, "OpDesc.Var"), arena)
}

/// The general reader of one `VarDesc` message, for comparison with
/// [`crate::canonical::dense_var`].
#[cfg(test)]
pub(crate) fn general_var<'a>(bytes: &'a [u8], arena: &'a Bump) -> WireResult<super::VarDesc<'a>> {
    decode_var(
        &mut Reader::new(bytes, "VarDesc"),
        &mut RawVarType::default(),
        arena,
    )
}

pub(super) fn decode_version_pair<'a>(r: &mut Reader<'a>) -> WireResult<(&'a str, i32)> {
    let mut name = "";
    let mut version = 0;
    while r.has_more() {
        match r.key()? {
            (1, w) => name = r.str(w)?,
            (2, w) => {
                let mut m = r.message(w, "OpVersion")?;
                while m.has_more() {
                    match m.key()? {
                        (1, w) => version = m.i32(w)?,
                        (f, w) => m.skip(f, w)?,
                    }
                }
            }
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok((name, version))
}

fn decode_slot<'a>(r: &mut Reader<'a>, arena: &'a Bump) -> WireResult<Slot<'a>> {
    let mut name = "";
    let mut args = ArenaVec::new_in(arena);
    while r.has_more() {
        match r.key()? {
            (1, w) => name = r.str(w)?,
            (2, w) => {
                let s = r.str(w)?;
                args.push(s);
            }
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(Slot {
        name,
        args: args.into_bump_slice(),
    })
}

/// Whether name `a` sorts before `b` (byte order), settled on the first
/// eight bytes where those differ (most names that are not equal), without
/// a call into `memcmp`. Inlined: called for every slot and attribute,
/// the call cost about as much as the comparison.
#[inline(always)]
pub(super) fn name_lt(a: &str, b: &str) -> bool {
    // One load for a name of eight bytes or more; a shorter one byte by
    // byte (a copy of a length known only at run time is a `memcpy` call,
    // which cost more than the whole comparison).
    #[inline(always)]
    fn prefix(s: &str) -> u64 {
        let b = s.as_bytes();
        if let Some(head) = b.first_chunk::<8>() {
            return u64::from_be_bytes(*head);
        }
        // Fewer than eight bytes: each shift is at least 8.
        b.iter()
            .enumerate()
            .fold(0, |w, (i, &c)| w | u64::from(c) << (56 - 8 * i))
    }
    // Names read in order mostly differ in their first byte already (an
    // empty name is less than any other, as `None` is less than `Some`).
    match a.as_bytes().first().cmp(&b.as_bytes().first()) {
        std::cmp::Ordering::Equal => {}
        o => return o.is_lt(),
    }
    // Zero padding keeps the order: a shorter name is less unless the
    // longer one goes on with zero bytes, which leaves the prefixes equal.
    match prefix(a).cmp(&prefix(b)) {
        std::cmp::Ordering::Equal => a < b,
        o => o.is_lt(),
    }
}

/// Slots read out of order (see [`add_slot`]): which are inputs, and an
/// index of the names once there are many.
#[derive(Default)]
struct Unsorted<'a> {
    /// Whether each of `op.slots` is an input.
    is_input: Vec<bool>,
    /// Where each (input?, name) is in `op.slots`; empty until there are
    /// [`INDEXED_ATTRS`] slots.
    index: FxHashMap<(bool, &'a str), usize>,
}

/// Adds an input (`input`) or output slot. Paddle's `OpDesc` keeps slots in
/// a `std::map`: each part sorted by name, a repeated name replacing the
/// earlier one's arguments. Paddle writes them that way, inputs first: while
/// they come so, a slot goes at the end. After the first slot out of order
/// (`unsorted`), slots are appended (a repeated name found by a scan, or by
/// a hash index among many) and sorted once the op is read
/// ([`sort_slots`]), so thousands out of order cost `n log n`, not a shift
/// of the list each.
#[inline(always)]
fn insert_slot<'a>(
    op: &mut OpParts<'a>,
    unsorted: &mut Option<Unsorted<'a>>,
    input: bool,
    slot: Slot<'a>,
) {
    if unsorted.is_none() {
        // An input after an output is out of order even when its name is.
        let at_end = !input || op.num_inputs == op.slots.len();
        let start = if input { 0 } else { op.num_inputs };
        // `start` is at most the length: the last slot of this part, if any.
        let last = op.slots.get(start..).and_then(<[Slot<'a>]>::last);
        if at_end && last.is_none_or(|l| name_lt(l.name, slot.name)) {
            op.slots.push(slot);
            op.num_inputs += usize::from(input);
            return;
        }
    }
    insert_slot_out_of_order(op, unsorted, input, slot);
}

/// [`insert_slot`] for a slot that does not go on the end (kept out of
/// line: rare).
#[inline(never)]
fn insert_slot_out_of_order<'a>(
    op: &mut OpParts<'a>,
    unsorted: &mut Option<Unsorted<'a>>,
    input: bool,
    slot: Slot<'a>,
) {
    if unsorted.is_none() {
        let (start, end) = if input {
            (0, op.num_inputs)
        } else {
            (op.num_inputs, op.slots.len())
        };
        if let Some(l) = op.slots[start..end].last_mut() {
            if l.name == slot.name {
                l.args = slot.args;
                return;
            }
        }
        let is_input = (0..op.slots.len()).map(|i| i < op.num_inputs).collect();
        *unsorted = Some(Unsorted {
            is_input,
            index: FxHashMap::default(),
        });
    }
    let Some(u) = unsorted else { return };
    let found = if op.slots.len() < INDEXED_ATTRS {
        (0..op.slots.len())
            .find(|&i| u.is_input.get(i) == Some(&input) && op.slots[i].name == slot.name)
    } else {
        if u.index.is_empty() {
            let names = op.slots.iter().map(|s| s.name);
            u.index
                .extend(u.is_input.iter().copied().zip(names).zip(0..));
        }
        u.index.get(&(input, slot.name)).copied()
    };
    match found {
        Some(i) => op.slots[i].args = slot.args,
        None => {
            if !u.index.is_empty() {
                u.index.insert((input, slot.name), op.slots.len());
            }
            op.slots.push(slot);
            u.is_input.push(input);
            op.num_inputs += usize::from(input);
        }
    }
}

/// Puts slots read out of order in Paddle's order: inputs then outputs,
/// each sorted by name (names are distinct within each part).
fn sort_slots(op: &mut OpParts<'_>, unsorted: Unsorted<'_>) {
    let mut tagged: Vec<(bool, Slot<'_>)> = unsorted
        .is_input
        .into_iter()
        .zip(op.slots.drain(..))
        .collect();
    tagged.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.name.cmp(b.1.name)));
    op.slots.extend(tagged.into_iter().map(|(_, s)| s));
}

/// Adds a slot read from op `i` of block `b`: an input (`input`) or output.
#[inline(always)]
fn add_slot<'a>(
    op: &mut OpParts<'a>,
    unsorted: &mut Option<Unsorted<'a>>,
    b: usize,
    i: usize,
    input: bool,
    slot: Slot<'a>,
) -> Result<()> {
    if slot.args.len() > MAX_ARGS {
        return Err(LegacyError::Limit {
            at: Box::new(op_location(b, i, op.op_type)),
            message: format!(
                "slot `{}` has {} arguments (at most {MAX_ARGS})",
                slot.name,
                slot.args.len()
            ),
        });
    }
    insert_slot(op, unsorted, input, slot);
    Ok(())
}

/// Adds an attribute to `op`. Paddle keeps attributes in a map: a repeated
/// name replaces the value. Paddle writes them sorted by name: while they
/// come sorted (`sorted`), a name past the last one is new; after that,
/// `index` (empty until needed) finds names among many.
#[inline(always)]
fn add_attr<'a>(
    op: &mut OpParts<'a>,
    sorted: &mut bool,
    index: &mut FxHashMap<&'a str, usize>,
    name: &'a str,
    value: AttrValue<'a>,
) {
    match op.attrs.last() {
        None => op.attrs.push(Attr { name, value }),
        Some(last) if *sorted && name_lt(last.name, name) => op.attrs.push(Attr { name, value }),
        Some(_) => {
            *sorted = false;
            // Out of order (rare): the names so far by a hash index once
            // there are more than a few, so that thousands of attributes
            // out of order cost linear time, not a scan each.
            if op.attrs.len() < INDEXED_ATTRS {
                match op.attrs.iter_mut().find(|x| x.name == name) {
                    Some(x) => x.value = value,
                    None => op.attrs.push(Attr { name, value }),
                }
                return;
            }
            if index.is_empty() {
                index.extend(op.attrs.iter().enumerate().map(|(i, a)| (a.name, i)));
            }
            match index.get(name) {
                Some(&i) => op.attrs[i].value = value,
                None => {
                    index.insert(name, op.attrs.len());
                    op.attrs.push(Attr { name, value });
                }
            }
        }
    }
}

/// Whether attribute `a` names blocks (`BLOCK`/`BLOCKS`).
#[inline(always)]
pub(super) fn names_blocks(a: &Attr<'_>) -> bool {
    matches!(a.value, AttrValue::Block(_) | AttrValue::Blocks(_))
}

/// How many attributes (or slots) an op may have before out-of-order names
/// are found through a hash index rather than a scan.
const INDEXED_ATTRS: usize = 32;

/// Whether an op's attribute fields are its last fields, right after its
/// type, as Paddle writes them (see [`OpDesc::attr_bytes`]): told from
/// where the type ends and how many bytes the attribute fields take, so
/// reading a field costs an addition at most.
struct AttrTail {
    /// Input offset where the (last) type field ends, or the op starts.
    after_type: usize,
    /// Bytes of the attribute fields read so far.
    len: usize,
    /// Bytes of the attribute fields read before the last type field.
    before_type: usize,
}

impl AttrTail {
    /// The attributes' bytes in `body` (the op's bytes, from input offset
    /// `start`) when no attribute field came before the type and the
    /// attribute fields fill the rest of the op exactly: then the fields
    /// after the type are the attribute fields.
    fn bytes<'a>(&self, body: &'a [u8], start: usize) -> Option<&'a [u8]> {
        let from = self.after_type.checked_sub(start)?;
        let rest = body.get(from..)?;
        (self.before_type == 0 && rest.len() == self.len).then_some(rest)
    }
}

/// Bytes of an op from which it may have more than six slots.
const MANY_SLOTS_LEN: usize = 400;

/// An op as it is read: its slots and attributes in lists that grow in
/// the arena, made into the [`OpDesc`]'s slices once it is read
/// ([`OpParts::finish`]).
pub(super) struct OpParts<'a> {
    /// `type`.
    pub(super) op_type: &'a str,
    /// Input slots, then output slots.
    pub(super) slots: ArenaVec<'a, Slot<'a>>,
    /// How many of `slots` are inputs.
    pub(super) num_inputs: usize,
    /// Attributes.
    pub(super) attrs: ArenaVec<'a, Attr<'a>>,
    /// `is_target`.
    pub(super) is_target: bool,
}

impl<'a> OpParts<'a> {
    /// Output slots.
    fn outputs(&self) -> &[Slot<'a>] {
        &self.slots[self.num_inputs..]
    }

    /// The op: its lists left in the arena, where they are.
    #[inline(always)]
    pub(super) fn finish(
        self,
        has_var_attrs: bool,
        names_blocks: bool,
        attr_bytes: Option<&'a [u8]>,
    ) -> OpDesc<'a> {
        OpDesc {
            op_type: self.op_type,
            slots: self.slots.into_bump_slice(),
            num_inputs: self.num_inputs,
            attrs: self.attrs.into_bump_slice(),
            extra: &[],
            is_target: self.is_target,
            has_var_attrs,
            names_blocks,
            attr_bytes: super::Layout(attr_bytes),
        }
    }
}

/// An op of `len` bytes with nothing read yet. Most ops have up to six
/// slots and a dozen attributes: room for them is taken here (growing a
/// list past the arena's last allocation costs a copy of it). Ops with
/// more slots (`batch_norm` has eleven) take 449 bytes or more in Paddle's
/// models: an op of [`MANY_SLOTS_LEN`] bytes or more gets room for a
/// dozen. Each slot and attribute takes two bytes or more, so the room is
/// never more than the op's bytes can fill: a file of tiny ops takes room
/// in proportion to its size.
#[inline(always)]
fn empty_op<'a>(len: usize, arena: &'a Bump) -> OpParts<'a> {
    let most = len / 2;
    OpParts {
        op_type: "",
        slots: if len < MANY_SLOTS_LEN {
            ArenaVec::with_capacity_in(most.min(6), arena)
        } else {
            ArenaVec::with_capacity_in(12, arena)
        },
        num_inputs: 0,
        attrs: ArenaVec::with_capacity_in(most.min(12), arena),
        is_target: false,
    }
}

fn decode_op<'a>(
    r: &mut Reader<'a>,
    b: usize,
    i: usize,
    raw: &mut RawAttr<'a>,
    arena: &'a Bump,
) -> Result<OpDesc<'a>> {
    let mut op = empty_op(r.rest().len(), arena);
    let (start, op_bytes) = (r.offset(), r.rest());
    let mut tail = AttrTail {
        after_type: start,
        len: 0,
        before_type: 0,
    };
    // Values are checked once the type is known (it may come last).
    let mut bad_attr: Option<(&'a str, String)> = None;
    // Whether the attributes so far came in increasing name order.
    let mut attrs_sorted = true;
    let mut attr_index = FxHashMap::default();
    // Set once a slot comes out of Paddle's order.
    let mut unsorted = None;
    // Whether the general reader read an attribute: the one-step readers
    // read no kind that holds variables.
    let mut general_attrs = false;
    let slots_full = |op: &OpParts<'a>| LegacyError::Limit {
        at: Box::new(op_location(b, i, op.op_type)),
        message: format!("more than {MAX_OP_ENTRIES} slots"),
    };
    let attrs_full = |op: &OpParts<'a>| LegacyError::Limit {
        at: Box::new(op_location(b, i, op.op_type)),
        message: format!("more than {MAX_OP_ENTRIES} attributes"),
    };
    while r.has_more() {
        // The bookkeeping attributes nearly every op has, in one step.
        if op.attrs.len() + 4 <= MAX_OP_ENTRIES {
            if let Some(run) = crate::canonical::bookkeeping_run(r.rest()) {
                r.advance(crate::canonical::BOOKKEEPING_RUN_LEN);
                tail.len += crate::canonical::BOOKKEEPING_RUN_LEN;
                // The run's names are sorted: after names sorted before its
                // first (nearly always), it goes on the end as it is.
                let [(first, _), ..] = &run;
                if attrs_sorted && op.attrs.last().is_none_or(|l| name_lt(l.name, first)) {
                    op.attrs
                        .extend(run.map(|(name, value)| Attr { name, value }));
                } else {
                    for (name, value) in run {
                        add_attr(&mut op, &mut attrs_sorted, &mut attr_index, name, value);
                    }
                }
                continue;
            }
        }
        // Most slots and attributes are short messages in a layout
        // `canonical` reads in one step: taken without the general field
        // reader (the others go on to it below).
        if let Some((key, body)) = r.peek_short_message() {
            match key {
                0x0a | 0x12 if op.slots.len() < MAX_OP_ENTRIES => {
                    if let Some(slot) = crate::canonical::slot(body, arena) {
                        r.advance(2 + body.len());
                        add_slot(&mut op, &mut unsorted, b, i, key == 0x0a, slot)?;
                        continue;
                    }
                }
                0x22 if op.attrs.len() < MAX_OP_ENTRIES => {
                    if let Some((name, value)) = crate::canonical::attr(body, arena) {
                        r.advance(2 + body.len());
                        tail.len += 2 + body.len();
                        add_attr(&mut op, &mut attrs_sorted, &mut attr_index, name, value);
                        continue;
                    }
                }
                // The op type (field 3): text that is not UTF-8 goes on to
                // the general reader, which reports it.
                0x1a => {
                    if let Some(op_type) = crate::wire::utf8(body) {
                        r.advance(2 + body.len());
                        op.op_type = op_type;
                        tail.after_type = r.offset();
                        tail.before_type = tail.len;
                        continue;
                    }
                }
                _ => {}
            }
        }
        let at = r.offset();
        let (field, wire) = r.key()?;
        match field {
            3 => {
                op.op_type = r.str(wire)?;
                tail.after_type = r.offset();
                tail.before_type = tail.len;
            }
            1 | 2 => {
                if op.slots.len() >= MAX_OP_ENTRIES {
                    return Err(slots_full(&op));
                }
                let mut m = r.message(wire, "OpDesc.Var")?;
                let slot = match crate::canonical::slot(m.rest(), arena) {
                    Some(slot) => slot,
                    None => decode_slot(&mut m, arena)?,
                };
                add_slot(&mut op, &mut unsorted, b, i, field == 1, slot)?;
            }
            4 => {
                if op.attrs.len() >= MAX_OP_ENTRIES {
                    return Err(attrs_full(&op));
                }
                let mut m = r.message(wire, "OpDesc.Attr")?;
                let (name, value) = match crate::canonical::attr(m.rest(), arena) {
                    Some((name, value)) => (name, Ok(value)),
                    None => {
                        decode_attr(&mut m, raw)?;
                        general_attrs = true;
                        (raw.name, attr_value(raw, arena))
                    }
                };
                tail.len += r.offset() - at;
                match value {
                    Ok(value) => add_attr(&mut op, &mut attrs_sorted, &mut attr_index, name, value),
                    Err(message) => {
                        bad_attr.get_or_insert((name, message));
                    }
                }
            }
            5 => op.is_target = r.bool(wire)?,
            _ => r.skip(field, wire)?,
        }
    }
    if let Some(u) = unsorted {
        sort_slots(&mut op, u);
    }
    if let Some((name, message)) = bad_attr {
        return Err(LegacyError::invalid(
            op_location(b, i, op.op_type),
            format!("attribute `{name}`: {message}"),
        ));
    }
    // An op translated with every output argument as a result (an
    // unregistered op under --lenient, control flow) must stay within the
    // IR's result count.
    let outputs: usize = op.outputs().iter().map(|s| s.args.len()).sum();
    if outputs > MAX_ARGS {
        return Err(LegacyError::Limit {
            at: Box::new(op_location(b, i, op.op_type)),
            message: format!("{outputs} output arguments (at most {MAX_ARGS})"),
        });
    }
    let names_blocks = op.attrs.iter().any(names_blocks);
    let has_var_attrs = general_attrs
        && op
            .attrs
            .iter()
            .any(|a| matches!(a.value, AttrValue::Var(_) | AttrValue::Vars(_)));
    Ok(op.finish(has_var_attrs, names_blocks, tail.bytes(op_bytes, start)))
}
