//! Tests of the general path's helpers (`general.rs`).

use prost::Message;

use super::*;
use crate::desc::ProgramDesc;
use crate::proto;

/// Whether [`is_inplace`] finds an op reading `inputs` (one slot each)
/// and writing `outputs` in place.
fn in_place(inputs: &[&str], outputs: &[&str]) -> bool {
    let slots = |prefix: &str, names: &[&str]| -> Vec<proto::op_desc::Var> {
        let slot = |(i, name): (usize, &&str)| proto::op_desc::Var {
            parameter: format!("{prefix}{i:03}"),
            arguments: vec![(*name).into()],
        };
        names.iter().enumerate().map(slot).collect()
    };
    let op = proto::OpDesc {
        r#type: "scale".into(),
        inputs: slots("X", inputs),
        outputs: slots("Out", outputs),
        attrs: vec![],
        is_target: None,
    };
    let block = proto::BlockDesc {
        idx: 0,
        parent_idx: -1,
        vars: vec![],
        ops: vec![op],
        forward_block_idx: None,
    };
    let program = proto::ProgramDesc {
        blocks: vec![block],
        version: None,
        op_version_map: None,
    };
    let bytes = program.encode_to_vec();
    let arena = crate::DescArena::default();
    let desc = ProgramDesc::decode(&bytes, &arena).expect("a valid program");
    is_inplace(&desc.blocks[0].ops[0])
}

#[test]
fn an_op_is_in_place_when_it_writes_a_name_it_reads() {
    assert!(!in_place(&["x"], &["y"]));
    assert!(in_place(&["w", "x"], &["y", "x"]));
    // Names of one length, or of lengths 64 apart, differ by content.
    assert!(!in_place(&["ab", "cd"], &["ef"]));
    let long = "a".repeat(65);
    assert!(!in_place(&["a"], &[long.as_str()]));
    assert!(in_place(&[long.as_str()], &[long.as_str()]));
    // Many inputs: found by a set.
    let many: Vec<String> = (0..40).map(|i| format!("v{i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    assert!(in_place(&many, &["y", "v39"]));
    assert!(!in_place(&many, &["y", "v40"]));
}
