//! The one-step readers against the general readers of `crate::desc`, on
//! Paddle's layouts and on every truncation and flipped bit of them.

use super::*;
use crate::desc::{general_attr, general_slot, general_var};
use crate::proto;
use prost::Message;

/// `bytes`, every truncation of them and every copy with one bit flipped.
fn damaged(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![bytes.to_vec()];
    out.extend((0..bytes.len()).map(|n| bytes[..n].to_vec()));
    for i in 0..bytes.len() * 8 {
        let mut b = bytes.to_vec();
        b[i / 8] ^= 1 << (i % 8);
        out.push(b);
    }
    out
}

fn attrs() -> Vec<proto::op_desc::Attr> {
    use proto::AttrType as T;
    let base = |name: &str, ty: T| proto::op_desc::Attr {
        name: name.into(),
        r#type: ty as i32,
        ..Default::default()
    };
    let mut out = Vec::new();
    for i in [0, 1, 127, 128, -1, i32::MIN, i32::MAX] {
        out.push(proto::op_desc::Attr {
            i: Some(i),
            ..base("op_role", T::Int)
        });
    }
    for f in [0.0, 1e-5, -3.5] {
        out.push(proto::op_desc::Attr {
            f: Some(f),
            ..base("epsilon", T::Float)
        });
    }
    for s in [
        "",
        "/",
        "NCHW",
        "\u{e9}t\u{e9}",
        &"x".repeat(127),
        &"y".repeat(128),
    ] {
        out.push(proto::op_desc::Attr {
            s: Some(s.into()),
            ..base("data_format", T::String)
        });
    }
    for ints in [vec![], vec![1, 1], vec![-1, 300, 0]] {
        out.push(proto::op_desc::Attr {
            ints,
            ..base("strides", T::Ints)
        });
    }
    for strings in [
        vec![],
        vec!["a".to_string(), String::new()],
        vec![
            "\u{e9}t\u{e9}".to_string(),
            "x".repeat(100),
            "y".to_string(),
        ],
    ] {
        out.push(proto::op_desc::Attr {
            strings,
            ..base("op_role_var", T::Strings)
        });
    }
    for b in [true, false] {
        out.push(proto::op_desc::Attr {
            b: Some(b),
            ..base("is_test", T::Boolean)
        });
    }
    // The bookkeeping attributes in the layouts told by their bytes.
    for (name, s) in [("op_device", ""), ("op_namescope", "/")] {
        out.push(proto::op_desc::Attr {
            s: Some(s.into()),
            ..base(name, T::String)
        });
    }
    out.push(base("op_callstack", T::Strings));
    out.push(proto::op_desc::Attr {
        b: Some(false),
        ..base("with_quant_attr", T::Boolean)
    });
    for l in [0, -1, i64::MAX, 1 << 40] {
        out.push(proto::op_desc::Attr {
            l: Some(l),
            ..base("seed", T::Long)
        });
    }
    for longs in [vec![], vec![1, 2], vec![-1, 1 << 40, 0, 300]] {
        out.push(proto::op_desc::Attr {
            longs,
            ..base("shape", T::Longs)
        });
    }
    for floats in [vec![], vec![1.5], vec![-0.0, 2.0, f32::MAX]] {
        out.push(proto::op_desc::Attr {
            floats,
            ..base("scale", T::Floats)
        });
    }
    for block_idx in [0, 1, 127] {
        out.push(proto::op_desc::Attr {
            block_idx: Some(block_idx),
            ..base("sub_block", T::Block)
        });
    }
    out.push(base("fp64_values", T::Float64s));
    // Kinds and layouts the general reader takes.
    out.push(base("missing_value", T::Int));
    out.push(base("missing_value", T::Block));
    out.push(proto::op_desc::Attr {
        block_idx: Some(128),
        ..base("far_block", T::Block)
    });
    out.push(proto::op_desc::Attr {
        float64s: vec![0.5],
        ..base("fp64_values", T::Float64s)
    });
    out.push(proto::op_desc::Attr {
        i: Some(3),
        b: Some(true),
        ..base("two_values", T::Int)
    });
    out.push(proto::op_desc::Attr {
        float64: Some(0.5),
        ..base("value", T::Float64)
    });
    out
}

/// Whatever the one-step reader answers, the general reader answers too:
/// on Paddle's layouts, on every truncation and on every flipped bit of
/// them.
#[test]
fn attributes_read_in_one_step_or_in_general_alike() {
    let arena = bumpalo::Bump::new();
    let mut taken = 0;
    for a in attrs() {
        let bytes = a.encode_to_vec();
        let fast = attr(&bytes, &arena);
        taken += usize::from(fast.is_some());
        let kind = a.r#type;
        let common =
            [0, 1, 2, 3, 4, 5, 6, 8, 9, 11].contains(&kind) || kind == 12 && a.float64s.is_empty();
        let general = ["two_values", "missing_value", "far_block"].contains(&a.name.as_str());
        // Lengths take one byte.
        let short = a.s.as_ref().is_none_or(|s| s.len() < 0x80);
        assert_eq!(fast.is_some(), common && !general && short, "{a:?}");
        for b in &damaged(&bytes) {
            if let Some(fast) = attr(b, &arena) {
                let general = general_attr(b, &arena).ok().and_then(Result::ok);
                // Compared as printed: a flipped bit can make a NaN,
                // which is not equal to itself.
                assert_eq!(
                    format!("{:?}", Some(fast)),
                    format!("{general:?}"),
                    "{b:x?}"
                );
            }
        }
    }
    assert!(taken > 20);
}

/// Each bookkeeping layout is told by its bytes, and reads as the
/// general reader reads it.
#[test]
fn bookkeeping_attributes_are_told_by_their_bytes() {
    let arena = bumpalo::Bump::new();
    // By name, as the told names are sorted below.
    let names = [
        "op_callstack",
        "op_device",
        "op_namescope",
        "op_role",
        "op_role_var",
        "with_quant_attr",
    ];
    let mut told = Vec::new();
    for a in attrs() {
        let bytes = a.encode_to_vec();
        if let Some((name, value)) = bookkeeping_attr(&bytes) {
            let general = general_attr(&bytes, &arena).ok().and_then(Result::ok);
            assert_eq!(Some((name, value)), general, "{a:?}");
            told.push(name);
        }
    }
    told.sort_unstable();
    assert_eq!(told, names);
}

/// The run of four bookkeeping fields reads as the field-by-field
/// reader reads each, and only when it is exactly that run.
#[test]
fn bookkeeping_run_is_four_fields() {
    let arena = bumpalo::Bump::new();
    let mut four: Vec<_> = attrs()
        .into_iter()
        .filter(|a| {
            matches!(
                a.name.as_str(),
                "op_device" | "op_namescope" | "op_role" | "op_role_var"
            ) && bookkeeping_attr(&a.encode_to_vec()).is_some()
        })
        .collect();
    four.sort_by(|a, b| a.name.cmp(&b.name));
    // Each as `OpDesc.attrs` (field 4) writes it.
    let mut bytes = Vec::new();
    for a in &four {
        let field = a.encode_to_vec();
        bytes.extend([0x22, field.len() as u8]);
        bytes.extend(field);
    }
    let run = bookkeeping_run(&bytes).expect("the run");
    assert_eq!(bytes.len(), BOOKKEEPING_RUN_LEN);
    for (a, (name, value)) in four.iter().zip(run) {
        let field = a.encode_to_vec();
        let general = general_attr(&field, &arena).ok().and_then(Result::ok);
        assert_eq!(Some((name, value)), general);
    }
    for b in damaged(&bytes).iter().skip(1) {
        assert!(bookkeeping_run(b).is_none(), "{b:x?}");
    }
}

#[test]
fn slots_read_in_one_step_or_in_general_alike() {
    let arena = bumpalo::Bump::new();
    let cases = [
        ("X", vec!["x"]),
        ("Out", vec![]),
        ("Ids", vec!["a", "b", "c", "\u{e9}"]),
        ("Long", vec!["y"; 1]),
    ];
    for (name, args) in cases {
        let mut v = proto::op_desc::Var {
            parameter: name.into(),
            arguments: args.iter().map(|a| a.to_string()).collect(),
        };
        if name == "Long" {
            v.arguments[0] = "z".repeat(130);
        }
        let bytes = v.encode_to_vec();
        assert_eq!(slot(&bytes, &arena).is_some(), name != "Long", "{name}");
        for b in &damaged(&bytes) {
            if let Some(fast) = slot(b, &arena) {
                assert_eq!(Ok(fast), general_slot(b, &arena), "{b:x?}");
            }
        }
    }
}

/// The check of version pairs takes what their one-step reader takes:
/// on Paddle's layout, names that are not ASCII, and every truncation and
/// flipped bit of them.
#[test]
fn version_pairs_checked_as_read() {
    let map = |names: &[&str]| proto::OpVersionMap {
        pair: names
            .iter()
            .enumerate()
            .map(|(i, n)| proto::op_version_map::OpVersionPair {
                op_name: n.to_string(),
                op_version: proto::OpVersion { version: i as i32 },
            })
            .collect(),
    };
    for names in [
        &["conv2d", "relu", ""][..],
        &["matmul_v2", "\u{e9}t\u{e9}", "x"],
        &["y", &"z".repeat(121), &"z".repeat(122)],
    ] {
        let m = map(names);
        // The pairs without the message's own key and length.
        let bytes = m.encode_to_vec();
        for b in &damaged(&bytes) {
            let mut out = Vec::new();
            assert_eq!(version_pairs_len(b), version_pairs(b, &mut out), "{b:x?}");
        }
    }
}

fn var(name: &str, dims: Vec<i64>, lod: Option<i32>, flags: [Option<bool>; 4]) -> Vec<u8> {
    let mut v = crate::desc::tests::tensor_var(name, dims);
    if let Some(d) = v.r#type.dense_tensor.as_mut() {
        d.legacy_lod_level = lod;
    }
    [
        v.persistable,
        v.need_check_feed,
        v.is_parameter,
        v.stop_gradient,
    ] = flags;
    v.encode_to_vec()
}

/// A variable whose type is its kind alone (feed and fetch lists, a kind
/// that is not a variable kind, a dense tensor without its desc) reads
/// as the general reader reads it.
#[test]
fn variables_of_a_kind_alone_read_in_one_step_or_in_general_alike() {
    let arena = bumpalo::Bump::new();
    for (kind, flags) in [
        (9, [Some(true), None, None, None]),
        (10, [Some(true), Some(false), None, None]),
        (11, [None; 4]),
        (5, [None, None, None, Some(true)]),
        (7, [None; 4]),
        (99, [Some(false); 4]),
    ] {
        let mut v = crate::desc::tests::tensor_var("feed", vec![]);
        v.r#type = proto::VarType {
            r#type: kind,
            ..Default::default()
        };
        [
            v.persistable,
            v.need_check_feed,
            v.is_parameter,
            v.stop_gradient,
        ] = flags;
        let bytes = v.encode_to_vec();
        assert!(kind_var(&bytes).is_some(), "{kind}");
        for b in &damaged(&bytes) {
            if let Some(fast) = kind_var(b) {
                assert_eq!(Ok(fast), general_var(b, &arena), "{b:x?}");
            }
        }
    }
}

#[test]
fn dense_variables_read_in_one_step_or_in_general_alike() {
    let arena = bumpalo::Bump::new();
    let cases = [
        var("w", vec![2, 3], None, [Some(true), None, None, None]),
        var(
            "x",
            vec![-1, 8],
            Some(0),
            [Some(false), None, None, Some(true)],
        ),
        var("\u{e9}", vec![], Some(1), [None; 4]),
        var("y", vec![1 << 40], None, [Some(true); 4]),
        // Four dims fill the inline room; five and more go past it.
        var("z", vec![-1, 3, 200, 7], None, [None; 4]),
        var("v", vec![1, -1, 2, 1 << 20, 5], None, [None; 4]),
        var("u", vec![300, 2, -1, 4, 5, 6, 127], Some(0), [None; 4]),
    ];
    for bytes in &cases {
        let fast = dense_var(bytes, &arena);
        assert!(fast.is_some(), "{bytes:x?}");
        for b in &damaged(bytes) {
            if let Some(fast) = dense_var(b, &arena) {
                assert_eq!(Ok(fast), general_var(b, &arena), "{b:x?}");
            }
        }
    }
    // Other kinds, long names and variable attributes go the general way.
    let mut other = proto::VarDesc::decode(&cases[0][..]).unwrap();
    other.r#type.r#type = 9;
    assert!(dense_var(&other.encode_to_vec(), &arena).is_none());
    assert!(kind_var(&other.encode_to_vec()).is_none());
    assert!(dense_var(&var(&"n".repeat(200), vec![1], None, [None; 4]), &arena).is_none());
    let mut with_attr = proto::VarDesc::decode(&cases[0][..]).unwrap();
    with_attr.attrs.push(proto::var_desc::Attr {
        name: "a".into(),
        ..Default::default()
    });
    assert!(dense_var(&with_attr.encode_to_vec(), &arena).is_none());
}
