//! What every command pays before its work: a new context with Paddle's
//! dialects (op names registered, each op built on first use), and a first
//! load of a small model into it, with the context's memos still empty.
#![allow(missing_docs, clippy::unwrap_used)] // criterion macros generate undocumented items

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

fn bench_context(c: &mut Criterion) {
    let mut group = c.benchmark_group("context");
    group
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    group.bench_function("pd_op_context", |b| b.iter(pir_dialects::pd_op_context));
    group.bench_function("pd_op_context_all_ops_built", |b| {
        b.iter(|| pir_dialects::pd_op_context().registered_ops().count())
    });
    let path = pir_corpus::corpus_dir().join("resnet18_w16.json");
    match std::fs::read(&path) {
        Ok(bytes) => {
            group.bench_function("new_context_and_first_load_resnet18_w16", |b| {
                b.iter(|| {
                    let ctx = pir_dialects::pd_op_context();
                    pir_serde::read_slice(ctx, &bytes, &Default::default())
                        .map(|l| l.program.num_ops())
                        .unwrap()
                })
            });
        }
        Err(e) => eprintln!("skipping the first load: {}: {e}", path.display()),
    }
    group.finish();
}

criterion_group!(benches, bench_context);
criterion_main!(benches);
