//! Ops of older Paddle APIs that PIR programs still hold: `empty`,
//! `partial_concat` / `partial_sum` (column ranges of 2-D inputs),
//! `matmul_with_flatten` (the `mul` of `fc` layers) and `norm` (L2
//! normalization along an axis).

use pir_params::DType;

use crate::export::{a_int, Exporter};
use crate::mappers::creation::filled;
use crate::mappers::index::reduce;
use crate::mappers::shape::norm_axis;
use crate::ExportError;

type R = Result<(), ExportError>;

/// `empty(shape, dtype)`: a tensor of `shape` whose elements Paddle leaves
/// unset; zeros here.
pub(crate) fn empty(x: &mut Exporter<'_>) -> R {
    let dtype = x.out_dtype(0)?;
    let shape = x.int_array_input(0, "shape")?;
    filled(x, &shape, dtype, 0.0)
}

/// Columns `start_index .. start_index + length` of each 2-D input
/// (`length` -1: to the last column; a negative start counts from the end).
fn column_ranges(x: &mut Exporter<'_>) -> Result<Vec<String>, ExportError> {
    let parts = x.input_vec(0)?;
    let types = x.vec_types(0);
    let attrs = x.attrs();
    let start = attrs.i64_or("start_index", 0)?;
    let length = attrs.i64_or("length", -1)?;
    let mut out = Vec::new();
    for (p, ty) in parts.iter().zip(&types) {
        let dims = x.dims_of_type(*ty).unwrap_or_default();
        let cols = match dims.as_slice() {
            [_, c] if *c >= 0 => *c,
            _ => return Err(x.unsupported("inputs of rank 2 with a known column count")),
        };
        let from = if start < 0 { start + cols } else { start };
        let to = if length < 0 { cols } else { from + length };
        if from < 0 || to > cols || from > to {
            return Err(x.unsupported(format!("columns {from}..{to} of {cols}")));
        }
        let f = x.const_i64s(&[from]);
        let t = x.const_i64s(&[to]);
        let axis = x.const_i64s(&[1]);
        out.push(x.node1("Slice", &[p, &f, &t, &axis], vec![]));
    }
    if out.is_empty() {
        return Err(x.unsupported("no inputs"));
    }
    Ok(out)
}

/// `partial_concat(x..., start_index, length)`: the column ranges side by side.
pub(crate) fn partial_concat(x: &mut Exporter<'_>) -> R {
    let parts = column_ranges(x)?;
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let r = x.node1("Concat", &refs, vec![a_int("axis", 1)]);
    x.finish_with(&r)
}

/// `partial_sum(x..., start_index, length)`: the column ranges added.
pub(crate) fn partial_sum(x: &mut Exporter<'_>) -> R {
    if x.attrs().i64_or("start_index", 0)? < 0 {
        // Paddle's kernel does not count such a start from the end (its
        // output is sized for it but read past the inputs).
        return Err(x.unsupported("a negative start_index"));
    }
    let parts = column_ranges(x)?;
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    let r = x.node1("Sum", &refs, vec![]);
    x.finish_with(&r)
}

/// `matmul_with_flatten(x, y, x_num_col_dims, y_num_col_dims)`: `x` as a
/// matrix of its first `x_num_col_dims` dims by the rest, `y` likewise, their
/// product shaped as those leading dims of `x` and trailing dims of `y`.
pub(crate) fn matmul_with_flatten(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let b = x.input(1)?;
    let attrs = x.attrs();
    let xn = attrs.i64_or("x_num_col_dims", 1)?;
    let yn = attrs.i64_or("y_num_col_dims", 1)?;
    let dx = x.in_dims(0)?;
    let dy = x.in_dims(1)?;
    let (xn, yn) = (xn as usize, yn as usize);
    if !(1..dx.len()).contains(&xn) || !(1..dy.len()).contains(&yn) {
        return Err(x.unsupported("num_col_dims outside the inputs' ranks"));
    }
    let known = |d: &[i64]| d.iter().all(|&v| v >= 0);
    if !known(&dx[xn..]) || !known(&dy) {
        return Err(x.unsupported("unknown dims besides the leading ones of x"));
    }
    let x_cols: i64 = dx[xn..].iter().product();
    let ma = x.reshape(&a, &[-1, x_cols]);
    let y_rows: i64 = dy[..yn].iter().product();
    let mb = x.reshape(&b, &[y_rows, -1]);
    let m = x.node1("MatMul", &[&ma, &mb], vec![]);
    // The leading dims of `x` (maybe unknown) and the trailing ones of `y`.
    let s = x.node1("Shape", &[&a], vec![]);
    let zero = x.const_i64s(&[0]);
    let end = x.const_i64s(&[xn as i64]);
    let lead = x.node1("Slice", &[&s, &zero, &end], vec![]);
    let tail = x.const_i64s(&dy[yn..]);
    let shape = x.node1("Concat", &[&lead, &tail], vec![a_int("axis", 0)]);
    let r = x.node1("Reshape", &[&m, &shape], vec![]);
    x.finish_with(&r)
}

/// `norm(x, axis, epsilon, is_test)`: `x / sqrt(sum(x², axis) + epsilon)`
/// and that root (result 1, the axis kept).
pub(crate) fn norm(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    if !matches!(d, DType::Float32 | DType::Float64 | DType::Float16) {
        return Err(x.unsupported(format!("a {d} input")));
    }
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let axis = norm_axis(attrs.i64_or("axis", -1)?, rank);
    let eps = attrs.f64_or("epsilon", 1e-10)?;
    let sq = x.node1("Mul", &[&a, &a], vec![]);
    let sum = reduce(x, "ReduceSum", &sq, &[axis], true);
    let e = x.const_scalar(d, eps)?;
    let shifted = x.node1("Add", &[&sum, &e], vec![]);
    let root = x.node1("Sqrt", &[&shifted], vec![]);
    let r = x.node1("Div", &[&a, &root], vec![]);
    if x.attrs().bool_or("is_test", false)? {
        // At inference Paddle leaves the norms unset and types them 0-D.
        let mut dims = x.in_dims(0)?;
        if let Some(d) = dims.get_mut(axis as usize) {
            *d = 1;
        }
        x.retype_result(1, d, &dims)?;
    }
    x.identity_out(1, &root);
    x.finish_with(&r)
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::export_at;

    fn partial(kind: &str, start: i64) -> Result<crate::proto::ModelProto, crate::ExportError> {
        let op = format!(
            r#"    (%2) = "pd_op.{kind}" (%1) {{length:-1,start_index:{start},stop_gradient:[false]}} : (vec[tensor<-1x6xf32>,tensor<-1x6xf32>]) -> tensor<-1x4xf32>"#
        );
        let data = r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,6],stop_gradient:[false]} : () -> tensor<-1x6xf32>
    (%1) = "builtin.combine" (%0, %0) {} : (tensor<-1x6xf32>, tensor<-1x6xf32>) -> vec[tensor<-1x6xf32>,tensor<-1x6xf32>]"#;
        let fetch = r#"    (%3) = "pd_op.fetch" (%2) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#;
        export_at(&format!("{data}\n{op}\n{fetch}"), crate::DEFAULT_OPSET)
    }

    #[test]
    fn a_start_from_the_end_is_refused_for_partial_sum_only() {
        assert!(partial("partial_concat", 2).is_ok());
        assert!(partial("partial_sum", 2).is_ok());
        let err = partial("partial_sum", -4).expect_err("refused");
        assert!(err.to_string().contains("negative start_index"), "{err}");
    }
}
