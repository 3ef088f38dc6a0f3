//! Ops over a list of tensors that hand the list back (Paddle's
//! `multiary_infer_sym.cc`): `coalesce_tensor` packs the tensors into one
//! buffer, `update_loss_scaling_` scales them for mixed precision.

use pir_dialects::pd_op::{DataType, DataTypeAttr};

use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::{ShapeOrData, TensorFact};

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.coalesce_tensor", coalesce_tensor),
    ("pd_op.coalesce_tensor_", coalesce_tensor),
    ("pd_op.update_loss_scaling_", update_loss_scaling),
];

/// The shapes of operand `i`'s tensors, their data dropped.
fn list_shapes(cx: &mut Cx<'_>, i: usize) -> Result<Vec<TensorFact>, Bad> {
    Ok(cx
        .list(i)?
        .into_iter()
        .map(|t| TensorFact::shape(t.shape))
        .collect())
}

/// `size` rounded up to a multiple of `align`.
fn aligned(size: u64, align: u64) -> u64 {
    match size % align {
        0 => size,
        rem => size.saturating_add(align - rem),
    }
}

/// `coalesce_tensor`: the outputs keep the inputs' shapes; the fused buffer
/// has a known length only when aligning. Paddle's rule sizes each input by
/// its *rank* (not its element count) times the element size, rounded up to
/// `align_size` bytes, and so does this one, to print what Paddle prints.
/// Without alignment Paddle leaves the buffer without a fact (and its pass
/// then fails): refused here.
fn coalesce_tensor(cx: &mut Cx<'_>) -> Res {
    let inputs = list_shapes(cx, 0)?;
    let use_align = cx.bool_attr("use_align").unwrap_or(true);
    let align = cx.int_attr("align_size").unwrap_or(-1);
    let mut elem = cx.int_attr("size_of_dtype").unwrap_or(-1);
    if elem == -1 {
        let dtype = cx
            .attr("dtype")
            .and_then(|a| cx.ctx().attr_as::<DataTypeAttr>(a).map(|d| d.0))
            .unwrap_or(DataType::Float32);
        elem = pir_infer::element_size(dtype).map_err(|e| Bad(e.0))? as i64;
    }
    let fused = if use_align && align > 0 {
        let (elem, align) = (elem, align as u64);
        let elem = u64::try_from(elem)
            .ok()
            .filter(|&e| e > 0)
            .ok_or_else(|| Bad(format!("size_of_dtype {elem} is not positive")))?;
        let mut numel: u64 = 0;
        for t in &inputs {
            let bytes = (t.rank() as u64).saturating_mul(elem);
            numel = numel.saturating_add(aligned(bytes, align) / elem);
        }
        Some(i64::try_from(numel).map_err(|_| Bad("the fused buffer is too large".into()))?)
    } else {
        None
    };
    if let Some(n) = fused {
        cx.set_shape(1, vec![DimExpr::Int(n)]);
    }
    cx.set(0, ShapeOrData::List(inputs));
    if fused.is_none() {
        return Err(Bad(
            "the fused output has a shape only with use_align and a positive align_size".into(),
        ));
    }
    Ok(())
}

/// `update_loss_scaling_`: the tensors' shapes, then the scale and the two
/// step counters of one element each.
fn update_loss_scaling(cx: &mut Cx<'_>) -> Res {
    let xs = list_shapes(cx, 0)?;
    cx.set(0, ShapeOrData::List(xs));
    for r in 1..4 {
        cx.set_shape(r, vec![DimExpr::Int(1)]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::aligned;

    #[test]
    fn sizes_round_up_to_the_alignment() {
        assert_eq!(aligned(8, 256), 256);
        assert_eq!(aligned(256, 256), 256);
        assert_eq!(aligned(0, 64), 0);
        assert_eq!(aligned(65, 64), 128);
        assert_eq!(aligned(u64::MAX, 64), u64::MAX);
    }
}
