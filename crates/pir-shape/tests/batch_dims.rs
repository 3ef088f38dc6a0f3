//! Which values share their leading (batch) dim by the symbolic shapes:
//! the questions the batch-size, loop-motion and in-place passes ask,
//! through batch-keeping ops, element-wise ops, loops and branches.
#![allow(clippy::unwrap_used)] // a test fails loudly by design

use pir_core::{OpId, Program, ValueId};
use pir_shape::{Assume, ShapeAnalysis};

/// Whether `a` and `b` have the same leading dim by the analysis.
fn same_batch(shapes: &ShapeAnalysis, a: ValueId, b: ValueId) -> bool {
    shapes.same_dim(a, 0, b, 0)
}

/// conv, norm and activation keep the data input's batch; a binary op
/// of two such values keeps it; so does a reshape whose `-1` is the
/// batch by the element count.
#[test]
fn batch_follows_batch_keeping_ops_only() {
    let ctx = pir_dialects::pd_op_context();
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,2,4,4],stop_gradient:[false]} : () -> tensor<-1x2x4x4xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2x2x1x1xf32>
    (%2) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[0,0],stop_gradient:[false],strides:[1,1]} : (tensor<-1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<-1x2x4x4xf32>
    (%3) = "pd_op.relu" (%2) {stop_gradient:[false]} : (tensor<-1x2x4x4xf32>) -> tensor<-1x2x4x4xf32>
    (%4) = "pd_op.add" (%3, %0) {stop_gradient:[false]} : (tensor<-1x2x4x4xf32>, tensor<-1x2x4x4xf32>) -> tensor<-1x2x4x4xf32>
    (%5) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[-1,2,4,4]} : () -> tensor<4xi64>
    (%6, %7) = "pd_op.reshape" (%4, %5) {stop_gradient:[false]} : (tensor<-1x2x4x4xf32>, tensor<4xi64>) -> tensor<-1x2x4x4xf32>, tensor<0x-1x2x4x4xf32>
}"#;
    let p = Program::parse(&ctx, text).unwrap();
    let shapes = ShapeAnalysis::run(&p);
    let ops: Vec<OpId> = p.block_ops(p.top_block()).collect();
    let value = |n: usize| p.results(ops[n]).next().unwrap();
    let data = value(0);
    for op in [2, 3, 4] {
        assert!(same_batch(&shapes, value(op), data), "op {op}");
    }
    assert!(
        same_batch(&shapes, value(6), data),
        "the reshape's -1 is 32 * batch / 32"
    );
}

/// Element-wise ops without Paddle's traits (`gelu`, `pow`, `minimum`,
/// `where`) keep the batch too; `where` takes its condition's shape, so
/// reading another data input does not make the two inputs' batches one.
#[test]
fn element_wise_ops_without_traits_keep_the_batch() {
    let ctx = pir_dialects::pd_op_context();
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,8],stop_gradient:[false]} : () -> tensor<-1x8xf32>
    (%2) = "pd_op.gelu" (%0) {approximate:false,stop_gradient:[false]} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%3) = "pd_op.pow" (%2) {stop_gradient:[false],y:2} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%4) = "pd_op.minimum" (%3, %0) {stop_gradient:[false]} : (tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%5) = "pd_op.greater_than" (%4, %0) {stop_gradient:[false]} : (tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xb>
    (%6) = "pd_op.where" (%5, %4, %0) {stop_gradient:[false]} : (tensor<-1x8xb>, tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%7) = "pd_op.where" (%5, %4, %1) {stop_gradient:[false]} : (tensor<-1x8xb>, tensor<-1x8xf32>, tensor<-1x8xf32>) -> tensor<-1x8xf32>
}"#;
    let p = Program::parse(&ctx, text).unwrap();
    let shapes = ShapeAnalysis::run(&p);
    let ops: Vec<OpId> = p.block_ops(p.top_block()).collect();
    let value = |n: usize| p.results(ops[n]).next().unwrap();
    for op in [2, 3, 4, 5, 6, 7] {
        assert!(same_batch(&shapes, value(op), value(0)), "op {op}");
    }
    assert!(
        !same_batch(&shapes, value(1), value(0)),
        "x's and y's batches may differ"
    );
}

/// A loop-carried value keeps its batch when the body yields a value of
/// that batch back, and loses it when the body yields one of another
/// (here the second data input), even through a chain of arguments that
/// first looks consistent.
#[test]
fn loop_carried_values_keep_a_batch_the_body_yields_back() {
    let ctx = pir_dialects::pd_op_context();
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%2) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>
    (%3, %4, %5) = "pd_op.while" (cond=%2, inputs=%0, %0, %0) {
^%arg_0 {}, %arg_1 {}, %arg_2 {}
    (%6) = "pd_op.relu" (%arg_0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%7) = "pd_op.add" (%6, %0) {stop_gradient:[false]} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%8) = "pd_op.exp" (%1) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    (%9) = "pd_op.tanh" (%arg_2) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    () = "cf.yield" (%2, %7, %9, %8) {} : (tensor<1xb>, tensor<-1x4xf32>, tensor<-1x4xf32>, tensor<-1x4xf32>) -> 
}
}"#;
    let p = Program::parse(&ctx, text).unwrap();
    let shapes = ShapeAnalysis::run(&p);
    let ops: Vec<OpId> = p.block_ops(p.top_block()).collect();
    let x = p.result(ops[0], 0);
    let body = p.region_blocks(p.regions(ops[3]).next().unwrap())[0];
    let args = p.block_args(body).to_vec();
    let body_ops: Vec<OpId> = p.block_ops(body).collect();
    assert!(
        same_batch(&shapes, args[0], x),
        "relu and add of x keep x's batch"
    );
    assert!(same_batch(&shapes, p.result(ops[3], 0), x));
    assert!(same_batch(&shapes, p.result(body_ops[1], 0), x));
    // %arg_2 gets y's batch after one iteration, so %arg_1 = tanh(%arg_2)
    // does after two: neither keeps x's.
    for i in [1, 2] {
        assert!(!same_batch(&shapes, args[i], x), "argument {i}");
        assert!(!same_batch(&shapes, p.result(ops[3], i), x), "result {i}");
    }
    assert!(!same_batch(&shapes, p.result(body_ops[3], 0), x));
}

/// An `if` result has the batch both branches yield, and none when they
/// yield different ones.
#[test]
fn if_results_have_the_batch_every_branch_yields() {
    let ctx = pir_dialects::pd_op_context();
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[-1,4],stop_gradient:[false]} : () -> tensor<-1x4xf32>
    (%2) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>
    (%3, %4) = "pd_op.if" (%2) {stop_gradient:[false,false]} -> tensor<-1x4xf32>, tensor<-1x4xf32> {
    (%5) = "pd_op.relu" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    () = "cf.yield" (%5, %0) {} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> 
} else {
    (%6) = "pd_op.exp" (%0) {stop_gradient:[false]} : (tensor<-1x4xf32>) -> tensor<-1x4xf32>
    () = "cf.yield" (%6, %1) {} : (tensor<-1x4xf32>, tensor<-1x4xf32>) -> 
}
}"#;
    let p = Program::parse(&ctx, text).unwrap();
    let shapes = ShapeAnalysis::run(&p);
    let ops: Vec<OpId> = p.block_ops(p.top_block()).collect();
    let x = p.result(ops[0], 0);
    assert!(same_batch(&shapes, p.result(ops[3], 0), x));
    assert!(!same_batch(&shapes, p.result(ops[3], 1), x));
}

/// A loaded parameter's bytes.
#[derive(Debug)]
struct Bytes(Vec<u8>);

impl pir_core::ParameterData for Bytes {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// The axes constant folding leaves as a loaded int64 parameter are data
/// for the passes (so an `unsqueeze` keeps the batch), while Paddle's
/// print, whose parameters carry no data, gives the result fresh symbols.
#[test]
fn loaded_integer_parameters_are_data_for_passes_only() {
    let ctx = pir_dialects::pd_op_context();
    let text = r#"{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,5],stop_gradient:[false]} : () -> tensor<-1x5xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[false],need_clip:[false],parameter_name:"axes",persistable:[true],stop_gradient:[true],trainable:[false]} : () -> tensor<1xi64>
    (%2) = "pd_op.unsqueeze" (%0, %1) {stop_gradient:[false]} : (tensor<-1x5xf32>, tensor<1xi64>) -> tensor<-1x1x5xf32>
}"#;
    let mut p = Program::parse(&ctx, text).unwrap();
    let ty = p.value_type(
        p.results(p.block_ops(p.top_block()).nth(1).unwrap())
            .next()
            .unwrap(),
    );
    let data = std::sync::Arc::new(Bytes(1i64.to_le_bytes().to_vec()));
    p.set_parameter(
        "axes",
        pir_core::Parameter {
            ty,
            data: Some(data),
        },
    );
    let ops: Vec<OpId> = p.block_ops(p.top_block()).collect();
    let value = |n: usize| p.results(ops[n]).next().unwrap();
    let for_passes = ShapeAnalysis::run_assuming(&p, Assume::TopLevelExcept(Default::default()));
    assert!(same_batch(&for_passes, value(2), value(0)));
    assert_eq!(for_passes.shape(value(2)).map(<[_]>::len), Some(3));
    let as_paddle = ShapeAnalysis::run(&p);
    assert!(!same_batch(&as_paddle, value(2), value(0)));
}

/// The data the passes' analysis gives a loaded parameter of type `ty`
/// holding `bytes`.
fn parameter_data(ty: &str, bytes: Vec<u8>) -> Option<Vec<pir_shape::DimExpr>> {
    let ctx = pir_dialects::pd_op_context();
    let text = format!(
        "{{\n    (%0) = \"builtin.parameter\" () {{is_distributed:[false],is_parameter:[false],need_clip:[false],parameter_name:\"p\",persistable:[true],stop_gradient:[true],trainable:[false]}} : () -> {ty}\n}}\n"
    );
    let mut p = Program::parse(&ctx, &text).unwrap();
    let value = p.result(p.block_ops(p.top_block()).next().unwrap(), 0);
    let param = pir_core::Parameter {
        ty: p.value_type(value),
        data: Some(std::sync::Arc::new(Bytes(bytes))),
    };
    p.set_parameter("p", param);
    let shapes = ShapeAnalysis::run_assuming(&p, Assume::TopLevelExcept(Default::default()));
    shapes.fact(value)?.data().map(<[_]>::to_vec)
}

/// A loaded parameter's elements are read with the width of the value's
/// data type; bytes that do not fill exactly that many elements of it give
/// no data (two int64s are as many bytes as four int32s).
#[test]
fn parameter_elements_are_read_with_the_width_of_the_value_dtype() {
    let i32s = [3i32.to_le_bytes(), (-1i32).to_le_bytes()].concat();
    let i64s = [3i64.to_le_bytes(), (-1i64).to_le_bytes()].concat();
    let want = Some(vec![
        pir_shape::DimExpr::Int(3),
        pir_shape::DimExpr::Int(-1),
    ]);
    assert_eq!(parameter_data("tensor<2xi32>", i32s.clone()), want);
    assert_eq!(parameter_data("tensor<2xi64>", i64s.clone()), want);
    assert_eq!(parameter_data("tensor<2xi32>", i64s), None);
    assert_eq!(
        parameter_data("tensor<4xi64>", [i32s.clone(), i32s].concat()),
        None
    );
}
