//! Attributes of result ops, built from expression values by the kind the
//! op's definition declares (no text in between).

use pir_core::builtin::{
    ArrayAttr, BoolAttr, F32Attr, F64Attr, I32Attr, I64Attr, IndexAttr, StrAttr,
};
use pir_core::parser::Expect;
use pir_core::{Attribute, IrContext};
use pir_dialects::op_def::{AttrKind, DefaultValue, ElementKind, ScalarDataType};
use pir_dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr};

use super::eval::Val;

/// The attribute of `kind` holding `v`; `None` where `v` has no value of
/// that kind (an integer past int32 for an int32 attribute, a float that
/// is not an integer for an int one, an unknown dtype): on a match, data.
pub(super) fn build(ctx: &IrContext, kind: AttrKind, v: &Val) -> Option<Attribute> {
    if let Val::Attr(a) = v {
        return Some(*a);
    }
    Some(match kind {
        AttrKind::Bool | AttrKind::Scalar(ScalarDataType::Bool) => bool_attr(ctx, v)?,
        AttrKind::Int32 | AttrKind::Scalar(ScalarDataType::Int32) => i32_attr(ctx, v)?,
        AttrKind::Int64 | AttrKind::Scalar(ScalarDataType::Int64) => {
            ctx.intern_attr(I64Attr(int(v)?))
        }
        AttrKind::Index => ctx.intern_attr(IndexAttr(int(v)?)),
        AttrKind::Float | AttrKind::Scalar(ScalarDataType::Float) => {
            F32Attr::get(ctx, to_f32(number(v)?)?)
        }
        AttrKind::Double | AttrKind::Scalar(ScalarDataType::Double) => {
            F64Attr::get(ctx, number(v)?)
        }
        AttrKind::Str => match v {
            Val::Str(s) => StrAttr::get(ctx, s),
            _ => return None,
        },
        AttrKind::DataType => match v {
            Val::Str(s) => DataTypeAttr::get(ctx, DataType::parse(s)?),
            _ => return None,
        },
        AttrKind::DataLayout => match v {
            Val::Str(s) => ctx.intern_attr(pir_dialects::pd_op::DataLayoutAttr(
                pir_core::builtin::DataLayout::parse(s)?,
            )),
            _ => return None,
        },
        AttrKind::IntArray => match v {
            Val::List(items) => {
                let values = items.iter().map(int).collect::<Option<Vec<i64>>>()?;
                IntArrayAttr::get(ctx, &values)
            }
            _ => return None,
        },
        AttrKind::Array(element) => match v {
            Val::List(items) => {
                let items = items
                    .iter()
                    .map(|i| match element {
                        Some(e) => build(ctx, element_kind(e), i),
                        None => guess(ctx, i),
                    })
                    .collect::<Option<Vec<Attribute>>>()?;
                ArrayAttr::get(ctx, &items)
            }
            _ => return None,
        },
        // A place is built by `place(...)` or copied (`Val::Attr` above).
        AttrKind::Place => return None,
        AttrKind::Scalar(ScalarDataType::Other) | AttrKind::Pointer | AttrKind::Any => {
            guess(ctx, v)?
        }
    })
}

/// The attribute of an attribute `name` that the op does not declare, of
/// the kind Paddle's common names have (`stop_gradient`: bools), else of
/// the value's own kind.
pub(super) fn build_undeclared(ctx: &IrContext, name: &str, v: &Val) -> Option<Attribute> {
    use pir_core::AttrDef;
    let kind = match ctx.attr_name_hint(name) {
        Some(Expect::ArrayOf(Some(BoolAttr::TAG))) => AttrKind::Array(Some(ElementKind::Bool)),
        Some(Expect::Kind(StrAttr::TAG)) => AttrKind::Str,
        Some(Expect::Kind(I32Attr::TAG)) => AttrKind::Int32,
        _ => AttrKind::Any,
    };
    build(ctx, kind, v)
}

/// An attribute of the value's own kind: integers as int32 (int64 past
/// its range), floats as doubles, strings, bools, lists of such.
fn guess(ctx: &IrContext, v: &Val) -> Option<Attribute> {
    Some(match v {
        Val::Int(_) => i32_attr(ctx, v).unwrap_or_else(|| ctx.intern_attr(I64Attr(int_or_zero(v)))),
        Val::Float(f) => F64Attr::get(ctx, *f),
        Val::Bool(b) => ctx.intern_attr(BoolAttr(*b)),
        Val::Str(s) => StrAttr::get(ctx, s),
        Val::List(items) => {
            let items = items
                .iter()
                .map(|i| guess(ctx, i))
                .collect::<Option<Vec<Attribute>>>()?;
            ArrayAttr::get(ctx, &items)
        }
        Val::Attr(a) => *a,
        Val::Type(_) => return None,
    })
}

fn element_kind(e: ElementKind) -> AttrKind {
    match e {
        ElementKind::Bool => AttrKind::Bool,
        ElementKind::Int32 => AttrKind::Int32,
        ElementKind::Int64 => AttrKind::Int64,
        ElementKind::Float => AttrKind::Float,
        ElementKind::Double => AttrKind::Double,
        ElementKind::Str => AttrKind::Str,
        ElementKind::Scalar => AttrKind::Scalar(ScalarDataType::Other),
    }
}

fn bool_attr(ctx: &IrContext, v: &Val) -> Option<Attribute> {
    match v {
        Val::Bool(b) => Some(ctx.intern_attr(BoolAttr(*b))),
        _ => None,
    }
}

fn i32_attr(ctx: &IrContext, v: &Val) -> Option<Attribute> {
    Some(ctx.intern_attr(I32Attr(i32::try_from(int(v)?).ok()?)))
}

/// An integer value (a float only where it is one exactly: a Scalar read
/// back as a float).
fn int(v: &Val) -> Option<i64> {
    match v {
        Val::Int(i) => Some(*i),
        Val::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
        _ => None,
    }
}

fn int_or_zero(v: &Val) -> i64 {
    int(v).unwrap_or(0)
}

fn number(v: &Val) -> Option<f64> {
    match v {
        Val::Int(i) => Some(*i as f64),
        Val::Float(f) => Some(*f),
        _ => None,
    }
}

/// `f` rounded to float32 as its shortest decimal is: rules have always
/// given float attributes that decimal (`1.0 - $p` of a float32 `$p` is
/// written as it prints), and a value halfway between two float32s rounds
/// differently from its decimal. A finite value past float32's range has
/// none.
fn to_f32(f: f64) -> Option<f32> {
    let direct = f as f32;
    let v = if f64::from(direct) == f || !f.is_finite() {
        direct
    } else {
        format!("{f:?}").parse::<f32>().ok()?
    };
    (v.is_finite() || !f.is_finite()).then_some(v)
}

/// The value of an attribute default.
pub(super) fn default_val(d: &DefaultValue) -> Option<Val> {
    Some(match *d {
        DefaultValue::Bool(b) => Val::Bool(b),
        DefaultValue::Int(i) => Val::Int(i),
        DefaultValue::Float(f) => Val::Float(f),
        DefaultValue::Str(s) => Val::Str(s.to_string()),
        DefaultValue::IntList(l) => Val::List(l.iter().map(|&i| Val::Int(i)).collect()),
        DefaultValue::FloatList(l) => Val::List(l.iter().map(|&f| Val::Float(f)).collect()),
        DefaultValue::BoolList(l) => Val::List(l.iter().map(|&b| Val::Bool(b)).collect()),
        DefaultValue::StrList(l) => Val::List(l.iter().map(|s| Val::Str(s.to_string())).collect()),
        DefaultValue::Place(..) => return None,
    })
}

#[cfg(test)]
mod tests {
    //! The kinds built here are those the attribute text of the value would
    //! read as (how result attributes were made before): checked on every
    //! default of every op definition, and on values of each kind.
    use std::sync::Arc;

    use pir_dialects::op_def::AttrKind;

    use super::super::eval::Val;
    use super::super::typeck::Ty;

    /// The type a literal of `v` has.
    fn type_of(v: &Val) -> Ty {
        match v {
            Val::Int(_) => Ty::Int,
            Val::Float(_) => Ty::Float,
            Val::Bool(_) => Ty::Bool,
            Val::Str(_) => Ty::Str,
            Val::List(items) => Ty::List(Box::new(items.first().map_or(Ty::Any, type_of))),
            Val::Type(_) => Ty::Type,
            Val::Attr(_) => Ty::Any,
        }
    }

    /// The attribute the text of `v` reads as, for attribute `name` of `op`.
    fn through_text(
        ctx: &Arc<pir_core::IrContext>,
        op: &str,
        name: &str,
        kind: AttrKind,
        v: &Val,
    ) -> Option<pir_core::Attribute> {
        let quote = matches!(
            kind,
            AttrKind::Str | AttrKind::Array(Some(pir_dialects::op_def::ElementKind::Str))
        );
        let text = text_of(v, quote)?;
        pir_core::parser::parse_attribute(ctx, op, name, &text).ok()
    }

    fn text_of(v: &Val, quote: bool) -> Option<String> {
        Some(match v {
            Val::Int(i) => i.to_string(),
            Val::Float(f) => {
                let mut s = format!("{f:?}");
                if f.is_finite() && !s.contains(['.', 'e', 'E']) {
                    s.push_str(".0");
                }
                s
            }
            Val::Bool(b) => b.to_string(),
            Val::Str(s) if quote => format!("\"{s}\""),
            Val::Str(s) => s.clone(),
            Val::List(items) => {
                let parts: Option<Vec<String>> = items.iter().map(|i| text_of(i, quote)).collect();
                format!("[{}]", parts?.join(","))
            }
            Val::Type(_) | Val::Attr(_) => return None,
        })
    }

    #[test]
    fn every_default_builds_as_its_text_reads() {
        let ctx = pir_dialects::pd_op_context();
        let mut checked = 0;
        for def in pir_dialects::op_def::OP_DEFS.iter() {
            for spec in def.attributes {
                let Some(v) = spec.default.as_ref().and_then(super::default_val) else {
                    continue;
                };
                let built = super::build(&ctx, spec.kind, &v);
                // Some defaults have no text (`Undefined(ALL_DTYPE)` reads as
                // no dtype word): those are built now, where they were not.
                let Some(want) = through_text(&ctx, &def.name, &spec.name, spec.kind, &v) else {
                    continue;
                };
                let want = Some(want);
                assert_eq!(
                    built.map(|a| ctx.display_attr(a)),
                    want.map(|a| ctx.display_attr(a)),
                    "{}.{} ({:?}) = {v:?}",
                    def.name,
                    spec.name,
                    spec.kind
                );
                assert_eq!(built, want, "{}.{}", def.name, spec.name);
                checked += 1;
            }
        }
        assert!(checked > 1000, "only {checked} defaults");
    }

    #[test]
    fn values_of_each_kind_build_as_their_text_reads() {
        let ctx = pir_dialects::pd_op_context();
        let values = [
            Val::Int(3),
            Val::Int(-7),
            Val::Float(0.1),
            Val::Float(1.0 - f64::from(0.1f32)),
            Val::Float(2.5),
            Val::Float(1e-6),
            Val::Bool(true),
            Val::Str("float16".into()),
            Val::Str("relu".into()),
            Val::List(vec![Val::Int(0), Val::Int(2), Val::Int(1)]),
            Val::List(vec![Val::Float(0.5), Val::Int(2)]),
            Val::List(vec![Val::Bool(false)]),
        ];
        let mut checked = 0;
        for def in pir_dialects::op_def::OP_DEFS.iter() {
            for spec in def.attributes {
                if matches!(
                    spec.kind,
                    AttrKind::Place | AttrKind::Pointer | AttrKind::Any
                ) {
                    continue;
                }
                for v in &values {
                    let built = super::build(&ctx, spec.kind, v);
                    let Some(want) = through_text(&ctx, &def.name, &spec.name, spec.kind, v) else {
                        continue;
                    };
                    // Where the text read as another kind than declared (an
                    // int for a bool), or the value does not type as the
                    // attribute's kind, the check refuses the rule now.
                    if !pir_dialects::kind_matches(&ctx, want, spec.kind)
                        || !type_of(v).fits(&Ty::of_kind(spec.kind))
                    {
                        continue;
                    }
                    assert_eq!(
                        built.map(|a| ctx.display_attr(a)),
                        Some(ctx.display_attr(want)),
                        "{}.{} ({:?}) = {v:?}",
                        def.name,
                        spec.name,
                        spec.kind
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "only {checked} values");
    }
}
