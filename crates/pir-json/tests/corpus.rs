//! Real files written by Paddle: every `*.json` of the shared corpus parses, and every model
//! file written by nlohmann::json comes out byte-identical when the parsed document is written
//! again with [`Writer`] (objects in file order, integers as integers, floats through the
//! nlohmann formatter). The corpus lives next to the workspace (`../shared/paddle-corpus`);
//! when it is absent the tests print a note and pass.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

use std::path::{Path, PathBuf};

use pir_json::{parse, Value, Writer};

fn corpus_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/paddle-corpus"
    ));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "note: {} not found; skipping the corpus tests",
            dir.display()
        );
        None
    }
}

/// All `*.json` files of the corpus folder and its `compat/<release>/` folders, sorted.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Model files are written by nlohmann::json; `*.meta.json` and `index.json` are not.
fn written_by_nlohmann(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !name.ends_with(".meta.json") && name != "index.json"
}

fn read(path: &Path) -> Vec<u8> {
    match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => panic!("cannot read {}: {e}", path.display()),
    }
}

fn rewrite(root: Value<'_>, pretty: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut writer = if pretty {
        Writer::pretty(&mut out)
    } else {
        Writer::compact(&mut out)
    };
    writer.value(root);
    out
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let context = |s: &[u8]| {
        String::from_utf8_lossy(
            s.get(at.saturating_sub(40)..(at + 40).min(s.len()))
                .unwrap_or(&[]),
        )
        .into_owned()
    };
    format!(
        "first difference at byte {at}:\n  ours:     {}\n  original: {}",
        context(a),
        context(b)
    )
}

#[test]
fn every_corpus_json_file_parses() {
    let Some(dir) = corpus_dir() else { return };
    let files = json_files(&dir);
    assert!(!files.is_empty(), "no json files in {}", dir.display());
    for path in &files {
        let bytes = read(path);
        if let Err(e) = parse(&bytes) {
            panic!("{}: {e}", path.display());
        }
    }
    eprintln!("parsed {} corpus files", files.len());
}

#[test]
fn every_paddle_model_file_is_rewritten_byte_for_byte() {
    let Some(dir) = corpus_dir() else { return };
    let mut checked = 0;
    let mut pretty_checked = 0;
    for path in json_files(&dir).iter().filter(|p| written_by_nlohmann(p)) {
        let bytes = read(path);
        let doc = match parse(&bytes) {
            Ok(doc) => doc,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        // dump(4) output starts with "{\n"; compact output has no whitespace at all.
        let pretty = bytes.get(1) == Some(&b'\n');
        let ours = rewrite(doc.root(), pretty);
        if ours != bytes {
            panic!(
                "{} ({}) differs after a round trip; {}",
                path.display(),
                if pretty { "pretty" } else { "compact" },
                first_difference(&ours, &bytes)
            );
        }
        checked += 1;
        pretty_checked += usize::from(pretty);
    }
    eprintln!("{checked} model files identical after rewriting ({pretty_checked} pretty)");
    assert!(checked > 0);
}

#[test]
fn the_readable_model_is_the_pretty_form_of_the_compact_one() {
    let Some(dir) = corpus_dir() else { return };
    let readable = read(&dir.join("mlp_tiny_readable.json"));
    let doc = match parse(&readable) {
        Ok(doc) => doc,
        Err(e) => panic!("mlp_tiny_readable.json: {e}"),
    };
    assert_eq!(rewrite(doc.root(), true), readable);
    // The compact rewrite of the pretty file is the same document without whitespace.
    let compact = rewrite(doc.root(), false);
    assert!(!compact.contains(&b'\n'));
    let again = match parse(&compact) {
        Ok(doc) => rewrite(doc.root(), true),
        Err(e) => panic!("compact rewrite does not parse: {e}"),
    };
    assert_eq!(again, readable);
}

#[test]
fn truncated_and_corrupted_corpus_files_never_panic() {
    let Some(dir) = corpus_dir() else { return };
    let mut inputs = Vec::new();
    for name in [
        "mlp_tiny.json",
        "mlp_tiny_readable.json",
        "cond_if.json",
        "dtype_zoo.json",
    ] {
        let path = dir.join(name);
        if path.exists() {
            inputs.push(read(&path));
        }
    }
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut failures = 0usize;
    for input in &inputs {
        // Every truncation of the first 1500 bytes, then a sample of longer ones.
        let n = input.len();
        let cuts = (0..n.min(1500)).chain((0..500).map(|_| (next() as usize) % n));
        for cut in cuts {
            let part = input.get(..cut).unwrap_or(&[]);
            if let Err(e) = parse(part) {
                failures += 1;
                assert!(e.offset <= part.len());
            }
        }
        // Random byte flips, 1 to 4 at a time, including non-ASCII and control bytes.
        for _ in 0..1500 {
            let mut bytes = input.clone();
            for _ in 0..=(next() % 4) {
                let at = (next() as usize) % n;
                if let Some(b) = bytes.get_mut(at) {
                    *b = match next() % 4 {
                        0 => b"{}[],:\"\\"[(next() % 8) as usize],
                        1 => (next() % 0x20) as u8,
                        _ => next() as u8,
                    };
                }
            }
            match parse(&bytes) {
                Ok(doc) => {
                    // Whatever parses can be written and parsed again.
                    let mut out = Vec::new();
                    Writer::compact(&mut out).any_key_order().value(doc.root());
                    assert!(parse(&out).is_ok());
                }
                Err(e) => {
                    failures += 1;
                    assert!(e.offset <= bytes.len());
                    assert!(e.line >= 1 && e.column >= 1);
                }
            }
        }
    }
    eprintln!("{failures} corrupted inputs rejected without panicking");
}
