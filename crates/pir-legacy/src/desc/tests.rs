//! The reader held to Paddle's `framework.proto` (prost types): every
//! attribute kind, repeated names, limits and damaged input.

use super::decode::{count_fields, decode_version_pair, name_lt};
use super::*;
use crate::proto;
use crate::wire::Reader;
use crate::LegacyError;
use prost::Message;

/// A persistable `FP32` dense tensor variable.
pub(crate) fn tensor_var(name: &str, dims: Vec<i64>) -> proto::VarDesc {
    proto::VarDesc {
        name: name.into(),
        r#type: proto::VarType {
            r#type: 7,
            dense_tensor: Some(proto::var_type::DenseTensorDesc {
                tensor: proto::var_type::TensorDesc { data_type: 5, dims },
                legacy_lod_level: None,
            }),
            ..Default::default()
        },
        persistable: Some(true),
        ..Default::default()
    }
}

fn attr(name: &str, ty: proto::AttrType) -> proto::op_desc::Attr {
    proto::op_desc::Attr {
        name: name.into(),
        r#type: ty as i32,
        ..Default::default()
    }
}

fn program(ops: Vec<proto::OpDesc>) -> proto::ProgramDesc {
    proto::ProgramDesc {
        blocks: vec![proto::BlockDesc {
            idx: 0,
            parent_idx: -1,
            vars: vec![tensor_var("w", vec![2, 3])],
            ops,
            forward_block_idx: None,
        }],
        version: Some(proto::Version { version: Some(7) }),
        op_version_map: None,
    }
}

#[test]
fn round_trip_through_protobuf_keeps_every_attribute_kind() {
    use proto::AttrType as T;
    let mut attrs = Vec::new();
    let mut a = attr("i", T::Int);
    a.i = Some(-3);
    attrs.push(a);
    let mut a = attr("l", T::Longs);
    a.longs = vec![1, -2];
    attrs.push(a);
    let mut a = attr("d", T::Float64s);
    a.float64s = vec![0.5];
    attrs.push(a);
    let mut a = attr("s", T::Scalar);
    a.scalar = Some(proto::Scalar {
        r#type: proto::scalar::Type::Long as i32,
        i: Some(9),
        ..Default::default()
    });
    attrs.push(a);
    let mut a = attr("vs", T::Vars);
    a.vars_name = vec!["w".into()];
    attrs.push(a);
    let mut a = attr("blk", T::Block);
    a.block_idx = Some(0);
    attrs.push(a);
    let op = proto::OpDesc {
        r#type: "scale".into(),
        inputs: vec![
            proto::op_desc::Var {
                parameter: "X".into(),
                arguments: vec!["w".into()],
            },
            proto::op_desc::Var {
                parameter: "A".into(),
                arguments: vec![],
            },
        ],
        outputs: vec![],
        attrs,
        is_target: None,
    };
    let bytes = program(vec![op]).encode_to_vec();
    let arena = crate::DescArena::default();
    let desc = ProgramDesc::decode(&bytes, &arena).unwrap();
    assert_eq!(desc.version, Some(7));
    let op = &desc.blocks[0].ops[0];
    assert_eq!(
        op.inputs()[0].name,
        "A",
        "slots are sorted as Paddle's map keeps them"
    );
    assert_eq!(op.attr("i"), Some(&AttrValue::Int(-3)));
    assert_eq!(op.attr("l"), Some(&AttrValue::Longs(vec![1, -2].into())));
    assert_eq!(op.attr("d"), Some(&AttrValue::Float64s(vec![0.5].into())));
    assert_eq!(op.attr("s"), Some(&AttrValue::Scalar(ScalarValue::Long(9))));
    assert_eq!(op.attr("vs"), Some(&AttrValue::Vars(vec!["w"].into())));
    assert!(op.has_var_attrs, "`vs` holds a variable");
    assert_eq!(op.attr("blk"), Some(&AttrValue::Block(0)));
    let w = desc.find_var(0, "w").unwrap();
    assert_eq!((w.dtype(), w.shape()), (DataKind::Fp32, &[2i64, 3][..]));
    assert!(w.persistable);
}

/// A repeated attribute or slot name replaces the earlier value in its
/// place (Paddle's maps), whether the names come sorted or not; slots
/// are kept sorted per side.
#[test]
fn repeated_names_replace_in_place() {
    let int = |name: &str, i: i32| {
        let mut a = attr(name, proto::AttrType::Int);
        a.i = Some(i);
        a
    };
    let var = |p: &str, a: &str| proto::op_desc::Var {
        parameter: p.into(),
        arguments: vec![a.into()],
    };
    let orders: [&[(&str, i32)]; 3] = [
        &[("a", 1), ("b", 2), ("c", 3), ("b", 4)],
        &[("c", 1), ("a", 2), ("b", 3), ("c", 4)],
        &[("a", 1), ("a", 2), ("b", 3)],
    ];
    for attrs in orders {
        let op = proto::OpDesc {
            r#type: "scale".into(),
            inputs: vec![var("Y", "w"), var("X", "w"), var("Y", "v")],
            outputs: vec![var("Out", "w"), var("A", "v")],
            attrs: attrs.iter().map(|&(n, i)| int(n, i)).collect(),
            ..Default::default()
        };
        let bytes = program(vec![op]).encode_to_vec();
        let arena = crate::DescArena::default();
        let desc = ProgramDesc::decode(&bytes, &arena).unwrap();
        let op = &desc.blocks[0].ops[0];
        let mut want: Vec<(&str, i32)> = Vec::new();
        for &(n, i) in attrs {
            match want.iter_mut().find(|(m, _)| *m == n) {
                Some(e) => e.1 = i,
                None => want.push((n, i)),
            }
        }
        let got: Vec<(&str, i32)> = op
            .attrs
            .iter()
            .map(|a| match a.value {
                AttrValue::Int(i) => (a.name, i),
                _ => (a.name, i32::MIN),
            })
            .collect();
        assert_eq!(got, want);
        assert!(!op.has_var_attrs, "no attribute holds variables");
        let names = |slots: &[Slot<'_>]| -> Vec<(String, Vec<String>)> {
            slots
                .iter()
                .map(|s| {
                    (
                        s.name.to_owned(),
                        s.args.iter().map(|a| a.to_string()).collect(),
                    )
                })
                .collect()
        };
        let pair = |n: &str, a: &str| (n.to_owned(), vec![a.to_owned()]);
        assert_eq!(names(op.inputs()), [pair("X", "w"), pair("Y", "v")]);
        assert_eq!(names(op.outputs()), [pair("A", "v"), pair("Out", "w")]);
    }
}

#[test]
fn names_order_as_bytes_do() {
    let names = [
        "",
        "\0",
        "a",
        "a\0",
        "a\0\0b",
        "ab",
        "abcdefgh",
        "abcdefgh\0",
        "abcdefghi",
        "abcdefgi",
        "op_role",
        "op_role_var",
        "b",
        "\u{e9}",
    ];
    for a in names {
        for b in names {
            assert_eq!(name_lt(a, b), a < b, "{a:?} < {b:?}");
        }
    }
}

/// A block index that does not exist is found however the op is read: in
/// order, with attributes out of order, or by the general reader (a field
/// before the type), as a `BLOCK` or in a `BLOCKS` list.
#[test]
fn bad_block_index_names_block_op_and_attribute() {
    let mut block = attr("sub_block", proto::AttrType::Block);
    block.block_idx = Some(5);
    let mut blocks = attr("sub_blocks", proto::AttrType::Blocks);
    blocks.blocks_idx = vec![0, 7];
    let mut late = attr("z", proto::AttrType::Int);
    late.i = Some(1);
    for (a, name) in [(block, "sub_block"), (blocks, "sub_blocks")] {
        let in_order = proto::OpDesc {
            r#type: "while".into(),
            attrs: vec![a.clone()],
            ..Default::default()
        };
        let out_of_order = proto::OpDesc {
            attrs: vec![late.clone(), a.clone()],
            ..in_order.clone()
        };
        for op in [in_order.clone(), out_of_order] {
            let arena = crate::DescArena::default();
            let err = ProgramDesc::decode(&program(vec![op]).encode_to_vec(), &arena).unwrap_err();
            let text = err.to_string();
            assert!(text.contains("block 0, op 0, `while`"), "{text}");
            assert!(text.contains(name), "{text}");
        }
        // The attribute field before the type field: the same bytes as the
        // op in order, in another order.
        let op = in_order.encode_to_vec();
        // The type field (`1a 05 while`) first, then the attribute's.
        let type_len = 2 + "while".len();
        assert_eq!(op[..2], [0x1a, 5]);
        let reordered = [&op[type_len..], &op[..type_len]].concat();
        assert_eq!(reordered.len(), op.len());
        let mut bytes = program(vec![in_order.clone()]).encode_to_vec();
        let at = bytes.windows(op.len()).position(|w| w == op).unwrap();
        bytes[at..at + op.len()].copy_from_slice(&reordered);
        let arena = crate::DescArena::default();
        let err = ProgramDesc::decode(&bytes, &arena).unwrap_err();
        assert!(err.to_string().contains(name), "{err}");
    }
}

#[test]
fn ops_with_too_many_attributes_are_refused() {
    let attrs = (0..=MAX_OP_ENTRIES)
        .map(|i| {
            let mut a = attr(&format!("a{i}"), proto::AttrType::Int);
            a.i = Some(1);
            a
        })
        .collect();
    let op = proto::OpDesc {
        r#type: "scale".into(),
        attrs,
        ..Default::default()
    };
    let arena = crate::DescArena::default();
    let err = ProgramDesc::decode(&program(vec![op]).encode_to_vec(), &arena).unwrap_err();
    assert!(matches!(err, LegacyError::Limit { .. }), "{err}");
    assert!(err.to_string().contains("attributes"), "{err}");
}

/// Output slots that are each within bounds but together exceed the IR's
/// result count are refused, not left to panic when the op is built.
#[test]
fn ops_with_too_many_outputs_in_all_are_refused() {
    let slot = |n: usize| proto::op_desc::Var {
        parameter: format!("Out{n}"),
        arguments: (0..40_000).map(|a| format!("v{n}_{a}")).collect(),
    };
    let op = proto::OpDesc {
        r#type: "some_unknown_op".into(),
        outputs: vec![slot(0), slot(1)],
        ..Default::default()
    };
    let arena = crate::DescArena::default();
    let err = ProgramDesc::decode(&program(vec![op]).encode_to_vec(), &arena).unwrap_err();
    assert!(matches!(err, LegacyError::Limit { .. }), "{err}");
    assert!(err.to_string().contains("80000 output arguments"), "{err}");
}

#[test]
fn version_pairs_read_in_one_step_or_in_general_alike() {
    let long = "x".repeat(122);
    let cases: [(&str, i32); 7] = [
        ("conv2d", 1),
        ("", 0),
        ("relu", 127),
        ("relu", 128),
        ("matmul_v2", -1),
        (&long[..121], 2),
        (&long, 2),
    ];
    let pairs = cases
        .iter()
        .map(|&(name, version)| proto::op_version_map::OpVersionPair {
            op_name: name.into(),
            op_version: proto::OpVersion { version },
        })
        .collect();
    let mut p = program(vec![]);
    p.op_version_map = Some(proto::OpVersionMap { pair: pairs });
    let bytes = p.encode_to_vec();
    let arena = crate::DescArena::default();
    let desc = ProgramDesc::decode(&bytes, &arena).unwrap();
    assert_eq!(desc.op_version_map.pairs(), cases);
    // Which of them the one-step reader takes, each compared with the
    // general reader on the same bytes.
    let map = proto::OpVersionMap { pair: vec![] };
    let mut taken = Vec::new();
    for &(name, version) in &cases {
        let mut m = map.clone();
        m.pair.push(proto::op_version_map::OpVersionPair {
            op_name: name.into(),
            op_version: proto::OpVersion { version },
        });
        let field = m.encode_to_vec();
        let fast = crate::canonical::version_pair(&field);
        if let Some((pair, len)) = fast {
            assert_eq!(len, field.len());
            let mut r = Reader::new(&field, "t");
            let (f, w) = r.key().unwrap();
            assert_eq!(f, 1);
            let mut inner = r.message(w, "t").unwrap();
            assert_eq!(decode_version_pair(&mut inner).unwrap(), pair);
        }
        taken.push(fast.is_some());
    }
    assert_eq!(taken, [true, true, true, false, false, true, false]);
    // Names that are not UTF-8, other field orders and truncated pairs
    // go the general way.
    assert!(crate::canonical::version_pair(b"\x0a\x08\x0a\x02\xc3\x28\x12\x02\x08\x01").is_none());
    let accented = crate::canonical::version_pair(b"\x0a\x08\x0a\x02\xc3\xa9\x12\x02\x08\x01");
    assert_eq!(accented, Some((("\u{e9}", 1), 10)));
    assert!(crate::canonical::version_pair(b"\x0a\x08\x12\x02\x08\x01\x0a\x02ab").is_none());
    assert!(crate::canonical::version_pair(b"\x0a\x08\x0a\x02ab\x12\x02\x08").is_none());
    let bad = [0x2a, 0x08, 0x0a, 0x06, 0x0a, 0x02, 0xc3, 0x28, 0x12, 0x00];
    let mut with_bad = program(vec![]).encode_to_vec();
    with_bad.extend_from_slice(&bad);
    assert!(matches!(
        ProgramDesc::decode(&with_bad, &crate::DescArena::default()),
        Err(LegacyError::Decode(_))
    ));
}

#[test]
fn garbage_is_a_decode_error_and_empty_program_is_invalid() {
    assert!(matches!(
        ProgramDesc::decode(&[0xff, 0xff, 0xff], &crate::DescArena::default()),
        Err(LegacyError::Decode(_))
    ));
    assert!(matches!(
        ProgramDesc::decode(&[], &crate::DescArena::default()),
        Err(LegacyError::Invalid { .. })
    ));
}

/// Every `VarType.Type` number reads as a kind that writes the same number.
#[test]
fn kind_numbers_round_trip() {
    for v in -2..64 {
        assert_eq!(VarKind::from_i32(v).to_i32(), v, "var kind {v}");
        assert_eq!(DataKind::from_i32(v).to_i32(), v, "data kind {v}");
    }
    assert_eq!(VarKind::from_i32(7), VarKind::DenseTensor);
    assert_eq!(VarKind::from_i32(5), VarKind::Scalar(DataKind::Fp32));
}

/// The inline name comparison agrees with `==` at every length it treats
/// apart (below four bytes, words of four, eight and sixteen from both
/// ends, longer names) and for a difference at every position.
#[test]
fn name_eq_agrees_with_string_equality() {
    for n in 0..40 {
        let base: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        assert!(name_eq(&base, &base.clone()), "{base}");
        assert_eq!(Name(&base), Name(&base.clone()));
        for at in 0..n {
            let mut other = base.clone().into_bytes();
            other[at] = b'Z';
            let other = String::from_utf8(other).unwrap_or_default();
            assert!(!name_eq(&base, &other), "{base} vs {other}");
            assert_ne!(Name(&base), Name(&other));
        }
        let longer = format!("{base}a");
        assert!(!name_eq(&base, &longer), "{base} vs {longer}");
    }
}

/// The quick count of a block's variables and ops agrees with the block,
/// whatever their lengths take (one, two or three bytes), and stops without
/// a panic on every truncation.
#[test]
fn block_fields_are_counted_at_every_length() {
    let op = |n: usize| proto::OpDesc {
        r#type: "x".repeat(n),
        ..Default::default()
    };
    let block = proto::BlockDesc {
        idx: 0,
        parent_idx: -1,
        vars: vec![
            tensor_var("w", vec![2, 3]),
            tensor_var(&"v".repeat(200), vec![1]),
            tensor_var(&"u".repeat(20_000), vec![]),
        ],
        ops: vec![op(3), op(130), op(17_000)],
        forward_block_idx: Some(2),
    };
    let bytes = block.encode_to_vec();
    assert_eq!(count_fields(&Reader::new(&bytes, "BlockDesc")), (3, 3));
    for n in 0..bytes.len() {
        let (vars, ops) = count_fields(&Reader::new(&bytes[..n], "BlockDesc"));
        assert!(vars <= 3 && ops <= 3, "{n}");
    }
}

/// An op's attribute bytes are those of its attribute fields when these
/// end the op, after its type (Paddle's layout): ops with other variables
/// but the same attributes have equal bytes. Other layouts have none.
#[test]
fn attribute_bytes_are_the_fields_after_the_type() {
    let int = |name: &str, i: i32| {
        let mut a = attr(name, proto::AttrType::Int);
        a.i = Some(i);
        a
    };
    let op = |x: &str, axis: i32| proto::OpDesc {
        r#type: "scale".into(),
        inputs: vec![proto::op_desc::Var {
            parameter: "X".into(),
            arguments: vec![x.into()],
        }],
        outputs: vec![],
        attrs: vec![int("axis", axis), int("bias", 2)],
        is_target: None,
    };
    let none = proto::OpDesc {
        r#type: "scale".into(),
        ..Default::default()
    };
    let bytes = program(vec![op("w", 1), op("another_w", 1), op("w", 3), none]).encode_to_vec();
    let arena = crate::DescArena::default();
    let desc = ProgramDesc::decode(&bytes, &arena).unwrap();
    let spans: Vec<&[u8]> = desc.blocks[0]
        .ops
        .iter()
        .map(|op| op.attr_bytes().unwrap())
        .collect();
    let field = |key: u8, body: &[u8]| {
        let mut f = vec![key, u8::try_from(body.len()).unwrap()];
        f.extend_from_slice(body);
        f
    };
    let attrs = [int("axis", 1), int("bias", 2)].map(|a| field(0x22, &a.encode_to_vec()));
    assert_eq!(spans[0], attrs.concat());
    assert_eq!(spans[0], spans[1], "other variables, the same attributes");
    assert_ne!(spans[0], spans[2]);
    assert!(spans[3].is_empty());

    // Fields in other orders (put in place by hand: prost writes them in
    // number order): a slot among the attributes, an attribute before the
    // type, `is_target` last.
    let slot = proto::op_desc::Var {
        parameter: "X".into(),
        arguments: vec!["w".into()],
    }
    .encode_to_vec();
    let (slot, ty) = (field(0x0a, &slot), field(0x1a, b"scale"));
    let target = vec![0x28, 1];
    let layouts = [
        [&ty, &attrs[0], &slot, &attrs[1]],
        [&attrs[0], &ty, &slot, &attrs[1]],
        [&slot, &attrs[0], &ty, &attrs[1]],
        [&slot, &ty, &attrs[0], &attrs[1]],
        [&slot, &ty, &attrs[0], &target],
    ];
    for (n, layout) in layouts.iter().enumerate() {
        let mixed: Vec<u8> = layout.iter().flat_map(|f| f.iter().copied()).collect();
        let op = proto::OpDesc::decode(&mixed[..]).unwrap();
        let in_order = op.encode_to_vec();
        assert_eq!(in_order.len(), mixed.len());
        let mut bytes = program(vec![op]).encode_to_vec();
        let at = bytes
            .windows(in_order.len())
            .position(|w| w == in_order)
            .unwrap();
        bytes[at..at + mixed.len()].copy_from_slice(&mixed);
        let arena = crate::DescArena::default();
        let desc = ProgramDesc::decode(&bytes, &arena).unwrap();
        let op = &desc.blocks[0].ops[0];
        let want = (n == 3).then(|| attrs.concat());
        assert_eq!(op.attr_bytes(), want.as_deref(), "layout {n}");
        assert_eq!(op.attr("axis"), Some(&AttrValue::Int(1)));
        assert_eq!(op.input_args("X"), ["w"]);
    }
}

/// Every legacy model shipped in the repository decodes within the room
/// `DescArena::for_bytes` takes for it: one allocation a program.
#[test]
fn shipped_models_fit_the_arena_room() {
    let dir = pir_corpus::repo_root().join("tests/corpus/legacy");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().path();
        if file.extension().is_none_or(|e| e != "pdmodel") {
            continue;
        }
        let bytes = std::fs::read(&file).unwrap();
        let arena = DescArena::for_bytes(bytes.len());
        let room = arena.allocated_bytes();
        ProgramDesc::decode(&bytes, &arena).unwrap();
        assert_eq!(arena.allocated_bytes(), room, "{}", file.display());
        read += 1;
    }
    assert!(read > 20, "{}", dir.display());
}

/// A file of tiny ops takes arena room in proportion to its bytes (here
/// about 20 times, the arena growing by doubling), not a typical op's room
/// for each (768 bytes an op: 150 times).
#[test]
fn tiny_ops_take_room_in_proportion() {
    let op = proto::OpDesc {
        r#type: "t".into(),
        ..Default::default()
    };
    let p = program(vec![op; 10_000]);
    let bytes = p.encode_to_vec();
    let arena = DescArena::new();
    ProgramDesc::decode(&bytes, &arena).unwrap();
    assert!(
        arena.allocated_bytes() < 32 * bytes.len(),
        "{} bytes of arena for {} bytes",
        arena.allocated_bytes(),
        bytes.len()
    );
}
