//! How the exporter reads Paddle types: the dtypes and dims of operands
//! and results, and the ONNX types (`TypeProto`) stated for graph inputs,
//! outputs and `value_info`.

use pir_core::builtin::DenseTensorType;
use pir_core::Type;
use pir_dialects::pd_op::DenseTensorArrayType;
use pir_params::DType;

use crate::export::{onnx_dtype, Exporter};
use crate::proto::{tensor_shape_proto, type_proto, DataType, TensorShapeProto, TypeProto};
use crate::ExportError;

impl Exporter<'_> {
    /// The dtype of a tensor type.
    pub fn dtype_of_type(&self, ty: Type) -> Option<DType> {
        let ctx = self.p.ctx();
        let elem = if let Some(t) = ctx.type_as::<DenseTensorType>(ty) {
            t.dtype
        } else if let Some(t) = ctx.type_as::<DenseTensorArrayType>(ty) {
            t.dtype
        } else {
            return None;
        };
        let scalar = ctx.type_as::<pir_core::builtin::ScalarType>(elem)?;
        pir_params::bound::dtype_of(*scalar)
    }

    /// The dims of a tensor type (`-1`: unknown).
    pub fn dims_of_type(&self, ty: Type) -> Option<Vec<i64>> {
        let ctx = self.p.ctx();
        if let Some(t) = ctx.type_as::<DenseTensorType>(ty) {
            return Some(t.dims.to_vec());
        }
        ctx.type_as::<DenseTensorArrayType>(ty)
            .map(|t| t.dims.to_vec())
    }

    /// The dtype of operand `i`.
    pub fn in_dtype(&self, i: usize) -> Result<DType, ExportError> {
        self.read_type(Slot::Operand(i), Self::dtype_of_type)
    }

    /// The dims of operand `i`.
    pub fn in_dims(&self, i: usize) -> Result<Vec<i64>, ExportError> {
        self.read_type(Slot::Operand(i), Self::dims_of_type)
    }

    /// The rank of operand `i`.
    pub fn in_rank(&self, i: usize) -> Result<i64, ExportError> {
        Ok(self.in_dims(i)?.len() as i64)
    }

    /// The dtype of result `i`.
    pub fn out_dtype(&self, i: usize) -> Result<DType, ExportError> {
        self.read_type(Slot::Result(i), Self::dtype_of_type)
    }

    /// The dims of result `i`.
    pub fn out_dims(&self, i: usize) -> Result<Vec<i64>, ExportError> {
        self.read_type(Slot::Result(i), Self::dims_of_type)
    }

    /// `read` of the Paddle type of an operand or result of the op, or an
    /// error naming it when it is absent or not a tensor.
    fn read_type<T>(
        &self,
        slot: Slot,
        read: fn(&Self, Type) -> Option<T>,
    ) -> Result<T, ExportError> {
        let v = match slot {
            Slot::Operand(i) => self.operand(i),
            Slot::Result(i) => self.result(i),
        };
        let v = v.ok_or_else(|| {
            self.unsupported(match slot {
                Slot::Operand(i) => format!("operand {i} is absent"),
                Slot::Result(i) => format!("no result {i}"),
            })
        })?;
        read(self, self.p.value_type(v)).ok_or_else(|| {
            self.unsupported(match slot {
                Slot::Operand(i) => format!("operand {i} is not a tensor"),
                Slot::Result(i) => format!("result {i} is not a tensor"),
            })
        })
    }

    /// The ONNX element type of a dtype, or an error.
    pub fn onnx_type(&self, d: DType) -> Result<DataType, ExportError> {
        onnx_dtype(d).ok_or_else(|| self.unsupported(format!("ONNX has no {d} tensors")))
    }

    /// The ONNX type of a program type; `dim_name` names the unknown dims
    /// (or leaves them unnamed with `None`).
    pub fn type_proto(
        &self,
        ty: Type,
        dim_name: &dyn Fn(usize) -> Option<String>,
    ) -> Option<TypeProto> {
        let ctx = self.p.ctx();
        if let Some(arr) = ctx.type_as::<DenseTensorArrayType>(ty) {
            let scalar = ctx.type_as::<pir_core::builtin::ScalarType>(arr.dtype)?;
            let elem = onnx_dtype(pir_params::bound::dtype_of(*scalar)?)?;
            let inner = TypeProto {
                value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                    elem_type: elem as i32,
                    shape: None,
                })),
            };
            return Some(TypeProto {
                value: Some(type_proto::Value::SequenceType(type_proto::Sequence {
                    elem_type: Some(Box::new(inner)),
                })),
            });
        }
        let dtype = self.dtype_of_type(ty)?;
        let dims = self.dims_of_type(ty)?;
        let elem = onnx_dtype(dtype)?;
        let dim = dims
            .iter()
            .enumerate()
            .map(|(axis, &d)| tensor_shape_proto::Dimension {
                value: if d >= 0 {
                    Some(tensor_shape_proto::dimension::Value::DimValue(d))
                } else {
                    dim_name(axis).map(tensor_shape_proto::dimension::Value::DimParam)
                },
            })
            .collect();
        Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type: elem as i32,
                shape: Some(TensorShapeProto { dim }),
            })),
        })
    }

    /// The ONNX type of a computed value: with its shape when shapes are
    /// trusted, else its element type and rank only.
    pub fn result_type_proto(&self, ty: Type) -> Option<TypeProto> {
        let mut tp = self.type_proto(ty, &|_| None)?;
        if !self.trust_shapes {
            if let Some(type_proto::Value::TensorType(t)) = &mut tp.value {
                if let Some(shape) = &mut t.shape {
                    for d in &mut shape.dim {
                        d.value = None;
                    }
                }
            }
        }
        Some(tp)
    }
}

/// An operand or result of the op being mapped, by index.
#[derive(Clone, Copy)]
enum Slot {
    Operand(usize),
    Result(usize),
}
