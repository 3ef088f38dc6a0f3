//! Re-infers every op of a synthetic 20k-op model (and of the corpus's
//! `huge_5000ops` when the full corpus is beside the repository), and sets
//! the synthetic model's input shape, re-inferring every op it reaches.
#![allow(missing_docs)] // criterion_group! defines an undocumented function.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

fn bench(c: &mut Criterion) {
    let ctx = pir_dialects::pd_op_context();
    let programs = pir_corpus::bench_models(|json| {
        pir_serde::read_slice(ctx.clone(), json, &Default::default()).map(|l| l.program)
    });
    let inferer = pir_infer::Inferer::new(&ctx);
    let mut g = c.benchmark_group("infer");
    for (name, p) in &programs {
        g.throughput(Throughput::Elements(p.num_ops() as u64));
        g.bench_function(format!("check_program_{name}"), |b| {
            b.iter(|| {
                let r = inferer.check_program(p);
                assert_eq!(r.differing(), 0);
                r.checked
            })
        });
    }
    let (_, p) = &programs[0];
    let input = pir_infer::inputs(p);
    let first = input.first().expect("the synthetic model has an input");
    let dims = ctx
        .type_as::<pir_core::builtin::DenseTensorType>(first.ty)
        .map(|t| {
            t.dims
                .iter()
                .map(|&d| if d < 0 { 8 } else { d })
                .collect::<Vec<_>>()
        })
        .expect("a dense tensor input");
    let shapes = vec![(first.name.clone(), dims)];
    g.throughput(Throughput::Elements(p.num_ops() as u64));
    g.bench_function("set_input_shapes_20k_ops", |b| {
        b.iter_batched(
            || p.clone(),
            |mut q| {
                let done = inferer
                    .set_input_shapes(&mut q, &shapes)
                    .unwrap_or_else(|e| panic!("{e}"));
                assert!(done.reinferred > 0);
                done.retyped
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
