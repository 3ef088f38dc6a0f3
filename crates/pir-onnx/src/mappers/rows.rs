//! Ops that combine rows of a dense tensor: `row_conv` (the lookahead
//! convolution over time of a `[batch, time, dim]` input) and
//! `segment_pool` (rows pooled by sorted segment ids).

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::mappers::index::reduce;
use crate::ExportError;

type R = Result<(), ExportError>;

/// `row_conv(x, filter)` of a dense `[batch, time, dim]` input and a
/// `[k, dim]` filter: `out[t] = sum over i < k of x[t + i] * filter[i]`,
/// rows past the end counting as zeros.
pub(crate) fn row_conv(x: &mut Exporter<'_>) -> R {
    if x.in_rank(0)? != 3 {
        return Err(x.unsupported("a dense [batch, time, dim] input (not a LoD sequence)"));
    }
    let k = x.in_dims(1)?.first().copied().unwrap_or(-1);
    if !(1..=1024).contains(&k) {
        return Err(x.unsupported("a filter of known height (at most 1024)"));
    }
    let input = x.input(0)?;
    let filter = x.input(1)?;
    let mut acc: Option<String> = None;
    for i in 0..k {
        // x[:, i : time - (k - 1 - i)] padded back to `time` rows at the end.
        let start = x.const_i64s(&[i]);
        let end = x.const_i64s(&[i64::MAX]);
        let axis = x.const_i64s(&[1]);
        let rows = x.node1("Slice", &[&input, &start, &end, &axis], vec![]);
        let pads = x.const_i64s(&[0, 0, 0, 0, i, 0]);
        let rows = x.node1("Pad", &[&rows, &pads], vec![]);
        let at = x.const_scalar(DType::Int64, i as f64)?;
        let w = x.node1("Gather", &[&filter, &at], vec![a_int("axis", 0)]);
        let term = x.node1("Mul", &[&rows, &w], vec![]);
        acc = Some(match acc {
            None => term,
            Some(a) => x.node1("Add", &[&a, &term], vec![]),
        });
    }
    let r = acc.ok_or_else(|| x.unsupported("an empty filter"))?;
    x.finish_with(&r)
}

/// `segment_pool(x, ids, pooltype)`: rows of `x` with equal (sorted) ids
/// pooled by `SUM`, `MEAN`, `MAX` or `MIN` into `ids[-1] + 1` rows (rows
/// of absent ids 0); the second result is each segment's row count.
pub(crate) fn segment_pool(x: &mut Exporter<'_>) -> R {
    let pool = x.attrs().str_or("pooltype", "SUM")?;
    let d = x.in_dtype(0)?;
    let input = x.input(0)?;
    let ids = x.input(1)?;
    let ids = x.cast(&ids, DType::Int64)?;
    let ids = x.reshape(&ids, &[-1]);
    // The segments 0..=ids[-1], as a column against the row ids.
    let last = x.const_i64s(&[-1]);
    let top = x.node1("Gather", &[&ids, &last], vec![]);
    let zero = x.const_scalar(DType::Int64, 0.0)?;
    let one = x.const_scalar(DType::Int64, 1.0)?;
    let top = x.reshape(&top, &[]);
    let n = x.node1("Add", &[&top, &one], vec![]);
    let segments = x.node1("Range", &[&zero, &n, &one], vec![]);
    let column = x.unsqueeze(&segments, &[1]);
    let member = x.node1("Equal", &[&column, &ids], vec![]);
    let weights = x.cast(&member, d)?;
    let counts = reduce(x, "ReduceSum", &weights, &[1], true);
    // x as [rows, rest].
    let rows = x.reshape(&input, &[0, -1]);
    let r = match pool.as_str() {
        "SUM" | "MEAN" => {
            let sum = x.node1("MatMul", &[&weights, &rows], vec![]);
            if pool == "MEAN" {
                let one_f = x.const_scalar(d, 1.0)?;
                let denom = x.node1("Max", &[&counts, &one_f], vec![]);
                x.node1("Div", &[&sum, &denom], vec![])
            } else {
                sum
            }
        }
        "MAX" | "MIN" => {
            let (fill, op) = if pool == "MAX" {
                (f64::NEG_INFINITY, "ReduceMax")
            } else {
                (f64::INFINITY, "ReduceMin")
            };
            // [segments, rows, 1] against [1, rows, rest].
            let mask = x.unsqueeze(&member, &[2]);
            let values = x.unsqueeze(&rows, &[0]);
            let fill_c = x.const_scalar(d, fill)?;
            let masked = x.node1("Where", &[&mask, &values, &fill_c], vec![]);
            let pooled = reduce(x, op, &masked, &[1], false);
            let zero_f = x.const_scalar(d, 0.0)?;
            let empty = x.node1("Equal", &[&counts, &zero_f], vec![]);
            x.node1("Where", &[&empty, &zero_f, &pooled], vec![])
        }
        other => return Err(x.unsupported(format!("pooltype {other:?}"))),
    };
    // Back to [segments, x's other dims].
    let shape = x.node1("Shape", &[&input], vec![]);
    let one_on = x.const_i64s(&[1]);
    let end = x.const_i64s(&[i64::MAX]);
    let rest = x.node1("Slice", &[&shape, &one_on, &end], vec![]);
    let n1 = x.reshape(&n, &[1]);
    let out_shape = x.node1("Concat", &[&n1, &rest], vec![a_int("axis", 0)]);
    let r = x.node1("Reshape", &[&r, &out_shape], vec![]);
    x.identity_out(0, &r);
    if x.result(1).is_some() {
        x.no_value_info();
        x.identity_out(1, &counts);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_ops, op_types};

    #[test]
    fn row_conv_sums_one_shifted_product_per_filter_row() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4,6],stop_gradient:[false]} : () -> tensor<-1x4x6xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[3,6],stop_gradient:[false]} : () -> tensor<3x6xf32>
    (%2) = "pd_op.row_conv" (%0, %1) {stop_gradient:[false]} : (tensor<-1x4x6xf32>, tensor<3x6xf32>) -> tensor<-1x4x6xf32>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x4x6xf32>) -> tensor<-1x4x6xf32>"#,
        );
        let muls = op_types(&g).iter().filter(|t| **t == "Mul").count();
        assert_eq!(muls, 3);
    }
}
