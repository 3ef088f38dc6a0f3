//! InferMeta functions of fused ops (Paddle's `infermeta/fusion.cc`, and
//! the fused-op functions Paddle declares in its other InferMeta files).
//!
//! - [`linear`]: fully connected layers (`fc`, `gemm_epilogue`...).
//! - [`activation`]: fused activations (`fused_bias_act`).
//! - [`norm`]: fused normalizations of transformer encoders.
//! - [`cpu`]: the `fusion_*` ops of the CPU inference passes.
//! - [`attention`]: fused attention.
//! - [`xpu`]: shape-keeping fusions of the XPU passes.

mod activation;
mod attention;
mod cpu;
mod linear;
mod norm;
mod xpu;

use crate::InferFn;

/// The fused-op InferMeta functions implemented here.
pub(crate) fn function(name: &str) -> Option<InferFn> {
    linear::function(name)
        .or_else(|| activation::function(name))
        .or_else(|| norm::function(name))
        .or_else(|| cpu::function(name))
        .or_else(|| attention::function(name))
        .or_else(|| xpu::function(name))
}
