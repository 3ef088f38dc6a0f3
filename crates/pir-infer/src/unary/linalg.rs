//! Matrix InferMeta functions of `unary.cc`: diagonals and eigen
//! decompositions.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::binary::more::to_complex;
use crate::meta::{untouched, Meta, Out};
use crate::unary::{dd, set, to_real};
use crate::Bad;

/// `DiagInferMeta` (x, offset, padding_value): a 1-d input makes a square
/// matrix, a 2-d input gives its diagonal.
pub(crate) fn diag(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let offset = a.int(1)?;
    let xd = x.dims.as_slice();
    let dims = match xd.len() {
        0 | 1 => {
            let n = if xd.len() == 1 { xd[0] } else { 1 } + offset.abs();
            vec![n, n]
        }
        // An unknown extent leaves the diagonal's length unknown.
        2 if xd[0] == -1 || xd[1] == -1 => vec![-1],
        2 => {
            let n = if offset >= 0 {
                if xd[0] < xd[1] - offset {
                    xd[0]
                } else {
                    xd[1] - offset
                }
            } else if xd[0] + offset < xd[1] {
                xd[0] + offset
            } else {
                xd[1]
            };
            vec![n.max(0)]
        }
        r => {
            return Err(Bad(format!(
                "The input tensor X's dimensions of DiagV2Op should be either 1 or 2, but received {r}."
            )))
        }
    };
    set(outs, 0, Meta::new(x.dtype, dd(&dims)?));
    Ok(())
}

/// `DiagonalInferMeta` (x, offset, axis1, axis2): both axes removed, the
/// diagonal's length appended.
pub(crate) fn diagonal(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let offset = a.int(1)?;
    let (axis1, axis2) = (a.int(2)?, a.int(3)?);
    let r = x.dims.rank() as i64;
    let a1 = if axis1 < 0 { r + axis1 } else { axis1 };
    let a2 = if axis2 < 0 { r + axis2 } else { axis2 };
    if r < 2 {
        return Err(Bad(format!(
            "Input's dim is out of range (expected at least 2 dimensions, but got {r})."
        )));
    }
    if !(0..r).contains(&a1) || !(0..r).contains(&a2) {
        return Err(Bad(format!(
            "Attr(axis1) or Attr(axis2) is out of range (expected to be in range of [{}, {}], but got {axis1}, {axis2}).",
            -r,
            r - 1
        )));
    }
    if a1 == a2 {
        return Err(Bad(format!(
            "The dimensions should not be identical {axis1} vs {axis2}."
        )));
    }
    let mut v = x.dims.as_slice().to_vec();
    let (s1, s2) = (v[a1 as usize], v[a2 as usize]);
    v.remove(a1.max(a2) as usize);
    v.remove(a1.min(a2) as usize);
    v.push(if s1 != -1 && s2 != -1 {
        if offset == 0 {
            s1.min(s2)
        } else if offset > 0 {
            if s2 - offset > 0 {
                s1.min(s2 - offset)
            } else {
                0
            }
        } else if s1 + offset > 0 {
            (s1 + offset).min(s2)
        } else {
            0
        }
    } else {
        -1
    });
    set(outs, 0, Meta::new(x.dtype, dd(&v)?));
    Ok(())
}

/// `DiagEmbedInferMeta` (input, offset, dim1, dim2): two new axes of the
/// last extent plus `|offset|`.
pub(crate) fn diag_embed(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let offset = a.int(1)?;
    let (dim1, dim2) = (a.int(2)?, a.int(3)?);
    let r = x.dims.rank() as i64;
    for d in [dim1, dim2] {
        if d < -(r + 1) || d > r {
            return Err(Bad(format!(
                "Dim1 or Dim2 is out of range (expected to be in range of [{}, {r}], but got {d}).",
                -(r + 1)
            )));
        }
    }
    let d1 = if dim1 < 0 { r + dim1 + 1 } else { dim1 };
    let d2 = if dim2 < 0 { r + dim2 + 1 } else { dim2 };
    if d1 == d2 {
        return Err(Bad(format!(
            "diagonal dimensions should not be identical {dim1} vs {dim2}."
        )));
    }
    let mut v = x.dims.as_slice().to_vec();
    let last = v
        .pop()
        .ok_or_else(|| Bad("diag_embed of a 0-d tensor".into()))?;
    let n = if last == -1 { -1 } else { offset.abs() + last };
    let (lo, hi) = (d1.min(d2) as usize, d1.max(d2) as usize);
    if lo > v.len() || hi > v.len() + 1 {
        return Err(Bad("diag_embed dims out of range".into()));
    }
    v.insert(lo, n);
    v.insert(hi, n);
    set(outs, 0, Meta::new(x.dtype, dd(&v)?));
    Ok(())
}

/// The rank and squareness check of the eigen decompositions.
fn square_batch(x: &Meta, what: &str) -> Result<Vec<i64>, Bad> {
    let d = x.dims.as_slice();
    let r = d.len();
    if r < 2 {
        return Err(Bad(format!(
            "The Input(X) of {what} should have at least 2 dimensions. But received a {r} dimension tensor."
        )));
    }
    if d[r - 2] != d[r - 1] {
        return Err(Bad(format!(
            "The input matrix of {what} must be a square matrix, but received a matrix with {} rows and {} columns",
            d[r - 2],
            d[r - 1]
        )));
    }
    Ok(d[..r - 1].to_vec())
}

/// `IsComplexType(x) ? x : ToComplexType(x)`.
fn complex_of(d: DataType) -> Result<DataType, Bad> {
    match d {
        DataType::Complex64 | DataType::Complex128 => Ok(d),
        d => to_complex(d),
    }
}

/// `EigInferMeta` (x): complex eigenvalues `[..., n]` and vectors.
pub(crate) fn eig(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let w = square_batch(&x, "eig")?;
    let dtype = complex_of(x.dtype)?;
    set(outs, 0, Meta::new(dtype, dd(&w)?));
    set(outs, 1, Meta::new(dtype, x.dims));
    Ok(())
}

/// `EighInferMeta` (x, uplo) and `EigvalshInferMeta` (x, uplo, is_test):
/// real eigenvalues `[..., n]` and vectors of `x`'s type.
pub(crate) fn eigh(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let w = square_batch(&x, "eigh")?;
    set(outs, 0, Meta::new(to_real(x.dtype), dd(&w)?));
    set(outs, 1, Meta::new(x.dtype, x.dims));
    Ok(())
}

/// `EigvalsInferMeta` (x): squareness is checked only when the dims are
/// known.
pub(crate) fn eigvals(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let d = x.dims.as_slice();
    let r = d.len();
    if r < 2 {
        return Err(Bad(format!(
            "The dimensions of Input(X) for Eigvals operator should be at least 2, but received X's dimension = {r}."
        )));
    }
    if !x.dims.has_unknown() && d[r - 1] != d[r - 2] {
        return Err(Bad(format!(
            "The last two dimensions of Input(X) for Eigvals operator should be equal, but received X's shape = {d:?}."
        )));
    }
    set(outs, 0, Meta::new(complex_of(x.dtype)?, dd(&d[..r - 1])?));
    Ok(())
}

/// `InverseInferMeta` (x): extents must be `-1` or non-negative, and the
/// last two equal when known.
pub(crate) fn inverse(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let d = x.dims.as_slice();
    let r = d.len();
    if r < 2 {
        return Err(Bad(format!(
            "The dimension of Input(Input) is expected to be no less than 2. But received: Input(Input)'s dimension = {r}, shape = {d:?}."
        )));
    }
    if d.iter().any(|&v| v < -1) {
        return Err(Bad(format!(
            "Each dimension of input tensor is expected to be -1 or a positive number. Input's shape is {d:?}."
        )));
    }
    if d[r - 2] > 0 && d[r - 1] > 0 && d[r - 2] != d[r - 1] {
        return Err(Bad(format!(
            "The last two dimensions are expected to be equal. But received: {} and {}; Input(Input)'s shape = {d:?}.",
            d[r - 2],
            d[r - 1]
        )));
    }
    set(outs, 0, crate::meta::with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `MatrixPowerInferMeta` (x, n): every extent must be known.
pub(crate) fn matrix_power(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let d = x.dims.as_slice();
    let r = d.len();
    if r < 2 {
        return Err(Bad(format!(
            "The Input(X) should have at least 2 dimensions. But received a {r} dimension tensor."
        )));
    }
    if d.iter().any(|&v| v < 0) {
        return Err(Bad(
            "The size of Input(X) should greater than or equal to 0.".into(),
        ));
    }
    if d[r - 2] != d[r - 1] {
        return Err(Bad(format!(
            "The inner-most 2 dimensions of Input(X) all should be square matrices But received X's shape[-2] = {} and shape[-1] = {}.",
            d[r - 2],
            d[r - 1]
        )));
    }
    set(outs, 0, crate::meta::with_lod(&x, x.dtype, x.dims));
    Ok(())
}

/// `LUInferMeta` (x, pivot): the factors, int32 pivots `[..., min(m, n)]`
/// and int32 infos `[...]`.
pub(crate) fn lu(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let pivot = a.bool(1)?;
    let d = x.dims.as_slice();
    let r = d.len();
    if r < 2 {
        return Err(Bad("The rank of input must greater than 2.".into()));
    }
    set(outs, 0, Meta::new(x.dtype, x.dims));
    let (m, n) = (d[r - 1], d[r - 2]);
    set(outs, 2, Meta::new(DataType::Int32, dd(&d[..r - 2])?));
    if pivot {
        let mut p = d[..r - 1].to_vec();
        p[r - 2] = m.min(n);
        set(outs, 1, Meta::new(DataType::Int32, dd(&p)?));
    } else {
        set(outs, 1, untouched());
    }
    Ok(())
}

/// `NormInferMeta` (x, axis, epsilon, is_test): the normalized tensor and,
/// unless testing, the norms with extent 1 on `axis`.
pub(crate) fn norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.int(1)?;
    let is_test = a.bool(3)?;
    set(outs, 0, Meta::new(x.dtype, x.dims));
    if is_test {
        set(outs, 1, untouched());
    } else {
        let r = x.dims.rank() as i64;
        let ax = if axis < 0 { axis + r } else { axis };
        let mut d = x.dims;
        if ax < 0 || ax >= r {
            return Err(Bad(format!("norm: axis {axis} out of range for rank {r}")));
        }
        d.set(ax as usize, 1)?;
        set(outs, 1, Meta::new(x.dtype, d));
    }
    Ok(())
}
