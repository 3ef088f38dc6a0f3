//! More InferMeta functions of `unary.cc`: `PNormInferMeta`,
//! `Pad3dInferMeta`, `StridedSliceInferMeta`, `SequencePoolInferMeta`.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{norm_axis, with_lod, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

/// `PNormInferMeta` (x, porder, axis, epsilon, keepdim, asvector).
pub(crate) fn p_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let mut axis = a.int(2)?;
    let (keepdim, asvector) = (a.bool(4)?, a.bool(5)?);
    let xd = x.dims.as_slice();
    let r = xd.len() as i64;
    if r > 0 && (axis >= r || axis < -r) {
        return Err(Bad(format!("axis {axis} out of range for rank {r}")));
    }
    let mut out = Vec::with_capacity(xd.len());
    if asvector {
        if keepdim {
            out.resize(xd.len(), 1);
        }
    } else {
        if axis < 0 {
            axis += r;
        }
        for (i, &d) in xd.iter().enumerate() {
            if i as i64 != axis {
                out.push(d);
            } else if keepdim {
                out.push(1);
            }
        }
    }
    set(outs, 0, Meta::new(x.dtype, dd(&out)?));
    Ok(())
}

/// `Pad3dInferMeta` (x, paddings, mode, pad_value, data_format), built with
/// `is_runtime = false`: paddings `[left, right, top, bottom, front, back]`.
pub(crate) fn pad3d(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let pads = a.int_array(1)?;
    let format = a.str(4)?;
    let xd = x.dims.as_slice();
    if xd.len() != 5 {
        return Err(Bad(format!(
            "pad3d input must be 5-D, got rank {}",
            xd.len()
        )));
    }
    let mut out = vec![xd[0], -1, -1, -1, -1];
    let ncdhw = format == "NCDHW";
    if pads.from_tensor {
        if ncdhw {
            out[1] = xd[1];
        } else {
            out[4] = xd[4];
        }
    } else {
        let p = &pads.values;
        if p.len() != 6 {
            return Err(Bad(format!("pad3d needs 6 paddings, got {}", p.len())));
        }
        let grow = |d: i64, lo: i64, hi: i64| if d < 0 { d } else { d + lo + hi };
        if ncdhw {
            out[1] = xd[1];
            out[2] = grow(xd[2], p[4], p[5]);
            out[3] = grow(xd[3], p[2], p[3]);
            out[4] = grow(xd[4], p[0], p[1]);
        } else {
            out[4] = xd[4];
            out[1] = grow(xd[1], p[4], p[5]);
            out[2] = grow(xd[2], p[2], p[3]);
            out[3] = grow(xd[3], p[0], p[1]);
        }
    }
    set(outs, 0, with_lod(&x, x.dtype, dd(&out)?));
    Ok(())
}

/// `funcs::StridedSliceOutDims` with `infer_shape` and all infer flags 1.
fn strided_slice_dims(
    starts: &[i64],
    ends: &[i64],
    strides: &[i64],
    axes: &[i64],
    in_dims: &[i64],
    out: &mut [i64],
) -> Result<(), Bad> {
    for (i, &ax) in axes.iter().enumerate() {
        let ax = norm_axis(ax, in_dims.len())?;
        let get = |v: &[i64], what: &str| {
            v.get(i)
                .copied()
                .ok_or_else(|| Bad(format!("too few {what} for {} axes", axes.len())))
        };
        let (mut start, mut end, stride) = (
            get(starts, "starts")?,
            get(ends, "ends")?,
            get(strides, "strides")?,
        );
        if stride == 0 {
            return Err(Bad("stride index in StridedSlice operator is 0".into()));
        }
        let size = in_dims[ax];
        if size < 0 {
            continue;
        }
        if start < 0 {
            start = (start + size).max(0);
        }
        if end < 0 && !(end == -1 && stride < 0) {
            end = (end + size).max(0);
        }
        if stride < 0 {
            start += 1;
            end += 1;
        }
        if (stride < 0 && start < end) || (stride > 0 && start > end) {
            return Err(Bad(
                "The start index and end index are invalid for their corresponding stride".into(),
            ));
        }
        let left = start.min(end).max(0);
        let right = size.min(start.max(end));
        let step = stride.abs();
        out[ax] = ((right - left).abs() + step - 1) / step;
    }
    Ok(())
}

/// `StridedSliceInferMeta` (x, axes, starts, ends, strides): the raw
/// function with all infer flags 1 and no decreased axes, built with
/// `is_runtime = false` (any of the arrays from a tensor: all dims unknown).
pub(crate) fn strided_slice(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axes = a.ints(1)?;
    let (starts, ends, strides) = (a.int_array(2)?, a.int_array(3)?, a.int_array(4)?);
    let xd = x.dims.as_slice();
    if xd.len() >= 7 {
        return Err(Bad(format!(
            "strided_slice input rank {} is not < 7",
            xd.len()
        )));
    }
    let mut out = vec![-1; xd.len()];
    if !(starts.from_tensor || ends.from_tensor || strides.from_tensor) {
        for (what, v) in [("starts", &starts), ("ends", &ends), ("strides", &strides)] {
            if v.values.len() != axes.len() {
                return Err(Bad(format!(
                    "{} {what} for {} axes",
                    v.values.len(),
                    axes.len()
                )));
            }
        }
        out.copy_from_slice(xd);
        strided_slice_dims(
            &starts.values,
            &ends.values,
            &strides.values,
            &axes,
            xd,
            &mut out,
        )?;
    }
    set(outs, 0, with_lod(&x, x.dtype, dd(&out)?));
    Ok(())
}

/// `SequencePoolInferMeta` (x, is_test, pooltype, pad_value): `out` has
/// x's dims; `max_index` (pooltype `MAX`) too; neither gets a dtype.
pub(crate) fn sequence_pool(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let pooltype = a.str(2)?;
    // Paddle sets dims only: both results keep the fresh tensor's float32.
    set(outs, 0, Meta::new(DataType::Float32, x.dims));
    if pooltype == "MAX" {
        set(outs, 1, Meta::new(DataType::Float32, x.dims));
    }
    Ok(())
}

/// `OneHotInferMeta` (x, num_classes): x's dims plus the class count
/// (unknown when it comes from a tensor), float32, x's LoD.
pub(crate) fn one_hot(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let depth = a.scalar(1)?;
    let mut d = x.dims;
    d.push(if depth.from_tensor {
        -1
    } else {
        depth.value as i64
    })?;
    set(outs, 0, with_lod(&x, DataType::Float32, d));
    Ok(())
}

/// `LogsumexpInferMeta` (x, axis, keepdim, reduce_all): a reduction
/// (`ReduceInferMetaBase`), x's dtype and layout.
pub(crate) fn logsumexp(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let axis = a.ints(1)?;
    let (keep, all) = (a.bool(2)?, a.bool(3)?);
    let r = x.dims.rank() as i64;
    for &ax in &axis {
        if r > 0 && (ax >= r || ax < -r) {
            return Err(Bad(format!("axis {ax} out of range for rank {r}")));
        }
    }
    let dims = crate::unary::reduce_dim(&x.dims, &axis, keep, all)?;
    set(outs, 0, Meta::laid_out(x.dtype, dims, x.layout));
    Ok(())
}

/// `UnStackInferMeta` (x, axis, num): `num` tensors of x's dims without the axis.
pub(crate) fn unstack(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let r = x.dims.rank();
    let ax = norm_axis(a.int(1)?, r)?;
    let n = x.dims.at(ax)?;
    let num = a.int(2)?;
    if n >= 0 && num != n {
        return Err(Bad(format!("num {num} differs from the axis extent {n}")));
    }
    let mut d = x.dims;
    let kept: Vec<i64> = d
        .as_slice()
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != ax)
        .map(|(_, &v)| v)
        .collect();
    d = dd(&kept)?;
    let metas = (0..num.max(0)).map(|_| Meta::new(x.dtype, d)).collect();
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(metas);
    }
    Ok(())
}

/// `KthvalueInferMeta` (x, k, axis, keepdim): the axis becomes 1 (kept) or
/// goes; values in x's dtype, int64 indices.
pub(crate) fn kthvalue(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let k = a.int(1)?;
    let keep = a.bool(3)?;
    let r = x.dims.rank();
    let mut d: Vec<i64> = x.dims.as_slice().to_vec();
    if r > 0 {
        let ax = norm_axis(a.int(2)?, r)?;
        let n = d[ax];
        if k < 1 || (n > 0 && k > n) {
            return Err(Bad(format!("k {k} out of range for extent {n}")));
        }
        if keep {
            d[ax] = 1;
        } else {
            d.remove(ax);
        }
    }
    let dims = dd(&d)?;
    set(outs, 0, with_lod(&x, x.dtype, dims));
    set(outs, 1, with_lod(&x, DataType::Int64, dims));
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testing::{infer_last, types};

    fn data(shape: &str, ty: &str) -> String {
        format!(
            "(%0) = \"pd_op.data\" () {{dtype:float32,name:\"x\",place:Place(undefined:0),shape:{shape},stop_gradient:[false]}} : () -> {ty}"
        )
    }

    #[test]
    fn p_norm_axis_keepdim_asvector() {
        let x = data("[-1,3,4]", "tensor<-1x3x4xf32>");
        let op = |attrs: &str| {
            format!("{{\n{x}\n(%1) = \"pd_op.p_norm\" (%0) {{{attrs},porder:2,epsilon:1e-12,stop_gradient:[false]}} : (tensor<-1x3x4xf32>) -> tensor<f32>\n}}\n")
        };
        assert_eq!(
            types(&op("axis:-1,keepdim:false,asvector:false")),
            ["tensor<-1x3xf32>"]
        );
        assert_eq!(
            types(&op("axis:1,keepdim:true,asvector:false")),
            ["tensor<-1x1x4xf32>"]
        );
        assert_eq!(
            types(&op("axis:0,keepdim:false,asvector:true")),
            ["tensor<f32>"]
        );
        assert_eq!(
            types(&op("axis:0,keepdim:true,asvector:true")),
            ["tensor<1x1x1xf32>"]
        );
        assert!(infer_last(&op("axis:3,keepdim:false,asvector:false")).is_err());
    }

    #[test]
    fn pad3d_ncdhw_and_ndhwc() {
        let x = data("[2,3,-1,5,6]", "tensor<2x3x-1x5x6xf32>");
        let op = |fmt: &str| {
            format!("{{\n{x}\n(%1) = \"pd_op.full_int_array\" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1,1,2,2,3,3]}} : () -> tensor<6xi64>\n\
                     (%2) = \"pd_op.pad3d\" (%0, %1) {{mode:\"constant\",pad_value:0,data_format:\"{fmt}\",stop_gradient:[false]}} : (tensor<2x3x-1x5x6xf32>, tensor<6xi64>) -> tensor<f32>\n}}\n")
        };
        assert_eq!(types(&op("NCDHW")), ["tensor<2x3x-1x9x8xf32>"]);
        assert_eq!(types(&op("NDHWC")), ["tensor<2x9x-1x7x6xf32>"]);
    }

    #[test]
    fn strided_slice_steps() {
        let x = data("[10,-1,8]", "tensor<10x-1x8xf32>");
        let arr = |id: u32, v: &str| {
            format!("(%{id}) = \"pd_op.full_int_array\" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:{v}}} : () -> tensor<2xi64>")
        };
        let t = format!(
            "{{\n{x}\n{}\n{}\n{}\n(%4) = \"pd_op.strided_slice\" (%0, %1, %2, %3) {{axes:[0,2],stop_gradient:[false]}} : (tensor<10x-1x8xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>\n}}\n",
            arr(1, "[1,-1]"),
            arr(2, "[8,-9]"),
            arr(3, "[3,-2]")
        );
        assert_eq!(types(&t), ["tensor<3x-1x4xf32>"]);
    }

    #[test]
    fn one_hot_logsumexp_unstack_kthvalue() {
        let x = data("[-1,3,4]", "tensor<-1x3x4xf32>");
        let t = |op: &str| format!("{{\n{x}\n{op}\n}}\n");
        let t1 = t("(%1) = \"pd_op.full\" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:5} : () -> tensor<1xi32>\n(%2) = \"pd_op.one_hot\" (%0, %1) {stop_gradient:[false]} : (tensor<-1x3x4xf32>, tensor<1xi32>) -> tensor<f32>");
        assert_eq!(types(&t1), ["tensor<-1x3x4x5xf32>"]);
        let t2 = t("(%1) = \"pd_op.logsumexp\" (%0) {axis:[1],keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<-1x3x4xf32>) -> tensor<f32>");
        assert_eq!(types(&t2), ["tensor<-1x4xf32>"]);
        let t3 = t("(%1) = \"pd_op.unstack\" (%0) {axis:1,num:3,stop_gradient:[false]} : (tensor<-1x3x4xf32>) -> vec[tensor<-1x4xf32>,tensor<-1x4xf32>,tensor<-1x4xf32>]");
        assert_eq!(
            types(&t3),
            ["vec[tensor<-1x4xf32>,tensor<-1x4xf32>,tensor<-1x4xf32>]"]
        );
        let t4 = t("(%1, %2) = \"pd_op.kthvalue\" (%0) {k:2,axis:-1,keepdim:true,stop_gradient:[false,false]} : (tensor<-1x3x4xf32>) -> tensor<f32>, tensor<i64>");
        assert_eq!(types(&t4), ["tensor<-1x3x1xf32>", "tensor<-1x3x1xi64>"]);
        let t5 = t("(%1, %2) = \"pd_op.kthvalue\" (%0) {k:5,axis:-1,keepdim:true,stop_gradient:[false,false]} : (tensor<-1x3x4xf32>) -> tensor<f32>, tensor<i64>");
        assert!(infer_last(&t5).is_err());
    }
}
