//! Value semantics (seed §2.5.1): `to_vtensor` (Pass 1) surrounds ops with
//! value semantics by copies, `drop_vtensor_copies` (Pass 2) removes the
//! copies nothing can tell apart from their source, `lower_vtensor` goes
//! back to Paddle's types. Programs are written in Paddle's text; every run
//! verifies after each pass.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

mod common;

use common::{count, parse, run_records};
use pir_core::Program;
use pir_dialects::value_tensor::mentions_value_tensors;
use pir_pass::Statistics;

/// Runs a pipeline, verifying after each pass; returns each pass's counters.
fn run(p: &mut Program, pipeline: &str) -> Vec<Statistics> {
    run_records(p, pipeline)
        .into_iter()
        .map(|r| r.statistics)
        .collect()
}

/// The seed's example with `conv` as `matmul`: `use(a); b = conv(a, w);
/// use(a); use(b)`, the uses being `exp`/`relu` and fetches.
const SEED: &str = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"a",place:Place(undefined:0),shape:[2,2],stop_gradient:[false]} : () -> tensor<2x2xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[2,2],stop_gradient:[false]} : () -> tensor<2x2xf32>
    (%2) = "pd_op.exp" (%0) {stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%3) = "pd_op.matmul" (%0, %1) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    (%4) = "pd_op.relu" (%0) {stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%5) = "pd_op.relu" (%3) {stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%6) = "pd_op.fetch" (%2) {col:0,name:"e",persistable:[true],stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%7) = "pd_op.fetch" (%4) {col:1,name:"r",persistable:[true],stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%8) = "pd_op.fetch" (%5) {col:2,name:"b",persistable:[true],stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
}
"#;

/// Pass 1: one `to_vtensor` per input value (shared by its readers, as
/// nothing writes the inputs), a value-tensor op, one `to_tensor` per
/// result; the op order is the input's.
#[test]
fn pass1_copies_around_each_op_with_value_semantics() {
    let mut p = parse(SEED);
    let stats = run(&mut p, "to_vtensor");
    assert_eq!(stats[0].get("ops converted"), 4);
    assert_eq!(stats[0].get("to_vtensor inserted"), 3, "a, w, b");
    assert_eq!(stats[0].get("to_tensor inserted"), 4);
    assert_eq!(
        p.to_string(),
        r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"a",place:Place(undefined:0),shape:[2,2],stop_gradient:[false]} : () -> tensor<2x2xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[2,2],stop_gradient:[false]} : () -> tensor<2x2xf32>
    (%2) = "vt.to_vtensor" (%0) {} : (tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%3) = "pd_op.exp" (%2) {stop_gradient:[false]} : (v_tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%4) = "vt.to_tensor" (%3) {} : (v_tensor<2x2xf32>) -> tensor<2x2xf32>
    (%5) = "vt.to_vtensor" (%1) {} : (tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%6) = "pd_op.matmul" (%2, %5) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (v_tensor<2x2xf32>, v_tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%7) = "vt.to_tensor" (%6) {} : (v_tensor<2x2xf32>) -> tensor<2x2xf32>
    (%8) = "pd_op.relu" (%2) {stop_gradient:[false]} : (v_tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%9) = "vt.to_tensor" (%8) {} : (v_tensor<2x2xf32>) -> tensor<2x2xf32>
    (%10) = "vt.to_vtensor" (%7) {} : (tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%11) = "pd_op.relu" (%10) {stop_gradient:[false]} : (v_tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%12) = "vt.to_tensor" (%11) {} : (v_tensor<2x2xf32>) -> tensor<2x2xf32>
    (%13) = "pd_op.fetch" (%4) {col:0,name:"e",persistable:[true],stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%14) = "pd_op.fetch" (%9) {col:1,name:"r",persistable:[true],stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%15) = "pd_op.fetch" (%12) {col:2,name:"b",persistable:[true],stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
}
"#
    );
    // Ops already on value tensors are left alone.
    let again = run(&mut p, "to_vtensor");
    assert_eq!(again[0].get("ops converted"), 0);
}

/// Pass 2: `b` is only read, so `relu` reads `matmul`'s value tensor
/// directly; the copies left are at the inputs and the fetches.
#[test]
fn pass2_leaves_copies_only_at_the_boundaries() {
    let mut p = parse(SEED);
    let stats = run(&mut p, "to_vtensor,drop_vtensor_copies");
    assert_eq!(stats[1].get("copies forwarded"), 1);
    assert_eq!(stats[1].get("to_tensor erased"), 1);
    assert_eq!(
        p.to_string(),
        r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"a",place:Place(undefined:0),shape:[2,2],stop_gradient:[false]} : () -> tensor<2x2xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[2,2],stop_gradient:[false]} : () -> tensor<2x2xf32>
    (%2) = "vt.to_vtensor" (%0) {} : (tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%3) = "pd_op.exp" (%2) {stop_gradient:[false]} : (v_tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%4) = "vt.to_tensor" (%3) {} : (v_tensor<2x2xf32>) -> tensor<2x2xf32>
    (%5) = "vt.to_vtensor" (%1) {} : (tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%6) = "pd_op.matmul" (%2, %5) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (v_tensor<2x2xf32>, v_tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%7) = "pd_op.relu" (%2) {stop_gradient:[false]} : (v_tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%8) = "vt.to_tensor" (%7) {} : (v_tensor<2x2xf32>) -> tensor<2x2xf32>
    (%9) = "pd_op.relu" (%6) {stop_gradient:[false]} : (v_tensor<2x2xf32>) -> v_tensor<2x2xf32>
    (%10) = "vt.to_tensor" (%9) {} : (v_tensor<2x2xf32>) -> tensor<2x2xf32>
    (%11) = "pd_op.fetch" (%4) {col:0,name:"e",persistable:[true],stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%12) = "pd_op.fetch" (%8) {col:1,name:"r",persistable:[true],stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    (%13) = "pd_op.fetch" (%10) {col:2,name:"b",persistable:[true],stop_gradient:[false]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
}
"#
    );
}

/// The seed's `conv + bn + relu` chain (here `matmul + add + relu` of an
/// MLP with parameters): after both passes the whole chain is on value
/// tensors, with one copy per input and one before the output.
#[test]
fn a_chain_becomes_value_tensors_end_to_end() {
    let text = r#"{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>
    (%3) = "pd_op.matmul" (%2, %1) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x8xf32>, tensor<8x4xf32>) -> tensor<-1x4xf32>
    (%4) = "pd_op.add" (%3, %0) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<4xf32>) -> tensor<-1x4xf32>
    (%5) = "pd_op.relu" (%4) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    () = "builtin.shadow_output" (%5) {output_name:"out"} : (tensor<-1x4xf32>) -> 
}
"#;
    let mut p = parse(text);
    let stats = run(&mut p, "to_vtensor,drop_vtensor_copies");
    assert_eq!(stats[0].get("to_vtensor inserted"), 5);
    assert_eq!(stats[1].get("copies forwarded"), 2);
    assert_eq!(
        p.to_string(),
        r#"{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"b",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<8x4xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>
    (%3) = "vt.to_vtensor" (%2) {} : (tensor<-1x8xf32>) -> v_tensor<-1x8xf32>
    (%4) = "vt.to_vtensor" (%1) {} : (tensor<8x4xf32>) -> v_tensor<8x4xf32>
    (%5) = "pd_op.matmul" (%3, %4) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (v_tensor<-1x8xf32>, v_tensor<8x4xf32>) -> v_tensor<-1x4xf32>
    (%6) = "vt.to_vtensor" (%0) {} : (tensor<4xf32>) -> v_tensor<4xf32>
    (%7) = "pd_op.add" (%5, %6) {stop_gradient:[false]} : (v_tensor<-1x4xf32>, v_tensor<4xf32>) -> v_tensor<-1x4xf32>
    (%8) = "pd_op.relu" (%7) {stop_gradient:[false]} : (v_tensor<-1x4xf32>) -> v_tensor<-1x4xf32>
    (%9) = "vt.to_tensor" (%8) {} : (v_tensor<-1x4xf32>) -> tensor<-1x4xf32>
    () = "builtin.shadow_output" (%9) {output_name:"out"} : (tensor<-1x4xf32>) -> 
}
"#
    );
    let stats = run(&mut p, "lower_vtensor");
    assert_eq!(stats[0].get("assigns inserted"), 0);
    assert_eq!(p.to_string(), parse(text).to_string());
}

/// All three passes give back the input, and no `vt` op or type remains.
#[test]
fn lowering_gives_back_the_input() {
    let mut p = parse(SEED);
    let stats = run(&mut p, "to_vtensor,drop_vtensor_copies,lower_vtensor");
    assert_eq!(stats[2].get("copies forwarded"), 5, "2 copies in, 3 out");
    assert_eq!(stats[2].get("assigns inserted"), 0);
    assert!(!mentions_value_tensors(&p), "{p}");
    assert_eq!(p.to_string(), SEED);
}

const ABS_RELU_: &str = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.relu_" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.add" (%2, %4) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%6) = "pd_op.fetch" (%5) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
"#;

/// `relu_` writes `abs`'s result: it stays a tensor, each read of it gets
/// its own copy taken where the read was (before and after the write), and
/// the copy into it stays. Lowering still gives back the input: every copy
/// is read before anything writes its source.
#[test]
fn a_tensor_written_in_place_keeps_its_copies() {
    let mut p = parse(ABS_RELU_);
    let stats = run(&mut p, "to_vtensor,drop_vtensor_copies");
    assert_eq!(stats[0].get("ops converted"), 4);
    assert_eq!(
        p.to_string(),
        r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "vt.to_vtensor" (%0) {} : (tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%2) = "pd_op.abs" (%1) {stop_gradient:[false]} : (v_tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%3) = "vt.to_tensor" (%2) {} : (v_tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "vt.to_vtensor" (%3) {} : (tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%5) = "pd_op.exp" (%4) {stop_gradient:[false]} : (v_tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%6) = "pd_op.relu_" (%3) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%7) = "vt.to_vtensor" (%3) {} : (tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%8) = "pd_op.exp" (%7) {stop_gradient:[false]} : (v_tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%9) = "pd_op.add" (%5, %8) {stop_gradient:[false]} : (v_tensor<2x3xf32>, v_tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%10) = "vt.to_tensor" (%9) {} : (v_tensor<2x3xf32>) -> tensor<2x3xf32>
    (%11) = "pd_op.fetch" (%10) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
"#
    );
    let stats = run(&mut p, "lower_vtensor");
    assert_eq!(stats[0].get("assigns inserted"), 0);
    assert_eq!(p.to_string(), ABS_RELU_);
}

/// Where a copy is observable, lowering makes it a real copy: `%2` copies
/// `%1` before `relu_` writes it and is read after, and `%9` is written in
/// place while its source is read again. The other copies are read before
/// any write (`%4`) or nothing writes either side (`%11`): they go.
#[test]
fn lowering_assigns_exactly_where_a_write_follows_the_copy() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "vt.to_vtensor" (%1) {} : (tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%3) = "pd_op.relu_" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "vt.to_vtensor" (%1) {} : (tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%5) = "pd_op.exp" (%4) {stop_gradient:[false]} : (v_tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%6) = "pd_op.exp" (%2) {stop_gradient:[false]} : (v_tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%7) = "pd_op.add" (%5, %6) {stop_gradient:[false]} : (v_tensor<2x3xf32>, v_tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%8) = "pd_op.tanh" (%7) {stop_gradient:[true]} : (v_tensor<2x3xf32>) -> v_tensor<2x3xf32>
    (%9) = "vt.to_tensor" (%8) {} : (v_tensor<2x3xf32>) -> tensor<2x3xf32>
    (%10) = "pd_op.relu_" (%9) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%11) = "vt.to_tensor" (%8) {} : (v_tensor<2x3xf32>) -> tensor<2x3xf32>
    (%12) = "pd_op.add" (%10, %11) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%13) = "pd_op.fetch" (%12) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
"#;
    let mut p = parse(text);
    p.verify().unwrap();
    let stats = run(&mut p, "lower_vtensor");
    assert_eq!(stats[0].get("assigns inserted"), 2);
    assert_eq!(stats[0].get("copies forwarded"), 2);
    assert!(!mentions_value_tensors(&p));
    assert_eq!(
        p.to_string(),
        r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.abs" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "pd_op.assign" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.relu_" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.exp" (%2) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%6) = "pd_op.add" (%4, %5) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%7) = "pd_op.tanh" (%6) {stop_gradient:[true]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%8) = "pd_op.assign" (%7) {stop_gradient:[true]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%9) = "pd_op.relu_" (%8) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%10) = "pd_op.add" (%9, %7) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%11) = "pd_op.fetch" (%10) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
"#
    );
}

/// A loop rebinds its carried variables: they stay tensors, with copies at
/// the loop's edges, and lowering gives back the input.
#[test]
fn loops_keep_their_carried_tensors() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.data" () {dtype:int64,name:"n",place:Place(undefined:0),shape:[1],stop_gradient:[false]} : () -> tensor<1xi64>
    (%2) = "pd_op.assign" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
    (%4) = "pd_op.less_than" (%3, %1) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%5, %6) = "pd_op.while" (cond=%4, inputs=%2, %3) {
    ^%arg_0 {}, %arg_1 {}
        (%7) = "pd_op.relu_" (%arg_0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
        (%8) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%9) = "pd_op.scale" (%arg_1, %8) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%10) = "pd_op.less_than" (%9, %1) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%10, %7, %9) {} : (tensor<1xb>, tensor<2x3xf32>, tensor<1xi64>) -> 
    }
    (%11) = "pd_op.add" (%5, %0) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%12) = "pd_op.fetch" (%11) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
"#;
    let mut p = parse(text);
    run(&mut p, "to_vtensor,drop_vtensor_copies");
    let after = p.to_string();
    // Seven ops on value tensors (`assign`, `full`, `less_than` before the
    // loop, `full`, `scale`, `less_than` in it, `add` after it) and seven
    // copies in: the loop's tensors are not forwarded (it rebinds them),
    // so `full`'s copy out, carried by the loop, is copied in again for
    // `less_than`, and `scale`'s, yielded, for the body's `less_than`.
    assert_eq!(after.matches("-> v_tensor<").count(), 7 + 7, "{after}");
    assert_eq!(count(&p, "vt.to_vtensor"), 7, "{after}");
    assert!(after.contains(r#""vt.to_vtensor" (%arg_1)"#), "{after}");
    run(&mut p, "lower_vtensor");
    assert_eq!(p.to_string(), parse(text).to_string());
}

/// The type prints as `v_tensor<…>`, parses back from Paddle's form and
/// the typed form, and a program holding it goes JSON → program → JSON
/// byte for byte (compact and readable) and through the typed text.
#[test]
fn value_tensor_programs_print_parse_and_save() {
    let mut p = parse(SEED);
    run(&mut p, "to_vtensor,drop_vtensor_copies");
    let text = p.to_string();
    assert_eq!(parse(&text).to_string(), text);

    // Typed form, with a layout, LoD and offset only it shows.
    let typed_in = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32, layout:NHWC, lod:[[0,1,2]], offset:4>
    (%1) = "vt.to_vtensor" (%0) {} : (tensor<2x3xf32, layout:NHWC, lod:[[0,1,2]], offset:4>) -> v_tensor<2x3xf32, layout:NHWC, lod:[[0,1,2]], offset:4>
    (%2) = "vt.to_tensor" (%1) {} : (v_tensor<2x3xf32, layout:NHWC, lod:[[0,1,2]], offset:4>) -> tensor<2x3xf32, layout:NHWC, lod:[[0,1,2]], offset:4>
    (%3) = "pd_op.fetch" (%2) {col:0,name:"out",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32, layout:NHWC, lod:[[0,1,2]], offset:4>) -> tensor<2x3xf32, layout:NHWC, lod:[[0,1,2]], offset:4>
}
"#;
    let q = parse(typed_in);
    q.verify().unwrap();
    let typed = String::from_utf8(q.print_with(
        pir_core::printer::PrintOptions {
            typed: true,
            json_ids: false,
        },
        &[],
    ))
    .unwrap();
    assert!(
        typed.contains("v_tensor<2x3xf32, layout:NHWC, lod:[[0,1,2]], offset:4>"),
        "{typed}"
    );
    assert!(
        q.to_string().contains("-> v_tensor<2x3xf32>"),
        "Paddle's form leaves the extras out"
    );
    let typed_back = pir_serde::read_text(pir_dialects::pd_op_context(), &typed)
        .unwrap()
        .program;
    let typed_again = typed_back.print_with(
        pir_core::printer::PrintOptions {
            typed: true,
            json_ids: false,
        },
        &[],
    );
    assert_eq!(String::from_utf8(typed_again).unwrap(), typed);

    for program in [&p, &q] {
        for readable in [false, true] {
            let options = pir_serde::WriteOptions {
                readable,
                ..Default::default()
            };
            let json = pir_serde::write_to_vec(program, &options).unwrap();
            let json_text = String::from_utf8(json.clone()).unwrap();
            assert!(json_text.contains("\"vt.t_vtensor\""), "{json_text}");
            assert!(json_text.contains("\"vt.to_vtensor\""), "{json_text}");
            let ctx = pir_dialects::pd_op_context();
            let back = pir_serde::read_slice(ctx, &json, &Default::default())
                .unwrap()
                .program;
            back.verify().unwrap();
            assert_eq!(back.to_string(), program.to_string());
            assert_eq!(pir_serde::write_to_vec(&back, &options).unwrap(), json);
        }
    }
}

/// The copies' verifiers check the kinds on each side and equal data.
#[test]
fn malformed_copies_do_not_verify() {
    let cases = [
        (
            r#"(%1) = "vt.to_vtensor" (%0) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#,
            "copies a tensor into a v_tensor",
        ),
        (
            r#"(%1) = "vt.to_vtensor" (%0) {} : (tensor<2x3xf32>) -> v_tensor<3x2xf32>"#,
            "same data",
        ),
        (
            r#"(%1) = "vt.to_tensor" (%0) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#,
            "copies a v_tensor into a tensor",
        ),
        (
            r#"(%1, %2) = "vt.to_vtensor" (%0) {} : (tensor<2x3xf32>) -> v_tensor<2x3xf32>, v_tensor<2x3xf32>"#,
            "expects 1 operand and 1 result",
        ),
    ];
    for (line, message) in cases {
        let text = format!(
            r#"{{
    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]}} : () -> tensor<2x3xf32>
    {line}
}}
"#
        );
        let err = parse(&text).verify().unwrap_err().to_string();
        assert!(err.contains(message), "{line}: {err}");
    }
}

/// Ops reading vectors (`concat` of a `combine`) keep their tensors; their
/// inputs' value tensors are copied out once and their results copied in.
#[test]
fn ops_on_vectors_keep_tensors() {
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.exp" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%2) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>
    (%3) = "builtin.combine" (%1, %1) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> vec[tensor<2x3xf32>,tensor<2x3xf32>]
    (%4) = "pd_op.concat" (%3, %2) {stop_gradient:[false]} : (vec[tensor<2x3xf32>,tensor<2x3xf32>], tensor<1xi32>) -> tensor<4x3xf32>
    (%5) = "pd_op.tanh" (%4) {stop_gradient:[false]} : (tensor<4x3xf32>) -> tensor<4x3xf32>
    (%6) = "pd_op.tanh" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%7) = "pd_op.fetch" (%5) {col:0,name:"a",persistable:[true],stop_gradient:[false]} : (tensor<4x3xf32>) -> tensor<4x3xf32>
    (%8) = "pd_op.fetch" (%6) {col:1,name:"b",persistable:[true],stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
"#;
    let mut p = parse(text);
    let stats = run(&mut p, "to_vtensor,drop_vtensor_copies");
    assert_eq!(stats[0].get("ops converted"), 4, "exp, full, tanh, tanh");
    let after = p.to_string();
    assert!(after.contains(r#""pd_op.concat" (%"#), "{after}");
    let concat = after.lines().find(|l| l.contains("pd_op.concat")).unwrap();
    assert!(concat.ends_with("-> tensor<4x3xf32>"), "{concat}");
    // `exp`'s copy out feeds `combine`; the second `tanh` reads `exp`'s
    // value tensor directly (nothing writes the copy).
    assert_eq!(count(&p, "vt.to_tensor"), 4, "{after}");
    assert_eq!(count(&p, "vt.to_vtensor"), 2, "{after}");
    run(&mut p, "lower_vtensor");
    assert_eq!(p.to_string(), parse(text).to_string());
}

/// The models the corpus tests read: Paddle 3.3.1's, older releases'
/// (upgraded on reading), and the control-flow models of
/// `tests/corpus/control_flow` (loops, branches, in-place ops on carried
/// and captured values, views).
fn corpus_files() -> Vec<(String, std::path::PathBuf)> {
    let mut files: Vec<_> = pir_corpus::models()
        .into_iter()
        .chain(pir_corpus::compat_models())
        .map(|m| (m.label(), m.json()))
        .collect();
    let dir = pir_corpus::repo_root().join("tests/corpus/control_flow");
    let mut control_flow: Vec<_> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".json") && !name.ends_with(".meta.json") && name != "index.json"
        })
        .map(|p| {
            let stem = p.file_stem().and_then(|n| n.to_str()).unwrap_or("");
            (format!("control_flow/{stem}"), p)
        })
        .collect();
    control_flow.sort();
    files.extend(control_flow);
    files
}

/// Every corpus model goes through the three passes, verifying after each,
/// and prints exactly as it was loaded — those with in-place ops, views and
/// loops included. In between, the only copies left are boundaries: a copy
/// back of a copy out survives only where the tensor is written.
#[test]
fn corpus_models_come_back_unchanged() {
    let mut failures = Vec::new();
    let files = corpus_files();
    for (name, path) in &files {
        let ctx = pir_dialects::pd_op_context();
        let original = pir_serde::read_file(ctx, path, &Default::default())
            .unwrap()
            .program;
        let mut p = original.clone();
        run(&mut p, "to_vtensor,drop_vtensor_copies");
        let q = &p;
        q.walk(q.module_op(), pir_core::walk::Order::Pre, &mut |op| {
            if q.op_name_str(op) != "vt.to_vtensor" {
                return;
            }
            let Some(x) = q.operand(op, 0) else { return };
            let from_copy = q
                .defining_op(x)
                .is_some_and(|d| q.op_name_str(d) == "vt.to_tensor");
            if from_copy && !pir_pass::alias::alias_class(q, x).facts.written {
                failures.push(format!("{name}: {}", q.op_to_string(op)));
            }
        });
        run(&mut p, "lower_vtensor");
        assert!(!mentions_value_tensors(&p), "{name}");
        if p.to_string() != original.to_string() {
            failures.push(format!("{name}: differs after lowering"));
        }
    }
    assert!(files.len() >= 5, "{files:?}"); // the shipped copies at least
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The passes are registered under their arguments.
#[test]
fn passes_are_registered() {
    for name in ["to_vtensor", "drop_vtensor_copies", "lower_vtensor"] {
        let info = pir_pass::registry::lookup(name).unwrap();
        let pass = pir_pass::registry::parse_pipeline(name).unwrap().remove(0);
        assert_eq!(pass.argument(), info.argument);
        assert_eq!(pass.description(), info.description);
        assert!(pir_pass::registry::parse_pipeline(&format!("{name}{{x=1}}")).is_err());
    }
}
