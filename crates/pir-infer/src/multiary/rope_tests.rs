//! `FusedRopeInferMeta` cases from Paddle's source (`multiary.cc`): Paddle's
//! CPU build refuses the op before inferring, so there is no print of its to
//! compare with.

use crate::testing::types;
use crate::testing::{program, refusal};

fn f16(dims: &'static [i64]) -> Option<(&'static str, &'static str, &'static [i64])> {
    Some(("float16", "f16", dims))
}

/// Each output like its input; a missing k or v gives an output with only
/// q's data type.
#[test]
fn fused_rope() {
    let attrs = "rotary_emb_base:10000,time_major:false,use_neox_rotary_style:true";
    let t = program(
        "pd_op.fused_rotary_position_embedding",
        &[
            f16(&[2, -1, 8, 64]),
            f16(&[2, -1, 2, 64]),
            None,
            None,
            None,
            None,
        ],
        attrs,
        3,
    );
    assert_eq!(
        types(&t),
        [
            "tensor<2x-1x8x64xf16>",
            "tensor<2x-1x2x64xf16>",
            "tensor<f16>"
        ]
    );
    let e = refusal(&program(
        "pd_op.fused_rotary_position_embedding",
        &[f16(&[2, 8, 64]), None, None, None, None, None],
        attrs,
        3,
    ));
    assert!(e.contains("Input should be a 4-D tensor"), "{e}");
}
