//! InferMeta function names to implementations, and the ops Paddle infers
//! by hand.

use crate::{backward, binary, builtin, control_flow, multiary, nullary, ternary, unary};
use crate::{InferFn, OpFn};

/// The implementation of the InferMeta function `name`.
pub(crate) fn function(name: &str) -> Option<InferFn> {
    Some(match name {
        "UnchangedInferMeta"
        | "UnchangedInferMetaIncludingTensorDist"
        | "IncrementInferMeta"
        | "SetValueInferMeta"
        | "FlipInferMeta"
        | "ReverseInferMeta"
        | "RollInferMeta"
        | "ClipByNormInferMeta"
        | "CholeskyInferMeta"
        | "TrilInferMeta"
        | "TriuInferMeta"
        | "PReluInferMeta"
        | "ScatterInferMeta"
        | "ScatterNdAddInferMeta"
        | "FillDiagonalInferMeta"
        | "FillDiagonalTensorInferMeta"
        | "IndexAddInferMeta"
        | "ShuffleChannelInferMeta" => unary::unchanged,
        "LrnInferMeta" => unary::lrn,
        "UnchangedInferMetaCheckAxis" => unary::unchanged_check_axis,
        "CastInferMeta" => unary::cast,
        "CreateLikeInferMeta" => unary::create_like,
        "RealAndImagInferMeta" => unary::real_and_imag,
        "IsfiniteInferMeta" => unary::bool_like,
        "LogicalNotInferMeta" => unary::logical_not,
        "ReduceInferMeta" => unary::reduce,
        "ReduceIntArrayAxisInferMeta" => unary::reduce_int_array_axis,
        "StrictReduceIntArrayAxisInferMeta" => unary::strict_reduce_int_array_axis,
        "ReduceIntArrayAxisInferMetaBase" => unary::reduce_int_array_axis_base,
        "SumInferMeta" => unary::sum,
        "MeanAllInferMeta" => unary::mean_all,
        "ArgMinMaxInferMeta" => unary::arg_min_max,
        "ArgsortInferMeta" => unary::argsort,
        "TransposeInferMeta" => unary::transpose,
        "ReshapeInferMeta" => unary::reshape,
        "FlattenInferMeta" => unary::flatten,
        "SqueezeInferMeta" => unary::squeeze,
        "UnsqueezeInferMeta" => unary::unsqueeze,
        "SoftmaxInferMeta" => unary::softmax,
        "ShapeInferMeta" => unary::shape,
        "Shape64InferMeta" => unary::shape64,
        "NumelInferMeta" => unary::numel,
        "SplitInferMeta" => unary::split,
        "SplitWithNumInferMeta" => unary::split_with_num,
        "UnbindInferMeta" => unary::unbind,
        "TileInferMeta" => unary::tile,
        "CumScalarAxisInferMeta" | "CumInferMeta" => unary::cum,
        "TopKInferMeta" => unary::topk,
        "SliceRawInferMeta" => unary::slice,
        "ExpandInferMeta" => unary::expand,
        "ElementwiseInferMeta" => binary::elementwise,
        "CompareInferMeta" => binary::compare,
        "LogicalBinaryInferMeta" => binary::logical_binary,
        "CompareAllInferMeta" | "AllValueCompareInferMeta" => binary::compare_all,
        "MatmulInferMeta" => binary::matmul,
        "ConvInferMeta" => binary::conv,
        "DepthwiseConvInferMeta" | "Conv3DInferMeta" => binary::conv_groups_first,
        "ConvTransposeInferMeta" => binary::conv_transpose,
        "Conv2dTransposeInferMeta" => binary::conv2d_transpose,
        "EmbeddingInferMeta" => binary::embedding,
        "GatherInferMeta" => binary::gather,
        "GatherNdInferMeta" => binary::gather_nd,
        "IndexSelectInferMeta" => binary::index_select,
        "ExpandAsInferMeta" => binary::expand_as,
        "BmmInferMeta" => binary::bmm,
        "DotInferMeta" => binary::dot,
        "Atan2InferMeta" => binary::broadcast_like_x,
        "GeneralBinaryGradInferMeta" => binary::general_binary_grad,
        "LayerNormInferMeta" => ternary::layer_norm,
        "WhereInferMeta" => ternary::where_,
        "LerpInferMeta" => ternary::lerp,
        "AddmmInferMeta" => ternary::addmm,
        "ConcatInferMeta" => multiary::concat,
        "StackInferMeta" => multiary::stack,
        "AddNInferMeta" => multiary::add_n,
        "BatchNormInferMeta" => multiary::batch_norm,
        "InterpolateInferMeta" => multiary::interpolate,
        "MeshgridInferMeta" => multiary::meshgrid,
        "BroadcastTensorsInferMeta" => multiary::broadcast_tensors,
        "CreateInferMeta" => nullary::create,
        "CreateVecShapeInferMeta" => nullary::create_vec_shape,
        "DataInferMeta" => nullary::data,
        "GaussianInferMeta" | "UniformRandomInferMeta" => nullary::shape_last_dtype,
        "AssignValueInferMeta" => nullary::assign_value,
        "EyeInferMeta" => nullary::eye,
        "ArangeInferMeta" => nullary::arange,
        "RandintInferMeta" => nullary::randint,
        "RandpermInferMeta" => nullary::randperm,
        "CreateArrayInferMeta" => control_flow::create_array,
        "ArrayWriteInferMeta" => control_flow::array_write,
        "ArrayReadInferMeta" => control_flow::array_read,
        "ArrayLengthInferMeta" => control_flow::array_length,
        "ArrayToTensorInferMeta" => control_flow::array_to_tensor,
        "MeanGradInferMeta" => backward::grad_like_first,
        "Pool2DInferMeta" => unary::pool2d,
        "PoolInferMeta" => unary::pool,
        "MaxPoolWithIndexInferMeta" => unary::max_pool_with_index,
        "PNormInferMeta" => unary::p_norm,
        "Pad3dInferMeta" => unary::pad3d,
        "StridedSliceInferMeta" => unary::strided_slice,
        "SequencePoolInferMeta" => unary::sequence_pool,
        "OneHotInferMeta" => unary::one_hot,
        "LogsumexpInferMeta" => unary::logsumexp,
        "UnStackInferMeta" => unary::unstack,
        "KthvalueInferMeta" => unary::kthvalue,
        "DropoutInferMeta" => binary::dropout,
        "CrossEntropyWithSoftmaxInferMeta" => binary::cross_entropy_with_softmax,
        "GroupNormInferMeta" => ternary::group_norm,
        "FullWithTensorInferMeta" => nullary::full_with_tensor,
        "RnnInferMeta" => multiary::rnn,
        "AdamInferMeta" => multiary::adam,
        _ => return None,
    })
}

/// Ops with an InferMeta function whose Paddle op infers by hand instead.
pub(crate) fn op_override(_op: &str) -> Option<OpFn> {
    None
}

/// Ops without an InferMeta function that Paddle types by hand.
pub(crate) static MANUAL_OPS: &[(&str, OpFn)] = &[
    ("builtin.combine", builtin::combine),
    ("builtin.set_parameter", builtin::no_results),
    ("builtin.shadow_output", builtin::no_results),
    ("builtin.split", builtin::split),
    ("builtin.slice", builtin::slice),
    ("cf.yield", builtin::no_results),
    ("pd_op.if", control_flow::if_op),
    ("pd_op.while", control_flow::while_op),
    ("pd_op.select_input", control_flow::select_input),
];

/// How many distinct InferMeta functions the table names that are implemented.
pub(crate) fn implemented_functions() -> usize {
    let mut names: Vec<&str> = crate::table::INFER_META.iter().map(|e| e.1).collect();
    names.sort_unstable();
    names.dedup();
    names.into_iter().filter(|n| function(n).is_some()).count()
}

#[cfg(test)]
mod tests {
    #[test]
    fn coverage_counts_ops_of_the_definitions() {
        let c = crate::coverage();
        eprintln!(
            "ops with inference: {}/{}; functions {}/{}; ops typed by hand or declared: {}",
            c.ops_inferred, c.ops_with_function, c.functions_implemented, c.functions, c.ops_manual
        );
        assert_eq!(c.ops_with_function, 1548);
        assert_eq!(c.functions, 634);
        assert!(c.ops_inferred <= c.ops_with_function);
        assert!(c.functions_implemented >= 107);
    }
}
