#![allow(clippy::unwrap_used)]

use super::streamed::read_streamed_counting;
use super::*;
use crate::{write_to_vec, WriteOptions};

fn json_of(loaded: &LoadedProgram) -> Vec<u8> {
    let options = WriteOptions {
        readable: loaded.readable,
        trainable: loaded.trainable,
        version: loaded.version,
    };
    write_to_vec(&loaded.program, &options).unwrap()
}

/// Paddle's files are read as a stream, to the same program as the whole-document reader.
#[test]
fn corpus_files_are_read_as_a_stream() {
    let dir = pir_corpus::corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: no corpus at {}", dir.display());
        return;
    };
    let (mut seen, mut plain_ops) = (0, 0);
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        let name = path.to_string_lossy();
        if !name.ends_with(".json") || name.ends_with(".meta.json") || name.ends_with("index.json")
        {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let ctx = pir_dialects::pd_op_context();
        let Ok(whole) = read_whole(ctx.clone(), &bytes, &ReadOptions::default()) else {
            continue;
        };
        let (streamed, plain) = read_streamed_counting(ctx, &bytes, &ReadOptions::default())
            .unwrap()
            .unwrap_or_else(|| panic!("{name} was not read as a stream"));
        assert_eq!(json_of(&streamed), json_of(&whole), "{name}");
        plain_ops += plain;
        assert_eq!(streamed.version, whole.version);
        seen += 1;
    }
    assert!(seen >= 20, "only {seen} corpus models read");
    assert!(plain_ops > 1000, "only {plain_ops} ops read field by field");
}

/// Other layouts go through the whole-document reader, with the same result.
#[test]
fn other_layouts_fall_back_to_the_whole_document() {
    let ctx = pir_dialects::pd_op_context();
    let json = write_to_vec(
        &pir_dialects::synthetic::mlp(ctx.clone(), 2),
        &WriteOptions::default(),
    )
    .unwrap();
    let text = String::from_utf8(json.clone()).unwrap();
    let want = read_slice(ctx.clone(), &json, &ReadOptions::default()).unwrap();
    assert!(read_streamed(ctx.clone(), &json, &ReadOptions::default())
        .unwrap()
        .is_some());
    // `program` before `base_code`.
    let (head, rest) = text.split_at(text.find(",\"program\"").unwrap());
    let swapped = format!("{{{},{}}}", &rest[1..rest.len() - 1], &head[1..]);
    // A block whose `ops` come before its `args`.
    assert!(text.ends_with("]}]}]}}"));
    let (body, end) = text.split_at(text.len() - 6);
    let ops_first = format!("{body},\"args\":[]{end}").replacen("\"args\":[],", "", 1);
    for variant in [swapped, ops_first] {
        assert_ne!(variant, text);
        assert!(
            read_streamed(ctx.clone(), variant.as_bytes(), &ReadOptions::default())
                .unwrap()
                .is_none(),
            "{variant:.200}"
        );
        let got = read_slice(ctx.clone(), variant.as_bytes(), &ReadOptions::default()).unwrap();
        assert_eq!(json_of(&got), json_of(&want));
    }
}

#[test]
fn dictionaries_stop_being_stored_when_lists_never_repeat() {
    let ctx = pir_dialects::pd_op_context();
    let dict = ctx.dict(&[]);
    let texts: Vec<String> = (0..3 * DictCache::TRIAL)
        .map(|i| format!("[{i}]"))
        .collect();
    let mut unique = DictCache::default();
    for t in &texts {
        assert_eq!(unique.get((t, "")), None);
        unique.insert((t, ""), dict);
    }
    assert!(
        unique.map.len() as u64 <= DictCache::TRIAL + 1,
        "{}",
        unique.map.len()
    );
    // Lists that repeat stay cached however many lookups there are.
    let mut repeated = DictCache::default();
    for t in texts.iter().map(|t| &t[..2]) {
        if repeated.get((t, "x")).is_none() {
            repeated.insert((t, "x"), dict);
        }
    }
    assert_eq!(repeated.misses, 10);
    assert_eq!(repeated.get(("[7", "x")), Some(dict));
}

#[test]
fn value_ids_far_apart_and_negative_are_kept() {
    let mut table = ValueTable::new(100, 1);
    let ctx = pir_dialects::pd_op_context();
    let mut program = Program::new(ctx.clone());
    let top = program.top_block();
    let ty = pir_core::builtin::VectorType::get(&ctx, &[]);
    let values: Vec<ValueId> = (0..4).map(|_| program.add_block_arg(top, ty)).collect();
    for (id, v) in [1, -3, 1 << 40, 1049].into_iter().zip(&values) {
        assert!(table.insert(id, *v));
        assert!(!table.insert(id, *v), "{id} bound twice");
    }
    assert_eq!(table.get(1), Some(values[0]));
    assert_eq!(table.get(-3), Some(values[1]));
    assert_eq!(table.get(1 << 40), Some(values[2]));
    assert_eq!(table.get(1049), Some(values[3]));
    assert_eq!(table.get(2), None);
    assert_eq!(table.get(-1), None);
    assert!(table.dense.len() <= table.dense_limit);
}
