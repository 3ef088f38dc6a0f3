//! `WeightOnlyLinearInferMeta` cases from Paddle's source (`multiary.cc`):
//! Paddle's CPU build refuses the op before inferring, so there is no print
//! of its to compare with.

use crate::testing::types;
use crate::testing::{program, refusal};

fn f16(dims: &'static [i64]) -> Option<(&'static str, &'static str, &'static [i64])> {
    Some(("float16", "f16", dims))
}

/// The last extent becomes the scale's per-channel (or per-group) size.
#[test]
fn weight_only_linear() {
    let i8w = |d: &'static [i64]| Some(("int8", "i8", d));
    let t = program(
        "pd_op.weight_only_linear",
        &[f16(&[2, -1, 64]), i8w(&[128, 64]), None, f16(&[128])],
        "arch:80,group_size:-1,weight_dtype:\"int8\"",
        1,
    );
    assert_eq!(types(&t), ["tensor<2x-1x128xf16>"]);
    let t = program(
        "pd_op.weight_only_linear",
        &[f16(&[4, 256]), i8w(&[96, 256]), f16(&[96]), f16(&[2, 96])],
        "arch:80,group_size:128,weight_dtype:\"int4\"",
        1,
    );
    assert_eq!(types(&t), ["tensor<4x96xf16>"]);
    let e = refusal(&program(
        "pd_op.weight_only_linear",
        &[f16(&[4, 64]), i8w(&[128, 48]), None, f16(&[128])],
        "arch:80,group_size:-1,weight_dtype:\"int8\"",
        1,
    ));
    assert!(
        e.contains("Input(X) dim[-1] and Input(Weight) dim[1] should be equal."),
        "{e}"
    );
    let e = refusal(&program(
        "pd_op.weight_only_linear",
        &[f16(&[4, 64]), i8w(&[128, 64]), None, f16(&[128])],
        "arch:80,group_size:32,weight_dtype:\"int8\"",
        1,
    ));
    assert!(e.contains("group_size must be -1, 64 or 128."), "{e}");
}
