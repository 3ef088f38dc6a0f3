//! `SliceRawInferMeta` and `ExpandInferMeta` (part of `unary.cc`).

use crate::args::Args;
use crate::meta::{Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// `SliceRawInferMeta` (built with `is_runtime = false`): input, axes,
/// starts, ends, infer_flags, decrease_axis.
pub(crate) fn slice(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axes = a.ints(1)?;
    let starts = a.int_array(2)?;
    let ends = a.int_array(3)?;
    let mut flags = a.ints(4)?;
    let decrease = a.ints(5)?;
    if flags.is_empty() {
        flags = vec![1; axes.len()];
    }
    // Starts and ends given by tensors hold `-1` for the entries the builder
    // cannot read; Paddle computes with them all the same unless the entry's
    // infer flag is `-1` (which `paddle.slice` sets for such entries).
    let r = x.dims.rank() as i64;
    let mut d: Vec<i64> = x.dims.as_slice().to_vec();
    for (i, &ax) in axes.iter().enumerate() {
        let ax = if ax < 0 { ax + r } else { ax };
        let slot = d
            .get_mut(ax.max(0) as usize)
            .ok_or_else(|| Bad(format!("slice axis {ax} out of rank {r}")))?;
        if flags.get(i) == Some(&-1) {
            *slot = -1;
            continue;
        }
        let dim = *slot;
        if dim == -1 {
            continue;
        }
        let s = *starts
            .values
            .get(i)
            .ok_or_else(|| Bad("too few starts".into()))?;
        let e = *ends
            .values
            .get(i)
            .ok_or_else(|| Bad("too few ends".into()))?;
        let (s, e) = if dim > 0 {
            let s = (if s < 0 { s + dim } else { s }).max(0).min(dim);
            let e = (if e < 0 { e + dim } else { e }).min(dim).max(0);
            (s, e)
        } else {
            (0, 0)
        };
        *slot = (e - s).max(0);
    }
    let mut out = Vec::with_capacity(d.len());
    for (i, &v) in d.iter().enumerate() {
        let dropped = decrease
            .iter()
            .any(|&ax| (if ax < 0 { ax + r } else { ax }) == i as i64);
        if !dropped {
            out.push(v);
        }
    }
    let mut m = Meta::new(x.dtype, dd(&out)?);
    if axes.first().is_some_and(|&ax| ax != 0) {
        m.lod = x.lod.clone();
    }
    set(outs, 0, m);
    Ok(())
}

/// `ExpandInferMeta` (x, shape), as `ExpandOp::InferMeta` calls it: a
/// shape operand not made by `full_int_array` gives every entry as unknown
/// (`-2`, which becomes `-1`); a `-1` entry takes x's extent when it lines
/// up (from the right) with one of x's dims and stays `-1` otherwise.
pub(crate) fn expand(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let xr = x.dims.rank();
    let mut sh = a.expand_shape(1)?;
    if sh.is_empty() {
        sh = vec![-1; xr];
    }
    if sh.len() < xr {
        return Err(Bad(format!(
            "The number of elements ({}) of 'shape' for expand_v2 op must be greater than or \
             equal to the rank ({xr}) of the input.",
            sh.len()
        )));
    }
    let lead = sh.len() - xr;
    for (i, s) in sh.iter_mut().enumerate() {
        if *s == -1 && i >= lead {
            *s = x.dims.at(i - lead)?;
        }
        if *s == -2 {
            *s = -1;
        }
    }
    set(outs, 0, Meta::laid_out(x.dtype, dd(&sh)?, x.layout));
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testing::check;

    const X: &str = r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,16,48],stop_gradient:[true]} : () -> tensor<-1x16x48xf32>
(%1) = "pd_op.data" () {dtype:float32,name:"c",place:Place(undefined:0),shape:[1,1,48],stop_gradient:[true]} : () -> tensor<1x1x48xf32>
(%2) = "pd_op.shape64" (%0) {stop_gradient:[true]} : (tensor<-1x16x48xf32>) -> tensor<3xi64>
(%3) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]} : () -> tensor<1xi64>
(%4) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
(%5) = "pd_op.slice" (%2, %3, %4) {axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]} : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
(%6) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[],stop_gradient:[true],value:-1} : () -> tensor<i64>
(%7) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[],stop_gradient:[true],value:48} : () -> tensor<i64>"#;

    /// What Paddle 3.3.1 gave `paddle._pir_ops.expand(c, shape)` for
    /// shapes made these ways.
    #[test]
    fn expand_reads_stack_items_one_by_one() {
        let stack = |items: &str| {
            format!(
                "{X}\n(%8) = \"builtin.combine\" ({items}) {{}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> vec[tensor<i64>,tensor<i64>,tensor<i64>]\n\
                 (%9) = \"pd_op.stack\" (%8) {{axis:0}} : (vec[tensor<i64>,tensor<i64>,tensor<i64>]) -> tensor<3xi64>\n\
                 (%10) = \"pd_op.expand\" (%1, %9) {{}} : (tensor<1x1x48xf32>, tensor<3xi64>) -> tensor<-1x1x48xf32>"
            )
        };
        check(&stack("%5, %6, %6"), &["tensor<-1x1x48xf32>"]);
        check(&stack("%6, %5, %7"), &["tensor<1x-1x48xf32>"]);
        // A shape's unknown dims are unknown, its known ones literal.
        check(
            &format!("{X}\n(%8) = \"pd_op.expand\" (%1, %2) {{}} : (tensor<1x1x48xf32>, tensor<3xi64>) -> tensor<-1x16x48xf32>"),
            &["tensor<-1x16x48xf32>"],
        );
        // Any other tensor: every entry unknown.
        check(
            &format!("{X}\n(%8) = \"pd_op.data\" () {{dtype:int64,name:\"d\",place:Place(undefined:0),shape:[3]}} : () -> tensor<3xi64>\n\
                      (%9) = \"pd_op.expand\" (%1, %8) {{}} : (tensor<1x1x48xf32>, tensor<3xi64>) -> tensor<-1x-1x-1xf32>"),
            &["tensor<-1x-1x-1xf32>"],
        );
    }
}
