//! Matrix decompositions and set ops of `unary.cc`: `qr`, `svd`, `det`,
//! `slogdet`, `matrix_rank`, `trace`, `unique`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{dims_only, untouched, with_lod, Meta, Out};
use crate::unary::{dd, set, to_real};
use crate::Bad;

/// The dims of a matrix argument of rank 2 or more.
fn matrix<'m>(x: &'m Meta, what: &str) -> Result<&'m [i64], Bad> {
    let d = x.dims.as_slice();
    if d.len() < 2 {
        return Err(Bad(format!(
            "the rank of input of {what} must greater than 2"
        )));
    }
    Ok(d)
}

/// Paddle computes these extents as `int` (`std::min(m, n)`).
fn min_mn(m: i64, n: i64) -> i64 {
    m.min(n)
}

/// `QrInferMeta` (x, mode): `q` is `[0]` unless the mode computes it.
pub(crate) fn qr(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let mode = a.str(1)?;
    let d = matrix(&x, "qr")?;
    let r = d.len();
    let (compute_q, reduced) = match mode {
        "reduced" => (true, true),
        "complete" => (true, false),
        "r" => (false, true),
        _ => {
            return Err(Bad(format!(
                "QR received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', and 'complete'"
            )))
        }
    };
    let (m, n) = (d[r - 2], d[r - 1]);
    let k = if reduced { min_mn(m, n) } else { m };
    let q = if compute_q {
        let mut v = d.to_vec();
        v[r - 1] = k;
        v
    } else {
        vec![0]
    };
    let mut rv = d.to_vec();
    rv[r - 2] = k;
    rv[r - 1] = n;
    set(outs, 0, with_lod(&x, x.dtype, dd(&q)?));
    set(outs, 1, with_lod(&x, x.dtype, dd(&rv)?));
    Ok(())
}

/// `SvdInferMeta` (x, full_matrices): `u`, `s`, `vh`.
pub(crate) fn svd(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let full = a.bool(1)?;
    let d = matrix(&x, "svd")?;
    let r = d.len();
    let (m, n) = (d[r - 2], d[r - 1]);
    let k = min_mn(m, n);
    let mut u = d.to_vec();
    u[r - 1] = if full { m } else { k };
    let mut vh = d.to_vec();
    vh[r - 2] = if full { n } else { k };
    let mut s = d.to_vec();
    s[r - 2] = k;
    s.pop();
    set(outs, 0, with_lod(&x, x.dtype, dd(&u)?));
    set(outs, 1, with_lod(&x, x.dtype, dd(&s)?));
    set(outs, 2, with_lod(&x, x.dtype, dd(&vh)?));
    Ok(())
}

/// `SvdvalsInferMeta` (x): `[..., min(m, n)]`.
pub(crate) fn svdvals(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let d = matrix(&x, "svdvals")?;
    let r = d.len();
    let mut s = d[..r - 2].to_vec();
    s.push(d[r - 2].min(d[r - 1]));
    set(outs, 0, with_lod(&x, x.dtype, dd(&s)?));
    Ok(())
}

/// `DetInferMeta` (x): the batch dims; a 1-D x leaves the dims unset.
pub(crate) fn det(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    if x.dims.rank() == 1 {
        // Paddle 3.3.1 accepts a 1-D x and sets only the data type.
        set(outs, 0, Meta::unset_dims(x.dtype));
        return Ok(());
    }
    let d = matrix(&x, "det")?;
    let b = dd(&d[..d.len() - 2])?;
    set(outs, 0, Meta::laid_out(x.dtype, b, x.layout));
    Ok(())
}

/// `SlogdetV2InferMeta` (x): the sign (of `x`'s type) and the real log of
/// the absolute determinant, both of the batch dims.
pub(crate) fn slogdet_v2(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let d = matrix(&x, "slogdet")?;
    let b = dd(&d[..d.len() - 2])?;
    set(outs, 0, Meta::new(x.dtype, b));
    set(outs, 1, Meta::new(to_real(x.dtype), b));
    Ok(())
}

/// `MatrixRankInferMeta` (x, use_default_tol, hermitian): the batch dims;
/// the data type is never set (the fresh `IrTensor`'s float32).
pub(crate) fn matrix_rank(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let hermitian = a.bool(2)?;
    let d = matrix(&x, "matrix_rank")?;
    let r = d.len();
    if hermitian && x.dims.product() != 0 && d[r - 2] != d[r - 1] {
        return Err(Bad("if hermitian == true, matrix should be n*n".into()));
    }
    set(outs, 0, with_lod(&x, DataType::Float32, dd(&d[..r - 2])?));
    Ok(())
}

/// `TraceInferMeta` (x, offset, axis1, axis2): both axes removed.
pub(crate) fn trace(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (axis1, axis2) = (a.int(2)?, a.int(3)?);
    let r = x.dims.rank() as i64;
    if r < 2 {
        return Err(Bad(format!(
            "Input(x)'s dim is out of range (expected at least 2, but got {r})."
        )));
    }
    let d1 = if axis1 < 0 { r + axis1 } else { axis1 };
    let d2 = if axis2 < 0 { r + axis2 } else { axis2 };
    if !(0..r).contains(&d1) || !(0..r).contains(&d2) {
        return Err(Bad(format!(
            "axis1 or axis2 is out of range (expected to be in range of [{}, {}], but got {axis1}, {axis2}).",
            -r,
            r - 1
        )));
    }
    if d1 == d2 {
        return Err(Bad(format!(
            "The dimensions should not be identical {axis1} vs {axis2}."
        )));
    }
    let mut v = x.dims.as_slice().to_vec();
    if r == 2 {
        v.clear();
    } else {
        v.remove(d1.max(d2) as usize);
        v.remove(d1.min(d2) as usize);
    }
    set(outs, 0, Meta::new(x.dtype, dd(&v)?));
    Ok(())
}

/// The normalized first axis of a `unique` op's `axis` list.
fn unique_axis(x: &Meta, axis: &[i64]) -> Result<Option<usize>, Bad> {
    let r = x.dims.rank() as i64;
    let Some(&first) = axis.first() else {
        return Ok(None);
    };
    if r == 0 {
        return Err(Bad(format!(
            "The Input(X) with 0-D Tensor, axis must be NoneBut now the axis is {first}."
        )));
    }
    let v = if first < 0 { first + r } else { first };
    if v >= r || v < 0 {
        return Err(Bad(format!(
            "The axis({v}) should be less than the dimension size({r}) of x."
        )));
    }
    Ok(Some(v as usize))
}

/// `UniqueRawInferMeta` (x, return_index, return_inverse, return_counts,
/// axis, dtype, is_sorted). Paddle never sets the data type of `out`, nor of
/// the inverse when no axis is given: those stay float32.
pub(crate) fn unique(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (ret_index, ret_inverse, ret_counts) = (a.bool(1)?, a.bool(2)?, a.bool(3)?);
    let axis = a.ints(4)?;
    let dtype = a.dtype(5)?;
    let sorted = a.bool(6)?;
    if !sorted {
        if x.dims.rank() > 1 {
            return Err(Bad(format!(
                "The Input(X) should be 0-D or 1-D Tensor, But now the dims of Input(X) is {}.",
                x.dims.rank()
            )));
        }
        set(outs, 0, dims_only(dd(&[-1])?));
        set(outs, 2, dims_only(x.dims));
        return Ok(());
    }
    match unique_axis(&x, &axis)? {
        None => {
            set(outs, 0, dims_only(dd(&[-1])?));
            if ret_inverse {
                set(outs, 2, dims_only(dd(&[x.dims.product()])?));
            }
        }
        Some(ax) => {
            let mut d = x.dims;
            d.set(ax, -1)?;
            set(outs, 0, dims_only(d));
            if ret_inverse {
                set(outs, 2, Meta::new(dtype, dd(&[x.dims.at(ax)?])?));
            }
        }
    }
    if ret_index {
        set(outs, 1, Meta::new(dtype, dd(&[-1])?));
    }
    if ret_counts {
        set(outs, 3, Meta::new(dtype, dd(&[-1])?));
    }
    Ok(())
}

/// `UniqueConsecutiveInferMeta` (x, return_inverse, return_counts, axis,
/// dtype): the index and counts get dims only (float32).
pub(crate) fn unique_consecutive(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (ret_inverse, ret_counts) = (a.bool(1)?, a.bool(2)?);
    let axis = a.ints(3)?;
    match unique_axis(&x, &axis)? {
        None => {
            set(outs, 0, Meta::new(x.dtype, dd(&[-1])?));
            if ret_inverse {
                set(outs, 1, dims_only(dd(&[x.dims.product()])?));
            }
        }
        Some(ax) => {
            let mut d = x.dims;
            d.set(ax, -1)?;
            set(outs, 0, Meta::new(x.dtype, d));
            if ret_inverse {
                set(outs, 1, dims_only(dd(&[x.dims.at(ax)?])?));
            }
        }
    }
    if ret_counts {
        set(outs, 2, dims_only(dd(&[-1])?));
    }
    Ok(())
}

/// `LUUnpackInferMeta` (x, pivots, unpack_ludata, unpack_pivots): `pmat`,
/// `l`, `u`; outputs not asked for are left alone.
pub(crate) fn lu_unpack(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let (unpack_ludata, unpack_pivots) = (a.bool(2)?, a.bool(3)?);
    let d = x.dims.as_slice();
    let r = d.len();
    if r < 2 {
        return Err(Bad("The rank of input must greater than 2.".into()));
    }
    // `x` is `[..., m, n]`: L is `[..., m, k]`, U is `[..., k, n]` and the
    // permutation `[..., m, m]`, with `k = min(m, n)`.
    let (m, n) = (d[r - 2], d[r - 1]);
    let k = m.min(n);
    if unpack_ludata {
        let (mut l, mut u) = (d.to_vec(), d.to_vec());
        l[r - 1] = k;
        u[r - 2] = k;
        set(outs, 1, Meta::new(x.dtype, dd(&l)?));
        set(outs, 2, Meta::new(x.dtype, dd(&u)?));
    } else {
        set(outs, 1, untouched());
        set(outs, 2, untouched());
    }
    if unpack_pivots {
        let mut p = d.to_vec();
        p[r - 1] = m;
        set(outs, 0, Meta::new(x.dtype, dd(&p)?));
    } else {
        set(outs, 0, untouched());
    }
    Ok(())
}
