//! InferMeta functions of many tensors (Paddle's `infermeta/multiary.cc`).

use pir_dialects::pd_op::DataType;

use crate::args::{is_nchw_name, layout_of_str, Args};
use crate::binary::broadcast;
use crate::meta::{norm_axis, with_lod, DDim, Meta, Out};
use crate::unary::{dd, set};
use crate::Bad;

fn first(xs: &[Meta]) -> Result<&Meta, Bad> {
    xs.first().ok_or_else(|| Bad("empty tensor list".into()))
}

/// `ConcatInferMeta` (built with `is_runtime = false`).
pub(crate) fn concat(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let axis = a.scalar(1)?;
    let x0 = first(&xs)?;
    let dims = if axis.from_tensor {
        dd(&vec![-1; x0.dims.rank()])?
    } else {
        let ax = norm_axis(axis.value as i64, x0.dims.rank())?;
        let mut out = x0.dims;
        for x in &xs[1..] {
            for j in 0..out.rank() {
                let (o, d) = (out.at(j)?, x.dims.at(j)?);
                if j == ax {
                    out.set(j, if o == -1 || d == -1 { -1 } else { o + d })?;
                } else if o == -1 && d > 0 {
                    out.set(j, d)?;
                }
            }
        }
        out
    };
    set(outs, 0, x0.with_dims(dims));
    Ok(())
}

/// `StackInferMeta` (built with `is_runtime = false`).
pub(crate) fn stack(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let x0 = first(&xs)?;
    let r = x0.dims.rank() as i64;
    let mut axis = a.int(1)?;
    if axis < 0 {
        axis += r + 1;
    }
    let mut v: Vec<i64> = x0.dims.as_slice().to_vec();
    for x in &xs[1..] {
        for (j, o) in v.iter_mut().enumerate() {
            let d = x.dims.at(j)?;
            if *o == -1 && d > 0 {
                *o = d;
            }
        }
    }
    v.insert((axis.max(0) as usize).min(v.len()), xs.len() as i64);
    set(outs, 0, with_lod(x0, x0.dtype, dd(&v)?));
    Ok(())
}

/// `AddNInferMeta`.
pub(crate) fn add_n(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let x0 = first(&xs)?;
    let mut dims = dd(&[0])?;
    for x in &xs {
        if x.dims.product() == 0 {
            continue;
        }
        if dims.product() == 0 {
            dims = x.dims;
        }
    }
    set(outs, 0, with_lod(x0, x0.dtype, dims));
    Ok(())
}

/// `BatchNormInferMeta`: y like x; running and saved statistics `[C]`;
/// reserve space `[-1]` uint8.
pub(crate) fn batch_norm(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let format = a.str(8)?;
    let layout = layout_of_str(format).unwrap_or(pir_core::builtin::DataLayout::NCHW);
    let r = x.dims.rank();
    let c = if layout == pir_core::builtin::DataLayout::NCHW {
        x.dims.at(1)?
    } else {
        x.dims.at(r.saturating_sub(1))?
    };
    let param = match a.opt_tensor(1)? {
        Some(m) => m.dtype,
        None => x.dtype,
    };
    set(outs, 0, with_lod(&x, x.dtype, x.dims));
    for i in 1..5 {
        set(outs, i, Meta::new(param, dd(&[c])?));
    }
    set(outs, 5, Meta::new(DataType::UInt8, dd(&[-1])?));
    Ok(())
}

/// The methods `Interpolate{1,2,3}DInferShapeCheck` accept for `n_sp`
/// spatial dims, and the message of their refusal.
fn interp_method_ok(n_sp: usize, method: &str) -> Result<(), Bad> {
    let ok = match n_sp {
        1 => method == "linear",
        2 => matches!(method, "bilinear" | "nearest" | "bicubic"),
        _ => matches!(method, "nearest" | "trilinear"),
    };
    if ok {
        return Ok(());
    }
    Err(Bad(match n_sp {
        1 => format!(
            "Interpolation method can only be \"linear\" when Input(X) dimension is 3, but got method = {method} ."
        ),
        2 => format!(
            "Interpolation method can only be \"bilinear\" or \"nearest\" when Input(X) dimension is 4, but got method = {method}."
        ),
        _ => format!(
            "Interpolation method can only be \"trilinear\" or \"nearest\" when Input(X) dimension is 5, but got method = {method} ."
        ),
    }))
}

/// `InterpolateInferMeta` (x, out_size, size_tensor, scale_tensor,
/// data_format, out_d, out_h, out_w, scale, interp_method, align_corners,
/// align_mode), built with `is_runtime = false`: a `size_tensor` gives the
/// `out_*` attributes exactly as they are (even 0 or -1); else a
/// `scale_tensor` gives -1; else a non-empty `scale` gives
/// `(int64) ((float) dim * scale)` (-1 when not positive); else the `out_*`
/// attributes. `out_size` is read only at run time.
pub(crate) fn interpolate(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let r = x.dims.rank();
    if !(3..=5).contains(&r) {
        return Err(Bad(format!(
            "Input(X) dimension must be 3, 4 or 5, but got dimension = {r} ."
        )));
    }
    let n_sp = r - 2;
    interp_method_ok(n_sp, a.str(9)?)?;
    // Only "NCHW" puts channels first: Paddle reads even "NCDHW" as last.
    let nchw = is_nchw_name(a.str(4)?)?;
    // Paddle checks dims 2.. whatever the layout.
    for i in 2..r {
        let d = x.dims.at(i)?;
        if d == 0 {
            return Err(Bad(format!(
                "The shape of input(x) should be larger than 0, but received shape[{i}] is {d} "
            )));
        }
    }
    let attrs = [a.int(5)?, a.int(6)?, a.int(7)?];
    let given: Vec<i64> = attrs[3 - n_sp..].to_vec();
    let sp_start = if nchw { 2 } else { 1 };
    let size_tensors = if a.has(2) { a.tensors(2)?.len() } else { 0 };
    let sp: Vec<i64> = if size_tensors > 0 {
        if size_tensors != n_sp {
            return Err(Bad(format!(
                "Input(SizeTensor)'size of Op(interpolate) must be {n_sp}. Attr(out_shape)'s length must be {n_sp} for {r}-D input tensor, but got size = {size_tensors} ."
            )));
        }
        given
    } else if let Some(s) = a.opt_tensor(3)? {
        let sd = s.dims.as_slice();
        if sd.len() > 1 {
            return Err(Bad(format!(
                "Scale's dimension size must be 1 or 0, but got dimension = {} .",
                sd.len()
            )));
        }
        if let Some(&n) = sd.first() {
            if n != 1 && n != n_sp as i64 {
                return Err(Bad(format!(
                    "Scale's shape must be {n_sp} or 1, but got shape = {n} ."
                )));
            }
        }
        vec![-1; n_sp]
    } else {
        let scale = a.floats(8)?;
        if scale.is_empty() {
            given
        } else if scale.len() >= n_sp {
            // Paddle checks w, then h, then d.
            for (i, name) in ["w", "h", "d"].iter().enumerate().take(n_sp) {
                let s = scale[n_sp - 1 - i] as f32;
                if s <= 0.0 {
                    return Err(Bad(format!(
                        "The scale_{name} in Attr(scale) of Operator(interpolate) should be greater than 0, but received value is {s}."
                    )));
                }
            }
            let mut sp = Vec::with_capacity(n_sp);
            for (i, &s) in scale.iter().enumerate().take(n_sp) {
                let v = (x.dims.at(sp_start + i)? as f32 * s as f32) as i64;
                sp.push(if v > 0 { v } else { -1 });
            }
            sp
        } else {
            // Shorter than the spatial rank: Paddle reads past its end, so
            // there is no answer to copy; the attributes stand in.
            given
        }
    };
    let mut out = vec![x.dims.at(0)?];
    if nchw {
        out.push(x.dims.at(1)?);
        out.extend(sp);
    } else {
        out.extend(sp);
        out.push(x.dims.at(r - 1)?);
    }
    set(outs, 0, Meta::new(x.dtype, dd(&out)?));
    Ok(())
}

/// `MeshgridInferMeta`: every output has the lengths of all inputs.
pub(crate) fn meshgrid(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let mut d = DDim::default();
    for x in &xs {
        d.push(if x.dims.rank() == 0 { 1 } else { x.dims.at(0)? })?;
    }
    let metas = xs.iter().map(|x| Meta::new(x.dtype, d)).collect();
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(metas);
    }
    Ok(())
}

/// `BroadcastTensorsInferMeta`.
pub(crate) fn broadcast_tensors(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let xs = a.tensors(0)?;
    let mut d = first(&xs)?.dims;
    for x in &xs[1..] {
        d = broadcast(&d, &x.dims, -1)?;
    }
    let metas = xs.iter().map(|x| Meta::new(x.dtype, d)).collect();
    if let Some(o) = outs.get_mut(0) {
        *o = Out::List(metas);
    }
    Ok(())
}

/// `RnnInferMeta` (x, pre_state, weight_list, sequence_length,
/// dropout_prob, is_bidirec, input_size, hidden_size, num_layers, mode,
/// seed, is_test): `out` `[T, N, hidden (x2 bidirectional)]`, `state` one
/// per `pre_state`, like it in x's dtype; the dropout state and reserve
/// space are left to the kernel.
pub(crate) fn rnn(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let x = a.tensor(0)?;
    let pre = a.tensors(1)?;
    let bidirec = a.bool(5)?;
    let hidden = a.int(7)?;
    if x.dims.rank() != 3 {
        return Err(Bad(format!(
            "rnn input must be 3-D, got rank {}",
            x.dims.rank()
        )));
    }
    let mut d = x.dims;
    d.set(2, if bidirec { hidden * 2 } else { hidden })?;
    set(outs, 0, Meta::new(x.dtype, d));
    let states = pre.iter().map(|s| Meta::new(x.dtype, s.dims)).collect();
    if let Some(o) = outs.get_mut(2) {
        *o = Out::List(states);
    }
    Ok(())
}

/// `AdamInferMeta`: every output like its input (param, moment1, moment2,
/// moment2_max with `amsgrad`, beta1_pow, beta2_pow, master_param when given).
pub(crate) fn adam(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let param = a.tensor(0)?;
    let m1 = a.tensor(3)?;
    let m2 = a.tensor(4)?;
    let b1 = a.tensor(6)?;
    let b2 = a.tensor(7)?;
    let amsgrad = a.bool(17)?;
    set(outs, 0, Meta::new(param.dtype, param.dims));
    set(outs, 1, Meta::new(m1.dtype, param.dims));
    set(outs, 2, Meta::new(m2.dtype, param.dims));
    if amsgrad {
        if let Some(m) = a.opt_tensor(5)? {
            set(outs, 3, Meta::new(m.dtype, param.dims));
        }
    }
    set(outs, 4, Meta::new(b1.dtype, b1.dims));
    set(outs, 5, Meta::new(b2.dtype, b2.dims));
    if let Some(m) = a.opt_tensor(8)? {
        set(outs, 6, Meta::new(m.dtype, param.dims));
    }
    Ok(())
}

mod array;
mod attention;
mod detection;
mod einsum;
mod graph;
mod indexing;
mod loss;
mod norm;
mod quantized_linear;
mod recurrent;
mod rope;
mod sampling;
mod sequence_tagging;
pub(crate) mod training;
pub(crate) use array::add_n_array;
pub(crate) use attention::sparse_attention;
pub(crate) use detection::{deformable_conv, generate_proposals};
pub(crate) use einsum::einsum;
pub(crate) use graph::{
    graph_khop_sampler, graph_reindex, graph_sample_neighbors, weighted_sample_neighbors,
};
pub(crate) use indexing::index_put;
pub(crate) use loss::{hsigmoid_loss, sigmoid_cross_entropy_with_logits, warpctc, warprnnt};
pub(crate) use norm::fused_layer_norm;
pub(crate) use quantized_linear::weight_only_linear;
pub(crate) use recurrent::{cudnn_lstm, gru, gru_unit, lstm};
pub(crate) use rope::fused_rope;
pub(crate) use sampling::top_p_sampling;
pub(crate) use sequence_tagging::{chunk_eval, crf_decoding};
pub(crate) use training::{
    coalesce_tensor, distributed_fused_lamb_init, sparse_momentum, update_loss_scaling,
};
mod more;
pub(crate) use more::{
    auc, beam_search, bilinear, distribute_fpn_proposals, edit_distance, multi_dot, multiplex,
    psroi_pool, quantize_linear, send_ue_recv, send_uv, yolo_loss,
};

test_modules! {
    mod array_tests;
    mod attention_tests;
    pub(crate) mod detection_tests;
    mod einsum_tests;
    mod graph_tests;
    mod indexing_tests;
    mod interp_tests;
    mod loss_tests;
    mod more_tests;
    mod norm_tests;
    mod quantized_linear_tests;
    mod recurrent_tests;
    mod rope_tests;
    mod sampling_tests;
    mod sequence_tagging_tests;
    mod training_tests;
}
#[cfg(test)]
mod tests {
    use crate::testing::types;

    #[test]
    fn rnn_output_doubles_hidden_when_bidirectional() {
        let t = "{\n(%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[5,-1,8],stop_gradient:[false]} : () -> tensor<5x-1x8xf32>\n\
                 (%1) = \"pd_op.data\" () {dtype:float32,name:\"h\",place:Place(undefined:0),shape:[2,-1,16],stop_gradient:[false]} : () -> tensor<2x-1x16xf32>\n\
                 (%2) = \"builtin.combine\" (%1) {} : (tensor<2x-1x16xf32>) -> vec[tensor<2x-1x16xf32>]\n\
                 (%3) = \"builtin.combine\" () {} : () -> vec[]\n\
                 (%4, %5, %6, %7) = \"pd_op.rnn\" (%0, %2, %3, <<NULL VALUE>>) {dropout_prob:0,is_bidirec:true,input_size:8,hidden_size:16,num_layers:1,mode:\"GRU\",seed:0,is_test:true,stop_gradient:[false,false,false,false]} : (tensor<5x-1x8xf32>, vec[tensor<2x-1x16xf32>], vec[], <<NULL TYPE>>) -> tensor<5x-1x32xf32>, tensor<0xu8>, vec[tensor<2x-1x16xf32>], tensor<0xu8>\n}\n";
        assert_eq!(
            types(t),
            [
                "tensor<5x-1x32xf32>",
                "tensor<f32>",
                "vec[tensor<2x-1x16xf32>]",
                "tensor<f32>"
            ]
        );
    }
}
