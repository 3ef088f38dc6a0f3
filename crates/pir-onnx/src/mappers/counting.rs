//! Searching and counting: `searchsorted`, `bincount`,
//! `unique_consecutive` (flattened), `mode`. Each compares every element
//! with every other (or every bin) through a broadcast, which ONNX
//! expresses without a loop; the cost is quadratic in the compared axis.

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::mappers::index::reduce;
use crate::mappers::shape::norm_axis;
use crate::ExportError;

type R = Result<(), ExportError>;

/// `searchsorted(sorted, values)`: per value, how many entries of its row
/// of `sorted` are below it (`right`: not above it), as int64 or int32.
pub(crate) fn searchsorted(x: &mut Exporter<'_>) -> R {
    let sorted = x.input(0)?;
    let values = x.input(1)?;
    let right = x.attrs().bool_or("right", false)?;
    // [..., 1, N] against [..., M, 1].
    let s = x.unsqueeze(&sorted, &[-2]);
    let v = x.unsqueeze(&values, &[-1]);
    let below = if right {
        x.node1("LessOrEqual", &[&s, &v], vec![])
    } else {
        x.node1("Less", &[&s, &v], vec![])
    };
    let ones = x.cast(&below, DType::Int64)?;
    let count = reduce(x, "ReduceSum", &ones, &[-1], false);
    x.cast_out(0, &count)
}

/// `bincount(x, weights, minlength)`: the count (or weight sum) of each
/// value `0..max(max(x) + 1, minlength)` of a 1-D non-negative `x`.
pub(crate) fn bincount(x: &mut Exporter<'_>) -> R {
    let input = x.input(0)?;
    let values = x.cast(&input, DType::Int64)?;
    let flat = x.reshape(&values, &[-1]);
    let top = reduce(x, "ReduceMax", &flat, &[], false);
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let mut n = x.node1("Add", &[&top, &one], vec![]);
    let min_length = if x.has_input(2) {
        let m = x.input(2)?;
        let m = x.cast(&m, DType::Int64)?;
        Some(x.reshape(&m, &[]))
    } else {
        match x.attrs().i64_or("minlength", 0)? {
            0 => None,
            m => Some(x.const_scalar(DType::Int64, m as f64)?),
        }
    };
    if let Some(m) = min_length {
        n = x.node1("Max", &[&n, &m], vec![]);
    }
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    let bins = x.node1("Range", &[&zero, &n, &one], vec![]);
    // [L, 1] against [n]: which bin each element falls in.
    let column = x.unsqueeze(&flat, &[1]);
    let hit = x.node1("Equal", &[&column, &bins], vec![]);
    let per_element = if x.has_input(1) {
        let w = x.input(1)?;
        let d = x.in_dtype(1)?;
        let w = x.reshape(&w, &[-1, 1]);
        let none = x.const_scalar(d, 0.0)?;
        x.node1("Where", &[&hit, &w, &none], vec![])
    } else {
        x.cast(&hit, DType::Int64)?
    };
    let r = reduce(x, "ReduceSum", &per_element, &[0], false);
    x.cast_out(0, &r)
}

/// `unique_consecutive(x)` without an axis: the flattened `x` with each
/// run of equal neighbours kept once; the inverse (each element's run)
/// and the counts (each run's length) when asked for.
pub(crate) fn unique_consecutive(x: &mut Exporter<'_>) -> R {
    if !x.attrs().ints_or("axis", &[])?.is_empty() {
        return Err(x.unsupported("only the flattened form (no axis)"));
    }
    let input = x.input(0)?;
    let flat = x.reshape(&input, &[-1]);
    let start = x.const_i64s(&[0]);
    let after = x.const_i64s(&[1]);
    let last = x.const_i64s(&[-1]);
    let end = x.const_i64s(&[i64::MAX]);
    let prev = x.node1("Slice", &[&flat, &start, &last], vec![]);
    let cur = x.node1("Slice", &[&flat, &after, &end], vec![]);
    let same = x.node1("Equal", &[&cur, &prev], vec![]);
    let differs = x.node1("Not", &[&same], vec![]);
    // The first element starts a run (none when `x` is empty).
    let numel = x.node1("Size", &[&flat], vec![]);
    let numel = x.reshape(&numel, &[1]);
    let first_len = x.node1("Min", &[&after, &numel], vec![]);
    let first = x.node1("ConstantOfShape", &[&first_len], vec![]);
    let first = x.cast(&first, DType::Bool)?;
    let first = x.node1("Not", &[&first], vec![]);
    let starts = x.node1("Concat", &[&first, &differs], vec![a_int("axis", 0)]);
    let at = x.node1("NonZero", &[&starts], vec![]);
    let at = x.reshape(&at, &[-1]);
    let r = x.node1("Gather", &[&flat, &at], vec![a_int("axis", 0)]);
    x.identity_out(0, &r);
    let index_type = crate::attrs::dtype(&x.attrs(), "dtype")?.unwrap_or(DType::Int64);
    if x.attrs().bool_or("return_inverse", false)? {
        let ones = x.cast(&starts, DType::Int64)?;
        let zero = x.const_scalar(DType::Int64, 0.0)?;
        let run = x.node1("CumSum", &[&ones, &zero], vec![]);
        let one = x.const_scalar(DType::Int64, 1.0)?;
        let run = x.node1("Sub", &[&run, &one], vec![]);
        let run = x.cast(&run, index_type)?;
        x.identity_out(1, &run);
    }
    if x.attrs().bool_or("return_counts", false)? {
        let next = x.node1("Slice", &[&at, &after, &end], vec![]);
        let next = x.node1("Concat", &[&next, &numel], vec![a_int("axis", 0)]);
        let counts = x.node1("Sub", &[&next, &at], vec![]);
        let counts = x.cast(&counts, index_type)?;
        x.identity_out(2, &counts);
    }
    Ok(())
}

/// `mode(x, axis, keepdim)`: the most frequent value along `axis` (the
/// smallest of equally frequent ones, as Paddle's sorted scan finds it)
/// and the last index holding it.
pub(crate) fn mode(x: &mut Exporter<'_>) -> R {
    let input = x.input(0)?;
    let d = x.in_dtype(0)?;
    let rank = x.in_rank(0)?;
    let axis = norm_axis(x.attrs().i64_or("axis", -1)?, rank);
    if !(0..rank).contains(&axis) {
        return Err(x.unsupported(format!("axis {axis} of a rank-{rank} input")));
    }
    let keep = x.attrs().bool_or("keepdim", false)?;
    // counts[i] = #{j : x[j] == x[i]} along the axis: [.., W, 1, ..]
    // against [.., 1, W, ..], summed over the second.
    let a = x.unsqueeze(&input, &[axis + 1]);
    let b = x.unsqueeze(&input, &[axis]);
    let eq = x.node1("Equal", &[&a, &b], vec![]);
    let eq = x.cast(&eq, DType::Int64)?;
    let counts = reduce(x, "ReduceSum", &eq, &[axis + 1], false);
    let best = reduce(x, "ReduceMax", &counts, &[axis], true);
    let candidate = x.node1("Equal", &[&counts, &best], vec![]);
    let inf = x.const_scalar(d, f64::INFINITY)?;
    let masked = x.node1("Where", &[&candidate, &input, &inf], vec![]);
    let value = reduce(x, "ReduceMin", &masked, &[axis], true);
    let at = x.node1("Equal", &[&input, &value], vec![]);
    let at = x.cast(&at, DType::Int32)?;
    let index = x.node1(
        "ArgMax",
        &[&at],
        vec![
            a_int("axis", axis),
            a_int("keepdims", i64::from(keep)),
            a_int("select_last_index", 1),
        ],
    );
    let value = if keep {
        value
    } else {
        x.squeeze(&value, &[axis])
    };
    x.identity_out(0, &value);
    if x.result(1).is_some() {
        x.cast_out(1, &index)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_ops, op_types};

    #[test]
    fn searchsorted_counts_the_entries_below_each_value() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"s",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"v",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>
    (%2) = "pd_op.searchsorted" (%0, %1) {out_int32:false,right:true,stop_gradient:[false]} : (tensor<-1x8xf32>, tensor<-1x3xf32>) -> tensor<-1x3xi64>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x3xi64>) -> tensor<-1x3xi64>"#,
        );
        let types = op_types(&g);
        assert!(types.contains(&"LessOrEqual") && types.contains(&"ReduceSum"));
    }
}
