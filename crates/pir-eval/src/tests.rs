//! Unit tests: broadcasting, reshape rules, errors.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::binary::broadcast_shape;
use crate::shape::reshape_dims;
use pir_core::builtin::{DenseTensorType, ScalarType};
use pir_core::Builder;

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
