//! Passes on loops written in Paddle's text: which ops
//! `loop_invariant_code_motion` takes out of a `while` body and which must
//! stay, and the carried values `dce` drops. That the results compute what
//! the originals do is checked by the property test (`pass_semantics`),
//! whose random loops read outer values, write them in place and run zero to
//! three times.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use common::{parse, run};
use pir_core::{OpId, Program};

const X: &str = r#"(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>"#;
const Y: &str = r#"(%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>"#;
const W: &str = r#"(%2) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4x4xf32>"#;
const COUNTER: &str = r#"(%3) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
    (%4) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xi64>
    (%5) = "pd_op.less_than" (%3, %4) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>"#;

/// A program of `X`, `Y`, `W` and `COUNTER`, then `rest` (lines of the top
/// block, indented).
fn over_inputs(rest: &str) -> String {
    format!("{{\n    {X}\n    {Y}\n    {W}\n    {COUNTER}\n{rest}\n}}")
}

/// The ops named `name` that are directly in the top block, and those that
/// are not.
fn placement(p: &Program, name: &str) -> (usize, usize) {
    let mut ops: Vec<OpId> = Vec::new();
    p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        if p.op_name_str(op) == name {
            ops.push(op);
        }
    });
    let top = ops
        .iter()
        .filter(|&&op| p.op_parent_block(op) == Some(p.top_block()))
        .count();
    (top, ops.len() - top)
}

/// How many loops enclose the (only) op named `name`.
fn loop_depth(p: &Program, name: &str) -> usize {
    let mut found = None;
    p.walk(p.module_op(), pir_core::walk::Order::Pre, &mut |op| {
        if p.op_name_str(op) == name {
            found = Some(op);
        }
    });
    let mut op = found.unwrap();
    let mut depth = 0;
    while let Some(parent) = p.op_parent_block(op).and_then(|b| p.block_parent_op(b)) {
        depth += usize::from(p.op_name_str(parent) == "pd_op.while");
        op = parent;
    }
    depth
}

/// The first `while` of the top block.
fn top_while(p: &Program) -> OpId {
    p.block_ops(p.top_block())
        .find(|&op| p.op_name_str(op) == "pd_op.while")
        .unwrap()
}

fn moved(text: &str) -> Program {
    let mut p = parse(text);
    run(&mut p, "loop_invariant_code_motion");
    p
}

/// A matmul by a weight and what follows from it move; so does an
/// element-wise op of two values of x's batch and a constant. An op of x
/// and y stays: their batch sizes may differ, and the loop may run zero
/// times, so moving it could make a program fail that did not.
#[test]
fn invariant_ops_move_and_shape_dependent_ones_stay() {
    let text = over_inputs(
        r#"    (%6, %7) = "pd_op.while" (cond=%5, inputs=%0, %3) {
    ^%arg_0 {}, %arg_1 {}
        (%8) = "pd_op.matmul" (%0, %2) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x4xf32>, tensor<4x4xf32>) -> tensor<-1x4xf32>
        (%9) = "pd_op.tanh" (%8) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%10) = "pd_op.subtract" (%0, %1) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%11) = "pd_op.multiply" (%9, %0) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%12) = "pd_op.exp" (%arg_0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%13) = "pd_op.add" (%12, %11) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%14) = "pd_op.maximum" (%13, %10) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%15) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%16) = "pd_op.scale" (%arg_1, %15) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%17) = "pd_op.less_than" (%16, %4) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%17, %14, %16) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<1xi64>) -> 
    }
    (%18) = "pd_op.fetch" (%6) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
    );
    let p = moved(&text);
    for name in ["pd_op.matmul", "pd_op.tanh", "pd_op.multiply"] {
        assert_eq!(placement(&p, name), (1, 0), "{name} moves\n{p}");
    }
    // The counter's constant moves; the program's own constants stay.
    assert_eq!(placement(&p, "pd_op.full"), (3, 0), "{p}");
    for name in [
        "pd_op.subtract",
        "pd_op.exp",
        "pd_op.add",
        "pd_op.maximum",
        "pd_op.scale",
    ] {
        assert_eq!(placement(&p, name), (0, 1), "{name} stays\n{p}");
    }
    assert_eq!(placement(&p, "pd_op.less_than"), (1, 1), "{p}");
    p.verify().unwrap();
}

/// An outer value the body writes in place is not invariant, nor is an op
/// whose result the loop carries (it is rebound every iteration) or writes
/// in place later.
#[test]
fn ops_on_written_or_carried_buffers_stay() {
    let text = over_inputs(
        r#"    (%6) = "pd_op.assign" (%2) {stop_gradient:[false]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    (%7, %8, %9) = "pd_op.while" (cond=%5, inputs=%0, %3, %2) {
    ^%arg_0 {}, %arg_1 {}, %arg_2 {}
        (%10) = "pd_op.exp" (%6) {stop_gradient:[false]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
        (%11) = "pd_op.relu_" (%6) {stop_gradient:[false]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
        (%12) = "pd_op.abs" (%2) {stop_gradient:[false]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
        (%13) = "pd_op.sin" (%2) {stop_gradient:[false]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
        (%14) = "pd_op.tanh_" (%13) {stop_gradient:[false]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
        (%15) = "pd_op.matmul" (%arg_0, %10) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x4xf32>, tensor<4x4xf32>) -> tensor<-1x4xf32>
        (%16) = "pd_op.matmul" (%15, %14) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x4xf32>, tensor<4x4xf32>) -> tensor<-1x4xf32>
        (%17) = "pd_op.increment_" (%arg_1) {value:1,stop_gradient:[true]} : (tensor<1xi64>) -> tensor<1xi64>
        (%18) = "pd_op.less_than" (%17, %4) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%18, %16, %17, %12) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<1xi64>, tensor<4x4xf32>) -> 
    }
    (%19) = "pd_op.fetch" (%7) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%20) = "pd_op.fetch" (%9) {col:1,name:"carried",persistable:[true],stop_gradient:[false]} : (tensor<4x4xf32>) -> tensor<4x4xf32>"#,
    );
    let p = moved(&text);
    for name in ["pd_op.exp", "pd_op.abs", "pd_op.sin"] {
        assert_eq!(placement(&p, name), (0, 1), "{name} stays\n{p}");
    }
    p.verify().unwrap();
}

/// An op invariant in two nested loops leaves both; one that reads the
/// outer loop's argument leaves the inner loop only.
#[test]
fn inner_loops_go_first() {
    let text = over_inputs(
        r#"    (%6, %7) = "pd_op.while" (cond=%5, inputs=%0, %3) {
    ^%arg_0 {}, %arg_1 {}
        (%8, %9) = "pd_op.while" (cond=%5, inputs=%arg_0, %3) {
        ^%arg_2 {}, %arg_3 {}
            (%10) = "pd_op.exp" (%2) {stop_gradient:[false]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
            (%11) = "pd_op.tanh" (%arg_0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
            (%12) = "pd_op.matmul" (%11, %10) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x4xf32>, tensor<4x4xf32>) -> tensor<-1x4xf32>
            (%13) = "pd_op.add" (%arg_2, %12) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
            (%14) = "pd_op.increment_" (%arg_3) {value:1,stop_gradient:[true]} : (tensor<1xi64>) -> tensor<1xi64>
            (%15) = "pd_op.less_than" (%14, %4) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
            () = "cf.yield" (%15, %13, %14) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<1xi64>) -> 
        }
        (%16) = "pd_op.increment_" (%arg_1) {value:1,stop_gradient:[true]} : (tensor<1xi64>) -> tensor<1xi64>
        (%17) = "pd_op.less_than" (%16, %4) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%17, %8, %16) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<1xi64>) -> 
    }
    (%18) = "pd_op.fetch" (%6) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
    );
    let p = moved(&text);
    for (name, depth) in [
        ("pd_op.exp", 0),
        ("pd_op.tanh", 1),
        ("pd_op.matmul", 1),
        ("pd_op.add", 2),
    ] {
        assert_eq!(loop_depth(&p, name), depth, "{name}\n{p}");
    }
    p.verify().unwrap();
}

/// A yielded invariant op stays in the body, where the loop's variable is
/// rebound to it, and a copy before the loop serves its other readers, which
/// then move.
#[test]
fn a_yielded_op_is_copied_for_its_other_readers() {
    let text = over_inputs(
        r#"    (%6, %7, %8) = "pd_op.while" (cond=%5, inputs=%0, %3, %0) {
    ^%arg_0 {}, %arg_1 {}, %arg_2 {}
        (%9) = "pd_op.matmul" (%0, %2) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x4xf32>, tensor<4x4xf32>) -> tensor<-1x4xf32>
        (%10) = "pd_op.tanh" (%9) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%11) = "pd_op.add" (%arg_0, %10) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%12) = "pd_op.increment_" (%arg_1) {value:1,stop_gradient:[true]} : (tensor<1xi64>) -> tensor<1xi64>
        (%13) = "pd_op.less_than" (%12, %4) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%13, %11, %12, %9) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<1xi64>, tensor<-1x4xf32>) -> 
    }
    (%14) = "pd_op.fetch" (%6) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%15) = "pd_op.fetch" (%8) {col:1,name:"last",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
    );
    let p = moved(&text);
    assert_eq!(placement(&p, "pd_op.matmul"), (1, 1), "{p}");
    assert_eq!(loop_depth(&p, "pd_op.tanh"), 0, "{p}");
    assert_eq!(loop_depth(&p, "pd_op.add"), 1, "{p}");
    let body = top_while(&p);
    let body = p.region_blocks(p.regions(body).next().unwrap())[0];
    let terminator = p.block_last_op(body).unwrap();
    let yielded = p.defining_op(p.operand(terminator, 3).unwrap()).unwrap();
    assert_eq!(
        p.op_parent_block(yielded),
        Some(body),
        "the body still yields its own matmul\n{p}"
    );
    p.verify().unwrap();
}

/// dy2static carries every variable a loop assigns. A carried value that
/// neither the body nor anything after the loop reads is dropped from the
/// `while` (input, argument, yielded value, result and its `stop_gradient`
/// entry), and the op computing it dies with it.
#[test]
fn dce_drops_carried_values_nothing_reads() {
    let text = over_inputs(
        r#"    (%6, %7, %8) = "pd_op.while" (cond=%5, inputs=%0, %3, %1) {
    ^%arg_0 {}, %arg_1 {}, %arg_2 {}
        (%9) = "pd_op.matmul" (%arg_0, %2) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x4xf32>, tensor<4x4xf32>) -> tensor<-1x4xf32>
        (%10) = "pd_op.tanh" (%9) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%11) = "pd_op.exp" (%9) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%12) = "pd_op.increment_" (%arg_1) {value:1,stop_gradient:[true]} : (tensor<1xi64>) -> tensor<1xi64>
        (%13) = "pd_op.less_than" (%12, %4) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%13, %10, %12, %11) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<1xi64>, tensor<-1x4xf32>) -> 
    }
    (%14) = "pd_op.fetch" (%6) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
    );
    let mut p = parse(&text);
    let lp = top_while(&p);
    p.set_attr(
        lp,
        "stop_gradient",
        pir_core::builtin::bool_array(p.ctx(), &[false, true, false]),
    );
    run(&mut p, "dce");
    let text = p.to_string();
    assert_eq!(placement(&p, "pd_op.exp"), (0, 0), "{text}");
    assert!(
        text.contains(r#""pd_op.while" (cond=%5, inputs=%0, %3)"#),
        "the counter stays: the body reads it\n{text}"
    );
    let lp = top_while(&p);
    assert_eq!(p.num_results(lp), 2);
    assert_eq!(
        p.ctx().display_attr(p.attr(lp, "stop_gradient").unwrap()),
        "[false,true]"
    );
    let body = p.region_blocks(p.regions(lp).next().unwrap())[0];
    assert_eq!(p.block_args(body).len(), 2);
    assert_eq!(p.num_operands(p.block_last_op(body).unwrap()), 3);
    p.verify().unwrap();
}

/// An integer division raises on a zero divisor, so it stays where a
/// Dropping one carried value can leave another unread: here slot 2's
/// yielded `exp` is the only reader of slot 3's argument, so once slot 2
/// goes, slot 3 goes in the next round, and with it the `cos` it yielded
/// and the `sin` outside the loop that only started it.
#[test]
fn dce_drops_carried_values_that_only_dropped_ones_read() {
    let text = over_inputs(
        r#"    (%6) = "pd_op.sin" (%1) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%7, %8, %9, %10) = "pd_op.while" (cond=%5, inputs=%0, %3, %1, %6) {
    ^%arg_0 {}, %arg_1 {}, %arg_2 {}, %arg_3 {}
        (%11) = "pd_op.tanh" (%arg_0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%12) = "pd_op.exp" (%arg_3) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%13) = "pd_op.cos" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%14) = "pd_op.increment_" (%arg_1) {value:1,stop_gradient:[true]} : (tensor<1xi64>) -> tensor<1xi64>
        (%15) = "pd_op.less_than" (%14, %4) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%15, %11, %14, %12, %13) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<1xi64>, tensor<-1x4xf32>, tensor<-1x4xf32>) -> 
    }
    (%16) = "pd_op.fetch" (%7) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
    );
    let mut p = parse(&text);
    run(&mut p, "dce");
    let text = p.to_string();
    assert!(
        text.contains(r#""pd_op.while" (cond=%5, inputs=%0, %3)"#),
        "x and the counter stay\n{text}"
    );
    for gone in ["pd_op.exp", "pd_op.cos", "pd_op.sin"] {
        assert!(!text.contains(gone), "{gone} is dead\n{text}");
    }
    p.verify().unwrap();
}

/// zero-trip loop would not run it; a float division gives inf and moves.
#[test]
fn integer_divisions_stay_in_the_loop() {
    let text = over_inputs(
        r#"    (%6, %7) = "pd_op.while" (cond=%5, inputs=%0, %3) {
    ^%arg_0 {}, %arg_1 {}
        (%8) = "pd_op.floor_divide" (%4, %3) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
        (%9) = "pd_op.divide" (%2, %2) {stop_gradient:[false]} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
        (%10) = "pd_op.matmul" (%arg_0, %9) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x4xf32>, tensor<4x4xf32>) -> tensor<-1x4xf32>
        (%11) = "pd_op.add" (%arg_1, %8) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
        (%12) = "pd_op.less_than" (%11, %4) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%12, %10, %11) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<1xi64>) -> 
    }
    (%13) = "pd_op.fetch" (%6) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#,
    );
    let p = moved(&text);
    assert_eq!(loop_depth(&p, "pd_op.floor_divide"), 1, "{p}");
    assert_eq!(loop_depth(&p, "pd_op.divide"), 0, "{p}");
    p.verify().unwrap();
}

/// An interpolation to a size fixed by its attributes moves; one whose size
/// is a tensor stays (a zero or negative size raises).
#[test]
fn interpolations_move_only_to_a_fixed_size() {
    let text = format!(
        r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4,12,12],stop_gradient:[false]}} : () -> tensor<-1x4x12x12xf32>
    (%1) = "pd_op.data" () {{dtype:int32,name:"size",place:Place(undefined:0),shape:[2],stop_gradient:[true]}} : () -> tensor<2xi32>
    (%2) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0}} : () -> tensor<1xf32>
    {COUNTER}
    (%6, %7) = "pd_op.while" (cond=%5, inputs=%2, %3) {{
    ^%arg_0 {{}}, %arg_1 {{}}
        (%8) = "pd_op.bilinear_interp" (%0, <<NULL VALUE>>, <<NULL VALUE>>, <<NULL VALUE>>) {{align_corners:true,align_mode:0,data_format:"NCHW",interp_method:"bilinear",out_d:-1,out_h:20,out_w:20,scale:[],stop_gradient:[false]}} : (tensor<-1x4x12x12xf32>, <<NULL TYPE>>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x4x20x20xf32>
        (%9) = "pd_op.nearest_interp" (%0, %1, <<NULL VALUE>>, <<NULL VALUE>>) {{align_corners:false,align_mode:0,data_format:"NCHW",interp_method:"nearest",out_d:-1,out_h:-1,out_w:-1,scale:[],stop_gradient:[false]}} : (tensor<-1x4x12x12xf32>, tensor<2xi32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<-1x4x-1x-1xf32>
        (%10) = "pd_op.mean_all" (%8) {{stop_gradient:[false]}} : (tensor<-1x4x20x20xf32>) -> tensor<f32>
        (%11) = "pd_op.mean_all" (%9) {{stop_gradient:[false]}} : (tensor<-1x4x-1x-1xf32>) -> tensor<f32>
        (%12) = "pd_op.add" (%10, %11) {{stop_gradient:[false]}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
        (%13) = "pd_op.add" (%arg_0, %12) {{stop_gradient:[false]}} : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
        (%14) = "pd_op.increment_" (%arg_1) {{value:1,stop_gradient:[true]}} : (tensor<1xi64>) -> tensor<1xi64>
        (%15) = "pd_op.less_than" (%14, %4) {{stop_gradient:[true]}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%15, %13, %14) {{}} : (tensor<1xb>, tensor<1xf32>, tensor<1xi64>) -> 
    }}
    (%16) = "pd_op.fetch" (%6) {{col:0,name:"out",persistable:[true],stop_gradient:[false]}} : (tensor<1xf32>) -> tensor<1xf32>
}}"#
    );
    let p = moved(&text);
    assert_eq!(loop_depth(&p, "pd_op.bilinear_interp"), 0, "{p}");
    assert_eq!(loop_depth(&p, "pd_op.nearest_interp"), 1, "{p}");
    p.verify().unwrap();
}

/// A legacy loop as Paddle's translator writes it: each variable's next
/// value copied into its argument (`assign_out_`) and the copy yielded.
/// `$READ_AFTER` is put after the loop, `$IN_BODY` after the copies.
fn legacy_loop(read_after: &str, in_body: &str) -> String {
    let text = r#"{
    (%0) = "pd_op.feed" () {col:0,name:"x",persistable:[false],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%2) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
    (%3) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:3} : () -> tensor<1xi64>
    (%4) = "pd_op.less_than" (%2, %3) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%5) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%6, %7) = "pd_op.while" (cond=%4, inputs=%1, %2) {
    ^%arg_0 {}, %arg_1 {}
        (%8) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
        (%9) = "pd_op.scale" (%arg_0, %8) {bias:0,bias_after_scale:true,stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<1xf32>) -> tensor<-1x4xf32>
        (%10) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%11) = "pd_op.scale" (%arg_1, %10) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%12) = "pd_op.less_than" (%11, %3) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        (%13) = "pd_op.assign_out_" (%9, %arg_0) {} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
        (%14) = "pd_op.assign_out_" (%11, %arg_1) {} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
        (%15) = "pd_op.assign_out_" (%12, %4) {} : (tensor<1xb>, tensor<1xb>) -> tensor<1xb>
        IN_BODY
        () = "cf.yield" (%15, %13, %14) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<1xi64>) -> 
    }
    (%16) = "pd_op.fetch" (%6) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%17) = "pd_op.fetch" (%5) {col:1,name:"before",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    READ_AFTER
}"#;
    text.replace("IN_BODY", in_body)
        .replace("READ_AFTER", read_after)
}

fn forwarded(text: &str) -> Program {
    let mut p = parse(text);
    run(&mut p, "forward_loop_assigns");
    p.verify().unwrap();
    p
}

/// The copies go: the loop yields the variables' next values and the next
/// condition, and no longer writes its input `%1`, which `exp` read before
/// the loop, nor its condition operand.
#[test]
fn legacy_loop_copies_are_forwarded() {
    let p = forwarded(&legacy_loop("", ""));
    assert_eq!(placement(&p, "pd_op.assign_out_"), (0, 0), "{p}");
    let text = p.to_string();
    // Printing renumbers: the yield reads the comparison and the two scales.
    assert!(text.contains(r#""cf.yield" (%12, %9, %11)"#), "{text}");
}

/// A copy stays when an op could tell: the input read after the loop (it
/// would see the last value), the argument read after the copy, the next
/// value written in place, or the input read inside the loop; the other
/// copies go. The condition's copy stays when the condition is read after
/// the loop.
#[test]
fn copies_stay_where_the_write_is_seen() {
    let after = r#"(%18) = "pd_op.fetch" (%1) {col:2,name:"input_after",persistable:[true],stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#;
    let arg_after = r#"(%18) = "pd_op.abs" (%arg_0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#;
    let next_written = r#"(%18) = "pd_op.relu_" (%9) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#;
    let input_in_body = r#"(%18) = "pd_op.abs" (%1) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>"#;
    for (read_after, in_body, why) in [
        (after, "", "input read after the loop"),
        ("", arg_after, "argument read after the copy"),
        ("", next_written, "next value written in place"),
        ("", input_in_body, "input read in the loop"),
    ] {
        let p = forwarded(&legacy_loop(read_after, in_body));
        assert_eq!(placement(&p, "pd_op.assign_out_"), (0, 1), "{why}\n{p}");
    }
}
