//! `identity_op_clean`'s `remove_redundant_cast` (rules/identity_op_clean.drr):
//! `cast(cast(x, d1), d2)` becomes `cast(x, d2)` only when the first cast
//! loses nothing. Through an integer type narrower than `x`'s values
//! (`uint8`, `int8`, `int16` as much as `int32`, `int64`, `bool`) or a
//! narrower float, the pair computes something else: `(x * 255).astype("uint8")
//! .astype("float32")` drops the fractions and wraps negative values.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use pir_core::Program;
use pir_pass::PassManager;

/// The element type suffix of Paddle's print for a dtype.
fn suffix(dtype: &str) -> &'static str {
    match dtype {
        "float32" => "f32",
        "float64" => "f64",
        "float16" => "f16",
        "bfloat16" => "bf16",
        "int8" => "i8",
        "uint8" => "u8",
        "int16" => "i16",
        "int32" => "i32",
        "int64" => "i64",
        "bool" => "b",
        other => panic!("no suffix for {other}"),
    }
}

/// `x: from` cast to `mid`, then to `to`, fetched; the casts left after
/// `identity_op_clean`.
fn casts_left(from: &str, mid: &str, to: &str) -> usize {
    let (f, m, t) = (suffix(from), suffix(mid), suffix(to));
    let text = format!(
        r#"{{
    (%0) = "pd_op.data" () {{dtype:{from},name:"x",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]}} : () -> tensor<-1x8x{f}>
    (%1) = "pd_op.cast" (%0) {{dtype:{mid},stop_gradient:[false]}} : (tensor<-1x8x{f}>) -> tensor<-1x8x{m}>
    (%2) = "pd_op.cast" (%1) {{dtype:{to},stop_gradient:[false]}} : (tensor<-1x8x{m}>) -> tensor<-1x8x{t}>
    (%3) = "pd_op.fetch" (%2) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<-1x8x{t}>) -> tensor<-1x8x{t}>
}}"#
    );
    let ctx = pir_dialects::pd_op_context();
    let mut p = Program::parse(&ctx, &text).unwrap();
    let mut pm = PassManager::parse("identity_op_clean").unwrap();
    pm.instrumentation.verify_each = true;
    pm.run(&mut p).unwrap();
    p.verify().unwrap();
    p.to_string().matches("\"pd_op.cast\"").count()
}

/// `(from, mid, to, casts left)`: 2 where the first cast loses something,
/// 1 where the pair merges, 0 where the merged cast is an identity.
const CASES: [(&str, &str, &str, usize); 24] = [
    ("float32", "uint8", "float32", 2),
    ("float32", "int8", "float32", 2),
    ("float32", "int16", "float32", 2),
    ("float32", "int32", "float32", 2),
    ("float32", "int64", "float32", 2),
    ("float32", "bool", "float32", 2),
    ("float32", "float16", "float32", 2),
    ("float32", "bfloat16", "float32", 2),
    ("float64", "float32", "float64", 2),
    ("int32", "uint8", "int32", 2),
    ("uint8", "int8", "int32", 2),
    ("int16", "float16", "int32", 2),
    ("int64", "float64", "int64", 2),
    ("int32", "float32", "int64", 2),
    ("float16", "float32", "float64", 1),
    ("bfloat16", "float64", "float32", 1),
    ("float32", "float64", "int32", 1),
    ("uint8", "int16", "float32", 1),
    ("int8", "float16", "int64", 1),
    ("int16", "float32", "int8", 1),
    ("int32", "float64", "float32", 1),
    ("int32", "int64", "uint8", 1),
    ("bool", "float16", "int64", 1),
    ("float16", "float32", "float16", 0),
];

#[test]
fn a_cast_pair_merges_only_when_the_first_cast_loses_nothing() {
    for (from, mid, to, left) in CASES {
        assert_eq!(casts_left(from, mid, to), left, "{from} -> {mid} -> {to}");
    }
}
