//! Operation definitions of the `pd_op` dialect as data: inputs, attributes
//! (kinds and defaults, in definition order), outputs, inplace/view maps,
//! traits and interfaces — Paddle's `OpYamlInfo` for all ops of Paddle 3.3.1.
//!
//! The table is generated at build time from `data/pd_op_definitions.json`
//! (facts extracted from Paddle 3.3.1) and attached to each registered op as
//! the [`OpDefinition`] interface. The JSON writer uses the attribute order,
//! the text parser the attribute kinds, the verifier the counts and kinds.
//!
//! The table holds no pointers: a name is a [`Text`] (a range of one string
//! of all names) and a list a [`List`] (a range of one array per element
//! type), both resolved when read. Pointers in a static table are addresses
//! the loader rewrites at every start of a position-independent program —
//! tens of thousands here, most of the start-up of a small command.
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
    Str(Text),
    /// A list of integers.
    IntList(List<i64>),
    /// A list of numbers.
    FloatList(List<f64>),
    /// A list of bools.
    BoolList(List<bool>),
    /// A list of strings.
    StrList(List<Text>),
    /// A place `[allocation_type, device_id, device_type]`.
    Place(i64, i64, Text),
}

/// One input (operand) of an op.
#[derive(Copy, Clone, Debug)]
pub struct InputDef {
    /// Name, e.g. `x`.
    pub name: Text,
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
    pub mutable_type: Text,
    /// Variadic input (ops without OpYamlInfo only).
    pub variadic: bool,
}

/// One attribute of an op, in definition order.
#[derive(Copy, Clone, Debug)]
pub struct AttrSpec {
    /// Name.
    pub name: Text,
    /// Declared kind.
    pub kind: AttrKind,
    /// Default, if the attribute is optional in `Build`.
    pub default: Option<DefaultValue>,
}

/// One output (result) of an op.
#[derive(Copy, Clone, Debug)]
pub struct OutputDef {
    /// Name, e.g. `out`.
    pub name: Text,
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
    pub name: Text,
    /// The registering dialect (`pd_op`, `cf`, `builtin`).
    pub dialect: Text,
    /// The phi/yaml name (e.g. `relu` for `pd_op.relu_`); empty for ops without OpYamlInfo.
    pub yaml_name: Text,
    /// Whether Paddle gives the op the OpYamlInfo interface (then the JSON writer
    /// writes declared attributes in definition order).
    pub has_yaml_info: bool,
    /// Inputs in operand order.
    pub inputs: List<InputDef>,
    /// Attributes in definition order.
    pub attributes: List<AttrSpec>,
    /// Outputs in result order.
    pub outputs: List<OutputDef>,
    /// In-place pairs `(output, input)`.
    pub inplace: List<(Text, Text)>,
    /// View pairs `(output, input)`.
    pub view: List<(Text, Text)>,
    /// Trait names as Paddle reports them.
    pub traits: List<Text>,
    /// Interface names as Paddle reports them.
    pub interfaces: List<Text>,
    /// The arguments of Paddle's builder and Python op API in their order:
    /// input and attribute names (a mutable attribute's input among the
    /// attributes where Paddle puts it); empty when not known.
    pub build_args: List<Text>,
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
    pub infer_meta_func: Text,
    /// The input and attribute names passed to it, in order.
    pub infer_meta_params: List<Text>,
    /// The phi kernel (`matmul`); empty when none.
    pub kernel_func: Text,
    /// The input and attribute names passed to the kernel, in order.
    pub kernel_params: List<Text>,
    /// The inputs or attributes whose dtype chooses the kernel's dtype.
    pub kernel_key_dtype: List<Text>,
    /// The inputs or attributes whose place chooses the kernel's backend.
    pub kernel_key_backend: List<Text>,
}

impl OpDef {
    /// The attribute named `name`.
    pub fn attribute(&self, name: &str) -> Option<&'static AttrSpec> {
        self.attributes.into_iter().find(|a| a.name == name)
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

/// A string of the table: a range of the one string of all its texts. It reads as a `&'static
/// str` ([`Text::as_str`], or through `Deref`), and compares, hashes,
/// orders and prints as one.
#[derive(Copy, Clone)]
pub struct Text {
    start: u32,
    len: u32,
}

impl Text {
    /// The text.
    pub fn as_str(self) -> &'static str {
        let start = self.start as usize;
        // The generator wrote only ranges of `STRINGS` on character boundaries.
        STRINGS.get(start..start + self.len as usize).unwrap_or("")
    }
}

impl Text {
    /// Compares the text with `other` as `str::cmp` does, without checking
    /// character boundaries (byte order is `str` order): the cheap compare
    /// of a binary search over the table.
    pub fn cmp_str(self, other: &str) -> std::cmp::Ordering {
        let start = self.start as usize;
        STRINGS
            .as_bytes()
            .get(start..start + self.len as usize)
            .unwrap_or(&[])
            .cmp(other.as_bytes())
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<Text> for &'static str {
    fn from(text: Text) -> Self {
        text.as_str()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.as_str().cmp(other.as_str()))
    }
}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A list of the table: a range of the array that holds every list of its
/// element type. It reads as a `&'static [T]` ([`List::as_slice`], through
/// `Deref`, or iterated by value).
pub struct List<T> {
    start: u32,
    len: u32,
    element: std::marker::PhantomData<fn() -> T>,
}

impl<T> List<T> {
    /// The range `start..start + len` of `T`'s array.
    const fn new(start: u32, len: u32) -> Self {
        List {
            start,
            len,
            element: std::marker::PhantomData,
        }
    }
}

impl<T: pool::Pooled> List<T> {
    /// The elements.
    pub fn as_slice(self) -> &'static [T] {
        let start = self.start as usize;
        // The generator wrote only ranges of the element type's array.
        T::pool()
            .get(start..start + self.len as usize)
            .unwrap_or(&[])
    }
}

impl List<Text> {
    /// The texts, as strings.
    pub fn strs(self) -> impl ExactSizeIterator<Item = &'static str> + DoubleEndedIterator {
        self.as_slice().iter().map(|t| t.as_str())
    }

    /// Whether the list holds `text`.
    pub fn contains(&self, text: &str) -> bool {
        self.iter().any(|t| t.as_str() == text)
    }
}

impl List<(Text, Text)> {
    /// The pairs, as strings.
    pub fn strs(
        self,
    ) -> impl ExactSizeIterator<Item = (&'static str, &'static str)> + DoubleEndedIterator {
        self.as_slice()
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
    }
}

impl<T> Clone for List<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for List<T> {}

impl<T: pool::Pooled> std::ops::Deref for List<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: pool::Pooled> IntoIterator for List<T> {
    type Item = &'static T;
    type IntoIter = std::slice::Iter<'static, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T: pool::Pooled + PartialEq> PartialEq for List<T> {
    fn eq(&self, other: &List<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: pool::Pooled + Eq> Eq for List<T> {}

impl<T: pool::Pooled + std::fmt::Debug> std::fmt::Debug for List<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_slice(), f)
    }
}

/// The element types of [`List`]s, each with the array of its lists.
mod pool {
    /// A type whose lists are ranges of one static array.
    pub trait Pooled: Sized + 'static {
        /// The array.
        fn pool() -> &'static [Self];
    }
}

/// Declares the array behind each element type's lists.
macro_rules! pooled {
    ($($ty:ty => $pool:ident;)*) => {$(
        impl pool::Pooled for $ty {
            fn pool() -> &'static [Self] {
                &$pool
            }
        }
    )*};
}

pooled! {
    Text => TEXT_POOL;
    (Text, Text) => PAIR_POOL;
    InputDef => INPUT_POOL;
    AttrSpec => ATTR_POOL;
    OutputDef => OUTPUT_POOL;
    i64 => INT_POOL;
    f64 => FLOAT_POOL;
    bool => BOOL_POOL;
}

/// The number of the op named `name` in [`OP_DEFS`]: a hash of the name
/// and, nearly always, one comparison (a binary search compared about
/// eleven names sharing their `pd_op.` prefix, and the first use of a
/// program's op names did that for each).
pub fn op_index(name: &str) -> Option<usize> {
    use crate::op_name_hash::{first_slot, OP_NAME_SLOTS_LEN};
    let mut slot = first_slot(name.as_bytes(), OP_NAME_SLOTS_LEN);
    // The table is at most half full: an empty slot ends every search
    // long before it has looked at every slot.
    for _ in 0..OP_NAME_SLOTS_LEN {
        let index = usize::from(OP_NAME_SLOTS[slot]).checked_sub(1)?;
        if OP_DEFS.get(index)?.name.cmp_str(name).is_eq() {
            return Some(index);
        }
        slot = (slot + 1) & (OP_NAME_SLOTS_LEN - 1);
    }
    None
}

include!(concat!(env!("OUT_DIR"), "/op_defs.rs"));
