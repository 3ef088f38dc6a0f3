//! Operand and result types against the kinds an op definition declares, as
//! Paddle's generated `VerifySig` checks them: a `DenseTensorType` input
//! takes a dense tensor, a `DenseTensorArrayType` input a tensor array, a
//! `VectorType<X>` input a `builtin.vec` of X (or one X), and so on. Paddle
//! refuses such an op when it is built (`Type validation failed for the 0th
//! input, got pd_op.tensor_array<i64>`); so do we, in the verifier.
//!
//! Only types of a *different* known kind are refused. Types Paddle would see
//! through or that only exist here (dist tensors, value tensors
//! `v_tensor<…>`, unregistered types) pass, so no program Paddle accepts is
//! refused.

use pir_core::builtin::{DenseTensorType, VectorType};
use pir_core::{IrContext, Type};

use crate::op_def::ValueKind;
use crate::pd_op::{
    DenseTensorArrayType, SelectedRowsType, SparseCooTensorType, SparseCsrTensorType,
};

/// The kinds of type Paddle's verifiers tell apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Category {
    Dense,
    SelectedRows,
    Array,
    SparseCoo,
    SparseCsr,
    Vector,
    /// Any other type: never refused.
    Other,
}

fn category(ctx: &IrContext, ty: Type) -> Category {
    if ctx.type_as::<DenseTensorType>(ty).is_some() {
        Category::Dense
    } else if ctx.type_as::<SelectedRowsType>(ty).is_some() {
        Category::SelectedRows
    } else if ctx.type_as::<DenseTensorArrayType>(ty).is_some() {
        Category::Array
    } else if ctx.type_as::<SparseCooTensorType>(ty).is_some() {
        Category::SparseCoo
    } else if ctx.type_as::<SparseCsrTensorType>(ty).is_some() {
        Category::SparseCsr
    } else if ctx.type_as::<VectorType>(ty).is_some() {
        Category::Vector
    } else {
        Category::Other
    }
}

/// Whether a value of type `ty` may be where the definition declares
/// `kind`; `mutable_attribute` inputs take a dense tensor or a vector of
/// them (an `IntArray` from `builtin.combine`).
pub fn fits(ctx: &IrContext, ty: Type, kind: ValueKind, mutable_attribute: bool) -> bool {
    // A type of no known kind is never refused.
    let is = |t: Type, want: Category| match category(ctx, t) {
        Category::Other => true,
        c => c == want,
    };
    let one = |want: Category| is(ty, want);
    let vector_of = |want: Category| match ctx.type_as::<VectorType>(ty) {
        Some(v) => v.0.iter().all(|&t| is(t, want)),
        None => one(want),
    };
    match kind {
        ValueKind::DenseTensor if mutable_attribute => vector_of(Category::Dense),
        ValueKind::DenseTensor => one(Category::Dense),
        ValueKind::SelectedRows => one(Category::SelectedRows),
        ValueKind::DenseTensorArray => one(Category::Array),
        ValueKind::SparseCoo => one(Category::SparseCoo),
        ValueKind::SparseCsr => one(Category::SparseCsr),
        ValueKind::VectorDenseTensor => vector_of(Category::Dense),
        ValueKind::VectorSelectedRows => vector_of(Category::SelectedRows),
        ValueKind::VectorDenseTensorArray => vector_of(Category::Array),
        ValueKind::Any => true,
    }
}

/// How `kind` reads in an error message.
pub fn describe(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::DenseTensor => "a dense tensor",
        ValueKind::SelectedRows => "selected rows",
        ValueKind::DenseTensorArray => "a tensor array",
        ValueKind::SparseCoo => "a sparse COO tensor",
        ValueKind::SparseCsr => "a sparse CSR tensor",
        ValueKind::VectorDenseTensor => "a vector of dense tensors",
        ValueKind::VectorSelectedRows => "a vector of selected rows",
        ValueKind::VectorDenseTensorArray => "a vector of tensor arrays",
        ValueKind::Any => "any value",
    }
}
