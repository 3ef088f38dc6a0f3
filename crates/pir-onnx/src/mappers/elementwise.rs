//! Elementwise ops: arithmetic, comparisons, logic, math functions and
//! activations. In-place forms (`relu_`) map as their out-of-place op and
//! rename the written operand.

use pir_params::DType;

use crate::export::{a_float, a_int, Exporter};
use crate::mappers::complex_arith;
use crate::ExportError;

type R = Result<(), ExportError>;

/// Paddle ops that are one ONNX op of one input.
const UNARY: &[(&str, &str)] = &[
    ("relu", "Relu"),
    ("sigmoid", "Sigmoid"),
    ("tanh", "Tanh"),
    ("exp", "Exp"),
    ("log", "Log"),
    ("sqrt", "Sqrt"),
    ("abs", "Abs"),
    ("floor", "Floor"),
    ("ceil", "Ceil"),
    ("erf", "Erf"),
    ("sin", "Sin"),
    ("cos", "Cos"),
    ("tan", "Tan"),
    ("asin", "Asin"),
    ("acos", "Acos"),
    ("atan", "Atan"),
    ("sinh", "Sinh"),
    ("cosh", "Cosh"),
    ("asinh", "Asinh"),
    ("acosh", "Acosh"),
    ("atanh", "Atanh"),
    ("reciprocal", "Reciprocal"),
    ("sign", "Sign"),
    ("softsign", "Softsign"),
    ("isnan", "IsNaN"),
    ("isinf", "IsInf"),
    ("assign", "Identity"),
    ("print", "Identity"),
    ("share_data", "Identity"),
    ("bitwise_not", "BitwiseNot"),
];

/// Paddle ops that are one ONNX op of two broadcast inputs.
const BINARY: &[(&str, &str)] = &[
    ("add", "Add"),
    ("subtract", "Sub"),
    ("multiply", "Mul"),
    ("divide", "Div"),
    ("maximum", "Max"),
    ("minimum", "Min"),
    ("fmax", "Max"),
    ("fmin", "Min"),
    ("elementwise_pow", "Pow"),
    ("equal", "Equal"),
    ("less_than", "Less"),
    ("less_equal", "LessOrEqual"),
    ("greater_than", "Greater"),
    ("greater_equal", "GreaterOrEqual"),
    ("bitwise_and", "BitwiseAnd"),
    ("bitwise_or", "BitwiseOr"),
    ("bitwise_xor", "BitwiseXor"),
];

/// The Paddle op name without dialect and in-place underscore.
pub(crate) fn base_name<'p>(x: &Exporter<'p>) -> &'p str {
    let name = x.op_name();
    let name = name.strip_prefix("pd_op.").unwrap_or(name);
    name.strip_suffix('_').unwrap_or(name)
}

/// Names result 0 and, for an in-place op, renames operand 0 to it.
pub(crate) fn out_inplace(x: &mut Exporter<'_>) -> String {
    let out = x.out(0);
    if x.op_name().ends_with('_') {
        x.rename_operand(0, out.clone());
    }
    out
}

/// One-input ops of [`UNARY`].
pub(crate) fn unary(x: &mut Exporter<'_>) -> R {
    if x.op_name() == "pd_op.abs" && complex_arith::reads_complex(x) {
        return complex_arith::abs(x);
    }
    let base = base_name(x).to_string();
    let onnx = UNARY
        .iter()
        .find(|(p, _)| *p == base.as_str())
        .map(|(_, o)| *o)
        .ok_or_else(|| x.unsupported("no unary mapping"))?;
    let a = x.input(0)?;
    let is_bool = x.in_dtype(0)? == DType::Bool;
    let onnx = match onnx {
        "BitwiseNot" if is_bool => "Not",
        o => o,
    };
    if onnx == "BitwiseNot" && x.opset < 18 {
        return Err(x.unsupported("integer bitwise ops need opset 18"));
    }
    let out = out_inplace(x);
    x.node(onnx, &[&a], &[&out], vec![]);
    Ok(())
}

/// Both inputs of a binary op in the dtype of `to`, when they differ.
fn aligned_inputs(x: &mut Exporter<'_>, to: DType) -> Result<(String, String), ExportError> {
    let mut names = Vec::new();
    for i in 0..2 {
        let n = x.input(i)?;
        let d = x.in_dtype(i)?;
        names.push(if d == to { n } else { x.cast(&n, to)? });
    }
    let b = names.pop().unwrap_or_default();
    let a = names.pop().unwrap_or_default();
    Ok((a, b))
}

/// Two-input ops of [`BINARY`] (broadcasting as NumPy, as Paddle 3 does).
pub(crate) fn binary(x: &mut Exporter<'_>) -> R {
    if complex_arith::BINARY.contains(&x.op_name()) && complex_arith::reads_complex(x) {
        return complex_arith::binary(x);
    }
    let base = base_name(x).to_string();
    let onnx = BINARY
        .iter()
        .find(|(p, _)| *p == base.as_str())
        .map(|(_, o)| *o)
        .ok_or_else(|| x.unsupported("no binary mapping"))?;
    let d0 = x.in_dtype(0)?;
    let compare = matches!(
        onnx,
        "Equal" | "Less" | "LessOrEqual" | "Greater" | "GreaterOrEqual"
    );
    let work = if compare { d0 } else { x.out_dtype(0)? };
    let (a, b) = aligned_inputs(x, work)?;
    let onnx = match onnx {
        "BitwiseAnd" if work == DType::Bool => "And",
        "BitwiseOr" if work == DType::Bool => "Or",
        "BitwiseXor" if work == DType::Bool => "Xor",
        o => o,
    };
    if onnx.starts_with("Bitwise") && x.opset < 18 {
        return Err(x.unsupported("integer bitwise ops need opset 18"));
    }
    let out = out_inplace(x);
    if work == DType::Bool && matches!(onnx, "Add" | "Max") {
        x.node("Or", &[&a, &b], &[&out], vec![]);
    } else if work == DType::Bool && matches!(onnx, "Mul" | "Min") {
        x.node("And", &[&a, &b], &[&out], vec![]);
    } else {
        x.node(onnx, &[&a, &b], &[&out], vec![]);
    }
    Ok(())
}

/// `not_equal`.
pub(crate) fn not_equal(x: &mut Exporter<'_>) -> R {
    let d0 = x.in_dtype(0)?;
    let (a, b) = aligned_inputs(x, d0)?;
    let eq = x.node1("Equal", &[&a, &b], vec![]);
    let out = x.out(0);
    x.node("Not", &[&eq], &[&out], vec![]);
    Ok(())
}

/// `logical_and/or/xor/not`: inputs as bools.
pub(crate) fn logical(x: &mut Exporter<'_>) -> R {
    let base = base_name(x).to_string();
    let mut ins = Vec::new();
    for i in 0..x.num_operands() {
        let n = x.input(i)?;
        ins.push(if x.in_dtype(i)? == DType::Bool {
            n
        } else {
            x.cast(&n, DType::Bool)?
        });
    }
    let onnx = match base.as_str() {
        "logical_and" => "And",
        "logical_or" => "Or",
        "logical_xor" => "Xor",
        _ => "Not",
    };
    let refs: Vec<&str> = ins.iter().map(String::as_str).collect();
    let r = x.node1(onnx, &refs, vec![]);
    let out_d = x.out_dtype(0)?;
    let out = out_inplace(x);
    let r = if out_d == DType::Bool {
        r
    } else {
        x.cast(&r, out_d)?
    };
    x.node("Identity", &[&r], &[&out], vec![]);
    Ok(())
}

/// A scalar constant of the dtype of operand 0.
fn scalar_like(x: &mut Exporter<'_>, value: f64) -> Result<String, ExportError> {
    let d = x.in_dtype(0)?;
    x.const_scalar(d, value)
}

/// Activations and math functions written as a few ONNX ops.
pub(crate) fn composite(x: &mut Exporter<'_>) -> R {
    let base = base_name(x).to_string();
    let base = base.as_str();
    let a = x.input(0)?;
    let attrs = x.attrs();
    let r = match base {
        "leaky_relu" => {
            let alpha = attrs.f64_or("negative_slope", 0.02)?;
            x.node1("LeakyRelu", &[&a], vec![a_float("alpha", alpha)])
        }
        "elu" => {
            let alpha = attrs.f64_or("alpha", 1.0)?;
            x.node1("Elu", &[&a], vec![a_float("alpha", alpha)])
        }
        "celu" => {
            let alpha = attrs.f64_or("alpha", 1.0)?;
            x.node1("Celu", &[&a], vec![a_float("alpha", alpha)])
        }
        "selu" => {
            let scale = attrs.f64_or("scale", 1.0507009873554805)?;
            let alpha = attrs.f64_or("alpha", 1.6732632423543772)?;
            x.node1(
                "Selu",
                &[&a],
                vec![a_float("alpha", alpha), a_float("gamma", scale)],
            )
        }
        "hardsigmoid" => {
            let slope = attrs.f64_or("slope", 0.1666667)?;
            let offset = attrs.f64_or("offset", 0.5)?;
            x.node1(
                "HardSigmoid",
                &[&a],
                vec![a_float("alpha", slope), a_float("beta", offset)],
            )
        }
        "hardswish" if x.opset >= 14 => x.node1("HardSwish", &[&a], vec![]),
        "hardswish" => {
            let h = x.node1(
                "HardSigmoid",
                &[&a],
                vec![a_float("alpha", 1.0 / 6.0), a_float("beta", 0.5)],
            );
            x.node1("Mul", &[&a, &h], vec![])
        }
        "relu6" => {
            let lo = scalar_like(x, 0.0)?;
            let hi = scalar_like(x, 6.0)?;
            x.node1("Clip", &[&a, &lo, &hi], vec![])
        }
        "hardtanh" => {
            let lo = attrs.f64_or("t_min", -1.0)?;
            let hi = attrs.f64_or("t_max", 1.0)?;
            let lo = scalar_like(x, lo)?;
            let hi = scalar_like(x, hi)?;
            x.node1("Clip", &[&a, &lo, &hi], vec![])
        }
        "swish" | "silu" => {
            let s = x.node1("Sigmoid", &[&a], vec![]);
            x.node1("Mul", &[&a, &s], vec![])
        }
        "mish" => {
            let sp = x.node1("Softplus", &[&a], vec![]);
            let t = x.node1("Tanh", &[&sp], vec![]);
            x.node1("Mul", &[&a, &t], vec![])
        }
        "softplus" => {
            let beta = attrs.f64_or("beta", 1.0)?;
            let threshold = attrs.f64_or("threshold", 20.0)?;
            let b = scalar_like(x, beta)?;
            let bx = x.node1("Mul", &[&a, &b], vec![]);
            let sp = x.node1("Softplus", &[&bx], vec![]);
            let sp = x.node1("Div", &[&sp, &b], vec![]);
            let t = scalar_like(x, threshold)?;
            let over = x.node1("Greater", &[&bx, &t], vec![]);
            x.node1("Where", &[&over, &a, &sp], vec![])
        }
        "logsigmoid" => {
            let n = x.node1("Neg", &[&a], vec![]);
            let sp = x.node1("Softplus", &[&n], vec![]);
            x.node1("Neg", &[&sp], vec![])
        }
        "softshrink" => {
            let l = attrs.f64_or("threshold", 0.5)?;
            x.node1(
                "Shrink",
                &[&a],
                vec![a_float("lambd", l), a_float("bias", l)],
            )
        }
        "hardshrink" => {
            let l = attrs.f64_or("threshold", 0.5)?;
            x.node1("Shrink", &[&a], vec![a_float("lambd", l)])
        }
        "tanh_shrink" => {
            let t = x.node1("Tanh", &[&a], vec![]);
            x.node1("Sub", &[&a, &t], vec![])
        }
        "thresholded_relu" => {
            let t = attrs.f64_or("threshold", 1.0)?;
            x.node1("ThresholdedRelu", &[&a], vec![a_float("alpha", t)])
        }
        "logit" => {
            let eps = attrs.f64_or("eps", 0.0)?;
            let a = if eps > 0.0 {
                let lo = scalar_like(x, eps)?;
                let hi = scalar_like(x, 1.0 - eps)?;
                x.node1("Clip", &[&a, &lo, &hi], vec![])
            } else {
                a
            };
            let one = scalar_like(x, 1.0)?;
            let d = x.node1("Sub", &[&one, &a], vec![]);
            let q = x.node1("Div", &[&a, &d], vec![]);
            x.node1("Log", &[&q], vec![])
        }
        "gelu" => {
            let approximate = attrs.bool_or("approximate", false)?;
            if x.opset >= 20 {
                let mode = if approximate { "tanh" } else { "none" };
                x.node1(
                    "Gelu",
                    &[&a],
                    vec![crate::export::a_str("approximate", mode)],
                )
            } else if approximate {
                // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), in the
                // node order onnxruntime fuses into one `FastGelu` (`Pow`
                // for the cube; `Mul` by the constant, `Add` of x, ...):
                // unfused it is eight element-wise passes over the tensor.
                let c = scalar_like(x, 0.044715)?;
                let k = scalar_like(x, (2.0 / std::f64::consts::PI).sqrt())?;
                let half = scalar_like(x, 0.5)?;
                let one = scalar_like(x, 1.0)?;
                let three = scalar_like(x, 3.0)?;
                let x3 = x.node1("Pow", &[&a, &three], vec![]);
                let cx3 = x.node1("Mul", &[&x3, &c], vec![]);
                let s = x.node1("Add", &[&a, &cx3], vec![]);
                let ks = x.node1("Mul", &[&s, &k], vec![]);
                let t = x.node1("Tanh", &[&ks], vec![]);
                let t1 = x.node1("Add", &[&t, &one], vec![]);
                let h = x.node1("Mul", &[&a, &half], vec![]);
                x.node1("Mul", &[&h, &t1], vec![])
            } else {
                let r2 = scalar_like(x, std::f64::consts::SQRT_2)?;
                let half = scalar_like(x, 0.5)?;
                let one = scalar_like(x, 1.0)?;
                let d = x.node1("Div", &[&a, &r2], vec![]);
                let e = x.node1("Erf", &[&d], vec![]);
                let e1 = x.node1("Add", &[&e, &one], vec![]);
                let h = x.node1("Mul", &[&a, &half], vec![]);
                x.node1("Mul", &[&h, &e1], vec![])
            }
        }
        "square" => x.node1("Mul", &[&a, &a], vec![]),
        "rsqrt" => {
            let s = x.node1("Sqrt", &[&a], vec![]);
            x.node1("Reciprocal", &[&s], vec![])
        }
        "log1p" => {
            let one = scalar_like(x, 1.0)?;
            let s = x.node1("Add", &[&a, &one], vec![]);
            x.node1("Log", &[&s], vec![])
        }
        "expm1" => {
            let one = scalar_like(x, 1.0)?;
            let e = x.node1("Exp", &[&a], vec![]);
            x.node1("Sub", &[&e, &one], vec![])
        }
        "log2" | "log10" => {
            let base = if base == "log2" { 2f64 } else { 10f64 };
            let k = scalar_like(x, base.ln())?;
            let l = x.node1("Log", &[&a], vec![]);
            x.node1("Div", &[&l, &k], vec![])
        }
        "isfinite" => {
            let n = x.node1("IsNaN", &[&a], vec![]);
            let i = x.node1("IsInf", &[&a], vec![]);
            let o = x.node1("Or", &[&n, &i], vec![]);
            x.node1("Not", &[&o], vec![])
        }
        "trunc" => {
            let s = x.node1("Sign", &[&a], vec![]);
            let m = x.node1("Abs", &[&a], vec![]);
            let f = x.node1("Floor", &[&m], vec![]);
            x.node1("Mul", &[&s, &f], vec![])
        }
        "round" => {
            // Paddle rounds half away from zero; ONNX's Round to even.
            let decimals = attrs.i64_or("decimals", 0)?;
            let scale = 10f64.powi(decimals as i32);
            let k = scalar_like(x, scale)?;
            let a = if decimals != 0 {
                x.node1("Mul", &[&a, &k], vec![])
            } else {
                a
            };
            let half = scalar_like(x, 0.5)?;
            let s = x.node1("Sign", &[&a], vec![]);
            let m = x.node1("Abs", &[&a], vec![]);
            let m = x.node1("Add", &[&m, &half], vec![]);
            let f = x.node1("Floor", &[&m], vec![]);
            let r = x.node1("Mul", &[&s, &f], vec![]);
            if decimals != 0 {
                x.node1("Div", &[&r, &k], vec![])
            } else {
                r
            }
        }
        "pow" => {
            let y = attrs.f64_or("y", 1.0)?;
            let y = scalar_like(x, y)?;
            x.node1("Pow", &[&a, &y], vec![])
        }
        "stanh" => {
            let sa = attrs.f64_or("scale_a", 0.67)?;
            let sb = attrs.f64_or("scale_b", 1.7159)?;
            let ka = scalar_like(x, sa)?;
            let kb = scalar_like(x, sb)?;
            let m = x.node1("Mul", &[&a, &ka], vec![]);
            let t = x.node1("Tanh", &[&m], vec![]);
            x.node1("Mul", &[&t, &kb], vec![])
        }
        _ => return Err(x.unsupported("no composite mapping")),
    };
    let out = out_inplace(x);
    x.node("Identity", &[&r], &[&out], vec![]);
    Ok(())
}

/// `scale(x, s, bias, bias_after_scale)`.
pub(crate) fn scale(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let attrs = x.attrs();
    let bias = attrs.f64_or("bias", 0.0)?;
    let after = attrs.bool_or("bias_after_scale", true)?;
    // A factor of 1 or a bias of 0 known at export adds no node (a step
    // counter in a decoding loop is such a scale); with one of them absent
    // the order of the two does not matter.
    let known_scale = match x.known(1).filter(|k| k.values.len() == 1) {
        Some(k) => Some(k.values[0]),
        None if x.has_input(1) => None,
        None => Some(attrs.f64_or("scale", 1.0)?),
    };
    let (scales, biases) = (known_scale != Some(1.0), bias != 0.0);
    let s = if scales {
        Some(scale_factor(x, known_scale, d)?)
    } else {
        None
    };
    let b = if biases {
        Some(x.const_scalar(d, bias)?)
    } else {
        None
    };
    let r = match (s, b) {
        (Some(s), Some(b)) if !after => {
            let p = x.node1("Add", &[&a, &b], vec![]);
            x.node1("Mul", &[&p, &s], vec![])
        }
        (s, b) => {
            let mut r = a;
            if let Some(s) = s {
                r = x.node1("Mul", &[&r, &s], vec![]);
            }
            if let Some(b) = b {
                r = x.node1("Add", &[&r, &b], vec![]);
            }
            r
        }
    };
    let out = out_inplace(x);
    x.node("Identity", &[&r], &[&out], vec![]);
    Ok(())
}

/// The factor of a `scale`: the value known at export, else operand 1 as
/// a 0-d tensor of dtype `d`.
fn scale_factor(x: &mut Exporter<'_>, known: Option<f64>, d: DType) -> Result<String, ExportError> {
    if let Some(v) = known {
        return x.const_scalar(d, v);
    }
    let s = x.input(1)?;
    let sd = x.in_dtype(1)?;
    let s = if sd == d { s } else { x.cast(&s, d)? };
    Ok(x.reshape(&s, &[]))
}

/// `clip(x, min, max)`: bounds as 0-d tensors of x's dtype.
pub(crate) fn clip(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let d = x.in_dtype(0)?;
    let mut bounds = Vec::new();
    for (i, attr) in [(1, "min"), (2, "max")] {
        let b = match x.known(i).filter(|k| k.values.len() == 1) {
            Some(k) => {
                let v = k.values[0];
                x.const_scalar(d, v)?
            }
            None if x.has_input(i) => {
                let n = x.input(i)?;
                let nd = x.in_dtype(i)?;
                let n = if nd == d { n } else { x.cast(&n, d)? };
                x.reshape(&n, &[])
            }
            None => {
                let v = x.attrs().f64(attr)?;
                x.const_scalar(d, v)?
            }
        };
        bounds.push(b);
    }
    let out = out_inplace(x);
    x.node("Clip", &[&a, &bounds[0], &bounds[1]], &[&out], vec![]);
    Ok(())
}

/// `cast(x, dtype)`.
pub(crate) fn cast(x: &mut Exporter<'_>) -> R {
    if complex_arith::casts_complex(x) {
        return complex_arith::cast(x);
    }
    let a = x.input(0)?;
    let to = x.out_dtype(0)?;
    let to = x.onnx_type(to)?;
    let out = out_inplace(x);
    x.node("Cast", &[&a], &[&out], vec![a_int("to", to as i64)]);
    Ok(())
}

/// `floor_divide` and `remainder`, with Python's signs.
pub(crate) fn int_div(x: &mut Exporter<'_>) -> R {
    let base = base_name(x).to_string();
    let base = base.as_str();
    let d = x.out_dtype(0)?;
    let (a, b) = aligned_inputs(x, d)?;
    let is_float = matches!(
        d,
        DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16
    );
    let r = match (base, is_float) {
        ("remainder", false) => x.node1("Mod", &[&a, &b], vec![a_int("fmod", 0)]),
        ("remainder", true) => {
            let q = x.node1("Div", &[&a, &b], vec![]);
            let f = x.node1("Floor", &[&q], vec![]);
            let m = x.node1("Mul", &[&f, &b], vec![]);
            x.node1("Sub", &[&a, &m], vec![])
        }
        (_, true) => {
            let q = x.node1("Div", &[&a, &b], vec![]);
            x.node1("Floor", &[&q], vec![])
        }
        (_, false) => {
            let af = x.cast(&a, DType::Float64)?;
            let bf = x.cast(&b, DType::Float64)?;
            let q = x.node1("Div", &[&af, &bf], vec![]);
            let f = x.node1("Floor", &[&q], vec![]);
            x.cast(&f, d)?
        }
    };
    let out = out_inplace(x);
    x.node("Identity", &[&r], &[&out], vec![]);
    Ok(())
}

/// `where(cond, x, y)`.
pub(crate) fn where_(x: &mut Exporter<'_>) -> R {
    let c = x.input(0)?;
    let c = if x.in_dtype(0)? == DType::Bool {
        c
    } else {
        x.cast(&c, DType::Bool)?
    };
    let a = x.input(1)?;
    let b = x.input(2)?;
    let out = out_inplace(x);
    x.node("Where", &[&c, &a, &b], &[&out], vec![]);
    Ok(())
}

/// `softmax` / `log_softmax` over `axis`.
pub(crate) fn softmax(x: &mut Exporter<'_>) -> R {
    let onnx = if base_name(x) == "log_softmax" {
        "LogSoftmax"
    } else {
        "Softmax"
    };
    let a = x.input(0)?;
    let axis = x.attrs().i64_or("axis", -1)?;
    let out = out_inplace(x);
    if x.in_rank(0)? == 0 {
        // Softmax over a 0-d tensor is 1 (0 for log_softmax).
        let r = x.unsqueeze(&a, &[0]);
        let s = x.node1(onnx, &[&r], vec![a_int("axis", 0)]);
        let s = x.squeeze(&s, &[0]);
        x.node("Identity", &[&s], &[&out], vec![]);
        return Ok(());
    }
    x.node(onnx, &[&a], &[&out], vec![a_int("axis", axis)]);
    Ok(())
}

/// `prelu(x, alpha, data_format, mode)`.
pub(crate) fn prelu(x: &mut Exporter<'_>) -> R {
    let a = x.input(0)?;
    let alpha = x.input(1)?;
    let rank = x.in_rank(0)?;
    let attrs = x.attrs();
    let mode = attrs.str_or("mode", "all")?;
    let format = attrs.str_or("data_format", "NCHW")?;
    let alpha_n = x.in_dims(1)?.iter().product::<i64>().max(1);
    let slope = match mode.as_str() {
        "channel" if format == "NCHW" || format == "NCDHW" || format == "NCL" => {
            let mut shape = vec![1i64; rank.max(1) as usize];
            if rank >= 2 {
                shape[1] = alpha_n;
            }
            let shape = if rank >= 1 {
                shape[1..].to_vec()
            } else {
                shape
            };
            x.reshape(&alpha, &shape)
        }
        "channel" => x.reshape(&alpha, &[alpha_n]),
        "element" => {
            let dims = x.in_dims(0)?;
            let shape: Vec<i64> = dims[1..].iter().map(|&d| d.max(0)).collect();
            if shape.contains(&0) {
                return Err(x.unsupported("element mode with unknown dims"));
            }
            x.reshape(&alpha, &shape)
        }
        _ => x.reshape(&alpha, &[]),
    };
    let out = x.out(0);
    x.node("PRelu", &[&a, &slope], &[&out], vec![]);
    Ok(())
}
