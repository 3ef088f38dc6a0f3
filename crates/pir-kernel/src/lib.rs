//! `pir-kernel`: Paddle's kernel dialect and the CPU lowering of
//! operator-dialect programs — the program Paddle's executor actually runs.
//!
//! Before running a program, Paddle's executor lowers it
//! (`PdOpLowerToKernelPass`): every `pd_op` op becomes a kernel op naming
//! the phi kernel and the key (backend, layout, dtype) it was chosen by, and
//! every value gets a place (`cpu_tensor<…>`, `undefined_tensor<…>`). This is
//! what `FLAGS_print_ir=1` shows as `IR after lowering`, and what users read
//! to see which kernel, which dtype and which copies run.
//!
//! - [`types`]: kernel types ([`types::AllocatedType`]: `cpu_tensor`,
//!   `undefined_tensor`, `cpu_tensor_array`, …).
//! - [`key`]: kernel keys and the `kernel_key` attribute.
//! - [`dialect`]: the `pd_kernel`, `custom_kernel` and `onednn_kernel`
//!   dialects, their ops and printed forms.
//! - [`table`]: which kernels Paddle registers (generated from Paddle).
//! - [`runtime`]: the kernel facts of the op definitions.
//! - [`lower()`]: the lowering; [`LoweredProgram`] prints as Paddle does.
//!
//! A lowered program is a view: Paddle never saves one, so it has no JSON
//! form (its types and attributes refuse to encode).
//!
//! ```
//! let ctx = pir_kernel::kernel_context();
//! let text = "{\n    (%0) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>\n}\n";
//! let program = pir_core::Program::parse(&ctx, text).unwrap();
//! let lowered = pir_kernel::lower(&program).unwrap();
//! assert!(lowered.to_paddle_string().contains(
//!     "\"full(phi_kernel)\" () {dtype:float32,kernel_key:<backend:CPU|layout:Undefined(AnyLayout)|dtype:float32>"
//! ));
//! ```
#![forbid(unsafe_code)]

/// The JSON codec of a kernel type or attribute (`$handle` is `Type` or
/// `Attribute`): none, since a lowered program is never saved. The kind
/// lists no JSON ids, so nothing reads it; `encode` refuses, naming `$what`.
macro_rules! unsaved_kind_codec {
    ($handle:ident, $what:literal) => {
        const JSON_IDS: &'static [&'static str] = &[];
        fn encode(
            &self,
            _: &pir_core::IrContext,
            _: &mut pir_core::serial::JsonWriter<'_>,
        ) -> Result<(), pir_core::serial::EncodeError> {
            Err(pir_core::serial::EncodeError::Unserializable(
                concat!($what, " (a kernel program is not saved)").into(),
            ))
        }
        fn decode(
            input: pir_core::serial::DecodeInput<'_>,
        ) -> Result<pir_core::$handle, pir_core::serial::DecodeError> {
            let message = concat!($what, " has no JSON encoding");
            Err(pir_core::serial::DecodeError::at(input.path, message))
        }
    };
}

pub mod dialect;
pub mod key;
pub mod lower;
mod print;
pub mod runtime;
pub mod table;
pub mod types;

use std::sync::Arc;

use pir_core::IrContext;

pub use lower::{lower, LowerError, LoweredProgram, MissingKernel};

/// A new context with every dialect of a Paddle model and the kernel dialects.
pub fn kernel_context() -> Arc<IrContext> {
    let ctx = pir_dialects::pd_op_context();
    dialect::register(&ctx);
    ctx
}
