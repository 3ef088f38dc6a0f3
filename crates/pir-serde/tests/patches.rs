//! The version patch system, one action at a time, on small hand-written
//! programs: each test states the effect an action must have when a file is read.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

use std::sync::Arc;

use pir_serde::patch::{parse_patch_yaml, PatchSet};
use pir_serde::{read_slice, write_to_vec, ReadOptions, WriteOptions};

const F32: &str = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]}"##;
const I64: &str = r##"{"#":"0.t_dtensor","D":[{"#":"0.t_i64"},[2],"NCHW",[],0]}"##;

fn program(version: u64, ops: &[&str]) -> String {
    format!(
        r##"{{"base_code":{{"magic":"pir","trainable":true,"version":{version}}},"program":{{"regions":[{{"#":"region_0","blocks":[{{"#":"block_0","args":[],"ops":[{}]}}]}}]}}}}"##,
        ops.join(",")
    )
}

fn data(id: i64) -> String {
    format!(
        r##"{{"#":"1.data","A":[{{"AT":{{"#":"0.a_str","D":"x"}},"N":"name"}}],"I":[],"O":[{{"%":{id},"TT":{F32}}}],"OA":[]}}"##
    )
}

/// Reads `text` with `options` and returns the current-version JSON of its ops.
fn upgraded(text: &str, options: &ReadOptions) -> String {
    let loaded = read_slice(pir_dialects::pd_op_context(), text.as_bytes(), options)
        .unwrap_or_else(|e| panic!("{e}"));
    String::from_utf8(write_to_vec(&loaded.program, &WriteOptions::default()).unwrap()).unwrap()
}

fn with_patch(yaml: &str) -> ReadOptions {
    let set = parse_patch_yaml("user.yaml", yaml).unwrap_or_else(|e| panic!("{e}"));
    ReadOptions {
        patches: Some(Arc::new(set)),
        ..Default::default()
    }
}

fn op(name: &str, attrs: &str, inputs: &str, outputs: &str) -> String {
    format!(r##"{{"#":"{name}","A":[{attrs}],"I":[{inputs}],"O":[{outputs}],"OA":[]}}"##)
}

/// `kthvalue` of `%1` with an `i32` `k` of 1 (as files before version 3
/// hold it), one result `%2`.
fn kthvalue_k1() -> String {
    op(
        "1.kthvalue",
        r##"{"AT":{"#":"0.a_i32","D":1},"N":"k"}"##,
        r#"{"%":1}"#,
        &format!(r#"{{"%":2,"TT":{F32}}}"#),
    )
}

#[test]
fn modify_attr_changes_the_kind_and_keeps_the_value() {
    // 3.yaml: kthvalue.k became int64. A version-2 file has it as int32.
    let k = r##"{"AT":{"#":"0.a_i32","D":2},"N":"k"}"##;
    let text = program(
        2,
        &[
            &data(1),
            &op(
                "1.kthvalue",
                k,
                r#"{"%":1}"#,
                &format!(r#"{{"%":2,"TT":{F32}}},{{"%":3,"TT":{I64}}}"#),
            ),
        ],
    );
    let out = upgraded(&text, &ReadOptions::default());
    assert!(
        out.contains(r##"{"AT":{"#":"0.a_i64","D":2},"N":"k"}"##),
        "{out}"
    );
}

#[test]
fn modify_attr_with_element_kinds_retags_every_array_element() {
    // 2.yaml: pool2d strides/paddings became arrays of int64, whatever their length.
    let attrs = r##"{"AT":{"#":"0.a_array","D":[{"#":"0.a_i32","D":2},{"#":"0.a_i32","D":2},{"#":"0.a_i32","D":1}]},"N":"strides"},{"AT":{"#":"0.a_array","D":[]},"N":"paddings"}"##;
    let text = program(
        1,
        &[
            &data(1),
            &op(
                "1.pool2d",
                attrs,
                r#"{"%":1}"#,
                &format!(r#"{{"%":2,"TT":{F32}}}"#),
            ),
        ],
    );
    let out = upgraded(&text, &ReadOptions::default());
    assert!(
        out.contains(r##"[{"#":"0.a_i64","D":2},{"#":"0.a_i64","D":2},{"#":"0.a_i64","D":1}]"##),
        "{out}"
    );
    assert!(
        out.contains(r##"{"AT":{"#":"0.a_array","D":[]},"N":"paddings"}"##),
        "an empty array stays empty: {out}"
    );
}

#[test]
fn add_attr_appends_a_default_but_never_overrides_the_file() {
    // 3.yaml: repeat_interleave gained output_size = -1.
    let repeats = r##"{"AT":{"#":"0.a_i32","D":2},"N":"repeats"}"##;
    let out_ty = format!(r#"{{"%":2,"TT":{F32}}}"#);
    let old = program(
        2,
        &[
            &data(1),
            &op("1.repeat_interleave", repeats, r#"{"%":1}"#, &out_ty),
        ],
    );
    let out = upgraded(&old, &ReadOptions::default());
    assert!(out.contains(r##"{"AT":{"#":"0.a_i32","D":2},"N":"repeats"},{"AT":{"#":"0.a_i64","D":-1},"N":"output_size"}"##), "{out}");
    let has_it = format!(r##"{repeats},{{"AT":{{"#":"0.a_i64","D":7}},"N":"output_size"}}"##);
    let v3 = program(
        3,
        &[
            &data(1),
            &op("1.repeat_interleave", &has_it, r#"{"%":1}"#, &out_ty),
        ],
    );
    let out = upgraded(&v3, &ReadOptions::default());
    assert!(
        out.contains(r#""D":7},"N":"output_size""#) && !out.contains(r#""D":-1"#),
        "{out}"
    );
}

#[test]
fn patches_chain_across_three_versions() {
    // A version-1 file gets 1.yaml … 4.yaml: pool2d (v2), kthvalue (v3) and leaky_relu (v4) all change.
    let out_ty = format!(r#"{{"%":3,"TT":{F32}}}"#);
    let text = program(
        1,
        &[
            &data(1),
            &kthvalue_k1(),
            &op(
                "1.leaky_relu",
                r##"{"AT":{"#":"0.a_f32","D":0.20000000298023224},"N":"negative_slope"}"##,
                r#"{"%":1}"#,
                &out_ty,
            ),
            &op(
                "1.pool2d",
                r##"{"AT":{"#":"0.a_array","D":[{"#":"0.a_i32","D":1}]},"N":"strides"},{"AT":{"#":"0.a_array","D":[{"#":"0.a_i32","D":2}]},"N":"paddings"}"##,
                r#"{"%":1}"#,
                &format!(r#"{{"%":4,"TT":{F32}}}"#),
            ),
        ],
    );
    let out = upgraded(&text, &ReadOptions::default());
    assert!(
        out.contains(r##"{"AT":{"#":"0.a_i64","D":1},"N":"k"}"##),
        "v3 patch: {out}"
    );
    assert!(
        out.contains(r##"{"AT":{"#":"0.a_f64","D":0.20000000298023224},"N":"negative_slope"}"##),
        "v4 patch: {out}"
    );
    assert!(
        out.contains(r##"[{"#":"0.a_i64","D":2}]"##),
        "v2 patch: {out}"
    );
    assert!(out.contains(r#""version":4"#));
}

#[test]
fn a_current_file_is_not_patched() {
    let text = program(4, &[&data(1), &kthvalue_k1()]);
    assert!(upgraded(&text, &ReadOptions::default()).contains(r##""#":"0.a_i32""##));
}

#[test]
fn delete_rename_and_output_attribute_actions_apply() {
    let yaml = "op_patches:
  - op_name : pd_op.relu
    actions:
      - action : delete_attr
        object : old
      - action : modify_attr_name
        object : before
        data : after
      - action : add_output_attr
        object : persistable
        type : pir::ArrayAttribute
        data :
          - type: pir::BoolAttribute
            data: true
      - action : modify_output_attr
        object : stop_gradient
        type : pir::ArrayAttribute
        data :
          - type: pir::BoolAttribute
            data: false
";
    let attrs =
        r##"{"AT":{"#":"0.a_i32","D":1},"N":"old"},{"AT":{"#":"0.a_i32","D":2},"N":"before"}"##;
    let relu = format!(
        r##"{{"#":"1.relu","A":[{attrs}],"I":[{{"%":1}}],"O":[{{"%":2,"TT":{F32}}}],"OA":[{{"AT":{{"#":"0.a_array","D":[{{"#":"0.a_bool","D":true}}]}},"N":"stop_gradient"}}]}}"##
    );
    let out = upgraded(&program(4, &[&data(1), &relu]), &with_patch(yaml));
    assert!(!out.contains(r#""N":"old""#), "deleted: {out}");
    assert!(
        out.contains(r##"{"AT":{"#":"0.a_i32","D":2},"N":"after"}"##),
        "renamed: {out}"
    );
    assert!(out.contains(r##""OA":[{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":false}]},"N":"stop_gradient"},{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":true}]},"N":"persistable"}]"##), "output attrs: {out}");
}

#[test]
fn input_and_output_actions_and_op_renames_apply() {
    let yaml = r#"op_patches:
  - op_name : pd_op.add
    actions:
      - action : delete_input
        object : 1
      - action : add_output
        object : 1
        type : pir::DenseTensorType
        data : [pir::Int64Type, [-1], "NCHW", [], 0]
      - action : modify_output_type
        object : 0
        type : pir::DenseTensorType
        data : [pir::Float64Type, [2], "NCHW", [], 0]
      - action : modify_name
        data : pd_op.my_add
"#;
    let add = op(
        "1.add",
        "",
        r#"{"%":1},{"%":1}"#,
        &format!(r#"{{"%":2,"TT":{F32}}}"#),
    );
    let loaded = read_slice(
        pir_dialects::pd_op_context(),
        program(4, &[&data(1), &add]).as_bytes(),
        &with_patch(yaml),
    )
    .unwrap();
    let text = loaded.program.to_string();
    assert!(
        text.contains(r#"(%1, %2) = "pd_op.my_add" (%0) {} : (tensor<2xf32>) -> tensor<2xf64>, tensor<-1xi64>"#),
        "{text}"
    );
}

#[test]
fn op_pair_patches_add_and_delete_values_between_ops() {
    let yaml = r#"op_pair_patches:
  - op_pair : [pd_op.split_me, pd_op.join_me]
    actions:
      - action : add_value
        object : [1, 1]
        type : pir::DenseTensorType
        data : [pir::Float32Type, [2], "NCHW", [], 0]
"#;
    let producer = op(
        "1.split_me",
        "",
        r#"{"%":1}"#,
        &format!(r#"{{"%":2,"TT":{F32}}}"#),
    );
    let consumer = op("1.join_me", "", r#"{"%":2}"#, "");
    let loaded = read_slice(
        pir_dialects::pd_op_context(),
        program(4, &[&data(1), &producer, &consumer]).as_bytes(),
        &with_patch(yaml),
    )
    .unwrap();
    let text = loaded.program.to_string();
    assert!(
        text.contains(r#"(%1, %2) = "pd_op.split_me" (%0)"#),
        "{text}"
    );
    assert!(text.contains(r#"() = "pd_op.join_me" (%1, %2)"#), "{text}");
    let delete = "op_pair_patches:\n  - op_pair : [pd_op.split_me, pd_op.join_me]\n    actions:\n      - action : delete_value\n        object : [0, 0]\n";
    let producer = op(
        "1.split_me",
        "",
        r#"{"%":1}"#,
        &format!(r#"{{"%":2,"TT":{F32}}},{{"%":3,"TT":{F32}}}"#),
    );
    let consumer = op("1.join_me", "", r#"{"%":2},{"%":3}"#, "");
    let loaded = read_slice(
        pir_dialects::pd_op_context(),
        program(4, &[&data(1), &producer, &consumer]).as_bytes(),
        &with_patch(delete),
    )
    .unwrap();
    let text = loaded.program.to_string();
    assert!(
        text.contains(r#"(%1) = "pd_op.split_me" (%0)"#)
            && text.contains(r#"() = "pd_op.join_me" (%1)"#),
        "{text}"
    );
}

#[test]
fn type_and_attribute_renames_apply_everywhere_in_an_op() {
    let yaml = "type_patches:
  - type_name : pir::Float32Type
    actions:
      - action : modify_name
        type : pir::Float64Type
attr_patches:
  - attr_name : pir::Int32Attribute
    actions:
      - action : modify_name
        type : pir::Int64Attribute
";
    let relu = op(
        "1.relu",
        r##"{"AT":{"#":"0.a_i32","D":3},"N":"n"}"##,
        r#"{"%":1}"#,
        &format!(r#"{{"%":2,"TT":{F32}}}"#),
    );
    let out = upgraded(&program(4, &[&data(1), &relu]), &with_patch(yaml));
    assert!(out.contains(r##"{"#":"0.a_i64","D":3}"##), "{out}");
    assert!(!out.contains("0.t_f32"), "{out}");
}

#[test]
fn parameter_ops_take_attribute_patches_positionally() {
    let yaml = "op_patches:\n  - op_name : builtin.parameter\n    actions:\n      - action : modify_attr\n        object : need_clip\n        type : pir::BoolAttribute\n        data : true\n";
    let p = format!(
        r##"{{"#":"p","A":[0,1,0,"w"],"DA":[],"O":{{"%":1,"TT":{F32}}},"OA":[1,0,1],"QA":[]}}"##
    );
    let out = upgraded(&program(4, &[&p]), &with_patch(yaml));
    assert!(out.contains(r#""A":[0,1,1,"w"]"#), "{out}");
}

#[test]
fn a_patch_that_does_not_fit_names_the_op_and_the_action() {
    let yaml = "op_patches:\n  - op_name : pd_op.relu\n    actions:\n      - action : modify_attr\n        object : missing\n        type : pir::Int64Attribute\n";
    let relu = op(
        "1.relu",
        "",
        r#"{"%":1}"#,
        &format!(r#"{{"%":2,"TT":{F32}}}"#),
    );
    let err = read_slice(
        pir_dialects::pd_op_context(),
        program(4, &[&data(1), &relu]).as_bytes(),
        &with_patch(yaml),
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("ops[1]") && msg.contains("pd_op.relu"),
        "{msg}"
    );
    assert!(
        msg.contains("modify_attr (user.yaml:4)") && msg.contains("no attribute `missing`"),
        "{msg}"
    );
    let yaml = "op_patches:\n  - op_name : pd_op.relu\n    actions:\n      - action : delete_input\n        object : 5\n";
    let err = read_slice(
        pir_dialects::pd_op_context(),
        program(4, &[&data(1), &relu]).as_bytes(),
        &with_patch(yaml),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("input index 5 out of range"),
        "{err}"
    );
}

#[test]
fn malformed_patch_files_name_file_line_and_action() {
    let cases: [(&str, &str); 5] = [
        ("op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : frobnicate\n", "4:"),
        ("op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : modify_attr\n        object : a\n", "modify_attr: missing `type`"),
        ("op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : add_attr\n        object : a\n        type : pir::NoSuchAttribute\n        data : 1\n", "unknown attribute class"),
        ("op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : add_attr\n        object : a\n        type : pir::Int32Attribute\n        data : seven\n", "`seven` is not an integer"),
        ("op_patches: [\n", "my.yaml:"),
    ];
    for (yaml, expected) in cases {
        let err = parse_patch_yaml("my.yaml", yaml).unwrap_err().to_string();
        assert!(err.starts_with("my.yaml:"), "{err}");
        assert!(err.contains(expected), "expected `{expected}` in: {err}");
    }
}

#[test]
fn the_shipped_patch_files_parse_and_chain() {
    for &(v, file, text) in pir_serde::patch::BUILTIN_PATCHES {
        parse_patch_yaml(file, text).unwrap_or_else(|e| panic!("version {v}: {e}"));
    }
    let all: PatchSet = pir_serde::patch::upgrade_patches(1).unwrap();
    assert!(
        all.ops.contains_key("pd_op.pool2d")
            && all.ops.contains_key("pd_op.kthvalue")
            && all.ops.contains_key("pd_op.leaky_relu")
    );
    let from3 = pir_serde::patch::upgrade_patches(3).unwrap();
    assert!(!from3.ops.contains_key("pd_op.pool2d") && from3.ops.contains_key("pd_op.kthvalue"));
}

#[test]
fn newer_files_load_only_without_unknown_constructs() {
    let newer = program(5, &[&data(1)]);
    let loaded = read_slice(
        pir_dialects::pd_op_context(),
        newer.as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(loaded.version, 5);
    let unknown = program(5, &[&data(1), &op("1.brand_new_op", "", r#"{"%":1}"#, "")]);
    let err = read_slice(
        pir_dialects::pd_op_context(),
        unknown.as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("newer than this reader")
            && err.to_string().contains("pd_op.brand_new_op"),
        "{err}"
    );
}

#[test]
fn development_version_zero_needs_consent() {
    let dev = program(0, &[&data(1)]);
    let err = read_slice(
        pir_dialects::pd_op_context(),
        dev.as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("development builds"), "{err}");
    let options = ReadOptions {
        accept_develop_version: true,
        ..Default::default()
    };
    assert!(read_slice(pir_dialects::pd_op_context(), dev.as_bytes(), &options).is_ok());
}

#[test]
fn random_mutations_of_patch_yaml_never_panic() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const BYTES: &[u8] = b" :-\n[]{}\"'#&*!|>0123456789abcdefgtyp_.";
    for &(_, _, text) in pir_serde::patch::BUILTIN_PATCHES {
        for _ in 0..400 {
            let mut bytes = text.as_bytes().to_vec();
            for _ in 0..1 + next() % 4 {
                if bytes.is_empty() {
                    break;
                }
                let i = (next() % bytes.len() as u64) as usize;
                match next() % 3 {
                    0 => bytes[i] = BYTES[(next() % BYTES.len() as u64) as usize],
                    1 => {
                        bytes.remove(i);
                    }
                    _ => bytes.insert(i, BYTES[(next() % BYTES.len() as u64) as usize]),
                }
            }
            let mutated = String::from_utf8_lossy(&bytes);
            if let Ok(set) = parse_patch_yaml("m.yaml", &mutated) {
                // Whatever parses must also apply or fail cleanly.
                let options = ReadOptions {
                    patches: Some(Arc::new(set)),
                    ..Default::default()
                };
                let _ = read_slice(
                    pir_dialects::pd_op_context(),
                    program(1, &[&data(1)]).as_bytes(),
                    &options,
                );
            }
        }
    }
}
