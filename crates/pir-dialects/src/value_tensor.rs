//! The `vt` dialect: value tensors (seed `ir-program-design.md` §2.5).
//!
//! Paddle's tensors are buffers: an in-place op (`relu_`) or a view
//! (`reshape_`) may change what another value reads, so ops on `tensor`
//! values must run in program order. A *value tensor* (`v_tensor`) is the
//! seed's read-only, alias-free tensor: once built it never changes, so ops
//! whose tensor operands are all value tensors may be moved, merged or run
//! in parallel freely.
//!
//! - [`ValueTensorType`]: the same data as [`DenseTensorType`] (dtype, dims,
//!   layout, LoD, offset), printed `v_tensor<2x3xf32>`, saved as
//!   `{"#":"vt.t_vtensor","D":[...]}` (the `D` array of `0.t_dtensor`). The
//!   id has a non-numeric prefix so it can never collide with the numeric
//!   dialect ids Paddle writes (`0.`, `1.`, ...).
//! - `vt.to_vtensor` (`tensor` → `v_tensor`) and `vt.to_tensor` (the
//!   reverse): deep copies of one operand into one result of the same data,
//!   free of side effects. Their verifiers check the operand and result kinds
//!   and that both carry the same data.
//!
//! Paddle knows none of this: `pir-pass`'s `lower_vtensor` turns a program
//! back into dense tensors (and `pd_op.assign` where a copy is observable)
//! before it is handed to Paddle.
//!
//! ```
//! use pir_core::builtin::{DenseTensorType, ScalarType};
//! use pir_dialects::value_tensor::ValueTensorType;
//! let ctx = pir_dialects::pd_op_context();
//! let f32_ty = ctx.intern_type(ScalarType::F32);
//! let dense = DenseTensorType::get(&ctx, f32_ty, &[2, 3]);
//! let vt = ValueTensorType::from_dense(&ctx, dense).unwrap();
//! assert_eq!(ctx.display_type(vt), "v_tensor<2x3xf32>");
//! assert_eq!(ValueTensorType::to_dense(&ctx, vt), Some(dense));
//! ```

use pir_core::builtin::DenseTensorType;
use pir_core::op_info::traits;
use pir_core::walk::Order;
use pir_core::{AttrDict, Dialect, IrContext, OpId, OpInfo, Program, Type, ValueId};

/// Name of the op copying a tensor into a value tensor.
pub const TO_VTENSOR: &str = "vt.to_vtensor";
/// Name of the op copying a value tensor into a tensor.
pub const TO_TENSOR: &str = "vt.to_tensor";
/// The JSON id of [`ValueTensorType`].
pub const VTENSOR_JSON_ID: &str = "vt.t_vtensor";

pir_core::declare_kinds! {
    /// Registers [`ValueTensorType`].
    fn register_declared_types;

    /// A value tensor: read-only and alias-free, with the data of a dense tensor
    /// (`v_tensor<2x3xf32>`; the typed form adds a non-default layout, LoD and
    /// offset as `tensor<...>` does). Both printed forms read back: Paddle-style
    /// text gives the defaults for what it leaves out, the typed form carries them.
    type ValueTensorType(DenseTensorType) {
        name: "vt.v_tensor",
        json: VTENSOR_JSON_ID,
        keyword: "v_tensor",
    }
}

impl ValueTensorType {
    /// The value tensor with the data of the dense tensor type `dense`
    /// (`None` when `dense` is not a dense tensor).
    pub fn from_dense(ctx: &IrContext, dense: Type) -> Option<Type> {
        let d = ctx.type_as::<DenseTensorType>(dense)?;
        Some(ctx.intern_type(ValueTensorType(d.clone())))
    }

    /// The dense tensor type with the data of the value tensor type `vt`
    /// (`None` when `vt` is not a value tensor).
    pub fn to_dense(ctx: &IrContext, vt: Type) -> Option<Type> {
        let v = ctx.type_as::<ValueTensorType>(vt)?;
        Some(ctx.intern_type(v.0.clone()))
    }
}

/// Whether `ty` is a value tensor.
pub fn is_value_tensor(ctx: &IrContext, ty: Type) -> bool {
    ctx.type_is::<ValueTensorType>(ty)
}

/// Whether `op` is `vt.to_vtensor` or `vt.to_tensor`.
pub fn is_copy_op(p: &Program, op: OpId) -> bool {
    matches!(p.op_name_str(op), TO_VTENSOR | TO_TENSOR)
}

/// Creates a detached `vt.to_vtensor(x)` (`None` when `x` is not a dense tensor).
pub fn create_to_vtensor(p: &mut Program, x: ValueId) -> Option<OpId> {
    let ctx = p.ctx_arc().clone();
    let ty = ValueTensorType::from_dense(&ctx, p.value_type(x))?;
    Some(p.create_op(
        ctx.symbol(TO_VTENSOR),
        &[Some(x)],
        &[ty],
        AttrDict::EMPTY,
        0,
    ))
}

/// Creates a detached `vt.to_tensor(a)` (`None` when `a` is not a value tensor).
pub fn create_to_tensor(p: &mut Program, a: ValueId) -> Option<OpId> {
    let ctx = p.ctx_arc().clone();
    let ty = ValueTensorType::to_dense(&ctx, p.value_type(a))?;
    Some(p.create_op(ctx.symbol(TO_TENSOR), &[Some(a)], &[ty], AttrDict::EMPTY, 0))
}

/// Whether the program under its module holds a `vt` op or a value of a
/// `vt` type (the program is then not loadable by Paddle as it is).
pub fn mentions_value_tensors(p: &Program) -> bool {
    let ctx = p.ctx();
    let is_vt = |v: ValueId| is_value_tensor(ctx, p.value_type(v));
    let mut found = false;
    p.walk(p.module_op(), Order::Pre, &mut |op| {
        if found {
            return;
        }
        found = p.op_name_str(op).starts_with("vt.")
            || p.results(op).any(is_vt)
            || p.regions(op).any(|r| {
                p.region_blocks(r).iter().any(|&b| {
                    p.block_args(b).iter().any(|&v| is_vt(v))
                        || p.block_kwargs(b).iter().any(|&(_, v)| is_vt(v))
                })
            });
    });
    found
}

/// The data of a tensor-like type: a dense tensor's or a value tensor's.
fn dense_data(ctx: &IrContext, ty: Type) -> Option<&DenseTensorType> {
    ctx.type_as::<DenseTensorType>(ty)
        .or_else(|| ctx.type_as::<ValueTensorType>(ty).map(|v| &v.0))
}

/// Checks a copy op: one present operand of kind `from`, one result of kind
/// `to`, both with the same data (a copy never changes shape, dtype or layout).
fn verify_copy(p: &Program, op: OpId, to_value: bool) -> Result<(), String> {
    let ctx = p.ctx();
    let (from, to) = if to_value {
        ("tensor", "v_tensor")
    } else {
        ("v_tensor", "tensor")
    };
    if p.num_operands(op) != 1 || p.num_results(op) != 1 {
        return Err(format!(
            "expects 1 operand and 1 result, has {} and {}",
            p.num_operands(op),
            p.num_results(op)
        ));
    }
    let Some(x) = p.operand(op, 0) else {
        return Err("operand 0 is required but absent".into());
    };
    let (xt, rt) = (p.value_type(x), p.value_type(p.result(op, 0)));
    let kinds_ok = if to_value {
        ctx.type_is::<DenseTensorType>(xt) && ctx.type_is::<ValueTensorType>(rt)
    } else {
        ctx.type_is::<ValueTensorType>(xt) && ctx.type_is::<DenseTensorType>(rt)
    };
    if !kinds_ok {
        return Err(format!(
            "copies a {from} into a {to}, found {} -> {}",
            ctx.display_type(xt),
            ctx.display_type(rt)
        ));
    }
    if dense_data(ctx, xt) != dense_data(ctx, rt) {
        return Err(format!(
            "operand and result must hold the same data, found {} -> {}",
            ctx.display_type(xt),
            ctx.display_type(rt)
        ));
    }
    Ok(())
}

fn verify_to_vtensor(p: &Program, op: OpId) -> Result<(), String> {
    verify_copy(p, op, true)
}

fn verify_to_tensor(p: &Program, op: OpId) -> Result<(), String> {
    verify_copy(p, op, false)
}

/// The `vt` dialect: [`ValueTensorType`], `vt.to_vtensor`, `vt.to_tensor`.
pub struct ValueTensorDialect;

impl Dialect for ValueTensorDialect {
    fn name(&self) -> &'static str {
        "vt"
    }

    fn register(&self, ctx: &IrContext) {
        register_declared_types(ctx);
        // A copy has no effect beyond its result: unused copies may go, and
        // the alias analysis sees a plain reader returning a fresh buffer.
        for (name, verify) in [
            (TO_VTENSOR, verify_to_vtensor as pir_core::op_info::VerifyFn),
            (TO_TENSOR, verify_to_tensor),
        ] {
            ctx.register_op(
                OpInfo::new(name, "vt")
                    .with_trait(traits::NO_SIDE_EFFECT)
                    .with_regions(0)
                    .with_verify(verify),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test fails loudly by design

    use super::*;
    use pir_core::builtin::{DataLayout, ScalarType};
    use pir_core::serial::{self, JsonWriter};

    #[test]
    fn the_type_prints_parses_and_saves_with_its_extras() {
        let ctx = crate::pd_op_context();
        let f32_ty = ctx.intern_type(ScalarType::F32);
        let vt = ctx.intern_type(ValueTensorType(DenseTensorType {
            dtype: f32_ty,
            dims: [-1, 4].into(),
            layout: DataLayout::NHWC,
            lod: Box::new([Box::new([0, 2, 4])]),
            offset: 3,
        }));
        assert_eq!(ctx.display_type(vt), "v_tensor<-1x4xf32>");
        let mut json = Vec::new();
        serial::encode_type(&ctx, vt, &mut JsonWriter::compact(&mut json)).unwrap();
        let json = String::from_utf8(json).unwrap();
        assert_eq!(
            json,
            r##"{"#":"vt.t_vtensor","D":[{"#":"0.t_f32"},[-1,4],"NHWC",[[0,2,4]],3]}"##
        );
        let dense = ValueTensorType::to_dense(&ctx, vt).unwrap();
        assert_eq!(ValueTensorType::from_dense(&ctx, dense), Some(vt));
        assert_eq!(ValueTensorType::from_dense(&ctx, vt), None);
        assert_eq!(ValueTensorType::to_dense(&ctx, dense), None);
    }
}
