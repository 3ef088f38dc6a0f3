//! The kernel facts of the op definitions (`OpRunTimeInfo` of Paddle's
//! `OpYamlInfo`): which kernel function an op calls, its parameters, and
//! the slots its kernel key's dtype and backend come from, as the op
//! definitions give them ([`pir_dialects::op_def::RuntimeDef`]).
//!
//! ```
//! let rt = pir_kernel::runtime::kernel_runtime("pd_op.set_value_").unwrap();
//! assert_eq!(rt.kernel_func, "set_value");
//! ```

use pir_dialects::op_def::{List, Text};

/// The kernel facts of one op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelRuntime {
    /// The op (`pd_op.matmul`).
    pub op: &'static str,
    /// The phi kernel it calls (empty for ops without a kernel).
    pub kernel_func: &'static str,
    /// The kernel's parameters, by input or attribute name.
    pub kernel_param: List<Text>,
    /// Where the key's dtype comes from, in order of preference: an input,
    /// a `DataType` attribute, or a fixed `DataType::FLOAT32`-style name.
    pub dtype_slots: List<Text>,
    /// Where the key's backend comes from: an input or a `Place` attribute.
    pub backend_slots: List<Text>,
}

/// The kernel facts of `op`, if its definition has them.
pub fn kernel_runtime(op: &str) -> Option<KernelRuntime> {
    let def = pir_dialects::op_def(op)?;
    let rt = def.runtime?;
    Some(KernelRuntime {
        op: def.name.as_str(),
        kernel_func: rt.kernel_func.as_str(),
        kernel_param: rt.kernel_params,
        dtype_slots: rt.kernel_key_dtype,
        backend_slots: rt.kernel_key_backend,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_definitions_carry_the_key_slots() {
        let full = kernel_runtime("pd_op.full").expect("pd_op.full");
        assert!(full.dtype_slots.strs().eq(["dtype"]));
        assert!(full.backend_slots.strs().eq(["place"]));
        assert!(kernel_runtime("pd_op.no_such_op").is_none());
    }
}
