//! The core API as a user sees it: building, editing, cloning, verifying.
#![allow(clippy::unwrap_used)] // a test or tool fails loudly by design

use std::sync::Arc;

use pir_core::builtin::{
    bool_array, ArrayAttr, BoolAttr, DenseTensorType, F32Attr, F64Attr, I32Attr, ScalarType,
    StrAttr, VectorType,
};
use pir_core::clone::IrMapping;
use pir_core::walk::{Order, WalkResult};
use pir_core::{AttrDict, Builder, InsertPoint, IrContext, OpId, Program, Type, ValueDef, ValueId};

fn ctx() -> Arc<IrContext> {
    Arc::new(IrContext::new())
}

fn tensor(ctx: &IrContext, dims: &[i64]) -> Type {
    let f32_ty = ctx.intern_type(ScalarType::F32);
    DenseTensorType::get(ctx, f32_ty, dims)
}

/// The fc example of the save/load design: parameter → data → matmul → add →
/// relu → full → scale → fetch. Attribute kinds stand in for the pd_op ones
/// (pir-core knows no pd_op); the dialect crate tests the full typed version.
fn build_fc(p: &mut Program) -> Vec<OpId> {
    let ctx = p.ctx_arc().clone();
    let top = p.top_block();
    let sym = |s: &str| ctx.symbol(s);
    let param = |name: &str, ty: Type, p: &mut Program| {
        let attrs = [
            (sym("is_distributed"), bool_array(&ctx, &[false])),
            (sym("is_parameter"), bool_array(&ctx, &[true])),
            (sym("need_clip"), bool_array(&ctx, &[true])),
            (sym("parameter_name"), StrAttr::get(&ctx, name)),
            (sym("persistable"), bool_array(&ctx, &[true])),
            (sym("stop_gradient"), bool_array(&ctx, &[false])),
            (sym("trainable"), bool_array(&ctx, &[true])),
        ];
        Builder::at_end(p, top).create(sym("builtin.parameter"), &[], &[ty], &attrs, 0)
    };
    let b0 = param("fc_0.b_0", tensor(&ctx, &[30]), p);
    let w0 = param("fc_0.w_0", tensor(&ctx, &[30, 30]), p);
    let mut b = Builder::at_end(p, top);
    let sg = |v: bool| bool_array(&ctx, &[v]);
    let x = b.op(
        "pd_op.data",
        &[],
        &[tensor(&ctx, &[-1, 30])],
        &[
            ("name", StrAttr::get(&ctx, "A")),
            ("stop_gradient", sg(true)),
        ],
    );
    let (xv, wv, bv) = (
        b.program().result(x, 0),
        b.program().result(w0, 0),
        b.program().result(b0, 0),
    );
    let mm = b.op(
        "pd_op.matmul",
        &[xv, wv],
        &[tensor(&ctx, &[-1, 30])],
        &[
            ("transpose_x", ctx.intern_attr(BoolAttr(false))),
            ("transpose_y", ctx.intern_attr(BoolAttr(false))),
            ("stop_gradient", sg(false)),
        ],
    );
    let mmv = b.program().result(mm, 0);
    let add = b.op(
        "pd_op.add",
        &[mmv, bv],
        &[tensor(&ctx, &[-1, 30])],
        &[("stop_gradient", sg(false))],
    );
    let addv = b.program().result(add, 0);
    let relu = b.op(
        "pd_op.relu",
        &[addv],
        &[tensor(&ctx, &[-1, 30])],
        &[("stop_gradient", sg(false))],
    );
    let reluv = b.program().result(relu, 0);
    let full = b.op(
        "pd_op.full",
        &[],
        &[tensor(&ctx, &[1])],
        &[
            ("value", F64Attr::get(&ctx, 1.0)),
            ("stop_gradient", sg(true)),
        ],
    );
    let fullv = b.program().result(full, 0);
    let scale = b.op(
        "pd_op.scale",
        &[reluv, fullv],
        &[tensor(&ctx, &[-1, 30])],
        &[
            ("bias", F32Attr::get(&ctx, 0.0)),
            ("bias_after_scale", ctx.intern_attr(BoolAttr(true))),
            ("stop_gradient", sg(false)),
        ],
    );
    let scalev = b.program().result(scale, 0);
    let fetch = b.op(
        "pd_op.fetch",
        &[scalev],
        &[tensor(&ctx, &[-1, 30])],
        &[
            ("name", StrAttr::get(&ctx, "fetch_name_0")),
            ("col", ctx.intern_attr(I32Attr(0))),
            ("persistable", sg(true)),
            ("stop_gradient", sg(false)),
        ],
    );
    vec![b0, w0, x, mm, add, relu, full, scale, fetch]
}

#[test]
fn the_fc_example_builds_verifies_and_prints_as_paddle_does() {
    let mut p = Program::new(ctx());
    build_fc(&mut p);
    p.verify().unwrap();
    let expected = "{
    (%0) = \"builtin.parameter\" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:\"fc_0.b_0\",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<30xf32>
    (%1) = \"builtin.parameter\" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:\"fc_0.w_0\",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<30x30xf32>
    (%2) = \"pd_op.data\" () {name:\"A\",stop_gradient:[true]} : () -> tensor<-1x30xf32>
    (%3) = \"pd_op.matmul\" (%2, %1) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x30xf32>, tensor<30x30xf32>) -> tensor<-1x30xf32>
    (%4) = \"pd_op.add\" (%3, %0) {stop_gradient:[false]} : (tensor<-1x30xf32>, tensor<30xf32>) -> tensor<-1x30xf32>
    (%5) = \"pd_op.relu\" (%4) {stop_gradient:[false]} : (tensor<-1x30xf32>) -> tensor<-1x30xf32>
    (%6) = \"pd_op.full\" () {stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%7) = \"pd_op.scale\" (%5, %6) {bias:0,bias_after_scale:true,stop_gradient:[false]} : (tensor<-1x30xf32>, tensor<1xf32>) -> tensor<-1x30xf32>
    (%8) = \"pd_op.fetch\" (%7) {col:0,name:\"fetch_name_0\",persistable:[true],stop_gradient:[false]} : (tensor<-1x30xf32>) -> tensor<-1x30xf32>
}
";
    assert_eq!(p.to_string(), expected);
}

#[test]
fn replace_all_uses_moves_every_use() {
    let mut p = Program::new(ctx());
    let ops = build_fc(&mut p);
    let (relu, scale) = (ops[5], ops[7]);
    let add_out = p.operand(relu, 0).unwrap();
    let relu_out = p.result(relu, 0);
    assert_eq!(p.use_count(relu_out), 1);
    p.replace_all_uses_with(relu_out, add_out);
    assert_eq!(p.use_count(relu_out), 0);
    assert_eq!(p.use_count(add_out), 2);
    assert_eq!(p.operand(scale, 0), Some(add_out));
    p.erase_op(relu).unwrap();
    p.verify().unwrap();
    assert!(!p.to_string().contains("pd_op.relu"));
}

#[test]
fn erasing_an_op_with_used_results_is_refused() {
    let mut p = Program::new(ctx());
    let ops = build_fc(&mut p);
    let err = p.erase_op(ops[3]).unwrap_err();
    assert!(err.to_string().contains("still has 1 use"), "{err}");
    assert!(!p.is_erased(ops[3]));
}

#[test]
fn moving_an_op_relinks_the_block_in_constant_time() {
    let mut p = Program::new(ctx());
    let ops = build_fc(&mut p);
    let full = ops[6];
    p.move_op(full, InsertPoint::BlockStart(p.top_block()));
    assert_eq!(p.block_first_op(p.top_block()), Some(full));
    p.verify().unwrap();
    p.move_op(full, InsertPoint::After(ops[3]));
    assert_eq!(p.next_op(ops[3]), Some(full));
    assert_eq!(p.prev_op(ops[4]), Some(full));
    p.verify().unwrap();
}

/// Builds `while (cond, x) { y = op(x, outer); yield cond2, y }` and returns (while, outer value).
fn build_while(p: &mut Program) -> (OpId, ValueId) {
    let ctx = p.ctx_arc().clone();
    let top = p.top_block();
    let t = tensor(&ctx, &[4]);
    let b_ty = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::Bool), &[1]);
    let mut b = Builder::at_end(p, top);
    let outer = b.op("test.outer", &[], &[t], &[]);
    let cond = b.op("test.cond", &[], &[b_ty], &[]);
    let (outer_v, cond_v) = (b.program().result(outer, 0), b.program().result(cond, 0));
    let w = b.create(
        ctx.symbol("test.while"),
        &[Some(cond_v), Some(outer_v)],
        &[t],
        &[],
        1,
    );
    let body = p.add_block(p.op_region(w, 0));
    let arg = p.add_block_arg(body, t);
    let mut bb = Builder::at_end(p, body);
    let y = bb.op("test.step", &[arg, outer_v], &[t], &[]);
    let c2 = bb.op("test.cond", &[], &[b_ty], &[]);
    let (yv, c2v) = (bb.program().result(y, 0), bb.program().result(c2, 0));
    bb.op("cf.yield", &[c2v, yv], &[], &[]);
    (w, outer_v)
}

#[test]
fn cloning_a_while_region_remaps_inner_values_and_keeps_outer_ones() {
    let mut p = Program::new(ctx());
    let (w, outer) = build_while(&mut p);
    let mut map = IrMapping::default();
    let w2 = p.clone_op(w, &mut map);
    p.insert_op(w2, InsertPoint::After(w));
    p.verify().unwrap();
    let body2 = p.region_blocks(p.op_region(w2, 0))[0];
    let body1 = p.region_blocks(p.op_region(w, 0))[0];
    let arg2 = p.block_args(body2)[0];
    assert_ne!(arg2, p.block_args(body1)[0]);
    let step2 = p.block_first_op(body2).unwrap();
    assert_eq!(p.operand(step2, 0), Some(arg2), "inner value remapped");
    assert_eq!(p.operand(step2, 1), Some(outer), "outer value kept");
    assert_eq!(
        p.use_count(outer),
        4,
        "two operands of each while and each step"
    );
    let text = p.to_string();
    assert_eq!(text.matches("\"test.step\"").count(), 2);
}

/// A while rebuilt around the same body: the body's blocks move to the new
/// op, their values and uses intact, and the old op erases cleanly.
#[test]
fn region_blocks_move_to_a_rebuilt_op() {
    let mut p = Program::new(ctx());
    let (w, outer) = build_while(&mut p);
    let operands: Vec<_> = p.operands(w).collect();
    let types: Vec<_> = p.results(w).map(|r| p.value_type(r)).collect();
    let w2 = p.create_op(p.op_name(w), &operands, &types, p.attrs(w), 1);
    p.insert_op(w2, InsertPoint::After(w));
    let body = p.region_blocks(p.op_region(w, 0))[0];
    p.move_region_blocks(p.op_region(w, 0), p.op_region(w2, 0))
        .unwrap();
    assert!(p.region_blocks(p.op_region(w, 0)).is_empty());
    assert_eq!(p.region_blocks(p.op_region(w2, 0)), [body]);
    assert_eq!(p.block_parent_op(body), Some(w2));
    p.erase_op(w).unwrap();
    p.verify().unwrap();
    let step = p.block_first_op(body).unwrap();
    assert_eq!(p.operand(step, 1), Some(outer));
    assert_eq!(p.operand(step, 0), Some(p.block_args(body)[0]));
}

/// Blocks cannot move into a region nested in them: they would contain
/// themselves. Nothing moves.
#[test]
fn region_blocks_do_not_move_into_themselves() {
    let mut p = Program::new(ctx());
    let (w, _) = build_while(&mut p);
    let body = p.region_blocks(p.op_region(w, 0))[0];
    let step = p.block_first_op(body).unwrap();
    let nested = p.create_op(p.op_name(w), &[], &[], p.attrs(w), 1);
    p.insert_op(nested, InsertPoint::Before(step));
    let (from, to) = (p.op_region(w, 0), p.op_region(nested, 0));
    assert!(matches!(
        p.move_region_blocks(from, to),
        Err(pir_core::program::EditError::RegionInsideItself { .. })
    ));
    assert_eq!(p.region_blocks(from), [body]);
    assert!(p.region_blocks(to).is_empty());
}

#[test]
fn the_verifier_rejects_a_value_used_outside_its_scope() {
    let mut p = Program::new(ctx());
    let (w, _) = build_while(&mut p);
    let body = p.region_blocks(p.op_region(w, 0))[0];
    let inner = p.result(p.block_first_op(body).unwrap(), 0);
    let top = p.top_block();
    Builder::at_end(&mut p, top).op("test.leak", &[inner], &[], &[]);
    let err = p.verify().unwrap_err().to_string();
    assert!(
        err.contains("used outside the scope where it is defined"),
        "{err}"
    );
    assert!(err.contains("test.leak"), "{err}");
}

#[test]
fn the_verifier_rejects_use_before_def() {
    let mut p = Program::new(ctx());
    let ops = build_fc(&mut p);
    p.move_op(ops[3], InsertPoint::BlockStart(p.top_block()));
    let err = p.verify().unwrap_err().to_string();
    assert!(
        err.contains("operand 0: value result 0 of pd_op.data"),
        "{err}"
    );
    assert!(err.contains("used before it is defined"), "{err}");
}

/// A `builtin.combine` of a `-1x-1` value declared as `element` in its vector.
fn combine_of(element: &[i64], ctx: &Arc<IrContext>) -> Program {
    let mut p = Program::new(ctx.clone());
    let top = p.top_block();
    let input = tensor(ctx, &[-1, -1]);
    let x = Builder::at_end(&mut p, top).op("test.source", &[], &[input], &[]);
    let x = p.result(x, 0);
    let vec = VectorType::get(ctx, &[tensor(ctx, element)]);
    Builder::at_end(&mut p, top).op("builtin.combine", &[x], &[vec], &[]);
    p
}

#[test]
fn a_combine_element_may_differ_from_its_operand_in_unknown_dims_as_in_paddle() {
    // Paddle's CombineOp::VerifySig accepts IsDynamicShapeTypeEqual types:
    // `paddle.jit.save` writes a growing loop-carried `-1x-1` into `-1x1`.
    let ctx = ctx();
    combine_of(&[-1, 1], &ctx).verify().unwrap();
    combine_of(&[3, 1], &ctx).verify().unwrap();
    let err = combine_of(&[3], &ctx).verify().unwrap_err().to_string();
    assert!(
        err.contains("element 0 of the result type differs"),
        "{err}"
    );
}

#[test]
fn nested_regions_see_values_of_enclosing_blocks() {
    let mut p = Program::new(ctx());
    build_while(&mut p);
    p.verify().unwrap();
}

#[test]
fn uniquing_gives_one_handle_per_distinct_value() {
    let ctx = ctx();
    assert_eq!(tensor(&ctx, &[2, 3]), tensor(&ctx, &[2, 3]));
    assert_ne!(tensor(&ctx, &[2, 3]), tensor(&ctx, &[3, 2]));
    assert_eq!(ctx.intern_attr(I32Attr(1)), ctx.intern_attr(I32Attr(1)));
    assert_ne!(
        ctx.intern_attr(I32Attr(1)),
        ctx.intern_attr(pir_core::builtin::I64Attr(1))
    );
    assert_ne!(F64Attr::get(&ctx, 0.0), F64Attr::get(&ctx, -0.0));
    assert_eq!(F64Attr::get(&ctx, f64::NAN), F64Attr::get(&ctx, f64::NAN));
    let a = ArrayAttr::get(&ctx, &[ctx.intern_attr(BoolAttr(true))]);
    assert_eq!(a, bool_array(&ctx, &[true]));
    let d1 = ctx.dict(&[(ctx.symbol("a"), a)]);
    assert_eq!(d1, ctx.dict(&[(ctx.symbol("a"), a)]));
    assert_eq!(AttrDict::EMPTY, ctx.dict(&[]));
}

#[test]
fn walk_mut_may_erase_every_op_post_order() {
    let mut p = Program::new(ctx());
    build_while(&mut p);
    let module = p.module_op();
    let mut visited = 0;
    p.walk_mut(module, Order::Post, |p, op| {
        visited += 1;
        if op != module {
            // Post-order: users inside regions are gone; results may still be
            // used by later ops, so drop those uses first.
            for r in p.results(op).collect::<Vec<_>>() {
                let uses: Vec<_> = p.uses(r).collect();
                for u in uses {
                    p.set_operand_value(u, None);
                }
            }
            p.erase_op(op).unwrap();
        }
        WalkResult::Advance
    });
    assert_eq!(visited, 7, "module, outer, cond, while, step, cond, yield");
    assert_eq!(p.num_ops(), 0);
    assert_eq!(p.to_string(), "{\n}\n");
}

#[test]
fn unregistered_ops_are_fully_supported() {
    let ctx = ctx();
    let mut p = Program::new(ctx.clone());
    let top = p.top_block();
    let op = Builder::at_end(&mut p, top).op("my_dialect.thing", &[], &[tensor(&ctx, &[1])], &[]);
    assert!(p.op_info(op).is_none());
    p.verify().unwrap();
    assert!(p
        .to_string()
        .contains("\"my_dialect.thing\" () {} : () -> tensor<1xf32>"));
}

#[test]
fn block_arguments_know_their_definition() {
    let mut p = Program::new(ctx());
    let (w, _) = build_while(&mut p);
    let body = p.region_blocks(p.op_region(w, 0))[0];
    let arg = p.block_args(body)[0];
    assert_eq!(
        p.value_def(arg),
        ValueDef::BlockArg {
            block: body,
            index: 0
        }
    );
    assert_eq!(p.block_parent_op(body), Some(w));
}

#[test]
fn hot_structs_keep_their_size() {
    // Pinned: a change here changes memory per op; update the README figure with it.
    assert_eq!(pir_core::program::sizes::OPERATION, 40);
    assert_eq!(pir_core::program::sizes::VALUE, 16);
    assert_eq!(pir_core::program::sizes::OPERAND, 16);
    assert_eq!(std::mem::size_of::<Option<OpId>>(), 4);
    assert_eq!(std::mem::size_of::<Type>(), 4);
}
