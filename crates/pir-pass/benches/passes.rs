//! CSE and DCE on a synthetic program of about 1M ops, a quarter of them
//! duplicates and a quarter dead (ops/s reported as elements/s).
#![allow(missing_docs, clippy::unwrap_used)] // criterion macros generate undocumented items

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use pir_core::builtin::{DenseTensorType, ScalarType, StrAttr};
use pir_core::{Builder, Program};
use pir_dialects::ops::{AddOp, ExpOp, ReluOp};

/// `blocks` × (relu, duplicate relu, dead exp, add), plus input and fetch.
fn program(blocks: usize) -> Program {
    let ctx = pir_dialects::pd_op_context();
    let mut p = Program::with_capacity(ctx.clone(), blocks * 4 + 2);
    let t = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::F32), &[4]);
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let x = b.op(
        "pd_op.data",
        &[],
        &[t],
        &[("name", StrAttr::get(&ctx, "x"))],
    );
    let mut x = b.program().result(x, 0);
    for _ in 0..blocks {
        let a = ReluOp::build(&mut b, x, &[t]).out(b.program());
        let dup = ReluOp::build(&mut b, x, &[t]).out(b.program());
        ExpOp::build(&mut b, a, &[t]);
        x = AddOp::build(&mut b, a, dup, &[t]).out(b.program());
    }
    b.op(
        "pd_op.fetch",
        &[x],
        &[t],
        &[("name", StrAttr::get(&ctx, "out"))],
    );
    p
}

fn bench(c: &mut Criterion) {
    let base = program(250_000);
    let ops = base.num_ops() as u64;
    let mut group = c.benchmark_group("passes_1m_ops");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(ops));
    for pipeline in ["cse", "dce", "canonicalize"] {
        group.bench_function(pipeline, |bencher| {
            bencher.iter_batched(
                || base.clone(),
                |mut p| {
                    let mut pm = pir_pass::PassManager::parse(pipeline).unwrap();
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
