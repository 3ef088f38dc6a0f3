//! Runs every vector recorded from Paddle 3.3.1 by `scripts/make_vectors.py`
//! through `pir_eval::evaluate` (each op built in a tiny program) and compares.
//!
//! The test fails if an op of `SUPPORTED_OPS` has no vector file, if a
//! recorded case differs beyond the tolerance of [`tolerance`], or if the
//! evaluator accepts a dtype Paddle rejects (`unsupported`) or whose kernel
//! dygraph never reaches (`promoted`: Paddle casts integer inputs to float32
//! first, so the integer kernel cannot be checked and the evaluator refuses
//! it).
//!
//! Floats are parsed with serde_json's `float_roundtrip` feature: without it
//! a decimal can land one ulp off, which once passed for float64 add/subtract/
//! divide "errors" of several ulps.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use pir_core::builtin::{
    ArrayAttr, BoolAttr, DenseTensorType, F32Attr, F64Attr, I32Attr, I64Attr, ScalarType, StrAttr,
    VectorType,
};
use pir_core::{Attribute, Builder, IrContext, Program, Type};
use pir_dialects::pd_op::{DataType, DataTypeAttr, IntArrayAttr};
use pir_eval::{evaluate, EvalTensor, SUPPORTED_OPS};
use pir_params::DType;
use serde_json::Value;

fn num(v: &Value) -> f64 {
    match v {
        Value::String(s) if s == "nan" => f64::NAN,
        Value::String(s) if s == "inf" => f64::INFINITY,
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        Value::Bool(b) => f64::from(u8::from(*b)),
        v => v.as_f64().unwrap(),
    }
}

fn tensor(v: &Value) -> EvalTensor {
    let dtype = DType::from_paddle_name(v["dtype"].as_str().unwrap()).unwrap();
    let dims: Vec<usize> = v["dims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as usize)
        .collect();
    let data = v["data"].as_array().unwrap();
    if dtype.is_float() {
        EvalTensor::from_f64s(dtype, &dims, &data.iter().map(num).collect::<Vec<_>>()).unwrap()
    } else {
        let ints: Vec<i64> = data
            .iter()
            .map(|d| {
                d.as_i64()
                    .unwrap_or_else(|| i64::from(d.as_bool().unwrap()))
            })
            .collect();
        EvalTensor::from_i64s(dtype, &dims, &ints).unwrap()
    }
}

fn scalar_type(d: DType) -> ScalarType {
    match d {
        DType::Float32 => ScalarType::F32,
        DType::Float64 => ScalarType::F64,
        DType::Float16 => ScalarType::F16,
        DType::BFloat16 => ScalarType::BF16,
        DType::Int32 => ScalarType::I32,
        DType::Int64 => ScalarType::I64,
        _ => ScalarType::Bool,
    }
}

fn ty(ctx: &IrContext, t: &EvalTensor) -> Type {
    DenseTensorType::get(ctx, ctx.intern_type(scalar_type(t.dtype())), &t.dims())
}

fn attr(ctx: &IrContext, kind: &str, v: &Value) -> Attribute {
    let ints = || {
        v.as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    let array = |items: Vec<Attribute>| ctx.intern_attr(ArrayAttr(items.into()));
    match kind {
        "f64" => F64Attr::get(ctx, num(v)),
        "f32" => F32Attr::get(ctx, num(v) as f32),
        "i32" => ctx.intern_attr(I32Attr(v.as_i64().unwrap() as i32)),
        "i64" => ctx.intern_attr(I64Attr(v.as_i64().unwrap())),
        "bool" => ctx.intern_attr(BoolAttr(v.as_bool().unwrap())),
        "str" => StrAttr::get(ctx, v.as_str().unwrap()),
        "dtype" => DataTypeAttr::get(
            ctx,
            DataType::parse(v.as_str().unwrap()).unwrap_or(DataType::Undefined),
        ),
        "int_array" => IntArrayAttr::get(ctx, &ints()),
        "i64_array" => array(
            ints()
                .into_iter()
                .map(|i| ctx.intern_attr(I64Attr(i)))
                .collect(),
        ),
        "i32_array" => array(
            ints()
                .into_iter()
                .map(|i| ctx.intern_attr(I32Attr(i as i32)))
                .collect(),
        ),
        "f64_array" => array(
            v.as_array()
                .unwrap()
                .iter()
                .map(|e| F64Attr::get(ctx, num(e)))
                .collect(),
        ),
        other => panic!("attribute kind {other}"),
    }
}

/// Builds the case's op (with `inputs` in place of the recorded ones and
/// `attrs` in place of its attributes) and evaluates it.
fn run(
    op: &str,
    case: &Value,
    inputs: &[EvalTensor],
    attrs: &[Value],
) -> Result<Vec<EvalTensor>, pir_eval::EvalError> {
    let ctx = pir_dialects::pd_op_context();
    let outputs: Vec<EvalTensor> = case["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(tensor)
        .collect();
    let mut p = Program::new(ctx.clone());
    let block = p.top_block();
    let mut b = Builder::at_end(&mut p, block);
    let mut vals = Vec::new();
    for t in inputs {
        let d = b.op("pd_op.data", &[], &[ty(&ctx, t)], &[]);
        vals.push(b.program().result(d, 0));
    }
    // Group the inputs into operands: 1 a tensor, 0 absent, [n] a vector.
    let layout: Vec<Value> = match case.get("operands") {
        Some(o) => o.as_array().unwrap().clone(),
        None => vec![Value::from(1); inputs.len()],
    };
    let mut operands = Vec::new();
    let mut at = 0;
    for l in &layout {
        if let Some(n) = l.as_array() {
            let n = n[0].as_u64().unwrap() as usize;
            let items = &vals[at..at + n];
            let types: Vec<Type> = inputs[at..at + n].iter().map(|t| ty(&ctx, t)).collect();
            let vt = VectorType::get(&ctx, &types);
            let comb = b.op("builtin.combine", items, &[vt], &[]);
            operands.push(Some(b.program().result(comb, 0)));
            at += n;
        } else if l.as_u64() == Some(0) {
            operands.push(None);
        } else {
            operands.push(Some(vals[at]));
            at += 1;
        }
    }
    let attrs: Vec<(pir_core::Symbol, Attribute)> = attrs
        .iter()
        .map(|a| {
            (
                ctx.symbol(a[0].as_str().unwrap()),
                attr(&ctx, a[1].as_str().unwrap(), &a[2]),
            )
        })
        .collect();
    let mut out_types: Vec<Type> = outputs.iter().map(|t| ty(&ctx, t)).collect();
    if case.get("vector_out").is_some() {
        out_types = vec![VectorType::get(&ctx, &out_types)];
    }
    let o = b.create(ctx.symbol(op), &operands, &out_types, &attrs, 0);
    evaluate(&p, o, inputs)
}

/// How close a float result must be to Paddle's.
#[derive(Clone, Copy, Debug)]
enum Tol {
    /// Bit-for-bit (NaN matches NaN; -0 must match -0).
    Exact,
    /// Within this many ulps of the expected value's dtype.
    Ulps(f64),
    /// `|got - want| <= rel * max(|want|, largest |value| of the output)`:
    /// for sums whose order differs (small results of cancelling terms are
    /// compared at the scale of the output).
    Rel(f64),
}

/// The tolerance of `op` in `dtype`, and why it is not exact.
///
/// Everything not listed is exact: elementwise arithmetic (a single IEEE
/// operation, or Paddle's sequence of them reproduced step by step in the
/// dtype), comparisons, casts, shape and indexing ops, integer results,
/// max/min reductions, cumsum, pooling.
fn tolerance(op: &str, dtype: DType) -> Tol {
    let half = matches!(dtype, DType::Float16 | DType::BFloat16);
    let f32 = dtype == DType::Float32;
    match op.trim_start_matches("pd_op.") {
        // Sums of many terms: BLAS (matmul, convolutions via im2col + GEMM)
        // and Eigen reductions add in the dtype in their own order; we add
        // in f64 and round once. Compared at the scale of the output, so
        // small results of cancelling terms do not count as huge relative
        // errors.
        "matmul" | "sum" | "mean" | "conv2d" | "depthwise_conv2d" | "conv2d_transpose"
        | "softmax" | "log_softmax" | "batch_norm" | "batch_norm_" | "layer_norm"
        | "instance_norm" => {
            if half {
                Tol::Rel(4e-3)
            } else if f32 {
                Tol::Rel(2e-6)
            } else {
                Tol::Rel(1e-14)
            }
        }
        // x - tanh(x) cancels for small x: the last bits of Eigen's float
        // tanh become large relative errors. Compared at the output's scale.
        "tanh_shrink" if f32 => Tol::Rel(2e-6),
        // Eigen's float erf is a rational approximation (3 ulps seen).
        "erf" if f32 => Tol::Ulps(3.0),
        // Eigen's fast float tanh is a rational approximation; its float
        // sqrt a hardware reciprocal square root and one Newton step; its
        // float product reduction multiplies in its own order.
        "tanh" | "sqrt" | "prod" if f32 => Tol::Ulps(2.0),
        // mish multiplies Eigen's float tanh (2 ulps) by x: 3 ulps seen.
        "mish" if f32 => Tol::Ulps(3.0),
        // Transcendental functions: glibc's and Eigen's vectorised versions
        // are within an ulp of the exact value; we round the exact value
        // (formulas with several steps round after each, as Paddle does).
        "exp" | "expm1" | "log" | "log2" | "log10" | "log1p" | "sin" | "cos" | "tan" | "tanh"
        | "sigmoid" | "silu" | "swish" | "gelu" | "elu" | "softplus" | "erf" | "rsqrt" | "pow"
        | "elementwise_pow" | "selu" | "celu" | "mish" | "tanh_shrink" => Tol::Ulps(1.0),
        _ => Tol::Exact,
    }
}

fn ulp(dtype: DType) -> f64 {
    match dtype {
        DType::Float64 => f64::EPSILON,
        DType::Float32 => f64::from(f32::EPSILON),
        DType::Float16 => 2f64.powi(-10),
        _ => 2f64.powi(-7),
    }
}

/// The deviation of `got` from `want` in units of the tolerance (<= 1 passes).
fn deviation(tol: Tol, dtype: DType, got: f64, want: f64, scale: f64) -> f64 {
    if got.is_nan() && want.is_nan() {
        return 0.0;
    }
    if got.is_nan() || want.is_nan() || got.is_infinite() || want.is_infinite() {
        return if got == want { 0.0 } else { f64::INFINITY };
    }
    match tol {
        Tol::Exact => {
            if got.to_bits() == want.to_bits() {
                0.0
            } else {
                f64::INFINITY
            }
        }
        Tol::Ulps(n) => {
            if got == want {
                return 0.0;
            }
            // One ulp of `want` (subnormal-safe floor).
            let e = want.abs().max(f64::MIN_POSITIVE * 1e10).log2().floor();
            (got - want).abs() / (2f64.powf(e) * ulp(dtype)) / n
        }
        Tol::Rel(r) => (got - want).abs() / (r * want.abs().max(scale).max(1e-300)),
    }
}

fn vector_files() -> Vec<std::path::PathBuf> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// The case's inputs and attributes with every tensor and `dtype` attribute
/// of the case's dtype (its name's suffix) switched to `to`.
fn retyped(case: &Value, to: DType) -> Option<(Vec<EvalTensor>, Vec<Value>)> {
    let name = case["name"].as_str().unwrap();
    let from = DType::from_paddle_name(name.rsplit('/').next()?)?;
    let inputs = case["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let t = tensor(v);
            if t.dtype() != from {
                return t;
            }
            let dims = t.shape().to_vec();
            if from.is_float() {
                EvalTensor::from_f64s(to, &dims, &t.to_f64_vec()).unwrap()
            } else {
                EvalTensor::from_i64s(to, &dims, &t.to_i64_vec()).unwrap()
            }
        })
        .collect();
    let attrs = case["attrs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let mut a = a.clone();
            if a[1] == "dtype" && a[2].as_str() == Some(from.paddle_name()) {
                a[2] = Value::from(to.paddle_name());
            }
            a
        })
        .collect();
    Some((inputs, attrs))
}

#[test]
fn paddle_vectors() {
    let report = std::env::var_os("PIR_EVAL_REPORT").is_some();
    let mut covered = Vec::new();
    let (mut checked, mut failures) = (0, Vec::new());
    let mut worst: BTreeMap<String, f64> = BTreeMap::new();
    for f in vector_files() {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let op = doc["op"].as_str().unwrap();
        covered.push(op.to_string());
        let cases = doc["cases"].as_array().unwrap();
        for case in cases {
            let name = case["name"].as_str().unwrap();
            checked += 1;
            let inputs: Vec<EvalTensor> = case["inputs"]
                .as_array()
                .unwrap()
                .iter()
                .map(tensor)
                .collect();
            let got = match run(op, case, &inputs, case["attrs"].as_array().unwrap()) {
                Ok(g) => g,
                Err(e) => {
                    failures.push(format!("{op} {name}: error {e}"));
                    continue;
                }
            };
            let outs = case["outputs"].as_array().unwrap();
            if got.len() < outs.len() {
                failures.push(format!(
                    "{op} {name}: {} results, want {}",
                    got.len(),
                    outs.len()
                ));
                continue;
            }
            for (k, (g, w)) in got.iter().zip(outs).enumerate() {
                let want = tensor(w);
                if g.dtype() != want.dtype() || g.dims() != want.dims() {
                    failures.push(format!(
                        "{op} {name} #{k}: got {:?} {:?}, want {:?} {:?}",
                        g.dtype(),
                        g.dims(),
                        want.dtype(),
                        want.dims()
                    ));
                    continue;
                }
                let dt = want.dtype();
                if !dt.is_float() {
                    if g.to_i64_vec() != want.to_i64_vec() {
                        failures.push(format!(
                            "{op} {name} #{k}: {:?} != {:?}",
                            g.to_i64_vec(),
                            want.to_i64_vec()
                        ));
                    }
                    continue;
                }
                let tol = tolerance(op, dt);
                let wv = want.to_f64_vec();
                let scale = wv
                    .iter()
                    .filter(|v| v.is_finite())
                    .fold(0f64, |m, v| m.max(v.abs()));
                for (i, (a, b)) in g.to_f64_vec().into_iter().zip(wv).enumerate() {
                    let d = deviation(tol, dt, a, b, scale);
                    if report {
                        let u = deviation(Tol::Ulps(1.0), dt, a, b, scale);
                        let zero_sign = a == 0.0 && a.to_bits() != b.to_bits();
                        let e = worst.entry(format!("{op} {dt:?} ({tol:?})")).or_insert(0.0);
                        *e = e.max(if zero_sign { 0.5 } else { u.max(d * 1e-9) });
                    }
                    if d > 1.0 {
                        failures.push(format!("{op} {name} #{k}[{i}]: {a:e} vs {b:e} ({tol:?})"));
                    }
                }
            }
        }
        // Dtypes Paddle rejects (or never runs) must be rejected here too.
        let refused = ["unsupported", "promoted"].iter().flat_map(|k| {
            doc.get(*k)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        });
        for d in refused {
            let to = DType::from_paddle_name(d.as_str().unwrap()).unwrap();
            let Some((case, (inputs, attrs))) =
                cases.iter().find_map(|c| retyped(c, to).map(|r| (c, r)))
            else {
                failures.push(format!("{op}: no case to try the refused {to:?} with"));
                continue;
            };
            if let Ok(out) = run(op, case, &inputs, &attrs) {
                failures.push(format!(
                    "{op}: accepts {to:?}, which Paddle rejects (gave {:?})",
                    out.first().map(EvalTensor::dtype)
                ));
            }
        }
    }
    for op in SUPPORTED_OPS {
        if !covered.iter().any(|c| c == op) {
            failures.push(format!("{op}: no vector file"));
        }
    }
    if report {
        for (k, v) in &worst {
            if *v > 0.0 {
                eprintln!("{k}: worst {v:.2} ulp");
            }
        }
    }
    eprintln!("checked {checked} vector cases");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
