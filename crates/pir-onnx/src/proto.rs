//! ONNX's protobuf messages, the subset an exporter writes, as `prost`
//! structs derived by hand from `onnx/onnx.proto` of ONNX 1.17 (IR version
//! 10): field numbers and wire types follow that file exactly, so any ONNX
//! reader decodes what these encode. Fields a writer never sets (training
//! info, sparse tensors, functions, quantization annotations) are left out;
//! prost skips them when decoding a file that has them.
//!
//! ```
//! use pir_onnx::proto::{ModelProto, OperatorSetIdProto};
//! use prost::Message;
//! let model = ModelProto {
//!     ir_version: 8,
//!     opset_import: vec![OperatorSetIdProto { domain: String::new(), version: 17 }],
//!     ..Default::default()
//! };
//! let bytes = model.encode_to_vec();
//! assert_eq!(ModelProto::decode(bytes.as_slice()).unwrap(), model);
//! ```

/// A whole model: the graph and the opsets it binds to.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ModelProto {
    /// The IR version the file follows.
    #[prost(int64, tag = "1")]
    pub ir_version: i64,
    /// The operator sets the graph's nodes bind against.
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
    /// The tool that wrote the file.
    #[prost(string, tag = "2")]
    pub producer_name: String,
    /// Its version.
    #[prost(string, tag = "3")]
    pub producer_version: String,
    /// Reverse-DNS domain of the model.
    #[prost(string, tag = "4")]
    pub domain: String,
    /// Version of the model.
    #[prost(int64, tag = "5")]
    pub model_version: i64,
    /// Free text.
    #[prost(string, tag = "6")]
    pub doc_string: String,
    /// The main graph.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// Named metadata.
    #[prost(message, repeated, tag = "14")]
    pub metadata_props: Vec<StringStringEntryProto>,
}

/// An operator set a model imports.
#[derive(Clone, PartialEq, prost::Message)]
pub struct OperatorSetIdProto {
    /// Empty for the default `ai.onnx` domain.
    #[prost(string, tag = "1")]
    pub domain: String,
    /// The opset version.
    #[prost(int64, tag = "2")]
    pub version: i64,
}

/// A key and a value (external data locations, metadata).
#[derive(Clone, PartialEq, prost::Message)]
pub struct StringStringEntryProto {
    /// The key.
    #[prost(string, tag = "1")]
    pub key: String,
    /// The value.
    #[prost(string, tag = "2")]
    pub value: String,
}

/// A graph: nodes in topological order, its inputs, outputs and constants.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GraphProto {
    /// The nodes, each after the producers of its inputs.
    #[prost(message, repeated, tag = "1")]
    pub node: Vec<NodeProto>,
    /// The graph's name.
    #[prost(string, tag = "2")]
    pub name: String,
    /// Constant tensors (parameters).
    #[prost(message, repeated, tag = "5")]
    pub initializer: Vec<TensorProto>,
    /// Free text.
    #[prost(string, tag = "10")]
    pub doc_string: String,
    /// The graph's inputs.
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// The graph's outputs.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
    /// Types of intermediate values.
    #[prost(message, repeated, tag = "13")]
    pub value_info: Vec<ValueInfoProto>,
}

/// One operator application.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NodeProto {
    /// Input value names (empty string: an absent optional input).
    #[prost(string, repeated, tag = "1")]
    pub input: Vec<String>,
    /// Output value names.
    #[prost(string, repeated, tag = "2")]
    pub output: Vec<String>,
    /// The node's name.
    #[prost(string, tag = "3")]
    pub name: String,
    /// The operator.
    #[prost(string, tag = "4")]
    pub op_type: String,
    /// The operator's domain (empty: `ai.onnx`).
    #[prost(string, tag = "7")]
    pub domain: String,
    /// Attributes.
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeProto>,
    /// Free text (the Paddle op the node came from).
    #[prost(string, tag = "6")]
    pub doc_string: String,
}

/// The kinds of attribute values (`AttributeProto.AttributeType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum AttributeType {
    /// Not set.
    Undefined = 0,
    /// `f`.
    Float = 1,
    /// `i`.
    Int = 2,
    /// `s`.
    String = 3,
    /// `t`.
    Tensor = 4,
    /// `g`.
    Graph = 5,
    /// `floats`.
    Floats = 6,
    /// `ints`.
    Ints = 7,
    /// `strings`.
    Strings = 8,
    /// `tensors`.
    Tensors = 9,
    /// `graphs`.
    Graphs = 10,
}

/// A named attribute of a node; `type` says which field holds the value.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AttributeProto {
    /// The attribute's name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Which value field is set.
    #[prost(enumeration = "AttributeType", tag = "20")]
    pub r#type: i32,
    /// A float.
    #[prost(float, tag = "2")]
    pub f: f32,
    /// An integer.
    #[prost(int64, tag = "3")]
    pub i: i64,
    /// A string (UTF-8 bytes).
    #[prost(bytes = "vec", tag = "4")]
    pub s: Vec<u8>,
    /// A tensor.
    #[prost(message, optional, tag = "5")]
    pub t: Option<TensorProto>,
    /// A graph (`If` branches, `Loop` bodies).
    #[prost(message, optional, tag = "6")]
    pub g: Option<GraphProto>,
    /// Floats.
    #[prost(float, repeated, tag = "7")]
    pub floats: Vec<f32>,
    /// Integers.
    #[prost(int64, repeated, tag = "8")]
    pub ints: Vec<i64>,
    /// Strings.
    #[prost(bytes = "vec", repeated, tag = "9")]
    pub strings: Vec<Vec<u8>>,
}

/// A value's name and type.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ValueInfoProto {
    /// The value's name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Its type.
    #[prost(message, optional, tag = "2")]
    pub r#type: Option<TypeProto>,
    /// Free text.
    #[prost(string, tag = "3")]
    pub doc_string: String,
}

/// A value's type: a tensor or a sequence.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TypeProto {
    /// Which type.
    #[prost(oneof = "type_proto::Value", tags = "1, 4")]
    pub value: Option<type_proto::Value>,
}

/// The variants of [`TypeProto`].
pub mod type_proto {
    /// A tensor type: element type and shape.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Tensor {
        /// The element type ([`super::DataType`]).
        #[prost(int32, tag = "1")]
        pub elem_type: i32,
        /// The shape; absent when the rank is unknown.
        #[prost(message, optional, tag = "2")]
        pub shape: Option<super::TensorShapeProto>,
    }

    /// A sequence of values of one type.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Sequence {
        /// The type of the elements.
        #[prost(message, optional, boxed, tag = "1")]
        pub elem_type: Option<Box<super::TypeProto>>,
    }

    /// The type's kind.
    #[derive(Clone, PartialEq, prost::Oneof)]
    pub enum Value {
        /// A tensor.
        #[prost(message, tag = "1")]
        TensorType(Tensor),
        /// A sequence.
        #[prost(message, tag = "4")]
        SequenceType(Sequence),
    }
}

/// A shape: one entry per axis.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorShapeProto {
    /// The axes.
    #[prost(message, repeated, tag = "1")]
    pub dim: Vec<tensor_shape_proto::Dimension>,
}

/// The parts of [`TensorShapeProto`].
pub mod tensor_shape_proto {
    /// One axis: a size, a symbol, or neither (unknown).
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Dimension {
        /// The size or symbol.
        #[prost(oneof = "dimension::Value", tags = "1, 2")]
        pub value: Option<dimension::Value>,
    }

    /// The variants of [`Dimension`].
    pub mod dimension {
        /// A known size or a named unknown one.
        #[derive(Clone, PartialEq, prost::Oneof)]
        pub enum Value {
            /// A fixed size.
            #[prost(int64, tag = "1")]
            DimValue(i64),
            /// A named size fixed when the model runs.
            #[prost(string, tag = "2")]
            DimParam(String),
        }
    }
}

/// A constant tensor: raw little-endian bytes, or a reference to external
/// data.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorProto {
    /// The dims.
    #[prost(int64, repeated, tag = "1")]
    pub dims: Vec<i64>,
    /// The element type ([`DataType`]).
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    /// Floats, when not raw.
    #[prost(float, repeated, tag = "4")]
    pub float_data: Vec<f32>,
    /// 64-bit integers, when not raw.
    #[prost(int64, repeated, tag = "7")]
    pub int64_data: Vec<i64>,
    /// The tensor's name.
    #[prost(string, tag = "8")]
    pub name: String,
    /// The elements as little-endian bytes.
    #[prost(bytes = "vec", tag = "9")]
    pub raw_data: Vec<u8>,
    /// Free text.
    #[prost(string, tag = "12")]
    pub doc_string: String,
    /// Where the data lies when `data_location` is external.
    #[prost(message, repeated, tag = "13")]
    pub external_data: Vec<StringStringEntryProto>,
    /// 0: in this message; 1: external.
    #[prost(int32, tag = "14")]
    pub data_location: i32,
}

/// ONNX element types (`TensorProto.DataType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum DataType {
    /// Not set.
    Undefined = 0,
    /// float32.
    Float = 1,
    /// uint8.
    Uint8 = 2,
    /// int8.
    Int8 = 3,
    /// uint16.
    Uint16 = 4,
    /// int16.
    Int16 = 5,
    /// int32.
    Int32 = 6,
    /// int64.
    Int64 = 7,
    /// string.
    String = 8,
    /// bool.
    Bool = 9,
    /// float16.
    Float16 = 10,
    /// float64.
    Double = 11,
    /// uint32.
    Uint32 = 12,
    /// uint64.
    Uint64 = 13,
    /// complex64.
    Complex64 = 14,
    /// complex128.
    Complex128 = 15,
    /// bfloat16.
    Bfloat16 = 16,
}
