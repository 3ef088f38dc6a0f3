//! Load and print throughput on the largest corpus models and a synthetic
//! 20k-op program. Figures are reported as MB/s (bytes of JSON) and ops/s.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn corpus_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/paddle-corpus"))
}

fn bench_load_print(c: &mut Criterion) {
    let mut group = c.benchmark_group("corpus");
    group.measurement_time(Duration::from_secs(3)).sample_size(20);
    for name in ["huge_5000ops", "deep_mlp_ln200", "mobilenet_v2_x025", "resnet18_w16"] {
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
        group.bench_with_input(BenchmarkId::new("load", name), &bytes, |b, bytes| {
            b.iter(|| pir_serde::read_slice(ctx.clone(), bytes, &Default::default()).map(|l| l.program.num_ops()))
        });
        group.throughput(Throughput::Elements(ops));
        group.bench_with_input(BenchmarkId::new("print", name), &loaded.program, |b, p| b.iter(|| p.print_to_vec().len()));
    }
    group.finish();
}

criterion_group!(benches, bench_load_print);
criterion_main!(benches);
