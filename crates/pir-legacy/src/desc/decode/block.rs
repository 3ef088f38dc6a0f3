//! Reading one `BlockDesc`: its variables and ops, the lists sized by a
//! quick count of their fields first, each op by the in-order reader when
//! laid out as Paddle writes it and by the general op reader otherwise.

use super::attr::RawAttr;
use super::in_order::decode_op_in_order;
use super::var::{decode_var, RawVarType};
use super::{decode_op, MAX_OPS_PER_BLOCK, MAX_VARS_PER_BLOCK};
use crate::desc::{name_eq, BlockDesc, ExtraAttrs};
use crate::error::{LegacyError, Location, Result};
use crate::wire::Reader;

/// How many variables and ops a block message holds (a quick pass over its
/// keys, so the lists are allocated once; malformed input stops the count
/// and is reported by the real pass). Out of line: once a block.
#[inline(never)]
pub(in crate::desc) fn count_fields(r: &Reader<'_>) -> (usize, usize) {
    let mut r = r.clone();
    let (mut vars, mut ops) = (0, 0);
    loop {
        // Variables and ops whose lengths take one or two bytes (nearly
        // all), counted over the bytes without the general field reader.
        let mut rest = r.rest();
        let before = rest.len();
        while let [key @ (0x1a | 0x22), l0, tail @ ..] = rest {
            let (len, tail) = match (*l0, tail) {
                (l0 @ 0..0x80, tail) => (usize::from(l0), tail),
                (l0, [l1 @ 0..0x80, tail @ ..]) => {
                    (usize::from(l0 & 0x7f) | usize::from(*l1) << 7, tail)
                }
                _ => break,
            };
            let Some(after) = tail.get(len..) else { break };
            vars += usize::from(*key == 0x1a);
            ops += usize::from(*key == 0x22);
            rest = after;
        }
        r.advance(before - rest.len());
        if !r.has_more() {
            break;
        }
        let Ok((field, wire)) = r.key() else { break };
        match field {
            3 => vars += 1,
            4 => ops += 1,
            _ => {}
        }
        if r.skip(field, wire).is_err() {
            break;
        }
    }
    (vars, ops)
}

/// Buffers reused from one attribute (or variable type) to the next.
#[derive(Default)]
struct Scratch<'a> {
    attr: RawAttr<'a>,
    var_type: RawVarType,
    extra: ExtraAttrsSeen<'a>,
}

/// The extra attributes of the op types a block has read, kept by a cheap
/// hash of the type: a model has a few dozen op types at most, each on many
/// ops, and one comparison with the type kept here costs a fraction of a
/// look-up of its text in [`crate::compat::Compat::extra_attrs`]. The hash
/// takes the last two bytes and the table has room for twice the types of
/// most models: with the last byte alone and half the room, types that
/// share it (`elementwise_*`, `*_grad`) took each other's place over and
/// over.
#[derive(Default)]
struct ExtraAttrsSeen<'a>([Option<(&'a str, ExtraAttrs)>; 32]);

impl<'a> ExtraAttrsSeen<'a> {
    /// The extra attributes of op type `op_type`.
    #[inline]
    fn of(&mut self, op_type: &'a str) -> ExtraAttrs {
        let b = op_type.as_bytes();
        let byte = |at: Option<usize>| usize::from(at.and_then(|i| b.get(i)).copied().unwrap_or(0));
        let n = b.len();
        let at = (n ^ byte(Some(0)) << 1 ^ byte(n.checked_sub(1)) ^ byte(n.checked_sub(2)) << 3)
            % self.0.len();
        match &mut self.0[at] {
            Some((seen, extra)) if name_eq(seen, op_type) => extra,
            entry => {
                let extra = crate::compat::compat().extra_attrs(op_type);
                *entry = Some((op_type, extra));
                extra
            }
        }
    }
}

pub(super) fn decode_block<'a>(
    r: &mut Reader<'a>,
    b: usize,
    arena: &'a bumpalo::Bump,
) -> Result<BlockDesc<'a>> {
    let mut scratch = Scratch::default();
    let (vars, ops) = count_fields(r);
    let at = || Location {
        block: Some(b),
        ..Location::default()
    };
    let mut block = BlockDesc {
        idx: 0,
        parent_idx: 0,
        forward_block_idx: -1,
        vars: Vec::with_capacity(vars.min(MAX_VARS_PER_BLOCK)),
        ops: Vec::with_capacity(ops.min(MAX_OPS_PER_BLOCK)),
        by_name: Default::default(),
        names_blocks: false,
    };
    while r.has_more() {
        // Most variables: a short message in the layout `canonical` reads
        // in one step (the others go on to the general field reader).
        if let Some((0x1a, body)) = r.peek_short_message() {
            if block.vars.len() < MAX_VARS_PER_BLOCK {
                if let Some(var) = crate::canonical::dense_var(body, arena) {
                    r.advance(2 + body.len());
                    block.vars.push(var);
                    continue;
                }
            }
        }
        let (field, wire) = r.key()?;
        match field {
            1 => block.idx = r.i32(wire)?,
            2 => block.parent_idx = r.i32(wire)?,
            3 => {
                if block.vars.len() >= MAX_VARS_PER_BLOCK {
                    return Err(LegacyError::Limit {
                        at: Box::new(at()),
                        message: format!("more than {MAX_VARS_PER_BLOCK} variables"),
                    });
                }
                let mut m = r.message(wire, "VarDesc")?;
                let bytes = m.rest();
                let var = match crate::canonical::dense_var(bytes, arena) {
                    Some(var) => var,
                    None => match crate::canonical::kind_var(bytes) {
                        Some(var) => var,
                        None => decode_var(&mut m, &mut scratch.var_type, arena)?,
                    },
                };
                block.vars.push(var);
            }
            4 => {
                if block.ops.len() >= MAX_OPS_PER_BLOCK {
                    return Err(LegacyError::Limit {
                        at: Box::new(at()),
                        message: format!("more than {MAX_OPS_PER_BLOCK} ops"),
                    });
                }
                let i = block.ops.len();
                let mut m = r.message(wire, "OpDesc")?;
                let mut op = match decode_op_in_order(&m, &mut scratch.attr, arena) {
                    Some(op) => op,
                    None => {
                        let body = m.rest();
                        decode_op(&mut m, b, i, &mut scratch.attr, arena)
                            .map_err(|e| with_op_type(e, body))?
                    }
                };
                op.extra = scratch.extra.of(op.op_type);
                block.names_blocks |= op.names_blocks;
                block.ops.push(op);
            }
            5 => block.forward_block_idx = r.i32(wire)?,
            _ => r.skip(field, wire)?,
        }
    }
    block.by_name = crate::desc::names::VarIndex::new(&block.vars);
    Ok(block)
}

/// An error found while reading an op before its `type` field (protobuf
/// fields may come in any order) gets the type from the op's bytes: the
/// last `type` field, as a protobuf reader keeps it. Found only when an
/// error needs it, so reading ops in Paddle's order costs nothing more.
fn with_op_type(mut e: LegacyError, body: &[u8]) -> LegacyError {
    if let LegacyError::Invalid { at, .. } | LegacyError::Limit { at, .. } = &mut e {
        if at.op_type.as_deref().is_none_or(str::is_empty) {
            if let Some(t) = op_type_of(body) {
                at.op_type = Some(t.to_owned());
            }
        }
    }
    e
}

/// The `type` field of an `OpDesc` message (the last one read before the
/// end or before bytes that do not decode; `None` when there is none).
fn op_type_of(body: &[u8]) -> Option<&str> {
    let mut r = Reader::new(body, "OpDesc");
    let mut found = None;
    while r.has_more() {
        let Ok((field, wire)) = r.key() else { break };
        let step = if field == 3 {
            r.str(wire).map(|s| found = Some(s))
        } else {
            r.skip(field, wire)
        };
        if step.is_err() {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::ExtraAttrsSeen;

    /// Types that share a place in the table (and the empty type) get
    /// their own extra attributes, asked in any order and again.
    #[test]
    fn extra_attributes_seen_are_those_of_the_type() {
        let compat = crate::compat::compat();
        let types = [
            "conv2d",
            "pool2d",
            "dropout",
            "batch_norm",
            "",
            "matmul",
            "relu",
            "fc",
            "softmax",
            "my_custom_op",
            "elementwise_add",
            "elementwise_mul",
            "scale",
            "lookup_table_v2",
        ];
        assert!(types.iter().any(|t| !compat.extra_attrs(t).is_empty()));
        let mut seen = ExtraAttrsSeen::default();
        let forward = types.iter();
        let backward = types.iter().rev();
        let every_third = types.iter().step_by(3);
        for op_type in forward.chain(backward).chain(every_third) {
            assert_eq!(seen.of(op_type), compat.extra_attrs(op_type), "{op_type}");
        }
    }
}
