//! Parse and write throughput on the largest corpus model (`huge_5000ops.json`, skipped when
//! the corpus is absent) and on a synthetic model-like document.
//!
//! Run with `cargo bench -p pir-json --bench json`; criterion reports MB/s per benchmark.
//! `parse` builds the tape, `parse+walk` also reads every value, `write_from_dom` re-emits a
//! parsed document through [`Writer::value`], `write_direct` drives the writer with literal
//! keys like a serializer does, `validate_utf8` is the UTF-8 check alone for comparison.
#![allow(clippy::unwrap_used)]
// a test or tool fails loudly by design

// criterion's macros generate undocumented public functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use pir_json::{parse, Kind, Value, Writer};

fn corpus_file(name: &str) -> Option<Vec<u8>> {
    let path = format!(
        "{}/../../../shared/paddle-corpus/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(_) => {
            eprintln!("note: {path} not found; skipping its benchmarks");
            None
        }
    }
}

/// A model-like document: many small ops with typed outputs, names, int lists and floats.
fn synthetic(ops: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = Writer::compact(&mut out);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    w.begin_object();
    w.key("ops");
    w.begin_array();
    for i in 0..ops {
        w.begin_object();
        w.key("#");
        w.string("1.matmul");
        w.key("A");
        w.begin_array();
        w.begin_object();
        w.key("AT");
        w.begin_object();
        w.key("#");
        w.string("0.a_f32");
        w.key("D");
        w.f64(f64::from(f32::from_bits((next() as u32) & 0x3fff_ffff)));
        w.end_object();
        w.key("N");
        w.string("scale");
        w.end_object();
        w.end_array();
        w.key("I");
        w.begin_array();
        w.begin_object();
        w.key("%");
        w.u64(i as u64 + 1);
        w.end_object();
        w.end_array();
        w.key("O");
        w.begin_array();
        w.begin_object();
        w.key("%");
        w.u64(i as u64 + 2);
        w.key("TT");
        w.begin_object();
        w.key("#");
        w.string("0.t_dtensor");
        w.key("D");
        w.begin_array();
        w.string("NCHW");
        w.begin_array();
        w.i64(-1);
        w.i64((next() % 4096) as i64);
        w.end_array();
        w.end_array();
        w.end_object();
        w.end_object();
        w.end_array();
        w.key("OA");
        w.begin_array();
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.end_object();
    out
}

/// Touches every value the way a reader does: numbers converted, strings borrowed.
fn walk(v: Value<'_>) -> u64 {
    match v.kind() {
        Kind::Array => v.array().into_iter().flatten().map(walk).sum(),
        Kind::Object => v
            .object()
            .into_iter()
            .flatten()
            .map(|(k, v)| k.len() as u64 + walk(v))
            .sum(),
        Kind::String => v.as_str().map_or(0, |s| s.len() as u64),
        Kind::Number => v
            .as_i64()
            .map_or_else(|| v.as_f64().map_or(0, |f| f.to_bits() & 1), |i| i as u64),
        Kind::Bool | Kind::Null => 1,
    }
}

fn bench_input(c: &mut Criterion, name: &str, input: &[u8]) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("parse", |b| {
        b.iter(|| parse(black_box(input)).map(|d| d.node_count()))
    });
    group.bench_function("parse+walk", |b| {
        b.iter(|| parse(black_box(input)).map(|d| walk(d.root())))
    });
    if let Ok(doc) = parse(input) {
        let mut out = Vec::with_capacity(input.len() + 1024);
        group.bench_function("write_from_dom", |b| {
            b.iter(|| {
                out.clear();
                Writer::compact(&mut out).any_key_order().value(doc.root());
                out.len()
            })
        });
        group.bench_function("validate_utf8", |b| {
            b.iter(|| std::str::from_utf8(black_box(input)).is_ok())
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    if let Some(huge) = corpus_file("huge_5000ops.json") {
        bench_input(c, "huge_5000ops", &huge);
    }
    let document = synthetic(8000);
    bench_input(c, "synthetic", &document);
    // The writer driven directly, as a serializer uses it (includes float formatting).
    let mut group = c.benchmark_group("synthetic");
    group.throughput(Throughput::Bytes(document.len() as u64));
    group.bench_function("write_direct", |b| {
        b.iter(|| synthetic(black_box(8000)).len())
    });
    group.finish();
}

criterion_group!(json, benches);
criterion_main!(json);
