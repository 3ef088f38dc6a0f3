//! Snapshots of the typed text: the form is our own, so any change to it must
//! be deliberate. `tests/snapshots/typed/<model>.pir` holds the typed text of
//! each model shipped in the repository's `tests/corpus` (and of a program
//! built here with the kinds no corpus model has); each snapshot must also
//! read back as the model (its JSON bytes).
//!
//! Re-bless after an intended change with
//! `PIR_BLESS=1 cargo test -p pir-serde --test text_snapshots`, then review
//! the diff of the snapshot files.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use std::path::PathBuf;
use std::sync::Arc;

use pir_core::builtin::*;
use pir_core::{IrContext, Program};
use pir_dialects::dist::{DistDenseTensorType, OpDistAttr, ProcessMeshAttr, TensorDistAttr};
use pir_dialects::pd_op::*;

/// Models of the corpus copy shipped in the repository.
const SHIPPED: [&str; 5] = [
    "cond_if",
    "fn_no_params",
    "mlp_tiny",
    "train_mlp_adam",
    "while_loop",
];

fn snapshot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/snapshots/typed/{name}.pir"))
}

fn check_snapshot(name: &str, actual: &str) {
    let path = snapshot_path(name);
    if std::env::var_os("PIR_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (bless with PIR_BLESS=1)", path.display()));
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .map_or(expected.lines().count().min(actual.lines().count()), |i| i);
        panic!(
            "{name}: typed text differs from {} at line {}:\n  snapshot: {}\n  printed:  {}",
            path.display(),
            line + 1,
            expected.lines().nth(line).unwrap_or("<end>"),
            actual.lines().nth(line).unwrap_or("<end>"),
        );
    }
}

#[test]
fn typed_text_of_shipped_models() {
    for name in SHIPPED {
        let model =
            pir_corpus::model(name).unwrap_or_else(|| panic!("{name} is shipped in tests/corpus"));
        let json = std::fs::read(model.json()).unwrap();
        let ctx = pir_dialects::pd_op_context();
        let loaded = pir_serde::read_slice(ctx.clone(), &json, &Default::default()).unwrap();
        let typed = pir_serde::typed_text(&loaded, false);
        check_snapshot(name, &typed);
        // The snapshot is a typed text that reads back as the model.
        let back = pir_serde::read_text(ctx, &typed).unwrap();
        let options = pir_serde::WriteOptions {
            trainable: back.trainable,
            ..Default::default()
        };
        assert!(
            pir_serde::write_to_vec(&back.program, &options).unwrap() == json,
            "{name}"
        );
    }
}

/// A program with the kinds no corpus model has: layouts and LoD, sparse and
/// distributed tensors, tensor arrays, every attribute kind, odd strings and
/// op names, absent operands, keyword arguments and a generic region op.
fn kinds_program(ctx: &Arc<IrContext>) -> Program {
    let mut p = Program::new(ctx.clone());
    let f32_ty = ctx.intern_type(ScalarType::F32);
    let i64_ty = ctx.intern_type(ScalarType::I64);
    let nhwc = ctx.intern_type(DenseTensorType {
        dtype: f32_ty,
        dims: [1, 8, 8, 3].into(),
        layout: DataLayout::NHWC,
        lod: vec![vec![0u64, 2, 5].into_boxed_slice()].into(),
        offset: 16,
    });
    let idx = DenseTensorType::get(ctx, i64_ty, &[2, 3]);
    let vals = DenseTensorType::get(ctx, f32_ty, &[3]);
    let coo = ctx.intern_type(SparseCooTensorType {
        dtype: f32_ty,
        dims: [4, 4].into(),
        non_zero_dims: [3].into(),
        layout: DataLayout::NCHW,
        indices: idx,
        elements: vals,
    });
    let mesh = ctx.intern_attr(ProcessMeshAttr {
        shape: [2, 2].into(),
        process_ids: [0, 1, 2, 3].into(),
        dim_names: ["dp".into(), "mp".into()].into(),
    });
    let dist = ctx.intern_attr(TensorDistAttr {
        mesh,
        dims_mapping: [0, -1].into(),
        partial_status: [(1, 0)].into(),
    });
    let dist_ty = ctx.intern_type(DistDenseTensorType {
        dense: DenseTensorType::get(ctx, f32_ty, &[8, 4]),
        dist,
        local_dims: [4, 4].into(),
    });
    let array = ctx.intern_type(DenseTensorArrayType {
        dtype: f32_ty,
        dims: [-1, 6].into(),
        layout: DataLayout::NCHW,
    });
    let sym = |s: &str| ctx.symbol(s);
    let attrs = ctx.dict(&[
        (sym("i32"), ctx.intern_attr(I32Attr(-7))),
        (sym("i64"), ctx.intern_attr(I64Attr(1 << 40))),
        (sym("index"), ctx.intern_attr(IndexAttr(3))),
        (sym("f32"), F32Attr::get(ctx, 0.1)),
        (sym("f64"), F64Attr::get(ctx, 0.10000000149011612)),
        (
            sym("nan"),
            F64Attr::get(ctx, f64::from_bits(0x7ff8_0000_0000_0001)),
        ),
        (sym("str"), StrAttr::get(ctx, "a\"b\\c\nd\té")),
        (sym("tensor_name"), TensorNameAttr::get(ctx, "x")),
        (sym("type"), ctx.intern_attr(TypeAttr(nhwc))),
        (
            sym("c64"),
            ctx.intern_attr(Complex64Attr(1.5f32.to_bits(), (-2f32).to_bits())),
        ),
        (sym("int_array"), IntArrayAttr::get(ctx, &[-1, 4])),
        (sym("dtype"), DataTypeAttr::get(ctx, DataType::BFloat16)),
        (
            sym("place"),
            PlaceAttr::get(
                ctx,
                Place {
                    allocation_type: 9,
                    device_id: 1,
                    device_type: "npu".into(),
                },
            ),
        ),
        (
            sym("layout"),
            ctx.intern_attr(DataLayoutAttr(DataLayout::Undefined)),
        ),
        (sym("null"), pir_core::Attribute::NULL),
        (
            sym("mixed"),
            ArrayAttr::get(
                ctx,
                &[ctx.intern_attr(BoolAttr(true)), ctx.intern_attr(I32Attr(1))],
            ),
        ),
        (
            sym("op_dist_attr"),
            ctx.intern_attr(OpDistAttr {
                mesh,
                operands: [dist].into(),
                results: [].into(),
                chunk_id: 0,
            }),
        ),
        (sym("odd name:1"), ctx.intern_attr(BoolAttr(false))),
    ]);
    let top = p.top_block();
    let src = p.create_op(
        sym("test.source"),
        &[None],
        &[nhwc, coo, dist_ty, array],
        attrs,
        0,
    );
    p.append_op(top, src);
    let region_op = p.create_op(
        sym("test.\"region\"\nop"),
        &[Some(p.result(src, 0))],
        &[],
        pir_core::AttrDict::EMPTY,
        2,
    );
    p.append_op(top, region_op);
    let region = p.op_region(region_op, 1);
    let block = p.add_block(region);
    let arg = p.add_block_arg(block, nhwc);
    let kw = p.add_block_kwarg(block, sym("scale"), f32_ty);
    let user = p.create_op(
        sym("test.use"),
        &[Some(arg), Some(kw), Some(p.result(src, 3))],
        &[],
        pir_core::AttrDict::EMPTY,
        0,
    );
    p.append_op(block, user);
    p
}

#[test]
fn typed_text_of_every_kind() {
    let ctx = pir_dialects::pd_op_context();
    let program = kinds_program(&ctx);
    let typed = program.to_typed_string();
    check_snapshot("every_kind", &typed);
    let back = Program::parse(&ctx, &typed).unwrap();
    assert_eq!(back.to_typed_string(), typed);
    let options = pir_serde::WriteOptions::default();
    assert!(
        pir_serde::write_to_vec(&back, &options).unwrap()
            == pir_serde::write_to_vec(&program, &options).unwrap()
    );
}
