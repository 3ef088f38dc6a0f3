//! Parameters for passes: reading the tensor behind a `builtin.parameter`,
//! creating a parameter op for a new tensor, and erasing parameter ops that
//! became unused — together with their binding, so the parameter file
//! written afterwards holds exactly the tensors the program names.
//!
//! The tensors themselves live in the program's parameter map
//! ([`pir_params::bound`]); a loaded model's tensors stay memory-mapped until
//! written, and a pass that replaces one binds a new owned tensor.

use pir_core::builtin::{ArrayAttr, BoolAttr, StrAttr};
use pir_core::walk::Order;
use pir_core::{Attribute, Builder, InsertPoint, OpId, Program, ValueId};
use pir_params::Tensor;

/// The name a `builtin.parameter` op reads (`parameter_name`).
pub fn parameter_name(p: &Program, op: OpId) -> Option<&str> {
    if p.op_name_str(op) != "builtin.parameter" {
        return None;
    }
    let a = p.attr(op, "parameter_name")?;
    p.ctx().attr_as::<StrAttr>(a).map(|s| &*s.0)
}

/// The tensor a `builtin.parameter` op reads, when parameters are loaded.
pub fn parameter_tensor(p: &Program, op: OpId) -> Option<&Tensor> {
    pir_params::bound::tensor(p, parameter_name(p, op)?)
}

/// Whether every `builtin.parameter` of the program's top block that a
/// parameter file holds ([`pir_params::bound::is_saved`]) has a tensor:
/// only then can a pass add parameters and still have a complete parameter
/// file to write (a program read without its parameters has none).
pub fn parameters_loaded(p: &Program) -> bool {
    let top = p.top_block();
    p.block_ops(top)
        .filter(|&op| p.op_name_str(op) == "builtin.parameter")
        .filter(|&op| pir_params::bound::is_saved(p, op))
        .all(|op| parameter_tensor(p, op).is_some())
}

/// A parameter name starting with `prefix` that the program does not use yet
/// (`prefix0`, `prefix1`, ...).
pub fn fresh_name(p: &Program, prefix: &str, counter: &mut usize) -> String {
    loop {
        let name = format!("{prefix}{counter}");
        *counter += 1;
        if p.parameter(&name).is_none() {
            return name;
        }
    }
}

/// Why a parameter could not be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NewParameterError {
    /// The tensor's dtype has no PIR element type.
    #[error(transparent)]
    DType(#[from] pir_params::bound::UnboundDType),
}

/// Binds `tensor` under `name` and creates a `builtin.parameter` op for it
/// at `at`, marked as a constant (`stop_gradient`, not trainable). Returns
/// the op's result, typed by the tensor's dtype and dims.
pub fn insert_parameter(
    p: &mut Program,
    at: InsertPoint,
    name: &str,
    tensor: Tensor,
) -> Result<ValueId, NewParameterError> {
    let ty = pir_params::bound::bind(p, name, tensor)?;
    let ctx = p.ctx_arc().clone();
    let flag = |v: bool| -> Attribute { ArrayAttr::get(&ctx, &[ctx.intern_attr(BoolAttr(v))]) };
    let attrs = [
        ("is_distributed", flag(false)),
        ("is_parameter", flag(false)),
        ("need_clip", flag(false)),
        ("parameter_name", StrAttr::get(&ctx, name)),
        ("persistable", flag(true)),
        ("stop_gradient", flag(true)),
        ("trainable", flag(false)),
    ];
    let op = Builder::new(p, at).op("builtin.parameter", &[], &[ty], &attrs);
    Ok(p.result(op, 0))
}

/// Erases those of `ops` that are `builtin.parameter` ops with unused
/// results, then drops the bindings no remaining parameter op reads.
/// Returns how many ops were erased.
pub fn erase_unused(p: &mut Program, ops: &[OpId]) -> usize {
    let mut dropped = Vec::new();
    for &op in ops {
        if p.is_erased(op) {
            continue;
        }
        let Some(name) = parameter_name(p, op).map(str::to_owned) else {
            continue;
        };
        if p.use_empty(p.result(op, 0)) && p.erase_op(op).is_ok() {
            dropped.push(name);
        }
    }
    if dropped.is_empty() {
        return 0;
    }
    let mut named = rustc_hash::FxHashSet::default();
    p.walk(p.module_op(), Order::Pre, &mut |o| {
        if let Some(n) = parameter_name(p, o) {
            named.insert(n.to_owned());
        }
    });
    let erased = dropped.len();
    for name in dropped {
        if !named.contains(&name) {
            pir_params::bound::drop(p, &name);
        }
    }
    erased
}

/// The op of the top block that contains `op` (itself when it is there):
/// where a new parameter for a value used at `op` is inserted, since
/// parameters live in the top block.
pub fn top_level_ancestor(p: &Program, mut op: OpId) -> OpId {
    let top = p.top_block();
    while p.op_parent_block(op) != Some(top) {
        match p.op_parent_op(op) {
            Some(parent) if parent != p.module_op() => op = parent,
            _ => break,
        }
    }
    op
}
