//! More InferMeta functions of `nullary.cc`:
//! `truncated_gaussian_random`, `tril_indices`, `triu_indices`, `read_file`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// `TruncatedGaussianRandomInferMeta` (shape, mean, std, seed, a, b, dtype).
pub(crate) fn truncated_gaussian_random(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let shape = a.ints(0)?;
    set(outs, 0, Meta::new(a.dtype(6)?, dd(&shape)?));
    Ok(())
}

/// The number of elements of the lower triangle of a `rows x cols` matrix
/// on and below diagonal `offset` (Paddle's trapezoid count).
fn tril_size(rows: i64, cols: i64, offset: i64) -> i64 {
    let n_first_row = if offset > 0 {
        cols.min(1 + offset)
    } else {
        i64::from(rows + offset > 0)
    };
    let n_last_row = cols.min(rows + offset).max(0);
    let n_row_all = rows.min(rows + offset).max(0);
    let n_row_trapezoid = n_last_row - n_first_row + 1;
    let mut size = ((n_first_row + n_last_row) * n_row_trapezoid) >> 1;
    let diff_row = n_row_all - n_row_trapezoid;
    if diff_row > 0 {
        size += diff_row * cols;
    }
    size
}

/// `TrilIndicesInferMeta` (rows, cols, offset, dtype): `[2, count]`.
pub(crate) fn tril_indices(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let (rows, cols, offset) = (a.int(0)?, a.int(1)?, a.int(2)?);
    let n = tril_size(rows, cols, offset);
    set(outs, 0, Meta::new(a.dtype(3)?, dd(&[2, n])?));
    Ok(())
}

/// `TriuIndicesInferMeta` (row, col, offset, dtype): `[2, count]`, the
/// complement of the lower triangle below `offset`.
pub(crate) fn triu_indices(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let (rows, cols, offset) = (a.int(0)?, a.int(1)?, a.int(2)?);
    let n = rows * cols - tril_size(rows, cols, offset - 1);
    set(outs, 0, Meta::new(a.dtype(3)?, dd(&[2, n])?));
    Ok(())
}

/// `ReadFileInferMeta` (filename): uint8 `[-1]`.
pub(crate) fn read_file(_a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    set(outs, 0, Meta::new(DataType::UInt8, dd(&[-1])?));
    Ok(())
}
