//! `SparseAttentionInferMeta` (Paddle's `multiary.cc`): attention over a
//! CSR sparsity pattern.
//!
//! Paddle's CPU build has no kernel for the op, so its builder refuses it
//! before inferring: this follows Paddle's source, not its output.

use crate::args::Args;
use crate::meta::{with_lod, DDim, Meta, Out};
use crate::unary::set;
use crate::Bad;

/// `SparseAttentionInferMeta` (q, k, v, offset, columns, key_padding_mask,
/// attn_mask): `out` `[B, H, M, N]` of q (its data type and LoD);
/// `sparse_dot_sdd` and `softmax` `[B, H, nnz]` (nnz the columns' last
/// extent) with no data type set (the builder's fresh tensors are
/// float32).
pub(crate) fn sparse_attention(a: &Args<'_>, outs: &mut [Out]) -> Result<(), Bad> {
    let q = a.tensor(0)?;
    let k = a.tensor(1)?;
    let v = a.tensor(2)?;
    let columns = a.tensor(4)?;
    for (m, what) in [(&q, "query"), (&k, "key"), (&v, "value")] {
        if m.dims.rank() != 4 {
            return Err(Bad(format!("Dimension in {what}' shapes should be 4.")));
        }
    }
    let d = q.dims.as_slice();
    let nnz = columns.dims.at(2)?;
    set(outs, 0, with_lod(&q, q.dtype, q.dims));
    let sparse = DDim::new(&[d[0], d[1], nnz])?;
    set(
        outs,
        1,
        Meta::new(pir_dialects::pd_op::DataType::Float32, sparse),
    );
    set(
        outs,
        2,
        Meta::new(pir_dialects::pd_op::DataType::Float32, sparse),
    );
    Ok(())
}
