//! Unit tests: broadcasting, reshape rules, errors; and the helpers the
//! modules' tests build ops with.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::binary::broadcast_shape;
use crate::shape::reshape_dims;
use pir_core::builtin::{
    ArrayAttr, BoolAttr, DenseTensorType, F32Attr, I32Attr, I64Attr, ScalarType, StrAttr,
    VectorType,
};
use pir_core::{Attribute, Builder, IrContext};

/// An attribute for [`run`].
pub(crate) enum A {
    F32(f32),
    I32(i32),
    I64s(Vec<i64>),
    I32s(Vec<i32>),
    Bool(bool),
    Str(&'static str),
}

fn attribute(ctx: &IrContext, a: &A) -> Attribute {
    match a {
        A::F32(v) => F32Attr::get(ctx, *v),
        A::I32(v) => ctx.intern_attr(I32Attr(*v)),
        A::Bool(v) => ctx.intern_attr(BoolAttr(*v)),
        A::Str(v) => StrAttr::get(ctx, v),
        A::I64s(v) => ctx.intern_attr(ArrayAttr(
            v.iter().map(|&i| ctx.intern_attr(I64Attr(i))).collect(),
        )),
        A::I32s(v) => ctx.intern_attr(ArrayAttr(
            v.iter().map(|&i| ctx.intern_attr(I32Attr(i))).collect(),
        )),
    }
}

/// A 1-operand-per-tensor op named `name` on `inputs` (the operand at
/// `vector`, if any, is a vector of that many tensors), evaluated.
pub(crate) fn run_with(
    name: &str,
    inputs: &[EvalTensor],
    vector: Option<(usize, usize)>,
    attrs: &[(&str, A)],
) -> Result<Vec<EvalTensor>, EvalError> {
    let ctx = pir_dialects::pd_op_context();
    let mut p = Program::new(ctx.clone());
    let block = p.top_block();
    let mut b = Builder::at_end(&mut p, block);
    let f32t = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::F32), &[1]);
    let mut vals = Vec::new();
    for _ in inputs {
        let d = b.op("pd_op.data", &[], &[f32t], &[]);
        vals.push(b.program().result(d, 0));
    }
    if let Some((at, n)) = vector {
        let vt = VectorType::get(&ctx, &vec![f32t; n]);
        let comb = b.op("builtin.combine", &vals[at..at + n], &[vt], &[]);
        let v = b.program().result(comb, 0);
        vals.splice(at..at + n, [v]);
    }
    let attrs: Vec<(&str, Attribute)> = attrs
        .iter()
        .map(|(n, a)| (*n, attribute(&ctx, a)))
        .collect();
    let op = b.op(name, &vals, &[f32t], &attrs);
    evaluate(&p, op, inputs)
}

/// [`run_with`] without vector operands.
pub(crate) fn run(
    name: &str,
    inputs: &[EvalTensor],
    attrs: &[(&str, A)],
) -> Result<Vec<EvalTensor>, EvalError> {
    run_with(name, inputs, None, attrs)
}

/// A float32 tensor.
pub(crate) fn f32s(dims: &[usize], v: &[f64]) -> EvalTensor {
    EvalTensor::from_f64s(DType::Float32, dims, v).unwrap()
}

/// An int64 tensor.
pub(crate) fn i64s(dims: &[usize], v: &[i64]) -> EvalTensor {
    EvalTensor::from_i64s(DType::Int64, dims, v).unwrap()
}

#[test]
fn op_lists_are_disjoint_and_dispatched() {
    let mut seen = std::collections::HashSet::new();
    for op in SUPPORTED_OPS {
        assert!(seen.insert(op), "{op} listed twice");
        assert!(is_supported(op));
        // With no inputs every kernel fails, but not as an unknown op.
        let e = run(op, &[], &[]);
        assert!(
            !matches!(e, Err(EvalError::UnsupportedOp(ref o)) if o == op),
            "{op} is listed but not dispatched"
        );
    }
}

#[test]
fn results_are_bounded() {
    let big = i64s(&[3], &[1 << 20, 1 << 20, 4]);
    let x = f32s(&[1], &[1.0]);
    for (op, inputs) in [
        ("pd_op.expand", vec![x.clone(), big.clone()]),
        ("pd_op.tile", vec![x.clone(), big.clone()]),
        ("pd_op.full_with_tensor", vec![x.clone(), big]),
    ] {
        let e = run(op, &inputs, &[]);
        assert!(matches!(e, Err(EvalError::TooLarge { .. })), "{op}: {e:?}");
    }
    let a = f32s(&[1 << 15, 1], &vec![0.0; 1 << 15]);
    let b = f32s(&[1 << 14], &vec![0.0; 1 << 14]);
    assert!(matches!(
        run("pd_op.add", &[a, b], &[]),
        Err(EvalError::TooLarge { .. })
    ));
    let s = |v: f64| EvalTensor::from_f64s(DType::Float64, &[1], &[v]).unwrap();
    assert!(matches!(
        run("pd_op.arange", &[s(0.0), s(1e12), s(1.0)], &[]),
        Err(EvalError::TooLarge { .. })
    ));
}

#[test]
fn broadcasting_follows_numpy() {
    assert_eq!(broadcast_shape("t", &[2, 3], &[3]).unwrap(), vec![2, 3]);
    assert_eq!(
        broadcast_shape("t", &[4, 1, 3], &[2, 1]).unwrap(),
        vec![4, 2, 3]
    );
    assert_eq!(broadcast_shape("t", &[], &[2, 2]).unwrap(), vec![2, 2]);
    assert_eq!(broadcast_shape("t", &[0, 1], &[3]).unwrap(), vec![0, 3]);
    assert!(broadcast_shape("t", &[2, 3], &[2]).is_err());
}

#[test]
fn reshape_rules() {
    assert_eq!(
        reshape_dims("r", &[2, 3, 4], &[0, -1]).unwrap(),
        vec![2, 12]
    );
    assert_eq!(
        reshape_dims("r", &[2, 3, 4], &[4, 0, -1]).unwrap(),
        vec![4, 3, 2]
    );
    assert_eq!(reshape_dims("r", &[1], &[]).unwrap(), Vec::<usize>::new());
    assert!(reshape_dims("r", &[2, 3], &[-1, -1]).is_err());
    assert!(reshape_dims("r", &[2, 3], &[4, -1]).is_err());
    assert!(reshape_dims("r", &[2, 3], &[5]).is_err());
    assert!(reshape_dims("r", &[2], &[1, 0]).is_err());
    assert!(reshape_dims("r", &[2, 3], &[-2, 3]).is_err());
}

fn one_op(name: &str, n_inputs: usize) -> (Program, OpId) {
    let ctx = pir_dialects::pd_op_context();
    let mut p = Program::new(ctx.clone());
    let t = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::F32), &[2]);
    let block = p.top_block();
    let mut b = Builder::at_end(&mut p, block);
    let x = b.op("pd_op.data", &[], &[t], &[]);
    let xv = b.program().result(x, 0);
    let op = b.op(name, &vec![xv; n_inputs], &[t], &[]);
    (p, op)
}

#[test]
fn errors_name_the_op() {
    let (p, op) = one_op("pd_op.lgamma", 1);
    let x = EvalTensor::from_f64s(DType::Float32, &[2], &[1.0, 2.0]).unwrap();
    let e = evaluate(&p, op, std::slice::from_ref(&x)).unwrap_err();
    assert_eq!(e, EvalError::UnsupportedOp("pd_op.lgamma".into()));
    assert!(e.to_string().contains("pd_op.lgamma"));

    let (p, op) = one_op("pd_op.add", 2);
    let y = EvalTensor::from_f64s(DType::Float32, &[3], &[1.0, 2.0, 3.0]).unwrap();
    let e = evaluate(&p, op, &[x.clone(), y]).unwrap_err();
    assert!(matches!(e, EvalError::Shape { .. }), "{e}");
    let e = evaluate(&p, op, std::slice::from_ref(&x)).unwrap_err();
    assert!(matches!(
        e,
        EvalError::Arity {
            expected: 2,
            got: 1,
            ..
        }
    ));
    let h = EvalTensor::from_f64s(DType::Float16, &[2], &[1.0, 2.0]).unwrap();
    let e = evaluate(&p, op, &[h.clone(), h]).unwrap_err();
    assert!(matches!(e, EvalError::UnsupportedDType { .. }), "{e}");

    let (p, op) = one_op("pd_op.floor_divide", 2);
    let i = EvalTensor::from_i64s(DType::Int32, &[2], &[7, -7]).unwrap();
    let z = EvalTensor::from_i64s(DType::Int32, &[2], &[2, 0]).unwrap();
    let e = evaluate(&p, op, &[i.clone(), z]).unwrap_err();
    assert!(matches!(e, EvalError::DivisionByZero { .. }));
    let two = EvalTensor::from_i64s(DType::Int32, &[1], &[2]).unwrap();
    // Floor division, like phi's FloorDivideFunctor.
    assert_eq!(
        evaluate(&p, op, &[i, two]).unwrap()[0].to_i64_vec(),
        vec![3, -4]
    );

    let (p, op) = one_op("pd_op.reshape", 2);
    let s = EvalTensor::from_i64s(DType::Int64, &[1], &[3]).unwrap();
    assert!(matches!(
        evaluate(&p, op, &[x.clone(), s]),
        Err(EvalError::Shape { .. })
    ));
    let (p, op) = one_op("pd_op.matmul", 2);
    let m = EvalTensor::from_f64s(DType::Float32, &[3, 2], &[0.0; 6]).unwrap();
    assert!(matches!(
        evaluate(&p, op, &[m.clone(), m]),
        Err(EvalError::Shape { .. })
    ));
}

#[test]
fn tensor_round_trip() {
    let t = pir_params::Tensor::from_slice(DType::Int64, vec![2, 1], &[5i64, -6]).unwrap();
    let e = EvalTensor::from_tensor(&t).unwrap();
    assert_eq!(e.dims(), vec![2, 1]);
    assert_eq!(e.to_tensor().unwrap(), t);
    let b = pir_params::Tensor::new(DType::Bool, vec![3], vec![1, 0, 1]).unwrap();
    assert_eq!(EvalTensor::from_tensor(&b).unwrap().to_tensor().unwrap(), b);
    let u = pir_params::Tensor::zeros(DType::UInt8, vec![1]).unwrap();
    assert!(EvalTensor::from_tensor(&u).is_err());
}
