//! `GlobalGatherInferMeta`, `GlobalScatterInferMeta` and
//! `FasterTokenizerInferMeta` cases from Paddle's source (`ternary.cc`):
//! Paddle 3.3.1 has no Python builder for these ops.

use crate::testing::types;
use crate::testing::{program, refusal};

/// `[-1, -1]` of x's type for a 2-D x.
#[test]
fn global_gather_and_scatter() {
    let i64t = |d: &'static [i64]| Some(("int64", "i64", d));
    for op in ["pd_op.global_gather", "pd_op.global_scatter"] {
        let t = program(
            op,
            &[Some(("float16", "f16", &[6, 8])), i64t(&[4]), i64t(&[4])],
            "ring_id:0",
            1,
        );
        assert_eq!(types(&t), ["tensor<-1x-1xf16>"]);
        let e = refusal(&program(
            op,
            &[Some(("float16", "f16", &[6])), i64t(&[4]), i64t(&[4])],
            "ring_id:0",
            1,
        ));
        assert!(
            e.contains(
                "The input tensor's dimension must be 2. But received input's dimension = 1."
            ),
            "{e}"
        );
    }
}

/// Token and segment ids `[-1, -1]` int64.
#[test]
fn faster_tokenizer() {
    let t = program(
        "pd_op.faster_tokenizer",
        &[
            Some(("int32", "i32", &[100])),
            Some(("int32", "i32", &[4])),
            None,
        ],
        "do_lower_case:false,is_split_into_words:false,max_seq_len:128,pad_to_max_seq_len:false",
        2,
    );
    assert_eq!(types(&t), ["tensor<-1x-1xi64>", "tensor<-1x-1xi64>"]);
}
