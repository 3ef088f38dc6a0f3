//! One-step readers for the byte layouts Paddle's protobuf writer gives the
//! messages a model holds most of: attributes of the common kinds, slots, dense
//! tensor variables and op-version pairs. Each takes the bytes of one
//! message and answers only when they are exactly that layout (fields in
//! number order, short lengths, nothing else); `None` sends the message to
//! the general reader of [`crate::desc`], which gives the same result for
//! these layouts (the tests below compare the two). Reading these layouts
//! field by field was most of the cost of decoding a model. The readers of
//! attributes, slots and variables are inlined into the op and block
//! readers, so their values take fewer copies on the way to where the
//! caller keeps them (each copy of a variable was a call to `memcpy`) and
//! the calls' own cost goes too.

use bumpalo::collections::Vec as ArenaVec;
use bumpalo::Bump;

use crate::desc::{AttrValue, DataKind, List, Slot, TensorDesc, VarDesc, VarKind};
use crate::wire::{long_utf8, utf8, Reader};

/// A varint at the start of `b`, with the bytes it takes (the rules of
/// [`Reader::varint`]). A byte below 128 (nearly every list item) is read
/// inline; longer ones out of line.
#[inline(always)]
fn varint(b: &[u8]) -> Option<(u64, usize)> {
    match b.first() {
        Some(&v) if v < 0x80 => Some((u64::from(v), 1)),
        _ => long_varint(b),
    }
}

/// `-1` as a varint (an unknown dim).
const MINUS_ONE: [u8; 10] = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];

/// [`varint`] of more than one byte.
#[inline(never)]
fn long_varint(b: &[u8]) -> Option<(u64, usize)> {
    if b.starts_with(&MINUS_ONE) {
        return Some((u64::MAX, MINUS_ONE.len()));
    }
    let mut r = Reader::new(b, "");
    let v = r.varint().ok()?;
    Some((v, r.offset()))
}

/// A length-delimited field `key n BYTES` (`n` under 128) at the start of
/// `b`: the bytes and the rest.
#[inline]
fn short_field(key: u8, b: &[u8]) -> Option<(&[u8], &[u8])> {
    match b {
        [k, n, rest @ ..] if *k == key && *n < 0x80 && rest.len() >= usize::from(*n) => {
            Some(rest.split_at(usize::from(*n)))
        }
        _ => None,
    }
}

/// An `OpDesc.Attr` of kind `INT`, `FLOAT`, `STRING`, `INTS`, `FLOATS`,
/// `STRINGS`, `BOOLEAN`, `BLOCK`, `LONG` or `LONGS` as Paddle writes it
/// (or an empty `FLOAT64S`): `0a n NAME 10 TYPE` then the value field(s)
/// of that kind (lists unpacked, possibly none), and nothing else.
#[inline(always)]
pub(crate) fn attr<'a>(b: &'a [u8], arena: &'a Bump) -> Option<(&'a str, AttrValue<'a>)> {
    if let Some(known) = bookkeeping_attr(b) {
        return Some(known);
    }
    let (name, rest) = short_field(0x0a, b)?;
    let name = utf8(name)?;
    let [0x10, ty, rest @ ..] = rest else {
        return None;
    };
    let value = match (*ty, rest) {
        (0, [0x18, v @ ..]) => match varint(v)? {
            (i, n) if n == v.len() => AttrValue::Int(i as i32),
            _ => return None,
        },
        (1, [0x25, a, b, c, d]) => AttrValue::Float(f32::from_le_bytes([*a, *b, *c, *d])),
        (2, s) => {
            let (s, rest) = short_field(0x2a, s)?;
            if !rest.is_empty() {
                return None;
            }
            AttrValue::String(utf8(s)?)
        }
        (3, mut list) => {
            // Each item takes two bytes or more. Most lists (strides,
            // paddings, dilations, kernel sizes) hold up to four: room for
            // four is made by an inlined allocation, room for a number
            // known at run time by a call.
            let mut ints = if list.len() <= 8 {
                ArenaVec::with_capacity_in(4, arena)
            } else {
                ArenaVec::with_capacity_in(list.len() / 2, arena)
            };
            while let [0x30, v @ ..] = list {
                let (i, n) = varint(v)?;
                ints.push(i as i32);
                list = &v[n..];
            }
            if !list.is_empty() {
                return None;
            }
            AttrValue::Ints(List::Borrowed(ints.into_bump_slice()))
        }
        (4, list) => floats(list, arena)?,
        // Most lists (`op_role_var`) are empty.
        (5, []) => AttrValue::Strings(List::EMPTY),
        (5, list) => strings(list, arena)?,
        (6, [0x50, v @ (0 | 1)]) => AttrValue::Bool(*v == 1),
        (8, [0x60, v @ 0..0x80]) => AttrValue::Block(i32::from(*v)),
        (9, [0x68, v @ ..]) => match varint(v)? {
            (i, n) if n == v.len() => AttrValue::Long(i as i64),
            _ => return None,
        },
        (11, list) => longs(list, arena)?,
        (12, []) => AttrValue::Float64s(List::EMPTY),
        _ => return None,
    };
    Some((name, value))
}

/// Whether `b` is exactly `known` (compared as one fixed-size array, which
/// the compiler does in a few word loads rather than a call).
#[inline(always)]
fn is_exactly<const N: usize>(b: &[u8], known: &[u8; N]) -> bool {
    <&[u8; N]>::try_from(b).is_ok_and(|a| a == known)
}

/// [`is_exactly`] for more than 64 bytes, which the compiler compares by a
/// call to `bcmp`: 16 bytes at a time (the last step overlapping), inline.
#[inline(always)]
fn is_exactly_long<const N: usize>(b: &[u8], known: &[u8; N]) -> bool {
    let word = |s: &[u8], at: usize| {
        s.get(at..)
            .and_then(<[u8]>::first_chunk::<16>)
            .map(|w| u128::from_ne_bytes(*w))
    };
    if b.len() != N || N < 16 {
        return is_exactly(b, known);
    }
    let mut diff = 0;
    let mut at = 0;
    while at < N {
        let i = at.min(N - 16);
        match (word(b, i), word(known, i)) {
            (Some(x), Some(y)) => diff |= x ^ y,
            _ => return false,
        }
        at += 16;
    }
    diff == 0
}

/// The bookkeeping attributes Paddle 2.x saves on nearly every op, with the
/// value nearly every op has (`op_role` 0, no `op_role_var`, no call stack,
/// no device, the root name scope, no quantization): most of a model's
/// attributes, told by their exact bytes before any field is read. The
/// translation reads none of them; they are kept for `--lenient` ops and
/// for whoever reads the program.
#[inline]
fn bookkeeping_attr(b: &[u8]) -> Option<(&'static str, AttrValue<'static>)> {
    const ROLE: &[u8; 13] = b"\x0a\x07op_role\x10\x00\x18\x00";
    const ROLE_VAR: &[u8; 15] = b"\x0a\x0bop_role_var\x10\x05";
    const DEVICE: &[u8; 15] = b"\x0a\x09op_device\x10\x02\x2a\x00";
    const CALLSTACK: &[u8; 16] = b"\x0a\x0cop_callstack\x10\x05";
    const NAMESCOPE: &[u8; 19] = b"\x0a\x0cop_namescope\x10\x02\x2a\x01/";
    const QUANT: &[u8; 21] = b"\x0a\x0fwith_quant_attr\x10\x06\x50\x00";
    Some(match b.len() {
        13 if is_exactly(b, ROLE) => ("op_role", AttrValue::Int(0)),
        15 if is_exactly(b, ROLE_VAR) => ("op_role_var", AttrValue::Strings(List::EMPTY)),
        15 if is_exactly(b, DEVICE) => ("op_device", AttrValue::String("")),
        16 if is_exactly(b, CALLSTACK) => ("op_callstack", AttrValue::Strings(List::EMPTY)),
        19 if is_exactly(b, NAMESCOPE) => ("op_namescope", AttrValue::String("/")),
        21 if is_exactly(b, QUANT) => ("with_quant_attr", AttrValue::Bool(false)),
        _ => return None,
    })
}

/// Four of [`bookkeeping_attr`]'s attributes as `OpDesc.attrs` fields
/// (`22 n ATTR`), in the order Paddle writes them (by name, with nothing
/// between them on nearly every op).
const BOOKKEEPING_RUN: &[u8; 70] = b"\x22\x0f\x0a\x09op_device\x10\x02\x2a\x00\
\x22\x13\x0a\x0cop_namescope\x10\x02\x2a\x01/\
\x22\x0d\x0a\x07op_role\x10\x00\x18\x00\
\x22\x0f\x0a\x0bop_role_var\x10\x05";

/// Bytes [`bookkeeping_run`] takes.
pub(crate) const BOOKKEEPING_RUN_LEN: usize = BOOKKEEPING_RUN.len();

/// The attributes at the start of `b` (the rest of an `OpDesc`) when they
/// are [`BOOKKEEPING_RUN`]: four fields told by one compare.
#[inline]
pub(crate) fn bookkeeping_run(b: &[u8]) -> Option<[(&'static str, AttrValue<'static>); 4]> {
    let head = b.get(..BOOKKEEPING_RUN_LEN)?;
    // The key, length and name length first: most fields differ there.
    if head[..4] != BOOKKEEPING_RUN[..4] || !is_exactly_long(head, BOOKKEEPING_RUN) {
        return None;
    }
    Some([
        ("op_device", AttrValue::String("")),
        ("op_namescope", AttrValue::String("/")),
        ("op_role", AttrValue::Int(0)),
        ("op_role_var", AttrValue::Strings(List::EMPTY)),
    ])
}

/// The value of a `STRINGS` attribute: `42 n STRING` for each string.
/// Out of line: [`attr`] runs for every attribute, this for few.
#[inline(never)]
fn strings<'a>(list: &'a [u8], arena: &'a Bump) -> Option<AttrValue<'a>> {
    // Counted first: lists such as `op_callstack` hold dozens of strings,
    // which a growing list would copy several times.
    let (mut count, mut rest) = (0, list);
    while !rest.is_empty() {
        rest = short_field(0x42, rest)?.1;
        count += 1;
    }
    // One check for all the strings: the bytes between them (`42 n`) are
    // ASCII, so the whole list is UTF-8 exactly when each string is (no
    // sequence can start or end in them).
    let text = long_utf8(list)?;
    let mut strings = ArenaVec::with_capacity_in(count, arena);
    let mut at = 0;
    while let Some(&n) = list.get(at + 1) {
        let start = at + 2;
        at = start + usize::from(n);
        strings.push(text.get(start..at)?);
    }
    Some(AttrValue::Strings(List::Borrowed(
        strings.into_bump_slice(),
    )))
}

/// The value of a `LONGS` attribute: `78 v` for each item (`v` a varint).
/// Out of line, as [`strings`].
#[inline(never)]
fn longs<'a>(mut list: &[u8], arena: &'a Bump) -> Option<AttrValue<'a>> {
    let mut longs = ArenaVec::with_capacity_in(list.len() / 2, arena);
    while let [0x78, v @ ..] = list {
        let (l, n) = varint(v)?;
        longs.push(l as i64);
        list = &v[n..];
    }
    list.is_empty()
        .then(|| AttrValue::Longs(List::Borrowed(longs.into_bump_slice())))
}

/// The value of a `FLOATS` attribute: `3d f32` for each item. Out of line,
/// as [`strings`].
#[inline(never)]
fn floats<'a>(mut list: &[u8], arena: &'a Bump) -> Option<AttrValue<'a>> {
    let mut floats = ArenaVec::with_capacity_in(list.len() / 5, arena);
    while let [0x3d, a, b, c, d, rest @ ..] = list {
        floats.push(f32::from_le_bytes([*a, *b, *c, *d]));
        list = rest;
    }
    list.is_empty()
        .then(|| AttrValue::Floats(List::Borrowed(floats.into_bump_slice())))
}

/// An `OpDesc.Var` (an input or output slot) as Paddle writes it:
/// `0a n PARAMETER`, then `12 m ARGUMENT` for each argument.
#[inline(always)]
pub(crate) fn slot<'a>(b: &'a [u8], arena: &'a Bump) -> Option<Slot<'a>> {
    let (name_bytes, mut rest) = short_field(0x0a, b)?;
    // Nearly every slot has one argument: the name and it are checked as
    // text each, which costs less than a check of the message and the
    // char boundaries of the two pieces of it.
    if let Some((arg, [])) = short_field(0x12, rest) {
        return Some(Slot {
            name: utf8(name_bytes)?,
            args: std::slice::from_ref(arena.alloc(utf8(arg)?)),
        });
    }
    // One check for the whole message: the bytes between the strings (`0a
    // n`, `12 m`, lengths under 128) are ASCII, so the message is UTF-8
    // exactly when each string is, and each string is a piece of it.
    let text = utf8(b)?;
    let name = text.get(2..2 + name_bytes.len())?;
    // Counted first, so that the list takes its room once.
    let (mut count, mut fields) = (0, rest);
    while !fields.is_empty() {
        fields = short_field(0x12, fields)?.1;
        count += 1;
    }
    let mut args = ArenaVec::with_capacity_in(count, arena);
    while !rest.is_empty() {
        let (arg, after) = short_field(0x12, rest)?;
        let start = b.len() - rest.len() + 2;
        args.push(text.get(start..start + arg.len())?);
        rest = after;
    }
    Some(Slot {
        name,
        args: args.into_bump_slice(),
    })
}

/// A `VarDesc` of a dense tensor as Paddle writes it: `0a n NAME`, then
/// `12 L` holding `08 07 1a L2` (type `DENSE_TENSOR` and its desc:
/// `0a L3 [08 DTYPE (10 DIM)*]`, optionally `10 LOD`), then any of the
/// flags `persistable`, `need_check_feed`, `is_parameter`, `stop_gradient`
/// as `0/1`, and nothing else.
#[inline(always)]
pub(crate) fn dense_var<'a>(b: &'a [u8], arena: &'a Bump) -> Option<VarDesc<'a>> {
    let (name, rest) = short_field(0x0a, b)?;
    let name = utf8(name)?;
    // The type's nested headers in one match, their lengths told by how
    // they nest (the type holds the dense desc alone, which holds the
    // tensor and the LoD level at most) rather than each field's bounds
    // checked in turn.
    let [0x12, ty, 0x08, 0x07, 0x1a, dense, 0x0a, tensor, 0x08, dtype, tail @ ..] = rest else {
        return None;
    };
    let (l_type, l_dense, l_tensor) = (usize::from(*ty), usize::from(*dense), usize::from(*tensor));
    if l_type >= 0x80 || *dtype >= 0x80 || l_type != l_dense + 4 {
        return None;
    }
    let (dims_bytes, tail) = tail.split_at_checked(l_tensor.checked_sub(2)?)?;
    let (lod_level, mut flags_bytes) = match (l_dense.checked_sub(l_tensor), tail) {
        (Some(2), tail) => (0, tail),
        (Some(4), [0x10, v @ 0..0x80, tail @ ..]) => (i32::from(*v), tail),
        _ => return None,
    };
    let dims = dims(dims_bytes, arena)?;
    // The rule of [`var_flags`], written in place: through it, the block
    // reader this is inlined into compiled to more instructions a variable.
    let mut flags = [false; 4];
    // Nearly every variable has `persistable` alone.
    if let [0x18, v @ (0 | 1)] = flags_bytes {
        flags[0] = *v == 1;
        flags_bytes = &[];
    }
    while let [key @ (0x18 | 0x20 | 0x28 | 0x30), v @ (0 | 1), rest @ ..] = flags_bytes {
        flags[usize::from((key >> 3) - 3)] = *v == 1;
        flags_bytes = rest;
    }
    if !flags_bytes.is_empty() {
        return None;
    }
    Some(VarDesc {
        name,
        kind: VarKind::DenseTensor,
        tensor: Some(TensorDesc {
            dtype: DataKind::from_i32(i32::from(*dtype)),
            dims,
            lod_level,
        }),
        tuple: &[],
        reader: &[],
        persistable: flags[0],
        need_check_feed: flags[1],
        is_parameter: flags[2],
        stop_gradient: flags[3],
    })
}

/// A `VarDesc` whose type is its kind alone, as Paddle writes the feed and
/// fetch lists of every model and step scopes: `0a n NAME 12 02 08 KIND`,
/// then flags as [`dense_var`] reads them. Out of line: a few a model.
#[inline(never)]
pub(crate) fn kind_var(b: &[u8]) -> Option<VarDesc<'_>> {
    let (name, rest) = short_field(0x0a, b)?;
    let [0x12, 0x02, 0x08, kind @ 0..0x80, flags_bytes @ ..] = rest else {
        return None;
    };
    let flags = var_flags(flags_bytes)?;
    Some(VarDesc {
        name: utf8(name)?,
        kind: VarKind::from_i32(i32::from(*kind)),
        tensor: None,
        tuple: &[],
        reader: &[],
        persistable: flags[0],
        need_check_feed: flags[1],
        is_parameter: flags[2],
        stop_gradient: flags[3],
    })
}

/// The flags `persistable`, `need_check_feed`, `is_parameter`,
/// `stop_gradient` (fields 3 to 6), any of them, in number order, as `0/1`,
/// filling `b`.
#[inline(always)]
fn var_flags(mut b: &[u8]) -> Option<[bool; 4]> {
    let mut flags = [false; 4];
    while let [key @ (0x18 | 0x20 | 0x28 | 0x30), v @ (0 | 1), rest @ ..] = b {
        flags[usize::from((key >> 3) - 3)] = *v == 1;
        b = rest;
    }
    if !b.is_empty() {
        return None;
    }
    Some(flags)
}

/// The dims of a `TensorDesc`, `10 v` fields (each `v` a varint) that fill
/// `b`, in `arena`. Up to four (most shapes) are gathered in place and
/// copied there at once; pushing them one by one costs a call each.
#[inline(always)]
fn dims<'a>(mut b: &[u8], arena: &'a Bump) -> Option<&'a [i64]> {
    let mut head = [0i64; 4];
    let mut n = 0;
    while let [0x10, v @ ..] = b {
        let (d, taken) = match v {
            [x @ 0..0x80, ..] => (i64::from(*x), 1),
            // An unknown dim, in most shapes of activations.
            _ if v.first_chunk() == Some(&MINUS_ONE) => (-1, MINUS_ONE.len()),
            _ => {
                let (d, taken) = varint(v)?;
                (d as i64, taken)
            }
        };
        b = v.get(taken..)?;
        if n == head.len() {
            // Room for every further dim (each takes two bytes or more) at
            // once: growing the list as it fills cost a copy each time.
            let mut all = ArenaVec::with_capacity_in(head.len() + 1 + b.len() / 2, arena);
            all.extend_from_slice(&head);
            all.push(d);
            while let [0x10, v @ ..] = b {
                let (d, taken) = varint(v)?;
                all.push(d as i64);
                b = v.get(taken..)?;
            }
            return b.is_empty().then(|| all.into_bump_slice());
        }
        head[n] = d;
        n += 1;
    }
    // The four places are copied whole (two vector stores) rather than the
    // `n` used (a call to `memcpy`); the unused ones stay in the arena.
    b.is_empty().then(|| &arena.alloc(head)[..n])
}

/// The `OpVersionMap.pair` fields at the start of `b` written as Paddle
/// writes them, read in one pass: each `0a L 0a n NAME 12 02 08 v` (a pair
/// of length `L = n + 6` under 128, a UTF-8 `op_name`, and `op_version {
/// version: v }` with `v` under 128). Paddle 2.x saves some 70 of these with
/// every model, one after the other. Appends the pairs to `out` and returns
/// the bytes they take (0 when the first is in another layout).
pub(crate) fn version_pairs<'b>(b: &'b [u8], out: &mut Vec<(&'b str, i32)>) -> usize {
    let mut rest = b;
    while let [0x0a, len, 0x0a, n, tail @ ..] = rest {
        let n = usize::from(*n);
        if usize::from(*len) != n + 6 || n + 6 >= 0x80 {
            break;
        }
        let Some((name, after)) = tail.split_at_checked(n) else {
            break;
        };
        let [0x12, 0x02, 0x08, v @ 0..=0x7f, after @ ..] = after else {
            break;
        };
        let Some(name) = utf8(name) else {
            break;
        };
        out.push((name, i32::from(*v)));
        rest = after;
    }
    b.len() - rest.len()
}

/// How many bytes at the start of `b` are `OpVersionPair` fields as
/// [`version_pairs`] reads them: the same check, without the list.
pub(crate) fn version_pairs_len(b: &[u8]) -> usize {
    // A pair is `0a L 0a N NAME 12 02 08 V`, L = N + 6 < 128 and V < 128:
    // the four bytes before the name and the four after, each read as one
    // word.
    let word = |at: usize| {
        b.get(at..at + 4)
            .and_then(|w| w.try_into().ok())
            .map(u32::from_le_bytes)
    };
    let mut at = 0;
    while let Some(head) = word(at) {
        let n = (head >> 24) as usize;
        if head & 0x00ff_00ff != 0x000a_000a || (head >> 8) & 0xff != n as u32 + 6 || n >= 0x7a {
            break;
        }
        match word(at + 4 + n) {
            Some(tail) if tail & 0x80ff_ffff == 0x0008_0212 => at += n + 8,
            _ => break,
        }
    }
    // Every byte of these pairs but their names' is below 0x80: when all
    // are, every name is ASCII, checked in one pass instead of one a name
    // (an OR of all bytes, which the compiler does 16 bytes a step; half
    // the cost of `is_ascii` here).
    match b.get(..at) {
        Some(pairs) if pairs.iter().fold(0, |acc, &c| acc | c) < 0x80 => at,
        _ => version_pairs(b, &mut Vec::new()),
    }
}

/// The first pair [`version_pairs`] reads of `rest`, with the bytes it takes.
#[cfg(test)]
pub(crate) fn version_pair(rest: &[u8]) -> Option<((&str, i32), usize)> {
    let mut out = Vec::new();
    let first = rest.get(..usize::from(*rest.get(1)?) + 2)?;
    let taken = version_pairs(first, &mut out);
    Some((*out.first()?, taken))
}

#[cfg(test)]
#[path = "canonical_tests.rs"]
mod tests;
