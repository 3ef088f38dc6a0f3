//! The `ProgramDesc` the writer builds, as owned data, and its protobuf
//! encoding (`framework.proto`, proto2; field numbers as there).
//!
//! A small encoder rather than prost's generated types: the writer already
//! holds every string and list in its own structures, and building prost's
//! owned messages would copy each one again before encoding them. Nested
//! messages are encoded into the output after their length, which is
//! computed first (one pass per level, no scratch buffers); the unit tests
//! decode the bytes with prost's types of `framework.proto` and with this
//! crate's reader.

use crate::desc::{LegacyValue, ScalarValue, VarKind};

/// A legacy attribute value, owned.
pub type Value = LegacyValue<'static, String>;

/// A variable.
#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    /// Name.
    pub name: String,
    /// `VarType.Type`.
    pub kind: VarKind,
    /// Element type (`VarType.Type` of a scalar), for tensor kinds.
    pub dtype: Option<i32>,
    /// Dims (`-1` unknown).
    pub dims: Vec<i64>,
    /// LoD level.
    pub lod_level: i32,
    /// `persistable`
    pub persistable: bool,
    /// `need_check_feed`
    pub need_check_feed: bool,
    /// `is_parameter`
    pub is_parameter: bool,
    /// `stop_gradient`
    pub stop_gradient: bool,
}

impl Var {
    /// A variable of `kind` named `name`: no element type or dims, every
    /// flag false (what most variables the writer makes start from).
    pub fn new(name: impl Into<String>, kind: VarKind) -> Var {
        Var {
            name: name.into(),
            kind,
            dtype: None,
            dims: Vec::new(),
            lod_level: 0,
            persistable: false,
            need_check_feed: false,
            is_parameter: false,
            stop_gradient: false,
        }
    }
}

/// An op: type, slots (sorted by name, as Paddle's `OpDesc` keeps them) and
/// attributes (sorted by name, as Paddle writes them).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Op {
    /// Op type.
    pub op_type: String,
    /// Input slots.
    pub inputs: Vec<(String, Vec<String>)>,
    /// Output slots.
    pub outputs: Vec<(String, Vec<String>)>,
    /// Attributes.
    pub attrs: Vec<(String, Value)>,
}

impl Op {
    /// An op of `op_type` with nothing in it.
    pub fn new(op_type: &str) -> Op {
        Op {
            op_type: op_type.to_owned(),
            ..Op::default()
        }
    }

    /// Sets input slot `name`.
    pub fn set_input(&mut self, name: &str, args: Vec<String>) {
        set_slot(&mut self.inputs, name, args);
    }

    /// Sets output slot `name`.
    pub fn set_output(&mut self, name: &str, args: Vec<String>) {
        set_slot(&mut self.outputs, name, args);
    }

    /// Sets attribute `name`.
    pub fn set_attr(&mut self, name: &str, value: Value) {
        match self.attrs.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.attrs.push((name.to_owned(), value)),
        }
    }

    /// Whether the op has attribute `name`.
    pub fn has_attr(&self, name: &str) -> bool {
        self.attrs.iter().any(|(n, _)| n == name)
    }

    /// Sorts slots and attributes by name, as Paddle saves them.
    pub fn sort(&mut self) {
        self.inputs.sort_by(|a, b| a.0.cmp(&b.0));
        self.outputs.sort_by(|a, b| a.0.cmp(&b.0));
        self.attrs.sort_by(|a, b| a.0.cmp(&b.0));
    }
}

fn set_slot(slots: &mut Vec<(String, Vec<String>)>, name: &str, args: Vec<String>) {
    match slots.iter_mut().find(|(n, _)| n == name) {
        Some(slot) => slot.1 = args,
        None => slots.push((name.to_owned(), args)),
    }
}

/// A block.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Index.
    pub idx: i32,
    /// Parent index (`-1` for the top block).
    pub parent_idx: i32,
    /// Variables.
    pub vars: Vec<Var>,
    /// Ops in order.
    pub ops: Vec<Op>,
}

/// A whole program.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// Blocks; block 0 is the top block.
    pub blocks: Vec<Block>,
    /// `version.version`.
    pub version: i64,
    /// `op_version_map` pairs.
    pub op_versions: Vec<(String, i32)>,
}

// ---- wire primitives ----

const VARINT: u32 = 0;
const FIXED64: u32 = 1;
const LEN: u32 = 2;
const FIXED32: u32 = 5;

fn varint_len(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn key_len(field: u32) -> usize {
    varint_len(u64::from(field << 3))
}

fn put_key(out: &mut Vec<u8>, field: u32, wire: u32) {
    put_varint(out, u64::from(field << 3 | wire));
}

/// An `int32`/`int64`/enum field: negative values take ten bytes, as
/// protobuf sign-extends them.
fn int_len(field: u32, v: i64) -> usize {
    key_len(field) + varint_len(v as u64)
}

fn put_int(out: &mut Vec<u8>, field: u32, v: i64) {
    put_key(out, field, VARINT);
    put_varint(out, v as u64);
}

fn bytes_len(field: u32, len: usize) -> usize {
    key_len(field) + varint_len(len as u64) + len
}

fn put_bytes(out: &mut Vec<u8>, field: u32, bytes: &[u8]) {
    put_key(out, field, LEN);
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

fn put_len(out: &mut Vec<u8>, field: u32, len: usize) {
    put_key(out, field, LEN);
    put_varint(out, len as u64);
}

fn put_f32(out: &mut Vec<u8>, field: u32, v: f32) {
    put_key(out, field, FIXED32);
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_f64(out: &mut Vec<u8>, field: u32, v: f64) {
    put_key(out, field, FIXED64);
    out.extend_from_slice(&v.to_le_bytes());
}

// ---- messages: `X_len` is the encoded size of the message's body ----

fn scalar_len(s: &ScalarValue) -> usize {
    match *s {
        ScalarValue::Bool(b) => int_len(1, 1) + int_len(2, i64::from(b)),
        ScalarValue::Long(i) => int_len(1, 2) + int_len(3, i),
        ScalarValue::Float64(_) => int_len(1, 3) + key_len(4) + 8,
        ScalarValue::Complex(..) => int_len(1, 4) + bytes_len(5, 2 * (key_len(1) + 8)),
    }
}

fn put_scalar(out: &mut Vec<u8>, s: &ScalarValue) {
    match *s {
        ScalarValue::Bool(b) => {
            put_int(out, 1, 1);
            put_int(out, 2, i64::from(b));
        }
        ScalarValue::Long(i) => {
            put_int(out, 1, 2);
            put_int(out, 3, i);
        }
        ScalarValue::Float64(f) => {
            put_int(out, 1, 3);
            put_f64(out, 4, f);
        }
        ScalarValue::Complex(r, i) => {
            put_int(out, 1, 4);
            put_len(out, 5, 2 * (key_len(1) + 8));
            put_f64(out, 1, r);
            put_f64(out, 2, i);
        }
    }
}

fn attr_len(name: &str, v: &Value) -> usize {
    let ints =
        |f: u32, list: &mut dyn Iterator<Item = i64>| list.map(|x| int_len(f, x)).sum::<usize>();
    let strs = |f: u32, list: &[String]| list.iter().map(|s| bytes_len(f, s.len())).sum::<usize>();
    let body = match v {
        Value::Int(i) => int_len(3, i64::from(*i)),
        Value::Float(_) => key_len(4) + 4,
        Value::String(s) => bytes_len(5, s.len()),
        Value::Ints(l) => ints(6, &mut l.iter().map(|&x| i64::from(x))),
        Value::Floats(l) => l.len() * (key_len(7) + 4),
        Value::Strings(l) => strs(8, l),
        Value::Bool(b) => int_len(10, i64::from(*b)),
        Value::Bools(l) => ints(11, &mut l.iter().map(|&x| i64::from(x))),
        Value::Block(i) => int_len(12, i64::from(*i)),
        Value::Long(i) => int_len(13, *i),
        Value::Blocks(l) => ints(14, &mut l.iter().map(|&x| i64::from(x))),
        Value::Longs(l) => ints(15, &mut l.iter().copied()),
        Value::Float64s(l) => l.len() * (key_len(16) + 8),
        Value::Var(s) => bytes_len(17, s.len()),
        Value::Vars(l) => strs(18, l),
        Value::Float64(_) => key_len(19) + 8,
        Value::Scalar(s) => bytes_len(20, scalar_len(s)),
        Value::Scalars(l) => l.iter().map(|s| bytes_len(21, scalar_len(s))).sum(),
    };
    bytes_len(1, name.len()) + int_len(2, v.kind() as i64) + body
}

fn put_attr(out: &mut Vec<u8>, name: &str, v: &Value) {
    put_bytes(out, 1, name.as_bytes());
    put_int(out, 2, v.kind() as i64);
    match v {
        Value::Int(i) => put_int(out, 3, i64::from(*i)),
        Value::Float(f) => put_f32(out, 4, *f),
        Value::String(s) => put_bytes(out, 5, s.as_bytes()),
        Value::Ints(l) => l.iter().for_each(|&x| put_int(out, 6, i64::from(x))),
        Value::Floats(l) => l.iter().for_each(|&x| put_f32(out, 7, x)),
        Value::Strings(l) => l.iter().for_each(|s| put_bytes(out, 8, s.as_bytes())),
        Value::Bool(b) => put_int(out, 10, i64::from(*b)),
        Value::Bools(l) => l.iter().for_each(|&x| put_int(out, 11, i64::from(x))),
        Value::Block(i) => put_int(out, 12, i64::from(*i)),
        Value::Long(i) => put_int(out, 13, *i),
        Value::Blocks(l) => l.iter().for_each(|&x| put_int(out, 14, i64::from(x))),
        Value::Longs(l) => l.iter().for_each(|&x| put_int(out, 15, x)),
        Value::Float64s(l) => l.iter().for_each(|&x| put_f64(out, 16, x)),
        Value::Var(s) => put_bytes(out, 17, s.as_bytes()),
        Value::Vars(l) => l.iter().for_each(|s| put_bytes(out, 18, s.as_bytes())),
        Value::Float64(f) => put_f64(out, 19, *f),
        Value::Scalar(s) => {
            put_len(out, 20, scalar_len(s));
            put_scalar(out, s);
        }
        Value::Scalars(l) => l.iter().for_each(|s| {
            put_len(out, 21, scalar_len(s));
            put_scalar(out, s);
        }),
    }
}

fn slot_len(name: &str, args: &[String]) -> usize {
    bytes_len(1, name.len()) + args.iter().map(|a| bytes_len(2, a.len())).sum::<usize>()
}

fn put_slot(out: &mut Vec<u8>, field: u32, name: &str, args: &[String]) {
    put_len(out, field, slot_len(name, args));
    put_bytes(out, 1, name.as_bytes());
    for a in args {
        put_bytes(out, 2, a.as_bytes());
    }
}

fn op_len(op: &Op) -> usize {
    op.inputs
        .iter()
        .chain(&op.outputs)
        .map(|(n, a)| bytes_len(1, slot_len(n, a)))
        .sum::<usize>()
        + bytes_len(3, op.op_type.len())
        + op.attrs
            .iter()
            .map(|(n, v)| bytes_len(4, attr_len(n, v)))
            .sum::<usize>()
}

fn put_op(out: &mut Vec<u8>, op: &Op) {
    for (n, a) in &op.inputs {
        put_slot(out, 1, n, a);
    }
    for (n, a) in &op.outputs {
        put_slot(out, 2, n, a);
    }
    put_bytes(out, 3, op.op_type.as_bytes());
    for (n, v) in &op.attrs {
        put_len(out, 4, attr_len(n, v));
        put_attr(out, n, v);
    }
}

/// `TensorDesc { data_type = 1; dims = 2 }`
fn tensor_len(v: &Var) -> usize {
    int_len(1, i64::from(v.dtype.unwrap_or(5)))
        + v.dims.iter().map(|&d| int_len(2, d)).sum::<usize>()
}

fn put_tensor(out: &mut Vec<u8>, field: u32, v: &Var) {
    put_len(out, field, tensor_len(v));
    put_int(out, 1, i64::from(v.dtype.unwrap_or(5)));
    for &d in &v.dims {
        put_int(out, 2, d);
    }
}

/// The `VarType` body: `type = 1`, then the kind's own descriptor
/// (`selected_rows = 2`, `lod_tensor = 3`, `tensor_array = 4`).
fn var_type_len(v: &Var) -> usize {
    let own = match v.kind {
        VarKind::DenseTensor | VarKind::DenseTensorArray if v.dtype.is_some() => {
            let lod = if v.lod_level != 0 {
                int_len(2, i64::from(v.lod_level))
            } else {
                0
            };
            bytes_len(3, bytes_len(1, tensor_len(v)) + lod)
        }
        VarKind::SelectedRows if v.dtype.is_some() => bytes_len(2, tensor_len(v)),
        _ => 0,
    };
    int_len(1, i64::from(v.kind.to_i32())) + own
}

fn put_var_type(out: &mut Vec<u8>, v: &Var) {
    put_int(out, 1, i64::from(v.kind.to_i32()));
    match v.kind {
        VarKind::DenseTensor | VarKind::DenseTensorArray if v.dtype.is_some() => {
            let field = if v.kind == VarKind::DenseTensor { 3 } else { 4 };
            let lod = if v.lod_level != 0 {
                int_len(2, i64::from(v.lod_level))
            } else {
                0
            };
            put_len(out, field, bytes_len(1, tensor_len(v)) + lod);
            put_tensor(out, 1, v);
            if v.lod_level != 0 {
                put_int(out, 2, i64::from(v.lod_level));
            }
        }
        VarKind::SelectedRows if v.dtype.is_some() => put_tensor(out, 2, v),
        _ => {}
    }
}

fn var_len(v: &Var) -> usize {
    let mut n = bytes_len(1, v.name.len()) + bytes_len(2, var_type_len(v)) + int_len(3, 0);
    if v.need_check_feed {
        n += int_len(4, 1);
    }
    if v.is_parameter {
        n += int_len(5, 1);
    }
    if v.stop_gradient {
        n += int_len(6, 1);
    }
    n
}

fn put_var(out: &mut Vec<u8>, v: &Var) {
    put_bytes(out, 1, v.name.as_bytes());
    put_len(out, 2, var_type_len(v));
    put_var_type(out, v);
    put_int(out, 3, i64::from(v.persistable));
    if v.need_check_feed {
        put_int(out, 4, 1);
    }
    if v.is_parameter {
        put_int(out, 5, 1);
    }
    if v.stop_gradient {
        put_int(out, 6, 1);
    }
}

fn block_len(b: &Block) -> usize {
    int_len(1, i64::from(b.idx))
        + int_len(2, i64::from(b.parent_idx))
        + b.vars
            .iter()
            .map(|v| bytes_len(3, var_len(v)))
            .sum::<usize>()
        + b.ops.iter().map(|o| bytes_len(4, op_len(o))).sum::<usize>()
        + int_len(5, -1)
}

fn put_block(out: &mut Vec<u8>, b: &Block) {
    put_int(out, 1, i64::from(b.idx));
    put_int(out, 2, i64::from(b.parent_idx));
    for v in &b.vars {
        put_len(out, 3, var_len(v));
        put_var(out, v);
    }
    for o in &b.ops {
        put_len(out, 4, op_len(o));
        put_op(out, o);
    }
    put_int(out, 5, -1);
}

fn pair_len(name: &str, version: i32) -> usize {
    bytes_len(1, name.len()) + bytes_len(2, int_len(1, i64::from(version)))
}

/// Encodes `program` as a serialized `ProgramDesc`: `blocks = 1`,
/// `version = 4`, `op_version_map = 5`.
pub fn encode(program: &Program) -> Vec<u8> {
    let blocks: usize = program
        .blocks
        .iter()
        .map(|b| bytes_len(1, block_len(b)))
        .sum();
    let map_body: usize = program
        .op_versions
        .iter()
        .map(|(n, v)| bytes_len(1, pair_len(n, *v)))
        .sum();
    let total = blocks + bytes_len(4, int_len(1, program.version)) + bytes_len(5, map_body);
    let mut out = Vec::with_capacity(total);
    for b in &program.blocks {
        put_len(&mut out, 1, block_len(b));
        put_block(&mut out, b);
    }
    put_len(&mut out, 4, int_len(1, program.version));
    put_int(&mut out, 1, program.version);
    put_len(&mut out, 5, map_body);
    for (n, v) in &program.op_versions {
        put_len(&mut out, 1, pair_len(n, *v));
        put_bytes(&mut out, 1, n.as_bytes());
        put_len(&mut out, 2, int_len(1, i64::from(*v)));
        put_int(&mut out, 1, i64::from(*v));
    }
    debug_assert_eq!(out.len(), total);
    out
}
