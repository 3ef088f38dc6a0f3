//! A protocol-4 pickle writer that produces the bytes of CPython's C pickler
//! (`pickle.dump(obj, f, protocol=4)`, as `paddle.static.save`/`paddle.save`
//! call it) for values built from [`PickleValue`]s and numpy arrays.
//!
//! What is reproduced: opcode choice (`SHORT_BINUNICODE`, `BININT1`, `TUPLE1`...),
//! `MEMOIZE` after every memoizable object, batches of 1000 `SETITEMS`/`APPENDS`
//! (including the C pickler's empty trailing `MARK SETITEMS` for a dict whose
//! size is a multiple of 1000), the framing (a frame is closed at the start of
//! a save once it holds 64 KiB; bytes/str payloads of 64 KiB or more are written
//! outside frames; frames under 4 bytes are not framed), and the object sharing
//! CPython produces for numpy arrays: globals, numpy dtypes, the interned module
//! names and CPython's cached empty/one-character strings and empty/one-byte
//! bytes are written once and fetched with `BINGET` afterwards; the keys of a
//! `StructuredToParameterName@@` table in a top-level dict are the top-level
//! keys themselves (as in `paddle.save`). Every other string, bytes and
//! container is a new object (a `PickleValue` tree has no identity, so two
//! equal but separately created Python objects are assumed).

use std::collections::HashMap;
use std::io::{self, Write};

use super::state_dict::STRUCTURED_KEY;
use super::value::{NdArray, PickleValue};
use crate::tensor::checked_numel;

/// The module name numpy's `_reconstruct` is pickled under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NumpyModule {
    /// `numpy._core.multiarray` (numpy ≥ 2, what the Paddle 3.3 corpus files use).
    #[default]
    Core,
    /// `numpy.core.multiarray` (numpy 1.x; numpy 2 still loads it).
    LegacyCore,
}

impl NumpyModule {
    fn name(self) -> &'static str {
        match self {
            NumpyModule::Core => "numpy._core.multiarray",
            NumpyModule::LegacyCore => "numpy.core.multiarray",
        }
    }
}

/// Options of the pickle writers.
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// Module of `_reconstruct` in the written file.
    pub numpy_module: NumpyModule,
}

const FRAME_SIZE_TARGET: usize = 64 * 1024;
const FRAME_SIZE_MIN: usize = 4;
const BATCH: usize = 1000;

/// Memo keys of objects CPython shares (same object each time).
#[derive(Hash, PartialEq, Eq, Clone)]
enum Shared {
    Str(String),
    Bytes(Vec<u8>),
    Global(&'static str, &'static str),
    Dtype(&'static str),
}

struct Pickler<'w, W: Write + ?Sized> {
    out: &'w mut W,
    frame: Vec<u8>,
    frame_open: bool,
    memo_len: u32,
    shared: HashMap<Shared, u32>,
    /// Memo indices of the keys of the top-level dict.
    top_keys: HashMap<String, u32>,
    /// How the next dict saved treats its keys.
    next_dict: DictMode,
    opts: &'w WriteOptions,
}

/// Key handling of a dict: the top-level dict records its str keys; the
/// `StructuredToParameterName@@` table under it reuses them, as `paddle.save`'s
/// table holds the very key objects of the state dict.
enum DictMode {
    Plain,
    Top,
    Aliased,
}

/// Writes `value` as a protocol-4 pickle.
///
/// An invalid array (data length not `numel × size`) is an `InvalidData` I/O
/// error carrying a [`crate::Error`].
pub(crate) fn write_pickle_io(
    w: &mut (impl Write + ?Sized),
    value: &PickleValue<'_>,
    opts: &WriteOptions,
) -> io::Result<()> {
    validate(value).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    let mut p = Pickler {
        out: w,
        frame: Vec::with_capacity(FRAME_SIZE_TARGET + 1024),
        frame_open: false,
        memo_len: 0,
        shared: HashMap::new(),
        top_keys: HashMap::new(),
        next_dict: if matches!(value, PickleValue::Dict(_)) {
            DictMode::Top
        } else {
            DictMode::Plain
        },
        opts,
    };
    p.out.write_all(&[0x80, 4])?;
    p.save(value)?;
    p.write(b".")?;
    p.commit()
}

/// Checks that every array of `v` can be pickled (size and dtype).
pub(crate) fn validate(v: &PickleValue<'_>) -> crate::Result<()> {
    match v {
        PickleValue::Tuple(items) | PickleValue::List(items) => items.iter().try_for_each(validate),
        PickleValue::Dict(items) => items.iter().try_for_each(|(k, v)| {
            validate(k)?;
            validate(v)
        }),
        PickleValue::Array(a) => {
            let need = checked_numel(&a.shape).and_then(|n| n.checked_mul(a.dtype.size() as u64));
            if need != Some(a.data.len() as u64) || a.dtype.numpy_code().is_none() {
                return Err(crate::Error::invalid(
                    None,
                    format!(
                        "array {} {:?} with {} bytes cannot be pickled",
                        a.dtype,
                        a.shape,
                        a.data.len()
                    ),
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

impl<W: Write + ?Sized> Pickler<'_, W> {
    fn write(&mut self, data: &[u8]) -> io::Result<()> {
        self.frame_open = true;
        self.frame.extend_from_slice(data);
        Ok(())
    }

    fn commit(&mut self) -> io::Result<()> {
        if !self.frame_open {
            return Ok(());
        }
        if self.frame.len() >= FRAME_SIZE_MIN {
            self.out.write_all(&[0x95])?;
            self.out
                .write_all(&(self.frame.len() as u64).to_le_bytes())?;
        }
        self.out.write_all(&self.frame)?;
        self.frame.clear();
        self.frame_open = false;
        Ok(())
    }

    /// Header + payload; payloads of 64 KiB or more bypass the frame.
    fn write_payload(&mut self, header: &[u8], payload: &[u8]) -> io::Result<()> {
        if payload.len() >= FRAME_SIZE_TARGET {
            self.commit()?;
            self.out.write_all(header)?;
            self.out.write_all(payload)
        } else {
            self.write(header)?;
            self.write(payload)
        }
    }

    fn boundary(&mut self) -> io::Result<()> {
        if self.frame_open && self.frame.len() >= FRAME_SIZE_TARGET {
            self.commit()?;
        }
        Ok(())
    }

    fn memoize(&mut self) -> io::Result<u32> {
        self.write(&[0x94])?;
        self.memo_len += 1;
        Ok(self.memo_len - 1)
    }

    fn get(&mut self, idx: u32) -> io::Result<()> {
        match u8::try_from(idx) {
            Ok(i) => self.write(&[b'h', i]),
            Err(_) => {
                self.write(b"j")?;
                self.write(&idx.to_le_bytes())
            }
        }
    }

    /// Starts a save: frame boundary, then a memo lookup of a shared object
    /// (written as `BINGET`; its index is returned).
    fn begin(&mut self, shared: Option<&Shared>) -> io::Result<Option<u32>> {
        self.boundary()?;
        if let Some(idx) = shared.and_then(|s| self.shared.get(s)).copied() {
            self.get(idx)?;
            return Ok(Some(idx));
        }
        Ok(None)
    }

    fn remember(&mut self, shared: Option<Shared>, idx: u32) {
        if let Some(s) = shared {
            self.shared.insert(s, idx);
        }
    }

    fn save(&mut self, v: &PickleValue<'_>) -> io::Result<()> {
        match v {
            PickleValue::Str(s) => return self.save_str(s, false).map(drop),
            PickleValue::Bytes(b) => return self.save_bytes(b),
            PickleValue::Array(a) => return self.save_array(a),
            _ => {}
        }
        self.begin(None)?;
        match v {
            PickleValue::None => self.write(b"N"),
            PickleValue::Bool(true) => self.write(&[0x88]),
            PickleValue::Bool(false) => self.write(&[0x89]),
            PickleValue::Int(i) => self.write_int(*i),
            PickleValue::Float(f) => {
                self.write(b"G")?;
                self.write(&f.to_be_bytes())
            }
            PickleValue::Tuple(items) => self.tuple_body(items.iter().map(Item::Value)),
            PickleValue::List(items) => {
                self.write(b"]")?;
                self.memoize()?;
                if let [only] = items.as_slice() {
                    self.save(only)?;
                    return self.write(b"a");
                }
                for chunk in items.chunks(BATCH) {
                    self.write(b"(")?;
                    for item in chunk {
                        self.save(item)?;
                    }
                    self.write(b"e")?;
                }
                Ok(())
            }
            PickleValue::Dict(items) => {
                self.write(b"}")?;
                self.memoize()?;
                let mode = std::mem::replace(&mut self.next_dict, DictMode::Plain);
                self.dict_body(items, mode)
            }
            PickleValue::Str(_) | PickleValue::Bytes(_) | PickleValue::Array(_) => Ok(()),
        }
    }

    fn save_key(&mut self, k: &PickleValue<'_>, mode: &DictMode) -> io::Result<()> {
        match (k, mode) {
            (PickleValue::Str(s), DictMode::Top) => {
                let idx = self.save_str(s, false)?;
                self.top_keys.insert(s.to_string(), idx);
                Ok(())
            }
            (PickleValue::Str(s), DictMode::Aliased) => {
                match self.top_keys.get(s.as_ref()).copied() {
                    Some(idx) => {
                        self.begin(None)?;
                        self.get(idx)
                    }
                    None => self.save(k),
                }
            }
            _ => self.save(k),
        }
    }

    fn dict_body(
        &mut self,
        items: &[(PickleValue<'_>, PickleValue<'_>)],
        mode: DictMode,
    ) -> io::Result<()> {
        let save_pair =
            |p: &mut Self, k: &PickleValue<'_>, v: &PickleValue<'_>| -> io::Result<()> {
                p.save_key(k, &mode)?;
                if matches!(mode, DictMode::Top) && k.as_str() == Some(STRUCTURED_KEY) {
                    p.next_dict = DictMode::Aliased;
                }
                p.save(v)?;
                p.next_dict = DictMode::Plain;
                Ok(())
            };
        if let [(k, v)] = items {
            save_pair(self, k, v)?;
            return self.write(b"s");
        }
        if items.is_empty() {
            return Ok(());
        }
        // CPython's batch_dict_exact: do { MARK up to 1000 pairs SETITEMS } while a
        // batch was full, so a multiple of 1000 ends with an empty batch.
        let mut rest = items;
        loop {
            let (batch, tail) = rest.split_at(rest.len().min(BATCH));
            self.write(b"(")?;
            for (k, v) in batch {
                save_pair(self, k, v)?;
            }
            self.write(b"u")?;
            if batch.len() < BATCH {
                return Ok(());
            }
            rest = tail;
        }
    }

    fn tuple_body<'x>(&mut self, items: impl ExactSizeIterator<Item = Item<'x>>) -> io::Result<()> {
        let n = items.len();
        if n == 0 {
            return self.write(b")");
        }
        if n > 3 {
            self.write(b"(")?;
        }
        for item in items {
            self.save_item(item)?;
        }
        match n {
            1 => self.write(&[0x85])?,
            2 => self.write(&[0x86])?,
            3 => self.write(&[0x87])?,
            _ => self.write(b"t")?,
        }
        self.memoize().map(drop)
    }

    fn write_int(&mut self, i: i64) -> io::Result<()> {
        if (0..=0xff).contains(&i) {
            self.write(&[b'K', i as u8])
        } else if (0..=0xffff).contains(&i) {
            self.write(b"M")?;
            self.write(&(i as u16).to_le_bytes())
        } else if i32::try_from(i).is_ok() {
            self.write(b"J")?;
            self.write(&(i as i32).to_le_bytes())
        } else {
            // LONG1: minimal little-endian two's complement
            let bytes = i.to_le_bytes();
            let mut n = 8;
            while n > 1 {
                let (top, next) = (bytes[n - 1], bytes[n - 2]);
                if (top == 0 && next & 0x80 == 0) || (top == 0xff && next & 0x80 != 0) {
                    n -= 1;
                } else {
                    break;
                }
            }
            self.write(&[0x8a, n as u8])?;
            self.write(&bytes[..n])
        }
    }

    /// Saves a str; returns its memo index.
    fn save_str(&mut self, s: &str, interned: bool) -> io::Result<u32> {
        let shareable = interned || s.chars().count() <= 1 && s.chars().all(|c| u32::from(c) < 256);
        let key = shareable.then(|| Shared::Str(s.to_owned()));
        if let Some(idx) = self.begin(key.as_ref())? {
            return Ok(idx);
        }
        let b = s.as_bytes();
        if b.len() <= 0xff {
            self.write_payload(&[0x8c, b.len() as u8], b)?;
        } else if let Ok(n) = u32::try_from(b.len()) {
            let mut h = vec![b'X'];
            h.extend_from_slice(&n.to_le_bytes());
            self.write_payload(&h, b)?;
        } else {
            let mut h = vec![0x8d];
            h.extend_from_slice(&(b.len() as u64).to_le_bytes());
            self.write_payload(&h, b)?;
        }
        let idx = self.memoize()?;
        self.remember(key, idx);
        Ok(idx)
    }

    fn save_bytes(&mut self, b: &[u8]) -> io::Result<()> {
        let key = (b.len() <= 1).then(|| Shared::Bytes(b.to_vec()));
        if self.begin(key.as_ref())?.is_some() {
            return Ok(());
        }
        if b.len() <= 0xff {
            self.write_payload(&[b'C', b.len() as u8], b)?;
        } else if let Ok(n) = u32::try_from(b.len()) {
            let mut h = vec![b'B'];
            h.extend_from_slice(&n.to_le_bytes());
            self.write_payload(&h, b)?;
        } else {
            let mut h = vec![0x8e];
            h.extend_from_slice(&(b.len() as u64).to_le_bytes());
            self.write_payload(&h, b)?;
        }
        let idx = self.memoize()?;
        self.remember(key, idx);
        Ok(())
    }

    fn save_global(&mut self, module: &'static str, name: &'static str) -> io::Result<()> {
        let key = Shared::Global(module, name);
        if self.begin(Some(&key))?.is_some() {
            return Ok(());
        }
        self.save_str(module, true)?;
        self.save_str(name, true)?;
        self.write(&[0x93])?;
        let idx = self.memoize()?;
        self.remember(Some(key), idx);
        Ok(())
    }

    fn save_item(&mut self, item: Item<'_>) -> io::Result<()> {
        match item {
            Item::Value(v) => self.save(v),
            Item::Int(i) => self.save(&PickleValue::Int(i)),
            Item::Bool(b) => self.save(&PickleValue::Bool(b)),
            Item::None => self.save(&PickleValue::None),
            Item::Str(s) => self.save_str(s, false).map(drop),
            Item::Bytes(b) => self.save_bytes(b),
            Item::Global(m, n) => self.save_global(m, n),
            Item::Dtype(code) => self.save_dtype(code),
            Item::Tuple(items) => {
                self.begin(None)?;
                self.tuple_body(items.into_iter())
            }
        }
    }

    /// `numpy.dtype(code, False, True)` + `BUILD (3, order, None, None, None, -1, -1, 0)`.
    fn save_dtype(&mut self, numpy_code: &'static str) -> io::Result<()> {
        let key = Shared::Dtype(numpy_code);
        if self.begin(Some(&key))?.is_some() {
            return Ok(());
        }
        let (order, code) = numpy_code.split_at(1);
        self.save_global("numpy", "dtype")?;
        self.save_item(Item::Tuple(vec![
            Item::Str(code),
            Item::Bool(false),
            Item::Bool(true),
        ]))?;
        self.write(b"R")?;
        let idx = self.memoize()?;
        self.remember(Some(key), idx);
        self.save_item(Item::Tuple(vec![
            Item::Int(3),
            Item::Str(order),
            Item::None,
            Item::None,
            Item::None,
            Item::Int(-1),
            Item::Int(-1),
            Item::Int(0),
        ]))?;
        self.write(b"b")
    }

    /// `_reconstruct(ndarray, (0,), b'b')` + `BUILD (1, shape, dtype, False, data)`.
    fn save_array(&mut self, a: &NdArray<'_>) -> io::Result<()> {
        self.begin(None)?;
        let code = a.dtype.numpy_code().unwrap_or("|u1");
        self.save_global(self.opts.numpy_module.name(), "_reconstruct")?;
        self.save_item(Item::Tuple(vec![
            Item::Global("numpy", "ndarray"),
            Item::Tuple(vec![Item::Int(0)]),
            Item::Bytes(b"b"),
        ]))?;
        self.write(b"R")?;
        self.memoize()?;
        self.save_item(Item::Tuple(vec![
            Item::Int(1),
            Item::Tuple(a.shape.iter().map(|&d| Item::Int(d)).collect()),
            Item::Dtype(code),
            Item::Bool(false),
            Item::Bytes(a.data.as_ref()),
        ]))?;
        self.write(b"b")
    }
}

/// Things saved inside the numpy encodings (and values).
enum Item<'x> {
    Value(&'x PickleValue<'x>),
    Int(i64),
    Bool(bool),
    None,
    Str(&'x str),
    Bytes(&'x [u8]),
    Global(&'static str, &'static str),
    Dtype(&'static str),
    Tuple(Vec<Item<'x>>),
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn pickle(v: &PickleValue<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        write_pickle_io(&mut out, v, &WriteOptions::default()).unwrap();
        out
    }

    #[test]
    fn ints_use_the_smallest_opcode() {
        let cases: &[(i64, &[u8])] = &[
            (0, b"K\x00"),
            (255, b"K\xff"),
            (256, b"M\x00\x01"),
            (65535, b"M\xff\xff"),
            (65536, b"J\x00\x00\x01\x00"),
            (-1, b"J\xff\xff\xff\xff"),
            (i64::from(i32::MAX) + 1, b"\x8a\x05\x00\x00\x00\x80\x00"),
            (-(1i64 << 40), b"\x8a\x06\x00\x00\x00\x00\x00\xff"),
            (i64::MIN, b"\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80"),
        ];
        for (i, want) in cases {
            let b = pickle(&PickleValue::Int(*i));
            // PROTO 4, unframed (under 4 bytes) or framed body, STOP
            let body = if b[2] == 0x95 {
                &b[11..b.len() - 1]
            } else {
                &b[2..b.len() - 1]
            };
            assert_eq!(body, *want, "{i}");
        }
    }

    #[test]
    fn tiny_pickles_are_not_framed() {
        assert_eq!(pickle(&PickleValue::None), b"\x80\x04N.");
        assert_eq!(pickle(&PickleValue::Dict(vec![])), b"\x80\x04}\x94.");
    }

    #[test]
    fn dict_batches_follow_cpython() {
        let dict = |n: usize| {
            PickleValue::Dict(
                (0..n)
                    .map(|_| (PickleValue::None, PickleValue::None))
                    .collect(),
            )
        };
        assert_eq!(pickle(&dict(1)), b"\x80\x04\x95\x06\0\0\0\0\0\0\0}\x94NNs.");
        let b999 = pickle(&dict(999));
        assert!(b999.ends_with(b"NNu.") && !b999.ends_with(b"(u."));
        assert!(pickle(&dict(1000)).ends_with(b"NNu(u.")); // CPython's trailing empty batch
        assert!(pickle(&dict(1001)).ends_with(b"NNu(NNu."));
        let list = |n: usize| PickleValue::List(vec![PickleValue::None; n]);
        assert!(pickle(&list(1)).ends_with(b"]\x94Na."));
        assert!(pickle(&list(1000)).ends_with(b"NNe."));
        assert!(pickle(&list(1001)).ends_with(b"Ne(Ne."));
    }

    #[test]
    fn large_payloads_bypass_frames() {
        let big = vec![7u8; FRAME_SIZE_TARGET];
        let v = PickleValue::List(vec![
            PickleValue::Bytes(Cow::Borrowed(&big)),
            PickleValue::Int(1),
        ]);
        let b = pickle(&v);
        // the 3 bytes before the payload are too few for a frame; the payload
        // is written outside any frame; the 5 bytes after it form a new frame
        let mut want = b"\x80\x04]\x94(B".to_vec();
        want.extend((big.len() as u32).to_le_bytes());
        want.extend(&big);
        want.extend(b"\x95\x05\0\0\0\0\0\0\0\x94K\x01e.");
        assert_eq!(b, want);
    }

    #[test]
    fn invalid_arrays_are_rejected() {
        let a = NdArray {
            dtype: crate::DType::Float32,
            shape: vec![3],
            data: Cow::Borrowed(&[0u8; 4][..]),
        };
        assert!(validate(&PickleValue::Array(a)).is_err());
        let f8 = NdArray {
            dtype: crate::DType::Float8E5M2,
            shape: vec![1],
            data: Cow::Borrowed(&[0u8][..]),
        };
        assert!(validate(&PickleValue::List(vec![PickleValue::Array(f8)])).is_err());
    }
}
