//! Load and print throughput on the largest corpus models and a synthetic
//! 20k-op program. Figures are reported as MB/s (bytes of JSON) and ops/s.
//! `load` uses every core (files of 4 KiB and more are read on two
//! threads), `load_one_thread` the calling thread only.
#![allow(missing_docs, clippy::unwrap_used)] // criterion macros generate undocumented items

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn corpus_dir() -> PathBuf {
    pir_corpus::corpus_dir()
}

/// The loads measured: on every core, and on one thread.
fn loads() -> [(&'static str, pir_serde::ReadOptions); 2] {
    let one = pir_serde::ReadOptions {
        threads: 1,
        ..Default::default()
    };
    [("load", Default::default()), ("load_one_thread", one)]
}

fn bench_load_print(c: &mut Criterion) {
    let mut group = c.benchmark_group("corpus");
    group
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    for name in [
        "huge_5000ops",
        "deep_mlp_ln200",
        "mobilenet_v2_x025",
        "resnet18_w16",
    ] {
        let path = corpus_dir().join(format!("{name}.json"));
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("skipping {name}: {} not found", path.display());
            continue;
        };
        let ctx = pir_dialects::pd_op_context();
        let loaded = match pir_serde::read_slice(ctx.clone(), &bytes, &Default::default()) {
            Ok(l) => l,
            Err(e) => panic!("{name}: {e}"),
        };
        let ops = loaded.program.num_ops() as u64;
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        for (id, options) in loads() {
            group.bench_with_input(BenchmarkId::new(id, name), &bytes, |b, bytes| {
                b.iter(|| {
                    pir_serde::read_slice(ctx.clone(), bytes, &options).map(|l| l.program.num_ops())
                })
            });
        }
        group.throughput(Throughput::Elements(ops));
        group.bench_with_input(BenchmarkId::new("print", name), &loaded.program, |b, p| {
            b.iter(|| p.print_to_vec().len())
        });
        group.bench_with_input(BenchmarkId::new("save", name), &loaded.program, |b, p| {
            b.iter(|| pir_serde::write_to_vec(p, &Default::default()).map(|v| v.len()))
        });
    }
    group.finish();
}

/// Synthetic programs of 20k and 100k ops (shaped like `huge_5000ops`).
fn bench_synthetic(c: &mut Criterion) {
    let mut group = c.benchmark_group("synthetic");
    group
        .measurement_time(Duration::from_secs(3))
        .sample_size(10);
    for blocks in [2_500usize, 12_500] {
        let text = pir_corpus::synthetic_mlp_json(blocks);
        let ctx = pir_dialects::pd_op_context();
        let loaded = match pir_serde::read_slice(ctx.clone(), text.as_bytes(), &Default::default())
        {
            Ok(l) => l,
            Err(e) => panic!("synthetic {blocks}: {e}"),
        };
        let ops = loaded.program.num_ops() as u64;
        let label = format!("{}k_ops", ops / 1000);
        group.throughput(Throughput::Bytes(text.len() as u64));
        for (id, options) in loads() {
            group.bench_with_input(BenchmarkId::new(id, &label), &text, |b, text| {
                b.iter(|| {
                    pir_serde::read_slice(ctx.clone(), text.as_bytes(), &options)
                        .map(|l| l.program.num_ops())
                })
            });
        }
        group.throughput(Throughput::Elements(ops));
        group.bench_with_input(
            BenchmarkId::new("print", &label),
            &loaded.program,
            |b, p| b.iter(|| p.print_to_vec().len()),
        );
        group.bench_with_input(BenchmarkId::new("save", &label), &loaded.program, |b, p| {
            b.iter(|| pir_serde::write_to_vec(p, &Default::default()).map(|v| v.len()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_load_print, bench_synthetic);
criterion_main!(benches);
