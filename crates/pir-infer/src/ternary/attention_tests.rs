//! Flash attention cases from Paddle's source (`ternary.cc`): Paddle's CPU
//! build refuses these ops before inferring, so there is no print of its to
//! compare with.

use crate::testing::types;
use crate::testing::{program, refusal};

fn f16(dims: &'static [i64]) -> Option<(&'static str, &'static str, &'static [i64])> {
    Some(("float16", "f16", dims))
}

const ATTRS: &str = "causal:false,dropout:0,is_test:true,return_softmax:false,rng_name:\"\"";

/// 4-D q: v's head size; sequence lengths rounded up to 128 (an unknown one
/// to 0, as Paddle's `int` arithmetic does).
#[test]
fn flash_attn_padded() {
    let t = program(
        "pd_op.flash_attn",
        &[
            f16(&[2, 100, 8, 64]),
            f16(&[2, 300, 8, 64]),
            f16(&[2, 300, 8, 32]),
            None,
            None,
        ],
        ATTRS,
        4,
    );
    assert_eq!(
        types(&t),
        [
            "tensor<2x100x8x32xf16>",
            "tensor<2x8x128x384xf16>",
            "tensor<2x8x128xf16>",
            "tensor<2xi64>"
        ]
    );
    let t = program(
        "pd_op.flash_attn",
        &[
            f16(&[-1, -1, 8, 64]),
            f16(&[-1, -1, 8, 64]),
            f16(&[-1, -1, 8, 64]),
            None,
            None,
        ],
        ATTRS,
        4,
    );
    assert_eq!(
        types(&t),
        [
            "tensor<-1x-1x8x64xf16>",
            "tensor<-1x8x0x0xf16>",
            "tensor<-1x8x0xf16>",
            "tensor<2xi64>"
        ]
    );
}

/// 3-D (unpadded) q `[T, H, D]`: `[H, T', T']` and `[H, T']`.
#[test]
fn flash_attn_unpadded_rank() {
    let t = program(
        "pd_op.flash_attn",
        &[
            f16(&[200, 4, 64]),
            f16(&[200, 4, 64]),
            f16(&[200, 4, 64]),
            None,
            None,
        ],
        ATTRS,
        4,
    );
    assert_eq!(
        types(&t),
        [
            "tensor<200x4x64xf16>",
            "tensor<4x256x256xf16>",
            "tensor<4x256xf16>",
            "tensor<2xi64>"
        ]
    );
}

/// Packed qkv: the head count is `(H/Hk + 2 - 2) * Hk`; the other results
/// get only data types.
#[test]
fn flash_attn_qkvpacked() {
    let t = program(
        "pd_op.flash_attn_qkvpacked",
        &[f16(&[2, 16, 6, 2, 64]), None, None],
        ATTRS,
        4,
    );
    assert_eq!(
        types(&t),
        [
            "tensor<2x16x8x64xf16>",
            "tensor<f16>",
            "tensor<f16>",
            "tensor<i64>"
        ]
    );
    let t = program(
        "pd_op.flash_attn_qkvpacked",
        &[f16(&[40, 3, 4, 64]), None, None],
        ATTRS,
        4,
    );
    assert_eq!(types(&t)[0], "tensor<40x4x64xf16>");
    let e = refusal(&program(
        "pd_op.flash_attn_qkvpacked",
        &[f16(&[40, 64]), None, None],
        ATTRS,
        4,
    ));
    assert!(
        e.contains("qkv dims must be 4(unpadded) or 5(padded batch)"),
        "{e}"
    );
}

/// `[B, H, 1, Sk]` float32; the log-sum-exp must match q's rounded length.
#[test]
fn calc_reduced_attn_scores() {
    let t = program(
        "pd_op.calc_reduced_attn_scores",
        &[
            f16(&[2, 100, 8, 64]),
            f16(&[2, 300, 8, 64]),
            Some(("float32", "f32", &[2, 8, 128])),
        ],
        "",
        1,
    );
    assert_eq!(types(&t), ["tensor<2x8x1x300xf32>"]);
    let e = refusal(&program(
        "pd_op.calc_reduced_attn_scores",
        &[
            f16(&[2, 100, 8, 64]),
            f16(&[2, 300, 8, 64]),
            Some(("float32", "f32", &[2, 8, 100])),
        ],
        "",
        1,
    ));
    assert!(
        e.contains("q and softmax_lse with corresponding seq_len!"),
        "{e}"
    );
}

/// `FlashAttnV3InferMeta`: `[B, Sq, H, Dv]` (bfloat16 for float8 q) and a
/// float32 `[B, H, Sq]` log-sum-exp.
#[test]
fn flash_attn_v3() {
    let t = program(
        "pd_op.flash_attn_v3",
        &[
            f16(&[2, 100, 8, 64]),
            f16(&[2, 300, 8, 64]),
            f16(&[2, 300, 8, 32]),
            None,
            None,
            None,
            None,
        ],
        "",
        2,
    );
    assert_eq!(types(&t), ["tensor<2x100x8x32xf16>", "tensor<2x8x100xf32>"]);
}
