//! InferMeta function names to implementations, and the ops Paddle infers
//! by hand.

use crate::{backward, binary, builtin, control_flow, fusion, multiary, nullary, ternary, unary};
use crate::{InferFn, OpFn};

/// The implementation of the InferMeta function `name`: the forward
/// functions here, then those of gradient ops (`backward`) and fused ops
/// (`fusion`), each module naming its own.
pub(crate) fn function(name: &str) -> Option<InferFn> {
    forward(name)
        .or_else(|| backward::function(name))
        .or_else(|| fusion::function(name))
}

/// The forward InferMeta functions (Paddle's `unary`, `binary`, `ternary`,
/// `multiary` and `nullary` files).
fn forward(name: &str) -> Option<InferFn> {
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
        // Paddle's `SoftmaxInferMeta` checks the axis and shares the meta.
        "SoftmaxInferMeta" => unary::unchanged_check_axis,
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
        "CompareAllInferMeta" => binary::compare_all,
        "AllValueCompareInferMeta" => binary::all_value_compare,
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
        "Atan2InferMeta" => binary::atan2,
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
        "MvInferMeta" => binary::mv,
        "KronInferMeta" => binary::kron,
        "CrossInferMeta" => binary::cross,
        "DistInferMeta" => binary::dist,
        "KLDivInferMeta" => binary::kldiv,
        "LogLossInferMeta" => binary::log_loss,
        "IndexSampleInferMeta" => binary::index_sample,
        "MaskedSelectInferMeta" => binary::masked_select,
        "BinomialInferMeta" => binary::binomial,
        "BCELossInferMeta" => binary::bce_loss,
        "GridSampleBaseInferMeta" => binary::grid_sample,
        "SearchsortedInferMeta" => binary::searchsorted,
        "ValueCompareInferMeta" => binary::value_compare,
        "ComplexInferMeta" => binary::complex,
        "TriangularSolveInferMeta" => binary::triangular_solve,
        "CholeskySolveInferMeta" => binary::cholesky_solve,
        "SolveInferMeta" => binary::solve,
        "IndexSelectStridedInferMeta" => binary::index_select_strided,
        "MatmulWithFlattenInferMeta" => binary::matmul_with_flatten,
        "BitwiseShiftInferMeta" => binary::elementwise,
        "DirichletInferMeta" => unary::dirichlet,
        "AsRealInferMeta" => unary::as_real,
        "AsComplexInferMeta" => unary::as_complex,
        "CumWithIndicesInferMeta" => unary::cum_with_indices,
        "FakeQuantizeAbsMaxInferMeta" => unary::fake_quantize_abs_max,
        "FakeChannelWiseQuantizeAbsMaxInferMeta"
        | "FakeChannelWiseQuantizeDequantizeAbsMaxInferMeta" => unary::fake_channel_wise_quantize,
        "FFTC2CInferMeta" => unary::fft_c2c,
        "FFTC2RInferMeta" => unary::fft_c2r,
        "FFTR2CInferMeta" => unary::fft_r2c,
        "BipartiteMatchInferMeta" => unary::bipartite_match,
        "ClassCenterSampleInferMeta" => unary::class_center_sample,
        "AnchorGeneratorInferMeta" => unary::anchor_generator,
        "DiagInferMeta" => unary::diag,
        "DiagonalInferMeta" => unary::diagonal,
        "DiagEmbedInferMeta" => unary::diag_embed,
        "EigInferMeta" => unary::eig,
        "EighInferMeta" | "EigvalshInferMeta" => unary::eigh,
        "EigvalsInferMeta" => unary::eigvals,
        "InverseInferMeta" => unary::inverse,
        "MatrixPowerInferMeta" => unary::matrix_power,
        "LUInferMeta" => unary::lu,
        "NormInferMeta" => unary::norm,
        "CropInferMeta" => unary::crop,
        "FoldInferMeta" => unary::fold,
        "FrameInferMeta" => unary::frame,
        "OverlapAddInferMeta" => unary::overlap_add,
        "FullBatchSizeLikeInferMeta" => unary::full_batch_size_like,
        "IdentityLossInferMeta" => unary::identity_loss,
        "IsEmptyInferMeta" => unary::is_empty,
        "MaxOutInferMeta" => unary::maxout,
        "ModeInferMeta" => unary::mode,
        "MultinomialInferMeta" => unary::multinomial,
        "NanmedianInferMeta" => unary::nanmedian,
        "NMSInferMeta" => unary::nms,
        "NonZeroInferMeta" => unary::nonzero,
        "FractionalMaxPoolInferMeta" => unary::fractional_max_pool,
        "GumbelSoftmaxInferMeta" => unary::gumbel_softmax,
        "QrInferMeta" => unary::qr,
        "SvdInferMeta" => unary::svd,
        "SvdvalsInferMeta" => unary::svdvals,
        "DetInferMeta" => unary::det,
        "SlogdetV2InferMeta" => unary::slogdet_v2,
        "MatrixRankInferMeta" => unary::matrix_rank,
        "TraceInferMeta" => unary::trace,
        "UniqueRawInferMeta" => unary::unique,
        "UniqueConsecutiveInferMeta" => unary::unique_consecutive,
        "LUUnpackInferMeta" => unary::lu_unpack,
        "PadInferMeta" => unary::pad,
        "PixelShuffleInferMeta" => unary::pixel_shuffle,
        "PixelUnshuffleInferMeta" => unary::pixel_unshuffle,
        "ChannelShuffleInferMeta" => unary::channel_shuffle,
        "RepeatInterleaveInferMeta" => unary::repeat_interleave,
        "RepeatInterleaveWithTensorIndexInferMeta" => unary::repeat_interleave_with_tensor_index,
        "RReluInferMeta" => unary::rrelu,
        "ShareDataInferMeta" => unary::share_data,
        "UniformRandomInplaceInferMeta" => unary::uniform_inplace,
        "UniformRandomBatchSizeLikeInferMeta" => unary::uniform_random_batch_size_like,
        "ShardIndexInferMeta" => unary::shard_index,
        "SequenceSoftmaxInferMeta" => unary::sequence_softmax,
        "L1NormInferMeta" => unary::l1_norm,
        "SquaredL2NormInferMeta" => unary::squared_l2_norm,
        "CheckNumericsInferMeta" => unary::check_numerics,
        "TemporalShiftInferMeta" => unary::temporal_shift,
        "UnfoldInferMeta" => unary::unfold,
        "WeightQuantizeInferMeta" => unary::weight_quantize,
        "ViewSliceInferMeta" => unary::view_slice,
        "StdInferMeta" | "VarInferMeta" => unary::std_var,
        "MedianInferMeta" => unary::nanmedian,
        "NumberCountInferMeta" => unary::unchanged,
        "HuberLossInferMeta" => binary::huber_loss,
        "HistogramInferMeta" => binary::histogram,
        "BincountInferMeta" => binary::bincount,
        "GatherTreeMeta" => binary::gather_tree,
        "HingeLossInferMeta" => binary::hinge_loss,
        "MatrixRankTolInferMeta" => binary::matrix_rank_tol,
        "LookupTableDequantInferMeta" => binary::lookup_table_dequant,
        "LimitByCapacityInferMeta" => binary::limit_by_capacity,
        "MarginCrossEntropyInferMeta" => binary::margin_cross_entropy,
        "MatrixNMSInferMeta" => binary::matrix_nms,
        "UnpoolInferMeta" => binary::unpool,
        "Unpool3dInferMeta" => binary::unpool3d,
        "SegmentPoolInferMeta" => binary::segment_pool,
        "CEmbeddingInferMeta" => binary::c_embedding,
        "TakeAlongAxisInferMeta" => binary::take_along_axis,
        "LstsqInferMeta" => binary::lstsq,
        "SequenceMaskScalarInferMeta" => unary::sequence_mask,
        "AccuracyInferMeta" => ternary::accuracy,
        "BaddbmmInferMeta" => ternary::baddbmm,
        "AffineChannelInferMeta" => ternary::affine_channel,
        "BoxCoderInferMeta" => ternary::box_coder,
        "InstanceNormInferMeta" => ternary::instance_norm,
        "LinspaceInferMeta" | "LogspaceInferMeta" => ternary::linspace,
        "MultiClassNMSInferMeta" => ternary::multiclass_nms,
        "MovingAverageAbsMaxScaleInferMeta" => ternary::moving_average_abs_max_scale,
        "FakeQuantizeRangeAbsMaxInferMeta" => ternary::fake_quantize_range_abs_max,
        "FakeQuantOrWithDequantMovingAverageAbsMaxInferMeta" => {
            ternary::fake_quant_moving_average_abs_max
        }
        "NllLossRawInferMeta" => ternary::nll_loss,
        "RoiAlignInferMeta" => ternary::roi_align,
        "RoiPoolInferMeta" => ternary::roi_pool,
        "SequenceConvInferMeta" => ternary::sequence_conv,
        "SpectralNormInferMeta" => ternary::spectral_norm,
        "ViterbiDecodeInferMeta" => ternary::viterbi_decode,
        "SendURecvInferMeta" => ternary::send_u_recv,
        "TruncatedGaussianRandomInferMeta" => nullary::truncated_gaussian_random,
        "TrilIndicesInferMeta" => nullary::tril_indices,
        "TriuIndicesInferMeta" => nullary::triu_indices,
        "ReadFileInferMeta" => nullary::read_file,
        "PriorBoxInferMeta" => binary::prior_box,
        "YoloBoxInferMeta" => binary::yolo_box,
        "AffineGridInferMeta" => binary::affine_grid,
        "Im2sequenceInferMeta" => binary::im2sequence,
        "SwiGLUInferMeta" => binary::swiglu,
        "AddPositionEncodingInferMeta" => binary::add_position_encoding,
        "CSoftmaxWithCrossEntropyInferMeta" => binary::c_softmax_with_cross_entropy,
        "FakeChannelWiseDequantizeMaxAbsInferMeta" => binary::fake_channel_wise_dequantize_max_abs,
        "AssignPosInferMeta" => ternary::assign_pos,
        "TdmSamplerInferMeta" => ternary::tdm_sampler,
        "CSoftmaxWithMultiLabelCrossEntropyInferMeta" => {
            ternary::c_softmax_with_multi_label_cross_entropy
        }
        "AucInferMeta" => multiary::auc,
        "BilinearInferMeta" => multiary::bilinear,
        "MultiDotInferMeta" => multiary::multi_dot,
        "MultiplexInferMeta" => multiary::multiplex,
        "PsroiPoolInferMeta" => multiary::psroi_pool,
        "BeamSearchInferMeta" => multiary::beam_search,
        "SendUERecvInferMeta" => multiary::send_ue_recv,
        "SendUVInferMeta" => multiary::send_uv,
        "YoloLossInferMeta" => multiary::yolo_loss,
        "DistributeFpnProposalsInferMeta" => multiary::distribute_fpn_proposals,
        "SetInferMeta" => binary::set_meta,
        "ViewShapeInferMeta" => unary::reshape,
        "QuantizeLinearInferMeta" => multiary::quantize_linear,
        "EditDistanceInferMeta" => multiary::edit_distance,
        "MatrixRankAtolRtolInferMeta" => binary::matrix_rank_atol_rtol,
        "EinsumRawInferMeta" => multiary::einsum,
        "MaskedFillInferMeta" => binary::masked_fill,
        "ReduceAsInferMeta" => binary::reduce_as,
        "IndexElementwiseGetInferMeta" => binary::index_elementwise_get,
        "IndexElementwisePutInferMeta" | "IndexElementwisePutWithTensorInferMeta" => {
            binary::index_elementwise_put
        }
        "IndexPutInferMeta" => multiary::index_put,
        "SigmoidCrossEntropyWithLogitsInferMeta" => multiary::sigmoid_cross_entropy_with_logits,
        "RangeInferMeta" => nullary::range,
        "RandomInferMeta" => nullary::random,
        "UnchangedArrayInferMeta" => unary::unchanged_array,
        "DeformableConvInferMeta" => multiary::deformable_conv,
        "GenerateProposalsV2InferMeta" => multiary::generate_proposals,
        "GruInferMeta" => multiary::gru,
        "GruUnitInferMeta" => multiary::gru_unit,
        "GraphKhopSamplerInferMeta" => multiary::graph_khop_sampler,
        "GraphReindexInferMeta" => multiary::graph_reindex,
        "GraphSampleNeighborsInferMeta" => multiary::graph_sample_neighbors,
        "HSigmoidLossInferMeta" => multiary::hsigmoid_loss,
        "CollectFpnProposalsInferMeta" => ternary::collect_fpn_proposals,
        "DequantizeAbsMaxInferMeta"
        | "DequantizeLogInferMeta"
        | "FakeDequantizeMaxAbsInferMeta"
        | "BoxClipInferMeta" => binary::dims_dtype_lod_of_x,
        "CvmInferMeta" => binary::cvm,
        "CtcAlignInferMeta" => binary::ctc_align,
        "SequenceExpandInferMeta" => binary::sequence_expand,
        "RowConvInferMeta" => binary::row_conv,
        "StftInferMeta" => binary::stft,
        "ShuffleBatchInferMeta" => binary::shuffle_batch,
        "TdmChildInferMeta" => binary::tdm_child,
        "ApplyPerChannelScaleInferMeta" => binary::apply_per_channel_scale,
        "PruneGateByCapacityInferMeta" => binary::prune_gate_by_capacity,
        "YoloBoxHeadInferMeta" => binary::yolo_box_head,
        "LSTMInferMeta" => multiary::lstm,
        "ChunkEvalInferMeta" => multiary::chunk_eval,
        "CrfDecodingInferMeta" => multiary::crf_decoding,
        "DecodeJpegInferMeta" => unary::decode_jpeg,
        "UpdateLossScalingInferMeta" => multiary::update_loss_scaling,
        "CoalesceTensorInferMeta" => multiary::coalesce_tensor,
        "WarpctcInferMeta" => multiary::warpctc,
        "WarprnntInferMeta" => multiary::warprnnt,
        "WeightedSampleNeighborsInferMeta" => multiary::weighted_sample_neighbors,
        "TopPSamplingInferMeta" => multiary::top_p_sampling,
        "RankAttentionInferMeta" => ternary::rank_attention,
        "CorrelationInferMeta" => binary::correlation,
        "HashInferMeta" => unary::hash,
        "BeamSearchDecodeInferMeta" => binary::beam_search_decode,
        "RecvV2InferMeta" => nullary::recv_v2,
        "SoftmaxMaskFuseInferMeta" => binary::softmax_mask_fuse,
        "CudnnLSTMInferMeta" => multiary::cudnn_lstm,
        "FusedLayerNormInferMeta" => multiary::fused_layer_norm,
        "DistributedFusedLambInitInferMeta" => multiary::distributed_fused_lamb_init,
        "FlashAttnInferMeta" => ternary::flash_attn,
        "FlashAttnQKVPackedInferMeta" => ternary::flash_attn_qkvpacked,
        "CalcReducedAttnScoresInferMeta" => ternary::calc_reduced_attn_scores,
        "FusedRopeInferMeta" => multiary::fused_rope,
        "WeightOnlyLinearInferMeta" => multiary::weight_only_linear,
        "CreateArrayLikeInferMeta" => unary::create_array_like,
        "ArrayPopInferMeta" => unary::array_pop,
        "AddNTensorArrayInferMeta" => multiary::add_n_array,
        "FlashAttnV3InferMeta" => ternary::flash_attn_v3,
        "SparseAttentionInferMeta" => multiary::sparse_attention,
        "SparseMomentumInferMeta" => multiary::sparse_momentum,
        "GlobalGatherInferMeta" | "GlobalScatterInferMeta" => ternary::global_exchange,
        "FasterTokenizerInferMeta" => ternary::faster_tokenizer,
        "IntBincountInferMeta" => unary::int_bincount,
        "BuildSrcRankAndLocalExpertIdInferMeta" => unary::build_src_rank_and_local_expert_id,
        "ExpandModalityExpertIdInferMeta" => unary::expand_modality_expert_id,
        "BarrierInferMeta" => unary::barrier,
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
    let mut names: Vec<&str> = crate::table::infer_meta().map(|e| e.1).collect();
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
