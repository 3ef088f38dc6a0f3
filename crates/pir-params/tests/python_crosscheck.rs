//! Cross-checks the readers against independent Python code: a small numpy
//! parser of the DenseTensor stream (spec §7.1/§7.2) for every corpus
//! `.pdiparams`, and `pickle.load` for the corpus pickles. Compares dtype,
//! shape, SHA-256 of the bytes and the float64 sum of every tensor. Skipped
//! (with a note) without `python3` + numpy or without the corpus.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;

use pir_params::{combined, pickle, Tensor};

const PARSE: &str = r#"
import hashlib, pickle, sys
import numpy as np
codes = {0: '?', 1: '<i2', 2: '<i4', 3: '<i8', 4: '<f2', 5: '<f4', 6: '<f8', 20: '|u1', 21: '|i1',
         22: '<u2', 23: '<c8', 24: '<c16', 32: '|u1', 33: '|u1', 36: '<u2', 37: '<u4', 38: '<u8'}
def varint(b, i):
    v = s = 0
    while True:
        x = b[i]; i += 1; v |= (x & 0x7f) << s; s += 7
        if x < 0x80: return v, i
def report(a, code, dims):
    if code in (22,):   # bfloat16: upper half of a float32
        f = (a.astype('<u4') << 16).view('<f4').astype('f8')
    elif a.dtype.kind == 'c':
        f = a.real.astype('f8')
    else:
        f = a.astype('f8')
    total = 0.0
    for x in f.reshape(-1):   # sequential, like the Rust side
        total += float(x)
    print(code, ','.join(map(str, dims)), hashlib.sha256(a.tobytes()).hexdigest(), repr(total))
for path in sys.argv[1:]:
    b = open(path, 'rb').read()
    if b[:1] == b'\x80':
        for k, a in pickle.load(open(path, 'rb')).items():
            report(a, {'<u2': 36}.get(a.dtype.str, 0), list(a.shape))
        continue
    i = 0
    while i < len(b):
        i += 4
        levels = int.from_bytes(b[i:i + 8], 'little'); i += 8
        for _ in range(levels):
            n = int.from_bytes(b[i:i + 8], 'little'); i += 8 + n
        i += 4
        size = int.from_bytes(b[i:i + 4], 'little'); i += 4
        desc, j, code, dims = b[i:i + size], 0, None, []
        while j < len(desc):
            key, j = varint(desc, j)
            val, j = varint(desc, j)
            if key == 8: code = val
            elif key == 16: dims.append(val)
        i += size
        dt = np.dtype(codes[code])
        n = int(np.prod(dims)) if dims else 1
        a = np.frombuffer(b, dtype=dt, count=n, offset=i).reshape(dims)
        i += n * dt.itemsize
        report(a, code, dims)
"#;

fn report(t: &Tensor) -> String {
    let dims: Vec<String> = t.dims().iter().map(i64::to_string).collect();
    format!(
        "{} {} {}",
        t.dtype().var_type(),
        dims.join(","),
        t.sha256_hex()
    )
}

fn python_report(paths: &[String]) -> Vec<(String, f64)> {
    let mut args = vec!["-c".to_string(), PARSE.to_string()];
    args.extend(paths.iter().cloned());
    let out = Command::new("python3").args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (head, sum) = l.rsplit_once(' ').unwrap();
            (head.to_string(), sum.parse::<f64>().unwrap())
        })
        .collect()
}

fn compare(ours: &[Tensor], theirs: &[(String, f64)], what: &str) {
    assert_eq!(ours.len(), theirs.len(), "{what}");
    for (t, (head, sum)) in ours.iter().zip(theirs) {
        assert_eq!(&report(t), head, "{what}");
        let s = t.sum_f64();
        assert!(
            s == *sum || (s.is_nan() && sum.is_nan()),
            "{what}: sum {s} vs {sum}"
        );
    }
}

#[test]
fn readers_agree_with_an_independent_numpy_parser() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    if !common::python_with_numpy() {
        eprintln!("note: python3 with numpy not available; skipping");
        return;
    }
    let models = common::models_with_params(&corpus);
    let paths: Vec<String> = models
        .iter()
        .map(|m| m.pdiparams.display().to_string())
        .collect();
    let theirs = python_report(&paths);
    let mut ours = Vec::new();
    for m in &models {
        ours.extend(combined::load_combined_blind(&m.pdiparams).unwrap());
    }
    compare(&ours, &theirs, "pdiparams");
    println!("{} tensors of {} files agree", ours.len(), models.len());

    for name in ["train_mlp_adam.pdparams", "train_mlp_adam.pdopt"] {
        let path = corpus.join(name);
        let theirs = python_report(&[path.display().to_string()]);
        let state = pickle::load_state_dict_file(&path).unwrap();
        let tensors: Vec<Tensor> = state.tensors.into_iter().map(|(_, t)| t).collect();
        // the python side reports pickled arrays with code 0 for non-uint16
        let ours: Vec<(String, f64)> = tensors
            .iter()
            .map(|t| {
                let dims: Vec<String> = t.dims().iter().map(i64::to_string).collect();
                (
                    format!("0 {} {}", dims.join(","), t.sha256_hex()),
                    t.sum_f64(),
                )
            })
            .collect();
        assert_eq!(ours, theirs, "{name}");
    }
}
