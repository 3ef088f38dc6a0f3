#![allow(clippy::unwrap_used)] // a test fails loudly by design

use super::*;
use crate::patch::parse_patch_yaml;

/// `{"AT":{"#":id,"D":data},"N":name}`.
fn entry(name: &str, id: &str, data: Json) -> Json {
    Json::Obj(vec![
        ("AT".into(), Json::tagged_with(id, data)),
        ("N".into(), Json::Str(name.into())),
    ])
}

fn array(name: &str, id: &str, items: &[i64]) -> Json {
    let items = items
        .iter()
        .map(|&i| Json::tagged_with(id, Json::Int(i)))
        .collect();
    entry(name, "0.a_array", Json::Arr(items))
}

fn kind(list: &[Json], name: &str) -> String {
    let e = list
        .iter()
        .find(|e| e.get("N").and_then(Json::as_str) == Some(name))
        .unwrap();
    String::from_utf8(e.get("AT").unwrap().to_bytes()).unwrap()
}

/// A plan undoing one patch file written here, as if it were version 2's
/// and the target were 1.
fn plan_of(yaml: &str) -> Result<Downgrade, DowngradeError> {
    let set = parse_patch_yaml("t.yaml", yaml).unwrap();
    let undo = version_undo(set, &older_kinds().unwrap().0, 1)?;
    Ok(Downgrade {
        target: 1,
        touched: undo.ops.keys().cloned().collect(),
        versions: vec![undo],
    })
}

#[test]
fn releases_name_their_versions() {
    assert_eq!(release_version("3.0"), Some(1));
    assert_eq!(release_version("3.1.1"), Some(2));
    assert_eq!(release_version("3.2"), Some(3));
    assert_eq!(release_version("3.3"), Some(4));
    assert_eq!(release_version("3.4"), None);
    assert_eq!(release_version("3.1.x"), None);
    assert_eq!(release_version("3"), None);
    assert_eq!(release_name(2), Some("3.1"));
    assert_eq!(release_name(9), None);
}

#[test]
fn the_current_version_needs_nothing_undone() {
    for v in [0, CURRENT_VERSION, CURRENT_VERSION + 1] {
        assert!(Downgrade::to(v).unwrap().touches_nothing());
    }
    let plan = Downgrade::to(1).unwrap();
    assert!(plan.touches("pd_op.pool2d") && plan.touches("pd_op.leaky_relu"));
    assert!(!plan.touches("pd_op.relu"));
    // Version 3 keeps what patches 2 and 3 did.
    let plan = Downgrade::to(3).unwrap();
    assert!(!plan.touches("pd_op.pool2d") && !plan.touches("pd_op.kthvalue"));
}

#[test]
fn modify_attr_double_goes_back_to_float() {
    let mut attrs = vec![entry(
        "negative_slope",
        "0.a_f64",
        Json::Float(0.20000000298023224),
    )];
    let plan = Downgrade::to(3).unwrap();
    assert_eq!(
        plan.undo_op("pd_op.leaky_relu", &mut attrs, None, 0),
        Ok(None)
    );
    assert_eq!(
        kind(&attrs, "negative_slope"),
        r##"{"#":"0.a_f32","D":0.20000000298023224}"##
    );
    // A double of a native 3.3 file is rounded as the older release
    // rounded its float attribute.
    let mut attrs = vec![entry("epsilon", "0.a_f64", Json::Float(1e-5))];
    plan.undo_op("pd_op.group_norm", &mut attrs, None, 0)
        .unwrap();
    assert_eq!(
        kind(&attrs, "epsilon"),
        r##"{"#":"0.a_f32","D":9.999999747378752e-06}"##
    );
}

#[test]
fn modify_attr_int64_goes_back_to_int32_only_when_it_fits() {
    let plan = Downgrade::to(1).unwrap();
    let mut attrs = vec![entry("k", "0.a_i64", Json::Int(3))];
    plan.undo_op("pd_op.kthvalue", &mut attrs, None, 0).unwrap();
    assert_eq!(kind(&attrs, "k"), r##"{"#":"0.a_i32","D":3}"##);
    let mut attrs = vec![entry("k", "0.a_i64", Json::Int(1 << 40))];
    let err = plan
        .undo_op("pd_op.kthvalue", &mut attrs, None, 7)
        .unwrap_err();
    let DowngradeError::Inexpressible {
        op_index,
        op_name,
        attribute,
        version,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(
        (*op_index, op_name.as_str(), attribute.as_str(), *version),
        (7, "pd_op.kthvalue", "k", 1)
    );
    let message = err.to_string();
    assert!(message.contains("op 7 (`pd_op.kthvalue`)"), "{message}");
    assert!(message.contains("Paddle 3.0"), "{message}");
    assert!(message.contains("1099511627776"), "{message}");
}

#[test]
fn a_double_beyond_float_is_refused() {
    let plan = Downgrade::to(3).unwrap();
    let mut attrs = vec![entry("beta", "0.a_f64", Json::Float(1e300))];
    let err = plan
        .undo_op("pd_op.softplus", &mut attrs, None, 2)
        .unwrap_err();
    assert!(err.to_string().contains("`beta`"), "{err}");
}

#[test]
fn array_elements_are_narrowed_one_by_one() {
    let plan = Downgrade::to(1).unwrap();
    let mut attrs = vec![
        array("strides", "0.a_i64", &[2, 2]),
        array("paddings", "0.a_i64", &[0, 0, 1]),
        entry("data_format", "0.a_str", Json::Str("NCHW".into())),
    ];
    plan.undo_op("pd_op.pool2d", &mut attrs, None, 0).unwrap();
    assert_eq!(
        kind(&attrs, "strides"),
        r##"{"#":"0.a_array","D":[{"#":"0.a_i32","D":2},{"#":"0.a_i32","D":2}]}"##
    );
    // The yaml's element count does not matter, as on reading.
    assert!(kind(&attrs, "paddings").matches("0.a_i32").count() == 3);
    assert_eq!(
        kind(&attrs, "data_format"),
        r##"{"#":"0.a_str","D":"NCHW"}"##
    );
    // Version 2 wrote int64 strides: nothing to undo.
    let mut attrs = vec![array("strides", "0.a_i64", &[2, 2])];
    Downgrade::to(2)
        .unwrap()
        .undo_op("pd_op.pool2d", &mut attrs, None, 0)
        .unwrap();
    assert!(kind(&attrs, "strides").contains("0.a_i64"));
    // An element beyond int32 names the attribute.
    let mut attrs = vec![array("strides", "0.a_i64", &[1, 1 << 33])];
    let err = plan
        .undo_op("pd_op.pool2d", &mut attrs, None, 4)
        .unwrap_err();
    assert!(err.to_string().contains("element 1"), "{err}");
}

#[test]
fn an_attribute_already_of_the_older_kind_is_left() {
    let plan = Downgrade::to(1).unwrap();
    let mut attrs = vec![entry("negative_slope", "0.a_f32", Json::Float(0.5))];
    plan.undo_op("pd_op.leaky_relu", &mut attrs, None, 0)
        .unwrap();
    assert_eq!(
        kind(&attrs, "negative_slope"),
        r##"{"#":"0.a_f32","D":0.5}"##
    );
}

#[test]
fn add_attr_is_removed_when_it_holds_the_default() {
    let plan = Downgrade::to(2).unwrap();
    let mut attrs = vec![
        entry("axis", "0.a_i32", Json::Int(0)),
        entry("output_size", "0.a_i64", Json::Int(-1)),
    ];
    plan.undo_op("pd_op.repeat_interleave", &mut attrs, None, 0)
        .unwrap();
    assert_eq!(attrs.len(), 1);
    // Version 3 has the attribute.
    let mut attrs = vec![entry("output_size", "0.a_i64", Json::Int(-1))];
    Downgrade::to(3)
        .unwrap()
        .undo_op("pd_op.repeat_interleave", &mut attrs, None, 0)
        .unwrap();
    assert_eq!(attrs.len(), 1);
    // Bool defaults given as the string "false" (4.yaml).
    let mut attrs = vec![
        entry("using_ue8m0_scale", "0.a_bool", Json::Bool(false)),
        entry("return_expert_indices", "0.a_bool", Json::Bool(false)),
        entry("override_buffer_size", "0.a_i32", Json::Int(-1)),
    ];
    Downgrade::to(3)
        .unwrap()
        .undo_op("pd_op.moe_permute", &mut attrs, None, 0)
        .unwrap();
    assert!(attrs.is_empty());
}

#[test]
fn add_attr_with_another_value_is_refused() {
    let plan = Downgrade::to(2).unwrap();
    let mut attrs = vec![entry("output_size", "0.a_i64", Json::Int(12))];
    let err = plan
        .undo_op(
            "pd_op.repeat_interleave_with_tensor_index",
            &mut attrs,
            None,
            3,
        )
        .unwrap_err();
    let message = err.to_string();
    for part in [
        "op 3",
        "`pd_op.repeat_interleave_with_tensor_index`",
        "`output_size`",
        "3.yaml",
        "12",
    ] {
        assert!(message.contains(part), "{part}: {message}");
    }
    // The same value of another kind is another value.
    let mut attrs = vec![entry("output_size", "0.a_i32", Json::Int(-1))];
    assert!(plan
        .undo_op("pd_op.repeat_interleave", &mut attrs, None, 0)
        .is_err());
}

#[test]
fn renames_are_undone() {
    let plan = plan_of(
        "op_patches:\n  - op_name : pd_op.old\n    actions:\n      - action : modify_name\n        data : pd_op.new\n      - action : modify_attr_name\n        object : a\n        data : b\n      - action : modify_output_attr_name\n        object : c\n        data : d\n",
    )
    .unwrap();
    assert!(plan.touches("pd_op.new") && !plan.touches("pd_op.old"));
    let mut attrs = vec![entry("b", "0.a_i32", Json::Int(1))];
    let mut outputs = vec![entry("d", "0.a_bool", Json::Bool(true))];
    let renamed = plan
        .undo_op("pd_op.new", &mut attrs, Some(&mut outputs), 0)
        .unwrap();
    assert_eq!(renamed.as_deref(), Some("pd_op.old"));
    assert_eq!(attrs[0].get("N"), Some(&Json::Str("a".into())));
    assert_eq!(outputs[0].get("N"), Some(&Json::Str("c".into())));
}

#[test]
fn output_attr_additions_are_undone_in_oa() {
    let plan = plan_of(
        "op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : add_output_attr\n        object : flag\n        type : pir::BoolAttribute\n        data : true\n",
    )
    .unwrap();
    let mut attrs = vec![entry("flag", "0.a_bool", Json::Bool(true))];
    let mut outputs = attrs.clone();
    plan.undo_op("pd_op.x", &mut attrs, Some(&mut outputs), 0)
        .unwrap();
    assert_eq!(attrs.len(), 1, "only OA is touched");
    assert!(outputs.is_empty());
}

#[test]
fn actions_without_a_known_undo_are_refused_when_the_plan_is_built() {
    let cases = [
        ("delete_attr", "op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : delete_attr\n        object : a\n"),
        ("modify_attr", "op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : modify_attr\n        object : a\n        type : pir::Int64Attribute\n        data : 3\n"),
        ("modify_attr", "op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : modify_attr\n        object : a\n        type : pir::StrAttribute\n"),
        ("delete_input", "op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : delete_input\n        object : 0\n"),
        ("add_output", "op_patches:\n  - op_name : pd_op.x\n    actions:\n      - action : add_output\n        object : 0\n        type : pir::Float32Type\n"),
        ("modify_attr", "op_patches:\n  - op_name : builtin.parameter\n    actions:\n      - action : modify_attr\n        object : need_clip\n        type : pir::BoolAttribute\n"),
        ("delete_value", "op_pair_patches:\n  - op_pair : [pd_op.a, pd_op.b]\n    actions:\n      - action : delete_value\n        object : [0, 0]\n"),
        ("modify_name", "type_patches:\n  - type_name : pir::Int32Type\n    actions:\n      - action : modify_name\n        type : pir::Int64Type\n"),
    ];
    for (action, yaml) in cases {
        let err = plan_of(yaml).unwrap_err();
        let DowngradeError::NotReversible { origin, .. } = &err else {
            panic!("{action}: {err:?}")
        };
        assert!(origin.contains(action), "{action}: {err}");
        assert!(origin.contains("t.yaml"), "{action}: {err}");
    }
}

#[test]
fn every_built_in_patch_has_an_undo() {
    for v in 1..CURRENT_VERSION {
        Downgrade::to(v).unwrap();
    }
}

/// Paddle 3.1.1 already wrote `kthvalue.k` as int64 (a development patch
/// compiled in), and refuses an int32 one: writing for 3.1 keeps it.
#[test]
fn what_a_release_already_wrote_as_patched_is_kept() {
    let plan = Downgrade::to(2).unwrap();
    assert!(!plan.touches("pd_op.kthvalue"));
    let mut attrs = vec![entry("k", "0.a_i64", Json::Int(3))];
    plan.undo_op("pd_op.kthvalue", &mut attrs, None, 0).unwrap();
    assert_eq!(kind(&attrs, "k"), r##"{"#":"0.a_i64","D":3}"##);
    assert!(Downgrade::to(1).unwrap().touches("pd_op.kthvalue"));
}
