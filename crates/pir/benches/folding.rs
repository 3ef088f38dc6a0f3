//! The deployment pipeline `constant_folding,fold_batch_norm,canonicalize,
//! cse,dce` on corpus models with their parameters (`resnet18_w16`,
//! `mobilenet_v2_x025`, `huge_5000ops`): the passes only, on a clone of the
//! loaded model. `bench/compare_paddle_opt.py` sets this against Paddle
//! Inference's own optimisation of the same models.
#![allow(missing_docs, clippy::unwrap_used)] // criterion macros generate undocumented items

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

const PIPELINE: &str = "constant_folding,fold_batch_norm,canonicalize,cse,dce";

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("deploy_pipeline");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    for name in ["resnet18_w16", "mobilenet_v2_x025", "huge_5000ops"] {
        let Some(model) = pir_corpus::model(name) else {
            eprintln!("corpus model {name} not found; skipped");
            continue;
        };
        let prefix = model.json().with_extension("");
        let loaded = pir::Model::load(&prefix).unwrap();
        group.throughput(Throughput::Elements(loaded.program.num_ops() as u64));
        group.bench_function(name, |bencher| {
            bencher.iter_batched(
                || loaded.program.clone(),
                |mut p| {
                    let mut pm = pir_pass::PassManager::parse(PIPELINE).unwrap();
                    pm.instrumentation.verify_each = false;
                    pm.run(&mut p).unwrap();
                    p.num_ops()
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
