//! More InferMeta functions of `binary.cc`: products (`mv`, `kron`,
//! `cross`), losses, sampling and comparison ops.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::binary::broadcast;
use crate::meta::{norm_axis, with_lod, DDim, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// PIR op builders call InferMeta functions with `MetaConfig(false, false)`:
/// checks Paddle makes only at run time are skipped.
pub(crate) const RUNTIME: bool = false;

/// Paddle's `ToComplexType`.
pub(crate) fn to_complex(d: DataType) -> Result<DataType, Bad> {
    match d {
        DataType::Float32 => Ok(DataType::Complex64),
        DataType::Float64 => Ok(DataType::Complex128),
        d => Err(Bad(format!(
            "can not transform data type {} to complex type",
            d.text()
        ))),
    }
}

/// `MvInferMeta` (x, vec).
pub(crate) fn mv(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let v = a.tensor(1)?;
    let (xd, vd) = (x.dims.as_slice(), v.dims.as_slice());
    if xd.len() != 2 {
        return Err(Bad(format!(
            "The rank of input X should be 2, but is {}",
            xd.len()
        )));
    }
    if vd.len() != 1 {
        return Err(Bad(format!(
            "The rank of input Vec should be 1, but is {}",
            vd.len()
        )));
    }
    if xd[1] != vd[0] {
        return Err(Bad(format!(
            "X's second dimension is expected to be equal to Vec's first dimension, but received X's shape = {:?}, Vec's shape = {:?}",
            xd, vd
        )));
    }
    set(outs, 0, x.with_dims(dd(&[xd[0]])?));
    Ok(())
}

/// `KronInferMeta` (x, y).
pub(crate) fn kron(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let (xd, yd) = (x.dims.as_slice(), y.dims.as_slice());
    let r = xd.len().max(yd.len());
    let mut out = Vec::with_capacity(r);
    for i in 0..r {
        let xi = if i < r - xd.len() {
            1
        } else {
            xd[i - (r - xd.len())]
        };
        let yi = if i < r - yd.len() {
            1
        } else {
            yd[i - (r - yd.len())]
        };
        out.push(if xi == -1 || yi == -1 { -1 } else { xi * yi });
    }
    set(outs, 0, Meta::new(x.dtype, dd(&out)?));
    Ok(())
}

/// `CrossInferMeta` (x, y, axis): `axis == 9` (`DDim::kMaxRank`) means the
/// first axis of extent 3, found by the kernel.
pub(crate) fn cross(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let axis = a.int(2)?;
    if x.dims != y.dims {
        return Err(Bad(format!(
            "The 'shape' of Input(X) should be equal to the 'shape' of Input(Y). But received Input(X).dimensions = {:?}, Input(Y).dimensions = {:?}",
            x.dims, y.dims
        )));
    }
    if axis != 9 {
        let r = x.dims.rank() as i64;
        if !(axis < r && axis >= -r) {
            return Err(Bad(format!(
                "Attr(dim) is out of range, It's expected to be in range of [-{r}, {}]. But received Attr(dim) = {axis}.",
                r - 1
            )));
        }
        let ax = if axis < 0 { axis + r } else { axis } as usize;
        if x.dims.at(ax)? != 3 || y.dims.at(ax)? != 3 {
            return Err(Bad(format!(
                "Input(X/Y).dims()[dim] should be equal to 3.But received Input(X/Y).dims()[dim] = {}.",
                x.dims.at(ax)?
            )));
        }
    }
    set(outs, 0, x.with_dims(x.dims));
    Ok(())
}

/// `DistInferMeta` (x, y, p): a 0-d tensor.
pub(crate) fn dist(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    if x.dims.product() == 0 || y.dims.product() == 0 {
        return Err(Bad(
            "The Input(X) or Input(Y) has not been initialized properly.".into(),
        ));
    }
    set(outs, 0, Meta::new(x.dtype, DDim::default()));
    Ok(())
}

/// The shape check of the element-wise losses: equal ranks, and equal
/// extents where both are known (or always at run time).
fn same_shape(x: &DDim, y: &DDim, runtime: bool, what: &str) -> Result<(), Bad> {
    if x.rank() != y.rank() {
        return Err(Bad(format!(
            "{what}: ranks of the inputs differ ({} vs {})",
            x.rank(),
            y.rank()
        )));
    }
    for (&p, &q) in x.as_slice().iter().zip(y.as_slice()) {
        if (runtime || (p > 0 && q > 0)) && p != q {
            return Err(Bad(format!(
                "{what}: the inputs should have the same shape, but received {x:?} and {y:?}"
            )));
        }
    }
    Ok(())
}

/// `KLDivInferMeta` (x, label, reduction, log_target).
pub(crate) fn kldiv(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    let reduction = a.str(2)?;
    same_shape(&x.dims, &label.dims, RUNTIME, "kldiv_loss")?;
    let dims = match reduction {
        "none" => x.dims,
        "mean" | "sum" | "batchmean" => DDim::default(),
        _ => {
            return Err(Bad(
                "Attr(reduction) can only be 'none'|'batchmean'|'sum'|'mean'.".into(),
            ))
        }
    };
    set(outs, 0, Meta::new(x.dtype, dims));
    Ok(())
}

/// `LogLossInferMeta` (input, label, epsilon): `[N, 1]`.
pub(crate) fn log_loss(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    let runtime = RUNTIME;
    if (runtime || (x.dims.product() > 0 && label.dims.product() > 0)) && x.dims != label.dims {
        return Err(Bad(format!(
            "The dimensions of Input(Predicted) must be equal to the dimensions of Input(Labels), but received {:?} and {:?}",
            x.dims, label.dims
        )));
    }
    if x.dims.rank() != 2 {
        return Err(Bad(format!(
            "The dimensions of Input(Predicted) must be 2, But received dimensions of Input(Predicted) is [{}]",
            x.dims.rank()
        )));
    }
    if runtime && x.dims.at(1)? != 1 {
        return Err(Bad("the 2nd dimension of Input(X) must be 1".into()));
    }
    set(outs, 0, with_lod(&x, x.dtype, dd(&[x.dims.at(0)?, 1])?));
    Ok(())
}

/// `IndexSampleInferMeta` (x, index): the index's dims, LoD of the index.
pub(crate) fn index_sample(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let index = a.tensor(1)?;
    if x.dims.rank() != 2 {
        return Err(Bad(format!(
            "Inputs(X) shape of IndexSample op should be 2-D, but got X's shape = [{:?}], please check X shape.",
            x.dims
        )));
    }
    if index.dims.rank() != 2 {
        return Err(Bad(format!(
            "Inputs(Index) shape of IndexSample op should be 2-D, but got Index's shape [{:?}] , please check index shape.",
            index.dims
        )));
    }
    if RUNTIME && x.dims.at(0)? != index.dims.at(0)? {
        return Err(Bad(
            "Inputs(X)'s value of dimension 0 must same with Inputs(Index)'s value of dimension 0"
                .into(),
        ));
    }
    set(outs, 0, with_lod(&index, x.dtype, index.dims));
    Ok(())
}

/// `MaskedSelectInferMeta` (x, mask): `[-1]`.
pub(crate) fn masked_select(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    set(outs, 0, Meta::new(x.dtype, dd(&[-1])?));
    Ok(())
}

/// `BinomialInferMeta` (count, prob): int64 of the count's dims.
pub(crate) fn binomial(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let count = a.tensor(0)?;
    let prob = a.tensor(1)?;
    let check = RUNTIME || (count.dims.product() > 0 && prob.dims.product() > 0);
    if check && count.dims != prob.dims {
        return Err(Bad(format!(
            "Input(count) and Input(prob) shall have the same shape. But received: the shape of Input(count) is [{:?}], the shape of Input(prob) is [{:?}].",
            count.dims, prob.dims
        )));
    }
    set(outs, 0, Meta::new(DataType::Int64, count.dims));
    Ok(())
}

/// `BCELossInferMeta` (input, label).
pub(crate) fn bce_loss(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let label = a.tensor(1)?;
    if x.dims.rank() != label.dims.rank() {
        return Err(Bad(format!(
            "Input(X) and Input(Label) shall have the same rank. But received: the rank of Input(X) is [{}], the rank of Input(Label) is [{}].",
            x.dims.rank(),
            label.dims.rank()
        )));
    }
    let check = RUNTIME || (x.dims.product() > 0 && label.dims.product() > 0);
    if check && x.dims != label.dims {
        return Err(Bad(format!(
            "Input(X) and Input(Label) shall have the same shape. But received: the shape of Input(X) is [{:?}], the shape of Input(Label) is [{:?}].",
            x.dims, label.dims
        )));
    }
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `GridSampleBaseInferMeta` (x, grid).
pub(crate) fn grid_sample(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let grid = a.tensor(1)?;
    let (xd, gd) = (x.dims.as_slice(), grid.dims.as_slice());
    if !(4..=5).contains(&xd.len()) {
        return Err(Bad(format!(
            "Input(X) of GridSampleOp should be 4-D Tensor, but received X dimension size({})",
            xd.len()
        )));
    }
    if !(4..=5).contains(&gd.len()) {
        return Err(Bad(format!(
            "Input(Grid) of GridSampleOp should be 4-D Tensor, but received X dimension size({})",
            gd.len()
        )));
    }
    let runtime = RUNTIME;
    let last = gd[gd.len() - 1];
    let want = if gd.len() == 4 { 2 } else { 3 };
    if (runtime || last > 0) && last != want {
        return Err(Bad(format!(
            "Input(Grid) dimension[{}] should be {want}, but received {last}",
            gd.len() - 1
        )));
    }
    if runtime && gd[0] != xd[0] {
        return Err(Bad(format!(
            "Input(X) and Input(Grid) dimension[0] should be equal, but received X dimension[0]({}) != Grid dimension[0]({})",
            xd[0], gd[0]
        )));
    }
    let dims = if gd.len() == 4 {
        vec![xd[0], xd[1], gd[1], gd[2]]
    } else {
        vec![xd[0], xd[1], gd[1], gd[2], gd[3]]
    };
    set(outs, 0, with_lod(&x, x.dtype, dd(&dims)?));
    Ok(())
}

/// `SearchsortedInferMeta` (sorted_sequence, values, out_int32, right).
pub(crate) fn searchsorted(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let seq = a.tensor(0)?;
    let values = a.tensor(1)?;
    let out_int32 = a.bool(2)?;
    let (sd, vd) = (seq.dims.as_slice(), values.dims.as_slice());
    if sd.is_empty() {
        return Err(Bad(format!(
            "Input sequences's dimension({}) must be greater or equal than 1",
            sd.len()
        )));
    }
    let flag = sd.len() == vd.len() && sd[..sd.len() - 1] == vd[..sd.len() - 1];
    if sd.len() != 1 && !flag {
        return Err(Bad(format!(
            "The dimensions of sorted_sequence tensor ( {:?} ) and values tensor ( {:?} ) can not match.",
            seq.dims, values.dims
        )));
    }
    if out_int32 && sd[sd.len() - 1] >= i64::from(i32::MAX) {
        return Err(Bad(
            "The size of sorted_sequence exceeds the maximum limit of int32".into(),
        ));
    }
    let dtype = if out_int32 {
        DataType::Int32
    } else {
        DataType::Int64
    };
    set(outs, 0, Meta::new(dtype, values.dims));
    Ok(())
}

/// `ValueCompareInferMeta` (`isclose`, `accuracy_check`): the dims of `x`,
/// bool.
pub(crate) fn value_compare(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    if x.dims.rank() != y.dims.rank() {
        return Err(Bad(
            "Input(Input) and Input(Other) must have the same dimension size.".into(),
        ));
    }
    for (i, (&p, &q)) in x.dims.as_slice().iter().zip(y.dims.as_slice()).enumerate() {
        if !(p < 0 || q < 0) && p != q {
            return Err(Bad(format!(
                "The value at dim {i} of Input(Input) is not equal to the Input(Other): {p} != {q}."
            )));
        }
    }
    set(outs, 0, Meta::new(DataType::Bool, x.dims));
    Ok(())
}

/// `ComplexInferMeta` (real, imag): broadcast, complex.
pub(crate) fn complex(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let dims = if x.dims == y.dims {
        x.dims
    } else {
        broadcast(&x.dims, &y.dims, -1)?
    };
    set(outs, 0, Meta::new(to_complex(x.dtype)?, dims));
    Ok(())
}

/// `funcs::MatrixGetBroadcastBatchPortion`: the broadcast batch dims.
fn batch_portion(x: &[i64], y: &[i64]) -> Result<Vec<i64>, Bad> {
    let size = x.len().max(y.len());
    let mut out = vec![0; size];
    for i in (0..size).rev() {
        let offset = size - i - 1;
        let xs = if offset < x.len() {
            x[x.len() - offset - 1]
        } else {
            1
        };
        let ys = if offset < y.len() {
            y[y.len() - offset - 1]
        } else {
            1
        };
        if !(xs == ys || xs == 1 || ys == 1) {
            return Err(Bad(format!(
                "The batch portion of the inputs do not broadcast: {xs} vs {ys}"
            )));
        }
        out[i] = if xs != 1 { xs } else { ys };
    }
    Ok(out)
}

fn rank_at_least_2(d: &DDim, what: &str) -> Result<(), Bad> {
    if d.rank() < 2 {
        return Err(Bad(format!(
            "the rank of input {what} must greater or equal to 2"
        )));
    }
    Ok(())
}

/// Input `X` of the solvers (rank 2 or more) is a batch of square matrices.
fn check_square_x(xd: &[i64]) -> Result<(), Bad> {
    let n = xd.len();
    if xd[n - 2] != xd[n - 1] {
        return Err(Bad(format!(
            "The inner-most 2 dimensions of Input(X) all should be square matrices But received X's shape[-2] = {} and shape[-1] = {}.",
            xd[n - 2],
            xd[n - 1]
        )));
    }
    Ok(())
}

/// A batched solve's result (`x`, `y` of rank 2 or more): the broadcast
/// batch dims, then the two inner dims of `like`, whose meta it shares.
fn solved(x: &DDim, y: &DDim, like: &Meta) -> Result<Meta, Bad> {
    let (xd, yd, ld) = (x.as_slice(), y.as_slice(), like.dims.as_slice());
    let mut dims = batch_portion(&xd[..xd.len() - 2], &yd[..yd.len() - 2])?;
    dims.extend_from_slice(&ld[ld.len() - 2..]);
    Ok(like.with_dims(dd(&dims)?))
}

/// `TriangularSolveInferMeta` (x, y, upper, transpose, unitriangular): `y`
/// with the broadcast batch dims.
pub(crate) fn triangular_solve(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    rank_at_least_2(&x.dims, "X")?;
    rank_at_least_2(&y.dims, "Y")?;
    check_square_x(x.dims.as_slice())?;
    set(outs, 0, solved(&x.dims, &y.dims, &y)?);
    Ok(())
}

/// `CholeskySolveInferMeta` (x, y, upper): `x` with the broadcast batch dims.
pub(crate) fn cholesky_solve(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    rank_at_least_2(&x.dims, "Y")?;
    rank_at_least_2(&y.dims, "X")?;
    let (xd, yd) = (x.dims.as_slice(), y.dims.as_slice());
    let (xn, yn) = (xd.len(), yd.len());
    if yd[yn - 1] != yd[yn - 2] {
        return Err(Bad(format!(
            "input Matrix Y should be square matrix,But Got last shape of {} x {}",
            yd[yn - 1],
            yd[yn - 2]
        )));
    }
    if xd[xn - 2] != yd[yn - 2] {
        return Err(Bad(format!(
            "the first dim of Matrix X must be equal to the fisrt dim of Matrix Y,But Got {} and {}",
            xd[xn - 2],
            yd[yn - 2]
        )));
    }
    set(outs, 0, solved(&x.dims, &y.dims, &x)?);
    Ok(())
}

/// `SolveInferMeta` (x, y).
pub(crate) fn solve(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let mut xd = x.dims.as_slice().to_vec();
    let mut yd = y.dims.as_slice().to_vec();
    if xd.len() < 2 {
        return Err(Bad(format!(
            "The input tensor X's dimensions of SolveOp should be larger than 1. But received X's dimensions = {}",
            xd.len()
        )));
    }
    if yd.is_empty() {
        return Err(Bad(
            "The input tensor Y's dimensions of SolveOp should be larger than or equal 1.".into(),
        ));
    }
    check_square_x(&xd)?;
    let mut y_b = false;
    if yd.len() == 1 {
        yd.push(1);
        y_b = true;
    }
    let (xn, yn) = (xd.len(), yd.len());
    let m = xd[xn - 2];
    let n = yd[yn - 1];
    let mut dims: Vec<i64> = if xn >= yn {
        xd.truncate(xn - 2);
        xd
    } else {
        yd[..yn - 2].to_vec()
    };
    dims.push(m);
    if !y_b {
        dims.push(n);
    }
    set(outs, 0, x.with_dims(dd(&dims)?));
    Ok(())
}

/// `IndexSelectStridedInferMeta` (x, index, axis): the axis removed.
pub(crate) fn index_select_strided(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let dim = a.int(2)?;
    let r = x.dims.rank();
    let ax = norm_axis(dim, r)?;
    let mut v = x.dims.as_slice().to_vec();
    v.remove(ax);
    set(outs, 0, x.with_dims(dd(&v)?));
    Ok(())
}

/// `MatmulWithFlattenInferMeta` (x, y, x_num_col_dims, y_num_col_dims).
pub(crate) fn matmul_with_flatten(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let xc = a.int(2)?;
    let yc = a.int(3)?;
    let (xd, yd) = (x.dims.as_slice(), y.dims.as_slice());
    if y.dims.product() == 0 {
        return Err(Bad("The Input variable Y has not been initialized.".into()));
    }
    if !(xc >= 0 && (xd.len() as i64) > xc && yc >= 0 && (yd.len() as i64) > yc) {
        return Err(Bad(
            "The input tensor's dimensions of MulOp should be larger than num_col_dims".into(),
        ));
    }
    let (xc, yc) = (xc as usize, yc as usize);
    let prod = |s: &[i64]| s.iter().product::<i64>();
    let x1 = prod(&xd[xc..]);
    let y0 = prod(&yd[..yc]);
    if x1 != y0 {
        return Err(Bad(format!(
            "After flatten the input tensor X and Y to 2-D dimensions matrix X1 and Y1, the matrix X1's width must be equal with matrix Y1's height ({x1} vs {y0})."
        )));
    }
    let mut dims = xd[..xc].to_vec();
    dims.extend_from_slice(&yd[yc..]);
    let dtype = if x.dtype == DataType::Int8 {
        DataType::Int32
    } else {
        x.dtype
    };
    set(outs, 0, with_lod(&x, dtype, dd(&dims)?));
    Ok(())
}

/// `TakeAlongAxisInferMeta` (arr, indices, axis): the indices' dims.
pub(crate) fn take_along_axis(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let index = a.tensor(1)?;
    if x.dims.rank() == 0 {
        return Err(Bad(
            "Dimension of the input(Input) of TakeAlongAxisOp should be greater than 0.".into(),
        ));
    }
    if index.dims.rank() == 0 {
        return Err(Bad(
            "Dimension of the input(Index) of TakeAlongAxisOp should be greater than 0.".into(),
        ));
    }
    set(outs, 0, Meta::new(x.dtype, index.dims));
    Ok(())
}

/// `LstsqInferMeta` (x, y, rcond, driver): solution `[..., n, nrhs]`,
/// residuals, rank `[...]` (float32, never set) and singular values
/// `[..., min(m, n)]`. Paddle 3.3.1 gives the residuals `[..., nrhs]` for
/// `gels`, `[-1]` for `gelsd`/`gelss` and `[0]` for `gelsy` when `m > n`,
/// else `[0]`.
pub(crate) fn lstsq(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let y = a.tensor(1)?;
    let driver = a.str(3)?;
    let (xd, yd) = (x.dims.as_slice(), y.dims.as_slice());
    let r = xd.len();
    if r < 2 || yd.len() < 2 {
        return Err(Bad(format!(
            "Expects input tensor x and y to be not less than 2 dimensions, but got dimension {} and {}",
            r,
            yd.len()
        )));
    }
    if r != yd.len() {
        return Err(Bad(format!(
            "Expects input tensor x and y to have the same dimension but got x's dimension [{r}] and y's dimension [{}]",
            yd.len()
        )));
    }
    let (m, n, nrhs) = (xd[r - 2], xd[r - 1], yd[r - 1]);
    if xd[..r - 2] != yd[..r - 2] {
        return Err(Bad(format!(
            "Expects input tensor x and y to have the same batch dimension, but got {xd:?} and {yd:?}"
        )));
    }
    if m != yd[r - 2] {
        return Err(Bad(format!(
            "Expects input tensor x and y to have the same row dimension of the inner-most 2-dims matrix, but got x's row dimension [{m}] and y's row dimension [{}]",
            yd[r - 2]
        )));
    }
    let batch = &xd[..r - 2];
    let residuals = if m > n {
        match driver {
            "gels" => [batch, &[nrhs]].concat(),
            "gelsy" => vec![0],
            _ => vec![-1],
        }
    } else {
        vec![0]
    };
    set(
        outs,
        0,
        Meta::new(y.dtype, dd(&[batch, &[n, nrhs]].concat())?),
    );
    set(outs, 1, Meta::new(y.dtype, dd(&residuals)?));
    set(outs, 2, Meta::new(DataType::Float32, dd(batch)?));
    set(
        outs,
        3,
        Meta::new(y.dtype, dd(&[batch, &[m.min(n)]].concat())?),
    );
    Ok(())
}
