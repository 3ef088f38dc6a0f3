//! Pass tests: each builds a small program, runs a pipeline and checks one
//! property, stated in the test's doc line.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use pir_core::builtin::{bool_array, DenseTensorType, F32Attr, ScalarType, StrAttr};
use pir_core::{Builder, OpId, Program, Type, ValueId};
use pir_dialects::ops::{AssignOp, CastOp, FullOp, ReluOp, ScaleOp, TransposeOp};
use pir_dialects::pd_op::{DataType, Place};
use pir_pass::rewrite::{
    apply_greedily, FrozenPatternSet, GreedyConfig, RewritePattern, Rewriter, Root, Stop,
};
use pir_pass::{Changed, Named, Pass, PassContext, PassManager, PassResult, PassRun};

struct Fixture {
    p: Program,
    t: Type,
    x: ValueId,
}

fn fixture() -> Fixture {
    let ctx = pir_dialects::pd_op_context();
    let mut p = Program::new(ctx.clone());
    let t = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::F32), &[2, 3]);
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let x = b.op(
        "pd_op.data",
        &[],
        &[t],
        &[("name", StrAttr::get(&ctx, "x"))],
    );
    let x = b.program().result(x, 0);
    Fixture { p, t, x }
}

fn fetch(p: &mut Program, v: ValueId, t: Type) -> OpId {
    let ctx = p.ctx_arc().clone();
    let top = p.top_block();
    Builder::at_end(p, top).op(
        "pd_op.fetch",
        &[v],
        &[t],
        &[("name", StrAttr::get(&ctx, "out"))],
    )
}

/// Appends `pd_op.if` on a `test.cond` value, each branch a `relu` of `x`
/// (nothing reads it) and a `cf.yield` of nothing.
fn if_with_a_relu_in_each_branch(p: &mut Program, t: Type, x: ValueId) -> OpId {
    let ctx = p.ctx_arc().clone();
    let top = p.top_block();
    let cond = Builder::at_end(p, top).op("test.cond", &[], &[t], &[]);
    let cond = p.result(cond, 0);
    let if_op = Builder::at_end(p, top).create(ctx.symbol("pd_op.if"), &[Some(cond)], &[], &[], 2);
    for r in 0..2 {
        let region = p.op_region(if_op, r);
        let block = p.add_block(region);
        let mut b = Builder::at_end(p, block);
        ReluOp::build(&mut b, x, &[t]);
        b.op("cf.yield", &[], &[], &[]);
    }
    if_op
}

fn run(p: &mut Program, pipeline: &str) {
    let mut pm = PassManager::parse(pipeline).unwrap();
    pm.instrumentation.verify_each = true;
    pm.run(p).unwrap();
}

fn names(p: &Program) -> Vec<String> {
    p.block_ops(p.top_block())
        .map(|op| p.op_name_str(op).to_owned())
        .collect()
}

/// DCE erases unused pure ops, transitively, and keeps inputs and outputs.
#[test]
fn dce_erases_dead_chains_but_keeps_interface_ops() {
    let Fixture { mut p, t, x } = fixture();
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let r1 = ReluOp::build(&mut b, x, &[t]);
    let r1 = r1.out(b.program());
    ReluOp::build(&mut b, r1, &[t]); // dead, and makes r1 dead
    let live = ReluOp::build(&mut b, x, &[t]);
    let live = live.out(b.program());
    fetch(&mut p, live, t);
    run(&mut p, "dce");
    assert_eq!(names(&p), ["pd_op.data", "pd_op.relu", "pd_op.fetch"]);
}

/// DCE keeps ops with side effects (in-place ops) even when their results are unused.
#[test]
fn dce_keeps_side_effects() {
    let Fixture { mut p, t, x } = fixture();
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    pir_dialects::ops::ReluInplaceOp::build(&mut b, x, &[t]);
    run(&mut p, "dce");
    assert_eq!(names(&p), ["pd_op.data", "pd_op.relu_"]);
}

/// CSE merges identical pure ops and leaves ops with different attributes apart.
#[test]
fn cse_merges_identical_ops_only() {
    let Fixture { mut p, t, x } = fixture();
    let ctx = p.ctx_arc().clone();
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let a = ReluOp::build(&mut b, x, &[t]).out(b.program());
    let c = ReluOp::build(&mut b, x, &[t]).out(b.program());
    let d = b.op(
        "pd_op.relu",
        &[x],
        &[t],
        &[("stop_gradient", bool_array(&ctx, &[true]))],
    );
    let d = b.program().result(d, 0);
    for v in [a, c, d] {
        fetch(&mut p, v, t);
    }
    run(&mut p, "cse");
    assert_eq!(names(&p).iter().filter(|n| *n == "pd_op.relu").count(), 2);
}

/// CSE does not reuse a value defined inside a region outside of it.
#[test]
fn cse_respects_region_scopes() {
    let Fixture { mut p, t, x } = fixture();
    let top = p.top_block();
    if_with_a_relu_in_each_branch(&mut p, t, x);
    let after = ReluOp::build(&mut Builder::at_end(&mut p, top), x, &[t]).out(&p);
    fetch(&mut p, after, t);
    run(&mut p, "cse");
    let relus = p.to_string().matches("\"pd_op.relu\"").count();
    assert_eq!(relus, 3, "one in each branch and one after the if\n{p}");
}

/// Canonicalize removes scale-by-one, same-type casts, assigns and cancelling transposes.
#[test]
fn canonicalize_removes_identity_ops() {
    let Fixture { mut p, t, x } = fixture();
    let ctx = p.ctx_arc().clone();
    let one_t = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::F32), &[1]);
    let tt = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::F32), &[3, 2]);
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let one = FullOp::build(&mut b, &[1], 1.0, DataType::Float32, Place::cpu(), &[one_t])
        .out(b.program());
    let s = ScaleOp::build(&mut b, x, one, 0.0, true, &[t]).out(b.program());
    let c = CastOp::build(&mut b, s, DataType::Float32, &[t]).out(b.program());
    let a = AssignOp::build(&mut b, c, &[t]).out(b.program());
    let t1 = TransposeOp::build(&mut b, a, &[1, 0], &[tt]).out(b.program());
    let t2 = TransposeOp::build(&mut b, t1, &[1, 0], &[t]).out(b.program());
    let f = fetch(&mut p, t2, t);
    run(&mut p, "canonicalize,dce");
    assert_eq!(p.operand(f, 0), Some(x), "{p}");
    assert_eq!(names(&p), ["pd_op.data", "pd_op.fetch"]);
}

/// A scale with a non-zero bias, or by a value other than one, stays.
#[test]
fn canonicalize_keeps_real_scales() {
    let Fixture { mut p, t, x } = fixture();
    let ctx = p.ctx_arc().clone();
    let one_t = DenseTensorType::get(&ctx, ctx.intern_type(ScalarType::F32), &[1]);
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let one = FullOp::build(&mut b, &[1], 1.0, DataType::Float32, Place::cpu(), &[one_t])
        .out(b.program());
    let two = FullOp::build(&mut b, &[1], 2.0, DataType::Float32, Place::cpu(), &[one_t])
        .out(b.program());
    let s1 = ScaleOp::build(&mut b, x, one, 0.5, true, &[t]).out(b.program());
    let s2 = ScaleOp::build(&mut b, s1, two, 0.0, true, &[t]).out(b.program());
    fetch(&mut p, s2, t);
    run(&mut p, "canonicalize");
    assert_eq!(names(&p).iter().filter(|n| *n == "pd_op.scale").count(), 2);
    let _ = F32Attr::get(&ctx, 0.0);
}

/// replace_fetch_with_shadow_output keeps the output's name.
#[test]
fn fetch_becomes_shadow_output() {
    let Fixture { mut p, t, x } = fixture();
    fetch(&mut p, x, t);
    run(&mut p, "replace_fetch_with_shadow_output");
    assert!(
        p.to_string()
            .contains(r#"() = "builtin.shadow_output" (%0) {output_name:"out"}"#),
        "{p}"
    );
}

/// delete_assert erases assertions and nothing else.
#[test]
fn asserts_are_deleted() {
    let Fixture { mut p, t: _, x } = fixture();
    let top = p.top_block();
    Builder::at_end(&mut p, top).op("pd_op.assert", &[x, x], &[], &[]);
    run(&mut p, "delete_assert");
    assert_eq!(names(&p), ["pd_op.data"]);
}

struct FlipFlop;
impl RewritePattern for FlipFlop {
    fn name(&self) -> &str {
        "flip-flop"
    }
    fn root(&self) -> Root {
        Root::op("pd_op.relu")
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let ctx = rw.program().ctx_arc().clone();
        let now = rw.program().attr(op, "flag").is_some();
        if now {
            rw.modify_op(op, |p| p.remove_attr(op, "flag"));
        } else {
            rw.set_attr(op, "flag", StrAttr::get(&ctx, "on"));
        }
        true
    }
}

/// A pattern set that never converges stops at the iteration limit and says so.
#[test]
fn the_greedy_driver_reports_the_iteration_limit() {
    let Fixture { mut p, t, x } = fixture();
    let top = p.top_block();
    ReluOp::build(&mut Builder::at_end(&mut p, top), x, &[t]);
    let patterns = FrozenPatternSet::new(vec![Box::new(FlipFlop)]);
    let module = p.module_op();
    let config = GreedyConfig {
        max_iterations: 4,
        ..GreedyConfig::default()
    };
    let outcome = apply_greedily(&mut p, module, &patterns, &config);
    assert_eq!(outcome.stop, Stop::IterationLimit);
    assert_eq!(outcome.iterations, 4);
    let limited = GreedyConfig {
        max_rewrites: Some(3),
        ..GreedyConfig::default()
    };
    assert_eq!(
        apply_greedily(&mut p, module, &patterns, &limited).stop,
        Stop::RewriteLimit
    );
}

#[cfg(debug_assertions)]
struct Liar;
#[cfg(debug_assertions)]
impl RewritePattern for Liar {
    fn name(&self) -> &str {
        "liar"
    }
    fn root(&self) -> Root {
        Root::Any
    }
    fn match_and_rewrite(&self, _: &mut Rewriter<'_>, _: OpId) -> bool {
        true
    }
}

/// A pattern claiming success without changing anything is caught in debug builds.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "reported success without changing the IR")]
fn a_pattern_claiming_success_without_change_is_detected() {
    let Fixture { mut p, .. } = fixture();
    let patterns = FrozenPatternSet::new(vec![Box::new(Liar)]);
    let module = p.module_op();
    apply_greedily(&mut p, module, &patterns, &GreedyConfig::default());
}

/// Pipelines parse from text with options; mistakes are readable errors.
#[test]
fn pipelines_parse_from_text() {
    assert!(
        PassManager::parse("dce, cse ,canonicalize{max-iterations=3,max-rewrites=100}").is_ok()
    );
    let err = PassManager::parse("dce,frobnicate")
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("unknown pass `frobnicate`") && err.contains("--list-passes"),
        "{err}"
    );
    let err = PassManager::parse("dce,canonicalise")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("(did you mean `canonicalize`?)"), "{err}");
    let err = PassManager::parse("cse{x=1}").err().unwrap().to_string();
    assert!(err.contains("takes no option `x` (it takes none)"), "{err}");
    let err = PassManager::parse("canonicalize{max-iteration=3}")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("(did you mean `max-iterations`?)"), "{err}");
    assert!(PassManager::parse("canonicalize{max-iterations=3").is_err());
}

/// Every corpus model still verifies and saves after canonicalize, cse and dce.
#[test]
fn corpus_models_verify_and_save_after_the_pipeline() {
    for model in pir_corpus::models() {
        let ctx = pir_dialects::pd_op_context();
        let mut loaded = pir_serde::read_file(ctx, &model.json(), &Default::default()).unwrap();
        let before = loaded.program.num_ops();
        let mut pm = PassManager::parse("canonicalize,cse,dce").unwrap();
        pm.instrumentation.verify_each = true;
        pm.run(&mut loaded.program)
            .unwrap_or_else(|e| panic!("{}: {e}", model.name));
        assert!(loaded.program.num_ops() <= before);
        let options = pir_serde::WriteOptions {
            trainable: loaded.trainable,
            ..Default::default()
        };
        let bytes = pir_serde::write_to_vec(&loaded.program, &options).unwrap();
        pir_serde::read_slice(pir_dialects::pd_op_context(), &bytes, &Default::default()).unwrap();
    }
}

/// CSE does not merge a value that an in-place op later writes.
#[test]
fn cse_leaves_values_written_in_place_alone() {
    let Fixture { mut p, t, x } = fixture();
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let a = ReluOp::build(&mut b, x, &[t]).out(b.program());
    pir_dialects::ops::ExpInplaceOp::build(&mut b, a, &[t]);
    let c = ReluOp::build(&mut b, x, &[t]).out(b.program());
    fetch(&mut p, c, t);
    run(&mut p, "cse");
    assert_eq!(
        names(&p).iter().filter(|n| *n == "pd_op.relu").count(),
        2,
        "{p}"
    );
}

/// An identity op whose input or output is written in place is a real copy and stays.
#[test]
fn canonicalize_keeps_copies_of_values_written_in_place() {
    let Fixture { mut p, t, x } = fixture();
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let copy = AssignOp::build(&mut b, x, &[t]).out(b.program());
    pir_dialects::ops::ReluInplaceOp::build(&mut b, copy, &[t]);
    fetch(&mut p, x, t);
    run(&mut p, "canonicalize");
    assert!(names(&p).contains(&"pd_op.assign".to_owned()), "{p}");
}

struct Panicky;
impl pir_pass::Named for Panicky {
    fn argument(&self) -> &'static str {
        "panicky"
    }
    fn description(&self) -> &'static str {
        "fails on purpose"
    }
}
impl pir_pass::Pass for Panicky {
    fn run(&mut self, PassRun { program, .. }: PassRun<'_>) -> PassResult {
        let top = program.top_block();
        let first = program.block_first_op(top).unwrap();
        program.erase_op(first).ok();
        panic!("boom");
    }
}

/// A panicking pass becomes an error, and the failure hook gets the input program and the pipeline.
#[test]
fn a_failing_pass_reports_a_reproducer() {
    let Fixture { mut p, .. } = fixture();
    let before = p.to_string();
    let captured = std::sync::Arc::new(std::sync::Mutex::new(None));
    let sink = captured.clone();
    let mut pm = PassManager::new(vec![
        Box::new(pir_pass::transforms::dce::DeadCodeElimination),
        Box::new(Panicky),
    ]);
    pm.on_failure = Some(Box::new(move |input, pipeline, err| {
        *sink.lock().unwrap() = Some((input.to_string(), pipeline.to_owned(), err.to_string()));
    }));
    let err = pm.run(&mut p).unwrap_err();
    assert!(
        err.to_string().contains("pass `panicky` panicked: boom"),
        "{err}"
    );
    let (input, pipeline, message) = captured.lock().unwrap().take().unwrap();
    assert_eq!(
        input, before,
        "the reproducer holds the program before the pipeline"
    );
    assert_eq!(pipeline, "dce,panicky");
    assert!(message.contains("boom"));
}

/// A nested pipeline transforms only the regions of the named ops.
#[test]
fn nested_pipelines_run_inside_the_named_ops_only() {
    let Fixture { mut p, t, x } = fixture();
    let top = p.top_block();
    ReluOp::build(&mut Builder::at_end(&mut p, top), x, &[t]); // dead at the top level
                                                               // The relus inside the branches are dead too.
    if_with_a_relu_in_each_branch(&mut p, t, x);
    run(&mut p, "pd_op.if(dce)");
    assert_eq!(
        p.to_string().matches("\"pd_op.relu\"").count(),
        1,
        "only the top-level relu is left\n{p}"
    );
    assert!(PassManager::parse("pd_op.if(dce").is_err());
}

struct OpCount(usize);
impl pir_pass::Analysis for OpCount {
    fn compute(p: &Program) -> Self {
        OpCount(p.num_ops())
    }
}

/// Analyses are cached across passes and dropped when a pass changes the program without preserving them.
#[test]
fn analyses_are_cached_until_invalidated() {
    let Fixture { p, .. } = fixture();
    let mut cx = pir_pass::PassContext::default();
    assert_eq!(cx.analyses.get::<OpCount>(&p).0, 1);
    cx.finish_pass(pir_pass::Changed::No);
    assert!(
        cx.analyses.is_cached::<OpCount>(),
        "kept across an unchanged pass"
    );
    cx.preserve::<OpCount>();
    cx.finish_pass(pir_pass::Changed::Yes);
    assert!(cx.analyses.is_cached::<OpCount>(), "kept when preserved");
    cx.finish_pass(pir_pass::Changed::Yes);
    assert!(
        !cx.analyses.is_cached::<OpCount>(),
        "dropped after a change"
    );
}

#[derive(Default)]
struct Log(Vec<String>);
impl pir_pass::rewrite::RewriteListener for Log {
    fn on_erase(&mut self, p: &Program, op: OpId) {
        self.0.push(format!("erase {}", p.op_name_str(op)));
    }
    fn on_replace(&mut self, _: &Program, _: ValueId, _: ValueId) {
        self.0.push("replace".into());
    }
    fn on_insert(&mut self, p: &Program, op: OpId) {
        self.0.push(format!("insert {}", p.op_name_str(op)));
    }
    fn on_modify(&mut self, p: &Program, op: OpId) {
        self.0.push(format!("modify {}", p.op_name_str(op)));
    }
}

/// Ops a pattern builds through the rewriter are seen by the listener in
/// the order built, and so are its modifications: the rewriter is the
/// builder.
#[test]
fn ops_built_through_the_rewriter_are_seen() {
    let Fixture { mut p, t, x } = fixture();
    let top = p.top_block();
    let copy = AssignOp::build(&mut Builder::at_end(&mut p, top), x, &[t]).out(&p);
    fetch(&mut p, copy, t);
    struct TwoRelus;
    impl RewritePattern for TwoRelus {
        fn name(&self) -> &str {
            "assign-to-two-relus"
        }
        fn root(&self) -> Root {
            Root::op(AssignOp::NAME)
        }
        fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
            let x = rw.program().operand(op, 0).unwrap();
            let t = rw.program().value_type(x);
            let out = rw.build(pir_core::InsertPoint::Before(op), |b| {
                let once = ReluOp::build(b, x, &[t]).out(b.program());
                ReluOp::build(b, once, &[t]).out(b.program())
            });
            let relu = rw.program().defining_op(out).unwrap();
            let ctx = rw.program().ctx_arc().clone();
            rw.set_attr(relu, "note", StrAttr::get(&ctx, "second"));
            rw.replace_op(op, &[out])
        }
    }
    let set = FrozenPatternSet::new(vec![Box::new(TwoRelus)]);
    let mut log = Log::default();
    let module = p.module_op();
    pir_pass::rewrite::apply_greedily_with(
        &mut p,
        module,
        &set,
        &GreedyConfig::default(),
        Some(&mut log),
    );
    assert_eq!(
        log.0,
        [
            "insert pd_op.relu",
            "insert pd_op.relu",
            "modify pd_op.relu",
            "replace",
            "erase pd_op.assign"
        ]
    );
}

/// A listener sees each edit the driver makes, and trait-rooted patterns match by trait.
#[test]
fn listeners_observe_rewrites() {
    let Fixture { mut p, t, x } = fixture();
    let top = p.top_block();
    let copy = AssignOp::build(&mut Builder::at_end(&mut p, top), x, &[t]).out(&p);
    fetch(&mut p, copy, t);
    struct ByTrait;
    impl RewritePattern for ByTrait {
        fn name(&self) -> &str {
            "forward-no-side-effect-assign"
        }
        fn root(&self) -> Root {
            Root::Trait(pir_core::op_info::traits::NO_SIDE_EFFECT)
        }
        fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
            let prog = rw.program();
            if prog.op_name_str(op) != "pd_op.assign" {
                return false;
            }
            let x = prog.operand(op, 0).unwrap();
            rw.replace_op(op, &[x])
        }
    }
    let set = FrozenPatternSet::new(vec![Box::new(ByTrait)]);
    let mut log = Log::default();
    let module = p.module_op();
    let outcome = pir_pass::rewrite::apply_greedily_with(
        &mut p,
        module,
        &set,
        &GreedyConfig::default(),
        Some(&mut log),
    );
    assert_eq!(outcome.rewrites, 1);
    assert_eq!(log.0, ["replace", "erase pd_op.assign"]);
}

/// Canonicalize applies folding hooks: `slice(combine(a, b), 1)` is `b`, `split(combine(a, b))` is `a, b`.
#[test]
fn canonicalize_folds_combine_slice_and_split() {
    let Fixture { mut p, t, x } = fixture();
    let ctx = p.ctx_arc().clone();
    let top = p.top_block();
    let mut b = Builder::at_end(&mut p, top);
    let y = ReluOp::build(&mut b, x, &[t]).out(b.program());
    let vec_t = pir_core::builtin::VectorType::get(&ctx, &[t, t]);
    let combine = b.op("builtin.combine", &[x, y], &[vec_t], &[]);
    let v = b.program().result(combine, 0);
    let slice = b.op(
        "builtin.slice",
        &[v],
        &[t],
        &[("index", ctx.intern_attr(pir_core::builtin::I32Attr(1)))],
    );
    let s = b.program().result(slice, 0);
    let split = b.op("builtin.split", &[v], &[t, t], &[]);
    let (s0, s1) = (b.program().result(split, 0), b.program().result(split, 1));
    let f1 = fetch(&mut p, s, t);
    let f2 = fetch(&mut p, s0, t);
    let f3 = fetch(&mut p, s1, t);
    run(&mut p, "canonicalize,dce");
    assert_eq!(
        [p.operand(f1, 0), p.operand(f2, 0), p.operand(f3, 0)],
        [Some(y), Some(x), Some(y)],
        "{p}"
    );
    assert!(!names(&p).iter().any(|n| n.starts_with("builtin.")), "{p}");
}

/// Inside a nested pipeline, a pass that changes the program drops the
/// analyses it did not preserve before the next inner pass runs.
#[test]
fn nested_pipelines_drop_stale_analyses_between_inner_passes() {
    use std::sync::{Arc, Mutex};
    struct EraseOneRelu;
    impl Named for EraseOneRelu {
        fn argument(&self) -> &'static str {
            "erase-one-relu"
        }
        fn description(&self) -> &'static str {
            "caches the op count, then erases a relu of the root's regions"
        }
    }
    impl Pass for EraseOneRelu {
        fn run(&mut self, PassRun { program, root, cx }: PassRun<'_>) -> PassResult {
            cx.analyses.get::<OpCount>(program);
            let mut relu = None;
            program.walk(root, pir_core::walk::Order::Pre, &mut |op| {
                if program.op_name_str(op) == "pd_op.relu" {
                    relu = Some(op);
                }
            });
            match relu {
                Some(op) => {
                    program.erase_op(op).unwrap();
                    Ok(Changed::Yes)
                }
                None => Ok(Changed::No),
            }
        }
    }
    struct ReadCount(Arc<Mutex<Vec<usize>>>);
    impl Named for ReadCount {
        fn argument(&self) -> &'static str {
            "read-count"
        }
        fn description(&self) -> &'static str {
            "records the op count analysis"
        }
    }
    impl Pass for ReadCount {
        fn run(&mut self, PassRun { program, cx, .. }: PassRun<'_>) -> PassResult {
            self.0
                .lock()
                .unwrap()
                .push(cx.analyses.get::<OpCount>(program).0);
            Ok(Changed::No)
        }
    }
    let Fixture { mut p, t, x } = fixture();
    if_with_a_relu_in_each_branch(&mut p, t, x);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut nested = pir_pass::nested::Nested::new(
        "pd_op.if",
        vec![Box::new(EraseOneRelu), Box::new(ReadCount(seen.clone()))],
    );
    let mut cx = PassContext::default();
    let module = p.module_op();
    nested
        .run(PassRun {
            program: &mut p,
            root: module,
            cx: &mut cx,
        })
        .unwrap();
    assert_eq!(*seen.lock().unwrap(), [p.num_ops()]);
}

/// A former pass name still runs its pass, and says it was renamed.
#[test]
fn former_pass_names_still_run_and_are_noted() {
    assert_eq!(
        pir_pass::registry::lookup("delete-assert").map(|i| i.argument),
        Some("delete_assert")
    );
    assert!(pir_pass::PassManager::parse("dce,remove-identity-ops").is_ok());
    assert_eq!(
        pir_pass::registry::renamed_in("dce,delete-assert,pd_op.while(delete-assert)"),
        ["pass `delete-assert` is now `delete_assert`; the old name will be dropped"]
    );
    assert!(pir_pass::registry::renamed_in("dce,delete_assert").is_empty());
    for info in pir_pass::registry::PASSES {
        assert!(
            !info.argument.contains('-'),
            "`{}`: pass names are snake_case",
            info.argument
        );
    }
}
