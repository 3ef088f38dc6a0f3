//! Structured legacy programs for the fuzz targets: `arbitrary` builds a
//! `ProgramDesc` from a few blocks whose ops come from the op types the
//! translator treats specially (control flow referencing blocks, feed and
//! fetch, splits, arrays...) with inputs, outputs and attributes drawn from
//! small pools of names (so ops meet the variables and blocks they name),
//! of every attribute kind, and with argument lists up to thousands long,
//! encoded with the prost types of `framework.proto`.

use arbitrary::Arbitrary;
use prost::Message;

use super::proto;

const OP_TYPES: &[&str] = &[
    "feed", "fetch", "conditional_block", "while", "elementwise_add", "split", "assign",
    "fill_constant", "scale", "relu", "matmul", "mul", "concat", "cast", "data",
    "select_input", "select_output", "increment", "less_than", "write_to_array",
    "read_from_array", "lod_array_length", "tril_triu", "one_hot_v2", "gather", "range",
    "reduce_all", "shadow_output", "lookup_table_v2", "assign_value", "while_grad",
    "conditional_block_grad", "sum", "stack", "unknown_op", "fetch_v2", "matrix_rank",
];
const VAR_NAMES: &[&str] = &[
    "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "feed", "fetch", "@EMPTY@",
];
const PARAMS: &[&str] = &[
    "X", "Y", "Out", "Input", "Cond", "Condition", "Scope", "StepScopes", "ShapeTensor",
    "ValueTensor", "AxisTensor", "SectionsTensorList", "Ids", "W", "Mask", "Start", "End",
    "Step", "I", "Array", "depth_tensor",
];
const ATTR_NAMES: &[&str] = &[
    "sub_block", "axis", "num", "sections", "dtype", "out_dtype", "shape", "value", "col",
    "name", "place_type", "force_cpu", "lower", "alpha", "x_num_col_dims", "y_num_col_dims",
    "scale", "bias", "step", "is_scalar_condition", "reduce_all", "depth", "in_dtype",
    "fp32_values", "int32_values",
];

fn pick<'a>(pool: &[&'a str], i: u8) -> &'a str {
    pool[usize::from(i) % pool.len()]
}

#[derive(Arbitrary, Debug)]
pub struct Program {
    blocks: Vec<Block>,
}

#[derive(Arbitrary, Debug)]
struct Block {
    parent: i8,
    vars: Vec<Var>,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
struct Var {
    name: u8,
    kind: u8,
    dtype: u8,
    dims: Vec<i8>,
    persistable: bool,
}

#[derive(Arbitrary, Debug)]
struct Op {
    ty: u8,
    inputs: Vec<Slot>,
    outputs: Vec<Slot>,
    attrs: Vec<Attr>,
}

#[derive(Arbitrary, Debug)]
struct Slot {
    param: u8,
    args: Vec<u8>,
    /// Repeats the arguments this many times (long argument lists).
    repeat: u8,
}

#[derive(Arbitrary, Debug)]
struct Attr {
    name: u8,
    value: Value,
}

#[derive(Arbitrary, Debug)]
enum Value {
    Int(i32),
    Float(f32),
    Str(u8),
    Ints(Vec<i32>),
    Floats(Vec<f32>),
    Bool(bool),
    Block(u8),
    Long(i64),
    Blocks(Vec<u8>),
    Longs(Vec<i64>),
    Var(u8),
    Vars(Vec<u8>),
    Float64(f64),
    /// Any type number with no value (unknown kinds included).
    Raw(i32),
}

fn var(v: &Var) -> proto::VarDesc {
    let kinds = [7, 7, 7, 13, 9, 10, 8, 25, 5, 3];
    let kind = kinds[usize::from(v.kind) % kinds.len()];
    let dtypes = [5, 5, 3, 2, 0, 6, 4, 22, 19, 29, 40];
    let tensor = proto::var_type::TensorDesc {
        data_type: dtypes[usize::from(v.dtype) % dtypes.len()],
        dims: v.dims.iter().take(6).map(|&d| i64::from(d)).collect(),
    };
    let mut ty = proto::VarType {
        r#type: kind,
        ..Default::default()
    };
    match kind {
        7 => {
            ty.dense_tensor = Some(proto::var_type::DenseTensorDesc {
                tensor,
                legacy_lod_level: None,
            })
        }
        13 => {
            ty.tensor_array = Some(proto::var_type::DenseTensorArrayDesc {
                tensor,
                legacy_lod_level: None,
            })
        }
        8 => ty.selected_rows = Some(tensor),
        _ => {}
    }
    proto::VarDesc {
        name: pick(VAR_NAMES, v.name).into(),
        r#type: ty,
        persistable: Some(v.persistable),
        ..Default::default()
    }
}

fn slot(s: &Slot) -> proto::op_desc::Var {
    let args: Vec<String> = s.args.iter().take(8).map(|&a| pick(VAR_NAMES, a).to_owned()).collect();
    let times = 1 + usize::from(s.repeat) * 8;
    proto::op_desc::Var {
        parameter: pick(PARAMS, s.param).into(),
        arguments: args.iter().cycle().take(args.len() * times).cloned().collect(),
    }
}

fn attr(a: &Attr, blocks: usize) -> proto::op_desc::Attr {
    let block = |i: u8| (usize::from(i) % blocks.max(1)) as i32;
    let mut out = proto::op_desc::Attr {
        name: pick(ATTR_NAMES, a.name).into(),
        ..Default::default()
    };
    match &a.value {
        Value::Int(i) => (out.r#type, out.i) = (0, Some(*i)),
        Value::Float(f) => (out.r#type, out.f) = (1, Some(*f)),
        Value::Str(s) => (out.r#type, out.s) = (2, Some(pick(VAR_NAMES, *s).into())),
        Value::Ints(l) => (out.r#type, out.ints) = (3, l.clone()),
        Value::Floats(l) => (out.r#type, out.floats) = (4, l.clone()),
        Value::Bool(b) => (out.r#type, out.b) = (6, Some(*b)),
        Value::Block(i) => (out.r#type, out.block_idx) = (8, Some(block(*i))),
        Value::Long(l) => (out.r#type, out.l) = (9, Some(*l)),
        Value::Blocks(l) => (out.r#type, out.blocks_idx) = (10, l.iter().map(|&i| block(i)).collect()),
        Value::Longs(l) => (out.r#type, out.longs) = (11, l.clone()),
        Value::Var(v) => (out.r#type, out.var_name) = (13, Some(pick(VAR_NAMES, *v).into())),
        Value::Vars(l) => {
            out.r#type = 14;
            out.vars_name = l.iter().map(|&v| pick(VAR_NAMES, v).into()).collect();
        }
        Value::Float64(f) => (out.r#type, out.float64) = (15, Some(*f)),
        Value::Raw(t) => out.r#type = *t,
    }
    out
}

pub fn encode(p: &Program) -> Vec<u8> {
    let n = p.blocks.len().min(8);
    let blocks = p
        .blocks
        .iter()
        .take(8)
        .enumerate()
        .map(|(i, b)| proto::BlockDesc {
            idx: i as i32,
            // The top block has no parent; others mostly an earlier block.
            parent_idx: if i == 0 { -1 } else { i32::from(b.parent) % (n as i32 + 1) },
            vars: b.vars.iter().take(16).map(var).collect(),
            ops: b
                .ops
                .iter()
                .take(16)
                .map(|o| proto::OpDesc {
                    r#type: pick(OP_TYPES, o.ty).into(),
                    inputs: o.inputs.iter().take(4).map(slot).collect(),
                    outputs: o.outputs.iter().take(4).map(slot).collect(),
                    attrs: o.attrs.iter().take(6).map(|a| attr(a, n)).collect(),
                    is_target: None,
                })
                .collect(),
            forward_block_idx: None,
        })
        .collect();
    proto::ProgramDesc {
        blocks,
        version: None,
        op_version_map: None,
    }
    .encode_to_vec()
}

