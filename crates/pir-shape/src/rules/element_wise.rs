//! Broadcasting binary ops (Paddle's `element_wise_binary.cc`): shapes
//! aligned from the right, dims equal or one of them 1, else their
//! `Broadcast` and a broadcastable constraint; `add`, `subtract`,
//! `multiply` and `divide` also compute small data.

use super::{Bad, Cx, Res, Rule};
use crate::expr::DimExpr;
use crate::fact::TensorFact;

pub(crate) const RULES: &[(&str, Rule)] = &[
    ("pd_op.add", add),
    ("pd_op.subtract", subtract),
    ("pd_op.multiply", multiply),
    ("pd_op.divide", divide),
    ("pd_op.floor_divide", floor_divide),
    ("pd_op.isclose", plain),
    ("pd_op.atan2", plain),
    ("pd_op.masked_fill_", plain),
    ("pd_op.masked_fill", plain),
    ("pd_op.lerp_", plain),
    ("pd_op.lerp", plain),
    ("pd_op.add_", plain),
    ("pd_op.bitwise_and", plain),
    ("pd_op.bitwise_and_", plain),
    ("pd_op.bitwise_right_shift", plain),
    ("pd_op.bitwise_right_shift_", plain),
    ("pd_op.bitwise_left_shift", plain),
    ("pd_op.bitwise_left_shift_", plain),
    ("pd_op.bitwise_or", plain),
    ("pd_op.bitwise_or_", plain),
    ("pd_op.bitwise_xor", plain),
    ("pd_op.bitwise_xor_", plain),
    ("pd_op.complex", plain),
    ("pd_op.copysign", plain),
    ("pd_op.copysign_", plain),
    ("pd_op.divide_", plain),
    ("pd_op.elementwise_pow", plain),
    ("pd_op.equal", plain),
    ("pd_op.equal_", plain),
    ("pd_op.fmax", plain),
    ("pd_op.fmin", plain),
    ("pd_op.gammaincc", plain),
    ("pd_op.gammaincc_", plain),
    ("pd_op.greater_equal", plain),
    ("pd_op.greater_equal_", plain),
    ("pd_op.greater_than", plain),
    ("pd_op.greater_than_", plain),
    ("pd_op.heaviside", plain),
    ("pd_op.less_equal", plain),
    ("pd_op.less_equal_", plain),
    ("pd_op.less_than", plain),
    ("pd_op.less_than_", plain),
    ("pd_op.logical_and", plain),
    ("pd_op.logical_and_", plain),
    ("pd_op.logical_or", plain),
    ("pd_op.logical_or_", plain),
    ("pd_op.logical_xor", plain),
    ("pd_op.logical_xor_", plain),
    ("pd_op.maximum", plain),
    ("pd_op.minimum", plain),
    ("pd_op.multiply_sr", plain),
    ("pd_op.multiply_sr_", plain),
    ("pd_op.multiply_", plain),
    ("pd_op.nextafter", plain),
    ("pd_op.not_equal", plain),
    ("pd_op.not_equal_", plain),
    ("pd_op.remainder", plain),
    ("pd_op.remainder_", plain),
    ("pd_op.subtract_", plain),
];

type DataFn = fn(&mut Cx<'_>, &DimExpr, &DimExpr) -> DimExpr;

pub(crate) fn plain(cx: &mut Cx<'_>) -> Res {
    binary(cx, None)
}
fn add(cx: &mut Cx<'_>) -> Res {
    binary(cx, Some(|cx, a, b| cx.add(a, b)))
}
fn subtract(cx: &mut Cx<'_>) -> Res {
    binary(cx, Some(|cx, a, b| cx.sub(a, b)))
}
fn multiply(cx: &mut Cx<'_>) -> Res {
    binary(cx, Some(|cx, a, b| cx.mul(a, b)))
}
fn floor_divide(cx: &mut Cx<'_>) -> Res {
    binary(
        cx,
        Some(|cx, a, b| match (a.as_int(), b.as_int()) {
            // Paddle divides known integers as C++ does (toward zero).
            (Some(x), Some(y)) if y != 0 => DimExpr::Int(x.wrapping_div(y)),
            _ => cx.div(a, b),
        }),
    )
}
fn divide(cx: &mut Cx<'_>) -> Res {
    binary(cx, Some(|cx, a, b| cx.div(a, b)))
}

/// The broadcast of two shapes, recording a broadcastable constraint for
/// each pair of dims that is neither equal nor has a 1.
pub(crate) fn broadcast_shapes(cx: &mut Cx<'_>, x: &[DimExpr], y: &[DimExpr]) -> Vec<DimExpr> {
    let n = x.len().max(y.len());
    let one = DimExpr::Int(1);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (a, b) = (left_padded(x, n, i), left_padded(y, n, i));
        if a == b || b == one {
            out.push(a);
        } else if a == one {
            out.push(b);
        } else {
            out.push(cx.broadcast(&a, &b));
            cx.broadcastable(&a, &b);
        }
    }
    out
}

/// Dim `i` of `s` aligned from the right to `rank` dims (1 where `s` has
/// none): how broadcasting ops line up shapes of different ranks.
pub(crate) fn left_padded(s: &[DimExpr], rank: usize, i: usize) -> DimExpr {
    match (i + s.len()).checked_sub(rank) {
        Some(k) => s[k].clone(),
        None => DimExpr::Int(1),
    }
}

fn binary(cx: &mut Cx<'_>, data: Option<DataFn>) -> Res {
    let x = cx.tensor(0)?;
    let y = cx.tensor(1)?;
    let shape = broadcast_shapes(cx, &x.shape, &y.shape);
    if let (Some(f), Some(xd), Some(yd)) = (data, &x.data, &y.data) {
        if x.rank() > 1 || y.rank() > 1 || xd.len() != yd.len() {
            return Err(Bad("data of ranks above 1 or of different sizes".into()));
        }
        let out = xd.iter().zip(yd).map(|(a, b)| f(cx, a, b)).collect();
        cx.set_tensor(0, TensorFact::with_data(shape, out));
    } else {
        cx.set_shape(0, shape);
    }
    Ok(())
}
