//! A `ProgramDesc` as plain Rust data: blocks, variables and ops with their
//! inputs, outputs and attributes, checked once so the translator can index
//! without surprises.
//!
//! [`ProgramDesc::decode`] reads the protobuf in one pass straight into these
//! types (`decode`: the wire rules of [`crate::wire`]; the layouts Paddle
//! writes most in one step each, `crate::canonical`); names and strings
//! borrow from the input, so nothing is copied. Counts are bounded while
//! reading; what needs the whole program (block indices) is checked once it
//! is read (`check`).

mod arena;
mod check;
mod decode;
mod names;
mod version;

use crate::compat::LegacyAttrKind;
use crate::error::Location;
use crate::inline::InlineVec;

pub use arena::{DescArena, List};
pub use version::OpVersionMap;

#[cfg(test)]
pub(crate) use decode::{general_attr, general_slot, general_var};

/// Most blocks a program may have.
pub const MAX_BLOCKS: usize = 100_000;
/// Most ops in one block.
pub const MAX_OPS_PER_BLOCK: usize = 1_000_000;
/// Most variables in one block.
pub const MAX_VARS_PER_BLOCK: usize = 1_000_000;
/// Most arguments of one input or output slot, and of all output slots of
/// an op together (an op result count must fit in 16 bits in the IR).
pub const MAX_ARGS: usize = 60_000;
/// Most attributes, and most slots, of one op (Paddle's have a few dozen;
/// repeated names are merged, which costs time with the count squared).
pub const MAX_OP_ENTRIES: usize = 10_000;

/// Deepest nesting of blocks: a block has at most this many ancestors
/// (checked when the program is read, so a variable look-up walks a
/// bounded chain), and the translation follows sub-blocks at most this many
/// levels deep (each level recurses once).
pub const MAX_DEPTH: usize = 64;

/// Scalar element types of `VarType.Type` (values as in `framework.proto`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataKind {
    /// `BOOL`
    Bool,
    /// `INT16`
    Int16,
    /// `INT32`
    Int32,
    /// `INT64`
    Int64,
    /// `FP16`
    Fp16,
    /// `FP32`
    Fp32,
    /// `FP64`
    Fp64,
    /// `SIZE_T`
    SizeT,
    /// `UINT8`
    Uint8,
    /// `INT8`
    Int8,
    /// `BF16`
    Bf16,
    /// `COMPLEX64`
    Complex64,
    /// `COMPLEX128`
    Complex128,
    /// `FP8_E4M3FN`
    Fp8E4m3fn,
    /// `FP8_E5M2`
    Fp8E5m2,
    /// `PSTRING`
    PString,
    /// Any other value (not a scalar type).
    Other(i32),
}

/// `VarType.Type` numbers of the scalar types, as in `framework.proto`.
const DATA_KINDS: [(i32, DataKind); 16] = [
    (0, DataKind::Bool),
    (1, DataKind::Int16),
    (2, DataKind::Int32),
    (3, DataKind::Int64),
    (4, DataKind::Fp16),
    (5, DataKind::Fp32),
    (6, DataKind::Fp64),
    (19, DataKind::SizeT),
    (20, DataKind::Uint8),
    (21, DataKind::Int8),
    (22, DataKind::Bf16),
    (23, DataKind::Complex64),
    (24, DataKind::Complex128),
    (29, DataKind::PString),
    (32, DataKind::Fp8E4m3fn),
    (33, DataKind::Fp8E5m2),
];

/// [`DATA_KINDS`] by number (read for every variable: one index rather
/// than a search of the table).
const DATA_KINDS_BY_NUMBER: [Option<DataKind>; 34] = {
    let mut by_number = [None; 34];
    let mut i = 0;
    while i < DATA_KINDS.len() {
        let (n, kind) = DATA_KINDS[i];
        by_number[n as usize] = Some(kind);
        i += 1;
    }
    by_number
};

impl DataKind {
    /// From the protobuf enum value.
    pub fn from_i32(v: i32) -> DataKind {
        match usize::try_from(v)
            .ok()
            .and_then(|i| DATA_KINDS_BY_NUMBER.get(i))
        {
            Some(&Some(kind)) => kind,
            _ => DataKind::Other(v),
        }
    }

    /// The protobuf enum value.
    pub fn to_i32(self) -> i32 {
        match self {
            DataKind::Other(v) => v,
            known => number_of(&DATA_KINDS, known),
        }
    }
}

/// The number of `kind` in `table` (every kind but the catch-all variant is
/// in its table; the unit tests check both directions).
fn number_of<K: PartialEq>(table: &[(i32, K)], kind: K) -> i32 {
    table
        .iter()
        .find(|(_, k)| *k == kind)
        .map_or(i32::MIN, |(n, _)| *n)
}

/// The kind of a variable (`VarType.Type` values that are not scalar types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// `DENSE_TENSOR` (`LOD_TENSOR` before Paddle 3.0).
    DenseTensor,
    /// `SELECTED_ROWS`
    SelectedRows,
    /// `FEED_MINIBATCH`
    FeedMinibatch,
    /// `FETCH_LIST`
    FetchList,
    /// `STEP_SCOPES`
    StepScopes,
    /// `LOD_RANK_TABLE`
    LodRankTable,
    /// `DENSE_TENSOR_ARRAY` (`LOD_TENSOR_ARRAY` before Paddle 3.0).
    DenseTensorArray,
    /// `PLACE_LIST`
    PlaceList,
    /// `READER`
    Reader,
    /// `RAW`
    Raw,
    /// `TUPLE`
    Tuple,
    /// `STRING`
    String,
    /// `STRINGS`
    Strings,
    /// `VOCAB`
    Vocab,
    /// `FEED_LIST`
    FeedList,
    /// `SPARSE_COO`
    SparseCoo,
    /// `SPARSE_CSR`
    SparseCsr,
    /// A scalar type used as a variable type (rare; Paddle allows it).
    Scalar(DataKind),
}

/// `VarType.Type` numbers of the variable kinds that are not scalar types.
const VAR_KINDS: [(i32, VarKind); 17] = [
    (7, VarKind::DenseTensor),
    (8, VarKind::SelectedRows),
    (9, VarKind::FeedMinibatch),
    (10, VarKind::FetchList),
    (11, VarKind::StepScopes),
    (12, VarKind::LodRankTable),
    (13, VarKind::DenseTensorArray),
    (14, VarKind::PlaceList),
    (15, VarKind::Reader),
    (17, VarKind::Raw),
    (18, VarKind::Tuple),
    (25, VarKind::String),
    (26, VarKind::Strings),
    (27, VarKind::Vocab),
    (28, VarKind::FeedList),
    (30, VarKind::SparseCoo),
    (31, VarKind::SparseCsr),
];

impl VarKind {
    /// From the protobuf enum value.
    pub fn from_i32(v: i32) -> VarKind {
        VAR_KINDS
            .iter()
            .find(|(n, _)| *n == v)
            .map_or_else(|| VarKind::Scalar(DataKind::from_i32(v)), |&(_, k)| k)
    }

    /// The protobuf enum value.
    pub fn to_i32(self) -> i32 {
        match self {
            VarKind::Scalar(d) => d.to_i32(),
            known => number_of(&VAR_KINDS, known),
        }
    }
}

/// Element type and dims of a tensor-like variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorDesc<'a> {
    /// Element type.
    pub dtype: DataKind,
    /// Dims (in the program's [`DescArena`]); `-1` is unknown.
    pub dims: &'a [i64],
    /// LoD level (dense tensors and tensor arrays).
    pub lod_level: i32,
}

/// Dims of a tensor the translator works out (most have at most four:
/// kept inline).
pub type Dims = InlineVec<i64, 4>;
/// Variable names of an op slot (in the program's [`DescArena`]).
pub type Args<'a> = &'a [&'a str];
/// A variable of a block.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDesc<'a> {
    /// Name.
    pub name: &'a str,
    /// Kind.
    pub kind: VarKind,
    /// Element type and dims, for the kinds that have them.
    pub tensor: Option<TensorDesc<'a>>,
    /// Element types of a `TUPLE` variable (in the program's
    /// [`DescArena`], as are `reader` and the dims: a variable owns
    /// nothing to free).
    pub tuple: &'a [DataKind],
    /// Tensors of a `READER` variable.
    pub reader: &'a [TensorDesc<'a>],
    /// Saved with the model (parameters and other state).
    pub persistable: bool,
    /// `need_check_feed`.
    pub need_check_feed: bool,
    /// `is_parameter`.
    pub is_parameter: bool,
    /// `stop_gradient`.
    pub stop_gradient: bool,
}

impl VarDesc<'_> {
    /// Element type (`FP32` when the variable has none, like Paddle's default).
    pub fn dtype(&self) -> DataKind {
        match (&self.tensor, self.kind) {
            (Some(t), _) => t.dtype,
            (None, VarKind::Scalar(d)) => d,
            _ => DataKind::Fp32,
        }
    }

    /// Dims (empty when the variable has none).
    pub fn shape(&self) -> &[i64] {
        self.tensor.as_ref().map_or(&[], |t| t.dims)
    }
}

/// One input or output slot of an op: a parameter name and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot<'a> {
    /// Parameter name (`X`, `Out`, ...).
    pub name: &'a str,
    /// Variable names.
    pub args: Args<'a>,
}

/// A scalar attribute value (`SCALAR` / `SCALARS`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScalarValue {
    /// `BOOLEAN`
    Bool(bool),
    /// `LONG`
    Long(i64),
    /// `FLOAT64`
    Float64(f64),
    /// `COMPLEX128`
    Complex(f64, f64),
}

/// An attribute value, one variant per `AttrType`, whose strings are `S`:
/// borrowed from the file when read ([`AttrValue`]), owned when the writer
/// builds one ([`crate::write::encode::Value`]).
#[derive(Debug, Clone, PartialEq)]
pub enum LegacyValue<'l, S> {
    /// `INT`
    Int(i32),
    /// `FLOAT`
    Float(f32),
    /// `STRING`
    String(S),
    /// `INTS`
    Ints(List<'l, i32>),
    /// `FLOATS`
    Floats(List<'l, f32>),
    /// `STRINGS`
    Strings(List<'l, S>),
    /// `BOOLEAN`
    Bool(bool),
    /// `BOOLEANS`
    Bools(List<'l, bool>),
    /// `BLOCK`: a block index.
    Block(i32),
    /// `LONG`
    Long(i64),
    /// `BLOCKS`: block indices.
    Blocks(List<'l, i32>),
    /// `LONGS`
    Longs(List<'l, i64>),
    /// `FLOAT64S`
    Float64s(List<'l, f64>),
    /// `VAR`: a variable name.
    Var(S),
    /// `VARS`: variable names.
    Vars(List<'l, S>),
    /// `FLOAT64`
    Float64(f64),
    /// `SCALAR`
    Scalar(ScalarValue),
    /// `SCALARS`
    Scalars(List<'l, ScalarValue>),
}

/// An attribute value as read: strings borrow from the file.
pub type AttrValue<'a> = LegacyValue<'a, &'a str>;

impl<S> LegacyValue<'_, S> {
    /// The `AttrType` of the value.
    pub fn kind(&self) -> LegacyAttrKind {
        use LegacyAttrKind as K;
        match self {
            LegacyValue::Int(_) => K::Int,
            LegacyValue::Float(_) => K::Float,
            LegacyValue::String(_) => K::String,
            LegacyValue::Ints(_) => K::Ints,
            LegacyValue::Floats(_) => K::Floats,
            LegacyValue::Strings(_) => K::Strings,
            LegacyValue::Bool(_) => K::Bool,
            LegacyValue::Bools(_) => K::Bools,
            LegacyValue::Block(_) => K::Block,
            LegacyValue::Long(_) => K::Long,
            LegacyValue::Blocks(_) => K::Blocks,
            LegacyValue::Longs(_) => K::Longs,
            LegacyValue::Float64s(_) => K::Float64s,
            LegacyValue::Var(_) => K::Var,
            LegacyValue::Vars(_) => K::Vars,
            LegacyValue::Float64(_) => K::Float64,
            LegacyValue::Scalar(_) => K::Scalar,
            LegacyValue::Scalars(_) => K::Scalars,
        }
    }

    /// The `AttrType` name of the value's kind, for messages.
    pub fn kind_name(&self) -> &'static str {
        self.kind().message_name()
    }
}

/// A named attribute.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr<'a> {
    /// Name.
    pub name: &'a str,
    /// Value.
    pub value: AttrValue<'a>,
}

/// Extra attributes of an op type with their defaults (see
/// [`crate::compat::Compat::extra_attrs`]).
pub type ExtraAttrs = &'static [(&'static str, AttrValue<'static>)];

/// An op of a block.
#[derive(Debug, Clone, PartialEq)]
pub struct OpDesc<'a> {
    /// The legacy op type (`elementwise_add`).
    pub op_type: &'a str,
    /// Input slots, then output slots ([`OpDesc::inputs`],
    /// [`OpDesc::outputs`]; one list, one allocation), each sorted by
    /// parameter name as Paddle's `OpDesc` keeps them.
    slots: &'a [Slot<'a>],
    /// How many of `slots` are inputs.
    num_inputs: usize,
    /// Attributes in file order.
    pub attrs: &'a [Attr<'a>],
    /// The op type's extra attributes with their defaults: Paddle's `OpDesc`
    /// answers with these when the file lacks them.
    pub extra: ExtraAttrs,
    /// `is_target`.
    pub is_target: bool,
    /// Whether some attribute holds variables (`VAR`/`VARS`: inputs given
    /// as attributes), so most ops look inputs up in their slots only.
    pub has_var_attrs: bool,
    /// Whether some attribute names blocks (`BLOCK`/`BLOCKS`), whose
    /// indices the program's check reads.
    names_blocks: bool,
    /// The bytes of the attribute fields when they end the op (see
    /// [`OpDesc::attr_bytes`]).
    attr_bytes: Layout<'a>,
}

/// Bytes of the file a part was read from: where it was, not what it
/// holds, so equality leaves them out (ops are equal by their content,
/// however the file laid them out).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Layout<'a>(pub(crate) Option<&'a [u8]>);

impl PartialEq for Layout<'_> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Whether two names are equal, compared inline: names are short (slot,
/// attribute and variable names of a few to a few dozen bytes) and the
/// general comparison calls `memcmp` whenever the lengths agree, which costs
/// more than the comparison itself. Names up to 32 bytes are compared as
/// overlapping words from both ends.
#[inline(always)]
pub fn name_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if let (Some(ha), Some(hb)) = (a.first_chunk::<16>(), b.first_chunk::<16>()) {
        if n > 32 {
            return a == b;
        }
        // Both 16 to 32 bytes: the last sixteen overlap the first.
        return ha == hb && a.last_chunk::<16>() == b.last_chunk::<16>();
    }
    if let (Some(ha), Some(hb)) = (a.first_chunk::<8>(), b.first_chunk::<8>()) {
        return ha == hb && a.last_chunk::<8>() == b.last_chunk::<8>();
    }
    if let (Some(ha), Some(hb)) = (a.first_chunk::<4>(), b.first_chunk::<4>()) {
        return ha == hb && a.last_chunk::<4>() == b.last_chunk::<4>();
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// A name as a hash-map key: hashed as the `str` is, compared with
/// [`name_eq`] (maps of variable names are probed several times per op,
/// and each hit compares the name in full).
#[derive(Debug, Clone, Copy)]
pub struct Name<'a>(pub &'a str);

impl PartialEq for Name<'_> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        name_eq(self.0, other.0)
    }
}

impl Eq for Name<'_> {}

/// Looks a name up by `&str` (hashed and compared alike; hot look-ups
/// take a [`Name`], whose comparison is inline).
impl std::borrow::Borrow<str> for Name<'_> {
    fn borrow(&self) -> &str {
        self.0
    }
}

impl std::hash::Hash for Name<'_> {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

fn find_slot<'s, 'a>(slots: &'s [Slot<'a>], name: &str) -> Option<&'s [&'a str]> {
    slots.iter().find(|s| name_eq(s.name, name)).map(|s| s.args)
}

impl<'a> OpDesc<'a> {
    /// Input slots, sorted by parameter name as Paddle's `OpDesc` keeps them.
    #[inline]
    pub fn inputs(&self) -> &[Slot<'a>] {
        &self.slots[..self.num_inputs]
    }

    /// Output slots, sorted by parameter name.
    #[inline]
    pub fn outputs(&self) -> &[Slot<'a>] {
        &self.slots[self.num_inputs..]
    }

    /// The arguments of input `name` (`None` when the slot is absent).
    pub fn input(&self, name: &str) -> Option<&[&'a str]> {
        find_slot(self.inputs(), name)
    }

    /// The arguments of output `name`.
    pub fn output(&self, name: &str) -> Option<&[&'a str]> {
        find_slot(self.outputs(), name)
    }

    /// The arguments of input `name`, empty when absent.
    pub fn input_args(&self, name: &str) -> &[&'a str] {
        self.input(name).unwrap_or(&[])
    }

    /// The arguments of output `name`, empty when absent.
    pub fn output_args(&self, name: &str) -> &[&'a str] {
        self.output(name).unwrap_or(&[])
    }

    /// Attribute `name`: the file's, else the extra attribute's default.
    pub fn attr(&self, name: &str) -> Option<&AttrValue<'a>> {
        match self.attrs.iter().find(|a| name_eq(a.name, name)) {
            Some(a) => Some(&a.value),
            None => self
                .extra
                .iter()
                .find(|(n, _)| name_eq(n, name))
                .map(|(_, v)| v),
        }
    }

    /// Every attribute Paddle's `OpDesc` answers with: the file's in file
    /// order, then the extra attributes the file lacks.
    pub fn all_attrs(&self) -> impl Iterator<Item = (&'a str, &AttrValue<'a>)> + '_ {
        let own = self.attrs.iter().map(|a| (a.name, &a.value));
        let extra = self
            .extra
            .iter()
            .filter(|(n, _)| !self.attrs.iter().any(|a| name_eq(a.name, n)))
            .map(|(n, v)| (*n, v));
        own.chain(extra)
    }

    /// The bytes of the op's attribute fields when they are its last fields,
    /// right after its type, as Paddle writes them (empty when the type ends
    /// the op; `None` for other layouts). They decode to the attributes
    /// alone, so ops of a type with equal bytes have equal attributes,
    /// whatever their variables: a translation of the attributes can be
    /// remembered by them.
    #[inline]
    pub fn attr_bytes(&self) -> Option<&'a [u8]> {
        self.attr_bytes.0
    }

    /// All input arguments, slot by slot (Paddle's `InputArgumentNames`).
    pub fn input_arg_names(&self) -> impl Iterator<Item = &'a str> + Clone + '_ {
        self.inputs().iter().flat_map(|s| s.args.iter().copied())
    }

    /// All output arguments, slot by slot (`OutputArgumentNames`).
    pub fn output_arg_names(&self) -> impl Iterator<Item = &'a str> + Clone + '_ {
        self.outputs().iter().flat_map(|s| s.args.iter().copied())
    }
}

/// A block: variables and ops.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockDesc<'a> {
    /// Index as stored (`idx`).
    pub idx: i32,
    /// Parent block index (`-1` for the top block).
    pub parent_idx: i32,
    /// `forward_block_idx`.
    pub forward_block_idx: i32,
    /// Variables.
    pub vars: Vec<VarDesc<'a>>,
    /// Ops in order.
    pub ops: Vec<OpDesc<'a>>,
    /// Index in `vars` of the first variable of each name.
    by_name: names::VarIndex,
    /// Whether some op names blocks ([`OpDesc`]'s `names_blocks`).
    names_blocks: bool,
}

impl<'a> BlockDesc<'a> {
    /// The block's own variable `name` (the last, if declared twice: Paddle
    /// keeps only that one).
    pub fn var(&self, name: &str) -> Option<&VarDesc<'a>> {
        self.vars.get(self.var_index(name)?)
    }

    /// The index in `vars` of [`BlockDesc::var`].
    #[inline]
    pub fn var_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(&self.vars, name)
    }

    /// Whether no name is declared twice here: then [`BlockDesc::var`] of a
    /// variable's name finds that variable.
    pub fn names_distinct(&self) -> bool {
        self.by_name.names_distinct(&self.vars)
    }
}

/// A decoded `ProgramDesc`; strings borrow from the serialized bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgramDesc<'a> {
    /// Blocks; block 0 is the top block.
    pub blocks: Vec<BlockDesc<'a>>,
    /// `version.version`, when present.
    pub version: Option<i64>,
    /// `op_version_map` (its pairs in file order: [`OpVersionMap::pairs`]).
    pub op_version_map: OpVersionMap<'a>,
}

impl<'a> ProgramDesc<'a> {
    /// Finds `name` in block `block` or its ancestors (`FindVarRecursive`).
    pub fn find_var(&self, block: usize, name: &str) -> Option<&VarDesc<'a>> {
        let (b, i) = self.find_var_pos(block, name)?;
        Some(&self.blocks[b].vars[i])
    }

    /// Where [`ProgramDesc::find_var`] finds `name`: block and index there.
    pub fn find_var_pos(&self, block: usize, name: &str) -> Option<(usize, usize)> {
        let mut b = block;
        // Parent chains were checked to end within MAX_DEPTH steps; the
        // bound keeps a look-up short in blocks edited after that check.
        for _ in 0..=MAX_DEPTH {
            let blk = self.blocks.get(b)?;
            if let Some(i) = blk.by_name.get(&blk.vars, name) {
                return Some((b, i));
            }
            b = usize::try_from(blk.parent_idx).ok()?;
        }
        None
    }

    /// Number of ops in all blocks.
    pub fn num_ops(&self) -> usize {
        self.blocks.iter().map(|b| b.ops.len()).sum()
    }
}

fn op_location(b: usize, i: usize, op_type: &str) -> Location {
    Location {
        block: Some(b),
        op: Some(i),
        op_type: Some(op_type.to_owned()),
        var: None,
    }
}

#[cfg(test)]
pub(crate) mod tests;
