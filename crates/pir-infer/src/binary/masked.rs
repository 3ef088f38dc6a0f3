//! `MaskedFillInferMeta` and `ReduceAsInferMeta` (Paddle's `binary.cc`):
//! a fill broadcast over a mask, and a sum down to a target's shape.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// Paddle 3.3.1's `GetBroadcastDimsArrays` with `axis = -1`: the shorter
/// dims aligned to the right; a pair matches when equal or when one side is
/// `<= 1` and not 0; an unknown pair (neither above 1, not both 1) is `-1`,
/// or 0 when either side is 0.
pub(crate) fn broadcast_dims(x: &DDim, y: &DDim) -> Result<DDim, Bad> {
    let n = x.rank().max(y.rank());
    let pad = |d: &DDim| -> Vec<i64> {
        let mut v = vec![1; n - d.rank()];
        v.extend_from_slice(d.as_slice());
        v
    };
    let (xa, ya) = (pad(x), pad(y));
    let mut out = DDim::default();
    for (i, (&a, &b)) in xa.iter().zip(&ya).enumerate() {
        if !(a == b || (a <= 1 && a != 0) || (b <= 1 && b != 0)) {
            return Err(Bad(format!(
                "Broadcast dimension mismatch. Operands could not be broadcast together with the shape of X = {:?} and the shape of Y = {:?}. Received [{a}] in X is not equal to [{b}] in Y at i:{i}.",
                x.as_slice(),
                y.as_slice()
            )));
        }
        out.push(if a > 1 || b > 1 || (a == 1 && b == 1) {
            a.max(b)
        } else if a == 0 || b == 0 {
            0
        } else {
            -1
        })?;
    }
    Ok(out)
}

/// `MaskedFillInferMeta` (x, mask, value): x's data type over the broadcast
/// of x and mask; the value's shape is not checked.
pub(crate) fn masked_fill(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let mask = a.tensor(1)?;
    let dims = broadcast_dims(&x.dims, &mask.dims)?;
    set(outs, 0, Meta::new(x.dtype, dims));
    Ok(())
}

/// `ReduceAsInferMeta` (x, target): the target's dims; x's data type (bool
/// and int32 summed as int64, as `sum` does) and layout.
pub(crate) fn reduce_as(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let target = a.tensor(1)?;
    let dtype = match x.dtype {
        DataType::Bool | DataType::Int32 => DataType::Int64,
        d => d,
    };
    set(outs, 0, Meta::laid_out(dtype, target.dims, x.layout));
    Ok(())
}
