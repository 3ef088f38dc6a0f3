//! Throughput of the parameter-file readers and writers on a generated
//! combined file of about 210 MB (four 48 MB float32 tensors and 2000 small
//! ones), and of the pickle reader/writer on the same tensors.
//!
//! Run with `cargo bench -p pir-params --bench params`; criterion prints the
//! throughput in GiB/s (`thrpt`).
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pir_params::{combined, map_file, pickle, DType, Tensor};

fn make_params() -> Vec<(String, Tensor)> {
    let mut params = Vec::new();
    for i in 0..4 {
        let n = 12 * 1024 * 1024;
        let values: Vec<f32> = (0..n)
            .map(|j| ((j % 1000) as f32) * 0.001 + i as f32)
            .collect();
        params.push((
            format!("big_{i}.w_0"),
            Tensor::from_slice(DType::Float32, vec![3072, 4096], &values).unwrap(),
        ));
    }
    for i in 0..2000 {
        let n = 64 + (i * 37) % 2000;
        let values: Vec<f32> = (0..n).map(|j| j as f32).collect();
        params.push((
            format!("small_{i:04}.b_0"),
            Tensor::from_slice(DType::Float32, vec![n as i64], &values).unwrap(),
        ));
    }
    combined::sort_params(&mut params);
    params
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.pdiparams");
    let params = make_params();
    combined::save_combined(&path, &params, false).unwrap();
    let names: Vec<String> = params.iter().map(|p| p.0.clone()).collect();
    let file_len = std::fs::metadata(&path).unwrap().len();
    assert!(file_len >= 200_000_000, "{file_len}");
    eprintln!("combined file: {file_len} bytes, {} tensors", params.len());

    let mut g = c.benchmark_group("pdiparams");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Bytes(file_len));
    g.bench_function("mmap_read_borrowed", |b| {
        b.iter(|| {
            let t = combined::load_combined(&path, &names).unwrap();
            assert!(t[0].1.is_mapped());
            black_box(t)
        })
    });
    g.bench_function("mmap_read_and_sum", |b| {
        b.iter(|| {
            let t = combined::load_combined(&path, &names).unwrap();
            black_box(t.iter().map(|(_, t)| t.sum_f64()).sum::<f64>())
        })
    });
    g.bench_function("read_copying", |b| {
        let map = map_file(&path).unwrap();
        b.iter(|| black_box(combined::read_combined(&map, &names).unwrap()))
    });
    g.bench_function("write_to_memory", |b| {
        let mut buf = Vec::with_capacity(file_len as usize);
        b.iter(|| {
            buf.clear();
            combined::write_combined_to(&mut buf, &params).unwrap();
            black_box(buf.len())
        })
    });
    g.bench_function("save_file_atomic_fsync", |b| {
        let out = dir.path().join("out.pdiparams");
        b.iter(|| combined::save_combined(&out, &params, true).unwrap())
    });
    g.finish();

    let pkl = dir.path().join("bench.pdparams");
    pickle::save_state_dict(&pkl, &params, &Default::default(), false).unwrap();
    let pkl_len = std::fs::metadata(&pkl).unwrap().len();
    let mut g = c.benchmark_group("pdparams");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Bytes(pkl_len));
    g.bench_function("mmap_load_state_dict", |b| {
        b.iter(|| {
            let s = pickle::load_state_dict_file(&pkl).unwrap();
            assert!(s.tensors[0].1.is_mapped());
            black_box(s)
        })
    });
    g.bench_function("write_state_dict_to_memory", |b| {
        let mut buf = Vec::with_capacity(pkl_len as usize);
        b.iter(|| {
            buf.clear();
            pickle::write_state_dict_to(&mut buf, &params, &Default::default()).unwrap();
            black_box(buf.len())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
