//! Every `.pdiparams` of the Paddle corpus: read (named or blind), checked
//! against its `meta.json`, and re-written byte for byte.
#![allow(clippy::unwrap_used)]

mod common;

use pir_params::{combined, map_file, DType, Tensor};
use sha2::{Digest, Sha256};

fn sha_hex(b: &[u8]) -> String {
    Sha256::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

fn rewrite(params: &[(String, Tensor)]) -> Vec<u8> {
    let mut out = Vec::new();
    combined::write_combined_to(&mut out, params).unwrap();
    out
}

#[test]
fn every_corpus_pdiparams_reads_matches_meta_and_rewrites_identically() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let models = common::models_with_params(&corpus);
    assert!(
        models.len() >= 20,
        "found only {} models with parameters",
        models.len()
    );
    let mut named = 0;
    for m in &models {
        let bytes = std::fs::read(&m.pdiparams).unwrap();
        assert_eq!(
            sha_hex(&bytes),
            m.sha256(),
            "{}: file differs from its meta",
            m.name
        );
        let map = map_file(&m.pdiparams).unwrap();
        let blind = combined::read_combined_blind_mapped(&map).unwrap();
        assert!(blind.iter().all(Tensor::is_mapped));
        // counts and sizes recorded in the meta; parameters named
        // `*_non_persistable` (the LSTM dropout state) are not saved
        let skipped: Vec<(String, Vec<i64>, String)> = m
            .params()
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.0.ends_with("_non_persistable"))
            .collect();
        let skipped_elems: u64 = skipped
            .iter()
            .map(|p| p.1.iter().product::<i64>() as u64)
            .sum();
        let skipped_bytes: u64 = skipped
            .iter()
            .map(|p| {
                p.1.iter().product::<i64>() as u64
                    * DType::from_paddle_name(&p.2).unwrap().size() as u64
            })
            .sum();
        assert_eq!(
            blind.len() as u64,
            m.num("num_params") - skipped.len() as u64,
            "{}",
            m.name
        );
        let elements: u64 = blind.iter().map(Tensor::numel).sum();
        assert_eq!(
            elements,
            m.num("param_elements") - skipped_elems,
            "{}",
            m.name
        );
        let nbytes: usize = blind.iter().map(Tensor::byte_len).sum();
        assert_eq!(
            nbytes as u64,
            m.num("param_bytes") - skipped_bytes,
            "{}",
            m.name
        );
        for t in &blind {
            let s = t.sum_f64();
            assert!(s.is_finite(), "{}: sum {s}", m.name);
        }
        let params = match m.params() {
            Some(mut list) => {
                list.retain(|p| !p.0.ends_with("_non_persistable"));
                named += 1;
                let names = combined::paddle_sorted(list.iter().map(|p| p.0.as_str()));
                let params = combined::read_combined_mapped(&map, &names).unwrap();
                for (name, shape, dtype) in &list {
                    let t = &params.iter().find(|p| &p.0 == name).unwrap().1;
                    assert_eq!(t.dims(), shape.as_slice(), "{}: {name}", m.name);
                    assert_eq!(
                        t.dtype(),
                        DType::from_paddle_name(dtype).unwrap(),
                        "{}: {name}",
                        m.name
                    );
                }
                // wrong name lists are caught
                assert!(combined::read_combined_mapped(&map, &names[1..]).is_err());
                let mut more = names.clone();
                more.push("zzz".into());
                assert!(combined::read_combined_mapped(&map, &more).is_err());
                params
            }
            None => blind
                .into_iter()
                .enumerate()
                .map(|(i, t)| (format!("p{i:05}"), t))
                .collect(),
        };
        assert_eq!(
            rewrite(&params),
            bytes,
            "{}: re-written bytes differ",
            m.name
        );
    }
    assert!(named >= 15);
    println!(
        "checked {} parameter files ({named} with names)",
        models.len()
    );
}

#[test]
fn copy_and_mapped_readers_agree() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    for m in common::models_with_params(&corpus) {
        let bytes = std::fs::read(&m.pdiparams).unwrap();
        let copied = combined::read_combined_blind(&bytes).unwrap();
        let mapped = combined::load_combined_blind(&m.pdiparams).unwrap();
        assert_eq!(copied, mapped, "{}", m.name);
        assert!(copied.iter().all(|t| !t.is_mapped()));
        for (a, b) in copied.iter().zip(&mapped) {
            assert_eq!(a.sha256_hex(), b.sha256_hex());
            assert_eq!(a.sum_f64().to_bits(), b.sum_f64().to_bits());
        }
    }
}

#[test]
fn mlp_tiny_values() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let names = combined::paddle_sorted([
        "linear_1.b_0",
        "linear_1.w_0",
        "linear_0.b_0",
        "linear_0.w_0",
    ]);
    let params = combined::load_combined(&corpus.join("mlp_tiny.pdiparams"), &names).unwrap();
    let w = &params[1].1;
    assert_eq!(params[1].0, "linear_0.w_0");
    assert_eq!(w.dims(), &[8, 16]);
    let v = w.to_vec::<f32>().unwrap();
    assert_eq!(v.len(), 128);
    assert!((v.iter().map(|&x| f64::from(x)).sum::<f64>() - w.sum_f64()).abs() < 1e-9);
    // biases of a freshly initialised Linear are zero
    assert_eq!(params[0].1.sum_f64(), 0.0);
}
