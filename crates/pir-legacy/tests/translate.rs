//! Translation of small programs built here: an untranslatable op is an
//! error naming op type, block and index, or with `lenient` an unregistered
//! op that prints (and saves as JSON: `crates/pir/tests/legacy_corpus.rs`);
//! feed/fetch, mutable attributes and parameters take Paddle's shapes.

#[allow(missing_docs, clippy::all, dead_code)]
#[path = "support/proto.rs"]
mod proto;

#[path = "support/build.rs"]
mod build;

use build::{block, empty_slot, encode, int_attr, op, slot};
use pir_legacy::{LegacyError, Options, ProgramDesc};
use proto::op_desc;

/// An `FP32` dense tensor variable.
fn tensor(name: &str, dims: &[i64], persistable: bool) -> proto::VarDesc {
    build::tensor(name, 5, dims, persistable)
}

fn list_var(name: &str, ty: i32) -> proto::VarDesc {
    proto::VarDesc {
        name: name.into(),
        r#type: proto::VarType {
            r#type: ty,
            ..Default::default()
        },
        persistable: Some(true),
        ..Default::default()
    }
}

/// `feed` of column 0 into `out`.
fn feed(out: &str) -> proto::OpDesc {
    op(
        "feed",
        vec![slot("X", &["feed"])],
        vec![slot("Out", &[out])],
        vec![int_attr("col", 0)],
    )
}

/// `fetch` of `x` into column 0.
fn fetch(x: &str) -> proto::OpDesc {
    op(
        "fetch",
        vec![slot("X", &[x])],
        vec![slot("Out", &["fetch"])],
        vec![int_attr("col", 0)],
    )
}

/// feed x → `middle` → fetch, with a parameter `w`.
fn program(middle: proto::OpDesc) -> Vec<u8> {
    let vars = vec![
        list_var("feed", 9),
        list_var("fetch", 10),
        tensor("x", &[-1, 4], false),
        tensor("w", &[4], true),
        tensor("y", &[-1, 4], false),
    ];
    let ops = vec![feed("x"), middle, fetch("y")];
    encode(vec![block(0, -1, vars, ops)])
}

fn add() -> proto::OpDesc {
    op(
        "elementwise_add",
        vec![slot("X", &["x"]), slot("Y", &["w"])],
        vec![slot("Out", &["y"])],
        vec![int_attr("axis", -1)],
    )
}

#[test]
fn add_with_a_parameter_translates_like_paddle() {
    let ctx = pir_dialects::pd_op_context();
    let p = pir_legacy::translate_bytes(&program(add()), ctx, Options::default()).unwrap();
    let text = p.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1].contains("\"builtin.parameter\"") && lines[1].contains("parameter_name:\"w\""),
        "{text}"
    );
    assert!(
        lines[2].contains("\"pd_op.feed\"") && lines[2].contains("name:\"x\""),
        "{text}"
    );
    assert!(lines[3].contains("\"pd_op.add\" (%1, %0)"), "{text}");
    assert!(
        lines[4].contains("\"pd_op.fetch\"") && lines[4].contains("name:\"y\""),
        "{text}"
    );
    p.verify().unwrap();
}

#[test]
fn unknown_op_is_an_error_naming_type_block_and_index() {
    let ctx = pir_dialects::pd_op_context();
    let custom = op(
        "my_custom_op",
        vec![slot("X", &["x"])],
        vec![slot("Out", &["y"])],
        vec![],
    );
    let err = pir_legacy::translate_bytes(&program(custom), ctx, Options::default()).unwrap_err();
    assert!(matches!(err, LegacyError::Unsupported { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("block 0, op 1, `my_custom_op`"), "{text}");
}

#[test]
fn lenient_keeps_unknown_ops_as_unregistered_ops_that_print_and_parse() {
    let ctx = pir_dialects::pd_op_context();
    let mut custom = op(
        "my_custom_op",
        vec![slot("X", &["x"])],
        vec![slot("Out", &["y"])],
        vec![int_attr("k", 3)],
    );
    custom.attrs.push(op_desc::Attr {
        name: "tag".into(),
        r#type: proto::AttrType::String as i32,
        s: Some("a".into()),
        ..Default::default()
    });
    let p = pir_legacy::translate_bytes(
        &program(custom),
        ctx.clone(),
        Options {
            lenient: true,
            ..Default::default()
        },
    )
    .unwrap();
    let text = p.to_string();
    assert!(text.contains("\"legacy.my_custom_op\" (%0)"), "{text}");
    assert!(text.contains("k:3"), "{text}");
    let typed = p.to_typed_string();
    let again = pir_core::Program::parse(&ctx, &typed).unwrap();
    assert_eq!(again.to_string(), text);
}

#[test]
fn reshape_takes_its_shape_as_a_full_int_array() {
    let ctx = pir_dialects::pd_op_context();
    let ints = op_desc::Attr {
        name: "shape".into(),
        r#type: proto::AttrType::Ints as i32,
        ints: vec![0, 2, 2],
        ..Default::default()
    };
    let reshape = op(
        "reshape2",
        vec![slot("X", &["x"])],
        vec![slot("Out", &["y"]), empty_slot("XShape")],
        vec![ints],
    );
    let p = pir_legacy::translate_bytes(&program(reshape), ctx, Options::default()).unwrap();
    let text = p.to_string();
    assert!(text.contains("\"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0,2,2]}"), "{text}");
    assert!(text.contains("\"pd_op.reshape\""), "{text}");
}

#[test]
fn truncated_and_hostile_inputs_are_errors_not_panics() {
    let ctx = pir_dialects::pd_op_context();
    let good = program(add());
    for cut in 0..good.len() {
        let _ = pir_legacy::translate_bytes(&good[..cut], ctx.clone(), Options::default());
    }
    let mut rng = pir_corpus::Rng(7);
    for _ in 0..2000 {
        let mut bytes = good.clone();
        let i = rng.below(bytes.len());
        bytes[i] = rng.next_u64() as u8;
        let arena = pir_legacy::DescArena::default();
        if let Ok(desc) = ProgramDesc::decode(&bytes, &arena) {
            for lenient in [false, true] {
                if let Ok(p) = pir_legacy::translate(
                    &desc,
                    ctx.clone(),
                    Options {
                        lenient,
                        ..Default::default()
                    },
                ) {
                    let _ = p.to_string();
                    let _ = pir_legacy::write::to_bytes(&p);
                }
            }
        }
    }
}

/// Ops of one type whose attributes are the same bytes get the same
/// attributes, whether translated the first time or taken from what an
/// earlier op or translation made; other values stay their own.
#[test]
fn ops_with_equal_attributes_translate_alike_every_time() {
    let float = |name: &str, f: f32| op_desc::Attr {
        name: name.into(),
        r#type: proto::AttrType::Float as i32,
        f: Some(f),
        ..Default::default()
    };
    let scale = |x: &str, out: &str, bias: f32| {
        op(
            "scale",
            vec![slot("X", &[x])],
            vec![slot("Out", &[out])],
            vec![float("bias", bias), float("scale", 2.0)],
        )
    };
    let vars = vec![
        list_var("feed", 9),
        list_var("fetch", 10),
        tensor("x", &[-1, 4], false),
        tensor("a", &[-1, 4], false),
        tensor("b", &[-1, 4], false),
        tensor("y", &[-1, 4], false),
    ];
    let ops = vec![
        feed("x"),
        scale("x", "a", 0.5),
        scale("a", "b", 0.5),
        scale("b", "y", 1.5),
        fetch("y"),
    ];
    let bytes = encode(vec![block(0, -1, vars, ops)]);
    let ctx = pir_dialects::pd_op_context();
    let texts: Vec<String> = (0..2)
        .map(|_| {
            let p = pir_legacy::translate_bytes(&bytes, ctx.clone(), Options::default()).unwrap();
            p.verify().unwrap();
            p.to_string()
        })
        .collect();
    assert_eq!(texts[0], texts[1]);
    let fresh = pir_dialects::pd_op_context();
    let p = pir_legacy::translate_bytes(&bytes, fresh, Options::default()).unwrap();
    assert_eq!(p.to_string(), texts[0]);
    let scales: Vec<&str> = texts[0]
        .lines()
        .filter(|l| l.contains("\"pd_op.scale\""))
        .collect();
    assert_eq!(scales.len(), 3, "{}", texts[0]);
    assert!(scales[0].contains("bias:0.5") && scales[1].contains("bias:0.5"));
    assert!(scales[2].contains("bias:1.5"), "{}", texts[0]);
}

/// feed x → `split` into `a` and `b` (declared with the flags given) →
/// fetch a: the split's one result is bound to both names.
fn split_into_two(a: (bool, bool), b: (bool, bool)) -> Vec<u8> {
    let flagged = |name: &str, (stop_gradient, persistable): (bool, bool)| proto::VarDesc {
        stop_gradient: Some(stop_gradient),
        ..tensor(name, &[4, 4], persistable)
    };
    let vars = vec![
        list_var("feed", 9),
        list_var("fetch", 10),
        tensor("x", &[4, 4], false),
        flagged("a", a),
        flagged("b", b),
    ];
    let split = op(
        "split",
        vec![slot("X", &["x"])],
        vec![slot("Out", &["a", "b"])],
        vec![
            int_attr("axis", 0),
            int_attr("num", 2),
            build::attr("sections", proto::AttrType::Ints),
        ],
    );
    encode(vec![block(0, -1, vars, vec![feed("x"), split, fetch("a")])])
}

#[test]
fn a_value_named_twice_takes_the_flags_of_the_name_paddle_sets_last() {
    // Paddle sets the flags walking its map of names, where `a` comes
    // after `b`: `a` decides, although `b` was bound last.
    let ctx = pir_dialects::pd_op_context();
    let cases = [
        (
            (true, false),
            (false, false),
            "persistable:[false],stop_gradient:[true]",
        ),
        (
            (false, false),
            (true, false),
            "persistable:[false],stop_gradient:[false]",
        ),
        (
            (false, true),
            (false, false),
            "persistable:[true],stop_gradient:[false]",
        ),
        (
            (false, false),
            (false, true),
            "persistable:[false],stop_gradient:[false]",
        ),
    ];
    for (a, b, flags) in cases {
        let bytes = split_into_two(a, b);
        let p = pir_legacy::translate_bytes(&bytes, ctx.clone(), Options::default()).unwrap();
        let text = p.to_string();
        let split = text
            .lines()
            .find(|l| l.contains("\"pd_op.split_with_num\""))
            .unwrap_or_default();
        assert!(
            split.contains(&format!("{{num:2,{flags}}}")),
            "{a:?} {b:?}: {text}"
        );
    }
}

#[test]
fn parameters_translate_alike_in_a_context_that_made_them_before() {
    // `w` declared with either `stop_gradient`: what one translation
    // leaves in the context must not give the other's parameter.
    let with_w = |stop_gradient: bool| {
        let w = proto::VarDesc {
            stop_gradient: Some(stop_gradient),
            ..tensor("w", &[4], true)
        };
        let vars = vec![
            list_var("feed", 9),
            list_var("fetch", 10),
            tensor("x", &[-1, 4], false),
            w,
            tensor("y", &[-1, 4], false),
        ];
        encode(vec![block(0, -1, vars, vec![feed("x"), add(), fetch("y")])])
    };
    // Each in a fresh context first (a context keeps what the last
    // translation in it left, as long as no other context translates).
    let want: Vec<String> = [false, true]
        .map(|stop_gradient| {
            let fresh = pir_dialects::pd_op_context();
            let p = pir_legacy::translate_bytes(&with_w(stop_gradient), fresh, Options::default());
            p.unwrap().to_string()
        })
        .into();
    let ctx = pir_dialects::pd_op_context();
    for stop_gradient in [false, true, false, true] {
        let bytes = with_w(stop_gradient);
        let p = pir_legacy::translate_bytes(&bytes, ctx.clone(), Options::default()).unwrap();
        let text = p.to_string();
        assert_eq!(text, want[usize::from(stop_gradient)]);
        let param = text
            .lines()
            .find(|l| l.contains("\"builtin.parameter\""))
            .unwrap_or_default();
        assert!(
            param.contains(&format!("stop_gradient:[{stop_gradient}]")),
            "{text}"
        );
    }
}

/// A top block declaring a name twice: Paddle's block keeps only the last
/// declaration, so a parameter takes its flags and type from it, and so does
/// a fed variable. Expected values are Paddle 3.3.1's (its translation
/// saved and read back; `scripts/paddle_duplicate_vars.py` makes them).
#[test]
fn a_name_declared_twice_is_its_last_declaration() {
    let translate = |vars: Vec<proto::VarDesc>| {
        let bytes = encode(vec![block(0, -1, vars, vec![feed("x"), add(), fetch("y")])]);
        let ctx = pir_dialects::pd_op_context();
        let p = pir_legacy::translate_bytes(&bytes, ctx, Options::default()).unwrap();
        p.to_string()
    };
    let line = |text: &str, op: &str| -> String {
        text.lines()
            .find(|l| l.contains(op))
            .unwrap_or_default()
            .into()
    };
    let text = translate(vec![
        list_var("feed", 9),
        list_var("fetch", 10),
        tensor("x", &[-1, 4], false),
        tensor("w", &[4], false),
        tensor("w", &[1], true),
        tensor("y", &[-1, 4], false),
    ]);
    let parameter = line(&text, "\"builtin.parameter\"");
    assert!(parameter.contains("persistable:[true]"), "{text}");
    assert!(parameter.ends_with("() -> tensor<1xf32>"), "{text}");
    let text = translate(vec![
        list_var("feed", 9),
        list_var("fetch", 10),
        tensor("x", &[-1, 4], false),
        tensor("x", &[2, 4], false),
        tensor("w", &[4], true),
        tensor("y", &[-1, 4], false),
    ]);
    assert!(
        line(&text, "\"pd_op.feed\"").ends_with("() -> tensor<2x4xf32>"),
        "{text}"
    );
}
