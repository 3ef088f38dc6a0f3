//! Byte-for-byte agreement with CPython's pickler on generated state dicts
//! (frames, large payloads, batches of 1000, every dtype, odd keys), and
//! Python's `pickle.load` reading what this crate writes. Skipped (with a
//! note) when `python3` with numpy is not available.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::Command;

use pir_params::pickle::{self, WriteOptions};

const GENERATE: &str = r#"
import hashlib, json, os, pickle, sys
import numpy as np
out = sys.argv[1]
rng = np.random.default_rng(7)
codes = ['|b1', '|i1', '|u1', '<i2', '<u2', '<i4', '<u4', '<i8', '<u8', '<f2', '<f4', '<f8', '<c8', '<c16']
def arr(code, shape):
    a = rng.standard_normal(int(np.prod(shape)) * 2) * 100
    if code.endswith('b1'):
        return (a[: int(np.prod(shape))] > 0).reshape(shape)
    if 'c' in code:
        return (a[0::2] + 1j * a[1::2]).astype(code).reshape(shape)
    return a[: int(np.prod(shape))].astype(code).reshape(shape)
def shape():
    nd = int(rng.integers(0, 6))
    return tuple(int(x) for x in rng.integers(0, 5, size=nd))
cases = {}
d = {}
for i in range(3000):
    key = ['k%d' % i, 'x' * 300 + str(i), 'é%d' % i, chr(0x4e00 + i)][i % 4]
    d[key] = arr(codes[i % len(codes)], shape())
d['<'] = np.array([98], dtype='u1')
d['b'] = np.array([1], dtype='u1')
d[''] = np.zeros((), dtype='f8')
cases['mixed'] = d
big = {}
for n in [65535, 65536, 65537, 300000, 10, 70000]:
    big['a%d' % n] = np.arange(n, dtype='u1')
    big['s%d' % n] = np.ones(3, dtype='f4')
big['wide'] = np.zeros((1, 70000, 0), dtype='f4')
big['long_key_' + 'y' * 70000] = np.ones(2, dtype='i8')
cases['large'] = big
for n in [1, 2, 999, 1000, 1001, 2000, 2001]:
    cases['k%d' % n] = {'p%d' % i: np.full((2,), i, dtype='f4') for i in range(n)}
cases['empty'] = {}
manifest = {}
for name, d in cases.items():
    with open(os.path.join(out, name + '.pkl'), 'wb') as f:
        pickle.dump(d, f, protocol=4)
    manifest[name] = [[k, v.dtype.str, list(v.shape), hashlib.sha256(v.tobytes()).hexdigest()] for k, v in d.items()]
json.dump(manifest, open(os.path.join(out, 'manifest.json'), 'w'))
"#;

const CHECK: &str = r#"
import os, pickle, sys
import numpy as np
out = sys.argv[1]
for name in sys.argv[2:]:
    a = pickle.load(open(os.path.join(out, name + '.pkl'), 'rb'))
    b = pickle.load(open(os.path.join(out, 'ours_' + name + '.pkl'), 'rb'))
    assert list(a) == list(b), name
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, (name, k)
        assert a[k].tobytes() == b[k].tobytes(), (name, k)
    print('OK', name, len(b))
"#;

fn python(args: &[&str]) -> String {
    let out = Command::new("python3").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn sha(b: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

#[test]
fn cpython_pickles_rewrite_byte_for_byte_and_python_reads_ours() {
    if !common::python_with_numpy() {
        eprintln!("note: python3 with numpy not available; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    python(&["-c", GENERATE, d]);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("manifest.json")).unwrap()).unwrap();
    let mut names = Vec::new();
    for (name, entries) in manifest.as_object().unwrap() {
        let path = dir.path().join(format!("{name}.pkl"));
        let bytes = std::fs::read(&path).unwrap();
        let state = pickle::load_state_dict_file(&path).unwrap();
        let entries = entries.as_array().unwrap();
        assert_eq!(state.tensors.len(), entries.len(), "{name}");
        for ((key, t), e) in state.tensors.iter().zip(entries) {
            assert_eq!(key, e[0].as_str().unwrap(), "{name}");
            assert_eq!(
                t.dtype().numpy_code().unwrap(),
                e[1].as_str().unwrap(),
                "{name}/{key}"
            );
            let shape: Vec<i64> = e[2]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            assert_eq!(t.dims(), shape.as_slice(), "{name}/{key}");
            assert_eq!(sha(t.bytes()), e[3].as_str().unwrap(), "{name}/{key}");
        }
        let mut ours = Vec::new();
        pickle::write_state_dict_to(&mut ours, &state.tensors, &WriteOptions::default()).unwrap();
        assert!(
            ours == bytes,
            "{name}: re-written pickle differs from CPython's ({} vs {} bytes)",
            ours.len(),
            bytes.len()
        );
        let out = dir.path().join(format!("ours_{name}.pkl"));
        pickle::save_state_dict(&out, &state.tensors, &WriteOptions::default(), false).unwrap();
        names.push(name.clone());
    }
    let mut args = vec!["-c", CHECK, d];
    args.extend(names.iter().map(String::as_str));
    let report = python(&args);
    assert_eq!(
        report.lines().filter(|l| l.starts_with("OK ")).count(),
        names.len(),
        "{report}"
    );
}

#[test]
fn legacy_numpy_module_name_loads_in_python() {
    if !common::python_with_numpy() {
        eprintln!("note: python3 with numpy not available; skipping");
        return;
    }
    let t = pir_params::Tensor::from_slice(pir_params::DType::Float32, vec![2], &[1.5f32, -2.0])
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("legacy.pkl");
    let opts = WriteOptions {
        numpy_module: pickle::NumpyModule::LegacyCore,
    };
    pickle::save_state_dict(&p, &[("w", t.clone())], &opts, false).unwrap();
    let bytes = std::fs::read(&p).unwrap();
    assert!(bytes.windows(21).any(|w| w == b"numpy.core.multiarray"));
    assert_eq!(pickle::load_state_dict(&bytes).unwrap().tensors[0].1, t);
    let code = "import pickle,sys; d=pickle.load(open(sys.argv[1],'rb')); print(d['w'].tolist())";
    assert_eq!(
        python(&["-c", code, p.to_str().unwrap()]).trim(),
        "[1.5, -2.0]"
    );
    assert!(Path::new(&p).exists());
}
