//! Small pickles that ask for large allocations: a buffer named by reference
//! thousands of times (as a slice of `UnpackBigParamInfor@@`, an entry of a
//! list, a latin-1 string decoded again and again, a Fortran array reordered
//! again and again, a list copied by `builtins.tuple`, a long dict key) is
//! refused by the copy budget, or costs nothing, instead of exhausting
//! memory.
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use pir_params::pickle::{self, ReadLimits, UNPACK_KEY};

const MIB: usize = 1 << 20;

/// A protocol-4 pickle written opcode by opcode.
struct P(Vec<u8>);

impl P {
    fn new() -> P {
        P(vec![0x80, 4])
    }
    fn proto2() -> P {
        P(vec![0x80, 2])
    }
    fn op(&mut self, b: &[u8]) -> &mut P {
        self.0.extend_from_slice(b);
        self
    }
    fn s(&mut self, s: &str) -> &mut P {
        self.0.push(b'X');
        self.0.extend((s.len() as u32).to_le_bytes());
        self.op(s.as_bytes())
    }
    fn bytes(&mut self, n: usize) -> &mut P {
        self.0.push(b'B');
        self.0.extend((n as u32).to_le_bytes());
        self.0.resize(self.0.len() + n, 7);
        self
    }
    fn int(&mut self, v: i64) -> &mut P {
        self.0.extend([0x8a, 8]);
        self.op(&v.to_le_bytes())
    }
    fn put(&mut self, k: u32) -> &mut P {
        self.0.push(b'r');
        self.op(&k.to_le_bytes())
    }
    fn get(&mut self, k: u32) -> &mut P {
        self.0.push(b'j');
        self.op(&k.to_le_bytes())
    }
    fn global(&mut self, module: &str, name: &str) -> &mut P {
        self.s(module).s(name).op(&[0x93])
    }
    /// `numpy.dtype('u1')`, built.
    fn dtype_u1(&mut self) -> &mut P {
        self.global("numpy", "dtype")
            .s("u1")
            .op(&[0x89, 0x88, 0x87, b'R', b'('])
            .int(3)
            .s("|")
            .op(b"NNN")
            .int(-1)
            .int(-1)
            .int(0)
            .op(b"tb")
    }
    /// `_reconstruct` and its arguments `(numpy.ndarray, (0,), b'b')`,
    /// memoized as `key + 1` and `key`.
    fn reconstruct_args(&mut self, key: u32) -> &mut P {
        self.global("numpy.core.multiarray", "_reconstruct")
            .put(key + 1)
            .global("numpy", "ndarray")
            .int(0)
            .op(&[0x85])
            .op(b"C\x01b")
            .op(&[0x87])
            .put(key)
    }
    /// A `u1` array of `shape`, its state tuple memoized as `key`, the
    /// array as `key + 1`.
    fn array(&mut self, shape: &[i64], fortran: bool, key: u32) -> &mut P {
        let n: i64 = shape.iter().product();
        self.reconstruct_args(1000).op(b"R(").int(1).op(b"(");
        for &d in shape {
            self.int(d);
        }
        self.op(b"t").dtype_u1();
        self.op(&[if fortran { 0x88 } else { 0x89 }])
            .bytes(n as usize)
            .op(b"t")
            .put(key)
            .op(b"b")
            .put(key + 1)
    }
    fn done(&mut self) -> Vec<u8> {
        self.0.push(b'.');
        std::mem::take(&mut self.0)
    }
}

/// Loads `bytes` as a state dict both ways (copied, and mapped from a file):
/// the errors.
fn load_both(bytes: &[u8]) -> (String, String) {
    let t = Instant::now();
    let copied = pickle::load_state_dict(bytes).unwrap_err().to_string();
    let dir = std::env::temp_dir().join(format!("pir-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.pdparams", bytes.len()));
    std::fs::write(&path, bytes).unwrap();
    let mapped = pickle::load_state_dict_file(&path).unwrap_err().to_string();
    let _ = std::fs::remove_file(&path);
    eprintln!("{:?}: {copied} / {mapped}", t.elapsed());
    (copied, mapped)
}

/// `{"w@@.0": 1 MiB, UNPACK: {"w": {"OriginShape": (n,), "slices": names}}}`
/// with the given slice names (memoized strings, so each costs 5 bytes).
fn sliced(keys: usize, listed: &[usize], origin: i64) -> Vec<u8> {
    let mut p = P::new();
    p.op(b"}(");
    for k in 0..keys {
        p.s(&format!("w@@.{k}"));
        p.put(10 + k as u32);
        if k == 0 {
            p.array(&[MIB as i64], false, 1);
        } else {
            p.get(2);
        }
    }
    p.s(UNPACK_KEY).op(b"}(").s("w").op(b"}(").s("OriginShape");
    p.int(origin).op(&[0x85]).s("slices").op(b"](");
    for &k in listed {
        p.get(10 + k as u32);
    }
    p.op(b"euuu").done()
}

#[test]
fn one_slice_named_four_thousand_times() {
    let listed = vec![0; 4000];
    let bytes = sliced(1, &listed, 4000 * MIB as i64);
    let (copied, mapped) = load_both(&bytes);
    for e in [copied, mapped] {
        assert!(
            e.contains("`w`: slice `w@@.0` is listed more than once in UnpackBigParamInfor@@"),
            "{e}"
        );
    }
}

#[test]
fn four_thousand_slices_of_one_array() {
    let listed: Vec<usize> = (0..4000).collect();
    let bytes = sliced(4000, &listed, 4000 * MIB as i64);
    assert!(bytes.len() < 2 * MIB);
    let (copied, mapped) = load_both(&bytes);
    // copying the arrays out of the pickle is refused first; mapped, they
    // cost nothing until the slices are joined
    assert!(
        copied.contains("copying an array needs 1048576 more bytes"),
        "{copied}"
    );
    assert!(copied.contains("the reader may copy (4x the"), "{copied}");
    assert!(
        mapped
            .starts_with("`w`: reassembling an array from its slices needs 4194304000 more bytes"),
        "{mapped}"
    );
    // the declared shape is checked before the budget
    let bytes = sliced(4000, &listed, 3 * MIB as i64);
    let (_, mapped) = load_both(&bytes);
    assert!(
        mapped
            .contains("slices hold 4194304000 bytes, OriginShape [3145728] of uint8 needs 3145728"),
        "{mapped}"
    );
    // an explicit limit replaces the factor
    let limits = ReadLimits {
        max_copied_bytes: Some(u64::MAX),
        ..ReadLimits::default()
    };
    let few: Vec<usize> = (0..3).collect();
    let bytes = sliced(3, &few, 3 * MIB as i64);
    let state = pickle::load_state_dict_with(&bytes, &limits).unwrap();
    assert_eq!(state.tensors.len(), 1);
    assert_eq!(state.tensors[0].1.dims(), &[3 * MIB as i64]);
    let limits = ReadLimits {
        max_copied_bytes: Some(MIB as u64),
        ..ReadLimits::default()
    };
    let e = pickle::load_state_dict_with(&bytes, &limits)
        .unwrap_err()
        .to_string();
    assert!(e.contains("(the explicit limit;"), "{e}");
}

#[test]
fn a_list_of_references_to_one_buffer() {
    let mut p = P::new();
    p.op(b"}").s("x").op(b"](").bytes(MIB).put(1);
    for _ in 0..3999 {
        p.get(1);
    }
    let bytes = p.op(b"es").done();
    // the value itself borrows: reading it copies nothing
    assert!(pickle::read_pickle(&bytes).is_ok());
    let (copied, mapped) = load_both(&bytes);
    for e in [copied, mapped] {
        assert!(
            e.starts_with("`x`: copying the entry's strings and bytes needs 4194304000 more bytes"),
            "{e}"
        );
    }
}

#[test]
fn a_string_decoded_again_and_again() {
    // protocol 2: _codecs.encode(s, 'latin1') of one memoized 1 MiB string
    let mut p = P::proto2();
    p.global("_codecs", "encode").put(1);
    p.s(&"a".repeat(MIB))
        .s("latin1")
        .op(&[0x86])
        .put(2)
        .op(b"0](");
    for _ in 0..4000 {
        p.get(1).get(2).op(b"R");
    }
    let bytes = p.op(b"e").done();
    let e = pickle::read_pickle(&bytes).unwrap_err().to_string();
    assert!(
        e.starts_with("pickle: decoding a latin-1 string needs 1048576 more bytes"),
        "{e}"
    );
}

#[test]
fn a_fortran_array_reordered_again_and_again() {
    let mut p = P::new();
    p.op(b"](").array(&[1024, 1024], true, 1);
    for _ in 0..4000 {
        // a new _reconstruct result each time, built from the one state
        p.get(1001).get(1000).op(b"R").get(1).op(b"b");
    }
    let bytes = p.op(b"e").done();
    let e = pickle::read_pickle(&bytes).unwrap_err().to_string();
    assert!(
        e.starts_with("pickle: reordering a Fortran-ordered array needs 1048576 more bytes"),
        "{e}"
    );
}

#[test]
fn a_list_copied_by_tuple_again_and_again() {
    let mut p = P::new();
    p.global("builtins", "tuple").put(1).op(b"](N");
    for _ in 0..100_000 {
        p.op(b"2");
    }
    p.op(b"e").op(&[0x85]).put(2).op(b"0](");
    for _ in 0..10_000 {
        p.get(1).get(2).op(b"R");
    }
    let bytes = p.op(b"e").done();
    let e = pickle::read_pickle(&bytes).unwrap_err().to_string();
    assert!(e.contains("builtins.tuple copies"), "{e}");
    assert!(
        e.contains("(one shared list copied again and again)"),
        "{e}"
    );
}

#[test]
fn a_long_key_set_again_and_again() {
    // {k: None} with the same 1 MiB key set 4,000 times in one SETITEMS:
    // keys borrow from the input, so this costs no copy per time
    let mut p = P::new();
    p.op(b"}(").s(&"k".repeat(MIB)).put(1).op(b"N");
    for _ in 1..4000 {
        p.get(1).op(b"N");
    }
    let bytes = p.op(b"u").done();
    let v = pickle::read_pickle(&bytes).unwrap();
    let pickle::PickleValue::Dict(items) = v else {
        panic!("{v:?}")
    };
    assert_eq!(items.len(), 1);
}

#[test]
fn honest_split_files_still_load() {
    let listed: Vec<usize> = (0..3).collect();
    // three distinct 1 MiB slices (not shared): written out, not memoized
    let mut p = P::new();
    p.op(b"}(");
    for k in 0..3 {
        p.s(&format!("w@@.{k}")).put(10 + k);
        p.array(&[MIB as i64], false, 20 + 2 * k);
    }
    p.s(UNPACK_KEY).op(b"}(").s("w").op(b"}(").s("OriginShape");
    p.int(3 * MIB as i64).op(&[0x85]).s("slices").op(b"](");
    for &k in &listed {
        p.get(10 + k as u32);
    }
    let bytes = p.op(b"euuu").done();
    let state = pickle::load_state_dict(&bytes).unwrap();
    assert_eq!(state.tensors.len(), 1);
    assert_eq!(state.tensors[0].0, "w");
    assert_eq!(state.tensors[0].1.dims(), &[3 * MIB as i64]);
}

#[test]
fn an_array_of_many_dims_named_many_times() {
    // a 1-element array of 100,000 unit dims, named 100,000 times: each
    // reference would clone 800 KB of dims
    let dims = vec![1i64; 100_000];
    let mut p = P::new();
    p.op(b"](").array(&dims, false, 1);
    for _ in 0..100_000 {
        p.get(2);
    }
    let bytes = p.op(b"e").done();
    let e = pickle::read_pickle(&bytes).unwrap_err().to_string();
    assert!(e.contains("memo bomb"), "{e}");
}
