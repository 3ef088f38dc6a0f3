//! A `ProgramDesc` as plain Rust data: blocks, variables and ops with their
//! inputs, outputs and attributes, checked once so the translator can index
//! without surprises.
//!
//! The protobuf is decoded by `prost` (lengths are bounded by the input and
//! nesting by prost's recursion limit); [`ProgramDesc::decode`] then checks
//! block indices, attribute kinds and counts.

use prost::Message;

use crate::error::{LegacyError, Location, Result};
use crate::proto;

/// Most blocks a program may have.
pub const MAX_BLOCKS: usize = 100_000;
/// Most ops in one block.
pub const MAX_OPS_PER_BLOCK: usize = 1_000_000;
/// Most arguments of one input or output slot (an op result count must fit in
/// 16 bits in the IR).
pub const MAX_ARGS: usize = 60_000;

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
    pub dims: Vec<i64>,
    /// LoD level (dense tensors and tensor arrays).
    pub lod_level: i32,
}

/// A variable of a block.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDesc {
    /// Name.
    pub name: String,
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

impl VarDesc {
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
pub struct Slot {
    /// Parameter name (`X`, `Out`, ...).
    pub name: String,
    /// Variable names.
    pub args: Vec<String>,
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
pub enum AttrValue {
    /// `INT`
    Int(i32),
    /// `FLOAT`
    Float(f32),
    /// `STRING`
    String(String),
    /// `INTS`
    Ints(Vec<i32>),
    /// `FLOATS`
    Floats(Vec<f32>),
    /// `STRINGS`
    Strings(Vec<String>),
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
    Var(String),
    /// `VARS`: variable names.
    Vars(Vec<String>),
    /// `FLOAT64`
    Float64(f64),
    /// `SCALAR`
    Scalar(ScalarValue),
    /// `SCALARS`
    Scalars(Vec<ScalarValue>),
}

/// A named attribute.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr {
    /// Name.
    pub name: String,
    /// Value.
    pub value: AttrValue,
}

/// An op of a block.
#[derive(Debug, Clone, PartialEq)]
pub struct OpDesc {
    /// The legacy op type (`elementwise_add`).
    pub op_type: String,
    /// Input slots, sorted by parameter name as Paddle's `OpDesc` keeps them.
    pub inputs: Vec<Slot>,
    /// Output slots, sorted by parameter name.
    pub outputs: Vec<Slot>,
    /// Attributes in file order.
    pub attrs: Vec<Attr>,
    /// `is_target`.
    pub is_target: bool,
}

impl OpDesc {
    /// The arguments of input `name` (`None` when the slot is absent).
    pub fn input(&self, name: &str) -> Option<&[String]> {
        self.inputs
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.args.as_slice())
    }

    /// The arguments of output `name`.
    pub fn output(&self, name: &str) -> Option<&[String]> {
        self.outputs
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.args.as_slice())
    }

    /// The arguments of input `name`, empty when absent.
    pub fn input_args(&self, name: &str) -> &[String] {
        self.input(name).unwrap_or(&[])
    }

    /// The arguments of output `name`, empty when absent.
    pub fn output_args(&self, name: &str) -> &[String] {
        self.output(name).unwrap_or(&[])
    }

    /// Attribute `name`.
    pub fn attr(&self, name: &str) -> Option<&AttrValue> {
        self.attrs.iter().find(|a| a.name == name).map(|a| &a.value)
    }

    /// All input arguments, slot by slot (Paddle's `InputArgumentNames`).
    pub fn input_arg_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.inputs
            .iter()
            .flat_map(|s| s.args.iter().map(String::as_str))
    }

    /// All output arguments, slot by slot (`OutputArgumentNames`).
    pub fn output_arg_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.outputs
            .iter()
            .flat_map(|s| s.args.iter().map(String::as_str))
    }
}

/// A block: variables and ops.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockDesc {
    /// Index as stored (`idx`).
    pub idx: i32,
    /// Parent block index (`-1` for the top block).
    pub parent_idx: i32,
    /// `forward_block_idx`.
    pub forward_block_idx: i32,
    /// Variables.
    pub vars: Vec<VarDesc>,
    /// Ops in order.
    pub ops: Vec<OpDesc>,
    /// Index in `vars` of the first variable of each name.
    by_name: rustc_hash::FxHashMap<String, usize>,
}

impl BlockDesc {
    /// The block's own variable `name` (the first, if declared twice).
    pub fn var(&self, name: &str) -> Option<&VarDesc> {
        self.vars.get(*self.by_name.get(name)?)
    }
}

/// A decoded `ProgramDesc`.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgramDesc {
    /// Blocks; block 0 is the top block.
    pub blocks: Vec<BlockDesc>,
    /// `version.version`, when present.
    pub version: Option<i64>,
    /// `op_version_map` pairs in file order.
    pub op_version_map: Vec<(String, i32)>,
}

impl ProgramDesc {
    /// Decodes and checks a serialized `ProgramDesc`.
    pub fn decode(bytes: &[u8]) -> Result<ProgramDesc> {
        let raw = proto::ProgramDesc::decode(bytes)?;
        ProgramDesc::from_proto(raw)
    }

    /// Checks and converts the protobuf form.
    pub fn from_proto(raw: proto::ProgramDesc) -> Result<ProgramDesc> {
        if raw.blocks.is_empty() {
            return Err(LegacyError::invalid(
                Location::default(),
                "the program has no blocks",
            ));
        }
        if raw.blocks.len() > MAX_BLOCKS {
            return Err(LegacyError::Limit {
                at: Box::new(Location::default()),
                message: format!("{} blocks (at most {MAX_BLOCKS})", raw.blocks.len()),
            });
        }
        let num_blocks = raw.blocks.len();
        let mut blocks = Vec::with_capacity(num_blocks);
        for (b, block) in raw.blocks.into_iter().enumerate() {
            blocks.push(convert_block(b, num_blocks, block)?);
        }
        let op_version_map = raw
            .op_version_map
            .map(|m| {
                m.pair
                    .into_iter()
                    .map(|p| (p.op_name, p.op_version.version))
                    .collect()
            })
            .unwrap_or_default();
        Ok(ProgramDesc {
            blocks,
            version: raw.version.and_then(|v| v.version),
            op_version_map,
        })
    }

    /// Finds `name` in block `block` or its ancestors (`FindVarRecursive`).
    pub fn find_var(&self, block: usize, name: &str) -> Option<&VarDesc> {
        let mut b = block;
        // The parent chain was checked to point to existing blocks; the step
        // bound guards against cycles.
        for _ in 0..=self.blocks.len() {
            let blk = self.blocks.get(b)?;
            if let Some(v) = blk.var(name) {
                return Some(v);
            }
            b = usize::try_from(blk.parent_idx).ok()?;
        }
        None
    }
}

fn convert_block(b: usize, num_blocks: usize, block: proto::BlockDesc) -> Result<BlockDesc> {
    let at = Location {
        block: Some(b),
        ..Location::default()
    };
    if block.parent_idx >= num_blocks as i32 || block.parent_idx < -1 {
        return Err(LegacyError::invalid(
            at,
            format!("parent block {} does not exist", block.parent_idx),
        ));
    }
    if block.ops.len() > MAX_OPS_PER_BLOCK {
        return Err(LegacyError::Limit {
            at: Box::new(at),
            message: format!("{} ops (at most {MAX_OPS_PER_BLOCK})", block.ops.len()),
        });
    }
    let vars: Vec<VarDesc> = block.vars.into_iter().map(convert_var).collect();
    let mut by_name = rustc_hash::FxHashMap::default();
    for (i, v) in vars.iter().enumerate() {
        by_name.entry(v.name.clone()).or_insert(i);
    }
    let mut ops = Vec::with_capacity(block.ops.len());
    for (i, op) in block.ops.into_iter().enumerate() {
        ops.push(convert_op(b, i, num_blocks, op)?);
    }
    Ok(BlockDesc {
        idx: block.idx,
        parent_idx: block.parent_idx,
        forward_block_idx: block.forward_block_idx.unwrap_or(-1),
        vars,
        ops,
        by_name,
    })
}

fn tensor_desc(t: proto::var_type::TensorDesc, lod_level: i32) -> TensorDesc {
    TensorDesc {
        dtype: DataKind::from_i32(t.data_type),
        dims: t.dims,
        lod_level,
    }
}

fn convert_var(v: proto::VarDesc) -> VarDesc {
    let ty = v.r#type;
    let kind = VarKind::from_i32(ty.r#type);
    // Paddle reads the desc that belongs to the kind and ignores the others.
    let tensor = match kind {
        VarKind::DenseTensor => ty
            .dense_tensor
            .map(|d| tensor_desc(d.tensor, d.legacy_lod_level.unwrap_or(0))),
        VarKind::DenseTensorArray => ty
            .tensor_array
            .map(|d| tensor_desc(d.tensor, d.legacy_lod_level.unwrap_or(0))),
        VarKind::SelectedRows => ty.selected_rows.map(|t| tensor_desc(t, 0)),
        VarKind::String => ty.string.map(|t| tensor_desc(t, 0)),
        VarKind::Strings => ty.strings.map(|t| tensor_desc(t, 0)),
        VarKind::Vocab => ty.vocab.map(|t| tensor_desc(t, 0)),
        VarKind::SparseCoo => ty.sparse_coo.map(|t| tensor_desc(t, 0)),
        VarKind::SparseCsr => ty.sparse_csr.map(|t| tensor_desc(t, 0)),
        _ => None,
    };
    let tuple = ty
        .tuple
        .map(|t| t.element_type.into_iter().map(DataKind::from_i32).collect())
        .unwrap_or_default();
    let reader = ty
        .reader
        .map(|r| {
            r.dense_tensor
                .into_iter()
                .map(|d| tensor_desc(d.tensor, d.legacy_lod_level.unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    VarDesc {
        name: v.name,
        kind,
        tensor,
        tuple,
        reader,
        persistable: v.persistable.unwrap_or(false),
        need_check_feed: v.need_check_feed.unwrap_or(false),
        is_parameter: v.is_parameter.unwrap_or(false),
        stop_gradient: v.stop_gradient.unwrap_or(false),
    }
}

fn slots(b: usize, i: usize, op_type: &str, raw: Vec<proto::op_desc::Var>) -> Result<Vec<Slot>> {
    let mut out: Vec<Slot> = Vec::with_capacity(raw.len());
    for v in raw {
        if v.arguments.len() > MAX_ARGS {
            return Err(LegacyError::Limit {
                at: Box::new(Location {
                    block: Some(b),
                    op: Some(i),
                    op_type: Some(op_type.to_owned()),
                    var: None,
                }),
                message: format!(
                    "slot `{}` has {} arguments (at most {MAX_ARGS})",
                    v.parameter,
                    v.arguments.len()
                ),
            });
        }
        // Paddle's OpDesc keeps slots in a std::map: sorted, a repeated name
        // replaces the earlier one.
        match out.binary_search_by(|s| s.name.as_str().cmp(&v.parameter)) {
            Ok(pos) => out[pos].args = v.arguments,
            Err(pos) => out.insert(
                pos,
                Slot {
                    name: v.parameter,
                    args: v.arguments,
                },
            ),
        }
    }
    Ok(out)
}

fn scalar(s: &proto::Scalar) -> Option<ScalarValue> {
    use proto::scalar::Type;
    Some(match Type::try_from(s.r#type).ok()? {
        Type::Boolean => ScalarValue::Bool(s.b.unwrap_or(false)),
        Type::Long => ScalarValue::Long(s.i.unwrap_or(0)),
        Type::Float64 => ScalarValue::Float64(s.r.unwrap_or(0.0)),
        Type::Complex128 => {
            let c = s.c.as_ref();
            ScalarValue::Complex(c.map_or(0.0, |c| c.r), c.map_or(0.0, |c| c.i))
        }
    })
}

fn convert_attr(a: proto::op_desc::Attr, num_blocks: usize) -> Result<AttrValue, String> {
    use proto::AttrType as T;
    let kind = T::try_from(a.r#type).map_err(|_| format!("unknown attribute type {}", a.r#type))?;
    let block = |idx: i32| -> Result<i32, String> {
        if idx < 0 || idx as usize >= num_blocks {
            Err(format!("block index {idx} does not exist"))
        } else {
            Ok(idx)
        }
    };
    let scalars = |list: &[proto::Scalar]| -> Result<Vec<ScalarValue>, String> {
        list.iter()
            .map(|s| scalar(s).ok_or_else(|| format!("unknown scalar type {}", s.r#type)))
            .collect()
    };
    Ok(match kind {
        T::Int => AttrValue::Int(a.i.unwrap_or(0)),
        T::Float => AttrValue::Float(a.f.unwrap_or(0.0)),
        T::String => AttrValue::String(a.s.unwrap_or_default()),
        T::Ints => AttrValue::Ints(a.ints),
        T::Floats => AttrValue::Floats(a.floats),
        T::Strings => AttrValue::Strings(a.strings),
        T::Boolean => AttrValue::Bool(a.b.unwrap_or(false)),
        T::Booleans => AttrValue::Bools(a.bools),
        T::Block => AttrValue::Block(block(a.block_idx.unwrap_or(0))?),
        T::Long => AttrValue::Long(a.l.unwrap_or(0)),
        T::Blocks => AttrValue::Blocks(
            a.blocks_idx
                .iter()
                .map(|&i| block(i))
                .collect::<Result<_, _>>()?,
        ),
        T::Longs => AttrValue::Longs(a.longs),
        T::Float64s => AttrValue::Float64s(a.float64s),
        T::Var => AttrValue::Var(a.var_name.unwrap_or_default()),
        T::Vars => AttrValue::Vars(a.vars_name),
        T::Float64 => AttrValue::Float64(a.float64.unwrap_or(0.0)),
        T::Scalar => AttrValue::Scalar(
            a.scalar
                .as_ref()
                .map(|s| scalar(s).ok_or_else(|| format!("unknown scalar type {}", s.r#type)))
                .transpose()?
                .unwrap_or(ScalarValue::Float64(0.0)),
        ),
        T::Scalars => AttrValue::Scalars(scalars(&a.scalars)?),
    })
}

fn convert_op(b: usize, i: usize, num_blocks: usize, op: proto::OpDesc) -> Result<OpDesc> {
    let op_type = op.r#type;
    let inputs = slots(b, i, &op_type, op.inputs)?;
    let outputs = slots(b, i, &op_type, op.outputs)?;
    let mut attrs: Vec<Attr> = Vec::with_capacity(op.attrs.len());
    for a in op.attrs {
        let name = a.name.clone();
        let value = convert_attr(a, num_blocks).map_err(|message| {
            LegacyError::invalid(
                Location {
                    block: Some(b),
                    op: Some(i),
                    op_type: Some(op_type.clone()),
                    var: None,
                },
                format!("attribute `{name}`: {message}"),
            )
        })?;
        // Paddle keeps attributes in a map: a repeated name replaces the value.
        match attrs.iter_mut().find(|x| x.name == name) {
            Some(x) => x.value = value,
            None => attrs.push(Attr { name, value }),
        }
    }
    Ok(OpDesc {
        op_type,
        inputs,
        outputs,
        attrs,
        is_target: op.is_target.unwrap_or(false),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tensor_var(name: &str, dims: Vec<i64>) -> proto::VarDesc {
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
            op.inputs[0].name, "A",
            "slots are sorted as Paddle's map keeps them"
        );
        assert_eq!(op.attr("i"), Some(&AttrValue::Int(-3)));
        assert_eq!(op.attr("l"), Some(&AttrValue::Longs(vec![1, -2])));
        assert_eq!(op.attr("d"), Some(&AttrValue::Float64s(vec![0.5])));
        assert_eq!(op.attr("s"), Some(&AttrValue::Scalar(ScalarValue::Long(9))));
        assert_eq!(op.attr("vs"), Some(&AttrValue::Vars(vec!["w".into()])));
        assert_eq!(op.attr("blk"), Some(&AttrValue::Block(0)));
        let w = desc.find_var(0, "w").unwrap();
        assert_eq!((w.dtype(), w.shape()), (DataKind::Fp32, &[2i64, 3][..]));
        assert!(w.persistable);
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
