//! Hostile programs: files that unfold into far more than they hold stop at
//! the translation's limits with an error naming the op; inputs built so a
//! quadratic step would take minutes complete (no times are asserted: the
//! inputs are sized so that linear work takes well under a second and
//! quadratic work minutes); attributes of the wrong kind and errors found
//! before an op's `type` field name the op.

#[allow(missing_docs, clippy::all, dead_code)]
#[path = "support/proto.rs"]
mod proto;

#[path = "support/build.rs"]
mod build;

use build::{attr, block, empty_slot, encode, int_attr, op, slot, tensor};
use pir_legacy::translate::Limits;
use pir_legacy::{LegacyError, Options, ProgramDesc};
use prost::Message;
use proto::op_desc;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn block_attr(name: &str, idx: i32) -> op_desc::Attr {
    op_desc::Attr {
        block_idx: Some(idx),
        ..attr(name, proto::AttrType::Block)
    }
}

fn translate(bytes: &[u8], options: Options) -> Result<pir_core::Program, LegacyError> {
    let arena = pir_legacy::DescArena::default();
    let desc = ProgramDesc::decode(bytes, &arena)?;
    pir_legacy::translate(&desc, pir_dialects::pd_op_context(), options)
}

/// A `conditional_block` on `c` running block `sub`.
fn cond_block(sub: i32) -> proto::OpDesc {
    op(
        "conditional_block",
        vec![slot("Cond", &names(&["c"])), empty_slot("Input")],
        vec![empty_slot("Out"), empty_slot("Scope")],
        vec![block_attr("sub_block", sub)],
    )
}

/// Block `i` runs block `i + 1` twice: 2^depth translations of the last.
fn doubling(depth: i32) -> Vec<u8> {
    let mut blocks = vec![block(
        0,
        -1,
        vec![tensor("c", 0, &[1], false)],
        vec![cond_block(1), cond_block(1)],
    )];
    for i in 1..depth {
        blocks.push(block(
            i,
            i - 1,
            vec![],
            vec![cond_block(i + 1), cond_block(i + 1)],
        ));
    }
    blocks.push(block(depth, depth - 1, vec![], vec![]));
    encode(blocks)
}

#[test]
fn doubling_blocks_stop_at_the_op_limit() {
    let bytes = doubling(40);
    assert!(bytes.len() < 10_000, "a small file: {} bytes", bytes.len());
    let options = Options {
        limits: Limits {
            max_ops: 100_000,
            ..Limits::default()
        },
        ..Options::default()
    };
    let err = translate(&bytes, options).expect_err("2^40 branches");
    let LegacyError::Limit { at, message } = &err else {
        panic!("not a limit error: {err}");
    };
    assert!(message.contains("100000 ops"), "{err}");
    assert_eq!(at.op_type.as_deref(), Some("conditional_block"), "{err}");
    assert!(at.block.is_some() && at.op.is_some(), "{err}");
}

#[test]
fn doubling_blocks_stop_at_the_sub_block_limit() {
    let options = Options {
        limits: Limits {
            max_sub_blocks: 1000,
            ..Limits::default()
        },
        ..Options::default()
    };
    let err = translate(&doubling(40), options).expect_err("2^40 branches");
    assert!(
        matches!(&err, LegacyError::Limit { message, .. } if message.contains("1000 sub-block")),
        "{err}"
    );
    // A program within the limits translates.
    let program = translate(&doubling(5), options).expect("2^5 branches");
    assert!(program.verify().is_ok());
}

/// A legacy `split` into 60,000 outputs: each output once in the op's
/// tables and the top scope's map order (which once rehashed on every
/// insert past 10,079 keys).
#[test]
fn split_into_60k_outputs_completes() {
    let n = 60_000;
    let outs: Vec<String> = (0..n).map(|i| format!("o{i}")).collect();
    let mut vars = vec![tensor("x", 5, &[n as i64], false)];
    vars.extend(outs.iter().map(|o| tensor(o, 5, &[1], false)));
    let split = op(
        "split",
        vec![slot("X", &names(&["x"]))],
        vec![slot("Out", &outs)],
        vec![int_attr("axis", 0), int_attr("num", n)],
    );
    let program = translate(
        &encode(vec![block(0, -1, vars, vec![split])]),
        Options::default(),
    )
    .expect("translates");
    assert!(program.num_ops() >= 2);
}

/// 10,000 attributes in reverse name order: each found by a hash index
/// rather than a scan of those before it.
#[test]
fn many_attributes_out_of_order_decode() {
    let n = 10_000;
    let attrs: Vec<op_desc::Attr> = (0..n)
        .rev()
        .map(|i| int_attr(&format!("a{i:05}"), i))
        .collect();
    let relu = op("relu", vec![], vec![], attrs);
    let bytes = encode(vec![block(0, -1, vec![], vec![relu])]);
    let arena = pir_legacy::DescArena::default();
    let desc = ProgramDesc::decode(&bytes, &arena).expect("decodes");
    assert_eq!(desc.blocks[0].ops[0].attrs.len(), n as usize);
    // Repeated names keep the last value.
    let half = n / 2;
    let twice = op(
        "relu",
        vec![],
        vec![],
        (0..n)
            .rev()
            .map(|i| int_attr(&format!("a{:05}", i % half), i))
            .collect(),
    );
    let bytes = encode(vec![block(0, -1, vec![], vec![twice])]);
    let arena = pir_legacy::DescArena::default();
    let desc = ProgramDesc::decode(&bytes, &arena).expect("decodes");
    let op = &desc.blocks[0].ops[0];
    assert_eq!(op.attrs.len(), half as usize);
    assert_eq!(
        op.attr("a00007"),
        Some(&pir_legacy::desc::AttrValue::Int(7))
    );
}

#[test]
fn sub_block_of_the_wrong_kind_is_an_error() {
    let mut bad = cond_block(1);
    bad.attrs = vec![op_desc::Attr {
        s: Some("1".into()),
        ..attr("sub_block", proto::AttrType::String)
    }];
    let bytes = encode(vec![
        block(0, -1, vec![tensor("c", 0, &[1], false)], vec![bad]),
        block(1, 0, vec![], vec![]),
    ]);
    let err = translate(&bytes, Options::default()).expect_err("no block to run");
    let LegacyError::Invalid { at, message } = &err else {
        panic!("not an invalid-program error: {err}");
    };
    assert_eq!((at.block, at.op), (Some(0), Some(0)), "{err}");
    assert_eq!(at.op_type.as_deref(), Some("conditional_block"), "{err}");
    assert!(
        message.contains("`sub_block`") && message.contains("STRING"),
        "{err}"
    );
}

#[test]
fn declared_attribute_of_the_wrong_kind_is_an_error() {
    let cast = cast_with_string_dtype();
    let vars = vec![tensor("x", 5, &[2], false), tensor("y", 5, &[2], false)];
    let err = translate(
        &encode(vec![block(0, -1, vars, vec![cast])]),
        Options::default(),
    )
    .expect_err("a string is no data type");
    assert!(err.to_string().contains("`dtype` of `pd_op.cast`"), "{err}");
    assert!(err.to_string().contains("block 0, op 0, `cast`"), "{err}");
}

/// An op of type `ty` from input `X` = `x` to output `Out` = `y`, with one
/// attribute.
fn x_to_y(ty: &str, attribute: op_desc::Attr) -> proto::OpDesc {
    op(
        ty,
        vec![slot("X", &names(&["x"]))],
        vec![slot("Out", &names(&["y"]))],
        vec![attribute],
    )
}

/// A `cast` to `out_dtype` given as a string (no data type), `x` to `y`.
fn cast_with_string_dtype() -> proto::OpDesc {
    let dtype = op_desc::Attr {
        s: Some("float32".into()),
        ..attr("out_dtype", proto::AttrType::String)
    };
    x_to_y("cast", dtype)
}

/// Kinds are checked with the final dictionaries, but a kind error is still
/// the one reported when a later op fails as well, and it is found again in
/// a second translation in the same context (a wrong dictionary is never
/// remembered as checked).
#[test]
fn wrong_kind_is_reported_before_a_later_error_and_every_time() {
    let vars = vec![tensor("x", 5, &[2], false), tensor("y", 5, &[2], false)];
    let unknown = op("no_such_op", vec![], vec![], vec![]);
    let bytes = encode(vec![block(
        0,
        -1,
        vars.clone(),
        vec![cast_with_string_dtype(), unknown],
    )]);
    let ctx = pir_dialects::pd_op_context();
    for _ in 0..2 {
        let arena = pir_legacy::DescArena::default();
        let desc = ProgramDesc::decode(&bytes, &arena).expect("well-formed");
        let err = pir_legacy::translate(&desc, ctx.clone(), Options::default())
            .expect_err("a string is no data type");
        assert!(err.to_string().contains("`dtype` of `pd_op.cast`"), "{err}");
        assert!(err.to_string().contains("block 0, op 0, `cast`"), "{err}");
    }
    // Alone, the op fails every time too, here after the same op with a
    // data type made (and remembered) its dictionary.
    let good = x_to_y("cast", int_attr("out_dtype", 5));
    let fine = encode(vec![block(0, -1, vars.clone(), vec![good])]);
    let bad = encode(vec![block(0, -1, vars, vec![cast_with_string_dtype()])]);
    for bytes in [&fine, &bad, &fine, &bad] {
        let arena = pir_legacy::DescArena::default();
        let desc = ProgramDesc::decode(bytes, &arena).expect("well-formed");
        let result = pir_legacy::translate(&desc, ctx.clone(), Options::default());
        assert_eq!(result.is_ok(), bytes == &fine, "{:?}", result.err());
    }
}

#[test]
fn read_attribute_of_the_wrong_kind_is_an_error() {
    let num = op_desc::Attr {
        s: Some("2".into()),
        ..attr("num", proto::AttrType::String)
    };
    let split = x_to_y("split", num);
    let vars = vec![tensor("x", 5, &[2], false), tensor("y", 5, &[2], false)];
    let err = translate(
        &encode(vec![block(0, -1, vars, vec![split])]),
        Options::default(),
    )
    .expect_err("a string is no count");
    assert!(err.to_string().contains("block 0, op 0, `split`"), "{err}");
    assert!(
        err.to_string().contains("attribute `num` is a STRING"),
        "{err}"
    );
}

/// Prost writes `type` (field 3) after the inputs and outputs: an error
/// found in an input slot still names the op.
#[test]
fn errors_before_the_type_field_name_the_op() {
    let args: Vec<String> = (0..=pir_legacy::desc::MAX_ARGS)
        .map(|_| "x".to_owned())
        .collect();
    let relu = op("relu", vec![slot("X", &args)], vec![], vec![]);
    let bytes = encode(vec![block(0, -1, vec![], vec![relu])]);
    let arena = pir_legacy::DescArena::default();
    let err = ProgramDesc::decode(&bytes, &arena).expect_err("too many arguments");
    assert!(err.to_string().contains("block 0, op 0, `relu`"), "{err}");
}

/// A legacy `split` of `x` into `outs` (declared by the caller).
fn split_into(outs: &[String]) -> proto::OpDesc {
    op(
        "split",
        vec![slot("X", &names(&["x"]))],
        vec![slot("Out", outs)],
        vec![int_attr("axis", 0), int_attr("num", outs.len() as i32)],
    )
}

fn relu(x: &str, out: &str) -> proto::OpDesc {
    op(
        "relu",
        vec![slot("X", &names(&[x]))],
        vec![slot("Out", &names(&[out]))],
        vec![],
    )
}

fn stop_gradient(mut var: proto::VarDesc) -> proto::VarDesc {
    var.stop_gradient = Some(true);
    var
}

/// The `stop_gradient` attribute of each `pd_op.relu` line, in order.
fn relu_flags(program: &pir_core::Program) -> Vec<String> {
    program
        .to_string()
        .lines()
        .filter(|l| l.contains("\"pd_op.relu\""))
        .map(|l| {
            let at = l.find("stop_gradient:").map_or(l.len(), |i| i);
            l[at..].chars().take_while(|c| *c != ']').collect()
        })
        .collect()
}

/// 50,000 top-scope names and 50,000 blocks: the flags of each name are
/// those of the last block that sees it, found once per declaring block
/// (asking every block for every name, as Paddle does, is 2.5 billion
/// look-ups). The last block that sees a name decides even where a block
/// before it declares the name itself.
#[test]
fn many_names_and_many_blocks_set_flags_in_linear_time() {
    let n = 50_000;
    let outs: Vec<String> = (0..n).map(|i| format!("o{i}")).collect();
    let mut vars = vec![
        tensor("x", 5, &[n as i64], false),
        tensor("y", 5, &[n as i64], false),
        tensor("z", 5, &[n as i64], false),
    ];
    vars.extend(outs.iter().map(|o| tensor(o, 5, &[1], false)));
    let ops = vec![split_into(&outs), relu("x", "y"), relu("x", "z")];
    let mut blocks = vec![block(0, -1, vars, ops)];
    let last = n;
    for i in 1..=last {
        // `z` declared (stop_gradient) by a block in the middle, `y` by
        // the last block: all are children of block 0, which sees both.
        let vars = match i {
            _ if i == n / 2 => vec![stop_gradient(tensor("z", 5, &[n as i64], false))],
            _ if i == last => vec![stop_gradient(tensor("y", 5, &[n as i64], false))],
            _ => vec![],
        };
        blocks.push(block(i, 0, vars, vec![]));
    }
    let program = translate(&encode(blocks), Options::default()).expect("translates");
    assert!(program.verify().is_ok());
    // `y`: the last block's variable; `z`: block 0's, seen from the last
    // block (the middle block's own is not on its chain).
    assert_eq!(
        relu_flags(&program),
        ["stop_gradient:[true", "stop_gradient:[false"]
    );
}

/// `n` empty blocks, block `i` the child of block `i - 1`.
fn chain(n: i32) -> Vec<proto::BlockDesc> {
    let mut blocks = vec![block(0, -1, vec![tensor("c", 0, &[1], false)], vec![])];
    blocks.extend((1..n).map(|i| block(i, i - 1, vec![], vec![])));
    blocks
}

/// Block 0 without `parent_idx` (read as 0, its own parent), and cycles
/// among blocks: rejected when the program is read, naming a block on the
/// cycle, instead of each failed variable look-up walking every block.
#[test]
fn block_parent_cycles_are_errors_naming_the_block() {
    let n = 100_000;
    let outs: Vec<String> = (0..50_000).map(|i| format!("o{i}")).collect();
    let top = block(
        0,
        -1,
        vec![tensor("x", 5, &[50_000], false)],
        vec![split_into(&outs)],
    );
    let rest: Vec<proto::BlockDesc> = (1..n).map(|i| block(i, 0, vec![], vec![])).collect();
    // Block 0 as prost would write it, without field 2 (`parent_idx`).
    let mut top_bytes = top.encode_to_vec();
    let idx_field = [0x08, 0x00];
    let parent_field = [
        0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
    ];
    assert_eq!(top_bytes[..2], idx_field);
    assert_eq!(top_bytes[2..13], parent_field);
    top_bytes.drain(2..13);
    let mut bytes = vec![0x0a];
    prost::encoding::encode_varint(top_bytes.len() as u64, &mut bytes);
    bytes.extend(&top_bytes);
    bytes.extend(encode(rest.clone()));
    let arena = pir_legacy::DescArena::default();
    let err = ProgramDesc::decode(&bytes, &arena).expect_err("block 0 is its own parent");
    let LegacyError::Invalid { at, message } = &err else {
        panic!("not an invalid-program error: {err}");
    };
    assert_eq!(at.block, Some(0), "{err}");
    assert!(message.contains("block 0 is its own ancestor"), "{err}");

    // 1 -> 3 -> 2 -> 1, the other blocks children of block 0.
    let mut blocks = chain(1);
    blocks.extend(rest);
    for (child, parent) in [(1, 3), (3, 2), (2, 1)] {
        blocks[child].parent_idx = parent;
    }
    let arena = pir_legacy::DescArena::default();
    let err = ProgramDesc::decode(&encode(blocks), &arena).expect_err("a cycle");
    assert!(
        matches!(&err, LegacyError::Invalid { at, .. } if at.block == Some(1)),
        "{err}"
    );
    assert!(err.to_string().contains("its own ancestor"), "{err}");
}

/// A chain of 100,000 blocks (a look-up from the last walking all of them)
/// is rejected at the first block past `MAX_DEPTH` ancestors; a chain just
/// within it, and 100,000 blocks side by side, are read.
#[test]
fn block_chains_deeper_than_max_depth_are_errors() {
    use pir_legacy::translate::MAX_DEPTH;
    let arena = pir_legacy::DescArena::default();
    let err = ProgramDesc::decode(&encode(chain(100_000)), &arena).expect_err("too deep");
    let LegacyError::Limit { at, message } = &err else {
        panic!("not a limit error: {err}");
    };
    assert_eq!(at.block, Some(MAX_DEPTH + 1), "{err}");
    assert!(
        message.contains(&format!("more than {MAX_DEPTH} ancestors")),
        "{err}"
    );

    let deepest = chain(MAX_DEPTH as i32 + 1);
    let desc_bytes = encode(deepest);
    let arena = pir_legacy::DescArena::default();
    let desc = ProgramDesc::decode(&desc_bytes, &arena).expect("within the limit");
    assert!(desc.find_var(MAX_DEPTH, "c").is_some());
    assert!(desc.find_var(MAX_DEPTH, "nowhere").is_none());

    let mut wide = chain(1);
    wide.extend((1..100_000).map(|i| block(i, 0, vec![], vec![])));
    let program = translate(&encode(wide), Options::default()).expect("translates");
    assert!(program.verify().is_ok());
}

/// Ops whose 10,000 slots (the most an op may have) come in reverse
/// order, outputs before inputs, with repeated names: read in `n log n`
/// per op, into the same op as its slots written in Paddle's order (a
/// repeated name keeping the last arguments). Inserting each slot in place
/// moves the ones after it: 50 million moves per op.
#[test]
fn slots_out_of_order_are_read_in_linear_time() {
    let per_part = 4_000;
    let repeats = 2_000;
    let names_of = |prefix: &str| -> Vec<String> {
        (0..per_part).map(|i| format!("{prefix}{i:04}")).collect()
    };
    let (ins, outs) = (names_of("I"), names_of("O"));
    let args = |name: &str, round: usize| vec![format!("{name}_{round}")];
    // Outputs first, each part backwards; then the first `repeats` names
    // of each part again with new arguments.
    let mut scrambled = op("relu", vec![], vec![], vec![]);
    for name in outs.iter().rev() {
        scrambled.outputs.push(slot(name, &args(name, 0)));
    }
    for name in ins.iter().rev() {
        scrambled.inputs.push(slot(name, &args(name, 0)));
    }
    for name in ins.iter().take(repeats) {
        scrambled.inputs.push(slot(name, &args(name, 1)));
    }
    for name in outs.iter().take(repeats) {
        scrambled.outputs.push(slot(name, &args(name, 1)));
    }
    // Prost writes all inputs before all outputs: field order by hand.
    let mut body = Vec::new();
    for s in &scrambled.outputs[..per_part] {
        prost::encoding::message::encode(2, s, &mut body);
    }
    for s in &scrambled.inputs {
        prost::encoding::message::encode(1, s, &mut body);
    }
    for s in &scrambled.outputs[per_part..] {
        prost::encoding::message::encode(2, s, &mut body);
    }
    prost::encoding::string::encode(3, &scrambled.r#type, &mut body);
    let ops = 100;
    let mut block_bytes = Vec::new();
    for _ in 0..ops {
        prost::encoding::encode_key(
            4,
            prost::encoding::WireType::LengthDelimited,
            &mut block_bytes,
        );
        prost::encoding::encode_varint(body.len() as u64, &mut block_bytes);
        block_bytes.extend(&body);
    }
    let mut block_msg = block(0, -1, vec![], vec![]).encode_to_vec();
    block_msg.extend(&block_bytes);
    let mut bytes = Vec::new();
    prost::encoding::encode_key(1, prost::encoding::WireType::LengthDelimited, &mut bytes);
    prost::encoding::encode_varint(block_msg.len() as u64, &mut bytes);
    bytes.extend(&block_msg);
    let arena = pir_legacy::DescArena::default();
    let desc = ProgramDesc::decode(&bytes, &arena).expect("decodes");

    let sorted_slot = |name: &String, i: usize| {
        let round = usize::from(i < repeats);
        slot(name, &args(name, round))
    };
    let in_order = op(
        "relu",
        ins.iter()
            .enumerate()
            .map(|(i, n)| sorted_slot(n, i))
            .collect(),
        outs.iter()
            .enumerate()
            .map(|(i, n)| sorted_slot(n, i))
            .collect(),
        vec![],
    );
    let expected_bytes = encode(vec![block(0, -1, vec![], vec![in_order])]);
    let arena = pir_legacy::DescArena::default();
    let expected = ProgramDesc::decode(&expected_bytes, &arena).expect("decodes");
    assert_eq!(desc.blocks[0].ops.len(), ops);
    for op in &desc.blocks[0].ops {
        assert_eq!(op, &expected.blocks[0].ops[0]);
    }
    assert_eq!(desc.blocks[0].ops[0].inputs().len(), per_part);
    assert_eq!(desc.blocks[0].ops[0].input("I0001"), Some(&["I0001_1"][..]));
}

/// Block 1 holds 100,000 ops that make nothing (`shadow_output` of an
/// unbound name) and block 0 runs it from 100,000 `conditional_block` ops:
/// within every limit on what is made, but walking 10^10 legacy ops. The
/// walk stops at `Limits::max_walked`, naming the op; within it, the
/// same blocks translate.
#[test]
fn a_block_of_ops_that_make_nothing_run_many_times_stops_at_the_walk_limit() {
    let n = 100_000;
    let nothing = op(
        "shadow_output",
        vec![slot("x", &names(&["unbound"]))],
        vec![],
        vec![],
    );
    let program = |runs: usize| {
        encode(vec![
            block(
                0,
                -1,
                vec![tensor("c", 0, &[1], false)],
                vec![cond_block(1); runs],
            ),
            block(1, 0, vec![], vec![nothing.clone(); n]),
        ])
    };
    // The default limit (10^8) takes seconds unoptimized: a lower one.
    let options = Options {
        limits: Limits {
            max_walked: 2_000_000,
            ..Limits::default()
        },
        ..Options::default()
    };
    let err = translate(&program(n), options).expect_err("10^10 ops walked");
    let LegacyError::Limit { at, message } = &err else {
        panic!("not a limit error: {err}");
    };
    assert!(message.contains("legacy op entries walked"), "{err}");
    assert_eq!(at.block, Some(1), "{err}");
    assert_eq!(at.op_type.as_deref(), Some("shadow_output"), "{err}");

    let translated = translate(&program(3), options).expect("3 runs");
    assert!(translated.verify().is_ok());
}
