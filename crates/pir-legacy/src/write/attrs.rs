//! PIR attributes to legacy attribute values of the kind the legacy op
//! declares (the inverse of `translate::attrs`): a value is first read as
//! plain data ([`Plain`]), then shaped to the kind; what does not fit is
//! an error naming both.

use pir_core::builtin::{
    ArrayAttr, BoolAttr, Complex128Attr, F32Attr, F64Attr, I32Attr, I64Attr, IndexAttr, StrAttr,
};
use pir_core::{Attribute, IrContext};
use pir_dialects::pd_op::attrs::{DataType, DataTypeAttr, IntArrayAttr, PlaceAttr, ScalarAttr};

use super::encode::Value;
use crate::compat::LegacyAttrKind;
use crate::desc::{AttrValue, ScalarValue};

/// An attribute's value without its PIR kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Plain {
    /// A bool.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float32 (kept apart so that it is written back exactly).
    F32(f32),
    /// A float64.
    F64(f64),
    /// A complex number.
    Complex(f64, f64),
    /// A string.
    Str(String),
    /// A data type.
    DType(DataType),
    /// A place: its legacy `place_type`.
    Place(i32),
    /// A list.
    List(Vec<Plain>),
}

impl Plain {
    fn as_f64(&self) -> Option<f64> {
        match *self {
            Plain::Bool(b) => Some(f64::from(u8::from(b))),
            Plain::Int(i) => Some(i as f64),
            Plain::F32(f) => Some(f64::from(f)),
            Plain::F64(f) => Some(f),
            _ => None,
        }
    }

    fn as_i64(&self) -> Option<i64> {
        match *self {
            Plain::Bool(b) => Some(i64::from(b)),
            Plain::Int(i) => Some(i),
            Plain::DType(d) => Some(i64::from(proto_dtype(d))),
            Plain::Place(p) => Some(i64::from(p)),
            Plain::F32(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(f as i64),
            Plain::F64(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(f as i64),
            _ => None,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match *self {
            Plain::Bool(b) => Some(b),
            Plain::Int(i) => Some(i != 0),
            _ => None,
        }
    }

    fn items(&self) -> Option<&[Plain]> {
        match self {
            Plain::List(l) => Some(l),
            _ => None,
        }
    }

    fn scalar(&self) -> Option<ScalarValue> {
        Some(match *self {
            Plain::Bool(b) => ScalarValue::Bool(b),
            Plain::Int(i) => ScalarValue::Long(i),
            Plain::F32(f) => ScalarValue::Float64(f64::from(f)),
            Plain::F64(f) => ScalarValue::Float64(f),
            Plain::Complex(r, i) => ScalarValue::Complex(r, i),
            _ => return None,
        })
    }

    /// The text of a number as Paddle's `str_value` holds it.
    pub fn number_text(&self) -> Option<String> {
        Some(match *self {
            Plain::Bool(b) => b.to_string(),
            Plain::Int(i) => i.to_string(),
            Plain::F32(f) => format!("{f:?}"),
            Plain::F64(f) => format!("{f:?}"),
            _ => return None,
        })
    }
}

/// `VarType.Type` number of a phi data type (`-1` for undefined).
pub fn proto_dtype(d: DataType) -> i32 {
    match d {
        DataType::Bool => 0,
        DataType::Int16 => 1,
        DataType::Int32 => 2,
        DataType::Int64 => 3,
        DataType::Float16 => 4,
        DataType::Float32 => 5,
        DataType::Float64 => 6,
        DataType::UInt8 => 20,
        DataType::Int8 => 21,
        DataType::BFloat16 => 22,
        DataType::Complex64 => 23,
        DataType::Complex128 => 24,
        DataType::PString => 29,
        DataType::Float8E4M3FN => 32,
        DataType::Float8E5M2 => 33,
        _ => -1,
    }
}

/// The plain value of a PIR attribute (`None` for kinds with no legacy
/// counterpart).
pub fn plain(ctx: &IrContext, a: Attribute) -> Option<Plain> {
    if a.is_null() {
        return None;
    }
    if let Some(b) = ctx.attr_as::<BoolAttr>(a) {
        return Some(Plain::Bool(b.0));
    }
    if let Some(i) = ctx.attr_as::<I32Attr>(a) {
        return Some(Plain::Int(i64::from(i.0)));
    }
    if let Some(i) = ctx.attr_as::<I64Attr>(a) {
        return Some(Plain::Int(i.0));
    }
    if let Some(i) = ctx.attr_as::<IndexAttr>(a) {
        return Some(Plain::Int(i.0));
    }
    if let Some(f) = ctx.attr_as::<F32Attr>(a) {
        return Some(Plain::F32(f.value()));
    }
    if let Some(f) = ctx.attr_as::<F64Attr>(a) {
        return Some(Plain::F64(f64::from_bits(f.0)));
    }
    if let Some(c) = ctx.attr_as::<Complex128Attr>(a) {
        return Some(Plain::Complex(f64::from_bits(c.0), f64::from_bits(c.1)));
    }
    if let Some(s) = ctx.attr_as::<StrAttr>(a) {
        return Some(Plain::Str(s.0.to_string()));
    }
    if let Some(list) = ctx.attr_as::<ArrayAttr>(a) {
        let items: Option<Vec<Plain>> = list.0.iter().map(|&x| plain(ctx, x)).collect();
        return items.map(Plain::List);
    }
    if let Some(list) = ctx.attr_as::<IntArrayAttr>(a) {
        return Some(Plain::List(list.0.iter().map(|&i| Plain::Int(i)).collect()));
    }
    if let Some(d) = ctx.attr_as::<DataTypeAttr>(a) {
        return Some(Plain::DType(d.0));
    }
    if let Some(p) = ctx.attr_as::<PlaceAttr>(a) {
        // `place_type` of `fill_constant`: -1 undefined, 0 CPU, 1 GPU,
        // 2 GPU pinned, 3 XPU.
        let t = match p.0.allocation_type {
            1 => 0,
            2 => 1,
            3 => 2,
            4 => 3,
            _ => -1,
        };
        return Some(Plain::Place(t));
    }
    if let Some(s) = ctx.attr_as::<ScalarAttr>(a) {
        return Some(match s.dtype {
            DataType::Bool => Plain::Bool(s.bits != 0),
            DataType::Float16 | DataType::BFloat16 | DataType::Float32 | DataType::Float64 => {
                Plain::F64(f64::from_bits(s.bits))
            }
            DataType::Complex64 | DataType::Complex128 => Plain::Complex(
                f64::from_bits(s.bits),
                f64::from_bits(s.imag_bits.unwrap_or(0)),
            ),
            _ => Plain::Int(s.bits as i64),
        });
    }
    None
}

/// `plain` shaped to legacy kind `kind`; `None` when it does not fit.
pub fn to_kind(p: &Plain, kind: LegacyAttrKind) -> Option<Value> {
    use LegacyAttrKind as K;
    let list = || p.items();
    Some(match kind {
        K::Int => Value::Int(i32::try_from(p.as_i64()?).ok()?),
        K::Long => Value::Long(p.as_i64()?),
        K::Float => Value::Float(match *p {
            Plain::F32(f) => f,
            _ => p.as_f64()? as f32,
        }),
        K::Float64 => Value::Float64(p.as_f64()?),
        K::Bool => Value::Bool(p.as_bool()?),
        K::String => match p {
            Plain::Str(s) => Value::String(s.clone()),
            other => Value::String(other.number_text()?),
        },
        K::Ints => Value::Ints(
            list()?
                .iter()
                .map(|x| i32::try_from(x.as_i64()?).ok())
                .collect::<Option<_>>()?,
        ),
        K::Longs => Value::Longs(list()?.iter().map(Plain::as_i64).collect::<Option<_>>()?),
        K::Floats => Value::Floats(
            list()?
                .iter()
                .map(|x| match *x {
                    Plain::F32(f) => Some(f),
                    _ => x.as_f64().map(|f| f as f32),
                })
                .collect::<Option<_>>()?,
        ),
        K::Float64s => Value::Float64s(list()?.iter().map(Plain::as_f64).collect::<Option<_>>()?),
        K::Bools => Value::Bools(list()?.iter().map(Plain::as_bool).collect::<Option<_>>()?),
        K::Strings => Value::Strings(
            list()?
                .iter()
                .map(|x| match x {
                    Plain::Str(s) => Some(s.clone()),
                    _ => None,
                })
                .collect::<Option<_>>()?,
        ),
        K::Scalar => Value::Scalar(p.scalar()?),
        K::Scalars => Value::Scalars(list()?.iter().map(Plain::scalar).collect::<Option<_>>()?),
        K::Block | K::Blocks | K::Var | K::Vars => return None,
    })
}

/// A default of the legacy op set as an owned value.
pub fn from_default(v: &AttrValue<'static>) -> Option<Value> {
    Some(match v {
        AttrValue::Int(i) => Value::Int(*i),
        AttrValue::Float(f) => Value::Float(*f),
        AttrValue::String(s) => Value::String((*s).to_owned()),
        AttrValue::Ints(l) => Value::Ints(l.clone()),
        AttrValue::Floats(l) => Value::Floats(l.clone()),
        AttrValue::Strings(l) => Value::Strings(l.iter().map(|s| (*s).to_owned()).collect()),
        AttrValue::Bool(b) => Value::Bool(*b),
        AttrValue::Bools(l) => Value::Bools(l.clone()),
        AttrValue::Long(i) => Value::Long(*i),
        AttrValue::Longs(l) => Value::Longs(l.clone()),
        AttrValue::Float64s(l) => Value::Float64s(l.clone()),
        AttrValue::Float64(f) => Value::Float64(*f),
        AttrValue::Block(_)
        | AttrValue::Blocks(_)
        | AttrValue::Var(_)
        | AttrValue::Vars(_)
        | AttrValue::Scalar(_)
        | AttrValue::Scalars(_) => return None,
    })
}

/// The legacy default shaped as a plain value, to tell whether a PIR value
/// the legacy op cannot hold is its default anyway.
pub fn same_as_default(p: &Plain, default: &pir_dialects::op_def::DefaultValue) -> bool {
    use pir_dialects::op_def::DefaultValue as D;
    match (p, default) {
        (_, D::Bool(b)) => p.as_bool() == Some(*b),
        (_, D::Int(i)) => p.as_i64() == Some(*i),
        (_, D::Float(f)) => {
            p.as_f64() == Some(*f) || matches!(p, Plain::F32(x) if f64::from(*x) == *f)
        }
        (Plain::Str(s), D::Str(d)) => s == d.as_str(),
        (Plain::DType(d), D::Str(s)) => d.json_str() == *s || d.text() == *s,
        (Plain::List(l), D::IntList(d)) => {
            l.len() == d.len() && l.iter().zip(*d).all(|(a, b)| a.as_i64() == Some(*b))
        }
        (Plain::List(l), D::FloatList(d)) => {
            l.len() == d.len() && l.iter().zip(*d).all(|(a, b)| a.as_f64() == Some(*b))
        }
        (Plain::List(l), D::BoolList(d)) => {
            l.len() == d.len() && l.iter().zip(*d).all(|(a, b)| a.as_bool() == Some(*b))
        }
        (Plain::List(l), D::StrList(d)) => {
            l.len() == d.len()
                && l.iter()
                    .zip(*d)
                    .all(|(a, b)| matches!(a, Plain::Str(s) if s == b.as_str()))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_take_the_legacy_kind() {
        let ctx = pir_dialects::pd_op_context();
        let a = IntArrayAttr::get(&ctx, &[1, -1]);
        let p = plain(&ctx, a).expect("int array");
        assert_eq!(
            to_kind(&p, LegacyAttrKind::Ints),
            Some(Value::Ints(vec![1, -1].into()))
        );
        assert_eq!(
            to_kind(&p, LegacyAttrKind::Longs),
            Some(Value::Longs(vec![1, -1].into()))
        );
        assert_eq!(to_kind(&p, LegacyAttrKind::Float), None);
        let d = plain(&ctx, DataTypeAttr::get(&ctx, DataType::Int64)).expect("dtype");
        assert_eq!(to_kind(&d, LegacyAttrKind::Int), Some(Value::Int(3)));
        let f = plain(&ctx, F64Attr::get(&ctx, 0.5)).expect("f64");
        assert_eq!(to_kind(&f, LegacyAttrKind::Float), Some(Value::Float(0.5)));
        let big = Plain::Int(1 << 40);
        assert_eq!(to_kind(&big, LegacyAttrKind::Int), None);
        assert_eq!(
            to_kind(&big, LegacyAttrKind::Long),
            Some(Value::Long(1 << 40))
        );
    }
}
