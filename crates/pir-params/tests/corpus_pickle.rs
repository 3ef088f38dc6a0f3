//! The corpus `.pdparams`/`.pdopt` pickles: read, checked against the meta,
//! and re-written byte for byte.
#![allow(clippy::unwrap_used)]

mod common;

use pir_params::pickle::{self, PickleValue, WriteOptions};
use pir_params::{convert, DType};

#[test]
fn pdparams_matches_meta_and_rewrites_identically() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let path = corpus.join("train_mlp_adam.pdparams");
    let bytes = std::fs::read(&path).unwrap();
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.join("train_mlp_adam.meta.json")).unwrap())
            .unwrap();
    assert_eq!(
        bytes.len() as u64,
        meta["files_extra"]["pdparams"].as_u64().unwrap()
    );
    let state = pickle::load_state_dict(&bytes).unwrap();
    let params = meta["params"].as_array().unwrap();
    assert_eq!(state.tensors.len(), params.len());
    // paddle.static.save keeps the program order
    for ((name, t), p) in state.tensors.iter().zip(params) {
        assert_eq!(name, p["name"].as_str().unwrap());
        let shape: Vec<i64> = p["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_i64().unwrap())
            .collect();
        assert_eq!(t.dims(), shape.as_slice());
        assert_eq!(t.dtype().paddle_name(), p["dtype"].as_str().unwrap());
        assert!(t.sum_f64().is_finite());
    }
    assert!(state.structured_names.is_empty() && state.other.is_empty());
    let mut out = Vec::new();
    pickle::write_state_dict_to(&mut out, &state.tensors, &WriteOptions::default()).unwrap();
    assert_eq!(out, bytes);
    // the generic value path gives the same bytes
    let value = pickle::read_pickle(&bytes).unwrap();
    let mut out2 = Vec::new();
    pickle::write_pickle_to(&mut out2, &value, &WriteOptions::default()).unwrap();
    assert_eq!(out2, bytes);
    // mapped: protocol-4 arrays borrow from the file
    let mapped = pickle::load_state_dict_file(&path).unwrap();
    assert!(mapped.tensors.iter().all(|(_, t)| t.is_mapped()));
    assert_eq!(mapped, state);
}

#[test]
fn pdopt_rewrites_identically() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let bytes = std::fs::read(corpus.join("train_mlp_adam.pdopt")).unwrap();
    let state = pickle::load_state_dict(&bytes).unwrap();
    assert_eq!(state.tensors.len(), 17);
    let lr = state.get("learning_rate_0").unwrap();
    assert_eq!(lr.dims(), &[] as &[i64]);
    assert_eq!(lr.dtype(), DType::Float32);
    let beta1 = state.get("linear_0.w_0_beta1_pow_acc_0").unwrap();
    assert_eq!(beta1.dims(), &[1]);
    let mut out = Vec::new();
    pickle::write_state_dict_to(&mut out, &state.tensors, &WriteOptions::default()).unwrap();
    assert_eq!(out, bytes);
}

#[test]
fn pdparams_to_pdiparams_and_back() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let bytes = std::fs::read(corpus.join("train_mlp_adam.pdparams")).unwrap();
    let state = pickle::load_state_dict(&bytes).unwrap();
    let specs: Vec<_> = state
        .tensors
        .iter()
        .map(|(n, t)| {
            convert::ParamSpec::new(n.clone())
                .with_dtype(t.dtype())
                .with_dims(t.dims().to_vec())
        })
        .collect();
    let combined = convert::state_dict_to_combined(&state, &specs).unwrap();
    assert_eq!(combined[0].0, "linear_0.b_0"); // sorted
    let mut file = Vec::new();
    pir_params::combined::write_combined_to(&mut file, &combined).unwrap();
    let names: Vec<String> = combined.iter().map(|p| p.0.clone()).collect();
    let back = pir_params::combined::read_combined(&file, &names).unwrap();
    let order: Vec<String> = state.tensors.iter().map(|p| p.0.clone()).collect();
    let state2 = convert::combined_to_state_dict(back, Some(&order)).unwrap();
    let mut out = Vec::new();
    state2.write_to(&mut out, &WriteOptions::default()).unwrap();
    assert_eq!(out, bytes);
}

#[test]
fn corpus_uses_the_numpy_2_module_name() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let bytes = std::fs::read(corpus.join("train_mlp_adam.pdparams")).unwrap();
    let find = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    assert!(find(b"numpy._core.multiarray"));
    assert!(!find(b"numpy.core.multiarray"));
    let value = pickle::read_pickle(&bytes).unwrap();
    assert!(matches!(value, PickleValue::Dict(ref d) if d.len() == 4));
}
