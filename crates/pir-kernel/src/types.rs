//! The kernel dialect's types: an operator-dialect tensor type placed on a
//! device (Paddle's `Allocated*Type`s of `kernel_type.h`).
//!
//! Paddle has one class per operator type — `AllocatedDenseTensorType`,
//! `AllocatedSelectedRowsType`, `AllocatedDenseTensorArrayType`,
//! `AllocatedSparseCooTensorType`, `AllocatedSparseCsrTensorType` — each the
//! operator type's data plus a place. Here one kind, [`AllocatedType`], holds
//! the place and the operator type itself, so the five share their code and
//! the operator type keeps its own printer and checks. The text is Paddle's:
//! the place's allocation type, then the kind (`cpu_tensor<2x3xf32>`,
//! `undefined_tensor<-1x4xf32>`, `cpu_tensor_array<f32>`; selected rows print
//! as tensors). The typed form writes `kernel.alloc<Place(cpu), TYPE>` with
//! the operator type's typed text, so nothing is lost.
//!
//! ```
//! use pir_core::builtin::{DenseTensorType, ScalarType};
//! use pir_dialects::pd_op::Place;
//! use pir_kernel::types::AllocatedType;
//! let ctx = pir_kernel::kernel_context();
//! let f32_ty = ctx.intern_type(ScalarType::F32);
//! let dense = DenseTensorType::get(&ctx, f32_ty, &[2, 3]);
//! let on_cpu = AllocatedType::get(&ctx, Place::cpu(), dense);
//! assert_eq!(ctx.display_type(on_cpu), "cpu_tensor<2x3xf32>");
//! ```

use pir_core::builtin::{print_shape_and_dtype, DenseTensorType, VectorType};
use pir_core::parser::{Expect, ParseError, Parser};
use pir_core::printer::Printer;
use pir_core::{IrContext, Type, TypeDef};
use pir_dialects::pd_op::{
    DenseTensorArrayType, Place, PlaceAttr, SelectedRowsType, SparseCooTensorType,
    SparseCsrTensorType,
};

/// The keyword of the typed form.
const TYPED_KEYWORD: &str = "kernel.alloc";

/// An operator-dialect type placed on a device: what a kernel reads and writes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AllocatedType {
    /// Where the data lives (undefined for data fed from outside).
    pub place: Place,
    /// The operator-dialect type: a dense tensor, selected rows, tensor
    /// array or sparse tensor.
    pub inner: Type,
}

impl AllocatedType {
    /// Interns `inner` placed at `place`. `inner` should be one of the kinds
    /// [`AllocatedType::can_hold`] accepts.
    pub fn get(ctx: &IrContext, place: Place, inner: Type) -> Type {
        ctx.intern_type(AllocatedType { place, inner })
    }

    /// Whether `ty` is an operator type a kernel type can hold.
    pub fn can_hold(ctx: &IrContext, ty: Type) -> bool {
        ctx.type_is::<DenseTensorType>(ty)
            || ctx.type_is::<SelectedRowsType>(ty)
            || ctx.type_is::<DenseTensorArrayType>(ty)
            || ctx.type_is::<SparseCooTensorType>(ty)
            || ctx.type_is::<SparseCsrTensorType>(ty)
    }

    /// `ty` as a kernel type at `place` (Paddle's `ConvertOpTypeToKernelType`):
    /// vectors element-wise, null types kept; `None` for a type no kernel
    /// type holds.
    pub fn convert(ctx: &IrContext, ty: Type, place: &Place) -> Option<Type> {
        if ty.is_null() {
            return Some(ty);
        }
        if let Some(vec) = ctx.type_as::<VectorType>(ty) {
            let items = vec
                .0
                .iter()
                .map(|&t| AllocatedType::convert(ctx, t, place))
                .collect::<Option<Vec<_>>>()?;
            return Some(VectorType::get(ctx, &items));
        }
        AllocatedType::can_hold(ctx, ty).then(|| AllocatedType::get(ctx, place.clone(), ty))
    }

    /// The operator type of a kernel type (vectors element-wise); other
    /// types are returned as they are.
    pub fn operator_type(ctx: &IrContext, ty: Type) -> Type {
        if let Some(a) = ctx.type_as::<AllocatedType>(ty) {
            return a.inner;
        }
        if let Some(vec) = ctx.type_as::<VectorType>(ty) {
            let items: Vec<Type> = vec
                .0
                .iter()
                .map(|&t| AllocatedType::operator_type(ctx, t))
                .collect();
            return VectorType::get(ctx, &items);
        }
        ty
    }
}

/// Paddle's name of an allocation type (`phi::AllocationTypeStr`).
pub fn allocation_type_str(place: &Place) -> &str {
    match place.allocation_type {
        0 => "undefined",
        1 => "cpu",
        2 => "gpu",
        3 => "gpu_pinned",
        4 => "xpu",
        5 => "xpu_pinned",
        7 => "ipu",
        _ => "custom",
    }
}

impl TypeDef for AllocatedType {
    const NAME: &'static str = "pd_kernel.allocated";
    const KEYWORDS: &'static [&'static str] = &[TYPED_KEYWORD];

    fn print(&self, p: &mut Printer<'_>) {
        if p.is_typed() {
            p.write_str(TYPED_KEYWORD);
            p.write_str("<");
            p.print_attr(PlaceAttr::get(p.ctx(), self.place.clone()));
            p.write_str(", ");
            p.print_type(self.inner);
            p.write_str(">");
            return;
        }
        let ctx = p.ctx();
        p.write_str(allocation_type_str(&self.place));
        if let Some(d) = ctx.type_as::<DenseTensorType>(self.inner) {
            p.write_str("_tensor<");
            print_shape_and_dtype(p, &d.dims, d.dtype);
        } else if let Some(s) = ctx.type_as::<SelectedRowsType>(self.inner) {
            p.write_str("_tensor<");
            print_shape_and_dtype(p, &s.0.dims, s.0.dtype);
        } else if let Some(a) = ctx.type_as::<DenseTensorArrayType>(self.inner) {
            p.write_str("_tensor_array<");
            p.print_type(a.dtype);
        } else if let Some(s) = ctx.type_as::<SparseCooTensorType>(self.inner) {
            p.write_str("_sparse_coo_tensor_type<");
            p.print_type(s.dtype);
        } else if let Some(s) = ctx.type_as::<SparseCsrTensorType>(self.inner) {
            p.write_str("_sparse_csr_tensor_type<");
            p.print_type(s.dtype);
        } else {
            p.write_str("_<");
            p.print_type(self.inner);
        }
        p.write_str(">");
    }

    /// The typed form `kernel.alloc<Place(cpu), TYPE>`.
    fn parse(p: &mut Parser<'_>, _: &str, _: usize) -> Result<Type, ParseError> {
        p.cur.expect("<", "to open the kernel type")?;
        let start = p.cur.pos();
        let place_attr = p.parse_attr(Expect::Any)?;
        let Some(place) = p
            .ctx()
            .attr_as::<PlaceAttr>(place_attr)
            .map(|a| a.0.clone())
        else {
            return Err(p.error_at(start, 1, "expected a place such as Place(cpu)"));
        };
        p.cur.expect(",", "after the place")?;
        let start = p.cur.pos();
        let inner = p.parse_type()?;
        if !AllocatedType::can_hold(p.ctx(), inner) {
            return Err(p.error_at(start, 1, "a kernel type holds a tensor type"));
        }
        p.cur.expect(">", "to close the kernel type")?;
        Ok(AllocatedType::get(p.ctx(), place, inner))
    }

    unsaved_kind_codec!(Type, "kernel type");
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test fails loudly by design

    use super::*;
    use pir_core::builtin::{DataLayout, ScalarType};
    use std::sync::Arc;

    #[test]
    fn kinds_print_as_paddles_kernel_dialect_does() {
        let ctx = crate::kernel_context();
        let f32_ty = ctx.intern_type(ScalarType::F32);
        let dense = DenseTensorType::get(&ctx, f32_ty, &[-1, 4]);
        let undefined = AllocatedType::get(&ctx, Place::undefined(), dense);
        assert_eq!(ctx.display_type(undefined), "undefined_tensor<-1x4xf32>");
        let array = ctx.intern_type(DenseTensorArrayType {
            dtype: f32_ty,
            dims: Box::new([]),
            layout: DataLayout::NCHW,
        });
        let on_cpu = AllocatedType::get(&ctx, Place::cpu(), array);
        assert_eq!(ctx.display_type(on_cpu), "cpu_tensor_array<f32>");
        let scalar = DenseTensorType::get(&ctx, f32_ty, &[]);
        assert_eq!(
            ctx.display_type(AllocatedType::get(&ctx, Place::cpu(), scalar)),
            "cpu_tensor<f32>"
        );
    }

    #[test]
    fn the_typed_form_reads_back_to_the_same_type() {
        let ctx: Arc<IrContext> = crate::kernel_context();
        let f32_ty = ctx.intern_type(ScalarType::F32);
        let dense = DenseTensorType::get(&ctx, f32_ty, &[2, 3]);
        let ty = AllocatedType::get(&ctx, Place::cpu(), dense);
        let mut out = Vec::new();
        let options = pir_core::printer::PrintOptions {
            typed: true,
            json_ids: false,
        };
        Printer::with_options(&ctx, &mut out, options).print_type(ty);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("kernel.alloc<"), "{text}");
        assert_eq!(pir_core::parser::parse_type_text(&ctx, &text).unwrap(), ty);
    }

    #[test]
    fn conversion_keeps_vectors_and_nulls_and_refuses_scalars() {
        let ctx = crate::kernel_context();
        let f32_ty = ctx.intern_type(ScalarType::F32);
        let dense = DenseTensorType::get(&ctx, f32_ty, &[3]);
        let vec = VectorType::get(&ctx, &[dense, dense]);
        let converted = AllocatedType::convert(&ctx, vec, &Place::cpu()).unwrap();
        assert_eq!(
            ctx.display_type(converted),
            "vec[cpu_tensor<3xf32>,cpu_tensor<3xf32>]"
        );
        assert_eq!(AllocatedType::operator_type(&ctx, converted), vec);
        assert_eq!(AllocatedType::convert(&ctx, f32_ty, &Place::cpu()), None);
    }
}
