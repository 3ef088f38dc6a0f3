//! `EinsumRawInferMeta` (op `pd_op.einsum`): the result dims of an einsum
//! equation, read as Paddle 3.3.1's `ParseEinsumEquation` reads it.
//!
//! The op only ever sees an explicit, ellipsis-free equation: `paddle.einsum`
//! rewrites `...` into unused letters (unsqueezing operands so that every
//! ellipsis spans the same number of dims) and appends the implicit output
//! (`->` followed by the `...` and the labels used once, sorted) before it
//! builds the op. Paddle's C++ has no meaning for an equation without `->`,
//! for a character outside `a`-`z`, for more label segments than operands
//! (or fewer), or for more labels than an operand has dims: it reads out of
//! bounds there (a crash or arbitrary dims), so those are refused here.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::Bad;

/// What an unseen label's extent is: `ParseEinsumEquation`'s label shape map
/// starts every label at `-1`, so an output label no operand has comes out
/// as an unknown dim.
const UNSEEN: i64 = -1;

/// Paddle's `split_string`: an empty string has no pieces; otherwise the
/// pieces between `sep`s, empty ones included.
fn split<'s>(s: &'s str, sep: &str) -> Vec<&'s str> {
    if s.is_empty() {
        Vec::new()
    } else {
        s.split(sep).collect()
    }
}

/// The index of a label in Paddle's `LabelMap` (letters `a`-`z`).
fn slot(c: u8) -> Result<usize, Bad> {
    if c.is_ascii_lowercase() {
        Ok(usize::from(c - b'a'))
    } else {
        Err(Bad(format!(
            "Found invalid char in equation. Einsum only accept `a`-`z` and `...`but get:`{}`",
            char::from(c)
        )))
    }
}

/// The output dims of `equation` over operands of `dims` (Paddle's
/// `ParseEinsumEquation` with `InferLabelShape` and `InferOutputDims`).
pub(crate) fn einsum_dims(equation: &str, dims: &[DDim]) -> Result<Vec<i64>, Bad> {
    let parts = split(equation, "->");
    // Paddle reads `results[0]` and `results[1]`: a third piece (a second
    // `->`) is ignored.
    let (Some(left), Some(right)) = (parts.first(), parts.get(1)) else {
        return Err(Bad(
            "Required at least one `->` in equation of EinsumOp.".into()
        ));
    };
    let mut ops = split(left, ",");
    if ops.is_empty() {
        // `split_string("")` has no pieces: one operand without labels.
        ops.push("");
    }
    if ops.len() != dims.len() {
        return Err(Bad(format!(
            "Invalid equation: the number of operands is {}, but found {} segments in the label equation.",
            dims.len(),
            ops.len()
        )));
    }
    let mut shape = [UNSEEN; 26];
    for (labels, d) in ops.iter().zip(dims) {
        if labels.len() > d.rank() {
            return Err(Bad(format!(
                "Invalid equation: the label string '{labels}' has more labels than the operand's {} dims.",
                d.rank()
            )));
        }
        // An operand with fewer labels than dims: Paddle reads the leading
        // dims only.
        for (&c, &extent) in labels.as_bytes().iter().zip(d.as_slice()) {
            let k = slot(c)?;
            // Paddle stores the extent as an `int`.
            let extent = i64::from(extent as i32);
            let seen = shape[k];
            // A label seen with extent 1 or -1 (or not seen) takes the new
            // extent; otherwise a new extent other than 1 or -1 must match.
            if seen == UNSEEN || seen.abs() == 1 {
                shape[k] = extent;
            } else if extent.abs() != 1 && seen != extent {
                return Err(Bad(format!(
                    "Same label have different shapes for label: `{}`",
                    char::from(c)
                )));
            }
        }
    }
    right
        .bytes()
        .map(|c| Ok(shape[slot(c)?]))
        .collect::<Result<Vec<_>, Bad>>()
}

/// `EinsumRawInferMeta` (x, equation): `out` of the equation's dims and the
/// first operand's data type; `inner_cache` one fresh tensor per operand,
/// left alone; `xshape` each operand's dims and data type.
pub(crate) fn einsum(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let equation = a.str(1)?;
    let x0 = xs.first().ok_or_else(|| {
        Bad("einsum(): argument (position 1) must be list of Value, but got empty list".into())
    })?;
    let dims: Vec<DDim> = xs.iter().map(|x| x.dims).collect();
    let out = einsum_dims(equation, &dims)?;
    if let Some(o) = outs.get_mut(0) {
        *o = Out::Tensor(Meta::new(x0.dtype, DDim::new(&out)?));
    }
    if let Some(o) = outs.get_mut(1) {
        *o = Out::List(vec![Meta::unset_dims(DataType::Float32); xs.len()]);
    }
    if let Some(o) = outs.get_mut(2) {
        *o = Out::List(xs.iter().map(|x| Meta::new(x.dtype, x.dims)).collect());
    }
    Ok(())
}
