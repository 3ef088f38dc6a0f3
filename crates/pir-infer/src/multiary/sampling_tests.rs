//! `TopPSamplingInferMeta` cases from Paddle's source: Paddle's CPU build
//! has no kernel for `top_p_sampling`, so its builder refuses the operands
//! before inferring.

use crate::testing::{program, refusal};

/// `[B, 1]` sample and ids; `[B, k]` top-k outputs only for `k > 0`.
#[test]
fn top_p_sampling() {
    let t = program(
        "pd_op.top_p_sampling",
        &[
            Some(("float16", "f16", &[-1, 100])),
            Some(("float16", "f16", &[-1, 1])),
            None,
            None,
        ],
        "k:5,mode:\"non-truncated\",seed:1",
        4,
    );
    assert_eq!(
        crate::testing::types(&t),
        [
            "tensor<-1x1xf16>",
            "tensor<-1x1xi64>",
            "tensor<-1x5xf16>",
            "tensor<-1x5xi64>"
        ]
    );
    let t = program(
        "pd_op.top_p_sampling",
        &[
            Some(("float32", "f32", &[4, 100])),
            Some(("float32", "f32", &[4, 1])),
            None,
            None,
        ],
        "k:0,mode:\"truncated\",seed:0",
        4,
    );
    let types = crate::testing::types(&t);
    assert_eq!(types[..2], ["tensor<4x1xf32>", "tensor<4x1xi64>"]);
    let e = refusal(&program(
        "pd_op.top_p_sampling",
        &[
            Some(("float32", "f32", &[4, 100])),
            Some(("float32", "f32", &[4, 1])),
            None,
            None,
        ],
        "k:0,mode:\"other\",seed:0",
        4,
    ));
    assert!(
        e.contains("mode must be 'truncated' or 'non-truncated'."),
        "{e}"
    );
}
