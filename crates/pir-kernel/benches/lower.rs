//! Lowering the 20k-op synthetic program against loading it: the lowering
//! should cost less than the load it follows.

#![allow(missing_docs)] // criterion_group! defines an undocumented function.

use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    // 8 ops per block plus feed and fetch: about 20k ops.
    let json = pir_corpus::synthetic_mlp_json(2_500);
    let load = || {
        let ctx = pir_kernel::kernel_context();
        pir_serde::read_slice(ctx, json.as_bytes(), &pir_serde::ReadOptions::default())
            .map(|l| l.program)
    };
    let Ok(program) = load() else {
        panic!("the synthetic model does not load");
    };
    eprintln!("synthetic program: {} ops", program.num_ops());
    let mut group = c.benchmark_group("lower_20k");
    group.sample_size(20);
    group.bench_function("load", |b| b.iter(|| load().map(|p| p.num_ops())));
    group.bench_function("lower", |b| {
        b.iter(|| pir_kernel::lower(&program).map(|l| l.program.num_ops()))
    });
    group.bench_function("lower_and_print", |b| {
        b.iter(|| pir_kernel::lower(&program).map(|l| l.to_paddle_string().len()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
