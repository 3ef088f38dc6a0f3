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

use crate::desc::{Args, AttrValue, DataKind, Dims, Slot, TensorDesc, VarDesc, VarKind};
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

/// [`varint`] of more than one byte.
#[inline(never)]
fn long_varint(b: &[u8]) -> Option<(u64, usize)> {
    const MINUS_ONE: [u8; 10] = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    // An unknown dim (`-1`), in most shapes.
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
pub(crate) fn attr(b: &[u8]) -> Option<(&str, AttrValue<'_>)> {
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
            let mut ints = Vec::with_capacity(list.len() / 2);
            while let [0x30, v @ ..] = list {
                let (i, n) = varint(v)?;
                ints.push(i as i32);
                list = &v[n..];
            }
            if !list.is_empty() {
                return None;
            }
            AttrValue::Ints(ints)
        }
        (4, list) => floats(list)?,
        // Most lists (`op_role_var`) are empty.
        (5, []) => AttrValue::Strings(Vec::new()),
        (5, list) => strings(list)?,
        (6, [0x50, v @ (0 | 1)]) => AttrValue::Bool(*v == 1),
        (8, [0x60, v @ 0..0x80]) => AttrValue::Block(i32::from(*v)),
        (9, [0x68, v @ ..]) => match varint(v)? {
            (i, n) if n == v.len() => AttrValue::Long(i as i64),
            _ => return None,
        },
        (11, list) => longs(list)?,
        (12, []) => AttrValue::Float64s(Vec::new()),
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
        15 if is_exactly(b, ROLE_VAR) => ("op_role_var", AttrValue::Strings(Vec::new())),
        15 if is_exactly(b, DEVICE) => ("op_device", AttrValue::String("")),
        16 if is_exactly(b, CALLSTACK) => ("op_callstack", AttrValue::Strings(Vec::new())),
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
        ("op_role_var", AttrValue::Strings(Vec::new())),
    ])
}

/// The value of a `STRINGS` attribute: `42 n STRING` for each string.
/// Out of line: [`attr`] runs for every attribute, this for few.
#[inline(never)]
fn strings(list: &[u8]) -> Option<AttrValue<'_>> {
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
    let mut strings = Vec::with_capacity(count);
    let mut at = 0;
    while let Some(&n) = list.get(at + 1) {
        let start = at + 2;
        at = start + usize::from(n);
        strings.push(text.get(start..at)?);
    }
    Some(AttrValue::Strings(strings))
}

/// The value of a `LONGS` attribute: `78 v` for each item (`v` a varint).
/// Out of line, as [`strings`].
#[inline(never)]
fn longs(mut list: &[u8]) -> Option<AttrValue<'_>> {
    let mut longs = Vec::with_capacity(list.len() / 2);
    while let [0x78, v @ ..] = list {
        let (l, n) = varint(v)?;
        longs.push(l as i64);
        list = &v[n..];
    }
    list.is_empty().then_some(AttrValue::Longs(longs))
}

/// The value of a `FLOATS` attribute: `3d f32` for each item. Out of line,
/// as [`strings`].
#[inline(never)]
fn floats(mut list: &[u8]) -> Option<AttrValue<'_>> {
    let mut floats = Vec::with_capacity(list.len() / 5);
    while let [0x3d, a, b, c, d, rest @ ..] = list {
        floats.push(f32::from_le_bytes([*a, *b, *c, *d]));
        list = rest;
    }
    list.is_empty().then_some(AttrValue::Floats(floats))
}

/// An `OpDesc.Var` (an input or output slot) as Paddle writes it:
/// `0a n PARAMETER`, then `12 m ARGUMENT` for each argument.
#[inline(always)]
pub(crate) fn slot(b: &[u8]) -> Option<Slot<'_>> {
    // One check for the whole message: the bytes between the strings (`0a
    // n`, `12 m`, lengths under 128) are ASCII, so the message is UTF-8
    // exactly when each string is, and each string is a piece of it.
    let text = utf8(b)?;
    let (name, mut rest) = short_field(0x0a, b)?;
    let name = text.get(2..2 + name.len())?;
    // The arguments that fit inline (nearly all) are gathered in place and
    // made into a list at once, as [`dims`] does.
    let mut head = [""; 2];
    let mut n = 0;
    while !rest.is_empty() {
        let (arg, after) = short_field(0x12, rest)?;
        let start = b.len() - rest.len() + 2;
        let arg = text.get(start..start + arg.len())?;
        rest = after;
        if n == head.len() {
            let mut args = Args::from(&head[..]);
            args.push(arg);
            while !rest.is_empty() {
                let (arg, after) = short_field(0x12, rest)?;
                let start = b.len() - rest.len() + 2;
                args.push(text.get(start..start + arg.len())?);
                rest = after;
            }
            return Some(Slot { name, args });
        }
        head[n] = arg;
        n += 1;
    }
    Some(Slot {
        name,
        args: Args::from_array_prefix(head, n),
    })
}

/// A `VarDesc` of a dense tensor as Paddle writes it: `0a n NAME`, then
/// `12 L` holding `08 07 1a L2` (type `DENSE_TENSOR` and its desc:
/// `0a L3 [08 DTYPE (10 DIM)*]`, optionally `10 LOD`), then any of the
/// flags `persistable`, `need_check_feed`, `is_parameter`, `stop_gradient`
/// as `0/1`, and nothing else.
#[inline(always)]
pub(crate) fn dense_var(b: &[u8]) -> Option<VarDesc<'_>> {
    let (name, rest) = short_field(0x0a, b)?;
    let name = utf8(name)?;
    let (var_type, mut flags_bytes) = short_field(0x12, rest)?;
    let [0x08, 0x07, desc @ ..] = var_type else {
        return None;
    };
    let (dense, rest) = short_field(0x1a, desc)?;
    if !rest.is_empty() {
        return None;
    }
    let (tensor, lod) = short_field(0x0a, dense)?;
    let lod_level = match lod {
        [] => 0,
        [0x10, v] if *v < 0x80 => i32::from(*v),
        _ => return None,
    };
    let [0x08, dtype, dims_bytes @ ..] = tensor else {
        return None;
    };
    if *dtype >= 0x80 {
        return None;
    }
    let dims = dims(dims_bytes)?;
    // The rule of [`var_flags`], written in place: through it, the block
    // reader this is inlined into compiled to more instructions a variable.
    let mut flags = [false; 4];
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
        tuple: Box::default(),
        reader: Box::default(),
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
        tuple: Box::default(),
        reader: Box::default(),
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
/// `b`. Up to four (most shapes) are gathered in place and made into a list
/// at once; pushing them one by one costs a call each.
#[inline(always)]
fn dims(mut b: &[u8]) -> Option<Dims> {
    let mut head = [0i64; 4];
    let mut n = 0;
    while let [0x10, v @ ..] = b {
        let (d, taken) = match v {
            [x @ 0..0x80, ..] => (i64::from(*x), 1),
            _ => {
                let (d, taken) = varint(v)?;
                (d as i64, taken)
            }
        };
        b = v.get(taken..)?;
        if n == head.len() {
            let mut all = Dims::from(&head[..]);
            all.push(d);
            while let [0x10, v @ ..] = b {
                let (d, taken) = varint(v)?;
                all.push(d as i64);
                b = v.get(taken..)?;
            }
            return b.is_empty().then_some(all);
        }
        head[n] = d;
        n += 1;
    }
    b.is_empty().then(|| Dims::from_array_prefix(head, n))
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
mod tests {
    use super::*;
    use crate::desc::{general_attr, general_slot, general_var};
    use crate::proto;
    use prost::Message;

    /// `bytes`, every truncation of them and every copy with one bit flipped.
    fn damaged(bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut out = vec![bytes.to_vec()];
        out.extend((0..bytes.len()).map(|n| bytes[..n].to_vec()));
        for i in 0..bytes.len() * 8 {
            let mut b = bytes.to_vec();
            b[i / 8] ^= 1 << (i % 8);
            out.push(b);
        }
        out
    }

    fn attrs() -> Vec<proto::op_desc::Attr> {
        use proto::AttrType as T;
        let base = |name: &str, ty: T| proto::op_desc::Attr {
            name: name.into(),
            r#type: ty as i32,
            ..Default::default()
        };
        let mut out = Vec::new();
        for i in [0, 1, 127, 128, -1, i32::MIN, i32::MAX] {
            out.push(proto::op_desc::Attr {
                i: Some(i),
                ..base("op_role", T::Int)
            });
        }
        for f in [0.0, 1e-5, -3.5] {
            out.push(proto::op_desc::Attr {
                f: Some(f),
                ..base("epsilon", T::Float)
            });
        }
        for s in [
            "",
            "/",
            "NCHW",
            "\u{e9}t\u{e9}",
            &"x".repeat(127),
            &"y".repeat(128),
        ] {
            out.push(proto::op_desc::Attr {
                s: Some(s.into()),
                ..base("data_format", T::String)
            });
        }
        for ints in [vec![], vec![1, 1], vec![-1, 300, 0]] {
            out.push(proto::op_desc::Attr {
                ints,
                ..base("strides", T::Ints)
            });
        }
        for strings in [
            vec![],
            vec!["a".to_string(), String::new()],
            vec![
                "\u{e9}t\u{e9}".to_string(),
                "x".repeat(100),
                "y".to_string(),
            ],
        ] {
            out.push(proto::op_desc::Attr {
                strings,
                ..base("op_role_var", T::Strings)
            });
        }
        for b in [true, false] {
            out.push(proto::op_desc::Attr {
                b: Some(b),
                ..base("is_test", T::Boolean)
            });
        }
        // The bookkeeping attributes in the layouts told by their bytes.
        for (name, s) in [("op_device", ""), ("op_namescope", "/")] {
            out.push(proto::op_desc::Attr {
                s: Some(s.into()),
                ..base(name, T::String)
            });
        }
        out.push(base("op_callstack", T::Strings));
        out.push(proto::op_desc::Attr {
            b: Some(false),
            ..base("with_quant_attr", T::Boolean)
        });
        for l in [0, -1, i64::MAX, 1 << 40] {
            out.push(proto::op_desc::Attr {
                l: Some(l),
                ..base("seed", T::Long)
            });
        }
        for longs in [vec![], vec![1, 2], vec![-1, 1 << 40, 0, 300]] {
            out.push(proto::op_desc::Attr {
                longs,
                ..base("shape", T::Longs)
            });
        }
        for floats in [vec![], vec![1.5], vec![-0.0, 2.0, f32::MAX]] {
            out.push(proto::op_desc::Attr {
                floats,
                ..base("scale", T::Floats)
            });
        }
        for block_idx in [0, 1, 127] {
            out.push(proto::op_desc::Attr {
                block_idx: Some(block_idx),
                ..base("sub_block", T::Block)
            });
        }
        out.push(base("fp64_values", T::Float64s));
        // Kinds and layouts the general reader takes.
        out.push(base("missing_value", T::Int));
        out.push(base("missing_value", T::Block));
        out.push(proto::op_desc::Attr {
            block_idx: Some(128),
            ..base("far_block", T::Block)
        });
        out.push(proto::op_desc::Attr {
            float64s: vec![0.5],
            ..base("fp64_values", T::Float64s)
        });
        out.push(proto::op_desc::Attr {
            i: Some(3),
            b: Some(true),
            ..base("two_values", T::Int)
        });
        out.push(proto::op_desc::Attr {
            float64: Some(0.5),
            ..base("value", T::Float64)
        });
        out
    }

    /// Whatever the one-step reader answers, the general reader answers too:
    /// on Paddle's layouts, on every truncation and on every flipped bit of
    /// them.
    #[test]
    fn attributes_read_in_one_step_or_in_general_alike() {
        let mut taken = 0;
        for a in attrs() {
            let bytes = a.encode_to_vec();
            let fast = attr(&bytes);
            taken += usize::from(fast.is_some());
            let kind = a.r#type;
            let common = [0, 1, 2, 3, 4, 5, 6, 8, 9, 11].contains(&kind)
                || kind == 12 && a.float64s.is_empty();
            let general = ["two_values", "missing_value", "far_block"].contains(&a.name.as_str());
            // Lengths take one byte.
            let short = a.s.as_ref().is_none_or(|s| s.len() < 0x80);
            assert_eq!(fast.is_some(), common && !general && short, "{a:?}");
            for b in &damaged(&bytes) {
                if let Some(fast) = attr(b) {
                    let general = general_attr(b).ok().and_then(Result::ok);
                    // Compared as printed: a flipped bit can make a NaN,
                    // which is not equal to itself.
                    assert_eq!(
                        format!("{:?}", Some(fast)),
                        format!("{general:?}"),
                        "{b:x?}"
                    );
                }
            }
        }
        assert!(taken > 20);
    }

    /// Each bookkeeping layout is told by its bytes, and reads as the
    /// general reader reads it.
    #[test]
    fn bookkeeping_attributes_are_told_by_their_bytes() {
        // By name, as the told names are sorted below.
        let names = [
            "op_callstack",
            "op_device",
            "op_namescope",
            "op_role",
            "op_role_var",
            "with_quant_attr",
        ];
        let mut told = Vec::new();
        for a in attrs() {
            let bytes = a.encode_to_vec();
            if let Some((name, value)) = bookkeeping_attr(&bytes) {
                let general = general_attr(&bytes).ok().and_then(Result::ok);
                assert_eq!(Some((name, value)), general, "{a:?}");
                told.push(name);
            }
        }
        told.sort_unstable();
        assert_eq!(told, names);
    }

    /// The run of four bookkeeping fields reads as the field-by-field
    /// reader reads each, and only when it is exactly that run.
    #[test]
    fn bookkeeping_run_is_four_fields() {
        let mut four: Vec<_> = attrs()
            .into_iter()
            .filter(|a| {
                matches!(
                    a.name.as_str(),
                    "op_device" | "op_namescope" | "op_role" | "op_role_var"
                ) && bookkeeping_attr(&a.encode_to_vec()).is_some()
            })
            .collect();
        four.sort_by(|a, b| a.name.cmp(&b.name));
        // Each as `OpDesc.attrs` (field 4) writes it.
        let mut bytes = Vec::new();
        for a in &four {
            let field = a.encode_to_vec();
            bytes.extend([0x22, field.len() as u8]);
            bytes.extend(field);
        }
        let run = bookkeeping_run(&bytes).expect("the run");
        assert_eq!(bytes.len(), BOOKKEEPING_RUN_LEN);
        for (a, (name, value)) in four.iter().zip(run) {
            let field = a.encode_to_vec();
            let general = general_attr(&field).ok().and_then(Result::ok);
            assert_eq!(Some((name, value)), general);
        }
        for b in damaged(&bytes).iter().skip(1) {
            assert!(bookkeeping_run(b).is_none(), "{b:x?}");
        }
    }

    #[test]
    fn slots_read_in_one_step_or_in_general_alike() {
        let cases = [
            ("X", vec!["x"]),
            ("Out", vec![]),
            ("Ids", vec!["a", "b", "c", "\u{e9}"]),
            ("Long", vec!["y"; 1]),
        ];
        for (name, args) in cases {
            let mut v = proto::op_desc::Var {
                parameter: name.into(),
                arguments: args.iter().map(|a| a.to_string()).collect(),
            };
            if name == "Long" {
                v.arguments[0] = "z".repeat(130);
            }
            let bytes = v.encode_to_vec();
            assert_eq!(slot(&bytes).is_some(), name != "Long", "{name}");
            for b in &damaged(&bytes) {
                if let Some(fast) = slot(b) {
                    assert_eq!(Ok(fast), general_slot(b), "{b:x?}");
                }
            }
        }
    }

    /// The check of version pairs takes what their one-step reader takes:
    /// on Paddle's layout, names that are not ASCII, and every truncation and
    /// flipped bit of them.
    #[test]
    fn version_pairs_checked_as_read() {
        let map = |names: &[&str]| proto::OpVersionMap {
            pair: names
                .iter()
                .enumerate()
                .map(|(i, n)| proto::op_version_map::OpVersionPair {
                    op_name: n.to_string(),
                    op_version: proto::OpVersion { version: i as i32 },
                })
                .collect(),
        };
        for names in [
            &["conv2d", "relu", ""][..],
            &["matmul_v2", "\u{e9}t\u{e9}", "x"],
            &["y", &"z".repeat(121), &"z".repeat(122)],
        ] {
            let m = map(names);
            // The pairs without the message's own key and length.
            let bytes = m.encode_to_vec();
            for b in &damaged(&bytes) {
                let mut out = Vec::new();
                assert_eq!(version_pairs_len(b), version_pairs(b, &mut out), "{b:x?}");
            }
        }
    }

    fn var(name: &str, dims: Vec<i64>, lod: Option<i32>, flags: [Option<bool>; 4]) -> Vec<u8> {
        let mut v = crate::desc::tests::tensor_var(name, dims);
        if let Some(d) = v.r#type.dense_tensor.as_mut() {
            d.legacy_lod_level = lod;
        }
        [
            v.persistable,
            v.need_check_feed,
            v.is_parameter,
            v.stop_gradient,
        ] = flags;
        v.encode_to_vec()
    }

    /// A variable whose type is its kind alone (feed and fetch lists, a kind
    /// that is not a variable kind, a dense tensor without its desc) reads
    /// as the general reader reads it.
    #[test]
    fn variables_of_a_kind_alone_read_in_one_step_or_in_general_alike() {
        for (kind, flags) in [
            (9, [Some(true), None, None, None]),
            (10, [Some(true), Some(false), None, None]),
            (11, [None; 4]),
            (5, [None, None, None, Some(true)]),
            (7, [None; 4]),
            (99, [Some(false); 4]),
        ] {
            let mut v = crate::desc::tests::tensor_var("feed", vec![]);
            v.r#type = proto::VarType {
                r#type: kind,
                ..Default::default()
            };
            [
                v.persistable,
                v.need_check_feed,
                v.is_parameter,
                v.stop_gradient,
            ] = flags;
            let bytes = v.encode_to_vec();
            assert!(kind_var(&bytes).is_some(), "{kind}");
            for b in &damaged(&bytes) {
                if let Some(fast) = kind_var(b) {
                    assert_eq!(Ok(fast), general_var(b), "{b:x?}");
                }
            }
        }
    }

    #[test]
    fn dense_variables_read_in_one_step_or_in_general_alike() {
        let cases = [
            var("w", vec![2, 3], None, [Some(true), None, None, None]),
            var(
                "x",
                vec![-1, 8],
                Some(0),
                [Some(false), None, None, Some(true)],
            ),
            var("\u{e9}", vec![], Some(1), [None; 4]),
            var("y", vec![1 << 40], None, [Some(true); 4]),
            // Four dims fill the inline room; five and more go past it.
            var("z", vec![-1, 3, 200, 7], None, [None; 4]),
            var("v", vec![1, -1, 2, 1 << 20, 5], None, [None; 4]),
            var("u", vec![300, 2, -1, 4, 5, 6, 127], Some(0), [None; 4]),
        ];
        for bytes in &cases {
            let fast = dense_var(bytes);
            assert!(fast.is_some(), "{bytes:x?}");
            for b in &damaged(bytes) {
                if let Some(fast) = dense_var(b) {
                    assert_eq!(Ok(fast), general_var(b), "{b:x?}");
                }
            }
        }
        // Other kinds, long names and variable attributes go the general way.
        let mut other = proto::VarDesc::decode(&cases[0][..]).unwrap();
        other.r#type.r#type = 9;
        assert!(dense_var(&other.encode_to_vec()).is_none());
        assert!(kind_var(&other.encode_to_vec()).is_none());
        assert!(dense_var(&var(&"n".repeat(200), vec![1], None, [None; 4])).is_none());
        let mut with_attr = proto::VarDesc::decode(&cases[0][..]).unwrap();
        with_attr.attrs.push(proto::var_desc::Attr {
            name: "a".into(),
            ..Default::default()
        });
        assert!(dense_var(&with_attr.encode_to_vec()).is_none());
    }
}
