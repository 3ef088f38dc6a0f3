//! Structure-aware: an arbitrary program (ops of several dialects with
//! operands from earlier values, attributes of every builtin kind, tensor
//! types, nested regions, parameter ops) is written as JSON, read back and
//! must print the same; its typed text must read back to the same program.
//! Anything the writer refuses is fine; a panic or a changed program is not.
#![no_main]

use std::sync::{Arc, OnceLock};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pir_core::builtin::{
    bool_array, BoolAttr, DenseTensorType, F32Attr, F64Attr, I32Attr, I64Attr, ScalarType,
    StrAttr,
};
use pir_core::{Attribute, BlockId, Builder, IrContext, Program, Type, ValueId};

fn ctx() -> Arc<IrContext> {
    static CTX: OnceLock<Arc<IrContext>> = OnceLock::new();
    CTX.get_or_init(pir_dialects::pd_op_context).clone()
}

const NAMES: [&str; 10] = [
    "pd_op.relu",
    "pd_op.add",
    "pd_op.matmul",
    "pd_op.scale",
    "pd_op.full",
    "pd_op.fetch",
    "test.custom",
    "cf.yield",
    "pd_op.if",
    "builtin.combine",
];

const ATTR_NAMES: [&str; 8] = [
    "stop_gradient",
    "value",
    "name",
    "axis",
    "scale",
    "transpose_x",
    "persistable",
    "struct_name",
];

#[derive(Arbitrary, Debug)]
enum AttrValue {
    Bool(bool),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    Str(String),
    Bools(Vec<bool>),
}

#[derive(Arbitrary, Debug)]
struct OpRecipe {
    name: u8,
    operands: Vec<u8>,
    results: Vec<Vec<i8>>,
    attrs: Vec<(u8, AttrValue)>,
    regions: Vec<Vec<OpRecipe>>,
}

#[derive(Arbitrary, Debug)]
struct Recipe {
    parameters: Vec<(String, Vec<i8>)>,
    ops: Vec<OpRecipe>,
    trainable: bool,
}

fn tensor(ctx: &IrContext, dims: &[i8]) -> Type {
    let f32_ty = ctx.intern_type(ScalarType::F32);
    let dims: Vec<i64> = dims.iter().take(4).map(|&d| i64::from(d).max(-1)).collect();
    DenseTensorType::get(ctx, f32_ty, &dims)
}

fn attr(ctx: &IrContext, v: &AttrValue) -> Attribute {
    match v {
        AttrValue::Bool(b) => ctx.intern_attr(BoolAttr(*b)),
        AttrValue::I32(i) => ctx.intern_attr(I32Attr(*i)),
        AttrValue::I64(i) => ctx.intern_attr(I64Attr(*i)),
        AttrValue::F32(f) => F32Attr::get(ctx, *f),
        AttrValue::F64(f) => F64Attr::get(ctx, *f),
        AttrValue::Str(s) => StrAttr::get(ctx, s),
        AttrValue::Bools(b) => bool_array(ctx, &b[..b.len().min(8)]),
    }
}

/// Builds `ops` into `block`; `visible` are the values ops may use.
fn build(
    p: &mut Program,
    block: BlockId,
    ops: &[OpRecipe],
    visible: &mut Vec<ValueId>,
    depth: usize,
    budget: &mut usize,
) {
    let ctx = ctx();
    for recipe in ops {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let name = ctx.symbol(NAMES[usize::from(recipe.name) % NAMES.len()]);
        let operands: Vec<Option<ValueId>> = recipe
            .operands
            .iter()
            .take(4)
            .map(|&i| visible.get(usize::from(i) % visible.len().max(1)).copied())
            .collect();
        let results: Vec<Type> = recipe.results.iter().take(3).map(|d| tensor(&ctx, d)).collect();
        let mut attrs: Vec<(pir_core::Symbol, Attribute)> = Vec::new();
        for (n, v) in recipe.attrs.iter().take(6) {
            let sym = ctx.symbol(ATTR_NAMES[usize::from(*n) % ATTR_NAMES.len()]);
            if attrs.iter().all(|(s, _)| *s != sym) {
                attrs.push((sym, attr(&ctx, v)));
            }
        }
        let regions = if depth < 3 { recipe.regions.len().min(2) } else { 0 };
        let op = Builder::at_end(p, block).create(name, &operands, &results, &attrs, regions);
        for (r, body) in recipe.regions.iter().take(regions).enumerate() {
            let region = p.op_region(op, r);
            let inner = p.add_block(region);
            let mut scope = visible.clone();
            build(p, inner, body, &mut scope, depth + 1, budget);
        }
        visible.extend(p.results(op));
    }
}

fuzz_target!(|recipe: Recipe| {
    let ctx = ctx();
    let mut p = Program::new(ctx.clone());
    let top = p.top_block();
    let mut visible = Vec::new();
    for (name, dims) in recipe.parameters.iter().take(4) {
        let attrs = [
            (ctx.symbol("parameter_name"), StrAttr::get(&ctx, name)),
            (ctx.symbol("persistable"), bool_array(&ctx, &[true])),
        ];
        let ty = tensor(&ctx, dims);
        let op = Builder::at_end(&mut p, top).create(ctx.symbol("builtin.parameter"), &[], &[ty], &attrs, 0);
        visible.push(p.result(op, 0));
    }
    let mut budget = 64;
    build(&mut p, top, &recipe.ops, &mut visible, 0, &mut budget);
    let _ = p.verify();
    let printed = p.to_string();
    let options = pir_serde::WriteOptions {
        trainable: recipe.trainable,
        ..Default::default()
    };
    let Ok(json) = pir_serde::write_to_vec(&p, &options) else {
        return;
    };
    let back = match pir_serde::read_slice(ctx.clone(), &json, &Default::default()) {
        Ok(back) => back,
        Err(e) => panic!("a written program must read back: {e}\n{printed}"),
    };
    let again = pir_serde::write_to_vec(&back.program, &options).expect("it was written once");
    assert!(again == json, "JSON -> program -> JSON changed the bytes");
    let typed = pir_serde::typed_text(&back, false);
    match pir_serde::read_text(ctx, &typed) {
        Ok(t) => assert_eq!(t.program.to_typed_string(), back.program.to_typed_string()),
        Err(e) => panic!("a printed typed text must parse again: {e}\n{typed}"),
    }
});
