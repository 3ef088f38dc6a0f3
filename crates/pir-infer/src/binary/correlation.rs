//! `CorrelationInferMeta` (Paddle's `binary.cc`): the cost volume of two
//! feature maps (optical flow models).

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `CorrelationInferMeta` (input1, input2, pad_size, kernel_size,
/// max_displacement, stride1, stride2, corr_type_multiply): Paddle's
/// `CorrelationOutputSize` in `int` and `float` arithmetic:
/// `[N, (2 * (d / s2) + 1)^2, ceil((H + 2p - 2r) / s1), ceil((W + 2p - 2r) / s1)]`
/// with `r = (k - 1) / 2 + d`; the first input's data type.
pub(crate) fn correlation(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let pad = a.int(2)?;
    let kernel = a.int(3)?;
    let disp = a.int(4)?;
    let stride1 = a.int(5)?;
    let stride2 = a.int(6)?;
    for (m, which) in [(&x, "X"), (&y, "Y")] {
        if m.dims.rank() != 4 {
            return Err(Bad(format!(
                "Input({which}) of CorrelationOp must be 4 dims.But received dims is {}.",
                m.dims.rank()
            )));
        }
    }
    if stride1 == 0 || stride2 == 0 {
        return Err(Bad("CorrelationOp: a stride is 0".into()));
    }
    let int = |v: i64| i64::from(v as i32);
    let d = x.dims.as_slice();
    let (n, h, w) = (int(d[0]), int(d[2]), int(d[3]));
    let border = (kernel - 1) / 2 + disp;
    let side = (disp / stride2) * 2 + 1;
    // `std::ceil` of a float quotient, stored back in an `int`.
    let extent = |len: i64| -> i64 {
        let padded = len + 2 * pad - 2 * border;
        (padded as f32 / stride1 as f32).ceil() as i64
    };
    set(
        outs,
        0,
        Meta::new(x.dtype, DDim::new(&[n, side * side, extent(h), extent(w)])?),
    );
    Ok(())
}
