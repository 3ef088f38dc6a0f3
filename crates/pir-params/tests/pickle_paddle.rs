//! `paddle.save` outputs (tests/data/paddle_*.pdparams, written by Paddle 3.3.1
//! through scripts/make_test_pickles.py): protocols 2 and 4,
//! `StructuredToParameterName@@`, nested tensors, bfloat16 and split arrays.
#![allow(clippy::unwrap_used)]

use pir_params::pickle::{self, PickleValue, WriteOptions};
use pir_params::{convert, DType};

fn data(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn dygraph_state_dict_protocol_4_round_trips() {
    let bytes = data("paddle_linear_p4.pdparams");
    let state = pickle::load_state_dict(&bytes).unwrap();
    let names: Vec<&str> = state.tensors.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(names, ["weight", "bias"]);
    assert_eq!(state.get("weight").unwrap().dims(), &[2, 3]);
    assert_eq!(state.get("bias").unwrap().sum_f64(), 0.0);
    assert_eq!(state.parameter_name("weight"), Some("linear_0.w_0"));
    assert_eq!(state.parameter_name("bias"), Some("linear_0.b_0"));
    let mut out = Vec::new();
    state.write_to(&mut out, &WriteOptions::default()).unwrap();
    assert_eq!(out, bytes, "StateDict::write_to reproduces paddle.save");
    let mut out = Vec::new();
    pickle::write_pickle_to(
        &mut out,
        &pickle::read_pickle(&bytes).unwrap(),
        &WriteOptions::default(),
    )
    .unwrap();
    assert_eq!(out, bytes, "the generic writer reproduces paddle.save");
}

#[test]
fn protocol_2_equals_protocol_4() {
    let p2 = pickle::load_state_dict(&data("paddle_linear_p2.pdparams")).unwrap();
    let p4 = pickle::load_state_dict(&data("paddle_linear_p4.pdparams")).unwrap();
    assert_eq!(p2, p4);
    // protocol-2 bytes come from `_codecs.encode(..., 'latin1')`: owned, not mapped
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p2.pdparams");
    std::fs::write(&path, data("paddle_linear_p2.pdparams")).unwrap();
    let mapped = pickle::load_state_dict_file(&path).unwrap();
    assert!(mapped.tensors.iter().all(|(_, t)| !t.is_mapped()));
    assert_eq!(mapped, p4);
}

#[test]
fn nested_tensors_and_bfloat16() {
    let state = pickle::load_state_dict(&data("paddle_nested_p4.pdparams")).unwrap();
    // a top-level tensor pickled as builtins.tuple((name, ndarray))
    let bf = state.get("bf16").unwrap();
    assert_eq!(bf.dtype(), DType::UInt16);
    assert_eq!(bf.to_vec::<u16>().unwrap(), vec![16256, 49152, 16128]);
    let bf = bf.clone().reinterpret(DType::BFloat16).unwrap();
    assert_eq!(bf.sum_f64(), -0.5);
    let other: Vec<&str> = state.other.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(other, ["list", "n"]);
    let PickleValue::List(list) = &state.other[0].1 else {
        panic!()
    };
    let PickleValue::Tuple(t) = &list[0] else {
        panic!()
    };
    assert_eq!(t[0].as_str(), Some("generated_tensor_0"));
    let PickleValue::Array(a) = &t[1] else {
        panic!()
    };
    assert_eq!(a.to_tensor().unwrap().sum_f64(), 15.0);
    assert_eq!(list[1], PickleValue::Int(3));
    assert_eq!(state.other[1].1, PickleValue::Int(7));
}

#[test]
fn bfloat16_state_dict_to_combined() {
    let state = pickle::load_state_dict(&data("paddle_bf16_p4.pdparams")).unwrap();
    let specs = [convert::ParamSpec::new("bf16")
        .with_dtype(DType::BFloat16)
        .with_dims(vec![3])];
    let params = convert::state_dict_to_combined(&state, &specs).unwrap();
    assert_eq!(params[0].1.dtype(), DType::BFloat16);
    let mut file = Vec::new();
    pir_params::combined::write_combined_to(&mut file, &params).unwrap();
    assert_eq!(&file[16..26], &[4, 0, 0, 0, 0x08, 22, 0x10, 3, 0x80, 0x3f]);
    // and back: bf16 is written as <u2, as Paddle does
    let back = convert::combined_to_state_dict(params, None).unwrap();
    let mut out = Vec::new();
    back.write_to(&mut out, &WriteOptions::default()).unwrap();
    let again = pickle::load_state_dict(&out).unwrap();
    assert_eq!(again.get("bf16").unwrap().dtype(), DType::UInt16);
}

#[test]
fn split_big_arrays_are_reassembled() {
    let state = pickle::load_state_dict(&data("paddle_unpack_big_p2.pdparams")).unwrap();
    let names: Vec<&str> = state.tensors.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(names, ["b", "w"]);
    let w = state.get("w").unwrap();
    assert_eq!(w.dims(), &[2, 3]);
    assert_eq!(
        w.to_vec::<f32>().unwrap(),
        vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    );
    assert!(state.other.is_empty());
}
