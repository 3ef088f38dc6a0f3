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

/// The corpus's directory and its model files (`*.json` but metadata and
/// the index); `None`, said on standard error, where there is no corpus.
fn corpus_models() -> Option<(std::path::PathBuf, Vec<std::path::PathBuf>)> {
    let dir = pir_corpus::corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: no corpus at {}", dir.display());
        return None;
    };
    let models = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|path| {
            let name = path.to_string_lossy();
            name.ends_with(".json")
                && !name.ends_with(".meta.json")
                && !name.ends_with("index.json")
        })
        .collect();
    Some((dir, models))
}

/// Paddle's files are read as a stream, to the same program as the whole-document reader.
#[test]
fn corpus_files_are_read_as_a_stream() {
    let Some((_, models)) = corpus_models() else {
        return;
    };
    let (mut seen, mut plain_ops, mut all_ops) = (0, 0, 0);
    for path in models {
        let name = path.to_string_lossy();
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
        all_ops += whole.program.num_ops();
        assert_eq!(streamed.version, whole.version);
        seen += 1;
    }
    let indexed = pir_corpus::models().len();
    assert!(
        seen >= indexed && seen > 0,
        "{seen} corpus files read, {indexed} models in the index"
    );
    eprintln!("{plain_ops} of {all_ops} ops read field by field");
    // Most ops of Paddle's files take the field-by-field path.
    assert!(
        plain_ops * 2 > all_ops,
        "only {plain_ops} of {all_ops} ops read field by field"
    );
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
    assert!(
        read_streamed(ctx.clone(), &json, &ReadOptions::default(), &|_| {})
            .unwrap()
            .is_some()
    );
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
            read_streamed(
                ctx.clone(),
                variant.as_bytes(),
                &ReadOptions::default(),
                &|_| {}
            )
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
    let texts: Vec<String> = (0..3 * DictCache::<AttrDict>::TRIAL)
        .map(|i| format!("[{i}]"))
        .collect();
    let mut unique = DictCache::<AttrDict>::default();
    for t in &texts {
        assert_eq!(unique.get(&DictKey::new((t, ""))), None);
        unique.insert(DictKey::new((t, "")), dict);
    }
    assert!(
        unique.map.len() as u64 <= DictCache::<AttrDict>::TRIAL + 1,
        "{}",
        unique.map.len()
    );
    // Lists that repeat stay cached however many lookups there are.
    let mut repeated = DictCache::<AttrDict>::default();
    for t in texts.iter().map(|t| &t[..2]) {
        if repeated.get(&DictKey::new((t, "x"))).is_none() {
            repeated.insert(DictKey::new((t, "x")), dict);
        }
    }
    assert_eq!(repeated.misses, 10);
    assert_eq!(repeated.get(&DictKey::new(("[7", "x"))), Some(dict));
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

/// Parameter ops in every shape read to the program the whole-document reader
/// makes; the usual shapes field by field.
#[test]
fn parameter_ops_are_read_field_by_field_to_the_same_program() {
    let ty = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[4],"NCHW",[],0]}"##;
    let role = r##"{"AT":{"#":"0.a_i32","D":1},"N":"op_role"}"##;
    let name = r##"{"AT":{"#":"0.a_str","D":"/L/"},"N":"struct_name"}"##;
    // Paddle's layout of a parameter op, with the given flags, `DA` entries,
    // result id, `OA` flags and what follows them.
    let paddle = |flags: &str, da: &str, id: &str, oa: &str, end: &str| {
        format!(
            r##"{{"#":"p","A":[{flags},"w_0"],"DA":[{da}],"O":{{"%":{id},"TT":{ty}}},"OA":[{oa}]{end}"##
        )
    };
    let usual = [
        format!(
            r##"{{"#":"p","A":[0,1,1,"w_0"],"DA":[],"O":{{"%":1,"TT":{ty}}},"OA":[1,0,1],"QA":[]}}"##
        ),
        format!(r##"{{"#":"p","A":[1,0,2,"w 1"],"O":{{"%":1,"TT":{ty}}}}}"##),
        format!(
            r##"{{"#":"p","A":[0,1,0,"w"],"DA":[{role}],"O":{{"TT":{ty},"%":1}},"QA":[{name}],"OA":[0,0,0]}}"##
        ),
        format!(r##"{{"#":"p","O":{{"TT":{ty}}},"QA":[{name},{role}],"A":[0,1,1,"é"]}}"##),
        // Paddle's layout with flags of more than one digit, and near misses of it.
        paddle("0,1,12", "", "1", "1,0,-1", r#","QA":[]}"#),
        paddle("0, 1,1", "", "1", "1,0,1", r#","QA":[]}"#),
        paddle("0,1,1", "", "1", "1,0,1", r#","QA":[] }"#),
        paddle("0,1,1", role, "1", "1,0,1", r#","QA":[]}"#),
        paddle("0,1,1", "", "1", "1,0,1", "}"),
    ];
    let unusual = [
        format!(r##"{{"#":"p","A":[0,1,1,"w\u0030"],"O":{{"%":1,"TT":{ty}}}}}"##),
        format!(r##"{{"#":"p","A":[0,1,1,"w"],"x":[1],"O":{{"%":1,"TT":{ty}}}}}"##),
        format!(r##"{{"#":"p","A":[0,1,1,"w"],"O":{{"%":1,"TT":{ty},"y":2}}}}"##),
        format!(r##"{{"#":"p","A":[0,1,1,"w"],"A":[1,1,1,"v"],"O":{{"%":1,"TT":{ty}}}}}"##),
        format!(r##"{{"#":"p","A":[0,1,1,"w"],"O":{{"%":1,"TT":{ty}}},"O":{{"%":2,"TT":{ty}}}}}"##),
    ];
    let wrong = [
        format!(r##"{{"#":"p","A":[0,1.5,1,"w"],"O":{{"%":1,"TT":{ty}}}}}"##),
        format!(r##"{{"#":"p","A":[0,1,1,"w",2],"O":{{"%":1,"TT":{ty}}}}}"##),
        format!(r##"{{"#":"p","A":[0,1,1,"w"],"O":{{"%":1,"TT":{ty}}},"OA":[1,1]}}"##),
        r##"{"#":"p","A":[0,1,1,"w"],"O":{"%":1}}"##.to_owned(),
        format!(r##"{{"#":"p","A":[0,1,1,"w"],"DA":[1],"O":{{"%":1,"TT":{ty}}}}}"##),
        format!(r##"{{"#":"p","A":[0,1,1,"w"],"DA":{{}},"O":{{"%":1,"TT":{ty}}}}}"##),
        r##"{"#":"p","A":[0,1,1,"w"],"O":[],"OA":[1,0,1]}"##.to_owned(),
        r##"{"#":"p","A":[0,1,1,"w"]}"##.to_owned(),
        format!("{{\"#\":\"p\",\"A\":[0,1,1,\"w\u{1}\"],\"O\":{{\"%\":1,\"TT\":{ty}}}}}"),
        // Paddle's layout, with a number JSON refuses where a flag or the id goes.
        paddle("0,1,01", "", "1", "1,0,1", r#","QA":[]}"#),
        paddle("0,1,1", "", "-", "1,0,1", r#","QA":[]}"#),
        paddle("0,1,1", "", "1", "1,0,1.", r#","QA":[]}"#),
    ];
    let file = |op: &str| {
        format!(
            r##"{{"base_code":{{"magic":"pir","trainable":true,"version":4}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{op}]}}]}}]}}}}"##
        )
    };
    let ctx = pir_dialects::pd_op_context();
    let options = ReadOptions::default();
    for (ops, field_by_field) in [(&usual[..], true), (&unusual[..], false)] {
        for op in ops {
            let text = file(op);
            let whole = read_whole(ctx.clone(), text.as_bytes(), &options).unwrap();
            let (streamed, plain) = read_streamed_counting(ctx.clone(), text.as_bytes(), &options)
                .unwrap()
                .unwrap();
            assert_eq!(json_of(&streamed), json_of(&whole), "{op}");
            assert_eq!(plain == 1, field_by_field, "{op}");
        }
    }
    for op in &wrong {
        let text = file(op);
        let want = read_whole(ctx.clone(), text.as_bytes(), &options).unwrap_err();
        assert!(
            !matches!(
                read_streamed_counting(ctx.clone(), text.as_bytes(), &options),
                Ok(Some(_))
            ),
            "{op}"
        );
        let got = read_slice(ctx.clone(), text.as_bytes(), &options).unwrap_err();
        assert_eq!(got.to_string(), want.to_string(), "{op}");
    }
}

/// The type `tensor<4xf32>` in Paddle's compact text.
const DENSE_F32_4: &str = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[4],"NCHW",[],0]}"##;

/// A parameter op `w{id}` of type [`DENSE_F32_4`] defining value `id`, in
/// Paddle's short form.
fn param_op(id: u32) -> String {
    format!(
        r##"{{"#":"p","A":[0,1,1,"w{id}"],"DA":[],"O":{{"%":{id},"TT":{DENSE_F32_4}}},"OA":[1,0,1],"QA":[]}}"##
    )
}

/// Operands and results in Paddle's compact text and in other spellings read
/// as the whole-document reader reads them, and numbers JSON refuses fail
/// with its errors.
#[test]
fn operands_and_results_in_every_spelling_read_to_the_same_program() {
    let ty = DENSE_F32_4;
    let file = |inputs: &str, outputs: &str| {
        format!(
            r##"{{"base_code":{{"magic":"pir","trainable":true,"version":4}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{},{},{{"#":"1.add","A":[],"I":[{inputs}],"O":[{outputs}],"OA":[]}}]}}]}}]}}}}"##,
            param_op(1),
            param_op(2)
        )
    };
    let result = format!(r##"{{"%":3,"TT":{ty}}}"##);
    let read = [
        (r##"{"%":1},{"%":2}"##.to_owned(), result.clone()),
        (r##"{"%":1}, {"%":2}"##.to_owned(), result.clone()),
        (r##"{"%": 1},{ "%":2}"##.to_owned(), result.clone()),
        (
            r##"{"%":1},{"%":2 }"##.to_owned(),
            format!(r##"{{"%":3, "TT":{ty}}}"##),
        ),
        (
            r##"{"%":1},{"%":2}"##.to_owned(),
            format!(r##"{{"TT":{ty},"%":3}}"##),
        ),
        (
            r##"{"%":1},{"%":2}"##.to_owned(),
            format!(r##"{{"%":3,"TT":{ty} }}"##),
        ),
        (
            r##"{"%":1},{"%":2}"##.to_owned(),
            format!(r##"{{"TT":{ty}}}"##),
        ),
    ];
    for (inputs, outputs) in &read {
        streams_as_whole(&file(inputs, outputs), 3);
    }
    let wrong = [
        (r##"{"%":01},{"%":2}"##.to_owned(), result.clone()),
        (r##"{"%":1},{"%":2.}"##.to_owned(), result.clone()),
        (
            r##"{"%":1},{"%":2}"##.to_owned(),
            format!(r##"{{"%":-,"TT":{ty}}}"##),
        ),
        (
            r##"{"%":1},{"%":2}"##.to_owned(),
            format!(r##"{{"%":3e,"TT":{ty}}}"##),
        ),
        (
            r##"{"%":1},{"%":2}"##.to_owned(),
            format!(r##"{{"%":3,"TT":{}}}"##, &ty[1..]),
        ),
    ];
    for (inputs, outputs) in &wrong {
        fails_as_whole(&file(inputs, outputs));
    }
}

/// A program of two parameters (values 1 and 2) followed by `ops`.
fn file_after_two_parameters(ops: &[String]) -> String {
    format!(
        r##"{{"base_code":{{"magic":"pir","trainable":true,"version":4}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{},{},{}]}}]}}]}}}}"##,
        param_op(1),
        param_op(2),
        ops.join(",")
    )
}

/// An op's fields in Paddle's order and spelling, and in any other, read as
/// the whole-document reader reads them; so do runs of ops whose attribute
/// lists differ at every op and then repeat (lists matched whole again), and
/// malformed fields fail with its errors.
#[test]
fn op_fields_in_every_layout_read_to_the_same_program() {
    let ty = DENSE_F32_4;
    let attrs = |layer: &str| {
        format!(
            r##"[{{"AT":{{"#":"0.a_bool","D":false}},"N":"transpose_x"}},{{"AT":{{"#":"0.a_str","D":"/{layer}/"}},"N":"struct_name"}}]"##
        )
    };
    let oa = r##"[{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":false}]},"N":"stop_gradient"}]"##;
    let file = file_after_two_parameters;
    let op = |id: u32, fields: &str| {
        format!(r##"{{"#":"1.add",{fields}}}"##).replace("ID", &id.to_string())
    };
    let paddle = |id: u32, layer: &str| {
        op(
            id,
            &format!(
                r##""A":{},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa}"##,
                attrs(layer)
            ),
        )
    };
    let a = attrs("L");
    let layouts = [
        format!(r##""I":[{{"%":1}},{{"%":2}}],"A":{a},"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa}"##),
        format!(r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}]"##),
        format!(r##""A":{a}, "I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa}"##),
        format!(r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa} "##),
        format!(
            r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa},"x":[1]"##
        ),
        format!(
            r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"x":{{}},"OA":{oa}"##
        ),
        format!(r##""A":{a},"I":[],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa}"##),
        r##""A":[],"I":[{"%":1}],"O":[],"OA":[]"##.to_owned(),
        format!(r##""A":{a},"I":[{{"%":1}} ,{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa}"##),
        format!(r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}} ],"OA":{oa}"##),
        format!(r##""OA":{oa},"O":[{{"%":ID,"TT":{ty}}}],"I":[{{"%":1}},{{"%":2}}],"A":{a}"##),
    ];
    for fields in &layouts {
        streams_as_whole(&file(&[op(3, fields)]), 3);
        // After an op in Paddle's layout, so that its lists are remembered.
        streams_as_whole(&file(&[paddle(3, "L"), op(4, fields)]), 4);
    }
    // Lists that differ at every op, then repeat.
    let mut ops: Vec<String> = (0..40).map(|i| paddle(3 + i, &format!("L{i}"))).collect();
    ops.extend((40..80).map(|i| paddle(3 + i, "L")));
    ops.extend((80..90).map(|i| paddle(3 + i, &format!("L{}", i % 2))));
    streams_as_whole(&file(&ops), 92);
    // A place holding new strings in turn with other entries, strings
    // spelled otherwise and the string before last.
    let second = [
        r##"{"AT":{"#":"0.a_str","D":"/M0/"},"N":"struct_name"}"##,
        r##"{"AT":{"#":"0.a_bool","D":true},"N":"struct_name"}"##,
        r##"{"AT":{"#":"0.a_str","D":"/M1/"},"N":"struct_name"}"##,
        r##"{"AT":{"#":"0.a_str","D":"/M\"2/"},"N":"struct_name"}"##,
        r##"{"AT":{"#":"0.a_str","D":"/M1/"},"N":"struct_name"}"##,
        r##"{"AT":{"#":"0.a_str","D":"/M3/"},"N":"struct_name"}"##,
    ];
    // Their `OA` lists mostly as the last, at times another, longer or
    // shorter.
    let flag = |on: bool| format!(r##"{{"AT":{{"#":"0.a_bool","D":{on}}},"N":"persistable"}}"##);
    let other_oas = [
        r##"[{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":true}]},"N":"stop_gradient"}]"##
            .to_owned(),
        format!("[{},{}]", flag(true), flag(false)),
        format!("[{},{},{}]", flag(false), flag(true), flag(false)),
        "[]".to_owned(),
    ];
    let mixed: Vec<String> = (0..18u32)
        .zip(second.iter().cycle())
        .map(|(i, entry)| {
            let a =
                format!(r##"[{{"AT":{{"#":"0.a_bool","D":false}},"N":"transpose_x"}},{entry}]"##);
            let oa = match i % 3 {
                2 => &other_oas[(i as usize / 3) % other_oas.len()],
                _ => oa,
            };
            let fields = format!(
                r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa}"##
            );
            op(3 + i, &fields)
        })
        .collect();
    streams_as_whole(&file(&mixed), 20);
    let wrong = [
        format!(r##""A":{a},"I":[{{"%":1}},],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa}"##),
        format!(r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa},"##),
        format!(r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}},],"OA":{oa}"##),
        format!(r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa}]"##),
        format!(r##""A":{a},"I":[{{"%":9}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa}"##),
    ];
    for fields in &wrong {
        fails_as_whole(&file(&[op(3, fields)]));
        fails_as_whole(&file(&[paddle(3, "L"), op(4, fields)]));
    }
    // A key given twice: whatever the whole-document reader makes of it.
    let twice = format!(
        r##""A":{a},"I":[{{"%":1}},{{"%":2}}],"O":[{{"%":ID,"TT":{ty}}}],"OA":{oa},"A":[]"##
    );
    reads_as_whole(&file(&[op(3, &twice)]));
    reads_as_whole(&file(&[paddle(3, "L"), op(4, &twice)]));
}

/// Ops with regions in Paddle's compact text are scanned with their blocks'
/// ops (nested regions too, block arguments, `kwargs`) to the program the
/// whole-document reader reads, also when read again into one context (op
/// kinds' templates); regions spelled otherwise are read as documents, to
/// the same program.
#[test]
fn region_ops_are_scanned_with_their_blocks() {
    let ty = DENSE_F32_4;
    let add = |id: i32, x: i32| {
        format!(
            r##"{{"#":"1.add","A":[],"I":[{{"%":{x}}},{{"%":2}}],"O":[{{"%":{id},"TT":{ty}}}],"OA":[]}}"##
        )
    };
    let block = |name: &str, lists: &str, ops: &[String]| {
        format!(r##"{{"#":"{name}",{lists},"ops":[{}]}}"##, ops.join(","))
    };
    let region = |name: &str, blocks: &[String]| {
        format!(r##"{{"#":"{name}","blocks":[{}]}}"##, blocks.join(","))
    };
    let if_op = |id: i32, regions: &[String]| {
        format!(
            r##"{{"#":"1.if","A":[],"I":[{{"%":1}}],"O":[{{"%":{id},"TT":{ty}}}],"OA":[],"regions":[{}]}}"##,
            regions.join(",")
        )
    };
    let file = file_after_two_parameters;
    let arg = format!(r##""args":[{{"#":-1,"TT":{ty}}}]"##);
    let inner = if_op(
        20,
        &[region(
            "region_3",
            &[block("block_3", r#""args":[],"kwargs":[]"#, &[add(21, 2)])],
        )],
    );
    let nested = if_op(
        3,
        &[
            region(
                "region_1",
                &[block(
                    "block_1",
                    r#""args":[]"#,
                    &[add(4, 1), inner, add(5, 4)],
                )],
            ),
            region("region_2", &[block("block_2", &arg, &[add(6, -1)])]),
        ],
    );
    let text = file(&[nested.clone(), add(7, 3)]);
    // Two parameters, two `if`s, five `add`s.
    streams_as_whole(&text, 9);
    let ctx = pir_dialects::pd_op_context();
    let whole = read_whole(ctx.clone(), text.as_bytes(), &ReadOptions::default()).unwrap();
    for _ in 0..3 {
        let again = read_slice(ctx.clone(), text.as_bytes(), &one_thread()).unwrap();
        assert_eq!(json_of(&again), json_of(&whole));
    }
    // A region spelled otherwise: the outer `if` is one document.
    let spaced = nested.replace(r#""blocks":["#, r#""blocks": ["#);
    streams_as_whole(&file(&[spaced, add(7, 3)]), 3);
    let empty = if_op(3, &[]);
    streams_as_whole(&file(&[empty, add(7, 3)]), 4);
    fails_as_whole(&file(&[nested.replace("%\":-1", "%\":-9"), add(7, 3)]));
}

/// Asserts that `text` reads to the program the whole-document reader reads,
/// or fails with its error.
fn reads_as_whole(text: &str) {
    let ctx = pir_dialects::pd_op_context();
    let options = ReadOptions::default();
    let want = read_whole(ctx.clone(), text.as_bytes(), &options);
    let got = read_slice(ctx, text.as_bytes(), &options);
    match (got, want) {
        (Ok(got), Ok(want)) => assert_eq!(json_of(&got), json_of(&want), "{text}"),
        (Err(got), Err(want)) => assert_eq!(got.to_string(), want.to_string(), "{text}"),
        (got, want) => panic!("{text}: {got:?} against {want:?}"),
    }
}

/// Asserts that `text` is read as a stream, with `plain` ops read field by
/// field, to the program the whole-document reader reads.
fn streams_as_whole(text: &str, plain: usize) {
    let ctx = pir_dialects::pd_op_context();
    let options = ReadOptions::default();
    let whole = read_whole(ctx.clone(), text.as_bytes(), &options).unwrap();
    let (streamed, read_plain) = read_streamed_counting(ctx, text.as_bytes(), &options)
        .unwrap()
        .unwrap();
    assert_eq!(json_of(&streamed), json_of(&whole), "{text}");
    assert_eq!(read_plain, plain, "{text}");
}

/// Asserts that reading `text` fails with the whole-document reader's error.
fn fails_as_whole(text: &str) {
    let ctx = pir_dialects::pd_op_context();
    let whole = read_whole(ctx, text.as_bytes(), &ReadOptions::default());
    assert!(whole.is_err(), "{text}");
    reads_as_whole(text);
}

/// Dense tensor types in Paddle's compact text and near it read as the
/// whole-document reader reads them, and malformed ones fail with its errors.
#[test]
fn dense_types_in_every_spelling_read_to_the_same_program() {
    let file = |ty: &str| {
        format!(
            r##"{{"base_code":{{"magic":"pir","trainable":true,"version":4}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{{"#":"p","A":[0,1,1,"w"],"DA":[],"O":{{"%":1,"TT":{ty}}},"OA":[1,0,1],"QA":[]}},{{"#":"1.relu","A":[],"I":[{{"%":1}}],"O":[{{"%":2,"TT":{ty}}}],"OA":[]}}]}}]}}]}}}}"##
        )
    };
    // A dense tensor type of the given dtype, dimensions and layout, and what follows them.
    let dense = |dtype: &str, dims: &str, layout: &str, end: &str| {
        format!(r##"{{"#":"0.t_dtensor","D":[{{"#":"{dtype}"}},[{dims}],"{layout}",{end}"##)
    };
    // Each type, and whether it reads (else it fails as the whole document does).
    let types = [
        (dense("0.t_f32", "-1,16,3,3", "NCHW", "[],0]}"), true),
        (dense("0.t_i64", "", "NHWC", "[],0]}"), true),
        (dense("0.t_f32", "4", "NCHW", "[[0,2,4]],0]}"), true),
        (dense("0.t_f32", "4", "NCHW", "[],0] }"), true),
        (dense("0.t_f32", "4, 5", "NCHW", "[],0]}"), true),
        (dense("0.t_f32", "4", "NCHW", "[],12]}"), true),
        (
            dense(r"0.t_\u0066\u0033\u0032", "4", "NCHW", "[],0]}"),
            true,
        ),
        (dense("0.t_f32", "4", r"NC\u0048W", "[],0]}"), true),
        (
            r##"{"D":[{"#":"0.t_f32"},[4],"NCHW",[],0],"#":"0.t_dtensor"}"##.to_owned(),
            true,
        ),
        (dense("0.t_f32", "4,", "NCHW", "[],0]}"), false),
        (dense("0.t_f32", "-", "NCHW", "[],0]}"), false),
        (dense("0.t_f32", "4", "NCHW", "[],01]}"), false),
        (dense("0.t_f32", "4", "NCHW", "[]]}"), false),
        (dense("0.t_x", "4", "NCHW", "[],0]}"), false),
    ];
    for (ty, reads) in &types {
        if *reads {
            streams_as_whole(&file(ty), 2);
        } else {
            fails_as_whole(&file(ty));
        }
    }
}

/// String attribute entries in every spelling read as the whole-document reader reads them.
#[test]
fn string_entries_read_to_the_same_attributes() {
    let entries = [
        r##"{"AT":{"#":"0.a_str","D":"/Block_1/Linear/"},"N":"struct_name"}"##,
        r##"{"AT":{"#":"0.a_str","D":""},"N":"x"}"##,
        r##"{"AT":{"#":"0.a_str","D":"a\"b"},"N":"y"}"##,
        r##"{"AT":{"#":"0.a_str","D":"é\u00e9"},"N":"z"}"##,
        r##"{"AT":{"#":"0.a_str","D":"v","E":1},"N":"w"}"##,
        r##"{"N":"v","AT":{"#":"0.a_str","D":"v"}}"##,
        r##"{"AT":{"#":"0.a_tensorname","D":"t"},"N":"t"}"##,
    ];
    let ctx = pir_dialects::pd_op_context();
    let options = ReadOptions::default();
    for entry in entries {
        let text = format!(
            r##"{{"base_code":{{"magic":"pir","trainable":true,"version":4}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{{"#":"1.relu","A":[{entry}],"I":[],"O":[],"OA":[]}}]}}]}}]}}}}"##
        );
        let whole = read_whole(ctx.clone(), text.as_bytes(), &options).unwrap();
        let (streamed, plain) = read_streamed_counting(ctx.clone(), text.as_bytes(), &options)
            .unwrap()
            .unwrap();
        assert_eq!(plain, 1, "{entry}");
        assert_eq!(json_of(&streamed), json_of(&whole), "{entry}");
    }
    let text = r##"{"AT":{"#":"0.a_str","D":"a\u0001"},"N":"n"}"##.replace("\\u0001", "\u{1}");
    let file = format!(
        r##"{{"base_code":{{"magic":"pir","trainable":true,"version":4}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{{"#":"1.relu","A":[{text}],"I":[],"O":[],"OA":[]}}]}}]}}]}}}}"##
    );
    assert!(read_whole(ctx.clone(), file.as_bytes(), &options).is_err());
    assert!(!matches!(
        read_streamed_counting(ctx.clone(), file.as_bytes(), &options),
        Ok(Some(_))
    ));
}

fn one_thread() -> ReadOptions {
    ReadOptions {
        threads: 1,
        ..Default::default()
    }
}

#[path = "threads_tests.rs"]
mod threaded;

/// A context that read a model keeps op names, types and entries by their
/// texts (indented texts and the whole-document reader's keys too): reading
/// the model again, compact or indented, into that context gives the
/// program a fresh context reads.
#[test]
fn reads_again_into_one_context_give_the_same_program() {
    let Some((dir, models)) = corpus_models() else {
        return;
    };
    let mut seen = 0;
    for path in models {
        let name = path.to_string_lossy();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(fresh) = read_slice(pir_dialects::pd_op_context(), &bytes, &one_thread()) else {
            continue;
        };
        let written = |loaded: &LoadedProgram, readable: bool| {
            let options = WriteOptions {
                readable,
                trainable: loaded.trainable,
                version: loaded.version,
            };
            write_to_vec(&loaded.program, &options).unwrap()
        };
        let compact = written(&fresh, false);
        let readable = written(&fresh, true);
        let ctx = pir_dialects::pd_op_context();
        // The third read matches op kinds' templates the second learnt;
        // the fourth their later places, learnt once the first ones matched.
        for round in 0..3 {
            for text in [&bytes, &readable] {
                let again = read_slice(ctx.clone(), text, &one_thread()).unwrap();
                let whole = read_whole(ctx.clone(), text, &one_thread()).unwrap();
                for loaded in [again, whole] {
                    assert!(written(&loaded, false) == compact, "{name}, round {round}");
                }
            }
        }
        seen += 1;
    }
    assert!(seen > 0, "no model read in {}", dir.display());
}

/// A read leaves its buffers and tables, emptied, to the next read of the
/// context (see `tables::Buffers`): models read one after another into one
/// context, in turn and again, give the programs fresh contexts read.
#[test]
fn reads_of_other_models_into_one_context_give_the_same_program() {
    let Some((dir, models)) = corpus_models() else {
        return;
    };
    let mut expected = Vec::new();
    for path in models {
        let bytes = std::fs::read(&path).unwrap();
        if let Ok(fresh) = read_slice(pir_dialects::pd_op_context(), &bytes, &one_thread()) {
            expected.push((path, bytes, json_of(&fresh)));
        }
    }
    assert!(expected.len() > 1, "too few models in {}", dir.display());
    let ctx = pir_dialects::pd_op_context();
    for round in 0..3 {
        for (path, bytes, json) in &expected {
            let again = read_slice(ctx.clone(), bytes, &one_thread()).unwrap();
            assert!(
                json_of(&again) == *json,
                "{}, round {round}",
                path.display()
            );
        }
    }
}
