//! The op table compiled into the dialect says exactly what the definition
//! file says, registration gives every op its definition, and the typed views
//! build and read ops by name.

#![allow(clippy::unwrap_used)] // a test fails loudly by design

use pir_core::builtin::{DenseTensorType, I32Attr, ScalarType};
use pir_core::{Builder, Program};
use pir_dialects::op_def::{AttrKind, DefaultValue, OpDefinition, OP_DEFS};
use pir_dialects::ops::{FullOp, MatmulOp, ReluInplaceOp};
use pir_dialects::pd_op::{DataType, Place};

fn definitions() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pd_op_definitions.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_table_holds_every_op_of_the_file_in_order() {
    let defs = definitions();
    let ops = defs["ops"].as_object().unwrap();
    assert_eq!(OP_DEFS.len(), 1631);
    assert_eq!(OP_DEFS.iter().filter(|d| d.has_yaml_info).count(), 1610);
    assert!(
        OP_DEFS.windows(2).all(|w| w[0].name < w[1].name),
        "sorted for binary search"
    );
    for def in OP_DEFS {
        let op = &ops[def.name.as_str()];
        let names = |key: &str| -> Vec<&str> {
            op[key]
                .as_array()
                .map(|a| a.iter().map(|x| x["name"].as_str().unwrap()).collect())
                .unwrap_or_default()
        };
        assert_eq!(
            def.attributes.iter().map(|a| a.name).collect::<Vec<_>>(),
            names("attributes"),
            "{}",
            def.name
        );
        assert_eq!(
            def.inputs.iter().map(|a| a.name).collect::<Vec<_>>(),
            names("inputs"),
            "{}",
            def.name
        );
        assert_eq!(
            def.outputs.iter().map(|a| a.name).collect::<Vec<_>>(),
            names("outputs"),
            "{}",
            def.name
        );
        for (input, json) in def.inputs.iter().zip(op["inputs"].as_array().unwrap()) {
            assert_eq!(
                input.optional,
                json["optional"].as_bool().unwrap_or(false),
                "{}.{}",
                def.name,
                input.name
            );
        }
        assert_eq!(
            pir_dialects::op_def(&def.name).map(|d| d.name),
            Some(def.name)
        );
    }
}

#[test]
fn the_lists_and_texts_of_every_op_read_back_as_in_the_file() {
    let defs = definitions();
    let ops = defs["ops"].as_object().unwrap();
    let strs = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().map(|x| x.as_str().unwrap().to_owned()).collect())
            .unwrap_or_default()
    };
    let pairs = |v: &serde_json::Value| -> Vec<(String, String)> {
        v.as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let owned =
        |it: &mut dyn Iterator<Item = &str>| -> Vec<String> { it.map(str::to_owned).collect() };
    for def in OP_DEFS {
        let op = &ops[def.name.as_str()];
        let name = def.name.as_str();
        assert_eq!(def.dialect, op["dialect"].as_str().unwrap_or(""), "{name}");
        assert_eq!(
            def.yaml_name,
            op["yaml_op_name"].as_str().unwrap_or(""),
            "{name}"
        );
        assert_eq!(owned(&mut def.traits.strs()), strs(&op["traits"]), "{name}");
        assert_eq!(
            owned(&mut def.interfaces.strs()),
            strs(&op["interfaces"]),
            "{name}"
        );
        assert_eq!(
            owned(&mut def.build_args.strs()),
            strs(&op["build_args"]),
            "{name}"
        );
        let inplace: Vec<(String, String)> = def
            .inplace
            .strs()
            .map(|(o, i)| (o.to_owned(), i.to_owned()))
            .collect();
        assert_eq!(inplace, pairs(&op["inplace"]), "{name}");
        let rt = &op["runtime"];
        match def.runtime {
            Some(r) => {
                assert_eq!(
                    r.kernel_func,
                    rt["kernel_func"].as_str().unwrap_or(""),
                    "{name}"
                );
                assert_eq!(
                    owned(&mut r.kernel_params.strs()),
                    strs(&rt["kernel_param"])
                );
                assert_eq!(
                    owned(&mut r.infer_meta_params.strs()),
                    strs(&rt["infer_meta_param"])
                );
            }
            None => assert!(rt.is_null(), "{name}"),
        }
        for (spec, json) in def
            .attributes
            .iter()
            .zip(op["attributes"].as_array().unwrap())
        {
            let Some(default) = json.get("default") else {
                continue;
            };
            match (spec.default, default) {
                (Some(DefaultValue::Str(s)), serde_json::Value::String(want)) => {
                    assert_eq!(s, *want, "{name}.{}", spec.name)
                }
                (Some(DefaultValue::IntList(l)), serde_json::Value::Array(want)) => {
                    let want: Vec<i64> = want.iter().map(|v| v.as_i64().unwrap()).collect();
                    assert_eq!(l.as_slice(), want, "{name}.{}", spec.name)
                }
                (Some(DefaultValue::Place(_, _, device)), serde_json::Value::Array(want)) => {
                    assert_eq!(device, want[2].as_str().unwrap(), "{name}.{}", spec.name)
                }
                _ => {}
            }
        }
    }
}

#[test]
fn sample_definitions_carry_kinds_defaults_and_inplace_maps() {
    let matmul = pir_dialects::op_def("pd_op.matmul").unwrap();
    assert_eq!(matmul.attributes[0].kind, AttrKind::Bool);
    assert!(matches!(
        matmul.attributes[1].default,
        Some(DefaultValue::Bool(false))
    ));
    let full = pir_dialects::op_def("pd_op.full").unwrap();
    let kinds: Vec<AttrKind> = full.attributes.iter().map(|a| a.kind).collect();
    assert_eq!(kinds[0], AttrKind::IntArray);
    assert!(matches!(
        kinds[1],
        AttrKind::Scalar(pir_dialects::op_def::ScalarDataType::Double)
    ));
    assert!(matches!(
        full.attributes[3].default,
        Some(DefaultValue::Place(1, 0, device)) if device.is_empty()
    ));
    let relu_ = pir_dialects::op_def("pd_op.relu_").unwrap();
    let inplace: Vec<(&str, &str)> = relu_
        .inplace
        .iter()
        .map(|&(o, i)| (o.as_str(), i.as_str()))
        .collect();
    assert_eq!(inplace, [("out", "x")]);
    let adam = pir_dialects::op_def("pd_op.adam_").unwrap();
    assert!(adam.outputs.iter().any(|o| o.optional));
    assert!(pir_dialects::op_def("pd_op.no_such_op").is_none());
}

#[test]
fn registered_ops_expose_their_definition() {
    let ctx = pir_dialects::pd_op_context();
    let info = ctx.op_info(ctx.symbol("pd_op.conv2d")).unwrap();
    assert_eq!(
        info.interface::<OpDefinition>().unwrap().0.name,
        "pd_op.conv2d"
    );
    assert_eq!(info.attribute_names[0], "strides");
    let yield_ = ctx.op_info(ctx.symbol("cf.yield")).unwrap();
    assert!(yield_.has_trait(pir_core::op_info::traits::IS_TERMINATOR));
    let registered = ctx
        .registered_ops()
        .filter(|i| i.name.starts_with("pd_op.") || i.name.starts_with("cf."))
        .count();
    assert_eq!(registered, 1622);
}

#[test]
fn printers_are_known_without_building_registrations() {
    // Asked first in a fresh context (nothing built), the printer lookup
    // agrees with the built registrations of another.
    let fresh = pir_dialects::pd_op_context();
    let built = pir_dialects::pd_op_context();
    let mut with_printer = Vec::new();
    for def in OP_DEFS {
        let has = fresh.op_printer(fresh.symbol(&def.name)).is_some();
        let info = built.op_info(built.symbol(&def.name));
        assert_eq!(has, info.is_some_and(|i| i.print.is_some()), "{}", def.name);
        if has {
            with_printer.push(def.name.as_str());
        }
    }
    assert_eq!(
        with_printer,
        [
            "cf.stack_create",
            "pd_op.if",
            "pd_op.pylayer",
            "pd_op.while"
        ]
    );
}

#[test]
fn typed_views_build_ops_and_read_them_back() {
    let ctx = pir_dialects::pd_op_context();
    let mut p = Program::new(ctx.clone());
    let f32_ty = ctx.intern_type(ScalarType::F32);
    let t = DenseTensorType::get(&ctx, f32_ty, &[2, 3]);
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let full = FullOp::build(&mut b, &[2, 3], 1.5, DataType::Float32, Place::cpu(), &[t]);
    let x = full.out(b.program());
    let relu = ReluInplaceOp::build(&mut b, x, &[t]);
    let r = relu.out(b.program());
    let mm = MatmulOp::build(&mut b, r, x, true, false, &[t]);
    p.verify().unwrap();
    assert_eq!(full.shape(&p), Some(vec![2, 3]));
    assert_eq!(full.dtype(&p), Some(DataType::Float32));
    assert_eq!(full.place(&p), Some(Place::cpu()));
    assert_eq!(mm.transpose_x(&p), Some(true));
    assert_eq!(mm.y(&p), Some(x));
    let text = p.to_string();
    assert!(
        text.contains(r#""pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2,3],value:1.5}"#),
        "{text}"
    );
    // Built ops keep their attributes in definition order (the order the
    // JSON writer writes a dictionary in), as Paddle writes them.
    let names: Vec<String> = ctx
        .dict_entries(p.attrs(full.0))
        .iter()
        .map(|&(name, _)| ctx.symbol_str(name).to_string())
        .collect();
    assert_eq!(names, ["shape", "value", "dtype", "place"]);
}

#[test]
fn definition_checks_reject_wrong_counts_and_kinds_readably() {
    let ctx = pir_dialects::pd_op_context();
    let mut p = Program::new(ctx.clone());
    let t = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::F32), &[2]);
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let x = b.op("test.input", &[], &[t], &[]);
    let x = b.program().result(x, 0);
    b.op("pd_op.matmul", &[x], &[t], &[]);
    let err = p.verify().unwrap_err().to_string();
    assert!(err.contains("expects 2 operand(s) (x, y), has 1"), "{err}");

    let mut p = Program::new(ctx.clone());
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let x = b.op("test.input", &[], &[t], &[]);
    let x = b.program().result(x, 0);
    b.op(
        "pd_op.matmul",
        &[x, x],
        &[t],
        &[("transpose_x", ctx.intern_attr(I32Attr(1)))],
    );
    let err = p.verify().unwrap_err().to_string();
    assert!(
        err.contains(
            "attribute `transpose_x` must be a bool (pir::BoolAttribute), found builtin.i32"
        ),
        "{err}"
    );
}

#[test]
fn operands_and_results_of_another_kind_are_refused_as_paddle_does() {
    use pir_core::builtin::{DataLayout, VectorType};
    use pir_dialects::pd_op::DenseTensorArrayType;

    let ctx = pir_dialects::pd_op_context();
    let f32 = ctx.intern_type(ScalarType::F32);
    let dense = DenseTensorType::get(&ctx, f32, &[2]);
    let array = ctx.intern_type(DenseTensorArrayType {
        dtype: f32,
        dims: Box::new([2]),
        layout: DataLayout::NCHW,
    });
    let build = |operand_type, result_type, name: &str, operands: usize| {
        let mut p = Program::new(ctx.clone());
        let top = p.top_block();
        let mut b = Builder::at_end(&mut p, top);
        let x = b.op("test.input", &[], &[operand_type], &[]);
        let x = b.program().result(x, 0);
        b.op(name, &vec![x; operands], &[result_type], &[]);
        p.verify().map_err(|e| e.to_string())
    };
    // A tensor array where Paddle's definition takes a dense tensor (what
    // Paddle 3.3.1 refuses when translating a 2.x `beam_search_decode`).
    let err = build(array, dense, "pd_op.relu", 1).unwrap_err();
    assert!(
        err.contains("operand 0 (`x`) must be a dense tensor, found pd_op.tensor_array"),
        "{err}"
    );
    let err = build(dense, array, "pd_op.relu", 1).unwrap_err();
    assert!(
        err.contains("result 0 (`out`) must be a dense tensor, found pd_op.tensor_array"),
        "{err}"
    );
    // And the other way round: a dense tensor where a tensor array is taken.
    let err = build(dense, dense, "pd_op.array_length", 1).unwrap_err();
    assert!(err.contains("must be a tensor array"), "{err}");
    build(array, dense, "pd_op.array_length", 1).unwrap();
    // A vector of dense tensors where a vector is taken, and one tensor too.
    let vec = ctx.intern_type(VectorType(Box::new([dense, dense])));
    build(vec, dense, "pd_op.add_n", 1).unwrap();
    build(dense, dense, "pd_op.add_n", 1).unwrap();
    let arrays = ctx.intern_type(VectorType(Box::new([array])));
    let err = build(arrays, dense, "pd_op.add_n", 1).unwrap_err();
    assert!(err.contains("must be a vector of dense tensors"), "{err}");
}

#[test]
fn the_table_numbers_its_ops_in_sixteen_bits() {
    // Registrations are deferred by their number in the table (a `u16`).
    assert!(pir_dialects::op_def::OP_DEFS.len() < usize::from(u16::MAX));
}

#[test]
fn a_new_context_builds_no_table_op_until_one_is_named() {
    let ctx = pir_dialects::pd_op_context();
    let built_before = format!("{ctx:?}");
    let relu = ctx.op_info(ctx.symbol("pd_op.relu")).unwrap();
    assert_eq!(relu.dialect, "pd_op");
    let built_after = format!("{ctx:?}");
    assert_ne!(built_before, built_after, "the first look-up builds the op");
}
