//! Re-infers every op of a synthetic 20k-op model.
#![allow(missing_docs)] // criterion_group! defines an undocumented function.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn bench(c: &mut Criterion) {
    let ctx = pir_dialects::pd_op_context();
    let json = pir_corpus::synthetic_mlp_json(2500);
    let loaded = pir_serde::read_slice(
        ctx.clone(),
        json.as_bytes(),
        &pir_serde::ReadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("synthetic model: {e}"));
    let inferer = pir_infer::Inferer::new(&ctx);
    let p = &loaded.program;
    let ops = p.num_ops() as u64;
    let mut g = c.benchmark_group("infer");
    g.throughput(Throughput::Elements(ops));
    g.bench_function("check_program_20k_ops", |b| {
        b.iter(|| {
            let r = inferer.check_program(p);
            assert_eq!(r.differing(), 0);
            r.checked
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
