//! Tensors bound to a program's parameters: the one API through which the
//! loader, the passes and the writer read, create, replace and drop them.
//!
//! A [`Program`] keeps its parameters by name ([`Program::parameter`]) with
//! optional data behind the [`ParameterData`] trait; the data is a [`Tensor`]
//! (memory-mapped when it came from a file, so untouched parameters are never
//! copied). This module also owns the one mapping between the IR's element
//! types and [`DType`].
//!
//! ```
//! use pir_params::{bound, DType, Tensor};
//! let ctx = pir_core::IrContext::new();
//! let mut p = pir_core::Program::new(std::sync::Arc::new(ctx));
//! let t = Tensor::from_slice(DType::Float32, vec![2], &[1.0f32, 2.0]).unwrap();
//! bound::bind(&mut p, "w", t.clone()).unwrap();
//! assert_eq!(bound::tensor(&p, "w"), Some(&t));
//! assert_eq!(bound::declared(&p, p.parameter("w").unwrap().ty), Some((DType::Float32, vec![2])));
//! ```

use std::sync::Arc;

use pir_core::builtin::{DenseTensorType, ScalarType};
use pir_core::{IrContext, Parameter, ParameterData, Program, Type};

use crate::{DType, Tensor};

impl ParameterData for Tensor {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn bytes(&self) -> &[u8] {
        Tensor::bytes(self)
    }
}

/// The tensor bound to parameter `name`, if the parameter exists and has data.
pub fn tensor<'p>(program: &'p Program, name: &str) -> Option<&'p Tensor> {
    let data = program.parameter(name)?.data.as_ref()?;
    data.as_any().downcast_ref::<Tensor>()
}

/// Whether a parameter file holds the value of parameter op `op`: not when
/// its `persistable` mark is false (an RNN's dropout state, which Paddle
/// makes at run time and never saves), else yes (an inference file marks
/// nothing).
pub fn is_saved(program: &Program, op: pir_core::OpId) -> bool {
    let mark = program
        .attr(op, "persistable")
        .and_then(|a| pir_core::builtin::first_bool(program.ctx(), a));
    saved_by_mark(mark)
}

/// [`is_saved`] of a parameter op whose `persistable` mark (the first
/// element of its `[bool]` array) is `mark`, for a caller that reads the
/// mark itself (by a symbol it looked up once).
pub fn saved_by_mark(mark: Option<bool>) -> bool {
    mark != Some(false)
}

/// Binds `tensor` to parameter `name` with the dense tensor type of its dtype
/// and dims, creating or replacing the parameter. Fails for a dtype the IR
/// has no element type for.
pub fn bind(program: &mut Program, name: &str, tensor: Tensor) -> Result<Type, UnboundDType> {
    let ty = tensor_type(program.ctx(), tensor.dtype(), tensor.dims())?;
    bind_typed(program, name, ty, tensor);
    Ok(ty)
}

/// Binds `tensor` to parameter `name` under a type the caller has checked
/// (e.g. the program's declaration, which may have dynamic dims).
pub fn bind_typed(program: &mut Program, name: &str, ty: Type, tensor: Tensor) {
    program.set_parameter(
        name,
        Parameter {
            ty,
            data: Some(Arc::new(tensor)),
        },
    );
}

/// Drops parameter `name` and its data; returns whether it existed.
pub fn drop(program: &mut Program, name: &str) -> bool {
    program.remove_parameter(name).is_some()
}

/// A [`DType`] the IR has no element type for (e.g. `uint16` used as raw storage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{0} has no PIR element type")]
pub struct UnboundDType(pub DType);

/// The IR element type of `dtype`.
pub fn scalar_of(dtype: DType) -> Result<ScalarType, UnboundDType> {
    Ok(match dtype {
        DType::BFloat16 => ScalarType::BF16,
        DType::Float16 => ScalarType::F16,
        DType::Float32 => ScalarType::F32,
        DType::Float64 => ScalarType::F64,
        DType::Int8 => ScalarType::I8,
        DType::UInt8 => ScalarType::U8,
        DType::Int16 => ScalarType::I16,
        DType::Int32 => ScalarType::I32,
        DType::Int64 => ScalarType::I64,
        DType::Bool => ScalarType::Bool,
        DType::Complex64 => ScalarType::C64,
        DType::Complex128 => ScalarType::C128,
        DType::Float8E4M3FN => ScalarType::F8E4M3FN,
        DType::Float8E5M2 => ScalarType::F8E5M2,
        other => return Err(UnboundDType(other)),
    })
}

/// The [`DType`] of an IR element type (`None` for `index` and undefined).
pub fn dtype_of(scalar: ScalarType) -> Option<DType> {
    Some(match scalar {
        ScalarType::BF16 => DType::BFloat16,
        ScalarType::F16 => DType::Float16,
        ScalarType::F32 => DType::Float32,
        ScalarType::F64 => DType::Float64,
        ScalarType::I8 => DType::Int8,
        ScalarType::U8 => DType::UInt8,
        ScalarType::I16 => DType::Int16,
        ScalarType::I32 => DType::Int32,
        ScalarType::I64 => DType::Int64,
        ScalarType::Bool => DType::Bool,
        ScalarType::C64 => DType::Complex64,
        ScalarType::C128 => DType::Complex128,
        ScalarType::F8E4M3FN => DType::Float8E4M3FN,
        ScalarType::F8E5M2 => DType::Float8E5M2,
        ScalarType::Index | ScalarType::Undefined => return None,
    })
}

/// The dense tensor type (`tensor<2x3xf32>`) of `dtype` and `dims`.
pub fn tensor_type(ctx: &IrContext, dtype: DType, dims: &[i64]) -> Result<Type, UnboundDType> {
    let scalar = ctx.intern_type(scalar_of(dtype)?);
    Ok(DenseTensorType::get(ctx, scalar, dims))
}

/// The dtype and dims a program type declares, when it is a dense tensor of
/// an element type with a [`DType`].
pub fn declared(program: &Program, ty: Type) -> Option<(DType, Vec<i64>)> {
    declared_in(program.ctx(), ty).map(|(dtype, dims)| (dtype, dims.to_vec()))
}

/// [`declared`] borrowing the dims from the context (no allocation).
pub fn declared_in(ctx: &IrContext, ty: Type) -> Option<(DType, &[i64])> {
    let t = ctx.type_as::<DenseTensorType>(ty)?;
    let scalar = ctx.type_as::<ScalarType>(t.dtype)?;
    Some((dtype_of(*scalar)?, &t.dims))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bound_dtype_maps_back() {
        for &s in ScalarType::ALL {
            if let Some(d) = dtype_of(s) {
                assert_eq!(scalar_of(d), Ok(s));
            }
        }
        assert_eq!(scalar_of(DType::UInt16), Err(UnboundDType(DType::UInt16)));
    }

    #[test]
    fn bind_replace_and_drop() {
        let mut p = Program::new(Arc::new(IrContext::new()));
        let a = Tensor::from_slice(DType::Int64, vec![1], &[7i64]).unwrap();
        let b = Tensor::from_slice(DType::Float64, vec![2], &[1.0f64, 2.0]).unwrap();
        bind(&mut p, "x", a).unwrap();
        let ty = bind(&mut p, "x", b.clone()).unwrap();
        assert_eq!(tensor(&p, "x"), Some(&b));
        assert_eq!(declared(&p, ty), Some((DType::Float64, vec![2])));
        assert!(drop(&mut p, "x"));
        assert!(!drop(&mut p, "x"));
        assert_eq!(tensor(&p, "x"), None);
    }
}
