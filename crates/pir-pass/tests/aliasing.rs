//! Passes against aliasing: each program, written in Paddle's text, holds
//! values that look identical or copyable but share buffers with something
//! an op writes, or that Paddle's executor binds by identity. Each test says
//! what must survive which pass, and why.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use common::{count, parse, run};
use pir_pass::alias::{alias_class, AliasAnalysis};

const DATA: &str = r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>"#;
const N: &str = r#"(%1) = "pd_op.data" () {dtype:int64,name:"n",place:Place(undefined:0),shape:[1],stop_gradient:[false]} : () -> tensor<1xi64>"#;

/// The reported model: a `while` inside an `if`, its condition computed
/// twice the same way before the loop. The copy the loop consumes is
/// rebound by the loop every iteration; merging the two made Paddle fail
/// with "Tensor holds no memory". CSE must leave both.
#[test]
fn cse_keeps_a_while_condition_apart_from_its_twin() {
    let text = format!(
        r#"{{
    {DATA}
    {N}
    (%2) = "pd_op.full" () {{dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1}} : () -> tensor<1xb>
    (%3) = "pd_op.if" (%2) {{stop_gradient:[false]}} -> tensor<2x3xf32> {{
        (%4) = "pd_op.full" () {{dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0}} : () -> tensor<1xi64>
        (%5) = "pd_op.less_than" (%4, %1) {{stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        (%6) = "pd_op.less_than" (%4, %1) {{stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        (%7, %8) = "pd_op.while" (cond=%6, inputs=%0, %4) {{
        ^%arg_0 {{}}, %arg_1 {{}}
            (%9) = "pd_op.tanh" (%arg_0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
            (%10) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1}} : () -> tensor<1xf32>
            (%11) = "pd_op.scale" (%arg_1, %10) {{bias:1,bias_after_scale:true,stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
            (%12) = "pd_op.less_than" (%11, %1) {{stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
            () = "cf.yield" (%12, %9, %11) {{}} : (tensor<1xb>, tensor<2x3xf32>, tensor<1xi64>) -> 
        }}
        (%13) = "pd_op.cast" (%5) {{dtype:float32,stop_gradient:[true]}} : (tensor<1xb>) -> tensor<1xf32>
        (%14) = "pd_op.multiply" (%7, %13) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%14) {{}} : (tensor<2x3xf32>) -> 
    }} else {{
        () = "cf.yield" (%0) {{}} : (tensor<2x3xf32>) -> 
    }}
    (%15) = "pd_op.fetch" (%3) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}}"#
    );
    let mut p = parse(&text);
    run(&mut p, "cse");
    assert_eq!(count(&p, "pd_op.less_than"), 3, "{p}");
    run(&mut p, "canonicalize,cse,dce");
    assert_eq!(count(&p, "pd_op.less_than"), 3, "{p}");
}

/// `exp(x)` before and after `relu_(x)` reads two different contents of one
/// buffer; neither CSE nor canonicalize may treat them as one value.
#[test]
fn reads_around_an_inplace_write_stay_apart() {
    let text = format!(
        r#"{{
    {DATA}
    (%1) = "pd_op.abs" (%0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "pd_op.exp" (%1) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.relu_" (%1) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.exp" (%1) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.add" (%2, %4) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%6) = "pd_op.fetch" (%5) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}}"#
    );
    let mut p = parse(&text);
    run(&mut p, "canonicalize,cse,dce");
    assert_eq!(count(&p, "pd_op.exp"), 2, "{p}");
    let a = AliasAnalysis::new(&p);
    let abs = p.result(p.block_ops(p.top_block()).nth(1).unwrap(), 0);
    assert!(a.is_written(abs));
    assert!(!a.has_value_semantics(abs));
}

/// A view shares its source's buffer: writing the view in place writes the
/// source, so reads of the source on either side of the write differ.
#[test]
fn a_write_through_a_view_reaches_its_source() {
    let text = format!(
        r#"{{
    {DATA}
    (%1) = "pd_op.abs" (%0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[6]}} : () -> tensor<1xi64>
    (%3) = "pd_op.sum" (%1, %2) {{dtype:float32,keepdim:false,stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<f32>
    (%4) = "pd_op.reshape_" (%1, %2) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
    (%5) = "pd_op.relu_" (%4) {{stop_gradient:[false]}} : (tensor<6xf32>) -> tensor<6xf32>
    (%6) = "pd_op.sum" (%1, %2) {{dtype:float32,keepdim:false,stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<f32>
    (%7) = "pd_op.add" (%3, %6) {{stop_gradient:[false]}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    (%8) = "pd_op.fetch" (%7) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<f32>) -> tensor<f32>
}}"#
    );
    let mut p = parse(&text);
    run(&mut p, "cse");
    assert_eq!(count(&p, "pd_op.sum"), 2, "{p}");
    let ops: Vec<_> = p.block_ops(p.top_block()).collect();
    let (abs, view) = (p.result(ops[1], 0), p.result(ops[4], 0));
    let class = alias_class(&p, abs);
    assert!(
        class.facts.written && class.members.contains(&view),
        "{class:?}"
    );
    assert!(AliasAnalysis::new(&p).may_alias(abs, view));
}

/// A copy feeding a loop-carried input is a real copy: the loop rebinds the
/// carried variable, and the source is read again after the loop.
#[test]
fn canonicalize_keeps_the_copy_a_loop_carries() {
    let text = format!(
        r#"{{
    {DATA}
    {N}
    (%2) = "pd_op.assign" (%0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.full" () {{dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0}} : () -> tensor<1xi64>
    (%4) = "pd_op.less_than" (%3, %1) {{stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%5, %6) = "pd_op.while" (cond=%4, inputs=%2, %3) {{
    ^%arg_0 {{}}, %arg_1 {{}}
        (%7) = "pd_op.relu_" (%arg_0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
        (%8) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1}} : () -> tensor<1xf32>
        (%9) = "pd_op.scale" (%arg_1, %8) {{bias:1,bias_after_scale:true,stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%10) = "pd_op.less_than" (%9, %1) {{stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%10, %7, %9) {{}} : (tensor<1xb>, tensor<2x3xf32>, tensor<1xi64>) -> 
    }}
    (%11) = "pd_op.add" (%5, %0) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%12) = "pd_op.fetch" (%11) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}}"#
    );
    let mut p = parse(&text);
    run(&mut p, "canonicalize,cse,dce");
    assert_eq!(count(&p, "pd_op.assign"), 1, "{p}");
    // The carried input, the body argument, the yielded value and the
    // result are one buffer.
    let ops: Vec<_> = p.block_ops(p.top_block()).collect();
    let carried = p.result(ops[2], 0);
    let class = alias_class(&p, carried);
    assert_eq!(class.facts.size, 4, "{class:?}");
    assert!(class.facts.written);
    let data = p.result(ops[0], 0);
    assert!(!AliasAnalysis::new(&p).may_alias(data, carried));
}

/// An `if` result shares the buffers its branches yield: a write to the
/// result after the `if` writes the yielded value, so the copy in the branch
/// stays; without the write it goes.
#[test]
fn if_results_alias_what_the_branches_yield() {
    let program = |write: bool| {
        let tail = if write {
            r#"(%6) = "pd_op.relu_" (%3) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#
        } else {
            r#"(%6) = "pd_op.relu" (%3) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#
        };
        format!(
            r#"{{
    {DATA}
    (%1) = "pd_op.abs" (%0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "pd_op.full" () {{dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1}} : () -> tensor<1xb>
    (%3) = "pd_op.if" (%2) {{stop_gradient:[false]}} -> tensor<2x3xf32> {{
        (%4) = "pd_op.assign" (%1) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%4) {{}} : (tensor<2x3xf32>) -> 
    }} else {{
        (%5) = "pd_op.exp" (%1) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%5) {{}} : (tensor<2x3xf32>) -> 
    }}
    {tail}
    (%7) = "pd_op.add" (%6, %1) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%8) = "pd_op.fetch" (%7) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}}"#
        )
    };
    let mut written = parse(&program(true));
    run(&mut written, "canonicalize");
    assert_eq!(count(&written, "pd_op.assign"), 1, "{written}");
    let mut read_only = parse(&program(false));
    run(&mut read_only, "canonicalize");
    assert_eq!(count(&read_only, "pd_op.assign"), 0, "{read_only}");
}

/// Values the executor binds by name (yielded, shadow outputs) are never
/// merged, though they compute the same thing; plain reads of them may be.
#[test]
fn pinned_values_are_not_merged() {
    let text = format!(
        r#"{{
    {DATA}
    (%1) = "pd_op.exp" (%0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "pd_op.exp" (%0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%1) {{output_name:"a"}} : (tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%2) {{output_name:"b"}} : (tensor<2x3xf32>) -> 
    (%3) = "pd_op.tanh" (%1) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.tanh" (%1) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.multiply" (%3, %4) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%6) = "pd_op.multiply" (%4, %3) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%7) = "pd_op.maximum" (%5, %6) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%7) {{output_name:"c"}} : (tensor<2x3xf32>) -> 
}}"#
    );
    let mut p = parse(&text);
    run(&mut p, "cse");
    assert_eq!(count(&p, "pd_op.exp"), 2, "{p}");
    assert_eq!(count(&p, "pd_op.tanh"), 1, "{p}");
    // multiply commutes: x*y and y*x are one value.
    assert_eq!(count(&p, "pd_op.multiply"), 1, "{p}");
}

/// A loop's initial value is only rebound by the loop (its data is shared,
/// never stored into), so ops reading it still merge; a body that writes
/// its argument in place stores into that buffer, and then they stay apart.
/// The initial value itself never stands for an identical op after the
/// loop: Paddle's executor fails when a value a `while` carried in is read
/// after the loop ("Tensor holds no memory", found by
/// `scripts/paddle_check_passes.py`). The comparison after the loop stays
/// apart from the condition, whose variable ends the loop holding `false`.
#[test]
fn cse_around_a_loop_s_initial_value() {
    let program = |body_op: &str| {
        format!(
            r#"{{
    {DATA}
    {N}
    (%2) = "pd_op.exp" (%0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.full" () {{dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0}} : () -> tensor<1xi64>
    (%4) = "pd_op.less_than" (%3, %1) {{stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%5) = "pd_op.sin" (%2) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%6, %7) = "pd_op.while" (cond=%4, inputs=%2, %3) {{
    ^%arg_0 {{}}, %arg_1 {{}}
        (%8) = "pd_op.{body_op}" (%arg_0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
        (%9) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1}} : () -> tensor<1xf32>
        (%10) = "pd_op.scale" (%arg_1, %9) {{bias:1,bias_after_scale:true,stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%11) = "pd_op.less_than" (%10, %1) {{stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%11, %8, %10) {{}} : (tensor<1xb>, tensor<2x3xf32>, tensor<1xi64>) -> 
    }}
    (%12) = "pd_op.exp" (%0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%13) = "pd_op.sin" (%2) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%14) = "pd_op.add" (%12, %6) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%15) = "pd_op.add" (%14, %13) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%16) = "pd_op.add" (%15, %5) {{stop_gradient:[false]}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%17) = "pd_op.less_than" (%3, %1) {{stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%18) = "pd_op.fetch" (%16) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%19) = "pd_op.fetch" (%17) {{col:1,name:"cond",persistable:[true],stop_gradient:[true]}} : (tensor<1xb>) -> tensor<1xb>
}}"#
        )
    };
    let mut p = parse(&program("tanh"));
    run(&mut p, "cse");
    assert_eq!(
        count(&p, "pd_op.sin"),
        1,
        "sin reads a value only rebound: {p}"
    );
    assert_eq!(
        count(&p, "pd_op.exp"),
        2,
        "exp's result is the loop's initial value: {p}"
    );
    assert_eq!(count(&p, "pd_op.less_than"), 3, "{p}");
    let mut p = parse(&program("tanh_"));
    run(&mut p, "cse");
    assert_eq!(
        count(&p, "pd_op.sin"),
        2,
        "tanh_ writes the buffer sin reads: {p}"
    );
}

/// A value with no aliases, never written and not pinned has value semantics.
#[test]
fn plain_values_have_value_semantics() {
    let text = format!(
        r#"{{
    {DATA}
    (%1) = "pd_op.exp" (%0) {{stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "pd_op.fetch" (%1) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}}"#
    );
    let p = parse(&text);
    let a = AliasAnalysis::new(&p);
    let ops: Vec<_> = p.block_ops(p.top_block()).collect();
    assert!(
        !a.has_value_semantics(p.result(ops[0], 0)),
        "data is pinned"
    );
    assert!(a.has_value_semantics(p.result(ops[1], 0)));
}

/// `transpose(transpose(x))` reads `x` through the inner result: when an op
/// writes that result in between, the pair is not `x`.
#[test]
fn a_transpose_pair_around_a_write_stays() {
    let text = format!(
        r#"{{
    {DATA}
    (%1) = "pd_op.transpose" (%0) {{perm:[1,0],stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    (%2) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[3,2],stop_gradient:[true],value:1}} : () -> tensor<3x2xf32>
    (%3) = "pd_op.assign_out_" (%2, %1) {{stop_gradient:[false]}} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    (%4) = "pd_op.transpose" (%1) {{perm:[1,0],stop_gradient:[false]}} : (tensor<3x2xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.fetch" (%4) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}}"#
    );
    let mut p = parse(&text);
    run(&mut p, "canonicalize,cse,dce");
    assert_eq!(count(&p, "pd_op.transpose"), 2, "{p}");
}

/// `batch_norm_` updates its running mean and variance (a view pair in the
/// definitions): reads of them on either side stay apart.
#[test]
fn view_pairs_of_inplace_ops_write() {
    let text = format!(
        r#"{{
    {DATA}
    (%1) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[3],stop_gradient:[true],value:0}} : () -> tensor<3xf32>
    (%2) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[3],stop_gradient:[true],value:1}} : () -> tensor<3xf32>
    (%3) = "pd_op.exp" (%1) {{stop_gradient:[false]}} : (tensor<3xf32>) -> tensor<3xf32>
    (%4, %5, %6, %7, %8, %9) = "pd_op.batch_norm_" (%0, %1, %2, %2, %1) {{data_format:"NCHW",epsilon:1e-05,is_test:false,momentum:0.9,stop_gradient:[false],trainable_statistics:false,use_global_stats:false}} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<-1xu8>
    (%10) = "pd_op.exp" (%1) {{stop_gradient:[false]}} : (tensor<3xf32>) -> tensor<3xf32>
    (%11) = "pd_op.add" (%3, %10) {{stop_gradient:[false]}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    (%12) = "pd_op.fetch" (%11) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<3xf32>) -> tensor<3xf32>
}}"#
    );
    let mut p = parse(&text);
    let ops: Vec<_> = p.block_ops(p.top_block()).collect();
    assert!(alias_class(&p, p.result(ops[1], 0)).facts.written);
    run(&mut p, "cse");
    assert_eq!(count(&p, "pd_op.exp"), 2, "{p}");
}
