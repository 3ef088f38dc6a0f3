//! An op laid out as Paddle writes it, read in one pass over its bytes:
//! inputs then outputs, each by increasing name, the type, then the
//! attributes and nothing else. The general op reader keeps the state any
//! order needs (slots out of order, repeated names, fields before the type)
//! and tracks where each field lies; here the order is checked instead, and
//! any other layout, limit or value error leaves the op to that reader,
//! which then reads it from its start (and reports what is wrong).
//! Attributes out of order are merged as the general reader merges them.

use rustc_hash::FxHashMap;

use bumpalo::Bump;

use super::attr::{attr_value, decode_attr, RawAttr};
use super::{add_attr, decode_slot, empty_op, name_lt, names_blocks, OpParts};
use crate::desc::{Attr, AttrValue, OpDesc, Slot, MAX_ARGS, MAX_OP_ENTRIES};
use crate::wire::Reader;

/// A length-delimited field `key LEN BYTES` at the start of `b` whose
/// length takes one or two bytes: its bytes and what follows them.
#[inline(always)]
fn field(key: u8, b: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = match b {
        [k, n @ 0..0x80, rest @ ..] if *k == key => (usize::from(*n), rest),
        [k, lo, hi @ 0..0x80, rest @ ..] if *k == key => {
            (usize::from(lo & 0x7f) | usize::from(*hi) << 7, rest)
        }
        _ => return None,
    };
    rest.split_at_checked(len)
}

const _: () = assert!(MAX_OP_ENTRIES <= MAX_ARGS);

/// The op `r` holds (positioned at its start) when it is laid out as
/// Paddle writes it; `None` sends it to the general reader.
#[inline(always)]
pub(super) fn decode_op_in_order<'a>(
    r: &Reader<'a>,
    raw: &mut RawAttr<'a>,
    arena: &'a Bump,
) -> Option<OpDesc<'a>> {
    // The readers of slot and attribute messages enter one level deeper.
    if !r.can_enter() {
        return None;
    }
    let bytes = r.rest();
    // Each slot, argument and attribute takes two bytes or more, so an op
    // of fewer bytes than [`MAX_OP_ENTRIES`] has fewer of each than every
    // bound on them: the counts are checked only in larger ops.
    let checked = bytes.len() >= MAX_OP_ENTRIES;
    let mut op = empty_op(bytes.len(), arena);
    let mut rest = bytes;
    let mut outputs = 0;
    for (key, input) in [(0x0a, true), (0x12, false)] {
        let first = op.slots.len();
        while let Some((body, after)) = field(key, rest) {
            let slot = match crate::canonical::slot(body, arena) {
                Some(slot) => slot,
                None => slot_by_general_reader(r, bytes.len() - rest.len(), arena)?,
            };
            let in_order = op.slots[first..]
                .last()
                .is_none_or(|l| name_lt(l.name, slot.name));
            if !in_order {
                return None;
            }
            if checked {
                if slot.args.len() > MAX_ARGS || op.slots.len() >= MAX_OP_ENTRIES {
                    return None;
                }
                outputs += if input { 0 } else { slot.args.len() };
            }
            op.slots.push(slot);
            rest = after;
        }
        if input {
            op.num_inputs = op.slots.len();
        }
    }
    // The IR's result count bounds an op's output arguments.
    if outputs > MAX_ARGS {
        return None;
    }
    let (op_type, after) = field(0x1a, rest)?;
    op.op_type = crate::wire::utf8(op_type)?;
    rest = after;
    let attr_bytes = rest;
    let mut general_attrs = false;
    // Tracked as they are read (the bookkeeping run names none) rather than
    // found by a scan of them all.
    let mut blocks = false;
    while !rest.is_empty() {
        if checked && op.attrs.len() + 4 >= MAX_OP_ENTRIES {
            return None;
        }
        let sorted_after =
            |attrs: &[Attr<'a>], name| attrs.last().is_none_or(|l| name_lt(l.name, name));
        // The bookkeeping attributes nearly every op has, in one step.
        if let Some(run) = crate::canonical::bookkeeping_run(rest) {
            let [(first, _), ..] = &run;
            if !sorted_after(&op.attrs, first) {
                let at = bytes.len() - rest.len();
                return attrs_out_of_order(op, r, at, raw, general_attrs, attr_bytes, arena);
            }
            // Four pushes of constants: `extend` built the run on the stack
            // and copied it twice on the way.
            let [a, b, c, d] = run.map(|(name, value)| Attr { name, value });
            op.attrs.reserve(4);
            op.attrs.push(a);
            op.attrs.push(b);
            op.attrs.push(c);
            op.attrs.push(d);
            rest = rest.get(crate::canonical::BOOKKEEPING_RUN_LEN..)?;
            continue;
        }
        let ((name, value), after) = next_attr(r, rest, raw, &mut general_attrs, arena)?;
        if !sorted_after(&op.attrs, name) {
            let at = bytes.len() - rest.len();
            return attrs_out_of_order(op, r, at, raw, general_attrs, attr_bytes, arena);
        }
        let attr = Attr { name, value };
        blocks |= names_blocks(&attr);
        op.attrs.push(attr);
        rest = after;
    }
    Some(finish(op, general_attrs, blocks, attr_bytes))
}

/// The attribute field at the start of `rest`, the tail of the op `r`
/// holds: its name and value, and what follows it. One the compact reader
/// does not take is read by the general reader, which sets
/// `general_attrs`.
#[inline(always)]
fn next_attr<'a>(
    r: &Reader<'a>,
    rest: &'a [u8],
    raw: &mut RawAttr<'a>,
    general_attrs: &mut bool,
    arena: &'a Bump,
) -> Option<((&'a str, AttrValue<'a>), &'a [u8])> {
    let (body, after) = field(0x22, rest)?;
    let attr = match crate::canonical::attr(body, arena) {
        Some(attr) => attr,
        None => {
            *general_attrs = true;
            attr_by_general_reader(r, r.rest().len() - rest.len(), raw, arena)?
        }
    };
    Some((attr, after))
}

/// `op` with its attributes read: where they lie, whether some hold
/// variables, and whether some name blocks (`names_blocks`).
#[inline(always)]
fn finish<'a>(
    op: OpParts<'a>,
    general_attrs: bool,
    names_blocks: bool,
    attr_bytes: &'a [u8],
) -> OpDesc<'a> {
    let has_var_attrs = general_attrs
        && op
            .attrs
            .iter()
            .any(|a| matches!(a.value, AttrValue::Var(_) | AttrValue::Vars(_)));
    op.finish(has_var_attrs, names_blocks, Some(attr_bytes))
}

/// The rest of [`decode_op_in_order`] from the attribute field at byte
/// `at` of the op, which comes out of name order (a pass that appends its
/// own attributes, as `use_mkldnn`): it and the ones after it are merged
/// as the general reader merges them, rather than reading the op again.
/// Out of line: few ops have attributes out of order.
#[inline(never)]
fn attrs_out_of_order<'a>(
    mut op: OpParts<'a>,
    r: &Reader<'a>,
    at: usize,
    raw: &mut RawAttr<'a>,
    mut general_attrs: bool,
    attr_bytes: &'a [u8],
    arena: &'a Bump,
) -> Option<OpDesc<'a>> {
    let (mut sorted, mut index) = (false, FxHashMap::default());
    let mut rest = r.rest().get(at..)?;
    while !rest.is_empty() {
        if op.attrs.len() + 4 >= MAX_OP_ENTRIES {
            return None;
        }
        if let Some(run) = crate::canonical::bookkeeping_run(rest) {
            for (name, value) in run {
                add_attr(&mut op, &mut sorted, &mut index, name, value);
            }
            rest = rest.get(crate::canonical::BOOKKEEPING_RUN_LEN..)?;
            continue;
        }
        let ((name, value), after) = next_attr(r, rest, raw, &mut general_attrs, arena)?;
        add_attr(&mut op, &mut sorted, &mut index, name, value);
        rest = after;
    }
    let blocks = op.attrs.iter().any(names_blocks);
    Some(finish(op, general_attrs, blocks, attr_bytes))
}

/// The slot field at byte `at` of the op `op` holds, by the general reader
/// (out of line: a slot with a long argument name is rare).
#[inline(never)]
fn slot_by_general_reader<'a>(op: &Reader<'a>, at: usize, arena: &'a Bump) -> Option<Slot<'a>> {
    let mut r = op.clone();
    r.advance(at);
    let (_, wire) = r.key().ok()?;
    decode_slot(&mut r.message(wire, "OpDesc.Var").ok()?, arena).ok()
}

/// The attribute field at byte `at` of the op `op` holds, by the general
/// reader (out of line: kinds and layouts `canonical` does not read).
#[inline(never)]
fn attr_by_general_reader<'a>(
    op: &Reader<'a>,
    at: usize,
    raw: &mut RawAttr<'a>,
    arena: &'a Bump,
) -> Option<(&'a str, AttrValue<'a>)> {
    let mut r = op.clone();
    r.advance(at);
    let (_, wire) = r.key().ok()?;
    decode_attr(&mut r.message(wire, "OpDesc.Attr").ok()?, raw).ok()?;
    let value = attr_value(raw, arena).ok()?;
    Some((raw.name, value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desc::decode::decode_op;

    /// The bodies of the ops of a serialized `ProgramDesc`, block by block.
    fn op_bodies(program: &[u8]) -> Vec<&[u8]> {
        let mut ops = Vec::new();
        let mut r = Reader::new(program, "ProgramDesc");
        while r.has_more() {
            let (field, wire) = r.key().unwrap();
            if field != 1 {
                r.skip(field, wire).unwrap();
                continue;
            }
            let mut block = r.message(wire, "BlockDesc").unwrap();
            while block.has_more() {
                let (field, wire) = block.key().unwrap();
                match field {
                    4 => ops.push(block.message(wire, "OpDesc").unwrap().rest()),
                    _ => block.skip(field, wire).unwrap(),
                }
            }
        }
        ops
    }

    /// Whether the in-order reader reads `body` (`None` when it leaves the
    /// op to the general reader, which must then agree with it).
    fn agrees_with_general_reader(body: &[u8]) -> Option<bool> {
        let arena = Bump::new();
        let fast = decode_op_in_order(
            &Reader::new(body, "OpDesc"),
            &mut RawAttr::default(),
            &arena,
        )?;
        let general = decode_op(
            &mut Reader::new(body, "OpDesc"),
            0,
            0,
            &mut RawAttr::default(),
            &arena,
        );
        let general = general.unwrap_or_else(|e| panic!("{body:x?}: {e}"));
        // Compared as printed: a NaN attribute is not equal to itself.
        Some(
            format!("{fast:?}") == format!("{general:?}")
                && fast.attr_bytes() == general.attr_bytes()
                && fast.has_var_attrs == general.has_var_attrs,
        )
    }

    /// Every op of the legacy models shipped in the repository is read in
    /// order, as the general reader reads it; every truncation and flipped
    /// bit of some of them is read alike or left to the general reader.
    #[test]
    fn ops_read_in_order_as_in_general() {
        let dir = pir_corpus::repo_root().join("tests/corpus/legacy");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pdmodel"))
            .collect();
        files.sort();
        assert!(files.len() > 20, "{}", dir.display());
        let (mut ops, mut in_order) = (0, 0);
        for (n, file) in files.iter().enumerate() {
            let bytes = std::fs::read(file).unwrap();
            for (i, body) in op_bodies(&bytes).into_iter().enumerate() {
                ops += 1;
                if let Some(agrees) = agrees_with_general_reader(body) {
                    assert!(agrees, "{} op {i}", file.display());
                    in_order += 1;
                }
                if i == n % 7 {
                    let mut damaged = body.to_vec();
                    for at in 0..body.len() * 8 {
                        damaged[at / 8] ^= 1 << (at % 8);
                        let agrees = agrees_with_general_reader(&damaged);
                        assert_ne!(agrees, Some(false), "{damaged:x?}");
                        damaged[at / 8] ^= 1 << (at % 8);
                    }
                    for end in 0..body.len() {
                        let agrees = agrees_with_general_reader(&body[..end]);
                        assert_ne!(agrees, Some(false), "{:x?}", &body[..end]);
                    }
                }
            }
        }
        // Paddle writes every op in order: nearly all take this reader.
        assert!(in_order * 100 >= ops * 99, "{in_order} of {ops}");
    }

    /// Ops with more than six slots are long enough to be given room for
    /// them at once (see `empty_op`), in every legacy model shipped.
    #[test]
    fn ops_with_many_slots_get_room_for_them() {
        let dir = pir_corpus::repo_root().join("tests/corpus/legacy");
        let mut many = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().path();
            if file.extension().is_none_or(|e| e != "pdmodel") {
                continue;
            }
            let bytes = std::fs::read(&file).unwrap();
            for body in op_bodies(&bytes) {
                let r = Reader::new(body, "OpDesc");
                let arena = Bump::new();
                let Some(op) = decode_op_in_order(&r, &mut RawAttr::default(), &arena) else {
                    continue;
                };
                if op.slots.len() > 6 {
                    many += 1;
                    let long = body.len() >= super::super::MANY_SLOTS_LEN;
                    assert!(long, "{}: {} bytes", file.display(), body.len());
                }
            }
        }
        assert!(many > 0);
    }

    /// Slots out of order, a field the general reader alone reads, or a
    /// value it refuses leave the op to it.
    #[test]
    fn other_layouts_go_to_the_general_reader() {
        let field = |key: u8, body: &[u8]| {
            let mut f = vec![key, u8::try_from(body.len()).unwrap()];
            f.extend_from_slice(body);
            f
        };
        let slot = |name: &str| {
            field(
                0x0a,
                &[&field(0x0a, name.as_bytes())[..], &field(0x12, b"v")].concat(),
            )
        };
        let int_attr = |name: &str, ty: u8| {
            field(
                0x22,
                &[&field(0x0a, name.as_bytes())[..], &[0x10, ty, 0x18, 1]].concat(),
            )
        };
        let ty = field(0x1a, b"scale");
        let read = |fields: &[&[u8]]| {
            let body = fields.concat();
            let arena = Bump::new();
            decode_op_in_order(
                &Reader::new(&body, "OpDesc"),
                &mut RawAttr::default(),
                &arena,
            )
            .is_some()
        };
        assert!(read(&[
            &slot("X"),
            &slot("Y"),
            &ty,
            &int_attr("a", 0),
            &int_attr("b", 0)
        ]));
        assert!(!read(&[&slot("Y"), &slot("X"), &ty]));
        assert!(!read(&[&slot("X"), &slot("X"), &ty]));
        // Attributes out of order, a repeated name among them, are merged.
        for attrs in [
            [int_attr("b", 0), int_attr("a", 0), int_attr("b", 1)],
            [int_attr("b", 0), int_attr("b", 1), int_attr("a", 0)],
        ] {
            let body = [&slot("X")[..], &ty, &attrs.concat()].concat();
            assert_eq!(agrees_with_general_reader(&body), Some(true));
        }
        assert!(!read(&[&int_attr("a", 0), &ty]));
        assert!(!read(&[&ty, &slot("X")]));
        assert!(!read(&[&ty, &[0x28, 1]]));
        assert!(!read(&[&slot("X")]), "no type");
        // An attribute type no reader knows.
        assert!(!read(&[&ty, &int_attr("a", 99)]));
    }
}
