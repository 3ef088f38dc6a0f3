//! Elements repeated along an axis (`repeat_interleave`, with one count for
//! all or a count per element) and values written at index tuples
//! (`index_put`).

use pir_params::DType;

use crate::export::{a_int, a_ints, a_str, Exporter};
use crate::mappers::index::reduce;
use crate::mappers::shape::norm_axis;
use crate::ExportError;

type R = Result<(), ExportError>;

/// The axis attribute of operand 0, made non-negative.
fn axis_of(x: &Exporter<'_>) -> Result<(i64, i64), ExportError> {
    let rank = x.in_rank(0)?;
    if rank == 0 {
        return Err(x.unsupported("a 0-D input"));
    }
    let axis = norm_axis(x.attrs().i64_or("axis", 0)?, rank);
    if !(0..rank).contains(&axis) {
        return Err(x.unsupported(format!("axis out of range for rank {rank}")));
    }
    Ok((axis, rank))
}

/// `repeat_interleave(x, repeats, axis)`: each slice along `axis` repeated
/// `repeats` times in place (`[a, b]` → `[a, a, b, b]`): a new axis after
/// `axis` broadcast to `repeats`, merged back into `axis`.
pub(crate) fn repeat_interleave(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let (axis, rank) = axis_of(x)?;
    let repeats = x.attrs().i64("repeats")?;
    if repeats < 0 {
        return Err(x.unsupported("a negative repeat count"));
    }
    let u = x.unsqueeze(&a, &[axis + 1]);
    let mut ones = vec![1i64; rank as usize + 1];
    ones[axis as usize + 1] = repeats;
    let to = x.const_i64s(&ones);
    let e = x.node1("Expand", &[&u, &to], vec![]);
    // The input's dims with `axis` inferred (-1): the merged axis.
    let s = x.node1("Shape", &[&a], vec![]);
    let before = shape_part(x, &s, 0, axis);
    let after = shape_part(x, &s, axis + 1, rank);
    let minus = x.const_i64s(&[-1]);
    let shape = x.node1("Concat", &[&before, &minus, &after], vec![a_int("axis", 0)]);
    let r = x.node1("Reshape", &[&e, &shape], vec![]);
    x.finish_with(&r)
}

/// Dims `from..to` of the 1-D shape `s` (possibly none).
fn shape_part(x: &mut Exporter<'_>, s: &str, from: i64, to: i64) -> String {
    let f = x.const_i64s(&[from]);
    let t = x.const_i64s(&[to]);
    x.node1("Slice", &[s, &f, &t], vec![])
}

/// `repeat_interleave_with_tensor_index(x, repeats, axis)`: slice `i` along
/// `axis` repeated `repeats[i]` times. Output position `p` reads slice
/// `#{i : cumsum(repeats)[i] <= p}`, gathered along `axis`.
pub(crate) fn repeat_interleave_with_tensor_index(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let (axis, _) = axis_of(x)?;
    let r = x.input(1)?;
    let r = x.cast(&r, DType::Int64)?;
    // One count for every slice: a single count is broadcast.
    let s = x.node1("Shape", &[&a], vec![]);
    let n = shape_part(x, &s, axis, axis + 1);
    let flat = x.reshape(&r, &[-1]);
    let counts = x.node1("Expand", &[&flat, &n], vec![]);
    let zero = x.const_i64s(&[0]);
    let ends = x.node1("CumSum", &[&counts, &zero], vec![]);
    let total = x.node1("ReduceSum", &[&counts], vec![a_int("keepdims", 0)]);
    let first = x.const_scalar(DType::Int64, 0.0)?;
    let step = x.const_scalar(DType::Int64, 1.0)?;
    let positions = x.node1("Range", &[&first, &total, &step], vec![]);
    let p = x.unsqueeze(&positions, &[1]);
    let e = x.unsqueeze(&ends, &[0]);
    let passed = x.node1("LessOrEqual", &[&e, &p], vec![]);
    let passed = x.cast(&passed, DType::Int64)?;
    let idx = reduce(x, "ReduceSum", &passed, &[1], false);
    let g = x.node1("Gather", &[&a, &idx], vec![a_int("axis", axis)]);
    x.finish_with(&g)
}

/// `index_put(x, indices, value, accumulate)` and its in-place form: the
/// elements of `x` at the index tuples (integer tensors broadcast together,
/// one per leading axis, or one boolean mask) set to `value`, or `value`
/// added there with `accumulate` (an adding `ScatterND`, opset 16).
pub(crate) fn index_put(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let parts = x.input_vec(1)?;
    let types = x.vec_types(1);
    let accumulate = x.attrs().bool_or("accumulate", false)?;
    if accumulate {
        x.need_opset(16, "an adding ScatterND")?;
    }
    if parts.is_empty() || types.len() != parts.len() {
        return Err(x.unsupported("no index tensors"));
    }
    let dims = x.in_dims(0)?;
    let s = x.node1("Shape", &[&a], vec![]);
    let dtypes: Vec<Option<DType>> = types.iter().map(|&t| x.dtype_of_type(t)).collect();
    let (tuples, k) = if dtypes == [Some(DType::Bool)] {
        // A mask over the leading axes: the positions where it holds.
        let k = x.dims_of_type(types[0]).map_or(0, |d| d.len()) as i64;
        let nz = x.node1("NonZero", &[&parts[0]], vec![]);
        (
            x.node1("Transpose", &[&nz], vec![a_ints("perm", &[1, 0])]),
            k,
        )
    } else {
        if dtypes
            .iter()
            .any(|d| !matches!(d, Some(DType::Int64 | DType::Int32)))
        {
            return Err(x.unsupported("index tensors other than int32/int64 or one bool mask"));
        }
        // Each index made non-negative and broadcast to the common shape.
        let mut fixed = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            let p = x.cast(p, DType::Int64)?;
            let d = shape_part(x, &s, i as i64, i as i64 + 1);
            let zero = x.const_i64s(&[0]);
            let neg = x.node1("Less", &[&p, &zero], vec![]);
            let wrapped = x.node1("Add", &[&p, &d], vec![]);
            fixed.push(x.node1("Where", &[&neg, &wrapped, &p], vec![]));
        }
        let mut common = x.node1("Shape", &[&fixed[0]], vec![]);
        for f in &fixed[1..] {
            let sf = x.node1("Shape", &[f], vec![]);
            let ones = x.node1("ConstantOfShape", &[&sf], vec![]);
            let grown = x.node1("Expand", &[&ones, &common], vec![]);
            common = x.node1("Shape", &[&grown], vec![]);
        }
        let mut cols = Vec::new();
        for f in &fixed {
            let e = x.node1("Expand", &[f, &common], vec![]);
            cols.push(x.unsqueeze(&e, &[-1]));
        }
        let refs: Vec<&str> = cols.iter().map(String::as_str).collect();
        (
            x.node1("Concat", &refs, vec![a_int("axis", -1)]),
            parts.len() as i64,
        )
    };
    if k < 1 || k > dims.len() as i64 {
        return Err(x.unsupported("more index tensors than axes"));
    }
    // The updates: `value` broadcast to the tuples' shape and the
    // remaining axes of `x`.
    let ts = x.node1("Shape", &[&tuples], vec![]);
    let lead = shape_part(x, &ts, 0, -1);
    let rest = shape_part(x, &s, k, dims.len() as i64);
    let ushape = x.node1("Concat", &[&lead, &rest], vec![a_int("axis", 0)]);
    let v = x.input(2)?;
    let vd = x.in_dtype(2)?;
    let xd = x.in_dtype(0)?;
    let v = if vd == xd { v } else { x.cast(&v, xd)? };
    let upd = x.node1("Expand", &[&v, &ushape], vec![]);
    let out = x.out(0);
    let attrs = if accumulate {
        vec![a_str("reduction", "add")]
    } else {
        vec![]
    };
    x.node("ScatterND", &[&a, &tuples, &upd], &[&out], attrs);
    if x.op_name().ends_with('_') {
        x.rename_operand(0, out);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::{export_at, export_ops, op_types};

    const X: &str = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,3],stop_gradient:[false]} : () -> tensor<-1x3xf32>"#;

    #[test]
    fn repeat_interleave_broadcasts_a_new_axis_and_merges_it() {
        let g = export_ops(&format!(
            "{X}\n{}\n{}",
            r#"    (%1) = "pd_op.repeat_interleave" (%0) {axis:1,output_size:-1,repeats:2,stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x6xf32>"#,
            r#"    (%2) = "pd_op.fetch" (%1) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x6xf32>) -> tensor<-1x6xf32>"#,
        ));
        let types = op_types(&g);
        assert!(
            types.contains(&"Expand") && types.contains(&"Reshape"),
            "{types:?}"
        );
    }

    #[test]
    fn an_adding_index_put_needs_opset_16() {
        let ops = format!(
            "{X}\n{}\n{}\n{}\n{}\n{}",
            r#"    (%1) = "pd_op.data" () {dtype:int64,name:"i",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xi64>"#,
            r#"    (%2) = "pd_op.data" () {dtype:float32,name:"v",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>"#,
            r#"    (%3) = "builtin.combine" (%1, %1) {} : (tensor<2xi64>, tensor<2xi64>) -> vec[tensor<2xi64>,tensor<2xi64>]"#,
            r#"    (%4) = "pd_op.index_put" (%0, %3, %2) {accumulate:true,stop_gradient:[false]} : (tensor<-1x3xf32>, vec[tensor<2xi64>,tensor<2xi64>], tensor<2xf32>) -> tensor<-1x3xf32>"#,
            r#"    (%5) = "pd_op.fetch" (%4) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>"#,
        );
        let err = export_at(&ops, 15).expect_err("opset 15 has no adding ScatterND");
        assert!(err.to_string().contains("opset 16"), "{err}");
        let g = export_at(&ops, 17)
            .expect("exports")
            .graph
            .expect("a graph");
        assert!(op_types(&g).contains(&"ScatterND"));
    }
}
