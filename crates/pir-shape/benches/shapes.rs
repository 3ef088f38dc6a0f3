//! The symbolic shape analysis over a synthetic 20k-op model (what `pir
//! synth 20000` writes) and over the corpus's `huge_5000ops` when the full
//! corpus is beside the repository; and the annotated print of the latter.
#![allow(missing_docs)] // criterion_group! defines an undocumented function.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn bench(c: &mut Criterion) {
    let ctx = pir_dialects::pd_op_context();
    let programs = pir_corpus::bench_models(|json| {
        pir_serde::read_slice(ctx.clone(), json, &Default::default()).map(|l| l.program)
    });
    let mut g = c.benchmark_group("shapes");
    for (name, p) in &programs {
        g.throughput(Throughput::Elements(p.num_ops() as u64));
        g.bench_function(format!("analysis_{name}"), |b| {
            b.iter(|| {
                let s = pir_shape::ShapeAnalysis::run(p);
                assert!(s.skipped().is_empty());
                s.symbol_count()
            })
        });
        let shapes = pir_shape::ShapeAnalysis::run(p);
        g.bench_function(format!("annotated_text_{name}"), |b| {
            b.iter(|| pir_shape::annotated_text(p, &shapes).len())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
