//! A `ProgramDesc` as plain Rust data: blocks, variables and ops with their
//! inputs, outputs and attributes, checked once so the translator can index
//! without surprises.
//!
//! [`ProgramDesc::decode`] reads the protobuf in one pass straight into these
//! types (the wire rules of [`crate::wire`]; the layouts Paddle writes most
//! in one step each, `crate::canonical`); names and strings borrow from
//! the input, so nothing is copied. Counts are bounded while reading, block
//! indices and attribute kinds are checked once the whole program is read.

use rustc_hash::FxHashMap;

use crate::inline::InlineVec;

use crate::error::{LegacyError, Location, Result};
use crate::wire::{Reader, WireResult, WireType};

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

impl DataKind {
    /// From the protobuf enum value.
    pub fn from_i32(v: i32) -> DataKind {
        match v {
            0 => DataKind::Bool,
            1 => DataKind::Int16,
            2 => DataKind::Int32,
            3 => DataKind::Int64,
            4 => DataKind::Fp16,
            5 => DataKind::Fp32,
            6 => DataKind::Fp64,
            19 => DataKind::SizeT,
            20 => DataKind::Uint8,
            21 => DataKind::Int8,
            22 => DataKind::Bf16,
            23 => DataKind::Complex64,
            24 => DataKind::Complex128,
            29 => DataKind::PString,
            32 => DataKind::Fp8E4m3fn,
            33 => DataKind::Fp8E5m2,
            other => DataKind::Other(other),
        }
    }
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

impl VarKind {
    /// From the protobuf enum value.
    pub fn from_i32(v: i32) -> VarKind {
        match v {
            7 => VarKind::DenseTensor,
            8 => VarKind::SelectedRows,
            9 => VarKind::FeedMinibatch,
            10 => VarKind::FetchList,
            11 => VarKind::StepScopes,
            12 => VarKind::LodRankTable,
            13 => VarKind::DenseTensorArray,
            14 => VarKind::PlaceList,
            15 => VarKind::Reader,
            17 => VarKind::Raw,
            18 => VarKind::Tuple,
            25 => VarKind::String,
            26 => VarKind::Strings,
            27 => VarKind::Vocab,
            28 => VarKind::FeedList,
            30 => VarKind::SparseCoo,
            31 => VarKind::SparseCsr,
            other => VarKind::Scalar(DataKind::from_i32(other)),
        }
    }
}

/// Element type and dims of a tensor-like variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorDesc {
    /// Element type.
    pub dtype: DataKind,
    /// Dims; `-1` is unknown.
    pub dims: Dims,
    /// LoD level (dense tensors and tensor arrays).
    pub lod_level: i32,
}

/// Dims of a tensor (most have at most four: kept inline).
pub type Dims = InlineVec<i64, 4>;
/// Variable names of an op slot (most hold one or two: kept inline).
pub type Args<'a> = InlineVec<&'a str, 2>;
/// Slots of an op.
pub type Slots<'a> = Vec<Slot<'a>>;
/// Attributes of an op.
pub type Attrs<'a> = Vec<Attr<'a>>;

/// A variable of a block.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDesc<'a> {
    /// Name.
    pub name: &'a str,
    /// Kind.
    pub kind: VarKind,
    /// Element type and dims, for the kinds that have them.
    pub tensor: Option<TensorDesc>,
    /// Element types of a `TUPLE` variable.
    pub tuple: Vec<DataKind>,
    /// Tensors of a `READER` variable.
    pub reader: Vec<TensorDesc>,
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
        self.tensor.as_ref().map_or(&[], |t| &t.dims)
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

/// An attribute value, one variant per `AttrType`.
#[derive(Debug, Clone, PartialEq)]
pub enum AttrValue<'a> {
    /// `INT`
    Int(i32),
    /// `FLOAT`
    Float(f32),
    /// `STRING`
    String(&'a str),
    /// `INTS`
    Ints(Vec<i32>),
    /// `FLOATS`
    Floats(Vec<f32>),
    /// `STRINGS`
    Strings(Vec<&'a str>),
    /// `BOOLEAN`
    Bool(bool),
    /// `BOOLEANS`
    Bools(Vec<bool>),
    /// `BLOCK`: a block index.
    Block(i32),
    /// `LONG`
    Long(i64),
    /// `BLOCKS`: block indices.
    Blocks(Vec<i32>),
    /// `LONGS`
    Longs(Vec<i64>),
    /// `FLOAT64S`
    Float64s(Vec<f64>),
    /// `VAR`: a variable name.
    Var(&'a str),
    /// `VARS`: variable names.
    Vars(Vec<&'a str>),
    /// `FLOAT64`
    Float64(f64),
    /// `SCALAR`
    Scalar(ScalarValue),
    /// `SCALARS`
    Scalars(Vec<ScalarValue>),
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
    slots: Slots<'a>,
    /// How many of `slots` are inputs.
    num_inputs: usize,
    /// Attributes in file order.
    pub attrs: Attrs<'a>,
    /// The op type's extra attributes with their defaults: Paddle's `OpDesc`
    /// answers with these when the file lacks them.
    pub extra: ExtraAttrs,
    /// `is_target`.
    pub is_target: bool,
    /// Whether some attribute holds variables (`VAR`/`VARS`: inputs given
    /// as attributes), so most ops look inputs up in their slots only.
    pub has_var_attrs: bool,
}

fn find_slot<'s, 'a>(slots: &'s [Slot<'a>], name: &str) -> Option<&'s [&'a str]> {
    slots
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.args.as_slice())
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
        match self.attrs.iter().find(|a| a.name == name) {
            Some(a) => Some(&a.value),
            None => self.extra.iter().find(|(n, _)| *n == name).map(|(_, v)| v),
        }
    }

    /// Every attribute Paddle's `OpDesc` answers with: the file's in file
    /// order, then the extra attributes the file lacks.
    pub fn all_attrs(&self) -> impl Iterator<Item = (&'a str, &AttrValue<'a>)> + '_ {
        let own = self.attrs.iter().map(|a| (a.name, &a.value));
        let extra = self
            .extra
            .iter()
            .filter(|(n, _)| !self.attrs.iter().any(|a| a.name == *n))
            .map(|(n, v)| (*n, v));
        own.chain(extra)
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
    by_name: FxHashMap<&'a str, usize>,
}

impl<'a> BlockDesc<'a> {
    /// The block's own variable `name` (the first, if declared twice).
    pub fn var(&self, name: &str) -> Option<&VarDesc<'a>> {
        self.vars.get(*self.by_name.get(name)?)
    }
}

/// A decoded `ProgramDesc`; strings borrow from the serialized bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgramDesc<'a> {
    /// Blocks; block 0 is the top block.
    pub blocks: Vec<BlockDesc<'a>>,
    /// `version.version`, when present.
    pub version: Option<i64>,
    /// `op_version_map` pairs in file order.
    pub op_version_map: Vec<(&'a str, i32)>,
}

impl<'a> ProgramDesc<'a> {
    /// Decodes and checks a serialized `ProgramDesc`.
    pub fn decode(bytes: &'a [u8]) -> Result<ProgramDesc<'a>> {
        let mut r = Reader::new(bytes, "ProgramDesc");
        let mut blocks: Vec<BlockDesc<'a>> = Vec::new();
        let mut version = None;
        let mut op_version_map = Vec::new();
        while r.has_more() {
            let (field, wire) = r.key()?;
            match field {
                1 => {
                    if blocks.len() >= MAX_BLOCKS {
                        return Err(LegacyError::Limit {
                            at: Box::new(Location::default()),
                            message: format!("more than {MAX_BLOCKS} blocks"),
                        });
                    }
                    let at = blocks.len();
                    let mut m = r.message(wire, "BlockDesc")?;
                    blocks.push(decode_block(&mut m, at)?);
                }
                4 => {
                    let mut m = r.message(wire, "Version")?;
                    let v = version.get_or_insert(None);
                    while m.has_more() {
                        match m.key()? {
                            (1, w) => *v = Some(m.i64(w)?),
                            (f, w) => m.skip(f, w)?,
                        }
                    }
                }
                5 => {
                    let mut m = r.message(wire, "OpVersionMap")?;
                    // Paddle's pairs take 16 bytes or more.
                    op_version_map.reserve(m.rest().len() / 16);
                    while m.has_more() {
                        let taken = crate::canonical::version_pairs(m.rest(), &mut op_version_map);
                        if taken > 0 {
                            m.advance(taken);
                            continue;
                        }
                        match m.key()? {
                            (1, w) => {
                                let mut p = m.message(w, "OpVersionMap.OpVersionPair")?;
                                op_version_map.push(decode_version_pair(&mut p)?);
                            }
                            (f, w) => m.skip(f, w)?,
                        }
                    }
                }
                _ => r.skip(field, wire)?,
            }
        }
        let desc = ProgramDesc {
            blocks,
            version: version.flatten(),
            op_version_map,
        };
        desc.check()?;
        Ok(desc)
    }

    /// What decoding cannot check field by field: at least one block, parent
    /// indices and block attributes naming existing blocks.
    fn check(&self) -> Result<()> {
        if self.blocks.is_empty() {
            return Err(LegacyError::invalid(
                Location::default(),
                "the program has no blocks",
            ));
        }
        let n = self.blocks.len();
        let exists = |idx: i32| idx >= 0 && (idx as usize) < n;
        for (b, block) in self.blocks.iter().enumerate() {
            if block.parent_idx != -1 && !exists(block.parent_idx) {
                return Err(LegacyError::invalid(
                    Location {
                        block: Some(b),
                        ..Location::default()
                    },
                    format!("parent block {} does not exist", block.parent_idx),
                ));
            }
            for (i, op) in block.ops.iter().enumerate() {
                for a in &op.attrs {
                    let bad = match &a.value {
                        AttrValue::Block(idx) => Some(*idx).filter(|&x| !exists(x)),
                        AttrValue::Blocks(list) => list.iter().copied().find(|&x| !exists(x)),
                        _ => None,
                    };
                    if let Some(idx) = bad {
                        return Err(LegacyError::invalid(
                            op_location(b, i, op.op_type),
                            format!("attribute `{}`: block index {idx} does not exist", a.name),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// Finds `name` in block `block` or its ancestors (`FindVarRecursive`).
    pub fn find_var(&self, block: usize, name: &str) -> Option<&VarDesc<'a>> {
        let (b, i) = self.find_var_pos(block, name)?;
        Some(&self.blocks[b].vars[i])
    }

    /// Where [`ProgramDesc::find_var`] finds `name`: block and index there.
    pub fn find_var_pos(&self, block: usize, name: &str) -> Option<(usize, usize)> {
        let mut b = block;
        // The parent chain was checked to point to existing blocks; the step
        // bound guards against cycles.
        for _ in 0..=self.blocks.len() {
            let blk = self.blocks.get(b)?;
            if let Some(&i) = blk.by_name.get(name) {
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

/// The general reader of one `OpDesc.Attr` message, for comparison with
/// [`crate::canonical::attr`].
#[cfg(test)]
pub(crate) fn general_attr(bytes: &[u8]) -> WireResult<Result<(&str, AttrValue<'_>), String>> {
    let mut raw = RawAttr::default();
    decode_attr(&mut Reader::new(bytes, "OpDesc.Attr"), &mut raw)?;
    Ok(attr_value(&mut raw).map(|v| (raw.name, v)))
}

/// The general reader of one `OpDesc.Var` message, for comparison with
/// [`crate::canonical::slot`].
#[cfg(test)]
pub(crate) fn general_slot(bytes: &[u8]) -> WireResult<Slot<'_>> {
    decode_slot(&mut Reader::new(bytes, "OpDesc.Var"))
}

/// The general reader of one `VarDesc` message, for comparison with
/// [`crate::canonical::dense_var`].
#[cfg(test)]
pub(crate) fn general_var(bytes: &[u8]) -> WireResult<VarDesc<'_>> {
    decode_var(
        &mut Reader::new(bytes, "VarDesc"),
        &mut RawVarType::default(),
    )
}

fn decode_version_pair<'a>(r: &mut Reader<'a>) -> WireResult<(&'a str, i32)> {
    let mut name = "";
    let mut version = 0;
    while r.has_more() {
        match r.key()? {
            (1, w) => name = r.str(w)?,
            (2, w) => {
                let mut m = r.message(w, "OpVersion")?;
                while m.has_more() {
                    match m.key()? {
                        (1, w) => version = m.i32(w)?,
                        (f, w) => m.skip(f, w)?,
                    }
                }
            }
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok((name, version))
}

/// How many variables and ops a block message holds (a quick pass over its
/// keys, so the lists are allocated once; malformed input stops the count
/// and is reported by the real pass).
fn count_fields(r: &Reader<'_>) -> (usize, usize) {
    let mut r = r.clone();
    let (mut vars, mut ops) = (0, 0);
    while r.has_more() {
        let Ok((field, wire)) = r.key() else { break };
        match field {
            3 => vars += 1,
            4 => ops += 1,
            _ => {}
        }
        if r.skip(field, wire).is_err() {
            break;
        }
    }
    (vars, ops)
}

/// Buffers reused from one attribute (or variable type) to the next.
#[derive(Default)]
struct Scratch<'a> {
    attr: RawAttr<'a>,
    var_type: RawVarType,
}

fn decode_block<'a>(r: &mut Reader<'a>, b: usize) -> Result<BlockDesc<'a>> {
    let mut scratch = Scratch::default();
    let (vars, ops) = count_fields(r);
    let at = || Location {
        block: Some(b),
        ..Location::default()
    };
    let mut block = BlockDesc {
        idx: 0,
        parent_idx: 0,
        forward_block_idx: -1,
        vars: Vec::with_capacity(vars.min(MAX_VARS_PER_BLOCK)),
        ops: Vec::with_capacity(ops.min(MAX_OPS_PER_BLOCK)),
        by_name: FxHashMap::default(),
    };
    while r.has_more() {
        let (field, wire) = r.key()?;
        match field {
            1 => block.idx = r.i32(wire)?,
            2 => block.parent_idx = r.i32(wire)?,
            3 => {
                if block.vars.len() >= MAX_VARS_PER_BLOCK {
                    return Err(LegacyError::Limit {
                        at: Box::new(at()),
                        message: format!("more than {MAX_VARS_PER_BLOCK} variables"),
                    });
                }
                let mut m = r.message(wire, "VarDesc")?;
                let var = match crate::canonical::dense_var(m.rest()) {
                    Some(var) => var,
                    None => decode_var(&mut m, &mut scratch.var_type)?,
                };
                block.vars.push(var);
            }
            4 => {
                if block.ops.len() >= MAX_OPS_PER_BLOCK {
                    return Err(LegacyError::Limit {
                        at: Box::new(at()),
                        message: format!("more than {MAX_OPS_PER_BLOCK} ops"),
                    });
                }
                let i = block.ops.len();
                let mut m = r.message(wire, "OpDesc")?;
                block.ops.push(decode_op(&mut m, b, i, &mut scratch.attr)?);
            }
            5 => block.forward_block_idx = r.i32(wire)?,
            _ => r.skip(field, wire)?,
        }
    }
    block.by_name.reserve(block.vars.len());
    for (i, v) in block.vars.iter().enumerate() {
        block.by_name.entry(v.name).or_insert(i);
    }
    Ok(block)
}

/// `VarType.TensorDesc` as read (merged when repeated).
#[derive(Default)]
struct RawTensor {
    data_type: i32,
    dims: Dims,
}

/// `DenseTensorDesc` / `DenseTensorArrayDesc` as read.
#[derive(Default)]
struct RawDense {
    tensor: RawTensor,
    lod_level: Option<i32>,
}

fn merge_tensor(r: &mut Reader<'_>, t: &mut RawTensor) -> WireResult<()> {
    while r.has_more() {
        match r.key()? {
            (1, w) => t.data_type = r.i32(w)?,
            (2, w) => r.repeated_varint(w, &mut t.dims, |v| v as i64)?,
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

fn merge_dense(r: &mut Reader<'_>, d: &mut RawDense) -> WireResult<()> {
    while r.has_more() {
        match r.key()? {
            (1, w) => merge_tensor(&mut r.message(w, "VarType.TensorDesc")?, &mut d.tensor)?,
            (2, w) => d.lod_level = Some(r.i32(w)?),
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

fn tensor_desc(t: RawTensor, lod_level: i32) -> TensorDesc {
    TensorDesc {
        dtype: DataKind::from_i32(t.data_type),
        dims: t.dims,
        lod_level,
    }
}

/// `VarType` as read: every kind's desc, of which the kind picks one.
#[derive(Default)]
struct RawVarType {
    ty: i32,
    selected_rows: Option<RawTensor>,
    dense: Option<RawDense>,
    array: Option<RawDense>,
    reader: Option<Vec<RawDense>>,
    tuple: Option<Vec<i32>>,
    string: Option<RawTensor>,
    strings: Option<RawTensor>,
    vocab: Option<RawTensor>,
    sparse_coo: Option<RawTensor>,
    sparse_csr: Option<RawTensor>,
}

impl RawVarType {
    fn reset(&mut self) {
        *self = RawVarType::default();
    }
}

fn merge_var_type(r: &mut Reader<'_>, t: &mut RawVarType) -> WireResult<()> {
    const TENSOR: &str = "VarType.TensorDesc";
    fn tensor(r: &mut Reader<'_>, w: WireType, slot: &mut Option<RawTensor>) -> WireResult<()> {
        merge_tensor(
            &mut r.message(w, TENSOR)?,
            slot.get_or_insert_with(Default::default),
        )
    }
    while r.has_more() {
        match r.key()? {
            (1, w) => t.ty = r.i32(w)?,
            (2, w) => tensor(r, w, &mut t.selected_rows)?,
            (3, w) => merge_dense(
                &mut r.message(w, "VarType.DenseTensorDesc")?,
                t.dense.get_or_insert_with(Default::default),
            )?,
            (4, w) => merge_dense(
                &mut r.message(w, "VarType.DenseTensorArrayDesc")?,
                t.array.get_or_insert_with(Default::default),
            )?,
            (5, w) => {
                let mut m = r.message(w, "VarType.ReaderDesc")?;
                let list = t.reader.get_or_insert_with(Vec::new);
                while m.has_more() {
                    match m.key()? {
                        (1, w) => {
                            let mut d = RawDense::default();
                            merge_dense(&mut m.message(w, "VarType.DenseTensorDesc")?, &mut d)?;
                            list.push(d);
                        }
                        (f, w) => m.skip(f, w)?,
                    }
                }
            }
            (7, w) => {
                let mut m = r.message(w, "VarType.Tuple")?;
                let list = t.tuple.get_or_insert_with(Vec::new);
                while m.has_more() {
                    match m.key()? {
                        (1, w) => m.repeated_varint(w, list, |v| v as i32)?,
                        (f, w) => m.skip(f, w)?,
                    }
                }
            }
            (8, w) => tensor(r, w, &mut t.string)?,
            (9, w) => tensor(r, w, &mut t.strings)?,
            (10, w) => tensor(r, w, &mut t.vocab)?,
            (11, w) => tensor(r, w, &mut t.sparse_coo)?,
            (12, w) => tensor(r, w, &mut t.sparse_csr)?,
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

/// Reads a `VarDesc.Attr` only to check it (the translator has no use for
/// variable attributes).
fn check_var_attr(r: &mut Reader<'_>) -> WireResult<()> {
    while r.has_more() {
        match r.key()? {
            (1 | 4, w) => {
                r.str(w)?;
            }
            (2 | 3, w) => {
                r.u64(w)?;
            }
            (5, w) => r.repeated_varint(w, &mut Vec::new(), |_| ())?,
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

fn decode_var<'a>(r: &mut Reader<'a>, ty: &mut RawVarType) -> WireResult<VarDesc<'a>> {
    let mut name = "";
    ty.reset();
    let mut flags = [false; 4];
    while r.has_more() {
        match r.key()? {
            (1, w) => name = r.str(w)?,
            (2, w) => merge_var_type(&mut r.message(w, "VarType")?, ty)?,
            (f @ 3..=6, w) => flags[f as usize - 3] = r.bool(w)?,
            (7, w) => check_var_attr(&mut r.message(w, "VarDesc.Attr")?)?,
            (f, w) => r.skip(f, w)?,
        }
    }
    let kind = VarKind::from_i32(ty.ty);
    let dense = |d: RawDense| tensor_desc(d.tensor, d.lod_level.unwrap_or(0));
    let plain = |t: RawTensor| tensor_desc(t, 0);
    // Paddle reads the desc that belongs to the kind and ignores the others.
    let tensor = match kind {
        VarKind::DenseTensor => ty.dense.take().map(dense),
        VarKind::DenseTensorArray => ty.array.take().map(dense),
        VarKind::SelectedRows => ty.selected_rows.take().map(plain),
        VarKind::String => ty.string.take().map(plain),
        VarKind::Strings => ty.strings.take().map(plain),
        VarKind::Vocab => ty.vocab.take().map(plain),
        VarKind::SparseCoo => ty.sparse_coo.take().map(plain),
        VarKind::SparseCsr => ty.sparse_csr.take().map(plain),
        _ => None,
    };
    Ok(VarDesc {
        name,
        kind,
        tensor,
        tuple: ty
            .tuple
            .take()
            .map(|t| t.into_iter().map(DataKind::from_i32).collect())
            .unwrap_or_default(),
        reader: ty
            .reader
            .take()
            .map(|r| r.into_iter().map(dense).collect())
            .unwrap_or_default(),
        persistable: flags[0],
        need_check_feed: flags[1],
        is_parameter: flags[2],
        stop_gradient: flags[3],
    })
}

fn decode_slot<'a>(r: &mut Reader<'a>) -> WireResult<Slot<'a>> {
    let mut slot = Slot {
        name: "",
        args: Args::new(),
    };
    while r.has_more() {
        match r.key()? {
            (1, w) => slot.name = r.str(w)?,
            (2, w) => {
                let s = r.str(w)?;
                slot.args.push(s);
            }
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(slot)
}

/// Whether name `a` sorts before `b` (byte order), settled on the first
/// eight bytes where those differ (most names that are not equal), without
/// a call into `memcmp`.
#[inline]
fn name_lt(a: &str, b: &str) -> bool {
    fn prefix(s: &str) -> u64 {
        let mut w = [0u8; 8];
        let n = s.len().min(8);
        w[..n].copy_from_slice(&s.as_bytes()[..n]);
        u64::from_be_bytes(w)
    }
    // Zero padding keeps the order: a shorter name is less unless the
    // longer one goes on with zero bytes, which leaves the prefixes equal.
    match prefix(a).cmp(&prefix(b)) {
        std::cmp::Ordering::Equal => a < b,
        o => o.is_lt(),
    }
}

/// Inserts an input (`input`) or output slot keeping each part sorted;
/// Paddle's `OpDesc` keeps slots in a `std::map`, so a repeated name replaces
/// the earlier one.
#[inline]
fn insert_slot<'a>(op: &mut OpDesc<'a>, input: bool, slot: Slot<'a>) {
    let (start, end) = if input {
        (0, op.num_inputs)
    } else {
        (op.num_inputs, op.slots.len())
    };
    let part = &op.slots[start..end];
    // Slots usually come sorted: try the end first.
    let at = if part.last().is_none_or(|l| name_lt(l.name, slot.name)) {
        end
    } else {
        match part.binary_search_by(|s| s.name.cmp(slot.name)) {
            Ok(pos) => {
                op.slots[start + pos].args = slot.args;
                return;
            }
            Err(pos) => start + pos,
        }
    };
    // Inputs come before outputs in Paddle's files: nearly every slot goes
    // at the end, which a push does without moving anything.
    if at == op.slots.len() {
        op.slots.push(slot);
    } else {
        op.slots.insert(at, slot);
    }
    if input {
        op.num_inputs += 1;
    }
}

/// `OpDesc.Attr` as read: every value field, of which the type picks one.
#[derive(Default)]
struct RawAttr<'a> {
    name: &'a str,
    ty: i32,
    i: Option<i32>,
    f: Option<f32>,
    s: Option<&'a str>,
    ints: Vec<i32>,
    floats: Vec<f32>,
    strings: Vec<&'a str>,
    b: Option<bool>,
    bools: Vec<bool>,
    block_idx: Option<i32>,
    l: Option<i64>,
    blocks_idx: Vec<i32>,
    longs: Vec<i64>,
    float64s: Vec<f64>,
    var_name: Option<&'a str>,
    vars_name: Vec<&'a str>,
    float64: Option<f64>,
    scalar: Option<RawScalar>,
    scalars: Vec<RawScalar>,
}

/// `Scalar` as read.
#[derive(Default, Clone, Copy)]
struct RawScalar {
    ty: i32,
    b: Option<bool>,
    i: Option<i64>,
    r: Option<f64>,
    c: Option<(f64, f64)>,
}

fn merge_scalar(r: &mut Reader<'_>, s: &mut RawScalar) -> WireResult<()> {
    while r.has_more() {
        match r.key()? {
            (1, w) => s.ty = r.i32(w)?,
            (2, w) => s.b = Some(r.bool(w)?),
            (3, w) => s.i = Some(r.i64(w)?),
            (4, w) => s.r = Some(r.f64(w)?),
            (5, w) => {
                let mut m = r.message(w, "Complex")?;
                let c = s.c.get_or_insert((0.0, 0.0));
                while m.has_more() {
                    match m.key()? {
                        (1, w) => c.0 = m.f64(w)?,
                        (2, w) => c.1 = m.f64(w)?,
                        (f, w) => m.skip(f, w)?,
                    }
                }
            }
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

impl RawAttr<'_> {
    /// Empties every field, keeping the lists' buffers.
    fn reset(&mut self) {
        self.name = "";
        self.ty = 0;
        self.i = None;
        self.f = None;
        self.s = None;
        self.ints.clear();
        self.floats.clear();
        self.strings.clear();
        self.b = None;
        self.bools.clear();
        self.block_idx = None;
        self.l = None;
        self.blocks_idx.clear();
        self.longs.clear();
        self.float64s.clear();
        self.var_name = None;
        self.vars_name.clear();
        self.float64 = None;
        self.scalar = None;
        self.scalars.clear();
    }
}

fn decode_attr<'a>(r: &mut Reader<'a>, a: &mut RawAttr<'a>) -> WireResult<()> {
    a.reset();
    while r.has_more() {
        match r.key()? {
            (1, w) => a.name = r.str(w)?,
            (2, w) => a.ty = r.i32(w)?,
            (3, w) => a.i = Some(r.i32(w)?),
            (4, w) => a.f = Some(r.f32(w)?),
            (5, w) => a.s = Some(r.str(w)?),
            (6, w) => r.repeated_varint(w, &mut a.ints, |v| v as i32)?,
            (7, w) => r.repeated_f32(w, &mut a.floats)?,
            (8, w) => {
                let s = r.str(w)?;
                a.strings.push(s);
            }
            (10, w) => a.b = Some(r.bool(w)?),
            (11, w) => r.repeated_varint(w, &mut a.bools, |v| v != 0)?,
            (12, w) => a.block_idx = Some(r.i32(w)?),
            (13, w) => a.l = Some(r.i64(w)?),
            (14, w) => r.repeated_varint(w, &mut a.blocks_idx, |v| v as i32)?,
            (15, w) => r.repeated_varint(w, &mut a.longs, |v| v as i64)?,
            (16, w) => r.repeated_f64(w, &mut a.float64s)?,
            (17, w) => a.var_name = Some(r.str(w)?),
            (18, w) => {
                let s = r.str(w)?;
                a.vars_name.push(s);
            }
            (19, w) => a.float64 = Some(r.f64(w)?),
            (20, w) => merge_scalar(
                &mut r.message(w, "Scalar")?,
                a.scalar.get_or_insert_with(Default::default),
            )?,
            (21, w) => {
                let mut s = RawScalar::default();
                merge_scalar(&mut r.message(w, "Scalar")?, &mut s)?;
                a.scalars.push(s);
            }
            (f, w) => r.skip(f, w)?,
        }
    }
    Ok(())
}

fn scalar(s: &RawScalar) -> Result<ScalarValue, String> {
    Ok(match s.ty {
        1 => ScalarValue::Bool(s.b.unwrap_or(false)),
        2 => ScalarValue::Long(s.i.unwrap_or(0)),
        3 => ScalarValue::Float64(s.r.unwrap_or(0.0)),
        4 => {
            let (re, im) = s.c.unwrap_or((0.0, 0.0));
            ScalarValue::Complex(re, im)
        }
        other => return Err(format!("unknown scalar type {other}")),
    })
}

/// The value an attribute's type selects (`AttrType` numbers of
/// `framework.proto`); a list is moved out of the scratch fields.
fn attr_value<'a>(a: &mut RawAttr<'a>) -> Result<AttrValue<'a>, String> {
    use std::mem::take;
    Ok(match a.ty {
        0 => AttrValue::Int(a.i.unwrap_or(0)),
        1 => AttrValue::Float(a.f.unwrap_or(0.0)),
        2 => AttrValue::String(a.s.unwrap_or_default()),
        3 => AttrValue::Ints(take(&mut a.ints)),
        4 => AttrValue::Floats(take(&mut a.floats)),
        5 => AttrValue::Strings(take(&mut a.strings)),
        6 => AttrValue::Bool(a.b.unwrap_or(false)),
        7 => AttrValue::Bools(take(&mut a.bools)),
        8 => AttrValue::Block(a.block_idx.unwrap_or(0)),
        9 => AttrValue::Long(a.l.unwrap_or(0)),
        10 => AttrValue::Blocks(take(&mut a.blocks_idx)),
        11 => AttrValue::Longs(take(&mut a.longs)),
        12 => AttrValue::Float64s(take(&mut a.float64s)),
        13 => AttrValue::Var(a.var_name.unwrap_or_default()),
        14 => AttrValue::Vars(take(&mut a.vars_name)),
        15 => AttrValue::Float64(a.float64.unwrap_or(0.0)),
        16 => AttrValue::Scalar(
            a.scalar
                .as_ref()
                .map(scalar)
                .transpose()?
                .unwrap_or(ScalarValue::Float64(0.0)),
        ),
        17 => AttrValue::Scalars(a.scalars.iter().map(scalar).collect::<Result<_, _>>()?),
        other => return Err(format!("unknown attribute type {other}")),
    })
}

/// Adds a slot read from op `i` of block `b`: an input (`input`) or output.
#[inline(always)]
fn add_slot<'a>(
    op: &mut OpDesc<'a>,
    b: usize,
    i: usize,
    input: bool,
    slot: Slot<'a>,
) -> Result<()> {
    if slot.args.len() > MAX_ARGS {
        return Err(LegacyError::Limit {
            at: Box::new(op_location(b, i, op.op_type)),
            message: format!(
                "slot `{}` has {} arguments (at most {MAX_ARGS})",
                slot.name,
                slot.args.len()
            ),
        });
    }
    insert_slot(op, input, slot);
    Ok(())
}

/// Adds an attribute to `op`. Paddle keeps attributes in a map: a repeated
/// name replaces the value. Paddle writes them sorted by name: while they
/// come sorted (`sorted`), a name past the last one is new.
#[inline(always)]
fn add_attr<'a>(op: &mut OpDesc<'a>, sorted: &mut bool, name: &'a str, value: AttrValue<'a>) {
    match op.attrs.last() {
        None => op.attrs.push(Attr { name, value }),
        Some(last) if *sorted && name_lt(last.name, name) => op.attrs.push(Attr { name, value }),
        Some(_) => {
            *sorted = false;
            match op.attrs.iter_mut().find(|x| x.name == name) {
                Some(x) => x.value = value,
                None => op.attrs.push(Attr { name, value }),
            }
        }
    }
}

fn decode_op<'a>(
    r: &mut Reader<'a>,
    b: usize,
    i: usize,
    raw: &mut RawAttr<'a>,
) -> Result<OpDesc<'a>> {
    // Most ops have up to six slots and a dozen attributes: one allocation
    // each, made here (growing an empty list costs more).
    let mut op = OpDesc {
        op_type: "",
        slots: Slots::with_capacity(6),
        num_inputs: 0,
        attrs: Attrs::with_capacity(12),
        extra: &[],
        is_target: false,
        has_var_attrs: false,
    };
    // Values are checked once the type is known (it may come last).
    let mut bad_attr: Option<(&'a str, String)> = None;
    // Whether the attributes so far came in increasing name order.
    let mut attrs_sorted = true;
    let slots_full = |op: &OpDesc<'a>| LegacyError::Limit {
        at: Box::new(op_location(b, i, op.op_type)),
        message: format!("more than {MAX_OP_ENTRIES} slots"),
    };
    let attrs_full = |op: &OpDesc<'a>| LegacyError::Limit {
        at: Box::new(op_location(b, i, op.op_type)),
        message: format!("more than {MAX_OP_ENTRIES} attributes"),
    };
    while r.has_more() {
        // Most slots and attributes are short messages in a layout
        // `canonical` reads in one step: taken without the general field
        // reader (the others go on to it below).
        if let Some((key, body)) = r.peek_short_message() {
            match key {
                0x0a | 0x12 if op.slots.len() < MAX_OP_ENTRIES => {
                    if let Some(slot) = crate::canonical::slot(body) {
                        r.advance(2 + body.len());
                        add_slot(&mut op, b, i, key == 0x0a, slot)?;
                        continue;
                    }
                }
                0x22 if op.attrs.len() < MAX_OP_ENTRIES => {
                    if let Some((name, value)) = crate::canonical::attr(body) {
                        r.advance(2 + body.len());
                        add_attr(&mut op, &mut attrs_sorted, name, value);
                        continue;
                    }
                }
                _ => {}
            }
        }
        let (field, wire) = r.key()?;
        match field {
            3 => op.op_type = r.str(wire)?,
            1 | 2 => {
                if op.slots.len() >= MAX_OP_ENTRIES {
                    return Err(slots_full(&op));
                }
                let mut m = r.message(wire, "OpDesc.Var")?;
                let slot = match crate::canonical::slot(m.rest()) {
                    Some(slot) => slot,
                    None => decode_slot(&mut m)?,
                };
                add_slot(&mut op, b, i, field == 1, slot)?;
            }
            4 => {
                if op.attrs.len() >= MAX_OP_ENTRIES {
                    return Err(attrs_full(&op));
                }
                let mut m = r.message(wire, "OpDesc.Attr")?;
                let (name, value) = match crate::canonical::attr(m.rest()) {
                    Some((name, value)) => (name, Ok(value)),
                    None => {
                        decode_attr(&mut m, raw)?;
                        (raw.name, attr_value(raw))
                    }
                };
                match value {
                    Ok(value) => add_attr(&mut op, &mut attrs_sorted, name, value),
                    Err(message) => {
                        bad_attr.get_or_insert((name, message));
                    }
                }
            }
            5 => op.is_target = r.bool(wire)?,
            _ => r.skip(field, wire)?,
        }
    }
    if let Some((name, message)) = bad_attr {
        return Err(LegacyError::invalid(
            op_location(b, i, op.op_type),
            format!("attribute `{name}`: {message}"),
        ));
    }
    // An op translated with every output argument as a result (an
    // unregistered op under --lenient, control flow) must stay within the
    // IR's result count.
    let outputs: usize = op.outputs().iter().map(|s| s.args.len()).sum();
    if outputs > MAX_ARGS {
        return Err(LegacyError::Limit {
            at: Box::new(op_location(b, i, op.op_type)),
            message: format!("{outputs} output arguments (at most {MAX_ARGS})"),
        });
    }
    op.extra = crate::compat::compat().extra_attrs(op.op_type);
    op.has_var_attrs = op
        .attrs
        .iter()
        .any(|a| matches!(a.value, AttrValue::Var(_) | AttrValue::Vars(_)));
    Ok(op)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::proto;
    use prost::Message;

    /// A persistable `FP32` dense tensor variable.
    pub(crate) fn tensor_var(name: &str, dims: Vec<i64>) -> proto::VarDesc {
        proto::VarDesc {
            name: name.into(),
            r#type: proto::VarType {
                r#type: 7,
                dense_tensor: Some(proto::var_type::DenseTensorDesc {
                    tensor: proto::var_type::TensorDesc { data_type: 5, dims },
                    legacy_lod_level: None,
                }),
                ..Default::default()
            },
            persistable: Some(true),
            ..Default::default()
        }
    }

    fn attr(name: &str, ty: proto::AttrType) -> proto::op_desc::Attr {
        proto::op_desc::Attr {
            name: name.into(),
            r#type: ty as i32,
            ..Default::default()
        }
    }

    fn program(ops: Vec<proto::OpDesc>) -> proto::ProgramDesc {
        proto::ProgramDesc {
            blocks: vec![proto::BlockDesc {
                idx: 0,
                parent_idx: -1,
                vars: vec![tensor_var("w", vec![2, 3])],
                ops,
                forward_block_idx: None,
            }],
            version: Some(proto::Version { version: Some(7) }),
            op_version_map: None,
        }
    }

    #[test]
    fn round_trip_through_protobuf_keeps_every_attribute_kind() {
        use proto::AttrType as T;
        let mut attrs = Vec::new();
        let mut a = attr("i", T::Int);
        a.i = Some(-3);
        attrs.push(a);
        let mut a = attr("l", T::Longs);
        a.longs = vec![1, -2];
        attrs.push(a);
        let mut a = attr("d", T::Float64s);
        a.float64s = vec![0.5];
        attrs.push(a);
        let mut a = attr("s", T::Scalar);
        a.scalar = Some(proto::Scalar {
            r#type: proto::scalar::Type::Long as i32,
            i: Some(9),
            ..Default::default()
        });
        attrs.push(a);
        let mut a = attr("vs", T::Vars);
        a.vars_name = vec!["w".into()];
        attrs.push(a);
        let mut a = attr("blk", T::Block);
        a.block_idx = Some(0);
        attrs.push(a);
        let op = proto::OpDesc {
            r#type: "scale".into(),
            inputs: vec![
                proto::op_desc::Var {
                    parameter: "X".into(),
                    arguments: vec!["w".into()],
                },
                proto::op_desc::Var {
                    parameter: "A".into(),
                    arguments: vec![],
                },
            ],
            outputs: vec![],
            attrs,
            is_target: None,
        };
        let bytes = program(vec![op]).encode_to_vec();
        let desc = ProgramDesc::decode(&bytes).unwrap();
        assert_eq!(desc.version, Some(7));
        let op = &desc.blocks[0].ops[0];
        assert_eq!(
            op.inputs()[0].name,
            "A",
            "slots are sorted as Paddle's map keeps them"
        );
        assert_eq!(op.attr("i"), Some(&AttrValue::Int(-3)));
        assert_eq!(op.attr("l"), Some(&AttrValue::Longs(vec![1, -2])));
        assert_eq!(op.attr("d"), Some(&AttrValue::Float64s(vec![0.5])));
        assert_eq!(op.attr("s"), Some(&AttrValue::Scalar(ScalarValue::Long(9))));
        assert_eq!(op.attr("vs"), Some(&AttrValue::Vars(vec!["w"])));
        assert_eq!(op.attr("blk"), Some(&AttrValue::Block(0)));
        let w = desc.find_var(0, "w").unwrap();
        assert_eq!((w.dtype(), w.shape()), (DataKind::Fp32, &[2i64, 3][..]));
        assert!(w.persistable);
    }

    /// A repeated attribute or slot name replaces the earlier value in its
    /// place (Paddle's maps), whether the names come sorted or not; slots
    /// are kept sorted per side.
    #[test]
    fn repeated_names_replace_in_place() {
        let int = |name: &str, i: i32| {
            let mut a = attr(name, proto::AttrType::Int);
            a.i = Some(i);
            a
        };
        let var = |p: &str, a: &str| proto::op_desc::Var {
            parameter: p.into(),
            arguments: vec![a.into()],
        };
        let orders: [&[(&str, i32)]; 3] = [
            &[("a", 1), ("b", 2), ("c", 3), ("b", 4)],
            &[("c", 1), ("a", 2), ("b", 3), ("c", 4)],
            &[("a", 1), ("a", 2), ("b", 3)],
        ];
        for attrs in orders {
            let op = proto::OpDesc {
                r#type: "scale".into(),
                inputs: vec![var("Y", "w"), var("X", "w"), var("Y", "v")],
                outputs: vec![var("Out", "w"), var("A", "v")],
                attrs: attrs.iter().map(|&(n, i)| int(n, i)).collect(),
                ..Default::default()
            };
            let bytes = program(vec![op]).encode_to_vec();
            let desc = ProgramDesc::decode(&bytes).unwrap();
            let op = &desc.blocks[0].ops[0];
            let mut want: Vec<(&str, i32)> = Vec::new();
            for &(n, i) in attrs {
                match want.iter_mut().find(|(m, _)| *m == n) {
                    Some(e) => e.1 = i,
                    None => want.push((n, i)),
                }
            }
            let got: Vec<(&str, i32)> = op
                .attrs
                .iter()
                .map(|a| match a.value {
                    AttrValue::Int(i) => (a.name, i),
                    _ => (a.name, i32::MIN),
                })
                .collect();
            assert_eq!(got, want);
            let names = |slots: &[Slot<'_>]| -> Vec<(String, Vec<String>)> {
                slots
                    .iter()
                    .map(|s| {
                        (
                            s.name.to_owned(),
                            s.args.iter().map(|a| a.to_string()).collect(),
                        )
                    })
                    .collect()
            };
            let pair = |n: &str, a: &str| (n.to_owned(), vec![a.to_owned()]);
            assert_eq!(names(op.inputs()), [pair("X", "w"), pair("Y", "v")]);
            assert_eq!(names(op.outputs()), [pair("A", "v"), pair("Out", "w")]);
        }
    }

    #[test]
    fn names_order_as_bytes_do() {
        let names = [
            "",
            "\0",
            "a",
            "a\0",
            "a\0\0b",
            "ab",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefghi",
            "abcdefgi",
            "op_role",
            "op_role_var",
            "b",
            "\u{e9}",
        ];
        for a in names {
            for b in names {
                assert_eq!(name_lt(a, b), a < b, "{a:?} < {b:?}");
            }
        }
    }

    #[test]
    fn bad_block_index_names_block_op_and_attribute() {
        let mut a = attr("sub_block", proto::AttrType::Block);
        a.block_idx = Some(5);
        let op = proto::OpDesc {
            r#type: "while".into(),
            attrs: vec![a],
            ..Default::default()
        };
        let err = ProgramDesc::decode(&program(vec![op]).encode_to_vec()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("block 0, op 0, `while`"), "{text}");
        assert!(text.contains("sub_block"), "{text}");
    }

    #[test]
    fn ops_with_too_many_attributes_are_refused() {
        let attrs = (0..=MAX_OP_ENTRIES)
            .map(|i| {
                let mut a = attr(&format!("a{i}"), proto::AttrType::Int);
                a.i = Some(1);
                a
            })
            .collect();
        let op = proto::OpDesc {
            r#type: "scale".into(),
            attrs,
            ..Default::default()
        };
        let err = ProgramDesc::decode(&program(vec![op]).encode_to_vec()).unwrap_err();
        assert!(matches!(err, LegacyError::Limit { .. }), "{err}");
        assert!(err.to_string().contains("attributes"), "{err}");
    }

    /// Output slots that are each within bounds but together exceed the IR's
    /// result count are refused, not left to panic when the op is built.
    #[test]
    fn ops_with_too_many_outputs_in_all_are_refused() {
        let slot = |n: usize| proto::op_desc::Var {
            parameter: format!("Out{n}"),
            arguments: (0..40_000).map(|a| format!("v{n}_{a}")).collect(),
        };
        let op = proto::OpDesc {
            r#type: "some_unknown_op".into(),
            outputs: vec![slot(0), slot(1)],
            ..Default::default()
        };
        let err = ProgramDesc::decode(&program(vec![op]).encode_to_vec()).unwrap_err();
        assert!(matches!(err, LegacyError::Limit { .. }), "{err}");
        assert!(err.to_string().contains("80000 output arguments"), "{err}");
    }

    #[test]
    fn version_pairs_read_in_one_step_or_in_general_alike() {
        let long = "x".repeat(122);
        let cases: [(&str, i32); 7] = [
            ("conv2d", 1),
            ("", 0),
            ("relu", 127),
            ("relu", 128),
            ("matmul_v2", -1),
            (&long[..121], 2),
            (&long, 2),
        ];
        let pairs = cases
            .iter()
            .map(|&(name, version)| proto::op_version_map::OpVersionPair {
                op_name: name.into(),
                op_version: proto::OpVersion { version },
            })
            .collect();
        let mut p = program(vec![]);
        p.op_version_map = Some(proto::OpVersionMap { pair: pairs });
        let bytes = p.encode_to_vec();
        let desc = ProgramDesc::decode(&bytes).unwrap();
        assert_eq!(desc.op_version_map, cases);
        // Which of them the one-step reader takes, each compared with the
        // general reader on the same bytes.
        let map = proto::OpVersionMap { pair: vec![] };
        let mut taken = Vec::new();
        for &(name, version) in &cases {
            let mut m = map.clone();
            m.pair.push(proto::op_version_map::OpVersionPair {
                op_name: name.into(),
                op_version: proto::OpVersion { version },
            });
            let field = m.encode_to_vec();
            let fast = crate::canonical::version_pair(&field);
            if let Some((pair, len)) = fast {
                assert_eq!(len, field.len());
                let mut r = Reader::new(&field, "t");
                let (f, w) = r.key().unwrap();
                assert_eq!(f, 1);
                let mut inner = r.message(w, "t").unwrap();
                assert_eq!(decode_version_pair(&mut inner).unwrap(), pair);
            }
            taken.push(fast.is_some());
        }
        assert_eq!(taken, [true, true, true, false, false, true, false]);
        // Names that are not UTF-8, other field orders and truncated pairs
        // go the general way.
        assert!(
            crate::canonical::version_pair(b"\x0a\x08\x0a\x02\xc3\x28\x12\x02\x08\x01").is_none()
        );
        let accented = crate::canonical::version_pair(b"\x0a\x08\x0a\x02\xc3\xa9\x12\x02\x08\x01");
        assert_eq!(accented, Some((("\u{e9}", 1), 10)));
        assert!(crate::canonical::version_pair(b"\x0a\x08\x12\x02\x08\x01\x0a\x02ab").is_none());
        assert!(crate::canonical::version_pair(b"\x0a\x08\x0a\x02ab\x12\x02\x08").is_none());
        let bad = [0x2a, 0x08, 0x0a, 0x06, 0x0a, 0x02, 0xc3, 0x28, 0x12, 0x00];
        let mut with_bad = program(vec![]).encode_to_vec();
        with_bad.extend_from_slice(&bad);
        assert!(matches!(
            ProgramDesc::decode(&with_bad),
            Err(LegacyError::Decode(_))
        ));
    }

    #[test]
    fn garbage_is_a_decode_error_and_empty_program_is_invalid() {
        assert!(matches!(
            ProgramDesc::decode(&[0xff, 0xff, 0xff]),
            Err(LegacyError::Decode(_))
        ));
        assert!(matches!(
            ProgramDesc::decode(&[]),
            Err(LegacyError::Invalid { .. })
        ));
    }
}
