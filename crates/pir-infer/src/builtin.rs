//! The builtin ops Paddle types by hand: `builtin.combine` (a `vec` of its
//! operand types), `builtin.split` and `builtin.slice` (elements of a `vec`).

use pir_core::builtin::{I32Attr, I64Attr, IndexAttr, VectorType};
use pir_core::{OpId, Program};

use crate::meta::Out;
use crate::Bad;

fn list_elems(p: &Program, op: OpId) -> Result<&[pir_core::Type], Bad> {
    let v = p
        .operand(op, 0)
        .ok_or_else(|| Bad("no list operand".into()))?;
    p.ctx()
        .type_as::<VectorType>(p.value_type(v))
        .map(|t| &*t.0)
        .ok_or_else(|| Bad("operand is not a vec".into()))
}

/// `builtin.combine`: `vec[T1, …, Tn]`.
pub(crate) fn combine(p: &Program, op: OpId, outs: &mut [Out]) -> Result<(), Bad> {
    let types: Vec<_> = p
        .operands(op)
        .map(|v| v.map_or(pir_core::Type::NULL, |v| p.value_type(v)))
        .collect();
    if let Some(o) = outs.get_mut(0) {
        *o = Out::Type(VectorType::get(p.ctx(), &types));
    }
    Ok(())
}

/// `builtin.split`: result `i` is element `i`.
pub(crate) fn split(p: &Program, op: OpId, outs: &mut [Out]) -> Result<(), Bad> {
    let elems = list_elems(p, op)?;
    if elems.len() != outs.len() {
        return Err(Bad(format!(
            "{} results for a vec of {}",
            outs.len(),
            elems.len()
        )));
    }
    for (o, &t) in outs.iter_mut().zip(elems) {
        *o = Out::Type(t);
    }
    Ok(())
}

/// `builtin.slice`: element `index`.
pub(crate) fn slice(p: &Program, op: OpId, outs: &mut [Out]) -> Result<(), Bad> {
    let elems = list_elems(p, op)?;
    let ctx = p.ctx();
    let a = p
        .attr(op, "index")
        .ok_or_else(|| Bad("no `index`".into()))?;
    let i = ctx
        .attr_as::<I32Attr>(a)
        .map(|v| i64::from(v.0))
        .or_else(|| ctx.attr_as::<I64Attr>(a).map(|v| v.0))
        .or_else(|| ctx.attr_as::<IndexAttr>(a).map(|v| v.0))
        .ok_or_else(|| Bad("`index` is not an integer".into()))?;
    let t = usize::try_from(i)
        .ok()
        .and_then(|i| elems.get(i))
        .ok_or_else(|| Bad(format!("index {i} out of a vec of {}", elems.len())))?;
    if let Some(o) = outs.get_mut(0) {
        *o = Out::Type(*t);
    }
    Ok(())
}

/// `cf.yield` and other ops without results: nothing to infer.
pub(crate) fn no_results(_: &Program, _: OpId, outs: &mut [Out]) -> Result<(), Bad> {
    if !outs.is_empty() {
        return Err(Bad("expected no results".into()));
    }
    Ok(())
}
