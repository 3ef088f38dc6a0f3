//! The general reader of an `OpDesc.Attr`: every value field as read,
//! then the value its type selects (the layouts Paddle writes for the
//! common kinds take `crate::canonical::attr` instead).

use bumpalo::Bump;

use super::super::{AttrValue, List, ScalarValue};
use crate::wire::{Reader, WireResult};

/// `OpDesc.Attr` as read: every value field, of which the type picks one.
#[derive(Default)]
pub(super) struct RawAttr<'a> {
    pub(super) name: &'a str,
    ty: i32,
    i: Option<i32>,
    f: Option<f32>,
    s: Option<&'a str>,
    ints: Vec<i32>,
    floats: Vec<f32>,
    strings: Vec<&'a str>,
    b: Option<bool>,
    bools: Vec<bool>,
    block_idx: Option<i32>,
    l: Option<i64>,
    blocks_idx: Vec<i32>,
    longs: Vec<i64>,
    float64s: Vec<f64>,
    var_name: Option<&'a str>,
    vars_name: Vec<&'a str>,
    float64: Option<f64>,
    scalar: Option<RawScalar>,
    scalars: Vec<RawScalar>,
}

/// `Scalar` as read.
#[derive(Default, Clone, Copy)]
struct RawScalar {
    ty: i32,
    b: Option<bool>,
    i: Option<i64>,
    r: Option<f64>,
    c: Option<(f64, f64)>,
}

fn merge_scalar(r: &mut Reader<'_>, s: &mut RawScalar) -> WireResult<()> {
    while r.has_more() {
        match r.key()? {
            (1, w) => s.ty = r.i32(w)?,
            (2, w) => s.b = Some(r.bool(w)?),
            (3, w) => s.i = Some(r.i64(w)?),
            (4, w) => s.r = Some(r.f64(w)?),
            (5, w) => {
                let mut m = r.message(w, "Complex")?;
                let c = s.c.get_or_insert((0.0, 0.0));
                while m.has_more() {
                    match m.key()? {
                        (1, w) => c.0 = m.f64(w)?,
                        (2, w) => c.1 = m.f64(w)?,
                        (f, w) => m.skip(f, w)?,
                    }
                }
            }
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

impl RawAttr<'_> {
    /// Empties every field, keeping the lists' buffers.
    fn reset(&mut self) {
        self.name = "";
        self.ty = 0;
        self.i = None;
        self.f = None;
        self.s = None;
        self.ints.clear();
        self.floats.clear();
        self.strings.clear();
        self.b = None;
        self.bools.clear();
        self.block_idx = None;
        self.l = None;
        self.blocks_idx.clear();
        self.longs.clear();
        self.float64s.clear();
        self.var_name = None;
        self.vars_name.clear();
        self.float64 = None;
        self.scalar = None;
        self.scalars.clear();
    }
}

pub(super) fn decode_attr<'a>(r: &mut Reader<'a>, a: &mut RawAttr<'a>) -> WireResult<()> {
    a.reset();
    while r.has_more() {
        match r.key()? {
            (1, w) => a.name = r.str(w)?,
            (2, w) => a.ty = r.i32(w)?,
            (3, w) => a.i = Some(r.i32(w)?),
            (4, w) => a.f = Some(r.f32(w)?),
            (5, w) => a.s = Some(r.str(w)?),
            (6, w) => r.repeated_varint(w, &mut a.ints, |v| v as i32)?,
            (7, w) => r.repeated_f32(w, &mut a.floats)?,
            (8, w) => {
                let s = r.str(w)?;
                a.strings.push(s);
            }
            (10, w) => a.b = Some(r.bool(w)?),
            (11, w) => r.repeated_varint(w, &mut a.bools, |v| v != 0)?,
            (12, w) => a.block_idx = Some(r.i32(w)?),
            (13, w) => a.l = Some(r.i64(w)?),
            (14, w) => r.repeated_varint(w, &mut a.blocks_idx, |v| v as i32)?,
            (15, w) => r.repeated_varint(w, &mut a.longs, |v| v as i64)?,
            (16, w) => r.repeated_f64(w, &mut a.float64s)?,
            (17, w) => a.var_name = Some(r.str(w)?),
            (18, w) => {
                let s = r.str(w)?;
                a.vars_name.push(s);
            }
            (19, w) => a.float64 = Some(r.f64(w)?),
            (20, w) => merge_scalar(
                &mut r.message(w, "Scalar")?,
                a.scalar.get_or_insert_with(Default::default),
            )?,
            (21, w) => {
                let mut s = RawScalar::default();
                merge_scalar(&mut r.message(w, "Scalar")?, &mut s)?;
                a.scalars.push(s);
            }
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

fn scalar(s: &RawScalar) -> Result<ScalarValue, String> {
    Ok(match s.ty {
        1 => ScalarValue::Bool(s.b.unwrap_or(false)),
        2 => ScalarValue::Long(s.i.unwrap_or(0)),
        3 => ScalarValue::Float64(s.r.unwrap_or(0.0)),
        4 => {
            let (re, im) = s.c.unwrap_or((0.0, 0.0));
            ScalarValue::Complex(re, im)
        }
        other => return Err(format!("unknown scalar type {other}")),
    })
}

/// The value an attribute's type selects (`AttrType` numbers of
/// `framework.proto`); a list is copied from the scratch fields into
/// `arena` (the scratch keeps its buffers for the next attribute).
pub(super) fn attr_value<'a>(a: &RawAttr<'a>, arena: &'a Bump) -> Result<AttrValue<'a>, String> {
    Ok(match a.ty {
        0 => AttrValue::Int(a.i.unwrap_or(0)),
        1 => AttrValue::Float(a.f.unwrap_or(0.0)),
        2 => AttrValue::String(a.s.unwrap_or_default()),
        3 => AttrValue::Ints(in_arena(arena, &a.ints)),
        4 => AttrValue::Floats(in_arena(arena, &a.floats)),
        5 => AttrValue::Strings(in_arena(arena, &a.strings)),
        6 => AttrValue::Bool(a.b.unwrap_or(false)),
        7 => AttrValue::Bools(in_arena(arena, &a.bools)),
        8 => AttrValue::Block(a.block_idx.unwrap_or(0)),
        9 => AttrValue::Long(a.l.unwrap_or(0)),
        10 => AttrValue::Blocks(in_arena(arena, &a.blocks_idx)),
        11 => AttrValue::Longs(in_arena(arena, &a.longs)),
        12 => AttrValue::Float64s(in_arena(arena, &a.float64s)),
        13 => AttrValue::Var(a.var_name.unwrap_or_default()),
        14 => AttrValue::Vars(in_arena(arena, &a.vars_name)),
        15 => AttrValue::Float64(a.float64.unwrap_or(0.0)),
        16 => AttrValue::Scalar(
            a.scalar
                .as_ref()
                .map(scalar)
                .transpose()?
                .unwrap_or(ScalarValue::Float64(0.0)),
        ),
        17 => {
            let items = a
                .scalars
                .iter()
                .map(scalar)
                .collect::<Result<Vec<_>, _>>()?;
            AttrValue::Scalars(in_arena(arena, &items))
        }
        other => return Err(format!("unknown attribute type {other}")),
    })
}

/// A copy of `list` in `arena`.
fn in_arena<'a, T: Copy>(arena: &'a Bump, list: &[T]) -> List<'a, T> {
    List::Borrowed(arena.alloc_slice_copy(list))
}
