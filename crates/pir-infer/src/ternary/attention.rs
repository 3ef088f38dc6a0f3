//! Attention InferMeta functions of Paddle's `ternary.cc`:
//! `FlashAttnInferMeta` (ops `flash_attn`, `flash_attn_unpadded`,
//! `flashmask_attention`), `FlashAttnQKVPackedInferMeta` and
//! `CalcReducedAttnScoresInferMeta`.
//!
//! Paddle's CPU build has no kernel for these ops, so its builder refuses
//! them before inferring: they follow Paddle's source, not its output.

use pir_dialects::pd_op::DataType;

use crate::args::Args;
use crate::meta::{DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// Paddle's `round_multiple`: up to a multiple of 128, in `int` (so an
/// unknown `-1` extent rounds to 0).
fn round128(x: i64) -> i64 {
    let x = x as i32;
    i64::from(x.wrapping_add(127) / 128 * 128)
}

/// `FlashAttnInferMeta` (q, k, v): `out` like q (dims, data type, layout)
/// with v's head size for 4-D `[B, S, H, D]` q; `softmax`
/// `[B, H, Sq', Sk']` and `softmax_lse` `[B, H, Sq']` (sequence lengths
/// rounded up to 128) of q's data type, or for 3-D (unpadded) q
/// `[H, T', T']` and `[H, T']`; `seed_offset` `[2]` int64.
pub(crate) fn flash_attn(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let q = a.tensor(0)?;
    let k = a.tensor(1)?;
    let v = a.tensor(2)?;
    let d = q.dims.as_slice();
    let mut out = q.dims;
    let int = |x: i64| i64::from(x as i32);
    let (softmax, lse) = match d.len() {
        4 => {
            out.set(3, v.dims.at(3)?)?;
            let (b, h) = (int(d[0]), int(d[2]));
            let (sq, sk) = (round128(d[1]), round128(k.dims.at(1)?));
            (DDim::new(&[b, h, sq, sk])?, DDim::new(&[b, h, sq])?)
        }
        3 => {
            let (t, h) = (round128(d[0]), int(d[1]));
            (DDim::new(&[h, t, t])?, DDim::new(&[h, t])?)
        }
        // Other ranks: Paddle sets only the data types.
        _ => (DDim::default(), DDim::default()),
    };
    set(outs, 0, Meta::laid_out(q.dtype, out, q.layout));
    set(outs, 1, Meta::new(q.dtype, softmax));
    set(outs, 2, Meta::new(q.dtype, lse));
    set(outs, 3, Meta::new(DataType::Int64, DDim::new(&[2])?));
    Ok(())
}

/// `FlashAttnQKVPackedInferMeta` (qkv): qkv `[T, H/Hk + 2, Hk, D]`
/// (unpadded) gives `out` `[T, H, D]`, `[B, S, H/Hk + 2, Hk, D]` gives
/// `[B, S, H, D]`; qkv's data type and layout. `softmax`, `softmax_lse`
/// (qkv's type) and `seed_offset` (int64) get only a data type.
pub(crate) fn flash_attn_qkvpacked(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let qkv = a.tensor(0)?;
    let d = qkv.dims.as_slice();
    let out = match d.len() {
        4 => DDim::new(&[d[0], (d[1] - 2) * d[2], d[3]])?,
        5 => DDim::new(&[d[0], d[1], (d[2] - 2) * d[3], d[4]])?,
        _ => return Err(Bad("qkv dims must be 4(unpadded) or 5(padded batch)".into())),
    };
    set(outs, 0, Meta::laid_out(qkv.dtype, out, qkv.layout));
    set(outs, 1, Meta::unset_dims(qkv.dtype));
    set(outs, 2, Meta::unset_dims(qkv.dtype));
    set(outs, 3, Meta::unset_dims(DataType::Int64));
    Ok(())
}

/// `CalcReducedAttnScoresInferMeta` (q, k, softmax_lse): `[B, H, 1, Sk]`
/// float32, for 4-D q and k and the 3-D log-sum-exp of a flash attention
/// over them.
pub(crate) fn calc_reduced_attn_scores(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let q = a.tensor(0)?;
    let k = a.tensor(1)?;
    let lse = a.tensor(2)?;
    let what = "calc_reduced_attn_scores must receive input";
    if q.dims.rank() != 4 {
        return Err(Bad(format!(
            "{what} q with dim [batch_size, seq_len, num_heads, head_dim]"
        )));
    }
    if k.dims.rank() != 4 {
        return Err(Bad(format!(
            "{what} k with dim [batch_size, seq_len, num_heads, head_dim]"
        )));
    }
    if lse.dims.rank() != 3 {
        return Err(Bad(format!(
            "{what} softmax_lse with dim [batch_size, num_heads, seq_len_q]"
        )));
    }
    let (q, k, lse) = (q.dims.as_slice(), k.dims.as_slice(), lse.dims.as_slice());
    let checks = [
        (q[0] == k[0], "q and k with consistent batch_size!"),
        (
            q[0] == lse[0],
            "q and softmax_lse with consistent batch_size!",
        ),
        (
            round128(q[1]) == lse[2],
            "q and softmax_lse with corresponding seq_len!",
        ),
        (
            q[2] == lse[1],
            "q and softmax_lse with consistent num_heads!",
        ),
        (q[3] == k[3], "q and k with consistent head_dim!"),
    ];
    if let Some((_, msg)) = checks.iter().find(|(ok, _)| !ok) {
        return Err(Bad(format!("{what} {msg}")));
    }
    let int = |x: i64| i64::from(x as i32);
    set(
        outs,
        0,
        Meta::new(
            DataType::Float32,
            DDim::new(&[int(q[0]), int(q[2]), 1, int(k[1])])?,
        ),
    );
    Ok(())
}

/// `FlashAttnV3InferMeta` (q, k, v): `out` `[B, Sq, H, Dv]` (bfloat16 for
/// float8 q, else q's type) and `softmax_lse` `[B, H, Sq]` float32; B, Sq
/// and H read as `int`s.
pub(crate) fn flash_attn_v3(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let q = a.tensor(0)?;
    let v = a.tensor(2)?;
    let int = |x: i64| i64::from(x as i32);
    let r = q.dims.rank();
    let (b, s) = (int(q.dims.at(0)?), int(q.dims.at(1)?));
    let h = int(q.dims.at(r.wrapping_sub(2))?);
    let dv = int(v.dims.at(v.dims.rank().wrapping_sub(1))?);
    let dtype = if q.dtype == DataType::Float8E4M3FN {
        DataType::BFloat16
    } else {
        q.dtype
    };
    set(outs, 0, Meta::new(dtype, DDim::new(&[b, s, h, dv])?));
    set(
        outs,
        1,
        Meta::new(DataType::Float32, DDim::new(&[b, h, s])?),
    );
    Ok(())
}
