//! Small ONNX protobuf values the exporter and its mappers build: node
//! attributes, element types and the bytes of constant tensors.

use pir_params::DType;

use crate::proto::{AttributeProto, AttributeType, DataType, GraphProto, TensorProto};

/// The ONNX element type of a dtype.
pub(crate) fn onnx_dtype(d: DType) -> Option<DataType> {
    Some(match d {
        DType::Bool => DataType::Bool,
        DType::Int8 => DataType::Int8,
        DType::UInt8 => DataType::Uint8,
        DType::Int16 => DataType::Int16,
        DType::UInt16 => DataType::Uint16,
        DType::Int32 => DataType::Int32,
        DType::UInt32 => DataType::Uint32,
        DType::Int64 => DataType::Int64,
        DType::UInt64 => DataType::Uint64,
        DType::Float16 => DataType::Float16,
        DType::BFloat16 => DataType::Bfloat16,
        DType::Float32 => DataType::Float,
        DType::Float64 => DataType::Double,
        DType::Complex64 => DataType::Complex64,
        DType::Complex128 => DataType::Complex128,
        DType::Float8E4M3FN | DType::Float8E5M2 => return None,
    })
}

/// An ONNX attribute.
pub(crate) fn a_int(name: &str, i: i64) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Int as i32,
        i,
        ..Default::default()
    }
}

/// An ONNX attribute.
pub(crate) fn a_float(name: &str, f: f64) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Float as i32,
        f: f as f32,
        ..Default::default()
    }
}

/// An ONNX attribute.
pub(crate) fn a_ints(name: &str, ints: &[i64]) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Ints as i32,
        ints: ints.to_vec(),
        ..Default::default()
    }
}

/// An ONNX attribute.
pub(crate) fn a_str(name: &str, s: &str) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::String as i32,
        s: s.as_bytes().to_vec(),
        ..Default::default()
    }
}

/// An ONNX attribute.
pub(crate) fn a_graph(name: &str, g: GraphProto) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Graph as i32,
        g: Some(g),
        ..Default::default()
    }
}

/// An ONNX attribute.
pub(crate) fn a_tensor(name: &str, t: TensorProto) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Tensor as i32,
        t: Some(t),
        ..Default::default()
    }
}

/// The little-endian bytes of `values` as elements of `dtype`.
pub(crate) fn encode_values(dtype: DType, values: &[f64]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(values.len() * 8);
    for &v in values {
        match dtype {
            DType::Bool => out.push(u8::from(v != 0.0)),
            DType::Int8 => out.push(v as i8 as u8),
            DType::UInt8 => out.push(v as u8),
            DType::Int16 => out.extend((v as i16).to_le_bytes()),
            DType::Int32 => out.extend((v as i32).to_le_bytes()),
            DType::Int64 => out.extend((v as i64).to_le_bytes()),
            DType::Float16 => out.extend(half::f16::from_f64(v).to_le_bytes()),
            DType::BFloat16 => out.extend(half::bf16::from_f64(v).to_le_bytes()),
            DType::Float32 => out.extend((v as f32).to_le_bytes()),
            DType::Float64 => out.extend(v.to_le_bytes()),
            _ => return None,
        }
    }
    Some(out)
}
