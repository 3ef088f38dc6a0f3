//! The op mappers: one per op family, all declared in `TABLE` (Paddle op
//! name → mapper), so what the exporter covers is one list.
//!
//! A mapper reads the op the exporter stands at (`Exporter::op`), names
//! its results and adds the ONNX nodes that compute them. Ops the walker
//! handles itself (parameters, feeds, fetches, `builtin.combine/split`,
//! `cf.yield`) are not in the table.

mod bitwise;
pub(crate) mod complex;
mod complex_arith;
mod control;
mod counting;
mod creation;
mod decoding;
mod decompose;
mod detection;
mod diagonal_fill;
mod eigen;
mod elementwise;
mod gru_unit;
mod index;
mod linalg;
mod matching;
mod misc;
mod more;
mod nms;
mod nn;
mod older_forms;
mod proposals;
mod quant;
mod random;
mod repeat;
mod resize;
mod rnn;
mod rows;
mod sampling;
mod scan;
mod shape;
mod signal;
mod solve;
mod special;
#[cfg(test)]
mod tests;
mod vector_signs;
mod viterbi;

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::export::Exporter;
use crate::ExportError;

/// Maps the op the exporter stands at.
pub(crate) type Mapper = fn(&mut Exporter<'_>) -> Result<(), ExportError>;

use control as cf;
use creation as cr;
use elementwise as ew;
use index as ix;

/// Every mapped op and its mapper.
const TABLE: &[(&str, Mapper)] = &[
    // Elementwise: one ONNX op.
    ("pd_op.relu", ew::unary),
    ("pd_op.relu_", ew::unary),
    ("pd_op.sigmoid", ew::unary),
    ("pd_op.sigmoid_", ew::unary),
    ("pd_op.tanh", ew::unary),
    ("pd_op.tanh_", ew::unary),
    ("pd_op.exp", ew::unary),
    ("pd_op.exp_", ew::unary),
    ("pd_op.log", ew::unary),
    ("pd_op.sqrt", ew::unary),
    ("pd_op.abs", ew::unary),
    ("pd_op.floor", ew::unary),
    ("pd_op.ceil", ew::unary),
    ("pd_op.erf", ew::unary),
    ("pd_op.sin", ew::unary),
    ("pd_op.cos", ew::unary),
    ("pd_op.tan", ew::unary),
    ("pd_op.asin", ew::unary),
    ("pd_op.acos", ew::unary),
    ("pd_op.atan", ew::unary),
    ("pd_op.sinh", ew::unary),
    ("pd_op.cosh", ew::unary),
    ("pd_op.asinh", ew::unary),
    ("pd_op.acosh", ew::unary),
    ("pd_op.atanh", ew::unary),
    ("pd_op.reciprocal", ew::unary),
    ("pd_op.sign", ew::unary),
    ("pd_op.softsign", ew::unary),
    ("pd_op.isnan", ew::unary),
    ("pd_op.isinf", ew::unary),
    ("pd_op.assign", ew::unary),
    ("pd_op.assign_", ew::unary),
    ("pd_op.print", ew::unary),
    ("pd_op.share_data", ew::unary),
    ("pd_op.share_data_", ew::unary),
    ("pd_op.bitwise_not", bitwise::not),
    ("pd_op.add", ew::binary),
    ("pd_op.add_", ew::binary),
    ("pd_op.subtract", ew::binary),
    ("pd_op.subtract_", ew::binary),
    ("pd_op.multiply", ew::binary),
    ("pd_op.multiply_", ew::binary),
    ("pd_op.divide", ew::binary),
    ("pd_op.divide_", ew::binary),
    ("pd_op.maximum", ew::binary),
    ("pd_op.minimum", ew::binary),
    ("pd_op.fmax", ew::binary),
    ("pd_op.fmin", ew::binary),
    ("pd_op.elementwise_pow", ew::binary),
    ("pd_op.equal", ew::binary),
    ("pd_op.less_than", ew::binary),
    ("pd_op.less_equal", ew::binary),
    ("pd_op.greater_than", ew::binary),
    ("pd_op.greater_equal", ew::binary),
    ("pd_op.bitwise_and", bitwise::binary),
    ("pd_op.bitwise_or", bitwise::binary),
    ("pd_op.bitwise_xor", bitwise::binary),
    ("pd_op.not_equal", ew::not_equal),
    ("pd_op.logical_and", ew::logical),
    ("pd_op.logical_or", ew::logical),
    ("pd_op.logical_xor", ew::logical),
    ("pd_op.logical_not", ew::logical),
    // Elementwise: a few ONNX ops.
    ("pd_op.leaky_relu", ew::composite),
    ("pd_op.leaky_relu_", ew::composite),
    ("pd_op.elu", ew::composite),
    ("pd_op.celu", ew::composite),
    ("pd_op.selu", ew::composite),
    ("pd_op.hardsigmoid", ew::composite),
    ("pd_op.hardswish", ew::composite),
    ("pd_op.relu6", ew::composite),
    ("pd_op.hardtanh", ew::composite),
    ("pd_op.swish", ew::composite),
    ("pd_op.silu", ew::composite),
    ("pd_op.mish", ew::composite),
    ("pd_op.softplus", ew::composite),
    ("pd_op.logsigmoid", ew::composite),
    ("pd_op.softshrink", ew::composite),
    ("pd_op.hardshrink", ew::composite),
    ("pd_op.tanh_shrink", ew::composite),
    ("pd_op.thresholded_relu", ew::composite),
    ("pd_op.logit", ew::composite),
    ("pd_op.gelu", ew::composite),
    ("pd_op.square", ew::composite),
    ("pd_op.rsqrt", ew::composite),
    ("pd_op.log1p", ew::composite),
    ("pd_op.expm1", ew::composite),
    ("pd_op.log2", ew::composite),
    ("pd_op.log10", ew::composite),
    ("pd_op.isfinite", ew::composite),
    ("pd_op.trunc", ew::composite),
    ("pd_op.round", ew::composite),
    ("pd_op.pow", ew::composite),
    ("pd_op.stanh", ew::composite),
    ("pd_op.scale", ew::scale),
    ("pd_op.scale_", ew::scale),
    ("pd_op.clip", ew::clip),
    ("pd_op.clip_", ew::clip),
    ("pd_op.cast", ew::cast),
    ("pd_op.cast_", ew::cast),
    ("pd_op.floor_divide", ew::int_div),
    ("pd_op.remainder", ew::int_div),
    ("pd_op.where", ew::where_),
    ("pd_op.where_", ew::where_),
    ("pd_op.softmax", ew::softmax),
    ("pd_op.softmax_", ew::softmax),
    ("pd_op.log_softmax", ew::softmax),
    ("pd_op.prelu", ew::prelu),
    // Shapes and layouts.
    ("pd_op.reshape", shape::reshape),
    ("pd_op.reshape_", shape::reshape),
    ("pd_op.transpose", shape::transpose),
    ("pd_op.flatten", shape::flatten),
    ("pd_op.flatten_", shape::flatten),
    ("pd_op.squeeze", shape::squeeze),
    ("pd_op.squeeze_", shape::squeeze),
    ("pd_op.unsqueeze", shape::unsqueeze),
    ("pd_op.unsqueeze_", shape::unsqueeze),
    ("pd_op.concat", shape::concat),
    ("pd_op.stack", shape::stack),
    ("pd_op.split", shape::split),
    ("pd_op.split_with_num", shape::split),
    ("pd_op.unbind", shape::unbind),
    ("pd_op.unstack", shape::unbind),
    ("pd_op.slice", shape::slice),
    ("pd_op.strided_slice", shape::slice),
    ("pd_op.tile", shape::tile),
    ("pd_op.expand", shape::expand),
    ("pd_op.expand_as", shape::expand_as),
    ("pd_op.shape", shape::shape),
    ("pd_op.shape64", shape::shape),
    ("pd_op.numel", shape::numel),
    ("pd_op.flip", shape::flip),
    ("pd_op.reverse", shape::flip),
    ("pd_op.roll", shape::roll),
    ("pd_op.tril", shape::trilu),
    ("pd_op.triu", shape::trilu),
    ("pd_op.meshgrid", shape::meshgrid),
    ("pd_op.pad", shape::pad),
    ("pd_op.pad3d", shape::pad3d),
    // Constants and creation.
    ("pd_op.full", cr::full),
    ("pd_op.full_", cr::full),
    ("pd_op.full_int_array", cr::full_int_array),
    ("pd_op.assign_value", cr::assign_value),
    ("pd_op.assign_value_", cr::assign_value),
    ("pd_op.full_like", cr::full_like),
    ("pd_op.full_with_tensor", cr::full_with_tensor),
    ("pd_op.full_batch_size_like", cr::full_batch_size_like),
    ("pd_op.arange", cr::arange),
    ("pd_op.linspace", cr::linspace),
    ("pd_op.eye", cr::eye),
    ("pd_op.one_hot", cr::one_hot),
    // Neural-network ops.
    ("pd_op.matmul", nn::matmul),
    ("pd_op.bmm", nn::matmul),
    ("pd_op.conv2d", nn::conv),
    ("pd_op.depthwise_conv2d", nn::conv),
    ("pd_op.conv3d", nn::conv),
    ("pd_op.conv2d_transpose", nn::conv),
    ("pd_op.depthwise_conv2d_transpose", nn::conv),
    ("pd_op.conv3d_transpose", nn::conv),
    ("pd_op.pool2d", nn::pool),
    ("pd_op.pool3d", nn::pool),
    ("pd_op.max_pool2d_with_index", sampling::max_pool_with_index),
    ("pd_op.max_pool3d_with_index", sampling::max_pool_with_index),
    ("pd_op.batch_norm", nn::batch_norm),
    ("pd_op.batch_norm_", nn::batch_norm),
    ("pd_op.layer_norm", nn::layer_norm),
    ("pd_op.group_norm", nn::group_norm),
    ("pd_op.instance_norm", nn::instance_norm),
    ("pd_op.dropout", nn::dropout),
    ("pd_op.embedding", nn::embedding),
    ("pd_op.einsum", nn::einsum),
    ("pd_op.add_n", nn::add_n),
    ("pd_op.pixel_shuffle", nn::pixel_shuffle),
    ("pd_op.nearest_interp", resize::interp),
    ("pd_op.bilinear_interp", resize::interp),
    ("pd_op.bicubic_interp", resize::interp),
    ("pd_op.linear_interp", resize::interp),
    ("pd_op.trilinear_interp", resize::interp),
    ("pd_op.lrn", nn::lrn),
    ("pd_op.rnn", rnn::rnn),
    // Indexing, sorting, reductions.
    ("pd_op.gather", ix::gather),
    ("pd_op.index_select", ix::gather),
    ("pd_op.gather_nd", ix::gather_nd),
    ("pd_op.take_along_axis", ix::take_along_axis),
    ("pd_op.put_along_axis", ix::put_along_axis),
    ("pd_op.put_along_axis_", ix::put_along_axis),
    ("pd_op.scatter", ix::scatter),
    ("pd_op.scatter_", ix::scatter),
    ("pd_op.scatter_nd_add", ix::scatter_nd_add),
    ("pd_op.index_sample", ix::index_sample),
    ("pd_op.topk", ix::topk),
    ("pd_op.argsort", ix::argsort),
    ("pd_op.argmax", ix::argmax),
    ("pd_op.argmin", ix::argmax),
    ("pd_op.cumsum", ix::cumsum),
    ("pd_op.cumsum_", ix::cumsum),
    ("pd_op.nonzero", ix::nonzero),
    ("pd_op.sum", ix::reduction),
    ("pd_op.mean", ix::reduction),
    ("pd_op.mean_all", ix::reduction),
    ("pd_op.max", ix::reduction),
    ("pd_op.min", ix::reduction),
    ("pd_op.amax", ix::reduction),
    ("pd_op.amin", ix::reduction),
    ("pd_op.prod", ix::reduction),
    ("pd_op.all", ix::reduction),
    ("pd_op.any", ix::reduction),
    ("pd_op.logsumexp", ix::reduction),
    ("pd_op.frobenius_norm", ix::reduction),
    ("pd_op.p_norm", ix::p_norm),
    ("pd_op.set_value", ix::set_value),
    ("pd_op.set_value_", ix::set_value),
    ("pd_op.set_value_with_tensor", ix::set_value),
    ("pd_op.set_value_with_tensor_", ix::set_value),
    // Control flow and tensor arrays.
    ("pd_op.if", cf::if_),
    ("pd_op.while", cf::while_),
    ("pd_op.select_input", cf::select_input),
    ("pd_op.create_array", cf::create_array),
    ("pd_op.array_write_", cf::array_write),
    ("pd_op.array_read", cf::array_read),
    ("pd_op.array_length", cf::array_length),
    ("pd_op.array_to_tensor", cf::array_to_tensor),
    ("pd_op.increment", cf::increment),
    ("pd_op.increment_", cf::increment),
    ("pd_op.assign_out_", cf::assign_out),
    // Vision, NLP, losses, small linear algebra.
    ("pd_op.legacy_reshape", shape::reshape),
    ("pd_op.shuffle_channel", misc::channel_shuffle),
    ("pd_op.channel_shuffle", misc::channel_shuffle),
    ("pd_op.pixel_unshuffle", misc::pixel_unshuffle),
    ("pd_op.maxout", misc::maxout),
    ("pd_op.affine_channel", misc::affine_channel),
    ("pd_op.label_smooth", misc::label_smooth),
    (
        "pd_op.sigmoid_cross_entropy_with_logits",
        misc::sigmoid_cross_entropy,
    ),
    ("pd_op.bce_loss", misc::binary_losses),
    ("pd_op.log_loss", misc::binary_losses),
    ("pd_op.atan2", misc::atan2),
    ("pd_op.dot", misc::dot),
    ("pd_op.mv", misc::mv),
    ("pd_op.addmm", misc::addmm),
    ("pd_op.lerp", misc::lerp),
    ("pd_op.equal_all", misc::equal_all),
    ("pd_op.heaviside", misc::heaviside),
    ("pd_op.soft_relu", misc::soft_relu),
    ("pd_op.l1_norm", misc::norms),
    ("pd_op.squared_l2_norm", misc::norms),
    ("pd_op.dist", misc::dist),
    ("pd_op.sequence_mask", misc::sequence_mask),
    ("pd_op.masked_select", misc::masked_select),
    ("pd_op.kthvalue", misc::kthvalue),
    ("pd_op.roi_align", misc::roi_align),
    ("pd_op.grid_sample", misc::grid_sample),
    ("pd_op.diag", misc::diag),
    ("pd_op.logspace", misc::logspace),
    ("pd_op.multiplex", misc::multiplex),
    // Detection heads.
    ("pd_op.prior_box", detection::prior_box),
    ("pd_op.box_coder", detection::box_coder),
    ("pd_op.yolo_box", detection::yolo_box),
    ("pd_op.cumprod", detection::cumprod),
    // More vision, loss and quantization ops.
    ("pd_op.crop", more::crop),
    ("pd_op.unique", more::unique),
    ("pd_op.temporal_shift", more::temporal_shift),
    ("pd_op.unfold", more::unfold),
    ("pd_op.affine_grid", more::affine_grid),
    ("pd_op.kldiv_loss", more::kldiv_loss),
    ("pd_op.nll_loss", more::nll_loss),
    (
        "pd_op.cross_entropy_with_softmax",
        more::softmax_cross_entropy,
    ),
    ("pd_op.clip_by_norm", more::clip_by_norm),
    ("pd_op.fill", more::fill),
    ("pd_op.isclose", more::isclose),
    ("pd_op.allclose", more::isclose),
    ("pd_op.cross", more::cross),
    ("pd_op.fake_dequantize_max_abs", more::fake_dequantize),
    ("pd_op.quantize_linear", more::quant_linear),
    ("pd_op.dequantize_linear", more::quant_linear),
    // Small linear algebra and tensor utilities.
    ("pd_op.kron", linalg::kron),
    ("pd_op.multi_dot", linalg::multi_dot),
    ("pd_op.matrix_power", linalg::matrix_power),
    ("pd_op.det", linalg::det),
    ("pd_op.slogdet", linalg::slogdet),
    ("pd_op.diagonal", linalg::diagonal),
    ("pd_op.trace", linalg::diagonal),
    ("pd_op.logcumsumexp", linalg::logcumsumexp),
    ("pd_op.huber_loss", linalg::huber_loss),
    ("pd_op.index_add", linalg::index_add),
    ("pd_op.broadcast_tensors", linalg::broadcast_tensors),
    ("pd_op.shard_index", linalg::shard_index),
    ("pd_op.renorm", linalg::renorm),
    // Random draws (same distribution, shape and dtype; not Paddle's numbers).
    ("pd_op.uniform", random::uniform),
    ("pd_op.gaussian", random::gaussian),
    ("pd_op.randint", random::randint),
    (
        "pd_op.uniform_random_batch_size_like",
        random::uniform_batch_size_like,
    ),
    ("pd_op.exponential_", random::exponential),
    ("pd_op.bernoulli", random::bernoulli),
    ("pd_op.randperm", random::randperm),
    ("pd_op.multinomial", random::multinomial),
    ("pd_op.gumbel_softmax", random::gumbel_softmax),
    ("pd_op.poisson", random::poisson),
    ("pd_op.dirichlet", random::dirichlet),
    // Box selection and pooling.
    ("pd_op.nms", nms::nms),
    ("pd_op.multiclass_nms3", nms::multiclass_nms3),
    ("pd_op.roi_pool", nms::roi_pool),
    ("pd_op.anchor_generator", nms::anchor_generator),
    // Pixels moved by index or by learned offsets.
    ("pd_op.unpool", sampling::unpool),
    ("pd_op.unpool3d", sampling::unpool),
    ("pd_op.fold", sampling::fold),
    ("pd_op.deformable_conv", sampling::deformable_conv),
    // Special functions.
    ("pd_op.erfinv", special::erfinv),
    ("pd_op.lgamma", special::lgamma),
    ("pd_op.digamma", special::digamma),
    // Small dense solvers, unrolled.
    ("pd_op.solve", solve::solve),
    ("pd_op.inverse", solve::inverse),
    ("pd_op.cholesky", solve::cholesky),
    ("pd_op.triangular_solve", solve::triangular_solve),
    ("pd_op.diag_embed", solve::diag_embed),
    // Decompositions, unrolled.
    ("pd_op.qr", decompose::qr),
    ("pd_op.lu", decompose::lu),
    ("pd_op.lu_unpack", decompose::lu_unpack),
    ("pd_op.lstsq", decompose::lstsq),
    ("pd_op.cholesky_solve", decompose::cholesky_solve),
    // Eigenvalues and singular values, by unrolled Jacobi sweeps.
    ("pd_op.eigh", eigen::eigh),
    ("pd_op.eigvalsh", eigen::eigh),
    ("pd_op.svd", eigen::svd),
    // Region proposals.
    ("pd_op.generate_proposals", proposals::generate_proposals),
    (
        "pd_op.distribute_fpn_proposals",
        proposals::distribute_fpn_proposals,
    ),
    (
        "pd_op.collect_fpn_proposals",
        proposals::collect_fpn_proposals,
    ),
    // Box matching and soft suppression.
    ("pd_op.bipartite_match", matching::bipartite_match),
    ("pd_op.matrix_nms", matching::matrix_nms),
    // Complex tensors as (real, imaginary) pairs; Fourier transforms.
    ("pd_op.complex", complex::complex),
    ("pd_op.as_complex", complex::as_complex),
    ("pd_op.as_real", complex::as_real),
    ("pd_op.real", complex::real_imag),
    ("pd_op.imag", complex::real_imag),
    ("pd_op.conj", complex::conj),
    ("pd_op.angle", complex::angle),
    ("pd_op.fft_c2c", complex::fft_c2c),
    ("pd_op.fft_r2c", complex::fft_r2c),
    ("pd_op.fft_c2r", complex::fft_c2r),
    // Rows combined: lookahead convolution, segment pooling.
    ("pd_op.row_conv", rows::row_conv),
    ("pd_op.segment_pool", rows::segment_pool),
    ("pd_op.spectral_norm", linalg::spectral_norm),
    // Diagonals written at positions known at export.
    ("pd_op.fill_diagonal", diagonal_fill::fill_diagonal),
    ("pd_op.fill_diagonal_", diagonal_fill::fill_diagonal),
    (
        "pd_op.fill_diagonal_tensor",
        diagonal_fill::fill_diagonal_tensor,
    ),
    (
        "pd_op.fill_diagonal_tensor_",
        diagonal_fill::fill_diagonal_tensor,
    ),
    // Searching and counting.
    ("pd_op.searchsorted", counting::searchsorted),
    ("pd_op.bincount", counting::bincount),
    ("pd_op.unique_consecutive", counting::unique_consecutive),
    ("pd_op.mode", counting::mode),
    // Fake quantization at inference, legacy dequantization.
    (
        "pd_op.fake_quantize_moving_average_abs_max",
        quant::fake_quantize,
    ),
    ("pd_op.fake_quantize_range_abs_max", quant::fake_quantize),
    (
        "pd_op.fake_quantize_dequantize_moving_average_abs_max",
        quant::fake_quantize_dequantize,
    ),
    (
        "pd_op.moving_average_abs_max_scale",
        quant::moving_average_scale,
    ),
    (
        "pd_op.fake_channel_wise_dequantize_max_abs",
        quant::channel_dequantize,
    ),
    ("pd_op.dequantize_abs_max", quant::dequantize_abs_max),
    ("pd_op.dequantize_log", quant::dequantize_log),
    // Sequence decoding on padded tensors with lengths (Scan loops).
    ("pd_op.ctc_align", decoding::ctc_align),
    ("pd_op.gather_tree", decoding::gather_tree),
    ("pd_op.edit_distance", decoding::edit_distance),
    ("pd_op.viterbi_decode", viterbi::viterbi_decode),
    ("pd_op.crf_decoding", viterbi::crf_decoding),
    // Signal framing.
    ("pd_op.frame", signal::frame),
    ("pd_op.overlap_add", signal::overlap_add),
    // One step of the version-1 GRU (dense; the LoD `gru` is refused).
    ("pd_op.gru_unit", gru_unit::gru_unit),
    // Repeats and index writes.
    ("pd_op.repeat_interleave", repeat::repeat_interleave),
    (
        "pd_op.repeat_interleave_with_tensor_index",
        repeat::repeat_interleave_with_tensor_index,
    ),
    ("pd_op.index_put", repeat::index_put),
    ("pd_op.index_put_", repeat::index_put),
    // Ops of older APIs.
    ("pd_op.empty", older_forms::empty),
    ("pd_op.partial_concat", older_forms::partial_concat),
    ("pd_op.partial_sum", older_forms::partial_sum),
    (
        "pd_op.matmul_with_flatten",
        older_forms::matmul_with_flatten,
    ),
    ("pd_op.norm", older_forms::norm),
];

/// The table as a map.
pub(crate) fn table() -> &'static FxHashMap<&'static str, Mapper> {
    static MAP: OnceLock<FxHashMap<&'static str, Mapper>> = OnceLock::new();
    MAP.get_or_init(|| TABLE.iter().copied().collect())
}

/// The names of the ops with a mapping (the table's), in table order.
pub fn mapped_ops() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|(name, _)| *name)
}

/// The ops the exporter handles without a mapper.
pub fn structural_ops() -> &'static [&'static str] {
    &crate::STRUCTURAL
}
