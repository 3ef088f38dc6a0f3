//! Operation definitions of the `pd_op` dialect as data: inputs, attributes
//! (kinds and defaults, in definition order), outputs, inplace/view maps,
//! traits and interfaces — Paddle's `OpYamlInfo` for all ops of Paddle 3.3.1.
//!
//! The table is generated at build time from `data/pd_op_definitions.json`
//! (facts extracted from Paddle 3.3.1) and attached to each registered op as
//! the [`OpDefinition`] interface. The JSON writer uses the attribute order,
//! the text parser the attribute kinds, the verifier the counts and kinds.
//!
//! ```
//! use pir_dialects::{op_def::{OpDefinition, AttrKind}, pd_op_context};
//! let ctx = pd_op_context();
//! let info = ctx.op_info(ctx.symbol("pd_op.matmul")).unwrap();
//! let def = info.interface::<OpDefinition>().unwrap().0;
//! assert_eq!(def.attributes[0].name, "transpose_x");
//! assert_eq!(def.attributes[0].kind, AttrKind::Bool);
//! ```

/// What kind of value an input or output carries.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// `paddle::dialect::DenseTensorType`.
    DenseTensor,
    /// `paddle::dialect::SelectedRowsType`.
    SelectedRows,
    /// `paddle::dialect::DenseTensorArrayType`.
    DenseTensorArray,
    /// `paddle::dialect::SparseCooTensorType`.
    SparseCoo,
    /// `paddle::dialect::SparseCsrTensorType`.
    SparseCsr,
    /// `pir::VectorType<DenseTensorType>` (from `builtin.combine`).
    VectorDenseTensor,
    /// `pir::VectorType<SelectedRowsType>`.
    VectorSelectedRows,
    /// `pir::VectorType<DenseTensorArrayType>`.
    VectorDenseTensorArray,
    /// Any other or unconstrained type.
    Any,
}

/// The kind of an attribute, as the op definition declares it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrKind {
    /// `pir::BoolAttribute`.
    Bool,
    /// `pir::Int32Attribute`.
    Int32,
    /// `pir::Int64Attribute`.
    Int64,
    /// `pir::IndexAttribute`.
    Index,
    /// `pir::FloatAttribute`.
    Float,
    /// `pir::DoubleAttribute`.
    Double,
    /// `pir::StrAttribute`.
    Str,
    /// `pir::ArrayAttribute<X>`; `None` for a bare `pir::ArrayAttribute`.
    Array(Option<ElementKind>),
    /// `paddle::dialect::IntArrayAttribute`.
    IntArray,
    /// `paddle::dialect::ScalarAttribute`, written as the builtin attribute of its data type.
    Scalar(ScalarDataType),
    /// `paddle::dialect::DataTypeAttribute`.
    DataType,
    /// `paddle::dialect::PlaceAttribute`.
    Place,
    /// `paddle::dialect::DataLayoutAttribute`.
    DataLayout,
    /// `pir::PointerAttribute` (never saved).
    Pointer,
    /// Anything else (unconstrained).
    Any,
}

/// Element kind of an array attribute.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ElementKind {
    /// Bool elements.
    Bool,
    /// Int32 elements.
    Int32,
    /// Int64 elements.
    Int64,
    /// Float elements.
    Float,
    /// Double elements.
    Double,
    /// String elements.
    Str,
    /// Scalar elements.
    Scalar,
}

/// The data type behind a Scalar attribute (OpYamlInfo's `data_type`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScalarDataType {
    /// Written as `0.a_f32`.
    Float,
    /// Written as `0.a_f64`.
    Double,
    /// Written as `0.a_i32`.
    Int32,
    /// Written as `0.a_i64`.
    Int64,
    /// Written as `0.a_bool`.
    Bool,
    /// Other (complex, ...): written as the builtin attribute of the value.
    Other,
}

/// A default value of an attribute (the C++ default argument of `Build`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum DefaultValue {
    /// A bool.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A number (floats already widened from float32 where the attribute is a float).
    Float(f64),
    /// A string (also DataType strings such as `float32`).
    Str(&'static str),
    /// A list of integers.
    IntList(&'static [i64]),
    /// A list of numbers.
    FloatList(&'static [f64]),
    /// A list of bools.
    BoolList(&'static [bool]),
    /// A list of strings.
    StrList(&'static [&'static str]),
    /// A place `[allocation_type, device_id, device_type]`.
    Place(i64, i64, &'static str),
}

/// One input (operand) of an op.
#[derive(Copy, Clone, Debug)]
pub struct InputDef {
    /// Name, e.g. `x`.
    pub name: &'static str,
    /// What the operand carries.
    pub kind: ValueKind,
    /// May be the null value.
    pub optional: bool,
    /// Paddle's `no_need_buffer`.
    pub no_need_buffer: bool,
    /// This input is a mutable attribute (an attribute turned into an operand).
    pub mutable_attribute: bool,
    /// The C++ type of a mutable attribute's value (`std::vector<int64_t>`
    /// for an IntArray, `float`, `int`, `int64_t`, `double`, `bool` for a
    /// Scalar); empty when not a mutable attribute or not declared.
    pub mutable_type: &'static str,
    /// Variadic input (ops without OpYamlInfo only).
    pub variadic: bool,
}

/// One attribute of an op, in definition order.
#[derive(Copy, Clone, Debug)]
pub struct AttrSpec {
    /// Name.
    pub name: &'static str,
    /// Declared kind.
    pub kind: AttrKind,
    /// Default, if the attribute is optional in `Build`.
    pub default: Option<DefaultValue>,
}

/// One output (result) of an op.
#[derive(Copy, Clone, Debug)]
pub struct OutputDef {
    /// Name, e.g. `out`.
    pub name: &'static str,
    /// What the result carries.
    pub kind: ValueKind,
    /// May have the null type.
    pub optional: bool,
    /// Paddle's `intermediate`.
    pub intermediate: bool,
    /// Variadic output (ops without OpYamlInfo only).
    pub variadic: bool,
}

/// The definition of one op.
#[derive(Copy, Clone, Debug)]
pub struct OpDef {
    /// Full name, e.g. `pd_op.matmul`.
    pub name: &'static str,
    /// The registering dialect (`pd_op`, `cf`, `builtin`).
    pub dialect: &'static str,
    /// The phi/yaml name (e.g. `relu` for `pd_op.relu_`); empty for ops without OpYamlInfo.
    pub yaml_name: &'static str,
    /// Whether Paddle gives the op the OpYamlInfo interface (then the JSON writer
    /// writes declared attributes in definition order).
    pub has_yaml_info: bool,
    /// Inputs in operand order.
    pub inputs: &'static [InputDef],
    /// Attributes in definition order.
    pub attributes: &'static [AttrSpec],
    /// Outputs in result order.
    pub outputs: &'static [OutputDef],
    /// In-place pairs `(output, input)`.
    pub inplace: &'static [(&'static str, &'static str)],
    /// View pairs `(output, input)`.
    pub view: &'static [(&'static str, &'static str)],
    /// Trait names as Paddle reports them.
    pub traits: &'static [&'static str],
    /// Interface names as Paddle reports them.
    pub interfaces: &'static [&'static str],
    /// The arguments of Paddle's builder and Python op API in their order:
    /// input and attribute names (a mutable attribute's input among the
    /// attributes where Paddle puts it); empty when not known.
    pub build_args: &'static [&'static str],
    /// Number of regions (control-flow ops).
    pub num_regions: u32,
    /// What Paddle runs for the op: its InferMeta function and kernel.
    pub runtime: Option<RuntimeDef>,
}

/// The runtime facts of an op's definition (Paddle's `OpRunTimeInfo`): the
/// InferMeta function and kernel it runs, and the arguments each takes.
#[derive(Copy, Clone, Debug)]
pub struct RuntimeDef {
    /// The InferMeta function (`MatmulInferMeta`); empty when none.
    pub infer_meta_func: &'static str,
    /// The input and attribute names passed to it, in order.
    pub infer_meta_params: &'static [&'static str],
    /// The phi kernel (`matmul`); empty when none.
    pub kernel_func: &'static str,
    /// The input and attribute names passed to the kernel, in order.
    pub kernel_params: &'static [&'static str],
    /// The inputs or attributes whose dtype chooses the kernel's dtype.
    pub kernel_key_dtype: &'static [&'static str],
    /// The inputs or attributes whose place chooses the kernel's backend.
    pub kernel_key_backend: &'static [&'static str],
}

impl OpDef {
    /// The attribute named `name`.
    pub fn attribute(&self, name: &str) -> Option<&AttrSpec> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// Index of the input named `name`.
    pub fn input_index(&self, name: &str) -> Option<usize> {
        self.inputs.iter().position(|i| i.name == name)
    }

    /// Index of the output named `name`.
    pub fn output_index(&self, name: &str) -> Option<usize> {
        self.outputs.iter().position(|o| o.name == name)
    }
}

/// The interface attached to every op registered from the definition table.
#[derive(Copy, Clone, Debug)]
pub struct OpDefinition(pub &'static OpDef);

include!(concat!(env!("OUT_DIR"), "/op_defs.rs"));
