//! Reading and translating legacy `.pdmodel` files of the shared corpora:
//! - `decode/in_place` vs `decode/prost`: the `ProgramDesc` reader of this
//!   crate against prost decoding the same bytes into its owned message tree
//!   (what the reader replaced; the prost types are test support only);
//! - `read_translate`: bytes → PIR program, what `pir time` reports as
//!   `load_ms` and `bench/compare_paddle_legacy.py` compares with Paddle;
//! - `write`: the translated program written back as `.pdmodel` bytes
//!   (`pir_legacy::write::to_bytes`), which
//!   `bench/compare_paddle26_save.py` compares with Paddle 2.6.2's
//!   `save_inference_model`.
//!
//! Skips models that are not found (the corpora live beside the repository).
#![allow(missing_docs, clippy::unwrap_used)] // criterion macros generate undocumented items

#[allow(clippy::all, dead_code)]
#[path = "../tests/support/proto.rs"]
mod proto;

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use prost::Message;

const MODELS: [&str; 4] = [
    "paddle-corpus/huge_5000ops",
    "paddle-corpus/deep_mlp_ln200",
    "paddle-corpus/resnet18_w16",
    "legacy-corpus/lg_lstm",
];

fn models() -> Vec<(&'static str, Vec<u8>)> {
    let shared = pir_corpus::repo_root().join("../shared");
    let mut out = Vec::new();
    for m in MODELS {
        let path = shared.join(format!("{m}.pdmodel"));
        match std::fs::read(&path) {
            Ok(bytes) => out.push((m.rsplit('/').next().unwrap_or(m), bytes)),
            Err(_) => eprintln!("skipping {m}: {} not found", path.display()),
        }
    }
    out
}

fn bench_decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode");
    group
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    for (name, bytes) in models() {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("in_place", name), &bytes, |b, bytes| {
            b.iter(|| {
                let arena = pir_legacy::DescArena::for_bytes(bytes.len());
                pir_legacy::ProgramDesc::decode(bytes, &arena).map(|d| d.num_ops())
            })
        });
        group.bench_with_input(BenchmarkId::new("prost", name), &bytes, |b, bytes| {
            b.iter(|| proto::ProgramDesc::decode(bytes.as_slice()).map(|d| d.blocks.len()))
        });
    }
    group.finish();
}

fn bench_read_translate(c: &mut Criterion) {
    let mut group = c.benchmark_group("read_translate");
    group
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    let ctx = pir_dialects::pd_op_context();
    for (name, bytes) in models() {
        let ops = pir_legacy::translate_bytes(&bytes, ctx.clone(), Default::default())
            .map(|p| p.num_ops())
            .unwrap();
        group.throughput(Throughput::Elements(ops as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &bytes, |b, bytes| {
            b.iter(|| {
                pir_legacy::translate_bytes(bytes, ctx.clone(), Default::default())
                    .map(|p| p.num_ops())
            })
        });
    }
    group.finish();
}

fn bench_write(c: &mut Criterion) {
    let mut group = c.benchmark_group("write");
    group
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    let ctx = pir_dialects::pd_op_context();
    for (name, bytes) in models() {
        let program = pir_legacy::translate_bytes(&bytes, ctx.clone(), Default::default()).unwrap();
        group.throughput(Throughput::Elements(program.num_ops() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &program, |b, program| {
            b.iter(|| pir_legacy::write::to_bytes(program).map(|v| v.len()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_decode, bench_read_translate, bench_write);
criterion_main!(benches);
