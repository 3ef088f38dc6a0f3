//! `DecodeJpegInferMeta` (Paddle's `unary.cc`): decoded images' channels
//! follow the mode; height and width depend on the data.

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `DecodeJpegInferMeta` (x, mode): `[-1, -1, -1]` (`unchanged`),
/// `[1, -1, -1]` (`gray`) or `[3, -1, -1]` (`rgb`), x's data type. Paddle
/// builds an error for another mode without raising it, so the dims stay
/// empty (0-d).
pub(crate) fn decode_jpeg(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let dims: &[i64] = match a.str(1)? {
        "unchanged" => &[-1, -1, -1],
        "gray" => &[1, -1, -1],
        "rgb" => &[3, -1, -1],
        _ => &[],
    };
    set(outs, 0, Meta::new(x.dtype, DDim::new(dims)?));
    Ok(())
}
