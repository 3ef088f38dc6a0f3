//! Number formatting checked against the C++ reference implementations.
//!
//! `testdata/nlohmann_doubles.txt` holds `json(v).dump()` of nlohmann::json 3.11 and
//! `testdata/cpp_ostream.txt` holds `std::ostream << v` of libstdc++/glibc, both produced by
//! `scripts/gen_vectors.cpp` (see `scripts/README.md`). Larger files made by the same program
//! can be checked by pointing `PIR_JSON_NLOHMANN_VECTORS` / `PIR_JSON_OSTREAM_VECTORS` at them.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

use pir_json::number::{write_f32_cpp_ostream, write_f64_cpp_ostream, write_f64_nlohmann};

fn testdata(name: &str) -> String {
    let path = format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => panic!("cannot read {path}: {e}"),
    }
}

/// Checks every `<hex> <expected>` line; returns (lines, mismatches), printing a few.
fn check_nlohmann(text: &str) -> (usize, usize) {
    let mut lines = 0;
    let mut mismatches = 0;
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let Some((hex, want)) = line.split_once(' ') else {
            panic!("malformed line {line:?}");
        };
        let Ok(bits) = u64::from_str_radix(hex, 16) else {
            panic!("malformed hex in {line:?}");
        };
        out.clear();
        write_f64_nlohmann(&mut out, f64::from_bits(bits));
        lines += 1;
        if out != want.as_bytes() {
            mismatches += 1;
            if mismatches <= 10 {
                eprintln!(
                    "mismatch for {hex}: got {}, want {want}",
                    String::from_utf8_lossy(&out)
                );
            }
        }
    }
    (lines, mismatches)
}

/// Checks every `d <hex16> <expected>` / `f <hex8> <expected>` line.
fn check_ostream(text: &str) -> (usize, usize) {
    let mut lines = 0;
    let mut mismatches = 0;
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let mut parts = line.splitn(3, ' ');
        let (Some(kind), Some(hex), Some(want)) = (parts.next(), parts.next(), parts.next()) else {
            panic!("malformed line {line:?}");
        };
        out.clear();
        match kind {
            "d" => match u64::from_str_radix(hex, 16) {
                Ok(bits) => write_f64_cpp_ostream(&mut out, f64::from_bits(bits)),
                Err(_) => panic!("malformed hex in {line:?}"),
            },
            "f" => match u32::from_str_radix(hex, 16) {
                Ok(bits) => write_f32_cpp_ostream(&mut out, f32::from_bits(bits)),
                Err(_) => panic!("malformed hex in {line:?}"),
            },
            _ => panic!("malformed line {line:?}"),
        }
        lines += 1;
        if out != want.as_bytes() {
            mismatches += 1;
            if mismatches <= 10 {
                eprintln!(
                    "mismatch for {kind} {hex}: got {}, want {want}",
                    String::from_utf8_lossy(&out)
                );
            }
        }
    }
    (lines, mismatches)
}

#[test]
fn every_committed_nlohmann_vector_matches() {
    let (lines, mismatches) = check_nlohmann(&testdata("nlohmann_doubles.txt"));
    assert!(lines >= 5000, "only {lines} vectors");
    assert_eq!(
        mismatches, 0,
        "{mismatches} of {lines} nlohmann vectors differ"
    );
}

#[test]
fn every_committed_cpp_ostream_vector_matches() {
    let (lines, mismatches) = check_ostream(&testdata("cpp_ostream.txt"));
    assert!(lines >= 4000, "only {lines} vectors");
    assert_eq!(
        mismatches, 0,
        "{mismatches} of {lines} ostream vectors differ"
    );
}

#[test]
fn the_committed_files_exercise_the_cases_that_matter() {
    let nl = testdata("nlohmann_doubles.txt");
    // Exponent form, fixed form with ".0", 0.000x form, subnormals, 17-digit outputs.
    assert!(nl
        .lines()
        .any(|l| l.ends_with("e-320") || l.contains("e-31")));
    assert!(nl.lines().any(|l| l.ends_with(".0")));
    assert!(nl
        .lines()
        .any(|l| l.contains(" 0.000") || l.contains(" -0.000")));
    let os = testdata("cpp_ostream.txt");
    assert!(os.lines().any(|l| l.starts_with("f ")));
    assert!(os
        .lines()
        .any(|l| l.ends_with("e-05") || l.contains(" 0.000")));
}

#[test]
fn large_vector_files_from_the_environment_match() {
    for (var, check) in [
        (
            "PIR_JSON_NLOHMANN_VECTORS",
            check_nlohmann as fn(&str) -> (usize, usize),
        ),
        ("PIR_JSON_OSTREAM_VECTORS", check_ostream),
    ] {
        let Ok(path) = std::env::var(var) else {
            eprintln!("{var} not set; skipping the large cross-check");
            continue;
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => panic!("cannot read {path}: {e}"),
        };
        let (lines, mismatches) = check(&text);
        eprintln!("{var}: {mismatches} mismatches in {lines} lines");
        assert_eq!(
            mismatches, 0,
            "{mismatches} of {lines} vectors in {path} differ"
        );
    }
}
