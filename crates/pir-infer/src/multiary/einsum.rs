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

#[cfg(test)]
mod tests {
    //! Refusals: Paddle 3.3.1's own (checked against it), and equations its
    //! C++ reads out of bounds.

    use crate::testing::infer_last;

    /// A program of `data` operands of `shapes` (f32) and an einsum of `equation`.
    fn program(equation: &str, shapes: &[&[i64]]) -> String {
        let ty = |s: &[i64]| {
            let dims: String = s.iter().map(|d| format!("{d}x")).collect();
            format!("tensor<{dims}f32>")
        };
        let mut text = String::from("{\n");
        for (i, s) in shapes.iter().enumerate() {
            text += &format!(
                "(%{i}) = \"pd_op.data\" () {{dtype:float32,name:\"x{i}\",place:Place(undefined:0),shape:{s:?},stop_gradient:[true]}} : () -> {}\n",
                ty(s)
            );
        }
        let n = shapes.len();
        let names: Vec<String> = (0..n).map(|i| format!("%{i}")).collect();
        let types: Vec<String> = shapes.iter().map(|s| ty(s)).collect();
        let vec = format!("vec[{}]", types.join(","));
        text += &format!(
            "(%{n}) = \"builtin.combine\" ({}) {{}} : ({}) -> {vec}\n",
            names.join(", "),
            types.join(", ")
        );
        text += &format!(
            "(%{}, %{}, %{}) = \"pd_op.einsum\" (%{n}) {{equation:\"{equation}\"}} : ({vec}) -> tensor<f32>, {vec}, {vec}\n}}\n",
            n + 1,
            n + 2,
            n + 3
        );
        text
    }

    /// The error inferring an einsum of `equation` over `shapes`.
    fn error(equation: &str, shapes: &[&[i64]]) -> String {
        match infer_last(&program(equation, shapes)) {
            Ok(types) => panic!("{equation}: inferred {types:?}"),
            Err(e) => e,
        }
    }

    /// Paddle 3.3.1 refuses these while building the op.
    #[test]
    fn paddle_errors() {
        let e = error("ij,jk->ik", &[&[3, 4], &[5, 6]]);
        assert!(
            e.contains("Same label have different shapes for label: `j`"),
            "{e}"
        );
        let e = error("ii->i", &[&[3, 4]]);
        assert!(
            e.contains("Same label have different shapes for label: `i`"),
            "{e}"
        );
        // A zero extent is an extent like any other.
        let e = error("ij,jk->ik", &[&[3, 0], &[7, 5]]);
        assert!(e.contains("label: `j`"), "{e}");
        let e = error("ij,jk->ik", &[&[3, 7], &[0, 5]]);
        assert!(e.contains("label: `j`"), "{e}");
    }

    /// Equations Paddle's C++ reads out of bounds (it crashes, or makes up
    /// dims): refused.
    #[test]
    fn out_of_bounds_equations_are_refused() {
        let e = error("ij", &[&[3, 4]]);
        assert!(e.contains("Required at least one `->`"), "{e}");
        let e = error("ij->ij", &[&[3, 4], &[5, 6]]);
        assert!(
            e.contains("the number of operands is 2, but found 1 segments"),
            "{e}"
        );
        let e = error("ij,jk->ik", &[&[3, 4]]);
        assert!(
            e.contains("the number of operands is 1, but found 2 segments"),
            "{e}"
        );
        let e = error("Ij->j", &[&[3, 4]]);
        assert!(e.contains("Found invalid char in equation"), "{e}");
        let e = error("...ij->ij", &[&[3, 4]]);
        assert!(e.contains("more labels than"), "{e}");
        let e = error("...i->...", &[&[2, 3, 4, 5]]);
        assert!(e.contains("Found invalid char in equation"), "{e}");
        let e = error("ijk->i", &[&[3, 4]]);
        assert!(e.contains("more labels than"), "{e}");
        let e = error("ij->iK", &[&[3, 4]]);
        assert!(e.contains("Found invalid char in equation"), "{e}");
        let e = error("ij->ij", &[]);
        assert!(e.contains("list of Value"), "{e}");
    }
}
