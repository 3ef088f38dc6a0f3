//! Mixture-of-experts routing cases from Paddle's source (`unary.cc`):
//! Paddle's CPU build refuses these ops before inferring.

use crate::testing::types;
use crate::testing::{program, refusal};

/// `IntBincountInferMeta`: `[high - low]` of x's type.
#[test]
fn int_bincount() {
    let t = program(
        "pd_op.int_bincount",
        &[Some(("int64", "i64", &[-1]))],
        "dtype:3,high:8,low:0",
        1,
    );
    assert_eq!(types(&t), ["tensor<8xi64>"]);
    let e = refusal(&program(
        "pd_op.int_bincount",
        &[Some(("int64", "i64", &[-1]))],
        "dtype:3,high:2,low:2",
        1,
    ));
    assert!(e.contains("Attr high (2) must be > low (2)."), "{e}");
}

/// `BuildSrcRankAndLocalExpertIdInferMeta`: `[sum of counts]` int32.
#[test]
fn build_src_rank_and_local_expert_id() {
    let t = program(
        "pd_op.build_src_rank_and_local_expert_id",
        &[Some(("int64", "i64", &[4]))],
        "expert_num_global:[3,2,1,4],num_local_experts:2",
        2,
    );
    assert_eq!(types(&t), ["tensor<10xi32>", "tensor<10xi32>"]);
    let e = refusal(&program(
        "pd_op.build_src_rank_and_local_expert_id",
        &[Some(("int32", "i32", &[4]))],
        "expert_num_global:[3,2,1,4],num_local_experts:2",
        2,
    ));
    assert!(e.contains("should be INT64"), "{e}");
}

/// `ExpandModalityExpertIdInferMeta`: the ids' dims and type.
#[test]
fn expand_modality_expert_id() {
    let attrs = "group_size:8,is_group_expert:false,modality_offset:0,num_expert_per_modality:4";
    let t = program(
        "pd_op.expand_modality_expert_id",
        &[Some(("int64", "i64", &[-1, 2]))],
        attrs,
        1,
    );
    assert_eq!(types(&t), ["tensor<-1x2xi64>"]);
    let e = refusal(&program(
        "pd_op.expand_modality_expert_id",
        &[Some(("float32", "f32", &[6, 2]))],
        attrs,
        1,
    ));
    assert!(
        e.contains("The dtype of expert_id should be INT32 or INT64."),
        "{e}"
    );
}

/// `BarrierInferMeta` sets nothing: the builder's fresh tensor.
#[test]
fn barrier() {
    let t = program(
        "pd_op.barrier",
        &[Some(("int32", "i32", &[1]))],
        "ring_id:0",
        1,
    );
    assert_eq!(types(&t), ["tensor<f32>"]);
}
