//! `SparseAttentionInferMeta` cases from Paddle's source (`multiary.cc`):
//! Paddle's CPU build refuses the op before inferring.

use crate::testing::types;
use crate::testing::{program, refusal};

/// `out` like q; the sparse products `[B, H, nnz]` with no data type set.
#[test]
fn sparse_attention() {
    let f32 = |d: &'static [i64]| Some(("float32", "f32", d));
    let i32 = |d: &'static [i64]| Some(("int32", "i32", d));
    // The op with the query's dims `q` and the other operands' fixed.
    let with_query = |q: &'static [i64]| {
        program(
            "pd_op.sparse_attention",
            &[
                f32(q),
                f32(&[1, 2, 8, 4]),
                f32(&[1, 2, 8, 4]),
                i32(&[1, 2, 9]),
                i32(&[1, 2, 16]),
                None,
                None,
            ],
            "",
            3,
        )
    };
    assert_eq!(
        types(&with_query(&[1, 2, 8, 4])),
        [
            "tensor<1x2x8x4xf32>",
            "tensor<1x2x16xf32>",
            "tensor<1x2x16xf32>"
        ]
    );
    let e = refusal(&with_query(&[2, 8, 4]));
    assert!(e.contains("Dimension in query' shapes should be 4."), "{e}");
}
