//! `fill_diagonal` and `fill_diagonal_tensor`: the positions Paddle's
//! kernels write are computed here from the known dims (as flat offsets,
//! the way the kernels walk the buffer), and one `ScatterND` writes them
//! into the flattened input.

use crate::export::Exporter;
use crate::ExportError;

type R = Result<(), ExportError>;

/// The most positions written (the index constant is this many int64s).
const MAX_POSITIONS: usize = 1 << 20;

/// The known dims of input `i` and their element count.
fn known_dims(x: &Exporter<'_>, i: usize) -> Result<(Vec<i64>, i64), ExportError> {
    let dims = x.in_dims(i)?;
    if dims.iter().any(|&d| d < 0) {
        return Err(x.unsupported("an input of known dims"));
    }
    let numel = dims
        .iter()
        .try_fold(1i64, |n, &d| n.checked_mul(d))
        .filter(|&n| n <= i64::from(i32::MAX))
        .ok_or_else(|| x.unsupported("an input of fewer than 2^31 elements"))?;
    Ok((dims, numel))
}

/// `x` with the flat positions `at` set to `updates` (a 1-D value with one
/// element per position), reshaped back to `dims`, as result 0.
fn scatter_flat(x: &mut Exporter<'_>, at: &[i64], updates: &str, dims: &[i64]) -> R {
    let input = x.input(0)?;
    let flat = x.reshape(&input, &[-1]);
    let index = x.const_i64s(at);
    let index = x.reshape(&index, &[-1, 1]);
    let r = x.node1("ScatterND", &[&flat, &index, updates], vec![]);
    let r = x.reshape(&r, dims);
    x.finish_with(&r)
}

/// `fill_diagonal(x, value, offset, wrap)`: Paddle's walk over the flat
/// buffer in steps of the sum of the strides (the next diagonal
/// element), writing `value` at `i + offset` while that stays in the row;
/// without `wrap` only the first `dims[1]²` elements are walked.
pub(crate) fn fill_diagonal(x: &mut Exporter<'_>) -> R {
    let (dims, numel) = known_dims(x, 0)?;
    if dims.len() < 2 {
        return Err(x.unsupported("an input of rank 2 or more"));
    }
    let value = x.attrs().f64_or("value", 0.0)?;
    let offset = x.attrs().i64_or("offset", 0)?;
    let wrap = x.attrs().bool_or("wrap", false)?;
    let row = dims[1];
    // The sum of the strides: one step along every axis at once.
    let step: i64 = (0..dims.len())
        .map(|i| dims[i + 1..].iter().product::<i64>())
        .sum();
    let end = if wrap { numel } else { numel.min(row * row) };
    let at: Vec<i64> = (0..end)
        .step_by(step.max(1) as usize)
        .filter(|i| (0..row).contains(&(i % row + offset)))
        .map(|i| i + offset)
        .take(MAX_POSITIONS)
        .collect();
    let d = x.in_dtype(0)?;
    let updates = x.const_values(d, &[at.len() as i64], &vec![value; at.len()])?;
    scatter_flat(x, &at, &updates, &dims)
}

/// `fill_diagonal_tensor(x, y, offset, dim1, dim2)`: `y`'s rows (one per
/// combination of the other axes, in row-major order) written along the
/// diagonal of `dim1` and `dim2` at `offset`.
pub(crate) fn fill_diagonal_tensor(x: &mut Exporter<'_>) -> R {
    let (dims, numel) = known_dims(x, 0)?;
    let rank = dims.len() as i64;
    let attrs = x.attrs();
    let mut offset = attrs.i64_or("offset", 0)?;
    let axis = |a: i64| if a < 0 { a + rank } else { a };
    let dim1 = axis(attrs.i64_or("dim1", 0)?);
    let dim2 = axis(attrs.i64_or("dim2", 1)?);
    if !(0..rank).contains(&dim1) || !(0..rank).contains(&dim2) || dim1 == dim2 {
        return Err(x.unsupported("two different axes of the input"));
    }
    // The strides of the two axes and the flat start of each combination
    // of the other axes (the last free axis varying fastest).
    let (mut stride1, mut stride2, mut prod) = (0i64, 0i64, 1i64);
    let mut starts: Vec<i64> = vec![0];
    let mut first_free = true;
    for i in (0..rank).rev() {
        let n = dims[i as usize];
        if i == dim2 {
            stride2 = prod;
        } else if i == dim1 {
            stride1 = prod;
        } else if first_free {
            starts = (0..n).map(|j| prod * j).collect();
            first_free = false;
        } else {
            let base = starts.clone();
            for j in 1..n {
                starts.extend(base.iter().map(|s| s + prod * j));
            }
        }
        prod *= n;
    }
    let diag_len = if offset >= 0 {
        let n = dims[dim1 as usize].min(dims[dim2 as usize] - offset);
        offset *= stride2;
        n
    } else {
        let n = (dims[dim1 as usize] + offset).min(dims[dim2 as usize]);
        offset *= -stride1;
        n
    };
    let (y_dims, _) = known_dims(x, 1)?;
    let y_rows: i64 = y_dims[..y_dims.len().saturating_sub(1)].iter().product();
    let y_cols = y_dims.last().copied().unwrap_or(1);
    if y_rows != starts.len() as i64 || y_cols != diag_len.max(0) {
        return Err(x.unsupported(format!(
            "a fill tensor of {} x {} elements, not {y_rows} x {y_cols}",
            starts.len(),
            diag_len.max(0)
        )));
    }
    if starts.len().saturating_mul(y_cols as usize) > MAX_POSITIONS {
        return Err(x.unsupported("at most 2^20 written positions"));
    }
    let mut at = Vec::new();
    let mut kept = Vec::new();
    for (i, start) in starts.iter().enumerate() {
        for j in 0..y_cols {
            let p = j * (stride1 + stride2) + start + offset;
            if p < numel {
                at.push(p);
                kept.push(i as i64 * y_cols + j);
            }
        }
    }
    let y = x.input(1)?;
    let y = x.reshape(&y, &[-1]);
    let updates = if kept.len() as i64 == y_rows * y_cols {
        y
    } else {
        let k = x.const_i64s(&kept);
        x.node1("Gather", &[&y, &k], vec![])
    };
    let d = x.in_dtype(0)?;
    let updates = if x.in_dtype(1)? == d {
        updates
    } else {
        x.cast(&updates, d)?
    };
    scatter_flat(x, &at, &updates, &dims)
}

#[cfg(test)]
mod tests {
    use crate::mappers::tests::export_ops;

    #[test]
    fn the_diagonal_is_one_scatter_at_known_positions() {
        let g = export_ops(
            r#"    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[3,4],stop_gradient:[false]} : () -> tensor<3x4xf32>
    (%1) = "pd_op.fill_diagonal" (%0) {offset:1,stop_gradient:[false],value:2,wrap:false} : (tensor<3x4xf32>) -> tensor<3x4xf32>
    (%2) = "pd_op.fetch" (%1) {col:0,name:"y",persistable:[true],stop_gradient:[false]} : (tensor<3x4xf32>) -> tensor<3x4xf32>"#,
        );
        let scatter = g
            .node
            .iter()
            .position(|n| n.op_type == "ScatterND")
            .expect("a ScatterND");
        // Rows 0..3 of a 3x4 matrix, offset 1: flat 1, 6, 11.
        let index = &g.node[scatter].input[1];
        let reshaped = g
            .node
            .iter()
            .find(|n| &n.output[0] == index)
            .expect("the index reshaped");
        let constant = g
            .initializer
            .iter()
            .find(|t| t.name == reshaped.input[0])
            .expect("the positions");
        let positions: Vec<i64> = constant
            .raw_data
            .chunks(8)
            .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        assert_eq!(positions, [1, 6, 11]);
    }
}
