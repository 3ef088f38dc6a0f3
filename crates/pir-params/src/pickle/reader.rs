//! The allow-listed pickle interpreter.
//!
//! It runs the stack machine of Python's `pickle` for the opcodes that Paddle's
//! files use (protocols 2–4) and builds a [`PickleValue`]. Nothing is ever
//! imported or called: the few allowed globals are recognised by name and turn
//! into data (an array, a dtype, an empty dict, bytes, a tuple); any other
//! global or opcode is an error naming it and its byte offset.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use super::budget::CopyBudget;
use super::expand::Convert;
use super::globals::{lookup_global, Callable, ALLOWED};
use super::opcodes::opcode_name;
use super::value::{NdArray, PickleValue};
use crate::error::{Error, Result};
use crate::DType;

/// Resource limits of the pickle reader (all checked before allocating).
#[derive(Clone, Debug)]
pub struct ReadLimits {
    /// Maximum number of items on the stack (marks included).
    pub max_stack: usize,
    /// Maximum number of memo entries.
    pub max_memo: usize,
    /// Maximum number of values in the result after expanding shared
    /// references, **beyond** one per input byte (a pickle without shared
    /// references never has more values than bytes). Stops "memo bombs" of
    /// nested shared lists before anything is built.
    pub max_extra_nodes: usize,
    /// Maximum nesting depth of the result.
    pub max_depth: usize,
    /// Bytes the reader and the state-dict loader may copy or create
    /// (latin-1 decoding, Fortran reordering, buffers cloned per shared
    /// reference, reassembled `UnpackBigParamInfor@@` arrays, borrowed bytes
    /// made owned), as a multiple of the input's length. An honest file
    /// needs at most about three copies of its bytes; a pickle that names
    /// one buffer thousands of times is stopped before it allocates.
    pub copy_factor: u64,
    /// An explicit total of copied bytes, replacing `copy_factor × input
    /// length` when set.
    pub max_copied_bytes: Option<u64>,
}

impl Default for ReadLimits {
    fn default() -> ReadLimits {
        ReadLimits {
            max_stack: 1 << 20,
            max_memo: 1 << 20,
            max_extra_nodes: 1 << 20,
            max_depth: 200,
            copy_factor: 4,
            max_copied_bytes: None,
        }
    }
}

pub(super) type Id = usize;

/// A dict key as Python hashes it. Strings borrow from the input (cloning a
/// borrowed `Cow` copies no bytes), so setting one long key many times costs
/// nothing per time.
#[derive(Hash, PartialEq, Eq)]
pub(super) enum KeyRepr<'a> {
    Str(Cow<'a, str>),
    Int(i64),
    None,
}

pub(super) enum Obj<'a> {
    /// A scalar (None, bool, int, float, str, bytes) as the value it reads
    /// as; never a container (those below hold the ids of their items).
    Leaf(PickleValue<'a>),
    Tuple(Vec<Id>),
    List(Vec<Id>),
    Dict {
        items: Vec<(Id, Id)>,
        index: HashMap<KeyRepr<'a>, usize>,
        /// The item of each key object set so far: one memoized key set
        /// many times is found by its id, not hashed again each time (a
        /// 1 MiB key set 4,000 times would hash 4 GB).
        by_id: HashMap<Id, usize>,
    },
    Global(Callable),
    Dtype {
        dtype: DType,
        built: bool,
    },
    PendingArray,
    Array(NdArray<'a>),
}

impl Obj<'_> {
    fn int(v: i64) -> Self {
        Obj::Leaf(PickleValue::Int(v))
    }
}

pub(super) static NONE: Obj<'static> = Obj::Leaf(PickleValue::None);

pub(super) fn kind(o: &Obj<'_>) -> &'static str {
    match o {
        Obj::Leaf(v) => v.kind(),
        Obj::Tuple(_) => "tuple",
        Obj::List(_) => "list",
        Obj::Dict { .. } => "dict",
        Obj::Global(_) => "global",
        Obj::Dtype { .. } => "numpy.dtype",
        Obj::PendingArray => "unbuilt ndarray",
        Obj::Array(_) => "ndarray",
    }
}

pub(super) struct Machine<'a, 'l> {
    input: &'a [u8],
    pos: usize,
    op_at: usize,
    limits: &'l ReadLimits,
    pub(super) arena: Vec<Obj<'a>>,
    stack: Vec<Id>,
    marks: Vec<usize>,
    memo: HashMap<u32, Id>,
    /// Bytes created so far (latin-1, Fortran reordering), bounded.
    pub(super) budget: CopyBudget,
    /// Container slots copied by `builtins.tuple(seq)` so far: a shared list
    /// copied per call would otherwise grow quadratically in the input.
    pub(super) copied_slots: u64,
}

/// Reads a pickle with the default [`ReadLimits`].
pub fn read_pickle(input: &[u8]) -> Result<PickleValue<'_>> {
    read_pickle_with(input, &ReadLimits::default())
}

/// Reads a protocol 2–4 pickle into a [`PickleValue`], allowing only the
/// opcodes and globals of numpy-array state dicts (module docs of
/// [`crate::pickle`]). Protocol 5, a missing `PROTO`, bytes after `STOP`, and
/// any other global or opcode are errors.
pub fn read_pickle_with<'a>(input: &'a [u8], limits: &ReadLimits) -> Result<PickleValue<'a>> {
    let mut budget = CopyBudget::new(input.len(), limits);
    read_pickle_budgeted(input, limits, &mut budget)
}

/// [`read_pickle_with`], charging the bytes it creates to `budget` (the
/// state-dict loader goes on charging the same budget).
pub(super) fn read_pickle_budgeted<'a>(
    input: &'a [u8],
    limits: &ReadLimits,
    budget: &mut CopyBudget,
) -> Result<PickleValue<'a>> {
    let mut m = Machine {
        input,
        pos: 0,
        op_at: 0,
        limits,
        arena: Vec::new(),
        stack: Vec::new(),
        marks: Vec::new(),
        memo: HashMap::new(),
        budget: budget.clone(),
        copied_slots: 0,
    };
    let root = m.run()?;
    *budget = m.budget.clone();
    let max_nodes = (input.len() as u64).saturating_add(limits.max_extra_nodes as u64);
    let mut conv = Convert {
        arena: &m.arena,
        visiting: vec![false; m.arena.len()],
        counts: vec![None; m.arena.len()],
        max_depth: limits.max_depth,
    };
    let fail = |message| Error::Pickle {
        offset: m.op_at as u64,
        message,
    };
    let (total, owned_bytes) = conv.count(root, 0).map_err(fail)?;
    if total > max_nodes {
        return Err(fail(format!(
            "the value expands to {total} items, more than the limit of {max_nodes} \
             (shared references: a \"memo bomb\")"
        )));
    }
    // building the value clones each owned buffer once per reference
    budget
        .charge(owned_bytes, "cloning decoded byte buffers per reference")
        .map_err(fail)?;
    conv.value(root, 0).map_err(fail)
}

impl<'a> Machine<'a, '_> {
    pub(super) fn err<T>(&self, message: impl Into<String>) -> Result<T> {
        Err(Error::Pickle {
            offset: self.op_at as u64,
            message: message.into(),
        })
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8]> {
        let left = self.input.len() - self.pos;
        if n > left as u64 {
            let op = self.input.get(self.op_at).copied().unwrap_or(0);
            return self.err(format!(
                "truncated {}: needs {n} bytes, {left} left",
                opcode_name(op)
            ));
        }
        let out = self
            .input
            .get(self.pos..self.pos + n as usize)
            .unwrap_or(&[]);
        self.pos += n as usize;
        Ok(out)
    }

    fn arr<const N: usize>(&mut self) -> Result<[u8; N]> {
        let s = self.take(N as u64)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    /// Most container slots `builtins.tuple` may copy in one read: one per
    /// input byte plus the allowance for shared references.
    pub(super) fn max_copied_slots(&self) -> u64 {
        (self.input.len() as u64).saturating_add(self.limits.max_extra_nodes as u64)
    }

    pub(super) fn obj(&self, id: Id) -> &Obj<'a> {
        self.arena.get(id).unwrap_or(&NONE)
    }

    pub(super) fn push_obj(&mut self, o: Obj<'a>) -> Result<()> {
        let id = self.arena.len();
        self.arena.push(o);
        self.push(id)
    }

    fn push(&mut self, id: Id) -> Result<()> {
        if self.stack.len() + self.marks.len() >= self.limits.max_stack {
            return self.err(format!("stack deeper than {} items", self.limits.max_stack));
        }
        self.stack.push(id);
        Ok(())
    }

    fn floor(&self) -> usize {
        self.marks.last().copied().unwrap_or(0)
    }

    pub(super) fn pop(&mut self) -> Result<Id> {
        if self.stack.len() <= self.floor() {
            return self.err("stack underflow");
        }
        match self.stack.pop() {
            Some(id) => Ok(id),
            None => self.err("stack underflow"),
        }
    }

    pub(super) fn top(&self) -> Result<Id> {
        match self.stack.last() {
            Some(&id) if self.stack.len() > self.floor() => Ok(id),
            _ => self.err("stack underflow"),
        }
    }

    fn pop_mark(&mut self) -> Result<Vec<Id>> {
        match self.marks.pop() {
            Some(m) => Ok(self.stack.split_off(m.min(self.stack.len()))),
            None => self.err("no MARK on the stack"),
        }
    }

    fn memo_put(&mut self, key: u32) -> Result<()> {
        let id = self.top()?;
        if !self.memo.contains_key(&key) && self.memo.len() >= self.limits.max_memo {
            return self.err(format!(
                "memo holds more than {} entries",
                self.limits.max_memo
            ));
        }
        self.memo.insert(key, id);
        Ok(())
    }

    fn memo_get(&mut self, key: u32) -> Result<()> {
        match self.memo.get(&key) {
            Some(&id) => self.push(id),
            None => self.err(format!("memo key {key} is not defined")),
        }
    }

    fn str_of(&mut self, n: u64) -> Result<()> {
        let raw = self.take(n)?;
        match std::str::from_utf8(raw) {
            Ok(s) => self.push_obj(Obj::Leaf(PickleValue::Str(Cow::Borrowed(s)))),
            Err(e) => self.err(format!("string is not valid UTF-8: {e}")),
        }
    }

    fn bytes_of(&mut self, n: u64) -> Result<()> {
        let raw = self.take(n)?;
        self.push_obj(Obj::Leaf(PickleValue::Bytes(Cow::Borrowed(raw))))
    }

    fn line(&mut self) -> Result<&'a str> {
        let rest = self.input.get(self.pos..).unwrap_or(&[]);
        let window = rest.get(..rest.len().min(512)).unwrap_or(&[]);
        let Some(n) = window.iter().position(|&b| b == b'\n') else {
            return self.err("GLOBAL name is unterminated or longer than 512 bytes");
        };
        let raw = self.take(n as u64 + 1)?;
        match std::str::from_utf8(raw.get(..n).unwrap_or(&[])) {
            Ok(s) => Ok(s),
            Err(_) => self.err("GLOBAL name is not valid UTF-8"),
        }
    }

    fn global(&mut self, module: &str, name: &str) -> Result<()> {
        match lookup_global(module, name) {
            Some(c) => self.push_obj(Obj::Global(c)),
            None => self.err(format!(
                "global `{module}.{name}` is not allowed (allowed: {ALLOWED})"
            )),
        }
    }

    fn run(&mut self) -> Result<Id> {
        loop {
            self.op_at = self.pos;
            let Some(&op) = self.input.get(self.pos) else {
                return self.err("truncated pickle: no STOP opcode");
            };
            self.pos += 1;
            if self.op_at == 0 && op != 0x80 {
                return self.err("not a protocol 2-4 pickle (no PROTO opcode at the start)");
            }
            match op {
                0x80 => {
                    let [p] = self.arr()?;
                    if self.op_at != 0 {
                        return self.err("PROTO is only allowed at the start");
                    }
                    if !(2..=4).contains(&p) {
                        return self.err(format!(
                            "pickle protocol {p} is not supported (Paddle reads protocols 2-4)"
                        ));
                    }
                }
                0x95 => {
                    let n = u64::from_le_bytes(self.arr()?);
                    let left = self.input.len() - self.pos;
                    if n > left as u64 {
                        return self
                            .err(format!("FRAME of {n} bytes exceeds the {left} bytes left"));
                    }
                }
                b'.' => {
                    let root = self.pop()?;
                    if self.pos != self.input.len() {
                        return self
                            .err(format!("{} bytes after STOP", self.input.len() - self.pos));
                    }
                    return Ok(root);
                }
                b'(' => {
                    if self.stack.len() + self.marks.len() >= self.limits.max_stack {
                        return self
                            .err(format!("stack deeper than {} items", self.limits.max_stack));
                    }
                    self.marks.push(self.stack.len());
                }
                b'0' => {
                    if self.stack.len() > self.floor() {
                        self.pop()?;
                    } else {
                        self.pop_mark()?;
                    }
                }
                b'1' => {
                    self.pop_mark()?;
                }
                b'2' => {
                    let id = self.top()?;
                    self.push(id)?;
                }
                0x94 => {
                    let key = u32::try_from(self.memo.len()).unwrap_or(u32::MAX);
                    self.memo_put(key)?;
                }
                b'q' => {
                    let [k] = self.arr()?;
                    self.memo_put(u32::from(k))?;
                }
                b'r' => {
                    let k = u32::from_le_bytes(self.arr()?);
                    self.memo_put(k)?;
                }
                b'h' => {
                    let [k] = self.arr()?;
                    self.memo_get(u32::from(k))?;
                }
                b'j' => {
                    let k = u32::from_le_bytes(self.arr()?);
                    self.memo_get(k)?;
                }
                b'}' => self.push_obj(Obj::Dict {
                    items: Vec::new(),
                    index: HashMap::new(),
                    by_id: HashMap::new(),
                })?,
                b']' => self.push_obj(Obj::List(Vec::new()))?,
                b')' => self.push_obj(Obj::Tuple(Vec::new()))?,
                b't' => {
                    let items = self.pop_mark()?;
                    self.push_obj(Obj::Tuple(items))?;
                }
                0x85..=0x87 => {
                    let n = usize::from(op - 0x84);
                    if self.stack.len() < self.floor() + n {
                        return self.err("stack underflow");
                    }
                    let items = self.stack.split_off(self.stack.len() - n);
                    self.push_obj(Obj::Tuple(items))?;
                }
                b'a' => {
                    let v = self.pop()?;
                    self.append(vec![v])?;
                }
                b'e' => {
                    let items = self.pop_mark()?;
                    self.append(items)?;
                }
                b's' => {
                    let v = self.pop()?;
                    let k = self.pop()?;
                    self.set_items(vec![k, v])?;
                }
                b'u' => {
                    let items = self.pop_mark()?;
                    self.set_items(items)?;
                }
                0x8c => {
                    let [n] = self.arr()?;
                    self.str_of(u64::from(n))?;
                }
                b'X' => {
                    let n = u32::from_le_bytes(self.arr()?);
                    self.str_of(u64::from(n))?;
                }
                0x8d => {
                    let n = u64::from_le_bytes(self.arr()?);
                    self.str_of(n)?;
                }
                b'C' => {
                    let [n] = self.arr()?;
                    self.bytes_of(u64::from(n))?;
                }
                b'B' => {
                    let n = u32::from_le_bytes(self.arr()?);
                    self.bytes_of(u64::from(n))?;
                }
                0x8e => {
                    let n = u64::from_le_bytes(self.arr()?);
                    self.bytes_of(n)?;
                }
                b'J' => {
                    let v = i32::from_le_bytes(self.arr()?);
                    self.push_obj(Obj::int(i64::from(v)))?;
                }
                b'K' => {
                    let [v] = self.arr()?;
                    self.push_obj(Obj::int(i64::from(v)))?;
                }
                b'M' => {
                    let v = u16::from_le_bytes(self.arr()?);
                    self.push_obj(Obj::int(i64::from(v)))?;
                }
                0x8a => {
                    let [n] = self.arr()?;
                    if n > 8 {
                        return self.err(format!(
                            "LONG1 integer of {n} bytes does not fit in 64 bits"
                        ));
                    }
                    let raw = self.take(u64::from(n))?;
                    let mut buf = if raw.last().is_some_and(|&b| b & 0x80 != 0) {
                        [0xffu8; 8]
                    } else {
                        [0u8; 8]
                    };
                    buf.get_mut(..raw.len())
                        .unwrap_or(&mut [])
                        .copy_from_slice(raw);
                    self.push_obj(Obj::int(i64::from_le_bytes(buf)))?;
                }
                b'G' => {
                    let v = f64::from_be_bytes(self.arr()?);
                    self.push_obj(Obj::Leaf(PickleValue::Float(v)))?;
                }
                b'N' => self.push_obj(Obj::Leaf(PickleValue::None))?,
                0x88 => self.push_obj(Obj::Leaf(PickleValue::Bool(true)))?,
                0x89 => self.push_obj(Obj::Leaf(PickleValue::Bool(false)))?,
                b'c' => {
                    let module = self.line()?;
                    let name = self.line()?;
                    self.global(module, name)?;
                }
                0x93 => {
                    let name = self.pop()?;
                    let module = self.pop()?;
                    let (Obj::Leaf(PickleValue::Str(m)), Obj::Leaf(PickleValue::Str(n))) =
                        (self.obj(module), self.obj(name))
                    else {
                        return self.err("STACK_GLOBAL needs two strings");
                    };
                    let (m, n) = (m.clone(), n.clone());
                    self.global(&m, &n)?;
                }
                b'R' => self.reduce()?,
                b'b' => self.build()?,
                other => {
                    return self.err(format!(
                        "opcode {} (0x{other:02x}) is not allowed",
                        opcode_name(other)
                    ));
                }
            }
        }
    }

    fn append(&mut self, items: Vec<Id>) -> Result<()> {
        let target = self.top()?;
        match self.arena.get_mut(target) {
            Some(Obj::List(v)) => {
                v.extend(items);
                Ok(())
            }
            Some(other) => {
                let k = kind(other);
                self.err(format!("APPEND(S) to a {k} is not allowed"))
            }
            None => self.err("stack underflow"),
        }
    }

    fn key_repr(&self, id: Id) -> Result<Option<KeyRepr<'a>>> {
        Ok(match self.obj(id) {
            Obj::Leaf(PickleValue::Str(s)) => Some(KeyRepr::Str(s.clone())),
            Obj::Leaf(PickleValue::Int(i)) => Some(KeyRepr::Int(*i)),
            Obj::Leaf(PickleValue::Bool(b)) => Some(KeyRepr::Int(i64::from(*b))),
            Obj::Leaf(PickleValue::None) => Some(KeyRepr::None),
            Obj::List(_) | Obj::Dict { .. } | Obj::Array(_) | Obj::PendingArray => {
                let k = kind(self.obj(id));
                return self.err(format!("unhashable dict key of type {k}"));
            }
            _ => None,
        })
    }

    fn set_items(&mut self, items: Vec<Id>) -> Result<()> {
        if items.len() & 1 == 1 {
            return self.err("SETITEMS with an odd number of items");
        }
        let target = self.top()?;
        let mut seen: HashSet<Id> = HashSet::new();
        let mut pairs = Vec::with_capacity(items.len() / 2);
        for kv in items.chunks_exact(2) {
            if let [k, v] = *kv {
                // a key object met before (in this dict, or earlier in this
                // batch) is found by its id: its text is not hashed again
                let known = match self.obj(target) {
                    Obj::Dict { by_id, .. } => by_id.contains_key(&k),
                    _ => false,
                };
                let repr = if known || !seen.insert(k) {
                    None
                } else {
                    self.key_repr(k)?
                };
                pairs.push((repr, k, v));
            }
        }
        match self.arena.get_mut(target) {
            Some(Obj::Dict {
                items,
                index,
                by_id,
            }) => {
                for (repr, k, v) in pairs {
                    let at = match by_id.get(&k) {
                        Some(&at) => Some(at),
                        None => repr.as_ref().and_then(|r| index.get(r).copied()),
                    };
                    match at {
                        Some(at) => {
                            if let Some(slot) = items.get_mut(at) {
                                slot.1 = v;
                            }
                            by_id.insert(k, at);
                        }
                        None => {
                            let at = items.len();
                            items.push((k, v));
                            // unhashable-by-value keys (tuples) are never
                            // merged by value, only by identity
                            if let Some(r) = repr {
                                index.insert(r, at);
                            }
                            by_id.insert(k, at);
                        }
                    }
                }
                Ok(())
            }
            Some(other) => {
                let k = kind(other);
                self.err(format!("SETITEM(S) on a {k} is not allowed"))
            }
            None => self.err("stack underflow"),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn sg(module: &str, name: &str) -> Vec<u8> {
        let mut v = vec![0x8c, module.len() as u8];
        v.extend(module.as_bytes());
        v.extend([0x8c, name.len() as u8]);
        v.extend(name.as_bytes());
        v.push(0x93);
        v
    }

    #[test]
    fn scalars_and_containers() {
        let p = b"\x80\x04(K\x05M\x00\x01J\xff\xff\xff\xff\x8a\x05\x00\x00\x00\x00\x80G?\xf8\x00\x00\x00\x00\x00\x00N\x88\x89t.";
        let v = read_pickle(p).unwrap();
        assert_eq!(
            v,
            PickleValue::Tuple(vec![
                PickleValue::Int(5),
                PickleValue::Int(256),
                PickleValue::Int(-1),
                PickleValue::Int(-(1i64 << 39)),
                PickleValue::Float(1.5),
                PickleValue::None,
                PickleValue::Bool(true),
                PickleValue::Bool(false),
            ])
        );
    }

    #[test]
    fn duplicate_keys_keep_their_first_position() {
        // {'a': 1, 'b': 2, 'a': 3} -> {'a': 3, 'b': 2}
        let p = b"\x80\x04}(\x8c\x01aK\x01\x8c\x01bK\x02\x8c\x01aK\x03u.";
        let v = read_pickle(p).unwrap();
        assert_eq!(v.get("a"), Some(&PickleValue::Int(3)));
        let PickleValue::Dict(items) = v else {
            panic!()
        };
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].0.as_str(), Some("a"));
    }

    #[test]
    fn allowed_globals_become_data() {
        // OrderedDict() + SETITEM
        let mut p = b"\x80\x04".to_vec();
        p.extend(sg("collections", "OrderedDict"));
        p.extend(b")R\x8c\x01kK\x07s.");
        assert_eq!(
            read_pickle(&p).unwrap().get("k"),
            Some(&PickleValue::Int(7))
        );
        // _codecs.encode('\xe9a', 'latin1') in protocol 2
        let p =
            b"\x80\x02c_codecs\nencode\nX\x03\x00\x00\x00\xc3\xa9aX\x06\x00\x00\x00latin1\x86R.";
        assert_eq!(
            read_pickle(p).unwrap(),
            PickleValue::Bytes(Cow::Owned(vec![0xe9, b'a']))
        );
        let p = b"\x80\x02c_codecs\nencode\nX\x01\x00\x00\x00aX\x05\x00\x00\x00utf-8\x86R.";
        assert!(read_pickle(p)
            .unwrap_err()
            .to_string()
            .contains("encoding 'utf-8' is not allowed"));
        // builtins.tuple([1])
        let mut p = b"\x80\x04".to_vec();
        p.extend(sg("builtins", "tuple"));
        p.extend(b"]K\x01a\x85R.");
        assert_eq!(
            read_pickle(&p).unwrap(),
            PickleValue::Tuple(vec![PickleValue::Int(1)])
        );
        // calling numpy.ndarray directly
        let mut p = b"\x80\x04".to_vec();
        p.extend(sg("numpy", "ndarray"));
        p.extend(b")R.");
        assert!(read_pickle(&p)
            .unwrap_err()
            .to_string()
            .contains("numpy.ndarray cannot be called"));
        // a bare global is not a value
        let mut p = b"\x80\x04".to_vec();
        p.extend(sg("numpy", "dtype"));
        p.push(b'.');
        assert!(read_pickle(&p)
            .unwrap_err()
            .to_string()
            .contains("bare global"));
    }

    #[test]
    fn opcode_names_for_messages() {
        for (op, name) in [
            (b'i', "INST"),
            (b'o', "OBJ"),
            (0x81, "NEWOBJ"),
            (0x92, "NEWOBJ_EX"),
            (b'P', "PERSID"),
        ] {
            let p = [0x80, 4, op, b'.'];
            let e = read_pickle(&p).unwrap_err().to_string();
            assert!(
                e.contains(&format!(
                    "opcode {name} (0x{op:02x}) is not allowed (at byte offset 2)"
                )),
                "{e}"
            );
        }
    }
}
